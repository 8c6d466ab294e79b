package engine

import (
	"io"
	"sync"
	"sync/atomic"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/bookcache"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/lightcache"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/pathlock"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
	"github.com/sirupsen/logrus"
)

// Engine runs tool calls on the workbooks of one workspace: it opens them
// (cache, light path, splice path), runs a call's bodies under the
// workbook's locks and saves them atomically. A Service holds one.
type Engine struct {
	Box    *workspace.Root
	Log    logrus.FieldLogger
	Limits limits.Limits
	Locks  *pathlock.Table
	// iconMu serialises icon-set conditional formats from adding the rule
	// through saving the workbook: excelize builds those rules from shared
	// package-level presets, which concurrent saves would otherwise race on.
	iconMu sync.Mutex
	// WrapSave, when set, wraps the writer of every save (tests inject
	// write failures through it).
	WrapSave func(io.Writer) io.Writer
	// TmpBase is the folder private per-call temporary folders go under.
	TmpBase string
	// CacheBudget is the estimated memory the workbook cache may hold;
	// the cache keeps nothing when it is 0.
	CacheBudget int64
	Cache       *bookcache.Cache[*Book]
	// Light remembers the sheet index, date styles and shared strings of
	// files read on the light path, until they change.
	Light *lightcache.Cache
	// SpliceOff sends cell edits down the excelize path too (tests and
	// benchmarks compare the two paths).
	SpliceOff bool
	// Opens counts workbooks parsed by excelize (tests observe the cache
	// through it).
	Opens atomic.Int64
	// Observer, when set, is told about every save (metrics).
	Observer Observer
}

// Observer is told about the Service's work (metrics). Its methods must be
// fast and safe for concurrent use.
type Observer interface {
	// WorkbookSaved reports one atomic save of a workbook: err is nil when
	// the new file is in place, the save's error otherwise (the original
	// file is then unchanged).
	WorkbookSaved(err error)
}

// ObserveSave reports a save's outcome to the observer, if any.
func (s *Engine) ObserveSave(err error) {
	if s.Observer != nil {
		s.Observer.WorkbookSaved(err)
	}
}
