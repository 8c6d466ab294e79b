package excelops

import (
	"context"
	"fmt"
	"time"
)

// How many LibreOffice renders run at once.
const (
	// DefaultMaxRenders is how many render_range calls run LibreOffice at
	// the same time unless WithMaxRenders says otherwise: each soffice
	// takes a core and a few hundred MB (about 570 MB measured on a small
	// workbook), and a machine runs other calls too.
	DefaultMaxRenders = 2
	// renderSlotMargin is how long before the call's deadline a render
	// stops waiting for a slot: LibreOffice needs a few seconds even for a
	// tiny range, so a later start would only be killed by the deadline,
	// and the caller gets a message that says why instead of a bare
	// timeout.
	renderSlotMargin = 2 * time.Second
)

// WithMaxRenders sets how many render_range calls run LibreOffice at once
// (default DefaultMaxRenders; n <= 0 keeps the default). Other renders
// wait for a slot within their own deadline.
func WithMaxRenders(n int) Option { return func(s *Service) { s.maxRenders = n } }

// MaxRenders returns how many render_range calls run LibreOffice at once.
func (s *Service) MaxRenders() int { return cap(s.renderSlots) }

// acquireRender waits for one of the LibreOffice slots: until one is
// free, ctx ends (its error is returned) or the call's deadline is
// renderSlotMargin away (a TimeoutError saying the renders were busy). The
// caller calls the returned release once LibreOffice has exited.
func (s *Service) acquireRender(ctx context.Context) (release func(), err error) {
	release = func() { <-s.renderSlots }
	select {
	case s.renderSlots <- struct{}{}:
		return release, nil
	default:
	}
	start := time.Now()
	wait := ctx
	if deadline, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		wait, cancel = context.WithDeadline(ctx, deadline.Add(-renderSlotMargin))
		defer cancel()
	}
	select {
	case s.renderSlots <- struct{}{}:
		return release, nil
	case <-wait.Done():
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, newError(KindTimeout, fmt.Sprintf("render_range waited %s for LibreOffice: all %d render slots (--max-renders) stayed busy until the call's time ran out; try again later", time.Since(start).Round(100*time.Millisecond), s.MaxRenders()), wait.Err())
	}
}
