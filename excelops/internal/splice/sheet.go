package splice

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// ErrUnsupported marks an edit the splice path does not do; the caller
// takes the full-parse path instead. Errors wrapping it say why.
var ErrUnsupported = errors.New("not supported by the splice path")

// UnsupportedError is an ErrUnsupported that says why: Reason names the
// kind of obstacle (it never holds a cell's value or formula) and Detail,
// which may be empty, says where it was met (a cell, a row).
type UnsupportedError struct {
	// Reason is the kind of obstacle, the same text wherever it is met.
	Reason string
	// Detail is where it was met, or "".
	Detail string
}

// Error returns ErrUnsupported's text, the reason and the detail.
func (e *UnsupportedError) Error() string {
	if e.Detail == "" {
		return ErrUnsupported.Error() + ": " + e.Reason
	}
	return ErrUnsupported.Error() + ": " + e.Reason + " (" + e.Detail + ")"
}

// Unwrap returns ErrUnsupported.
func (e *UnsupportedError) Unwrap() error { return ErrUnsupported }

// unsupported returns an UnsupportedError of reason; format and a, when
// given, say where.
func unsupported(reason string, format string, a ...any) error {
	e := &UnsupportedError{Reason: reason}
	if format != "" {
		e.Detail = fmt.Sprintf(format, a...)
	}
	return e
}

// ErrFormulas is the ErrUnsupported of a plan with NoFormulas on a sheet
// that holds a formula.
var ErrFormulas error = &UnsupportedError{Reason: "the sheet holds formulas"}

// ErrDamaged marks worksheet XML the splice cannot read (truncated or
// malformed); it wraps the tokenizer's error.
var ErrDamaged = errors.New("the worksheet XML is damaged")

// OldCell is an existing cell of a row being rebuilt.
type OldCell struct {
	// Raw is the whole element, from <c to </c> (or the empty <c/>).
	Raw []byte
	// Col is the cell's column (1-based).
	Col int
	// Style is the s attribute (0 when absent).
	Style int
	// Type is the t attribute.
	Type []byte
	// Formula reports an <f> child; SharedMaster that it defines a shared
	// formula other cells use (t="shared" with a ref).
	Formula, SharedMaster bool
}

// Plan is one edit of a sheet.
type Plan struct {
	// Rows are the rows whose cells Cell rebuilds, ascending, unique.
	Rows []int
	// Cols returns the columns of row to rebuild, ascending, unique.
	Cols func(row int) []int
	// Cell appends the new element of the cell at (row, col) to dst and
	// returns it; appending nothing removes the cell. old is nil for a
	// cell that does not exist yet; inherit is the style such a cell takes
	// (the row's style when the row has a custom format, else its
	// column's). The element must carry its r attribute; use Ref.
	Cell func(dst []byte, row, col int, old *OldCell, inherit int) ([]byte, error)
	// Widths sets the width of columns (nil: <cols> is left as it is).
	Widths map[int]float64
	// FitWidths are the widths columns need to show what Cell wrote (Cell
	// may fill the map as it runs). A column gets its width only when no
	// <col> gives it one and the sheet's default column width is narrower;
	// when none does, <cols> is left as it is.
	FitWidths map[int]float64
	// NoFormulas declines the rewrite (ErrUnsupported) when the sheet
	// holds a formula.
	NoFormulas bool
	// OutsideMerges declines the rewrite (ErrUnsupported) when a cell it
	// rebuilds lies inside a merged range, other than the range's top-left
	// cell: a value written there is hidden, and excelize writes it to
	// the top-left cell instead.
	OutsideMerges bool
	// KeepClear lists ranges (first column, first row, last column, last
	// row) that no merged range may meet, such as the range a dynamic
	// array spills over: one that does declines the rewrite
	// (ErrUnsupported).
	KeepClear [][4]int
	// MaxCellText, when positive, caps the raw text of one cell of the
	// sheet; a longer one fails the rewrite with a *CellTextError.
	MaxCellText int64
	// MaxRow, when positive, is the highest row number the sheet may
	// declare; a row past it fails the rewrite with a *RowLimitError.
	MaxRow int
	// SharedStrings, when set, gives the size of the shared string
	// table (asked once, at the first shared string cell): a cell of type
	// "s" of the sheet, rebuilt or passed on, whose value is not an index
	// below it fails the rewrite with a *SharedRefError, as a read of the
	// cell reports it.
	SharedStrings func() (int, error)

	// tokenizeAll turns skipRow off (tests compare both ways).
	tokenizeAll bool
}

// CellTextError reports a cell whose text is longer than Plan.MaxCellText.
type CellTextError struct{ Row, Col int }

