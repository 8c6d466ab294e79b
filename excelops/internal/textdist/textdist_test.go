package textdist

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"abc", "", 3},
		{"same", "same", 0},
		{"ab", "ba", 1},  // one swap is one edit
		{"abc", "ca", 3}, // optimal string alignment: no edit of a swapped pair
		{"kitten", "sitting", 3},
		{"Sheet1", "Sheet2", 1},
		{"SUM", "SUMIF", 2},
		{"VLOKUP", "VLOOKUP", 1},
		{"é", "é", 0},
		{"销售", "销量", 1}, // runes, not bytes
		{"Summary", "Sumamry", 1},
	}
	for _, tc := range cases {
		t.Run(tc.a+"/"+tc.b, func(t *testing.T) {
			assert.Equal(t, tc.want, Distance([]rune(tc.a), []rune(tc.b)))
			assert.Equal(t, tc.want, Distance([]rune(tc.b), []rune(tc.a)), "symmetric")
		})
	}
}

func TestWithin(t *testing.T) {
	cases := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"kitten", "sitting", 3, 3},
		{"kitten", "sitting", 2, 3},  // limit+1 once past the limit
		{"kitten", "sitting", 10, 3}, // a generous limit changes nothing
		{"a", "abcdef", 2, 3},        // the length gap alone decides
		{"abcdef", "a", 2, 3},
		{"SUMM", "SUM", 2, 1},
		{"ABC", "XYZ", 0, 1},
		{"ABC", "ABC", 0, 0},
	}
	for _, tc := range cases {
		t.Run(tc.a+"/"+tc.b, func(t *testing.T) {
			assert.Equal(t, tc.want, Within([]byte(tc.a), []byte(tc.b), tc.limit))
		})
	}
}

// reference is the optimal string alignment distance from its full table,
// written for clarity, not speed.
func reference(a, b []rune) int {
	d := make([][]int, len(a)+1)
	for i := range d {
		d[i] = make([]int, len(b)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(a); i++ {
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(a)][len(b)]
}

func FuzzWithin(f *testing.F) {
	f.Add("kitten", "sitting", 2)
	f.Add("ab", "ba", 0)
	f.Add("销售", "销量", 1)
	f.Add("", "abc", -1)
	f.Fuzz(func(t *testing.T, a, b string, limit int) {
		if !utf8.ValidString(a) || !utf8.ValidString(b) || len(a) > 64 || len(b) > 64 {
			t.Skip()
		}
		limit = max(limit%80, 0)
		ra, rb := []rune(a), []rune(b)
		want := reference(ra, rb)
		if got := Distance(ra, rb); got != want {
			t.Fatalf("Distance(%q, %q) = %d, want %d", a, b, got, want)
		}
		if got := Within(ra, rb, limit); got != min(want, limit+1) {
			t.Fatalf("Within(%q, %q, %d) = %d, want %d", a, b, limit, got, min(want, limit+1))
		}
	})
}
