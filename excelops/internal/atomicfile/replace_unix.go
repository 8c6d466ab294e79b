//go:build unix

package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// ReplaceWith is ReplaceIn on path's folder, opened by name. Callers that
// must not leave a folder they checked (a workspace handle) open the folder
// themselves and call ReplaceIn.
func ReplaceWith(ctx context.Context, path string, mode fs.FileMode, o Options, produce func(io.Writer) error) error {
	dir, err := os.Open(filepath.Dir(path))
	if err != nil {
		return &StepError{Step: StepCreate, Err: err}
	}
	defer dir.Close()
	return ReplaceIn(ctx, dir, filepath.Base(path), mode, o, produce)
}

// ReplaceIn writes what produce writes into a temporary file in the open
// folder dir, flushes and fsyncs it, gives it mode, runs o.BeforeRename,
// puts it in place of dir's entry name and fsyncs the folder. Every step
// is relative to dir's descriptor (openat, linkat, renameat), never to a
// path looked up again, so whatever happens to the tree around dir meanwhile
// the temporary file and the new content stay in that folder. If ctx ends
// before the rename, nothing is replaced. On any error the temporary file is
// gone and name keeps its old bytes.
func ReplaceIn(ctx context.Context, dir *os.File, name string, mode fs.FileMode, o Options, produce func(io.Writer) error) (err error) {
	if name == "" || strings.ContainsRune(name, '/') || name == "." || name == ".." {
		return &StepError{Step: StepCreate, Err: &fs.PathError{Op: "replace", Path: name, Err: fs.ErrInvalid}}
	}
	dfd := int(dir.Fd())
	SweepStaleIn(dir, time.Now().Add(-StaleAfter))
	SweepDeadIn(dir)
	tmp, named, err := createTemp(dfd, mode)
	if err != nil {
		return &StepError{Step: StepCreate, Err: err}
	}
	linked := named // the name the temporary file has, once it has one
	defer func() {
		if err != nil {
			_ = tmp.Close()
			if linked != "" {
				_ = unix.Unlinkat(dfd, linked, 0)
			}
		}
	}()
	if err = fill(ctx, tmp, mode, o, produce); err != nil {
		return err
	}
	if linked == "" {
		if linked, err = linkTemp(dfd, tmp); err != nil {
			return &StepError{Step: StepLink, Err: err}
		}
	}
	if err = tmp.Close(); err != nil {
		return &StepError{Step: StepClose, Err: err}
	}
	if err = unix.Renameat(dfd, linked, dfd, name); err != nil {
		return &StepError{Step: StepRename, Err: &fs.PathError{Op: "rename", Path: name, Err: err}}
	}
	linked = ""
	// The new content is in place; a failed folder sync only weakens
	// durability after a power loss, so it is reported, nothing is undone.
	if err := dir.Sync(); err != nil {
		return &StepError{Step: StepSyncFolder, Err: err}
	}
	return nil
}

// procFD is where an unnamed file is found by descriptor to be linked
// into place (linkTemp).
const procFD = "/proc/self/fd/"

// createTemp opens an unnamed temporary file in the folder dfd
// (O_TMPFILE), or, where the file system cannot or no /proc is mounted to
// link it from (a bare chroot), a named one (whose name, relative to dfd,
// it returns).
func createTemp(dfd int, mode fs.FileMode) (*os.File, string, error) {
	if _, err := os.Stat(procFD); oTmpfile != 0 && err == nil {
		fd, err := unix.Openat(dfd, ".", oTmpfile|unix.O_RDWR|unix.O_CLOEXEC, uint32(mode.Perm()|0o200))
		if err == nil {
			return os.NewFile(uintptr(fd), "(unnamed)"), "", nil
		}
		if !errors.Is(err, unix.EOPNOTSUPP) && !errors.Is(err, unix.EISDIR) && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOENT) {
			return nil, "", &fs.PathError{Op: "open", Path: "(temporary file)", Err: err}
		}
	}
	for i := 0; ; i++ {
		name := strings.Replace(TempPattern, "*", strconv.FormatUint(rand.Uint64(), 36), 1)
		fd, err := unix.Openat(dfd, name, unix.O_RDWR|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if err == nil {
			return os.NewFile(uintptr(fd), name), name, nil
		}
		if !errors.Is(err, unix.EEXIST) || i > 100 {
			return nil, "", &fs.PathError{Op: "open", Path: name, Err: err}
		}
	}
}

