package render

import (
	"context"
	"fmt"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// SlotMargin is how long before the call's deadline a render stops waiting
// for a slot: LibreOffice needs a few seconds even for a tiny range, so a
// later start would only be killed by the deadline, and the caller gets a
// message that says why instead of a bare timeout.
const SlotMargin = 2 * time.Second

// MaxRenders returns how many renders run LibreOffice at once.
func (l *LibreOffice) MaxRenders() int { return cap(l.slots) }

// Acquire waits for one of the LibreOffice slots: until one is
// free, ctx ends (its error is returned) or the call's deadline is
// SlotMargin away (a TimeoutError saying the renders were busy). The
// caller calls the returned release once LibreOffice has exited.
func (l *LibreOffice) Acquire(ctx context.Context) (release func(), err error) {
	release = func() { <-l.slots }
	select {
	case l.slots <- struct{}{}:
		return release, nil
	default:
	}
	start := time.Now()
	wait := ctx
	if deadline, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		wait, cancel = context.WithDeadline(ctx, deadline.Add(-SlotMargin))
		defer cancel()
	}
	select {
	case l.slots <- struct{}{}:
		return release, nil
	case <-wait.Done():
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, failure.New(failure.KindTimeout, fmt.Sprintf("render_range waited %s for LibreOffice: all %d render slots (--max-renders) stayed busy until the call's time ran out; try again later", time.Since(start).Round(100*time.Millisecond), l.MaxRenders()), wait.Err())
	}
}
