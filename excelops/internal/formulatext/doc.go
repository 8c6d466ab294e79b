// Package formulatext reads what a formula's text says, with no workbook in
// sight: whether its result may spill (MaySpill) or must be stored as an
// array formula even when it is one value (NeedsArrayFormula), whether a
// plain formula of it is intersected with its row or column
// (IntersectedInPlain), whether the engine computes it unlike Excel
// (Inexact, over the tokens AreaIndexAsRange gives; CallsUncomputedForm for
// CELL and PHONETIC), whether its result is certainly text (ResultKind),
// and how a file spells it: the prefixes of newer functions and of LET and
// LAMBDA names, the @ operator as _xlfn.SINGLE and spill references (C3#)
// as _xlfn.ANCHORARRAY (WithFilePrefixes, WithoutFilePrefixes).
//
//	formulatext.MaySpill("SUM(A1:A5*B1:B5)") // true
//	formulatext.WithFilePrefixes(`TEXTJOIN(",",TRUE,C3#)`, funcs)
//	// _xlfn.TEXTJOIN(",",TRUE,_xlfn.ANCHORARRAY(C3))
//
// Whatever needs the workbook (what a formula cell holds, the cells a range
// reads, the spill a formula makes) stays in excelops, which calls this
// package. The package map is in ARCHITECTURE.md at the root of the
// repository.
package formulatext
