package atomicfile

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// TempPattern names the temporary files of a replacement; the leading dot
// hides them from casual listings.
const TempPattern = ".~registry-sidecar-*.tmp"

// StaleAfter is the age past which a named temporary file left in a folder
// is taken as the remains of a process killed mid-save and swept: no save
// writes for this long.
const StaleAfter = 15 * time.Minute

// bufferSize is the write buffer between the producer and the file.
const bufferSize = 256 << 10

// Step names one step of a replacement.
type Step string

// The steps of a replacement, in order. A failure at any step before
// StepSyncFolder leaves the target unchanged; at StepSyncFolder the new
// content is already in place.
const (
	StepCreate     Step = "creating a temporary file"
	StepWrite      Step = "writing"
	StepSync       Step = "syncing"
	StepChmod      Step = "setting the mode"
	StepClose      Step = "closing"
	StepLink       Step = "naming the temporary file"
	StepRename     Step = "renaming"
	StepSyncFolder Step = "syncing the folder"
)

// StepError reports which step of a replacement failed; the target is
// unchanged unless Step is StepSyncFolder (see Replaced).
type StepError struct {
	// Step is the failed step.
	Step Step
	// Err is the operating-system error.
	Err error
}

// Error describes the failure.
func (e *StepError) Error() string { return fmt.Sprintf("%s: %v", e.Step, e.Err) }

// Unwrap returns the operating-system error.
func (e *StepError) Unwrap() error { return e.Err }

// Replaced reports whether the target already holds the new content (only
// the folder sync after the rename failed).
func (e *StepError) Replaced() bool { return e.Step == StepSyncFolder }

// Options tune a replacement.
type Options struct {
	// Wrap, when not nil, wraps the file writer (tests inject failures).
	Wrap func(io.Writer) io.Writer
	// BeforeRename, when not nil, runs after the new content is complete
	// and synced, right before it replaces the target; its error aborts the
	// replacement and is returned as is.
	BeforeRename func() error
}

// Replace is ReplaceWith with only a writer wrapper.
func Replace(ctx context.Context, path string, mode fs.FileMode, wrap func(io.Writer) io.Writer, produce func(io.Writer) error) error {
	return ReplaceWith(ctx, path, mode, Options{Wrap: wrap}, produce)
}

// ReplaceWith writes what produce writes into a temporary file in path's
// folder, flushes and fsyncs it, gives it mode, runs o.BeforeRename, puts it
// in place of path and fsyncs the folder. If ctx ends before the rename,
// nothing is replaced. On any error the temporary file is gone and path
// keeps its old bytes.
func ReplaceWith(ctx context.Context, path string, mode fs.FileMode, o Options, produce func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	SweepStale(dir, time.Now().Add(-StaleAfter))
	SweepDead(dir)
	tmp, named, err := createTemp(dir, mode)
	if err != nil {
		return &StepError{Step: StepCreate, Err: err}
	}
	linked := named // the name the temporary file has, once it has one
	defer func() {
		if err != nil {
			_ = tmp.Close()
			if linked != "" {
				_ = os.Remove(linked)
			}
		}
	}()
	var w io.Writer = tmp
	if o.Wrap != nil {
		w = o.Wrap(w)
	}
	bw := bufio.NewWriterSize(w, bufferSize)
	if err = produce(bw); err != nil {
		return &StepError{Step: StepWrite, Err: err}
	}
	if err = bw.Flush(); err != nil {
		return &StepError{Step: StepWrite, Err: err}
	}
	if err = tmp.Sync(); err != nil {
		return &StepError{Step: StepSync, Err: err}
	}
	if err = tmp.Chmod(mode.Perm()); err != nil {
		return &StepError{Step: StepChmod, Err: err}
	}
	if err = ctx.Err(); err != nil {
		return err
	}
	if o.BeforeRename != nil {
		if err = o.BeforeRename(); err != nil {
			return err
		}
	}
	if linked == "" {
		if linked, err = linkTemp(dir, tmp); err != nil {
			return &StepError{Step: StepLink, Err: err}
		}
	}
	if err = tmp.Close(); err != nil {
		return &StepError{Step: StepClose, Err: err}
	}
	if err = os.Rename(linked, path); err != nil {
		return &StepError{Step: StepRename, Err: err}
	}
	linked = ""
	// The new content is in place; a failed folder sync only weakens
	// durability after a power loss, so it is reported, nothing is undone.
	return syncFolder(dir)
}

