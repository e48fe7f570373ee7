package main

import "mvdan.cc/sh/v3/syntax"

// quote renders a word so bash reads it back as the same word.
func quote(s string) (string, error) { return syntax.Quote(s, syntax.LangBash) }
