package sheetread

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sharedstrings"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// RowReader turns the cells of worksheet XML (walked by the shared
// sheetxml layer, one row at a time, no DOM) into values: boxed for summary
// pages, or encoded straight into JSON for exact ranges.
type RowReader struct {
	W      *sheetxml.Walker
	sst    []string
	c1, c2 int // column window (1-based, inclusive); c2 == 0 means no right edge

	typ    []byte
	Vals   []any
	closed bool

	// Bounds and order checks (checks.go): maxText bounds one cell's
	// text; sheet names the sheet in errors; lastRow and lastCol are the
	// previous row of the sheet and cell of the row in file order;
	// stopAtRow asks walk to end (errStop) at the next row start, once
	// that row's order is checked, so a read stops one row after its last.
	maxText   int
	sheet     string
	lastRow   int
	lastCol   int
	stopAtRow bool

	// dates says which styles are dates (nil: none are); date is whether
	// the current cell has one.
	dates *dates.Styles
	date  bool
	// Dated lists the cells of the current row (indexes relative to c1)
	// whose boxed value is a date's ISO text, for the readers that tell a
	// date from text (discover_file_relationships' column types).
	Dated []int

	// encode mode: cells go straight into enc as JSON array items
	// (Python json.dumps formatting), no boxed values at all.
	encode bool
	Enc    []byte
	Next   int // cells (relative to c1) already in enc

	// formulas is how formula cells come back (read_excel's formulas
	// argument); shared holds the shared formulas seen so far, by si.
	formulas FormulaMode
	shared   map[int]sharedFormula

	// keepStyles: styles holds the style id (the s attribute) of the
	// row's cells in the column window by index from c1, empty cells
	// included; nil when none names a style.
	keepStyles bool
	styles     []int32
}

// NewRowReader returns a rowReader over the worksheet XML in r.
func NewRowReader(r io.Reader, sst []string, c1, c2 int, ds *dates.Styles, opts RowOpts) *RowReader {
	rr := &RowReader{W: sheetxml.NewWalker(FailingReader{r}), sst: sst, c1: c1, c2: c2, encode: opts.Encode,
		keepStyles: opts.Styles, maxText: opts.MaxText, sheet: opts.Sheet, formulas: opts.Formulas}
	rr.W.MaxText = opts.MaxText
	if ds != nil && ds.IsDate != nil {
		rr.dates = ds
	}
	return rr
}

// errStop ends a row walk early without an error.
var errStop = errors.New("stop")

// RowOpts is how a row walk reads: values encoded as JSON (else boxed),
// the cells' style ids kept (Styles), formula cells shown as Formulas
// says, Sheet named in errors and MaxText bounding one cell's text.
type RowOpts struct {
	Encode, Styles bool
	Formulas       FormulaMode
	Sheet          string
	MaxText        int
}

// WalkWindow walks the rows of the sheet up to last, calling fn with the
// reader at the end of each row from first to last that holds a cell in
// the column window; when fn returns false, or past last, the walk ends at
// the next row start, once that row's order is checked. It checks ctx
// every StreamCheckEvery rows, and a sheet whose XML ends before its
// closing tag is damaged.
func (rr *RowReader) WalkWindow(ctx context.Context, first, last int, fn func(row int, rr *RowReader) bool) error {
	n := 0
	err := rr.Walk(func(row int, vals []any) error {
		if n++; n%StreamCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if row >= last {
			// Stop at the next row start, once its order is checked.
			rr.stopAtRow = true
		}
		if row >= first && row <= last && (len(vals) > 0 || rr.Next > 0) {
			if !fn(row, rr) {
				rr.stopAtRow = true
			}
		}
		return nil
	})
	switch {
	case errors.Is(err, errStop):
		return nil
	case err != nil:
		return err
	case !rr.closed:
		return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: the XML of sheet %q is truncated after row %d", rr.sheet, rr.W.Row), nil)
	}
	return ctx.Err()
}

// Styles returns the style ids of the current row's cells in the window,
// by index from its first column (with RowOpts.Styles; nil when no cell
// names a style).
func (rr *RowReader) Styles() []int32 { return rr.styles }

