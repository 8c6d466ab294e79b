package excelops

// maxRefChecks bounds the overlap checks one walk of the reference graph
// makes; past it the walk stops and says it is incomplete.
const maxRefChecks = 4_000_000

// refStep is one formula reached by a walk, at its depth (1: direct).
type refStep struct {
	node  int // index into refGraph.nodes
	depth int
}

// precedentStep is one reference reached by a walk of precedents: the
// reference ref of the formula node, at its depth.
type precedentStep struct {
	node, ref, depth int
}

// dependents walks from the cells of target to the formulas reading them,
// then to the formulas reading those, up to depth levels (0: no limit).
// Each formula is listed once, at the first depth it is reached, in the
// order found. complete is false when the walk ran out of checks.
func (g *refGraph) dependents(target []sheetArea, depth int) (steps []refStep, complete bool) {
	seen := make([]bool, len(g.nodes))
	frontier := target
	checks := 0
	for level := 1; len(frontier) > 0 && (depth == 0 || level <= depth); level++ {
		var next []sheetArea
		for i, n := range g.nodes {
			if seen[i] {
				continue
			}
			if g.reads(n, frontier, &checks) {
				seen[i] = true
				steps = append(steps, refStep{i, level})
				next = append(next, n.at)
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
func (g *refGraph) reads(n refNode, frontier []sheetArea, checks *int) bool {
	for _, r := range n.refs {
		for _, a := range r.areas {
			for _, f := range frontier {
				if *checks++; a.Overlaps(f) {
					return true
				}
			}
		}
	}
	return false
}

// precedents walks from the formulas inside target to the references they
// hold, then to the references of the formulas those read, up to depth
// levels. Each formula's references are listed once, at the first depth
// the formula is reached.
func (g *refGraph) precedents(target []sheetArea, depth int) (steps []precedentStep, complete bool) {
	seen := make([]bool, len(g.nodes))
	frontier := target
	checks := 0
	for level := 1; len(frontier) > 0 && (depth == 0 || level <= depth); level++ {
		var next []sheetArea
		for i, n := range g.nodes {
			if seen[i] {
				continue
			}
			hit := false
			for _, f := range frontier {
				if checks++; n.at.Overlaps(f) {
					hit = true
					break
				}
			}
			if !hit {
				continue
			}
			seen[i] = true
			for j, r := range n.refs {
				steps = append(steps, precedentStep{i, j, level})
				next = append(next, r.areas...)
			}
			if checks > maxRefChecks {
				return steps, false
			}
		}
		frontier = next
	}
	return steps, true
}
