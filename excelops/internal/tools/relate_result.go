package tools

import (
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// The answer of discover_file_relationships: the shared columns of each
// pair of files, one merge hint per pair whose best shared column is a
// join key, the groups of files such keys link, and a summary.

// relShared is one shared column of a pair of files.
type relShared struct {
	sheetA, colA, sheetB, colB, match string
	overlap, uniqueA, uniqueB         float64
	relationship, join, typeA, typeB  string
	compatible                        bool
}

// relPair is the shared columns of files a and b (indexes into the call's
// files).
type relPair struct {
	a, b   int
	shared []relShared
}

// relMatch compares two sampled columns: a shared column when their
// headers are equal (exact, always reported) or share a normalisation key
// and their values overlap by relOverlapThreshold or more (normalized).
func relMatch(sa, sb string, ca, cb *relHeader) (relShared, bool) {
	match := "exact"
	if ca.text != cb.text {
		if ca.key == "" || ca.key != cb.key {
			return relShared{}, false
		}
		match = "normalized"
	}
	overlap := relOverlap(ca.stats, cb.stats)
	if match == "normalized" && overlap < relOverlapThreshold {
		return relShared{}, false
	}
	ua, ub := ca.stats.uniqueRatio(), cb.stats.uniqueRatio()
	rel := relCardinality(ua, ub)
	ta, tb := ca.stats.kind(), cb.stats.kind()
	return relShared{sheetA: sa, colA: ca.text, sheetB: sb, colB: cb.text, match: match,
		overlap: relRound(overlap), uniqueA: relRound(ua), uniqueB: relRound(ub),
		relationship: rel, join: relJoin(rel, overlap), typeA: ta, typeB: tb, compatible: relCompatible(ta, tb)}, true
}

// relPairs compares every two files, in the order of the call's files;
// pairs sharing no column are left out.
func (sc *relScan) relPairs() []relPair {
	var out []relPair
	for i := range sc.files {
		for j := i + 1; j < len(sc.files); j++ {
			p := relPair{a: i, b: j}
			for _, sa := range sc.files[i].sheets {
				for _, sb := range sc.files[j].sheets {
					for ai := range sa.cols {
						for bi := range sb.cols {
							ca, cb := &sa.cols[ai], &sb.cols[bi]
							if ca.stats == nil || cb.stats == nil {
								continue
							}
							if m, ok := relMatch(sa.name, sb.name, ca, cb); ok {
								p.shared = append(p.shared, m)
							}
						}
					}
				}
			}
			if len(p.shared) > 0 {
				out = append(out, p)
			}
		}
	}
	return out
}

// key is the pair's best join key: among its shared columns whose values
// overlap by relOverlapThreshold or more, whose types are compatible and
// of which one side at least is unique ("one"), the one with the highest
// overlap, then an exact match before a normalized one, then the most
// unique side; ok is false when none qualifies.
func (p relPair) key() (relShared, bool) {
	best, found := relShared{}, false
	better := func(c relShared) bool {
		switch {
		case c.overlap != best.overlap:
			return c.overlap > best.overlap
		case c.match != best.match:
			return c.match == "exact"
		}
		return max(c.uniqueA, c.uniqueB) > max(best.uniqueA, best.uniqueB)
	}
	for _, c := range p.shared {
		if c.overlap < relOverlapThreshold || !c.compatible || c.relationship == "many_to_many" {
			continue
		}
		if !found || better(c) {
			best, found = c, true
		}
	}
	return best, found
}

// encode is a shared column's entry.
func (c relShared) encode() pyjson.Object {
	return pyjson.Object{
		field("sheet_a", c.sheetA), field("col_a", c.colA), field("sheet_b", c.sheetB), field("col_b", c.colB),
		field("match_type", c.match), field("overlap_ratio", c.overlap),
		field("unique_ratio_a", c.uniqueA), field("unique_ratio_b", c.uniqueB),
		field("relationship", c.relationship), field("suggested_join", c.join),
		field("type_a", c.typeA), field("type_b", c.typeB), field("type_compatible", c.compatible),
	}
}

// relHint is the merge hint of one pair of files.
func relHint(fileA, fileB string, k relShared) pyjson.Object {
	return pyjson.Object{
		field("file_a", fileA), field("file_b", fileB), field("sheet_a", k.sheetA), field("sheet_b", k.sheetB),
		field("key_column_a", k.colA), field("key_column_b", k.colB),
		field("relationship", k.relationship), field("suggested_join", k.join),
		field("pandas_hint", fmt.Sprintf("pd.merge(a, b, left_on=%s, right_on=%s, how=%s)", pyQuote(k.colA), pyQuote(k.colB), pyQuote(k.join))),
	}
}

// relGroups are the connected components of at least two files linked by
// a merge hint, in the order of their first file; each is named after the
// key columns linking it.
func relGroups(n int, links [][2]int, keys []string, shown func(int) string) []any {
	parent := make([]int, n)
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if parent[i] != i {
			parent[i] = find(parent[i])
		}
		return parent[i]
	}
	for _, l := range links {
		if ra, rb := find(l[0]), find(l[1]); ra != rb {
			parent[max(ra, rb)] = min(ra, rb)
		}
	}
	groupKeys := map[int][]string{}
	for li, l := range links {
		r := find(l[0])
		if !containsString(groupKeys[r], keys[li]) {
			groupKeys[r] = append(groupKeys[r], keys[li])
		}
	}
	out := []any{}
	for root := 0; root < n; root++ {
		if find(root) != root || len(groupKeys[root]) == 0 {
			continue
		}
		files := []any{}
		for i := 0; i < n; i++ {
			if find(i) == root {
				files = append(files, shown(i))
			}
		}
		name := fmt.Sprintf("Group %d: linked by %s", len(out)+1, strings.Join(groupKeys[root], ", "))
		out = append(out, pyjson.Object{field("name", name), field("files", files)})
	}
	return out
}

