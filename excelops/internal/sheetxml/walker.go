package sheetxml

import (
	"errors"
	"io"
)

// ErrTextTooLong reports a cell whose text is longer than Walker.MaxText;
// Walker.Cell locates the cell.
var ErrTextTooLong = errors.New("sheetxml: a cell's text is longer than the bound")

// Event is what Walker.Next found.
type Event uint8

// The events of a Walker.
const (
	// RowStart: a <row> begins; Walker.Row is its number.
	RowStart Event = iota
	// CellDone: a cell is complete; Walker.Cell describes it.
	CellDone
	// RowEnd: the current row ended.
	RowEnd
)

// Cell is one <c> element as the Walker saw it. Its slices are valid until
// the next call of Next.
type Cell struct {
	// Row and Col locate the cell (1-based); a cell without a reference
	// takes the column after the previous cell of its row.
	Row, Col int
	// Type is the raw t attribute ("s", "str", "inlineStr", "b", "e",
	// "n", "d" or empty).
	Type []byte
	// Style is the s attribute (cellXfs index), 0 when absent.
	Style int
	// Value is the raw (entity-encoded) text of <v>, or of the <t> runs of
	// an inline string (phonetic runs excluded).
	Value []byte
	// HasV reports a <v> child, even an empty one (a formula's empty text
	// result is <v></v>).
	HasV bool
	// Formula reports an <f> child.
	Formula bool
	// FormulaText is the raw (entity-encoded) text of <f>: empty for a
	// cell that shares the formula of an earlier cell.
	FormulaText []byte
	// SharedIndex is the si of a shared formula (<f t="shared" si="N">),
	// or -1.
	SharedIndex int
	// FormulaType is the raw t attribute of <f> ("shared", "array",
	// "dataTable" or empty); FormulaRef its ref attribute (the cells of a
	// shared formula's group or an array formula), nil when absent.
	FormulaType, FormulaRef []byte
	// Meta reports a cm attribute (the cell points at cell metadata: a
	// dynamic array anchor when its formula is t="array").
	Meta bool
}

// Walker reads the rows and cells of worksheet XML, one event at a time,
// on top of a Tokenizer. It ends (io.EOF) at </sheetData>, or at the end of
// the input; Closed tells the two apart, so a truncated sheet is never
// mistaken for a short one.
type Walker struct {
	z *Tokenizer
	// Row is the current row number (1-based; a <row> without r follows
	// the previous one).
	Row int
	// Cell is the cell of the last CellDone event.
	Cell Cell
	// Closed reports that </sheetData> (or <sheetData/>) was seen.
	Closed bool
	// Dimension is the raw ref attribute of the sheet's <dimension> (the
	// used range it declares), nil when none came before the rows.
	Dimension []byte
	// MaxText bounds the text one cell collects (bytes, as in the XML);
	// past it Next returns ErrTextTooLong, so a cell made of many runs
	// cannot grow without limit. 0 means no bound.
	MaxText int

	col       int
	inCell    bool
	inText    bool
	inF       bool
	ftext     []byte
	phonetic  int
	typ       []byte
	ftype     []byte
	fref      []byte
	text      []byte
	rowEnding bool
}

// NewWalker returns a Walker over the worksheet XML in r.
func NewWalker(r io.Reader) *Walker { return &Walker{z: New(r)} }

// Next returns the next event; io.EOF at the end of the sheet data (see
// Closed). ErrTruncated and ErrMalformed report broken XML; errors of the
// underlying reader are returned as they are.
func (w *Walker) Next() (Event, error) {
	if w.rowEnding {
		w.rowEnding = false
		return RowEnd, nil
	}
	for {
		t, err := w.z.Next()
		if err != nil {
			if errors.Is(err, io.EOF) {
				return 0, io.EOF
			}
			return 0, err
		}
		switch t.Kind {
		case Text:
			if w.inText && w.phonetic == 0 {
				if w.MaxText > 0 && len(w.text)+len(t.Raw) > w.MaxText {
					return 0, ErrTextTooLong
				}
				w.text = append(w.text, t.Raw...)
			}
			if w.inF {
				w.ftext = append(w.ftext, t.Raw...)
			}
			continue
		case Special:
			continue
		}
		switch string(t.Name) {
		case "dimension":
			if (t.Kind == Start || t.Kind == Empty) && w.Dimension == nil && w.Row == 0 {
				w.Dimension = append([]byte{}, t.Attr("ref")...)
			}
		case "row":
			switch t.Kind {
			case Start, Empty:
				n := AttrInt(t.attrs, "r")
				if n <= 0 {
					n = w.Row + 1
				}
				w.Row, w.col, w.inCell = n, 0, false
				w.rowEnding = t.Kind == Empty
				return RowStart, nil
			case End:
				w.inCell = false
				return RowEnd, nil
			}
		case "c":
			switch t.Kind {
			case Start, Empty:
				col, _ := SplitRef(t.Attr("r"))
				if col <= 0 {
					col = w.col + 1
				}
				w.col = col
				w.typ = append(w.typ[:0], t.Attr("t")...)
				w.text, w.ftext = w.text[:0], w.ftext[:0]
				w.Cell = Cell{Row: w.Row, Col: col, Style: AttrInt(t.attrs, "s"), SharedIndex: -1, Meta: t.Attr("cm") != nil}
				w.inCell, w.inText, w.inF, w.phonetic = t.Kind == Start, false, false, 0
				if t.Kind == Empty {
					w.finishCell()
					return CellDone, nil
				}
			case End:
				if w.inCell {
					w.inCell = false
					w.finishCell()
					return CellDone, nil
				}
			}
		case "v", "t":
			w.inText = w.inCell && t.Kind == Start
			if w.inCell && string(t.Name) == "v" && t.Kind != End {
				w.Cell.HasV = true
			}
		case "rPh":
			if w.inCell && t.Kind == Start {
				w.phonetic++
			} else if t.Kind == End && w.phonetic > 0 {
				w.phonetic--
			}
		case "f":
			if w.inCell && t.Kind != End {
				w.Cell.Formula = true
				if string(t.Attr("t")) == "shared" && t.Attr("si") != nil {
					w.Cell.SharedIndex = AttrInt(t.attrs, "si")
				}
				w.ftype = append(w.ftype[:0], t.Attr("t")...)
				w.fref = append(w.fref[:0], t.Attr("ref")...)
				w.Cell.FormulaType, w.Cell.FormulaRef = w.ftype, nil
				if t.Attr("ref") != nil {
					w.Cell.FormulaRef = w.fref
				}
			}
			w.inF = w.inCell && t.Kind == Start
		case "sheetData":
			if t.Kind == End || t.Kind == Empty {
				w.Closed = true
				return 0, io.EOF
			}
		}
	}
}

// finishCell fills Cell's type and value from what the cell held.
func (w *Walker) finishCell() {
	w.Cell.Type, w.Cell.Value, w.Cell.FormulaText, w.inText, w.inF = w.typ, w.text, w.ftext, false, false
}
