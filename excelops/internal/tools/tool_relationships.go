package tools

import (
	"context"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// discover_file_relationships: which columns of a few workbooks could join
// them. Every worksheet's row 1 is read as its header; a column whose
// header another file shares (exactly, or after relNormalize) is sampled
// over the next sample_rows rows, and each pair of files lists its shared
// columns with their value overlap, uniqueness, cardinality, join and
// types (relate_match.go); the result (relate_result.go) adds merge hints
// and groups of linked files. Files are read one at a time through
// Engine.Run, streamed, two passes each (header, then only the sampled
// columns' rows), so memory follows the sample, not the workbooks.

const (
	// defaultRelFiles is max_files by default.
	defaultRelFiles = 5
	// maxRelFiles caps max_files.
	maxRelFiles = 20
	// maxRelPaths caps how many file_paths one call may name.
	maxRelPaths = 100
	// defaultRelSampleRows is sample_rows by default.
	defaultRelSampleRows = 200
	// maxRelSampleRows caps sample_rows.
	maxRelSampleRows = 5000
	// maxRelSheets caps the worksheets read per file.
	maxRelSheets = 20
	// maxRelColumns caps the columns read per sheet, from column A.
	maxRelColumns = 100
	// maxRelSampled caps the columns sampled per call: with sample_rows it
	// bounds the distinct values kept (at most 1,000,000 hashes).
	maxRelSampled = 200
)

// discoverRelationshipsTool declares discover_file_relationships.
var discoverRelationshipsTool = typedTool(toolSpec{
	name: "discover_file_relationships", title: "Discover file relationships",
	desc: "Find the columns that link several workbooks (file_paths, or the workbooks of directory): per pair of files the columns of their sheets whose row-1 headers match exactly or after normalisation (case, spaces, id synonyms such as customer_id / CustomerID / 客户编号), " +
		"with value overlap (a normalized match needs 0.3), uniqueness (a side is \"one\" from 0.9), cardinality, suggested join and value types over the first sample_rows rows; plus merge hints (pd.merge), the external workbooks each file's formulas link (workbook_links, naming the analyzed file a link points to) and groups of linked files; shared columns paged with offset/next_offset.",
	timeout: limits.ReadTimeout,
	access:  access.Access{Scans: "directory"},
}, (*Service).discoverRelationships)

// discoverRelationshipsArgs are discover_file_relationships' arguments
// (excelmanus's names, plus recursive).
type discoverRelationshipsArgs struct {
	FilePaths  []string `json:"file_paths,omitempty" jsonschema:"Workbooks to relate, inside the workspace, e.g. [\"orders.xlsx\", \"customers.xlsx\"]; the first max_files are read. Default: the workbooks found in directory"`
	Directory  string   `json:"directory,omitempty" default:"." jsonschema:"Folder inside the workspace whose workbooks are related when file_paths is not given (default the whole workspace); the first max_files in path order are read"`
	Recursive  *bool    `json:"recursive,omitempty" jsonschema:"With directory: look into subfolders too (default true); hidden folders and links are never followed"`
	MaxFiles   *int     `json:"max_files,omitempty" minimum:"1" maximum:"20" default:"5" jsonschema:"Most workbooks read; files_left_out counts the others"`
	SampleRows *int     `json:"sample_rows,omitempty" minimum:"1" maximum:"5000" default:"200" jsonschema:"Data rows read per sheet for the value overlap and uniqueness: sheet rows 2 to sample_rows+1 (of at most 20 worksheets per file, columns A to CV; at most 200 columns with a matching header are compared per call)"`
	Offset     int      `json:"offset,omitempty" minimum:"0" jsonschema:"Shared columns to skip: pass the previous answer's next_offset (a page lists as many as fit the result size limit; a pair's merge hint comes with its first shared column)"`
}

// relOptions are the checked arguments of one call.
type relOptions struct {
	maxFiles, sampleRows int
}

// options checks a's bounds and fills in the defaults.
func (a discoverRelationshipsArgs) options() (relOptions, error) {
	o := relOptions{maxFiles: defaultRelFiles, sampleRows: defaultRelSampleRows}
	if a.MaxFiles != nil {
		if *a.MaxFiles < 1 || *a.MaxFiles > maxRelFiles {
			return o, failure.Invalid("max_files must be between 1 and %d, got %d", maxRelFiles, *a.MaxFiles)
		}
		o.maxFiles = *a.MaxFiles
	}
	if a.SampleRows != nil {
		if *a.SampleRows < 1 || *a.SampleRows > maxRelSampleRows {
			return o, failure.Invalid("sample_rows must be between 1 and %d, got %d", maxRelSampleRows, *a.SampleRows)
		}
		o.sampleRows = *a.SampleRows
	}
	if a.Offset < 0 {
		return o, failure.Invalid("offset must be >= 0")
	}
	if len(a.FilePaths) > maxRelPaths {
		return o, failure.Invalid("file_paths names %d workbooks: at most %d", len(a.FilePaths), maxRelPaths)
	}
	for i, p := range a.FilePaths {
		if p == "" {
			return o, failure.Invalid("file_paths[%d] is empty: give a workbook path", i)
		}
	}
	if len(a.FilePaths) > 0 && a.Directory != "" && a.Directory != "." {
		return o, failure.Invalid("give file_paths or directory, not both")
	}
	return o, nil
}

// relFile is one workbook of the call: its path as the call names it, as
// the result shows it, its sheets' headers once read and the external
// workbooks it links.
type relFile struct {
	path, shown string
	sheets      []relSheet
	links       []string
}

// relSheet is one worksheet's header row.
type relSheet struct {
	name string
	cols []relHeader
}

// relHeader is one named column of a header row.
type relHeader struct {
	col       int    // 1-based column number
	text, key string // header text and its relNormalize key
	stats     *relColumn
}

// relScan is the state of one call.
type relScan struct {
	o             relOptions
	files         []*relFile
	skipped       []any // files of the folder that could not be read
	leftOut       int   // files past max_files
	partial       bool  // the deadline stopped the reading
	sampledCapped bool  // more columns matched than maxRelSampled
	walkCut       bool
}

// discoverRelationships implements discover_file_relationships.
func (s *Service) discoverRelationships(ctx context.Context, a discoverRelationshipsArgs) (*engine.Call, error) {
	o, err := a.options()
	if err != nil {
		return nil, err
	}
	return &engine.Call{After: func(any) (any, error) {
		sc := &relScan{o: o}
		if err := s.relTargets(ctx, a, sc); err != nil {
			return nil, err
		}
		if err := s.relRead(ctx, sc, len(a.FilePaths) > 0); err != nil {
			return nil, err
		}
		return s.relResult(ctx, sc, a.Offset)
	}}, nil
}

// relTargets lists the files of the call: file_paths, or the folder walk.
func (s *Service) relTargets(ctx context.Context, a discoverRelationshipsArgs, sc *relScan) error {
	if len(a.FilePaths) > 0 {
		seen := map[string]bool{}
		for _, p := range a.FilePaths {
			if seen[p] {
				continue
			}
			seen[p] = true
			if len(sc.files) == sc.o.maxFiles {
				sc.leftOut++
				continue
			}
			sc.files = append(sc.files, &relFile{path: p, shown: p})
		}
		return nil
	}
	dir, err := s.engine.Box.ResolveDir(a.Directory)
	if err != nil {
		return err
	}
	found, walkCut, err := findWorkbooks(s.engine.Box, ctx, dir, a.Recursive == nil || *a.Recursive)
	if err != nil {
		return err
	}
	sc.walkCut = walkCut
	for _, w := range found {
		if len(sc.files) == sc.o.maxFiles {
			sc.leftOut++
			continue
		}
		sc.files = append(sc.files, &relFile{path: w.path, shown: s.relPath(w.path)})
	}
	return nil
}

// relRead runs both passes over the files, each file through Engine.Run
// under its shared lock. The headers get a third of the time left before
// the call's stop (inspectStopAt), the samples the rest; a file a stop
// cuts is left out with the files after it, and the answer says partial.
// A file of file_paths that cannot be read fails the call (strict); one
// found in the folder is listed in skipped and left out.
func (s *Service) relRead(ctx context.Context, sc *relScan, strict bool) error {
	now := time.Now()
	stopAt := inspectStopAt(ctx, now)
	acc := access.Access{Files: []access.FileUse{{Arg: "file_paths", Touch: access.TouchStream}}}
	each := func(until time.Time, pass func(ctx context.Context, b *engine.Book, f *relFile) error) error {
		passCtx := ctx
		if !until.IsZero() {
			var cancel context.CancelFunc
			passCtx, cancel = context.WithDeadline(ctx, until)
			defer cancel()
		}
		kept := sc.files[:0]
		shown := map[string]bool{}
		for _, f := range sc.files {
			_, err := s.engine.Run(passCtx, acc, engine.OnBook(f.path, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
				if strict {
					f.shown = s.relPath(b.Path) // as the folder walk shows it
				}
				return nil, pass(passCtx, b, f)
			}))
			switch {
			case err != nil && passCtx.Err() != nil && ctx.Err() == nil:
				sc.partial = true // this file and the rest are left out
				sc.files = kept
				return nil
			case err != nil && (strict || ctx.Err() != nil):
				return err
			case err != nil:
				sc.skipped = append(sc.skipped, pyjson.Object{field("file", f.shown), field("error", err.Error())})
				continue
			case shown[f.shown]:
				continue // the same workbook named twice
			}
			shown[f.shown] = true
			kept = append(kept, f)
		}
		sc.files = kept
		return nil
	}
	headersUntil := stopAt
	if !stopAt.IsZero() {
		headersUntil = now.Add(stopAt.Sub(now) / 3)
	}
	if err := each(headersUntil, func(ctx context.Context, b *engine.Book, f *relFile) error { return relHeaders(b, ctx, f) }); err != nil {
		return err
	}
	sc.pickSampled()
	return each(stopAt, func(ctx context.Context, b *engine.Book, f *relFile) error {
		return relSample(b, ctx, f, sc.o.sampleRows)
	})
}

