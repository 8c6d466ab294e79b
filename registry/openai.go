package registry

import (
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// SchemaMode selects the OpenAI tool-schema layout.
type SchemaMode string

// The two layouts excelmanus emits.
const (
	ModeResponses       SchemaMode = "responses"
	ModeChatCompletions SchemaMode = "chat_completions"
)

// OpenAISchemas returns one OpenAI tool schema per registered tool, in
// registration order, restricted to scope when scope is non-nil. With
// Strict, each is in OpenAI strict mode (see StrictSchema). An unknown mode
// is an error wrapping errorsjson.ErrInvalidArgument.
func (r *Registry) OpenAISchemas(mode SchemaMode, scope []string, opts ...SchemaOption) ([]pyjson.Object, error) {
	var sc schemaConfig
	for _, o := range opts {
		o(&sc)
	}
	if mode != ModeResponses && mode != ModeChatCompletions {
		return nil, fmt.Errorf("unsupported OpenAI schema mode %q: %w", string(mode), errorsjson.ErrInvalidArgument)
	}
	var allowed map[string]bool
	if scope != nil {
		allowed = make(map[string]bool, len(scope))
		for _, n := range scope {
			allowed[n] = true
		}
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]pyjson.Object, 0, len(r.order))
	for _, name := range r.order {
		if allowed != nil && !allowed[name] {
			continue
		}
		e := r.tools[name]
		fn := pyjson.Object{
			{Key: "name", Value: e.tool.Name},
			{Key: "description", Value: e.tool.Description},
			{Key: "parameters", Value: e.params},
		}
		if sc.strict {
			fn[2].Value = e.strict
			fn = append(fn, pyjson.Field{Key: "strict", Value: true})
		}
		if mode == ModeResponses {
			out = append(out, append(pyjson.Object{{Key: "type", Value: "function"}}, fn...))
		} else {
			out = append(out, pyjson.Object{{Key: "type", Value: "function"}, {Key: "function", Value: fn}})
		}
	}
	return out, nil
}
