// Command cgoprobe imports what makes guard-exec link cgo (net, os/user)
// and prints what buildinfo says of the build, then the advice doctor
// gives. TestCgoLinked builds it.
package main

import (
	"fmt"
	_ "net"
	_ "os/user"

	"github.com/guard-exec/guard-exec/internal/buildinfo"
)

func main() {
	fmt.Println(buildinfo.CgoLinked(), buildinfo.CgoAdvice() != "")
	fmt.Print(buildinfo.CgoAdvice())
}
