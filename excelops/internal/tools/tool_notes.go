package tools

import (
	"context"
	"fmt"
	"strings"
	"unicode"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// What sits on a cell besides its value: notes (add_comment) and links
// (set_hyperlink).

const (
	// maxAuthorChars is the longest author name Excel keeps.
	maxAuthorChars = 255
	// maxURLChars is the longest link address Excel accepts.
	maxURLChars = 2079
	// maxTooltipChars is the longest link tooltip Excel accepts.
	maxTooltipChars = 255
)

// addCommentTool declares add_comment.
var addCommentTool = typedTool(toolSpec{
	name: "add_comment", title: "Set cell note",
	desc:    "Add a note (comment) with an author to a cell, replacing the cell's existing note; remove: true deletes it.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{KeepsValues: true, Destructive: true, Idempotent: true}),
}, (*Service).addComment)

// addCommentArgs are add_comment's arguments.
type addCommentArgs struct {
	fileArg
	sheetArg
	cellArg
	Text   *string `json:"text,omitempty" jsonschema:"The note's text (at most 32,767 characters)"`
	Author string  `json:"author,omitempty" jsonschema:"Author shown with the note (default \"Author\"; at most 255 characters)"`
	Remove bool    `json:"remove,omitempty" jsonschema:"Delete the cell's note instead (text is then not needed)"`
}

// addComment implements add_comment.
func (s *Service) addComment(ctx context.Context, a addCommentArgs) (*engine.Call, error) {
	col, row, err := grid.ParseCell(a.Cell)
	if err != nil {
		return nil, err
	}
	ref := grid.CellName(col, row)
	switch {
	case a.Remove && (a.Text != nil || a.Author != ""):
		return nil, failure.Invalid("remove: true takes no text or author")
	case !a.Remove && a.Text == nil:
		return nil, failure.Invalid("give text (the note) or remove: true")
	case !a.Remove && strings.TrimSpace(*a.Text) == "":
		return nil, failure.Invalid("text is empty; to delete a note pass remove: true")
	case !a.Remove && grid.ExcelLen(*a.Text) > grid.MaxCellChars:
		return nil, failure.Invalid("text has %s characters, more than Excel's limit of %s for a note", grid.Thousands(grid.ExcelLen(*a.Text)), grid.Thousands(grid.MaxCellChars))
	case grid.ExcelLen(a.Author) > maxAuthorChars:
		return nil, failure.Invalid("author has %d characters, more than Excel's limit of %d", grid.ExcelLen(a.Author), maxAuthorChars)
	}
	author := a.Author
	if author == "" {
		author = "Author"
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet := sh.Name
		comments, err := b.Comments(sheet)
		if err != nil {
			return nil, failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: cannot read the notes of sheet %q: %v", sheet, err), err)
		}
		var previous *excelize.Comment
		for i := range comments {
			if strings.EqualFold(comments[i].Cell, ref) {
				previous = &comments[i]
			}
		}
		res := success(b.Name(), sheet, field("cell", ref))
		if previous != nil {
			if err := b.DeleteComment(sheet, previous.Cell); err != nil {
				return nil, failure.New(failure.KindInvalidArgument, "cannot replace the note: "+err.Error(), err)
			}
		}
		if a.Remove {
			if previous == nil {
				return nil, failure.Invalid("cell %s of sheet %q has no note to remove", ref, sheet)
			}
			return append(res, pyjson.Field{Key: "removed_text", Value: commentText(*previous)}), nil
		}
		if err := b.AddComment(sheet, excelize.Comment{Cell: ref, Author: author, Text: *a.Text}); err != nil {
			return nil, failure.New(failure.KindInvalidArgument, "cannot add the note: "+err.Error(), err)
		}
		res = append(res, pyjson.Field{Key: "author", Value: author}, pyjson.Field{Key: "replaced", Value: previous != nil})
		if previous != nil {
			res = append(res, pyjson.Field{Key: "previous_text", Value: commentText(*previous)})
		}
		return res, nil
	}), nil
}

// commentText is a note's whole text (plain and rich runs).
func commentText(c excelize.Comment) string {
	var sb strings.Builder
	sb.WriteString(c.Text)
	for _, r := range c.Paragraph {
		sb.WriteString(r.Text)
	}
	return sb.String()
}

