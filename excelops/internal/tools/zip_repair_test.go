package tools

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The zip records the tests edit by hand (APPNOTE 4.3).
var (
	testSigEnd           = []byte("PK\x05\x06")
	testCentralHeaderLen = 46
)

// endRecordAt returns where the end of central directory record of z starts.
func endRecordAt(t *testing.T, z []byte) int {
	t.Helper()
	i := bytes.LastIndex(z, testSigEnd)
	require.GreaterOrEqual(t, i, 0)
	return i
}

// shiftOffsets adds by to the directory offset and every local header
// offset of z, whose first by bytes are a stub the offsets did not count
// (what a self-extractor that accounts for its stub writes).
func shiftOffsets(t *testing.T, z []byte, by uint32) []byte {
	t.Helper()
	end := endRecordAt(t, z)
	dir := int(binary.LittleEndian.Uint32(z[end+16:]))
	binary.LittleEndian.PutUint32(z[end+16:], uint32(dir)+by)
	for i, pos := 0, dir+int(by); i < int(binary.LittleEndian.Uint16(z[end+10:])); i++ {
		binary.LittleEndian.PutUint32(z[pos+42:], binary.LittleEndian.Uint32(z[pos+42:])+by)
		pos += testCentralHeaderLen + int(binary.LittleEndian.Uint16(z[pos+28:])) + int(binary.LittleEndian.Uint16(z[pos+30:])) + int(binary.LittleEndian.Uint16(z[pos+32:]))
	}
	return z
}

// zipQuirks are packages with the quirks real workbooks carry, built from a
// clean one, and whether unzip reads them (the tools must agree).
func zipQuirks() []struct {
	name    string
	unzip   bool // unzip reads every entry (warnings or not)
	goReads bool // Go's archive/zip alone finds every entry
	mangle  func(t *testing.T, z []byte) []byte
} {
	stub := []byte("MZ\x90\x00 self-extractor stub, not zip data ....")
	return []struct {
		name    string
		unzip   bool
		goReads bool
		mangle  func(t *testing.T, z []byte) []byte
	}{
		{"data before the first local header", true, true, func(_ *testing.T, z []byte) []byte {
			return append(append([]byte{}, stub...), z...)
		}},
		{"self-extracting prefix with offsets counting it", true, true, func(t *testing.T, z []byte) []byte {
			return shiftOffsets(t, append(append([]byte{}, stub...), z...), uint32(len(stub)))
		}},
		{"directory offset zero", true, false, func(t *testing.T, z []byte) []byte {
			binary.LittleEndian.PutUint32(z[endRecordAt(t, z)+16:], 0)
			return z
		}},
		{"directory offset too small", true, false, func(t *testing.T, z []byte) []byte {
			end := endRecordAt(t, z)
			binary.LittleEndian.PutUint32(z[end+16:], binary.LittleEndian.Uint32(z[end+16:])-7)
			return z
		}},
		{"directory offset past the directory", false, false, func(t *testing.T, z []byte) []byte {
			end := endRecordAt(t, z)
			binary.LittleEndian.PutUint32(z[end+16:], binary.LittleEndian.Uint32(z[end+16:])+7)
			return z
		}},
		{"a few trailing bytes", true, true, func(_ *testing.T, z []byte) []byte {
			return append(z, "trailing junk"...)
		}},
		{"66 KiB of trailing bytes (past Go's search)", true, false, func(_ *testing.T, z []byte) []byte {
			return append(z, make([]byte, 66<<10)...)
		}},
		{"comment length past the end", true, false, func(t *testing.T, z []byte) []byte {
			binary.LittleEndian.PutUint16(z[endRecordAt(t, z)+20:], 40)
			return z
		}},
		{"no end record", false, false, func(t *testing.T, z []byte) []byte {
			return z[:endRecordAt(t, z)]
		}},
	}
}

// unzipAccepts reports whether unzip -t reads every one of the file's
// entries intact, warnings or not (it exits 1 or 2 when it had to
// compensate for a wrong offset); ok is false when unzip is not installed.
func unzipAccepts(path string, entries int) (accepts, ok bool) {
	bin, err := exec.LookPath("unzip")
	if err != nil {
		return false, false
	}
	out, err := exec.Command(bin, "-t", path).CombinedOutput()
	var ee *exec.ExitError
	if err != nil && (!errors.As(err, &ee) || ee.ExitCode() > 2) {
		return false, true
	}
	tested := 0
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "testing:") && strings.HasSuffix(strings.TrimSpace(line), " OK") {
			tested++
		}
	}
	return tested == entries, true
}

