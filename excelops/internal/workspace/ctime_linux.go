package workspace

import "syscall"

// ctimeNanos is the status-change time st records, in nanoseconds.
func ctimeNanos(st *syscall.Stat_t) int64 { return st.Ctim.Sec*1e9 + st.Ctim.Nsec }
