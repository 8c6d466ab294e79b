package limits

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// memoryStatusEx is Windows' MEMORYSTATUSEX.
type memoryStatusEx struct {
	length               uint32
	memoryLoad           uint32
	totalPhys            uint64
	availPhys            uint64
	totalPageFile        uint64
	availPageFile        uint64
	totalVirtual         uint64
	availVirtual         uint64
	availExtendedVirtual uint64
}

// physicalMemory is the machine's RAM in bytes (GlobalMemoryStatusEx), 0
// when unknown.
func physicalMemory() int64 {
	st := memoryStatusEx{length: uint32(unsafe.Sizeof(memoryStatusEx{}))}
	proc := windows.NewLazySystemDLL("kernel32.dll").NewProc("GlobalMemoryStatusEx")
	if proc.Find() != nil {
		return 0
	}
	if ok, _, _ := proc.Call(uintptr(unsafe.Pointer(&st))); ok == 0 {
		return 0
	}
	return int64(st.totalPhys)
}

// addressSpaceLimit is 0: Windows has no ulimit -v (the memory limit of a
// job object the process may run in is not read).
func addressSpaceLimit() int64 { return 0 }
