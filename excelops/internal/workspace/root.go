package workspace

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/unicode/norm"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// Root is one workspace: it resolves user paths inside the folder and does
// every file operation on them through an *os.Root handle.
type Root struct {
	// dir is the absolute, symlink-free workspace folder.
	dir string
	// fs is the handle every file operation goes through (handle.go).
	fs *os.Root
}

// Path limits: what a requested path may be before the disk is touched.
const (
	// maxPathBytes caps a requested path (Linux PATH_MAX).
	maxPathBytes = 4096
	// maxNameBytes caps one path component (NAME_MAX).
	maxNameBytes = 255
	// maxDecodeRounds is how many times a path is percent-decoded to look
	// for hidden dots and separators (double encoding and beyond).
	maxDecodeRounds = 4
)

// Open checks that root is an existing folder, remembers its real path and
// opens the handle every operation goes through.
func Open(root string) (*Root, error) {
	if root == "" {
		return nil, failure.New(failure.KindInvalidArgument, "workspace root is empty", nil)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, failure.New(failure.KindInvalidArgument, "workspace root: "+err.Error(), err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, failure.New(failure.KindNotFound, "workspace root does not exist: "+root, err)
	}
	st, err := os.Stat(real)
	if err != nil || !st.IsDir() {
		return nil, failure.New(failure.KindInvalidArgument, "workspace root is not a folder: "+root, err)
	}
	h, err := os.OpenRoot(real)
	if err != nil {
		return nil, failure.New(failure.KindIO, "cannot open the workspace root: "+err.Error(), err)
	}
	return &Root{dir: real, fs: h}, nil
}

// Refuse builds the workspace's refusal of the user path p, a
// KindOutsideWorkspace error (PermissionError) saying why.
func Refuse(p, why string) error {
	return failure.New(failure.KindOutsideWorkspace,
		fmt.Sprintf("access denied: path %q is outside the workspace or not allowed (%s)", p, why), nil)
}

// Dir is the absolute, symlink-free workspace folder.
func (s *Root) Dir() string { return s.dir }

// Resolve maps the user path p to an absolute path inside the root with every
// symlink resolved. The final file may be missing (resolve then checks its
// folder); a missing folder, a dangling or looping link, or anything that
// would leave the root is refused. Nothing is opened or created.
func (s *Root) Resolve(p string) (string, error) {
	p = slashed(p)
	if err := checkLexical(p, s.UserPath(p)); err != nil {
		return "", err
	}
	var joined string
	if filepath.IsAbs(p) {
		joined = filepath.Clean(p)
	} else {
		joined = filepath.Join(s.dir, p)
	}
	if !Within(s.dir, joined) {
		// An absolute path may name the root through a symlinked alias.
		real, err := filepath.EvalSymlinks(joined)
		if err != nil || !Within(s.dir, real) {
			return "", Refuse(s.UserPath(p), "outside the workspace root")
		}
		joined = real
	}
	if joined == s.dir {
		return "", Refuse(s.UserPath(p), "the workspace root itself is not a workbook")
	}
	dir, base := filepath.Split(joined)
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", failure.New(failure.KindNotFound, fmt.Sprintf("folder of %q does not exist", s.UserPath(p)), nil)
		}
		return "", Refuse(s.UserPath(p), "its folder cannot be resolved (link loop?)")
	}
	if !Within(s.dir, realDir) {
		return "", Refuse(s.UserPath(p), "its folder leaves the workspace through a link")
	}
	full := filepath.Join(realDir, base)
	st, err := os.Lstat(full) // a check only: every use goes through s.fs
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return full, nil
	case err != nil:
		return "", Refuse(s.UserPath(p), "cannot inspect it")
	case st.Mode()&fs.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(full)
		if err != nil {
			return "", Refuse(s.UserPath(p), "it is a dangling or looping link")
		}
		if !Within(s.dir, target) {
			return "", Refuse(s.UserPath(p), "it is a link that leaves the workspace")
		}
		return target, nil
	case st.IsDir():
		return "", failure.New(failure.KindInvalidArgument, fmt.Sprintf("%q is a folder, not a workbook", s.UserPath(p)), nil)
	}
	return full, nil
}

