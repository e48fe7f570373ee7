package parse

import (
	"strconv"
	"strings"
)

// An awk program's main rules run once per input record, and $0 is the
// record (the line), $1… its fields. When the input is known (a
// here-string, a pipe from echo or printf, a file on disk) and nothing in
// the program or on its command line changes what a record or a field
// is, a call whose argument holds fields is followed once per record with
// the fields filled in: echo 'rm -rf ~' | awk '{system($0)}' runs rm -rf
// ~. Otherwise a field is Unknown, as anything the scanner cannot read.

// awkFieldMark stands for field N in a value the scanner builds:
// awkFieldMark + N + awkFieldEnd. A program whose own strings hold the
// mark's byte has every field Unknown (forgesField).
const (
	awkFieldMark = "\x01awk$"
	awkFieldEnd  = "\x01"
)

// maxAwkRecords bounds the records a call is followed for.
const maxAwkRecords = 64

// awkField is the scanner's value of $N.
func awkField(n string) value { return value{s: awkFieldMark + n + awkFieldEnd} }

// awkChangesRecords reports whether the program may change records or
// fields between reading and calling: a field or $0 assigned, sub or gsub
// (which change $0 by default), getline other than CMD | getline VAR
// (which reads a record into $0), RS or FS named, NF or OFS set.
func awkChangesRecords(toks []tok) bool {
	for k, t := range toks {
		switch {
		case t.kind == tIdent:
			switch t.s {
			case "sub", "gsub", "RS", "FS", "FIELDWIDTHS", "FPAT":
				return true
			case "getline":
				// CMD | getline VAR sets VAR only; any other getline
				// reads into $0 or takes the next record.
				piped := k > 0 && toks[k-1].kind == tPunct && toks[k-1].s == "|"
				if !piped || k+1 >= len(toks) || toks[k+1].kind != tIdent || awkKeyword(toks[k+1].s) {
					return true
				}
			case "NF", "OFS": // read freely; set, they rebuild $0
				if assignsAt(toks, k+1) {
					return true
				}
			}
		case t.kind == tPunct && t.s == "$":
			// $N = …, $N++ and the like: look past the field's operand.
			j := k + 1
			if j < len(toks) && (toks[j].kind == tNum || toks[j].kind == tIdent) {
				j++
			}
			if assignsAt(toks, j) {
				return true
			}
		}
	}
	return false
}

// forgesField reports whether the program's own text holds the bytes of
// a field's mark: such a string is then filled as Unknown, not as a
// record it is not.
func forgesField(toks []tok) bool {
	for _, t := range toks {
		if strings.Contains(t.s, awkFieldEnd) {
			return true
		}
	}
	return false
}

// assignsAt reports whether the tokens from j on assign what precedes
// them: =, op=, ++ or --. "==" is one token.
func assignsAt(toks []tok, j int) bool {
	if j >= len(toks) || toks[j].kind != tPunct {
		return false
	}
	op, next := toks[j].s, ""
	if j+1 < len(toks) && toks[j+1].kind == tPunct {
		next = toks[j+1].s
	}
	return op == "=" || strings.Contains("+-*/%^", op) && (next == "=" || next == op && (op == "+" || op == "-"))
}

// awkFields fills in the fields of calls: once per record of c's input
// when it is known, as Unknown when it is not.
func (fr *frame) awkFields(c *Command, toks []tok, calls []call) []call {
	marked := false
	for _, cl := range calls {
		marked = marked || callHasField(cl)
	}
	if !marked {
		return calls
	}
	var recs []string
	text, split, ok := fr.awkInput(c)
	ok = ok && !awkChangesRecords(toks) && !forgesField(toks)
	if ok {
		text = strings.TrimSuffix(text, "\n")
		if text != "" {
			recs = strings.Split(text, "\n")
		}
		if len(recs) == 0 {
			recs = []string{""} // an END rule still sees $0, empty
		}
		ok = len(recs) <= maxAwkRecords
	}
	var out []call
	for _, cl := range calls {
		if !callHasField(cl) {
			out = append(out, cl)
			continue
		}
		if !ok {
			out = append(out, fillCall(cl, nil, false))
			continue
		}
		for _, r := range recs {
			out = append(out, fillCall(cl, &r, split))
		}
	}
	return out
}

func callHasField(cl call) bool {
	for _, a := range cl.args {
		if valueHasField(a) {
			return true
		}
	}
	for _, a := range cl.kw {
		if valueHasField(a) {
			return true
		}
	}
	return false
}

func valueHasField(v value) bool {
	if strings.Contains(v.s, awkFieldMark) {
		return true
	}
	for _, e := range v.list {
		if valueHasField(e) {
			return true
		}
	}
	return false
}

// fillCall returns cl with its fields taken from the record rec, or
// Unknown when rec is nil; fields other than $0 only when split (the
// default field separator).
func fillCall(cl call, rec *string, split bool) call {
	out := cl
	out.args = make([]value, len(cl.args))
	for i, a := range cl.args {
		out.args[i] = fillValue(a, rec, split)
	}
	if cl.kw != nil {
		out.kw = make(map[string]value, len(cl.kw))
		for k, a := range cl.kw {
			out.kw[k] = fillValue(a, rec, split)
		}
	}
	return out
}

