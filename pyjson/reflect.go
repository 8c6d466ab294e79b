package pyjson

import (
	"encoding"
	"encoding/json"
	"errors"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"sync"
)

// ErrRecursion reports a value nested deeper than json.dumps would accept.
var ErrRecursion = errors.New("recursion limit")

// isPlain reports whether values of t are bools, numbers or strings with
// no special encoding (no Marshaler, not json.Number).
func isPlain(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.String:
		return t != numberType && !t.Implements(marshalerType) && !t.Implements(textMarshalerType)
	}
	return false
}

// plain encodes a value whose type passed isPlain.
func (e *encoder) plain(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		e.buf = AppendString(e.buf, v.String())
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
	case reflect.Float32, reflect.Float64:
		e.buf = AppendFloat(e.buf, v.Float())
	default:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
	}
}

// typeInfo is what the encoder needs to know about a Go type, computed once.
type typeInfo struct {
	special specialKind
	fields  []fieldInfo // for structs
}

type specialKind uint8

const (
	specialNone specialKind = iota
	specialObject
	specialNumber
	specialRaw
	specialBigInt
	specialMarshaler
	specialText
)

var (
	objectType        = reflect.TypeFor[Object]()
	numberType        = reflect.TypeFor[json.Number]()
	rawType           = reflect.TypeFor[json.RawMessage]()
	bigIntPtrType     = reflect.TypeFor[*big.Int]()
	bigIntType        = reflect.TypeFor[big.Int]()
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// typeInfos memoises typeInfo per reflect.Type. It is a cache of pure
// functions of the type, not program state.
var typeInfos sync.Map // map[reflect.Type]*typeInfo

func infoOf(t reflect.Type) *typeInfo {
	if ti, ok := typeInfos.Load(t); ok {
		return ti.(*typeInfo)
	}
	ti := &typeInfo{}
	switch {
	case t == objectType:
		ti.special = specialObject
	case t == numberType:
		ti.special = specialNumber
	case t == rawType:
		ti.special = specialRaw
	case t == bigIntPtrType || t == bigIntType:
		ti.special = specialBigInt
	case t.Implements(marshalerType):
		ti.special = specialMarshaler
	case t.Implements(textMarshalerType):
		ti.special = specialText
	}
	if t.Kind() == reflect.Struct && ti.special == specialNone {
		ti.fields = structFields(t)
	}
	actual, _ := typeInfos.LoadOrStore(t, ti)
	return actual.(*typeInfo)
}

// stringType is the plain string type, which never needs a typeInfo.
var stringType = reflect.TypeFor[string]()

// typeCacheSize is the number of recent types an encoder remembers, so a
// list of structs does not pay a sync.Map lookup per element and field.
const typeCacheSize = 8

type typeCache struct {
	types [typeCacheSize]reflect.Type
	infos [typeCacheSize]*typeInfo
	next  int
}

// info is infoOf behind the encoder's small per-call cache.
func (e *encoder) info(t reflect.Type) *typeInfo {
	c := &e.cache
	for i := range c.types {
		if c.types[i] == t {
			return c.infos[i]
		}
	}
	ti := infoOf(t)
	c.types[c.next], c.infos[c.next] = t, ti
	c.next = (c.next + 1) % typeCacheSize
	return ti
}

func (e *encoder) reflectValue(v reflect.Value, depth int) error {
	if depth > maxDepth {
		return ErrRecursion
	}
	if !v.IsValid() {
		e.buf = append(e.buf, "null"...)
		return nil
	}
	t := v.Type()
	switch v.Kind() {
	case reflect.Bool:
		e.buf = strconv.AppendBool(e.buf, v.Bool())
		return nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.buf = strconv.AppendInt(e.buf, v.Int(), 10)
		return nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.buf = strconv.AppendUint(e.buf, v.Uint(), 10)
		return nil
	case reflect.Float32, reflect.Float64:
		e.buf = AppendFloat(e.buf, v.Float())
		return nil
	case reflect.String:
		if t == stringType || e.info(t).special == specialNone {
			e.buf = AppendString(e.buf, v.String())
			return nil
		}
	case reflect.Interface:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
		return e.value(v.Elem().Interface(), depth+1)
	case reflect.Pointer:
		if v.IsNil() {
			e.buf = append(e.buf, "null"...)
			return nil
		}
	}
	ti := e.info(t)
	switch ti.special {
	case specialObject, specialRaw, specialBigInt:
		if v.Kind() == reflect.Struct { // big.Int by value
			b := v.Interface().(big.Int)
			e.buf = b.Append(e.buf, 10)
			return nil
		}
		return e.value(v.Interface(), depth)
	case specialNumber:
		return e.number(json.Number(v.String()))
	case specialMarshaler:
		data, err := v.Interface().(json.Marshaler).MarshalJSON()
		if err != nil {
			return err
		}
		return e.raw(data, depth+1)
	case specialText:
		text, err := v.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return err
		}
		e.buf = AppendString(e.buf, string(text))
		return nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		return e.reflectValue(v.Elem(), depth+1)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			// Python's json.dumps refuses bytes; so do we.
			return &UnsupportedValueError{Type: "bytes"}
		}
		if v.IsNil() {
			// A nil Go slice is an empty Python list, not None.
			e.buf = append(e.buf, "[]"...)
			return nil
		}
		return e.array(v, depth)
	case reflect.Array:
		return e.array(v, depth)
	case reflect.Map:
		return e.mapValue(v, depth)
	case reflect.Struct:
		return e.structValue(v, ti.fields, depth)
	}
	return &UnsupportedValueError{Type: t.String()}
}

