package tools

import (
	"context"
	"runtime"
	"sync"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
)

// searchMany scans search_excel_values' further workbooks (file_paths)
// into found, as many at once as there are processors: each through the
// entry point under its own shared lock, each sheet streamed, so memory
// grows with the number of scans at once, not with the workbooks' size.
// It returns the first failure in file order, as a scan one after the
// other would: a failure stops the scans of the workbooks after it only.
func (s *Service) searchMany(ctx context.Context, st *searchState, found []bookHits) error {
	if len(found) == 0 {
		return nil
	}
	g := &fileScans{failed: len(found), errs: make([]error, len(found)), stops: make([]context.CancelFunc, len(found))}
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(found)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fctx, ok := g.start(ctx, i)
				if !ok {
					continue
				}
				p := st.a.FilePaths[i]
				_, err := s.engine.Run(fctx, searchAccess(), engine.OnBook(p, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
					return nil, st.searchBook(fctx, b, p, &found[i])
				}))
				g.end(i, err)
			}
		}()
	}
	for i := range found {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range g.errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}

// fileScans tracks searchMany's scans: the first failed index and a stop
// for each running scan.
type fileScans struct {
	mu     sync.Mutex
	failed int // the lowest index that failed (len: none)
	errs   []error
	stops  []context.CancelFunc
}

// start gives scan i its context, or false when a scan before it failed.
func (g *fileScans) start(ctx context.Context, i int) (context.Context, bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if i > g.failed || ctx.Err() != nil {
		return nil, false
	}
	fctx, stop := context.WithCancel(ctx)
	g.stops[i] = stop
	return fctx, true
}

// end records scan i's outcome; a failure stops the scans after it, whose
// own outcome (a cancellation) is then dropped.
func (g *fileScans) end(i int, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stops[i]()
	if i > g.failed {
		return
	}
	g.errs[i] = err
	if err == nil {
		return
	}
	g.failed = i
	for j := i + 1; j < len(g.stops); j++ {
		g.errs[j] = nil
		if g.stops[j] != nil {
			g.stops[j]()
		}
	}
}
