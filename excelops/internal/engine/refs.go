package engine

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Reference semantics, as Excel has them: every structural edit rewrites
// the references that point into what it changed, everywhere a workbook
// keeps them: cell formulas, defined names, conditional formats and data
// validations (refs_rules.go) and chart series, with formularef deciding
// each rewrite. excelize still moves the cells; its own formula adjustment
// (which never yields #REF!, misses charts and keeps old sheet names) is
// overwritten by the plan made before the edit from the formulas as they
// were.

// RefRewrite is one structural edit seen by the places holding references.
type RefRewrite struct {
	// Formula rewrites a formula living on sheet host.
	Formula func(formula, host string) (string, bool)
	// Cell gives the new position of a cell of sheet (ok false: deleted);
	// nil when cells do not move.
	Cell func(sheet, ref string) (string, bool)
	// sheet gives a sheet's name after the edit; nil when names stay.
	sheet func(name string) string
	// Sqref moves the cells a rule of sheet applies to ("" when all are
	// deleted); nil when cells do not move.
	Sqref func(sheet, sqref string) string
	// Anchor is how far the top-left cell of a rule's sqref moves to its
	// first surviving cell (rows, columns): a rule's relative references
	// count from that cell, so a rule whose first row is deleted is read
	// from the next one. nil when no cell is deleted.
	Anchor func(sheet, sqref string) (int, int)
}

// sheetAfter is a sheet's name after the edit.
func (rw RefRewrite) sheetAfter(name string) string {
	if rw.sheet == nil {
		return name
	}
	return rw.sheet(name)
}

// PlannedFormula is a formula cell as it must read after the edit.
type PlannedFormula struct {
	Sheet, Cell, Formula string
	ArrayRef             string // the range of an array formula anchored here
	Changed              bool   // the text differs from before the edit
}

// plannedName is a defined name's text after the edit, keyed by its name
// and the name of the sheet it is local to ("" for workbook scope).
type plannedName struct {
	name, scope, data string
}

// RefPlan is what the references must read after the edit.
type RefPlan struct {
	Cells []PlannedFormula
	names []plannedName
}

// planRefs records, before the edit, what every formula cell and defined
// name must read after it. skip names a sheet whose cells need no plan (a
// sheet being deleted).
func (b *Book) planRefs(rw RefRewrite, skip string) (*RefPlan, error) {
	p := &RefPlan{}
	list, _ := b.SheetList()
	for _, sheet := range list {
		if sheet == skip || !b.isWorksheet(sheet) {
			continue
		}
		refs, err := b.FormulaCells(sheet)
		if err != nil {
			return nil, err
		}
		for _, fc := range refs {
			ref := fc.Ref
			text, err := b.f.GetCellFormula(sheet, ref)
			if err != nil {
				return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
			}
			if text == "" {
				continue
			}
			dst := ref
			if rw.Cell != nil {
				var ok bool
				if dst, ok = rw.Cell(sheet, ref); !ok {
					continue
				}
			}
			out, changed := rw.Formula(text, sheet)
			array := fc.ArrayRef
			if array != "" && rw.Sqref != nil {
				if array = rw.Sqref(sheet, array); array == "" {
					array = dst
				}
			}
			p.Cells = append(p.Cells, PlannedFormula{Sheet: rw.sheetAfter(sheet), Cell: dst, Formula: out, ArrayRef: array, Changed: changed})
		}
	}
	for _, dn := range b.NameDefinitions() {
		host := dn.Sheet
		out, _ := rw.Formula(dn.RefersTo, host)
		if host != "" {
			host = rw.sheetAfter(host)
		}
		p.names = append(p.names, plannedName{name: dn.Name, scope: host, data: out})
	}
	return p, nil
}

// isWorksheet reports whether sheet is a worksheet (not a chart sheet).
func (b *Book) isWorksheet(sheet string) bool {
	_, ok := b.Worksheet(sheet)
	return ok
}

// ApplyRefs makes every planned place read what the plan says, after the
// edit. A rewritten formula loses its cached value (it may no longer hold);
// one only moved keeps it. A cell is rewritten only when excelize left it
// different, so shared formulas it adjusted right stay shared; setting a
// shared formula's anchor drops its followers, so passes repeat until
// every cell reads as planned.
func (b *Book) ApplyRefs(p *RefPlan) error {
	const maxPasses = 3 // the anchor pass, the followers pass, one to confirm
	for pass := 0; pass < maxPasses; pass++ {
		fixed := 0
		for _, c := range p.Cells {
			got, err := b.f.GetCellFormula(c.Sheet, c.Cell)
			if err != nil {
				return failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
			}
			if got == c.Formula {
				continue
			}
			if c.Changed {
				if err := b.f.SetCellValue(c.Sheet, c.Cell, nil); err != nil {
					return failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot rewrite %s!%s: %v", c.Sheet, c.Cell, err), err)
				}
			}
			var opts []excelize.FormulaOpts
			if c.ArrayRef != "" {
				array, ref := excelize.STCellFormulaTypeArray, c.ArrayRef
				opts = append(opts, excelize.FormulaOpts{Type: &array, Ref: &ref})
			}
			if err := b.f.SetCellFormula(c.Sheet, c.Cell, c.Formula, opts...); err != nil {
				return failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot rewrite %s!%s: %v", c.Sheet, c.Cell, err), err)
			}
			fixed++
		}
		if fixed == 0 {
			break
		}
	}
	b.applyNames(p.names)
	return nil
}

