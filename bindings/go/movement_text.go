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
// partitioner, and the tokens of a join or a move in Cassandra's text form (one call for
// every partitioner; the typed 128 and Bytes forms convert to it). Widths are in the
// ring's units (over 2^127 for RandomPartitioner, one per elementary range for
// ByteOrderedPartitioner) and fractions over the whole ring in those units; see
// tokenring_movement_compare_keys in movement.h.

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

// textTokens fills the text bounds of every changed range and the text token of every
// sample of a result (any partitioner), and from them the typed fields of its
// partitioner (Start128/End128 and Token128, or StartBytes/EndBytes and TokenBytes).
func (out *Movement) textTokens(m *C.tokenring_movement) error {
	var err error
	text := func(call func(o *C.char, cp C.size_t, n *C.size_t) C.int) string {
		if err != nil {
			return ""
		}
		var s string
		s, err = textOut(nil, call)
		return s
	}
	for i := range out.Ranges {
		r := &out.Ranges[i]
		for end, dst := range []*string{&r.StartText, &r.EndText} {
			*dst = text(func(o *C.char, cp C.size_t, n *C.size_t) C.int {
				return C.tokenring_movement_range_bound_text(o, cp, n, m, C.size_t(i), C.int(end))
			})
		}
	}
	for i := range out.Samples {
		out.Samples[i].TokenText = text(func(o *C.char, cp C.size_t, n *C.size_t) C.int {
			return C.tokenring_movement_sample_token_text(o, cp, n, m, C.size_t(i))
		})
	}
	form, ok := typedForms[out.Partitioner]
	if err != nil || !ok {
		return err
	}
	for i := range out.Ranges {
		if err := form.bounds(&out.Ranges[i]); err != nil {
			return err
		}
	}
	for i := range out.Samples {
		if err := form.sample(&out.Samples[i]); err != nil {
			return err
		}
	}
	return nil
}

// typedForms sets the typed token fields of a result of RandomPartitioner and
// ByteOrderedPartitioner from their text (Murmur3's int64 fields come with the result).
var typedForms = map[Partitioner]struct {
	bounds func(*MovedRange) error
	sample func(*SampleChange) error
}{
	PartitionerRandom: {
		bounds: func(r *MovedRange) (err error) {
			if r.Start128, err = token128OfText(r.StartText); err == nil {
				r.End128, err = token128OfText(r.EndText)
			}
			return
		},
		sample: func(s *SampleChange) (err error) {
			s.Token128, err = token128OfText(s.TokenText)
			return
		},
	},
	PartitionerByteOrdered: {
		bounds: func(r *MovedRange) error {
			b, err := bytesOfTexts([]string{r.StartText, r.EndText})
			if err == nil {
				r.StartBytes, r.EndBytes = b[0], b[1]
			}
			return err
		},
		sample: func(s *SampleChange) error {
			b, err := bytesOfTexts([]string{s.TokenText})
			if err == nil {
				s.TokenBytes = b[0]
			}
			return err
		},
	},
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

// SimulateJoinText analyses the node name joining datacenter/rack of a topology of any
// partitioner with tokens in its text form, tracing sampleKeys (may be nil; hashed with
// the partitioner). The topology is not modified.
func (t *Topology) SimulateJoinText(repl *Replication, name, datacenter, rack string, tokens []string, sampleKeys [][]byte) (*Movement, error) {
	cn, cd, cr, err := nodeNames(name, datacenter, rack)
	if err != nil {
		return nil, err
	}
	toks, free, err := cTexts(tokens)
	if err != nil {
		return nil, err
	}
	defer free()
	kp, op, n, blob, offs := packKeys(sampleKeys)
	defer keepAlive(blob, offs)
	return t.simulate(repl, func() (C.int, *C.tokenring_movement, *C.tokenring_error) {
		var m *C.tokenring_movement
		var detail C.tokenring_error
		st := C.tokenring_movement_join_text(&m, t.ptr, repl.ptr, charp(cn), charp(cd), charp(cr),
			toks, C.size_t(len(tokens)), kp, op, n, &detail)
		return st, m, &detail
	})
}

// SimulateMoveText analyses the node name of a topology of any partitioner moving to new
// tokens in its text form, tracing sampleKeys (may be nil).
func (t *Topology) SimulateMoveText(repl *Replication, name string, tokens []string, sampleKeys [][]byte) (*Movement, error) {
	cn, err := cname("node name", name)
	if err != nil {
		return nil, err
	}
	toks, free, err := cTexts(tokens)
	if err != nil {
		return nil, err
	}
	defer free()
	kp, op, n, blob, offs := packKeys(sampleKeys)
	defer keepAlive(blob, offs)
	return t.simulate(repl, func() (C.int, *C.tokenring_movement, *C.tokenring_error) {
		var m *C.tokenring_movement
		var detail C.tokenring_error
		st := C.tokenring_movement_move_text(&m, t.ptr, repl.ptr, charp(cn), toks,
			C.size_t(len(tokens)), kp, op, n, &detail)
		return st, m, &detail
	})
}

// SimulateJoin128 analyses the node name joining a RandomPartitioner topology with
// tokens (0 .. 2^127), tracing sampleKeys (may be nil): SimulateJoinText.
func (t *Topology) SimulateJoin128(repl *Replication, name, datacenter, rack string, tokens []Token128, sampleKeys [][]byte) (*Movement, error) {
	if err := t.expect(PartitionerRandom, "SimulateJoin128"); err != nil {
		return nil, err
	}
	return t.SimulateJoinText(repl, name, datacenter, rack, token128Texts(tokens), sampleKeys)
}

// SimulateJoinBytes analyses the node name joining a ByteOrderedPartitioner topology with
// tokens (byte strings), tracing sampleKeys (may be nil): SimulateJoinText.
func (t *Topology) SimulateJoinBytes(repl *Replication, name, datacenter, rack string, tokens [][]byte, sampleKeys [][]byte) (*Movement, error) {
	if err := t.expect(PartitionerByteOrdered, "SimulateJoinBytes"); err != nil {
		return nil, err
	}
	return t.SimulateJoinText(repl, name, datacenter, rack, byteTexts(tokens), sampleKeys)
}

// SimulateMove128 analyses the node name of a RandomPartitioner topology moving to new
// tokens, tracing sampleKeys (may be nil): SimulateMoveText.
func (t *Topology) SimulateMove128(repl *Replication, name string, tokens []Token128, sampleKeys [][]byte) (*Movement, error) {
	if err := t.expect(PartitionerRandom, "SimulateMove128"); err != nil {
		return nil, err
	}
	return t.SimulateMoveText(repl, name, token128Texts(tokens), sampleKeys)
}

// SimulateMoveBytes analyses the node name of a ByteOrderedPartitioner topology moving to
// new tokens, tracing sampleKeys (may be nil): SimulateMoveText.
func (t *Topology) SimulateMoveBytes(repl *Replication, name string, tokens [][]byte, sampleKeys [][]byte) (*Movement, error) {
	if err := t.expect(PartitionerByteOrdered, "SimulateMoveBytes"); err != nil {
		return nil, err
	}
	return t.SimulateMoveText(repl, name, byteTexts(tokens), sampleKeys)
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
