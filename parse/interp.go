package parse

// interpreterSinks returns the sinks for language interpreters.
func interpreterSinks() map[string]sinkFunc { return nil }
