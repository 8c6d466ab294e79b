//go:build windows

package filelock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// oNonblock is 0: Windows has no FIFOs in the file namespace that an open
// could wait on.
const oNonblock = 0

// The byte LockFileEx locks: one byte at offset 2^63-2, far past the end of
// any file. Windows byte-range locks are mandatory (a locked byte cannot be
// read through another handle), so the lock sits where nobody reads, even
// if the lock file is a hard link to a workbook.
const (
	lockOffsetLow  = 0xFFFFFFFE
	lockOffsetHigh = 0x7FFFFFFF
	lockBytes      = 1
)

// Acquire is AcquireInRoot on target's folder, opened by name.
func Acquire(ctx context.Context, target string) (*Lock, error) {
	dir, err := os.OpenRoot(filepath.Dir(target))
	if err != nil {
		return nil, fmt.Errorf("opening the folder of %s: %w", filepath.Base(target), err)
	}
	defer dir.Close()
	return AcquireInRoot(ctx, dir, filepath.Base(target))
}

// lockRange is the OVERLAPPED that names the locked byte.
func lockRange() *windows.Overlapped {
	return &windows.Overlapped{Offset: lockOffsetLow, OffsetHigh: lockOffsetHigh}
}

// tryLock takes f's lock without waiting (LockFileEx with
// LOCKFILE_FAIL_IMMEDIATELY); busy when another open file holds it.
func tryLock(f *os.File) (busy bool, err error) {
	err = windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY,
		0, lockBytes, 0, lockRange())
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return true, nil
	}
	return false, err
}

// Release gives the lock back: unlocks the byte, then closes the file
// (closing alone releases it too, but Windows may do that later).
func (l *Lock) Release() error {
	uerr := windows.UnlockFileEx(windows.Handle(l.f.Fd()), 0, lockBytes, 0, lockRange())
	if err := l.f.Close(); err != nil {
		return err
	}
	return uerr
}
