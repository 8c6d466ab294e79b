// Command image writes the registry-sidecar container image as an OCI image
// layout in a tar file (what `make image` runs), with no container engine
// and no base image: each platform's image is one layer on an empty base,
// holding the static binary, a /workspace folder owned by the non-root user
// 65532, /tmp and the /etc/passwd and /etc/group entries of that user. The
// layout's index.json names one image index with an image per platform.
//
//	go run . -o image.tar -version 0.1.0 -binary linux/amd64=PATH [-binary linux/arm64=PATH]
//
// The image runs `registry-sidecar serve` with its settings in environment
// variables that a deployment overrides: REGISTRY_SIDECAR_LISTEN (the
// WebSocket door, 0.0.0.0:8765), REGISTRY_SIDECAR_MCP_LISTEN (MCP
// streamable HTTP, 0.0.0.0:8766), REGISTRY_SIDECAR_WORKSPACE (/workspace).
// Serving beyond loopback needs a token: REGISTRY_SIDECAR_TOKEN or
// REGISTRY_SIDECAR_TOKEN_FILE, which the deployment provides (a Secret).
// Every listener serves /healthz and /readyz without the token.
package main

import (
	"archive/tar"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// The image's user and its doors.
const (
	// uid and gid of the non-root user the process runs as (the "nonroot"
	// user of distroless images).
	uid = 65532
	gid = 65532
	// binaryPath is where the binary sits in the image.
	binaryPath = "/registry-sidecar"
	// workspace is the volume the tools work in.
	workspace = "/workspace"
	// wsPort and mcpPort are the default ports of the WebSocket and MCP
	// streamable HTTP doors.
	wsPort  = 8765
	mcpPort = 8766
)

// binaries collects repeated -binary os/arch=path flags.
type binaries map[string]string

func (b binaries) String() string { return fmt.Sprint(map[string]string(b)) }

// Set parses one os/arch=path.
func (b binaries) Set(s string) error {
	platform, path, ok := strings.Cut(s, "=")
	if !ok || !strings.HasPrefix(platform, "linux/") {
		return fmt.Errorf("want linux/ARCH=PATH, got %q", s)
	}
	b[platform] = path
	return nil
}

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "image:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("image", flag.ContinueOnError)
	out := fs.String("o", "registry-sidecar-image.tar", "the OCI image layout tar to write")
	version := fs.String("version", "", "the release the image is tagged with (required)")
	bins := binaries{}
	fs.Var(bins, "binary", "linux/ARCH=PATH of a static registry-sidecar binary (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *version == "" || len(bins) == 0 {
		return errors.New("-version and at least one -binary are required")
	}
	created, err := sourceDate()
	if err != nil {
		return err
	}
	idx := mutate.IndexMediaType(empty.Index, types.OCIImageIndex)
	platforms := make([]string, 0, len(bins))
	for p := range bins {
		platforms = append(platforms, p)
	}
	sort.Strings(platforms)
	for _, p := range platforms {
		arch := strings.TrimPrefix(p, "linux/")
		img, err := image(bins[p], arch, *version, created)
		if err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		platform := &v1.Platform{OS: "linux", Architecture: arch}
		if arch == "arm64" {
			platform.Variant = "v8"
		}
		idx = mutate.AppendManifests(idx, mutate.IndexAddendum{Add: img, Descriptor: v1.Descriptor{Platform: platform}})
	}
	dir, err := os.MkdirTemp("", "registry-sidecar-image-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	lp, err := layout.Write(dir, empty.Index)
	if err != nil {
		return err
	}
	err = lp.AppendIndex(idx, layout.WithAnnotations(map[string]string{
		"org.opencontainers.image.ref.name": *version,
		"io.containerd.image.name":          "registry-sidecar:" + *version,
	}))
	if err != nil {
		return err
	}
	return tarDir(dir, *out)
}

// sourceDate is $SOURCE_DATE_EPOCH when set (reproducible builds), else
// the Unix epoch: the image does not change with the time it is built.
func sourceDate() (time.Time, error) {
	s := os.Getenv("SOURCE_DATE_EPOCH")
	if s == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("$SOURCE_DATE_EPOCH: %w", err)
	}
	return time.Unix(n, 0).UTC(), nil
}

