package main

import (
	"fmt"
	"os"
	"time"

	"github.com/guard-exec/guard-exec/parse"
	"github.com/guard-exec/guard-exec/policy"
)

func main() {
	home := os.Getenv("HOME")
	t0 := time.Now()
	res := policy.LoadConfig(policy.LoadOptions{Sources: policy.ConfigSources(home, "", "/tmp/nt", "/tmp/nt"), Home: home})
	t1 := time.Now()
	eng := policy.NewEngineFromConfig(res.Config)
	t2 := time.Now()
	a := parse.Analyze("true", parse.Options{Dir: "/tmp/nt"})
	t3 := time.Now()
	d := eng.Decide(a, &policy.Ctx{Project: "/tmp/nt", Cwd: "/tmp/nt"})
	t4 := time.Now()
	fmt.Println(t1.Sub(t0).Microseconds(), t2.Sub(t1).Microseconds(), t3.Sub(t2).Microseconds(), t4.Sub(t3).Microseconds(), d.Verdict)
}
