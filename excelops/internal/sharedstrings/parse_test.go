package sharedstrings

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testBudget is the default budget of a call: excelops' default text
// bound (1 MiB) and a memory budget no case comes near.
var testBudget = budget.Budget{Memory: 1 << 30, MaxText: 1 << 20}

// sstCases are shared-string tables with what they hold (want) or the kind
// of error they are (kind); every one is also checked against the
// encoding/xml oracle and seeds FuzzSharedStrings.
var sstCases = []struct {
	name string
	in   string
	want []string
	kind failure.Kind
}{
	{"plain", `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst count="2"><si><t>a</t></si><si><t>b c</t></si></sst>`, []string{"a", "b c"}, ""},
	{"no strings", `<sst/>`, []string{}, ""},
	{"predefined entities", `<si><t>&lt;&gt;&amp;&apos;&quot;</t></si>`, []string{`<>&'"`}, ""},
	{"character references", `<si><t>&#65;&#x42;&#x4a;&#0067;&#x1F600;&#233;</t></si>`, []string{"ABJC😀é"}, ""},
	{"C1 control by number is not Windows-1252", `<si><t>&#128;&#x9F;</t></si>`, []string{"\u0080\u009f"}, ""},
	{"surrogate number gives U+FFFD as encoding/xml", `<si><t>&#xD800;</t></si>`, []string{"\uFFFD"}, ""},
	{"ST_Xstring escapes", `<si><t>_x0004_a_x005F_x0041_ _x005f_ _xG000_</t></si><si><t>_x0041__x0042_</t></si>`, []string{"\x04a_x0041_ _ _xG000_", "AB"}, ""},
	{"escapes in runs", `<si><r><t>_x0004_</t></r><r><t>b</t></r><rPh><t>_x0043_</t></rPh></si>`, []string{"\x04b"}, ""},
	{"CDATA verbatim", `<si><t>x<![CDATA[a<b>&amp;]]]]>y</t></si>`, []string{"xa<b>&amp;]]y"}, ""},
	{"CDATA line ends", "<si><t><![CDATA[a\r\nb\rc]]></t></si>", []string{"a\nb\nc"}, ""},
	{"text line ends", "<si><t>a\r\nb\rc\r\r\nd\n</t></si>", []string{"a\nb\nc\n\nd\n"}, ""},
	{"CR by reference stays", "<si><t>a&#13;&#10;b&#xD;\n\r&#10;</t></si>", []string{"a\r\nb\r\n\n\n"}, ""},
	{"CR LF split by a comment", "<si><t>a\r<!---->\nb</t></si>", []string{"a\n\nb"}, ""},
	{"rich text runs", `<si><r><rPr><b/><sz val="11"/></rPr><t>bold</t></r><r><t xml:space="preserve"> plain </t></r></si>`, []string{"bold plain "}, ""},
	{"phonetic runs excluded", `<si><t>漢字</t><rPh sb="0" eb="2"><t>かんじ</t></rPh><phoneticPr fontId="1"/></si><si><t>b</t></si>`, []string{"漢字", "b"}, ""},
	{"empty t and si", `<si><t/></si><si/><si><t></t></si>`, []string{"", "", ""}, ""},
	{"prefixed names", `<x:sst xmlns:x="urn:x"><x:si><x:t>p</x:t><x:rPh><x:t>q</x:t></x:rPh></x:si></x:sst>`, []string{"p"}, ""},
	{"text outside t ignored", "<si>out<t>in</t>side\n</si>", []string{"in"}, ""},
	{"comments and PIs in t", `<si><t>a<!-- <t>x</t> -->b<?pi x?>c</t></si>`, []string{"abc"}, ""},
	{"comment <!--> does not close", `<si><t>a<!-->b-->c<!--->d-->e</t></si>`, []string{"ace"}, ""},
	{"DOCTYPE with internal subset", `<!DOCTYPE sst [<!ENTITY e "x>"> <!-- > --> <!x>]><sst><si><t>a</t></si></sst>`, []string{"a"}, ""},
	{"markup-like text", `<si><t>a>b]>c]] >d</t></si>`, []string{"a>b]>c]] >d"}, ""},
	{"BOM and attributes with >", "\ufeff<sst a=\"1>2\"><si><t b='>'>ok</t></si></sst>", []string{"ok"}, ""},
	{"no end of si", `<si><t>a`, []string{}, ""},
	{"unknown entity", `<si><t>&nbsp;</t></si>`, nil, failure.KindDamaged},
	{"entity without semicolon", `<si><t>&amp x</t></si>`, nil, failure.KindDamaged},
	{"bare ampersand", `<si><t>a & b</t></si>`, nil, failure.KindDamaged},
	{"reference cut off by a tag", `<si><t>&am</t></si>`, nil, failure.KindDamaged},
	{"reference cut off by the end", `<si><t>&#x4`, nil, failure.KindDamaged},
	{"empty number", `<si><t>&#;</t></si>`, nil, failure.KindDamaged},
	{"uppercase X", `<si><t>&#X41;</t></si>`, nil, failure.KindDamaged},
	{"number past U+10FFFF", `<si><t>&#x110000;</t></si>`, nil, failure.KindDamaged},
	{"NUL by number", `<si><t>&#0;</t></si>`, nil, failure.KindDamaged},
	{"U+FFFE by number", `<si><t>&#xFFFE;</t></si>`, nil, failure.KindDamaged},
	{"raw control character", "<si><t>a\x01</t></si>", nil, failure.KindDamaged},
	{"invalid UTF-8", "<si><t>a\xff</t></si>", nil, failure.KindDamaged},
	{"control character in CDATA", "<si><t><![CDATA[\x02]]></t></si>", nil, failure.KindDamaged},
	{"]]> in text", `<si><t>a]]>b</t></si>`, nil, failure.KindDamaged},
	{"tag cut off", `<si><t>a</t`, nil, failure.KindDamaged},
	{"not a tag", `<si>< t>a</t></si>`, nil, failure.KindDamaged},
}

