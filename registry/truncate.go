package registry

import (
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// Thresholds of excelmanus's smart truncation: an object field is shrunk
// only when its JSON is longer than minDictChars, a string field only when
// it is longer than minStringChars (code points).
const (
	minDictChars   = 200
	minStringChars = 100
)

// truncate caps text at limit code points exactly as excelmanus's
// ToolDef.truncate_result does, with the notes of the profile's catalogue:
// a JSON object is shrunk so that it stays valid JSON (truncateObject); any
// other text, or an object no phase can fit, is cut with the plain-text
// note (the en profile instead keeps the leading fields of such an object,
// still JSON). limit <= 0 disables the cap.
func truncate(text string, limit int, texts catalogue) string {
	if limit <= 0 {
		return text
	}
	n := utf8.RuneCountInString(text)
	if n <= limit {
		return text
	}
	if strings.HasPrefix(strings.TrimLeft(text, " \t\n\r"), "{") {
		if v, err := pyjson.DecodeOrdered([]byte(text)); err == nil {
			if obj, ok := v.(pyjson.Object); ok {
				if out, ok := truncateObject(obj, limit, texts); ok {
					return out
				}
				if texts.keepJSON {
					if out, ok := keepLeadingFields(obj, limit, n, texts); ok {
						return out
					}
				}
			}
		}
	}
	return truncatePlain(text, limit, n, texts)
}

// truncatePlain is excelmanus's fallback: the first limit code points and a
// note with the original length.
func truncatePlain(text string, limit, n int, texts catalogue) string {
	cut := 0
	for i := range text {
		if cut == limit {
			return text[:i] + "\n" + texts.plainNote(n)
		}
		cut++
	}
	return text
}

// truncateObject is excelmanus's _truncate_json_smart. Each phase starts
// from the original object and binary-searches, as Python's loop does
// (lo = 0, hi = n, mid = (lo+hi)/2), the largest k that fits:
//
//  1. the largest non-empty list field keeps its first k items, marked by
//     "_<f>_truncated": true and "_<f>_note";
//  2. else the largest object field (not starting with "_", JSON over
//     minDictChars) keeps its first k keys plus "__truncated__";
//  3. else the largest string field (not starting with "_", over
//     minStringChars) keeps its last k code points, marked by "_<f>_note".
//
// ok is false when no phase fits (or encoding fails).
func truncateObject(obj pyjson.Object, limit int, texts catalogue) (string, bool) {
	if key, pos := largest(obj, listSize); pos >= 0 {
		list := obj[pos].Value.([]any)
		text, ok := bisect(len(list), limit, func(k int) pyjson.Object {
			out := append(pyjson.Object(nil), obj...)
			if k == len(list) {
				return out.Delete("_" + key + "_truncated").Delete("_" + key + "_note")
			}
			out = out.Set(key, list[:k:k])
			out = out.Set("_"+key+"_truncated", true)
			return out.Set("_"+key+"_note", texts.listNote(key, k, len(list)))
		})
		if ok {
			return text, true
		}
	}
	if key, pos := largest(obj, dictSize); pos >= 0 {
		dict := obj[pos].Value.(pyjson.Object)
		text, ok := bisect(len(dict), limit, func(k int) pyjson.Object {
			if k == len(dict) {
				return obj
			}
			trimmed := append(pyjson.Object(nil), dict[:k]...)
			trimmed = trimmed.Set("__truncated__", texts.dictMarker(k, len(dict)))
			return append(pyjson.Object(nil), obj...).Set(key, trimmed)
		})
		if ok {
			return text, true
		}
	}
	if key, pos := largest(obj, stringSize); pos >= 0 {
		runes := []rune(obj[pos].Value.(string))
		return bisect(len(runes), limit, func(k int) pyjson.Object {
			out := append(pyjson.Object(nil), obj...)
			if k == len(runes) {
				return out.Delete("_" + key + "_note")
			}
			out = out.Set(key, string(runes[len(runes)-k:]))
			return out.Set("_"+key+"_note", texts.stringNote(key, k, len(runes)))
		})
	}
	return "", false
}

// bisect runs excelmanus's binary search over k in [0, n]: build(k) is the
// candidate keeping k of n, build(n) the whole field without markers
// (which can fit when the original text had more whitespace than
// json.dumps writes). It returns the text of the last fitting k the search
// visits, ok false when none fits.
func bisect(n, limit int, build func(k int) pyjson.Object) (string, bool) {
	lo, hi := 0, n
	best, found := "", false
	for lo <= hi {
		mid := (lo + hi) / 2
		if text, ok := fits(build(mid), limit); ok {
			best, found = text, true
			lo = mid + 1
		} else {
			hi = mid - 1
		}
	}
	return best, found
}

// fits encodes obj and reports whether it is within limit code points.
func fits(obj pyjson.Object, limit int) (string, bool) {
	text, err := pyjson.MarshalString(obj)
	if err != nil {
		return "", false
	}
	return text, utf8.RuneCountInString(text) <= limit
}

// listSize is the length of a non-empty list field (phase 1).
func listSize(f pyjson.Field) int {
	l, _ := f.Value.([]any)
	return len(l)
}

// dictSize is the JSON length of an object field phase 2 may shrink.
func dictSize(f pyjson.Field) int {
	d, ok := f.Value.(pyjson.Object)
	if !ok || strings.HasPrefix(f.Key, "_") {
		return -1
	}
	text, err := pyjson.MarshalString(d)
	if n := utf8.RuneCountInString(text); err == nil && n > minDictChars {
		return n
	}
	return -1
}

// stringSize is the length of a string field phase 3 may shrink.
func stringSize(f pyjson.Field) int {
	s, ok := f.Value.(string)
	if n := utf8.RuneCountInString(s); ok && !strings.HasPrefix(f.Key, "_") && n > minStringChars {
		return n
	}
	return -1
}

// largest returns the key and position of the biggest field accepted by
// size (size <= 0 rejects), the first one on ties, as Python's stable
// sorted(..., reverse=True) picks; pos is -1 when there is none.
func largest(obj pyjson.Object, size func(f pyjson.Field) int) (string, int) {
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

// keepLeadingFields is the en profile's last resort for an object no phase
// fits: the first k top-level fields (status comes first in every payload)
// and a note with the original length, still a JSON object. When even no
// field fits, the bare note object is returned over the limit.
func keepLeadingFields(obj pyjson.Object, limit, origLen int, texts catalogue) (string, bool) {
	build := func(k int) pyjson.Object {
		out := append(pyjson.Object(nil), obj[:k:k]...)
		out = out.Set("_truncated", true)
		return out.Set("_note", texts.plainNote(origLen))
	}
	if text, ok := bisect(len(obj), limit, build); ok {
		return text, true
	}
	text, err := pyjson.MarshalString(build(0))
	return text, err == nil
}