// createTemp opens an unnamed temporary file in dir (O_TMPFILE), or, where
// the file system cannot, a named one (whose name it returns).
func createTemp(dir string, mode fs.FileMode) (*os.File, string, error) {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_RDWR|unix.O_CLOEXEC, uint32(mode.Perm()|0o200))
	if err == nil {
		return os.NewFile(uintptr(fd), filepath.Join(dir, "(unnamed)")), "", nil
	}
	if !errors.Is(err, unix.EOPNOTSUPP) && !errors.Is(err, unix.EISDIR) && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOENT) {
		return nil, "", &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	f, err := os.CreateTemp(dir, TempPattern)
	if err != nil {
		return nil, "", err
	}
	return f, f.Name(), nil
}

// linkTemp gives the unnamed file f a temporary name in dir and returns it.
func linkTemp(dir string, f *os.File) (string, error) {
	src := "/proc/self/fd/" + strconv.Itoa(int(f.Fd()))
	for i := 0; ; i++ {
		name := filepath.Join(dir, fmt.Sprintf(".~registry-sidecar-%d-%d.tmp", os.Getpid(), time.Now().UnixNano()+int64(i)))
		// The name carries the pid, so a process killed between this link
		// and the rename leaves a file the next save sweeps (SweepDead).
		err := unix.Linkat(unix.AT_FDCWD, src, unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, unix.EEXIST) || i > 100 {
			return "", &fs.PathError{Op: "link", Path: name, Err: err}
		}
	}
}

// syncFolder fsyncs dir after a rename in it.
func syncFolder(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return &StepError{Step: StepSyncFolder, Err: err}
	}
	serr := d.Sync()
	_ = d.Close()
	if serr != nil {
		return &StepError{Step: StepSyncFolder, Err: serr}
	}
	return nil
}

// SweepStale removes the temporary files of replacements in dir last
// modified before cutoff (left behind by a killed process) and returns how
// many it removed. Errors are ignored: a file it cannot remove is left for
// the next sweep, and the user's files are never touched.
func SweepStale(dir string, cutoff time.Time) int {
	matches, err := filepath.Glob(filepath.Join(dir, TempPattern))
	if err != nil {
		return 0
	}
	removed := 0
	for _, m := range matches {
		info, err := os.Lstat(m)
		if err != nil || !info.Mode().IsRegular() || !info.ModTime().Before(cutoff) {
			continue
		}
		if os.Remove(m) == nil {
			removed++
		}
	}
	return removed
}

// SweepDead removes the named temporaries in dir that a process killed
// between naming its finished temporary file and renaming it left behind
// (their names carry the pid of the process that made them, and that
// process no longer exists), and returns how many it removed.
func SweepDead(dir string) int {
	matches, err := filepath.Glob(filepath.Join(dir, ".~registry-sidecar-*-*.tmp"))
	if err != nil {
		return 0
	}
	removed := 0
	for _, m := range matches {
		rest := strings.TrimPrefix(filepath.Base(m), ".~registry-sidecar-")
		pid, err := strconv.Atoi(rest[:strings.IndexByte(rest, '-')])
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := unix.Kill(pid, 0); !errors.Is(err, unix.ESRCH) {
			continue // alive (or not ours to probe): its save may be in flight
		}
		if info, err := os.Lstat(m); err == nil && info.Mode().IsRegular() && os.Remove(m) == nil {
			removed++
		}
	}
	return removed
}
