package excelops

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
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
		"lockAll":      {"runLocked"},
		"checkout":     {"readOne", "excelizeOnce"},
		"openBook":     {"readOne", "checkout", "renderCopy"}, // renderCopy: its private copy
		"openSplice":   {"spliceOnce"},
		"spliceOnce":   {"editOnce"},
		"excelizeOnce": {"editOnce"},
		"save":         {"excelizeOnce"},
		"writeAtomic":  {"save", "spliceOnce", "renderCopy"}, // renderCopy: the PNG, not a workbook
		"checkin":      {"readOne", "excelizeOnce"},
	}
}

// TestOnlyTheEntryPointLocksOpensAndSaves reads the package's source: each
// lifecycle step is called only where the entry point takes it.
func TestOnlyTheEntryPointLocksOpensAndSaves(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	allowed := lifecycleCalls()
	seen := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		require.NoError(t, err)
		f, err := parser.ParseFile(fset, name, src, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
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
		}
	}
	var missing []string
	for callee := range allowed {
		if !seen[callee] {
			missing = append(missing, callee)
		}
	}
	sort.Strings(missing)
	assert.Empty(t, missing, "steps never called: the table is stale")
}