// Error names the cell.
func (e *CellTextError) Error() string { return "cell " + Ref(e.Col, e.Row) + " holds too much text" }

// RowLimitError reports a row number past Plan.MaxRow.
type RowLimitError struct{ Row, Limit int }

// Error describes the row.
func (e *RowLimitError) Error() string {
	return fmt.Sprintf("the sheet declares row %d, more than the limit of %d rows", e.Row, e.Limit)
}

// Extent is the used range of the rewritten sheet (0s when empty).
type Extent struct{ MinRow, MinCol, MaxRow, MaxCol int }

// widen grows e to include (row, col).
func (e *Extent) widen(row, col int) {
	if row <= 0 || col <= 0 {
		return
	}
	if e.MinRow == 0 || row < e.MinRow {
		e.MinRow = row
	}
	e.MaxRow = max(e.MaxRow, row)
	if e.MinCol == 0 || col < e.MinCol {
		e.MinCol = col
	}
	e.MaxCol = max(e.MaxCol, col)
}

// Ref renders (col, row) as "B7".
func Ref(col, row int) string {
	return string(AppendRef(nil, col, row))
}

// AppendRef appends the reference of (col, row) to dst.
func AppendRef(dst []byte, col, row int) []byte {
	var letters [4]byte
	i := len(letters)
	for col > 0 {
		i--
		letters[i] = byte('A' + (col-1)%26)
		col = (col - 1) / 26
	}
	dst = append(dst, letters[i:]...)
	return strconv.AppendInt(dst, int64(row), 10)
}

// sheet is the state of one rewrite.
type sheet struct {
	plan    Plan
	z       *sheetxml.Tokenizer
	body    io.Writer
	pfx     string // namespace prefix of the sheet's elements ("x:" or "")
	head    []byte // everything before <sheetData>, held until the end
	dimAt   [2]int // byte span of <dimension> in head; -1 when absent
	dimIns  int    // where a missing <dimension> goes in head
	colsAt  [2]int // byte span of <cols>...</cols> in head; -1 when absent
	cols    []colEntry
	defCol  float64 // the sheet's default column width (sheetFormatPr; 0 when it names none)
	ext     Extent
	next    int // index in plan.Rows of the next row to rebuild
	lastRow int
	out     []byte // staging buffer for the body
	done    bool   // the whole input was consumed (<sheetData/>)
	refs    sharedRefs
}

// Rewrite streams the worksheet XML in r, writes the body (from
// <sheetData> to the end) to body and returns the head (everything before
// <sheetData>, with <dimension> and <cols> updated) and the used range.
// The caller compresses head and body as two segments of one entry.
func Rewrite(r io.Reader, plan Plan, body io.Writer) ([]byte, Extent, error) {
	s := &sheet{plan: plan, z: sheetxml.New(r), body: body, dimAt: [2]int{-1, -1}, colsAt: [2]int{-1, -1}, dimIns: -1, refs: sharedRefs{count: plan.SharedStrings}}
	if err := s.readHead(); err != nil {
		return nil, Extent{}, err
	}
	if !s.done {
		if err := s.streamBody(); err != nil {
			return nil, Extent{}, err
		}
	}
	head, err := s.finishHead()
	return head, s.ext, err
}

// next returns the next token, turning broken XML into ErrDamaged.
func (s *sheet) token() (sheetxml.Token, error) {
	t, err := s.z.Next()
	if err != nil && !errors.Is(err, io.EOF) {
		if errors.Is(err, sheetxml.ErrTruncated) || errors.Is(err, sheetxml.ErrMalformed) || errors.Is(err, sheetxml.ErrTagTooLong) {
			return t, fmt.Errorf("%w: %v", ErrDamaged, err)
		}
	}
	return t, err
}

