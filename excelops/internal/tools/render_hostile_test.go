//go:build linux

package tools

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/render"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/rendersafe"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// The colours of the hostile workbook's pictures: the embedded one must be
// drawn, the linked ones never. LibreOffice draws a missing picture as its
// name in red, so the linked ones are magenta and cyan.
var (
	embeddedColour = color.RGBA{0, 200, 0, 255}
	outsideColour  = color.RGBA{255, 0, 255, 255}
	servedColour   = color.RGBA{0, 255, 255, 255}
)

// hostile is a workbook in the workspace whose drawing links one picture
// to a file outside the workspace and one to a loopback HTTP server, and
// embeds a third.
type hostile struct {
	name     string       // the workbook, in the workspace
	outside  string       // the folder holding red.png, outside the workspace
	requests atomic.Int64 // requests the server received
	opened   func() bool  // whether anything opened or read outside since
}

// hostileWorkbook writes the attack workbook (pictures linked to an outside file and a URL) into e's workspace: made
// with excelize (three embedded pictures), then its drawing relationships
// of the first two turned into TargetMode="External" links read through
// r:link, to file:///OUTSIDE/red.png and http://127.0.0.1:PORT/blue.png.
func hostileWorkbook(t *testing.T, e *env, name string) *hostile {
	t.Helper()
	h := &hostile{name: name, outside: t.TempDir()}
	require.NoError(t, os.WriteFile(filepath.Join(h.outside, "red.png"), solidPNG(t, outsideColour), 0o644))
	served := solidPNG(t, servedColour)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		h.requests.Add(1)
		w.Header().Set("Content-Type", "image/png")
		_, _ = w.Write(served)
	}))
	t.Cleanup(srv.Close)

	f := excelize.NewFile()
	defer f.Close()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", "hostile pictures"))
	require.NoError(t, f.SetCellValue("Sheet1", "H8", "end"))
	for i, cell := range []string{"B2", "D2", "F2"} {
		shade := embeddedColour
		shade.G -= uint8(i) // three distinct files, so excelize keeps three media parts
		require.NoError(t, f.AddPictureFromBytes("Sheet1", cell, &excelize.Picture{Extension: ".png", File: solidPNG(t, shade)}))
	}
	var buf bytes.Buffer
	require.NoError(t, f.Write(&buf))
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	require.NoError(t, err)
	links := map[string]string{
		"image1.png": "file://" + filepath.ToSlash(h.outside) + "/red.png",
		"image2.png": srv.URL + "/blue.png",
	}
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	var linkedIDs []string
	rel := regexp.MustCompile(`Id="(rId\d+)" Target="\.\./media/(image\d\.png)"`)
	for _, zf := range zr.File {
		rc, err := zf.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(rc)
		require.NoError(t, err)
		text := string(data)
		if zf.Name == "xl/drawings/_rels/drawing1.xml.rels" {
			text = rel.ReplaceAllStringFunc(text, func(m string) string {
				sub := rel.FindStringSubmatch(m)
				if url, ok := links[sub[2]]; ok {
					linkedIDs = append(linkedIDs, sub[1])
					return `Id="` + sub[1] + `" Target="` + url + `" TargetMode="External"`
				}
				return m
			})
		}
		w, err := zw.Create(zf.Name)
		require.NoError(t, err)
		_, err = io.WriteString(w, text)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	require.Len(t, linkedIDs, 2, "excelize's drawing relationships changed shape")
	// The drawing part comes after its relationships in excelize's zip:
	// write the package again with the two blips read through r:link.
	raw := out.Bytes()
	zr, err = zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	out = bytes.Buffer{}
	zw = zip.NewWriter(&out)
	for _, zf := range zr.File {
		rc, err := zf.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(rc)
		require.NoError(t, err)
		text := string(data)
		if zf.Name == "xl/drawings/drawing1.xml" {
			for _, id := range linkedIDs {
				require.Contains(t, text, `r:embed="`+id+`"`)
				text = strings.ReplaceAll(text, `r:embed="`+id+`"`, `r:link="`+id+`"`)
			}
		}
		w, err := zw.Create(zf.Name)
		require.NoError(t, err)
		_, err = io.WriteString(w, text)
		require.NoError(t, err)
	}
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(e.path(name), out.Bytes(), 0o644))
	h.opened = watchOpens(t, h.outside)
	return h
}

// watchOpens watches dir with inotify: the returned function reports
// whether anything opened or read dir or a file in it since the watch
// began (atime is not trusted: mounts may not update it).
func watchOpens(t *testing.T, dir string) func() bool {
	t.Helper()
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	require.NoError(t, err)
	t.Cleanup(func() { _ = unix.Close(fd) })
	_, err = unix.InotifyAddWatch(fd, dir, unix.IN_OPEN|unix.IN_ACCESS)
	require.NoError(t, err)
	seen := false
	return func() bool {
		buf := make([]byte, 4096)
		if n, err := unix.Read(fd, buf); err == nil && n > 0 {
			seen = true
		}
		return seen
	}
}

