package colprofile

import (
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// FitSheet shortens one sheet of scan_excel_snapshot that is larger than
// budget code points by itself: first its sample rows, the columns' sample
// values and outlier examples go, then columns from the right, until it
// fits or one column is left (key_columns keeps the shown ones). What was
// left out is said in "shortened".
// It returns the sheet and its encoded length (plus one, as the caller
// counts it).
func FitSheet(sh pyjson.Object, budget int) (pyjson.Object, int, error) {
	size := func(o pyjson.Object) (int, error) {
		text, err := pyjson.MarshalString(o)
		return utf8.RuneCountInString(text) + 1, err
	}
	cols, _ := sh.Get("columns")
	list, _ := cols.([]any)
	short := make([]any, len(list))
	for i, c := range list {
		col, ok := c.(pyjson.Object)
		if !ok {
			short[i] = c
			continue
		}
		col = append(pyjson.Object(nil), col...).Delete("samples")
		if o, ok := col.Get("outliers"); ok {
			if oo, ok := o.(pyjson.Object); ok {
				col = col.Set("outliers", append(pyjson.Object(nil), oo...).Delete("examples"))
			}
		}
		short[i] = col
	}
	sh = append(pyjson.Object(nil), sh...)
	sh = sh.Set("sample_rows", []any{}).Set("columns", short)
	sh = sh.Set("shortened", "the sheet is larger than the result cap: sample rows, sample values and outlier examples left out")
	n, err := size(sh)
	if err != nil || n <= budget {
		return sh, n, err
	}
	// Columns from the right: the most that fit, found by halving.
	keys, _ := sh.Get("key_columns")
	keyList, _ := keys.([]any)
	cut := func(k int) pyjson.Object {
		shown := map[any]bool{}
		for _, c := range short[:k] {
			if col, ok := c.(pyjson.Object); ok {
				name, _ := col.Get("column")
				shown[name] = true
			}
		}
		kept := []any{}
		for _, kc := range keyList {
			if col, ok := kc.(pyjson.Object); ok {
				if name, _ := col.Get("column"); shown[name] {
					kept = append(kept, kc)
				}
			}
		}
		o := append(pyjson.Object(nil), sh...)
		return o.Set("columns", short[:k]).Set("key_columns", kept).Set("columns_shown", k).
			Set("shortened", "the sheet is larger than the result cap: sample rows, sample values and outlier examples left out, and the columns after the first columns_shown (in columns and key_columns)")
	}
	lo, hi := min(1, len(short)), len(short)
	for lo < hi {
		mid := (lo + hi + 1) / 2
		m, err := size(cut(mid))
		if err != nil {
			return nil, 0, err
		}
		if m <= budget {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	sh = cut(lo)
	n, err = size(sh)
	return sh, n, err
}
