package excelops

import (
	"io"

	"github.com/klauspost/compress/flate"
)

// inflater opens a deflated zip entry with klauspost's inflater, about a
// quarter faster than the standard library's on sheet XML.
func inflater(r io.Reader) io.ReadCloser { return flate.NewReader(r) }

// The read-ahead of a streamed sheet (see walkRows): sheets whose XML
// inflates to readAheadFrom bytes or more are inflated on a goroutine of
// their own, at most readAheadBuffers buffers of readAheadBufferSize ahead.
const (
	readAheadFrom       = 1 << 20
	readAheadBuffers    = 4
	readAheadBufferSize = 256 << 10
)
