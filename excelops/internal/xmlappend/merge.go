package xmlappend

import (
	"bytes"
	"errors"
	"fmt"
	"slices"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// ErrNotAppend reports an edit that did more than add records at the end
// of lists, or parts Merge cannot line up: the caller keeps the edit's own
// bytes.
var ErrNotAppend = errors.New("xmlappend: the edit is not an append")

// spec says which elements of a kind of part hold records.
type spec struct {
	// rootRecords are the names of records that are the root's own
	// children (shared strings, relationships, content types); nil when
	// the records sit one level down, in lists.
	rootRecords []string
	// lists are the root's children that hold records, in the order the
	// schema puts the root's children (with the other children the order
	// needs to place a new list).
	lists []string
	order []string
}

// specs are the parts Merge knows, by their root element's local name.
var specs = map[string]spec{
	"styleSheet": {
		lists: []string{"numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs", "tableStyles"},
		order: []string{"numFmts", "fonts", "fills", "borders", "cellStyleXfs", "cellXfs", "cellStyles", "dxfs", "tableStyles", "colors", "extLst"},
	},
	"sst":           {rootRecords: []string{"si"}},
	"Relationships": {rootRecords: []string{"Relationship"}},
	"Types":         {rootRecords: []string{"Default", "Override"}},
}

// countAttrs are the attributes of a list's start tag that count its records.
var countAttrs = []string{"count", "uniqueCount"}

// Merge returns original with the records edited adds to baseline
// appended: baseline is the original re-serialised by the code that wrote
// edited, with nothing changed. It returns ErrNotAppend (wrapped) when
// edited differs from baseline in anything but records added at the end
// of lists, when original's lists do not hold as many records as
// baseline's, or when the part is not one Merge knows.
func Merge(original, baseline, edited []byte) ([]byte, error) {
	o, err := parse(original)
	if err != nil {
		return nil, fmt.Errorf("%w: original: %w", ErrNotAppend, err)
	}
	b, err := parse(baseline)
	if err != nil {
		return nil, fmt.Errorf("%w: baseline: %w", ErrNotAppend, err)
	}
	e, err := parse(edited)
	if err != nil {
		return nil, fmt.Errorf("%w: edited: %w", ErrNotAppend, err)
	}
	sp, ok := specs[o.root.name]
	if !ok || b.root.name != o.root.name || e.root.name != o.root.name {
		return nil, fmt.Errorf("%w: not a list part (%s)", ErrNotAppend, o.root.name)
	}
	if err := sameNamespaces(o, e); err != nil {
		return nil, err
	}
	var ins []insertion
	if sp.rootRecords != nil {
		ins, err = appendedTo(o, b, e, &o.root, &b.root, &e.root, sp.rootRecords)
	} else {
		ins, err = appendedLists(o, b, e, sp)
	}
	if err != nil {
		return nil, err
	}
	for _, in := range ins {
		if err := checkPrefixes(in.new, o, e); err != nil {
			return nil, err
		}
	}
	if len(ins) == 0 {
		if !bytes.Equal(baseline, edited) {
			return nil, fmt.Errorf("%w: the part changed outside its lists", ErrNotAppend)
		}
		return bytes.Clone(original), nil
	}
	return apply(original, ins), nil
}

// insertion replaces original's bytes in at with text.
type insertion struct {
	at   span
	text []byte
	// new is the edit's own bytes (records or a list): their prefixes must
	// mean in the original what they meant in the edit.
	new []byte
}

// appendedLists lines up the root's children of a part whose records sit
// in lists, returning what to write into original.
func appendedLists(o, b, e *document, sp spec) ([]insertion, error) {
	if !bytes.Equal(withoutCounts(b.bytesOf(b.root.start)), withoutCounts(e.bytesOf(e.root.start))) {
		return nil, fmt.Errorf("%w: the root's attributes changed", ErrNotAppend)
	}
	var ins []insertion
	bi := 0
	for ei := range e.root.children {
		en := &e.root.children[ei]
		if bi < len(b.root.children) && b.root.children[bi].name == en.name {
			bn := &b.root.children[bi]
			bi++
			if bytes.Equal(b.bytesOf(bn.whole), e.bytesOf(en.whole)) {
				continue
			}
			if !slices.Contains(sp.lists, en.name) {
				return nil, fmt.Errorf("%w: %s changed", ErrNotAppend, en.name)
			}
			on := child(&o.root, en.name)
			if on == nil {
				return nil, fmt.Errorf("%w: the original has no %s", ErrNotAppend, en.name)
			}
			got, err := appendedTo(o, b, e, on, bn, en, nil)
			if err != nil {
				return nil, err
			}
			ins = append(ins, got...)
			continue
		}
		// A list the edit added: the original must lack it too.
		if !slices.Contains(sp.lists, en.name) || child(&o.root, en.name) != nil || child(&b.root, en.name) != nil {
			return nil, fmt.Errorf("%w: %s added", ErrNotAppend, en.name)
		}
		ins = append(ins, insertion{at: span{placeFor(o, sp.order, en.name), placeFor(o, sp.order, en.name)}, text: e.bytesOf(en.whole), new: e.bytesOf(en.whole)})
	}
	if bi != len(b.root.children) {
		return nil, fmt.Errorf("%w: the edit removed %s", ErrNotAppend, b.root.children[bi].name)
	}
	return ins, nil
}

// appendedTo lines up one list (on, bn, en: the same list in the original,
// the baseline and the edit): baseline's records must open the edit's, and
// the original must hold no more; records names what may be appended (nil:
// anything).
func appendedTo(o, b, e *document, on, bn, en *node, records []string) ([]insertion, error) {
	if !bytes.Equal(withoutCounts(b.bytesOf(bn.start)), withoutCounts(e.bytesOf(en.start))) {
		return nil, fmt.Errorf("%w: %s's attributes changed", ErrNotAppend, en.name)
	}
	if len(en.children) < len(bn.children) || len(on.children) > len(bn.children) {
		return nil, fmt.Errorf("%w: %s: %d records in the original, %d re-serialised, %d edited",
			ErrNotAppend, en.name, len(on.children), len(bn.children), len(en.children))
	}
	for i := range bn.children {
		if !bytes.Equal(b.bytesOf(bn.children[i].whole), e.bytesOf(en.children[i].whole)) {
			return nil, fmt.Errorf("%w: %s: record %d changed", ErrNotAppend, en.name, i)
		}
	}
	// Whatever follows the records (an extLst) must be as it was.
	if !bytes.Equal(tail(b, bn), tail(e, en)) {
		return nil, fmt.Errorf("%w: %s: the end of the list changed", ErrNotAppend, en.name)
	}
	// Records the re-serialisation has beyond the original's are ones the
	// code made up while reading (a relationship to a shared string table
	// it created): the edit keeps them, so they are appended too.
	added := en.children[len(on.children):]
	if len(added) == 0 {
		return nil, nil
	}
	var text []byte
	for _, n := range added {
		if records != nil && !slices.Contains(records, n.name) {
			return nil, fmt.Errorf("%w: %s: %s appended", ErrNotAppend, en.name, n.name)
		}
		text = append(text, e.bytesOf(n.whole)...)
	}
	start := recount(o.bytesOf(on.start), e.bytesOf(en.start))
	if on.empty {
		// <dxfs count="0"/> becomes <dxfs count="1">...</dxfs>.
		open := append(bytes.TrimSuffix(bytes.TrimSpace(bytes.TrimSuffix(start, []byte("/>"))), []byte("/")), '>')
		full := append(append(open, text...), "</"+qualifiedName(o.bytesOf(on.start))+">"...)
		return []insertion{{at: on.start, text: full, new: text}}, nil
	}
	at := on.close
	if len(on.children) > 0 {
		at = on.children[len(on.children)-1].whole.to
	}
	return []insertion{{at: on.start, text: start}, {at: span{at, at}, text: text, new: text}}, nil
}

// tail is what a list holds after its last record: trailing children that
// are not records are compared through it.
func tail(d *document, n *node) []byte {
	if n.empty {
		return nil
	}
	from := n.start.to
	if len(n.children) > 0 {
		from = n.children[len(n.children)-1].whole.to
	}
	return bytes.TrimSpace(d.raw[from:n.close])
}

// child returns n's first child named name.
func child(n *node, name string) *node {
	for i := range n.children {
		if n.children[i].name == name {
			return &n.children[i]
		}
	}
	return nil
}

// placeFor is where a new list named name goes in the original: before
// the first of the root's children the schema puts after it.
func placeFor(o *document, order []string, name string) int {
	rank := slices.Index(order, name)
	for _, c := range o.root.children {
		if r := slices.Index(order, c.name); r > rank || r < 0 {
			return c.whole.from
		}
	}
	return o.root.close
}

// apply writes original with every insertion made, in order of position.
func apply(original []byte, ins []insertion) []byte {
	// By position; at one position, what adds bytes goes before what
	// replaces some.
	slices.SortStableFunc(ins, func(a, b insertion) int {
		if a.at.from != b.at.from {
			return a.at.from - b.at.from
		}
		return (a.at.to - a.at.from) - (b.at.to - b.at.from)
	})
	out := make([]byte, 0, len(original)+256)
	pos := 0
	for _, in := range ins {
		out = append(out, original[pos:in.at.from]...)
		out = append(out, in.text...)
		pos = in.at.to
	}
	return append(out, original[pos:]...)
}

// withoutCounts returns a start tag with its count attributes removed.
func withoutCounts(tag []byte) []byte {
	for _, key := range countAttrs {
		tag = removeAttr(tag, key)
	}
	return tag
}

// recount returns the original start tag orig with the count attributes
// the edit's tag edited carries.
func recount(orig, edited []byte) []byte {
	out := bytes.Clone(orig)
	attrs := attrsOf(edited)
	for _, key := range countAttrs {
		v := sheetxml.AttrValue(attrs, key)
		if v == nil {
			continue
		}
		out = setAttr(out, key, v)
	}
	return out
}
