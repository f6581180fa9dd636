// SPDX-License-Identifier: Apache-2.0

//go:build linux && cgo

// Package cmem reports the bytes the C allocator has handed out (glibc's mallinfo2), so
// that benchmarks can count libtokenring's C memory next to the Go heap.
package cmem

// #include <malloc.h>
import "C"

// Allocated returns the bytes in use from malloc (glibc mallinfo2().uordblks + hblkhd).
func Allocated() int64 {
	m := C.mallinfo2()
	return int64(m.uordblks) + int64(m.hblkhd)
}