func (e *encoder) array(v reflect.Value, depth int) error {
	e.buf = append(e.buf, '[')
	plain := isPlain(v.Type().Elem())
	for i := 0; i < v.Len(); i++ {
		if i > 0 {
			e.buf = append(e.buf, ", "...)
		}
		if plain {
			e.plain(v.Index(i))
			continue
		}
		if err := e.reflectValue(v.Index(i), depth+1); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, ']')
	return nil
}

// mapValue encodes a Go map with its keys sorted: Go maps have no insertion
// order to keep, and sorted keys make the output deterministic. Integer keys
// become strings, as json.dumps does with int keys.
func (e *encoder) mapValue(v reflect.Value, depth int) error {
	if v.IsNil() {
		e.buf = append(e.buf, "{}"...)
		return nil
	}
	type kv struct {
		key string
		val reflect.Value
	}
	items := make([]kv, 0, v.Len())
	iter := v.MapRange()
	for iter.Next() {
		k := iter.Key()
		var key string
		switch k.Kind() {
		case reflect.String:
			key = k.String()
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			key = strconv.FormatInt(k.Int(), 10)
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			key = strconv.FormatUint(k.Uint(), 10)
		default:
			return &UnsupportedValueError{Type: v.Type().String()}
		}
		items = append(items, kv{key, iter.Value()})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].key < items[j].key })
	e.buf = append(e.buf, '{')
	for i, it := range items {
		if i > 0 {
			e.buf = append(e.buf, ", "...)
		}
		e.buf = AppendString(e.buf, it.key)
		e.buf = append(e.buf, ": "...)
		if err := e.reflectValue(it.val, depth+1); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

func (e *encoder) structValue(v reflect.Value, fields []fieldInfo, depth int) error {
	e.buf = append(e.buf, '{')
	first := true
	for i := range fields {
		f := &fields[i]
		fv, ok := fieldByIndex(v, f.index)
		if !ok {
			continue // promoted through a nil embedded pointer
		}
		if (f.omitEmpty && isEmptyValue(fv)) || (f.omitZero && fv.IsZero()) {
			continue
		}
		if !first {
			e.buf = append(e.buf, ", "...)
		}
		first = false
		e.buf = append(e.buf, f.quoted...)
		if f.plain {
			e.plain(fv)
			continue
		}
		if err := e.reflectValue(fv, depth+1); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}
