package excelops

// Observer is told about the Service's work (metrics). Its methods must be
// fast and safe for concurrent use.
type Observer interface {
	// WorkbookSaved reports one atomic save of a workbook: err is nil when
	// the new file is in place, the save's error otherwise (the original
	// file is then unchanged).
	WorkbookSaved(err error)
}

// WithObserver has obs told about every workbook save (nil: nobody).
func WithObserver(obs Observer) Option { return func(s *Service) { s.observer = obs } }

// CacheStats reports how many parsed workbooks the Service keeps in memory
// between calls and the estimated bytes they hold (0, 0 with the cache off).
func (s *Service) CacheStats() (books int, bytes int64) {
	return s.cache.Stats()
}

// ReadCacheStats reports how many unchanged workbook files reads remember
// (their sheet index, date styles and shared strings; see internal/lightcache)
// and the bytes of shared strings held for them.
func (s *Service) ReadCacheStats() (files int, bytes int64) {
	return s.light.Stats()
}

// observeSave reports a save's outcome to the observer, if any.
func (s *Service) observeSave(err error) {
	if s.observer != nil {
		s.observer.WorkbookSaved(err)
	}
}
