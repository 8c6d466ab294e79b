//go:build !unix

package mcpdoor_test

import "time"

// cpuTime cannot be read here: the per-CPU-second figures are left out.
func cpuTime() (time.Duration, bool) { return 0, false }
