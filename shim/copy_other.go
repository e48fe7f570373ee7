//go:build unix && !linux

package shim

// forward moves one chunk: by read and write where there is no splice and tee.
func (c *copier) forward() (int64, error) { return c.forwardRW() }
