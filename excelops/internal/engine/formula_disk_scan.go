package engine

import (
	"bytes"
	"errors"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
)

// diskHasFormulas reports whether sheet, as it is on disk, holds any formula
// (an <f> element), streaming its XML without parsing it. A sheet that is
// not on disk has none there.
func (b *Book) diskHasFormulas(sheet string) (bool, error) {
	zf, err := b.Part(sheet)
	if err != nil || zf == nil {
		return false, err
	}
	if kind, err := b.SheetKindOf(sheet); err != nil || kind != opc.Worksheet {
		return false, err // a macro sheet's formulas are not worksheet formulas
	}
	rc, err := zf.Open()
	if err != nil {
		return false, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	buf := make([]byte, formulaScanChunk)
	carry := 0
	for {
		n, err := rc.Read(buf[carry:])
		chunk := buf[:carry+n]
		if hasFormulaTag(chunk) {
			return true, nil
		}
		// Keep the last bytes: a tag may straddle two reads.
		carry = min(len(chunk), 3)
		copy(buf, chunk[len(chunk)-carry:])
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
		}
	}
}

// formulaScanChunk is how much sheet XML diskHasFormulas reads at a time.
const formulaScanChunk = 64 << 10

// hasFormulaTag reports whether XML text holds the start of an <f> element,
// with or without a namespace prefix.
func hasFormulaTag(b []byte) bool {
	for _, pat := range [][]byte{[]byte("<f>"), []byte("<f "), []byte("<f/"), []byte(":f>"), []byte(":f "), []byte(":f/")} {
		if bytes.Contains(b, pat) {
			return true
		}
	}
	return false
}
