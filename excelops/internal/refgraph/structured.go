package refgraph

import (
	"regexp"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
)

// structuredItem is one bracketed item of a structured reference.
var structuredItem = regexp.MustCompile(`\[([^\[\]]*)\]`)

// structuredArea is the cells a structured reference reads, seen from the
// cell at: Sales[Amount] (the column's data rows), Sales[[#This Row],[Qty]]
// and [@Qty] (the column's cell on at's row), Sales[#All], Sales[#Headers],
// Sales[#Data], Sales[[A]:[C]] (a span of columns) and Sales (every data
// row). A reference without a table name is to the table holding at. The
// first row of a table is its header row.
func (g *Graph) structuredArea(text string, at cellarea.Area) (cellarea.Area, bool) {
	name, spec, _ := strings.Cut(text, "[")
	var t *Table
	for i := range g.Tables {
		tb := &g.Tables[i]
		if name == "" && strings.EqualFold(tb.Sheet, at.Sheet) && tb.Range.Has(at.C1, at.R1) ||
			name != "" && strings.EqualFold(tb.Name, name) {
			t = tb
			break
		}
	}
	if t == nil {
		return cellarea.Area{}, false
	}
	r1, r2 := t.Range.R1+1, t.Range.R2
	c1, c2 := t.Range.C1, t.Range.C2
	cols := []int{}
	for _, m := range structuredItem.FindAllStringSubmatch("["+spec, -1) {
		item := strings.TrimSpace(m[1])
		switch strings.ToLower(item) {
		case "":
			continue
		case "#all":
			r1 = t.Range.R1
			continue
		case "#headers":
			r1, r2 = t.Range.R1, t.Range.R1
			continue
		case "#data", "#totals":
			continue
		case "#this row", "@":
			r1, r2 = at.R1, at.R1
			continue
		}
		if rest, ok := strings.CutPrefix(item, "@"); ok {
			r1, r2, item = at.R1, at.R1, strings.TrimSpace(rest)
		}
		for i, h := range t.Columns {
			if strings.EqualFold(h, structuredUnescape(item)) {
				cols = append(cols, t.Range.C1+i)
			}
		}
	}
	if len(cols) > 0 {
		c1, c2 = cols[0], cols[0]
		for _, c := range cols {
			c1, c2 = min(c1, c), max(c2, c)
		}
	}
	if r1 > r2 {
		return cellarea.Area{}, false
	}
	return cellarea.Area{Sheet: t.Sheet, C1: c1, R1: r1, C2: c2, R2: r2}, true
}

// structuredUnescape undoes the ' escapes of a column name in a structured
// reference: '[ '] '# and a doubled quote stand for [ ] # and a quote.
func structuredUnescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' && i+1 < len(s) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
