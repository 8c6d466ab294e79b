package splice

import "golang.org/x/sys/unix"

// oTmpfile opens an unnamed file in a folder (Linux's O_TMPFILE).
const oTmpfile = unix.O_TMPFILE
