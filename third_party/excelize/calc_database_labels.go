// registry-sidecar addition (PATCHES.md): how the database functions read
// the labels of their database and criteria ranges, as LibreOffice does.

package excelize

import "strings"

// openDatabase is the database that a database function's arguments
// describe, or the error the function answers instead: the error of the
// database's labels when field names none of them (databaseFieldError),
// else #VALUE! for a range too small, a field naming no column, or a
// criteria label naming no column (criteriaLabelsKnown).
func openDatabase(database, field, criteria formulaArg) (*calcDatabase, formulaArg) {
	if err, ok := databaseFieldError(database, field); ok {
		return nil, err
	}
	db := newCalcDatabase(database, field, criteria)
	if db == nil || !criteriaLabelsKnown(db.database, db.criteria) {
		return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	return db, formulaArg{}
}

// databaseFieldError is the error a database function answers when field
// is a text naming no column of database and the last label of the header
// row is an error value: LibreOffice reads the labels in order and keeps
// the error of the last one read, so DSUM(E1:E3,"Price",E8:E9) is #N/A
// when E1 holds #N/A (a header ending in text or a blank gives its
// parameter error, #VALUE! here). ok is false in every other case.
func databaseFieldError(database, field formulaArg) (formulaArg, bool) {
	if database.Type != ArgMatrix || len(database.Matrix) == 0 || len(database.Matrix[0]) == 0 {
		return formulaArg{}, false
	}
	if field.Type == ArgEmpty || field.ToNumber().Type == ArgNumber {
		return formulaArg{}, false
	}
	labels := database.Matrix[0]
	for _, label := range labels {
		if label.Type != ArgError && strings.EqualFold(label.Value(), field.Value()) {
			return formulaArg{}, false
		}
	}
	if last := labels[len(labels)-1]; last.Type == ArgError {
		return last, true
	}
	return formulaArg{}, false
}

// criteriaLabelsKnown reports whether every label of the criteria range's
// first row names a column of database. Microsoft's database function
// pages ask for a criteria range holding column labels; LibreOffice
// refuses one with a label naming no column, a blank label included
// (Err:504, its parameter error), where upstream matched no record.
func criteriaLabelsKnown(database, criteria [][]formulaArg) bool {
	if len(criteria) == 0 {
		return false
	}
	for _, label := range criteria[0] {
		if criteriaLabelIndex(database, label) < 0 {
			return false
		}
	}
	return true
}
