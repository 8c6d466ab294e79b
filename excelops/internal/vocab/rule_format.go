package vocab

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// RuleFormat is the differential style of a cell_is or formula rule: the
// same font, fill, border and number_format shapes as format_cells, and
// the flat keys the tool shipped with (font_color, fill_color, bold,
// italic) kept as aliases of font.color, fill.color, font.bold and
// font.italic.
type RuleFormat struct {
	Font         *FontSpec     `json:"font,omitempty" jsonschema:"Font of matching cells, as format_cells' font (name and size are not allowed in a rule)"`
	Fill         *FillSpec     `json:"fill,omitempty" jsonschema:"Solid fill of matching cells, as format_cells' fill"`
	Border       *BorderSpec   `json:"border,omitempty" jsonschema:"Borders of matching cells, as format_cells' border"`
	NumberFormat *NumberFormat `json:"number_format,omitempty" jsonschema:"Number format of matching cells: ${numberFormatHelp}"`
	FontColor    *ColorValue   `json:"font_color,omitempty" jsonschema:"Text colour; alias of font.color (older form), both may be given only if equal${colorHelp}"`
	FillColor    *ColorValue   `json:"fill_color,omitempty" jsonschema:"Fill colour; alias of fill.color (older form), both may be given only if equal${colorHelp}"`
	Bold         *bool         `json:"bold,omitempty" jsonschema:"Bold text; alias of font.bold (older form), both may be given only if equal"`
	Italic       *bool         `json:"italic,omitempty" jsonschema:"Italic text; alias of font.italic (older form), both may be given only if equal"`
}

// DefaultRuleFormat is Excel's "light red fill with dark red text".
func DefaultRuleFormat() *RuleFormat {
	text := ColorValue("9C0006")
	return &RuleFormat{Font: &FontSpec{Color: &text}, Fill: &FillSpec{Color: "FFC7CE"}}
}

// canonical returns f with its aliases folded into font and fill. An
// alias that disagrees with the nested value it names is an invalid
// argument naming both; a false bold or italic alias changes nothing, as
// it never did.
func (f RuleFormat) canonical() (RuleFormat, error) {
	out := RuleFormat{Border: f.Border, NumberFormat: f.NumberFormat}
	font := FontSpec{}
	if f.Font != nil {
		font = *f.Font
	}
	if font.Name != nil || font.Size != nil {
		return out, failure.Invalid("format.font: a conditional format cannot set the font name or size (Excel ignores them); use bold, italic, underline, strike or color")
	}
	if f.FontColor != nil {
		c, err := sameColor("format.font_color", *f.FontColor, "format.font.color", font.Color)
		if err != nil {
			return out, err
		}
		font.Color = &c
	}
	for _, alias := range []struct {
		name, nested string
		flat         *bool
		dst          **bool
	}{
		{"format.bold", "format.font.bold", f.Bold, &font.Bold},
		{"format.italic", "format.font.italic", f.Italic, &font.Italic},
	} {
		switch {
		case alias.flat == nil:
		case *alias.dst != nil && **alias.dst != *alias.flat:
			return out, failure.Invalid("%s %v and %s %v disagree: give only %s", alias.name, *alias.flat, alias.nested, **alias.dst, alias.nested)
		case *alias.flat:
			*alias.dst = alias.flat
		}
	}
	if f.Font != nil || font != (FontSpec{}) {
		out.Font = &font
	}
	out.Fill = f.Fill
	if f.FillColor != nil {
		var nested *ColorValue
		if f.Fill != nil {
			nested = &f.Fill.Color
		}
		c, err := sameColor("format.fill_color", *f.FillColor, "format.fill.color", nested)
		if err != nil {
			return out, err
		}
		out.Fill = &FillSpec{Color: c}
	}
	return out, nil
}

// sameColor returns the alias colour, or an invalid argument when the
// nested colour is given too and names another colour.
func sameColor(aliasName string, alias ColorValue, nestedName string, nested *ColorValue) (ColorValue, error) {
	a, err := alias.Hex()
	if err != nil {
		return "", err
	}
	if nested == nil {
		return alias, nil
	}
	n, err := nested.Hex()
	if err != nil {
		return "", err
	}
	if a != n {
		return "", failure.Invalid("%s %q and %s %q disagree: give only %s", aliasName, string(alias), nestedName, string(*nested), nestedName)
	}
	return *nested, nil
}

// Style is the excelize style of f, built as format_cells builds a cell's
// (parseStyleChange) on an empty style.
func (f RuleFormat) Style() (*excelize.Style, error) {
	c, err := f.canonical()
	if err != nil {
		return nil, err
	}
	sc, err := ParseStyleChange(c.Font, c.Fill, c.Border, nil, c.NumberFormat)
	if err != nil {
		return nil, err
	}
	return sc.Apply(&excelize.Style{}), nil
}
