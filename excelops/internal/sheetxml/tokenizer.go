package sheetxml

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// BufferSize is the read buffer of a Tokenizer.
const BufferSize = 64 << 10

// MaxTagSize caps one tag (from '<' to '>', attributes included). Cells and
// rows have tags of a few dozen bytes; a longer tag is hostile or broken.
const MaxTagSize = 4 << 20

// Kind says what a Token is.
type Kind uint8

// The kinds of Token.
const (
	// Text is character data between tags (raw: entities not decoded). A
	// long run of text may come as several Text tokens in a row.
	Text Kind = iota
	// Start is an opening tag: <row r="1">.
	Start
	// End is a closing tag: </row>.
	End
	// Empty is a self-closing tag: <c r="A1"/>.
	Empty
	// Special is a processing instruction, comment, CDATA section or
	// declaration: <?xml ...?>, <!-- -->, <![CDATA[ ]]>, <!DOCTYPE>.
	Special
)

// ErrTruncated reports XML that ends inside a tag.
var ErrTruncated = errors.New("sheetxml: the XML ends inside a tag")

// ErrMalformed reports a '<' that does not start a tag.
var ErrMalformed = errors.New("sheetxml: malformed XML")

// ErrTagTooLong reports a tag longer than MaxTagSize.
var ErrTagTooLong = fmt.Errorf("sheetxml: a tag is longer than %d bytes", MaxTagSize)

// Token is one piece of the XML. Its byte slices point into the
// Tokenizer's buffer and stay valid only until the next call of Next.
type Token struct {
	// Kind says what the token is.
	Kind Kind
	// Raw is the token's exact bytes: the text, or the whole tag with its
	// angle brackets. Concatenating every Raw reproduces the input.
	Raw []byte
	// Name is the local name of a tag (namespace prefix dropped), nil for
	// Text and Special.
	Name []byte
	// attrs is the tag's attribute section (after the name, before '>' or
	// '/>').
	attrs []byte
}

// Attr returns the raw (undecoded) value of the attribute key of a Start or
// Empty tag, or nil when absent. key matches the attribute's full name
// (prefix included, as written).
func (t *Token) Attr(key string) []byte { return AttrValue(t.attrs, key) }

// Attrs returns the raw attribute section of a tag (between the name and
// the closing '>' or "/>").
func (t *Token) Attrs() []byte { return t.attrs }

// Is reports whether the token is a tag of kind k named name.
func (t *Token) Is(k Kind, name string) bool { return t.Kind == k && string(t.Name) == name }

// Tokenizer splits XML into Tokens, one pass, holding one buffer: it is
// not a validating parser (declarations such as DOCTYPE, which it ends
// where encoding/xml does, and namespaces are not interpreted) but it
// never loses or reorders a byte, so a writer can copy what it does not
// change exactly.
type Tokenizer struct {
	r        io.Reader
	buf      []byte // buf[pos:end] is read and not yet consumed
	pos, end int
	rerr     error // the reader's error (io.EOF at the end), after buf is used up
	err      error // sticky: returned by every later call
}

// New returns a Tokenizer reading r.
func New(r io.Reader) *Tokenizer {
	return &Tokenizer{r: r, buf: make([]byte, BufferSize)}
}

// fill reads more input after buf[pos:end], first moving the unread bytes
// to the front and, when the buffer is full of them, doubling it (up to
// limit bytes unread). It reports false when nothing more can be read:
// the input ended (rerr is set) or the unread bytes reached limit.
func (z *Tokenizer) fill(limit int) bool {
	if z.rerr != nil {
		return false
	}
	if z.pos > 0 {
		n := copy(z.buf, z.buf[z.pos:z.end])
		z.pos, z.end = 0, n
	}
	if z.end == len(z.buf) {
		if z.end >= limit {
			return false
		}
		grown := make([]byte, min(2*len(z.buf), limit+BufferSize))
		copy(grown, z.buf[:z.end])
		z.buf = grown
	}
	for tries := 0; tries < 100; tries++ {
		n, err := z.r.Read(z.buf[z.end:])
		if n < 0 || n > len(z.buf)-z.end {
			z.rerr = io.ErrNoProgress
			return false
		}
		z.end += n
		if err != nil {
			z.rerr = err
			return n > 0
		}
		if n > 0 {
			return true
		}
	}
	z.rerr = io.ErrNoProgress
	return false
}

