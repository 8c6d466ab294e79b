package render

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// sofficeAttr starts soffice with its window hidden. Windows has no network
// namespaces (renders run with IsolationSettings: the sanitised copy and
// the locked-down profile) and no process group a kill could address
// (killSoffice walks the process tree instead).
func sofficeAttr(bool) *syscall.SysProcAttr { return &syscall.SysProcAttr{HideWindow: true} }

// ProbeNetns reports false: network namespaces are Linux only.
func ProbeNetns(string) bool { return false }

// namespaceRefused reports false: no namespace is ever asked for.
func namespaceRefused(error) bool { return false }

// killSoffice terminates soffice and every process it started (soffice.exe
// is a launcher that starts soffice.bin), found in one snapshot of the
// process list by parent id. A process counts as a child only if it was
// created after its parent, so a parent id that Windows reused for an
// unrelated process never leads to that one; each is terminated through
// the handle it was checked with. A process started after the snapshot
// (the launcher is killed first, so only by a grandchild) is missed.
func killSoffice(cmd *exec.Cmd) error {
	tree := descendants(uint32(cmd.Process.Pid))
	err := cmd.Process.Kill()
	for _, h := range tree {
		_ = windows.TerminateProcess(h, 1)
		_ = windows.CloseHandle(h)
	}
	return err
}

// descendants opens the processes root started, and those they started,
// from one snapshot of the process list (see killSoffice); the caller
// closes the handles.
func descendants(root uint32) []windows.Handle {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPPROCESS, 0)
	if err != nil {
		return nil
	}
	defer windows.CloseHandle(snap)
	children := map[uint32][]uint32{}
	e := windows.ProcessEntry32{Size: uint32(unsafe.Sizeof(windows.ProcessEntry32{}))}
	for err := windows.Process32First(snap, &e); err == nil; err = windows.Process32Next(snap, &e) {
		if e.ProcessID != e.ParentProcessID {
			children[e.ParentProcessID] = append(children[e.ParentProcessID], e.ProcessID)
		}
	}
	rootHandle, rootBorn, ok := openProcess(root)
	if !ok {
		return nil
	}
	_ = windows.CloseHandle(rootHandle)
	type parent struct {
		pid  uint32
		born int64
	}
	var out []windows.Handle
	queue := []parent{{root, rootBorn}}
	seen := map[uint32]bool{root: true}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		for _, c := range children[p.pid] {
			if seen[c] {
				continue
			}
			h, born, ok := openProcess(c)
			if !ok {
				continue
			}
			if born < p.born {
				_ = windows.CloseHandle(h) // an older process under a reused parent id
				continue
			}
			seen[c] = true
			out = append(out, h)
			queue = append(queue, parent{c, born})
		}
	}
	return out
}

// openProcess opens the process pid to be terminated and returns the
// handle with its creation time.
func openProcess(pid uint32) (windows.Handle, int64, bool) {
	h, err := windows.OpenProcess(windows.PROCESS_TERMINATE|windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
	if err != nil {
		return 0, 0, false
	}
	var created, exited, kernel, user windows.Filetime
	if windows.GetProcessTimes(h, &created, &exited, &kernel, &user) != nil {
		_ = windows.CloseHandle(h)
		return 0, 0, false
	}
	return h, created.Nanoseconds(), true
}

// sofficeInstalls is where LibreOffice's installer puts soffice, which it
// does not add to PATH: soffice.com (the console launcher, whose output
// reaches the pipes) under Program Files, 64-bit then 32-bit.
func sofficeInstalls() []string {
	var out []string
	for _, v := range []string{"ProgramFiles", "ProgramFiles(x86)"} {
		if dir := os.Getenv(v); dir != "" {
			out = append(out, filepath.Join(dir, "LibreOffice", "program", "soffice.com"))
		}
	}
	return out
}
