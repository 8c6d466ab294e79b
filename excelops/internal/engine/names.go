package engine

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/textdist"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
)

// Did-you-mean: a sheet or file name that does not exist is answered with
// the names that do and the ones the caller most likely meant, so a typo
// ("Cpoy", "Sales.xlsx" beside "sales.xlsx") is one retry, never a new
// sheet or file.

const (
	// maxListedFiles caps the directory entries read to suggest a file
	// name, so a folder with a million files costs a bounded read.
	maxListedFiles = 10000
)

// sheetNotFound is the KeyError for a sheet name that does not exist: the
// available sheets, the close matches and hint (how to create it, for a
// tool that can), as sentences.
func sheetNotFound(name string, list []string, hint string) error {
	return failure.New(failure.KindSheetNotFound, Sentences(fmt.Sprintf("Worksheet %s does not exist. Available sheets: %s", name, textdist.ListNames(list)),
		textdist.DidYouMean(textdist.CloseMatches(name, list)), hint), nil)
}

// Sentences joins a message and further sentences (each empty or starting
// with a space), ending the message with a period only when more follows.
func Sentences(msg string, more ...string) string {
	tail := strings.Join(more, "")
	if tail == "" {
		return msg
	}
	return msg + "." + tail
}

// similarWorkbooks returns the workbook files beside path whose names are
// close to path's (see closeMatches). It reads at most maxListedFiles
// entries of the folder and never follows anything.
func similarWorkbooks(s *workspace.Root, path string) []string {
	dir, base := filepath.Split(path)
	entries, _ := s.ReadDir(filepath.Clean(dir), maxListedFiles)
	var names []string
	for _, e := range entries {
		if e.IsDir() || CheckExtension(e.Name()) != nil {
			continue
		}
		names = append(names, e.Name())
	}
	return textdist.CloseMatches(base, names)
}

// FileNotFound is the FileNotFoundError for a missing workbook, naming the
// close matches in its folder.
func FileNotFound(s *workspace.Root, path string) error {
	return failure.New(failure.KindNotFound, Sentences("file not found: "+filepath.Base(path), textdist.DidYouMean(similarWorkbooks(s, path))), nil)
}

// CreateMode says whether a mutation may create a missing workbook.
type CreateMode int

const (
	// createNever: a missing file is a FileNotFoundError (with did-you-mean).
	createNever CreateMode = iota
	// createUnlessSimilar: a missing file becomes a new workbook unless a
	// workbook with a close name exists beside it (a likely typo), which is
	// refused with did-you-mean.
	createUnlessSimilar
	// createAlways: a missing file becomes a new workbook.
	createAlways
	// CreateFresh: the call starts from a new empty workbook whatever the
	// path holds (create_workbook, which refuses to replace a file unless
	// told to); the save replaces it.
	CreateFresh
)

// CreateModeOf maps a tool's optional create argument to a createMode:
// absent is createUnlessSimilar.
func CreateModeOf(create *bool) CreateMode {
	switch {
	case create == nil:
		return createUnlessSimilar
	case *create:
		return createAlways
	}
	return createNever
}

// refuseLikelyTypo fails when path does not exist but a workbook whose
// name path is most likely a typo of does (likelyTypo, typo.go): creating
// it would be a surprise file.
func refuseLikelyTypo(s *workspace.Root, path string) error {
	if _, err := s.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	similar := typoCandidates(s, path)
	if len(similar) == 0 {
		return nil
	}
	return failure.New(failure.KindNotFound, Sentences("file not found: "+filepath.Base(path), textdist.DidYouMean(similar),
		fmt.Sprintf(" Pass create: true to create a new workbook named %q.", filepath.Base(path))), nil)
}

// createSheetHint is the sentence that tells how to create a missing sheet.
const createSheetHint = " Pass create: true to create it."

// EditTarget is edit for a sheet a tool writes into. A missing sheet is
// created when create is true (in a workbook this call created, the empty
// default sheet is renamed instead); otherwise it is refused with the
// available sheets, the close matches and how to create it. created
// reports a sheet this call made.
func (b *Book) EditTarget(name string, create bool) (sheet string, ext *sheetread.SheetExtent, created bool, err error) {
	if name == "" || b.HasSheet(name) {
		sheet, ext, err = b.Edit(name)
		return sheet, ext, false, err
	}
	if !create && !b.Created {
		list, _ := b.SheetList()
		return "", nil, false, sheetNotFound(name, list, createSheetHint)
	}
	if err := CheckSheetName(name); err != nil {
		return "", nil, false, err
	}
	if list := b.f.GetSheetList(); b.Created && len(list) == 1 && !b.touched(list[0]) {
		if err := b.f.SetSheetName(list[0], name); err != nil {
			return "", nil, false, failure.New(failure.KindInvalidArgument, "cannot name sheet: "+err.Error(), err)
		}
		delete(b.Extents, list[0])
	} else if _, err := b.NewSheet(name); err != nil {
		return "", nil, false, err
	}
	b.Track(name)
	sheet, ext, err = b.Edit(name)
	return sheet, ext, true, err
}

// touched reports whether this call already edited sheet.
func (b *Book) touched(sheet string) bool {
	ext, ok := b.Extents[sheet]
	return ok && !ext.Empty()
}

// MaxSheetName is Excel's longest sheet name.
const MaxSheetName = 31

// CheckSheetName refuses names Excel cannot store.
func CheckSheetName(name string) error {
	if strings.TrimSpace(name) == "" {
		return failure.Invalid("sheet name is empty")
	}
	if len([]rune(name)) > MaxSheetName {
		return failure.Invalid("sheet name %q is longer than %d characters", name, MaxSheetName)
	}
	if strings.ContainsAny(name, `:\/?*[]`) || strings.HasPrefix(name, "'") || strings.HasSuffix(name, "'") {
		return failure.Invalid(`sheet name %q may not contain : \ / ? * [ ] or start/end with '`, name)
	}
	return nil
}

// HasSheet reports whether b has a sheet named name (case-insensitively, as Excel).
func (b *Book) HasSheet(name string) bool {
	list, _ := b.SheetList()
	for _, s := range list {
		if strings.EqualFold(s, name) {
			return true
		}
	}
	return false
}

// SheetNames lists the sheets as JSON values.
func (b *Book) SheetNames() []any {
	list, _ := b.SheetList()
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}
