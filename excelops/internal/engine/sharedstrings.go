package engine

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sharedstrings"
)

// SharedStrings loads the shared string table of the package as on disk.
func (b *Book) SharedStrings() ([]string, error) {
	if b.sst != nil || b.Zr == nil {
		return b.sst, nil
	}
	zf := opc.FindPart(b.Zr, "xl/sharedStrings.xml")
	if zf == nil {
		b.sst = []string{}
		return b.sst, nil
	}
	lim := b.Svc.Limits
	if err := lim.Within("loading the shared strings", 2*int64(zf.UncompressedSize64)); err != nil {
		return nil, err
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, failure.New(failure.KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
	}
	defer rc.Close()
	out, held, err := sharedstrings.Parse(rc, int64(zf.UncompressedSize64), lim.Budget())
	if err != nil {
		return nil, err
	}
	b.sst = out
	if id, ok := b.lightKey(); ok {
		b.Svc.Light.PutStrings(id, out, held)
	}
	return out, nil
}

// MissingSharedString is the damage of the cell at col, row whose value
// text points to no shared string (sharedstrings.Missing; the splice
// path reports it through this name).
func MissingSharedString(col, row int, text []byte) error {
	return sharedstrings.Missing(col, row, text)
}

// SharedStringCount is the size of the shared string table on disk, loaded
// as a read loads it (so a table a read calls damaged is damage here too).
func (b *Book) SharedStringCount() (int, error) {
	sst, err := b.SharedStrings()
	return len(sst), err
}
