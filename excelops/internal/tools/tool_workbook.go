package tools

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// Workbook-level tools: create_workbook and list_workbooks (this file),
// describe_workbook (tool_describe.go), define_name (tool_define_name.go),
// copy_sheet (tool_copy_sheet.go), clear_range (tool_clear.go) and
// delete_range (tool_delete_range.go). Their specs are workbookTools.

const (
	// maxNewSheets caps the sheets create_workbook makes in one call.
	maxNewSheets = 255
	// defaultListedWorkbooks is list_workbooks' page size by default.
	defaultListedWorkbooks = 50
	// maxListedWorkbooks caps one list_workbooks page.
	maxListedWorkbooks = 500
	// maxWalkedEntries caps the folder entries list_workbooks visits, so a
	// huge workspace costs a bounded walk (the result then says truncated).
	maxWalkedEntries = 200000
)

// newSheetNames checks the sheet names a new workbook gets (default
// "Sheet1"): valid, distinct ignoring case, at most maxNewSheets.
func (a createWorkbookArgs) newSheetNames() ([]string, error) {
	names := a.SheetNames
	switch {
	case a.SheetName != "" && len(names) > 0:
		return nil, failure.Invalid("pass sheet_name (one sheet) or sheet_names (several), not both")
	case a.SheetName != "":
		names = []string{a.SheetName}
	case a.SheetNames != nil && len(names) == 0:
		return nil, failure.Invalid("sheet_names is empty: a workbook needs at least one sheet")
	case len(names) == 0:
		names = []string{"Sheet1"}
	}
	if len(names) > maxNewSheets {
		return nil, failure.Invalid("at most %d sheets per new workbook, got %d", maxNewSheets, len(names))
	}
	seen := map[string]string{}
	for _, n := range names {
		if err := engine.CheckSheetName(n); err != nil {
			return nil, err
		}
		key := strings.ToLower(n)
		if prev, dup := seen[key]; dup {
			return nil, failure.Invalid("sheet names %q and %q are the same to Excel (names ignore case)", prev, n)
		}
		seen[key] = n
	}
	return names, nil
}

// createWorkbookTool declares create_workbook.
var createWorkbookTool = typedTool(toolSpec{
	name: "create_workbook", title: "Create workbook",
	desc:    "Create a new empty workbook with the given sheets; an existing file is replaced only with overwrite=true.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("", access.SheetNone, access.Access{KeepsValues: true, Destructive: true, Idempotent: true}),
}, (*Service).createWorkbook)

// createWorkbookArgs are create_workbook's arguments.
type createWorkbookArgs struct {
	fileArg
	SheetName  string   `json:"sheet_name,omitempty" jsonschema:"Name of the one sheet of the new workbook (default \"Sheet1\"); use sheet_names for several"`
	SheetNames []string `json:"sheet_names,omitempty" minItems:"1" maxItems:"255" jsonschema:"Names of the sheets of the new workbook, in order, e.g. [\"Data\", \"Summary\"]"`
	Overwrite  bool     `json:"overwrite,omitempty" jsonschema:"Replace an existing file with the new empty workbook, losing its content (default false: an existing file is refused)"`
}

// createWorkbook implements create_workbook: a new workbook with the given
// sheets; an existing file is replaced only with overwrite=true.
func (s *Service) createWorkbook(_ context.Context, a createWorkbookArgs) (*engine.Call, error) {
	names, err := a.newSheetNames()
	if err != nil {
		return nil, err
	}
	c := engine.OnBook(a.FilePath, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		exists := !b.Created
		if exists && !a.Overwrite {
			return nil, failure.Invalid("%s already exists; pass overwrite: true to replace it with an empty workbook (its content is lost), or choose another file_path", b.Name())
		}
		if err := b.SetSheetName("Sheet1", names[0]); err != nil {
			return nil, failure.New(failure.KindInvalidArgument, "cannot name sheet: "+err.Error(), err)
		}
		for _, n := range names[1:] {
			if _, err := b.NewSheet(n); err != nil {
				return nil, err
			}
		}
		for _, n := range names {
			b.Track(n)
		}
		sheets := make([]any, len(names))
		for i, n := range names {
			sheets[i] = n
		}
		return success(b.Name(), "",
			field("path", s.relPath(b.Path)),
			field("sheets", sheets),
			field("overwritten", exists)), nil
	})
	c.Create = engine.CreateFresh
	return c, nil
}

// relPath is a resolved path as the workspace-relative, slash-separated
// file_path an agent passes back.
func (s *Service) relPath(path string) string {
	return s.engine.Box.Show(path)
}

// foundWorkbook is one workbook file list_workbooks found.
type foundWorkbook struct {
	path string // real path
	info fs.FileInfo
}