// Next returns the next token; io.EOF after the last one. ErrTruncated,
// ErrMalformed and ErrTagTooLong report broken input; read errors of the
// underlying reader are returned as they are.
func (z *Tokenizer) Next() (Token, error) {
	if z.err != nil {
		return Token{}, z.err
	}
	for {
		if z.pos < z.end && z.buf[z.pos] == '<' {
			return z.readTag()
		}
		if i := bytes.IndexByte(z.buf[z.pos:z.end], '<'); i >= 0 {
			t := Token{Kind: Text, Raw: z.buf[z.pos : z.pos+i]}
			z.pos += i
			return t, nil
		}
		// Text without its end in the buffer: a long run comes in pieces.
		if z.end-z.pos >= BufferSize/2 || !z.fill(BufferSize) {
			if z.pos < z.end {
				t := Token{Kind: Text, Raw: z.buf[z.pos:z.end]}
				z.pos = z.end
				return t, nil
			}
			return Token{}, z.fail(z.rerr)
		}
	}
}

// fail makes err (the reader's error, io.EOF at the end) sticky and
// returns it.
func (z *Tokenizer) fail(err error) error {
	if err == nil {
		err = io.ErrNoProgress
	}
	z.err = err
	return err
}

// readTag reads the tag that starts at buf[pos] ('<').
func (z *Tokenizer) readTag() (Token, error) {
	if z.end-z.pos < 2 && !z.fill(MaxTagSize) && z.end-z.pos < 2 {
		return Token{}, z.truncated()
	}
	switch c := z.buf[z.pos+1]; {
	case c == '!' || c == '?':
		return z.readSpecial()
	case !nameStart(c) && c != '/':
		z.err = ErrMalformed
		return Token{}, z.err
	}
	// Scan to the first '>' outside quotes.
	i := z.pos + 1
	var q byte
	for {
		for ; i < z.end; i++ {
			c := z.buf[i]
			switch {
			case c == q:
				q = 0
			case q != 0:
			case c == '>':
				raw := z.buf[z.pos : i+1]
				z.pos = i + 1
				return makeTag(raw), nil
			case c == '"' || c == '\'':
				q = c
			}
		}
		if z.end-z.pos > MaxTagSize {
			z.err = ErrTagTooLong
			return Token{}, z.err
		}
		off := i - z.pos
		if !z.fill(MaxTagSize + 1) {
			if z.end-z.pos > MaxTagSize {
				z.err = ErrTagTooLong
				return Token{}, z.err
			}
			return Token{}, z.truncated()
		}
		i = z.pos + off
	}
}

// truncated reports input that ends inside a tag (or a read error there).
func (z *Tokenizer) truncated() error {
	if z.rerr != nil && !errors.Is(z.rerr, io.EOF) {
		z.err = z.rerr
		return z.err
	}
	z.err = ErrTruncated
	return z.err
}

