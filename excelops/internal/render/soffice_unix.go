//go:build unix

package render

import (
	"os/exec"
	"syscall"
)

// killSoffice kills soffice's whole process group (sofficeAttr starts it in
// its own): soffice is a launcher that starts soffice.bin.
func killSoffice(cmd *exec.Cmd) error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// sofficeInstalls is where LibreOffice's installer puts soffice when it is
// not on PATH: nowhere to look on Unix (packages put it on PATH).
func sofficeInstalls() []string { return nil }
