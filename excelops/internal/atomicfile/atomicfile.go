package atomicfile

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"time"
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

// fill is the part of a replacement every platform shares: it writes what
// produce writes into the temporary file tmp (through o.Wrap, buffered),
// flushes and fsyncs it, gives it mode, and, unless ctx has ended, runs
// o.BeforeRename. Its errors are StepErrors, except ctx's and
// BeforeRename's, returned as they are.
func fill(ctx context.Context, tmp *os.File, mode fs.FileMode, o Options, produce func(io.Writer) error) error {
	var w io.Writer = tmp
	if o.Wrap != nil {
		w = o.Wrap(w)
	}
	bw := bufio.NewWriterSize(w, bufferSize)
	if err := produce(bw); err != nil {
		return &StepError{Step: StepWrite, Err: err}
	}
	if err := bw.Flush(); err != nil {
		return &StepError{Step: StepWrite, Err: err}
	}
	if err := tmp.Sync(); err != nil {
		return &StepError{Step: StepSync, Err: err}
	}
	if err := tmp.Chmod(mode.Perm()); err != nil {
		return &StepError{Step: StepChmod, Err: err}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if o.BeforeRename != nil {
		return o.BeforeRename()
	}
	return nil
}
