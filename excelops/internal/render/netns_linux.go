//go:build linux

package render

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// sofficeAttr is how soffice is started: in its own process group (it is
// a launcher that starts soffice.bin; a timeout ends the group) and, with
// netns, in a new network namespace. Without root that takes a new user
// namespace too, mapping only the caller's own uid and gid, so the child
// gains no privilege on the host's files.
func sofficeAttr(netns bool) *syscall.SysProcAttr {
	a := &syscall.SysProcAttr{Setpgid: true}
	if !netns {
		return a
	}
	a.Cloneflags = syscall.CLONE_NEWNET
	if uid := os.Geteuid(); uid != 0 {
		gid := os.Getegid()
		a.Cloneflags |= syscall.CLONE_NEWUSER
		a.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		a.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	}
	return a
}

// ProbeNetns reports whether a child can be started in a new network
// namespace here, without running anything: it starts a program that does
// not exist (in a fresh folder under tmp) with sofficeAttr(true). The
// namespaces are made before the exec, so "no such file" means they were
// granted, and any other error (EPERM in a container without
// CAP_SYS_ADMIN or with user namespaces off, ENOSPC, EINVAL) that they
// were refused.
func ProbeNetns(tmp string) bool {
	dir, err := os.MkdirTemp(tmp, "excelops-netns-probe-")
	if err != nil {
		return false
	}
	defer os.RemoveAll(dir)
	cmd := exec.Command(filepath.Join(dir, "absent"))
	cmd.SysProcAttr = sofficeAttr(true)
	err = cmd.Start()
	if err == nil {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return true // the namespaces were granted; something was there after all
	}
	return errors.Is(err, syscall.ENOENT)
}

// namespaceRefused reports whether a failed start of soffice was the
// kernel refusing the namespaces (a start without them may work).
func namespaceRefused(err error) bool {
	for _, e := range []syscall.Errno{syscall.EPERM, syscall.EINVAL, syscall.ENOSPC, syscall.EUSERS, syscall.ENOSYS} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
