package formularef

import "strings"

// SheetsReferenced returns the sheets the references of formula name
// explicitly (both ends of a 3-D span; external workbook references are
// left out), each once, in the order they first appear, compared ignoring
// case. A formula efp cannot tokenize yields none.
func SheetsReferenced(formula string) []string {
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if s != "" && !seen[strings.ToLower(s)] {
			seen[strings.ToLower(s)] = true
			out = append(out, s)
		}
	}
	rewrite(formula, func(r *reference) bool {
		if r.hasSheet && r.book == "" {
			add(r.sheet1)
			add(r.sheet2)
		}
		return false
	})
	return out
}