// Walk reads the sheet and calls emit at the end of every row.
func (rr *RowReader) Walk(emit func(row int, vals []any) error) error {
	w := rr.W
	for {
		ev, err := w.Next()
		switch {
		case errors.Is(err, io.EOF):
			rr.closed = w.Closed
			return nil
		case errors.Is(err, sheetxml.ErrTruncated):
			return nil // rr.closed stays false: reported as damage
		case errors.Is(err, sheetxml.ErrMalformed), errors.Is(err, sheetxml.ErrTagTooLong):
			return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: malformed XML in row %d", w.Row), err)
		case err == nil:
		case errors.Is(err, sheetxml.ErrTextTooLong), errors.Is(err, budget.ErrRunTooLong) && w.Cell.Row == w.Row && w.Cell.Col > 0:
			where := fmt.Sprintf("cell %s of sheet %q", grid.CellName(w.Cell.Col, w.Cell.Row), rr.sheet)
			return limits.Limits{MaxCellTextBytes: int64(rr.maxText)}.CellTextErr(where)
		case failure.KindOf(err) != "":
			return err // a bound (see runBound)
		case err != nil:
			return failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
		}
		switch ev {
		case sheetxml.RowStart:
			if w.Row > grid.LastRow {
				return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: row number %d is past Excel's last row", w.Row), nil)
			}
			if err := rr.checkRowOrder(w.Row); err != nil {
				return err
			}
			if rr.stopAtRow {
				return errStop
			}
			rr.Vals, rr.Enc, rr.Next, rr.styles, rr.Dated = nil, rr.Enc[:0], 0, nil, rr.Dated[:0]
		case sheetxml.RowEnd:
			if err := emit(w.Row, rr.Vals); err != nil {
				return err
			}
			rr.Vals, rr.Next, rr.styles = nil, 0, nil
		case sheetxml.CellDone:
			if err := rr.checkCell(); err != nil {
				return err
			}
			rr.typ = w.Cell.Type
			rr.date = rr.dates != nil && rr.dates.IsDateStyle(w.Cell.Style)
			if rr.keepStyles {
				rr.putStyle(w.Cell.Col, w.Cell.Style)
			}
			if err := rr.endCell(); err != nil {
				return err
			}
		}
	}
}

// endCell converts the finished cell's text by its type and stores it.
func (rr *RowReader) endCell() error {
	col := rr.W.Cell.Col
	formula := rr.formula()
	if col < rr.c1 || (rr.c2 > 0 && col > rr.c2) || len(rr.W.Cell.Value) == 0 && string(rr.typ) != "inlineStr" && formula == "" {
		return nil
	}
	text := sheetxml.Unescape(rr.W.Cell.Value)
	if (string(rr.typ) == "str" || string(rr.typ) == "inlineStr") && bytes.Contains(text, []byte("_x")) {
		text = []byte(excelize.UnescapeXstring(string(text))) // an ST_Xstring's escapes: _x0004_ is U+0004
	}
	switch {
	case formula != "" && rr.formulas == formulasBoth:
		return rr.storeFormula(col, "="+formula, text, true)
	case formula != "" && (rr.formulas == formulasText || len(text) == 0 && !rr.emptyText()):
		return rr.storeFormula(col, "="+formula, nil, false) // never a silent null
	}
	if rr.encode {
		return rr.encodeCell(col-rr.c1, text)
	}
	v, err := rr.cellValue(col, text)
	if err != nil {
		return err
	}
	rr.put(col, v)
	return nil
}

// emptyText reports a cell cached as an empty text: t="str" with an empty
// <v> (a formula's "" result, as Excel and LibreOffice write it).
func (rr *RowReader) emptyText() bool {
	return string(rr.typ) == "str" && rr.W.Cell.HasV && len(rr.W.Cell.Value) == 0
}

// cellValue converts a cell's text by its type (the boxed-values path).
func (rr *RowReader) cellValue(col int, text []byte) (any, error) {
	var v any
	switch string(rr.typ) {
	case "s":
		i, ok := sharedstrings.Index(text, len(rr.sst))
		if !ok {
			return nil, sharedstrings.Missing(col, rr.W.Row, text)
		}
		v = rr.sst[i]
	case "inlineStr", "str", "e":
		v = string(text)
	case "d":
		v = string(text)
		rr.Dated = append(rr.Dated, col-rr.c1)
	case "b":
		v = string(text) == "1" || string(text) == "true"
	default:
		if iso, ok := rr.dateValue(text); ok {
			v = iso
			rr.Dated = append(rr.Dated, col-rr.c1)
		} else {
			v = numberValue(text)
		}
	}
	return v, nil
}

