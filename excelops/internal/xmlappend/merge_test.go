package xmlappend

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const ns = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`

func TestMerge(t *testing.T) {
	tests := []struct {
		name                 string
		original, base, edit string
		want                 string // "" when the merge must be refused
	}{
		{
			name: "a shared string appended",
			// The original as Excel writes it; the baseline as excelize
			// re-serialises it (other spacing, a dropped attribute).
			original: `<?xml version="1.0"?>` + "\r\n" + `<sst ` + ns + ` count="3" uniqueCount="2"><si><t xml:space="preserve"> a</t></si><si><t>b</t><phoneticPr fontId="1"/></si></sst>`,
			base:     `<sst ` + ns + ` count="2" uniqueCount="2"><si><t xml:space="preserve"> a</t></si><si><t>b</t></si></sst>`,
			edit:     `<sst ` + ns + ` count="3" uniqueCount="3"><si><t xml:space="preserve"> a</t></si><si><t>b</t></si><si><t>new</t></si></sst>`,
			want:     `<?xml version="1.0"?>` + "\r\n" + `<sst ` + ns + ` count="3" uniqueCount="3"><si><t xml:space="preserve"> a</t></si><si><t>b</t><phoneticPr fontId="1"/></si><si><t>new</t></si></sst>`,
		},
		{
			name:     "nothing changed",
			original: `<sst ` + ns + `><si><t>a</t></si></sst>`,
			base:     `<sst ` + ns + ` count="1"><si><t>a</t></si></sst>`,
			edit:     `<sst ` + ns + ` count="1"><si><t>a</t></si></sst>`,
			want:     `<sst ` + ns + `><si><t>a</t></si></sst>`,
		},
		{
			name:     "a count added where the original had none",
			original: `<sst ` + ns + `><si><t>a</t></si></sst>`,
			base:     `<sst ` + ns + ` count="1"><si><t>a</t></si></sst>`,
			edit:     `<sst ` + ns + ` count="2"><si><t>a</t></si><si><t>b</t></si></sst>`,
			want:     `<sst ` + ns + ` count="2"><si><t>a</t></si><si><t>b</t></si></sst>`,
		},
		{
			name:     "a record changed",
			original: `<sst ` + ns + `><si><t>a</t></si></sst>`,
			base:     `<sst ` + ns + `><si><t>a</t></si></sst>`,
			edit:     `<sst ` + ns + `><si><t>z</t></si><si><t>b</t></si></sst>`,
		},
		{
			name:     "a record removed",
			original: `<sst ` + ns + `><si><t>a</t></si><si><t>b</t></si></sst>`,
			base:     `<sst ` + ns + `><si><t>a</t></si><si><t>b</t></si></sst>`,
			edit:     `<sst ` + ns + `><si><t>a</t></si></sst>`,
		},
		{
			name:     "the original holds more records than its re-serialisation",
			original: `<sst ` + ns + `><si><t>a</t></si><si><t>b</t></si></sst>`,
			base:     `<sst ` + ns + `><si><t>a</t></si></sst>`,
			edit:     `<sst ` + ns + `><si><t>a</t></si><si><t>c</t></si></sst>`,
		},
		{
			// The reader made up a relationship (to a shared string table
			// it created): the edit keeps it, so it is appended with the new.
			name:     "records the re-serialisation made up",
			original: `<Relationships xmlns="urn:r"><Relationship Id="rId1" Target="a.xml"/></Relationships>`,
			base:     `<Relationships xmlns="urn:r"><Relationship Id="rId1" Target="a.xml"></Relationship><Relationship Id="rId2" Target="s.xml"></Relationship></Relationships>`,
			edit:     `<Relationships xmlns="urn:r"><Relationship Id="rId1" Target="a.xml"></Relationship><Relationship Id="rId2" Target="s.xml"></Relationship><Relationship Id="rId3" Target="b.xml"></Relationship></Relationships>`,
			want:     `<Relationships xmlns="urn:r"><Relationship Id="rId1" Target="a.xml"/><Relationship Id="rId2" Target="s.xml"></Relationship><Relationship Id="rId3" Target="b.xml"></Relationship></Relationships>`,
		},
		{
			name:     "something other than a record appended",
			original: `<sst ` + ns + `><si><t>a</t></si></sst>`,
			base:     `<sst ` + ns + `><si><t>a</t></si></sst>`,
			edit:     `<sst ` + ns + `><si><t>a</t></si><extLst/></sst>`,
		},
		{
			name:     "a prefixed original root",
			original: `<x:sst xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:si><x:t>a</x:t></x:si></x:sst>`,
			base:     `<sst ` + ns + `><si><t>a</t></si></sst>`,
			edit:     `<sst ` + ns + `><si><t>a</t></si><si><t>b</t></si></sst>`,
		},
		{
			name:     "a prefix the original does not declare",
			original: `<sst ` + ns + `><si><t>a</t></si></sst>`,
			base:     `<sst ` + ns + ` xmlns:q="urn:q"><si><t>a</t></si></sst>`,
			edit:     `<sst ` + ns + ` xmlns:q="urn:q"><si><t>a</t></si><si q:x="1"><t>b</t></si></sst>`,
		},
		{
			name:     "not a list part",
			original: `<worksheet ` + ns + `><sheetData/></worksheet>`,
			base:     `<worksheet ` + ns + `><sheetData/></worksheet>`,
			edit:     `<worksheet ` + ns + `><sheetData><row r="1"/></sheetData></worksheet>`,
		},
		{
			name:     "a style appended to fonts and cellXfs",
			original: `<styleSheet ` + ns + `>` + "\n" + `<fonts count="1" x14ac:knownFonts="1" xmlns:x14ac="urn:x14ac"><font><sz val="11"/></font></fonts><cellXfs count="1"><xf numFmtId="0" fontId="0"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles><extLst><ext uri="x"/></extLst></styleSheet>`,
			base:     `<styleSheet ` + ns + `><fonts count="1"><font><sz val="11"></sz></font></fonts><cellXfs count="1"><xf numFmtId="0" fontId="0"></xf></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"></cellStyle></cellStyles></styleSheet>`,
			edit:     `<styleSheet ` + ns + `><fonts count="2"><font><sz val="11"></sz></font><font><b/><sz val="11"></sz></font></fonts><cellXfs count="2"><xf numFmtId="0" fontId="0"></xf><xf numFmtId="0" fontId="1" applyFont="1"></xf></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"></cellStyle></cellStyles><dxfs count="1"><dxf><font><b/></font></dxf></dxfs></styleSheet>`,
			want:     `<styleSheet ` + ns + `>` + "\n" + `<fonts count="2" x14ac:knownFonts="1" xmlns:x14ac="urn:x14ac"><font><sz val="11"/></font><font><b/><sz val="11"></sz></font></fonts><cellXfs count="2"><xf numFmtId="0" fontId="0"/><xf numFmtId="0" fontId="1" applyFont="1"></xf></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles><dxfs count="1"><dxf><font><b/></font></dxf></dxfs><extLst><ext uri="x"/></extLst></styleSheet>`,
		},
		{
			name:     "an empty list written as one tag",
			original: `<styleSheet ` + ns + `><dxfs count="0" /><tableStyles count="0"/></styleSheet>`,
			base:     `<styleSheet ` + ns + `><dxfs count="0"></dxfs><tableStyles count="0"></tableStyles></styleSheet>`,
			edit:     `<styleSheet ` + ns + `><dxfs count="1"><dxf><fill/></dxf></dxfs><tableStyles count="0"></tableStyles></styleSheet>`,
			want:     `<styleSheet ` + ns + `><dxfs count="1"><dxf><fill/></dxf></dxfs><tableStyles count="0"/></styleSheet>`,
		},
		{
			name:     "a style list element changed in place",
			original: `<styleSheet ` + ns + `><fonts count="1"><font/></fonts><colors/></styleSheet>`,
			base:     `<styleSheet ` + ns + `><fonts count="1"><font></font></fonts><colors></colors></styleSheet>`,
			edit:     `<styleSheet ` + ns + `><fonts count="1"><font></font></fonts><colors><indexedColors/></colors></styleSheet>`,
		},
		{
			name:     "a relationship appended",
			original: `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="t" Target="a.xml"/></Relationships>`,
			base:     `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="t" Target="a.xml"></Relationship></Relationships>`,
			edit:     `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="t" Target="a.xml"></Relationship><Relationship Id="rId2" Type="t" Target="b.xml"></Relationship></Relationships>`,
			want:     `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="t" Target="a.xml"/><Relationship Id="rId2" Type="t" Target="b.xml"></Relationship></Relationships>`,
		},
		{
			name:     "a content type appended",
			original: `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/></Types>`,
			base:     `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"></Default></Types>`,
			edit:     `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"></Default><Override PartName="/b.xml" ContentType="x"></Override></Types>`,
			want:     `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/b.xml" ContentType="x"></Override></Types>`,
		},
		{
			name:     "malformed original",
			original: `<sst ` + ns + `><si>`,
			base:     `<sst ` + ns + `></sst>`,
			edit:     `<sst ` + ns + `><si/></sst>`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Merge([]byte(tt.original), []byte(tt.base), []byte(tt.edit))
			if tt.want == "" {
				require.Error(t, err)
				assert.True(t, errors.Is(err, ErrNotAppend), "%v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, string(got))
		})
	}
}

// FuzzMerge checks that no input makes Merge panic, and that a merge it
// accepts is a part of the same shape holding as many records as the edit.
func FuzzMerge(f *testing.F) {
	f.Add(`<sst><si><t>a</t></si></sst>`, `<sst><si><t>a</t></si></sst>`, `<sst><si><t>a</t></si><si/></sst>`)
	f.Add(`<styleSheet><fonts count="1"><font/></fonts><dxfs/></styleSheet>`, `<styleSheet><fonts count="1"><font></font></fonts></styleSheet>`, `<styleSheet><fonts count="2"><font></font><font/></fonts><dxfs count="1"><dxf/></dxfs></styleSheet>`)
	f.Fuzz(func(t *testing.T, original, base, edit string) {
		got, err := Merge([]byte(original), []byte(base), []byte(edit))
		if err != nil {
			return
		}
		d, err := parse(got)
		require.NoError(t, err, "merged part does not parse: %q", got)
		e, _ := parse([]byte(edit))
		if specs[d.root.name].rootRecords != nil {
			assert.Equal(t, len(e.root.children), len(d.root.children), "%q", got)
		}
	})
}
