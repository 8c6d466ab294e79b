// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// This file is not upstream excelize: registry-sidecar added it to its
// pinned copy of v2.11.1 (see PATCHES.md, section 12). It computes the
// whole array a formula returns, and stores a formula as Excel 365 stores
// a dynamic array formula: an anchor cell whose <f t="array" ref="...">
// names the spill range and whose cm attribute points at a cell metadata
// record of xl/metadata.xml with the XLDAPR dynamic array properties.

package excelize

import (
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/xuri/efp"
)

// ArrayValue is one value of an array result, as a worksheet stores it.
type ArrayValue struct {
	// Type is CellTypeNumber, CellTypeBool, CellTypeError,
	// CellTypeInlineString (text) or CellTypeUnset (an empty text); a
	// blank cell of the result is the number 0, as Excel shows it.
	Type CellType
	// Value is the number as Excel writes it, "1" or "0" for a boolean,
	// the error value or the text.
	Value string
}

// CalcCellArray computes the formula of sheet!cell, bounded like
// CalcCellValueContext, and returns its whole result as rows of values: a
// function returning an array (SEQUENCE, UNIQUE...) gives all its rows and
// columns, a scalar result one row of one value. An Excel error result is
// one value of CellTypeError; an error is returned when the calculator
// cannot compute the formula or the calculation stopped. Nothing is cached.
func (f *File) CalcCellArray(ctx context.Context, sheet, cell string, lim CalcLimits) ([][]ArrayValue, error) {
	guard := newCalcGuard(ctx, lim)
	guard.array = true
	token, err := f.calcInPieces(guard, sheet+"!"+cell, f.getOptions().MaxCalcIterations, sheet, cell)
	if guard.failed() != nil {
		return nil, guard.failed()
	}
	if err != nil {
		if token.Type == ArgError && token.Error == token.String {
			return [][]ArrayValue{{{Type: CellTypeError, Value: token.String}}}, nil
		}
		return nil, err
	}
	m := matrixOf(token)
	if m == nil {
		return nil, errors.New("the formula returns an empty array")
	}
	out := make([][]ArrayValue, len(m))
	for r, row := range m {
		out[r] = make([]ArrayValue, len(row))
		for c, v := range row {
			out[r][c] = arrayValueOf(v)
		}
	}
	return out, nil
}

// arrayValueOf converts one value of an array result.
func arrayValueOf(v formulaArg) ArrayValue {
	switch v.Type {
	case ArgNumber:
		if v.Boolean {
			if v.Number != 0 {
				return ArrayValue{CellTypeBool, "1"}
			}
			return ArrayValue{CellTypeBool, "0"}
		}
		_, precision, decimal := isNumeric(v.Value())
		if precision > 15 {
			return ArrayValue{CellTypeNumber, strings.ToUpper(strconv.FormatFloat(decimal, 'G', 15, 64))}
		}
		return ArrayValue{CellTypeNumber, strings.ToUpper(strconv.FormatFloat(decimal, 'f', -1, 64))}
	case ArgString:
		if v.String == "" {
			return ArrayValue{CellTypeUnset, ""}
		}
		return ArrayValue{CellTypeInlineString, v.String}
	case ArgError:
		return ArrayValue{CellTypeError, v.String}
	case ArgEmpty:
		return ArrayValue{CellTypeNumber, "0"} // a blank cell spilled shows 0, as in Excel
	case ArgMatrix, ArgList:
		if l := v.ToList(); len(l) > 0 {
			return arrayValueOf(l[0])
		}
	}
	return ArrayValue{CellTypeUnset, ""}
}

// ErrDynamicArrayMetadata reports a workbook whose xl/metadata.xml does not
// hold the dynamic array record in the place SetDynamicArrayFormula can
// reuse (a metadata part written for other metadata, such as images in
// cells); the formula is left as it was.
var ErrDynamicArrayMetadata = errors.New("the workbook's cell metadata has no dynamic array record to point at")

// Package names of the cell metadata part.
const (
	// ContentTypeSheetMetadata is the content type of xl/metadata.xml.
	ContentTypeSheetMetadata = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml"
	// SourceRelationshipSheetMetadata is the type of the workbook's
	// relationship to xl/metadata.xml.
	SourceRelationshipSheetMetadata = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata"
)

// dynamicArrayMetadata is the metadata part of a workbook whose only cell
// metadata is the dynamic array record: metadata type 1 is XLDAPR, its
// future metadata block 0 sets fDynamic, and cell metadata block 1 (the
// cm="1" of an anchor) points at it.
const dynamicArrayMetadata = `<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:xda="http://schemas.microsoft.com/office/spreadsheetml/2017/dynamicarray">` +
	`<metadataTypes count="1"><metadataType name="XLDAPR" minSupportedVersion="120000" copy="1" pasteAll="1" pasteValues="1" merge="1" splitFirst="1" rowColShift="1" clearFormats="1" clearComments="1" assign="1" coerce="1" cellMeta="1"/></metadataTypes>` +
	`<futureMetadata name="XLDAPR" count="1"><bk><extLst><ext uri="{bdbb8cdc-fa1e-496e-a857-3c3f30c029c3}"><xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/></ext></extLst></bk></futureMetadata>` +
	`<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata></metadata>`

