// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <stdlib.h>
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Movement analyses on topologies of every partitioner: sample keys hashed with the
// partitioner, and the tokens of a join or a move in the partitioner's form. Widths are
// in the ring's units (over 2^127 for RandomPartitioner, one per elementary range for
// ByteOrderedPartitioner) and fractions over the whole ring in those units; see
// tokenring_movement_compare_keys in analysis.h.

// packKeys lays keys out as tokenring_tokens() takes them: the bytes one after the other
// and len(keys)+1 offsets. Both are plain Go memory without Go pointers, so cgo may pass
// them.
func packKeys(keys [][]byte) (*C.uint8_t, *C.uint64_t, C.size_t, []byte, []uint64) {
	total := 0
	for _, k := range keys {
		total += len(k)
	}
	blob := make([]byte, 0, total+1)
	offs := make([]uint64, 1, len(keys)+1)
	for _, k := range keys {
		blob = append(blob, k...)
		offs = append(offs, uint64(len(blob)))
	}
	blob = append(blob, 0) // never empty: a valid pointer even for empty keys
	return (*C.uint8_t)(unsafe.Pointer(&blob[0])), (*C.uint64_t)(unsafe.Pointer(&offs[0])),
		C.size_t(len(keys)), blob, offs
}

// movedBounds fills the bounds of range i of a RandomPartitioner or ByteOrderedPartitioner
// result.
func movedBounds(r *MovedRange, p Partitioner, m *C.tokenring_movement, i int) error {
	switch p {
	case PartitionerRandom:
		var a, z C.tokenring_token128
		if err := check(C.tokenring_movement_range_bounds128(&a, &z, m, C.size_t(i))); err != nil {
			return err
		}
		r.Start128 = Token128{uint64(a.hi), uint64(a.lo)}
		r.End128 = Token128{uint64(z.hi), uint64(z.lo)}
	case PartitionerByteOrdered:
		var a, z *C.uint8_t
		var al, zl C.size_t
		if err := check(C.tokenring_movement_range_bounds_bytes(&a, &al, &z, &zl, m, C.size_t(i))); err != nil {
			return err
		}
		r.StartBytes = C.GoBytes(unsafe.Pointer(a), C.int(al))
		r.EndBytes = C.GoBytes(unsafe.Pointer(z), C.int(zl))
	}
	return nil
}

// sampleToken fills the token of sample i of a RandomPartitioner or ByteOrderedPartitioner
// result.
func sampleToken(s *SampleChange, p Partitioner, m *C.tokenring_movement, i int) error {
	switch p {
	case PartitionerRandom:
		var t C.tokenring_token128
		if err := check(C.tokenring_movement_sample_token128(&t, m, C.size_t(i))); err != nil {
			return err
		}
		s.Token128 = Token128{uint64(t.hi), uint64(t.lo)}
	case PartitionerByteOrdered:
		var b *C.uint8_t
		var n C.size_t
		if err := check(C.tokenring_movement_sample_token_bytes(&b, &n, m, C.size_t(i))); err != nil {
			return err
		}
		s.TokenBytes = C.GoBytes(unsafe.Pointer(b), C.int(n))
	}
	return nil
}

