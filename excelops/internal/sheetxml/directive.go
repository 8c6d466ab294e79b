package sheetxml

import "bytes"

// commentOpen is what starts a comment inside a directive.
var commentOpen = []byte("<!--")

// readDirective reads a declaration such as <!DOCTYPE a [<!ENTITY b "c">]>
// whole, where it ends for encoding/xml: the byte after "<!" is taken as
// it is, a quoted '>' does not end it, nested '<' ... '>' pairs count, and
// a comment inside (<!-- -->) is skipped. The Tokenizer only delimits it;
// nothing inside is interpreted.
func (z *Tokenizer) readDirective() (Token, error) {
	var (
		q       byte // the open quote, 0 outside quotes
		depth   int  // nested '<' not yet closed
		comment = -1 // offset (from pos) where an open comment's body starts
	)
	off := 3 // from pos: past "<!" and the byte after it
	for {
		peek := false // more input is needed to tell whether a comment starts
		i := z.pos + off
		for ; i < z.end; i++ {
			c := z.buf[i]
			switch {
			case comment >= 0:
				if c == '>' && i-2 >= z.pos+comment && z.buf[i-1] == '-' && z.buf[i-2] == '-' {
					comment = -1
				}
			case q != 0:
				if c == q {
					q = 0
				}
			case c == '"' || c == '\'':
				q = c
			case c == '>' && depth == 0:
				raw := z.buf[z.pos : i+1]
				z.pos = i + 1
				return Token{Kind: Special, Raw: raw}, nil
			case c == '>':
				depth--
			case c == '<':
				if z.end-i < len(commentOpen) && z.rerr == nil {
					peek = true
					goto more
				}
				if bytes.HasPrefix(z.buf[i:z.end], commentOpen) {
					comment = i + len(commentOpen) - z.pos
					i += len(commentOpen) - 1
				} else {
					depth++
				}
			}
		}
	more:
		off = i - z.pos
		if z.end-z.pos > MaxTagSize {
			z.err = ErrTagTooLong
			return Token{}, z.err
		}
		if !z.fill(MaxTagSize + 1) {
			if z.end-z.pos > MaxTagSize {
				z.err = ErrTagTooLong
				return Token{}, z.err
			}
			if !peek || z.rerr == nil {
				return Token{}, z.truncated()
			}
			// The input ended (or failed) right after a '<': no comment
			// starts there; scan on through what is left.
		}
	}
}
