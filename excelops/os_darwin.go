package excelops

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// physicalMemory is the machine's RAM in bytes, 0 when unknown.
func physicalMemory() int64 {
	n, err := unix.SysctlUint64("hw.memsize")
	if err != nil {
		return 0
	}
	return int64(n)
}

// ctimeNanos is the status-change time st records, in nanoseconds.
func ctimeNanos(st *syscall.Stat_t) int64 { return st.Ctimespec.Sec*1e9 + st.Ctimespec.Nsec }
