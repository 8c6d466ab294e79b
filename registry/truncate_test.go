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

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

func mustText(t *testing.T, v any) string {
	t.Helper()
	s, err := pyjson.MarshalString(v)
	require.NoError(t, err)
	return s
}

func decodeObject(t *testing.T, text string) pyjson.Object {
	t.Helper()
	require.True(t, json.Valid([]byte(text)), "not valid JSON: %s", text)
	v, err := pyjson.DecodeOrdered([]byte(text))
	require.NoError(t, err)
	obj, ok := v.(pyjson.Object)
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
		name    string
		profile Profile
		text    string
		limit   int
		want    string
	}{
		{"emoji and CJK cut on code points", ProfileExcelmanus, text, 5, "😀中😀中😀\n[结果已截断，原始长度: 20 字符]"},
		{"en note", ProfileEnglish, text, 5, "😀中😀中😀\n[result truncated, original length: 20 characters]"},
		{"top-level list is plain text", ProfileExcelmanus, mustText(t, []any{"一", "二", "三"}), 4, "[\"一\"\n[结果已截断，原始长度: 15 字符]"},
		{"broken JSON object", ProfileExcelmanus, `{"a": 1, "b": "二三四五六七八九十"`, 6, "{\"a\": \n[结果已截断，原始长度: 25 字符]"},
		{"object with nothing to shrink", ProfileExcelmanus, `{"a": 1, "b": 2, "c": 3}`, 10, "{\"a\": 1, \"\n[结果已截断，原始长度: 24 字符]"},
		{"exactly at the limit", ProfileExcelmanus, text, 20, text},
		{"disabled", ProfileExcelmanus, text, 0, text},
		{"negative disables", ProfileEnglish, text, -1, text},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, truncate(tc.text, tc.limit, tc.profile.texts()))
		})
	}
}

// TestTruncateObjectPhases pins the phases in the en profile (the
// excelmanus texts are pinned byte for byte by the parity vectors).
func TestTruncateObjectPhases(t *testing.T) {
	en := ProfileEnglish.texts()
	bigDict := pyjson.Object{}
	for i := range 40 {
		bigDict = append(bigDict, pyjson.Field{Key: fmt.Sprintf("列%02d", i), Value: "宋体 12pt 粗体"})
	}
	longOut := strings.Repeat("行", 300) + "尾巴😀END"
	tests := []struct {
		name   string
		in     pyjson.Object
		limit  int
		checks func(t *testing.T, out pyjson.Object)
	}{
		{
			name:  "largest list keeps the longest prefix that fits",
			in:    pyjson.Object{{Key: "status", Value: "success"}, {Key: "small", Value: []any{1}}, {Key: "data", Value: rows(100)}, {Key: "total", Value: 100}},
			limit: 500,
			checks: func(t *testing.T, out pyjson.Object) {
				data, _ := out.Get("data")
				k := len(data.([]any))
				assert.Positive(t, k)
				flag, _ := out.Get("_data_truncated")
				assert.Equal(t, true, flag)
				note, _ := out.Get("_data_note")
				assert.Equal(t, en.listNote("data", k, 100), note)
				bigger := append(pyjson.Object(nil), out...)
				bigger = bigger.Set("data", rows(100)[:k+1]).Set("_data_note", en.listNote("data", k+1, 100))
				assert.Greater(t, utf8.RuneCountInString(mustText(t, bigger)), 500, "k+1 rows would not fit")
				total, _ := out.Get("total")
				assert.Equal(t, json.Number("100"), total, "metadata kept")
				small, _ := out.Get("small")
				assert.Len(t, small, 1, "only the largest list shrinks")
			},
		},
		{
			name:  "then the largest dict, marked inside",
			in:    pyjson.Object{{Key: "status", Value: "success"}, {Key: "shape", Value: pyjson.Object{{Key: "rows", Value: 2}}}, {Key: "styles", Value: bigDict}},
			limit: 300,
			checks: func(t *testing.T, out pyjson.Object) {
				styles, _ := out.Get("styles")
				d := styles.(pyjson.Object)
				k := len(d) - 1
				assert.Positive(t, k)
				marker, _ := d.Get("__truncated__")
				assert.Equal(t, en.dictMarker(k, 40), marker)
				shape, _ := out.Get("shape")
				assert.Len(t, shape, 1, "a small dict is left alone")
			},
		},
		{
			name:  "then the tail of the largest string",
			in:    pyjson.Object{{Key: "status", Value: "success"}, {Key: "stdout", Value: longOut}, {Key: "_hidden", Value: strings.Repeat("x", 150)}},
			limit: 330,
			checks: func(t *testing.T, out pyjson.Object) {
				s, _ := out.Get("stdout")
				assert.True(t, strings.HasSuffix(s.(string), "尾巴😀END"), "tail kept: %q", s)
				k := utf8.RuneCountInString(s.(string))
				note, _ := out.Get("_stdout_note")
				assert.Equal(t, en.stringNote("stdout", k, utf8.RuneCountInString(longOut)), note)
				hidden, _ := out.Get("_hidden")
				assert.Len(t, hidden, 150, "marker-like fields are never shrunk")
			},
		},
		{
			name:  "each phase starts from the original: list phase fails, dict phase alone",
			in:    pyjson.Object{{Key: "status", Value: "success"}, {Key: "data", Value: rows(3)}, {Key: "styles", Value: bigDict}},
			limit: 600,
			checks: func(t *testing.T, out pyjson.Object) {
				data, _ := out.Get("data")
				assert.Len(t, data, 3, "the list phase's attempt is discarded")
				_, marked := out.Get("_data_truncated")
				assert.False(t, marked)
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			text := mustText(t, tc.in)
			require.Greater(t, utf8.RuneCountInString(text), tc.limit)
			got := truncate(text, tc.limit, en)
			assert.LessOrEqual(t, utf8.RuneCountInString(got), tc.limit)
			tc.checks(t, decodeObject(t, got))
		})
	}
}

