//go:build unix

package workspace

import (
	"io/fs"
	"syscall"
)

// IDOf extracts the identity of the file st describes.
func IDOf(st fs.FileInfo) (FileID, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok || !st.Mode().IsRegular() {
		return FileID{}, false
	}
	return FileID{
		Dev: uint64(sys.Dev), Ino: sys.Ino, Size: st.Size(),
		MTime: st.ModTime().UnixNano(),
		CTime: ctimeNanos(sys),
	}, true
}
