package refgraph

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
)

// chain is one sheet S: B1 = A1*2, C1 = B1+1, D1 = C1+A1, E1 = Z9; and a
// cycle X1 = Y1, Y1 = X1.
func chain() *Graph {
	g := New(Workbook{Sheets: []string{"S"}})
	for _, c := range [][2]string{{"B1", "=A1*2"}, {"C1", "=B1+1"}, {"D1", "=C1+A1"}, {"E1", "=Z9"}, {"X1", "=Y1"}, {"Y1", "=X1"}} {
		g.Add("S", c[0], c[1])
	}
	return g
}

func cell(ref string) []cellarea.Area {
	a, _ := cellarea.ParseArea(ref, "S")
	return []cellarea.Area{a}
}

func TestDependents(t *testing.T) {
	cases := []struct {
		name, target string
		depth        int
		want         []Dependent
	}{
		{"every level, each formula once at its first depth", "A1", 0, []Dependent{{0, 1}, {2, 1}, {1, 2}}},
		{"direct only", "A1", 1, []Dependent{{0, 1}, {2, 1}}},
		{"two levels from the middle", "B1", 2, []Dependent{{1, 1}, {2, 2}}},
		{"a range", "A1:B1", 1, []Dependent{{0, 1}, {1, 1}, {2, 1}}},
		{"a cycle ends", "X1", 0, []Dependent{{5, 1}, {4, 2}}},
		{"nothing reads it", "E1", 0, nil},
	}
	g := chain()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, complete := g.Dependents(cell(tc.target), tc.depth)
			assert.True(t, complete)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestPrecedents(t *testing.T) {
	cases := []struct {
		name, target string
		depth        int
		want         []Precedent
	}{
		{"every level", "D1", 0, []Precedent{{2, 0, 1}, {2, 1, 1}, {1, 0, 2}, {0, 0, 3}}},
		{"two levels", "D1", 2, []Precedent{{2, 0, 1}, {2, 1, 1}, {1, 0, 2}}},
		{"a range holding two formulas", "B1:C1", 1, []Precedent{{0, 0, 1}, {1, 0, 1}}},
		{"a cycle ends", "X1", 0, []Precedent{{4, 0, 1}, {5, 0, 2}}},
		{"no formula there", "A1", 0, nil},
	}
	g := chain()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, complete := g.Precedents(cell(tc.target), tc.depth)
			assert.True(t, complete)
			assert.Equal(t, tc.want, got)
		})
	}
}

func TestDependentsStopAtTheCheckBound(t *testing.T) {
	// n formulas of one reference each, checked against n target cells no
	// formula reads: n*n overlap checks.
	cases := []struct {
		n        int
		complete bool
	}{
		{1999, true},  // 3,996,001 checks
		{2001, false}, // 4,004,001 checks, past maxRefChecks
	}
	for _, tc := range cases {
		t.Run(strconv.Itoa(tc.n), func(t *testing.T) {
			g := New(Workbook{Sheets: []string{"S", "T"}})
			target := make([]cellarea.Area, tc.n)
			for i := range tc.n {
				row := strconv.Itoa(i + 1)
				g.Add("S", "B"+row, "=A"+row)
				target[i] = cellarea.Area{Sheet: "T", C1: 1, R1: i + 1, C2: 1, R2: i + 1}
			}
			got, complete := g.Dependents(target, 0)
			assert.Empty(t, got)
			assert.Equal(t, tc.complete, complete)
		})
	}
}
