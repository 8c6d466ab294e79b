package atomicfile

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// TempPattern names the temporary files of a replacement; the leading dot
// hides them from casual listings.
const TempPattern = ".~registry-sidecar-*.tmp"

// StaleAfter is the age past which a temporary file left in a folder is
// taken as the remains of a process killed mid-save and swept: no save
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

// Replace writes what produce writes into a temporary file in path's folder,
// flushes and fsyncs it, gives it mode, renames it over path and fsyncs the
// folder. wrap, when not nil, wraps the file writer (tests inject failures
// there). If ctx ends before the rename, nothing is replaced. On any error
// the temporary file is removed and path keeps its old bytes.
func Replace(ctx context.Context, path string, mode fs.FileMode, wrap func(io.Writer) io.Writer, produce func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	SweepStale(dir, time.Now().Add(-StaleAfter))
	tmp, err := os.CreateTemp(dir, TempPattern)
	if err != nil {
		return &StepError{Step: StepCreate, Err: err}
	}
	tmpName := tmp.Name()
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmpName)
		}
	}()
	var w io.Writer = tmp
	if wrap != nil {
		w = wrap(w)
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
	if err = tmp.Close(); err != nil {
		return &StepError{Step: StepClose, Err: err}
	}
	if err = ctx.Err(); err != nil {
		return err
	}
	if err = os.Rename(tmpName, path); err != nil {
		return &StepError{Step: StepRename, Err: err}
	}
	// The new content is in place; a failed folder sync only weakens
	// durability after a power loss, so it is reported, nothing is undone.
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
