package opc

import (
	"archive/zip"
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// LocalHeadersFound reports whether every entry's local header is where
// the central directory says (Go's reader finds the directory of a file
// whose directory offset is wrong, then misplaces every entry).
func LocalHeadersFound(zr *zip.Reader) bool {
	for _, f := range zr.File {
		if _, err := f.DataOffset(); err != nil {
			return false
		}
	}
	return true
}

// UniqueParts refuses a package holding two entries of one part name
// (compared as FindPart does): readers disagree on which one counts, so
// what a read shows and what an edit keeps could differ.
func UniqueParts(zr *zip.Reader) error {
	seen := make(map[string]bool, len(zr.File))
	for _, f := range zr.File {
		key := strings.ToLower(strings.ReplaceAll(f.Name, "\\", "/"))
		if seen[key] {
			return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: the package holds two parts named %q; which one counts is ambiguous", f.Name), nil)
		}
		seen[key] = true
	}
	return nil
}
