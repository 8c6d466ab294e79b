package workspace

import (
	"context"
	"io"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/windows"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/atomicfile"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/filelock"
)

// The Windows side of the workspace handle (see handle.go): no openat,
// linkat, renameat or flock, so a save or a lock acts in its folder opened
// as an *os.Root of its own beneath the workspace root (folder_root.go,
// built and tested on every system).

// oNonblock is 0: Windows has no FIFOs in the file namespace that an open
// could wait on.
const oNonblock = 0

// identifiedInfo is a FileInfo with the file's identity, read from an open
// handle (a Windows FileInfo carries no file index; see idOf).
type identifiedInfo struct {
	fs.FileInfo
	id FileID
}

// identifyOpen returns st with the identity of the open file fh: volume
// serial number and file index (GetFileInformationByHandle, what
// os.SameFile compares), size, last-write and creation times. st is
// returned as is when the handle cannot say (idOf then reports the
// identity unknown: nothing is cached, and a save over the file is refused
// as a conflict rather than risked).
func (s *Root) identifyOpen(fh *os.File, st fs.FileInfo) fs.FileInfo {
	var fi windows.ByHandleFileInformation
	if !st.Mode().IsRegular() || windows.GetFileInformationByHandle(windows.Handle(fh.Fd()), &fi) != nil {
		return st
	}
	return identifiedInfo{FileInfo: st, id: FileID{
		Dev:   uint64(fi.VolumeSerialNumber),
		Ino:   uint64(fi.FileIndexHigh)<<32 | uint64(fi.FileIndexLow),
		Size:  int64(fi.FileSizeHigh)<<32 | int64(fi.FileSizeLow),
		MTime: fi.LastWriteTime.Nanoseconds(),
		CTime: fi.CreationTime.Nanoseconds(),
	}}
}

// identifyPath returns st, the stat of path through the root, with the
// file's identity: the file is opened through the root and its handle
// asked (identifyOpen), if it is still the file st describes (os.SameFile,
// which compares what both handles reported, nothing looked up by name).
func (s *Root) identifyPath(path string, st fs.FileInfo) fs.FileInfo {
	if !st.Mode().IsRegular() {
		return st
	}
	rel, err := s.Rel(path)
	if err != nil {
		return st
	}
	fh, err := s.fs.Open(rel)
	if err != nil {
		return st
	}
	defer fh.Close()
	if now, err := fh.Stat(); err != nil || !os.SameFile(st, now) {
		return st
	}
	return s.identifyOpen(fh, st)
}

// OpenDir opens the folder dir (the root itself or a folder below it)
// through the root. Windows has no O_DIRECTORY: the open file is checked
// to be a folder.
func (s *Root) OpenDir(dir string) (*os.File, error) {
	rel, err := s.Rel(dir)
	if err != nil {
		return nil, err
	}
	d, err := s.fs.Open(rel)
	if err != nil {
		return nil, s.rootErr(dir, err)
	}
	if st, err := d.Stat(); err != nil || !st.IsDir() {
		_ = d.Close()
		return nil, s.rootErr(dir, &fs.PathError{Op: "open", Path: rel, Err: syscall.ENOTDIR})
	}
	return d, nil
}

// Replace is ReplaceViaRoot (folder_root.go): Windows has no *at calls.
func (s *Root) Replace(ctx context.Context, path string, mode fs.FileMode, o atomicfile.Options, produce func(io.Writer) error) error {
	return s.ReplaceViaRoot(ctx, path, mode, o, produce)
}

// Lock is LockViaRoot (folder_root.go): Windows has no flock.
func (s *Root) Lock(ctx context.Context, path string) (*filelock.Lock, error) {
	return s.LockViaRoot(ctx, path)
}
