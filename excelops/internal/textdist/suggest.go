package textdist

import (
	"fmt"
	"sort"
	"strings"
)

const (
	// MaxSuggestions caps the close matches one error names.
	MaxSuggestions = 3
	// maxNamedSheets caps the sheet names an error lists.
	maxNamedSheets = 50
)

// CloseMatches returns the names among candidates the caller most likely
// meant by name, best first, at most MaxSuggestions: equal ignoring case,
// then within a small edit distance (optimal string alignment, so a swapped
// pair of letters is one edit), or one containing the other.
func CloseMatches(name string, candidates []string) []string {
	type scored struct {
		name string
		dist int
	}
	want := []rune(strings.ToLower(name))
	var found []scored
	for _, c := range candidates {
		if c == name {
			continue
		}
		have := []rune(strings.ToLower(c))
		d := Distance(want, have)
		longest := max(len(want), len(have))
		shorter := min(len(want), len(have))
		switch {
		case d <= max(1, longest/3):
		case shorter >= 3 && (strings.Contains(string(have), string(want)) || strings.Contains(string(want), string(have))):
		default:
			continue
		}
		found = append(found, scored{c, d})
	}
	sort.SliceStable(found, func(i, j int) bool {
		if found[i].dist != found[j].dist {
			return found[i].dist < found[j].dist
		}
		return found[i].name < found[j].name
	})
	out := make([]string, 0, min(len(found), MaxSuggestions))
	for i := 0; i < len(found) && i < MaxSuggestions; i++ {
		out = append(out, found[i].name)
	}
	return out
}

// DidYouMean renders suggestions as a sentence (empty when there are none).
func DidYouMean(suggestions []string) string {
	switch len(suggestions) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(" Did you mean %q?", suggestions[0])
	}
	quoted := make([]string, len(suggestions))
	for i, s := range suggestions {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return " Did you mean one of " + strings.Join(quoted, ", ") + "?"
}

// ListNames joins names for a message, eliding past maxNamedSheets.
func ListNames(names []string) string {
	if len(names) <= maxNamedSheets {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:maxNamedSheets], ", ") + fmt.Sprintf(", ... (%d in all)", len(names))
}
