package excelops

import (
	"context"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
	"sort"
	"sync"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/filelock"
)

// pathLocks hands out one RWMutex per resolved path: one writer per file at
// a time, readers never see a workbook that a writer is replacing. Entries
// are reference-counted and dropped when the last holder leaves.
type pathLocks struct {
	mu    sync.Mutex
	locks map[string]*pathLock
}

// pathLock is one path's mutex and how many callers hold or wait for it.
type pathLock struct {
	rw   sync.RWMutex
	refs int
}

// newPathLocks returns an empty lock table.
func newPathLocks() *pathLocks { return &pathLocks{locks: map[string]*pathLock{}} }

// acquire takes the lock of path: exclusive when write, shared otherwise.
func (p *pathLocks) acquire(path string, write bool) *pathLock {
	p.mu.Lock()
	l, ok := p.locks[path]
	if !ok {
		l = &pathLock{}
		p.locks[path] = l
	}
	l.refs++
	p.mu.Unlock()
	if write {
		l.rw.Lock()
	} else {
		l.rw.RLock()
	}
	return l
}

// release gives back a lock taken with acquire.
func (p *pathLocks) release(path string, l *pathLock, write bool) {
	if write {
		l.rw.Unlock()
	} else {
		l.rw.RUnlock()
	}
	p.mu.Lock()
	l.refs--
	if l.refs == 0 {
		delete(p.locks, path)
	}
	p.mu.Unlock()
}

// lockSpec is one path to lock and how.
type lockSpec struct {
	path  string
	write bool // exclusive within this process
	// replace: the call will replace the file, so it also takes the
	// cross-process lock (filelock) for its whole read-modify-replace.
	replace bool
}

// lockAll takes several path locks in a fixed (sorted) order so two calls
// locking the same pair never deadlock; a path listed twice is locked once,
// exclusively if any listing asks for it. Paths to be replaced also get
// their cross-process lock (in the file's folder, through the workspace
// handle box), after the in-process one (so one process waits
// on the file lock with one goroutine at most per path). It returns the
// release function, or an error (nothing held) when ctx ended while waiting
// for another process or the lock file cannot be used.
func (p *pathLocks) lockAll(ctx context.Context, box *workspace.Root, specs ...lockSpec) (func(), error) {
	merged := map[string]lockSpec{}
	for _, s := range specs {
		m := merged[s.path]
		m.path, m.write, m.replace = s.path, m.write || s.write || s.replace, m.replace || s.replace
		merged[s.path] = m
	}
	paths := make([]string, 0, len(merged))
	for k := range merged {
		paths = append(paths, k)
	}
	sort.Strings(paths)
	var held []*pathLock
	var files []*filelock.Lock
	release := func() {
		for _, f := range files {
			_ = f.Release()
		}
		for i := len(held) - 1; i >= 0; i-- {
			p.release(paths[i], held[i], merged[paths[i]].write)
		}
	}
	for _, path := range paths {
		held = append(held, p.acquire(path, merged[path].write))
	}
	for _, path := range paths {
		if !merged[path].replace {
			continue
		}
		fl, err := box.Lock(ctx, path)
		if err != nil {
			release()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, newError(KindIO, "cannot lock the workbook against other processes: "+err.Error(), err)
		}
		files = append(files, fl)
	}
	return release, nil
}

// count reports how many paths currently have a lock entry (for tests).
func (p *pathLocks) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.locks)
}