// TestSharedStrings: each case holds what it should, the same as the
// encoding/xml oracle, read whole and a byte at a time.
func TestSharedStrings(t *testing.T) {
	lim := testBudget
	for _, c := range sstCases {
		t.Run(c.name, func(t *testing.T) {
			want, wantHeld, oerr := oracleSharedStrings(strings.NewReader(c.in), lim)
			for _, r := range []io.Reader{strings.NewReader(c.in), iotest.OneByteReader(strings.NewReader(c.in))} {
				got, held, err := Parse(r, int64(len(c.in)), lim)
				if c.kind != "" {
					require.Error(t, oerr, "the oracle rejects it too")
					require.Error(t, err)
					assert.Equal(t, c.kind, failure.KindOf(err), err.Error())
					assert.Contains(t, err.Error(), "file is damaged: shared strings: ")
					continue
				}
				require.NoError(t, oerr)
				require.NoError(t, err)
				assert.Equal(t, c.want, want, "the oracle")
				assert.Equal(t, c.want, got)
				assert.Equal(t, wantHeld, held)
			}
		})
	}
}

// TestSharedStringsLongRuns: text runs longer than the tokenizer's buffer
// come in pieces; references and "\r\n" split between pieces decode as
// whole ones.
func TestSharedStringsLongRuns(t *testing.T) {
	lim := testBudget
	for _, unit := range []string{"ab&#x1F600;\r\n&lt;", "x&amp;\r", "&quot;\r\n\r", "é&#233;]>"} {
		body := strings.Repeat(unit, 70000/len(unit))
		in := "<sst><si><t>" + body + "</t></si><si><t>z" + body + "</t></si></sst>"
		want, _, err := oracleSharedStrings(strings.NewReader(in), lim)
		require.NoError(t, err)
		got, _, err := Parse(strings.NewReader(in), int64(len(in)), lim)
		require.NoError(t, err)
		assert.Equal(t, want, got, unit)
	}
}