func fillValue(v value, rec *string, split bool) value {
	if v.list != nil {
		l := make([]value, len(v.list))
		for i, e := range v.list {
			l[i] = fillValue(e, rec, split)
		}
		v.list = l
	}
	var b strings.Builder
	s := v.s
	for {
		i := strings.Index(s, awkFieldMark)
		if i < 0 {
			break
		}
		b.WriteString(s[:i])
		s = s[i+len(awkFieldMark):]
		j := strings.Index(s, awkFieldEnd)
		if j < 0 {
			j = len(s)
		}
		n, err := strconv.Atoi(s[:j])
		s = s[min(j+len(awkFieldEnd), len(s)):]
		switch {
		case rec == nil || err != nil:
			b.WriteString(Unknown)
		case n == 0:
			b.WriteString(*rec)
		case !split:
			b.WriteString(Unknown)
		default:
			// The default separator: runs of blanks, tabs and newlines,
			// leading and trailing ones ignored.
			if fs := strings.FieldsFunc(*rec, func(r rune) bool { return r == ' ' || r == '\t' }); n <= len(fs) {
				b.WriteString(fs[n-1])
			}
		}
	}
	b.WriteString(s)
	v.s = b.String()
	return v
}

// awkCmd is awk's command line read once: where its program is, and what
// comes after it.
type awkCmd struct {
	prog     int  // index of the program text in the words; -1 when none
	progFile bool // -f FILE: the program is a file, not followed
	dynamic  bool // a word before the program is not all known
	split    bool // fields split at awk's default separator (no -F)
	setsSep  bool // -v or an operand assigns RS, FS, FIELDWIDTHS or FPAT
	files    []Word
}

// scanAwk reads awk's options (POSIX awk, gawk and mawk spell them alike):
// -f/--file, -F/--field-separator, -v/--assign, -e/--source, each with a
// value joined or separate; other options take none.
func scanAwk(args []Word) awkCmd {
	a := awkCmd{prog: -1, split: true}
	for i := 0; i < len(args); i++ {
		v := args[i].Value
		if a.prog >= 0 {
			if name, _, ok := strings.Cut(v, "="); ok && validName(name) {
				a.setsSep = a.setsSep || awkSetsSeparator(v)
				continue // an assignment operand, not a file
			}
			a.files = append(a.files, args[i])
			continue
		}
		if args[i].Dynamic {
			a.dynamic = true // awk's input is then not known; its program may be
		}
		switch {
		case v == "--":
		case v == "-f" || v == "--file" || strings.HasPrefix(v, "-f") || strings.HasPrefix(v, "--file="):
			a.progFile = true
			return a
		case v == "-F" || v == "--field-separator":
			a.split = false
			i++
		case strings.HasPrefix(v, "-F") || strings.HasPrefix(v, "--field-separator="):
			a.split = false
		case v == "-v" || v == "--assign":
			if i+1 < len(args) {
				a.setsSep = a.setsSep || awkSetsSeparator(args[i+1].Value)
			}
			i++
		case strings.HasPrefix(v, "-v"):
			a.setsSep = a.setsSep || awkSetsSeparator(v[2:])
		case strings.HasPrefix(v, "--assign="):
			a.setsSep = a.setsSep || awkSetsSeparator(v[len("--assign="):])
		case v == "-e" || v == "--source":
			if i+1 < len(args) {
				a.prog = i + 1
			}
			i++
		case strings.HasPrefix(v, "-") && len(v) > 1:
			// -W options, --posix and the like: no operand.
		default:
			a.prog = i
		}
	}
	return a
}

// awkInput returns the text awk reads as records, when it is known: its
// file operands or its standard input.
func (fr *frame) awkInput(c *Command) (text string, split, ok bool) {
	a := scanAwk(c.Args)
	if a.prog < 0 || a.dynamic || a.setsSep {
		return "", false, false
	}
	for _, w := range a.files {
		if w.Dynamic {
			return "", false, false
		}
	}
	if len(a.files) == 0 {
		t, known := fr.awkStdin(c)
		return t, a.split, known
	}
	var b strings.Builder
	for _, w := range a.files {
		var t string
		var known bool
		if w.Value == "-" {
			t, known = fr.awkStdin(c)
		} else {
			t, known = fr.readData(c.Dir, w.Value)
		}
		if !known || b.Len()+len(t) > MaxScript {
			return "", false, false
		}
		b.WriteString(t)
	}
	return b.String(), a.split, true
}

func awkSetsSeparator(assign string) bool {
	name, _, _ := strings.Cut(assign, "=")
	switch name {
	case "RS", "FS", "FIELDWIDTHS", "FPAT":
		return true
	}
	return false
}

// awkStdin is awk's standard input when it is known, without taking it
// as code.
func (fr *frame) awkStdin(c *Command) (string, bool) {
	in := c.Stdin
	if in == nil {
		return "", false
	}
	if in.Kind == InputFile {
		if in.Path == "" {
			return "", false
		}
		return fr.readData("/", in.Path)
	}
	if in.Known && !hasUnknown(in.Text) {
		return in.Text, true
	}
	return "", false
}
