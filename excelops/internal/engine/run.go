package engine

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/pathlock"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
)

// Body is a tool's work on one opened workbook: b is the workbook, sh the
// sheet the call names, resolved and guarded as the tool's declaration says.
type Body func(b *Book, sh SheetRef) (any, error)

// SheetRef is the sheet a call names, as the entry point resolved it.
type SheetRef struct {
	Name    string                 // the sheet's exact name ("" for sheetNone)
	Ext     *sheetread.SheetExtent // its used range, tracked for <dimension> (edits only)
	Created bool                   // this call created it (sheetTarget with newSheet)
}

// Call is one call of a tool: what its checked arguments ask of the files
// its declaration names (Engine.Run). A tool builds it from its arguments
// before anything is opened.
type Call struct {
	Paths  []string // the path arguments' values, in the declaration's order
	Sheets []string // the sheet arguments' values, same order ("": the active sheet)
	Bodies []Body   // what runs on each workbook, same order; the last result is the call's
	// Splice is a cells edit through the splice path (package splicepath
	// builds one); nil, or a splice that declines, takes excelize, which
	// runs the edited file's body.
	Splice SpliceEdit
	// Create says whether a missing edited workbook becomes a new one.
	Create CreateMode
	// NewSheet: a missing sheetTarget sheet is created.
	NewSheet bool
	// ValuesKept: this call changes no value although its tool may
	// (clear_range of formats only): no formula refresh, as keepsValues.
	ValuesKept bool
	// Icon holds the icon-set lock from the body through the save and
	// keeps the workbook out of the cache (see Service.iconMu).
	Icon bool
	// After, when set, runs once every lock is released, on the last
	// body's result, and gives the call's result: slow work on a private
	// copy (render_range), or the whole work of a tool that opens no
	// workbook (nil result).
	After func(res any) (any, error)
}

// Unsaved is an edit body's result that asks for no save (find_replace's
// dry run, or nothing found): the call answers res and the workbook is
// discarded, the file on disk left as it was.
type Unsaved struct{ Result any }

// OnBook is the call of a one-workbook tool: fn runs on the workbook at
// path with its sheet named sheet.
func OnBook(path, sheet string, fn Body) *Call {
	return &Call{Paths: []string{path}, Sheets: []string{sheet}, Bodies: []Body{fn}}
}

