// Package sharedstrings reads a workbook's shared string table
// (xl/sharedStrings.xml) into the strings cells index, exactly as
// encoding/xml decodes their text and then as Excel decodes an ST_Xstring
// (_x0004_ is U+0004, _x005F_x0041_ the text _x0041_: excelize.UnescapeXstring),
// in one streaming pass over the
// byte-exact tokenizer (internal/sheetxml), within a budget.Budget: a
// string past its text bound or a table past its memory budget is a
// KindLimit error, broken XML or text KindDamaged. Refs checks, as a
// sheet streams, that its shared string cells point to strings the table
// holds (refs.go).
//
//	strs, held, err := sharedstrings.Parse(r, size, budget.Budget{Memory: 1 << 30, MaxText: 1 << 20})
//
// ARCHITECTURE.md at the repository root places it in the package map.
package sharedstrings

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// StringHeaderBytes is what one Go string costs beyond its bytes: the
// bytes a table holds count it once per string.
const StringHeaderBytes = 16

// sstParser holds the state of Parse: the value of an <si> is
// the concatenation of its <t> texts, except the text of phonetic runs
// (<rPh>); text outside <t> does not count. Elements match by local name
// (<x:si> is <si>), and end tags are not checked against start tags, as
// encoding/xml's RawToken does not.
type sstParser struct {
	lim      budget.Budget
	out      []string
	pend     []byte // the bytes of the strings read since the last flush
	ends     []int  // where each of those strings ends in pend
	cur      []byte
	held     int64 // bytes the table holds so far
	depth    int   // >0 inside a phonetic run, whose text is not the value
	inT      bool
	inSI     bool
	inRun    bool // inside a text run of a <t>
	runStart int  // where the run's text starts in cur
	text     sheetxml.TextDecoder
}

// Parse reads the shared string table in r (xl/sharedStrings.xml)
// of size bytes and returns it with the bytes it holds. The text decodes exactly as
// encoding/xml decodes it (see sheetxml.TextDecoder), its _xHHHH_ escapes
// as Excel decodes them; broken XML or text
// is KindDamaged, a string or text run past the limits KindLimit.
func Parse(r io.Reader, size int64, lim budget.Budget) ([]string, int64, error) {
	p := sstParser{lim: lim}
	z := sheetxml.New(lim.RunBound(r, "the shared strings"))
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
			if p.out == nil && string(tok.Name) == "sst" {
				// Room for the strings the table says it holds, within what
				// its bytes can hold (a string header per 16 bytes).
				p.out = make([]string, 0, min(sheetxml.AttrInt(tok.Attrs(), "uniqueCount"), int(size/16)))
			}
			if string(tok.Raw) == "<si>" {
				if err := p.plainSI(z); err != nil {
					return nil, 0, err
				}
			}
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
	p.flush()
	if p.out == nil {
		p.out = []string{}
	}
	return p.out, p.held, nil
}

// The bytes plainSI recognises.
var (
	siEnd       = []byte("</si>")
	tOpen       = []byte("<t>")
	tOpenSpaced = []byte(`<t xml:space="preserve">`)
	tSIEnd      = []byte("</t></si>")
	tName       = []byte("t")
	siName      = []byte("si")
	xstringMark = []byte("_x") // where an ST_Xstring escape may start
)

// plainSILimit bounds how far plainSI looks ahead for "</si>": a longer
// string is read token by token.
const plainSILimit = 8 << 10

// plainSI takes the rest of an <si> whose start tag was just read by its
// bytes when it is one unprefixed <t> of text and nothing else
// (<si><t>text</t></si>, as Excel writes most strings): the steps its
// tokens would take, without tokenizing them. Any other form is left, with
// nothing consumed, to the tokens.
func (p *sstParser) plainSI(z *sheetxml.Tokenizer) error {
	raw, ok := z.PeekThrough(siEnd, plainSILimit)
	if !ok {
		return nil
	}
	body, ok := bytes.CutPrefix(raw, tOpen)
	if !ok {
		if body, ok = bytes.CutPrefix(raw, tOpenSpaced); !ok {
			return nil
		}
	}
	text, ok := bytes.CutSuffix(body, tSIEnd)
	if !ok || bytes.IndexByte(text, '<') >= 0 {
		return nil
	}
	p.start(tName)
	if p.inT && len(text) > 0 {
		if err := p.addText(text); err != nil {
			return err
		}
		if err := p.endRun(); err != nil {
			return err
		}
	}
	z.Skip(len(raw))
	if err := p.end(tName); err != nil {
		return err
	}
	return p.end(siName)
}

// stringChunk is how many bytes of strings share one allocation: far
// fewer allocations than a string each, and a string kept alone keeps at
// most this much alive.
const stringChunk = 32 << 10

// flush makes the strings read since the last flush, all in one
// allocation.
func (p *sstParser) flush() {
	all, from := string(p.pend), 0
	for _, end := range p.ends {
		p.out = append(p.out, all[from:end])
		from = end
	}
	p.pend, p.ends = p.pend[:0], p.ends[:0]
}

// count is how many strings have been read.
func (p *sstParser) count() int { return len(p.out) + len(p.ends) }

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
		if bytes.Contains(p.cur, xstringMark) {
			p.cur = append(p.cur[:0], excelize.UnescapeXstring(string(p.cur))...)
		}
		if p.held += int64(len(p.cur)) + StringHeaderBytes; p.held > p.lim.Memory/2 {
			return p.lim.Within("loading the shared strings", p.held*2)
		}
		p.pend = append(p.pend, p.cur...)
		p.ends = append(p.ends, len(p.pend))
		if len(p.pend) >= stringChunk {
			p.flush()
		}
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

// checkLen bounds the string being read by the budget's MaxText.
func (p *sstParser) checkLen() error {
	if int64(len(p.cur)) > p.lim.MaxText {
		return p.lim.CellText(fmt.Sprintf("shared string %d", p.count()))
	}
	return nil
}

// damaged is the error for broken text in the string being read.
func (p *sstParser) damaged(err error) error {
	return damagedStrings(fmt.Errorf("shared string %d: %w", p.count(), err))
}

// damagedStrings is the error for a shared string table that cannot be
// read: err as it is when it has a kind (a limit), else KindDamaged.
func damagedStrings(err error) error {
	if failure.KindOf(err) != "" {
		return err
	}
	return failure.New(failure.KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
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
