package excelops

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

// engineReaches lists where file reaches the engine past the book's API:
// each selection of the field f of a book (a receiver or parameter
// declared book or *book, in the function or a function literal inside
// it), and each mention of excelize's File, OpenFile or NewFile under the
// name file imports excelize as.
func engineReaches(fset *token.FileSet, file *ast.File) []string {
	pkg := ""
	for _, imp := range file.Imports {
		if p, _ := strconv.Unquote(imp.Path.Value); p == excelizePath {
			pkg = "excelize"
			if imp.Name != nil {
				pkg = imp.Name.Name
			}
		}
	}
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

// bookParams adds to books the names of the fields of list declared book
// or *book.
func bookParams(list *ast.FieldList, books map[string]bool) {
	if list == nil {
		return
	}
	for _, field := range list.List {
		typ := field.Type
		if star, ok := typ.(*ast.StarExpr); ok {
			typ = star.X
		}
		if id, ok := typ.(*ast.Ident); ok && id.Name == "book" {
			for _, name := range field.Names {
				books[name.Name] = true
			}
		}
	}
}

// TestEngineReachesFindsEachWay checks the reader on small sources: each
// way past the book's API is found, the book's methods and excelize's
// value types are not.
func TestEngineReachesFindsEachWay(t *testing.T) {
	cases := []struct {
		name string
		body string
		want []string
	}{
		{"receiver's handle", `func (b *book) x() { b.f.GetCellValue("S", "A1") }`, []string{"b.f"}},
		{"parameter's handle passed on", `func x(bk *book) { use(bk.f) }`, []string{"bk.f"}},
		{"closure's book", `func x() { run(func(b *book, _ int) { b.f.Save() }) }`, []string{"b.f"}},
		{"book by value", `func x(b book) { _ = b.f }`, []string{"b.f"}},
		{"the handle's type", `func x(f *excelize.File) {}`, []string{"excelize.File"}},
		{"opening a file", `func x() { excelize.OpenFile("a.xlsx") }`, []string{"excelize.OpenFile"}},
		{"a new file", `var v = excelize.NewFile()`, []string{"excelize.NewFile"}},
		{"the book's API", `func (b *book) x() { b.cellValue("S", "A1") }`, nil},
		{"a value type", `func (b *book) x() { b.addComment("S", excelize.Comment{}) }`, nil},
		{"another type's f", `func x(d *dateWriter) { d.f.Save() }`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "package excelops\n\nimport \"" + excelizePath + "\"\n\nvar _ excelize.Comment\n\n" + c.body + "\n"
			fset := token.NewFileSet()
			file, err := parser.ParseFile(fset, "tool_x.go", src, 0)
			require.NoError(t, err)
			var got []string
			for _, r := range engineReaches(fset, file) {
				got = append(got, r[strings.LastIndex(r, " ")+1:])
			}
			assert.Equal(t, c.want, got)
		})
	}
}

// TestToolsReachTheWorkbookThroughTheBook reads the tool files of the
// package (tool_*.go, tools_*.go, tests aside): none selects the engine's
// handle (the field f of a book) or names excelize's File, OpenFile or
// NewFile; a tool reaches the workbook through the book's methods
// (book_*.go).
func TestToolsReachTheWorkbookThroughTheBook(t *testing.T) {
	var names []string
	for _, pattern := range []string{"tool_*.go", "tools_*.go"} {
		more, err := filepath.Glob(pattern)
		require.NoError(t, err)
		names = append(names, more...)
	}
	fset := token.NewFileSet()
	read := 0
	for _, name := range names {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		read++
		assert.Empty(t, engineReaches(fset, file), "%s reaches the engine past the book's API: add or use a method in book_*.go", name)
	}
	assert.Greater(t, read, 30, "the tool files were not found")
}
