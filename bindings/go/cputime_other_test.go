// SPDX-License-Identifier: Apache-2.0

//go:build !linux

package tokenring

import "time"

// threadCPUNanos falls back to wall time where the thread CPU clock is not wired up.
func threadCPUNanos() int64 { return time.Now().UnixNano() }
