// SPDX-License-Identifier: Apache-2.0

//go:build !linux || !cgo

package cmem

// Allocated returns -1: the C allocator's usage is only known on Linux with glibc.
func Allocated() int64 { return -1 }
