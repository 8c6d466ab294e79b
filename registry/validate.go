package registry

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// englishViolations words a failed validation in the en profile: one
// "<path>: <problem>" line per leaf of the validator's error tree, in the
// validator's English, sorted by location. Unknown keys of a nested object
// also name the keys that object accepts, which are returned by path too.
func englishViolations(doc any, err error, inst any) ([]string, pyjson.Object) {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []string{"$: " + err.Error()}, nil
	}
	p := message.NewPrinter(language.English)
	var leaves []leaf
	var nested pyjson.Object
	var walk func(*jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			ap, isAP := e.ErrorKind.(*kind.AdditionalProperties)
			if isAP {
				// Collected from a map: sort for a stable message.
				sort.Strings(ap.Properties)
			}
			path := instancePath(e.InstanceLocation, inst)
			text := path + ": " + e.ErrorKind.LocalizedString(p)
			if isAP && len(e.InstanceLocation) > 0 {
				accepted := acceptedAt(doc, e.SchemaURL)
				nested = nested.Set(path, accepted)
				text += " (accepted: " + strings.Join(accepted, ", ") + ")"
			}
			leaves = append(leaves, leaf{e.InstanceLocation, text})
			return
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	walk(ve)
	if len(leaves) == 0 {
		return []string{"$: " + ve.Error()}, nil
	}
	// The validator walks properties in map order; sort so the payload is
	// the same on every call: by instance location (array indices
	// numerically, a parent before its children), then by text.
	sort.SliceStable(leaves, func(i, j int) bool {
		if c := compareLocations(leaves[i].loc, leaves[j].loc); c != 0 {
			return c < 0
		}
		return leaves[i].text < leaves[j].text
	})
	out := make([]string, len(leaves))
	for i, l := range leaves {
		out[i] = l.text
	}
	return out, nested
}

// maxViolationChars caps one violation line in code points. Some messages
// quote the offending argument ("'...' does not match pattern"), and an
// agent may send megabytes; the model needs the gist, not the value back.
const maxViolationChars = 300

// clipViolation shortens text to maxViolationChars code points, marking the
// cut with an ellipsis.
func clipViolation(text string) string {
	n := 0
	for i := range text {
		if n == maxViolationChars-1 {
			return text[:i] + "…"
		}
		n++
	}
	return text
}

// leaf is one violation with its instance location.
type leaf struct {
	loc  []string
	text string
}

func compareLocations(a, b []string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] == b[i] {
			continue
		}
		ai, errA := strconv.Atoi(a[i])
		bi, errB := strconv.Atoi(b[i])
		if errA == nil && errB == nil {
			return ai - bi
		}
		return strings.Compare(a[i], b[i])
	}
	return len(a) - len(b)
}

// instancePath renders a JSON pointer into inst as a JSONPath like
// $.a.b[2]. Whether a token is an array index is read from the instance
// itself, so an object key "2" stays a key ($.a.2); a key that would not
// read back as one name (empty, or holding '.', '[', ']', quotes,
// backslashes, spaces or controls) is bracketed: $['a.b'].
func instancePath(loc []string, inst any) string {
	var b strings.Builder
	b.WriteByte('$')
	node := inst
	for _, tok := range loc {
		switch n := node.(type) {
		case []any:
			b.WriteString("[" + tok + "]")
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n) {
				node = n[i]
			} else {
				node = nil
			}
			continue
		case map[string]any:
			node = n[tok]
		default:
			node = nil
		}
		if plainKey(tok) {
			b.WriteString("." + tok)
			continue
		}
		b.WriteString("['" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(tok) + "']")
	}
	return b.String()
}

// plainKey reports whether key can follow a '.' in a JSONPath unquoted.
func plainKey(key string) bool {
	if key == "" {
		return false
	}
	for _, c := range key {
		if c <= ' ' || c == 0x7f || strings.ContainsRune(`.[]'"\`, c) {
			return false
		}
	}
	return true
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// jsonKind names a decoded JSON value's type as the schema spec does.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "number"
}
