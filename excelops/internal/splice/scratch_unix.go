//go:build unix

package splice

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// scratchFile opens an unnamed read-write file in dir.
func scratchFile(dir string) (*os.File, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	if oTmpfile != 0 {
		fd, err := unix.Open(dir, oTmpfile|unix.O_RDWR|unix.O_CLOEXEC, 0o600)
		if err == nil {
			return os.NewFile(uintptr(fd), filepath.Join(dir, "(unnamed)")), nil
		}
		if !errors.Is(err, unix.EOPNOTSUPP) && !errors.Is(err, unix.EISDIR) && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOENT) {
			return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
		}
	}
	f, err := os.CreateTemp(dir, ".~registry-sidecar-splice-*.tmp")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}
