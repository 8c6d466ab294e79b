package engine

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFitWidth(t *testing.T) {
	cases := []struct {
		chars int
		want  float64
	}{
		{8, 8.7109375},   // fits the default 9.140625
		{10, 10.7109375}, // 2024-01-31
		{19, 19.7109375}, // 2024-01-31 13:45:30
	}
	for _, c := range cases {
		assert.Equal(t, c.want, fitWidth(c.chars), "%d characters", c.chars)
	}
	assert.Greater(t, DefaultColWidth, fitWidth(8), "eight characters fit the default column")
	assert.Less(t, DefaultColWidth, fitWidth(9), "nine do not")
}
