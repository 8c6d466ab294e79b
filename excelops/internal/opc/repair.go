package opc

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
)

// Zip record signatures and fixed sizes (APPNOTE 4.3).
var (
	sigLocal   = []byte("PK\x03\x04")
	sigCentral = []byte("PK\x01\x02")
	sigEnd     = []byte("PK\x05\x06")
)

const (
	localHeaderLen   = 30
	centralHeaderLen = 46
	endRecordLen     = 22
	endScanChunk     = 64 << 10
	// maxEndScan bounds how far from the end of the file Repair looks
	// for the end record (unzip looks about 64 KiB further than the
	// longest comment; Go's reader no further than that).
	maxEndScan = 1 << 20
)

// ErrNotRepairable says Repair found no directory unzip would read.
var ErrNotRepairable = errors.New("zip directory cannot be rebuilt")

// Repair rebuilds the central directory of a zip that Go's reader
// rejects or misreads but unzip (and LibreOffice) read: an end record
// followed by more bytes than its comment length says (trailing data past
// Go's search window, a comment length past the end of the file), or a
// directory offset that is wrong (zero, or counting a prefix the entries'
// offsets do not). Like unzip it takes the last sane end record, finds
// the directory right before it by its size, and looks for each local
// header at its offset shifted by the bytes found in front of the
// directory, then at its offset as written. It returns the file up to the
// directory followed by a clean directory and end record (no comment, no
// trailing bytes), read through r without copying the entries. Zip64
// archives and directories that overlap their entries (which unzip
// refuses too) are not rebuilt.
func Repair(r io.ReaderAt, size int64) (io.ReaderAt, int64, error) {
	endPos, end, err := findEndRecord(r, size)
	if err != nil {
		return nil, 0, err
	}
	entries := binary.LittleEndian.Uint16(end[10:])
	dirSize := int64(binary.LittleEndian.Uint32(end[12:]))
	dirOff := int64(binary.LittleEndian.Uint32(end[16:]))
	if entries == 0xffff || dirSize == 0xffffffff || dirOff == 0xffffffff {
		return nil, 0, ErrNotRepairable // zip64
	}
	dirStart := endPos - dirSize
	shift := dirStart - dirOff
	if dirStart < 0 || shift < 0 {
		return nil, 0, ErrNotRepairable
	}
	dir := make([]byte, dirSize)
	if _, err := r.ReadAt(dir, dirStart); err != nil {
		return nil, 0, ErrNotRepairable
	}
	out := make([]byte, 0, len(dir)+endRecordLen)
	for i, pos := 0, 0; i < int(entries); i++ {
		if pos+centralHeaderLen > len(dir) || !bytes.Equal(dir[pos:pos+4], sigCentral) {
			return nil, 0, ErrNotRepairable
		}
		n := centralHeaderLen + int(binary.LittleEndian.Uint16(dir[pos+28:])) + int(binary.LittleEndian.Uint16(dir[pos+30:])) + int(binary.LittleEndian.Uint16(dir[pos+32:]))
		if pos+n > len(dir) {
			return nil, 0, ErrNotRepairable
		}
		rec := append([]byte(nil), dir[pos:pos+n]...)
		off := int64(binary.LittleEndian.Uint32(rec[42:]))
		if off == 0xffffffff {
			return nil, 0, ErrNotRepairable
		}
		at, ok := findLocalHeader(r, dirStart, off+shift, off)
		if !ok {
			return nil, 0, ErrNotRepairable
		}
		binary.LittleEndian.PutUint32(rec[42:], uint32(at))
		out = append(out, rec...)
		pos += n
	}
	tail := make([]byte, endRecordLen)
	copy(tail, sigEnd)
	binary.LittleEndian.PutUint16(tail[8:], entries)
	binary.LittleEndian.PutUint16(tail[10:], entries)
	binary.LittleEndian.PutUint32(tail[12:], uint32(len(out)))
	binary.LittleEndian.PutUint32(tail[16:], uint32(dirStart))
	out = append(out, tail...)
	return &splicedReader{base: r, cut: dirStart, tail: out}, dirStart + int64(len(out)), nil
}

// findLocalHeader returns the first offset of offs, before limit, that
// holds a local file header.
func findLocalHeader(r io.ReaderAt, limit int64, offs ...int64) (int64, bool) {
	sig := make([]byte, 4)
	for _, off := range offs {
		if off < 0 || off+localHeaderLen > limit {
			continue
		}
		if _, err := r.ReadAt(sig, off); err == nil && bytes.Equal(sig, sigLocal) {
			return off, true
		}
	}
	return 0, false
}

// findEndRecord returns the position and bytes of the last end of central
// directory record in r whose fields are sane (one disk, the directory
// before it), searching the whole file backwards as unzip does.
func findEndRecord(r io.ReaderAt, size int64) (int64, []byte, error) {
	buf := make([]byte, endScanChunk+endRecordLen)
	for hi := size; hi > 0 && size-hi < maxEndScan; {
		lo := max(hi-endScanChunk, 0)
		n := min(hi+endRecordLen, size) - lo
		chunk := buf[:n]
		if _, err := r.ReadAt(chunk, lo); err != nil && !errors.Is(err, io.EOF) {
			return 0, nil, ErrNotRepairable
		}
		for i := bytes.LastIndex(chunk, sigEnd); i >= 0; i = bytes.LastIndex(chunk[:i], sigEnd) {
			if int64(i)+endRecordLen > n || lo+int64(i) >= hi {
				continue
			}
			rec := chunk[i : i+endRecordLen]
			disk, dirDisk := binary.LittleEndian.Uint16(rec[4:]), binary.LittleEndian.Uint16(rec[6:])
			here, total := binary.LittleEndian.Uint16(rec[8:]), binary.LittleEndian.Uint16(rec[10:])
			if disk == 0 && dirDisk == 0 && here == total && int64(binary.LittleEndian.Uint32(rec[12:])) <= lo+int64(i) {
				return lo + int64(i), append([]byte(nil), rec...), nil
			}
		}
		hi = lo
	}
	return 0, nil, ErrNotRepairable
}

// splicedReader reads base up to cut, then tail: a file whose end is
// replaced without copying what comes before.
type splicedReader struct {
	base io.ReaderAt
	cut  int64
	tail []byte
}

// ReadAt reads len(p) bytes at off of the spliced file.
func (s *splicedReader) ReadAt(p []byte, off int64) (int, error) {
	if off < 0 {
		return 0, errors.New("excelops: negative offset")
	}
	n := 0
	if off < s.cut {
		want := min(int64(len(p)), s.cut-off)
		m, err := s.base.ReadAt(p[:want], off)
		n = m
		if m < int(want) {
			if err == nil {
				err = io.ErrUnexpectedEOF
			}
			return n, err
		}
	}
	if rest := p[n:]; len(rest) > 0 {
		at := off + int64(n) - s.cut
		if at >= int64(len(s.tail)) {
			return n, io.EOF
		}
		m := copy(rest, s.tail[at:])
		if n += m; m < len(rest) {
			return n, io.EOF
		}
	}
	return n, nil
}
