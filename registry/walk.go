package registry

import (
	"encoding/json"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// walker collects violations exactly as excelmanus's
// ToolRegistry._collect_schema_violations words them: root
// "$", property "{path}.{name}", item "{path}[{i}]", and per node oneOf,
// type, enum, string, number, list and object checks in that order. It only
// words; whether a call is refused is the full validator's decision. It
// records which (instance location, keyword) pairs it reported so the
// validator's other findings can be added without repeating these
// (translate.go).
type walker struct {
	out []string
	// reported holds locKey(loc, keyword) of every violation written.
	reported map[string]bool
	// stopped holds locKey(loc, "") of nodes where the walk stopped early
	// (a failed oneOf or type): nothing below them is reported.
	stopped map[string]bool
	// nested: for each object with unknown keys below the root, its path
	// and the names its schema accepts (sorted).
	nested pyjson.Object
}

func newWalker() *walker {
	return &walker{reported: map[string]bool{}, stopped: map[string]bool{}}
}

// locKey identifies a keyword at an instance location (JSON pointer tokens).
func locKey(loc []string, keyword string) string {
	return strings.Join(loc, "\x00") + "\x01" + keyword
}

func (w *walker) emit(loc []string, keyword, text string) {
	w.out = append(w.out, text)
	w.reported[locKey(loc, keyword)] = true
}

// child returns loc extended by one token, never sharing loc's array.
func child(loc []string, tok string) []string {
	return append(loc[:len(loc):len(loc)], tok)
}

// walk checks value (decoded by pyjson.DecodeOrdered) against schema
// (a node of the schema document) at path / loc.
func (w *walker) walk(value any, schema map[string]any, path string, loc []string) {
	if oneOf, ok := schema["oneOf"].([]any); ok && len(oneOf) > 0 {
		matched := 0
		for _, opt := range oneOf {
			optSchema, ok := opt.(map[string]any)
			if !ok {
				continue
			}
			branch := newWalker()
			branch.walk(value, optSchema, path, loc)
			if len(branch.out) == 0 {
				matched++
			}
		}
		if matched != 1 {
			w.emit(loc, "oneOf", path+": 必须匹配 oneOf 的 1 个分支，当前匹配 "+strconv.Itoa(matched)+" 个")
			w.stopped[locKey(loc, "")] = true
			return
		}
	}
	if t, ok := schema["type"]; ok && !typeMatches(value, t) {
		w.emit(loc, "type", path+": 类型不匹配，期望 "+pyRepr(t)+"，实际 "+pyTypeName(value))
		w.stopped[locKey(loc, "")] = true
		return
	}
	if enum, ok := schema["enum"].([]any); ok && len(enum) > 0 && !pyIn(value, enum) {
		w.emit(loc, "enum", path+": 不在允许枚举中，当前值 "+pyRepr(value))
	}
	switch v := value.(type) {
	case string:
		w.checkString(v, schema, path, loc)
	case json.Number, float64:
		w.checkNumber(v, schema, path, loc)
	case []any:
		w.checkList(v, schema, path, loc)
	case pyjson.Object:
		w.checkObject(v, schema, path, loc)
	}
}

func (w *walker) checkString(s string, schema map[string]any, path string, loc []string) {
	n := pyNumber{rat: big.NewRat(int64(pyLen(s)), 1)}
	if m, ok := intKeyword(schema, "minLength"); ok && pyLess(n, m.num) {
		w.emit(loc, "minLength", path+": 长度不能小于 "+m.text)
	}
	if m, ok := intKeyword(schema, "maxLength"); ok && pyLess(m.num, n) {
		w.emit(loc, "maxLength", path+": 长度不能超过 "+m.text)
	}
	if p, ok := schema["pattern"].(string); ok && p != "" {
		// re.search is unanchored, as MatchString is. A pattern Go's
		// regexp cannot compile never reached here (Register compiles it).
		if re, err := regexp.Compile(p); err == nil && !re.MatchString(s) {
			w.emit(loc, "pattern", path+": 不匹配 pattern "+reprString(p))
		}
	}
}

func (w *walker) checkNumber(v any, schema map[string]any, path string, loc []string) {
	n, ok := toPyNumber(v)
	if !ok {
		return
	}
	if m, ok := numKeyword(schema, "minimum"); ok && pyLess(n, m.num) {
		w.emit(loc, "minimum", path+": 不能小于 "+m.text)
	}
	if m, ok := numKeyword(schema, "maximum"); ok && pyLess(m.num, n) {
		w.emit(loc, "maximum", path+": 不能超过 "+m.text)
	}
}

func (w *walker) checkList(list []any, schema map[string]any, path string, loc []string) {
	n := pyNumber{rat: big.NewRat(int64(len(list)), 1)}
	if m, ok := intKeyword(schema, "minItems"); ok && pyLess(n, m.num) {
		w.emit(loc, "minItems", path+": 列表长度不能小于 "+m.text)
	}
	if m, ok := intKeyword(schema, "maxItems"); ok && pyLess(m.num, n) {
		w.emit(loc, "maxItems", path+": 列表长度不能超过 "+m.text)
	}
	items, ok := schema["items"].(map[string]any)
	if !ok {
		return
	}
	for i, item := range list {
		w.walk(item, items, path+"["+strconv.Itoa(i)+"]", child(loc, strconv.Itoa(i)))
	}
}

func (w *walker) checkObject(obj pyjson.Object, schema map[string]any, path string, loc []string) {
	props, _ := schema["properties"].(map[string]any)
	if req, ok := schema["required"].([]any); ok {
		for _, r := range req {
			name, ok := r.(string)
			if !ok {
				continue
			}
			if _, present := obj.Get(name); !present {
				w.emit(loc, "required", path+"."+name+": 缺少必填字段")
			}
		}
	}
	if ap, ok := schema["additionalProperties"].(bool); ok && !ap && len(props) > 0 {
		keys := make([]string, len(obj))
		for i, f := range obj {
			keys[i] = f.Key
		}
		sort.Strings(keys) // UTF-8 byte order is code point order, as Python sorts
		unknown := false
		for _, k := range keys {
			if _, ok := props[k]; !ok {
				w.emit(loc, "additionalProperties", path+"."+k+": 非法字段（schema 未声明）")
				unknown = true
			}
		}
		if unknown && len(loc) > 0 {
			w.nested = w.nested.Set(path, sortedKeys(props))
		}
	}
	for _, f := range obj {
		if fs, ok := props[f.Key].(map[string]any); ok {
			w.walk(f.Value, fs, path+"."+f.Key, child(loc, f.Key))
		}
	}
}

// typeMatches is excelmanus's _schema_type_matches: a string or a list of
// type names; no usable name, or a name it does not know, matches.
func typeMatches(v any, t any) bool {
	var names []string
	switch x := t.(type) {
	case string:
		names = []string{x}
	case []any:
		for _, n := range x {
			if s, ok := n.(string); ok {
				names = append(names, s)
			}
		}
	}
	if len(names) == 0 {
		return true
	}
	for _, n := range names {
		if typeMatch(v, n) {
			return true
		}
	}
	return false
}

func typeMatch(v any, name string) bool {
	py := pyTypeName(v)
	switch name {
	case "object":
		return py == "dict"
	case "array":
		return py == "list"
	case "string":
		return py == "str"
	case "integer":
		return py == "int"
	case "number":
		return py == "int" || py == "float"
	case "boolean":
		return py == "bool"
	case "null":
		return py == "NoneType"
	}
	return true
}

// pyIn is Python's `value in list`.
func pyIn(v any, list []any) bool {
	for _, item := range list {
		if pyEqual(v, item) {
			return true
		}
	}
	return false
}

// keywordNumber is a schema bound as a number and as Python's str() of it.
type keywordNumber struct {
	num  pyNumber
	text string
}

// intKeyword reads a keyword excelmanus uses only when it is a Python int
// (isinstance(x, int): a JSON integer literal, or a bool).
func intKeyword(schema map[string]any, key string) (keywordNumber, bool) {
	switch x := schema[key].(type) {
	case json.Number:
		if !isIntLiteral(x) {
			return keywordNumber{}, false
		}
		n, ok := toPyNumber(x)
		return keywordNumber{n, pyRepr(x)}, ok
	case bool:
		return keywordNumber{asBoolNumber(x), pyRepr(x)}, true
	}
	return keywordNumber{}, false
}

// numKeyword reads a keyword excelmanus uses when it is an int or a float.
func numKeyword(schema map[string]any, key string) (keywordNumber, bool) {
	if b, ok := schema[key].(bool); ok {
		return keywordNumber{asBoolNumber(b), pyRepr(b)}, true
	}
	n, ok := toPyNumber(schema[key])
	if !ok {
		return keywordNumber{}, false
	}
	return keywordNumber{n, pyRepr(schema[key])}, true
}
