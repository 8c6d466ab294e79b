package excelops

import (
	"context"
	"path/filepath"
)

// mutateOpts tunes one mutation.
type mutateOpts struct {
	create createMode // whether a missing file becomes a new workbook
	icon   bool       // hold the icon-set lock from mutation through save
	// sameValues: the edit changes no cell value, formula or reference
	// (styles, widths, rules, charts, a new empty sheet), so cached formula
	// values stay as they are (see refreshFormulaValues).
	sameValues bool
}

// mutate runs fn on the workbook at filePath under the file's exclusive lock
// and saves it atomically only if fn succeeded; on any failure the
// in-memory workbook is discarded and the error returned as is.
func (s *Service) mutate(ctx context.Context, filePath string, o mutateOpts, fn func(*book) (any, error)) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	path, err := s.box.resolve(filePath)
	if err != nil {
		return nil, err
	}
	unlock, err := s.locks.lockAll(ctx, lockSpec{path: path, write: true, replace: true})
	if err != nil {
		return nil, err
	}
	defer unlock()
	return s.mutateLocked(ctx, path, o, fn)
}

// mutateLocked is mutate on a resolved path whose exclusive lock the caller
// holds. The workbook comes from the cache when the file is unchanged since
// it was cached; it goes back to the cache only after the save succeeded
// and the call is still wanted. On any error, panic or cancellation it is
// closed and forgotten: a half-mutated workbook is never saved nor served.
//
// The save replaces the file only if it is still the version the workbook
// was read from (see unchangedOnDisk); when another program changed it
// meanwhile, the call is done once more on the new version, and fails with
// KindConflict if that too is overtaken.
func (s *Service) mutateLocked(ctx context.Context, path string, o mutateOpts, fn func(*book) (any, error)) (any, error) {
	res, err := s.mutateOnce(ctx, path, o, fn)
	if kindOf(err) == KindConflict {
		s.log.WithFields(map[string]any{"file": filepath.Base(path)}).Warn("workbook changed on disk during a call; doing it again on the new version")
		res, err = s.mutateOnce(ctx, path, o, fn)
	}
	return res, err
}

// mutateOnce is one attempt of mutateLocked.
func (s *Service) mutateOnce(ctx context.Context, path string, o mutateOpts, fn func(*book) (any, error)) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if o.create == createUnlessSimilar {
		if err := refuseLikelyTypo(path); err != nil {
			return nil, err
		}
	}
	b, err := s.checkout(path, o.create != createNever)
	if err != nil {
		return nil, err
	}
	handedOff := false
	defer func() {
		if !handedOff {
			_ = b.close()
		}
	}()
	if o.icon {
		s.iconMu.Lock()
		defer s.iconMu.Unlock()
	}
	res, err := fn(b)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !o.sameValues {
		edits := b.edits
		b.edits = nil
		if _, err := refreshFormulaValues(ctx, b.f, b.diskHasFormulas, edits); err != nil {
			return nil, err
		}
	}
	if err := b.save(ctx); err != nil {
		return nil, err
	}
	s.log.WithFields(map[string]any{"file": b.name()}).Debug("workbook saved")
	// A workbook holding icon-set rules points into excelize's shared
	// presets, which the next icon-set call rewrites: never keep one.
	if !o.icon {
		if id, ok := statID(path); ok {
			b.id = id
			if n, err := unzippedSize(path); err == nil {
				b.cost = n * parsedBytesPerXMLByte
			}
			handedOff = true
			s.checkin(ctx, b)
		}
	}
	return res, nil
}

// read runs fn on the workbook at filePath. Light reads (see openBook)
// stream the file under the shared lock and never use the cache; full
// reads take the exclusive lock when the cache is on, because excelize
// mutates its in-memory model while reading a sheet the first time.
func (s *Service) read(ctx context.Context, filePath string, light bool, fn func(*book) (any, error)) (any, error) {
	path, err := s.box.resolve(filePath)
	if err != nil {
		return nil, err
	}
	unlock, err := s.locks.lockAll(ctx, lockSpec{path: path, write: !light && s.cache != nil})
	if err != nil {
		return nil, err
	}
	defer unlock()
	return s.readLocked(ctx, path, light, fn)
}

// readLocked is read on a resolved path whose lock the caller holds
// (exclusively for a full read when the cache is on).
func (s *Service) readLocked(ctx context.Context, path string, light bool, fn func(*book) (any, error)) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if light {
		b, err := s.openBook(path, false, true)
		if err != nil {
			return nil, err
		}
		defer b.close()
		return fn(b)
	}
	b, err := s.checkout(path, false)
	if err != nil {
		return nil, err
	}
	res, err := fn(b)
	if err != nil {
		_ = b.close()
		return nil, err
	}
	s.checkin(ctx, b)
	return res, nil
}

// checkout returns the parsed workbook at path: the cached one when the
// file on disk is still the version it was parsed from, else a fresh open.
// The caller holds path's exclusive lock (or the cache is off).
func (s *Service) checkout(path string, create bool) (*book, error) {
	if s.cache != nil {
		id, ok := statID(path)
		if b := s.cache.take(path, id, ok); b != nil {
			return b, nil
		}
	}
	return s.openBook(path, create, false)
}

// checkin hands a book whose call succeeded to the cache (or closes it
// when the cache is off or the call was cancelled meanwhile).
func (s *Service) checkin(ctx context.Context, b *book) {
	if s.cache == nil || ctx.Err() != nil {
		_ = b.close()
		return
	}
	b.settle()
	s.cache.put(b.path, b.id, b, b.cost)
}
