package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// recorder is an Observer that records what it is told.
type recorder struct {
	mu       sync.Mutex
	started  []string
	finished []string
	codes    []errorsjson.Code
	inFlight int
	maxSeen  int
}

func (r *recorder) CallStarted(tool string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.started = append(r.started, tool)
	r.inFlight++
	r.maxSeen = max(r.maxSeen, r.inFlight)
}

func (r *recorder) CallFinished(tool string, res registry.Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.finished = append(r.finished, tool)
	r.codes = append(r.codes, res.Code)
	r.inFlight--
}

// TestObserver: every call is reported started and finished, with the
// result's code; a name that is not registered is reported as "" so that
// client-made names never become metric labels.
func TestObserver(t *testing.T) {
	rec := &recorder{}
	reg := registry.New(registry.WithObserver(rec))
	require.NoError(t, reg.Register(registry.Tool{Name: "ok", Func: nop}))
	require.NoError(t, reg.Register(registry.Tool{Name: "bad", Func: func(context.Context, json.RawMessage) (any, error) {
		return nil, errors.New("boom")
	}}))
	reg.CallTool(context.Background(), "ok", nil)
	reg.CallTool(context.Background(), "bad", nil)
	reg.CallTool(context.Background(), "made-up-name", nil)
	reg.CallTool(context.Background(), "ok", []byte(`[]`))
	reg.Fork().CallTool(context.Background(), "ok", nil) // forks keep the observer

	assert.Equal(t, []string{"ok", "bad", "", "ok", "ok"}, rec.started)
	assert.Equal(t, rec.started, rec.finished)
	assert.Equal(t, []errorsjson.Code{"", errorsjson.CodeExecution, errorsjson.CodeNotFound, errorsjson.CodeArgumentValidation, ""}, rec.codes)
	assert.Zero(t, rec.inFlight)
}
