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
package atomicfile
