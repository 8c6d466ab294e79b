package pyjson

import (
	"reflect"
	"slices"
	"strings"
)

// fieldInfo describes one exported struct field the way encoding/json would
// see it: its JSON name, index path and omit options.
type fieldInfo struct {
	name      string
	index     []int
	omitEmpty bool
	omitZero  bool
	plain     bool   // a basic kind encoded without a type lookup
	quoted    []byte // `"name": `, precomputed
}

// structFields lists the fields encoding/json would encode, in field order,
// with the fields of untagged embedded structs promoted. A name defined at a
// shallower depth wins; two at the same depth cancel out, as in
// encoding/json.
func structFields(t reflect.Type) []fieldInfo {
	type candidate struct {
		fieldInfo
		depth  int
		tagged bool
	}
	var all []candidate
	var walk func(t reflect.Type, index []int, depth int)
	walk = func(t reflect.Type, index []int, depth int) {
		for i := 0; i < t.NumField(); i++ {
			sf := t.Field(i)
			tag := sf.Tag.Get("json")
			if tag == "-" {
				continue
			}
			name, opts, _ := strings.Cut(tag, ",")
			idx := append(append([]int(nil), index...), i)
			if sf.Anonymous && name == "" {
				ft := sf.Type
				if ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct && depth < maxEmbedDepth {
					walk(ft, idx, depth+1)
					continue
				}
			}
			if !sf.IsExported() {
				continue
			}
			tagged := name != ""
			if !tagged {
				name = sf.Name
			}
			opts = "," + opts + ","
			all = append(all, candidate{fieldInfo: fieldInfo{
				name:      name,
				index:     idx,
				omitEmpty: strings.Contains(opts, ",omitempty,"),
				omitZero:  strings.Contains(opts, ",omitzero,"),
				plain:     isPlain(sf.Type),
				quoted:    append(AppendString(nil, name), ": "...),
			}, depth: depth, tagged: tagged})
		}
	}
	walk(t, nil, 0)
	// Resolve name conflicts: the shallowest field wins, a tagged field
	// beats an untagged one at the same depth, otherwise all are dropped.
	best := map[string][]candidate{}
	for _, c := range all {
		best[c.name] = append(best[c.name], c)
	}
	var out []fieldInfo
	for _, c := range all {
		keep := true
		for _, r := range best[c.name] {
			if slices.Equal(r.index, c.index) {
				continue
			}
			if r.depth <= c.depth && (r.depth != c.depth || !c.tagged || r.tagged) {
				keep = false
				break
			}
		}
		if keep {
			out = append(out, c.fieldInfo)
		}
	}
	return out
}

// maxEmbedDepth bounds how deep embedded structs are promoted; it also
// stops a recursive embedding through pointers.
const maxEmbedDepth = 10

// fieldByIndex is reflect.Value.FieldByIndex that reports a nil embedded
// pointer instead of panicking.
func fieldByIndex(v reflect.Value, index []int) (reflect.Value, bool) {
	if len(index) == 1 {
		return v.Field(index[0]), true
	}
	for i, x := range index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}, false
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v, true
}

// isEmptyValue is encoding/json's omitempty rule: false, 0, "", nil
// pointers and interfaces, and empty arrays, slices and maps.
func isEmptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
