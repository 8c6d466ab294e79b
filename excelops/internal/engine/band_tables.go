package engine

import (
	"regexp"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// TableMove is an Excel table a delete_range moves whole with its cells.
type TableMove struct {
	name, part string // the table's name and package part
	from       cellarea.Range
}

// BandTables sorts the tables of sheet a delete_range touches: those
// wholly inside the band and beyond the deleted range move (returned);
// any other it touches is refused by why.
func BandTables(b *Book, sheet string, band formularef.Band, why func(t excelize.Table, r cellarea.Range) error) ([]TableMove, error) {
	tables, err := b.f.GetTables(sheet)
	if err != nil {
		return nil, failure.New(failure.KindDamaged, "file is damaged: tables of "+sheet+": "+err.Error(), err)
	}
	zone, deleted := BandZone(band), cellarea.Range{C1: band.C1, R1: band.R1, C2: band.C2, R2: band.R2}
	var moves []TableMove
	for _, t := range tables {
		tr, err := grid.ParseRange(strings.ReplaceAll(t.Range, "$", ""))
		if err != nil || !tr.Overlaps(zone) {
			continue
		}
		part := t.XMLPath()
		if deleted.Overlaps(tr) || !BandKeepsWhole(band, tr) || part == "" {
			return nil, why(t, tr)
		}
		if _, ok := b.f.Pkg.Load(part); !ok {
			return nil, why(t, tr)
		}
		moves = append(moves, TableMove{name: t.Name, part: part, from: tr})
	}
	return moves, nil
}

// partRef finds the ref attributes of a table part (the table's, its
// autofilter's and its sort state's).
var partRef = regexp.MustCompile(`(\sref=")([A-Za-z$]+[0-9$]+(?::[A-Za-z$]+[0-9$]+)?)(")`)

// MoveTables rewrites the ranges of the moved tables' parts.
func MoveTables(b *Book, band formularef.Band, moves []TableMove) {
	for _, m := range moves {
		raw, ok := b.f.Pkg.Load(m.part)
		data, isBytes := raw.([]byte)
		if !ok || !isBytes {
			continue
		}
		out := partRef.ReplaceAllStringFunc(string(data), func(s string) string {
			parts := partRef.FindStringSubmatch(s)
			moved, ok := band.Area(strings.ReplaceAll(parts[2], "$", ""))
			if !ok {
				return s
			}
			return parts[1] + moved + parts[3]
		})
		b.f.Pkg.Store(m.part, []byte(out))
	}
}

// BandZone is the part of the sheet a delete_range changes: the deleted
// range and every cell that moves into it (below it in its columns, or
// right of it in its rows).
func BandZone(b formularef.Band) cellarea.Range {
	if b.Up {
		return cellarea.Range{C1: b.C1, R1: b.R1, C2: b.C2, R2: excelize.TotalRows}
	}
	return cellarea.Range{C1: b.C1, R1: b.R1, C2: excelize.MaxColumns, R2: b.R2}
}

// BandTarget is where the cell (col, row) of the zone goes; ok is false
// for a cell of the deleted range.
func BandTarget(b formularef.Band, col, row int) (int, int, bool) {
	if col >= b.C1 && col <= b.C2 && row >= b.R1 && row <= b.R2 {
		return 0, 0, false
	}
	if b.Up {
		return col, row - (b.R2 - b.R1 + 1), true
	}
	return col - (b.C2 - b.C1 + 1), row, true
}

// BandKeepsWhole reports whether the zone's change keeps r (a merge, an
// array formula's range) whole: r lies outside the zone, inside the
// deleted range, or inside the band and entirely beyond the deleted range.
func BandKeepsWhole(b formularef.Band, r cellarea.Range) bool {
	zone, deleted := BandZone(b), cellarea.Range{C1: b.C1, R1: b.R1, C2: b.C2, R2: b.R2}
	switch {
	case !r.Overlaps(zone), deleted.Contains(r):
		return true
	case b.Up:
		return r.C1 >= b.C1 && r.C2 <= b.C2 && r.R1 > b.R2
	default:
		return r.R1 >= b.R1 && r.R2 <= b.R2 && r.C1 > b.C2
	}
}