// Run is the one entry point of every tool: it resolves each path of the
// call inside the sandbox, locks them all (sorted; exclusive and
// cross-process for the edited one), runs the reads, then the edit, as acc
// declares, releases the locks and returns the last body's result (passed
// through c.after when set). A read of the workbook the call also edits
// runs on the edited workbook, right before the edit.
func (s *Engine) Run(ctx context.Context, acc access.Access, c *Call) (any, error) {
	res, err := s.runLocked(ctx, acc, c)
	if err != nil || c.After == nil {
		return res, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return c.After(res)
}

// runLocked is run up to the release of the locks.
func (s *Engine) runLocked(ctx context.Context, acc access.Access, c *Call) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(acc.Files) == 0 {
		return nil, nil
	}
	if len(c.Paths) != len(acc.Files) || len(c.Sheets) != len(acc.Files) || len(c.Bodies) != len(acc.Files) {
		return nil, fmt.Errorf("excelops: a call of %d files does not match its declaration of %d", len(c.Paths), len(acc.Files))
	}
	paths := make([]string, len(c.Paths))
	specs := make([]pathlock.Spec, len(c.Paths))
	for i, f := range acc.Files {
		p, err := s.Box.Resolve(c.Paths[i])
		if err != nil {
			return nil, err
		}
		// Refused names get no lock file: the extension is checked
		// before anything is created beside the file.
		if err := CheckExtension(p); err != nil {
			return nil, err
		}
		paths[i] = p
		// A parsed read takes the exclusive lock when the cache is on:
		// excelize changes its model while reading a sheet the first time.
		write := f.Edit || (f.Touch == access.TouchStructure && s.Cache.Enabled())
		specs[i] = pathlock.Spec{Path: p, Write: write, Replace: f.Edit}
	}
	unlock, err := s.Locks.LockAll(ctx, s.Box, specs...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	edit := acc.Edited()
	var res any
	for i, f := range acc.Files {
		if f.Edit {
			break
		}
		if edit >= 0 && paths[i] == paths[edit] {
			continue // runs on the edited workbook (editOnce)
		}
		if res, err = s.readOne(ctx, f, paths[i], c.Sheets[i], c.Bodies[i]); err != nil {
			return nil, err
		}
	}
	if edit < 0 {
		return res, nil
	}
	if err := s.checkUntouchedSheets(ctx, paths[edit], c.Sheets[edit]); err != nil {
		return nil, err
	}
	res, err = s.editOnce(ctx, acc, paths, c)
	if failure.KindOf(err) == failure.KindConflict {
		s.Log.WithFields(map[string]any{"file": filepath.Base(paths[edit])}).Warn("workbook changed on disk during a call; doing it again on the new version")
		res, err = s.editOnce(ctx, acc, paths, c)
	}
	return res, err
}

// readOne runs fn on the workbook at path (locked by run) opened for the
// read f declares: stream and styles reads open the package index only and
// never use the cache; a parsed read takes the workbook from the cache and
// puts it back.
func (s *Engine) readOne(ctx context.Context, f access.FileUse, path, sheet string, fn Body) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if f.Touch != access.TouchStructure {
		b, err := s.OpenBook(path, false, true)
		if err != nil {
			return nil, err
		}
		defer b.Close()
		b.ctx = ctx
		sh, err := b.Open(f, access.GuardSheet, sheet, false)
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
	sh, err := b.Open(f, access.GuardSheet, sheet, false)
	var res any
	if err == nil {
		res, err = fn(b, sh)
	}
	if err != nil {
		_ = b.Close()
		return nil, err
	}
	s.checkin(ctx, b)
	return res, nil
}

// SpliceEdit is one attempt at a cells edit of a sheet through the splice
// path, run under the locks Engine.Run took (in-process and cross-process,
// for the whole read-modify-replace). It returns ErrNoSplice, having
// written nothing, when the excelize path must do the edit, and
// KindConflict when the file changed under it (Run redoes the call once).
type SpliceEdit func(ctx context.Context, e *Engine, path, sheet string) (any, error)

// editOnce is one attempt at the edit of a call: the splice path first when
// the call brings a splice plan for a cells edit, else (or when it
// declines) excelize; a decline is logged at debug level with its reason
// (field splice_fallback), which the excelize path's save entry repeats.
func (s *Engine) editOnce(ctx context.Context, acc access.Access, paths []string, c *Call) (any, error) {
	i := acc.Edited()
	fallback := ""
	if acc.Files[i].Touch == access.TouchCells && c.Splice != nil && !s.SpliceOff {
		res, err := c.Splice(ctx, s, paths[i], c.Sheets[i])
		if !errors.Is(err, ErrNoSplice) {
			return res, err
		}
		fallback = fallbackReason(err)
		s.Log.WithFields(map[string]any{"file": filepath.Base(paths[i]), "splice_fallback": fallback}).Debug("splice declined; taking the excelize path")
	}
	return s.excelizeOnce(ctx, acc, paths, c, fallback)
}

// Open resolves and guards the sheet f names (see sheetUse and guard).
func (b *Book) Open(f access.FileUse, g access.GuardMode, name string, newSheet bool) (SheetRef, error) {
	var sh SheetRef
	var err error
	switch f.Sheet {
	case access.SheetRead, access.SheetDrop:
		sh.Name, err = b.Sheet(name)
	case access.SheetEdit:
		sh.Name, sh.Ext, err = b.Edit(name)
	case access.SheetTarget:
		sh.Name, sh.Ext, sh.Created, err = b.EditTarget(name, newSheet)
	}
	if err != nil {
		return SheetRef{}, err
	}
	if f.Sheet == access.SheetRead && !f.Edit {
		if err := b.requireWorksheet(sh.Name); err != nil {
			return SheetRef{}, err
		}
	}
	if f.Edit && g == access.GuardEverySheet {
		skip := ""
		if f.Sheet == access.SheetDrop {
			skip = sh.Name
		}
		if err := b.guardAllSheets(skip); err != nil {
			return SheetRef{}, err
		}
	}
	return sh, nil
}