// colours counts the pixels of a PNG near each of the three colours.
func colours(t *testing.T, data []byte) (embedded, outside, served int) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	require.NoError(t, err)
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			r, g, bl = r>>8, g>>8, bl>>8
			switch {
			case g > 150 && r < 80 && bl < 80:
				embedded++
			case r > 200 && g < 60 && bl > 200:
				outside++
			case r < 60 && g > 200 && bl > 200:
				served++
			}
		}
	}
	return embedded, outside, served
}

// TestRenderRangeSeesOnlyTheCopy renders the hostile workbook through
// render_range: the server gets no request, nothing outside is opened,
// the embedded picture is drawn and the linked ones are not, and the
// result lists the two links it left out by scheme only.
func TestRenderRangeSeesOnlyTheCopy(t *testing.T) {
	skipUnderRace(t)
	needSoffice(t)
	e := newEnv(t)
	h := hostileWorkbook(t, e, "hostile.xlsx")
	res := e.call("render_range", map[string]any{"file_path": "hostile.xlsx", "cell_range": "A1:H8"})
	require.False(t, res.IsError, res.Text)
	assert.Zero(t, h.requests.Load(), "LibreOffice fetched the linked URL")
	assert.False(t, h.opened(), "LibreOffice opened the file outside the workspace")
	assert.NotContains(t, res.Text, "127.0.0.1", "the result repeats no link")
	assert.NotContains(t, res.Text, h.outside)
	var got struct {
		NotRendered []rendersafe.Omitted `json:"not_rendered"`
		Isolation   string               `json:"network_isolation"`
		OutputPath  string               `json:"output_path"`
	}
	require.NoError(t, json.Unmarshal([]byte(res.Text), &got))
	assert.Equal(t, []rendersafe.Omitted{
		{Part: "xl/drawings/drawing1.xml", What: "linked image", Target: "file", Count: 1},
		{Part: "xl/drawings/drawing1.xml", What: "linked image", Target: "http", Count: 1},
	}, got.NotRendered)
	assert.Equal(t, e.svc.RenderIsolation(), got.Isolation)
	if render.ProbeNetns(t.TempDir()) {
		assert.Equal(t, render.IsolationNetns, got.Isolation)
	}
	pic, err := os.ReadFile(e.path(got.OutputPath))
	require.NoError(t, err)
	embedded, outside, served := colours(t, pic)
	assert.Greater(t, embedded, 500, "the embedded picture is drawn")
	assert.Zero(t, outside, "the outside file is drawn")
	assert.Zero(t, served, "the served picture is drawn")
}

// TestRenderProtectionLayers runs soffice itself on the hostile workbook
// to show what each layer holds alone: with nothing, LibreOffice really
// reads the outside file and fetches the URL (so the test above can fail);
// the sanitised copy alone, or the profile settings alone, stop both; a
// network namespace alone stops the fetch but not the read.
func TestRenderProtectionLayers(t *testing.T) {
	skipUnderRace(t)
	needSoffice(t)
	bin, err := exec.LookPath(render.DefaultSoffice)
	require.NoError(t, err)
	netns := render.ProbeNetns(t.TempDir())
	cases := []struct {
		name                      string
		sanitise, settings, netns bool
		fetched, openedIt         bool
	}{
		{"nothing (control)", false, false, false, true, true},
		{"sanitised copy alone", true, false, false, false, false},
		{"settings alone", false, true, false, false, false},
		{"network namespace alone", false, false, true, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.netns && !netns {
				t.Skip("this platform refuses new network namespaces")
			}
			e := newEnv(t)
			h := hostileWorkbook(t, e, "hostile.xlsx")
			work := t.TempDir()
			in := filepath.Join(work, "hostile.xlsx")
			raw, err := os.ReadFile(e.path(h.name))
			require.NoError(t, err)
			if c.sanitise {
				raw, _, err = e.svc.sanitizeRenderCopy(raw)
				require.NoError(t, err)
			}
			require.NoError(t, os.WriteFile(in, raw, 0o600))
			profile := filepath.Join(work, "profile")
			require.NoError(t, os.Mkdir(profile, 0o700))
			if c.settings {
				require.NoError(t, render.WriteProfileSettings(profile))
			}
			var said bytes.Buffer
			ctx, cancel := context.WithTimeout(context.Background(), render.Timeout)
			defer cancel()
			cmd := render.Command(ctx, bin, profile, in, filepath.Join(work, "out"), work, c.netns, &said)
			require.NoError(t, cmd.Run(), said.String())
			pic, err := os.ReadFile(filepath.Join(work, "out", "hostile.png"))
			require.NoError(t, err, said.String())
			_, outside, served := colours(t, pic)
			assert.Equal(t, c.fetched, h.requests.Load() > 0, "fetched")
			assert.Equal(t, c.fetched, served > 0, "served picture drawn")
			assert.Equal(t, c.openedIt, h.opened(), "outside opened")
			assert.Equal(t, c.openedIt, outside > 0, "outside picture drawn")
		})
	}
}
