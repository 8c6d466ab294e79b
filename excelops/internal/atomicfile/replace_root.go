package atomicfile

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// Rename retries of ReplaceInRoot (renameInRoot).
const (
	// renameRetryFor bounds how long a rename refused because another
	// program has the target open without sharing it (a virus scanner or a
	// search indexer glancing at the new file, on Windows) is retried; a
	// program that keeps it open (Excel) makes the save fail after it.
	renameRetryFor = 2 * time.Second
	// renameFirstWait is the first pause between rename attempts; it doubles
	// up to renameMaxWait.
	renameFirstWait = 5 * time.Millisecond
	renameMaxWait   = 200 * time.Millisecond
)

// ReplaceInRoot is ReplaceIn for a folder held as an *os.Root (dir), for
// systems without the *at calls ReplaceIn is built on (Windows). Every step
// is a method of dir, so it resolves beneath that folder only, whatever is
// renamed or swapped around it meanwhile:
//
//   - the new content goes to a named temporary file (TempPattern) created
//     with dir.OpenFile(O_CREATE|O_EXCL), written, flushed and fsynced, and
//     given mode on the open file;
//   - if ctx has not ended, o.BeforeRename runs; its error aborts;
//   - the file is closed and dir.Rename puts it over name (on Windows a
//     rename that replaces an existing file; a refusal because another
//     program holds the target open is retried for a short while);
//   - the folder is fsynced where the system can (syncFolder).
//
// On any error before the rename, dir.Remove deletes the temporary file and
// name keeps its old bytes. There is no unnamed temporary file here, so a
// process killed mid-write leaves its temporary behind; the next
// replacement in that folder sweeps it once it is StaleAfter old.
func ReplaceInRoot(ctx context.Context, dir *os.Root, name string, mode fs.FileMode, o Options, produce func(io.Writer) error) (err error) {
	if !plainName(name) {
		return &StepError{Step: StepCreate, Err: &fs.PathError{Op: "replace", Path: name, Err: fs.ErrInvalid}}
	}
	SweepStaleInRoot(dir, time.Now().Add(-StaleAfter))
	tmp, tmpName, err := createTempInRoot(dir)
	if err != nil {
		return &StepError{Step: StepCreate, Err: err}
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			if tmpName != "" {
				_ = dir.Remove(tmpName)
			}
		}
	}()
	if err = fill(ctx, tmp, mode, o, produce); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return &StepError{Step: StepClose, Err: err}
	}
	if err = renameInRoot(ctx, dir, tmpName, name, renameBusy); err != nil {
		return &StepError{Step: StepRename, Err: &fs.PathError{Op: "rename", Path: name, Err: unwrapLink(err)}}
	}
	tmpName = ""
	// The new content is in place; a failed folder sync only weakens
	// durability after a power loss, so it is reported, nothing is undone.
	if err := syncFolder(dir); err != nil {
		return &StepError{Step: StepSyncFolder, Err: err}
	}
	return nil
}

// plainName reports whether name names an entry of a folder itself: not
// empty, not "." or "..", no separator.
func plainName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/"+string(filepath.Separator))
}

// createTempInRoot creates a new temporary file (TempPattern, a random
// middle) in dir and returns it with its name.
func createTempInRoot(dir *os.Root) (*os.File, string, error) {
	for i := 0; ; i++ {
		name := strings.Replace(TempPattern, "*", strconv.FormatUint(rand.Uint64(), 36), 1)
		f, err := dir.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			return f, name, nil
		}
		if !errors.Is(err, fs.ErrExist) || i > 100 {
			return nil, "", err
		}
	}
}

// renameInRoot renames from over to in dir, retrying for renameRetryFor
// while busy says the failure is another program holding the file
// (renameBusy), unless ctx ends.
func renameInRoot(ctx context.Context, dir *os.Root, from, to string, busy func(error) bool) error {
	deadline := time.Now().Add(renameRetryFor)
	wait := renameFirstWait
	for {
		err := dir.Rename(from, to)
		if err == nil || !busy(err) || time.Now().Add(wait).After(deadline) {
			return err
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return err
		case <-t.C:
		}
		wait = min(2*wait, renameMaxWait)
	}
}

// unwrapLink returns the system error inside a rename's *os.LinkError, so
// the StepError reads like ReplaceIn's.
func unwrapLink(err error) error {
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// SweepStaleInRoot is SweepStaleIn for a folder held as an *os.Root: it
// removes the temporary files of replacements in dir last modified before
// cutoff, through dir's methods, and returns how many it removed. Errors
// are ignored; names not like TempPattern and anything but regular files
// are never touched.
func SweepStaleInRoot(dir *os.Root, cutoff time.Time) int {
	d, err := dir.Open(".")
	if err != nil {
		return 0
	}
	names, _ := d.Readdirnames(-1)
	_ = d.Close()
	removed := 0
	for _, name := range names {
		if ok, _ := filepath.Match(TempPattern, name); !ok {
			continue
		}
		st, err := dir.Lstat(name)
		if err != nil || !st.Mode().IsRegular() || !st.ModTime().Before(cutoff) {
			continue
		}
		if dir.Remove(name) == nil {
			removed++
		}
	}
	return removed
}
