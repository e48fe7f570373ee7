package policy

import (
	"strings"
)

// A tiny SQL reader: enough to tell which statements a text holds and
// whether they destroy data, without being fooled by string literals,
// quoted identifiers or comments ("SELECT 'drop table x'" is harmless).
// It does not validate SQL; it tokenises words at parenthesis depth 0.

// sqlToken is one word or symbol of a statement, upper-cased, with the
// parenthesis depth it sits at.
type sqlToken struct {
	text  string
	depth int
}

// sqlStatements splits text into statements of tokens. Strings ('…',
// E'…', $tag$…$tag$), quoted identifiers ("…", `…`, […]) and comments
// (--, #, /* */) are dropped; quoted identifiers become the token "?".
func sqlStatements(text string) [][]sqlToken {
	var stmts [][]sqlToken
	var cur []sqlToken
	depth := 0
	flush := func() {
		if len(cur) > 0 {
			stmts = append(stmts, cur)
			cur = nil
		}
		depth = 0
	}
	n := len(text)
	for i := 0; i < n; {
		ch := text[i]
		switch {
		case ch == ';':
			flush()
			i++
		case ch == '\'':
			i = skipQuoted(text, i, '\'')
			cur = append(cur, sqlToken{"'", depth})
		case ch == '"' || ch == '`':
			i = skipQuoted(text, i, ch)
			cur = append(cur, sqlToken{"?", depth})
		case ch == '-' && i+1 < n && text[i+1] == '-', ch == '#':
			for i < n && text[i] != '\n' {
				i++
			}
		case ch == '/' && i+1 < n && text[i+1] == '*':
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				i = n
			} else {
				i += end + 4
			}
		case ch == '$':
			if j := dollarQuoteEnd(text, i); j > 0 {
				i = j
				cur = append(cur, sqlToken{"'", depth})
			} else {
				i++
			}
		case ch == '(':
			depth++
			i++
		case ch == ')':
			if depth > 0 {
				depth--
			}
			i++
		case isSQLWordByte(ch):
			j := i
			for j < n && isSQLWordByte(text[j]) {
				j++
			}
			cur = append(cur, sqlToken{strings.ToUpper(text[i:j]), depth})
			i = j
		case ch == '=' || ch == '<' || ch == '>' || ch == '!':
			j := i
			for j < n && strings.IndexByte("=<>!", text[j]) >= 0 {
				j++
			}
			cur = append(cur, sqlToken{text[i:j], depth})
			i = j
		default:
			if ch > ' ' {
				cur = append(cur, sqlToken{string(ch), depth})
			}
			i++
		}
	}
	flush()
	return stmts
}

func isSQLWordByte(c byte) bool {
	return c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// skipQuoted returns the index after the quoted run starting at i; a
// doubled quote inside is an escaped quote, as is a backslash escape.
func skipQuoted(s string, i int, q byte) int {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case q:
			if j+1 < len(s) && s[j+1] == q {
				j++
				continue
			}
			return j + 1
		}
	}
	return len(s)
}

// dollarQuoteEnd returns the index after a PostgreSQL $tag$…$tag$ string
// starting at i, or 0 when s[i:] does not start one.
func dollarQuoteEnd(s string, i int) int {
	j := i + 1
	for j < len(s) && (s[j] == '_' || s[j] >= 'a' && s[j] <= 'z' || s[j] >= 'A' && s[j] <= 'Z' || j > i+1 && s[j] >= '0' && s[j] <= '9') {
		j++
	}
	if j >= len(s) || s[j] != '$' {
		return 0
	}
	tag := s[i : j+1]
	end := strings.Index(s[j+1:], tag)
	if end < 0 {
		return len(s)
	}
	return j + 1 + end + len(tag)
}

// sqlRisk is what a statement does to data.
type sqlRisk uint8

