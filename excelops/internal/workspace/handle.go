package workspace

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// This file is the workspace handle: every file operation of every tool
// (open, stat, temporary file, rename, lock, listing) goes through the
// workspace's os.Root, whose lookups resolve beneath the workspace root only
// (openat with each component checked, links followed only while they stay
// inside). Resolve checks a user's path and names it; the operations below
// take that name and look it up again through the root, so a folder swapped
// for a link to elsewhere between the check and the use (another process
// with a shell in the workspace) makes the operation fail, never leave.
// Nothing here opens a workspace path by name through the plain os
// functions.
//
// The folder-relative steps differ per system: on Unix the save and the
// lock act relative to a folder descriptor opened through the root
// (handle_unix.go: atomicfile.ReplaceIn, filelock.AcquireIn: openat,
// linkat, renameat, flock); Windows has no *at calls, so there the folder
// is opened as a root of its own beneath the workspace root (Root.OpenRoot)
// and the save and the lock use only that root's methods
// (handle_windows.go: atomicfile.ReplaceInRoot, filelock.AcquireInRoot).
// Both keep every step inside the folder that was opened.

// Rel maps path, an absolute path inside the root as resolve returns it,
// to the root-relative name the os.Root operations take.
func (s *Root) Rel(path string) (string, error) {
	switch {
	case path == s.dir:
		return ".", nil
	case Within(s.dir, path):
		return path[len(s.dir)+1:], nil
	}
	return "", Refuse(filepath.Base(path), "outside the workspace root")
}

// Show is path as messages name it: relative to the workspace root,
// slash-separated, never the root's absolute location.
func (s *Root) Show(path string) string {
	if r, err := s.Rel(path); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.Base(path)
}

// rootErr turns an error of an os.Root operation on path into one a user
// can act on: a lookup that would have left the root (a link swapped in
// during the call) is refused as outside the workspace; a missing file or
// a permission problem keeps its class (errors.Is fs.ErrNotExist, ...).
func (s *Root) rootErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		var errno syscall.Errno
		if !errors.As(pe.Err, &errno) {
			// os.Root's own refusal ("path escapes from parent"): not
			// an operating-system error.
			return Refuse(s.Show(path), "it leads outside the workspace (a folder or link changed during the call?)")
		}
		if errno == syscall.ELOOP {
			return Refuse(s.Show(path), "it is a link loop or became a link")
		}
		pe.Path = s.Show(path)
	}
	return err
}

// OpenRegular opens the workbook at path for reading through the root,
// refusing anything but a regular file: a FIFO, socket or device named
// .xlsx gets a clear error instead of a call stuck in open(2). The open is
// non-blocking (O_NONBLOCK, oNonblock), so a file swapped for a FIFO after
// a check still cannot block; the fstat after it is the check that counts.
func (s *Root) OpenRegular(path string) (*os.File, fs.FileInfo, error) {
	name := filepath.Base(path)
	rel, err := s.Rel(path)
	if err != nil {
		return nil, nil, err
	}
	fh, err := s.fs.OpenFile(rel, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		// A socket cannot be opened at all (ENXIO): say what it is.
		if st, lerr := s.fs.Stat(rel); lerr == nil && !st.Mode().IsRegular() {
			return nil, nil, NotRegular(name, st.Mode())
		}
		return nil, nil, s.rootErr(path, err)
	}
	st, err := fh.Stat()
	if err != nil {
		_ = fh.Close()
		return nil, nil, failure.New(failure.KindIO, "cannot stat the workbook: "+err.Error(), err)
	}
	if !st.Mode().IsRegular() {
		_ = fh.Close()
		return nil, nil, NotRegular(name, st.Mode())
	}
	return fh, s.identifyOpen(fh, st), nil
}

// Lstat describes path without following a final link, through the root.
func (s *Root) Lstat(path string) (fs.FileInfo, error) {
	rel, err := s.Rel(path)
	if err != nil {
		return nil, err
	}
	st, err := s.fs.Lstat(rel)
	if err != nil {
		return nil, s.rootErr(path, err)
	}
	return st, nil
}

// Stat describes path, following links that stay inside the root.
func (s *Root) Stat(path string) (fs.FileInfo, error) {
	rel, err := s.Rel(path)
	if err != nil {
		return nil, err
	}
	st, err := s.fs.Stat(rel)
	if err != nil {
		return nil, s.rootErr(path, err)
	}
	return s.identifyPath(path, st), nil
}

// StatID returns the identity of the file at path without following a
// final link (a link never matches a cached regular file).
func (s *Root) StatID(path string) (FileID, bool) {
	st, err := s.Lstat(path)
	if err != nil {
		return FileID{}, false
	}
	return IDOf(s.identifyPath(path, st))
}

// ReadDir returns at most n entries of the folder dir, through the root.
func (s *Root) ReadDir(dir string, n int) ([]fs.DirEntry, error) {
	d, err := s.OpenDir(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(n)
}

// WalkDir walks the folder dir through the root (fs.WalkDir over the
// root's fs.FS: links are never followed), calling fn with absolute paths
// as filepath.WalkDir would.
func (s *Root) WalkDir(dir string, fn fs.WalkDirFunc) error {
	rel, err := s.Rel(dir)
	if err != nil {
		return err
	}
	return fs.WalkDir(s.fs.FS(), filepath.ToSlash(rel), func(p string, d fs.DirEntry, err error) error {
		abs := s.dir
		if p != "." {
			abs = filepath.Join(s.dir, filepath.FromSlash(p))
		}
		if err != nil {
			err = s.rootErr(abs, err)
		}
		return fn(abs, d, err)
	})
}

// UserPath is the user path p as messages show it: a path that starts
// with the root's absolute location is shown relative to it, so no answer
// tells where the workspace lives on the host.
func (s *Root) UserPath(p string) string {
	root := filepath.ToSlash(s.dir) // the same on Unix; C:/ws on Windows
	switch {
	case filepath.ToSlash(p) == root:
		return "."
	case strings.HasPrefix(filepath.ToSlash(p), root+"/"):
		return strings.TrimLeft(filepath.ToSlash(p)[len(root):], "/")
	}
	return p
}