// applyNames sets each defined name still in the workbook to its planned
// text (names local to a deleted sheet are gone with it).
func (b *Book) applyNames(names []plannedName) {
	wb := b.f.WorkBook
	if wb == nil || wb.DefinedNames == nil || len(names) == 0 {
		return
	}
	list, _ := b.SheetList()
	want := make(map[[2]string]string, len(names))
	for _, n := range names {
		want[[2]string{strings.ToLower(n.name), n.scope}] = n.data
	}
	for i, dn := range wb.DefinedNames.DefinedName {
		scope := ""
		if dn.LocalSheetID != nil && *dn.LocalSheetID >= 0 && *dn.LocalSheetID < len(list) {
			scope = list[*dn.LocalSheetID]
		}
		if data, ok := want[[2]string{strings.ToLower(dn.Name), scope}]; ok {
			wb.DefinedNames.DefinedName[i].Data = data
		}
	}
}

// chartFormula finds the reference formulas (<c:f>, or <f> where the chart
// namespace is the default one, as excelize writes it) of a chart part.
var chartFormula = regexp.MustCompile(`(<(?:[A-Za-z_][\w.-]*:)?f>)([^<]*)(</(?:[A-Za-z_][\w.-]*:)?f>)`)

// rewriteCharts rewrites the series, category and title references of
// every chart part of the workbook with rw.formula (chart references always
// name their sheet, so no host sheet applies).
func (b *Book) rewriteCharts(rw RefRewrite) {
	b.f.Pkg.Range(func(key, value any) bool {
		name, ok := key.(string)
		raw, isBytes := value.([]byte)
		if !ok || !isBytes || !strings.HasPrefix(name, "xl/charts/chart") || !strings.HasSuffix(name, ".xml") {
			return true
		}
		changed := false
		out := chartFormula.ReplaceAllFunc(raw, func(m []byte) []byte {
			parts := chartFormula.FindSubmatch(m)
			text := html.UnescapeString(string(parts[2]))
			got, ok := rw.Formula(text, "")
			if !ok {
				return m
			}
			changed = true
			var buf bytes.Buffer
			buf.Write(parts[1])
			buf.WriteString(escapeXMLText(got))
			buf.Write(parts[3])
			return buf.Bytes()
		})
		if changed {
			b.f.Pkg.Store(name, out)
		}
		return true
	})
}

// escapeXMLText escapes text for an XML element's content.
func escapeXMLText(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)
}

// shiftRewrite is the refRewrite of rows or columns inserted or deleted.
func shiftRewrite(e formularef.Shift) RefRewrite {
	return RefRewrite{
		Formula: e.Formula,
		Cell: func(sheet, ref string) (string, bool) {
			if !strings.EqualFold(sheet, e.Sheet) {
				return ref, true
			}
			moved, ok := e.Area(ref)
			return moved, ok
		},
		Sqref: func(sheet, sqref string) string {
			if !strings.EqualFold(sheet, e.Sheet) {
				return sqref
			}
			return e.Sqref(sqref)
		},
		Anchor: func(sheet, sqref string) (int, int) {
			if !e.Delete || !strings.EqualFold(sheet, e.Sheet) {
				return 0, 0
			}
			first, _, _ := strings.Cut(strings.TrimSpace(sqref), " ")
			rng, err := grid.ParseRange(first)
			if err != nil {
				return 0, 0
			}
			lo, hi := rng.R1, rng.R2
			if e.Axis == formularef.Cols {
				lo, hi = rng.C1, rng.C2
			}
			last := e.At + e.Count - 1
			if lo < e.At || lo > last || hi <= last {
				return 0, 0
			}
			if e.Axis == formularef.Cols {
				return 0, last + 1 - lo
			}
			return last + 1 - lo, 0
		},
	}
}

// ShiftRefs performs edit (an excelize insert or delete of rows or columns)
// with Excel's reference semantics around it: formulas on every sheet,
// defined names and charts.
func (b *Book) ShiftRefs(e formularef.Shift, edit func() error) error {
	return b.EditRefs(shiftRewrite(e), "", edit)
}

// RenameRefs performs rename (excelize's rename of sheet old to new) and
// rewrites every reference to the sheet: formulas on all sheets, defined
// names and charts.
func (b *Book) RenameRefs(old, new string, rename func() error) error {
	rw := RefRewrite{
		Formula: func(f, _ string) (string, bool) { return formularef.RenameSheet(f, old, new) },
		sheet: func(name string) string {
			if name == old {
				return new
			}
			return name
		},
	}
	// Every sheet is parsed to rewrite its formulas: rename_sheet declares
	// guardEverySheet, so each was bounds-checked before.
	return b.EditRefs(rw, "", rename)
}

// DeleteSheetRefs performs del (excelize's deletion of sheet) and turns
// every reference into the sheet into #REF!.
func (b *Book) DeleteSheetRefs(sheet string, del func() error) error {
	rw := RefRewrite{Formula: func(f, _ string) (string, bool) { return formularef.DeleteSheet(f, sheet) }}
	return b.EditRefs(rw, sheet, del)
}

// EditRefs plans rw, runs edit, then applies the plan and rewrites charts.
func (b *Book) EditRefs(rw RefRewrite, skip string, edit func() error) error {
	plan, err := b.planRefs(rw, skip)
	if err != nil {
		return err
	}
	var rules []*detachedRules
	list, _ := b.SheetList()
	for _, sheet := range list {
		if sheet == skip {
			continue
		}
		d, err := b.DetachRules(sheet, rw)
		if err != nil {
			return err
		}
		rules = append(rules, d)
	}
	err = edit()
	for _, d := range rules {
		d.Reattach()
	}
	if err != nil {
		return err
	}
	if err := b.ApplyRefs(plan); err != nil {
		return err
	}
	b.rewriteCharts(rw)
	b.redeclareChartPrefix()
	return nil
}
