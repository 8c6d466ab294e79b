package tools

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// excelizePath is the import path of the excelize fork.
const excelizePath = "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// excelizeName is the name file imports excelize as ("" when it does not).
func excelizeName(file *ast.File) string {
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == excelizePath {
			if imp.Name != nil {
				return imp.Name.Name
			}
			return "excelize"
		}
	}
	return ""
}

// namesExcelizeFile says whether n mentions excelize's File type.
func namesExcelizeFile(n ast.Node, pkg string) bool {
	found := false
	ast.Inspect(n, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "File" {
			if x, ok := sel.X.(*ast.Ident); ok && pkg != "" && x.Name == pkg {
				found = true
			}
		}
		return !found
	})
	return found
}

// handleTakers adds to takers the names of the functions and methods of
// file whose parameters or results hold an excelize File: a tool calling
// one would hold the engine's handle.
func handleTakers(file *ast.File, takers map[string]bool) {
	pkg := excelizeName(file)
	for _, d := range file.Decls {
		if fn, ok := d.(*ast.FuncDecl); ok && namesExcelizeFile(fn.Type, pkg) {
			takers[fn.Name.Name] = true
		}
	}
}

// engineReaches lists where file reaches the engine past the book's API:
// each selection of the field f of a book (a parameter
// declared engine.Book or *engine.Book, in the function or a function literal inside
// it), each mention of excelize's File, OpenFile or NewFile under the
// name file imports excelize as, and each call of a function or method
// named in takers (see handleTakers).
func engineReaches(fset *token.FileSet, file *ast.File, takers map[string]bool) []string {
	pkg := excelizeName(file)
	var out []string
	for _, d := range file.Decls {
		books := map[string]bool{}
		ast.Inspect(d, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.FuncDecl:
				bookParams(n.Recv, books)
				bookParams(n.Type.Params, books)
			case *ast.FuncLit:
				bookParams(n.Type.Params, books)
			}
			return true
		})
		ast.Inspect(d, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				name := ""
				switch fun := call.Fun.(type) {
				case *ast.Ident:
					name = fun.Name
				case *ast.SelectorExpr:
					name = fun.Sel.Name
				}
				if takers[name] {
					out = append(out, fset.Position(call.Pos()).String()+": "+name+"()")
				}
				return true
			}
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			x, ok := sel.X.(*ast.Ident)
			switch {
			case ok && sel.Sel.Name == "f" && books[x.Name]:
				out = append(out, fset.Position(sel.Pos()).String()+": "+x.Name+".f")
			case ok && pkg != "" && x.Name == pkg && (sel.Sel.Name == "File" || sel.Sel.Name == "OpenFile" || sel.Sel.Name == "NewFile"):
				out = append(out, fset.Position(sel.Pos()).String()+": excelize."+sel.Sel.Name)
			}
			return true
		})
	}
	return out
}

// bookParams adds to books the names of the fields of list declared
// engine.Book or *engine.Book (Book or *Book inside the engine).
func bookParams(list *ast.FieldList, books map[string]bool) {
	if list == nil {
		return
	}
	for _, field := range list.List {
		typ := field.Type
		if star, ok := typ.(*ast.StarExpr); ok {
			typ = star.X
		}
		if sel, ok := typ.(*ast.SelectorExpr); ok {
			typ = sel.Sel
		}
		if id, ok := typ.(*ast.Ident); ok && id.Name == "Book" {
			for _, name := range field.Names {
				books[name.Name] = true
			}
		}
	}
}

// parseSource parses src as a file of the package that imports excelize.
func parseSource(t *testing.T, fset *token.FileSet, src string) *ast.File {
	t.Helper()
	src = "package excelops\n\nimport \"" + excelizePath + "\"\n\nvar _ excelize.Comment\n\n" + src + "\n"
	file, err := parser.ParseFile(fset, "tool_x.go", src, 0)
	require.NoError(t, err)
	return file
}

