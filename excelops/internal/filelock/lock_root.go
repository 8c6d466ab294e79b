package filelock

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// AcquireInRoot is AcquireIn for a folder held as an *os.Root (dir), for
// systems without openat and flock (Windows; see the package doc). The lock
// file Name(base) is opened through dir's methods, so it is looked up
// beneath that folder only, and created when missing (read-only when the
// folder or the file may not be written: a shared lock file another user
// made). It is refused unless, after the open, the name is a regular file
// and the very file opened: a link planted under the lock name is never
// locked through, nor is a FIFO or a folder. Then the exclusive lock is
// taken as AcquireIn takes it, waiting until ctx ends.
func AcquireInRoot(ctx context.Context, dir *os.Root, base string) (*Lock, error) {
	if base == "" || base == "." || base == ".." || strings.ContainsAny(base, "/"+string(filepath.Separator)) {
		return nil, fmt.Errorf("locking %q: %w", base, fs.ErrInvalid)
	}
	name := Name(base)
	if st, err := dir.Lstat(name); err == nil && !st.Mode().IsRegular() {
		return nil, fmt.Errorf("the lock file %s is not a regular file", name)
	}
	f, err := dir.OpenFile(name, os.O_RDWR|os.O_CREATE|oNonblock, 0o644)
	if errors.Is(err, fs.ErrPermission) {
		f, err = dir.OpenFile(name, os.O_RDONLY|oNonblock, 0)
	}
	if err != nil {
		return nil, fmt.Errorf("opening the lock file %s: %w", name, err)
	}
	opened, err := f.Stat()
	named, lerr := dir.Lstat(name)
	if err != nil || lerr != nil || !opened.Mode().IsRegular() || !named.Mode().IsRegular() || !os.SameFile(opened, named) {
		_ = f.Close()
		return nil, fmt.Errorf("the lock file %s is not a regular file", name)
	}
	return hold(ctx, f, name)
}
