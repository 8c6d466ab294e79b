// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// This file is not upstream excelize: registry-sidecar added it to its
// pinned copy of v2.11.1 (see PATCHES.md). It bounds one formula
// calculation by Excel's text limit, a context, a byte budget, a step
// budget and a recursion depth.

package excelize

import (
	"context"
	"errors"
	"fmt"
	"unsafe"
)

// CalcLimits bounds one CalcCellValueContext call. A zero field sets no
// bound.
type CalcLimits struct {
	// MaxBytes caps what the calculation allocates for cell ranges,
	// arrays and text, in bytes, counted before each allocation.
	MaxBytes int64
	// MaxSteps caps its evaluation steps: formula tokens, cell reads,
	// function calls, and the iterations of loops whose count is a
	// function argument (counted before the loop runs).
	MaxSteps int64
	// MaxDepth caps how deep formula cells reading formula cells nest.
	// Each level costs a few KiB of goroutine stack, and a stack past
	// Go's maximum is a fatal error, not a panic.
	MaxDepth int
}

// ErrCalcLimit reports a calculation stopped by its CalcLimits: the
// formula's result is unknown, which is not an Excel error value.
var ErrCalcLimit = errors.New("formula calculation exceeds its limits")

// calcTickMask sets how often step looks at the context: every 1,024
// steps, so a canceled calculation stops within microseconds without a
// ctx.Err call per token.
const calcTickMask = 1<<10 - 1

// formulaArgBytes is what one cell of a range or array costs.
const formulaArgBytes = int64(unsafe.Sizeof(formulaArg{}))

// rangeCopies is how many times a range's cells are counted: the matrix
// the reference resolves to, and the flat copy (ToList) most functions
// make of it.
const rangeCopies = 2

// calcGuard enforces CalcLimits and the context on one calculation. Its
// first failure sticks: every later check returns it, and the top-level
// call reports it instead of whatever result the stopped evaluation
// produced. A nil guard checks nothing.
type calcGuard struct {
	ctx          context.Context
	lim          CalcLimits
	bytes, steps int64
	depth        int
	err          error
	// cutSheet and cutCell are the formula cell the current chain of
	// formula cells entered at half of MaxDepth; tooDeep says err is
	// MaxDepth's (calcInPieces resumes from the cut).
	cutSheet, cutCell string
	tooDeep           bool
	// seen holds the long texts chargeText counted, by their bytes.
	seen map[*byte]struct{}
	// array says the caller takes the entry cell's whole array result
	// (CalcCellArray) instead of its first value.
	array bool
	// legacy holds the legacy array formulas this calculation laid out
	// over their ranges (calc_legacy_array.go).
	legacy legacyArrays
}

// newCalcGuard returns the guard of one calculation.
func newCalcGuard(ctx context.Context, lim CalcLimits) *calcGuard {
	return &calcGuard{ctx: ctx, lim: lim}
}

// CalcCellValueContext is CalcCellValue bounded by lim and ctx: when ctx
// ends the calculation stops and ctx.Err() is returned; when it would
// exceed lim, an error wrapping ErrCalcLimit. Either way nothing is
// cached and the result is "".
func (f *File) CalcCellValueContext(ctx context.Context, sheet, cell string, lim CalcLimits, opts ...Options) (string, error) {
	return f.calcCellValueGuarded(newCalcGuard(ctx, lim), sheet, cell, opts...)
}

// failed returns the guard's sticky error, or nil.
func (g *calcGuard) failed() error {
	if g == nil {
		return nil
	}
	return g.err
}

// fail records err unless a failure is already recorded, and returns the
// recorded one.
func (g *calcGuard) fail(err error) error {
	if g.err == nil {
		g.err = err
	}
	return g.err
}

// step counts one evaluation step and checks the context now and then.
func (g *calcGuard) step() error {
	return g.spend(1)
}

