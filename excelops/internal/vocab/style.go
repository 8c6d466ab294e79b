package vocab

import (
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// namedColor maps the colour names a model tends to use to RGB hex.
func namedColor(name string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(name)) {
	case "red":
		return "FF0000", true
	case "green":
		return "00B050", true
	case "blue":
		return "0000FF", true
	case "yellow":
		return "FFFF00", true
	case "white":
		return "FFFFFF", true
	case "black":
		return "000000", true
	case "orange":
		return "FFC000", true
	case "purple":
		return "7030A0", true
	case "gray", "grey":
		return "808080", true
	case "lightgray", "lightgrey":
		return "D3D3D3", true
	case "lightblue":
		return "ADD8E6", true
	case "lightgreen":
		return "90EE90", true
	case "darkblue":
		return "00008B", true
	case "darkred":
		return "8B0000", true
	}
	return "", false
}

// ParseColor accepts "#RRGGBB", "RRGGBB", "AARRGGBB", the short "RGB"
// (each digit doubled, as in CSS) or a colour name and returns "RRGGBB"
// (alpha dropped).
func ParseColor(c string) (string, error) {
	if hex, ok := namedColor(c); ok {
		return hex, nil
	}
	h := strings.ToUpper(strings.TrimPrefix(strings.TrimSpace(c), "#"))
	switch len(h) {
	case 8:
		h = h[2:]
	case 3:
		h = string([]byte{h[0], h[0], h[1], h[1], h[2], h[2]})
	}
	if len(h) != 6 || strings.Trim(h, "0123456789ABCDEF") != "" {
		return "", failure.Invalid("invalid colour %q: use hex like \"FF0000\" or a name like \"red\"", c)
	}
	return h, nil
}

// BorderStyleID maps openpyxl border style names to excelize's ids.
func BorderStyleID(name string) (int, error) {
	names := BorderStyles()
	for i, n := range names {
		if strings.EqualFold(n, name) {
			return i, nil
		}
	}
	return 0, failure.Invalid("invalid border style %q: one of %s", name, strings.Join(names, ", "))
}

// BorderStyleName is the inverse of borderStyleID.
func BorderStyleName(id int) string {
	names := BorderStyles()
	if id >= 0 && id < len(names) {
		return names[id]
	}
	return fmt.Sprint(id)
}

// StyleChange is a parsed format_cells request, applied on top of a
// cell's existing style so unspecified attributes survive (as in openpyxl,
// where setting the fill keeps the font).
type StyleChange struct {
	font         *FontSpec
	fill         string
	borders      map[string]excelize.Border
	align        *AlignSpec
	numberFormat *NumberFormat
}

// ParseStyleChange validates format_cells' style arguments.
func ParseStyleChange(font *FontSpec, fill *FillSpec, border *BorderSpec, align *AlignSpec, numFmt *NumberFormat) (*StyleChange, error) {
	sc := &StyleChange{font: font, align: align, numberFormat: numFmt}
	if font != nil && font.Color != nil {
		c, err := font.Color.Hex()
		if err != nil {
			return nil, err
		}
		copied, hex := *font, ColorValue(c)
		copied.Color = &hex
		sc.font = &copied
	}
	if fill != nil {
		c, err := fill.Color.Hex()
		if err != nil {
			return nil, err
		}
		sc.fill = c
	}
	if border != nil {
		sc.borders = map[string]excelize.Border{}
		base := borderSide{Style: border.Style, Color: border.Color}
		sides := map[string]*borderSide{"left": border.Left, "right": border.Right, "top": border.Top, "bottom": border.Bottom}
		for _, side := range []string{"left", "right", "top", "bottom"} {
			spec := base
			if o := sides[side]; o != nil {
				spec = *o
			}
			if spec.Style == "" {
				continue
			}
			id, err := BorderStyleID(spec.Style)
			if err != nil {
				return nil, err
			}
			color := "000000"
			if spec.Color != "" {
				if color, err = spec.Color.Hex(); err != nil {
					return nil, err
				}
			}
			sc.borders[side] = excelize.Border{Type: side, Color: color, Style: id}
		}
	}
	if align != nil {
		if align.Horizontal != nil && !OneOf(*align.Horizontal, HorizontalAlignments()...) {
			return nil, failure.Invalid("invalid horizontal alignment %q: one of %s", *align.Horizontal, strings.Join(HorizontalAlignments(), ", "))
		}
		if align.Vertical != nil && !OneOf(*align.Vertical, VerticalAlignments()...) {
			return nil, failure.Invalid("invalid vertical alignment %q: one of %s", *align.Vertical, strings.Join(VerticalAlignments(), ", "))
		}
	}
	return sc, nil
}

// OneOf reports whether s equals one of options.
func OneOf(s string, options ...string) bool {
	for _, o := range options {
		if s == o {
			return true
		}
	}
	return false
}

// overlay sets *dst to *src when src is given (a field the change names).
func overlay[T any](dst *T, src *T) {
	if src != nil {
		*dst = *src
	}
}

// Apply returns base with the change laid over it.
func (sc *StyleChange) Apply(base *excelize.Style) *excelize.Style {
	st := *base
	if sc.font != nil {
		f := excelize.Font{}
		if base.Font != nil {
			f = *base.Font
		}
		overlay(&f.Family, sc.font.Name)
		overlay(&f.Size, sc.font.Size)
		overlay(&f.Bold, sc.font.Bold)
		overlay(&f.Italic, sc.font.Italic)
		overlay(&f.Underline, sc.font.Underline)
		overlay(&f.Strike, sc.font.Strike)
		if sc.font.Color != nil {
			f.Color, f.ColorTheme, f.ColorIndexed = string(*sc.font.Color), nil, 0
		}
		st.Font = &f
	}
	if sc.fill != "" {
		st.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{sc.fill}}
	}
	if sc.borders != nil {
		var out []excelize.Border
		for _, b := range base.Border {
			if _, replaced := sc.borders[b.Type]; !replaced {
				out = append(out, b)
			}
		}
		for _, side := range []string{"left", "right", "top", "bottom"} {
			if b, ok := sc.borders[side]; ok {
				out = append(out, b)
			}
		}
		st.Border = out
	}
	if sc.align != nil {
		a := excelize.Alignment{}
		if base.Alignment != nil {
			a = *base.Alignment
		}
		overlay(&a.Horizontal, sc.align.Horizontal)
		overlay(&a.Vertical, sc.align.Vertical)
		overlay(&a.WrapText, sc.align.WrapText)
		overlay(&a.TextRotation, sc.align.TextRotation)
		overlay(&a.Indent, sc.align.Indent)
		overlay(&a.ShrinkToFit, sc.align.ShrinkToFit)
		st.Alignment = &a
	}
	if sc.numberFormat != nil {
		nf := string(*sc.numberFormat)
		st.CustomNumFmt, st.NumFmt = &nf, 0
		if nf == "General" {
			st.CustomNumFmt = nil
		}
	}
	NormalizeColors(&st)
	return &st
}
