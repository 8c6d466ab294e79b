package opc

import (
	"io"

	"github.com/klauspost/compress/flate"
	"github.com/klauspost/readahead"
)

// Inflater opens a deflated zip entry with klauspost's Inflater, about a
// quarter faster than the standard library's on sheet XML.
func Inflater(r io.Reader) io.ReadCloser { return flate.NewReader(r) }

// The read-ahead of a streamed sheet (LateReadAhead): once readAheadFrom
// bytes are read, the rest inflates on a goroutine of its own, at most
// readAheadBuffers buffers of readAheadBufferSize ahead.
const (
	readAheadFrom       = 1 << 20
	readAheadBuffers    = 4
	readAheadBufferSize = 256 << 10
)

// NewLateReadAhead returns a LateReadAhead over r.
func NewLateReadAhead(r io.Reader) *LateReadAhead { return &LateReadAhead{r: r} }

// LateReadAhead reads r directly for its first readAheadFrom bytes, then
// through a read-ahead goroutine: a long read of a large sheet inflates on
// one core while the caller tokenizes on another, and a read of a few rows
// (a header, a preview) inflates no more than it uses.
type LateReadAhead struct {
	r    io.Reader
	read int64
	ra   io.ReadCloser
}

// Read reads from r, through the read-ahead once enough was read.
func (l *LateReadAhead) Read(p []byte) (int, error) {
	if l.ra != nil {
		return l.ra.Read(p)
	}
	if l.read >= readAheadFrom {
		ra, err := readahead.NewReaderSize(l.r, readAheadBuffers, readAheadBufferSize)
		if err != nil {
			return 0, err
		}
		l.ra = ra
		return ra.Read(p)
	}
	n, err := l.r.Read(p)
	l.read += int64(n)
	return n, err
}

// Close stops the read-ahead goroutine, if one started; the underlying
// reader stays open (its owner closes it).
func (l *LateReadAhead) Close() error {
	if l.ra != nil {
		return l.ra.Close()
	}
	return nil
}
