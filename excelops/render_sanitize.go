package excelops

import (
	"errors"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/rendersafe"
)

// maxNotRendered caps the groups render_range's not_rendered lists; the
// rest are summed up in one last entry.
const maxNotRendered = 20

// notRendered is one entry of render_range's not_rendered: a group of
// things the rendered copy left out (see rendersafe.Omitted).
type notRendered = rendersafe.Omitted

// sanitizeRenderCopy returns the package raw, which LibreOffice is about to
// open, without anything that reaches outside the workbook
// (rendersafe.Sanitize within the unzip limits), and what it left out, at
// most maxNotRendered groups.
func (s *Service) sanitizeRenderCopy(raw []byte) ([]byte, []notRendered, error) {
	if err := s.limits.within("sanitising the copy to render", 2*int64(len(raw))); err != nil {
		return nil, nil, err
	}
	out, left, err := rendersafe.Sanitize(raw, rendersafe.Limits{MaxUnzipped: s.limits.UnzipSizeLimit, MaxPart: s.limits.UnzipXMLSizeLimit})
	switch {
	case errors.Is(err, rendersafe.ErrTooBig):
		return nil, nil, newError(KindLimit, "workbook too large to render: "+err.Error(), err)
	case err != nil:
		return nil, nil, newError(KindDamaged, "file is damaged: cannot make a safe copy to render: "+err.Error(), err)
	}
	return out, capNotRendered(left), nil
}

// capNotRendered keeps the first maxNotRendered-1 groups of a longer list
// and sums the rest up in one entry.
func capNotRendered(left []notRendered) []notRendered {
	if left == nil {
		return []notRendered{}
	}
	if len(left) <= maxNotRendered {
		return left
	}
	rest := 0
	for _, o := range left[maxNotRendered-1:] {
		rest += o.Count
	}
	out := append([]notRendered(nil), left[:maxNotRendered-1]...)
	return append(out, notRendered{Part: "(more parts)", What: fmt.Sprintf("%d more groups", len(left)-maxNotRendered+1), Count: rest})
}
