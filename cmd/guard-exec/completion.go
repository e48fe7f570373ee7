package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// runCompletion prints a completion script made from the command table:
// the subcommands, their verbs and the flags each parses.
func runCompletion(ctx context.Context, g *guard, args []string) error {
	shell := ""
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		shell, args = args[0], args[1:]
	}
	fs := g.flags("completion")
	if err := g.parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usagef("completion takes one shell, got %q too", fs.Arg(0))
	}
	specs := completionSpecs(ctx)
	switch shell {
	case "bash":
		writeBashCompletion(g.st.out, specs)
	case "zsh":
		fmt.Fprint(g.st.out, "#compdef guard-exec\n# zsh completion for guard-exec: guard-exec completion zsh\nautoload -U +X bashcompinit && bashcompinit\n")
		writeBashCompletion(g.st.out, specs)
	case "fish":
		writeFishCompletion(g.st.out, specs)
	case "":
		return usagef("completion needs a shell: bash, zsh or fish")
	default:
		return usagef("completion: unknown shell %q%s (want bash, zsh or fish)", shell, verbHint(shell, lookupCommand("completion").verbs))
	}
	return nil
}

// compSpec is what completion knows of one subcommand.
type compSpec struct {
	c     *command
	flags map[string][]*pflag.Flag // by verb ("" when it has none)
}

func completionSpecs(ctx context.Context) []compSpec {
	var specs []compSpec
	for _, c := range commands {
		s := compSpec{c: c, flags: map[string][]*pflag.Flag{}}
		verbs := c.verbs
		if len(verbs) == 0 {
			verbs = []string{""}
		}
		for _, v := range verbs {
			if fs := collectFlags(ctx, c, v); fs != nil {
				fs.VisitAll(func(f *pflag.Flag) {
					if !f.Hidden { // internal flags (hook shell's --ran-fd…) are not offered
						s.flags[v] = append(s.flags[v], f)
					}
				})
			}
		}
		specs = append(specs, s)
	}
	return specs
}

func flagWords(fl []*pflag.Flag) string {
	var w []string
	for _, f := range fl {
		w = append(w, "--"+f.Name)
		if f.Shorthand != "" {
			w = append(w, "-"+f.Shorthand)
		}
	}
	w = append(w, "--help")
	return strings.Join(w, " ")
}

func writeBashCompletion(w io.Writer, specs []compSpec) {
	var names []string
	for _, s := range specs {
		names = append(names, s.c.name)
	}
	own := []string{"-c", "--help", "--version"}
	for _, n := range ownFlagNames {
		if n != "help" && n != "version" {
			own = append(own, "--"+n)
		}
	}
	fmt.Fprintf(w, `# bash completion for guard-exec: source <(guard-exec completion bash)
_guard_exec() {
	local cur=${COMP_WORDS[COMP_CWORD]} words=
	if ((COMP_CWORD == 1)); then
		words=%q
	else
		case ${COMP_WORDS[1]} in
`, strings.Join(append(names, own...), " "))
	for _, s := range specs {
		if len(s.c.verbs) == 0 {
			fmt.Fprintf(w, "\t\t%s) words=%q ;;\n", s.c.name, flagWords(s.flags[""]))
			continue
		}
		verbs := s.c.verbs
		if s.c.name == "help" {
			verbs = names
		}
		fmt.Fprintf(w, "\t\t%s)\n\t\t\tif ((COMP_CWORD == 2)); then\n\t\t\t\twords=%q\n\t\t\telse\n\t\t\t\tcase ${COMP_WORDS[2]} in\n", s.c.name, strings.Join(verbs, " "))
		for _, v := range sortedKeys(s.flags) {
			fmt.Fprintf(w, "\t\t\t\t%s) words=%q ;;\n", v, flagWords(s.flags[v]))
		}
		fmt.Fprint(w, "\t\t\t\tesac\n\t\t\tfi\n\t\t\t;;\n")
	}
	fmt.Fprint(w, `		esac
	fi
	COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _guard_exec guard-exec
`)
}

func writeFishCompletion(w io.Writer, specs []compSpec) {
	fmt.Fprint(w, "# fish completion for guard-exec: guard-exec completion fish > ~/.config/fish/completions/guard-exec.fish\n")
	for _, s := range specs {
		fmt.Fprintf(w, "complete -c guard-exec -f -n __fish_use_subcommand -a %s -d %s\n", s.c.name, fishQuote(s.c.summary))
	}
	for _, s := range specs {
		for _, v := range s.c.verbs {
			fmt.Fprintf(w, "complete -c guard-exec -f -n '__fish_seen_subcommand_from %s' -a %s\n", s.c.name, v)
		}
		for _, v := range sortedKeys(s.flags) {
			cond := "__fish_seen_subcommand_from " + s.c.name
			if v != "" {
				cond += "; and __fish_seen_subcommand_from " + v
			}
			for _, f := range s.flags[v] {
				short := ""
				if f.Shorthand != "" {
					short = " -s " + f.Shorthand
				}
				fmt.Fprintf(w, "complete -c guard-exec -n %s -l %s%s -d %s\n", fishQuote(cond), f.Name, short, fishQuote(f.Usage))
			}
		}
	}
}

func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
