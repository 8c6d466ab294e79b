package keepparts

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// parts reads every entry of the zip raw.
func parts(t *testing.T, raw []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	out := map[string][]byte{}
	for _, zf := range zr.File {
		rc, err := zf.Open()
		require.NoError(t, err)
		out[zf.Name], err = io.ReadAll(rc)
		require.NoError(t, err)
		require.NoError(t, rc.Close())
	}
	return out
}

// marked rewrites the zip raw with a comment after the XML declaration of
// each named part: bytes excelize's save would not write again.
func marked(t *testing.T, raw []byte, names ...string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, zf := range zr.File {
		rc, err := zf.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(rc)
		require.NoError(t, err)
		require.NoError(t, rc.Close())
		for _, n := range names {
			if zf.Name == n {
				i := bytes.Index(data, []byte("?>")) + 2
				data = append(append(append([]byte{}, data[:i]...), "<!-- as written -->"...), data[i:]...)
			}
		}
		w, err := zw.Create(zf.Name)
		require.NoError(t, err)
		_, err = w.Write(data)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	return out.Bytes()
}

// reserialiser is the Reserialise of the original raw: a fresh copy with
// the named parts parsed, saved.
func reserialiser(t *testing.T, raw []byte) Reserialise {
	return func(names []string) (map[string][]byte, error) {
		f, err := excelize.OpenReader(bytes.NewReader(raw))
		require.NoError(t, err)
		defer f.Close()
		for _, name := range names {
			if _, err := f.ParsePart(name); err != nil {
				return nil, nil
			}
		}
		return Saved(f, names)
	}
}

// TestPackageKeepsUntouchedParts: an edit of one cell of Sheet2 that also
// made excelize parse Sheet1 and the styles writes Sheet2 anew and keeps
// every other part, Sheet1 and the styles among them, byte for byte (the
// comments excelize drops are still there); a new style is the original
// styles, comment included, with the record appended.
func TestPackageKeepsUntouchedParts(t *testing.T) {
	f := excelize.NewFile()
	_, err := f.NewSheet("Sheet2")
	require.NoError(t, err)
	require.NoError(t, f.SetCellValue("Sheet1", "A1", "kept"))
	require.NoError(t, f.SetCellValue("Sheet2", "A1", 1))
	var buf bytes.Buffer
	_, err = f.WriteTo(&buf)
	require.NoError(t, err)
	require.NoError(t, f.Close())
	raw := marked(t, buf.Bytes(), "xl/worksheets/sheet1.xml", "xl/styles.xml", "xl/workbook.xml")
	before := parts(t, raw)
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)

	for _, c := range []struct {
		name     string
		newStyle bool
	}{{"one cell", false}, {"one cell and a new style", true}} {
		t.Run(c.name, func(t *testing.T) {
			edit, err := excelize.OpenReader(bytes.NewReader(raw))
			require.NoError(t, err)
			defer edit.Close()
			_, err = edit.GetCellValue("Sheet1", "A1") // parsed, not changed
			require.NoError(t, err)
			require.NoError(t, edit.SetCellValue("Sheet2", "A1", 2))
			if c.newStyle {
				st, err := edit.NewStyle(&excelize.Style{NumFmt: 14})
				require.NoError(t, err)
				require.NoError(t, edit.SetCellStyle("Sheet2", "A1", "A1", st))
			}
			pkg, err := Package(context.Background(), zr, edit, "xl/worksheets/sheet2.xml", reserialiser(t, raw))
			require.NoError(t, err)
			after := parts(t, pkg)
			plain, err := edit.WriteToBuffer()
			require.NoError(t, err)
			assert.NotContains(t, string(parts(t, plain.Bytes())["xl/worksheets/sheet1.xml"]), "<!-- as written -->", "excelize alone would drop it")
			assert.Len(t, after, len(before))
			assert.NotEqual(t, before["xl/worksheets/sheet2.xml"], after["xl/worksheets/sheet2.xml"], "the edited sheet is written")
			for name, data := range before {
				if name == "xl/worksheets/sheet2.xml" || c.newStyle && name == "xl/styles.xml" {
					continue
				}
				assert.Equal(t, string(data), string(after[name]), "%s is kept byte for byte", name)
			}
			if c.newStyle {
				styles := after["xl/styles.xml"]
				assert.NotEqual(t, before["xl/styles.xml"], styles)
				assert.Contains(t, string(styles), `numFmtId="14"`, "the new style is there")
				assert.Contains(t, string(styles), "<!-- as written -->", "on the original bytes")
			}
		})
	}
}

// TestPackageHonoursCancellation: a cancelled call returns its context's
// error, not a package.
func TestPackageHonoursCancellation(t *testing.T) {
	f := excelize.NewFile()
	var buf bytes.Buffer
	_, err := f.WriteTo(&buf)
	require.NoError(t, err)
	raw := buf.Bytes()
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Package(ctx, zr, f, "", reserialiser(t, raw))
	assert.ErrorIs(t, err, context.Canceled)
}
