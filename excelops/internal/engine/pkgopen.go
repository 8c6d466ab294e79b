package engine

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"unicode/utf16"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// defaultPassword is the password Excel encrypts a workbook with when it is
// saved "read-only recommended" or protected without a password of its own:
// every Excel opens such a file without asking.
const defaultPassword = "VelvetSweatshop"

// CfbMagic starts every OLE compound file (CFB): an encrypted xlsx, or a
// legacy binary workbook.
var CfbMagic = []byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1}

// encryptionInfoName is the name of the stream an encrypted OOXML package
// keeps its key data in, as CFB directory entries spell it (UTF-16LE).
var encryptionInfoName = utf16le("EncryptionInfo")

// errPasswordRequired is the refusal of a workbook encrypted with a
// password other than Excel's default one.
func errPasswordRequired() error {
	return failure.New(failure.KindEncrypted, "encrypted workbook: a password is required", nil)
}

// RefuseEncryptedWrite is the refusal of a write to a workbook encrypted with
// Excel's default password: it reads, but it is never saved (neither
// encrypted again, which this tool does not do, nor decrypted, which
// would drop its protection).
func RefuseEncryptedWrite(name string) error {
	return failure.New(failure.KindEncrypted, fmt.Sprintf("encrypted workbook: %s is encrypted with Excel's default password (read-only recommended); it can be read but not changed, and nothing was written", name), nil)
}

// Package is the zip package of a workbook as the readers see it.
type Package struct {
	Zr *zip.Reader
	// r and size are what zr reads: the file itself, the decrypted
	// package, or the file with its central directory rebuilt (see
	// opc.Repair).
	r    io.ReaderAt
	size int64
	// rebuilt says r is not the file's bytes as they are (decrypted or
	// repaired): a reader given the raw file must be given r instead.
	rebuilt bool
	// Encrypted says the file is encrypted with Excel's default password.
	Encrypted bool
	// data is the decrypted package (nil unless encrypted).
	data []byte
}

// bytes returns the package's bytes: raw (the file's bytes, or nil when
// the caller did not read them) when they are the package, else a copy of
// what r reads.
func (p Package) bytes(raw []byte) ([]byte, error) {
	switch {
	case p.data != nil:
		return p.data, nil
	case !p.rebuilt && raw != nil:
		return raw, nil
	}
	out := make([]byte, p.size)
	if _, err := p.r.ReadAt(out, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, failure.New(failure.KindIO, "cannot read the workbook: "+err.Error(), err)
	}
	return out, nil
}

// OpenPackage opens the workbook package held in r (size bytes; name for
// messages): an encrypted file is decrypted with Excel's default password,
// a zip whose directory Go's reader rejects or misreads is rebuilt when
// unzip would accept it, and a package with two parts of one name is
// refused as damaged.
func (s *Engine) OpenPackage(r io.ReaderAt, size int64, name string) (Package, error) {
	p := Package{r: r, size: size}
	head := make([]byte, len(CfbMagic))
	if n, _ := r.ReadAt(head, 0); n == len(head) && bytes.Equal(head, CfbMagic) {
		data, err := s.decryptPackage(r, size, name)
		if err != nil {
			return p, err
		}
		p.r, p.size, p.rebuilt, p.Encrypted, p.data = bytes.NewReader(data), int64(len(data)), true, true, data
	}
	damaged := func(cause error) error {
		return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: %s is not a valid xlsx (zip) package", name), cause)
	}
	zr, err := zip.NewReader(p.r, p.size)
	if err == nil && !opc.LocalHeadersFound(zr) {
		err = zip.ErrFormat
	}
	if err != nil {
		if p.Encrypted {
			return p, errPasswordRequired() // decrypted with the wrong password
		}
		fixed, fixedSize, rerr := opc.Repair(p.r, p.size)
		if rerr != nil {
			return p, damaged(err)
		}
		if zr, err = zip.NewReader(fixed, fixedSize); err != nil {
			return p, damaged(err)
		}
		if !opc.LocalHeadersFound(zr) {
			return p, damaged(zip.ErrFormat)
		}
		p.r, p.size, p.rebuilt = fixed, fixedSize, true
		s.Log.WithFields(map[string]any{"file": name}).Debug("zip directory rebuilt as unzip reads it")
	}
	zr.RegisterDecompressor(zip.Deflate, opc.Inflater)
	if err := opc.UniqueParts(zr); err != nil {
		return p, err
	}
	p.Zr = zr
	return p, nil
}

// decryptPackage reads the compound file in r and decrypts the package it
// holds with Excel's default password.
func (s *Engine) decryptPackage(r io.ReaderAt, size int64, name string) ([]byte, error) {
	// The file, the decrypted package (no larger) and excelize's copies
	// while it decrypts.
	if err := s.Limits.Within("decrypting the workbook", 4*size); err != nil {
		return nil, err
	}
	raw := make([]byte, size)
	if _, err := r.ReadAt(raw, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, failure.New(failure.KindIO, "cannot read the workbook: "+err.Error(), err)
	}
	if !bytes.Contains(raw, encryptionInfoName) {
		return nil, failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: %s is an OLE compound file with no encrypted package (a legacy .xls renamed?), not an xlsx (zip) package", name), nil)
	}
	data, err := excelize.Decrypt(raw, &excelize.Options{Password: defaultPassword})
	if err != nil || len(data) == 0 {
		return nil, errPasswordRequired()
	}
	return data, nil
}

// utf16le encodes s as UTF-16 little-endian.
func utf16le(s string) []byte {
	var out []byte
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u), byte(u>>8))
	}
	return out
}