// containsString reports whether list holds s.
func containsString(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// relItem is one shared column in the order of the answer: pair after
// pair, each pair's columns in sheet and column order.
type relItem struct {
	pair  int
	first bool // the pair's first shared column
	col   relShared
}

// relResult is the call's answer: the summary and groups over every pair,
// and one page of the shared columns from offset, as many as fit the
// result size limit (at least one), grouped by their pairs; a pair's merge
// hint comes on the page holding its first shared column.
func (s *Service) relResult(ctx context.Context, sc *relScan, offset int) (any, error) {
	pairs := sc.relPairs()
	shown := func(i int) string { return sc.files[i].shown }
	files := make([]any, len(sc.files))
	for i := range sc.files {
		files[i] = shown(i)
	}
	hints := make([]pyjson.Object, len(pairs))
	var links [][2]int
	var keys []string
	var items []relItem
	for pi, p := range pairs {
		for ci, c := range p.shared {
			items = append(items, relItem{pair: pi, first: ci == 0, col: c})
		}
		if k, ok := p.key(); ok {
			hints[pi] = relHint(shown(p.a), shown(p.b), k)
			links = append(links, [2]int{p.a, p.b})
			keys = append(keys, k.colA)
		}
	}
	wbLinks, linked := sc.workbookLinks()
	for _, l := range linked {
		links = append(links, l)
		keys = append(keys, "formula links")
	}
	groups := relGroups(len(sc.files), links, keys, shown)
	summary := relSummary(len(sc.files), len(pairs), len(items), len(links))
	start := min(offset, len(items))
	build := func(k int) pyjson.Object {
		list, pageHints := []any{}, []any{}
		var cols []any
		for i, it := range items[start : start+k] {
			if i == 0 || it.pair != items[start+i-1].pair {
				if cols != nil {
					list = append(list, relPairEntry(pairs[items[start+i-1].pair], shown, cols))
				}
				cols = []any{}
				if it.first && hints[it.pair] != nil {
					pageHints = append(pageHints, hints[it.pair])
				}
			}
			cols = append(cols, it.col.encode())
		}
		if cols != nil {
			list = append(list, relPairEntry(pairs[items[start+k-1].pair], shown, cols))
		}
		more := start+k < len(items)
		res := success("", "",
			field("files_analyzed", len(sc.files)), field("files", files),
			field("sample_rows", sc.o.sampleRows), field("overlap_threshold", relOverlapThreshold),
			field("summary", summary), field("suggested_groups", groups),
			field("shared_columns_total", len(items)), field("offset", offset),
			field("returned", k), field("has_more", more))
		if more {
			res = append(res, field("next_offset", start+k))
		}
		res = append(res, field("file_pairs", list), field("merge_hints", pageHints), field("workbook_links", wbLinks),
			field("partial", sc.partial), field("truncated", more))
		return append(res, sc.notes()...)
	}
	n, err := relPageSize(ctx, len(items)-start, build)
	if err != nil {
		return nil, err
	}
	return build(n), nil
}

// relPairEntry is a pair's entry of file_pairs with the page's columns.
func relPairEntry(p relPair, shown func(int) string, cols []any) pyjson.Object {
	return pyjson.Object{field("file_a", shown(p.a)), field("file_b", shown(p.b)), field("shared_columns", cols)}
}

// relPageSize is how many of the n items from the page's start fit the
// result size limit, at least one when there are any: build(k) is the
// answer with k of them.
func relPageSize(ctx context.Context, n int, build func(k int) pyjson.Object) (int, error) {
	limit, capped := registry.ResultLimit(ctx)
	if !capped || n == 0 {
		return n, nil
	}
	fits := func(k int) (bool, error) {
		text, err := pyjson.MarshalString(build(k))
		return utf8.RuneCountInString(text) <= limit, err
	}
	ok, err := fits(n)
	if err != nil || ok {
		return n, err
	}
	lo, hi := 1, n // the answer lies in [lo, hi): fits(hi) is false
	for lo+1 < hi {
		mid := (lo + hi) / 2
		ok, err := fits(mid)
		if err != nil {
			return 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo, nil
}

// notes are the answer's optional fields: what was left out and why.
func (sc *relScan) notes() []pyjson.Field {
	var out []pyjson.Field
	if sc.partial {
		out = append(out, field("partial_reason", "the call's deadline came near: the files after the last one analyzed were left out; relate fewer files or a smaller sample_rows"))
	}
	if sc.leftOut > 0 {
		out = append(out, field("files_left_out", sc.leftOut), field("files_left_out_note", fmt.Sprintf("only the first max_files (%d) workbooks were read: pass file_paths or a larger max_files for the others", sc.o.maxFiles)))
	}
	if len(sc.skipped) > 0 {
		out = append(out, field("skipped", sc.skipped))
	}
	if sc.sampledCapped {
		out = append(out, field("columns_note", fmt.Sprintf("more than %d columns had a matching header in another file: only the first %d were compared", maxRelSampled, maxRelSampled)))
	}
	if sc.walkCut {
		out = append(out, field("walk_truncated", "the folder walk stopped after its entry limit; relate a subfolder or name file_paths"))
	}
	return out
}

// relSummary is the answer in one sentence.
func relSummary(files, pairs, shared, keys int) string {
	switch {
	case files == 0:
		return "No workbooks to relate were found."
	case files == 1:
		return "Only one workbook was analyzed: relationships need two or more."
	case pairs == 0:
		return fmt.Sprintf("%d workbooks analyzed: no shared columns (no headers equal, or equal after normalisation with overlapping values).", files)
	}
	s := fmt.Sprintf("%d workbooks analyzed: %d of %d file pairs share %d columns", files, pairs, files*(files-1)/2, shared)
	switch keys {
	case 0:
		return s + "; none is a clear join key (overlap >= 0.3, compatible types, unique on one side)."
	case 1:
		return s + "; 1 pair has a clear join key (see merge_hints)."
	}
	return s + fmt.Sprintf("; %d pairs have a clear join key (see merge_hints).", keys)
}
