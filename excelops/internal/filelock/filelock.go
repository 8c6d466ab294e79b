// Package filelock holds the advisory lock that serialises every
// read-modify-replace of one workbook across processes: flock(2) on a small
// lock file beside the workbook, which every registry-sidecar process (and
// any other program that follows the convention) takes before it reads a
// workbook it is about to replace, and releases after the replacement.
//
// The lock file is never removed: removing it while another process waits
// on it would let two processes hold "the" lock at once. It is empty and
// hidden (".~NAME.lock"; see Name for names too long for that).
//
// # Unix and Windows
//
// On Unix, AcquireIn opens the lock file relative to an open folder
// descriptor (openat with O_NOFOLLOW|O_NONBLOCK) and takes flock(LOCK_EX)
// on it (flock_unix.go). Windows has neither openat nor flock, so there the
// folder is held as an *os.Root: AcquireInRoot opens the lock file through
// the root's methods, refuses it unless the name is a regular file and the
// one opened (Lstat and os.SameFile after the open: a link is never locked
// through), and takes LockFileEx(LOCKFILE_EXCLUSIVE_LOCK) on one byte far
// past the end of any file (lockfile_windows.go). Windows byte-range locks
// are mandatory, so that byte is chosen where no reader of the file ever
// looks. Both are held per open file, so two Locks in one process exclude
// each other as two processes do, and both go when the file is closed (a
// killed process holds nothing). AcquireInRoot builds on every system (with
// flock on Unix), so its tests run on Linux too; callers on Unix keep
// AcquireIn. A Unix and a Windows process do not see each other's locks on
// a shared network folder.
package filelock

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"time"
	"unicode/utf8"
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

// hold takes f's exclusive lock (tryLock), polling while another holder has
// it, until ctx ends; on failure f is closed. name is the lock file's name,
// for messages.
func hold(ctx context.Context, f *os.File, name string) (*Lock, error) {
	wait := firstWait
	for {
		busy, err := tryLock(f)
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("locking %s: %w", name, err)
		}
		if !busy {
			return &Lock{f: f}, nil
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
