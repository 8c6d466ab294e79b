package tools

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// reflectAllowed lists the non-test files of excelops (and its internal
// packages) allowed to import reflect, each with its reason. None reflects
// into excelize: its parsed parts are reached through its typed accessors
// (File.Worksheet, File.SheetXMLPath, Table.XMLPath and the XML* element
// types), so a change of their shape fails to compile instead of being
// skipped at run time.
func reflectAllowed() map[string]string {
	return map[string]string{
		"internal/tools/declare.go":   "names our own argument types (reflect.TypeFor) to give each its schema once; nothing is read by reflection",
		"internal/tools/range_arg.go": "walks our own argument structs for their rangeSheet tags, to move a range's sheet qualifier into its sheet argument; never a type of another module",
	}
}

// TestNoReflectionInPackageSource reads the import lists of the package's
// non-test source, internal packages included: none imports reflect unless
// reflectAllowed names it with a reason.
func TestNoReflectionInPackageSource(t *testing.T) {
	allowed := reflectAllowed()
	fset := token.NewFileSet()
	var importing []string
	root := filepath.Join("..", "..") // excelops, from internal/tools
	err := filepath.WalkDir(root, func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, name)
		if err != nil {
			return err
		}
		for _, imp := range f.Imports {
			if path, _ := strconv.Unquote(imp.Path.Value); path == "reflect" {
				importing = append(importing, filepath.ToSlash(rel))
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Contains(t, importing, "internal/tools/declare.go", "the source of excelops was not found")
	sort.Strings(importing)
	for _, name := range importing {
		assert.NotEmpty(t, allowed[name], "%s imports reflect: use excelize's typed accessors (third_party/excelize/xml_access.go), or list the file in reflectAllowed with its reason", name)
	}
	for name, why := range allowed {
		assert.NotEmpty(t, why, "%s is allowed reflect without a reason", name)
		assert.Contains(t, importing, name, "%s no longer imports reflect: drop it from reflectAllowed", name)
	}
}