// readHead copies everything before <sheetData> into s.head, noting where
// <dimension> and <cols> are. It leaves the <sheetData> tag in s.out.
func (s *sheet) readHead() error {
	depth := 0
	inCols := false
	for {
		t, err := s.token()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%w: no <sheetData>", ErrDamaged)
		}
		if err != nil {
			return err
		}
		start := len(s.head)
		if t.Kind == sheetxml.Start || t.Kind == sheetxml.Empty {
			if depth == 1 && string(t.Name) == "sheetData" {
				if s.pfx = prefixOf(t.Raw); s.pfx != "" {
					return unsupported("the sheet's elements carry a namespace prefix", "")
				}
				if s.dimIns < 0 {
					s.dimIns = len(s.head)
				}
				s.out = append(s.out[:0], t.Raw...)
				if t.Kind == sheetxml.Empty {
					// <sheetData/>: reopen it so new rows fit in.
					s.out = append(append(append(s.out[:0], '<'), s.pfx...), "sheetData>"...)
					return s.emptySheetData()
				}
				return nil
			}
			if depth == 1 {
				name := string(t.Name)
				if s.dimIns < 0 && name != "sheetPr" && name != "dimension" {
					s.dimIns = start // a missing <dimension> goes before this
				}
				switch name {
				case "dimension":
					s.dimAt[0] = start
				case "cols":
					s.colsAt[0], inCols = start, true
				case "sheetFormatPr":
					s.defCol = sheetDefaultColWidth(t.Attr("defaultColWidth"), t.Attr("baseColWidth"))
				}
			}
			if inCols && string(t.Name) == "col" {
				s.cols = append(s.cols, parseCol(t.Attrs()))
			}
		}
		s.head = append(s.head, t.Raw...)
		switch t.Kind {
		case sheetxml.Start:
			depth++
		case sheetxml.End:
			depth--
			if depth == 1 && string(t.Name) == "cols" {
				s.colsAt[1], inCols = len(s.head), false
			}
		}
		if depth == 1 && s.dimAt[0] == start && s.dimAt[1] < 0 && t.Kind != sheetxml.Start {
			s.dimAt[1] = len(s.head)
		}
		if depth == 1 && t.Kind == sheetxml.End && string(t.Name) == "dimension" {
			s.dimAt[1] = len(s.head)
		}
		if depth == 1 && s.colsAt[0] == start && t.Kind == sheetxml.Empty {
			s.colsAt[1], inCols = len(s.head), false
		}
	}
}

// emptySheetData handles <sheetData/>: the new rows, then the closing tag.
func (s *sheet) emptySheetData() error {
	if err := s.newRowsBefore(1 << 30); err != nil {
		return err
	}
	s.out = append(append(append(s.out, "</"...), s.pfx...), "sheetData>"...)
	s.done = true
	return s.copyRest()
}

// prefixOf returns the namespace prefix of a tag ("x:" for "<x:row ...>").
func prefixOf(raw []byte) string {
	end := bytes.IndexAny(raw, " \t\r\n/>")
	if end < 0 {
		return ""
	}
	if i := bytes.IndexByte(raw[:end], ':'); i > 0 {
		return string(raw[1 : i+1])
	}
	return ""
}

// flushAt is the staging size past which the body is written out.
const flushAt = 256 << 10

// emit appends raw to the body.
func (s *sheet) emit(raw []byte) error {
	s.out = append(s.out, raw...)
	if len(s.out) >= flushAt {
		return s.flush()
	}
	return nil
}

// flush writes the staged body.
func (s *sheet) flush() error {
	if len(s.out) == 0 {
		return nil
	}
	_, err := s.body.Write(s.out)
	s.out = s.out[:0]
	return err
}

// streamBody copies <sheetData> and everything after it, rebuilding the
// planned rows.
func (s *sheet) streamBody() error {
	for {
		t, err := s.token()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%w: the XML ends inside <sheetData>", ErrDamaged)
		}
		if err != nil {
			return err
		}
		switch {
		case t.Is(sheetxml.Start, "row") || t.Is(sheetxml.Empty, "row"):
			if err := s.row(t); err != nil {
				return err
			}
		case t.Is(sheetxml.End, "sheetData"):
			if err := s.newRowsBefore(1 << 30); err != nil {
				return err
			}
			if err := s.emit(t.Raw); err != nil {
				return err
			}
			return s.copyRest()
		default:
			if err := s.emit(t.Raw); err != nil {
				return err
			}
		}
	}
}

// copyRest copies everything after </sheetData>.
func (s *sheet) copyRest() error {
	for {
		t, err := s.token()
		if errors.Is(err, io.EOF) {
			return s.flush()
		}
		if err != nil {
			return err
		}
		if (s.plan.OutsideMerges || len(s.plan.KeepClear) > 0) && (t.Is(sheetxml.Empty, "mergeCell") || t.Is(sheetxml.Start, "mergeCell")) {
			if err := s.checkMerge(t.Attr("ref")); err != nil {
				return err
			}
		}
		if err := s.emit(t.Raw); err != nil {
			return err
		}
	}
}

