package registry

import (
	"time"

	"github.com/sirupsen/logrus"
)

// Defaults of a new Registry.
const (
	// DefaultTimeout is the per-call deadline of a tool without its own.
	DefaultTimeout = 60 * time.Second
	// DefaultMaxTimeout caps any per-call deadline, including a caller's.
	DefaultMaxTimeout = 10 * time.Minute
	// DefaultMaxResultChars is excelmanus's ToolDef.max_result_chars.
	DefaultMaxResultChars = 3000
)

// Option configures a Registry.
type Option func(*config)

type config struct {
	log            logrus.FieldLogger
	defaultTimeout time.Duration
	callTimeout    time.Duration
	maxTimeout     time.Duration
	maxResultChars int
	profile        Profile
	observer       Observer
}

// WithLogger sets the logger; the default discards logs.
func WithLogger(l logrus.FieldLogger) Option { return func(c *config) { c.log = l } }

// WithDefaultTimeout sets the deadline of tools without their own.
func WithDefaultTimeout(d time.Duration) Option { return func(c *config) { c.defaultTimeout = d } }

// WithCallTimeout sets the operator's per-call deadline for every tool: it
// replaces each tool's own default (Tool.Timeout), which is only a default.
// A caller's WithTimeout still overrides it for one call; WithMaxTimeout
// caps both. Zero keeps the tools' own defaults.
func WithCallTimeout(d time.Duration) Option { return func(c *config) { c.callTimeout = d } }

// WithMaxTimeout caps every per-call deadline (the server maximum).
func WithMaxTimeout(d time.Duration) Option { return func(c *config) { c.maxTimeout = d } }

// WithMaxResultChars sets the default result cap in code points; a negative
// value disables truncation.
func WithMaxResultChars(n int) Option { return func(c *config) { c.maxResultChars = n } }

// WithProfile sets the message profile of every call that does not choose
// its own (WithCallProfile); the default is DefaultProfile (excelmanus).
// An unknown profile is treated as the default; check names with
// ParseProfile.
func WithProfile(p Profile) Option { return func(c *config) { c.profile = p } }

// CallOption configures one CallTool.
type CallOption func(*callConfig)

type callConfig struct {
	scope    []string
	hasScope bool
	timeout  time.Duration
	progress ProgressFunc
	profile  Profile
	// nullAsOmitted: drop null arguments the schema does not accept
	// (WithNullAsOmitted).
	nullAsOmitted bool
}

// WithScope restricts the call to the named tools (excelmanus tool_scope).
// A nil scope means no restriction; an empty non-nil scope allows nothing.
func WithScope(names []string) CallOption {
	return func(c *callConfig) { c.scope, c.hasScope = names, names != nil }
}

// WithTimeout overrides the tool's deadline for this call, capped by the
// registry maximum.
func WithTimeout(d time.Duration) CallOption { return func(c *callConfig) { c.timeout = d } }

// WithNullAsOmitted treats an argument whose value is null as omitted when
// the tool's schema neither requires it nor accepts null (in nested objects
// too): what an OpenAI strict-mode model (OpenAISchemas with Strict) sends
// for an argument it leaves out. The call is then checked against the
// tool's own schema as usual.
func WithNullAsOmitted() CallOption { return func(c *callConfig) { c.nullAsOmitted = true } }

// WithProgress receives the tool's progress reports.
func WithProgress(f ProgressFunc) CallOption { return func(c *callConfig) { c.progress = f } }

// WithCallProfile words this call's own texts (validation, not-found,
// not-allowed, truncation notes) in profile p instead of the registry's;
// the empty profile keeps the registry's. A server sets it per connection.
func WithCallProfile(p Profile) CallOption { return func(c *callConfig) { c.profile = p } }

// profile is the call's message profile.
func (r *Registry) profile(cc *callConfig) Profile {
	if cc.profile != "" {
		return cc.profile
	}
	if r.cfg.profile != "" {
		return r.cfg.profile
	}
	return DefaultProfile
}

// Profile is the registry's message profile (WithProfile, else the default).
func (r *Registry) Profile() Profile { return r.profile(&callConfig{}) }
