package workspace

// FileID is the identity of a file version on disk: which file (device and
// inode, or volume and file index on Windows) and which version of it (size,
// modification and status-change times). Any write to the file, in place or
// by rename, changes it; IDOf fills it per system.
type FileID struct {
	// Dev and Ino name the file: device and inode.
	Dev, Ino uint64
	// Size is the file's length in bytes.
	Size int64
	// MTime and CTime are the modification and status-change times, in
	// nanoseconds since the epoch.
	MTime, CTime int64
}
