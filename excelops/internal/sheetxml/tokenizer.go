package sheetxml

import (
	"bufio"
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
// not a validating parser (DOCTYPE internals and namespaces are not
// interpreted) but it never loses or reorders a byte, so a writer can copy
// what it does not change exactly.
type Tokenizer struct {
	br  *bufio.Reader
	tag []byte // owned copy of a tag that crossed the buffer
	lt  bool   // a '<' has been consumed and the tag follows
	err error
}

// New returns a Tokenizer reading r.
func New(r io.Reader) *Tokenizer {
	return &Tokenizer{br: bufio.NewReaderSize(r, BufferSize)}
}

// Next returns the next token; io.EOF after the last one. ErrTruncated,
// ErrMalformed and ErrTagTooLong report broken input; read errors of the
// underlying reader are returned as they are.
func (z *Tokenizer) Next() (Token, error) {
	if z.err != nil {
		return Token{}, z.err
	}
	if !z.lt {
		text, err := z.br.ReadSlice('<')
		switch {
		case err == nil:
			z.lt = true
			if len(text) > 1 {
				return Token{Kind: Text, Raw: text[:len(text)-1]}, nil
			}
		case errors.Is(err, bufio.ErrBufferFull):
			return Token{Kind: Text, Raw: text}, nil
		case errors.Is(err, io.EOF):
			z.err = io.EOF
			if len(text) > 0 {
				return Token{Kind: Text, Raw: text}, nil
			}
			return Token{}, io.EOF
		default:
			z.err = err
			return Token{}, err
		}
	}
	z.lt = false
	return z.readTag()
}

// readTag reads a tag whose '<' was consumed.
func (z *Tokenizer) readTag() (Token, error) {
	first, err := z.br.Peek(1)
	if err != nil {
		z.err = ErrTruncated
		return Token{}, z.err
	}
	if first[0] == '!' || first[0] == '?' {
		return z.readSpecial()
	}
	if !nameStart(first[0]) && first[0] != '/' {
		z.err = ErrMalformed
		return Token{}, z.err
	}
	// Fast path: the whole tag is in the buffer and holds no quoted '>'.
	body, err := z.br.ReadSlice('>')
	// The '<' was consumed with the text before it, so Raw is rebuilt in
	// the owned buffer (tags are short: the copy is cheap).
	z.tag = append(append(z.tag[:0], '<'), body...)
	for {
		switch {
		case err == nil && quotesBalanced(z.tag):
			return z.makeTag(z.tag), nil
		case err == nil, errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			z.err = ErrTruncated
			return Token{}, z.err
		default:
			z.err = err
			return Token{}, err
		}
		if len(z.tag) > MaxTagSize {
			z.err = ErrTagTooLong
			return Token{}, z.err
		}
		body, err = z.br.ReadSlice('>')
		z.tag = append(z.tag, body...)
	}
}

// readSpecial reads <!-- -->, <![CDATA[ ]]>, <? ?> or <!...> whole.
func (z *Tokenizer) readSpecial() (Token, error) {
	z.tag = append(z.tag[:0], '<')
	end := []byte(">")
	head, _ := z.br.Peek(8)
	switch {
	case bytes.HasPrefix(head, []byte("!--")):
		end = []byte("-->")
	case bytes.HasPrefix(head, []byte("![CDATA[")):
		end = []byte("]]>")
	case bytes.HasPrefix(head, []byte("?")):
		end = []byte("?>")
	}
	for {
		body, err := z.br.ReadSlice('>')
		z.tag = append(z.tag, body...)
		switch {
		case err == nil:
			if bytes.HasSuffix(z.tag, end) && len(z.tag) >= 1+len(end)+1 {
				return Token{Kind: Special, Raw: z.tag}, nil
			}
		case errors.Is(err, bufio.ErrBufferFull):
		case errors.Is(err, io.EOF):
			z.err = ErrTruncated
			return Token{}, z.err
		default:
			z.err = err
			return Token{}, err
		}
		if len(z.tag) > MaxTagSize {
			z.err = ErrTagTooLong
			return Token{}, z.err
		}
	}
}

// makeTag classifies a complete tag "<...>".
func (z *Tokenizer) makeTag(raw []byte) Token {
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
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	t.Name = name
	if t.Kind != End {
		t.attrs = inner[end:]
	}
	return t
}

// quotesBalanced reports whether every quote opened in b is closed, so a
// '>' that ends b ends the tag rather than sitting inside a value.
func quotesBalanced(b []byte) bool {
	var q byte
	for _, c := range b {
		switch {
		case q == 0 && (c == '"' || c == '\''):
			q = c
		case c == q:
			q = 0
		}
	}
	return q == 0
}

// nameStart reports whether c can start a tag name.
func nameStart(c byte) bool {
	return c == '_' || c == ':' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0x80
}

// isSpace reports XML white space.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
