package excelops

import (
	"bytes"
	"fmt"
	"html"
	"regexp"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
)

// Reference semantics, as Excel has them: every structural edit rewrites
// the references that point into what it changed, everywhere a workbook
// keeps them: cell formulas, defined names, conditional formats and data
// validations (refs_rules.go) and chart series, with formularef deciding
// each rewrite. excelize still moves the cells; its own formula adjustment
// (which never yields #REF!, misses charts and keeps old sheet names) is
// overwritten by the plan made before the edit from the formulas as they
// were.

// refRewrite is one structural edit seen by the places holding references.
type refRewrite struct {
	// formula rewrites a formula living on sheet host.
	formula func(formula, host string) (string, bool)
	// cell gives the new position of a cell of sheet (ok false: deleted);
	// nil when cells do not move.
	cell func(sheet, ref string) (string, bool)
	// sheet gives a sheet's name after the edit; nil when names stay.
	sheet func(name string) string
	// sqref moves the cells a rule of sheet applies to ("" when all are
	// deleted); nil when cells do not move.
	sqref func(sheet, sqref string) string
	// anchor is how far the top-left cell of a rule's sqref moves to its
	// first surviving cell (rows, columns): a rule's relative references
	// count from that cell, so a rule whose first row is deleted is read
	// from the next one. nil when no cell is deleted.
	anchor func(sheet, sqref string) (int, int)
}

// sheetAfter is a sheet's name after the edit.
func (rw refRewrite) sheetAfter(name string) string {
	if rw.sheet == nil {
		return name
	}
	return rw.sheet(name)
}

// plannedFormula is a formula cell as it must read after the edit.
type plannedFormula struct {
	sheet, cell, formula string
	arrayRef             string // the range of an array formula anchored here
	changed              bool   // the text differs from before the edit
}

// plannedName is a defined name's text after the edit, keyed by its name
// and the name of the sheet it is local to ("" for workbook scope).
type plannedName struct {
	name, scope, data string
}

// refPlan is what the references must read after the edit.
type refPlan struct {
	cells []plannedFormula
	names []plannedName
}

// planRefs records, before the edit, what every formula cell and defined
// name must read after it. skip names a sheet whose cells need no plan (a
// sheet being deleted).
func (b *book) planRefs(rw refRewrite, skip string) (*refPlan, error) {
	p := &refPlan{}
	list, _ := b.sheetList()
	for _, sheet := range list {
		if sheet == skip || !b.isWorksheet(sheet) {
			continue
		}
		refs, err := b.formulaCells(sheet)
		if err != nil {
			return nil, err
		}
		for _, fc := range refs {
			ref := fc.ref
			text, err := b.f.GetCellFormula(sheet, ref)
			if err != nil {
				return nil, newError(KindDamaged, "file is damaged: "+err.Error(), err)
			}
			if text == "" {
				continue
			}
			dst := ref
			if rw.cell != nil {
				var ok bool
				if dst, ok = rw.cell(sheet, ref); !ok {
					continue
				}
			}
			out, changed := rw.formula(text, sheet)
			array := fc.arrayRef
			if array != "" && rw.sqref != nil {
				if array = rw.sqref(sheet, array); array == "" {
					array = dst
				}
			}
			p.cells = append(p.cells, plannedFormula{sheet: rw.sheetAfter(sheet), cell: dst, formula: out, arrayRef: array, changed: changed})
		}
	}
	if wb := b.f.WorkBook; wb != nil && wb.DefinedNames != nil {
		for _, dn := range wb.DefinedNames.DefinedName {
			host := ""
			if dn.LocalSheetID != nil && *dn.LocalSheetID >= 0 && *dn.LocalSheetID < len(list) {
				host = list[*dn.LocalSheetID]
			}
			out, _ := rw.formula(dn.Data, host)
			if host != "" {
				host = rw.sheetAfter(host)
			}
			p.names = append(p.names, plannedName{name: dn.Name, scope: host, data: out})
		}
	}
	return p, nil
}

// isWorksheet reports whether sheet is a worksheet (not a chart sheet).
func (b *book) isWorksheet(sheet string) bool {
	_, ok := b.worksheet(sheet)
	return ok
}

