//go:build unix

package limits

import "syscall"

// addressSpaceLimit is the process's address-space limit (ulimit -v) in
// bytes, 0 when there is none.
func addressSpaceLimit() int64 {
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &rl) == nil && rl.Cur < 1<<62 {
		return int64(rl.Cur)
	}
	return 0
}
