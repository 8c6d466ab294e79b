package tools

import (
	"sort"
	"strings"
)

// sortRank orders the kinds of sort keys: numbers, text, booleans.
func sortRank(k scalarKind) int {
	switch k {
	case scalarNum:
		return 0
	case scalarText:
		return 1
	}
	return 2
}

// compareKeys orders two non-blank sort keys: numbers by value, text by
// code point, false before true, kinds in sortRank order.
func compareKeys(a, b scalar) int {
	if ra, rb := sortRank(a.kind), sortRank(b.kind); ra != rb {
		return ra - rb
	}
	switch a.kind {
	case scalarNum:
		switch {
		case a.num < b.num:
			return -1
		case a.num > b.num:
			return 1
		}
		return 0
	case scalarText:
		return strings.Compare(a.text, b.text)
	}
	switch {
	case a.flag == b.flag:
		return 0
	case !a.flag:
		return -1
	}
	return 1
}

// sortKept sorts the kept rows by their key, blanks last in both
// directions, equal keys in sheet order (a stable sort, as pandas'
// kind="stable").
func (fr *filterRun) sortKept(desc bool) {
	sort.SliceStable(fr.kept, func(i, j int) bool {
		a, b := fr.kept[i].key, fr.kept[j].key
		switch {
		case a.kind == scalarNone:
			return false
		case b.kind == scalarNone:
			return true
		}
		c := compareKeys(a, b)
		if desc {
			return c > 0
		}
		return c < 0
	})
}
