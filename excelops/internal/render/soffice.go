package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// LibreOffice, driven headless for render_range.
const (
	// Timeout bounds one LibreOffice conversion, start-up with a
	// fresh profile included (a few seconds on a busy machine).
	Timeout = 90 * time.Second
	// DefaultSoffice is the LibreOffice binary looked up on PATH.
	DefaultSoffice = "soffice"
	// installHint says how to get what render_range needs.
	installHint = "install LibreOffice Calc and its image export filters, e.g. `apt-get install libreoffice-calc-nogui libreoffice-draw-nogui` on Debian or Ubuntu or LibreOffice from libreoffice.org on Windows, or point the sidecar at soffice with --soffice / REGISTRY_SIDECAR_SOFFICE"
)

// Path finds the LibreOffice binary (the default name on PATH, then
// where LibreOffice's installer puts it: sofficeInstalls), or says it is
// not installed and how to install it.
func (l *LibreOffice) Path() (string, error) {
	bin := l.soffice
	if bin == "" {
		bin = DefaultSoffice
	}
	path, err := exec.LookPath(bin)
	if err != nil && bin == DefaultSoffice {
		for _, p := range sofficeInstalls() {
			if found, ferr := exec.LookPath(p); ferr == nil {
				return found, nil
			}
		}
	}
	if err != nil {
		return "", failure.New(failure.KindUnavailable, fmt.Sprintf("render_range needs LibreOffice, which is not installed here (%q not found: %v): %s", bin, err, installHint), err)
	}
	return path, nil
}

// ConvertToPNG has LibreOffice render the first page of the workbook at
// in as a PNG into outDir, with a private profile under work so that
// concurrent calls never share one; it returns the PNG's path and the
// network isolation soffice ran under (IsolationNetns or
// IsolationSettings). It first waits for a render slot (Acquire);
// Timeout counts from then.
func (l *LibreOffice) ConvertToPNG(ctx context.Context, soffice, in, outDir, work string) (png, isolation string, err error) {
	release, err := l.Acquire(ctx)
	if err != nil {
		return "", "", err
	}
	defer release()
	profile, err := os.MkdirTemp(work, "lo-profile-")
	if err != nil {
		return "", "", failure.New(failure.KindIO, "cannot create a LibreOffice profile folder: "+err.Error(), err)
	}
	if err := WriteProfileSettings(profile); err != nil {
		return "", "", err
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	var out bytes.Buffer
	netns := l.useNetns()
	cmd := Command(ctx, soffice, profile, in, outDir, work, netns, &out)
	runErr := cmd.Start()
	if runErr != nil && netns && namespaceRefused(runErr) {
		l.noNetns(runErr)
		netns = false
		out.Reset()
		cmd = Command(ctx, soffice, profile, in, outDir, work, false, &out)
		runErr = cmd.Start()
	}
	if runErr == nil {
		runErr = cmd.Wait()
	}
	isolation = IsolationSettings
	if netns {
		isolation = IsolationNetns
	}
	png = filepath.Join(outDir, strings.TrimSuffix(filepath.Base(in), filepath.Ext(in))+".png")
	if ctx.Err() != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return "", "", failure.New(failure.KindIO, fmt.Sprintf("LibreOffice did not finish rendering within %s", Timeout), ctx.Err())
		}
		return "", "", ctx.Err()
	}
	if st, err := os.Stat(png); err == nil && st.Size() > 0 {
		return png, isolation, nil
	}
	said := lastLines(out.String(), 3)
	if strings.Contains(said, "no export filter") {
		return "", "", failure.New(failure.KindUnavailable, "LibreOffice is installed but has no PNG export filter (Debian ships it in libreoffice-draw-nogui): "+installHint, nil)
	}
	return "", "", failure.New(failure.KindIO, fmt.Sprintf("LibreOffice could not render the range (%v): %s", runErr, said), runErr)
}

// Command is the soffice run converting in to a PNG in outDir with
// the profile folder profile, in a new network namespace when netns; its
// output goes to out. A timeout or cancellation of ctx kills soffice and
// what it started (killSoffice: its process group on Unix, its process
// tree on Windows).
func Command(ctx context.Context, soffice, profile, in, outDir, work string, netns bool, out *bytes.Buffer) *exec.Cmd {
	cmd := exec.CommandContext(ctx, soffice, "-env:UserInstallation="+fileURL(profile),
		"--headless", "--invisible", "--nologo", "--norestore", "--nolockcheck", "--nodefault",
		"--convert-to", "png", "--outdir", outDir, in)
	cmd.Dir = work
	cmd.SysProcAttr = sofficeAttr(netns)
	cmd.Cancel = func() error { return killSoffice(cmd) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Env = sofficeEnv(os.Environ(), work)
	cmd.Stdout, cmd.Stderr = out, out
	return cmd
}

// fileURL is the file: URL of the absolute path p, as LibreOffice takes
// it: file:///tmp/x on Unix, file:///C:/Users/x on Windows.
func fileURL(p string) string {
	p = filepath.ToSlash(p)
	if !strings.HasPrefix(p, "/") {
		p = "/" + p
	}
	return (&url.URL{Scheme: "file", Path: p}).String()
}

// lastLines returns the last n non-empty lines of text, joined by " | ".
func lastLines(text string, n int) string {
	var keep []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" && !strings.Contains(l, "javaldx") {
			keep = append(keep, l)
		}
	}
	if len(keep) > n {
		keep = keep[len(keep)-n:]
	}
	if len(keep) == 0 {
		return "it printed nothing"
	}
	return strings.Join(keep, " | ")
}

// sofficeEnv is the environment LibreOffice runs with: the sidecar's own,
// less its settings (REGISTRY_SIDECAR_*, among them the token) and any
// proxy settings, with HOME in the private folder work.
func sofficeEnv(env []string, work string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		upper := strings.ToUpper(name)
		if strings.HasPrefix(upper, "REGISTRY_SIDECAR_") || strings.HasSuffix(upper, "_PROXY") || upper == "HOME" {
			continue
		}
		out = append(out, kv)
	}
	return append(out, "HOME="+work)
}
