// SPDX-License-Identifier: Apache-2.0

//go:build !linux

package tokenringgocqlv2

// threadCPUNanos is 0 where the thread's CPU clock is not read (the metric is then 0).
func threadCPUNanos() int64 { return 0 }
