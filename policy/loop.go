package policy

// History is the loop brake's view of the ledger: how the same command has
// fared in this session. The ledger implements it; policy never reads files
// itself.
type History interface {
	// FailStreak returns how many times in a row, most recent first, the
	// fingerprint failed in the session in that directory.
	FailStreak(session, fingerprint, cwd string) (int, error)
}
