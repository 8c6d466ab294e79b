package engine

import (
	"fmt"
	"io"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
)

// The limits kept while a workbook streams or is parsed: one text run (a
// cell or a shared string) is bounded before any parser holds it, and a
// sheet is parsed for editing only when it fits the per-call memory budget;
// the row reader refuses rows and cells out of order.

// ParsedCellBytes is what excelize holds per cell of a sheet parsed for
// editing, with room for the parse's transient peak: measured (heap after
// GC, excelize v2.11.1, numbers) 304 B a cell on 100,000 x 2 and 482 B on
// 100,000 x 10. It refuses a parse that would exceed the per-call memory
// budget before it starts.
const ParsedCellBytes = 600

// guardParse refuses to let excelize parse sheet when the parsed sheet
// would exceed the call's memory budget, and checks once per book that no
// shared string inflates past the per-cell bound (excelize loads the whole
// table as soon as a sheet is read or written).
func (b *Book) guardParse(sheet string, ext sheetread.SheetExtent) error {
	lim := b.Svc.Limits
	if err := lim.Within(fmt.Sprintf("parsing sheet %q for editing (%d cells)", sheet, ext.Padded), ext.Padded*ParsedCellBytes); err != nil {
		return err
	}
	if b.sstChecked || b.Zr == nil {
		return nil
	}
	zf := opc.FindPart(b.Zr, "xl/sharedStrings.xml")
	if zf == nil {
		b.sstChecked = true
		return nil
	}
	if err := lim.Within("parsing the shared strings", int64(zf.UncompressedSize64)*ParsedBytesPerXMLByte); err != nil {
		return err
	}
	rc, err := zf.Open()
	if err != nil {
		return failure.New(failure.KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
	}
	defer rc.Close()
	if _, err := io.Copy(io.Discard, lim.NewRunBound(rc, "the shared strings")); err != nil {
		if failure.KindOf(err) != "" {
			return err
		}
		return failure.New(failure.KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
	}
	b.sstChecked = true
	return nil
}

// The checks rowReader makes while it streams a sheet: they bound what one
// cell may make it hold and refuse rows or cells out of order, which would
// otherwise make a read stop early (a sheet whose first <row> is the last
// row would read as empty) or drop cells. Excel itself refuses such files.
// (The runBound reader under the walker bounds each text run while it
// streams; checkCell bounds a cell made of many runs.)

// guardAllSheets bounds-checks, as edit does, every worksheet but skip that
// this call has not edited yet. Call it before an excelize operation that
// parses every sheet of the workbook (inserting or deleting rows or columns
// adjusts formulas in all sheets; deleting or moving a sheet rewrites every
// sheet's view), so a bomb in a sheet the call does not name is refused
// before excelize expands it. Chart sheets are not scanned.
func (b *Book) guardAllSheets(skip string) error {
	list, _ := b.SheetList()
	for _, name := range list {
		if _, edited := b.Extents[name]; edited || name == skip {
			continue
		}
		zf, err := b.Part(name)
		if err != nil {
			return err
		}
		kind, err := b.SheetKindOf(name)
		if err != nil {
			return err
		}
		if zf != nil && kind != opc.Worksheet && strings.Contains(strings.ToLower(zf.Name), "worksheets/") {
			// excelize parses every part under worksheets/ as a worksheet.
			return failure.New(failure.KindInvalidArgument, fmt.Sprintf("sheet %q is %s stored where worksheets live; an edit that rewrites every sheet (inserting or deleting rows or columns, deleting or moving a sheet) cannot keep it", name, KindDescription(kind)), nil)
		}
		if zf == nil || kind != opc.Worksheet {
			continue
		}
		if _, err := b.Scan(name); err != nil {
			return err
		}
	}
	return nil
}
