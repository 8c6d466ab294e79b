package rendersafe

import (
	"sort"
	"strconv"
	"strings"
)

// maxShownName is how much of an entry name an error message repeats.
const maxShownName = 120

// omitted is the report: the removals of parts that stay in the copy
// (a removal inside a deleted part is covered by the removal of the
// relationship to it), grouped by part, kind and scheme, sorted.
func (s *sanitizer) omitted() []Omitted {
	// The schemes of the external targets of each part, so that a removed
	// external workbook link says where the workbook was.
	schemes := map[string][]string{}
	for _, f := range s.found {
		if f.scheme != "" {
			key := strings.ToLower(f.source)
			schemes[key] = appendOnce(schemes[key], f.scheme)
		}
	}
	for _, f := range s.found {
		if f.quiet || (f.source != "" && s.gone(f.source)) {
			continue
		}
		target := f.scheme
		if f.target != "" {
			list := schemes[f.target]
			sort.Strings(list)
			target = strings.Join(list, ", ")
		}
		s.report[Omitted{Part: partName(f.source), What: f.what, Target: target}]++
	}
	var out []Omitted
	for o, n := range s.report {
		o.Count = n
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Part != b.Part {
			return a.Part < b.Part
		}
		if a.What != b.What {
			return a.What < b.What
		}
		return a.Target < b.Target
	})
	return out
}

// appendOnce appends v to list unless it is there.
func appendOnce(list []string, v string) []string {
	for _, x := range list {
		if x == v {
			return list
		}
	}
	return append(list, v)
}

// partName names a part in the report ("" is the package itself).
func partName(source string) string {
	if source == "" {
		return packagePart
	}
	return source
}

// shown quotes an entry name for an error message, cut to maxShownName
// bytes (names come from the workbook: anything may be in them).
func shown(name string) string {
	if len(name) > maxShownName {
		name = name[:maxShownName] + "..."
	}
	return strconv.QuoteToASCII(name)
}
