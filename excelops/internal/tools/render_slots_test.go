//go:build linux

package tools

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/render"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fakeSoffice writes a shell script that stands in for soffice: it notes
// how many copies of it run at once (max.log), the network namespace it
// runs in (netns), the settings its profile started with (settings.xcu),
// sleeps for pause and writes a small PNG with some ink where soffice
// would. It returns the script's path and the folder of its notes.
func fakeSoffice(t *testing.T, pause time.Duration) (bin, notes string) {
	t.Helper()
	notes = t.TempDir()
	img := image.NewRGBA(image.Rect(0, 0, 40, 20))
	for x := 5; x < 35; x++ {
		img.Set(x, 10, color.Black)
	}
	var buf bytes.Buffer
	require.NoError(t, png.Encode(&buf, img))
	require.NoError(t, os.WriteFile(filepath.Join(notes, "page.png"), buf.Bytes(), 0o644))
	require.NoError(t, os.Mkdir(filepath.Join(notes, "running"), 0o755))
	script := `#!/bin/sh
notes='` + notes + `'
outdir= ; profile= ; in=
while [ $# -gt 0 ]; do
  case "$1" in
    --outdir) outdir=$2; shift ;;
    -env:UserInstallation=file://*) profile=${1#-env:UserInstallation=file://} ;;
    *) in=$1 ;;
  esac
  shift
done
touch "$notes/running/$$"
ls "$notes/running" | wc -l >> "$notes/max.log"
readlink /proc/self/ns/net > "$notes/netns"
cp "$profile/user/registrymodifications.xcu" "$notes/settings.xcu"
sleep ` + strconv.FormatFloat(pause.Seconds(), 'f', 3, 64) + `
mkdir -p "$outdir"
base=$(basename "$in" .xlsx)
cp "$notes/page.png" "$outdir/$base.png"
rm "$notes/running/$$"
`
	bin = filepath.Join(t.TempDir(), "soffice")
	require.NoError(t, os.WriteFile(bin, []byte(script), 0o755))
	return bin, notes
}

// maxRunning is the most copies of the fake soffice that ran at once.
func maxRunning(t *testing.T, notes string) int {
	raw, err := os.ReadFile(filepath.Join(notes, "max.log"))
	require.NoError(t, err)
	most := 0
	for _, l := range strings.Fields(string(raw)) {
		n, err := strconv.Atoi(l)
		require.NoError(t, err)
		most = max(most, n)
	}
	return most
}

// TestRenderRangeRunsAtMostMaxRendersAtOnce: six renders at once with a
// cap of two: all succeed, never more than two soffice run together.
func TestRenderRangeRunsAtMostMaxRendersAtOnce(t *testing.T) {
	bin, notes := fakeSoffice(t, 300*time.Millisecond)
	e := newEnv(t, WithSoffice(bin), WithMaxRenders(2))
	assert.Equal(t, 2, e.svc.MaxRenders())
	e.workbook("r.xlsx", [][]any{{"a", "b"}, {1, 2}})
	var wg sync.WaitGroup
	for i := 0; i < 6; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := e.ok("render_range", map[string]any{"file_path": "r.xlsx", "output_path": "r" + strconv.Itoa(i) + ".png"})
			assert.Equal(t, []any{}, got["not_rendered"])
		}()
	}
	wg.Wait()
	assert.Equal(t, 2, maxRunning(t, notes))
}

// TestRenderRangeTimesOutWaitingForASlot goes through the registry: the
// payload of a render that waited in vain is a TimeoutError.
func TestRenderRangeTimesOutWaitingForASlot(t *testing.T) {
	bin, _ := fakeSoffice(t, 0)
	e := newEnv(t, WithSoffice(bin), WithMaxRenders(1))
	e.workbook("r.xlsx", [][]any{{"a"}})
	release, err := e.svc.render.Acquire(context.Background())
	require.NoError(t, err)
	defer release()
	ctx, cancel := context.WithTimeout(context.Background(), render.SlotMargin+500*time.Millisecond)
	defer cancel()
	res := e.reg.CallTool(ctx, "render_range", []byte(`{"file_path": "r.xlsx"}`))
	require.True(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, `"exception": "TimeoutError"`)
	assert.Contains(t, res.Text, "render slots")
}

// TestRenderIsolation: soffice runs in its own network namespace where the
// platform allows one and reports it; where the probe says no, it runs in
// the sidecar's and the result says "settings". Either way its profile
// starts with the settings that forbid loading linked content.
func TestRenderIsolation(t *testing.T) {
	own, err := os.Readlink("/proc/self/ns/net")
	require.NoError(t, err)
	for _, netns := range []bool{true, false} {
		t.Run(map[bool]string{true: render.IsolationNetns, false: render.IsolationSettings}[netns], func(t *testing.T) {
			if netns && !render.ProbeNetns(t.TempDir()) {
				t.Skip("this platform refuses new network namespaces (user namespaces off or no CAP_SYS_ADMIN)")
			}
			bin, notes := fakeSoffice(t, 0)
			e := newEnv(t, WithSoffice(bin))
			e.svc.render.SetProbe(func(string) bool { return netns })
			e.workbook("r.xlsx", [][]any{{"a"}})
			got := e.ok("render_range", map[string]any{"file_path": "r.xlsx"})
			want := render.IsolationSettings
			if netns {
				want = render.IsolationNetns
			}
			assert.Equal(t, want, got["network_isolation"])
			assert.Equal(t, want, e.svc.RenderIsolation())
			ns, err := os.ReadFile(filepath.Join(notes, "netns"))
			require.NoError(t, err)
			assert.Equal(t, !netns, strings.TrimSpace(string(ns)) == own, "soffice's network namespace %s, the test's %s", ns, own)
			settings, err := os.ReadFile(filepath.Join(notes, "settings.xcu"))
			require.NoError(t, err)
			assert.Equal(t, string(render.ProfileSettingsXML()), string(settings))
			assert.Contains(t, string(settings), `<prop oor:name="BlockUntrustedRefererLinks" oor:op="fuse"><value>true</value>`)
		})
	}
}