// readSpecial reads <!-- -->, <![CDATA[ ]]>, <? ?> or <!...> whole.
func (z *Tokenizer) readSpecial() (Token, error) {
	for z.end-z.pos < 9 {
		if !z.fill(MaxTagSize) {
			break
		}
	}
	head := z.buf[z.pos+1 : min(z.end, z.pos+9)]
	var end []byte
	least := 4 // the shortest whole tag: "<?a>" for a processing instruction
	switch {
	case bytes.HasPrefix(head, []byte("!--")):
		end, least = []byte("-->"), len("<!---->") // "<!-->" does not close itself
	case bytes.HasPrefix(head, []byte("![CDATA[")):
		end = []byte("]]>")
	case bytes.HasPrefix(head, []byte("?")):
		end = []byte("?>")
	default:
		return z.readDirective()
	}
	i := z.pos + 1
	for {
		for {
			j := bytes.IndexByte(z.buf[i:z.end], '>')
			if j < 0 {
				i = z.end
				break
			}
			i += j + 1
			if tag := z.buf[z.pos:i]; bytes.HasSuffix(tag, end) && len(tag) >= least {
				z.pos = i
				return Token{Kind: Special, Raw: tag}, nil
			}
		}
		if z.end-z.pos > MaxTagSize {
			z.err = ErrTagTooLong
			return Token{}, z.err
		}
		off := i - z.pos
		if !z.fill(MaxTagSize + 1) {
			if z.end-z.pos > MaxTagSize {
				z.err = ErrTagTooLong
				return Token{}, z.err
			}
			return Token{}, z.truncated()
		}
		i = z.pos + off
	}
}

// PeekThrough returns the input from the reading position through the
// first occurrence of delim, without consuming it (Skip does), reading
// ahead up to limit bytes; ok is false when delim is not there within
// limit bytes or before the input ends. The slice is valid until the next
// call of any method. It lets a caller that recognises a whole element by
// its bytes (an untouched row) pass it on without tokenizing it.
func (z *Tokenizer) PeekThrough(delim []byte, limit int) (_ []byte, ok bool) {
	if z.err != nil || len(delim) == 0 {
		return nil, false
	}
	from := z.pos
	k := rareByte(delim)
	for {
		if i := indexVia(z.buf[from:z.end], delim, k); i >= 0 {
			n := from + i + len(delim) - z.pos
			if n > limit {
				return nil, false
			}
			return z.buf[z.pos : z.pos+n], true
		}
		off := max(0, z.end-z.pos-len(delim)+1)
		if off >= limit || !z.fill(limit) {
			return nil, false
		}
		from = z.pos + off
	}
}

// rareByte picks the byte of delim to search for first: one that markup
// and numbers seldom hold ('w' of "</row>"), so the search stops rarely.
func rareByte(delim []byte) int {
	for k, c := range delim {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'r' && c <= 'v':
		case c == '<', c == '>', c == '/', c == '=', c == '"', c == '\'', c == ' ', c == '\t', c == '\r', c == '\n',
			c == 'i', c == 'n', c == 'o', c == '.', c == '-':
		default:
			return k
		}
	}
	return 0
}

// indexVia is bytes.Index(s, delim), searching for delim[k] first.
func indexVia(s, delim []byte, k int) int {
	for i := k; i < len(s); {
		j := bytes.IndexByte(s[i:], delim[k])
		if j < 0 {
			return -1
		}
		at := i + j - k
		if at+len(delim) <= len(s) && bytes.Equal(s[at:at+len(delim)], delim) {
			return at
		}
		i += j + 1
	}
	return -1
}

// Skip consumes n bytes that PeekThrough returned.
func (z *Tokenizer) Skip(n int) {
	z.pos += min(n, z.end-z.pos)
}

// makeTag classifies a complete tag "<...>".
func makeTag(raw []byte) Token {
	inner := raw[1 : len(raw)-1]
	t := Token{Kind: Start, Raw: raw}
	if len(inner) > 0 && inner[0] == '/' {
		t.Kind = End
		inner = inner[1:]
	} else if len(inner) > 0 && inner[len(inner)-1] == '/' {
		t.Kind = Empty
		inner = inner[:len(inner)-1]
	}
	end := 0
	for end < len(inner) && !isSpace(inner[end]) && inner[end] != '/' {
		end++
	}
	name := inner[:end]
	if i := bytes.IndexByte(name, ':'); i > 0 && i < len(name)-1 { // as encoding/xml: "a:" and ":b" are local names
		name = name[i+1:]
	}
	t.Name = name
	if t.Kind != End {
		t.attrs = inner[end:]
	}
	return t
}

// nameStart reports whether c can start a tag name.
func nameStart(c byte) bool {
	return c == '_' || c == ':' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0x80
}

// isSpace reports XML white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
