package tools

import (
	"context"
	"runtime"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// inspected is one file's inspection (see inspectFile).
type inspected struct {
	entry pyjson.Object
	keep  bool
	err   error
}

// inspectAhead inspects found[from:] in order on as many goroutines as
// there are processors, a few files ahead of the reader: next(i) waits for
// file i's inspection, for i rising from from. stop ends the inspections
// still running; the files read ahead and not asked for are dropped. When
// ctx ends, every file not yet started answers ctx's error, so next never
// waits for a file that will not be inspected.
func (s *Service) inspectAhead(ctx context.Context, found []foundWorkbook, from int, o inspectOptions) (next func(i int) inspected, stop func()) {
	ctx, stop = context.WithCancel(ctx)
	workers := runtime.GOMAXPROCS(0)
	ahead := make(chan struct{}, 2*workers) // files started and not yet read
	running := make(chan struct{}, workers)
	out := make([]chan inspected, len(found))
	for i := from; i < len(found); i++ {
		out[i] = make(chan inspected, 1)
	}
	go func() {
		for i := from; i < len(found); i++ {
			if !acquire(ctx, ahead) || !acquire(ctx, running) {
				for j := i; j < len(found); j++ {
					out[j] <- inspected{err: context.Cause(ctx)}
				}
				return
			}
			go func() {
				defer func() { <-running }()
				entry, keep, err := s.inspectFile(ctx, found[i], o)
				out[i] <- inspected{entry, keep, err}
			}()
		}
	}()
	next = func(i int) inspected {
		r := <-out[i]
		select {
		case <-ahead:
		default: // a file answered for without being started
		}
		return r
	}
	return next, stop
}

// acquire takes a slot of sem, or reports false once ctx ends.
func acquire(ctx context.Context, sem chan struct{}) bool {
	select {
	case sem <- struct{}{}:
		return true
	case <-ctx.Done():
		return false
	}
}
