package workspace

import (
	"fmt"
	"io/fs"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// NotRegular is the error for a path that is not a regular file.
func NotRegular(name string, mode fs.FileMode) error {
	what := "not a regular file"
	switch {
	case mode&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO), not a workbook file"
	case mode&fs.ModeSocket != 0:
		what = "a socket, not a workbook file"
	case mode&fs.ModeDevice != 0:
		what = "a device, not a workbook file"
	case mode.IsDir():
		what = "a folder, not a workbook file"
	case mode&fs.ModeSymlink != 0:
		what = "a link, not a workbook file"
	}
	return failure.New(failure.KindInvalidArgument, fmt.Sprintf("%q is %s; only regular files are opened", name, what), nil)
}
