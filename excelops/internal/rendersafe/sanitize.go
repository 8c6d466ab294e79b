package rendersafe

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"strings"
)

// Limits bounds what Sanitize inflates.
type Limits struct {
	// MaxUnzipped caps the total uncompressed size the entries declare
	// (bytes); a package declaring more is refused before anything is
	// inflated. archive/zip refuses an entry that inflates past its
	// declared size.
	MaxUnzipped int64
	// MaxPart caps one part read whole into memory: relationship parts
	// and [Content_Types].xml (bytes). Rewritten parts stream.
	MaxPart int64
}

// Bounds of Sanitize beyond Limits.
const (
	// maxEntries caps the entries of a package: Excel writes a few dozen,
	// a workbook with thousands of pictures a few thousand.
	maxEntries = 100_000
	// maxRemoved caps the relationships removed from one package, so that
	// what Sanitize remembers about them stays small.
	maxRemoved = 100_000
	// maxNameBytes caps an entry's name; a longer one is left out.
	maxNameBytes = 1024
	// maxSchemeLen is the longest scheme the report names; a longer one is
	// reported as "other".
	maxSchemeLen = 16
)

// Errors of Sanitize; the message says more, errors.Is tells the class.
var (
	// ErrDamaged: the bytes are not a zip package Sanitize can read, or a
	// part it must read is broken.
	ErrDamaged = errors.New("the workbook package is damaged")
	// ErrTooBig: the package exceeds Limits or a bound of Sanitize.
	ErrTooBig = errors.New("the workbook package exceeds a limit")
)

// Omitted is one group of things Sanitize left out of a part.
type Omitted struct {
	// Part is the package part that referred to them, "(package)" for
	// the package itself.
	Part string `json:"part"`
	// What says what they were: "linked image", "external workbook link",
	// "data connections", "embedded OLE object", ...
	What string `json:"what"`
	// Target is where they pointed, as a scheme only ("http", "file",
	// "network path", "path"); for a part inside the package that itself
	// pointed outside (an external workbook link), where that pointed;
	// empty otherwise.
	Target string `json:"target,omitempty"`
	// Count is how many there were.
	Count int `json:"count"`
}

// packagePart names the package itself in the report.
const packagePart = "(package)"

// Sanitize returns the package in without anything that reaches outside
// it (see the package documentation) and what it left out. It never
// changes in; entries it does not need to change are copied raw.
func Sanitize(in []byte, lim Limits) (out []byte, left []Omitted, err error) {
	zr, err := zip.NewReader(bytes.NewReader(in), int64(len(in)))
	if err != nil && !errors.Is(err, zip.ErrInsecurePath) {
		return nil, nil, fmt.Errorf("%w: not a zip package (%v)", ErrDamaged, err)
	}
	s := &sanitizer{lim: lim, removed: map[string]map[string]bool{}, deleted: map[string]bool{}, badRels: map[string]bool{}, report: map[Omitted]int{}}
	if err := s.index(zr.File); err != nil {
		return nil, nil, err
	}
	if err := s.plan(); err != nil {
		return nil, nil, err
	}
	if out, err = s.write(len(in)); err != nil {
		return nil, nil, err
	}
	return out, s.omitted(), nil
}

// sanitizer is one run of Sanitize.
type sanitizer struct {
	lim     Limits
	entries []entry // kept entries, in the package's order
	// removed holds, per part (lower case), the Ids of the relationships
	// removed from its relationship part.
	removed  map[string]map[string]bool
	nRemoved int
	// deleted are the parts (lower case) left out whole.
	deleted map[string]bool
	// badRels are relationship parts (lower case) that do not parse:
	// left out, so their part has no relationships at all.
	badRels map[string]bool
	// found are the removals to report once every part's fate is known.
	found []finding
	// report counts what was left out, by part, kind and scheme.
	report map[Omitted]int
}

// finding is one removed relationship.
type finding struct {
	source string // the part whose relationship it was
	what   string
	scheme string // of an external target
	target string // the part an internal one pointed to (lower case)
	quiet  bool
}

// droppedFolders are folders (lower case) whose parts are left out
// whatever refers to them: other documents, data sources, controls.
var droppedFolders = []string{"externallinks", "querytables", "embeddings", "activex"}

// plan reads every relationship part and decides what goes: external
// relationships, relationships of dropped kinds and the parts they point
// to, the parts in droppedFolders.
func (s *sanitizer) plan() error {
	for _, e := range s.entries {
		for _, seg := range strings.Split(e.key, "/") {
			for _, d := range droppedFolders {
				if seg == d {
					s.deleted[e.key] = true
				}
			}
		}
		source, ok := sourceOf(e.name)
		if !ok {
			continue
		}
		data, err := s.read(e.f)
		if err != nil {
			return err
		}
		rels, err := parseRels(data)
		if err != nil {
			s.badRels[e.key] = true
			s.report[Omitted{Part: partName(source), What: "unreadable relationships"}]++
			continue
		}
		for _, r := range rels {
			k := kindOf(r.typ)
			switch {
			case r.external:
				s.found = append(s.found, finding{source: source, what: k.linked, scheme: schemeOf(r.target), quiet: k.quiet})
			case k.drop:
				target := partKey(source, r.target)
				s.deleted[target] = true
				s.found = append(s.found, finding{source: source, what: k.what, target: target, quiet: k.quiet})
			default:
				continue
			}
			if err := s.remove(source, r.id); err != nil {
				return err
			}
		}
	}
	return nil
}

// remove records that the relationship id of part source is removed.
func (s *sanitizer) remove(source, id string) error {
	s.nRemoved++
	if s.nRemoved > maxRemoved {
		return fmt.Errorf("%w: more than %d links to remove", ErrTooBig, maxRemoved)
	}
	key := strings.ToLower(source)
	if s.removed[key] == nil {
		s.removed[key] = map[string]bool{}
	}
	s.removed[key][id] = true
	return nil
}

// keep filters a relationship part's relationships: internal ones of kinds
// that stay, each Id once.
func keep(rels []rel) []rel {
	ids := map[string]bool{}
	out := rels[:0]
	for _, r := range rels {
		if r.external || kindOf(r.typ).drop || ids[r.id] {
			continue
		}
		ids[r.id] = true
		out = append(out, r)
	}
	return out
}

// gone reports whether the part name (decoded, any case) is left out of
// the copy:
// deleted, or a relationship part that does not parse or whose part is
// deleted.
func (s *sanitizer) gone(name string) bool {
	key := strings.ToLower(name)
	if s.deleted[key] || s.badRels[key] {
		return true
	}
	source, ok := sourceOf(name)
	return ok && source != "" && s.deleted[strings.ToLower(source)]
}
