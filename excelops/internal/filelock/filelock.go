// Package filelock holds the advisory lock that serialises every
// read-modify-replace of one workbook across processes: flock(2) on a small
// lock file beside the workbook, which every registry-sidecar process (and
// any other program that follows the convention) takes before it reads a
// workbook it is about to replace, and releases after the replacement.
//
// The lock file is never removed: removing it while another process waits
// on it would let two processes hold "the" lock at once. It is empty and
// hidden (".~NAME.lock"; see Name for names too long for that).
package filelock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// Poll intervals while another process holds the lock.
const (
	// firstWait is the first pause between attempts.
	firstWait = time.Millisecond
	// maxWait caps the pause between attempts.
	maxWait = 50 * time.Millisecond
)

// maxNameBytes is the longest file name the file systems we run on accept
// (NAME_MAX).
const maxNameBytes = 255

// hashedKeep is how many bytes of a long target name a hashed lock name
// keeps, so the lock file still reads as the workbook's.
const hashedKeep = 160

// Name returns the lock file name of the file named base: ".~NAME.lock",
// or, when that would be longer than a file name may be, ".~" + the
// name's first bytes + "-" + a SHA-256 of the whole name + ".lock". Every
// process derives the same name from the same target, so the convention
// holds for names up to the file system's limit.
func Name(base string) string {
	if n := ".~" + base + ".lock"; len(n) <= maxNameBytes {
		return n
	}
	keep := base[:hashedKeep]
	for !utf8.ValidString(keep) {
		keep = keep[:len(keep)-1]
	}
	sum := sha256.Sum256([]byte(base))
	return ".~" + keep + "-" + hex.EncodeToString(sum[:16]) + ".lock"
}

// Path returns the lock file of target: Name(its base) in its folder.
func Path(target string) string {
	return filepath.Join(filepath.Dir(target), Name(filepath.Base(target)))
}

// Lock is one held lock.
type Lock struct{ f *os.File }

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
	wait := firstWait
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			return &Lock{f: f}, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			_ = f.Close()
			return nil, fmt.Errorf("locking %s: %w", name, err)
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
