package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sirupsen/logrus"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// ErrDuplicate is returned by Register for a name already registered.
var ErrDuplicate = errors.New("tool already registered")

// ErrInvalidTool is returned by Register for a tool without a name or
// function, or with a schema that does not compile.
var ErrInvalidTool = errors.New("invalid tool")

// entry is a registered tool with its compiled schema and the field lists
// the validation payload quotes.
type entry struct {
	tool     Tool
	schema   *jsonschema.Schema
	doc      any         // the schema as the validator decoded it, for wording violations
	fast     *fastSchema // nil when the schema is outside the fast subset
	params   any         // the schema, decoded in key order, for OpenAI schemas
	strict   any         // params in OpenAI strict mode (StrictSchema)
	required []string
	accepted []string
}

// Registry holds tools and calls them. It is safe for concurrent use.
type Registry struct {
	cfg   config
	mu    sync.RWMutex
	order []string
	tools map[string]*entry
}

// New returns an empty Registry.
func New(opts ...Option) *Registry {
	cfg := config{
		defaultTimeout: DefaultTimeout,
		maxTimeout:     DefaultMaxTimeout,
		maxResultChars: DefaultMaxResultChars,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.log == nil {
		l := logrus.New()
		l.Out = discard{}
		cfg.log = l
	}
	return &Registry{cfg: cfg, tools: map[string]*entry{}}
}

// discard is the io.Writer of the default logger: logs go nowhere.
type discard struct{}

// Write drops p.
func (discard) Write(p []byte) (int, error) { return len(p), nil }

// Register adds t. It refuses a duplicate name, a tool without a name or
// function, and a schema that does not compile; it is the only method that
// returns a Go error.
func (r *Registry) Register(t Tool) error {
	if t.Name == "" || t.Func == nil {
		return fmt.Errorf("register %q: %w: name and Func are required", t.Name, ErrInvalidTool)
	}
	e, err := compileEntry(t)
	if err != nil {
		return fmt.Errorf("register %q: %w: %w", t.Name, ErrInvalidTool, err)
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.tools[t.Name]; dup {
		return fmt.Errorf("register %q: %w", t.Name, ErrDuplicate)
	}
	r.tools[t.Name] = e
	r.order = append(r.order, t.Name)
	return nil
}

func compileEntry(t Tool) (*entry, error) {
	raw := t.InputSchema
	if len(bytes.TrimSpace(raw)) == 0 {
		raw = json.RawMessage(`{"type": "object"}`)
		t.InputSchema = raw
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("schema is not JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	const url = "tool.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	sch, err := c.Compile(url)
	if err != nil {
		return nil, err
	}
	params, err := pyjson.DecodeOrdered(raw)
	if err != nil {
		return nil, err
	}
	e := &entry{tool: t, schema: sch, doc: doc, params: params, strict: StrictSchema(params), fast: compileFast(doc)}
	if m, ok := doc.(map[string]any); ok {
		if props, ok := m["properties"].(map[string]any); ok {
			for k := range props {
				e.accepted = append(e.accepted, k)
			}
			sort.Strings(e.accepted)
		}
		if req, ok := m["required"].([]any); ok {
			for _, v := range req {
				if s, ok := v.(string); ok {
					e.required = append(e.required, s)
				}
			}
		}
	}
	return e, nil
}

// Tools returns the registered tools in registration order.
func (r *Registry) Tools() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Tool, 0, len(r.order))
	for _, n := range r.order {
		out = append(out, r.tools[n].tool)
	}
	return out
}

// Tool returns the tool registered under name.
func (r *Registry) Tool(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.tools[name]
	if !ok {
		return Tool{}, false
	}
	return e.tool, true
}

// Fork returns a per-session overlay: a new Registry with the same tools
// and options; tools registered on either side afterwards stay on that side.
func (r *Registry) Fork() *Registry {
	r.mu.RLock()
	defer r.mu.RUnlock()
	child := &Registry{cfg: r.cfg, tools: make(map[string]*entry, len(r.tools))}
	child.order = append(child.order, r.order...)
	for k, v := range r.tools {
		child.tools[k] = v
	}
	return child
}

func (r *Registry) lookup(name string) (*entry, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.tools[name]
	return e, ok
}