// CompareMovementKeys is CompareMovement for topologies of every partitioner (both of the
// same one), with sample keys (may be nil) hashed by the partitioner: Murmur3, MD5
// (RandomPartitioner) or the key itself (ByteOrderedPartitioner).
func CompareMovementKeys(before, after *Topology, repl *Replication, kind ChangeKind, sampleKeys [][]byte) (*Movement, error) {
	kp, op, n, blob, offs := packKeys(sampleKeys)
	unlock, err := lockAll(before, after, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var m *C.tokenring_movement
	var detail C.tokenring_error
	st := C.tokenring_movement_compare_keys(&m, before.ptr, after.ptr, repl.ptr, C.int(kind), kp, op, n, &detail)
	keepAlive(blob, offs)
	if err := newError(st, &detail); err != nil {
		return nil, err
	}
	return movementFromC(m)
}

// keepAlive keeps the packed sample keys alive until the C call has returned.
func keepAlive(blob []byte, offs []uint64) {
	runtime.KeepAlive(blob)
	runtime.KeepAlive(offs)
}

// simulate runs one of the C simulations under the topology's and the replication's
// locks and copies the result.
func (t *Topology) simulate(repl *Replication, call func() (C.int, *C.tokenring_movement, *C.tokenring_error)) (*Movement, error) {
	unlock, err := lockAll(t, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	st, m, detail := call()
	if err := newError(st, detail); err != nil {
		return nil, err
	}
	return movementFromC(m)
}

func nodeNames(name, datacenter, rack string) (cn, cd, cr []byte, err error) {
	if cn, err = cname("node name", name); err != nil {
		return
	}
	if cd, err = cname("datacenter name", datacenter); err != nil {
		return
	}
	cr, err = cname("rack name", rack)
	return
}

// SimulateJoin128 analyses the node name joining a RandomPartitioner topology with
// tokens (0 .. 2^127), tracing sampleKeys (may be nil).
func (t *Topology) SimulateJoin128(repl *Replication, name, datacenter, rack string, tokens []Token128, sampleKeys [][]byte) (*Movement, error) {
	cn, cd, cr, err := nodeNames(name, datacenter, rack)
	if err != nil {
		return nil, err
	}
	kp, op, n, blob, offs := packKeys(sampleKeys)
	defer keepAlive(blob, offs)
	return t.simulate(repl, func() (C.int, *C.tokenring_movement, *C.tokenring_error) {
		var m *C.tokenring_movement
		var detail C.tokenring_error
		st := C.tokenring_movement_join128(&m, t.ptr, repl.ptr, charp(cn), charp(cd), charp(cr),
			token128Ptr(tokens), C.size_t(len(tokens)), kp, op, n, &detail)
		return st, m, &detail
	})
}

// SimulateJoinBytes analyses the node name joining a ByteOrderedPartitioner topology with
// tokens (byte strings), tracing sampleKeys (may be nil).
func (t *Topology) SimulateJoinBytes(repl *Replication, name, datacenter, rack string, tokens [][]byte, sampleKeys [][]byte) (*Movement, error) {
	cn, cd, cr, err := nodeNames(name, datacenter, rack)
	if err != nil {
		return nil, err
	}
	block, ptrs, lens := cByteTokens(tokens)
	defer C.free(block)
	kp, op, n, blob, offs := packKeys(sampleKeys)
	defer keepAlive(blob, offs)
	return t.simulate(repl, func() (C.int, *C.tokenring_movement, *C.tokenring_error) {
		var m *C.tokenring_movement
		var detail C.tokenring_error
		st := C.tokenring_movement_join_bytes(&m, t.ptr, repl.ptr, charp(cn), charp(cd), charp(cr),
			ptrs, lens, C.size_t(len(tokens)), kp, op, n, &detail)
		return st, m, &detail
	})
}

// SimulateMove128 analyses the node name of a RandomPartitioner topology moving to new
// tokens, tracing sampleKeys (may be nil).
func (t *Topology) SimulateMove128(repl *Replication, name string, tokens []Token128, sampleKeys [][]byte) (*Movement, error) {
	cn, err := cname("node name", name)
	if err != nil {
		return nil, err
	}
	kp, op, n, blob, offs := packKeys(sampleKeys)
	defer keepAlive(blob, offs)
	return t.simulate(repl, func() (C.int, *C.tokenring_movement, *C.tokenring_error) {
		var m *C.tokenring_movement
		var detail C.tokenring_error
		st := C.tokenring_movement_move128(&m, t.ptr, repl.ptr, charp(cn), token128Ptr(tokens),
			C.size_t(len(tokens)), kp, op, n, &detail)
		return st, m, &detail
	})
}

// SimulateMoveBytes analyses the node name of a ByteOrderedPartitioner topology moving to
// new tokens, tracing sampleKeys (may be nil).
func (t *Topology) SimulateMoveBytes(repl *Replication, name string, tokens [][]byte, sampleKeys [][]byte) (*Movement, error) {
	cn, err := cname("node name", name)
	if err != nil {
		return nil, err
	}
	block, ptrs, lens := cByteTokens(tokens)
	defer C.free(block)
	kp, op, n, blob, offs := packKeys(sampleKeys)
	defer keepAlive(blob, offs)
	return t.simulate(repl, func() (C.int, *C.tokenring_movement, *C.tokenring_error) {
		var m *C.tokenring_movement
		var detail C.tokenring_error
		st := C.tokenring_movement_move_bytes(&m, t.ptr, repl.ptr, charp(cn), ptrs, lens,
			C.size_t(len(tokens)), kp, op, n, &detail)
		return st, m, &detail
	})
}

// SimulateDecommissionKeys is SimulateDecommission on a topology of any partitioner, with
// sample keys (may be nil).
func (t *Topology) SimulateDecommissionKeys(repl *Replication, name string, sampleKeys [][]byte) (*Movement, error) {
	cn, err := cname("node name", name)
	if err != nil {
		return nil, err
	}
	kp, op, n, blob, offs := packKeys(sampleKeys)
	defer keepAlive(blob, offs)
	return t.simulate(repl, func() (C.int, *C.tokenring_movement, *C.tokenring_error) {
		var m *C.tokenring_movement
		var detail C.tokenring_error
		st := C.tokenring_movement_decommission_keys(&m, t.ptr, repl.ptr, charp(cn), kp, op, n, &detail)
		return st, m, &detail
	})
}

// SimulateReplaceKeys is SimulateReplace on a topology of any partitioner, with sample
// keys (may be nil).
func (t *Topology) SimulateReplaceKeys(repl *Replication, oldName, newName string, sampleKeys [][]byte) (*Movement, error) {
	co, err := cname("node name", oldName)
	if err != nil {
		return nil, err
	}
	cn, err := cname("node name", newName)
	if err != nil {
		return nil, err
	}
	kp, op, n, blob, offs := packKeys(sampleKeys)
	defer keepAlive(blob, offs)
	return t.simulate(repl, func() (C.int, *C.tokenring_movement, *C.tokenring_error) {
		var m *C.tokenring_movement
		var detail C.tokenring_error
		st := C.tokenring_movement_replace_keys(&m, t.ptr, repl.ptr, charp(co), charp(cn), kp, op, n, &detail)
		return st, m, &detail
	})
}
