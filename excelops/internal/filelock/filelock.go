// Package filelock holds the advisory lock that serialises every
// read-modify-replace of one workbook across processes: flock(2) on a small
// lock file beside the workbook, which every registry-sidecar process (and
// any other program that follows the convention) takes before it reads a
// workbook it is about to replace, and releases after the replacement.
//
// The lock file is never removed: removing it while another process waits
// on it would let two processes hold "the" lock at once. It is empty and
// hidden (".~NAME.lock").
package filelock

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"golang.org/x/sys/unix"
)

// Poll intervals while another process holds the lock.
const (
	// firstWait is the first pause between attempts.
	firstWait = time.Millisecond
	// maxWait caps the pause between attempts.
	maxWait = 50 * time.Millisecond
)

// Path returns the lock file of target: ".~NAME.lock" in its folder.
func Path(target string) string {
	return filepath.Join(filepath.Dir(target), ".~"+filepath.Base(target)+".lock")
}

// Lock is one held lock.
type Lock struct{ f *os.File }

// Acquire takes the exclusive lock of target, waiting while another process
// (or another Lock in this one) holds it, until ctx ends. The lock file is
// created when missing; a lock file that is a link or not a regular file
// is refused.
func Acquire(ctx context.Context, target string) (*Lock, error) {
	p := Path(target)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o644)
	if errors.Is(err, os.ErrPermission) {
		f, err = os.OpenFile(p, os.O_RDONLY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	}
	if err != nil {
		return nil, fmt.Errorf("opening the lock file %s: %w", filepath.Base(p), err)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		_ = f.Close()
		return nil, fmt.Errorf("the lock file %s is not a regular file", filepath.Base(p))
	}
	wait := firstWait
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return &Lock{f: f}, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			_ = f.Close()
			return nil, fmt.Errorf("locking %s: %w", filepath.Base(p), err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			_ = f.Close()
			return nil, ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, maxWait)
	}
}

// Release gives the lock back (closing the file releases the flock).
func (l *Lock) Release() error { return l.f.Close() }
