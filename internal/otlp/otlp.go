// Package otlp writes OpenTelemetry log records in the OTLP/JSON encoding:
// the body of a POST to a collector's /v1/logs, and the lines of a file a
// collector's otlpjsonfile receiver reads.
//
// It is the few hundred lines guard-exec needs instead of an exporter
// library: one ExportLogsServiceRequest with one resource and one scope,
// written straight into a byte slice. The encoding follows the OTLP
// specification's JSON rules (opentelemetry-proto, docs/specification.md,
// "JSON Protobuf Encoding"):
//
//   - field names are the proto fields in lowerCamelCase (timeUnixNano,
//     severityNumber, resourceLogs);
//   - 64-bit integers (times in nanoseconds, intValue) are decimal strings;
//   - enums (severityNumber) are their integer values;
//   - trace and span ids would be hex, not base64 (log records of a
//     command carry none);
//   - fields at their zero value are left out.
//
// Strings must be valid UTF-8 for a protobuf decoder: invalid bytes are
// written as U+FFFD, as encoding/json does.
package otlp

import (
	"math"
	"strconv"

	"github.com/guard-exec/guard-exec/internal/jsonstr"
)

// Severity numbers of the log data model (SeverityNumber enum).
const (
	SeverityInfo  = 9
	SeverityWarn  = 13
	SeverityError = 17
)

// SeverityText is the short name of a severity number's range.
func SeverityText(n int) string {
	switch {
	case n <= 0:
		return ""
	case n <= 4:
		return "TRACE"
	case n <= 8:
		return "DEBUG"
	case n <= 12:
		return "INFO"
	case n <= 16:
		return "WARN"
	case n <= 20:
		return "ERROR"
	}
	return "FATAL"
}

// Value is an attribute value (AnyValue): one of a string, an integer, a
// double, a boolean or an array of strings.
type Value struct {
	kind kind
	s    string
	i    int64
	f    float64
	ss   []string
}

type kind uint8

const (
	kindString kind = iota + 1
	kindInt
	kindDouble
	kindBool
	kindStrings
)

func String(s string) Value     { return Value{kind: kindString, s: s} }
func Int(i int64) Value         { return Value{kind: kindInt, i: i} }
func Double(f float64) Value    { return Value{kind: kindDouble, f: f} }
func Strings(ss []string) Value { return Value{kind: kindStrings, ss: ss} }
func Bool(b bool) Value {
	v := Value{kind: kindBool}
	if b {
		v.i = 1
	}
	return v
}

// KeyValue is one attribute.
type KeyValue struct {
	Key   string
	Value Value
}

// Attr builds a KeyValue.
func Attr(key string, v Value) KeyValue { return KeyValue{Key: key, Value: v} }

// Record is one LogRecord.
type Record struct {
	TimeUnixNano         int64
	ObservedTimeUnixNano int64
	SeverityNumber       int
	SeverityText         string
	EventName            string
	Body                 string // a string body; "" leaves it out
	Attributes           []KeyValue
}

// Scope names what produced the records (InstrumentationScope).
type Scope struct {
	Name    string
	Version string
}

// Request is one ExportLogsServiceRequest: records of one resource and scope.
type Request struct {
	Resource []KeyValue
	Scope    Scope
	Records  []Record
}

// Append writes r as one JSON object, without a newline, to b.
func (r *Request) Append(b []byte) []byte {
	b = append(b, `{"resourceLogs":[{"resource":{"attributes":`...)
	b = appendAttrs(b, r.Resource)
	b = append(b, `},"scopeLogs":[{"scope":{`...)
	w := obj{b: b}
	w.str("name", r.Scope.Name)
	w.str("version", r.Scope.Version)
	b = append(w.b, `},"logRecords":[`...)
	for i := range r.Records {
		if i > 0 {
			b = append(b, ',')
		}
		b = r.Records[i].append(b)
	}
	return append(b, "]}]}]}"...)
}

func (r *Record) append(b []byte) []byte {
	w := obj{b: append(b, '{')}
	w.int64("timeUnixNano", r.TimeUnixNano)
	w.int64("observedTimeUnixNano", r.ObservedTimeUnixNano)
	if r.SeverityNumber != 0 {
		w.key("severityNumber")
		w.b = strconv.AppendInt(w.b, int64(r.SeverityNumber), 10)
	}
	w.str("severityText", r.SeverityText)
	if r.Body != "" {
		w.key("body")
		w.b = String(r.Body).append(w.b)
	}
	if len(r.Attributes) > 0 {
		w.key("attributes")
		w.b = appendAttrs(w.b, r.Attributes)
	}
	w.str("eventName", r.EventName)
	return append(w.b, '}')
}

func appendAttrs(b []byte, kvs []KeyValue) []byte {
	b = append(b, '[')
	for i := range kvs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"key":`...)
		b = jsonstr.Append(b, kvs[i].Key)
		b = append(b, `,"value":`...)
		b = kvs[i].Value.append(b)
		b = append(b, '}')
	}
	return append(b, ']')
}

func (v Value) append(b []byte) []byte {
	switch v.kind {
	case kindString:
		b = append(b, `{"stringValue":`...)
		b = jsonstr.Append(b, v.s)
	case kindInt:
		b = append(b, `{"intValue":"`...)
		b = strconv.AppendInt(b, v.i, 10)
		b = append(b, '"')
	case kindDouble:
		b = append(b, `{"doubleValue":`...)
		b = appendDouble(b, v.f)
	case kindBool:
		b = append(b, `{"boolValue":`...)
		b = strconv.AppendBool(b, v.i != 0)
	case kindStrings:
		b = append(b, `{"arrayValue":{"values":[`...)
		for i, s := range v.ss {
			if i > 0 {
				b = append(b, ',')
			}
			b = String(s).append(b)
		}
		b = append(b, "]}"...)
	default: // an empty AnyValue
		return append(b, "{}"...)
	}
	return append(b, '}')
}

// appendDouble writes a finite double as a JSON number; the proto3 JSON
// mapping spells the others as strings.
func appendDouble(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, `"NaN"`...)
	case math.IsInf(f, 1):
		return append(b, `"Infinity"`...)
	case math.IsInf(f, -1):
		return append(b, `"-Infinity"`...)
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64)
}

// obj writes the fields of a JSON object, leaving out zero values.
type obj struct {
	b     []byte
	count int
}

func (w *obj) key(k string) {
	if w.count > 0 {
		w.b = append(w.b, ',')
	}
	w.count++
	w.b = append(w.b, '"')
	w.b = append(w.b, k...)
	w.b = append(w.b, '"', ':')
}

func (w *obj) str(k, v string) {
	if v == "" {
		return
	}
	w.key(k)
	w.b = jsonstr.Append(w.b, v)
}

func (w *obj) int64(k string, v int64) {
	if v == 0 {
		return
	}
	w.key(k)
	w.b = append(w.b, '"')
	w.b = strconv.AppendInt(w.b, v, 10)
	w.b = append(w.b, '"')
}
