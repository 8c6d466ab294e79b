// Package callmeta reads the registry's extension keys of a call's _meta
// (toolScope, timeoutMs, nullAsOmitted) with one set of rules and one set
// of error messages for every door: the WebSocket door and the fast path
// hand it the raw JSON (FromJSON), the MCP SDK doors the decoded map
// (FromMap). Keys it does not know are left to the door.
package callmeta

import (
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// ErrInvalidParams is the kind of every error of this package, and of
// every params error of the doors (JSON-RPC -32602).
//
//lint:ignore ST1005 JSON-RPC's own wording of -32602, quoted verbatim
var ErrInvalidParams = errors.New("Invalid params")

// Keys of _meta this package reads.
const (
	KeyToolScope     = "toolScope"
	KeyTimeoutMs     = "timeoutMs"
	KeyNullAsOmitted = "nullAsOmitted"
)

// The errors, one per key.
var (
	errNotObject     = fmt.Errorf("%w: params._meta must be an object", ErrInvalidParams)
	errScope         = fmt.Errorf("%w: _meta.toolScope must be a list of tool names", ErrInvalidParams)
	errTimeout       = fmt.Errorf("%w: _meta.timeoutMs must be a positive number", ErrInvalidParams)
	errNullAsOmitted = fmt.Errorf("%w: _meta.nullAsOmitted must be true or false", ErrInvalidParams)
)

// Meta is what a call's _meta asks of the registry.
type Meta struct {
	// Scope is the tools the call may use, when HasScope; an empty Scope
	// allows none.
	Scope []string
	// HasScope reports whether toolScope was given (and not null).
	HasScope bool
	// Timeout is the call's deadline; zero when timeoutMs was not given.
	Timeout time.Duration
	// NullAsOmitted asks that a null argument count as omitted.
	NullAsOmitted bool
}

// Options appends to opts the registry options m asks for, in the order
// toolScope, timeoutMs, nullAsOmitted.
func (m Meta) Options(opts []registry.CallOption) []registry.CallOption {
	if m.HasScope {
		opts = append(opts, registry.WithScope(m.Scope))
	}
	if m.Timeout > 0 {
		opts = append(opts, registry.WithTimeout(m.Timeout))
	}
	if m.NullAsOmitted {
		opts = append(opts, registry.WithNullAsOmitted())
	}
	return opts
}

// FromMap reads the extension keys of meta as the MCP SDK decodes it
// (encoding/json's types: []any, float64, bool). A nil meta asks nothing.
func FromMap(meta map[string]any) (Meta, error) {
	return read(func(key string) (any, bool) {
		v, ok := meta[key]
		return v, ok
	})
}

// FromJSON reads the extension keys of meta, the raw _meta member of a
// request's params: absent, or an object (else an ErrInvalidParams error).
func FromJSON(meta gjson.Result) (Meta, error) {
	if !meta.Exists() {
		return Meta{}, nil
	}
	if !meta.IsObject() {
		return Meta{}, errNotObject
	}
	return read(func(key string) (any, bool) {
		v := meta.Get(key)
		return v.Value(), v.Exists()
	})
}

// ScopeFromMap reads only toolScope, as tools/list does: absent or null
// (has false), or a list of strings.
func ScopeFromMap(meta map[string]any) (scope []string, has bool, err error) {
	return parseScope(meta[KeyToolScope])
}

// ScopeFromJSON is ScopeFromMap on the raw _meta member.
func ScopeFromJSON(meta gjson.Result) (scope []string, has bool, err error) {
	return parseScope(meta.Get(KeyToolScope).Value())
}

// read applies the rules of each key to the value get finds for it.
func read(get func(key string) (any, bool)) (Meta, error) {
	var m Meta
	var err error
	if v, ok := get(KeyToolScope); ok {
		if m.Scope, m.HasScope, err = parseScope(v); err != nil {
			return Meta{}, err
		}
	}
	if v, ok := get(KeyTimeoutMs); ok {
		if m.Timeout, err = parseTimeout(v); err != nil {
			return Meta{}, err
		}
	}
	if v, ok := get(KeyNullAsOmitted); ok {
		on, isBool := v.(bool)
		if !isBool {
			return Meta{}, errNullAsOmitted
		}
		m.NullAsOmitted = on
	}
	return m, nil
}

// parseScope reads toolScope: nil (absent or null), or a list of strings.
func parseScope(v any) ([]string, bool, error) {
	if v == nil {
		return nil, false, nil
	}
	list, ok := v.([]any)
	if !ok {
		return nil, false, errScope
	}
	scope := make([]string, 0, len(list))
	for _, n := range list {
		s, ok := n.(string)
		if !ok {
			return nil, false, errScope
		}
		scope = append(scope, s)
	}
	return scope, true, nil
}

// maxTimeoutMs is the longest timeoutMs a time.Duration holds.
const maxTimeoutMs = float64(math.MaxInt64 / int64(time.Millisecond))

// parseTimeout reads timeoutMs: a positive finite number of milliseconds.
// One past what a Duration holds is the longest Duration (the registry
// caps it at its own maximum anyway).
func parseTimeout(v any) (time.Duration, error) {
	ms, ok := v.(float64)
	if !ok || !(ms > 0) || math.IsInf(ms, 0) {
		return 0, errTimeout
	}
	if ms >= maxTimeoutMs {
		return time.Duration(math.MaxInt64), nil
	}
	return max(time.Duration(ms*float64(time.Millisecond)), 1), nil
}
