package parse

import (
	"strings"
	"testing"
)

// TestAdminRows: the directives the administration rows need read as
// their programs do: a "*" meaning for every option no other meaning
// names (sgdisk), one option and then operands that may start with "-"
// (kill), two-letter flags of a row read one word at a time (kill -1,
// pkill -USR1); the names the shell's unset, readonly and local take.
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
		{`unset -v GUARD_EXEC_X`, "unset", "", "GUARD_EXEC_X"},
		{`unset -f f`, "unset", "functions", "f"},
		{`readonly GUARD_EXEC_X`, "readonly", "", "GUARD_EXEC_X"},
		{`local a b=1`, "local", "", "a b=1"},
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
		flags, ops := sortedFlags(c), operandText(c, RoleData)
		if c.Row != tc.row || flags != tc.want || ops != tc.ops {
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

// TestModeOperand: chmod's first operand is its mode, even when it
// starts with "-", and --reference gives the mode instead; its own
// options stay options wherever they are.
func TestModeOperand(t *testing.T) {
	for _, tc := range []struct {
		line, mode, files, flags string
	}{
		{`chmod 755 a b`, "755", "a b", ""},
		{`chmod -x f`, "-x", "f", ""},
		{`chmod -w,+x f`, "-w,+x", "f", ""},
		{`chmod go-rwx,u=rw f`, "go-rwx,u=rw", "f", ""},
		{`chmod g=u -R d`, "g=u", "d", "recursive"},
		{`chmod -R -w d`, "-w", "d", "recursive"},
		{`chmod -Rv 777 /`, "777", "/", "recursive"},
		{`chmod 777 -R .`, "777", ".", "recursive"},
		{`chmod --recursive a+rwX d`, "a+rwX", "d", "recursive"},
		{`chmod -c -f u+x f`, "u+x", "f", ""},
		{`chmod -- -x f`, "-x", "f", ""},
		{`chmod --reference=r f g`, "", "f g", ""},
		{`chmod --reference r -R f`, "", "f", "recursive"},
		{`chmod -y f`, "f", "", ""},
	} {
		an := Analyze(tc.line, testOptions())
		c := an.Commands[0]
		var mode string
		var files []string
		for _, ra := range c.Roles {
			switch {
			case ra.Opt != "" || ra.Role != RoleData:
			case ra.Lang == "mode":
				mode = ra.Word.Value
			default:
				files = append(files, ra.Word.Value)
			}
		}
		if c.Row != "chmod" || mode != tc.mode || strings.Join(files, " ") != tc.files || strings.Join(c.Flags, " ") != tc.flags {
			t.Errorf("%q: row %q mode %q files %q flags %q, want %q %q %q", tc.line, c.Row, mode, files, c.Flags, tc.mode, tc.files, tc.flags)
		}
	}
	for _, tc := range []struct {
		v    string
		mode bool
	}{
		{"-x", true}, {"-rwx", true}, {"-w,+x", true}, {"a=", true}, {"g=u", true}, {"u+s,o-t", true}, {"-X", true},
		{"-R", false}, {"-v", false}, {"-Rx", false}, {"--x", false}, {"--", false}, {"u", false}, {"-y", false}, {"g=uw", false}, {"+x,", false},
	} {
		if got := symbolicMode(tc.v); got != tc.mode {
			t.Errorf("symbolicMode(%q) = %v, want %v", tc.v, got, tc.mode)
		}
	}
}
