//go:build unix

package excelops

import (
	"io/fs"
	"syscall"
)

// idOf extracts the identity of the file st describes.
func idOf(st fs.FileInfo) (fileID, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok || !st.Mode().IsRegular() {
		return fileID{}, false
	}
	return fileID{
		dev: uint64(sys.Dev), ino: sys.Ino, size: st.Size(),
		mtime: st.ModTime().UnixNano(),
		ctime: ctimeNanos(sys),
	}, true
}
