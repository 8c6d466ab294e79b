package callmeta_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/callmeta"
	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/testtools"
)

// metaCases are _meta objects and what every door reads from them: the
// raw JSON form (WebSocket door, fast path) and the decoded map (MCP SDK
// doors) must agree on both the Meta and the error text.
var metaCases = []struct {
	name string
	meta string
	want callmeta.Meta
	err  string
}{
	{"empty", `{}`, callmeta.Meta{}, ""},
	{"other keys ignored", `{"progressToken":1,"x":{"y":2}}`, callmeta.Meta{}, ""},
	{"scope", `{"toolScope":["a","b"]}`, callmeta.Meta{Scope: []string{"a", "b"}, HasScope: true}, ""},
	{"empty scope allows none", `{"toolScope":[]}`, callmeta.Meta{Scope: []string{}, HasScope: true}, ""},
	{"null scope is no scope", `{"toolScope":null}`, callmeta.Meta{}, ""},
	{"scope not a list", `{"toolScope":"a"}`, callmeta.Meta{}, "Invalid params: _meta.toolScope must be a list of tool names"},
	{"scope of numbers", `{"toolScope":["a",1]}`, callmeta.Meta{}, "Invalid params: _meta.toolScope must be a list of tool names"},
	{"timeout", `{"timeoutMs":1500}`, callmeta.Meta{Timeout: 1500 * time.Millisecond}, ""},
	{"fractional timeout", `{"timeoutMs":0.5}`, callmeta.Meta{Timeout: 500 * time.Microsecond}, ""},
	{"tiny timeout stays positive", `{"timeoutMs":1e-9}`, callmeta.Meta{Timeout: time.Nanosecond}, ""},
	{"huge timeout saturates", `{"timeoutMs":1e300}`, callmeta.Meta{Timeout: time.Duration(math.MaxInt64)}, ""},
	{"zero timeout", `{"timeoutMs":0}`, callmeta.Meta{}, "Invalid params: _meta.timeoutMs must be a positive number"},
	{"negative timeout", `{"timeoutMs":-1}`, callmeta.Meta{}, "Invalid params: _meta.timeoutMs must be a positive number"},
	{"timeout as text", `{"timeoutMs":"5"}`, callmeta.Meta{}, "Invalid params: _meta.timeoutMs must be a positive number"},
	{"null timeout", `{"timeoutMs":null}`, callmeta.Meta{}, "Invalid params: _meta.timeoutMs must be a positive number"},
	{"null as omitted", `{"nullAsOmitted":true}`, callmeta.Meta{NullAsOmitted: true}, ""},
	{"null as omitted off", `{"nullAsOmitted":false}`, callmeta.Meta{}, ""},
	{"null as omitted not bool", `{"nullAsOmitted":1}`, callmeta.Meta{}, "Invalid params: _meta.nullAsOmitted must be true or false"},
	{"scope checked first", `{"nullAsOmitted":1,"timeoutMs":-1,"toolScope":3}`, callmeta.Meta{}, "Invalid params: _meta.toolScope must be a list of tool names"},
	{"all three", `{"toolScope":["x"],"timeoutMs":20,"nullAsOmitted":true}`,
		callmeta.Meta{Scope: []string{"x"}, HasScope: true, Timeout: 20 * time.Millisecond, NullAsOmitted: true}, ""},
}

func TestFromJSONAndFromMapAgree(t *testing.T) {
	for _, tc := range metaCases {
		t.Run(tc.name, func(t *testing.T) {
			var decoded map[string]any
			require.NoError(t, json.Unmarshal([]byte(tc.meta), &decoded))
			fromMap, mapErr := callmeta.FromMap(decoded)
			fromJSON, jsonErr := callmeta.FromJSON(gjson.Parse(tc.meta))
			for _, got := range []struct {
				m   callmeta.Meta
				err error
			}{{fromMap, mapErr}, {fromJSON, jsonErr}} {
				if tc.err != "" {
					require.Error(t, got.err)
					assert.EqualError(t, got.err, tc.err)
					assert.ErrorIs(t, got.err, callmeta.ErrInvalidParams)
					continue
				}
				require.NoError(t, got.err)
				assert.Equal(t, tc.want, got.m)
			}
		})
	}
}

func TestFromJSONMetaShape(t *testing.T) {
	params := gjson.Parse(`{"name":"x"}`)
	m, err := callmeta.FromJSON(params.Get("_meta"))
	require.NoError(t, err)
	assert.Equal(t, callmeta.Meta{}, m, "absent _meta asks nothing")

	_, err = callmeta.FromJSON(gjson.Parse(`{"_meta":[1]}`).Get("_meta"))
	assert.EqualError(t, err, "Invalid params: params._meta must be an object")
	assert.True(t, errors.Is(err, callmeta.ErrInvalidParams))

	m, err = callmeta.FromMap(nil)
	require.NoError(t, err)
	assert.Equal(t, callmeta.Meta{}, m, "nil map asks nothing")
}

func TestScopeOnly(t *testing.T) {
	cases := []struct {
		name  string
		meta  string
		scope []string
		has   bool
		err   bool
	}{
		{"no scope", `{"timeoutMs":-1}`, nil, false, false}, // tools/list reads the scope alone
		{"scope", `{"toolScope":["a"]}`, []string{"a"}, true, false},
		{"null", `{"toolScope":null}`, nil, false, false},
		{"bad", `{"toolScope":{}}`, nil, false, true},
		{"meta not an object", `7`, nil, false, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var decoded map[string]any
			_ = json.Unmarshal([]byte(tc.meta), &decoded)
			for _, read := range []func() ([]string, bool, error){
				func() ([]string, bool, error) { return callmeta.ScopeFromMap(decoded) },
				func() ([]string, bool, error) { return callmeta.ScopeFromJSON(gjson.Parse(tc.meta)) },
			} {
				scope, has, err := read()
				if tc.err {
					assert.ErrorIs(t, err, callmeta.ErrInvalidParams)
					continue
				}
				require.NoError(t, err)
				assert.Equal(t, tc.scope, scope)
				assert.Equal(t, tc.has, has)
			}
		})
	}
}

func TestOptionsReachTheRegistry(t *testing.T) {
	reg := registry.New()
	require.NoError(t, testtools.Register(reg))
	cases := []struct {
		name string
		meta string
		tool string
		args string
		code errorsjson.Code // "" for success
	}{
		{"nothing asked", `{}`, "add", `{"a":1,"b":2}`, ""},
		{"in scope", `{"toolScope":["add"]}`, "add", `{"a":1,"b":2}`, ""},
		{"out of scope", `{"toolScope":["echo"]}`, "add", `{"a":1,"b":2}`, errorsjson.CodeNotAllowed},
		{"timeout", `{"timeoutMs":20}`, "sleep", `{"ms":5000}`, errorsjson.CodeTimeout},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, err := callmeta.FromJSON(gjson.Parse(tc.meta))
			require.NoError(t, err)
			res := reg.CallTool(context.Background(), tc.tool, []byte(tc.args), m.Options(nil)...)
			assert.Equal(t, tc.code, res.Code, res.Text)
			assert.Equal(t, tc.code != "", res.IsError, res.Text)
		})
	}
}
