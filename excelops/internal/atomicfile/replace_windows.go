//go:build windows

package atomicfile

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// ReplaceWith is ReplaceInRoot on path's folder, opened by name. Callers
// that must not leave a folder they checked (a workspace handle) open the
// folder through their own root and call ReplaceInRoot.
func ReplaceWith(ctx context.Context, path string, mode fs.FileMode, o Options, produce func(io.Writer) error) error {
	dir, err := os.OpenRoot(filepath.Dir(path))
	if err != nil {
		return &StepError{Step: StepCreate, Err: err}
	}
	defer dir.Close()
	return ReplaceInRoot(ctx, dir, filepath.Base(path), mode, o, produce)
}

// SweepStale is SweepStaleInRoot on the folder dir, opened by name.
func SweepStale(dir string, cutoff time.Time) int {
	d, err := os.OpenRoot(dir)
	if err != nil {
		return 0
	}
	defer d.Close()
	return SweepStaleInRoot(d, cutoff)
}
