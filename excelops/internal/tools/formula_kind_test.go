package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestComplexFunctionsAnswerText: the complex-number functions answer text
// even when it looks like a number, as Excel and LibreOffice show it (found by
// the LibreOffice formula corpus, tests/oracle/formula_corpus.py); the ones
// that answer a part or the modulus answer numbers.
func TestComplexFunctionsAnswerText(t *testing.T) {
	e := newEnv(t)
	e.ok("write_cells", map[string]any{"file_path": "c.xlsx", "cell_range": "A1", "values": [][]any{
		{"=IMSQRT(12)", "=IMPOWER(12,3)", "=IMCONJUGATE(\"7\")", "=IMSUM(2,3)", "=IMABS(\"3+4i\")", "=IMREAL(\"3+4i\")"},
	}})
	got := e.ok("read_excel", map[string]any{"file_path": "c.xlsx", "range": "A1:F1"})
	assert.Equal(t, []any{[]any{"3.46410161513775", "1728", "7", "5", float64(5), float64(3)}}, got["values"])
}
