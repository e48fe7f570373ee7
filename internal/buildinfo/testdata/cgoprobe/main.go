// Command cgoprobe imports what makes guard-exec link cgo (net, os/user)
// and prints what buildinfo says of the build. TestCgoLinked builds it.
package main

import (
	"fmt"
	_ "net"
	_ "os/user"

	"github.com/guard-exec/guard-exec/internal/buildinfo"
)

func main() { fmt.Print(buildinfo.CgoLinked(), " ", buildinfo.CgoAdvice() != "") }
