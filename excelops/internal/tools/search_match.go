package tools

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"unicode"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// The matching of search_excel_values. A cell is matched by its text as
// Python's str() writes the value openpyxl reads (excelmanus's reference):
// numbers as 5 or 2.5 or 1e-05, booleans True and False, error values as
// #N/A; dates by their ISO-8601 text (2024-01-31T00:00:00), as every tool
// returns them.

// matchModes lists search_excel_values' match modes.
func matchModes() []string { return []string{"contains", "exact", "regex", "startswith", "fuzzy"} }

// textMatcher reports whether a cell's text matches the query.
type textMatcher func(cell string) bool

// fuzzyToken splits a fuzzy query into runs of Han characters, of other
// letters and of digits.
var fuzzyToken = regexp.MustCompile(`\p{Han}+|[^\p{Han}\p{N}\s\p{P}\p{S}]+|\p{N}+`)

// hanDigits are the Chinese numerals a fuzzy token may also match as digits.
var hanDigits = strings.NewReplacer("一", "1", "二", "2", "三", "3", "四", "4", "五", "5", "六", "6", "七", "7", "八", "8", "九", "9", "十", "10")

// newTextMatcher compiles the query for a match mode.
func newTextMatcher(query, mode string, caseSensitive bool) (textMatcher, error) {
	fold := func(s string) string { return s }
	if !caseSensitive {
		fold = strings.ToLower
	}
	q := fold(query)
	switch mode {
	case "", "contains":
		return func(c string) bool { return strings.Contains(fold(c), q) }, nil
	case "exact":
		return func(c string) bool { return fold(c) == q }, nil
	case "startswith":
		return func(c string) bool { return strings.HasPrefix(fold(c), q) }, nil
	case "regex":
		expr := query
		if !caseSensitive {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			return nil, failure.Invalid("query is not a valid regular expression (RE2 syntax): %v", err)
		}
		return re.MatchString, nil
	case "fuzzy":
		var groups [][]string
		for _, tok := range fuzzyTokens(query) {
			g := []string{fold(tok)}
			if alt := hanDigits.Replace(tok); alt != tok {
				g = append(g, fold(alt))
			}
			groups = append(groups, g)
		}
		if len(groups) == 0 {
			return func(c string) bool { return strings.Contains(fold(c), q) }, nil
		}
		return func(c string) bool {
			c = fold(c)
			for _, g := range groups {
				hit := false
				for _, v := range g {
					if strings.Contains(c, v) {
						hit = true
						break
					}
				}
				if !hit {
					return false
				}
			}
			return true
		}, nil
	}
	return nil, failure.Invalid("match_mode must be one of %s", strings.Join(matchModes(), ", "))
}

// cellText is the text a cell is matched by ("" for a blank).
func cellText(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case int64:
		return strconv.FormatInt(t, 10)
	case float64:
		return pyFloat(t)
	case bool:
		if t {
			return "True"
		}
		return "False"
	}
	return ""
}

// pyFloat writes a float as Python's repr does: the shortest digits that
// read back the same, an exponent from 1e16 up and below 1e-4, ".0" on
// whole numbers.
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	a := math.Abs(f)
	if a >= 1e16 || (a != 0 && a < 1e-4) {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		return s
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".") {
		s += ".0"
	}
	return s
}

// fuzzyTokens splits a fuzzy query into its tokens; a run of Han characters
// is also split where Chinese numerals start and end ("电子一班": 电子, 一, 班).
func fuzzyTokens(query string) []string {
	var out []string
	for _, tok := range fuzzyToken.FindAllString(query, -1) {
		start, prev := 0, -1
		for i, r := range tok {
			num := strings.ContainsRune("一二三四五六七八九十", r)
			cur := 0
			if num {
				cur = 1
			}
			if prev >= 0 && cur != prev && unicode.Is(unicode.Han, r) {
				out = append(out, tok[start:i])
				start = i
			}
			prev = cur
		}
		out = append(out, tok[start:])
	}
	return out
}