const (
	sqlSafe         sqlRisk = iota
	sqlDropObject           // DROP VIEW/INDEX/FUNCTION/…: no rows lost
	sqlDropColumn           // ALTER TABLE … DROP COLUMN
	sqlAllRows              // DELETE or UPDATE without WHERE
	sqlDropTable            // DROP TABLE, TRUNCATE
	sqlDropDatabase         // DROP DATABASE/SCHEMA
)

// sqlRisks returns the risks of every statement in text. An UPDATE that
// only sets columns an earlier statement of the same text added (ALTER
// TABLE … ADD COLUMN c; UPDATE t SET c = 0) fills a new column and
// overwrites nothing.
func sqlRisks(text string) []sqlRisk {
	var out []sqlRisk
	var added map[string]bool
	for _, st := range sqlStatements(text) {
		for _, c := range addedColumns(st) {
			if added == nil {
				added = map[string]bool{}
			}
			added[c] = true
		}
		r := classifySQL(st)
		if r == sqlAllRows && added != nil && onlySetsAdded(st, added) {
			r = sqlSafe
		}
		if r != sqlSafe {
			out = append(out, r)
		}
	}
	return out
}

// addedColumns returns the columns an ALTER TABLE … ADD [COLUMN] adds.
func addedColumns(st []sqlToken) []string {
	if len(st) < 4 || st[0].text != "ALTER" || st[1].text != "TABLE" {
		return nil
	}
	var out []string
	for i := 2; i < len(st); i++ {
		if st[i].depth != 0 || st[i].text != "ADD" {
			continue
		}
		j := i + 1
		for j < len(st) && (st[j].text == "COLUMN" || st[j].text == "IF" || st[j].text == "NOT" || st[j].text == "EXISTS") {
			j++
		}
		if j < len(st) && st[j].text != "CONSTRAINT" && st[j].text != "INDEX" && st[j].text != "PRIMARY" && st[j].text != "FOREIGN" && st[j].text != "UNIQUE" {
			out = append(out, st[j].text)
		}
	}
	return out
}

// onlySetsAdded reports whether an UPDATE's SET list names only columns
// in added.
func onlySetsAdded(st []sqlToken, added map[string]bool) bool {
	set := -1
	for i, t := range st {
		if t.depth == 0 && t.text == "SET" {
			set = i
			break
		}
	}
	if set < 0 || st[0].text != "UPDATE" {
		return false
	}
	n := 0
	for i := set + 1; i+1 < len(st); i++ {
		t := st[i]
		if t.depth != 0 {
			continue
		}
		if t.text == "WHERE" || t.text == "FROM" || t.text == "RETURNING" {
			break
		}
		if st[i+1].text == "=" && (i == set+1 || st[i-1].text == ",") {
			if !added[t.text] {
				return false
			}
			n++
		}
	}
	return n > 0
}

// worstSQL returns the highest risk in text.
func worstSQL(text string) sqlRisk {
	w := sqlSafe
	for _, r := range sqlRisks(text) {
		if r > w {
			w = r
		}
	}
	return w
}

// classifySQL judges one statement. The verb is the first of DROP,
// TRUNCATE, DELETE, UPDATE, ALTER at depth 0 (so a CTE before it is
// skipped, and a subquery's words are not taken for the statement's).
func classifySQL(st []sqlToken) sqlRisk {
	for i, t := range st {
		if t.depth != 0 {
			continue
		}
		switch t.text {
		case "SELECT", "INSERT", "CREATE", "GRANT", "REVOKE", "COPY", "SHOW", "EXPLAIN", "DESCRIBE", "DESC", "SET", "USE", "BEGIN", "COMMIT", "ROLLBACK", "VACUUM", "ANALYZE", "PRAGMA", "CALL", "VALUES", "RETURNING":
			if t.text != "SET" || i == 0 {
				return sqlSafe
			}
		case "DROP":
			return classifyDrop(st[i+1:])
		case "TRUNCATE":
			return sqlDropTable
		case "DELETE", "UPDATE":
			return classifyMassWrite(st[i+1:])
		case "ALTER":
			return classifyAlter(st[i+1:])
		}
	}
	return sqlSafe
}

