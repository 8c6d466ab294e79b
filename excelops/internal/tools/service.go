package tools

import (
	"fmt"
	"io"
	"os"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/bookcache"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/lightcache"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/pathlock"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/render"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/sirupsen/logrus"
)

// Service holds the spreadsheet tools over one workspace root, on one
// engine; excelops.Service is its public face. It is safe for concurrent
// use: calls on different files run in parallel, calls on the same file
// are serialised by a per-path lock.
type Service struct {
	engine *engine.Engine
	// soffice is the LibreOffice binary render_range runs (see WithSoffice).
	soffice string
	// maxRenders is WithMaxRenders' value.
	maxRenders int
	// render runs LibreOffice for render_range (internal/render).
	render *render.LibreOffice
}

// Option configures a Service.
type Option func(*Service)

// WithLogger sets the logger (default: a logger that discards).
func WithLogger(l logrus.FieldLogger) Option { return func(s *Service) { s.engine.Log = l } }

// WithLimits sets the size limits; zero fields keep their defaults (see
// DefaultLimits).
func WithLimits(l limits.Limits) Option { return func(s *Service) { s.engine.Limits = l } }

// WithTempDir sets the folder under which each call gets a private
// temporary folder for excelize's spill files (default: os.TempDir()).
func WithTempDir(dir string) Option { return func(s *Service) { s.engine.TmpBase = dir } }

// WithCacheBudget sets the estimated memory, in bytes, that parsed
// workbooks kept between calls may take (default DefaultCacheBudget); 0
// disables the cache, so every call parses its workbook again. The shared
// strings that reads remember per unchanged file (internal/lightcache) take at
// most a further 1/lightBudgetShare of it.
//
// The estimate is the unzipped size of a workbook's parts times a measured
// factor; the least recently used workbooks are closed to make room.
func WithCacheBudget(bytes int64) Option { return func(s *Service) { s.engine.CacheBudget = bytes } }

// WithSplice turns the splice path of cell edits on (the default) or off
// (every edit parses the workbook with excelize; for comparisons and as an
// escape hatch).
func WithSplice(on bool) Option { return func(s *Service) { s.engine.SpliceOff = !on } }

// WithSoffice sets the LibreOffice binary render_range runs: a path, or a
// name looked up on PATH (default "soffice").
func WithSoffice(bin string) Option { return func(s *Service) { s.soffice = bin } }

// WithMaxRenders sets how many render_range calls run LibreOffice at once
// (default render.DefaultMaxRenders; n <= 0 keeps the default). Other renders
// wait for a slot within their own deadline.
func WithMaxRenders(n int) Option { return func(s *Service) { s.maxRenders = n } }

// New returns the tools over the workspace folder root, which must exist.
func New(root string, opts ...Option) (*Service, error) {
	s := &Service{engine: &engine.Engine{Locks: pathlock.New(), TmpBase: os.TempDir(), CacheBudget: engine.DefaultCacheBudget}}
	for _, o := range opts {
		o(s)
	}
	if s.engine.Log == nil {
		l := logrus.New()
		l.SetOutput(io.Discard)
		s.engine.Log = l
	}
	s.engine.Limits = s.engine.Limits.WithDefaults()
	s.render = render.New(render.Config{Soffice: s.soffice, MaxRenders: s.maxRenders, TmpBase: s.engine.TmpBase, Log: s.engine.Log})
	box, err := workspace.Open(root)
	if err != nil {
		return nil, err
	}
	s.engine.Box = box
	s.engine.Cache = bookcache.New(s.engine.CacheBudget, (*engine.Book).Close)
	s.engine.Light = lightcache.New(s.engine.CacheBudget / engine.LightBudgetShare)
	return s, nil
}

// Close closes the workbooks kept in memory between calls and removes their
// temporary files. Call it once on shutdown, after the last call returned;
// the Service stays usable, without the cache.
func (s *Service) Close() error { return s.engine.Cache.Close() }

// MaxRenders returns how many render_range calls run LibreOffice at once.
func (s *Service) MaxRenders() int { return s.render.MaxRenders() }

// RenderIsolation returns how render_range keeps LibreOffice off the
// network: IsolationNetns when soffice runs in a new network namespace,
// else IsolationSettings (see both). The first call probes the platform.
func (s *Service) RenderIsolation() string { return s.render.Isolation() }

// Root returns the real path of the workspace folder.
func (s *Service) Root() string { return s.engine.Box.Dir() }

// Register adds every spreadsheet tool to r, in a stable order; with only,
// just the tools of those names (a process that runs one call derives and
// compiles one schema instead of every tool's). A name in only that is no
// spreadsheet tool is an error.
func (s *Service) Register(r *registry.Registry, only ...string) error {
	specs := s.tools()
	if len(only) > 0 {
		var err error
		if specs, err = pickTools(specs, only); err != nil {
			return err
		}
	}
	for _, sp := range specs {
		if err := sp.access.Check(); err != nil {
			return fmt.Errorf("excelops: tool %s: %w", sp.name, err)
		}
		t, err := s.register(sp)
		if err != nil {
			return fmt.Errorf("excelops: tool %s: %w", sp.name, err)
		}
		if err := r.Register(t); err != nil {
			return err
		}
	}
	return nil
}

// HasTool reports whether name is one of the spreadsheet tools.
func (s *Service) HasTool(name string) bool {
	_, err := pickTools(s.tools(), []string{name})
	return err == nil
}

// pickTools keeps the specs named in names, in their stable order.
func pickTools(specs []toolSpec, names []string) ([]toolSpec, error) {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	var out []toolSpec
	for _, sp := range specs {
		if want[sp.name] {
			out = append(out, sp)
			delete(want, sp.name)
		}
	}
	for n := range want {
		return nil, fmt.Errorf("excelops: no spreadsheet tool is named %q", n)
	}
	return out, nil
}
