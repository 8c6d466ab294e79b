package excelops

import (
	"html"
	"reflect"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
)

// Conditional formats and data validations keep references twice: the
// cells they apply to (sqref) and the formulas of their rules. excelize
// shifts the sqref of the edited sheet only (growing a range upward when
// its first row is deleted), validations' formulas without #REF! and rule
// formulas not at all, and has no public way to rewrite them. So, like
// formulaCells, this reaches the parsed worksheet's exported fields
// (ConditionalFormatting[].SQRef and .CfRule[].Formula, DataValidations
// .DataValidation[].Sqref, .Formula1 and .Formula2) through reflection:
// before the edit the lists are detached from the worksheet (excelize then
// sees none) and their rewritten copies are put back after it, without the
// entries whose cells were all deleted. TestRulesFollowEdits pins it.

// detachedRules are one worksheet's rule lists held aside during an edit.
type detachedRules struct {
	ws          reflect.Value // the parsed worksheet struct (addressable)
	cf, dv      reflect.Value // the detached field values
	cfKeep      []bool        // per conditional format: still applies to some cell
	dvKeep      []bool
	hasCF, hasV bool
}

// detachRules rewrites the rules of sheet and holds them aside; reattach
// puts them back once the edit is done.
func (b *book) detachRules(sheet string, rw refRewrite) (*detachedRules, error) {
	v, ok := parsedSheet(b.f, sheet)
	if !ok {
		return nil, nil
	}
	d := &detachedRules{ws: v}
	sqref := func(s string) string {
		if rw.sqref == nil {
			return s
		}
		return rw.sqref(sheet, s)
	}
	// formula rewrites a rule formula whose relative references count
	// from the top-left cell of sqref.
	formula := func(f, sqref string) (string, bool) {
		moved := false
		if rw.anchor != nil {
			if dr, dc := rw.anchor(sheet, sqref); dr != 0 || dc != 0 {
				f, moved = formularef.Translate(f, dr, dc)
			}
		}
		out, changed := rw.formula(f, sheet)
		return out, changed || moved
	}
	if cf := v.FieldByName("ConditionalFormatting"); cf.IsValid() && cf.Kind() == reflect.Slice && cf.CanSet() && cf.Len() > 0 {
		d.cf, d.hasCF = reflect.ValueOf(cf.Interface()), true
		for i := 0; i < cf.Len(); i++ {
			item := reflect.Indirect(cf.Index(i))
			ref := item.FieldByName("SQRef")
			if ref.Kind() != reflect.String {
				return nil, errUnexpectedShape("conditional format")
			}
			orig := ref.String()
			moved := sqref(orig)
			d.cfKeep = append(d.cfKeep, moved != "")
			ref.SetString(moved)
			rules := item.FieldByName("CfRule")
			for j := 0; rules.IsValid() && j < rules.Len(); j++ {
				fs := reflect.Indirect(rules.Index(j)).FieldByName("Formula")
				for k := 0; fs.IsValid() && k < fs.Len(); k++ {
					out, _ := formula(fs.Index(k).String(), orig)
					fs.Index(k).SetString(out)
				}
			}
		}
		cf.Set(reflect.Zero(cf.Type()))
	}
	if dvs := v.FieldByName("DataValidations"); dvs.IsValid() && dvs.Kind() == reflect.Pointer && !dvs.IsNil() && dvs.CanSet() {
		list := dvs.Elem().FieldByName("DataValidation")
		if !list.IsValid() || list.Kind() != reflect.Slice {
			return nil, errUnexpectedShape("data validation")
		}
		d.dv, d.hasV = reflect.ValueOf(dvs.Interface()), true
		for i := 0; i < list.Len(); i++ {
			item := reflect.Indirect(list.Index(i))
			ref := item.FieldByName("Sqref")
			if ref.Kind() != reflect.String {
				return nil, errUnexpectedShape("data validation")
			}
			orig := ref.String()
			moved := sqref(orig)
			d.dvKeep = append(d.dvKeep, moved != "")
			ref.SetString(moved)
			for _, name := range []string{"Formula1", "Formula2"} {
				fp := item.FieldByName(name)
				if !fp.IsValid() || fp.Kind() != reflect.Pointer || fp.IsNil() {
					continue
				}
				content := fp.Elem().FieldByName("Content")
				if content.Kind() != reflect.String {
					return nil, errUnexpectedShape("data validation formula")
				}
				text := html.UnescapeString(content.String())
				if out, changed := formula(text, orig); changed {
					content.SetString(escapeXMLText(out))
				}
			}
		}
		dvs.Set(reflect.Zero(dvs.Type()))
	}
	return d, nil
}

// reattach puts the rewritten rules back on the worksheet, without the
// ones whose cells were all deleted.
func (d *detachedRules) reattach() {
	if d == nil {
		return
	}
	ws := d.ws
	if d.hasCF {
		kept := reflect.MakeSlice(d.cf.Type(), 0, d.cf.Len())
		for i := 0; i < d.cf.Len(); i++ {
			if d.cfKeep[i] {
				kept = reflect.Append(kept, d.cf.Index(i))
			}
		}
		if kept.Len() > 0 {
			ws.FieldByName("ConditionalFormatting").Set(kept)
		}
	}
	if d.hasV {
		list := d.dv.Elem().FieldByName("DataValidation")
		kept := reflect.MakeSlice(list.Type(), 0, list.Len())
		for i := 0; i < list.Len(); i++ {
			if d.dvKeep[i] {
				kept = reflect.Append(kept, list.Index(i))
			}
		}
		if kept.Len() > 0 {
			list.Set(kept)
			if count := d.dv.Elem().FieldByName("Count"); count.CanSet() && count.Kind() == reflect.Int {
				count.SetInt(int64(kept.Len()))
			}
			ws.FieldByName("DataValidations").Set(d.dv)
		}
	}
}

// errUnexpectedShape reports an excelize version whose parsed worksheet
// does not look as this package expects.
func errUnexpectedShape(what string) error {
	return newError(KindInvalidArgument, "cannot rewrite the references of a "+what+": this excelize version keeps worksheets in an unexpected shape", nil)
}
