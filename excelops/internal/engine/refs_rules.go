package engine

import (
	"html"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Conditional formats and data validations keep references twice: the
// cells they apply to (sqref) and the formulas of their rules. excelize
// shifts the sqref of the edited sheet only (growing a range upward when
// its first row is deleted), validations' formulas without #REF! and rule
// formulas not at all, and has no public way to rewrite them. So, like
// formulaCells, this reaches the parsed worksheet (ConditionalFormatting[]
// .SQRef and .CfRule[].Formula, DataValidations.DataValidation[].Sqref,
// .Formula1 and .Formula2): before the edit the lists are detached from
// the worksheet (excelize then sees none) and their rewritten copies are
// put back after it, without the entries whose cells were all deleted.
// TestRulesFollowEdits pins it.

// detachedRules are one worksheet's rule lists held aside during an edit.
type detachedRules struct {
	ws          *excelize.XMLWorksheet
	cf          []*excelize.XMLConditionalFormatting // the detached lists
	dv          *excelize.XMLDataValidations
	cfKeep      []bool // per conditional format: still applies to some cell
	dvKeep      []bool
	hasCF, hasV bool
}

// DetachRules rewrites the rules of sheet and holds them aside; reattach
// puts them back once the edit is done.
func (b *Book) DetachRules(sheet string, rw RefRewrite) (*detachedRules, error) {
	ws, ok := ParsedSheet(b.f, sheet)
	if !ok {
		return nil, nil
	}
	d := &detachedRules{ws: ws}
	sqref := func(s string) string {
		if rw.Sqref == nil {
			return s
		}
		return rw.Sqref(sheet, s)
	}
	// formula rewrites a rule formula whose relative references count
	// from the top-left cell of sqref.
	formula := func(f, sqref string) (string, bool) {
		moved := false
		if rw.Anchor != nil {
			if dr, dc := rw.Anchor(sheet, sqref); dr != 0 || dc != 0 {
				f, moved = formularef.Translate(f, dr, dc)
			}
		}
		out, changed := rw.Formula(f, sheet)
		return out, changed || moved
	}
	if len(ws.ConditionalFormatting) > 0 {
		d.cf, d.hasCF = ws.ConditionalFormatting, true
		for _, item := range d.cf {
			if item == nil {
				d.cfKeep = append(d.cfKeep, false)
				continue
			}
			orig := item.SQRef
			item.SQRef = sqref(orig)
			d.cfKeep = append(d.cfKeep, item.SQRef != "")
			for _, rule := range item.CfRule {
				if rule == nil {
					continue
				}
				for k, f := range rule.Formula {
					rule.Formula[k], _ = formula(f, orig)
				}
			}
		}
		ws.ConditionalFormatting = nil
	}
	if dvs := ws.DataValidations; dvs != nil {
		d.dv, d.hasV = dvs, true
		for _, item := range dvs.DataValidation {
			if item == nil {
				d.dvKeep = append(d.dvKeep, false)
				continue
			}
			orig := item.Sqref
			item.Sqref = sqref(orig)
			d.dvKeep = append(d.dvKeep, item.Sqref != "")
			// The formulas are XML text (innerxml): unescaped to rewrite,
			// escaped back when changed.
			rewrite := func(content *string) {
				if out, changed := formula(html.UnescapeString(*content), orig); changed {
					*content = escapeXMLText(out)
				}
			}
			if item.Formula1 != nil {
				rewrite(&item.Formula1.Content)
			}
			if item.Formula2 != nil {
				rewrite(&item.Formula2.Content)
			}
		}
		ws.DataValidations = nil
	}
	return d, nil
}

// Reattach puts the rewritten rules back on the worksheet, without the
// ones whose cells were all deleted.
func (d *detachedRules) Reattach() {
	if d == nil {
		return
	}
	if d.hasCF {
		kept := make([]*excelize.XMLConditionalFormatting, 0, len(d.cf))
		for i, item := range d.cf {
			if d.cfKeep[i] {
				kept = append(kept, item)
			}
		}
		if len(kept) > 0 {
			d.ws.ConditionalFormatting = kept
		}
	}
	if d.hasV {
		kept := d.dv.DataValidation[:0:0] // a new slice: the list is the detached one
		for i, item := range d.dv.DataValidation {
			if d.dvKeep[i] {
				kept = append(kept, item)
			}
		}
		if len(kept) > 0 {
			d.dv.DataValidation = kept
			d.dv.Count = len(kept)
			d.ws.DataValidations = d.dv
		}
	}
}

// ErrUnexpectedShape reports a worksheet excelize has not parsed where an
// edit expected it parsed, or a cell whose reference excelize left
// unreadable: neither happens with the excelize this package builds with.
func ErrUnexpectedShape(what string) error {
	return failure.New(failure.KindInvalidArgument, "cannot rewrite the references of a "+what+": excelize did not parse it as expected", nil)
}
