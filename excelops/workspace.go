package excelops

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/atomicfile"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/filelock"
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
// non-blocking (O_NONBLOCK), so a file swapped for a FIFO after a check
// still cannot block; the fstat after it is the check that counts.
func (s *sandbox) openRegular(path string) (*os.File, fs.FileInfo, error) {
	name := filepath.Base(path)
	rel, err := s.rel(path)
	if err != nil {
		return nil, nil, err
	}
	fh, err := s.fs.OpenFile(rel, os.O_RDONLY|syscall.O_NONBLOCK, 0)
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
	return fh, st, nil
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
	return st, nil
}

// statID returns the identity of the file at path without following a
// final link (a link never matches a cached regular file).
func (s *sandbox) statID(path string) (fileID, bool) {
	st, err := s.lstat(path)
	if err != nil {
		return fileID{}, false
	}
	return idOf(st)
}

// openDir opens the folder dir (the root itself or a folder below it)
// through the root. The descriptor it returns keeps naming that folder
// whatever is renamed around it, which is what the save and the lock hold on
// to.
func (s *sandbox) openDir(dir string) (*os.File, error) {
	rel, err := s.rel(dir)
	if err != nil {
		return nil, err
	}
	d, err := s.fs.OpenFile(rel, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, s.rootErr(dir, err)
	}
	return d, nil
}

// replace writes what produce writes over path atomically (see
// atomicfile.ReplaceIn), in path's folder as opened through the root: the
// temporary file, the rename and the folder sync all stay in that folder.
func (s *sandbox) replace(ctx context.Context, path string, mode fs.FileMode, o atomicfile.Options, produce func(io.Writer) error) error {
	d, err := s.openDir(filepath.Dir(path))
	if err != nil {
		return &atomicfile.StepError{Step: atomicfile.StepCreate, Err: err}
	}
	defer d.Close()
	return atomicfile.ReplaceIn(ctx, d, filepath.Base(path), mode, o, produce)
}

// lock takes the cross-process lock of the workbook at path (see
// filelock.AcquireIn) in its folder as opened through the root.
func (s *sandbox) lock(ctx context.Context, path string) (*filelock.Lock, error) {
	d, err := s.openDir(filepath.Dir(path))
	if err != nil {
		return nil, err
	}
	defer d.Close()
	return filelock.AcquireIn(ctx, d, filepath.Base(path))
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
	switch {
	case p == s.root:
		return "."
	case strings.HasPrefix(p, s.root+"/"):
		return strings.TrimLeft(p[len(s.root):], "/")
	}
	return p
}