// linkTemp gives the unnamed file f a temporary name in the folder dfd and
// returns it.
func linkTemp(dfd int, f *os.File) (string, error) {
	src := procFD + strconv.Itoa(int(f.Fd()))
	for i := 0; ; i++ {
		name := fmt.Sprintf(".~registry-sidecar-%d-%d.tmp", os.Getpid(), time.Now().UnixNano()+int64(i))
		// The name carries the pid, so a process killed between this link
		// and the rename leaves a file the next save sweeps (SweepDead).
		err := unix.Linkat(unix.AT_FDCWD, src, dfd, name, unix.AT_SYMLINK_FOLLOW)
		if err == nil {
			return name, nil
		}
		if !errors.Is(err, unix.EEXIST) || i > 100 {
			return "", &fs.PathError{Op: "link", Path: name, Err: err}
		}
	}
}

// SweepStale is SweepStaleIn on the folder dir, opened by name.
func SweepStale(dir string, cutoff time.Time) int {
	d, err := os.Open(dir)
	if err != nil {
		return 0
	}
	defer d.Close()
	return SweepStaleIn(d, cutoff)
}

// SweepStaleIn removes the temporary files of replacements in the open
// folder dir last modified before cutoff (left behind by a killed process)
// and returns how many it removed. Errors are ignored: a file it cannot
// remove is left for the next sweep, and the user's files are never touched.
func SweepStaleIn(dir *os.File, cutoff time.Time) int {
	removed := 0
	for _, name := range temporaries(dir, TempPattern) {
		var st unix.Stat_t
		if unix.Fstatat(int(dir.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW) != nil ||
			st.Mode&unix.S_IFMT != unix.S_IFREG || !time.Unix(st.Mtim.Unix()).Before(cutoff) {
			continue
		}
		if unix.Unlinkat(int(dir.Fd()), name, 0) == nil {
			removed++
		}
	}
	return removed
}

// SweepDead is SweepDeadIn on the folder dir, opened by name.
func SweepDead(dir string) int {
	d, err := os.Open(dir)
	if err != nil {
		return 0
	}
	defer d.Close()
	return SweepDeadIn(d)
}

// SweepDeadIn removes the named temporaries in the open folder dir that a
// process killed between naming its finished temporary file and renaming it
// left behind (their names carry the pid of the process that made them, and
// that process no longer exists), and returns how many it removed.
func SweepDeadIn(dir *os.File) int {
	removed := 0
	for _, name := range temporaries(dir, ".~registry-sidecar-*-*.tmp") {
		rest := strings.TrimPrefix(name, ".~registry-sidecar-")
		pid, err := strconv.Atoi(rest[:strings.IndexByte(rest, '-')])
		if err != nil || pid <= 0 || pid == os.Getpid() {
			continue
		}
		if err := unix.Kill(pid, 0); !errors.Is(err, unix.ESRCH) {
			continue // alive (or not ours to probe): its save may be in flight
		}
		var st unix.Stat_t
		if unix.Fstatat(int(dir.Fd()), name, &st, unix.AT_SYMLINK_NOFOLLOW) == nil &&
			st.Mode&unix.S_IFMT == unix.S_IFREG && unix.Unlinkat(int(dir.Fd()), name, 0) == nil {
			removed++
		}
	}
	return removed
}

// temporaries lists the names in the open folder dir that match pattern
// (a filepath.Match pattern), reading the folder from its start through a
// duplicate descriptor so dir's own offset is left alone.
func temporaries(dir *os.File, pattern string) []string {
	fd, err := unix.Openat(int(dir.Fd()), ".", unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil
	}
	d := os.NewFile(uintptr(fd), ".")
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	var out []string
	for _, n := range names {
		if ok, _ := filepath.Match(pattern, n); ok {
			out = append(out, n)
		}
	}
	return out
}
