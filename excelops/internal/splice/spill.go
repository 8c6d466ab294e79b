package splice

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"
)

// spillAt is how much of a deflated body stays in memory; past it the body
// goes to an unnamed temporary file, so memory stays flat however big the
// sheet is.
const spillAt = 4 << 20

// spill holds bytes in memory up to spillAt, then in a temporary file in
// dir that has no name (O_TMPFILE, or removed right after it was created),
// so nothing is left behind whatever happens to the process.
type spill struct {
	dir  string
	mem  bytes.Buffer
	file *os.File
	n    int64
}

// Write appends p.
func (s *spill) Write(p []byte) (int, error) {
	s.n += int64(len(p))
	if s.file == nil && s.mem.Len()+len(p) <= spillAt {
		return s.mem.Write(p)
	}
	if s.file == nil {
		f, err := scratchFile(s.dir)
		if err != nil {
			return 0, err
		}
		s.file = f
		if _, err := s.file.Write(s.mem.Bytes()); err != nil {
			return 0, err
		}
		s.mem = bytes.Buffer{}
	}
	return s.file.Write(p)
}

// Len is the number of bytes written.
func (s *spill) Len() int64 { return s.n }

// copyTo writes everything written so far to w.
func (s *spill) copyTo(w io.Writer) error {
	if s.file == nil {
		_, err := w.Write(s.mem.Bytes())
		return err
	}
	if _, err := s.file.Seek(0, io.SeekStart); err != nil {
		return err
	}
	buf := make([]byte, 256<<10)
	_, err := io.CopyBuffer(onlyWriter{w}, io.LimitReader(s.file, s.n), buf)
	return err
}

// onlyWriter hides a writer's ReadFrom, so io.CopyBuffer uses its buffer.
type onlyWriter struct{ io.Writer }

// release drops the memory and closes the file (which has no name: its
// blocks are freed).
func (s *spill) release() error {
	s.mem = bytes.Buffer{}
	if s.file == nil {
		return nil
	}
	err := s.file.Close()
	s.file = nil
	return err
}

// scratchFile opens an unnamed read-write file in dir.
func scratchFile(dir string) (*os.File, error) {
	if dir == "" {
		dir = os.TempDir()
	}
	if oTmpfile != 0 {
		fd, err := unix.Open(dir, oTmpfile|unix.O_RDWR|unix.O_CLOEXEC, 0o600)
		if err == nil {
			return os.NewFile(uintptr(fd), filepath.Join(dir, "(unnamed)")), nil
		}
		if !errors.Is(err, unix.EOPNOTSUPP) && !errors.Is(err, unix.EISDIR) && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOENT) {
			return nil, &fs.PathError{Op: "open", Path: dir, Err: err}
		}
	}
	f, err := os.CreateTemp(dir, ".~registry-sidecar-splice-*.tmp")
	if err != nil {
		return nil, err
	}
	if err := os.Remove(f.Name()); err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}
