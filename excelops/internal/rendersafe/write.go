package rendersafe

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"
)

// write builds the sanitised package: relationship parts and content types
// written again, XML parts that lost relationships and VML parts
// rewritten, every other kept entry copied raw.
func (s *sanitizer) write(sizeHint int) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(sizeHint)
	zw := zip.NewWriter(&buf)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestSpeed)
	})
	for _, e := range s.entries {
		if s.gone(e.name) {
			continue
		}
		if err := s.writeEntry(zw, e); err != nil {
			if errors.Is(err, ErrDamaged) || errors.Is(err, ErrTooBig) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %s: %v", ErrDamaged, shown(e.f.Name), err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrDamaged, err)
	}
	return buf.Bytes(), nil
}

// writeEntry writes one kept entry.
func (s *sanitizer) writeEntry(zw *zip.Writer, e entry) error {
	_, isRels := sourceOf(e.name)
	ids := s.removed[e.key]
	vml := strings.HasSuffix(e.key, ".vml")
	switch {
	case isRels:
		data, err := s.read(e.f)
		if err != nil {
			return err
		}
		rels, err := parseRels(data)
		if err != nil {
			return err // parsed in plan: cannot happen
		}
		return create(zw, e.f, writeRels(keep(rels)))
	case e.key == "[content_types].xml":
		data, err := s.read(e.f)
		if err != nil {
			return err
		}
		ct, err := parseContentTypes(data)
		if err != nil {
			return fmt.Errorf("%w: [Content_Types].xml: %v", ErrDamaged, err)
		}
		return create(zw, e.f, ct.write(func(part string) bool {
			if dec, err := url.PathUnescape(part); err == nil {
				part = dec
			}
			return s.gone(part)
		}))
	case vml || ids != nil && isXMLPart(e.key):
		rc, err := e.f.Open()
		if err != nil {
			return err
		}
		defer rc.Close()
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.f.Name, Method: zip.Deflate, Modified: e.f.Modified})
		if err != nil {
			return err
		}
		return rewritePart(w, rc, ids, vml, func(scheme string) {
			s.report[Omitted{Part: e.name, What: "linked image", Target: scheme}]++
		})
	default:
		return zw.Copy(e.f)
	}
}

// create writes data as a deflated entry named like f.
func create(zw *zip.Writer, f *zip.File, data []byte) error {
	w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Deflate, Modified: f.Modified})
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// read inflates a part that is read whole, within Limits.MaxPart.
func (s *sanitizer) read(f *zip.File) ([]byte, error) {
	if f.UncompressedSize64 > uint64(s.lim.MaxPart) {
		return nil, fmt.Errorf("%w: %s inflates to %d bytes, more than %d", ErrTooBig, shown(f.Name), f.UncompressedSize64, s.lim.MaxPart)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrDamaged, shown(f.Name), err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, s.lim.MaxPart+1))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrDamaged, shown(f.Name), err)
	}
	if int64(len(data)) > s.lim.MaxPart {
		return nil, fmt.Errorf("%w: %s inflates to more than %d bytes", ErrTooBig, shown(f.Name), s.lim.MaxPart)
	}
	return data, nil
}
