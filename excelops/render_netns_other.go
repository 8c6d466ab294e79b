//go:build !linux

package excelops

import "syscall"

// sofficeAttr starts soffice in its own process group; network namespaces
// are Linux only.
func sofficeAttr(bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// probeNetns reports false: network namespaces are Linux only.
func probeNetns(string) bool { return false }

// namespaceRefused reports false: no namespace is ever asked for.
func namespaceRefused(error) bool { return false }
