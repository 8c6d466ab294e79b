package textdist

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCloseMatches: the names suggested for a mistyped one, best first.
func TestCloseMatches(t *testing.T) {
	sheets := []string{"Data", "Copy", "Summary 2024", "Summary 2023", "Q1", "copy_old"}
	cases := []struct {
		name string
		want []string
	}{
		{"Cpoy", []string{"Copy"}},             // swapped letters: one edit
		{"COPY", []string{"Copy", "copy_old"}}, // case only first, then containing
		{"Summary 2025", []string{"Summary 2023", "Summary 2024"}},
		{"Summary", []string{"Summary 2023", "Summary 2024"}}, // prefix
		{"Q2", []string{"Q1"}},
		{"Revenue", []string{}},
		{"Data", []string{}}, // the name itself is no suggestion
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, CloseMatches(c.name, sheets))
		})
	}
}
