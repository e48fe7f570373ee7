package shim

import (
	"bytes"
	"encoding/json"
	"strconv"
	"time"
	"unicode/utf8"
)

// cast records a pty session as an asciicast v2 transcript: a header line, then one
// JSON array per event ([seconds, "o", text] for output, [seconds, "r", "WxH"] for a
// resize). It keeps at most limit bytes; the first event that does not fit stops the
// recording for good (cut), so a transcript is always a prefix of the session.
// Keystrokes are not recorded, only what the screen showed, so a password typed at
// a prompt that does not echo never reaches the ledger.
type cast struct {
	limit   int
	start   time.Time
	buf     bytes.Buffer
	pending []byte // an incomplete UTF-8 sequence held back for the next event
	cut     bool
	enc     *json.Encoder
	line    bytes.Buffer
}

type castHeader struct {
	Version   int               `json:"version"`
	Width     int               `json:"width"`
	Height    int               `json:"height"`
	Timestamp int64             `json:"timestamp"`
	Env       map[string]string `json:"env"`
}

func newCast(limit, width, height int, term string, start time.Time) *cast {
	c := &cast{limit: limit, start: start}
	c.enc = json.NewEncoder(&c.line)
	c.enc.SetEscapeHTML(false)
	c.add(castHeader{Version: 2, Width: width, Height: height, Timestamp: start.Unix(),
		Env: map[string]string{"TERM": term}})
	return c
}

// output records bytes the session wrote. Event text must be a JSON string, so a
// UTF-8 sequence split between two reads is completed before it is recorded, and
// invalid bytes become U+FFFD (as asciinema does).
func (c *cast) output(at time.Time, p []byte) {
	if c.cut || len(p) == 0 {
		return
	}
	data := append(c.pending, p...)
	cut := incompleteSuffix(data)
	c.pending = append([]byte(nil), data[cut:]...)
	if cut > 0 {
		c.event(at, "o", string(data[:cut]))
	}
}

func (c *cast) resize(at time.Time, width, height int) {
	c.event(at, "r", strconv.Itoa(width)+"x"+strconv.Itoa(height))
}

func (c *cast) event(at time.Time, kind, data string) {
	if c.cut {
		return
	}
	secs := json.Number(strconv.FormatFloat(at.Sub(c.start).Seconds(), 'f', 6, 64))
	c.add([]any{secs, kind, data})
}

func (c *cast) add(v any) {
	c.line.Reset()
	if err := c.enc.Encode(v); err != nil || c.buf.Len()+c.line.Len() > c.limit {
		c.cut = true
		return
	}
	c.buf.Write(c.line.Bytes())
}

// transcript returns the recording and whether it was cut short. A sequence still
// held back at the end is recorded as it is (it becomes U+FFFD).
func (c *cast) transcript(end time.Time) ([]byte, bool) {
	if len(c.pending) > 0 {
		c.event(end, "o", string(c.pending))
		c.pending = nil
	}
	return c.buf.Bytes(), c.cut
}

// incompleteSuffix returns where a trailing, not yet complete UTF-8 sequence starts
// in p (len(p) when there is none).
func incompleteSuffix(p []byte) int {
	for i := len(p) - 1; i >= 0 && i >= len(p)-utf8.UTFMax; i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				return i
			}
			return len(p)
		}
	}
	return len(p)
}