// TestEngineReachesFindsEachWay checks the reader on small sources: each
// way past the book's API is found, the book's methods and excelize's
// value types are not.
func TestEngineReachesFindsEachWay(t *testing.T) {
	takers := map[string]bool{"StyleBook": true, "ParsedSheet": true}
	cases := []struct {
		name string
		body string
		want []string
	}{
		{"a parameter's handle", `func x(b *engine.Book) { b.f.GetCellValue("S", "A1") }`, []string{"b.f"}},
		{"parameter's handle passed on", `func x(bk *engine.Book) { use(bk.f) }`, []string{"bk.f"}},
		{"closure's book", `func x() { run(func(b *engine.Book, _ int) { b.f.Save() }) }`, []string{"b.f"}},
		{"book by value", `func x(b engine.Book) { _ = b.f }`, []string{"b.f"}},
		{"the handle's type", `func x(f *excelize.File) {}`, []string{"excelize.File"}},
		{"opening a file", `func x() { excelize.OpenFile("a.xlsx") }`, []string{"excelize.OpenFile"}},
		{"a new file", `var v = excelize.NewFile()`, []string{"excelize.NewFile"}},
		{"a method handing out the handle", `func x(b *engine.Book) { s, _ := b.StyleBook(); s.Close() }`, []string{"StyleBook()"}},
		{"a helper taking the handle", `func x(b *engine.Book) { engine.ParsedSheet(b.f, "S") }`, []string{"ParsedSheet()", "b.f"}},
		{"the book's API", `func x(b *engine.Book) { b.CellValue("S", "A1") }`, nil},
		{"a value type", `func x(b *engine.Book) { b.AddComment("S", excelize.Comment{}) }`, nil},
		{"another type's f", `func x(d *dateWriter) { d.f.Save() }`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fset := token.NewFileSet()
			var got []string
			for _, r := range engineReaches(fset, parseSource(t, fset, c.body), takers) {
				got = append(got, r[strings.LastIndex(r, " ")+1:])
			}
			assert.Equal(t, c.want, got)
		})
	}
}

// TestHandleTakersNamesWhatHoldsTheHandle checks that handleTakers names the
// functions and methods whose parameters or results hold an excelize File,
// and only those.
func TestHandleTakersNamesWhatHoldsTheHandle(t *testing.T) {
	src := `func takes(f *excelize.File, sheet string) {}
func (b *book) gives() (*excelize.File, error) { return nil, nil }
func byValue(f excelize.File) {}
func styled(s *excelize.Style) {}
func (b *book) plain(sheet string) error { return nil }`
	fset := token.NewFileSet()
	takers := map[string]bool{}
	handleTakers(parseSource(t, fset, src), takers)
	assert.Equal(t, map[string]bool{"takes": true, "gives": true, "byValue": true}, takers)
}

// TestToolsReachTheWorkbookThroughTheBook reads the source of the package
// and of the engine (internal/engine): no file of this package (the tools,
// tests aside) selects the engine's handle (the field f of a book), names
// excelize's File, OpenFile or NewFile, or calls a function or method of
// the engine that takes or returns the handle; a tool reaches the workbook
// through the book's methods (internal/engine/book_*.go). The compiler
// already keeps the unexported handle inside the engine; this test keeps
// exported helpers from handing it out.
func TestToolsReachTheWorkbookThroughTheBook(t *testing.T) {
	var all []string
	for _, pattern := range []string{"*.go", "../engine/*.go", "../splicepath/*.go", "../recalc/*.go"} {
		more, err := filepath.Glob(pattern)
		require.NoError(t, err)
		all = append(all, more...)
	}
	fset := token.NewFileSet()
	files := map[string]*ast.File{}
	takers := map[string]bool{}
	for _, name := range all {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		files[name] = file
		handleTakers(file, takers)
	}
	require.True(t, takers["ParsedSheet"], "the helpers that take the handle were not found")
	read := 0
	for name, file := range files {
		if filepath.Dir(name) != "." {
			continue
		}
		read++
		assert.Empty(t, engineReaches(fset, file, takers), "%s reaches the engine past the book's API: add or use a method in internal/engine/book_*.go", name)
	}
	assert.Greater(t, read, 50, "the tool files were not found")
}
