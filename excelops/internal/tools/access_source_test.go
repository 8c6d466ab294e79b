package tools

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lifecycleCalls are the steps of a workbook's lifecycle and the functions
// allowed to take them: the entry point (run.go, run_excelize.go, the
// splice attempt) and the helpers that implement one step. A tool that
// locked, opened or saved a workbook by itself would bypass its declaration.
func lifecycleCalls() map[string][]string {
	return map[string][]string{
		"LockAll":              {"runLocked"},
		"checkout":             {"readOne", "excelizeOnce"},
		"OpenBook":             {"readOne", "checkout", "checkUntouchedSheets"}, // checkUntouchedSheets: the other sheets, read under the edit's lock
		"checkUntouchedSheets": {"runLocked"},
		"OpenCopy":             {"renderCopy"}, // renderCopy: its private copy, in memory
		"openBook":             {"spliceOnce"}, // the splice path's own opening (splicepath)
		"spliceOnce":           {"Edit"},
		"excelizeOnce":         {"editOnce"},
		"save":                 {"excelizeOnce"},
		"WriteAtomic":          {"save", "spliceOnce", "renderCopy"}, // renderCopy: the PNG, not a workbook
		"checkin":              {"readOne", "excelizeOnce"},
	}
}

// TestOnlyTheEntryPointLocksOpensAndSaves reads the package's source: each
// lifecycle step is called only where the entry point takes it.
func TestOnlyTheEntryPointLocksOpensAndSaves(t *testing.T) {
	allowed := lifecycleCalls()
	seen := map[string]bool{}
	eachFuncBody(t, func(fset *token.FileSet, fn *ast.FuncDecl) {
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			var callee string
			switch fun := call.Fun.(type) {
			case *ast.SelectorExpr:
				callee = fun.Sel.Name
			case *ast.Ident:
				callee = fun.Name
			}
			if who, ok := allowed[callee]; ok {
				seen[callee] = true
				assert.Contains(t, who, fn.Name.Name, "%s calls %s (%s): only the entry point may", fn.Name.Name, callee, fset.Position(call.Pos()))
			}
			return true
		})
	})
	var missing []string
	for callee := range allowed {
		if !seen[callee] {
			missing = append(missing, callee)
		}
	}
	sort.Strings(missing)
	assert.Empty(t, missing, "steps never called: the table is stale")
}

// directFileCalls are the os and filepath functions that reach the file
// system by name, and the only functions allowed to call them: the
// workspace's checks and handle (internal/workspace: Open, Resolve,
// ResolveDir) and work on the calls' private temporary folders, never on a
// workspace path (renderCopy here; internal/render: ConvertToPNG,
// WriteProfileSettings, CropPage, ProbeNetns). Every other file operation goes through the workspace
// handle (workspace.Root).
func directFileCalls() map[string][]string {
	return map[string][]string{
		"os.OpenRoot":           {"Open"},
		"os.Stat":               {"Open", "ConvertToPNG"}, // ConvertToPNG: its private output folder
		"os.Lstat":              {"Resolve"},              // a check; the use goes through the handle
		"filepath.EvalSymlinks": {"Open", "Resolve", "ResolveDir"},
		// The render's private folder: the copy LibreOffice opens, its
		// profile, the PNG it writes, and the network-namespace probe.
		"os.MkdirTemp":     {"OpenBook", "parseBook", "renderCopy", "ConvertToPNG", "ProbeNetns"},
		"os.RemoveAll":     {"Close", "renderCopy", "ProbeNetns"},
		"os.ReadFile":      {"CropPage"},
		"os.WriteFile":     {"renderCopy", "WriteProfileSettings"},
		"os.MkdirAll":      {"WriteProfileSettings"},
		"os.Open":          nil,
		"os.OpenFile":      nil,
		"os.Create":        nil,
		"os.CreateTemp":    nil,
		"os.Rename":        nil,
		"os.Remove":        nil,
		"os.Link":          nil,
		"os.Symlink":       nil,
		"os.Chmod":         nil,
		"os.ReadDir":       nil,
		"os.Mkdir":         nil,
		"filepath.WalkDir": nil,
		"filepath.Walk":    nil,
		"filepath.Glob":    nil,
	}
}

// TestWorkspaceFilesOnlyThroughTheHandle reads the source of the package,
// of the engine and the packages that left it, internal/workspace and internal/render: no
// function outside the allowed ones opens, stats, lists, renames or
// removes a file by name, so no tool can re-resolve a checked path outside
// the workspace handle.
func TestWorkspaceFilesOnlyThroughTheHandle(t *testing.T) {
	allowed := directFileCalls()
	used := map[string]bool{}
	eachFuncBody(t, func(fset *token.FileSet, fn *ast.FuncDecl) {
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			pkg, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			callee := pkg.Name + "." + sel.Sel.Name
			if who, listed := allowed[callee]; listed {
				assert.Contains(t, who, fn.Name.Name, "%s uses %s (%s): go through the workspace handle", fn.Name.Name, callee, fset.Position(sel.Pos()))
				used[callee+" "+fn.Name.Name] = true
			}
			return true
		})
	}, "*.go", "../engine/*.go", "../splicepath/*.go", "../recalc/*.go", "../sheetread/*.go", "../vocab/*.go", "../grid/*.go", "../workspace/*.go", "../render/*.go")
	var stale []string
	for callee, who := range allowed {
		for _, name := range who {
			if !used[callee+" "+name] {
				stale = append(stale, callee+" in "+name)
			}
		}
	}
	sort.Strings(stale)
	assert.Empty(t, stale, "allowed uses that no longer exist: the table is stale")
}

// eachFuncBody calls visit with every function of the package's non-test
// source that has a body.
func eachFuncBody(t *testing.T, visit func(fset *token.FileSet, fn *ast.FuncDecl), patterns ...string) {
	t.Helper()
	if len(patterns) == 0 {
		patterns = []string{"*.go", "../engine/*.go", "../splicepath/*.go", "../recalc/*.go"}
	}
	var files []string
	for _, p := range patterns {
		more, err := filepath.Glob(p)
		require.NoError(t, err)
		files = append(files, more...)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && fn.Body != nil {
				visit(fset, fn)
			}
		}
	}
}
