package engine

import (
	"context"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
)

// Damaged stays damaged, on every sheet. A write checks the sheet it
// rewrites as a read would; the other sheets it copies byte for byte. A
// workbook with one damaged sheet would then be saved, and its other
// sheets edited, as if it were whole, although a read of the damaged
// sheet (or describe_workbook) reports it. checkUntouchedSheets closes
// that gap: before an edit, every other worksheet is read as read_excel
// reads a whole sheet, and the first damage a read would report refuses the
// edit with the read's own reason.

// checkUntouchedSheets reads every worksheet of the workbook at path but
// edited (the sheet the call names; "" is the active sheet), as a read of
// the whole sheet would, and returns the damage the first read reports. A
// workbook that does not exist yet, or that cannot be opened (the edit
// reports why), passes. Sheets found sound are remembered for that version
// of the file (the light cache), so the next edit of an unchanged file
// reads nothing again.
func (s *Engine) checkUntouchedSheets(ctx context.Context, path, edited string) error {
	b, err := s.OpenBook(path, false, true)
	if err != nil {
		return nil // a new workbook, or one the edit's own open reports
	}
	defer b.Close()
	b.ctx = ctx
	target, err := b.Sheet(edited)
	if err != nil {
		target = edited // a sheet the call creates or names wrongly: the edit says
	}
	names, _ := b.SheetList()
	id, keyed := b.lightKey()
	var sound map[string]bool
	if keyed {
		if e := s.Light.Get(id); e != nil {
			sound = e.Sound
		}
	}
	for _, name := range names {
		if name == target || sound[name] {
			continue
		}
		if kind, err := b.SheetKindOf(name); err != nil || kind != "worksheet" {
			continue // listed with its kind and never read as cells
		}
		err := b.Rows(ctx, name, 1, grid.LastRow, 1, 0, func(int, []any) bool { return true })
		if failure.KindOf(err) == failure.KindDamaged {
			return err
		}
		if err != nil {
			return nil // a bound or a cancel: the edit meets it, or not, itself
		}
		if keyed {
			s.Light.PutSound(id, name)
		}
	}
	return nil
}
