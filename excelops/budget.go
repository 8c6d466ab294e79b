package excelops

import "syscall"

// Bounds of the default per-call memory budget.
const (
	minCallMemoryBudget = 256 << 20
	maxCallMemoryBudget = 8 << 30
	// callBudgetShare: one call may take a quarter of the memory the
	// process can have, so a few large calls run side by side.
	callBudgetShare = 4
)

// DefaultCallMemoryBudget sizes Limits.CallMemoryBudget for this machine:
// a quarter of the memory the process may use (physical memory, or the
// address-space limit of ulimit -v when that is lower), between 256 MiB
// and 8 GiB.
func DefaultCallMemoryBudget() int64 {
	avail := physicalMemory()
	var rl syscall.Rlimit
	if syscall.Getrlimit(syscall.RLIMIT_AS, &rl) == nil && rl.Cur < 1<<62 {
		if lim := int64(rl.Cur); avail == 0 || lim < avail {
			avail = lim
		}
	}
	b := avail / callBudgetShare
	return min(max(b, minCallMemoryBudget), maxCallMemoryBudget)
}