// spend counts n evaluation steps at once (a loop's trip count, before
// it runs).
func (g *calcGuard) spend(n float64) error {
	if g == nil {
		return nil
	}
	if g.err != nil {
		return g.err
	}
	n = clampCount(n)
	if g.lim.MaxSteps > 0 && (n > float64(g.lim.MaxSteps) || float64(g.steps)+n > float64(g.lim.MaxSteps)) {
		return g.fail(fmt.Errorf("%w: more than %d evaluation steps", ErrCalcLimit, g.lim.MaxSteps))
	}
	before := g.steps
	g.steps += int64(n)
	if g.ctx != nil && (before&^calcTickMask != g.steps&^calcTickMask || n >= calcTickMask) {
		if err := g.ctx.Err(); err != nil {
			return g.fail(err)
		}
	}
	return nil
}

// charge counts n bytes about to be allocated.
func (g *calcGuard) charge(n float64) error {
	if g == nil {
		return nil
	}
	if g.err != nil {
		return g.err
	}
	n = clampCount(n)
	if g.lim.MaxBytes > 0 && (n > float64(g.lim.MaxBytes) || float64(g.bytes)+n > float64(g.lim.MaxBytes)) {
		return g.fail(fmt.Errorf("%w: more than %d bytes", ErrCalcLimit, g.lim.MaxBytes))
	}
	g.bytes += int64(n)
	return nil
}

// maxCount bounds one count spend or charge adds, so sums of counts
// never overflow an int64 (2^52: past every limit, and exact in a
// float64).
const maxCount = 1 << 52

// clampCount turns a count given as a formula number into one to add:
// NaN and negatives (a loop that does not run) are 0, huge ones maxCount.
func clampCount(n float64) float64 {
	if !(n > 0) {
		return 0
	}
	return min(n, maxCount)
}

// maxTextFormatChars bounds the number format TEXT applies when a guard is
// set: excelize's formatter takes time and memory quadratic in a format's
// length (16,000 characters: 2 s, 1.2 GB); 255 characters is far past
// any real format. Past it the formula is left uncomputed, not #VALUE!.
const maxTextFormatChars = 255

// boundFormat stops the calculation at a TEXT format longer than
// maxTextFormatChars.
func (g *calcGuard) boundFormat(format string) error {
	if g == nil || g.err != nil || len(format) <= maxTextFormatChars || countUTF16String(format) <= maxTextFormatChars {
		return g.failed()
	}
	return g.fail(fmt.Errorf("%w: a number format of more than %d characters", ErrCalcLimit, maxTextFormatChars))
}

// textPlaceholders counts the "@" of a number format outside quoted
// literals and backslash escapes: each one repeats a text value.
func textPlaceholders(format string) int {
	n, quoted := 0, false
	for i := 0; i < len(format); i++ {
		switch c := format[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '\\':
			i++
		case c == '@':
			n++
		}
	}
	return n
}

// textShareMin is the length from which chargeText counts a text once per
// copy in memory rather than once per read: a cell read as the shared
// string it holds costs nothing new, one decoded afresh (a shared string
// table streamed from disk, escapes) costs its bytes each time.
const textShareMin = 1 << 10

// chargeText counts the text of a cell just read.
func (g *calcGuard) chargeText(s string) error {
	if g == nil || len(s) == 0 {
		return g.failed()
	}
	if len(s) >= textShareMin {
		p := unsafe.StringData(s)
		if _, ok := g.seen[p]; ok {
			return g.err
		}
		if g.seen == nil {
			g.seen = map[*byte]struct{}{}
		}
		g.seen[p] = struct{}{}
	}
	return g.charge(float64(len(s)))
}

// chargeCells counts a rows x cols array about to be allocated.
func (g *calcGuard) chargeCells(rows, cols float64) error {
	return g.charge(rows * cols * float64(formulaArgBytes))
}

// enter counts one more level of formula cells reading formula cells,
// entering sheet!cell; leave undoes it.
func (g *calcGuard) enter(sheet, cell string) error {
	if g == nil {
		return nil
	}
	if g.err != nil {
		return g.err
	}
	if g.lim.MaxDepth > 0 && g.depth >= g.lim.MaxDepth {
		g.tooDeep = true
		return g.fail(fmt.Errorf("%w: formula cells nest more than %d deep", ErrCalcLimit, g.lim.MaxDepth))
	}
	g.depth++
	if g.depth == max(g.lim.MaxDepth/2, 1) {
		g.cutSheet, g.cutCell = sheet, cell
	}
	return nil
}