// TestSharedStringsLimits: a string past the text bound and a table past
// the memory budget are KindLimit errors, as with the oracle.
func TestSharedStringsLimits(t *testing.T) {
	for _, c := range []struct {
		name string
		lim  budget.Budget
		in   string
	}{
		{"string past the text bound", budget.Budget{Memory: testBudget.Memory, MaxText: 8}, `<si><t>12345</t><t>6789</t></si>`},
		{"references past the text bound", budget.Budget{Memory: testBudget.Memory, MaxText: 8}, `<si><t>` + strings.Repeat("&#x1F600;", 3) + `</t></si>`},
		{"raw run past the text bound", budget.Budget{Memory: testBudget.Memory, MaxText: 8}, `<si><t>` + strings.Repeat("&#65;", 3) + `</t></si>`},
		{"table past the budget", budget.Budget{Memory: 64, MaxText: testBudget.MaxText}, strings.Repeat(`<si><t>abc</t></si>`, 3)},
	} {
		t.Run(c.name, func(t *testing.T) {
			lim := c.lim
			_, _, oerr := oracleSharedStrings(strings.NewReader(c.in), lim)
			_, _, err := Parse(strings.NewReader(c.in), int64(len(c.in)), lim)
			require.Error(t, oerr)
			require.Error(t, err)
			assert.Equal(t, failure.KindLimit, failure.KindOf(err), err.Error())
			assert.Equal(t, failure.KindOf(oerr), failure.KindOf(err))
		})
	}
}

// FuzzSharedStrings compares Parse with the encoding/xml
// oracle. Whenever the oracle reads the input, the parser returns exactly
// the same strings (and byte count); when the oracle rejects it, the parser
// either rejects it too (an error with a kind) or returns strings: it is
// more lenient only where the text is not a string's value (text outside
// <t>, attribute values, names, the XML declaration). It never panics or
// hangs, and reads the same a byte at a time.
func FuzzSharedStrings(f *testing.F) {
	for _, c := range sstCases {
		f.Add([]byte(c.in))
	}
	lims := []budget.Budget{testBudget, budget.Budget{MaxText: 16, Memory: 512}}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, lim := range lims {
			want, wantHeld, oerr := oracleSharedStrings(bytes.NewReader(data), lim)
			got, held, err := Parse(bytes.NewReader(data), int64(len(data)), lim)
			if err != nil && failure.KindOf(err) == "" {
				t.Fatalf("an error without a kind: %v", err)
			}
			slow, _, slowErr := Parse(iotest.OneByteReader(bytes.NewReader(data)), int64(len(data)), lim)
			if (err == nil) != (slowErr == nil) || fmt.Sprintf("%q", got) != fmt.Sprintf("%q", slow) {
				t.Fatalf("a byte at a time: %q %v, whole: %q %v", slow, slowErr, got, err)
			}
			if oerr != nil {
				continue
			}
			if err != nil {
				t.Fatalf("the oracle reads %q, the parser fails: %v", want, err)
			}
			if fmt.Sprintf("%q", got) != fmt.Sprintf("%q", want) || held != wantHeld {
				t.Fatalf("strings differ from the oracle:\nours   %q (%d bytes)\noracle %q (%d bytes)", got, held, want, wantHeld)
			}
		}
	})
}

// sharedStringsPart returns the xl/sharedStrings.xml that excelize writes
// for BenchmarkReadSharedStrings's workbook (15,000 strings).
func sharedStringsPart(b *testing.B) []byte {
	f := excelize.NewFile()
	for r := 1; r <= 5000; r++ {
		cell, _ := excelize.CoordinatesToCellName(1, r)
		row := []any{fmt.Sprintf("customer %d", r), fmt.Sprintf("city %d", r), fmt.Sprintf("note %d", r), r}
		require.NoError(b, f.SetSheetRow("Sheet1", cell, &row))
	}
	buf, err := f.WriteToBuffer()
	require.NoError(b, err)
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(b, err)
	rc, err := zr.Open("xl/sharedStrings.xml")
	require.NoError(b, err)
	defer rc.Close()
	part, err := io.ReadAll(rc)
	require.NoError(b, err)
	return part
}

// BenchmarkSharedStringsParse parses the same shared string table (15,000
// strings) with Parse ("sheetxml") and the encoding/xml
// oracle ("encoding_xml"): compare the two in one run.
func BenchmarkSharedStringsParse(b *testing.B) {
	part := sharedStringsPart(b)
	lim := testBudget
	for _, p := range []struct {
		name  string
		parse func(io.Reader, budget.Budget) ([]string, int64, error)
	}{{"sheetxml", func(r io.Reader, lim budget.Budget) ([]string, int64, error) {
		return Parse(r, int64(len(part)), lim)
	}}, {"encoding_xml", oracleSharedStrings}} {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(part)))
			for b.Loop() {
				out, _, err := p.parse(bytes.NewReader(part), lim)
				if err != nil || len(out) != 15000 {
					b.Fatalf("%d strings, %v", len(out), err)
				}
			}
		})
	}
}
