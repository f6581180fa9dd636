// SPDX-License-Identifier: Apache-2.0

// Package ctiming times the library's own C calls for the Go binding's benchmarks: the
// same rings, keys and operations as bench_test.go, in plain C, inside the benchmark
// process. Only the benchmarks import it. The library's symbols come from the binding
// (its bundled source, or the installed library with -tags libtokenring).
package ctiming

/*
#cgo !libtokenring CFLAGS: -I${SRCDIR}/../../csrc
#cgo libtokenring pkg-config: tokenring
#cgo CFLAGS: -O2 -std=c11 -D_POSIX_C_SOURCE=200809L
#include <stdlib.h>
#include "ctiming.h"
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Operations, as in ctiming.h.
const (
	TokenSingle         = C.OP_TOKEN_SINGLE
	TokenBatch          = C.OP_TOKEN_BATCH
	OwnerSingle         = C.OP_OWNER_SINGLE
	KeySingle           = C.OP_KEY_SINGLE
	KeyBatch            = C.OP_KEY_BATCH
	TokenReplicasSingle = C.OP_TOKEN_REPLICAS_SINGLE
	TokenReplicasBatch  = C.OP_TOKEN_REPLICAS_BATCH
	KeyReplicasBatch    = C.OP_KEY_REPLICAS_BATCH
)

// Setup builds ring index (0 or 1) in C and returns a checksum of its tokens and key
// tokens, to compare with the Go side's.
func Setup(index, nodes, vnodes, dcs, racks int, repl string) (uint64, error) {
	cs := C.CString(repl)
	defer C.free(unsafe.Pointer(cs))
	var sum C.uint64_t
	if rc := C.ctiming_setup(C.int(index), C.int(nodes), C.int(vnodes), C.int(dcs), C.int(racks), cs, &sum); rc != 0 {
		return 0, fmt.Errorf("ctiming setup: status %d", int(rc))
	}
	return uint64(sum), nil
}

// Run times one pass of op over the ring's 100,000 keys and returns the calling
// thread's CPU time per key in nanoseconds.
func Run(index, op int) float64 { return float64(C.ctiming_run(C.int(index), C.int(op))) }
