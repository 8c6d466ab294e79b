package registry

import (
	"errors"
	"fmt"
	"math/big"
	"net/url"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// excelmanusViolations words a failed validation in the excelmanus profile:
// the walk's violations first (excelmanus's exact texts), then whatever the
// full validator found that the walk did not report (keywords outside
// excelmanus's subset, subschemas behind $ref/allOf/anyOf/if, or where
// Python's and JSON Schema's rules differ), worded in the same style and
// sorted by location. It also returns the accepted keys of every nested
// object that holds unknown keys.
func excelmanusViolations(doc any, verr error, inst any) ([]string, pyjson.Object) {
	w := newWalker()
	if root, ok := doc.(map[string]any); ok {
		w.walk(inst, root, "$", nil)
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		if len(w.out) == 0 {
			w.out = append(w.out, "$: 校验失败（"+verr.Error()+"）")
		}
		return w.out, w.nested
	}
	t := translator{doc: doc, inst: inst, w: w}
	t.visit(ve)
	sort.SliceStable(t.extra, func(i, j int) bool {
		return compareLocations(t.extra[i].loc, t.extra[j].loc) < 0
	})
	out := w.out
	for _, l := range t.extra {
		out = append(out, l.text)
	}
	return out, w.nested
}

// translator turns the validator's findings the walk did not report into
// excelmanus-style texts.
type translator struct {
	doc   any
	inst  any
	w     *walker
	extra []leaf
}

// below reports whether loc is at or under a node where the walk stopped.
func (t *translator) below(loc []string) bool {
	for i := len(loc); i >= 0; i-- {
		if t.w.stopped[locKey(loc[:i], "")] {
			return true
		}
	}
	return false
}

func (t *translator) add(loc []string, keyword, text string) {
	if t.w.reported[locKey(loc, keyword)] || t.below(loc) {
		return
	}
	t.extra = append(t.extra, leaf{loc, text})
}

func (t *translator) visit(e *jsonschema.ValidationError) {
	loc := e.InstanceLocation
	path := pyPath(loc, t.inst)
	val := valueAt(t.inst, loc)
	switch k := e.ErrorKind.(type) {
	case *kind.Group, *kind.Schema, *kind.AllOf, *kind.Reference, *kind.PropertyNames, *kind.ContentSchema:
		for _, c := range e.Causes {
			t.visit(c)
		}
		if len(e.Causes) == 0 {
			t.add(loc, "?", path+": 校验失败（"+validatorText(e)+"）")
		}
	case *kind.OneOf:
		t.add(loc, "oneOf", fmt.Sprintf("%s: 必须匹配 oneOf 的 1 个分支，当前匹配 %d 个", path, len(k.Subschemas)))
	case *kind.AnyOf:
		t.add(loc, "anyOf", path+": 必须至少匹配 anyOf 的 1 个分支")
	case *kind.Not:
		t.add(loc, "not", path+": 不能匹配 not 指定的 schema")
	case *kind.FalseSchema:
		t.add(loc, "false", path+": "+falseSchemaText(t.inst, loc))
	case *kind.Type:
		var want any
		if len(k.Want) == 1 {
			want = k.Want[0]
		} else {
			list := make([]any, len(k.Want))
			for i, w := range k.Want {
				list[i] = w
			}
			want = list
		}
		if s, ok := schemaAt(t.doc, e.SchemaURL); ok {
			if tv, ok := s["type"]; ok {
				want = tv
			}
		}
		t.add(loc, "type", path+": 类型不匹配，期望 "+pyRepr(want)+"，实际 "+pyTypeName(val))
	case *kind.Enum:
		t.add(loc, "enum", path+": 不在允许枚举中，当前值 "+pyRepr(val))
	case *kind.Const:
		t.add(loc, "const", path+": 必须等于 "+pyRepr(schemaKeyword(t.doc, e.SchemaURL, "const"))+"，当前值 "+pyRepr(val))
	case *kind.Format:
		t.add(loc, "format", path+": 不符合格式 "+reprString(k.Want))
	case *kind.MinLength:
		t.add(loc, "minLength", path+": 长度不能小于 "+strconv.Itoa(k.Want))
	case *kind.MaxLength:
		t.add(loc, "maxLength", path+": 长度不能超过 "+strconv.Itoa(k.Want))
	case *kind.Pattern:
		t.add(loc, "pattern", path+": 不匹配 pattern "+reprString(k.Want))
	case *kind.Minimum:
		t.add(loc, "minimum", path+": 不能小于 "+t.bound(e, "minimum", k.Want))
	case *kind.Maximum:
		t.add(loc, "maximum", path+": 不能超过 "+t.bound(e, "maximum", k.Want))
	case *kind.ExclusiveMinimum:
		t.add(loc, "exclusiveMinimum", path+": 必须大于 "+t.bound(e, "exclusiveMinimum", k.Want))
	case *kind.ExclusiveMaximum:
		t.add(loc, "exclusiveMaximum", path+": 必须小于 "+t.bound(e, "exclusiveMaximum", k.Want))
	case *kind.MultipleOf:
		t.add(loc, "multipleOf", path+": 必须是 "+t.bound(e, "multipleOf", k.Want)+" 的倍数")
	case *kind.MinItems:
		t.add(loc, "minItems", path+": 列表长度不能小于 "+strconv.Itoa(k.Want))
	case *kind.MaxItems:
		t.add(loc, "maxItems", path+": 列表长度不能超过 "+strconv.Itoa(k.Want))
	case *kind.AdditionalItems:
		t.add(loc, "additionalItems", fmt.Sprintf("%s: 列表长度不能超过 %d", path, k.Count))
	case *kind.UniqueItems:
		t.add(loc, "uniqueItems", fmt.Sprintf("%s: 列表项不能重复（第 %d 项与第 %d 项相同）", path, k.Duplicates[0], k.Duplicates[1]))
	case *kind.Contains:
		t.add(loc, "contains", path+": 列表中没有符合 contains 的项")
	case *kind.MinContains:
		t.add(loc, "minContains", fmt.Sprintf("%s: 符合 contains 的项不能少于 %d 个", path, k.Want))
	case *kind.MaxContains:
		t.add(loc, "maxContains", fmt.Sprintf("%s: 符合 contains 的项不能多于 %d 个", path, k.Want))
	case *kind.MinProperties:
		t.add(loc, "minProperties", fmt.Sprintf("%s: 字段数不能小于 %d", path, k.Want))
	case *kind.MaxProperties:
		t.add(loc, "maxProperties", fmt.Sprintf("%s: 字段数不能超过 %d", path, k.Want))
	case *kind.Required:
		for _, m := range k.Missing {
			t.add(loc, "required", path+"."+m+": 缺少必填字段")
		}
	case *kind.DependentRequired:
		for _, m := range k.Missing {
			t.add(loc, "dependentRequired", path+"."+m+": 缺少必填字段（提供 "+reprString(k.Prop)+" 时必填）")
		}
	case *kind.Dependency:
		for _, m := range k.Missing {
			t.add(loc, "dependencies", path+"."+m+": 缺少必填字段（提供 "+reprString(k.Prop)+" 时必填）")
		}
	case *kind.AdditionalProperties:
		props := append([]string(nil), k.Properties...)
		sort.Strings(props)
		before := len(t.extra)
		for _, p := range props {
			t.add(loc, "additionalProperties", path+"."+p+": 非法字段（schema 未声明）")
		}
		if len(t.extra) > before && len(loc) > 0 {
			t.w.nested = t.w.nested.Set(path, acceptedAt(t.doc, e.SchemaURL))
		}
	default:
		t.add(loc, "?", path+": 校验失败（"+validatorText(e)+"）")
	}
}

// falseSchemaText words a value its schema ("false") refuses outright: an
// item past what a list allows, a field an object does not allow, or any
// value at the root.
func falseSchemaText(inst any, loc []string) string {
	if len(loc) == 0 {
		return "schema 不接受任何值"
	}
	if _, isList := valueAt(inst, loc[:len(loc)-1]).([]any); isList {
		return "列表不允许这一项（schema 为 false）"
	}
	return "不允许此字段（schema 为 false）"
}

// bound is a numeric keyword as Python's str() of the schema's literal,
// read from the schema document; the validator's rational otherwise.
func (t *translator) bound(e *jsonschema.ValidationError, keyword string, r *big.Rat) string {
	if v := schemaKeyword(t.doc, e.SchemaURL, keyword); v != nil {
		if _, ok := toPyNumber(v); ok {
			return pyRepr(v)
		}
	}
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return reprFloat(f)
}

// validatorText is the validator's own English text of e.
func validatorText(e *jsonschema.ValidationError) string {
	return e.ErrorKind.LocalizedString(message.NewPrinter(language.English))
}

// pyPath renders an instance location the excelmanus way: "$", then
// ".name" per property (unquoted, whatever the name holds) and "[i]" per
// list item; which tokens are indices is read from the instance.
func pyPath(loc []string, inst any) string {
	var b strings.Builder
	b.WriteByte('$')
	for i, tok := range loc {
		if _, isList := valueAt(inst, loc[:i]).([]any); isList {
			b.WriteString("[" + tok + "]")
			continue
		}
		b.WriteString("." + tok)
	}
	return b.String()
}

// valueAt follows loc into an instance decoded by DecodeOrdered.
func valueAt(inst any, loc []string) any {
	node := inst
	for _, tok := range loc {
		switch n := node.(type) {
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n) {
				return nil
			}
			node = n[i]
		case pyjson.Object:
			v, _ := n.Get(tok)
			node = v
		default:
			return nil
		}
	}
	return node
}