// relHeaders reads row 1 of each worksheet of f (at most maxRelSheets, and
// maxRelColumns columns each), keeping the named columns.
func relHeaders(b *engine.Book, ctx context.Context, f *relFile) error {
	links, err := b.LinkedWorkbooks()
	if err != nil {
		return err
	}
	f.links = links
	list, _ := b.SheetList()
	f.sheets = f.sheets[:0]
	for _, name := range list {
		if len(f.sheets) == maxRelSheets {
			break
		}
		kind, err := b.SheetKindOf(name)
		if err != nil {
			return err
		}
		if kind != opc.Worksheet {
			continue
		}
		sh := relSheet{name: name}
		err = b.Rows(ctx, name, 1, 1, 1, maxRelColumns, func(_ int, vals []any) bool {
			for i, v := range vals {
				text := cellText(v)
				if v == nil || relSkippedHeader(text) {
					continue
				}
				sh.cols = append(sh.cols, relHeader{col: i + 1, text: text, key: relNormalize(text)})
			}
			return false
		})
		if err != nil {
			return err
		}
		f.sheets = append(f.sheets, sh)
	}
	return nil
}

// pickSampled gives a column statistics to fill when another file has a
// column of the same header or key, the first maxRelSampled in file, sheet
// and column order.
func (sc *relScan) pickSampled() {
	texts, keys := map[string]map[int]bool{}, map[string]map[int]bool{}
	mark := func(m map[string]map[int]bool, k string, i int) {
		if m[k] == nil {
			m[k] = map[int]bool{}
		}
		m[k][i] = true
	}
	for i, f := range sc.files {
		for _, sh := range f.sheets {
			for _, c := range sh.cols {
				mark(texts, c.text, i)
				if c.key != "" {
					mark(keys, c.key, i)
				}
			}
		}
	}
	picked := 0
	for _, f := range sc.files {
		for si := range f.sheets {
			for ci := range f.sheets[si].cols {
				c := &f.sheets[si].cols[ci]
				if len(texts[c.text]) < 2 && (c.key == "" || len(keys[c.key]) < 2) {
					continue
				}
				if picked == maxRelSampled {
					sc.sampledCapped = true
					continue
				}
				picked++
				c.stats = &relColumn{}
			}
		}
	}
}

// relSample streams rows 2 to sampleRows+1 of each sheet of f holding a
// sampled column, up to its last sampled column, into the statistics.
func relSample(b *engine.Book, ctx context.Context, f *relFile, sampleRows int) error {
	for _, sh := range f.sheets {
		last := 0
		for _, c := range sh.cols {
			if c.stats != nil {
				last = c.col
			}
		}
		if last == 0 {
			continue
		}
		err := b.WalkRows(ctx, sh.name, 2, sampleRows+1, 1, last, sheetread.RowOpts{}, func(_ int, rr *sheetread.RowReader) bool {
			for _, c := range sh.cols {
				if c.stats == nil {
					continue
				}
				var v any
				if c.col-1 < len(rr.Vals) {
					v = rr.Vals[c.col-1]
				}
				c.stats.add(v, relDated(rr.Dated, c.col-1))
			}
			return true
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// relDated reports whether index i is among the row's date cells.
func relDated(dated []int, i int) bool {
	for _, d := range dated {
		if d == i {
			return true
		}
	}
	return false
}
