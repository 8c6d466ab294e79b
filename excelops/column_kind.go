package excelops

// kindCount is how many values of one kind a column holds, and the kind's
// name in a tool's answer.
type kindCount struct {
	n    int
	name string
}

// columnKind names a column's values: the one kind it holds, "mixed" when
// it holds several, "empty" when none.
func columnKind(counts ...kindCount) string {
	kinds, name := 0, "empty"
	for _, k := range counts {
		if k.n > 0 {
			kinds++
			name = k.name
		}
	}
	if kinds > 1 {
		return "mixed"
	}
	return name
}
