package parse

import (
	"sort"
	"strings"
	"testing"
)

// TestAdminRows: the directives the administration rows need read as
// their programs do: a "*" meaning for every option no other meaning
// names (sgdisk), one option and then operands that may start with "-"
// (kill), two-letter flags of a row read one word at a time (kill -1,
// pkill -USR1).
func TestAdminRows(t *testing.T) {
	for _, tc := range []struct {
		line, row string
		want      string // the meanings, sorted, space separated
		ops       string // the RoleData operands
	}{
		{`sgdisk -p /dev/sda`, "sgdisk", "prints", "/dev/sda"},
		{`sgdisk -p -Z /dev/sda`, "sgdisk", "prints writes", "/dev/sda"},
		{`sgdisk -pZ /dev/sda`, "sgdisk", "prints writes", "/dev/sda"},
		{`sgdisk --zap-all /dev/sda`, "sgdisk", "writes", "/dev/sda"},
		{`sgdisk --pri /dev/sda`, "sgdisk", "prints", "/dev/sda"},
		{`sgdisk $(cat f) /dev/sda`, "sgdisk", "", "\x00 /dev/sda"},
		{`sgdisk -$(cat f) /dev/sda`, "sgdisk", "writes", "/dev/sda"},
		{`kill -9 -1`, "kill", "", "-1"},
		{`kill -1`, "kill", "minus-one", ""},
		{`kill -15 1234`, "kill", "", "1234"},
		{`kill -1 1234`, "kill", "minus-one", "1234"},
		{`kill -s KILL -- -1`, "kill", "", "-1"},
		{`kill -- -1 -2`, "kill", "", "-1 -2"},
		{`kill 1234 -1`, "kill", "", "1234 -1"},
		{`kill -l 9`, "kill", "lists", "9"},
		{`pkill -USR1 node`, "pkill", "", "node"},
		{`mkfs -V /dev/sdb`, "mkfs", "", "/dev/sdb"},
		{`mkfs.ext4 -V`, "mke2fs", "info", ""},
		{`shutdown -h now`, "shutdown", "", "now"},
	} {
		an := Analyze(tc.line, testOptions())
		if len(an.Commands) == 0 {
			t.Errorf("%q: no command", tc.line)
			continue
		}
		c := an.Commands[0]
		for _, x := range an.Commands {
			if x.Name == strings.Fields(tc.line)[0] {
				c = x
			}
		}
		flags := append([]string(nil), c.Flags...)
		sort.Strings(flags)
		var ops []string
		for _, w := range c.Operands(RoleData) {
			ops = append(ops, strings.ReplaceAll(w.Value, Unknown, "\x00"))
		}
		if c.Row != tc.row || strings.Join(flags, " ") != tc.want || strings.Join(ops, " ") != tc.ops {
			t.Errorf("%q: row %q flags %q operands %q, want %q %q %q", tc.line, c.Row, flags, ops, tc.row, tc.want, tc.ops)
		}
	}
	bad := []Program{
		{Name: "x", Flags: "!safe:*"},
		{Name: "x", Flags: "a:* b:*"},
	}
	for i := range bad {
		p := &bad[i]
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%q: compiled; want a panic", p.Flags)
				}
			}()
			p.compile()
		}()
	}
}
