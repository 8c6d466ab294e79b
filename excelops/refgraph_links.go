package excelops

import (
	"encoding/xml"
	"path"
	"regexp"
	"strconv"
	"strings"
)

// structuredItem is one bracketed item of a structured reference.
var structuredItem = regexp.MustCompile(`\[([^\[\]]*)\]`)

// structuredArea is the cells a structured reference reads, seen from the
// cell at: Sales[Amount] (the column's data rows), Sales[[#This Row],[Qty]]
// and [@Qty] (the column's cell on at's row), Sales[#All], Sales[#Headers],
// Sales[#Data], Sales[[A]:[C]] (a span of columns) and Sales (every data
// row). A reference without a table name is to the table holding at. The
// first row of a table is its header row.
func (g *refGraph) structuredArea(text string, at sheetArea) (sheetArea, bool) {
	name, spec, _ := strings.Cut(text, "[")
	var t *refTable
	for i := range g.tables {
		tb := &g.tables[i]
		if name == "" && strings.EqualFold(tb.sheet, at.Sheet) && rangesOverlap(tb.rng, cellRange{C1: at.C1, R1: at.R1, C2: at.C1, R2: at.R1}) ||
			name != "" && strings.EqualFold(tb.name, name) {
			t = tb
			break
		}
	}
	if t == nil {
		return sheetArea{}, false
	}
	r1, r2 := t.rng.R1+1, t.rng.R2
	c1, c2 := t.rng.C1, t.rng.C2
	cols := []int{}
	for _, m := range structuredItem.FindAllStringSubmatch("["+spec, -1) {
		item := strings.TrimSpace(m[1])
		switch strings.ToLower(item) {
		case "":
			continue
		case "#all":
			r1 = t.rng.R1
			continue
		case "#headers":
			r1, r2 = t.rng.R1, t.rng.R1
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
		for i, h := range t.columns {
			if strings.EqualFold(h, structuredUnescape(item)) {
				cols = append(cols, t.rng.C1+i)
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
		return sheetArea{}, false
	}
	return sheetArea{Sheet: t.sheet, C1: c1, R1: r1, C2: c2, R2: r2}, true
}

// structuredUnescape undoes the ' escapes of a column name in a structured
// reference ('[ '] '# ”).
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

// xmlRels is a relationships part.
type xmlRels struct {
	Rels []struct {
		ID     string `xml:"Id,attr"`
		Target string `xml:"Target,attr"`
	} `xml:"Relationship"`
}

// externalLinks maps the prefixes external references carry in formulas
// ("[1]") to the workbook each link names (its path as stored, e.g.
// "prices.xlsx"). A link whose parts are missing is left out.
func (b *book) externalLinks() map[string]string {
	out := map[string]string{}
	wb := b.f.WorkBook
	if wb == nil || wb.ExternalReferences == nil {
		return out
	}
	wbRels := b.rels("xl/_rels/workbook.xml.rels")
	for i, ref := range wb.ExternalReferences.ExternalReference {
		target, ok := wbRels[ref.RID]
		if !ok {
			continue
		}
		part := path.Join("xl", target)
		if strings.HasPrefix(target, "/") {
			part = strings.TrimPrefix(target, "/")
		}
		linkRels := b.rels(path.Join(path.Dir(part), "_rels", path.Base(part)+".rels"))
		for _, t := range linkRels {
			out["["+strconv.Itoa(i+1)+"]"] = strings.TrimPrefix(t, "file:///")
			break
		}
	}
	return out
}

// rels reads a relationships part of the package: id -> target.
func (b *book) rels(name string) map[string]string {
	out := map[string]string{}
	raw, ok := b.f.Pkg.Load(name)
	data, isBytes := raw.([]byte)
	if !ok || !isBytes {
		return out
	}
	var r xmlRels
	if xml.Unmarshal(data, &r) != nil {
		return out
	}
	for _, rel := range r.Rels {
		out[rel.ID] = rel.Target
	}
	return out
}
