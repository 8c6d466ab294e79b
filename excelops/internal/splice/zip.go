package splice

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"io"
	"slices"
	"time"
)

// Level is the deflate level of rewritten parts: the fastest, as the
// measured floor of an edit is inflating and deflating the one sheet.
const Level = flate.BestSpeed

// Part is one rewritten entry of a package.
type Part interface {
	// WriteTo writes the entry's content to zw as name, with the header
	// fields of the original entry (nil for a new entry).
	writePart(zw *zip.Writer, name string, orig *zip.File) error
}

// Bytes is a rewritten entry whose whole content is in memory (a small
// part: workbook.xml, styles.xml, sharedStrings.xml).
type Bytes []byte

// writePart deflates the bytes into the entry.
func (b Bytes) writePart(zw *zip.Writer, name string, orig *zip.File) error {
	fh := &zip.FileHeader{Name: name, Method: zip.Deflate, Modified: time.Now()}
	if orig != nil {
		fh.Modified = orig.Modified
	}
	w, err := zw.CreateHeader(fh)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// Dropped is an entry the edit removed: WritePackage leaves it out.
type Dropped struct{}

// writePart writes nothing.
func (Dropped) writePart(*zip.Writer, string, *zip.File) error { return nil }

// Segments is an entry written as two independent deflate segments: Head
// (small, finished last) and the body that Rewrite streamed into a
// BodyWriter. Deflate streams are sequences of blocks, so a flushed but
// unfinished stream followed by a finished one is one valid stream.
type Segments struct {
	Head []byte
	Body *BodyWriter
}

// writePart writes head and body as one raw deflate entry.
func (s Segments) writePart(zw *zip.Writer, name string, orig *zip.File) error {
	var head bytes.Buffer
	fw, err := flate.NewWriter(&head, Level)
	if err != nil {
		return err
	}
	if _, err := fw.Write(s.Head); err != nil {
		return err
	}
	if err := fw.Flush(); err != nil { // byte-aligned, not final
		return err
	}
	crc := crc32Combine(crc32.ChecksumIEEE(s.Head), s.Body.crc, s.Body.n)
	fh := &zip.FileHeader{
		Name: name, Method: zip.Deflate, Modified: time.Now(),
		CRC32:              crc,
		CompressedSize64:   uint64(int64(head.Len()) + s.Body.out.Len()),
		UncompressedSize64: uint64(len(s.Head)) + uint64(s.Body.n),
	}
	if orig != nil {
		fh.Modified = orig.Modified
	}
	w, err := zw.CreateRaw(fh)
	if err != nil {
		return err
	}
	if _, err := w.Write(head.Bytes()); err != nil {
		return err
	}
	return s.Body.out.copyTo(w)
}

// BodyWriter deflates what is written to it and keeps the CRC-32 and
// length of the uncompressed bytes. The deflated bytes stay in memory up
// to a few MB and go to an unnamed temporary file past that, so a big
// sheet costs disk, not memory.
//
// Deflating runs on a goroutine of its own, fed chunks of what is written,
// so reading and scanning the old sheet (the writer's caller) and
// deflating the new one overlap on two cores; it is still one deflate
// stream, written in order. Close finishes it and reports any error;
// Release frees everything (and stops the goroutine if Close was not
// called).
type BodyWriter struct {
	out    spill
	fw     *flate.Writer
	crc    uint32
	n      int64
	cur    []byte      // the chunk being filled
	chunks chan []byte // full chunks, to the deflating goroutine
	free   chan []byte // chunks it is done with
	done   chan error  // its result, once chunks is closed
	closed bool        // chunks was closed
	err    error       // the result, once received
}

// bodyChunk is the size of the chunks handed to the deflating goroutine,
// and bodyChunks how many there are (memory: their product).
const (
	bodyChunk  = 256 << 10
	bodyChunks = 4
)

// NewBodyWriter returns an empty BodyWriter that spills into a temporary
// file in dir (the system's temporary folder when empty).
func NewBodyWriter(dir string) *BodyWriter {
	b := &BodyWriter{out: spill{dir: dir}, chunks: make(chan []byte, bodyChunks), free: make(chan []byte, bodyChunks), done: make(chan error, 1)}
	b.fw, _ = flate.NewWriter(&b.out, Level) // Level is valid
	for range bodyChunks {
		b.free <- make([]byte, 0, bodyChunk)
	}
	go b.deflate()
	return b
}

// deflate is the deflating goroutine: it compresses the chunks in order
// and, when they end, finishes the stream. After an error it only drains.
func (b *BodyWriter) deflate() {
	var err error
	for c := range b.chunks {
		if err == nil {
			b.crc = crc32.Update(b.crc, crc32.IEEETable, c)
			_, err = b.fw.Write(c)
		}
		b.free <- c[:0]
	}
	if err == nil {
		err = b.fw.Close()
	}
	b.done <- err
}

// Write hands p to the deflating goroutine (copied: p may be reused at
// once). Its errors are Close's.
func (b *BodyWriter) Write(p []byte) (int, error) {
	if b.closed {
		return 0, errors.New("splice: write to a closed body")
	}
	n := len(p)
	b.n += int64(n)
	for len(p) > 0 {
		if b.cur == nil {
			b.cur = <-b.free
		}
		k := min(len(p), cap(b.cur)-len(b.cur))
		b.cur = append(b.cur, p[:k]...)
		p = p[k:]
		if len(b.cur) == cap(b.cur) {
			b.chunks <- b.cur
			b.cur = nil
		}
	}
	return n, nil
}

// Close finishes the deflate stream and reports the first error of
// deflating or spilling.
func (b *BodyWriter) Close() error {
	if b.closed {
		return b.err
	}
	if len(b.cur) > 0 {
		b.chunks <- b.cur
		b.cur = nil
	}
	b.closed = true
	close(b.chunks)
	b.err = <-b.done
	return b.err
}

// Release frees the deflated bytes (memory or temporary file), first
// finishing the deflating goroutine when Close was not called.
func (b *BodyWriter) Release() error {
	_ = b.Close()
	return b.out.release()
}

// WritePackage writes the package src to w with the entries named in parts
// replaced (or left out, for Dropped); every other entry is copied raw, in
// its original order. Entries of parts that src does not have follow, in
// name order.
func WritePackage(w io.Writer, src *zip.Reader, parts map[string]Part) error {
	zw := zip.NewWriter(w)
	done := map[string]bool{}
	for _, f := range src.File {
		if p, ok := parts[f.Name]; ok {
			if err := p.writePart(zw, f.Name, f); err != nil {
				return err
			}
			done[f.Name] = true
			continue
		}
		if err := zw.Copy(f); err != nil {
			return err
		}
	}
	added := make([]string, 0, len(parts)-len(done))
	for name := range parts {
		if !done[name] {
			added = append(added, name)
		}
	}
	slices.Sort(added) // new entries in one order, whatever the map's
	for _, name := range added {
		if err := parts[name].writePart(zw, name, nil); err != nil {
			return err
		}
	}
	return zw.Close()
}
