package excelops

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/pathlock"
)

// body is a tool's work on one opened workbook: b is the workbook, sh the
// sheet the call names, resolved and guarded as the tool's declaration says.
type body func(b *book, sh sheetRef) (any, error)

// sheetRef is the sheet a call names, as the entry point resolved it.
type sheetRef struct {
	name    string       // the sheet's exact name ("" for sheetNone)
	ext     *sheetExtent // its used range, tracked for <dimension> (edits only)
	created bool         // this call created it (sheetTarget with newSheet)
}

// call is one call of a tool: what its checked arguments ask of the files
// its declaration names (Service.run). A tool builds it from its arguments
// before anything is opened.
type call struct {
	paths  []string // the path arguments' values, in the declaration's order
	sheets []string // the sheet arguments' values, same order ("": the active sheet)
	bodies []body   // what runs on each workbook, same order; the last result is the call's
	// splice is a cells edit's splice plan; nil (or a splice that declines)
	// takes excelize, which runs the edited file's body.
	splice spliceEdit
	// create says whether a missing edited workbook becomes a new one.
	create createMode
	// newSheet: a missing sheetTarget sheet is created.
	newSheet bool
	// valuesKept: this call changes no value although its tool may
	// (clear_range of formats only): no formula refresh, as keepsValues.
	valuesKept bool
	// icon holds the icon-set lock from the body through the save and
	// keeps the workbook out of the cache (see Service.iconMu).
	icon bool
	// after, when set, runs once every lock is released, on the last
	// body's result, and gives the call's result: slow work on a private
	// copy (render_range), or the whole work of a tool that opens no
	// workbook (nil result).
	after func(res any) (any, error)
}

// unsaved is an edit body's result that asks for no save (find_replace's
// dry run, or nothing found): the call answers res and the workbook is
// discarded, the file on disk left as it was.
type unsaved struct{ res any }

// onBook is the call of a one-workbook tool: fn runs on the workbook at
// path with its sheet named sheet.
func onBook(path, sheet string, fn body) *call {
	return &call{paths: []string{path}, sheets: []string{sheet}, bodies: []body{fn}}
}

// run is the one entry point of every tool: it resolves each path of the
// call inside the sandbox, locks them all (sorted; exclusive and
// cross-process for the edited one), runs the reads, then the edit, as acc
// declares, releases the locks and returns the last body's result (passed
// through c.after when set). A read of the workbook the call also edits
// runs on the edited workbook, right before the edit.
func (s *engine) run(ctx context.Context, acc access, c *call) (any, error) {
	res, err := s.runLocked(ctx, acc, c)
	if err != nil || c.after == nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c.after(res)
}

// runLocked is run up to the release of the locks.
func (s *engine) runLocked(ctx context.Context, acc access, c *call) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(acc.files) == 0 {
		return nil, nil
	}
	if len(c.paths) != len(acc.files) || len(c.sheets) != len(acc.files) || len(c.bodies) != len(acc.files) {
		return nil, fmt.Errorf("excelops: a call of %d files does not match its declaration of %d", len(c.paths), len(acc.files))
	}
	paths := make([]string, len(c.paths))
	specs := make([]pathlock.Spec, len(c.paths))
	for i, f := range acc.files {
		p, err := s.box.Resolve(c.paths[i])
		if err != nil {
			return nil, err
		}
		// Refused names get no lock file: the extension is checked
		// before anything is created beside the file.
		if err := checkExtension(p); err != nil {
			return nil, err
		}
		paths[i] = p
		// A parsed read takes the exclusive lock when the cache is on:
		// excelize changes its model while reading a sheet the first time.
		write := f.edit || (f.touch == touchStructure && s.cache.Enabled())
		specs[i] = pathlock.Spec{Path: p, Write: write, Replace: f.edit}
	}
	unlock, err := s.locks.LockAll(ctx, s.box, specs...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	edit := acc.edited()
	var res any
	for i, f := range acc.files {
		if f.edit {
			break
		}
		if edit >= 0 && paths[i] == paths[edit] {
			continue // runs on the edited workbook (editOnce)
		}
		if res, err = s.readOne(ctx, f, paths[i], c.sheets[i], c.bodies[i]); err != nil {
			return nil, err
		}
	}
	if edit < 0 {
		return res, nil
	}
	if err := s.checkUntouchedSheets(ctx, paths[edit], c.sheets[edit]); err != nil {
		return nil, err
	}
	res, err = s.editOnce(ctx, acc, paths, c)
	if kindOf(err) == KindConflict {
		s.log.WithFields(map[string]any{"file": filepath.Base(paths[edit])}).Warn("workbook changed on disk during a call; doing it again on the new version")
		res, err = s.editOnce(ctx, acc, paths, c)
	}
	return res, err
}

// readOne runs fn on the workbook at path (locked by run) opened for the
// read f declares: stream and styles reads open the package index only and
// never use the cache; a parsed read takes the workbook from the cache and
// puts it back.
func (s *engine) readOne(ctx context.Context, f fileUse, path, sheet string, fn body) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if f.touch != touchStructure {
		b, err := s.openBook(path, false, true)
		if err != nil {
			return nil, err
		}
		defer b.close()
		b.ctx = ctx
		sh, err := b.open(f, guardSheet, sheet, false)
		if err != nil {
			return nil, err
		}
		return fn(b, sh)
	}
	b, err := s.checkout(path, false)
	if err != nil {
		return nil, err
	}
	b.ctx = ctx
	sh, err := b.open(f, guardSheet, sheet, false)
	var res any
	if err == nil {
		res, err = fn(b, sh)
	}
	if err != nil {
		_ = b.close()
		return nil, err
	}
	s.checkin(ctx, b)
	return res, nil
}

// editOnce is one attempt at the edit of a call: the splice path first when
// the call brings a splice plan for a cells edit, else (or when it
// declines) excelize; a decline is logged at debug level with its reason
// (field splice_fallback), which the excelize path's save entry repeats.
func (s *engine) editOnce(ctx context.Context, acc access, paths []string, c *call) (any, error) {
	i := acc.edited()
	fallback := ""
	if acc.files[i].touch == touchCells && c.splice != nil && !s.spliceOff {
		res, err := s.spliceOnce(ctx, paths[i], c.sheets[i], c.splice)
		if !errors.Is(err, errNoSplice) {
			return res, err
		}
		fallback = fallbackReason(err)
		s.log.WithFields(map[string]any{"file": filepath.Base(paths[i]), "splice_fallback": fallback}).Debug("splice declined; taking the excelize path")
	}
	return s.excelizeOnce(ctx, acc, paths, c, fallback)
}

// open resolves and guards the sheet f names (see sheetUse and guard).
func (b *book) open(f fileUse, g guard, name string, newSheet bool) (sheetRef, error) {
	var sh sheetRef
	var err error
	switch f.sheet {
	case sheetRead, sheetDrop:
		sh.name, err = b.sheet(name)
	case sheetEdit:
		sh.name, sh.ext, err = b.edit(name)
	case sheetTarget:
		sh.name, sh.ext, sh.created, err = b.editTarget(name, newSheet)
	}
	if err != nil {
		return sheetRef{}, err
	}
	if f.sheet == sheetRead && !f.edit {
		if err := b.requireWorksheet(sh.name); err != nil {
			return sheetRef{}, err
		}
	}
	if f.edit && g == guardEverySheet {
		skip := ""
		if f.sheet == sheetDrop {
			skip = sh.name
		}
		if err := b.guardAllSheets(skip); err != nil {
			return sheetRef{}, err
		}
	}
	return sh, nil
}
