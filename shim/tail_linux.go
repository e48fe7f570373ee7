package shim

import "golang.org/x/sys/unix"

// peek copies the first n bytes (n <= max) in the command's pipe without taking
// them from it.
func (t *tailMode) peek(fd int, n int64) ([]byte, error) {
	for {
		k, err := unix.Tee(fd, t.w, int(n), 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		m, err := readFull(t.r, t.buf[:k])
		return t.buf[:m], err
	}
}

// deliverTail delivers n bytes in tail mode: all but the last max straight, the
// rest after a look at them.
func (c *copier) deliverTail(fd int, n int64) {
	if k := n - int64(c.tail.max); k > 0 {
		m := c.deliver(fd, k)
		c.tail.skip(m)
		if m < k {
			return
		}
		n -= k
	}
	p, err := c.tail.peek(fd, n)
	if err != nil || int64(len(p)) != n {
		// Cannot happen with a pipe that is empty and larger than the peek;
		// deliver without the look, and let the digest's tail say less.
		c.tail.skip(c.deliver(fd, n))
		return
	}
	m := c.deliver(fd, n)
	c.tail.keep(p[:m])
}
