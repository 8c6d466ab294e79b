package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/atomicfile"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// WriteAtomic replaces path with what produce writes, through the
// workspace handle (see sandbox.replace: atomicfile.ReplaceIn, or
// ReplaceInRoot on Windows): at every instant path holds its old bytes or the
// complete new ones. unchanged, when not nil, runs right before the rename
// and aborts the save with its error (the identity check).
func (s *Engine) WriteAtomic(ctx context.Context, path string, mode fs.FileMode, wrap func(io.Writer) io.Writer, unchanged func() error, produce func(io.Writer) error) error {
	err := s.Box.Replace(ctx, path, mode, atomicfile.Options{Wrap: wrap, BeforeRename: unchanged}, produce)
	var step *atomicfile.StepError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &step) && step.Replaced():
		return failure.New(failure.KindIO, "the workbook was saved but its folder could not be synced: "+step.Err.Error(), step.Err)
	case errors.As(err, &step):
		return failure.New(failure.KindIO, fmt.Sprintf("save failed while %s (the original file is unchanged): %v", step.Step, step.Err), step.Err)
	}
	return err
}
