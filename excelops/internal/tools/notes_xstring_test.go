package tools

import (
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commentParts returns the text of every comments part of a workspace
// workbook, joined.
func commentParts(e *env, name string) string {
	e.t.Helper()
	var sb strings.Builder
	for _, part := range []string{"xl/comments1.xml", "xl/comments2.xml"} {
		sb.WriteString(e.zipPart(name, part))
	}
	return sb.String()
}

// TestNotesAreXstrings checks that add_comment stores a note's text and
// author as Excel does (_x0004_ for U+0004, _x005F_ before an escape-like
// text), that the tools reading notes back (the replaced and removed text)
// see the text, and that the tools moving notes (sort_range, copy_sheet)
// keep the stored form without escaping it twice.
func TestNotesAreXstrings(t *testing.T) {
	e := newEnv(t)
	e.workbook("t.xlsx", [][]any{{3}, {2}, {1}})
	for i, x := range xstringTexts {
		got := e.ok("add_comment", map[string]any{"file_path": "t.xlsx", "cell": grid.CellName(1, i+1),
			"text": x.text, "author": x.text})
		assert.Equal(t, x.text, got["author"])
	}
	stored := e.zipPart("t.xlsx", "xl/comments1.xml")
	assert.NotContains(t, stored, "\uFFFD")
	for _, x := range xstringTexts {
		assert.Contains(t, stored, "<t>"+x.xml+"</t>", x.text)
		assert.Contains(t, stored, "<author>"+x.xml+"</author>", x.text)
	}

	e.ok("sort_range", map[string]any{"file_path": "t.xlsx", "cell_range": "A1:A3",
		"sort_by": []any{map[string]any{"column": "A", "order": "ascending"}}})
	e.ok("copy_sheet", map[string]any{"file_path": "t.xlsx", "sheet_name": "Sheet1"})
	parts := commentParts(e, "t.xlsx")
	for _, x := range xstringTexts {
		assert.Equal(t, 2, strings.Count(parts, "<t>"+x.xml+"</t>"), "sorted and copied: %q", x.text)
	}
	assert.NotContains(t, parts, "_x005F_x005F_x0041_", "escaped once")

	for _, sheet := range []string{"Sheet1", "Sheet1 (2)"} {
		comments, err := e.open("t.xlsx").GetComments(sheet)
		require.NoError(t, err)
		notes := map[string][2]string{}
		for _, c := range comments {
			notes[c.Cell] = [2]string{c.Author, commentText(c)}
		}
		want := map[string][2]string{}
		for i, x := range xstringTexts { // sorted: the note of row i moves to row 3-i
			want[grid.CellName(1, 3-i)] = [2]string{x.text, x.text}
		}
		assert.Equal(t, want, notes, sheet)
	}

	got := e.ok("add_comment", map[string]any{"file_path": "t.xlsx", "cell": "A3", "text": "plain"})
	assert.Equal(t, xstringTexts[0].text, got["previous_text"])
	got = e.ok("add_comment", map[string]any{"file_path": "t.xlsx", "cell": "A2", "remove": true})
	assert.Equal(t, xstringTexts[1].text, got["removed_text"])
}