// linkSchemes are the URL schemes set_hyperlink links to.
var linkSchemes = []string{"http://", "https://", "mailto:", "ftp://"}

// checkURL refuses addresses Excel would not follow or that are unsafe to
// put in front of a user (javascript:, file:).
func checkURL(u string) error {
	lower := strings.ToLower(u)
	ok := false
	for _, s := range linkSchemes {
		ok = ok || (strings.HasPrefix(lower, s) && len(u) > len(s))
	}
	switch {
	case !ok:
		return failure.Invalid("url %q must start with http://, https://, mailto: or ftp:// (for a place in the workbook use location, e.g. \"Sheet1!A1\")", u)
	case grid.ExcelLen(u) > maxURLChars:
		return failure.Invalid("url has %s characters, more than Excel's limit of %s", grid.Thousands(grid.ExcelLen(u)), grid.Thousands(maxURLChars))
	case strings.IndexFunc(u, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }) >= 0:
		return failure.Invalid("url %q holds spaces or control characters; encode them (%%20)", u)
	}
	return nil
}

// linkLocation checks an internal link target, "Sheet!A1", "'My sheet'!A1:B2"
// or a defined name, and returns it as Excel writes it.
func linkLocation(b *engine.Book, loc string) (string, error) {
	loc = strings.TrimPrefix(strings.TrimSpace(loc), "#")
	i := strings.LastIndex(loc, "!")
	if i < 0 {
		for _, dn := range b.DefinedNames() {
			if strings.EqualFold(dn.Name, loc) {
				return dn.Name, nil
			}
		}
		return "", failure.Invalid("location %q must be a cell of the workbook such as \"Sheet1!A1\" or \"'My sheet'!B2:C4\", or a defined name", loc)
	}
	name, cells := loc[:i], loc[i+1:]
	if strings.HasPrefix(name, "'") && strings.HasSuffix(name, "'") && len(name) > 1 {
		name = strings.ReplaceAll(name[1:len(name)-1], "''", "'")
	}
	sheet, err := b.Sheet(name)
	if err != nil {
		return "", err
	}
	rng, err := grid.ParseRange(strings.ReplaceAll(cells, "$", ""))
	if err != nil {
		return "", fmt.Errorf("location %q: %w", loc, err)
	}
	return formularef.QuoteSheet(sheet) + "!" + rng.String(), nil
}

// setHyperlinkTool declares set_hyperlink.
var setHyperlinkTool = typedTool(toolSpec{
	name: "set_hyperlink", title: "Set hyperlink",
	desc:    "Link a cell to a web address (url) or a place in the workbook (location \"Sheet!A1\") with display text and tooltip, styled blue and underlined as Excel does; remove: true deletes the link.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{Destructive: true, Idempotent: true}),
}, (*Service).setHyperlink)

// setHyperlinkArgs are set_hyperlink's arguments.
type setHyperlinkArgs struct {
	fileArg
	sheetArg
	cellArg
	URL         string  `json:"url,omitempty" jsonschema:"External target: http://, https://, mailto: or ftp:// address (at most 2,079 characters)"`
	Location    string  `json:"location,omitempty" jsonschema:"Internal target instead of url: a cell or range of this workbook, e.g. \"Summary!A1\" or \"'Q1 Plan'!B2:C4\""`
	DisplayText *string `json:"display_text,omitempty" jsonschema:"Text written into the cell (default: the cell keeps its value, or shows the target when empty)"`
	Tooltip     *string `json:"tooltip,omitempty" jsonschema:"Text shown when hovering over the link (at most 255 characters)"`
	Remove      bool    `json:"remove,omitempty" jsonschema:"Delete the cell's link instead (its value stays)"`
}

