package excelops

import (
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/unicode/norm"
)

// sandbox resolves user paths inside one workspace root.
type sandbox struct {
	// root is the absolute, symlink-free workspace folder.
	root string
	// fs is the handle every file operation goes through (workspace.go).
	fs *os.Root
}

// newSandbox checks that root is an existing folder and remembers its real path.
func newSandbox(root string) (*sandbox, error) {
	if root == "" {
		return nil, newError(KindInvalidArgument, "workspace root is empty", nil)
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, newError(KindInvalidArgument, "workspace root: "+err.Error(), err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil, newError(KindNotFound, "workspace root does not exist: "+root, err)
	}
	st, err := os.Stat(real)
	if err != nil || !st.IsDir() {
		return nil, newError(KindInvalidArgument, "workspace root is not a folder: "+root, err)
	}
	h, err := os.OpenRoot(real)
	if err != nil {
		return nil, newError(KindIO, "cannot open the workspace root: "+err.Error(), err)
	}
	return &sandbox{root: real, fs: h}, nil
}

// refuse builds the sandbox's PermissionError-class error.
func refuse(p, why string) error {
	return newError(KindOutsideWorkspace,
		fmt.Sprintf("access denied: path %q is outside the workspace or not allowed (%s)", p, why), nil)
}

// resolve maps the user path p to an absolute path inside the root with every
// symlink resolved. The final file may be missing (resolve then checks its
// folder); a missing folder, a dangling or looping link, or anything that
// would leave the root is refused. Nothing is opened or created.
func (s *sandbox) resolve(p string) (string, error) {
	p = slashed(p)
	if err := checkLexical(p, s.userPath(p)); err != nil {
		return "", err
	}
	var joined string
	if filepath.IsAbs(p) {
		joined = filepath.Clean(p)
	} else {
		joined = filepath.Join(s.root, p)
	}
	if !within(s.root, joined) {
		// An absolute path may name the root through a symlinked alias.
		real, err := filepath.EvalSymlinks(joined)
		if err != nil || !within(s.root, real) {
			return "", refuse(s.userPath(p), "outside the workspace root")
		}
		joined = real
	}
	if joined == s.root {
		return "", refuse(s.userPath(p), "the workspace root itself is not a workbook")
	}
	dir, base := filepath.Split(joined)
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", newError(KindNotFound, fmt.Sprintf("folder of %q does not exist", s.userPath(p)), nil)
		}
		return "", refuse(s.userPath(p), "its folder cannot be resolved (link loop?)")
	}
	if !within(s.root, realDir) {
		return "", refuse(s.userPath(p), "its folder leaves the workspace through a link")
	}
	full := filepath.Join(realDir, base)
	st, err := os.Lstat(full) // a check only: every use goes through s.fs
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return full, nil
	case err != nil:
		return "", refuse(s.userPath(p), "cannot inspect it")
	case st.Mode()&fs.ModeSymlink != 0:
		target, err := filepath.EvalSymlinks(full)
		if err != nil {
			return "", refuse(s.userPath(p), "it is a dangling or looping link")
		}
		if !within(s.root, target) {
			return "", refuse(s.userPath(p), "it is a link that leaves the workspace")
		}
		return target, nil
	case st.IsDir():
		return "", newError(KindInvalidArgument, fmt.Sprintf("%q is a folder, not a workbook", s.userPath(p)), nil)
	}
	return full, nil
}

// within reports whether path is root or below it.
func within(root, path string) bool {
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
		return newError(KindInvalidArgument, "file_path is empty", nil)
	case strings.IndexByte(p, 0) >= 0:
		return refuse(shown, "it contains a NUL byte")
	case len(p) > maxPathBytes:
		return refuse(shown[:min(64, len(shown))]+"...", fmt.Sprintf("longer than %d bytes", maxPathBytes))
	case strings.ContainsRune(p, '\\'):
		return refuse(shown, "backslashes are not path separators here")
	}
	for _, part := range strings.Split(p, "/") {
		if len(part) > maxNameBytes {
			return refuse(shown[:min(64, len(shown))]+"...", fmt.Sprintf("a name is longer than %d bytes", maxNameBytes))
		}
		if part == ".." {
			return refuse(shown, `".." is not allowed`)
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
			return refuse(shown, "percent-encoded dots or separators are not allowed")
		}
		cur = dec
	}
	// Compatibility forms: full-width dots and slashes, one-dot leaders...
	for _, r := range p {
		if r < 0x80 {
			continue
		}
		if strings.ContainsAny(norm.NFKC.String(string(r)), `./\`) {
			return refuse(shown, fmt.Sprintf("character %q looks like a dot or separator", r))
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