// schemaAt resolves the JSON pointer fragment of a validator schema URL
// ("tool.json#/properties/a") in the tool's schema document.
func schemaAt(doc any, schemaURL string) (map[string]any, bool) {
	_, frag, _ := strings.Cut(schemaURL, "#")
	node := doc
	if frag != "" {
		for _, tok := range strings.Split(strings.TrimPrefix(frag, "/"), "/") {
			if unescaped, err := url.PathUnescape(tok); err == nil {
				tok = unescaped
			}
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			switch n := node.(type) {
			case map[string]any:
				node = n[tok]
			case []any:
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(n) {
					return nil, false
				}
				node = n[i]
			default:
				return nil, false
			}
		}
	}
	m, ok := node.(map[string]any)
	return m, ok
}

// schemaKeyword is the value of keyword in the schema at schemaURL, or nil.
func schemaKeyword(doc any, schemaURL, keyword string) any {
	s, ok := schemaAt(doc, schemaURL)
	if !ok {
		return nil
	}
	return s[keyword]
}

// acceptedAt is the sorted property names of the schema at schemaURL.
func acceptedAt(doc any, schemaURL string) []string {
	s, _ := schemaAt(doc, schemaURL)
	props, _ := s["properties"].(map[string]any)
	return sortedKeys(props)
}