// ResolveDir maps a user folder ("" or "." for the workspace root) to a
// real folder inside the workspace, refusing what Resolve refuses.
func (s *Root) ResolveDir(p string) (string, error) {
	p = slashed(p)
	if p == "" || p == "." || p == "./" {
		return s.dir, nil
	}
	shown := s.UserPath(p)
	if err := checkLexical(p, shown); err != nil {
		return "", err
	}
	joined := filepath.Join(s.dir, p)
	if filepath.IsAbs(p) {
		joined = filepath.Clean(p)
	}
	real, err := filepath.EvalSymlinks(joined)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", failure.New(failure.KindNotFound, fmt.Sprintf("folder %q does not exist", shown), nil)
		}
		return "", Refuse(shown, "it cannot be resolved (link loop?)")
	}
	if !Within(s.dir, real) {
		return "", Refuse(shown, "outside the workspace root")
	}
	st, err := s.Stat(real)
	if err != nil {
		return "", failure.New(failure.KindIO, "cannot inspect the folder: "+err.Error(), err)
	}
	if !st.IsDir() {
		return "", failure.New(failure.KindInvalidArgument, fmt.Sprintf("%q is a file, not a folder: pass its folder (or omit folder for the whole workspace)", shown), nil)
	}
	return real, nil
}

// Within reports whether path is root or below it.
func Within(root, path string) bool {
	if path == root {
		return true
	}
	return strings.HasPrefix(path, root+string(filepath.Separator))
}

// checkLexical refuses paths that are hostile before touching the disk
// (naming the path as shown in its messages):
// empty, NUL, over-long, backslashes, "..", and dots or separators hidden by
// percent-encoding or full-width/compatibility characters; then what the
// system cannot hold (checkSystem: on Windows, where resolve has turned
// backslashes into slashes first, UNC and device paths, streams, device
// names).
func checkLexical(p, shown string) error {
	switch {
	case p == "":
		return failure.New(failure.KindInvalidArgument, "file_path is empty", nil)
	case strings.IndexByte(p, 0) >= 0:
		return Refuse(shown, "it contains a NUL byte")
	case len(p) > maxPathBytes:
		return Refuse(shown[:min(64, len(shown))]+"...", fmt.Sprintf("longer than %d bytes", maxPathBytes))
	case strings.ContainsRune(p, '\\'):
		return Refuse(shown, "backslashes are not path separators here")
	}
	for _, part := range strings.Split(p, "/") {
		if len(part) > maxNameBytes {
			return Refuse(shown[:min(64, len(shown))]+"...", fmt.Sprintf("a name is longer than %d bytes", maxNameBytes))
		}
		if part == ".." {
			return Refuse(shown, `".." is not allowed`)
		}
	}
	// Percent-encoding: decode repeatedly; any hidden dot-dot, separator or
	// NUL is refused, and so is anything still encoded after the rounds.
	cur := p
	for i := 0; i < maxDecodeRounds && strings.ContainsRune(cur, '%'); i++ {
		dec, err := url.PathUnescape(cur)
		if err != nil {
			break // a lone '%' is a plain character
		}
		if dec != cur && hostileDecoded(dec) {
			return Refuse(shown, "percent-encoded dots or separators are not allowed")
		}
		cur = dec
	}
	// Compatibility forms: full-width dots and slashes, one-dot leaders...
	for _, r := range p {
		if r < 0x80 {
			continue
		}
		if strings.ContainsAny(norm.NFKC.String(string(r)), `./\`) {
			return Refuse(shown, fmt.Sprintf("character %q looks like a dot or separator", r))
		}
	}
	return checkSystem(p, shown)
}

// hostileDecoded reports whether a decoded path holds a dot-dot component,
// a backslash or a NUL.
func hostileDecoded(dec string) bool {
	if strings.ContainsAny(dec, "\\\x00") {
		return true
	}
	for _, part := range strings.Split(dec, "/") {
		if part == ".." {
			return true
		}
	}
	return false
}
