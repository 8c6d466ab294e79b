package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSpliceFallbackIsErrNoSplice: every fallback matches ErrNoSplice and
// gives its reason back; a bare ErrNoSplice has none to give.
func TestSpliceFallbackIsErrNoSplice(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{NoSplice("the sheet holds a data table formula"), "the sheet holds a data table formula"},
		{errors.Join(errors.New("context"), NoSplice("rows out of order")), "rows out of order"},
		{ErrNoSplice, "unspecified"},
	} {
		assert.ErrorIs(t, c.err, ErrNoSplice)
		assert.Equal(t, c.want, fallbackReason(c.err))
	}
	assert.NotErrorIs(t, errors.New("take the excelize path"), ErrNoSplice)
}

// TestWideReasonNamesNoFormulaText: the reason a formula blocks the
// splice names the kind of reference or function, never the formula's
// own text.
func TestWideReasonNamesNoFormulaText(t *testing.T) {
	for _, c := range []struct{ formula, want string }{
		{`INDIRECT("Secret!A1")`, "x calls a volatile function"},
		{"SUM(Budget[Amount])", "x holds a structured reference"},
		{"TaxRate*2", "x reads a defined name"},
		{"[1]Prices!A1", "x reads another workbook"},
		{"SUM(Jan:Dec!B2)", "x holds a 3-D reference"},
	} {
		got := WideReason(c.formula, "x")
		assert.Equal(t, c.want, got, c.formula)
		for _, word := range strings.FieldsFunc(c.formula, func(r rune) bool { return !('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z') }) {
			if len(word) > 3 {
				assert.NotContains(t, got, word, c.formula)
			}
		}
	}
}
