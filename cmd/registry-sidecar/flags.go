package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/registry-sidecar/registry-sidecar/excelops"
	"github.com/registry-sidecar/registry-sidecar/metrics"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
	"github.com/registry-sidecar/registry-sidecar/testtools"
)

// envPrefix starts the environment variable of every flag:
// --max-call-timeout is REGISTRY_SIDECAR_MAX_CALL_TIMEOUT.
const envPrefix = "REGISTRY_SIDECAR_"

// Defaults of the flags.
const (
	defaultListen    = "127.0.0.1:8765"
	defaultWorkspace = "./workspace"
	// defaultGrace is how long SIGTERM waits for in-flight calls.
	defaultGrace = 10 * time.Second
)

// options are every flag's value; each subcommand defines the ones it uses.
type options struct {
	listen         string
	mcpListen      string
	workspace      string
	token          string
	tokenFile      string
	testTools      bool
	callTimeout    time.Duration
	maxCallTimeout time.Duration
	maxResultChars int
	messageProfile string
	concurrency    int
	maxConnections int
	readLimit      int64
	queue          int
	writeTimeout   time.Duration
	grace          time.Duration
	allowOrigins   string
	logLevel       string
	format         string
	scope          string
	showVersion    bool
	splice         bool
	soffice        string
	maxRenders     positiveInt
	limits         sheetLimits
}

func (o *options) registryFlags(fs *flag.FlagSet) {
	fs.StringVar(&o.workspace, "workspace", defaultWorkspace, "folder the spreadsheet tools work in (created if missing)")
	fs.BoolVar(&o.testTools, "test-tools", false, "also register the test tools (echo, add, sleep, slow, fail, panic, fallback, big, env_error)")
	fs.DurationVar(&o.callTimeout, "call-timeout", 0, "per-call deadline of every tool (a client's _meta.timeoutMs overrides it for one call); 0: each tool's own default (spreadsheet reads 2m, edits 5m, others 1m)")
	fs.DurationVar(&o.maxCallTimeout, "max-call-timeout", registry.DefaultMaxTimeout, "cap on every per-call deadline, including a client's _meta.timeoutMs")
	fs.IntVar(&o.maxResultChars, "max-result-chars", registry.DefaultMaxResultChars, "default cap on a result's length in code points (negative: no cap)")
	fs.StringVar(&o.messageProfile, "message-profile", string(registry.DefaultProfile), "wording of the texts the registry writes itself (validation, not-found, not-allowed, truncation notes): excelmanus (excelmanus's exact Chinese texts) or en (English); a WebSocket client may choose its own in initialize")
	fs.StringVar(&o.logLevel, "log-level", "info", "log level: debug, info, warn, error")
	fs.BoolVar(&o.splice, "splice", true, "cell edits (write_cells, format_cells, adjust_column_width) of existing sheets stream the sheet XML instead of parsing the workbook; false sends them through excelize (for comparisons)")
	fs.StringVar(&o.soffice, "soffice", "soffice", "LibreOffice binary render_range runs: a path, or a name looked up on PATH")
	o.maxRenders = positiveInt(excelops.DefaultMaxRenders)
	fs.Var(&o.maxRenders, "max-renders", "most render_range calls running LibreOffice at once (each takes a core and a few hundred MB); others wait for a slot within their deadline")
	o.limits.limitFlags(fs)
}

func (o *options) serveFlags(fs *flag.FlagSet) {
	o.registryFlags(fs)
	fs.StringVar(&o.listen, "listen", defaultListen, "address to listen on (host:port); a non-loopback address requires a token")
	fs.StringVar(&o.mcpListen, "mcp-listen", "", "also serve MCP streamable HTTP at /mcp, on this address (host:port; the --listen address itself is allowed)")
	o.tokenFlags(fs)
	fs.IntVar(&o.concurrency, "concurrency", server.DefaultMaxConcurrentCalls, "calls running at once per connection")
	fs.IntVar(&o.maxConnections, "max-connections", server.DefaultMaxConnections, "simultaneous WebSocket connections")
	fs.Int64Var(&o.readLimit, "read-limit", server.DefaultReadLimit, "largest inbound frame in bytes (bigger: close 1009)")
	fs.IntVar(&o.queue, "queue", server.DefaultOutboundQueue, "outbound messages queued per connection")
	fs.DurationVar(&o.writeTimeout, "write-timeout", server.DefaultWriteTimeout, "longest frame write or wait for queue room before a client is dropped (close 1008)")
	fs.DurationVar(&o.grace, "grace", defaultGrace, "on SIGTERM, how long in-flight calls may take to finish")
	fs.StringVar(&o.allowOrigins, "allow-origin", "", "comma-separated browser Origins to accept besides same-host and loopback (requires a token)")
	fs.BoolVar(&o.showVersion, "version", false, "print the version and exit")
}

