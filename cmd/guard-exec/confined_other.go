//go:build !linux && !darwin

package main

// confined is false: without Landlock or Seatbelt no sandbox is made here,
// so none is inherited either.
func confined(*guard) bool { return false }
