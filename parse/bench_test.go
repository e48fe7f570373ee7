package parse

import (
	"bufio"
	"os"
	"slices"
	"testing"
	"time"
)

func corpusOptions() Options {
	return Options{
		Env: map[string]string{"HOME": "/home/dev", "TMPDIR": "/tmp", "USER": "dev", "PATH": "/usr/bin:/bin", "PWD": "/home/dev/proj"},
		Dir: "/home/dev/proj",
	}
}

func corpusCommands(tb testing.TB) []string {
	fh, err := os.Open("../testdata/corpus/commands.tsv")
	if err != nil {
		tb.Skip("no corpus:", err)
	}
	defer fh.Close()
	var cmds []string
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if cmd, ok := corpusCommand(sc.Text()); ok {
			cmds = append(cmds, cmd)
		}
	}
	return cmds
}

// BenchmarkAnalyzeCorpus analyses every corpus command per iteration and
// reports the median and mean time per command (SPEC §8: ≤ 50 µs median).
func BenchmarkAnalyzeCorpus(b *testing.B) {
	cmds := corpusCommands(b)
	opts := corpusOptions()
	// Per-command times, for the median: each command many times.
	per := make([]float64, len(cmds))
	for i, c := range cmds {
		const reps = 50
		start := time.Now()
		for range reps {
			Analyze(c, opts)
		}
		per[i] = float64(time.Since(start).Nanoseconds()) / reps / 1e3
	}
	slices.Sort(per)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, c := range cmds {
			Analyze(c, opts)
		}
	}
	b.StopTimer()
	mean := float64(b.Elapsed().Nanoseconds()) / float64(b.N) / float64(len(cmds)) / 1e3
	b.ReportMetric(per[len(per)/2], "median-µs/cmd")
	b.ReportMetric(per[len(per)*99/100], "p99-µs/cmd")
	b.ReportMetric(per[len(per)-1], "max-µs/cmd")
	b.ReportMetric(mean, "mean-µs/cmd")
}

// BenchmarkAnalyzeSimple is the common case.
func BenchmarkAnalyzeSimple(b *testing.B) {
	opts := corpusOptions()
	b.ReportAllocs()
	for b.Loop() {
		Analyze("git status", opts)
	}
}

// BenchmarkAnalyzeTypical is a typical agent command line.
func BenchmarkAnalyzeTypical(b *testing.B) {
	opts := corpusOptions()
	b.ReportAllocs()
	for b.Loop() {
		Analyze(`cd /home/dev/proj && git commit -am "fix: handle nil ptr in parser" && git push origin feat/x 2>&1 | tail -n 20`, opts)
	}
}

// BenchmarkAnalyzePython is inline interpreter code.
func BenchmarkAnalyzePython(b *testing.B) {
	opts := corpusOptions()
	src := `python3 -c 'import json, os, subprocess
data = json.load(open("package.json"))
for name in data.get("dependencies", {}):
    print(name)
subprocess.run(["npm", "ls", "--depth=0"], check=True)
os.makedirs("build", exist_ok=True)'`
	b.ReportAllocs()
	for b.Loop() {
		Analyze(src, opts)
	}
}

// BenchmarkAnalyzeHeredoc is a whole file written through a heredoc.
func BenchmarkAnalyzeHeredoc(b *testing.B) {
	opts := corpusOptions()
	body := ""
	for range 200 {
		body += "func f() { fmt.Println(\"rm -rf / $(x)\") }\n"
	}
	src := "cat > main.go <<'EOF'\n" + body + "EOF"
	b.ReportAllocs()
	for b.Loop() {
		Analyze(src, opts)
	}
}