// applyRefs makes every planned place read what the plan says, after the
// edit. A rewritten formula loses its cached value (it may no longer hold);
// one only moved keeps it. A cell is rewritten only when excelize left it
// different, so shared formulas it adjusted right stay shared; setting a
// shared formula's anchor drops its followers, so passes repeat until
// every cell reads as planned.
func (b *book) applyRefs(p *refPlan) error {
	const maxPasses = 3 // the anchor pass, the followers pass, one to confirm
	for pass := 0; pass < maxPasses; pass++ {
		fixed := 0
		for _, c := range p.cells {
			got, err := b.f.GetCellFormula(c.sheet, c.cell)
			if err != nil {
				return newError(KindDamaged, "file is damaged: "+err.Error(), err)
			}
			if got == c.formula {
				continue
			}
			if c.changed {
				if err := b.f.SetCellValue(c.sheet, c.cell, nil); err != nil {
					return newError(KindInvalidArgument, fmt.Sprintf("cannot rewrite %s!%s: %v", c.sheet, c.cell, err), err)
				}
			}
			var opts []excelize.FormulaOpts
			if c.arrayRef != "" {
				array, ref := excelize.STCellFormulaTypeArray, c.arrayRef
				opts = append(opts, excelize.FormulaOpts{Type: &array, Ref: &ref})
			}
			if err := b.f.SetCellFormula(c.sheet, c.cell, c.formula, opts...); err != nil {
				return newError(KindInvalidArgument, fmt.Sprintf("cannot rewrite %s!%s: %v", c.sheet, c.cell, err), err)
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
func (b *book) applyNames(names []plannedName) {
	wb := b.f.WorkBook
	if wb == nil || wb.DefinedNames == nil || len(names) == 0 {
		return
	}
	list, _ := b.sheetList()
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
func (b *book) rewriteCharts(rw refRewrite) {
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
			got, ok := rw.formula(text, "")
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
func shiftRewrite(e formularef.Shift) refRewrite {
	return refRewrite{
		formula: e.Formula,
		cell: func(sheet, ref string) (string, bool) {
			if !strings.EqualFold(sheet, e.Sheet) {
				return ref, true
			}
			moved, ok := e.Area(ref)
			return moved, ok
		},
		sqref: func(sheet, sqref string) string {
			if !strings.EqualFold(sheet, e.Sheet) {
				return sqref
			}
			return e.Sqref(sqref)
		},
		anchor: func(sheet, sqref string) (int, int) {
			if !e.Delete || !strings.EqualFold(sheet, e.Sheet) {
				return 0, 0
			}
			first, _, _ := strings.Cut(strings.TrimSpace(sqref), " ")
			rng, err := parseRange(first)
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

// shiftRefs performs edit (an excelize insert or delete of rows or columns)
// with Excel's reference semantics around it: formulas on every sheet,
// defined names and charts.
func (b *book) shiftRefs(e formularef.Shift, edit func() error) error {
	return b.editRefs(shiftRewrite(e), "", edit)
}

// renameRefs performs rename (excelize's rename of sheet old to new) and
// rewrites every reference to the sheet: formulas on all sheets, defined
// names and charts.
func (b *book) renameRefs(old, new string, rename func() error) error {
	rw := refRewrite{
		formula: func(f, _ string) (string, bool) { return formularef.RenameSheet(f, old, new) },
		sheet: func(name string) string {
			if name == old {
				return new
			}
			return name
		},
	}
	// Every sheet is parsed to rewrite its formulas: rename_sheet declares
	// guardEverySheet, so each was bounds-checked before.
	return b.editRefs(rw, "", rename)
}

// deleteSheetRefs performs del (excelize's deletion of sheet) and turns
// every reference into the sheet into #REF!.
func (b *book) deleteSheetRefs(sheet string, del func() error) error {
	rw := refRewrite{formula: func(f, _ string) (string, bool) { return formularef.DeleteSheet(f, sheet) }}
	return b.editRefs(rw, sheet, del)
}

// editRefs plans rw, runs edit, then applies the plan and rewrites charts.
func (b *book) editRefs(rw refRewrite, skip string, edit func() error) error {
	plan, err := b.planRefs(rw, skip)
	if err != nil {
		return err
	}
	var rules []*detachedRules
	list, _ := b.sheetList()
	for _, sheet := range list {
		if sheet == skip {
			continue
		}
		d, err := b.detachRules(sheet, rw)
		if err != nil {
			return err
		}
		rules = append(rules, d)
	}
	err = edit()
	for _, d := range rules {
		d.reattach()
	}
	if err != nil {
		return err
	}
	if err := b.applyRefs(plan); err != nil {
		return err
	}
	b.rewriteCharts(rw)
	b.redeclareChartPrefix()
	return nil
}
