package render

import (
	"errors"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/rendersafe"
)

// maxNotRendered caps the groups render_range's not_rendered lists; the
// rest are summed up in one last entry.
const maxNotRendered = 20

// Sanitize returns the package raw, which LibreOffice is about to open,
// without anything that reaches outside the workbook (rendersafe.Sanitize
// within lim), and what it left out, at most maxNotRendered groups (never
// nil). A package over lim is a KindLimit error, one that cannot be read a
// KindDamaged error.
func Sanitize(raw []byte, lim rendersafe.Limits) ([]byte, []rendersafe.Omitted, error) {
	out, left, err := rendersafe.Sanitize(raw, lim)
	switch {
	case errors.Is(err, rendersafe.ErrTooBig):
		return nil, nil, failure.New(failure.KindLimit, "workbook too large to render: "+err.Error(), err)
	case err != nil:
		return nil, nil, failure.New(failure.KindDamaged, "file is damaged: cannot make a safe copy to render: "+err.Error(), err)
	}
	return out, capNotRendered(left), nil
}

// capNotRendered keeps the first maxNotRendered-1 groups of a longer list
// and sums the rest up in one entry.
func capNotRendered(left []rendersafe.Omitted) []rendersafe.Omitted {
	if left == nil {
		return []rendersafe.Omitted{}
	}
	if len(left) <= maxNotRendered {
		return left
	}
	rest := 0
	for _, o := range left[maxNotRendered-1:] {
		rest += o.Count
	}
	out := append([]rendersafe.Omitted(nil), left[:maxNotRendered-1]...)
	return append(out, rendersafe.Omitted{Part: "(more parts)", What: fmt.Sprintf("%d more groups", len(left)-maxNotRendered+1), Count: rest})
}
