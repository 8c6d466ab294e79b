package engine

import (
	"path/filepath"
	"sort"
	"strings"
	"unicode"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/textdist"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
)

// The typo guard: a write that would create a missing workbook is refused
// when a workbook beside it has a name the caller most likely meant (see
// sandbox.refuseLikelyTypo). Agents name files in series all the time
// (report_q1/report_q2, sales_2024/sales_2025, plan_a/plan_b, copy (2)), so
// the guard is narrower than the did-you-mean suggestions of closeMatches:
// it fires only on a slip of the keyboard in a word long enough to tell.

const (
	// minTypoStem is the shortest stem (name without extension, in runes)
	// the guard considers: "c.xlsx" beside "r.xlsx" is no typo to guess.
	minTypoStem = 4
	// minTypoWord is the shortest word in which one added, missing or
	// swapped letter counts as a typo ("repotr" for "report"); a differing
	// shorter word is a variant ("jan"/"jun", "old"/"new").
	minTypoWord = 4
	// minSubstitutionWord is the shortest word in which one replaced
	// letter counts as a typo; shorter words differing by one letter are
	// usually other words ("east"/"west", "data"/"date").
	minSubstitutionWord = 6
	// minTwoEditWord is the shortest word in which two edits still count
	// as a typo ("quartrely" for "quarterly" with another slip).
	minTwoEditWord = 8
)

// likelyTypo reports whether a caller asking for the workbook want, which
// does not exist, most likely meant the existing workbook have. Case-only
// differences are typos; names whose digits differ (q1/q2, 2024/2025, v1/v2,
// "copy (2)") never are, nor names with a stem under minTypoStem runes, nor
// names that differ by a whole word. Otherwise exactly one word may differ,
// by one added, missing or swapped letter (minTypoWord), one replaced letter
// keeping the first (minSubstitutionWord), or two edits (minTwoEditWord);
// names that differ only in separators ("sales_report"/"sales report") are
// typos too.
func likelyTypo(want, have string) bool {
	if want == have {
		return false
	}
	a, b := []rune(strings.ToLower(stem(want))), []rune(strings.ToLower(stem(have)))
	if len(a) < minTypoStem || len(b) < minTypoStem {
		return false
	}
	if string(a) == string(b) {
		return true // case (or extension) only
	}
	if digitsOf(a) != digitsOf(b) {
		return false
	}
	wa, wb := words(a), words(b)
	if strings.Join(wa, "") == strings.Join(wb, "") {
		return true // separators only
	}
	if len(wa) != len(wb) {
		return false
	}
	differ := -1
	for i := range wa {
		if wa[i] != wb[i] {
			if differ >= 0 {
				return false // two words differ: a different name
			}
			differ = i
		}
	}
	return wordTypo([]rune(wa[differ]), []rune(wb[differ]))
}

// wordTypo reports whether x and y, two different words, are one slip of
// the keyboard apart (see likelyTypo).
func wordTypo(x, y []rune) bool {
	shorter := min(len(x), len(y))
	if shorter < minTypoWord {
		return false
	}
	switch d := textdist.Distance(x, y); {
	case d == 1 && len(x) == len(y) && !isTransposition(x, y):
		return shorter >= minSubstitutionWord && x[0] == y[0]
	case d == 1:
		return true
	case d == 2:
		return shorter >= minTwoEditWord && x[0] == y[0]
	}
	return false
}

// isTransposition reports whether x and y (same length) differ by one swap
// of adjacent runes.
func isTransposition(x, y []rune) bool {
	for i := 0; i+1 < len(x); i++ {
		if x[i] != y[i] {
			return x[i] == y[i+1] && x[i+1] == y[i] && string(x[i+2:]) == string(y[i+2:])
		}
	}
	return false
}

// stem is a file name without its folder and extension.
func stem(name string) string {
	base := filepath.Base(name)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// digitsOf is the digits of s in order, each run ended by a separator, so
// "q1_2" and "q12" differ.
func digitsOf(s []rune) string {
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case unicode.IsDigit(r):
			b.WriteRune(r)
			in = true
		case in:
			b.WriteByte('|')
			in = false
		}
	}
	return b.String()
}

// words splits s into its runs of letters (digits, spaces and punctuation
// separate them).
func words(s []rune) []string {
	return strings.FieldsFunc(string(s), func(r rune) bool { return !unicode.IsLetter(r) })
}

// typoCandidates returns the workbooks beside path that the caller of a
// write creating path most likely meant (likelyTypo), best first, at most
// textdist.MaxSuggestions. It reads at most maxListedFiles entries of the folder and
// never follows anything.
func typoCandidates(s *workspace.Root, path string) []string {
	dir, base := filepath.Split(path)
	entries, _ := s.ReadDir(filepath.Clean(dir), maxListedFiles)
	var names []string
	for _, e := range entries {
		if e.IsDir() || CheckExtension(e.Name()) != nil || !likelyTypo(base, e.Name()) {
			continue
		}
		names = append(names, e.Name())
	}
	want := []rune(strings.ToLower(base))
	dist := func(n string) int { return textdist.Distance(want, []rune(strings.ToLower(n))) }
	sort.SliceStable(names, func(i, j int) bool {
		if di, dj := dist(names[i]), dist(names[j]); di != dj {
			return di < dj
		}
		return names[i] < names[j]
	})
	return names[:min(len(names), textdist.MaxSuggestions)]
}
