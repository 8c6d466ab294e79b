package tools

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAddCommentAddsReplacesAndRemoves(t *testing.T) {
	e := newEnv(t)
	analystBook(e)
	got := e.ok("add_comment", map[string]any{"file_path": "s.xlsx", "cell": "b2", "text": "check the\nnorth figure", "author": "Ana"})
	assert.Equal(t, "B2", got["cell"])
	assert.Equal(t, false, got["replaced"])
	e.ok("add_comment", map[string]any{"file_path": "s.xlsx", "cell": "C3", "text": "second"})
	got = e.ok("add_comment", map[string]any{"file_path": "s.xlsx", "cell": "B2", "text": "fixed", "author": "Bo"})
	assert.Equal(t, true, got["replaced"])
	assert.Equal(t, "check the\nnorth figure", got["previous_text"])
	comments, err := e.open("s.xlsx").GetComments("Sheet1")
	require.NoError(t, err)
	byCell := map[string][2]string{}
	for _, c := range comments {
		byCell[c.Cell] = [2]string{c.Author, commentText(c)}
	}
	assert.Equal(t, map[string][2]string{"B2": {"Bo", "fixed"}, "C3": {"Author", "second"}}, byCell)

	got = e.ok("add_comment", map[string]any{"file_path": "s.xlsx", "cell": "C3", "remove": true})
	assert.Equal(t, "second", got["removed_text"])
	comments, err = e.open("s.xlsx").GetComments("Sheet1")
	require.NoError(t, err)
	require.Len(t, comments, 1)
	assert.Equal(t, "B2", comments[0].Cell)
}

func TestAddCommentErrors(t *testing.T) {
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"cell": "A1"}, "give text"},
		{map[string]any{"cell": "A1", "text": "  "}, "text is empty"},
		{map[string]any{"cell": "A1", "text": strings.Repeat("x", 32768)}, "more than Excel's limit of 32,767"},
		{map[string]any{"cell": "A1", "text": "x", "author": strings.Repeat("a", 256)}, "limit of 255"},
		{map[string]any{"cell": "A1", "remove": true, "text": "x"}, "takes no text"},
		{map[string]any{"cell": "A1", "remove": true}, "has no note to remove"},
		{map[string]any{"cell": "A0", "text": "x"}, "invalid cell"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			e := newEnv(t)
			analystBook(e)
			before := fileHash(t, e, "s.xlsx")
			c.args["file_path"] = "s.xlsx"
			got := e.fail("add_comment", c.args)
			assert.Equal(t, "ValueError", got["exception"], got)
			assert.Contains(t, got["message"], c.want)
			assert.Equal(t, before, fileHash(t, e, "s.xlsx"))
		})
	}
}

func TestSetHyperlink(t *testing.T) {
	e := newEnv(t)
	analystBook(e)
	f := e.open("s.xlsx")
	_, err := f.NewSheet("Q1 'Plan' v1")
	require.NoError(t, err)
	require.NoError(t, f.Save())

	got := e.ok("set_hyperlink", map[string]any{"file_path": "s.xlsx", "cell": "A2", "url": "https://example.com/north", "tooltip": "open"})
	assert.Equal(t, "https://example.com/north", got["url"])
	assert.Equal(t, "north", got["display_text"], "the cell keeps its value")
	got = e.ok("set_hyperlink", map[string]any{"file_path": "s.xlsx", "cell": "E1", "location": "'q1 ''plan'' v1'!b2:$C$4"})
	assert.Equal(t, "'Q1 ''Plan'' v1'!B2:C4", got["location"])
	assert.Equal(t, "'Q1 ''Plan'' v1'!B2:C4", got["display_text"], "an empty cell shows the target")
	got = e.ok("set_hyperlink", map[string]any{"file_path": "s.xlsx", "cell": "A2", "location": "Other!A1", "display_text": "go"})
	assert.Equal(t, true, got["replaced"])

	f = e.open("s.xlsx")
	ok, target, err := f.GetCellHyperLink("Sheet1", "A2")
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, "Other!A1", target)
	v, _ := f.GetCellValue("Sheet1", "A2")
	assert.Equal(t, "go", v)
	style, err := f.GetCellStyle("Sheet1", "A2")
	require.NoError(t, err)
	st, err := f.GetStyle(style)
	require.NoError(t, err)
	assert.Equal(t, linkColor, st.Font.Color, "links look like Excel's Hyperlink style")
	assert.Equal(t, "single", st.Font.Underline)
	cells, err := f.GetHyperLinkCells("Sheet1", "")
	require.NoError(t, err)
	assert.ElementsMatch(t, []string{"A2", "E1"}, cells, "replacing never stacks links")

	got = e.ok("set_hyperlink", map[string]any{"file_path": "s.xlsx", "cell": "E1", "remove": true})
	assert.Equal(t, "'Q1 ''Plan'' v1'!B2:C4", got["removed_target"])
	ok, _, err = e.open("s.xlsx").GetCellHyperLink("Sheet1", "E1")
	require.NoError(t, err)
	assert.False(t, ok)
}

func TestSetHyperlinkErrors(t *testing.T) {
	cases := []struct {
		args      map[string]any
		exception string
		want      string
	}{
		{map[string]any{"cell": "A1"}, "ValueError", "give url"},
		{map[string]any{"cell": "A1", "url": "https://a.b", "location": "Sheet1!A1"}, "ValueError", "not both"},
		{map[string]any{"cell": "A1", "url": "javascript:alert(1)"}, "ValueError", "must start with http://"},
		{map[string]any{"cell": "A1", "url": "https://a.b/" + strings.Repeat("x", 2100)}, "ValueError", "limit of 2,079"},
		{map[string]any{"cell": "A1", "url": "https://a b"}, "ValueError", "spaces"},
		{map[string]any{"cell": "A1", "url": "https://a.b", "tooltip": strings.Repeat("t", 256)}, "ValueError", "limit of 255"},
		{map[string]any{"cell": "A1", "location": "Summary!A1"}, "KeyError", "Worksheet Summary does not exist"},
		{map[string]any{"cell": "A1", "location": "Othr!A1"}, "KeyError", `Did you mean "Other"?`},
		{map[string]any{"cell": "A1", "location": "Other!A0"}, "ValueError", "invalid cell range"},
		{map[string]any{"cell": "A1", "location": "nowhere"}, "ValueError", "or a defined name"},
		{map[string]any{"cell": "A1", "remove": true, "url": "https://a.b"}, "ValueError", "takes no url"},
		{map[string]any{"cell": "A1", "remove": true}, "ValueError", "has no link to remove"},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			e := newEnv(t)
			analystBook(e)
			before := fileHash(t, e, "s.xlsx")
			c.args["file_path"] = "s.xlsx"
			got := e.fail("set_hyperlink", c.args)
			assert.Equal(t, c.exception, got["exception"], got)
			assert.Contains(t, got["message"], c.want)
			assert.Equal(t, before, fileHash(t, e, "s.xlsx"))
		})
	}
}
