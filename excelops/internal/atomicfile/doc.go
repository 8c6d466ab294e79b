// Package atomicfile replaces a file's content so that a failure or a kill
// at any instant leaves either the old bytes or the complete new ones.
//
// The new content goes to an unnamed temporary file in the target's folder
// (O_TMPFILE), which is fsynced and given the wanted mode; only when it is
// complete is it linked under a temporary name and at once renamed over the
// target; then the folder is fsynced so the rename survives a power loss. A
// process killed while writing leaves nothing behind: the kernel frees an
// unnamed file on close. Where the file system has no O_TMPFILE the
// temporary file is named from the start; temporaries of killed saves are
// swept by the next save in that folder (SweepStale).
//
// Options.BeforeRename runs right before the rename, under whatever lock
// the caller holds, so a caller can verify that the target is still the
// version it read (and refuse to overwrite someone else's change).
//
// # Two ways to hold the folder
//
// On Unix, ReplaceIn acts relative to an open folder descriptor: openat,
// linkat and renameat (replace_unix.go). Windows has no such calls, so
// there the folder is held as an *os.Root and ReplaceInRoot does every step
// through the root's methods (replace_root.go): the temporary file is named
// from the start (O_CREATE|O_EXCL), Root.Rename replaces the target (a
// POSIX-semantics rename that also succeeds while other handles opened
// with delete sharing, as os.Root opens them, are open on the target; a
// rename refused because another program holds the target, such as a
// virus scanner or Excel, is retried for up to two seconds), and the folder
// is not fsynced (NTFS journals the rename; a folder handle from os.Root
// cannot be flushed). ReplaceInRoot builds on every system, so its tests
// run on Linux too; callers on Unix keep ReplaceIn. ReplaceWith and
// SweepStale (by path) use whichever fits the system.
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package atomicfile
