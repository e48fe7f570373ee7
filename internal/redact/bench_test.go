package redact

import (
	"strings"
	"testing"
)

// A command and a 4 KiB output digest with no secret in them: the common
// path, paid by every command the guard records.
var (
	plainCommand = `go test -race -count=1 -run 'TestAppend|TestTail' ./ledger/... 2>&1 | tee /tmp/out.txt`
	plainDigest  = strings.Repeat("ok  \tgithub.com/guard-exec/guard-exec/parse\t0.412s\n"+
		"--- PASS: TestParseHeredoc (0.00s)\n    parse_test.go:88: 14 commands, 3 nested scripts\n", 30)[:4096]
)

func BenchmarkRedactNoSecret(b *testing.B) {
	b.Run("command", func(b *testing.B) {
		b.SetBytes(int64(len(plainCommand)))
		for b.Loop() {
			if String(plainCommand, nil) != plainCommand {
				b.Fatal("changed")
			}
		}
	})
	b.Run("digest4k", func(b *testing.B) {
		b.SetBytes(int64(len(plainDigest)))
		for b.Loop() {
			if String(plainDigest, nil) != plainDigest {
				b.Fatal("changed")
			}
		}
	})
}

func BenchmarkRedactSecret(b *testing.B) {
	s := `curl -H "Authorization: Bearer ` + bearer + `" https://bob:` + password + `@api.x.io/v1?token=` + ghClassic
	for b.Loop() {
		String(s, nil)
	}
}

func BenchmarkStripANSI(b *testing.B) {
	colored := []byte(strings.Repeat("\x1b[32mok\x1b[0m  \tgithub.com/guard-exec/guard-exec/parse\t0.412s\n", 60))
	b.SetBytes(int64(len(colored)))
	for b.Loop() {
		StripANSI(colored)
	}
}

// BenchmarkRedactAdversarial reads a megabyte of each adversarial unit.
func BenchmarkRedactAdversarial(b *testing.B) {
	for _, unit := range adversarial {
		s := strings.Repeat(unit, (1<<20)/len(unit))
		b.Run(unit, func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				String(s, nil)
			}
		})
	}
}