// findWorkbooks walks dir (into subfolders when recursive, never into
// hidden folders or through links) for workbook files, in lexical order;
// truncated reports that the walk stopped at maxWalkedEntries.
func findWorkbooks(s *workspace.Root, ctx context.Context, dir string, recursive bool) ([]foundWorkbook, bool, error) {
	var out []foundWorkbook
	visited := 0
	truncated := false
	err := s.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil // an unreadable subfolder is skipped
		}
		if visited++; visited > maxWalkedEntries {
			truncated = true
			return filepath.SkipAll
		}
		if visited%1024 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (!recursive || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		// Excel's owner files (~$Book.xlsx) are locks, not workbooks.
		if !d.Type().IsRegular() || strings.HasPrefix(name, "~$") || strings.HasPrefix(name, ".") || engine.CheckExtension(name) != nil {
			return nil
		}
		// Through the handle: DirEntry.Info would stat the entry again
		// by its absolute name, outside the root's protection.
		info, err := s.Lstat(p)
		if err != nil || !info.Mode().IsRegular() {
			return nil // gone or replaced meanwhile
		}
		out = append(out, foundWorkbook{path: p, info: info})
		return nil
	})
	if err != nil {
		if failure.KindOf(err) != "" || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, false, err
		}
		return nil, false, failure.New(failure.KindIO, "cannot list the folder: "+err.Error(), err)
	}
	return out, truncated, nil
}

// listWorkbooksTool declares list_workbooks.
var listWorkbooksTool = typedTool(toolSpec{
	name: "list_workbooks", title: "List workbooks",
	desc:    "List the workbook files (.xlsx, .xlsm) of the workspace or of a folder with size, modified time and sheet names, paged with offset/max_results.",
	timeout: limits.ReadTimeout,
	access:  access.Access{Lists: "folder"},
}, (*Service).listWorkbooks)

// listWorkbooksArgs are list_workbooks' arguments.
type listWorkbooksArgs struct {
	Folder     string `json:"folder,omitempty" jsonschema:"Folder inside the workspace to list, e.g. \"reports/2024\"; default the whole workspace"`
	Recursive  *bool  `json:"recursive,omitempty" jsonschema:"Look into subfolders too (default true); hidden folders are never entered"`
	Offset     int    `json:"offset,omitempty" minimum:"0" jsonschema:"Workbooks to skip: pass the previous page's next_offset"`
	MaxResults *int   `json:"max_results,omitempty" minimum:"1" maximum:"500" jsonschema:"Most workbooks per page (default 50); has_more/next_offset say where to go on"`
}

// listWorkbooks implements list_workbooks: the workbook files of the
// workspace (or of a folder), paged, each with its size, modification time
// and sheet names; a file that cannot be read is listed with an error.
func (s *Service) listWorkbooks(ctx context.Context, a listWorkbooksArgs) (*engine.Call, error) {
	if a.Offset < 0 {
		return nil, failure.Invalid("offset must be >= 0")
	}
	limit := defaultListedWorkbooks
	if a.MaxResults != nil {
		if *a.MaxResults < 1 || *a.MaxResults > maxListedWorkbooks {
			return nil, failure.Invalid("max_results must be between 1 and %d, got %d", maxListedWorkbooks, *a.MaxResults)
		}
		limit = *a.MaxResults
	}
	// The folder is no workbook: the listing runs in after, with no lock
	// held; each workbook's sheet list is read through Engine.Run.
	return &engine.Call{After: func(any) (any, error) {
		return s.listIn(ctx, a.Folder, a.Recursive == nil || *a.Recursive, a.Offset, limit)
	}}, nil
}

// listIn is list_workbooks on the folder (workspace-relative), paged.
func (s *Service) listIn(ctx context.Context, folder string, recursive bool, offset, limit int) (any, error) {
	dir, err := s.engine.Box.ResolveDir(folder)
	if err != nil {
		return nil, err
	}
	found, truncated, err := findWorkbooks(s.engine.Box, ctx, dir, recursive)
	if err != nil {
		return nil, err
	}
	start := min(offset, len(found))
	end := min(start+limit, len(found))
	items := make([]any, 0, end-start)
	for _, w := range found[start:end] {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		items = append(items, s.describeFile(ctx, w))
	}
	res := success("", "",
		field("folder", s.relPath(dir)),
		field("total", len(found)),
		field("offset", offset),
		field("returned", len(items)),
		field("has_more", end < len(found)))
	if end < len(found) {
		res = append(res, pyjson.Field{Key: "next_offset", Value: end})
	}
	if truncated {
		res = append(res, pyjson.Field{Key: "truncated", Value: fmt.Sprintf("the walk stopped after %d folder entries; list a subfolder to see the rest", maxWalkedEntries)})
	}
	return append(res, pyjson.Field{Key: "workbooks", Value: items}), nil
}

// describeFile is one list_workbooks entry: path, size, modification time
// and sheet names (from the package index only), or the reason the file
// cannot be read.
func (s *Service) describeFile(ctx context.Context, w foundWorkbook) pyjson.Object {
	o := pyjson.Object{
		{Key: "path", Value: s.relPath(w.path)},
		{Key: "size_bytes", Value: w.info.Size()},
		{Key: "modified", Value: w.info.ModTime().UTC().Format("2006-01-02T15:04:05Z")},
	}
	res, err := s.engine.Run(ctx, access.Access{Files: []access.FileUse{{Arg: "file_path", Touch: access.TouchStyles}}}, engine.OnBook(w.path, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		list, _ := b.SheetList()
		names := make([]any, len(list))
		for i, n := range list {
			names[i] = n
		}
		return names, nil
	}))
	if err != nil {
		return append(o, pyjson.Field{Key: "error", Value: err.Error()})
	}
	return append(o, pyjson.Field{Key: "sheets", Value: res})
}
