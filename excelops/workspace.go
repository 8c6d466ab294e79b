package excelops

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// This file is the workspace handle: every file operation of every tool
// (open, stat, temporary file, rename, lock, listing) goes through the
// sandbox's os.Root, whose lookups resolve beneath the workspace root only
// (openat with each component checked, links followed only while they stay
// inside). resolve checks a user's path and names it; the operations below
// take that name and look it up again through the root, so a folder swapped
// for a link to elsewhere between the check and the use (another process
// with a shell in the workspace) makes the operation fail, never leave.
// Nothing here opens a workspace path by name through the plain os
// functions.
//
// The folder-relative steps differ per system: on Unix the save and the
// lock act relative to a folder descriptor opened through the root
// (workspace_unix.go: atomicfile.ReplaceIn, filelock.AcquireIn: openat,
// linkat, renameat, flock); Windows has no *at calls, so there the folder
// is opened as a root of its own beneath the workspace root (Root.OpenRoot)
// and the save and the lock use only that root's methods
// (workspace_windows.go: atomicfile.ReplaceInRoot, filelock.AcquireInRoot).
// Both keep every step inside the folder that was opened.

// rel maps path, an absolute path inside the root as resolve returns it,
// to the root-relative name the os.Root operations take.
func (s *sandbox) rel(path string) (string, error) {
	switch {
	case path == s.root:
		return ".", nil
	case within(s.root, path):
		return path[len(s.root)+1:], nil
	}
	return "", refuse(filepath.Base(path), "outside the workspace root")
}

// show is path as messages name it: relative to the workspace root,
// slash-separated, never the root's absolute location.
func (s *sandbox) show(path string) string {
	if r, err := s.rel(path); err == nil {
		return filepath.ToSlash(r)
	}
	return filepath.Base(path)
}

// rootErr turns an error of an os.Root operation on path into one a user
// can act on: a lookup that would have left the root (a link swapped in
// during the call) is refused as outside the workspace; a missing file or
// a permission problem keeps its class (errors.Is fs.ErrNotExist, ...).
func (s *sandbox) rootErr(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		var errno syscall.Errno
		if !errors.As(pe.Err, &errno) {
			// os.Root's own refusal ("path escapes from parent"): not
			// an operating-system error.
			return refuse(s.show(path), "it leads outside the workspace (a folder or link changed during the call?)")
		}
		if errno == syscall.ELOOP {
			return refuse(s.show(path), "it is a link loop or became a link")
		}
		pe.Path = s.show(path)
	}
	return err
}

// openRegular opens the workbook at path for reading through the root,
// refusing anything but a regular file: a FIFO, socket or device named
// .xlsx gets a clear error instead of a call stuck in open(2). The open is
// non-blocking (O_NONBLOCK, oNonblock), so a file swapped for a FIFO after
// a check still cannot block; the fstat after it is the check that counts.
func (s *sandbox) openRegular(path string) (*os.File, fs.FileInfo, error) {
	name := filepath.Base(path)
	rel, err := s.rel(path)
	if err != nil {
		return nil, nil, err
	}
	fh, err := s.fs.OpenFile(rel, os.O_RDONLY|oNonblock, 0)
	if err != nil {
		// A socket cannot be opened at all (ENXIO): say what it is.
		if st, lerr := s.fs.Stat(rel); lerr == nil && !st.Mode().IsRegular() {
			return nil, nil, notRegular(name, st.Mode())
		}
		return nil, nil, s.rootErr(path, err)
	}
	st, err := fh.Stat()
	if err != nil {
		_ = fh.Close()
		return nil, nil, newError(KindIO, "cannot stat the workbook: "+err.Error(), err)
	}
	if !st.Mode().IsRegular() {
		_ = fh.Close()
		return nil, nil, notRegular(name, st.Mode())
	}
	return fh, s.identifyOpen(fh, st), nil
}

// lstat describes path without following a final link, through the root.
func (s *sandbox) lstat(path string) (fs.FileInfo, error) {
	rel, err := s.rel(path)
	if err != nil {
		return nil, err
	}
	st, err := s.fs.Lstat(rel)
	if err != nil {
		return nil, s.rootErr(path, err)
	}
	return st, nil
}

// stat describes path, following links that stay inside the root.
func (s *sandbox) stat(path string) (fs.FileInfo, error) {
	rel, err := s.rel(path)
	if err != nil {
		return nil, err
	}
	st, err := s.fs.Stat(rel)
	if err != nil {
		return nil, s.rootErr(path, err)
	}
	return s.identifyPath(path, st), nil
}

// statID returns the identity of the file at path without following a
// final link (a link never matches a cached regular file).
func (s *sandbox) statID(path string) (fileID, bool) {
	st, err := s.lstat(path)
	if err != nil {
		return fileID{}, false
	}
	return idOf(s.identifyPath(path, st))
}

// readDir returns at most n entries of the folder dir, through the root.
func (s *sandbox) readDir(dir string, n int) ([]fs.DirEntry, error) {
	d, err := s.openDir(dir)
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return d.ReadDir(n)
}

// walkDir walks the folder dir through the root (fs.WalkDir over the
// root's fs.FS: links are never followed), calling fn with absolute paths
// as filepath.WalkDir would.
func (s *sandbox) walkDir(dir string, fn fs.WalkDirFunc) error {
	rel, err := s.rel(dir)
	if err != nil {
		return err
	}
	return fs.WalkDir(s.fs.FS(), filepath.ToSlash(rel), func(p string, d fs.DirEntry, err error) error {
		abs := s.root
		if p != "." {
			abs = filepath.Join(s.root, filepath.FromSlash(p))
		}
		if err != nil {
			err = s.rootErr(abs, err)
		}
		return fn(abs, d, err)
	})
}

// userPath is the user path p as messages show it: a path that starts
// with the root's absolute location is shown relative to it, so no answer
// tells where the workspace lives on the host.
func (s *sandbox) userPath(p string) string {
	root := filepath.ToSlash(s.root) // the same on Unix; C:/ws on Windows
	switch {
	case filepath.ToSlash(p) == root:
		return "."
	case strings.HasPrefix(filepath.ToSlash(p), root+"/"):
		return strings.TrimLeft(filepath.ToSlash(p)[len(root):], "/")
	}
	return p
}
