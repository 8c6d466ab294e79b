package workspace

import "io/fs"

// IDOf extracts the identity of the file st describes. A Windows FileInfo
// carries no file index (os.SameFile fetches it privately), so the workspace
// reads the identity from an open handle and attaches it (identifiedInfo,
// handle_windows.go): volume serial number and file index for device and
// inode, size, last-write time, and the creation time in place of the
// ctime Windows does not have. A FileInfo that did not come through the
// workspace has no known identity.
func IDOf(st fs.FileInfo) (FileID, bool) {
	w, ok := st.(identifiedInfo)
	if !ok || !st.Mode().IsRegular() {
		return FileID{}, false
	}
	return w.id, true
}
