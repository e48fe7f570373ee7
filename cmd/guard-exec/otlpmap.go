package main

import (
	"bufio"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/guard-exec/guard-exec/internal/otlp"
	"github.com/guard-exec/guard-exec/ledger"
)

// This file maps ledger records onto OpenTelemetry log records: the
// semantic conventions' attributes where one fits (process.*, session.id,
// host.*, cicd.*, vcs.*), guard_exec.* for the rest. The README's
// "Shipping the ledger" section has the table; change both together.
//
// What is shipped is what the ledger stores: commands already redacted
// when they were recorded. The output digest stays on the machine (its
// hashes and sizes are shipped): output is the part of a record most
// likely to hold what redaction did not recognise.

// otlpMapper turns records of one ledger into log records.
type otlpMapper struct {
	ledgerID string
	resource []otlp.KeyValue
	scope    otlp.Scope
}

func (g *guard) newOTLPMapper(ledgerID string) *otlpMapper {
	return &otlpMapper{
		ledgerID: ledgerID,
		resource: g.otlpResource(),
		scope:    otlp.Scope{Name: "guard-exec", Version: guardVersion()},
	}
}

// otlpResource describes where the records come from: the machine, the
// guard, and under GitHub Actions the job and the repository.
func (g *guard) otlpResource() []otlp.KeyValue {
	attrs := []otlp.KeyValue{
		otlp.Attr("service.name", otlp.String("guard-exec")),
		otlp.Attr("service.version", otlp.String(guardVersion())),
		otlp.Attr("os.type", otlp.String(runtime.GOOS)),
		otlp.Attr("host.arch", otlp.String(runtime.GOARCH)),
	}
	if h, err := os.Hostname(); err == nil && h != "" {
		attrs = append(attrs, otlp.Attr("host.name", otlp.String(h)))
	}
	if u := g.vars["USER"]; u != "" {
		attrs = append(attrs, otlp.Attr("user.name", otlp.String(u)))
	}
	return append(attrs, g.ciResource()...)
}

// ciResource is the GitHub Actions job that ships, from the runner's
// environment. The records themselves do not say which job wrote them: on
// a runner that lives for one job (GitHub's hosted runners) they are that
// job's; a self-hosted runner that keeps its ledger across jobs ships the
// earlier jobs' records under the shipping job's name.
func (g *guard) ciResource() []otlp.KeyValue {
	if !g.onGitHub() {
		return nil
	}
	var attrs []otlp.KeyValue
	add := func(key, env string) {
		if v := g.vars[env]; v != "" {
			attrs = append(attrs, otlp.Attr(key, otlp.String(v)))
		}
	}
	attrs = append(attrs, otlp.Attr("cicd.system.name", otlp.String("github_actions")))
	add("cicd.pipeline.name", "GITHUB_WORKFLOW")
	add("cicd.pipeline.run.id", "GITHUB_RUN_ID")
	add("cicd.pipeline.run.attempt", "GITHUB_RUN_ATTEMPT")
	add("cicd.pipeline.task.name", "GITHUB_JOB")
	add("vcs.ref.head.name", "GITHUB_REF_NAME")
	add("vcs.ref.head.revision", "GITHUB_SHA")
	if server, repo := g.vars["GITHUB_SERVER_URL"], g.vars["GITHUB_REPOSITORY"]; server != "" && repo != "" {
		base := strings.TrimRight(server, "/") + "/" + repo
		attrs = append(attrs, otlp.Attr("vcs.repository.url.full", otlp.String(base)))
		if run := g.vars["GITHUB_RUN_ID"]; run != "" {
			u := base + "/actions/runs/" + run
			if a := g.vars["GITHUB_RUN_ATTEMPT"]; a != "" {
				u += "/attempts/" + a
			}
			attrs = append(attrs, otlp.Attr("cicd.pipeline.run.url.full", otlp.String(u)))
		}
	}
	return attrs
}

// request wraps records into one export request.
func (m *otlpMapper) request(recs []otlp.Record) *otlp.Request {
	return &otlp.Request{Resource: m.resource, Scope: m.scope, Records: recs}
}

