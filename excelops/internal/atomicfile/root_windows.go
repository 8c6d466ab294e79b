//go:build windows

package atomicfile

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// syncFolder does nothing on Windows: a folder cannot be flushed through a
// handle os.Root hands out (FlushFileBuffers needs write access to it), and
// NTFS journals the rename itself, so after a power loss the folder names
// the old file or the new one, both complete.
func syncFolder(*os.Root) error { return nil }

// renameBusy reports whether a rename failed because another program has
// the target (or the new file) open without sharing it for deletion: a
// virus scanner or indexer briefly, Excel for as long as it shows the
// workbook.
func renameBusy(err error) bool {
	return errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_ACCESS_DENIED) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}
