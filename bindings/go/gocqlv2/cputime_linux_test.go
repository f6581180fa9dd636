// SPDX-License-Identifier: Apache-2.0

//go:build linux

package tokenringgocqlv2

import (
	"syscall"
	"unsafe"
)

// threadCPUNanos is the CPU time of the calling OS thread (the benchmarks lock their
// goroutine to one), so that time preempted by other processes on a shared machine does
// not count.
func threadCPUNanos() int64 {
	var ts syscall.Timespec
	const clockThreadCPUTimeID = 3
	syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTimeID, uintptr(unsafe.Pointer(&ts)), 0)
	return ts.Nano()
}
