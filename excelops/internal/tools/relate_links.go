package tools

import (
	"path"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// maxRelLinks caps the workbook links listed by discover_file_relationships.
const maxRelLinks = 200

// workbookLinks lists the external workbooks each analyzed file links (its
// formulas and names read cells of another workbook: Excel keeps a link
// part for each), with the analyzed file a link names when it is one of
// them, and the pairs of analyzed files so linked. A link is matched by
// the path it stores, relative to the linking file's folder, without any
// file being opened: a link to a file outside the call names no file.
func (sc *relScan) workbookLinks() ([]any, [][2]int) {
	byPath := map[string]int{}
	for i, f := range sc.files {
		byPath[strings.ToLower(f.shown)] = i
	}
	out := []any{}
	var pairs [][2]int
	for i, f := range sc.files {
		for _, target := range f.links {
			if target == "" || len(out) == maxRelLinks {
				continue
			}
			var named any
			if j, ok := byPath[strings.ToLower(linkTarget(f.shown, target))]; ok && j != i {
				named = sc.files[j].shown
				pairs = append(pairs, [2]int{i, j})
			}
			out = append(out, pyjson.Object{field("file", f.shown), field("links_to", target), field("analyzed_file", named)})
		}
	}
	return out, pairs
}

// linkTarget is the workspace path a link stored in the workbook at from
// names: relative links are taken from from's folder; a link with a
// scheme, a drive or a leading slash names no workspace file ("").
func linkTarget(from, target string) string {
	t := strings.ReplaceAll(target, "\\", "/")
	if strings.Contains(t, ":") || strings.HasPrefix(t, "/") {
		return ""
	}
	return path.Join(path.Dir(from), t)
}
