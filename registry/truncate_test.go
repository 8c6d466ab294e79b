package registry

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
)

func mustText(t *testing.T, v any) string {
	t.Helper()
	s, err := errorsjson.MarshalString(v)
	require.NoError(t, err)
	return s
}

func decodeObject(t *testing.T, text string) errorsjson.Object {
	t.Helper()
	require.True(t, json.Valid([]byte(text)), "not valid JSON: %s", text)
	v, err := errorsjson.DecodeOrdered([]byte(text))
	require.NoError(t, err)
	obj, ok := v.(errorsjson.Object)
	require.True(t, ok, "not an object: %s", text)
	return obj
}

func rows(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = []any{i, fmt.Sprintf("客户%d😀", i), 1.5}
	}
	return out
}

func TestTruncatePlain(t *testing.T) {
	text := strings.Repeat("😀中", 10) // 20 code points, 70 bytes
	tests := []struct {
		name  string
		text  string
		limit int
		want  string
	}{
		{"emoji and CJK cut on code points", text, 5, "😀中😀中😀\n[结果已截断，原始长度: 20 字符]"},
		{"top-level list is plain text", mustText(t, []any{"一", "二", "三"}), 4, "[\"一\"\n[结果已截断，原始长度: 15 字符]"},
		{"broken JSON object", `{"a": 1, "b": "二三四五六七八九十"`, 6, "{\"a\": \n[结果已截断，原始长度: 25 字符]"},
		{"exactly at the limit", text, 20, text},
		{"disabled", text, 0, text},
		{"negative disables", text, -1, text},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, truncate(tc.text, tc.limit))
		})
	}
}

func TestTruncateObjectPhases(t *testing.T) {
	bigDict := errorsjson.Object{}
	for i := range 40 {
		bigDict = append(bigDict, errorsjson.Field{Key: fmt.Sprintf("列%02d", i), Value: "宋体 12pt 粗体"})
	}
	longOut := strings.Repeat("行", 300) + "尾巴😀END"
	many := errorsjson.Object{}
	for i := range 60 {
		many = append(many, errorsjson.Field{Key: fmt.Sprintf("k%02d", i), Value: i})
	}
	tests := []struct {
		name   string
		in     errorsjson.Object
		limit  int
		field  string // the field that must carry markers
		note   string // its note, exactly
		checks func(t *testing.T, out errorsjson.Object)
	}{
		{
			name:  "largest list keeps a prefix",
			in:    errorsjson.Object{{Key: "status", Value: "success"}, {Key: "small", Value: []any{1}}, {Key: "data", Value: rows(100)}, {Key: "total", Value: 100}},
			limit: 400,
			field: "data",
			checks: func(t *testing.T, out errorsjson.Object) {
				data, _ := out.Get("data")
				k := len(data.([]any))
				assert.Positive(t, k)
				note, _ := out.Get("_data_note")
				assert.Equal(t, fmt.Sprintf("[data 已截断: 显示 %d/100 条]", k), note)
				// k is the largest prefix that fits.
				bigger := append(errorsjson.Object(nil), out...)
				bigger = bigger.Set("data", rows(100)[:k+1]).Set("_data_note", fmt.Sprintf("[data 已截断: 显示 %d/100 条]", k+1))
				assert.Greater(t, utf8.RuneCountInString(mustText(t, bigger)), 400)
				total, _ := out.Get("total")
				assert.Equal(t, json.Number("100"), total, "metadata kept")
				small, _ := out.Get("small")
				assert.Len(t, small, 1, "only the largest list shrinks")
			},
		},
		{
			name:  "then the largest dict",
			in:    errorsjson.Object{{Key: "status", Value: "success"}, {Key: "shape", Value: errorsjson.Object{{Key: "rows", Value: 2}}}, {Key: "styles", Value: bigDict}},
			limit: 300,
			field: "styles",
			checks: func(t *testing.T, out errorsjson.Object) {
				styles, _ := out.Get("styles")
				k := len(styles.(errorsjson.Object))
				assert.Positive(t, k)
				assert.Less(t, k, 40)
				note, _ := out.Get("_styles_note")
				assert.Equal(t, fmt.Sprintf("[styles 已截断: 显示 %d/40 项]", k), note)
			},
		},
		{
			name:  "then the tail of the largest string",
			in:    errorsjson.Object{{Key: "status", Value: "success"}, {Key: "stdout", Value: longOut}, {Key: "_hidden", Value: strings.Repeat("x", 10)}},
			limit: 200,
			field: "stdout",
			checks: func(t *testing.T, out errorsjson.Object) {
				s, _ := out.Get("stdout")
				assert.True(t, strings.HasSuffix(s.(string), "尾巴😀END"), "tail kept: %q", s)
				k := utf8.RuneCountInString(s.(string))
				note, _ := out.Get("_stdout_note")
				assert.Equal(t, fmt.Sprintf("[stdout 已截断: 保留后 %d/%d 字符]", k, utf8.RuneCountInString(longOut)), note)
			},
		},
		{
			name:  "list emptied, then dict",
			in:    errorsjson.Object{{Key: "status", Value: "success"}, {Key: "data", Value: rows(50)}, {Key: "styles", Value: bigDict}},
			limit: 260,
			field: "styles",
			checks: func(t *testing.T, out errorsjson.Object) {
				data, _ := out.Get("data")
				assert.Empty(t, data)
				note, _ := out.Get("_data_note")
				assert.Equal(t, "[data 已截断: 显示 0/50 条]", note)
			},
		},
		{
			name:  "last resort keeps leading fields",
			in:    many,
			limit: 100,
			field: "",
			checks: func(t *testing.T, out errorsjson.Object) {
				first, _ := out.Get("k00")
				assert.Equal(t, json.Number("0"), first)
				note, _ := out.Get("_note")
				assert.Equal(t, fmt.Sprintf("[结果已截断，原始长度: %d 字符]", utf8.RuneCountInString(mustText(t, many))), note)
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := mustText(t, tc.in)
			require.Greater(t, utf8.RuneCountInString(text), tc.limit)
			got := truncate(text, tc.limit)
			assert.LessOrEqual(t, utf8.RuneCountInString(got), tc.limit)
			out := decodeObject(t, got)
			status, _ := out.Get("status")
			if tc.field != "" {
				assert.Equal(t, "success", status)
				flag, ok := out.Get("_" + tc.field + "_truncated")
				assert.True(t, ok)
				assert.Equal(t, true, flag)
			}
			tc.checks(t, out)
		})
	}
}

