package excelops

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// tempPattern names the temporary files of an atomic save; the leading dot
// hides them from casual listings.
const tempPattern = ".~registry-sidecar-*.tmp"

// saveBufferSize is the write buffer between the zip writer and the file.
const saveBufferSize = 256 << 10

// writeAtomic replaces path with what produce writes, so that at every
// instant (error, crash, SIGKILL) path holds either its old bytes or the
// complete new ones: produce writes into a temporary file in the same
// folder, which is flushed, fsynced, given the original mode and renamed over
// path; then the folder is fsynced so the rename itself is durable. wrap, when
// not nil, wraps the file writer (tests inject failures there). If ctx ends
// before the rename nothing is replaced.
func writeAtomic(ctx context.Context, path string, mode fs.FileMode, wrap func(io.Writer) io.Writer, produce func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, tempPattern)
	if err != nil {
		return newError(KindIO, "cannot create a temporary file next to the workbook: "+err.Error(), err)
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
	bw := bufio.NewWriterSize(w, saveBufferSize)
	if err = produce(bw); err != nil {
		return saveError("writing", err)
	}
	if err = bw.Flush(); err != nil {
		return saveError("writing", err)
	}
	if err = tmp.Sync(); err != nil {
		return saveError("syncing", err)
	}
	if err = tmp.Chmod(mode.Perm()); err != nil {
		return saveError("setting the mode of", err)
	}
	if err = tmp.Close(); err != nil {
		return saveError("closing", err)
	}
	if err = ctx.Err(); err != nil {
		return err
	}
	if err = os.Rename(tmpName, path); err != nil {
		return saveError("renaming", err)
	}
	// The new content is in place; a failed folder sync only weakens
	// durability after a power loss, so it is reported but nothing is undone.
	if d, derr := os.Open(dir); derr == nil {
		serr := d.Sync()
		_ = d.Close()
		if serr != nil {
			return saveError("syncing the folder of", serr)
		}
	}
	return nil
}

// saveError wraps a failure of one save step.
func saveError(step string, err error) error {
	if kindOf(err) != "" {
		return err
	}
	return newError(KindIO, fmt.Sprintf("save failed while %s the workbook (the original file is unchanged): %v", step, err), err)
}