// resume clears a failure of MaxDepth and returns the cell calcInPieces
// evaluates first, unless that failure was something else or its cut is
// the cell just tried (sheet!cell), which cannot get shallower.
func (g *calcGuard) resume(sheet, cell string) (cutSheet, cutCell string, ok bool) {
	if g == nil || !g.tooDeep || g.cutCell == "" || (g.cutSheet == sheet && g.cutCell == cell) {
		return "", "", false
	}
	cutSheet, cutCell = g.cutSheet, g.cutCell
	g.err, g.tooDeep, g.depth, g.cutSheet, g.cutCell = nil, false, 0, "", ""
	return cutSheet, cutCell, true
}

// calcInPieces evaluates sheet!cell as calcCellValue does. When formula
// cells reading formula cells nest past the guard's MaxDepth, it first
// evaluates on its own the cell the chain entered at half that depth
// (cellResolver caches it; values of stopped evaluations are never
// cached), then tries again: a long chain is computed in pieces of half
// the depth, each on a shallow stack, in time linear in its length.
func (f *File) calcInPieces(guard *calcGuard, entry string, maxIterations uint, sheet, cell string) (formulaArg, error) {
	type target struct{ sheet, cell string }
	pending := []target{{sheet, cell}}
	for {
		t := pending[len(pending)-1]
		ctx := &calcContext{
			entry:             entry,
			maxCalcIterations: maxIterations,
			iterations:        make(map[string]uint),
			iterationsCache:   make(map[string]formulaArg),
			guard:             guard,
		}
		var arg formulaArg
		var err error
		if len(pending) == 1 {
			arg, err = f.calcCellValue(ctx, t.sheet, t.cell)
		} else {
			arg, err = f.cellResolver(ctx, t.sheet, t.cell)
		}
		if cutSheet, cutCell, ok := guard.resume(t.sheet, t.cell); ok {
			pending = append(pending, target{cutSheet, cutCell})
			continue
		}
		if len(pending) == 1 || guard.failed() != nil {
			return arg, err
		}
		pending = pending[:len(pending)-1]
	}
}

// leave ends a level begun by enter.
func (g *calcGuard) leave() {
	if g != nil && g.depth > 0 {
		g.depth--
	}
}

// guard returns the guard of the calculation fn belongs to (nil when
// none).
func (fn *formulaFuncs) guard() *calcGuard {
	if fn == nil {
		return nil
	}
	return fn.ctx.checks()
}

// stopArg is the argument a function returns when the guard stopped the
// calculation with err; the top-level call reports err instead.
func stopArg(error) formulaArg {
	return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
}

// textTooLong reports whether parts joined would exceed Excel's
// TotalCellChars (32,767 UTF-16 code units), without joining them.
func textTooLong(parts ...string) bool {
	bytes, units := 0, 0
	for _, p := range parts {
		bytes += len(p)
	}
	if bytes <= TotalCellChars { // UTF-8 bytes >= UTF-16 units: fits
		return false
	}
	for _, p := range parts {
		if units += countUTF16String(p); units > TotalCellChars {
			return true
		}
	}
	return false
}

// textLimitArg is the #VALUE! a text result over TotalCellChars gets, as
// in Excel. Its message is #VALUE! too: a function that takes an error
// argument as text (UPPER) reads the message.
func textLimitArg() formulaArg {
	return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
}

// boundResult applies Excel's text limit to a function's result, and
// counts its text against the byte budget.
func (g *calcGuard) boundResult(arg formulaArg) formulaArg {
	if arg.Type != ArgString {
		return arg
	}
	if textTooLong(arg.String) {
		return textLimitArg()
	}
	if err := g.charge(float64(len(arg.String))); err != nil {
		return stopArg(err)
	}
	return arg
}
