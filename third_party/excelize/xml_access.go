// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// This file is not upstream excelize: registry-sidecar added it to its
// pinned copy of v2.11.1 (see PATCHES.md). It gives typed access to the
// parts excelize has parsed, for callers that edit a worksheet in place
// where the public API has no operation for it (move a cell with
// everything it holds, store a formula's cached value with its type,
// rewrite the references of conditional formats and data validations,
// keep a filter value with spaces). The types are aliases of excelize's
// own XML element types, so what a caller reaches is exactly what excelize
// marshals back; nothing here copies or re-encodes.

package excelize

import "strings"

// XMLWorksheet is the parsed form of a worksheet part (<worksheet>), as
// excelize keeps it in File.Sheet.
type XMLWorksheet = xlsxWorksheet

// XMLRow is one <row> of a worksheet's sheetData.
type XMLRow = xlsxRow

// XMLCell is one <c> element of a row.
type XMLCell = xlsxC

// XMLFormula is the <f> element of a cell.
type XMLFormula = xlsxF

// XMLSheetPr is a worksheet's <sheetPr> element (tab colour, code name,
// filter mode, outline and page setup properties).
type XMLSheetPr = xlsxSheetPr

// XMLAutoFilter is an <autoFilter> element (of a worksheet or a table).
type XMLAutoFilter = xlsxAutoFilter

// XMLFilterColumn is one <filterColumn> of an autoFilter.
type XMLFilterColumn = xlsxFilterColumn

// XMLFilters is the <filters> element of a filter column.
type XMLFilters = xlsxFilters

// XMLCustomFilters is the <customFilters> element of a filter column.
type XMLCustomFilters = xlsxCustomFilters

// XMLCustomFilter is one <customFilter> criterion.
type XMLCustomFilter = xlsxCustomFilter

// XMLConditionalFormatting is one <conditionalFormatting> element of a
// worksheet: its sqref and its rules.
type XMLConditionalFormatting = xlsxConditionalFormatting

// XMLDataValidations is a worksheet's <dataValidations> element.
type XMLDataValidations = xlsxDataValidations

// XMLHyperlinks is a worksheet's <hyperlinks> element.
type XMLHyperlinks = xlsxHyperlinks

// XMLDrawing is the parsed form of a drawing part (<xdr:wsDr>), as excelize
// keeps it in File.Drawings.
type XMLDrawing = xlsxWsDr

// XMLAnchor is one anchor (two-cell, one-cell or absolute) of a drawing:
// its position and the object it places.
type XMLAnchor = xdrCellAnchor

// SheetXMLPath returns the package part that holds sheet (such as
// "xl/worksheets/sheet1.xml"); the sheet name is matched without regard to
// case, as everywhere in excelize. ok is false when the workbook has no
// such sheet. Chart sheets have a part too ("xl/chartsheets/...").
func (f *File) SheetXMLPath(sheet string) (part string, ok bool) {
	return f.getSheetXMLPath(sheet)
}

// Worksheet returns the parsed worksheet of sheet, parsing its part first
// if excelize has not yet (the same reader every cell function uses). The
// result is the worksheet excelize saves: changes made to it are written
// by the next Save or Write. Like the rest of a File, it is not to be
// changed while another goroutine works on the same sheet. It returns
// ErrSheetNotExist for an unknown sheet and an error for a chart sheet or
// a part that does not parse.
func (f *File) Worksheet(sheet string) (*XMLWorksheet, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.workSheetReader(sheet)
}

// XMLPath returns the package part a table read by GetTables lives in
// (such as "xl/tables/table1.xml"), "" for a Table that was not read from
// a workbook.
func (t Table) XMLPath() string {
	return t.tableXML
}

// ParsePart parses the package part at path with the reader excelize's own
// operations use for it, as a first use would, so that the next Write
// saves the part re-serialised from its parsed form. A caller that wants
// to know whether an edit changed a part (or only re-serialised it) parses
// the same part of a fresh copy of the original and compares the two
// saves. ok is false for a part excelize keeps as raw bytes: it is saved
// byte for byte unless an operation replaces it.
func (f *File) ParsePart(path string) (ok bool, err error) {
	switch {
	case path == defaultXMLPathContentTypes:
		_, err = f.contentTypesReader()
	case path == f.getWorkbookPath():
		_, err = f.workbookReader()
	case strings.HasSuffix(path, ".rels"):
		_, err = f.relsReader(path)
	case path == defaultXMLPathSharedStrings:
		_, err = f.sharedStringsReader()
	case path == defaultXMLPathStyles:
		_, err = f.stylesReader()
	case path == defaultXMLPathTheme:
		// Parsed when the workbook is opened.
	case path == defaultXMLPathCalcChain:
		_, err = f.calcChainReader()
	case path == defaultXMLPathVolatileDeps:
		_, err = f.volatileDepsReader()
	case strings.HasPrefix(path, "xl/drawings/") && !strings.HasPrefix(path, "xl/drawings/_rels/") && strings.HasSuffix(path, ".xml"):
		_, _, err = f.drawingParser(path)
	case strings.HasPrefix(path, "xl/comments") && strings.HasSuffix(path, ".xml"):
		_, err = f.commentsReader(path)
	default:
		for sheet, part := range f.sheetMap {
			if part == path {
				_, err = f.Worksheet(sheet)
				return true, err
			}
		}
		return false, nil
	}
	return true, err
}