// put stores the boxed value of the cell in column col.
func (rr *RowReader) put(col int, v any) {
	idx := col - rr.c1
	if rr.Vals == nil && rr.c2 > 0 {
		rr.Vals = make([]any, 0, rr.c2-rr.c1+1)
	}
	for len(rr.Vals) <= idx {
		rr.Vals = append(rr.Vals, nil)
	}
	rr.Vals[idx] = v
}

// numberValue parses a numeric cell like openpyxl: int unless it has a
// '.' or an exponent; text that is not a number stays text.
func numberValue(text []byte) any {
	s := string(text)
	if bytes.ContainsAny(text, ".eE") {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
		return string(text)
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return string(text)
}

// encodeCell appends the cell at index idx (relative to c1) to the row's
// JSON, with nulls for skipped columns.
func (rr *RowReader) encodeCell(idx int, text []byte) error {
	if !rr.pad(idx) {
		return nil
	}
	return rr.appendValue(text)
}

// pad appends nulls for the columns skipped before index idx and the
// separator; false when idx was already written (a repeated column: the
// first one wins).
func (rr *RowReader) pad(idx int) bool {
	if idx < rr.Next {
		return false
	}
	for ; rr.Next < idx; rr.Next++ {
		rr.Enc = appendItem(rr.Enc, rr.Next, "null")
	}
	if rr.Next > 0 {
		rr.Enc = append(rr.Enc, ", "...)
	}
	rr.Next++
	return true
}

// appendValue appends the JSON of the current cell's text, by its type.
func (rr *RowReader) appendValue(text []byte) error {
	switch string(rr.typ) {
	case "s":
		i, ok := sharedstrings.Index(text, len(rr.sst))
		if !ok {
			return sharedstrings.Missing(rr.W.Cell.Col, rr.W.Row, text)
		}
		rr.Enc = pyjson.AppendString(rr.Enc, rr.sst[i])
	case "inlineStr", "str", "e", "d":
		rr.Enc = pyjson.AppendString(rr.Enc, string(text))
	case "b":
		rr.Enc = strconv.AppendBool(rr.Enc, string(text) == "1" || string(text) == "true")
	default:
		if rr.appendDate(text) {
			return nil
		}
		s := string(text)
		if !bytes.ContainsAny(text, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				rr.Enc = strconv.AppendInt(rr.Enc, i, 10)
				return nil
			}
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			rr.Enc = pyjson.AppendFloat(rr.Enc, f)
			return nil
		}
		rr.Enc = pyjson.AppendString(rr.Enc, s)
	}
	return nil
}

// appendItem appends a literal array item, with its separator.
func appendItem(buf []byte, i int, lit string) []byte {
	if i > 0 {
		buf = append(buf, ", "...)
	}
	return append(buf, lit...)
}

// RowArena stores encoded rows in chunks that double in size up to
// arenaChunk, so a big read costs one allocation per megabyte instead of one
// per row, and a read of a few rows allocates only what they need.
type RowArena struct {
	cur  []byte
	next int // size of the next chunk
}

// Sizes of a rowArena's first chunk and of its largest.
const (
	arenaFirstChunk = 4 << 10
	arenaChunk      = 1 << 20
)

// Add copies a row (wrapped as a JSON array, padded with nulls up to
// width) into the arena and returns it.
func (a *RowArena) Add(inner []byte, cells, width int) json.RawMessage {
	need := len(inner) + 2 + (width-cells)*6
	if cap(a.cur)-len(a.cur) < need {
		size := max(a.next, arenaFirstChunk)
		a.next = min(2*size, arenaChunk)
		a.cur = make([]byte, 0, max(size, need))
	}
	start := len(a.cur)
	a.cur = append(a.cur, '[')
	a.cur = append(a.cur, inner...)
	for i := cells; i < width; i++ {
		a.cur = appendItem(a.cur, i, "null")
	}
	a.cur = append(a.cur, ']')
	return json.RawMessage(a.cur[start:len(a.cur):len(a.cur)])
}

// StreamCheckEvery is how many rows pass between cancellation checks.
const StreamCheckEvery = 4096