func TestTruncateTooSmallStaysJSON(t *testing.T) {
	text := mustText(t, errorsjson.Object{{Key: "status", Value: "success"}, {Key: "data", Value: rows(10)}})
	got := truncate(text, 10)
	obj := decodeObject(t, got)
	_, ok := obj.Get("_note")
	assert.True(t, ok, "bare note object when nothing fits: %s", got)
}

// TestTruncateProperty: for random objects and limits the result is always
// valid JSON, and within the limit whenever the bare note object fits.
func TestTruncateProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 11))
	words := []string{"a", "表格", "😀", "\"q\"", "\\", "\n", "éé", "行列"}
	var gen func(depth int) any
	gen = func(depth int) any {
		switch k := rng.IntN(7); {
		case k == 0 && depth < 3:
			l := make([]any, rng.IntN(30))
			for i := range l {
				l[i] = gen(depth + 1)
			}
			return l
		case k == 1 && depth < 3:
			o := errorsjson.Object{}
			for i := range rng.IntN(12) {
				o = append(o, errorsjson.Field{Key: fmt.Sprintf("%s%d", words[rng.IntN(len(words))], i), Value: gen(depth + 1)})
			}
			return o
		case k == 2:
			return rng.NormFloat64() * 1e6
		case k == 3:
			return rng.IntN(1 << 40)
		default:
			var b strings.Builder
			for range rng.IntN(40) {
				b.WriteString(words[rng.IntN(len(words))])
			}
			return b.String()
		}
	}
	for i := range 300 {
		obj := errorsjson.Object{{Key: "status", Value: "success"}}
		for j := range rng.IntN(8) + 1 {
			obj = append(obj, errorsjson.Field{Key: fmt.Sprintf("f%d", j), Value: gen(0)})
		}
		text := mustText(t, obj)
		n := utf8.RuneCountInString(text)
		limit := rng.IntN(n+50) + 1
		got := truncate(text, limit)
		if !json.Valid([]byte(got)) {
			t.Fatalf("case %d: limit %d: invalid JSON %q", i, limit, got)
		}
		floor := utf8.RuneCountInString(mustText(t, errorsjson.Object{{Key: "_truncated", Value: true}, {Key: "_note", Value: fmt.Sprintf("[结果已截断，原始长度: %d 字符]", n)}}))
		if limit >= floor {
			require.LessOrEqual(t, utf8.RuneCountInString(got), limit, "case %d", i)
		}
		if n <= limit {
			require.Equal(t, text, got)
		}
	}
}
