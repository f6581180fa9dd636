// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"syscall"
	"unsafe"
)

// threadCPUNanos is the CPU time consumed by the calling OS thread (the benchmark locks
// its goroutine to one), so that time spent preempted by other processes on a shared
// machine does not count.
func threadCPUNanos() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}
