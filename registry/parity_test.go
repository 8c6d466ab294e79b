package registry_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// parityFile is what tests/vectors/excelmanus_oracle.py (excelmanus's
// validation and result-text rules in plain Python) answers for the calls of
// excelmanus_corpus.py; `make golden` rewrites it, `make test` fails when it
// is stale.
var parityFile = filepath.Join("..", "tests", "vectors", "excelmanus.json")

type parityCorpus struct {
	Schemas    map[string]string `json:"schemas"`
	Validation []struct {
		Name, Tool, Schema, Arguments, Expected string
	} `json:"validation"`
	Messages []struct {
		Name, Tool, Expected string
	} `json:"messages"`
	Truncation []struct {
		Name     string `json:"name"`
		Text     string `json:"text"`
		Limit    int    `json:"limit"`
		Expected string `json:"expected"`
	} `json:"truncation"`
}

func loadParity(t *testing.T) parityCorpus {
	t.Helper()
	data, err := os.ReadFile(parityFile)
	require.NoError(t, err, "run `make golden`")
	var c parityCorpus
	require.NoError(t, json.Unmarshal(data, &c))
	require.NotEmpty(t, c.Validation)
	require.NotEmpty(t, c.Truncation)
	return c
}

// TestExcelmanusParityValidation: under the default (excelmanus) profile,
// every validation payload is byte for byte the oracle's; valid arguments
// reach the tool.
func TestExcelmanusParityValidation(t *testing.T) {
	c := loadParity(t)
	for _, tc := range c.Validation {
		t.Run(tc.Name, func(t *testing.T) {
			reg := registry.New()
			schema, ok := c.Schemas[tc.Schema]
			require.True(t, ok, tc.Schema)
			require.NoError(t, reg.Register(registry.Tool{Name: tc.Tool, InputSchema: json.RawMessage(schema),
				Func: func(context.Context, json.RawMessage) (any, error) { return "ok", nil }}))
			res := reg.CallTool(context.Background(), tc.Tool, []byte(tc.Arguments))
			assert.Equal(t, tc.Expected, res.Text)
			if tc.Expected != "ok" {
				assert.Equal(t, errorsjson.CodeArgumentValidation, res.Code)
			}
		})
	}
}

// TestExcelmanusParityMessages: the not-found and not-allowed messages.
func TestExcelmanusParityMessages(t *testing.T) {
	c := loadParity(t)
	reg := registry.New()
	require.NoError(t, reg.Register(registry.Tool{Name: "format_cells", Func: func(context.Context, json.RawMessage) (any, error) { return "ok", nil }}))
	for _, tc := range c.Messages {
		t.Run(tc.Name, func(t *testing.T) {
			res := reg.CallTool(context.Background(), tc.Tool, nil, registry.WithScope([]string{"no_such_tool"}))
			var p errorsjson.ErrorPayload
			require.NoError(t, json.Unmarshal([]byte(res.Text), &p))
			assert.Equal(t, tc.Expected, p.Message)
		})
	}
}

// TestExcelmanusParityTruncation: a tool returning the text as a Go string
// (the text itself) under a cap of limit code points answers what
// excelmanus's truncate_result gives: every phase and the plain fallback.
func TestExcelmanusParityTruncation(t *testing.T) {
	c := loadParity(t)
	for _, tc := range c.Truncation {
		t.Run(tc.Name, func(t *testing.T) {
			reg := registry.New()
			text := tc.Text
			require.NoError(t, reg.Register(registry.Tool{Name: "t", MaxResultChars: tc.Limit,
				Func: func(context.Context, json.RawMessage) (any, error) { return text, nil }}))
			res := reg.CallTool(context.Background(), "t", nil)
			require.False(t, res.IsError, res.Text)
			assert.Equal(t, tc.Expected, res.Text)
		})
	}
}

// FuzzExcelmanusWalk: over arbitrary arguments to the corpus's richest
// schema (oneOf, nested closed objects, enums, bounds, lists of lists), the
// excelmanus wording never fails: a refused call has a payload with one
// "$...: ..." line per violation, and both profiles refuse the same calls.
func FuzzExcelmanusWalk(f *testing.F) {
	data, err := os.ReadFile(parityFile)
	require.NoError(f, err)
	var c parityCorpus
	require.NoError(f, json.Unmarshal(data, &c))
	for _, tc := range c.Validation {
		if tc.Schema == "format" {
			f.Add([]byte(tc.Arguments))
		}
	}
	ok := func(context.Context, json.RawMessage) (any, error) { return "ok", nil }
	regs := map[registry.Profile]*registry.Registry{}
	for _, p := range registry.Profiles() {
		regs[p] = registry.New(registry.WithProfile(p))
		require.NoError(f, regs[p].Register(registry.Tool{Name: "format_cells", InputSchema: json.RawMessage(c.Schemas["format"]), Func: ok}))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		xm := regs[registry.ProfileExcelmanus].CallTool(context.Background(), "format_cells", args)
		en := regs[registry.ProfileEnglish].CallTool(context.Background(), "format_cells", args)
		require.Equal(t, en.IsError, xm.IsError, "%s / %s", xm.Text, en.Text)
		if !xm.IsError {
			require.Equal(t, "ok", xm.Text)
			return
		}
		require.Equal(t, errorsjson.CodeArgumentValidation, xm.Code, xm.Text)
		var p errorsjson.ValidationPayload
		require.NoError(t, json.Unmarshal([]byte(xm.Text), &p), xm.Text)
		require.NotEmpty(t, p.Violations, xm.Text)
		for _, v := range p.Violations {
			require.True(t, strings.HasPrefix(v, "$"), v)
			require.Contains(t, v, ": ", v)
		}
	})
}
