package excelops

import (
	"errors"
	"fmt"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// sharedStrings loads the shared string table of the package as on disk.
func (b *book) sharedStrings() ([]string, error) {
	if b.sst != nil || b.zr == nil {
		return b.sst, nil
	}
	zf := findPart(b.zr, "xl/sharedStrings.xml")
	if zf == nil {
		b.sst = []string{}
		return b.sst, nil
	}
	if b.lightID != nil {
		if e := b.svc.light.get(*b.lightID); e != nil && e.sst != nil {
			b.sst = e.sst
			return b.sst, nil
		}
	}
	lim := b.svc.limits
	if err := lim.within("loading the shared strings", 2*int64(zf.UncompressedSize64)); err != nil {
		return nil, err
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, newError(KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
	}
	defer rc.Close()
	out, held, err := parseSharedStrings(rc, lim)
	if err != nil {
		return nil, err
	}
	b.sst = out
	if b.lightID != nil {
		b.svc.light.putStrings(*b.lightID, out, held)
	}
	return out, nil
}

// stringHeaderBytes is what one Go string costs beyond its bytes.
const stringHeaderBytes = 16

// sstParser holds the state of parseSharedStrings: the value of an <si> is
// the concatenation of its <t> texts, except the text of phonetic runs
// (<rPh>); text outside <t> does not count. Elements match by local name
// (<x:si> is <si>), and end tags are not checked against start tags, as
// encoding/xml's RawToken does not.
type sstParser struct {
	lim      Limits
	out      []string
	cur      []byte
	held     int64 // bytes the table holds so far
	depth    int   // >0 inside a phonetic run, whose text is not the value
	inT      bool
	inSI     bool
	inRun    bool // inside a text run of a <t>
	runStart int  // where the run's text starts in cur
	text     sheetxml.TextDecoder
}

// parseSharedStrings reads the shared string table in r (xl/sharedStrings.xml)
// and returns it with the bytes it holds. The text decodes exactly as
// encoding/xml decodes it (see sheetxml.TextDecoder); broken XML or text
// is KindDamaged, a string or text run past the limits KindLimit.
func parseSharedStrings(r io.Reader, lim Limits) ([]string, int64, error) {
	p := sstParser{lim: lim}
	z := sheetxml.New(lim.newRunBound(r, "the shared strings"))
	for {
		tok, err := z.Next()
		if errors.Is(err, io.EOF) {
			if err := p.endRun(); err != nil {
				return nil, 0, err
			}
			break
		}
		if err != nil {
			return nil, 0, damagedStrings(err)
		}
		if tok.Kind == sheetxml.Text {
			if p.inT {
				if err := p.addText(tok.Raw); err != nil {
					return nil, 0, err
				}
			}
			continue
		}
		if err := p.endRun(); err != nil {
			return nil, 0, err
		}
		switch tok.Kind {
		case sheetxml.Special:
			if content, ok := cdataContent(tok.Raw); ok && p.inT {
				if err := p.addCDATA(content); err != nil {
					return nil, 0, err
				}
			}
		case sheetxml.Start:
			p.start(tok.Name)
		case sheetxml.Empty:
			p.start(tok.Name)
			if err := p.end(tok.Name); err != nil {
				return nil, 0, err
			}
		case sheetxml.End:
			if err := p.end(tok.Name); err != nil {
				return nil, 0, err
			}
		}
	}
	if p.out == nil {
		p.out = []string{}
	}
	return p.out, p.held, nil
}

// start takes the start tag of element name.
func (p *sstParser) start(name []byte) {
	switch string(name) {
	case "si":
		p.inSI, p.cur = true, p.cur[:0]
	case "rPh":
		p.depth++
	case "t":
		p.inT = p.inSI && p.depth == 0
	}
}

// end takes the end tag of element name: a string is complete at </si>.
func (p *sstParser) end(name []byte) error {
	switch string(name) {
	case "si":
		if p.held += int64(len(p.cur)) + stringHeaderBytes; p.held > p.lim.CallMemoryBudget/2 {
			return p.lim.within("loading the shared strings", p.held*2)
		}
		p.out = append(p.out, string(p.cur))
		p.inSI = false
	case "rPh":
		p.depth--
	case "t":
		p.inT = false
	}
	return nil
}

// addText decodes a piece of a text run of a <t>.
func (p *sstParser) addText(raw []byte) error {
	if !p.inRun {
		p.inRun, p.runStart = true, len(p.cur)
	}
	var err error
	if p.cur, err = p.text.Append(p.cur, raw); err != nil {
		return p.damaged(err)
	}
	return p.checkLen()
}

// endRun ends the text run in progress, if any: a cut-off reference or a
// character XML does not allow is damage.
func (p *sstParser) endRun() error {
	if !p.inRun {
		return nil
	}
	p.inRun = false
	if err := p.text.Finish(); err != nil {
		return p.damaged(err)
	}
	if err := sheetxml.CheckChars(p.cur[p.runStart:]); err != nil {
		return p.damaged(err)
	}
	return nil
}

// addCDATA adds the content of a CDATA section in a <t>.
func (p *sstParser) addCDATA(content []byte) error {
	start := len(p.cur)
	p.cur = sheetxml.AppendCDATA(p.cur, content)
	if err := sheetxml.CheckChars(p.cur[start:]); err != nil {
		return p.damaged(err)
	}
	return p.checkLen()
}

// checkLen bounds the string being read by MaxCellTextBytes.
func (p *sstParser) checkLen() error {
	if int64(len(p.cur)) > p.lim.MaxCellTextBytes {
		return p.lim.cellTextErr(fmt.Sprintf("shared string %d", len(p.out)))
	}
	return nil
}

// damaged is the error for broken text in the string being read.
func (p *sstParser) damaged(err error) error {
	return damagedStrings(fmt.Errorf("shared string %d: %w", len(p.out), err))
}

// damagedStrings is the error for a shared string table that cannot be
// read: err as it is when it has a kind (a limit), else KindDamaged.
func damagedStrings(err error) error {
	if kindOf(err) != "" {
		return err
	}
	return newError(KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
}

// cdataContent returns what a CDATA section token holds between
// "<![CDATA[" and "]]>"; ok is false for any other special token.
func cdataContent(raw []byte) (content []byte, ok bool) {
	const open, end = "<![CDATA[", "]]>"
	if len(raw) < len(open)+len(end) || string(raw[:len(open)]) != open {
		return nil, false
	}
	return raw[len(open) : len(raw)-len(end)], true
}