// image is one platform's image: the root file system layer on an empty
// base, and the configuration that runs the binary as the non-root user.
func image(binary, arch, version string, created time.Time) (v1.Image, error) {
	data, err := os.ReadFile(binary)
	if err != nil {
		return nil, err
	}
	rootfs, err := rootFS(data, created)
	if err != nil {
		return nil, err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(rootfs)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return nil, err
	}
	img := mutate.ConfigMediaType(mutate.MediaType(empty.Image, types.OCIManifestSchema1), types.OCIConfigJSON)
	img, err = mutate.ConfigFile(img, &v1.ConfigFile{
		Architecture: arch,
		OS:           "linux",
		Created:      v1.Time{Time: created},
		RootFS:       v1.RootFS{Type: "layers"},
		Config: v1.Config{
			Entrypoint: []string{binaryPath},
			Cmd:        []string{"serve"},
			Env: []string{
				"REGISTRY_SIDECAR_LISTEN=0.0.0.0:" + strconv.Itoa(wsPort),
				"REGISTRY_SIDECAR_MCP_LISTEN=0.0.0.0:" + strconv.Itoa(mcpPort),
				"REGISTRY_SIDECAR_WORKSPACE=" + workspace,
			},
			User:         fmt.Sprintf("%d:%d", uid, gid),
			WorkingDir:   workspace,
			ExposedPorts: map[string]struct{}{fmt.Sprintf("%d/tcp", wsPort): {}, fmt.Sprintf("%d/tcp", mcpPort): {}},
			Volumes:      map[string]struct{}{workspace: {}},
			StopSignal:   "SIGTERM",
			Labels: map[string]string{
				"org.opencontainers.image.title":       "registry-sidecar",
				"org.opencontainers.image.description": "Spreadsheet tools for LLM agents over WebSocket and MCP streamable HTTP",
				"org.opencontainers.image.version":     version,
				"org.opencontainers.image.licenses":    "MIT",
			},
		},
	})
	if err != nil {
		return nil, err
	}
	return mutate.Append(img, mutate.Addendum{
		Layer:   layer,
		History: v1.History{Created: v1.Time{Time: created}, CreatedBy: "deploy/image: static registry-sidecar on an empty base"},
	})
}

// rootFS is the layer's tar: the binary, the user's files and folders.
func rootFS(binary []byte, created time.Time) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	entries := []struct {
		name      string
		mode      int64
		uid, gid  int
		body      []byte
		directory bool
	}{
		{name: "etc/", mode: 0o755, directory: true},
		{name: "etc/group", mode: 0o644, body: fmt.Appendf(nil, "root:x:0:\nnonroot:x:%d:\n", gid)},
		{name: "etc/passwd", mode: 0o644, body: fmt.Appendf(nil, "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:%d:%d:nonroot:%s:/sbin/nologin\n", uid, gid, workspace)},
		{name: strings.TrimPrefix(binaryPath, "/"), mode: 0o755, body: binary},
		{name: "tmp/", mode: 0o1777, directory: true},
		{name: strings.TrimPrefix(workspace, "/") + "/", mode: 0o755, uid: uid, gid: gid, directory: true},
	}
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, Uid: e.uid, Gid: e.gid, ModTime: created, Format: tar.FormatPAX}
		if e.directory {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag, h.Size = tar.TypeReg, int64(len(e.body))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.body); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// tarDir writes the layout folder as a tar (names relative to it, sorted,
// no owners or times), the form `oci-archive:` readers take.
func tarDir(dir, out string) error {
	var names []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != dir {
			names = append(names, path)
		}
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
		return err
	}
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	tw := tar.NewWriter(f)
	for _, path := range names {
		info, err := os.Stat(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		h := &tar.Header{Name: filepath.ToSlash(rel), Mode: 0o644, ModTime: time.Unix(0, 0), Format: tar.FormatPAX}
		if info.IsDir() {
			h.Name, h.Mode, h.Typeflag = h.Name+"/", 0o755, tar.TypeDir
		} else {
			h.Typeflag, h.Size = tar.TypeReg, info.Size()
		}
		if err := tw.WriteHeader(h); err != nil {
			return err
		}
		if !info.IsDir() {
			if err := copyFile(tw, path); err != nil {
				return err
			}
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return f.Close()
}

func copyFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = io.Copy(w, f)
	return err
}
