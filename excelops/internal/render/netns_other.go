//go:build !linux && !windows

package render

import "syscall"

// sofficeAttr starts soffice in its own process group; network namespaces
// are Linux only.
func sofficeAttr(bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// ProbeNetns reports false: network namespaces are Linux only.
func ProbeNetns(string) bool { return false }

// namespaceRefused reports false: no namespace is ever asked for.
func namespaceRefused(error) bool { return false }
