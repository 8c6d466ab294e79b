package engine

import (
	"context"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
)

// Rows calls fn for every row from first to last (1-based, inclusive) that
// holds cells, with the values of columns c1..c2 (c2 == 0: as far as the
// row goes); fn returns false to end the walk early. It stops reading one
// row after last (checking that row is in order). A sheet whose XML ends
// before </sheetData> is reported as damaged, so a broken file never reads
// as a shorter one; so are rows or cells out of order.
func (b *Book) Rows(ctx context.Context, sheet string, first, last, c1, c2 int, fn func(row int, vals []any) bool) error {
	return b.WalkRows(ctx, sheet, first, last, c1, c2, sheetread.RowOpts{}, func(row int, rr *sheetread.RowReader) bool { return fn(row, rr.Vals) })
}

// RowsJSON is rows for exact ranges: fn gets each row's cells already
// encoded as JSON array items (count of them in cells), no boxed values.
func (b *Book) RowsJSON(ctx context.Context, sheet string, first, last, c1, c2 int, fn func(row int, inner []byte, cells int) bool) error {
	return b.WalkRows(ctx, sheet, first, last, c1, c2, sheetread.RowOpts{Encode: true}, func(row int, rr *sheetread.RowReader) bool { return fn(row, rr.Enc, rr.Next) })
}

// WalkRows drives a rowReader over sheet from first to last.
func (b *Book) WalkRows(ctx context.Context, sheet string, first, last, c1, c2 int, opts sheetread.RowOpts, fn func(row int, rr *sheetread.RowReader) bool) error {
	if last < first {
		return nil
	}
	zf, err := b.Part(sheet)
	if err != nil || zf == nil {
		return err
	}
	sst, err := b.SharedStrings()
	if err != nil {
		return err
	}
	ds, err := b.dateStyles()
	if err != nil {
		return err
	}
	rc, err := zf.Open()
	if err != nil {
		return failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	src := opc.NewLateReadAhead(rc)
	defer src.Close()
	lim := b.Svc.Limits
	opts.MaxText, opts.Sheet, opts.Formulas = int(lim.MaxCellTextBytes), sheet, b.Formulas
	rr := sheetread.NewRowReader(lim.NewRunBound(src, fmt.Sprintf("sheet %q", sheet)), sst, c1, c2, ds, opts)
	return rr.WalkWindow(ctx, first, last, fn)
}

// RowsStyled is rows with, beside each row's values, the style ids of its
// cells in the window by index from c1 (empty cells included; nil when
// none names a style). Rows holding only empty cells are skipped as rows
// skips them.
func (b *Book) RowsStyled(ctx context.Context, sheet string, first, last, c1, c2 int, fn func(row int, vals []any, styles []int32) bool) error {
	return b.WalkRows(ctx, sheet, first, last, c1, c2, sheetread.RowOpts{Styles: true}, func(row int, rr *sheetread.RowReader) bool { return fn(row, rr.Vals, rr.Styles()) })
}
