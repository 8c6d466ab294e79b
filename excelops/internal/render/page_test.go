package render

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPageScale: a range that fits one A4 page is enlarged, up to MaxZoom;
// one that does not is shrunk onto the page.
func TestPageScale(t *testing.T) {
	cases := []struct {
		name       string
		w, h       float64
		landscape  bool
		minP, maxP uint // the percent lies in [minP, maxP]
		fit        bool
	}{
		{"a few cells are enlarged to the cap", 150, 60, true, MaxZoom, MaxZoom, false},
		{"half a page is enlarged less", 500, 300, true, 101, MaxZoom - 1, false},
		{"too wide for the page is shrunk", 2000, 300, true, 100, 100, true},
		{"too tall for the page is shrunk", 200, 3000, false, 100, 100, true},
		{"nothing measured keeps 100%", 0, 0, false, 100, 100, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			percent, fit := PageScale(c.w, c.h, c.landscape)
			assert.Equal(t, c.fit, fit)
			assert.GreaterOrEqual(t, percent, c.minP)
			assert.LessOrEqual(t, percent, c.maxP)
		})
	}
}
