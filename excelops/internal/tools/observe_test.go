package tools

import (
	"errors"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// saveCounter is an Observer that counts saves and failed saves.
type saveCounter struct {
	mu           sync.Mutex
	saved, fails int
}

func (c *saveCounter) WorkbookSaved(err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		c.fails++
		return
	}
	c.saved++
}

func (c *saveCounter) counts() (int, int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.saved, c.fails
}

// TestObserverSeesSaves: every successful save and every failed save is
// reported once; reads report nothing.
func TestObserverSeesSaves(t *testing.T) {
	obs := &saveCounter{}
	e := newEnv(t, WithObserver(obs))
	e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "A1", "value": 1, "create": true})
	e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "A2", "value": 2})
	e.ok("read_excel", map[string]any{"file_path": "a.xlsx"})
	saved, fails := obs.counts()
	assert.Equal(t, 2, saved)
	assert.Equal(t, 0, fails)

	e.svc.engine.WrapSave = func(w io.Writer) io.Writer { return &failingWriter{w: w, budget: 10, err: errors.New("disk full")} }
	e.fail("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "A3", "value": 3})
	saved, fails = obs.counts()
	assert.Equal(t, 2, saved)
	assert.Equal(t, 1, fails)

	books, bytes := e.svc.CacheStats()
	assert.Equal(t, 0, books, "a failed save drops the cached workbook")
	assert.Zero(t, bytes)
}

// TestToolAnnotations: every tool declares its access; reading tools are
// read-only, and tools that delete or overwrite are destructive.
func TestToolAnnotations(t *testing.T) {
	e := newEnv(t)
	for _, tool := range e.reg.Tools() {
		a := tool.Annotations
		require.NotNil(t, a, "%s declares nothing", tool.Name)
		if want, ok := accessByName()[tool.Name]; ok {
			got := registry.Annotations{ReadOnly: a.ReadOnly, Destructive: a.Destructive}
			assert.Equal(t, want, got, "%s: its name's prefix does not say what it does", tool.Name)
			continue
		}
		switch {
		case strings.HasPrefix(tool.Name, "read_") || tool.Name == "list_sheets":
			assert.True(t, a.ReadOnly, tool.Name)
		case strings.HasPrefix(tool.Name, "delete_") || strings.HasPrefix(tool.Name, "write_") || strings.HasPrefix(tool.Name, "copy_") ||
			tool.Name == "add_comment": // replaces or removes a cell's note
			assert.False(t, a.ReadOnly, tool.Name)
			assert.True(t, a.Destructive, tool.Name)
		case strings.HasPrefix(tool.Name, "insert_") || strings.HasPrefix(tool.Name, "create_") || strings.HasPrefix(tool.Name, "add_"):
			assert.False(t, a.ReadOnly, tool.Name)
			assert.False(t, a.Destructive, "%s only adds", tool.Name)
		default:
			assert.False(t, a.ReadOnly, tool.Name)
		}
	}
}
