//go:build unix

package filelock

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// oNonblock opens the lock file without waiting: a FIFO planted under its
// name cannot hang the open (the regular-file check refuses it after).
const oNonblock = unix.O_NONBLOCK

// Acquire is AcquireIn on target's folder, opened by name.
func Acquire(ctx context.Context, target string) (*Lock, error) {
	dir, err := os.Open(filepath.Dir(target))
	if err != nil {
		return nil, fmt.Errorf("opening the folder of %s: %w", filepath.Base(target), err)
	}
	defer dir.Close()
	return AcquireIn(ctx, dir, filepath.Base(target))
}

// AcquireIn takes the exclusive lock of the file named base in the open
// folder dir, waiting while another process (or another Lock in this one)
// holds it, until ctx ends. The lock file is opened relative to dir's
// descriptor and created when missing; a lock file that is a link or not a
// regular file is refused.
func AcquireIn(ctx context.Context, dir *os.File, base string) (*Lock, error) {
	if base == "" || strings.ContainsRune(base, '/') || base == "." || base == ".." {
		return nil, fmt.Errorf("locking %q: %w", base, fs.ErrInvalid)
	}
	name := Name(base)
	dfd := int(dir.Fd())
	fd, err := unix.Openat(dfd, name, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0o644)
	if errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM) || errors.Is(err, unix.EROFS) {
		fd, err = unix.Openat(dfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, fmt.Errorf("opening the lock file %s: %w", name, err)
	}
	f := os.NewFile(uintptr(fd), name)
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		_ = f.Close()
		return nil, fmt.Errorf("the lock file %s is not a regular file", name)
	}
	return hold(ctx, f, name)
}

// tryLock takes f's flock without waiting; busy when another open file
// holds it.
func tryLock(f *os.File) (busy bool, err error) {
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if errors.Is(err, unix.EWOULDBLOCK) || errors.Is(err, unix.EINTR) {
		return true, nil
	}
	return false, err
}

// Release gives the lock back (closing the file releases the flock).
func (l *Lock) Release() error { return l.f.Close() }
