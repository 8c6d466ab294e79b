package tools

import (
	"context"
	"sync"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// envRegistry is an env's registry of the Service's tools. Deriving and
// compiling every tool's schema takes about half a second (seconds under
// -race), and most tests call two or three tools, so an env built without a
// list of tools registers each tool the first time it is called, and every
// tool, in the Service's order, once a test reads the whole list (Tools,
// OpenAISchemas) or calls a name the Service does not have (the registry's
// answer then weighs every tool's name). A call answers the same either way:
// a tool's registration reads nothing but its spec.
type envRegistry struct {
	t    *testing.T
	svc  *Service
	opts []registry.Option

	mu   sync.Mutex
	reg  *registry.Registry
	lazy bool // some tools of svc are not registered yet
}

// newEnvRegistry registers the tools named in tools on a new registry; with
// none named it registers them as the calls ask for them.
func newEnvRegistry(t *testing.T, svc *Service, tools []string, opts ...registry.Option) (*envRegistry, error) {
	r := &envRegistry{t: t, svc: svc, opts: opts, reg: registry.New(opts...), lazy: len(tools) == 0}
	if r.lazy {
		return r, nil
	}
	return r, svc.Register(r.reg, tools...)
}

// forCall is the registry to call name on, name registered first when it is
// one of the Service's tools and every tool when it is not.
func (r *envRegistry) forCall(name string) *registry.Registry {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.lazy {
		return r.reg
	}
	if _, ok := r.reg.Tool(name); ok {
		return r.reg
	}
	if !r.svc.HasTool(name) {
		return r.registerAll()
	}
	if err := r.svc.Register(r.reg, name); err != nil {
		r.t.Errorf("register %s: %v", name, err)
	}
	return r.reg
}

// full is the registry with every tool, registered in the Service's order.
func (r *envRegistry) full() *registry.Registry {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.lazy {
		return r.registerAll()
	}
	return r.reg
}

// registerAll replaces a lazy registry by one holding every tool in the
// Service's order (a registry lists its tools in the order they came), with
// r.mu held.
func (r *envRegistry) registerAll() *registry.Registry {
	reg := registry.New(r.opts...)
	if err := r.svc.Register(reg); err != nil {
		r.t.Errorf("register every tool: %v", err)
	}
	r.reg, r.lazy = reg, false
	return reg
}

// CallTool is registry.Registry.CallTool, name registered first if need be.
func (r *envRegistry) CallTool(ctx context.Context, name string, args []byte, opts ...registry.CallOption) registry.Result {
	return r.forCall(name).CallTool(ctx, name, args, opts...)
}

// Tools is registry.Registry.Tools over every tool.
func (r *envRegistry) Tools() []registry.Tool { return r.full().Tools() }

// OpenAISchemas is registry.Registry.OpenAISchemas over every tool.
func (r *envRegistry) OpenAISchemas(mode registry.SchemaMode, scope []string, opts ...registry.SchemaOption) ([]pyjson.Object, error) {
	return r.full().OpenAISchemas(mode, scope, opts...)
}

// TestEnvRegistryListsWhatAnEagerOneLists: an env whose calls registered
// some tools first still lists every tool, in the Service's order, with the
// schemas an eager registration gives.
func TestEnvRegistryListsWhatAnEagerOneLists(t *testing.T) {
	e := newEnv(t)
	e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "A1", "value": 1, "create": true})
	e.ok("read_excel", map[string]any{"file_path": "a.xlsx"})
	eager := registry.New(registry.WithMaxResultChars(-1))
	require.NoError(t, e.svc.Register(eager))
	names := func(tools []registry.Tool) []string {
		out := make([]string, len(tools))
		for i, tool := range tools {
			out[i] = tool.Name
		}
		return out
	}
	assert.Equal(t, names(eager.Tools()), names(e.reg.Tools()))
	want, err := eager.OpenAISchemas(registry.ModeChatCompletions, nil)
	require.NoError(t, err)
	got, err := e.reg.OpenAISchemas(registry.ModeChatCompletions, nil)
	require.NoError(t, err)
	assert.Equal(t, want, got)
	res := e.call("read_exce", map[string]any{"file_path": "a.xlsx"})
	assert.True(t, res.IsError, res.Text)
	assert.Equal(t, eager.CallTool(t.Context(), "read_exce", []byte(`{"file_path": "a.xlsx"}`)).Text, res.Text, "an unknown name is answered as by the eager registry")
}
