package splice

import (
	"bytes"
	"io"
	"os"
)

// spillAt is how much of a deflated body stays in memory; past it the body
// goes to an unnamed temporary file, so memory stays flat however big the
// sheet is.
const spillAt = 4 << 20

// spill holds bytes in memory up to spillAt, then in a temporary file in
// dir that has no name (O_TMPFILE, or removed right after it was created;
// on Windows one deleted when its handle closes), so nothing is left behind
// whatever happens to the process (scratchFile).
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
