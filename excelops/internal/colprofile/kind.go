package colprofile

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// KindCount is how many values of one kind a column holds, and the kind's
// name in a tool's answer.
type KindCount struct {
	// N is how many values of the kind the column holds.
	N int
	// Name is the kind's name ("number", "text", ...).
	Name string
}

// ColumnKind names a column's values: the one kind it holds, "mixed" when
// it holds several, "empty" when none.
func ColumnKind(counts ...KindCount) string {
	kinds, name := 0, "empty"
	for _, k := range counts {
		if k.N > 0 {
			kinds++
			name = k.Name
		}
	}
	if kinds > 1 {
		return "mixed"
	}
	return name
}

// columnName renders a column number as letters ("A", "AB").
func columnName(col int) string {
	n, _ := excelize.ColumnNumberToName(col)
	return n
}
