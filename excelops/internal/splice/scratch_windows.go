//go:build windows

package splice

import (
	"errors"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/windows"
)

// scratchFile opens a new read-write file in dir that Windows deletes when
// its last handle closes (FILE_FLAG_DELETE_ON_CLOSE), also when the process
// is killed: the nearest thing to an unnamed file there.
func scratchFile(dir string) (*os.File, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	for i := 0; ; i++ {
		name := filepath.Join(dir, ".~registry-sidecar-splice-"+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL|windows.FILE_FLAG_DELETE_ON_CLOSE, 0o600)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, fs.ErrExist) || i > 100 {
			return nil, err
		}
	}
}
