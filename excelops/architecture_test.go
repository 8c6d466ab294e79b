package excelops_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mapEntry matches one package of the map in ARCHITECTURE.md: the tree's
// branch and the package's path, relative to the module or to excelops.
var mapEntry = regexp.MustCompile(`(?:├──|└──)\s+(\S+)`)

// TestArchitectureMapDrawsImportsDownward reads the package map in
// ARCHITECTURE.md and the imports of every package of the module: each
// package of excelops is on the map, and none is drawn below a package it
// imports, as the map's first line promises.
func TestArchitectureMapDrawsImportsDownward(t *testing.T) {
	doc, err := os.ReadFile("../ARCHITECTURE.md")
	require.NoError(t, err)
	text := string(doc)
	start := strings.Index(text, "```\n cmd/registry-sidecar")
	require.GreaterOrEqual(t, start, 0, "the package map was not found")
	block := text[start+4:]
	block = block[:strings.Index(block, "\n```")]

	imports := moduleImports(t, "..")
	pos := map[string]int{}
	for i, line := range strings.Split(block, "\n") {
		m := mapEntry.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		for _, dir := range []string{m[1], "excelops/" + m[1]} {
			if _, ok := imports[dir]; ok {
				pos[dir] = i
				break
			}
		}
	}
	for dir := range imports {
		if strings.HasPrefix(dir, "excelops/") {
			assert.Contains(t, pos, dir, "%s is not on the package map of ARCHITECTURE.md", dir)
		}
	}
	for dir, deps := range imports {
		for _, dep := range deps {
			if p, ok := pos[dir]; ok {
				if q, ok := pos[dep]; ok {
					assert.Greater(t, q, p, "ARCHITECTURE.md draws %s above %s, which imports it", dep, dir)
				}
			}
		}
	}
}

// moduleImports returns, for every folder of the module at root holding
// non-test Go files, the folders of the module its files import.
func moduleImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	require.NoError(t, err)
	module := strings.TrimSpace(strings.TrimPrefix(strings.SplitN(string(gomod), "\n", 2)[0], "module"))
	out := map[string][]string{}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "node_modules" || name == "build" || name == "third_party") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return err
		}
		dir := filepath.ToSlash(rel)
		if _, ok := out[dir]; !ok {
			out[dir] = nil
		}
		for _, spec := range f.Imports {
			p, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return err
			}
			if dep, ok := strings.CutPrefix(p, module+"/"); ok {
				out[dir] = append(out[dir], dep)
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Contains(t, out, "excelops/internal/engine", "the module's packages were not found")
	return out
}