func classifyDrop(rest []sqlToken) sqlRisk {
	for _, t := range rest {
		switch t.text {
		case "TEMPORARY", "TEMP", "MATERIALIZED", "FOREIGN", "EXTERNAL", "VIRTUAL", "IF", "EXISTS":
			continue
		case "DATABASE", "SCHEMA", "KEYSPACE", "OWNED":
			return sqlDropDatabase
		case "TABLE", "COLLECTION":
			return sqlDropTable
		}
		return sqlDropObject
	}
	return sqlSafe
}

// classifyMassWrite judges DELETE and UPDATE: without a WHERE at depth 0,
// or with one that is always true, every row is hit.
func classifyMassWrite(rest []sqlToken) sqlRisk {
	for i, t := range rest {
		if t.depth != 0 || t.text != "WHERE" {
			continue
		}
		cond := rest[i+1:]
		if tautology(cond) {
			return sqlAllRows
		}
		return sqlSafe
	}
	return sqlAllRows
}

// tautology reports conditions that hold for every row: 1=1, TRUE, 1,
// 'a'='a' and the like.
func tautology(cond []sqlToken) bool {
	if len(cond) == 1 {
		return cond[0].text == "TRUE" || cond[0].text == "1"
	}
	if len(cond) == 3 && cond[1].text == "=" && cond[0].text == cond[2].text && cond[0].text != "?" {
		return cond[0].text == "'" || strings.Trim(cond[0].text, "0123456789") == ""
	}
	return false
}

func classifyAlter(rest []sqlToken) sqlRisk {
	if len(rest) == 0 || rest[0].text != "TABLE" {
		return sqlSafe
	}
	for i, t := range rest {
		if t.depth != 0 || t.text != "DROP" {
			continue
		}
		next := ""
		if i+1 < len(rest) {
			next = rest[i+1].text
		}
		switch next {
		case "CONSTRAINT", "INDEX", "KEY", "DEFAULT", "NOT", "PRIMARY", "FOREIGN", "CHECK", "IDENTITY", "EXPRESSION", "TRIGGER", "ROW", "PARTITIONING":
			continue
		case "PARTITION":
			return sqlDropTable
		}
		return sqlDropColumn
	}
	return sqlSafe
}

// mongoRisk judges MongoDB shell code: dropDatabase(), collection
// drop(), and deleteMany/remove with an empty filter.
func mongoRisk(js string) sqlRisk {
	code := stripJSStrings(js)
	switch {
	case strings.Contains(code, ".dropDatabase("):
		return sqlDropDatabase
	case strings.Contains(code, ".drop("):
		return sqlDropTable
	}
	for _, m := range []string{".deleteMany(", ".remove(", ".updateMany("} {
		for rest := code; ; {
			i := strings.Index(rest, m)
			if i < 0 {
				break
			}
			rest = rest[i+len(m):]
			args := strings.ReplaceAll(rest, " ", "")
			if strings.HasPrefix(args, ")") || strings.HasPrefix(args, "{})") || strings.HasPrefix(args, "{},") {
				return sqlAllRows
			}
		}
	}
	return sqlSafe
}

// stripJSStrings removes string literal contents and comments from
// JavaScript, keeping the quotes, so that db.notes.insertOne({t:
// "db.x.drop()"}) is not a drop.
func stripJSStrings(js string) string {
	var b strings.Builder
	for i := 0; i < len(js); i++ {
		ch := js[i]
		switch {
		case ch == '"' || ch == '\'' || ch == '`':
			j := skipQuoted(js, i, ch)
			b.WriteByte(ch)
			b.WriteByte(ch)
			i = j - 1
		case ch == '/' && i+1 < len(js) && js[i+1] == '/':
			for i < len(js) && js[i] != '\n' {
				i++
			}
		case ch == '/' && i+1 < len(js) && js[i+1] == '*':
			end := strings.Index(js[i+2:], "*/")
			if end < 0 {
				return b.String()
			}
			i += end + 3
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}