// dynamicArrayCM returns the cm value of a dynamic array anchor, writing
// xl/metadata.xml (with its relationship and content type) when the
// workbook has none (see DynamicArrayMetadataPart).
func (f *File) dynamicArrayCM() (uint, error) {
	raw := f.readBytes(defaultXMLMetadata)
	if len(raw) == 0 {
		f.saveFileList(defaultXMLMetadata, []byte(dynamicArrayMetadata))
		f.addRels(f.getWorkbookRelsPath(), SourceRelationshipSheetMetadata, "metadata.xml", "")
		return 1, f.setContentTypes("/"+defaultXMLMetadata, ContentTypeSheetMetadata)
	}
	md, err := f.metadataReader()
	if err != nil {
		return 0, err
	}
	return dynamicArrayCMOf(md)
}

// DynamicArrayMetadataPart tells a writer that edits a package without
// opening it what a dynamic array anchor needs, as SetDynamicArrayFormula
// does it: raw is the workbook's xl/metadata.xml (empty when it has none).
// It returns the anchor's cm value and, when the workbook has no metadata
// part, the part to add (the caller adds its content type and the
// workbook's relationship to it); ErrDynamicArrayMetadata when the existing
// part holds other metadata.
func DynamicArrayMetadataPart(raw []byte) (cm uint, part []byte, err error) {
	if len(raw) == 0 {
		return 1, []byte(dynamicArrayMetadata), nil
	}
	var md xlsxMetadata
	if err := xml.NewDecoder(bytes.NewReader(namespaceStrictToTransitional(raw))).Decode(&md); err != nil && err != io.EOF {
		return 0, nil, err
	}
	cm, err = dynamicArrayCMOf(&md)
	return cm, nil, err
}

// dynamicArrayCMOf is the cm value of an anchor in a workbook whose cell
// metadata is md: reused only when its first metadata type is XLDAPR and
// its first cell metadata block points at it.
func dynamicArrayCMOf(md *xlsxMetadata) (uint, error) {
	types := ""
	if md.MetadataTypes != nil {
		types = md.MetadataTypes.Content
	}
	first := bytes.Index([]byte(types), []byte("<metadataType "))
	if first < 0 || !strings.HasPrefix(strings.TrimSpace(types[first+len("<metadataType "):]), `name="XLDAPR"`) ||
		md.CellMetadata == nil || len(md.CellMetadata.Bk) == 0 || len(md.CellMetadata.Bk[0].Rc) != 1 ||
		md.CellMetadata.Bk[0].Rc[0].T != 1 {
		return 0, ErrDynamicArrayMetadata
	}
	return 1, nil
}

// SetDynamicArrayFormula makes the formula of sheet!cell a dynamic array
// formula spilling over ref (a range whose top-left cell is cell, or cell
// alone for one that does not spill, such as a #SPILL! result): its <f>
// becomes t="array" with that ref and the cell points at the dynamic array
// cell metadata (cm), which is added to the workbook when missing. The
// cells of ref other than cell are not touched: the caller stores their
// values. The cell must hold a formula.
func (f *File) SetDynamicArrayFormula(sheet, cell, ref string) error {
	ws, err := f.workSheetReader(sheet)
	if err != nil {
		return err
	}
	cm, err := f.dynamicArrayCM()
	if err != nil {
		return err
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	c, _, _, err := ws.prepareCell(cell)
	if err != nil {
		return err
	}
	if c.F == nil || c.F.Content == "" {
		return errors.New("cell " + cell + " holds no formula")
	}
	f.clearCalcCache()
	c.F.T, c.F.Ref, c.F.Si = STCellFormulaTypeArray, ref, nil
	c.Cm = &cm
	return nil
}

// isDynamicArrayAnchor reports whether c is the anchor of a dynamic array
// formula: its spilled cells hold plain values, which are not computed
// from the anchor's formula as a legacy array formula's cells are.
func isDynamicArrayAnchor(c *xlsxC) bool {
	return c.Cm != nil && c.F != nil && c.F.T == STCellFormulaTypeArray
}

// keepsArray reports whether the array a function returns in sheet!cell
// stays whole: the calculation is CalcCellArray's, the cell is its entry
// cell (not a formula cell it reads), and the call is the last token of the
// formula, so no operator applies to the array (the calculator has no
// arithmetic on arrays).
func (g *calcGuard) keepsArray(ctx *calcContext, sheet, cell string, next efp.Token) bool {
	return g != nil && g.array && ctx.entry == sheet+"!"+cell && next.TValue == "" && next.TType == ""
}
