package sheetxml

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestWalkerMaxText: a cell whose text runs add up past MaxText ends the
// walk with ErrTextTooLong, located by Walker.Cell; cells within it read.
func TestWalkerMaxText(t *testing.T) {
	run := `<r><t>` + strings.Repeat("x", 100) + `</t></r>`
	xml := `<sheetData><row r="1"><c r="A1" t="inlineStr"><is>` + strings.Repeat(run, 5) + `</is></c>` +
		`<c r="B1" t="inlineStr"><is>` + strings.Repeat(run, 50) + `</is></c></row></sheetData>`
	w := NewWalker(strings.NewReader(xml))
	w.MaxText = 1000
	var cells []string
	for {
		ev, err := w.Next()
		if errors.Is(err, ErrTextTooLong) {
			if w.Cell.Col != 2 || w.Cell.Row != 1 {
				t.Fatalf("located at col %d row %d, want B1", w.Cell.Col, w.Cell.Row)
			}
			break
		}
		if errors.Is(err, io.EOF) {
			t.Fatal("B1 holds 5000 bytes of text, past MaxText 1000: want ErrTextTooLong")
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev == CellDone {
			cells = append(cells, string(w.Cell.Value))
		}
	}
	if len(cells) != 1 || len(cells[0]) != 500 {
		t.Fatalf("cells before the bound: %d (want A1's 500 bytes)", len(cells))
	}
}
