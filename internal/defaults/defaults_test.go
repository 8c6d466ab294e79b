package defaults

import (
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	"github.com/stretchr/testify/assert"
)

func TestPositive(t *testing.T) {
	cases := []struct {
		name       string
		have, want int64
	}{
		{"zero takes the default", 0, 7},
		{"negative takes the default", -3, 7},
		{"set stays", 2, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			n := tc.have
			Positive(&n, 7)
			assert.Equal(t, tc.want, n)
			i := int(tc.have)
			Positive(&i, 7)
			assert.Equal(t, int(tc.want), i)
			d := time.Duration(tc.have) // named types too
			Positive(&d, 7)
			assert.Equal(t, time.Duration(tc.want), d)
			f := float64(tc.have)
			Positive(&f, 7)
			assert.Equal(t, float64(tc.want), f)
		})
	}
}

func TestText(t *testing.T) {
	cases := []struct{ have, def, want string }{
		{"", "dev", "dev"},
		{"1.2", "dev", "1.2"},
		{" ", "dev", " "}, // only empty is unset
	}
	for _, tc := range cases {
		t.Run(tc.have+"/"+tc.want, func(t *testing.T) {
			s := tc.have
			Text(&s, tc.def)
			assert.Equal(t, tc.want, s)
		})
	}
}

func TestLogger(t *testing.T) {
	var unset logrus.FieldLogger
	Logger(&unset)
	l, ok := unset.(*logrus.Logger)
	if assert.True(t, ok, "an unset logger becomes a logrus Logger") {
		assert.False(t, l.IsLevelEnabled(logrus.ErrorLevel), "it formats nothing")
	}

	own := logrus.New()
	set := logrus.FieldLogger(own)
	Logger(&set)
	assert.Same(t, own, set, "a set logger stays")
}
