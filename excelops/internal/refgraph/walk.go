package refgraph

import "github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"

// maxRefChecks bounds the overlap checks one walk of the graph makes; past
// it the walk stops and says it is incomplete.
const maxRefChecks = 4_000_000

// Dependent is one formula reached by a walk of dependents.
type Dependent struct {
	Node  int // index into Graph.Nodes
	Depth int // 1: it reads the target itself
}

// Precedent is one reference reached by a walk of precedents: the
// reference Ref (index into Refs) of the formula Node, at its depth.
type Precedent struct {
	Node, Ref, Depth int
}

// Dependents walks from the cells of target to the formulas reading them,
// then to the formulas reading those, up to depth levels (0: no limit).
// Each formula is listed once, at the first depth it is reached, in the
// order found. complete is false when the walk ran out of checks.
func (g *Graph) Dependents(target []cellarea.Area, depth int) (steps []Dependent, complete bool) {
	seen := make([]bool, len(g.Nodes))
	frontier := target
	checks := 0
	for level := 1; len(frontier) > 0 && (depth == 0 || level <= depth); level++ {
		var next []cellarea.Area
		for i, n := range g.Nodes {
			if seen[i] {
				continue
			}
			if reads(n, frontier, &checks) {
				seen[i] = true
				steps = append(steps, Dependent{i, level})
				next = append(next, n.At)
			}
			if checks > maxRefChecks {
				return steps, false
			}
		}
		frontier = next
	}
	return steps, true
}

// reads reports whether node n reads a cell of any area of frontier.
func reads(n Node, frontier []cellarea.Area, checks *int) bool {
	for _, r := range n.Refs {
		for _, a := range r.Areas {
			for _, f := range frontier {
				if *checks++; a.Overlaps(f) {
					return true
				}
			}
		}
	}
	return false
}

// Precedents walks from the formulas inside target to the references they
// hold, then to the references of the formulas those read, up to depth
// levels (0: no limit). Each formula's references are listed once, at the
// first depth the formula is reached. complete is false when the walk ran
// out of checks.
func (g *Graph) Precedents(target []cellarea.Area, depth int) (steps []Precedent, complete bool) {
	seen := make([]bool, len(g.Nodes))
	frontier := target
	checks := 0
	for level := 1; len(frontier) > 0 && (depth == 0 || level <= depth); level++ {
		var next []cellarea.Area
		for i, n := range g.Nodes {
			if seen[i] {
				continue
			}
			hit := false
			for _, f := range frontier {
				if checks++; n.At.Overlaps(f) {
					hit = true
					break
				}
			}
			if !hit {
				continue
			}
			seen[i] = true
			for j, r := range n.Refs {
				steps = append(steps, Precedent{i, j, level})
				next = append(next, r.Areas...)
			}
			if checks > maxRefChecks {
				return steps, false
			}
		}
		frontier = next
	}
	return steps, true
}
