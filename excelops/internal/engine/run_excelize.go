package engine

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// excelizeOnce is one attempt at the edit of a call through excelize, under
// the locks run took. The workbook comes from the cache when the file is
// unchanged since it was cached; it goes back to the cache only after the
// save succeeded and the call is still wanted. On any error, panic or
// cancellation it is closed and forgotten: a half-edited workbook is never
// saved nor served.
//
// The save replaces the file only if it is still the version the workbook
// was read from (see book.unchangedOnDisk); run does the call once more on
// a KindConflict. fallback is the reason the splice path declined the
// call ("" when it was not tried), repeated in the save's log entry.
func (s *Engine) excelizeOnce(ctx context.Context, acc access.Access, paths []string, c *Call, fallback string) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	i := acc.Edited()
	path := paths[i]
	if c.Create == createUnlessSimilar {
		if err := refuseLikelyTypo(s.Box, path); err != nil {
			return nil, err
		}
	}
	var b *Book
	var err error
	if c.Create == CreateFresh {
		b, err = s.freshBook(path)
	} else {
		b, err = s.checkout(path, c.Create != createNever)
	}
	if err != nil {
		return nil, err
	}
	b.ctx = ctx
	handedOff := false
	defer func() {
		if !handedOff {
			_ = b.Close()
		}
	}()
	if c.Icon {
		s.iconMu.Lock()
		defer s.iconMu.Unlock()
	}
	// Reads of this same workbook (a copy within one file) run first, on
	// the workbook the edit changes.
	for j := 0; j < i; j++ {
		if paths[j] != path {
			continue
		}
		sh, err := b.Open(acc.Files[j], acc.Guard, c.Sheets[j], false)
		if err != nil {
			return nil, err
		}
		if _, err := c.Bodies[j](b, sh); err != nil {
			return nil, err
		}
	}
	sh, err := b.Open(acc.Files[i], acc.Guard, c.Sheets[i], c.NewSheet)
	if err != nil {
		return nil, err
	}
	res, err := c.Bodies[i](b, sh)
	if err != nil {
		return nil, err
	}
	if u, ok := res.(Unsaved); ok {
		return u.Result, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !acc.KeepsValues && !c.ValuesKept {
		edits := b.Edits
		b.Edits = nil
		if _, err := recalc.RefreshFormulaValues(ctx, b.f, s.Limits.Calc(), b.diskHasFormulas, edits); err != nil {
			return nil, err
		}
	}
	b.target = ""
	if acc.Files[i].Sheet != access.SheetRead {
		b.target = sh.Name
	}
	if err := b.save(ctx); err != nil {
		return nil, err
	}
	fields := map[string]any{"file": b.Name(), "path": "excelize"}
	if fallback != "" {
		fields["splice_fallback"] = fallback
	}
	s.Log.WithFields(fields).Debug("workbook saved")
	// A workbook holding icon-set rules points into excelize's shared
	// presets, which the next icon-set call rewrites: never keep one.
	if !c.Icon {
		if id, ok := s.Box.StatID(path); ok {
			b.id = id
			if n, err := s.unzippedSize(path); err == nil {
				b.cost = n * ParsedBytesPerXMLByte
			}
			handedOff = true
			s.checkin(ctx, b)
		}
	}
	return res, nil
}

// checkout returns the parsed workbook at path: the cached one when the
// file on disk is still the version it was parsed from, else a fresh open.
// The caller holds path's exclusive lock (or the cache is off).
func (s *Engine) checkout(path string, create bool) (*Book, error) {
	if s.Cache.Enabled() {
		id, known := s.Box.StatID(path)
		if b, ok := s.Cache.Take(path, id, known); ok {
			return b, nil
		}
	}
	return s.OpenBook(path, create, false)
}

// checkin hands a book whose call succeeded to the cache (or closes it
// when the cache is off or the call was cancelled meanwhile).
func (s *Engine) checkin(ctx context.Context, b *Book) {
	if !s.Cache.Enabled() || ctx.Err() != nil || b.unchecked {
		_ = b.Close()
		return
	}
	b.ctx = nil
	b.settle()
	s.Cache.Put(b.Path, b.id, b, b.cost)
}

// freshBook is a new empty workbook to be saved at path whatever the path
// holds (createFresh): book.created says whether the file is missing; an
// existing one must be a regular file, and its mode is kept.
func (s *Engine) freshBook(path string) (*Book, error) {
	if err := CheckExtension(path); err != nil {
		return nil, err
	}
	st, statErr := s.Box.Stat(path)
	exists := statErr == nil
	switch {
	case statErr != nil && !errors.Is(statErr, fs.ErrNotExist):
		return nil, failure.New(failure.KindIO, "cannot inspect the file: "+statErr.Error(), statErr)
	case exists && !st.Mode().IsRegular():
		return nil, workspace.NotRegular(filepath.Base(path), st.Mode())
	}
	f := excelize.NewFile(excelize.Options{TmpDir: s.TmpBase})
	b := &Book{Svc: s, f: f, Path: path, mode: NewFileMode, Created: !exists, cost: newBookCost, Extents: map[string]*sheetread.SheetExtent{}, unchecked: true}
	if exists {
		b.mode = st.Mode().Perm()
		b.id, _ = workspace.IDOf(st)
	}
	return b, nil
}
