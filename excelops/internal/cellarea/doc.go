// Package cellarea holds the geometry every part of excelops shares: a
// Range is a rectangle of cells (1-based, inclusive), an Area is a Range on
// a named sheet. It parses the reference operands of formulas into Areas
// (ParseArea) and answers the questions the dependency scan, the splice
// path and the tools ask of rectangles: do two overlap, does one contain
// another, does one hold a cell. It reads no workbook.
//
// The package map and the direction of imports are in ARCHITECTURE.md at
// the root of the repository.
package cellarea