// setHyperlink implements set_hyperlink.
func (s *Service) setHyperlink(ctx context.Context, a setHyperlinkArgs) (*engine.Call, error) {
	col, row, err := grid.ParseCell(a.Cell)
	if err != nil {
		return nil, err
	}
	ref := grid.CellName(col, row)
	switch {
	case a.Remove && (a.URL != "" || a.Location != "" || a.DisplayText != nil || a.Tooltip != nil):
		return nil, failure.Invalid("remove: true takes no url, location, display_text or tooltip")
	case !a.Remove && a.URL != "" && a.Location != "":
		return nil, failure.Invalid("give url (a web address) or location (a place in the workbook), not both")
	case !a.Remove && a.URL == "" && a.Location == "":
		return nil, failure.Invalid("give url (e.g. \"https://example.com\") or location (e.g. \"Summary!A1\"), or remove: true")
	case a.URL != "":
		if err := checkURL(a.URL); err != nil {
			return nil, err
		}
	}
	if a.Tooltip != nil && grid.ExcelLen(*a.Tooltip) > maxTooltipChars {
		return nil, failure.Invalid("tooltip has %d characters, more than Excel's limit of %d", grid.ExcelLen(*a.Tooltip), maxTooltipChars)
	}
	if a.DisplayText != nil {
		if err := grid.CheckText(ref, *a.DisplayText); err != nil {
			return nil, err
		}
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet, ext := sh.Name, sh.Ext
		b.Edits = &recalc.EditSet{Areas: []cellarea.Area{{Sheet: sheet, C1: col, R1: row, C2: col, R2: row}}}
		had, oldTarget, err := b.CellHyperLink(sheet, ref)
		if err != nil {
			return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
		}
		res := success(b.Name(), sheet, field("cell", ref))
		if had {
			// Replace, never stack: drop the old link (and its relationship).
			if err := b.SetCellHyperLink(sheet, ref, "", "None"); err != nil {
				return nil, failure.New(failure.KindInvalidArgument, "cannot remove the link: "+err.Error(), err)
			}
		}
		if a.Remove {
			if !had {
				return nil, failure.Invalid("cell %s of sheet %q has no link to remove", ref, sheet)
			}
			return append(res, pyjson.Field{Key: "removed_target", Value: oldTarget}), nil
		}
		target, kind, linkType := a.URL, "url", "External"
		if a.Location != "" {
			if target, err = linkLocation(b, a.Location); err != nil {
				return nil, err
			}
			kind, linkType = "location", "Location"
		}
		opts := excelize.HyperlinkOpts{Tooltip: a.Tooltip}
		current, err := b.CellValue(sheet, ref)
		if err != nil {
			return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
		}
		display := current
		if a.DisplayText != nil || current == "" {
			display = target
			if a.DisplayText != nil {
				display = *a.DisplayText
			}
			if err := b.SetCellStr(sheet, ref, display); err != nil {
				return nil, failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot write %s: %v", ref, err), err)
			}
			ext.Widen(row, col)
		}
		opts.Display = &display
		if err := b.SetCellHyperLink(sheet, ref, target, linkType, opts); err != nil {
			return nil, failure.New(failure.KindInvalidArgument, "cannot set the link: "+err.Error(), err)
		}
		if err := styleAsLink(b, sheet, ref); err != nil {
			return nil, err
		}
		res = append(res, pyjson.Field{Key: kind, Value: target}, pyjson.Field{Key: "display_text", Value: display},
			pyjson.Field{Key: "replaced", Value: had})
		return res, nil
	}), nil
}

// linkColor is the colour of Excel's Hyperlink cell style (Office theme).
const linkColor = "0563C1"

// styleAsLink gives the cell the look of Excel's Hyperlink style (blue,
// single underline) over its own style, as Excel does when a link is
// inserted; the cell's number format, fill, borders and alignment stay.
func styleAsLink(b *engine.Book, sheet, ref string) error {
	id, err := b.CellStyle(sheet, ref)
	if err != nil {
		return failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
	}
	st, err := b.StyleByID(id)
	if err != nil {
		return failure.New(failure.KindDamaged, "file is damaged: style table: "+err.Error(), err)
	}
	if st.Font == nil {
		st.Font = &excelize.Font{}
	}
	st.Font.Color, st.Font.ColorTheme, st.Font.ColorIndexed, st.Font.Underline = linkColor, nil, 0, "single"
	linked, err := b.NewStyle(st)
	if err == nil {
		err = b.SetCellStyle(sheet, ref, ref, linked)
	}
	if err != nil {
		return failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot style the link in %s: %v", ref, err), err)
	}
	return nil
}
