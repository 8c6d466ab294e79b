package formularef

import (
	"strings"
	"testing"
)

// FuzzShift feeds arbitrary formula text through every rewrite: none may
// panic, a rewritten formula must tokenize cleanly again, and inserting
// rows or columns then deleting the same ones must give back the formula
// (as Normalize renders it) whenever no reference reached the grid's edge.
func FuzzShift(f *testing.F) {
	for _, s := range []string{
		"=SUM(A1:A5)", "=A3*10", "='销售 2024'!B2+Sheet1!$C$3", "='Q1 ''Plan'' v1'!A1:B9",
		`="A1"&A1`, "=SUM(A:A)+SUM(3:5)", "={1,2;3,4}", "=IF(A1>0,B$2,$C3)", "=Table1[[#This Row],[x]]",
		"=[1]Sheet1!A1", "=SUM(Sheet1:Sheet3!A1)", "=A1 B1", "=-A1%", "=#REF!+1", "=Sheet2!#REF!",
	} {
		f.Add(s, 3, 2, true)
	}
	f.Fuzz(func(t *testing.T, formula string, at, count int, rows bool) {
		if len(formula) > 2000 {
			return
		}
		at = 1 + abs(at)%40
		count = 1 + abs(count)%5
		axis := Cols
		if rows {
			axis = Rows
		}
		ins := Shift{Sheet: "Sheet1", Axis: axis, At: at, Count: count}
		del := ins
		del.Delete = true
		out, changed := ins.Formula(formula, "Sheet1")
		if !changed {
			if out != formula {
				t.Fatalf("unchanged formula rewritten: %q -> %q", formula, out)
			}
		} else if hasUnknown(strings.TrimSpace(out)) {
			t.Fatalf("rewrite of %q does not tokenize: %q", formula, out)
		}
		back, _ := del.Formula(out, "Sheet1")
		norm, ok := Normalize(formula)
		if ok && changed && !strings.Contains(out, RefError) && !nearEdge(formula) {
			if nb, _ := Normalize(back); nb != norm {
				t.Fatalf("insert then delete of %q: %q -> %q, want %q", formula, out, nb, norm)
			}
		}
		_, _ = del.Formula(formula, "Other")
		_, _ = RenameSheet(formula, "Sheet1", "New 'name'")
		_, _ = DeleteSheet(formula, "Sheet1")
		_, _ = Translate(formula, at-20, count-3)
		_ = del.Sqref(formula)
		band := Band{Sheet: "Sheet1", Up: rows, C1: at, R1: count, C2: at + count, R2: count + at%7}
		if out, changed := band.Formula(formula, "Sheet1"); !changed && out != formula {
			t.Fatalf("unchanged formula rewritten by %+v: %q -> %q", band, formula, out)
		} else if changed && hasUnknown(strings.TrimSpace(out)) {
			t.Fatalf("band rewrite of %q does not tokenize: %q", formula, out)
		}
		_ = band.Sqref(formula)
		_ = SheetsReferenced(formula)
	})
}

// nearEdge reports whether a reference of formula lies close enough to the
// grid's end that an insert could clamp it.
func nearEdge(formula string) bool {
	edge := false
	rewrite(formula, func(r *reference) bool {
		if r.parsed {
			a := r.area
			edge = edge || a.r1.n > MaxRows-100 || a.r2.n > MaxRows-100 || a.c1.n > MaxCols-100 || a.c2.n > MaxCols-100 ||
				(a.kind == kindCells && !a.single && (a.r1.n == 1 || a.c1.n == 1))
		}
		return false
	})
	return edge
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
