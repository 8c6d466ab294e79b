package vocab

import (
	"slices"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// NormalizeColors rewrites the colors of a style read back with excelize's
// GetStyle so that NewStyle stores them as they were. GetStyle hands an
// aRGB color another program wrote ("00FFFF00": openpyxl writes alpha 00)
// back with its alpha, and NewStyle prefixes "FF" to whatever it gets, so
// the round trip stored "FF00FFFF00", which openpyxl refuses to load
// ("Colors must be aRGB hex values"). The alpha is dropped (Excel ignores
// it for cell formats; the color is stored as "FF" + RGB). The slices are
// copied, so base styles are left as they were.
func NormalizeColors(st *excelize.Style) {
	if st.Font != nil && isARGB(st.Font.Color) {
		f := *st.Font
		f.Color = f.Color[2:]
		st.Font = &f
	}
	if slices.ContainsFunc(st.Fill.Color, isARGB) {
		st.Fill.Color = slices.Clone(st.Fill.Color)
		for i, c := range st.Fill.Color {
			if isARGB(c) {
				st.Fill.Color[i] = c[2:]
			}
		}
	}
	if slices.ContainsFunc(st.Border, func(b excelize.Border) bool { return isARGB(b.Color) }) {
		st.Border = slices.Clone(st.Border)
		for i, b := range st.Border {
			if isARGB(b.Color) {
				st.Border[i].Color = b.Color[2:]
			}
		}
	}
}

// isARGB reports an 8-digit hex color (alpha first).
func isARGB(c string) bool {
	if len(c) != 8 {
		return false
	}
	for i := 0; i < len(c); i++ {
		if !(c[i] >= '0' && c[i] <= '9' || c[i] >= 'a' && c[i] <= 'f' || c[i] >= 'A' && c[i] <= 'F') {
			return false
		}
	}
	return true
}
