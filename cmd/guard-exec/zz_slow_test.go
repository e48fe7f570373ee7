package main

import "testing"

func BenchmarkZZSlow(b *testing.B) {
	g, dir := benchGuard(b)
	for i := 0; i < b.N; i++ {
		g.decide(`rm -rf "$UNSET"/*`, dir)
		g.decide(`rm -rf /*`, dir)
	}
}
