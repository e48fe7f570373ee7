package shim

// observe reads the copy of the stream and digests it, but never beyond what has
// reached dst: a chunk is teed before it is delivered, and a failed delivery (a
// closed reader) must not show in the digest. Bytes read before their delivery is
// known wait in the buffer until it is, so the observer does not keep step with the
// forwarder chunk by chunk.
func (c *copier) observe() {
	defer c.obsR.Close()
	buf := make([]byte, observeBufferSize)
	var off int64 // stream offset of buf[0]
	kept := 0     // buf[:kept] is read but not digested yet
	for {
		if kept == len(buf) {
			// A whole buffer waits for its delivery: wait for the forwarder.
			c.deliveredUpTo(off + int64(kept))
		}
		n, err := c.obsR.Read(buf[kept:])
		kept += n
		d := c.delivered.Load()
		if err != nil { // end of the copy: the forwarder is done, delivered is final
			d = c.deliveredUpTo(off + int64(kept))
		}
		if k := int(min(d-off, int64(kept))); k > 0 {
			c.dig.write(buf[:k], !c.stopHash.Load())
			kept = copy(buf, buf[k:kept])
			off += int64(k)
		}
		if err != nil {
			return
		}
	}
}

// observeBufferSize holds more than one chunk, so one read can run ahead of the
// delivery of the chunk it takes.
const observeBufferSize = 2*maxChunk + 64<<10

// deliveredUpTo waits until end bytes were delivered, or the forwarder stopped,
// and returns how many of them were.
func (c *copier) deliveredUpTo(end int64) int64 {
	for {
		if d := c.delivered.Load(); d >= end {
			return end
		}
		if c.fwdDone.Load() {
			return min(c.delivered.Load(), end)
		}
		<-c.progress
	}
}
