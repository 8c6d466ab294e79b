package render

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// TestSlotWaitEndsBeforeTheDeadline: with the only slot taken, a render
// whose deadline is near gets a TimeoutError saying why, before the
// deadline; a cancelled one gets its context's error; a freed slot is
// taken at once.
func TestSlotWaitEndsBeforeTheDeadline(t *testing.T) {
	lo := New(Config{MaxRenders: 1, TmpBase: t.TempDir()})
	assert.Equal(t, 1, lo.MaxRenders())
	release, err := lo.Acquire(context.Background())
	require.NoError(t, err)

	ctx, cancel := context.WithTimeout(context.Background(), SlotMargin+300*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = lo.Acquire(ctx)
	require.Error(t, err)
	assert.Less(t, time.Since(start), SlotMargin, "gave up before the deadline")
	assert.Equal(t, failure.KindTimeout, failure.KindOf(err))
	var ke *failure.Error
	require.ErrorAs(t, err, &ke)
	assert.Equal(t, "TimeoutError", ke.PythonException())
	assert.Contains(t, err.Error(), "all 1 render slots (--max-renders) stayed busy")

	gone, stop := context.WithCancel(context.Background())
	stop()
	_, err = lo.Acquire(gone)
	assert.ErrorIs(t, err, context.Canceled)

	release()
	again, err := lo.Acquire(ctx)
	require.NoError(t, err)
	again()
}

// TestMaxRendersDefault: no cap given is DefaultMaxRenders.
func TestMaxRendersDefault(t *testing.T) {
	for _, n := range []int{0, -1} {
		assert.Equal(t, DefaultMaxRenders, New(Config{MaxRenders: n}).MaxRenders())
	}
}
