package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkShellTrue is `guard-exec -c true` in-process: everything the
// guard does per command (analysis, rules, ledger records, starting bash
// and waiting), without the cost of starting the guard's own process.
func BenchmarkShellTrue(b *testing.B) {
	dir := b.TempDir()
	null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer null.Close()
	env := append(os.Environ(), "GUARD_EXEC_LEDGER_DIR="+filepath.Join(dir, "ledger"), "GUARD_EXEC_SESSION=bench")
	st := &stdio{in: null, out: null, err: null}
	args := []string{"guard-exec", "-c", "true"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := run(context.Background(), args, env, st); err != nil {
			b.Fatal(err)
		}
	}
}
