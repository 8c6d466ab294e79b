package errorsjson

import (
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// ErrRecursion reports a value nested deeper than json.dumps would accept.
var ErrRecursion = errors.New("recursion limit")

// fieldInfo describes one exported struct field the way encoding/json would
// see it: its JSON name, index and omitempty flag.
type fieldInfo struct {
	name      string
	index     []int
	omitEmpty bool
	quoted    []byte
}

// structFields memoises the field list of each struct type. It is a cache of
// pure functions of the type, not program state.
var structFields sync.Map // map[reflect.Type][]fieldInfo

func fieldsOf(t reflect.Type) []fieldInfo {
	if f, ok := structFields.Load(t); ok {
		return f.([]fieldInfo)
	}
	var fields []fieldInfo
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if name == "" {
			name = sf.Name
		}
		fields = append(fields, fieldInfo{
			name:      name,
			index:     sf.Index,
			omitEmpty: strings.Contains(","+opts+",", ",omitempty,"),
			quoted:    append(AppendString(nil, name), ": "...),
		})
	}
	actual, _ := structFields.LoadOrStore(t, fields)
	return actual.([]fieldInfo)
}

func (e *encoder) reflectValue(v reflect.Value, depth int) error {
	if depth > maxDepth {
		return ErrRecursion
	}
	switch v.Kind() {
	case reflect.Invalid:
		e.buf = append(e.buf, "null"...)
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.value(v.Elem().Interface(), depth+1)
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	case reflect.Float32, reflect.Float64:
		e.buf = AppendFloat(e.buf, v.Float())
	case reflect.String:
		e.buf = AppendString(e.buf, v.String())
	case reflect.Slice:
		if v.IsNil() {
			// A nil Go slice is an empty Python list, not None.
			e.buf = append(e.buf, "[]"...)
			return nil
		}
		fallthrough
	case reflect.Array:
		e.buf = append(e.buf, '[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				e.buf = append(e.buf, ", "...)
			}
			if err := e.value(v.Index(i).Interface(), depth+1); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, ']')
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			return &UnsupportedValueError{Type: v.Type().String()}
		}
		keys := v.MapKeys()
		sort.Slice(keys, func(i, j int) bool { return keys[i].String() < keys[j].String() })
		e.buf = append(e.buf, '{')
		for i, k := range keys {
			if i > 0 {
				e.buf = append(e.buf, ", "...)
			}
			e.buf = AppendString(e.buf, k.String())
			e.buf = append(e.buf, ": "...)
			if err := e.value(v.MapIndex(k).Interface(), depth+1); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, '}')
	case reflect.Struct:
		e.buf = append(e.buf, '{')
		first := true
		for _, f := range fieldsOf(v.Type()) {
			fv := v.FieldByIndex(f.index)
			if f.omitEmpty && fv.IsZero() {
				continue
			}
			if !first {
				e.buf = append(e.buf, ", "...)
			}
			first = false
			e.buf = append(e.buf, f.quoted...)
			if err := e.value(fv.Interface(), depth+1); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, '}')
	default:
		return &UnsupportedValueError{Type: v.Type().String()}
	}
	return nil
}

// raw re-encodes JSON text with Python's separators, keeping key order.
func (e *encoder) raw(data json.RawMessage, depth int) error {
	v, err := DecodeOrdered(data)
	if err != nil {
		return err
	}
	return e.value(v, depth)
}

// DecodeOrdered parses JSON text into Object (keys in document order),
// []any, string, json.Number, bool and nil, so that re-encoding keeps the
// document's key order as Python's json.loads does.
func DecodeOrdered(data []byte) (any, error) {
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.UseNumber()
	v, err := decodeValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("extra data after JSON value")
	}
	return v, nil
}

func decodeValue(dec *json.Decoder, depth int) (any, error) {
	if depth > maxDepth {
		return nil, ErrRecursion
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			obj := Object{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, _ := kt.(string)
				val, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				// Python's json.loads keeps the last duplicate key, in the
				// position the key first appeared.
				obj = obj.Set(key, val)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return obj, nil
		case '[':
			arr := []any{}
			for dec.More() {
				val, err := decodeValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				arr = append(arr, val)
			}
			if _, err := dec.Token(); err != nil {
				return nil, err
			}
			return arr, nil
		}
		return nil, errors.New("unexpected delimiter")
	default:
		return t, nil
	}
}
