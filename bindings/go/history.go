// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <stdlib.h>
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

// History is a cluster's history replayed with Cassandra 6.0's placement rules
// (register, keyspace, unsafe_join, join, leave, move and replace steps, one a line:
// doc/cassandra-6.md). Its placements give each range's replicas in the order a 6.0
// server gives them (OrderHistory). Safe for concurrent use; Close frees it.
type History struct {
	mu     sync.RWMutex
	ptr    *C.tokenring_history
	closed bool
}

// History is a handle of the binding's one lock order (handles.go): read-locked by its
// methods, write-locked by Close.
func (h *History) isNil() bool   { return h == nil }
func (h *History) lock()         { h.mu.RLock() }
func (h *History) unlock()       { h.mu.RUnlock() }
func (h *History) addr() uintptr { return uintptr(unsafe.Pointer(h)) }
func (h *History) gone() error {
	if h == nil {
		return nilHandle("History")
	}
	if h.ptr != nil {
		return nil
	}
	if h.closed {
		return ErrClosed
	}
	return zeroValue("History", "ReplayHistory")
}

// ReplayHistory replays a history text. A bad step gives an *Error naming its line and
// column.
func ReplayHistory(text string) (*History, error) {
	ct := C.CString(text)
	defer C.free(unsafe.Pointer(ct))
	var h *C.tokenring_history
	var detail C.tokenring_error
	if err := newError(C.tokenring_history_replay(&h, ct, C.size_t(len(text)), &detail), &detail); err != nil {
		return nil, err
	}
	return adoptHistory(h), nil
}

func adoptHistory(h *C.tokenring_history) *History {
	out := &History{ptr: h}
	runtime.SetFinalizer(out, (*History).Close)
	return out
}

// Close frees the history (placements and rings taken from it stay valid).
func (h *History) Close() error {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ptr != nil {
		C.tokenring_history_free(h.ptr)
		h.ptr = nil
		h.closed = true
	}
	return nil
}

// Ring returns the ring after the last step (ErrEmpty when no node is in it).
func (h *History) Ring() (*Ring, error) {
	unlock, err := lockAll(h)
	if err != nil {
		return nil, err
	}
	defer unlock()
	r := C.tokenring_history_ring(h.ptr)
	if r == nil {
		return nil, ErrEmpty
	}
	return wrapRing(C.tokenring_ring_ref(r)), nil
}

// Placement returns the placement of repl after the history, in 6.0's order, on Ring().
func (h *History) Placement(repl *Replication) (*Placement, error) {
	// the history and the keyspace in the one lock order (see lockAll)
	unlock, err := lockAll(h, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var p *C.tokenring_placement
	var detail C.tokenring_error
	if err := newError(C.tokenring_history_placement(&p, h.ptr, repl.ptr, &detail), &detail); err != nil {
		return nil, err
	}
	ring := C.tokenring_history_ring(h.ptr)
	names := wrapRing(C.tokenring_ring_ref(ring))
	defer names.Close()
	return wrapPlacement(p, names.names), nil
}

// LockedRange is a range (Left, Right] of a placement; UpToMin: Right is the minimum
// token (the range runs to the end of the ring).
type LockedRange struct {
	Left, Right int64
	UpToMin     bool
}

// LockedRanges returns the ranges Cassandra 6.0 would lock in repl's placement to
// prepare operation ("join ADDRESS TOKENS", "leave ADDRESS", "move ADDRESS TOKEN",
// "replace OLD NEW") now, after the history (tokenring_history_locked_ranges). ErrNotFound
// for a replication of no keyspace of the history.
func (h *History) LockedRanges(repl *Replication, operation string) ([]LockedRange, error) {
	unlock, err := lockAll(h, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	op := C.CString(operation)
	defer C.free(unsafe.Pointer(op))
	capacity := 64
	for {
		buf := make([]C.int64_t, 2*capacity)
		var n C.size_t
		var detail C.tokenring_error
		rc := C.tokenring_history_locked_ranges(&buf[0], C.size_t(capacity), &n, h.ptr, repl.ptr, op,
			C.size_t(len(operation)), &detail)
		if rc == C.TOKENRING_E_BUFSIZE {
			capacity = int(n)
			continue
		}
		if err := newError(rc, &detail); err != nil {
			return nil, err
		}
		out := make([]LockedRange, int(n))
		for i := range out {
			r := int64(buf[2*i+1])
			out[i] = LockedRange{Left: int64(buf[2*i]), Right: r, UpToMin: r == -1<<63}
		}
		return out, nil
	}
}

// Concurrent says whether planned operations can run at once on Cassandra 6.0
// (tokenring_history_concurrent): per operation, the index of the first earlier one whose
// locked ranges it meets (6.0 refuses to prepare it while that one runs), or -1.
func (h *History) Concurrent(operations []string) ([]int, error) {
	unlock, err := lockAll(h)
	if err != nil {
		return nil, err
	}
	defer unlock()
	text := ""
	for _, op := range operations {
		text += op + "\n"
	}
	ct := C.CString(text)
	defer C.free(unsafe.Pointer(ct))
	buf := make([]C.uint32_t, len(operations)+1)
	var n C.size_t
	var detail C.tokenring_error
	if err := newError(C.tokenring_history_concurrent(&buf[0], C.size_t(len(buf)), &n, h.ptr, ct,
		C.size_t(len(text)), &detail), &detail); err != nil {
		return nil, err
	}
	out := make([]int, int(n))
	for i := range out {
		if buf[i] == C.UINT32_MAX {
			out[i] = -1
		} else {
			out[i] = int(buf[i])
		}
	}
	return out, nil
}