// record maps one ledger record.
func (m *otlpMapper) record(r *ledger.Record) otlp.Record {
	t := recordTime(r.Time)
	sev := severityOf(r)
	out := otlp.Record{
		TimeUnixNano:         t,
		ObservedTimeUnixNano: t,
		SeverityNumber:       sev,
		SeverityText:         otlp.SeverityText(sev),
		EventName:            eventName(r.Kind),
		Body:                 body(r),
	}
	a := attrs{
		otlp.Attr("log.record.uid", otlp.String(m.ledgerID+"/"+r.ID+"/"+string(r.Kind))),
		otlp.Attr("guard_exec.ledger.id", otlp.String(m.ledgerID)),
	}
	a.str("guard_exec.record.id", r.ID)
	a.str("session.id", r.Session)
	cmdline := r.Raw
	if cmdline == "" {
		cmdline = r.Command
	}
	a.str("process.command_line", cmdline)
	if r.Command != cmdline {
		a.str("guard_exec.command", r.Command)
	}
	a.str("process.working_directory", r.Cwd)
	a.str("guard_exec.project", r.Project)
	a.int("process.pid", int64(r.PID))
	a.str("guard_exec.parent.id", r.Parent)
	a.str("guard_exec.invocation", r.Mode)
	a.str("guard_exec.io", r.IO)
	a.str("guard_exec.verdict", r.Verdict)
	a.str("guard_exec.enforce", r.Enforce)
	if len(r.Rules) > 0 {
		ids := make([]string, len(r.Rules))
		for i, h := range r.Rules {
			ids[i] = h.ID
		}
		a = append(a, otlp.Attr("guard_exec.rule.ids", otlp.Strings(ids)))
	}
	if len(r.EnvRemoved) > 0 {
		a = append(a, otlp.Attr("guard_exec.env.removed", otlp.Strings(r.EnvRemoved)))
	}
	m.exitAttrs(&a, r)
	a.str("guard_exec.approval.ref", r.Ref)
	a.str("guard_exec.approval.expires", r.Expires)
	out.Attributes = a
	return out
}

func (m *otlpMapper) exitAttrs(a *attrs, r *ledger.Record) {
	if r.Kind != ledger.KindExit {
		return
	}
	if r.Exit != nil {
		a.int("process.exit.code", int64(*r.Exit))
	}
	a.str("guard_exec.signal", r.Signal)
	*a = append(*a, otlp.Attr("guard_exec.duration", otlp.Double(r.DurationMS/1000)))
	for _, s := range []struct {
		name string
		info *ledger.StreamInfo
	}{{"stdout", r.Stdout}, {"stderr", r.Stderr}} {
		if s.info == nil {
			continue
		}
		*a = append(*a, otlp.Attr("guard_exec."+s.name+".bytes", otlp.Int(s.info.Bytes)))
		a.str("guard_exec."+s.name+".sha256", s.info.SHA256)
	}
	if r.TimedOut {
		*a = append(*a, otlp.Attr("guard_exec.timed_out", otlp.Bool(true)))
	}
	if r.Incomplete {
		*a = append(*a, otlp.Attr("guard_exec.incomplete", otlp.Bool(true)))
	}
}

// attrs collects attributes, leaving out empty values.
type attrs []otlp.KeyValue

func (a *attrs) str(k, v string) {
	if v != "" {
		*a = append(*a, otlp.Attr(k, otlp.String(v)))
	}
}

func (a *attrs) int(k string, v int64) {
	if v != 0 {
		*a = append(*a, otlp.Attr(k, otlp.Int(v)))
	}
}

// severityOf: allow INFO, warn and hold WARN, deny ERROR; records without
// a verdict (exits, approvals) INFO.
func severityOf(r *ledger.Record) int {
	switch r.Verdict {
	case "warn", "hold":
		return otlp.SeverityWarn
	case "deny":
		return otlp.SeverityError
	}
	return otlp.SeverityInfo
}

// eventName is guard_exec.<kind>: guard_exec.exec, guard_exec.exit, …
func eventName(k ledger.Kind) string {
	var b strings.Builder
	b.WriteString("guard_exec.")
	for _, c := range string(k) {
		if c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' {
			b.WriteRune(c)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// body is the line a backend shows for the record.
func body(r *ledger.Record) string {
	switch r.Kind {
	case ledger.KindExit:
		switch {
		case r.TimedOut:
			return "timed out"
		case r.Signal != "":
			return "killed by " + r.Signal
		case r.Exit != nil:
			return "exit " + strconv.Itoa(*r.Exit)
		}
		return "ended"
	case ledger.KindApproval:
		return "approves " + r.Ref + ": " + r.Command
	}
	if r.Raw != "" {
		return r.Raw
	}
	return r.Command
}

// recordTime is the record's time in Unix nanoseconds; 0 (left out) when
// it does not parse.
func recordTime(s string) int64 {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return 0
	}
	return t.UnixNano()
}

// guardVersion is the version `guard-exec version` reports.
func guardVersion() string { return readVersion().Version }

// logOTLP writes the records of the selected rows as OTLP/JSON, one
// export request per record and per line: the format of the collector's
// otlpjsonfile receiver, each line standing alone.
func (g *guard) logOTLP(ledOf map[*row]*ledger.Ledger, sel []*row) error {
	mappers := map[*ledger.Ledger]*otlpMapper{} // one per ledger: records name their ledger's id
	w := bufio.NewWriter(g.st.out)
	var b []byte
	for _, row := range sel {
		led := ledOf[row]
		m := mappers[led]
		if m == nil {
			id, err := led.Identity()
			if err != nil {
				return err
			}
			m = g.newOTLPMapper(id)
			mappers[led] = m
		}
		for i := range row.recs {
			b = m.request([]otlp.Record{m.record(&row.recs[i])}).Append(b[:0])
			b = append(b, '\n')
			if _, err := w.Write(b); err != nil {
				return err
			}
		}
	}
	return w.Flush()
}
