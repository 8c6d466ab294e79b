// Package textdist measures how far apart two names are, for the
// did-you-mean suggestions of the spreadsheet tools: the optimal string
// alignment distance, where inserting, deleting or substituting one
// element, or swapping two adjacent ones, each costs one edit. CloseMatches
// picks the names a caller most likely meant and DidYouMean says them:
//
//	msg := "no sheet " + name + "." + textdist.DidYouMean(textdist.CloseMatches(name, sheets))
package textdist

// Distance is the optimal string alignment distance between a and b.
// Compare runes for text a person reads ([]rune(s)); bytes compare alike
// for ASCII names.
func Distance[E comparable](a, b []E) int {
	// No alignment costs more than the longer length: the limit never cuts.
	return Within(a, b, max(len(a), len(b)))
}

// Within is Distance when it is at most limit, and limit+1 otherwise; it
// stops as soon as the distance must exceed limit, so comparing a name
// with a long list of far-away candidates stays cheap.
func Within[E comparable](a, b []E, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	// Three rolling rows: two back (for transpositions), previous, current.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		best := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
			best = min(best, cur[j])
		}
		// A row's least value never falls in the rows below it (a
		// transposition from two rows up passes through the row between).
		if best > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return min(prev[len(b)], limit+1)
}
