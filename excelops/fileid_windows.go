package excelops

import "io/fs"

// idOf extracts the identity of the file st describes. A Windows FileInfo
// carries no file index (os.SameFile fetches it privately), so the sandbox
// reads the identity from an open handle and attaches it (identifiedInfo,
// workspace_windows.go): volume serial number and file index for device and
// inode, size, last-write time, and the creation time in place of the
// ctime Windows does not have. A FileInfo that did not come through the
// sandbox has no known identity.
func idOf(st fs.FileInfo) (fileID, bool) {
	w, ok := st.(identifiedInfo)
	if !ok || !st.Mode().IsRegular() {
		return fileID{}, false
	}
	return w.id, true
}