// TestZipQuirksAsUnzipReadsThem: a workbook with a zip quirk that unzip
// (and LibreOffice) read is read and edited like a clean one, and saved
// clean; one unzip refuses is damaged for every tool.
func TestZipQuirksAsUnzipReadsThem(t *testing.T) {
	for _, q := range zipQuirks() {
		t.Run(q.name, func(t *testing.T) {
			e := newEnv(t)
			e.workbook("q.xlsx", [][]any{{"name", "qty"}, {"a", 1}, {"b", 2}})
			clean, err := os.ReadFile(e.path("q.xlsx"))
			require.NoError(t, err)
			zr, err := zip.NewReader(bytes.NewReader(clean), int64(len(clean)))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(e.path("q.xlsx"), q.mangle(t, clean), 0o644))
			if accepts, ok := unzipAccepts(e.path("q.xlsx"), len(zr.File)); ok {
				require.Equal(t, q.unzip, accepts, "unzip's verdict on the crafted file")
			}
			mangled, err := os.ReadFile(e.path("q.xlsx"))
			require.NoError(t, err)
			goAlone, err := zip.NewReader(bytes.NewReader(mangled), int64(len(mangled)))
			assert.Equal(t, q.goReads, err == nil && opc.LocalHeadersFound(goAlone), "Go's archive/zip alone")
			if !q.unzip {
				for _, tool := range []string{"list_sheets", "read_excel", "describe_workbook", "write_cells", "format_cells"} {
					p := e.fail(tool, withFile(tool, "q.xlsx", minimalArgs()[tool]))
					assert.Equal(t, "BadZipFile", p["exception"], "%s: %v", tool, p)
					assert.Contains(t, p["message"], "not a valid xlsx (zip) package", tool)
				}
				return
			}
			p := e.ok("list_sheets", map[string]any{"file_path": "q.xlsx"})
			assert.Equal(t, "Sheet1", p["active_sheet"])
			p = e.ok("read_excel", map[string]any{"file_path": "q.xlsx", "range": "A1:B3"})
			assert.Equal(t, []any{[]any{"name", "qty"}, []any{"a", float64(1)}, []any{"b", float64(2)}}, p["values"])
			p = e.ok("describe_workbook", map[string]any{"file_path": "q.xlsx"})
			assert.Equal(t, "A1:B3", p["sheets"].([]any)[0].(map[string]any)["used_range"])
			e.ok("write_cells", map[string]any{"file_path": "q.xlsx", "cell": "C1", "value": "splice"})
			e.ok("format_cells", map[string]any{"file_path": "q.xlsx", "cell_range": "A1", "font": map[string]any{"bold": true}})
			assert.Equal(t, "splice", e.value("q.xlsx", "Sheet1", "C1"))
			assert.Equal(t, "b", e.value("q.xlsx", "Sheet1", "A3"))
			saved, err := os.ReadFile(e.path("q.xlsx"))
			require.NoError(t, err)
			_, err = zip.NewReader(bytes.NewReader(saved), int64(len(saved)))
			assert.NoError(t, err, "the saved package is clean")
		})
	}
}

// TestZipQuirkBombRefused: a rebuilt directory is bounded like a clean one.
func TestZipQuirkBombRefused(t *testing.T) {
	e := newEnv(t, WithLimits(limits.Limits{UnzipSizeLimit: 16 << 20, UnzipXMLSizeLimit: 4 << 20}))
	e.workbook("bomb.xlsx", [][]any{{1}})
	withSheetXML(t, e.path("bomb.xlsx"), sheetXML("A1", `<row r="1"><c r="A1"><v>1</v></c></row>`+strings.Repeat(" ", 64<<20)))
	z, err := os.ReadFile(e.path("bomb.xlsx"))
	require.NoError(t, err)
	binary.LittleEndian.PutUint32(z[endRecordAt(t, z)+16:], 0) // Go misreads it; rebuilt
	require.NoError(t, os.WriteFile(e.path("bomb.xlsx"), z, 0o644))
	for _, tool := range []string{"read_excel", "write_cells", "describe_workbook"} {
		p := e.fail(tool, withFile(tool, "bomb.xlsx", minimalArgs()[tool]))
		assert.Equal(t, "MemoryError", p["exception"], "%s: %v", tool, p)
		assert.Contains(t, p["message"], "zip bomb", tool)
	}
}

// TestDuplicatePartNamesDamaged: a package with two entries of one name
// (LibreOffice and Go's reader pick different ones) is damaged for reads
// and writes, and the file is left as it was.
func TestDuplicatePartNamesDamaged(t *testing.T) {
	for _, second := range []string{"xl/worksheets/sheet1.xml", "XL/Worksheets/Sheet1.xml"} {
		t.Run(second, func(t *testing.T) {
			e := newEnv(t)
			e.workbook("dup.xlsx", [][]any{{"first"}})
			src, err := os.ReadFile(e.path("dup.xlsx"))
			require.NoError(t, err)
			zr, err := zip.NewReader(bytes.NewReader(src), int64(len(src)))
			require.NoError(t, err)
			var out bytes.Buffer
			zw := zip.NewWriter(&out)
			for _, f := range zr.File {
				require.NoError(t, zw.Copy(f))
			}
			w, err := zw.Create(second)
			require.NoError(t, err)
			_, err = w.Write(sheetXML("A1", `<row r="1"><c r="A1" t="inlineStr"><is><t>second</t></is></c></row>`))
			require.NoError(t, err)
			require.NoError(t, zw.Close())
			require.NoError(t, os.WriteFile(e.path("dup.xlsx"), out.Bytes(), 0o644))
			for _, tool := range []string{"list_sheets", "read_excel", "describe_workbook", "write_cells", "format_cells", "insert_rows"} {
				p := e.fail(tool, withFile(tool, "dup.xlsx", minimalArgs()[tool]))
				assert.Equal(t, "BadZipFile", p["exception"], "%s: %v", tool, p)
				assert.Contains(t, p["message"], "two parts named", tool)
			}
			after, err := os.ReadFile(e.path("dup.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, out.Bytes(), after)
		})
	}
}
