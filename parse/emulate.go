package parse

import (
	"encoding/base64"
	"encoding/hex"
	"strconv"
	"strings"
)

// echo is bash's builtin echo: options -n -e -E in any cluster, escapes
// only with -e (xpg_echo off). In POSIX sh (dash) echo always decodes
// escapes and takes no options, so output with either is left unknown.
func (fr *frame) echo(args []Word) (string, bool) {
	nl, esc := true, false
	i := 0
	for ; i < len(args); i++ {
		a := args[i].Value
		if len(a) < 2 || a[0] != '-' || strings.Trim(a[1:], "neE") != "" {
			break
		}
		if fr.posix() {
			return "", false
		}
		for _, f := range a[1:] {
			switch f {
			case 'n':
				nl = false
			case 'e':
				esc = true
			case 'E':
				esc = false
			}
		}
	}
	var b strings.Builder
	for j, a := range args[i:] {
		if !a.Literal() {
			return "", false
		}
		if j > 0 {
			b.WriteByte(' ')
		}
		v := a.Value
		if strings.IndexByte(v, '\\') >= 0 && fr.posix() {
			return "", false
		}
		if esc {
			var stop bool
			v, stop = echoEscapes(v)
			b.WriteString(v)
			if stop {
				return b.String(), true
			}
			continue
		}
		b.WriteString(v)
	}
	if nl {
		b.WriteByte('\n')
	}
	return b.String(), true
}

// echoEscapes decodes echo -e escapes; stop is set by \c.
func echoEscapes(s string) (string, bool) {
	if strings.IndexByte(s, '\\') < 0 {
		return s, false
	}
	if i := strings.Index(s, `\c`); i >= 0 {
		v, _ := echoEscapes(s[:i])
		return v, true
	}
	// \0nnn is octal in echo; $'…' takes \nnn. Rewrite then share.
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && s[i+1] == '0' {
			j := i + 2
			for j < len(s) && j < i+5 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			n, _ := strconv.ParseUint("0"+s[i+2:j], 8, 16)
			b.WriteByte(byte(n))
			i = j - 1
			continue
		}
		b.WriteByte(s[i])
	}
	return ansiC(b.String()), false
}

// printf emulates bash's printf for plain conversions (%s %b %c %d %%);
// anything fancier leaves the output unknown. printf -v assigns instead.
func (fr *frame) printf(c *Command) (assigned bool) {
	args := c.Args
	target := ""
	if len(args) >= 2 && args[0].Value == "-v" {
		target = args[1].Value
		args = args[2:]
	}
	if len(args) > 0 && args[0].Value == "--" {
		args = args[1:]
	}
	out, ok := printfFormat(args)
	if target != "" {
		if !validName(target) {
			fr.st.forgetVars()
			return true
		}
		if ok {
			fr.st.set(target, strVar(out, false))
		} else {
			fr.st.forget(target)
		}
		c.out, c.outKnown = "", true
		return true
	}
	c.out, c.outKnown = out, ok
	return false
}

func printfFormat(args []Word) (string, bool) {
	if len(args) == 0 || !args[0].Literal() {
		return "", false
	}
	format := args[0].Value
	vals := make([]string, 0, len(args)-1)
	for _, a := range args[1:] {
		if !a.Literal() {
			return "", false
		}
		vals = append(vals, a.Value)
	}
	var b strings.Builder
	for {
		used, ok := printfOnce(&b, format, vals)
		if !ok {
			return "", false
		}
		vals = vals[used:]
		if used == 0 || len(vals) == 0 {
			break
		}
	}
	return b.String(), true
}

func printfOnce(b *strings.Builder, format string, vals []string) (int, bool) {
	used := 0
	next := func() string {
		if used < len(vals) {
			used++
			return vals[used-1]
		}
		return ""
	}
	var lit strings.Builder
	flush := func() {
		b.WriteString(ansiC(lit.String()))
		lit.Reset()
	}
	for i := 0; i < len(format); i++ {
		ch := format[i]
		if ch != '%' {
			lit.WriteByte(ch)
			if ch == '\\' && i+1 < len(format) {
				i++
				lit.WriteByte(format[i])
			}
			continue
		}
		if i+1 >= len(format) {
			return 0, false
		}
		i++
		switch format[i] {
		case '%':
			lit.WriteByte('%')
		case 's':
			flush()
			b.WriteString(next())
		case 'b':
			flush()
			v, stop := echoEscapes(next())
			b.WriteString(v)
			if stop {
				return len(vals), true
			}
		case 'c':
			flush()
			if v := next(); v != "" {
				b.WriteByte(v[0])
			}
		case 'd', 'i':
			flush()
			v := next()
			if v == "" {
				v = "0"
			}
			n, err := strconv.ParseInt(v, 0, 64)
			if err != nil {
				return 0, false
			}
			b.WriteString(strconv.FormatInt(n, 10))
		default:
			return 0, false
		}
	}
	flush()
	return used, true
}

func decodeBase64(s string) (string, bool) {
	clean := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding} {
		if out, err := enc.DecodeString(clean); err == nil {
			return string(out), true
		}
	}
	return "", false
}

func decodeHex(s string) (string, bool) {
	clean := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' || r == '\t' {
			return -1
		}
		return r
	}, s)
	out, err := hex.DecodeString(clean)
	if err != nil {
		return "", false
	}
	return string(out), true
}

// revLines reverses the characters of each line, as rev does.
func revLines(s string) string {
	lines := strings.SplitAfter(s, "\n")
	for i, l := range lines {
		nl := strings.HasSuffix(l, "\n")
		r := []rune(strings.TrimSuffix(l, "\n"))
		for a, b := 0, len(r)-1; a < b; a, b = a+1, b-1 {
			r[a], r[b] = r[b], r[a]
		}
		lines[i] = string(r)
		if nl {
			lines[i] += "\n"
		}
	}
	return strings.Join(lines, "")
}

// trText emulates tr SET1 SET2 and tr -d SET1 for literal characters and
// ranges (a-z); classes and other options leave the output unknown.
func trText(args []Word, s string) (string, bool) {
	del := false
	var sets []string
	for _, a := range args {
		switch {
		case !a.Literal():
			return "", false
		case a.Value == "-d":
			del = true
		case strings.HasPrefix(a.Value, "-") && len(a.Value) > 1 || strings.Contains(a.Value, "[:"):
			return "", false
		default:
			sets = append(sets, expandTrSet(a.Value))
		}
	}
	switch {
	case del && len(sets) == 1:
		return strings.Map(func(r rune) rune {
			if strings.ContainsRune(sets[0], r) {
				return -1
			}
			return r
		}, s), true
	case !del && len(sets) == 2 && sets[1] != "":
		from, to := []rune(sets[0]), []rune(sets[1])
		return strings.Map(func(r rune) rune {
			for i, f := range from {
				if f == r {
					return to[min(i, len(to)-1)]
				}
			}
			return r
		}, s), true
	}
	return "", false
}

func expandTrSet(s string) string {
	r := []rune(ansiC(s))
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		if i+2 < len(r) && r[i+1] == '-' && r[i] <= r[i+2] {
			for c := r[i]; c <= r[i+2]; c++ {
				b.WriteRune(c)
			}
			i += 2
			continue
		}
		b.WriteRune(r[i])
	}
	return b.String()
}
