package excelops

import (
	"sort"
	"sync"
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

// lockSpec is one path to lock and whether exclusively.
type lockSpec struct {
	path  string
	write bool
}

// lockAll takes several path locks in a fixed (sorted) order so two calls
// locking the same pair never deadlock; a path listed twice is locked once,
// exclusively if any listing asks for it. It returns the release function.
func (p *pathLocks) lockAll(specs ...lockSpec) func() {
	merged := map[string]bool{}
	for _, s := range specs {
		merged[s.path] = merged[s.path] || s.write
	}
	paths := make([]string, 0, len(merged))
	for k := range merged {
		paths = append(paths, k)
	}
	sort.Strings(paths)
	held := make([]*pathLock, len(paths))
	for i, path := range paths {
		held[i] = p.acquire(path, merged[path])
	}
	return func() {
		for i := len(paths) - 1; i >= 0; i-- {
			p.release(paths[i], held[i], merged[paths[i]])
		}
	}
}

// count reports how many paths currently have a lock entry (for tests).
func (p *pathLocks) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.locks)
}
