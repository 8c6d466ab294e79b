// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// This file is not upstream excelize: registry-sidecar added it to its
// pinned copy of v2.11.1 (see PATCHES.md). Upstream leaves notes where they
// were when rows or columns are inserted or deleted ("TODO: adjustComments"
// in adjust.go), so a note ends up on another cell, or on none.

package excelize

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
)

var (
	// vmlShapeExp is one shape of a legacy (VML) drawing part.
	vmlShapeExp = regexp.MustCompile(`(?s)<v:shape\b.*?</v:shape>`)
	// vmlRowExp and vmlColumnExp are a note shape's cell (0-based).
	vmlRowExp    = regexp.MustCompile(`<x:Row>\s*(\d+)\s*</x:Row>`)
	vmlColumnExp = regexp.MustCompile(`<x:Column>\s*(\d+)\s*</x:Column>`)
	// vmlAnchorExp is a shape's anchor: left column, offset, top row,
	// offset, right column, offset, bottom row, offset (0-based).
	vmlAnchorExp = regexp.MustCompile(`(?s)<x:Anchor>(.*?)</x:Anchor>`)
)

// adjustComments moves the notes of sheet with their cells when rows or
// columns are inserted (offset > 0) or deleted (offset < 0, one at a
// time, at num): the comments part's references and the note shapes of the
// legacy drawing (their cell and their box's anchor). A note on a deleted
// cell is deleted with it.
func (f *File) adjustComments(ws *xlsxWorksheet, sheet string, dir adjustDirection, num, offset int) error {
	if ws.LegacyDrawing == nil {
		return nil
	}
	sheetXMLPath, _ := f.getSheetXMLPath(sheet)
	commentsXML := f.getSheetComments(filepath.Base(sheetXMLPath))
	if commentsXML == "" {
		return nil
	}
	cmts, err := f.commentsReader(sheetPartPath(commentsXML))
	if err != nil || cmts == nil {
		return err
	}
	kept := cmts.CommentList.Comment[:0]
	cmts.cells = cmts.cells[:0]
	for _, cmt := range cmts.CommentList.Comment {
		col, row, err := CellNameToCoordinates(cmt.Ref)
		if err != nil {
			return err
		}
		col, row, ok := movedCell(dir, num, offset, col, row)
		if !ok {
			continue
		}
		if cmt.Ref, err = CoordinatesToCellName(col, row); err != nil {
			return err
		}
		kept = append(kept, cmt)
		cmts.cells = append(cmts.cells, cmt.Ref)
	}
	cmts.CommentList.Comment = kept
	vmlPath := sheetPartPath(f.getSheetRelationshipsTargetByID(sheet, ws.LegacyDrawing.RID))
	if vml := f.VMLDrawing[vmlPath]; vml != nil {
		shapes := vml.Shape[:0]
		for _, shape := range vml.Shape {
			if inner, ok := moveNoteShape(shape.Val, dir, num, offset); ok {
				shape.Val = inner
				shapes = append(shapes, shape)
			}
		}
		vml.Shape = shapes
		return nil
	}
	raw, ok := f.Pkg.Load(vmlPath)
	if !ok {
		return nil
	}
	moved := vmlShapeExp.ReplaceAllStringFunc(string(raw.([]byte)), func(shape string) string {
		out, _ := moveNoteShape(shape, dir, num, offset)
		return out
	})
	f.Pkg.Store(vmlPath, []byte(moved))
	delete(f.DecodeVMLDrawing, vmlPath)
	return nil
}

// movedCell is where the cell (col, row) is after the edit; ok is false
// when the edit deleted it.
func movedCell(dir adjustDirection, num, offset, col, row int) (int, int, bool) {
	at := &row
	if dir == columns {
		at = &col
	}
	switch {
	case *at < num:
	case offset < 0 && *at < num-offset:
		return col, row, false
	default:
		*at += offset
	}
	return col, row, true
}

// moveNoteShape returns the VML of a note shape (a shape with its cell in
// x:Row and x:Column) moved with its cell, and ok false when the cell was
// deleted; any other shape comes back as it was.
func moveNoteShape(shape string, dir adjustDirection, num, offset int) (string, bool) {
	if !strings.Contains(shape, `ObjectType="Note"`) {
		return shape, true
	}
	rowAt, colAt := vmlRowExp.FindStringSubmatchIndex(shape), vmlColumnExp.FindStringSubmatchIndex(shape)
	if rowAt == nil || colAt == nil {
		return shape, true
	}
	row, _ := strconv.Atoi(shape[rowAt[2]:rowAt[3]])
	col, _ := strconv.Atoi(shape[colAt[2]:colAt[3]])
	col, row, ok := movedCell(dir, num, offset, col+1, row+1)
	if !ok {
		return "", false
	}
	shape = vmlRowExp.ReplaceAllString(shape, "<x:Row>"+strconv.Itoa(row-1)+"</x:Row>")
	shape = vmlColumnExp.ReplaceAllString(shape, "<x:Column>"+strconv.Itoa(col-1)+"</x:Column>")
	return vmlAnchorExp.ReplaceAllStringFunc(shape, func(anchor string) string {
		m := vmlAnchorExp.FindStringSubmatch(anchor)
		fields := strings.Split(m[1], ",")
		if len(fields) != 8 {
			return anchor
		}
		for _, i := range []int{0, 2, 4, 6} { // columns, then rows
			if (i == 0 || i == 4) != (dir == columns) {
				continue
			}
			n, err := strconv.Atoi(strings.TrimSpace(fields[i]))
			if err != nil {
				return anchor
			}
			if n+1 >= num {
				n = max(num-1, n+offset)
			}
			fields[i] = " " + strconv.Itoa(n)
		}
		return "<x:Anchor>" + strings.TrimPrefix(strings.Join(fields, ","), " ") + "</x:Anchor>"
	}), true
}
