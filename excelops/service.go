package excelops

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/render"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/tools"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/sirupsen/logrus"
)

// Service holds the spreadsheet tools over one workspace root. It is safe
// for concurrent use: calls on different files run in parallel, calls on
// the same file are serialised by a per-path lock.
type Service struct {
	tools *tools.Service
}

// Option configures a Service.
type Option = tools.Option

// New returns the tools over the workspace folder root, which must exist.
func New(root string, opts ...Option) (*Service, error) {
	t, err := tools.New(root, opts...)
	if err != nil {
		return nil, err
	}
	return &Service{tools: t}, nil
}

// Register adds every spreadsheet tool to r, in a stable order; with only,
// just the tools of those names (a process that runs one call derives and
// compiles one schema instead of every tool's). A name in only that is no
// spreadsheet tool is an error.
func (s *Service) Register(r *registry.Registry, only ...string) error {
	return s.tools.Register(r, only...)
}

// HasTool reports whether name is one of the spreadsheet tools.
func (s *Service) HasTool(name string) bool { return s.tools.HasTool(name) }

// Close closes the workbooks kept in memory between calls and removes their
// temporary files. Call it once on shutdown, after the last call returned;
// the Service stays usable, without the cache.
func (s *Service) Close() error { return s.tools.Close() }

// Root returns the real path of the workspace folder.
func (s *Service) Root() string { return s.tools.Root() }

// MaxRenders returns how many render_range calls run LibreOffice at once.
func (s *Service) MaxRenders() int { return s.tools.MaxRenders() }

// RenderIsolation returns how render_range keeps LibreOffice off the
// network: IsolationNetns when soffice runs in a new network namespace,
// else IsolationSettings (see both). The first call probes the platform.
func (s *Service) RenderIsolation() string { return s.tools.RenderIsolation() }

// CacheStats reports how many parsed workbooks the Service keeps in memory
// between calls and the estimated bytes they hold (0, 0 with the cache off).
func (s *Service) CacheStats() (books int, bytes int64) { return s.tools.CacheStats() }

// ReadCacheStats reports how many unchanged workbook files reads remember
// (their sheet index, date styles and shared strings) and the bytes of
// shared strings held for them.
func (s *Service) ReadCacheStats() (files int, bytes int64) { return s.tools.ReadCacheStats() }

// WithLogger sets the logger (default: a logger that discards).
func WithLogger(l logrus.FieldLogger) Option { return tools.WithLogger(l) }

// WithLimits sets the size limits; zero fields keep their defaults (see
// DefaultLimits).
func WithLimits(l Limits) Option { return tools.WithLimits(l) }

// WithTempDir sets the folder under which each call gets a private
// temporary folder for excelize's spill files (default: os.TempDir()).
func WithTempDir(dir string) Option { return tools.WithTempDir(dir) }

// WithCacheBudget sets the estimated memory, in bytes, that parsed
// workbooks kept between calls may take (default DefaultCacheBudget); 0
// disables the cache, so every call parses its workbook again. The shared
// strings that reads remember per unchanged file take at most a further
// eighth of it. The estimate is the unzipped size of a workbook's parts
// times a measured factor; the least recently used workbooks are closed to
// make room.
func WithCacheBudget(bytes int64) Option { return tools.WithCacheBudget(bytes) }

// WithSplice turns the splice path of cell edits on (the default) or off
// (every edit parses the workbook with excelize; for comparisons and as an
// escape hatch).
func WithSplice(on bool) Option { return tools.WithSplice(on) }

// WithSoffice sets the LibreOffice binary render_range runs: a path, or a
// name looked up on PATH (default "soffice").
func WithSoffice(bin string) Option { return tools.WithSoffice(bin) }

// WithMaxRenders sets how many render_range calls run LibreOffice at once
// (default DefaultMaxRenders; n <= 0 keeps the default). Other renders
// wait for a slot within their own deadline.
func WithMaxRenders(n int) Option { return tools.WithMaxRenders(n) }

// WithObserver has obs told about every workbook save (nil: nobody).
func WithObserver(obs Observer) Option { return tools.WithObserver(obs) }

// DefaultMaxRenders is how many render_range calls run LibreOffice at the
// same time unless WithMaxRenders says otherwise: each soffice takes a core
// and a few hundred MB, and a machine runs other calls too.
const DefaultMaxRenders = render.DefaultMaxRenders

// What keeps LibreOffice off the network during render_range. Either way
// the private copy is sanitised first and the LibreOffice profile forbids
// loading linked content.
const (
	// IsolationNetns: soffice runs in a new, empty network namespace (no
	// interface, not even loopback, is up), so it cannot reach any address.
	IsolationNetns = render.IsolationNetns
	// IsolationSettings: this platform refused a network namespace; only
	// the profile settings keep LibreOffice from loading linked content.
	IsolationSettings = render.IsolationSettings
)

// Observer is told about the Service's work (metrics). Its methods must be
// fast and safe for concurrent use.
type Observer = engine.Observer

// PathLegend is the paragraph docs/TOOLS.md puts before the tools: what the
// words of each spreadsheet tool's "Path" line mean.
func PathLegend() string { return access.PathLegend() }
