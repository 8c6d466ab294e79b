package recalc

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/stretchr/testify/assert"
)

// TestSpillOrder: an anchor spills again after the anchors whose spill it
// reads, through a chain; anchors reading each other in a cycle, and
// anchors reading none, keep their order.
func TestSpillOrder(t *testing.T) {
	spill := func(col int) cellarea.Area { return cellarea.Area{Sheet: "S", C1: col, R1: 1, C2: col, R2: 3} }
	reader := func(col int, reads ...int) DepCell {
		c := DepCell{At: cellarea.Area{Sheet: "S", C1: col, R1: 1, C2: col, R2: 1}}
		for _, r := range reads {
			c.Deps = append(c.Deps, cellarea.Area{Sheet: "S", C1: r, R1: 2, C2: r, R2: 2}) // a cell of r's spill, not its anchor
		}
		return c
	}
	for _, c := range []struct {
		name  string
		cells []DepCell
		want  []int
	}{
		{"none reads another", []DepCell{reader(1), reader(2), reader(3)}, []int{0, 1, 2}},
		{"the first reads the last", []DepCell{reader(1, 3), reader(2), reader(3)}, []int{1, 2, 0}},
		{"a chain", []DepCell{reader(1, 2), reader(2, 3), reader(3)}, []int{2, 1, 0}},
		{"a cycle", []DepCell{reader(1, 2), reader(2, 1), reader(3)}, []int{2, 0, 1}},
		{"another sheet's cells", []DepCell{{At: cellarea.Area{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}, Deps: []cellarea.Area{{Sheet: "T", C1: 3, R1: 2, C2: 3, R2: 2}}}, reader(2), reader(3)}, []int{0, 1, 2}},
	} {
		spills := []cellarea.Area{spill(1), spill(2), spill(3)}
		assert.Equal(t, c.want, SpillOrder([]int{0, 1, 2}, c.cells, spills), c.name)
	}
}