// checkMerge declines the rewrite when a planned cell lies inside the
// merged range ref, other than its top-left cell (Plan.OutsideMerges).
func (s *sheet) checkMerge(ref []byte) error {
	lo, hi, _ := bytes.Cut(ref, []byte(":"))
	c1, r1 := sheetxml.SplitRef(lo)
	c2, r2 := c1, r1
	if len(hi) > 0 {
		c2, r2 = sheetxml.SplitRef(hi)
	}
	if c1 <= 0 || r1 <= 0 || c2 <= 0 || r2 <= 0 {
		return nil
	}
	c1, c2, r1, r2 = min(c1, c2), max(c1, c2), min(r1, r2), max(r1, r2)
	for _, k := range s.plan.KeepClear {
		if k[0] <= c2 && c1 <= k[2] && k[1] <= r2 && r1 <= k[3] {
			return unsupported("a merged range meets a spill range", "%s", ref)
		}
	}
	if !s.plan.OutsideMerges {
		return nil
	}
	for _, row := range s.plan.Rows {
		if row < r1 || row > r2 {
			continue
		}
		for _, col := range s.plan.Cols(row) {
			if col >= c1 && col <= c2 && (row != r1 || col != c1) {
				return unsupported("a written cell lies inside a merged range", "cell %s in %s", Ref(col, row), ref)
			}
		}
	}
	return nil
}

// row handles one <row> of the source: copied as is, or rebuilt.
func (s *sheet) row(t sheetxml.Token) error {
	n := sheetxml.AttrInt(t.Attrs(), "r")
	if n <= 0 {
		n = s.lastRow + 1
	}
	if s.plan.MaxRow > 0 && n > s.plan.MaxRow {
		return &RowLimitError{Row: n, Limit: s.plan.MaxRow}
	}
	if n <= s.lastRow {
		return unsupported("rows out of order", "row %d after row %d", n, s.lastRow)
	}
	s.lastRow = n
	if err := s.newRowsBefore(n); err != nil {
		return err
	}
	rebuild := s.next < len(s.plan.Rows) && s.plan.Rows[s.next] == n
	if rebuild {
		s.next++
		return s.rebuildRow(n, t)
	}
	if err := s.emit(t.Raw); err != nil {
		return err
	}
	if t.Kind == sheetxml.Empty {
		return nil
	}
	if skipped, err := s.skipRow(n); skipped || err != nil {
		return err
	}
	col := 0
	var text int64
	for {
		t, err := s.token()
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("%w: the XML ends inside row %d", ErrDamaged, n)
		}
		if err != nil {
			return err
		}
		if t.Kind == sheetxml.Text {
			if text += int64(len(t.Raw)); s.plan.MaxCellText > 0 && text > s.plan.MaxCellText {
				return &CellTextError{Row: n, Col: col}
			}
		}
		if err := s.refs.token(t, n, col); err != nil {
			return err
		}
		if t.Kind == sheetxml.Start || t.Kind == sheetxml.Empty {
			if string(t.Name) == "c" {
				text = 0
			}
			if s.plan.NoFormulas && string(t.Name) == "f" {
				return ErrFormulas
			}
			if string(t.Name) == "c" {
				c, _ := sheetxml.SplitRef(t.Attr("r"))
				if c <= 0 {
					c = col + 1
				}
				col = c
				s.ext.widen(n, col)
			}
		}
		if err := s.emit(t.Raw); err != nil {
			return err
		}
		if t.Is(sheetxml.End, "row") {
			return nil
		}
	}
}

// newRowsBefore writes the planned rows numbered below n that the source
// does not have.
func (s *sheet) newRowsBefore(n int) error {
	for s.next < len(s.plan.Rows) && s.plan.Rows[s.next] < n {
		r := s.plan.Rows[s.next]
		s.next++
		start := len(s.out)
		s.out = append(append(append(s.out, '<'), s.pfx...), `row r="`...)
		s.out = strconv.AppendInt(s.out, int64(r), 10)
		s.out = append(s.out, `">`...)
		cellsAt := len(s.out)
		var err error
		for _, c := range s.plan.Cols(r) {
			if s.out, err = s.cell(r, c, nil, s.colStyle(c)); err != nil {
				return err
			}
		}
		if len(s.out) == cellsAt {
			s.out = s.out[:start] // nothing in it: no row
			continue
		}
		s.out = append(append(append(s.out, "</"...), s.pfx...), "row>"...)
		if len(s.out) >= flushAt {
			if err := s.flush(); err != nil {
				return err
			}
		}
	}
	return nil
}

// cell appends the planned cell and widens the extent when it is written.
func (s *sheet) cell(row, col int, old *OldCell, inherit int) ([]byte, error) {
	before := len(s.out)
	out, err := s.plan.Cell(s.out, row, col, old, inherit)
	if err != nil {
		return s.out, err
	}
	if len(out) > before {
		s.ext.widen(row, col)
	}
	return out, nil
}
