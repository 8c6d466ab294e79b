package vocab

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseColor: hex with or without "#", aRGB (alpha dropped), the
// three-digit short form and the colour names a model uses all become six
// hex digits; anything else is a ValueError saying what is accepted.
func TestParseColor(t *testing.T) {
	for in, want := range map[string]string{
		"FF0000": "FF0000", "#ff0000": "FF0000", " 80FF0000 ": "FF0000", "f00": "FF0000",
		"red": "FF0000", "Grey": "808080",
	} {
		got, err := ParseColor(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, in := range []string{"", "FF00", "GG0000", "ultraviolet", "#FF00001"} {
		_, err := ParseColor(in)
		assert.ErrorIs(t, err, failure.KindInvalidArgument, in)
		assert.ErrorContains(t, err, `use hex like "FF0000" or a name like "red"`, in)
	}
}

// TestBorderStyles: every border style name maps to excelize's id and
// back, case-insensitively; an unknown one lists the accepted names.
func TestBorderStyles(t *testing.T) {
	for id, name := range BorderStyles() {
		got, err := BorderStyleID(name)
		require.NoError(t, err)
		assert.Equal(t, id, got, name)
		assert.Equal(t, name, BorderStyleName(id))
	}
	got, err := BorderStyleID("THICK")
	require.NoError(t, err)
	assert.Equal(t, "thick", BorderStyleName(got))
	_, err = BorderStyleID("wavy")
	assert.ErrorContains(t, err, `invalid border style "wavy": one of none, thin,`)
}
