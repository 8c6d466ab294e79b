package registry

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
)

// truncate caps text at limit code points, following excelmanus's
// ToolDef.truncate_result: a JSON object is shrunk field by field so that it
// stays valid JSON (see truncateObject); any other text is cut and gets the
// plain-text note. limit <= 0 disables the cap.
func truncate(text string, limit int) string {
	if limit <= 0 {
		return text
	}
	n := utf8.RuneCountInString(text)
	if n <= limit {
		return text
	}
	if strings.HasPrefix(text, "{") {
		if v, err := errorsjson.DecodeOrdered([]byte(text)); err == nil {
			if obj, ok := v.(errorsjson.Object); ok {
				if out, ok := truncateObject(obj, limit, n); ok {
					return out
				}
			}
		}
	}
	return truncatePlain(text, limit, n)
}

// truncatePlain is excelmanus's fallback: the first limit code points and a
// note with the original length.
func truncatePlain(text string, limit, n int) string {
	cut := 0
	for i := range text {
		if cut == limit {
			return fmt.Sprintf("%s\n[结果已截断，原始长度: %d 字符]", text[:i], n)
		}
		cut++
	}
	return text
}

// truncateObject shrinks a JSON object until its encoding fits in limit code
// points, in phases that each keep the result valid JSON:
//
//  1. the largest list field keeps its first k items;
//  2. the largest object field keeps its first k keys;
//  3. the largest string field keeps its last k code points (a tool's
//     output tail is the useful part, as excelmanus reasons);
//  4. only the first k top-level fields are kept.
//
// Each phase binary-searches the largest k that fits and marks what it cut
// with "_<field>_truncated": true and a "_<field>_note"; a phase that cannot
// fit even at k = 0 leaves its field empty and hands over to the next. The
// result is always a JSON object; ok is false only when encoding fails.
// obj itself is never modified.
// Keys starting with "_" (markers) are never shrunk in phases 2 and 3.
func truncateObject(obj errorsjson.Object, limit, origLen int) (string, bool) {
	work := obj
	for _, phase := range []func(errorsjson.Object, int) (errorsjson.Object, string, bool){
		shrinkList, shrinkDict, shrinkString,
	} {
		next, text, found := phase(work, limit)
		if !found {
			continue
		}
		if text != "" {
			return text, true
		}
		work = next
	}
	return keepLeadingFields(work, limit, origLen)
}

// fits encodes obj and reports whether it is within limit code points.
func fits(obj errorsjson.Object, limit int) (string, bool) {
	text, err := errorsjson.MarshalString(obj)
	if err != nil {
		return "", false
	}
	return text, utf8.RuneCountInString(text) <= limit
}

// search finds the largest k in [0, n] for which build(k) fits; build(n)
// is known not to fit. It returns the fitting text ("" when none does) and
// the object built for the chosen k (k = 0 when none fits).
func search(n, limit int, build func(k int) errorsjson.Object) (errorsjson.Object, string) {
	lo, hi := 0, n-1
	best, bestText := -1, ""
	for lo <= hi {
		mid := (lo + hi) / 2
		if text, ok := fits(build(mid), limit); ok {
			best, bestText = mid, text
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	if best < 0 {
		return build(0), ""
	}
	return build(best), bestText
}

// largest returns the key of the biggest field accepted by size (size < 0
// rejects), the first one on ties, as Python's stable sort picks.
func largest(obj errorsjson.Object, size func(f errorsjson.Field) int) (string, int) {
	type cand struct {
		key  string
		size int
		pos  int
	}
	var cands []cand
	for i, f := range obj {
		if s := size(f); s > 0 {
			cands = append(cands, cand{f.Key, s, i})
		}
	}
	if len(cands) == 0 {
		return "", -1
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].size > cands[j].size })
	return cands[0].key, cands[0].pos
}

func marked(obj errorsjson.Object, field string, value any, note string) errorsjson.Object {
	out := append(errorsjson.Object(nil), obj...)
	out = out.Set(field, value)
	out = out.Set("_"+field+"_truncated", true)
	return out.Set("_"+field+"_note", note)
}

func shrinkList(obj errorsjson.Object, limit int) (errorsjson.Object, string, bool) {
	key, pos := largest(obj, func(f errorsjson.Field) int {
		l, _ := f.Value.([]any)
		return len(l)
	})
	if pos < 0 {
		return obj, "", false
	}
	list := obj[pos].Value.([]any)
	next, text := search(len(list), limit, func(k int) errorsjson.Object {
		return marked(obj, key, list[:k:k], fmt.Sprintf("[%s 已截断: 显示 %d/%d 条]", key, k, len(list)))
	})
	return next, text, true
}

func shrinkDict(obj errorsjson.Object, limit int) (errorsjson.Object, string, bool) {
	key, pos := largest(obj, func(f errorsjson.Field) int {
		d, ok := f.Value.(errorsjson.Object)
		if !ok || len(d) == 0 || strings.HasPrefix(f.Key, "_") {
			return -1
		}
		text, err := errorsjson.MarshalString(d)
		if err != nil {
			return -1
		}
		return utf8.RuneCountInString(text)
	})
	if pos < 0 {
		return obj, "", false
	}
	dict := obj[pos].Value.(errorsjson.Object)
	next, text := search(len(dict), limit, func(k int) errorsjson.Object {
		return marked(obj, key, dict[:k:k], fmt.Sprintf("[%s 已截断: 显示 %d/%d 项]", key, k, len(dict)))
	})
	return next, text, true
}

func shrinkString(obj errorsjson.Object, limit int) (errorsjson.Object, string, bool) {
	key, pos := largest(obj, func(f errorsjson.Field) int {
		s, ok := f.Value.(string)
		if !ok || strings.HasPrefix(f.Key, "_") {
			return -1
		}
		return utf8.RuneCountInString(s)
	})
	if pos < 0 {
		return obj, "", false
	}
	s := obj[pos].Value.(string)
	runes := []rune(s)
	next, text := search(len(runes), limit, func(k int) errorsjson.Object {
		return marked(obj, key, string(runes[len(runes)-k:]), fmt.Sprintf("[%s 已截断: 保留后 %d/%d 字符]", key, k, len(runes)))
	})
	return next, text, true
}

// keepLeadingFields is the last resort: the first k fields (status comes
// first in every payload) and a note with the original length. When even no
// field fits, the bare note object is returned over the limit: still JSON.
func keepLeadingFields(obj errorsjson.Object, limit, origLen int) (string, bool) {
	note := fmt.Sprintf("[结果已截断，原始长度: %d 字符]", origLen)
	build := func(k int) errorsjson.Object {
		out := append(errorsjson.Object(nil), obj[:k:k]...)
		out = out.Set("_truncated", true)
		return out.Set("_note", note)
	}
	next, text := search(len(obj), limit, build)
	if text != "" {
		return text, true
	}
	text, err := errorsjson.MarshalString(next)
	return text, err == nil
}