// parse defines nothing itself: it applies REGISTRY_SIDECAR_<FLAG> env
// vars as defaults, then parses args (flags win over env). --help prints
// the usage on stdout and returns flag.ErrHelp (the caller exits 0); a
// usage mistake is returned (the caller prints it on stderr, exit 2).
func parse(fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	// The flag package would print errors and usage itself: errors are
	// returned instead, the usage goes to stdout when asked for.
	fs.SetOutput(io.Discard)
	defer fs.SetOutput(stderr)
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		if f.Name == "version" {
			return // an environment variable must not turn the server into --version
		}
		name := envName(f.Name)
		f.Usage += " [$" + name + "]"
		if v, ok := os.LookupEnv(name); ok && envErr == nil {
			if err := fs.Set(f.Name, v); err != nil {
				envErr = fmt.Errorf("%w: $%s: %w", errUsage, name, err)
			}
		}
	})
	if envErr != nil {
		return envErr
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fs.SetOutput(stdout)
			fs.Usage()
			return err
		}
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	return nil
}

func envName(flagName string) string {
	return envPrefix + strings.ToUpper(strings.ReplaceAll(flagName, "-", "_"))
}

func (o *options) logger(stderr io.Writer) (*logrus.Logger, error) {
	lvl, err := logrus.ParseLevel(o.logLevel)
	if err != nil {
		return nil, fmt.Errorf("%w: --log-level: %w", errUsage, err)
	}
	l := logrus.New()
	l.Out = stderr
	l.Formatter = &logrus.JSONFormatter{}
	l.Level = lvl
	return l, nil
}

// buildRegistry makes the workspace and registers every tool, or with only
// just those spreadsheet tools (unless one of them is unknown, which is then
// answered as usual); m, when not nil, observes the calls and the saves. The caller passes the returned
// service to closeService once no call runs any more.
func (o *options) buildRegistry(log logrus.FieldLogger, m *metrics.Metrics, only ...string) (*registry.Registry, *excelops.Service, error) {
	profile := registry.DefaultProfile
	if o.messageProfile != "" {
		p, err := registry.ParseProfile(o.messageProfile)
		if err != nil {
			return nil, nil, fmt.Errorf("%w: --message-profile: %w", errUsage, err)
		}
		profile = p
	}
	if err := os.MkdirAll(o.workspace, 0o755); err != nil {
		return nil, nil, fmt.Errorf("workspace: %w", err)
	}
	excelOpts := append([]excelops.Option{excelops.WithLogger(log), excelops.WithSplice(o.splice), excelops.WithSoffice(o.soffice), excelops.WithMaxRenders(int(o.maxRenders))}, o.limits.excelopsOptions()...)
	var obs registry.Observer
	if m != nil {
		obs = m
		excelOpts = append(excelOpts, excelops.WithObserver(m))
	}
	reg := registry.New(
		registry.WithObserver(obs),
		registry.WithProfile(profile),
		registry.WithLogger(log),
		registry.WithCallTimeout(o.callTimeout),
		registry.WithMaxTimeout(o.maxCallTimeout),
		registry.WithMaxResultChars(o.maxResultChars),
	)
	svc, err := excelops.New(o.workspace, excelOpts...)
	if err != nil {
		return nil, nil, fmt.Errorf("spreadsheet tools: %w", err)
	}
	if o.testTools || !allSpreadsheetTools(svc, only) {
		only = nil // a name that is no spreadsheet tool is answered with every tool known
	}
	if err := svc.Register(reg, only...); err != nil {
		closeService(svc, log)
		return nil, nil, fmt.Errorf("spreadsheet tools: %w", err)
	}
	if o.testTools {
		if err := testtools.Register(reg); err != nil {
			closeService(svc, log)
			return nil, nil, err
		}
	}
	return reg, svc, nil
}

// closeService releases what the spreadsheet tools hold (workbooks cached
// between calls and their temporary files); call it once no call runs any
// more. A failure is logged, not returned: every call has already saved its
// work.
func closeService(svc *excelops.Service, log logrus.FieldLogger) {
	if err := svc.Close(); err != nil {
		log.WithError(err).Warn("closing the spreadsheet tools failed")
	}
}

// allSpreadsheetTools reports whether every name is a spreadsheet tool.
func allSpreadsheetTools(svc *excelops.Service, names []string) bool {
	for _, n := range names {
		if !svc.HasTool(n) {
			return false
		}
	}
	return true
}