// TestTruncateKeepsJSONInEnglish: where no phase fits, en keeps the
// leading fields (still JSON); excelmanus cuts the text as plain text.
func TestTruncateLastResort(t *testing.T) {
	many := pyjson.Object{}
	for i := range 60 {
		many = append(many, pyjson.Field{Key: fmt.Sprintf("k%02d", i), Value: i})
	}
	text := mustText(t, many)
	n := utf8.RuneCountInString(text)
	got := truncate(text, 100, ProfileEnglish.texts())
	out := decodeObject(t, got)
	first, _ := out.Get("k00")
	assert.Equal(t, json.Number("0"), first)
	note, _ := out.Get("_note")
	assert.Equal(t, ProfileEnglish.texts().plainNote(n), note)
	assert.LessOrEqual(t, utf8.RuneCountInString(got), 100)

	got = truncate(text, 100, ProfileExcelmanus.texts())
	assert.Equal(t, string([]rune(text)[:100])+"\n"+ProfileExcelmanus.texts().plainNote(n), got)
}

// TestTruncateProperty: for random objects and limits, en always answers
// valid JSON within the limit whenever the bare note object fits, and both
// profiles leave text within the limit untouched.
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
			o := pyjson.Object{}
			for i := range rng.IntN(12) {
				o = append(o, pyjson.Field{Key: fmt.Sprintf("%s%d", words[rng.IntN(len(words))], i), Value: gen(depth + 1)})
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
	en := ProfileEnglish.texts()
	for i := range 300 {
		obj := pyjson.Object{{Key: "status", Value: "success"}}
		for j := range rng.IntN(8) + 1 {
			obj = append(obj, pyjson.Field{Key: fmt.Sprintf("f%d", j), Value: gen(0)})
		}
		text := mustText(t, obj)
		n := utf8.RuneCountInString(text)
		limit := rng.IntN(n+50) + 1
		got := truncate(text, limit, en)
		if !json.Valid([]byte(got)) {
			t.Fatalf("case %d: limit %d: invalid JSON %q", i, limit, got)
		}
		floor := utf8.RuneCountInString(mustText(t, pyjson.Object{{Key: "_truncated", Value: true}, {Key: "_note", Value: en.plainNote(n)}}))
		if limit >= floor {
			require.LessOrEqual(t, utf8.RuneCountInString(got), limit, "case %d", i)
		}
		xm := truncate(text, limit, ProfileExcelmanus.texts())
		if n <= limit {
			require.Equal(t, text, got)
			require.Equal(t, text, xm)
		}
	}
}
