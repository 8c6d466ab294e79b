package tools

import "github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"

// WithObserver has obs told about every workbook save (nil: nobody).
func WithObserver(obs engine.Observer) Option { return func(s *Service) { s.engine.Observer = obs } }

// CacheStats reports how many parsed workbooks the Service keeps in memory
// between calls and the estimated bytes they hold (0, 0 with the cache off).
func (s *Service) CacheStats() (books int, bytes int64) {
	return s.engine.Cache.Stats()
}

// ReadCacheStats reports how many unchanged workbook files reads remember
// (their sheet index, date styles and shared strings; see internal/lightcache)
// and the bytes of shared strings held for them.
func (s *Service) ReadCacheStats() (files int, bytes int64) {
	return s.engine.Light.Stats()
}
