//go:build unix

package atomicfile

import "os"

// syncFolder fsyncs the folder dir, so a rename in it survives a power
// loss.
func syncFolder(dir *os.Root) error {
	d, err := dir.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}

// renameBusy reports false: a rename on Unix does not fail because another
// program has the target open.
func renameBusy(error) bool { return false }
