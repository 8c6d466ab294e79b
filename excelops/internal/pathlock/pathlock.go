// Package pathlock serialises the calls on one workbook inside the process:
// one RWMutex per resolved path (one writer at a time; readers never see a
// workbook a writer is replacing), taken for several paths in sorted order
// so two calls never deadlock, plus the cross-process lock file
// (internal/filelock, through the workspace handle) for a path the call
// will replace. Only the engine's entry point (internal/engine/run.go, runLocked) takes
// them.
//
//	locks := pathlock.New()
//	unlock, err := locks.LockAll(ctx, box, pathlock.Spec{Path: p, Write: true, Replace: true})
//	defer unlock()
//
// ARCHITECTURE.md at the repository root places it in the package map.
package pathlock

import (
	"context"
	"sort"
	"sync"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/filelock"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
)

// Table hands out one RWMutex per resolved path: one writer per file at a
// time, readers never see a workbook that a writer is replacing. Entries
// are reference-counted and dropped when the last holder leaves.
type Table struct {
	mu    sync.Mutex
	locks map[string]*pathLock
}

// pathLock is one path's mutex and how many callers hold or wait for it.
type pathLock struct {
	rw   sync.RWMutex
	refs int
}

// New returns an empty lock table.
func New() *Table { return &Table{locks: map[string]*pathLock{}} }

// acquire takes the lock of path: exclusive when write, shared otherwise.
func (p *Table) acquire(path string, write bool) *pathLock {
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
func (p *Table) release(path string, l *pathLock, write bool) {
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

// Spec is one path to lock and how.
type Spec struct {
	// Path is the resolved path.
	Path string
	// Write makes the lock exclusive within this process.
	Write bool
	// Replace says the call will replace the file, so it also takes the
	// cross-process lock (filelock) for its whole read-modify-replace.
	Replace bool
}

// LockAll takes several path locks in a fixed (sorted) order so two calls
// locking the same pair never deadlock; a path listed twice is locked once,
// exclusively if any listing asks for it. Paths to be replaced also get
// their cross-process lock (in the file's folder, through the workspace
// handle box), after the in-process one (so one process waits
// on the file lock with one goroutine at most per path). It returns the
// release function, or an error (nothing held) when ctx ended while waiting
// for another process or the lock file cannot be used.
func (p *Table) LockAll(ctx context.Context, box *workspace.Root, specs ...Spec) (func(), error) {
	merged := map[string]Spec{}
	for _, s := range specs {
		m := merged[s.Path]
		m.Path, m.Write, m.Replace = s.Path, m.Write || s.Write || s.Replace, m.Replace || s.Replace
		merged[s.Path] = m
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
			p.release(paths[i], held[i], merged[paths[i]].Write)
		}
	}
	for _, path := range paths {
		held = append(held, p.acquire(path, merged[path].Write))
	}
	for _, path := range paths {
		if !merged[path].Replace {
			continue
		}
		fl, err := box.Lock(ctx, path)
		if err != nil {
			release()
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, failure.New(failure.KindIO, "cannot lock the workbook against other processes: "+err.Error(), err)
		}
		files = append(files, fl)
	}
	return release, nil
}

// Count reports how many paths currently have a lock entry (tests check
// that every lock was released).
func (p *Table) Count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.locks)
}
