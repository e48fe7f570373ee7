package main

import (
	"os"
	"strings"
	"testing"
)

// TestNthField: the field scanner procStart uses agrees with strings.Fields,
// including runs of spaces and a missing field.
func TestNthField(t *testing.T) {
	for _, s := range []string{
		"", " ", "a", " a  b\tc\n", "S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21\n",
	} {
		f := strings.Fields(s)
		for n := 0; n <= len(f); n++ {
			got, ok := nthField(s, n)
			if n < len(f) && (!ok || got != f[n]) || n == len(f) && ok {
				t.Errorf("nthField(%q, %d) = %q, %v; fields %q", s, n, got, ok, f)
			}
		}
	}
}

// TestProcStart: the start time of this process, read from its stat line,
// whose command name may hold spaces and parentheses.
func TestProcStart(t *testing.T) {
	s, ok := readProcStat(os.Getpid())
	if !ok {
		t.Skip("no /proc")
	}
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	if got := procStart(os.Getpid()); got != f[19] || got == "0" {
		t.Errorf("procStart = %q, want %q", got, f[19])
	}
}
