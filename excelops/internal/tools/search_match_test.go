package tools

import (
	"errors"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTextMatcher(t *testing.T) {
	cases := []struct {
		name, query, mode string
		caseSensitive     bool
		cell              string
		want              bool
	}{
		{"contains folds case", "ALP", "contains", false, "xalpha", true},
		{"contains case-sensitive", "ALP", "contains", true, "xalpha", false},
		{"default mode is contains", "pha", "", false, "alpha", true},
		{"exact", "alpha", "exact", false, "ALPHA", true},
		{"exact whole cell", "alpha", "exact", false, "alpha 1", false},
		{"startswith", "al", "startswith", false, "Alpha", true},
		{"startswith not inside", "ph", "startswith", false, "alpha", false},
		{"regex", `^a.*\d$`, "regex", false, "Alpha 7", true},
		{"regex case-sensitive", `^a`, "regex", true, "Alpha", false},
		{"fuzzy every token", "beta 3", "fuzzy", false, "Beta max 3", true},
		{"fuzzy missing token", "beta 4", "fuzzy", false, "Beta max 3", false},
		{"fuzzy chinese numeral", "电子一班", "fuzzy", false, "24级电子信息1班", true},
		{"fuzzy punctuation only falls back to contains", "--", "fuzzy", false, "a--b", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := newTextMatcher(c.query, c.mode, c.caseSensitive)
			require.NoError(t, err)
			assert.Equal(t, c.want, m(c.cell))
		})
	}
}

func TestTextMatcherRefused(t *testing.T) {
	for _, c := range []struct{ query, mode string }{{"(", "regex"}, {"a", "glob"}} {
		_, err := newTextMatcher(c.query, c.mode, false)
		var e *failure.Error
		require.True(t, errors.As(err, &e), c)
		assert.Equal(t, failure.KindInvalidArgument, e.Kind)
	}
}

func TestCellTextAsPython(t *testing.T) {
	cases := []struct {
		v    any
		want string
	}{
		{int64(5), "5"}, {2.5, "2.5"}, {100.0, "100.0"}, {1e-05, "1e-05"}, {1.5e16, "1.5e+16"},
		{0.30000000000000004, "0.30000000000000004"}, {true, "True"}, {false, "False"}, {"#N/A", "#N/A"}, {nil, ""},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, cellText(c.v), "%v", c.v)
	}
}
