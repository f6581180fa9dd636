// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <stdlib.h>
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"unsafe"
)

// Partitioner is one of Cassandra's partitioners a ring can use (tokenring_partitioner).
type Partitioner int32

// Partitioners.
const (
	PartitionerMurmur3     Partitioner = 0 // Murmur3Partitioner: int64 tokens (the default)
	PartitionerRandom      Partitioner = 1 // RandomPartitioner: Token128 tokens, 0 .. 2^127
	PartitionerByteOrdered Partitioner = 2 // ByteOrderedPartitioner: the key's bytes
)

// ByteTokenMax is the longest ByteOrderedPartitioner node token in bytes
// (TOKENRING_BYTE_TOKEN_MAX, a partition key's limit).
const ByteTokenMax = 65535

// Ownership flags (Ring.OwnershipFlags).
const (
	OwnershipNoWidths      uint32 = 1 // no token arithmetic: every width is 0 (ByteOrdered)
	OwnershipDataDependent uint32 = 2 // Cassandra's figure depends on the data; the no-data one is given
)

// String returns the Java class name ("org.apache.cassandra.dht.RandomPartitioner"), or
// "Partitioner(N)" outside the enum.
func (p Partitioner) String() string {
	s := C.tokenring_partitioner_name(C.tokenring_partitioner(p))
	if s == nil {
		return "Partitioner(" + itoa(int64(p)) + ")"
	}
	return C.GoString(s)
}

// ParsePartitioner reads a class name or short class name, exactly as Cassandra reads them
// (case-sensitive), or murmur3/random/byteordered (case ignored). ErrUnsupported for OrderPreservingPartitioner and LocalPartitioner,
// ErrParse for anything else.
func ParsePartitioner(text string) (Partitioner, error) {
	var detail C.tokenring_error
	var out C.tokenring_partitioner
	st := C.tokenring_partitioner_parse(&out, textPtr(text), C.size_t(len(text)), &detail)
	if err := newError(st, &detail); err != nil {
		return 0, err
	}
	return Partitioner(out), nil
}

// NewPartitionedTopology returns an empty topology of the given partitioner. Its tokens
// enter through AddNode128 (Random) or AddNodeBytes (ByteOrdered); AddNode and SetTokens
// return ErrUnsupported on it, and NodeInfo.Tokens is nil (see NodeTokens128 and
// NodeTokensBytes).
func NewPartitionedTopology(p Partitioner) (*Topology, error) {
	var ptr *C.tokenring_topology
	if err := check(C.tokenring_topology_new_partitioned(&ptr, C.tokenring_partitioner(p))); err != nil {
		return nil, err
	}
	return wrapTopology(ptr), nil
}

// Partitioner returns the topology's partitioner (Murmur3 for the zero value).
func (t *Topology) Partitioner() Partitioner {
	if t == nil {
		return PartitionerMurmur3
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return Partitioner(C.tokenring_topology_partitioner(t.ptr))
}

func token128Ptr(t []Token128) *C.tokenring_token128 {
	if len(t) == 0 {
		return nil
	}
	return (*C.tokenring_token128)(unsafe.Pointer(&t[0]))
}

// cByteTokens copies tokens into one C block (pointers, lengths, bytes): cgo forbids
// passing Go memory that holds Go pointers. Free with C.free.
func cByteTokens(tokens [][]byte) (block unsafe.Pointer, ptrs **C.uint8_t, lens *C.size_t) {
	n := len(tokens)
	total := 0
	for _, b := range tokens {
		total += len(b)
	}
	ps := unsafe.Sizeof(uintptr(0))
	block = C.malloc(C.size_t(uintptr(n+1)*(ps+unsafe.Sizeof(C.size_t(0))) + uintptr(total) + 1))
	if block == nil {
		panic("tokenring: out of memory copying byte tokens")
	}
	pa := unsafe.Slice((**C.uint8_t)(block), n+1)
	la := unsafe.Slice((*C.size_t)(unsafe.Add(block, uintptr(n+1)*ps)), n+1)
	data := unsafe.Add(block, uintptr(n+1)*(ps+unsafe.Sizeof(C.size_t(0))))
	at := uintptr(0)
	for i, b := range tokens {
		dst := unsafe.Add(data, at)
		if len(b) > 0 {
			copy(unsafe.Slice((*byte)(dst), len(b)), b)
		}
		pa[i] = (*C.uint8_t)(dst)
		la[i] = C.size_t(len(b))
		at += uintptr(len(b))
	}
	return block, &pa[0], &la[0]
}

// AddNode128 adds a node of a RandomPartitioner topology with its tokens (0 .. 2^127;
// Token128Min is refused with ErrRange), with AddNode's other rules.
func (t *Topology) AddNode128(name, datacenter, rack string, tokens []Token128) error {
	cn, err := cname("node name", name)
	if err != nil {
		return err
	}
	cd, err := cname("datacenter name", datacenter)
	if err != nil {
		return err
	}
	cr, err := cname("rack name", rack)
	if err != nil {
		return err
	}
	if err := t.enter(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	var detail C.tokenring_error
	st := C.tokenring_topology_add_node128(t.ptr, charp(cn), charp(cd), charp(cr), token128Ptr(tokens), C.size_t(len(tokens)), &detail)
	return newError(st, &detail)
}

// AddNodeBytes adds a node of a ByteOrderedPartitioner topology (tokens copied; at most
// ByteTokenMax bytes each), with AddNode's other rules.
func (t *Topology) AddNodeBytes(name, datacenter, rack string, tokens [][]byte) error {
	cn, err := cname("node name", name)
	if err != nil {
		return err
	}
	cd, err := cname("datacenter name", datacenter)
	if err != nil {
		return err
	}
	cr, err := cname("rack name", rack)
	if err != nil {
		return err
	}
	block, ptrs, lens := cByteTokens(tokens)
	defer C.free(block)
	if err := t.enter(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	var detail C.tokenring_error
	st := C.tokenring_topology_add_node_bytes(t.ptr, charp(cn), charp(cd), charp(cr), ptrs, lens, C.size_t(len(tokens)), &detail)
	return newError(st, &detail)
}

// SetTokens128 gives a node of a RandomPartitioner topology new tokens (a completed move).
func (t *Topology) SetTokens128(name string, tokens []Token128) error {
	cn, err := cname("node name", name)
	if err != nil {
		return err
	}
	if err := t.enter(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	var detail C.tokenring_error
	return newError(C.tokenring_topology_set_tokens128(t.ptr, charp(cn), token128Ptr(tokens), C.size_t(len(tokens)), &detail), &detail)
}

// SetTokensBytes gives a node of a ByteOrderedPartitioner topology new tokens.
func (t *Topology) SetTokensBytes(name string, tokens [][]byte) error {
	cn, err := cname("node name", name)
	if err != nil {
		return err
	}
	block, ptrs, lens := cByteTokens(tokens)
	defer C.free(block)
	if err := t.enter(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	var detail C.tokenring_error
	return newError(C.tokenring_topology_set_tokens_bytes(t.ptr, charp(cn), ptrs, lens, C.size_t(len(tokens)), &detail), &detail)
}

// NodeTokens128 returns the tokens (ascending) of node i of a RandomPartitioner topology.
func (t *Topology) NodeTokens128(i int) ([]Token128, error) {
	if i < 0 {
		return nil, goError(CodeRange, "node index %d is negative", i)
	}
	if err := t.enter(); err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	var n C.tokenring_node_info
	if err := check(C.tokenring_topology_node(&n, t.ptr, C.size_t(i))); err != nil {
		return nil, err
	}
	out := make([]Token128, int(n.token_count))
	for k := range out {
		var c C.tokenring_token128
		if err := check(C.tokenring_topology_node_token128(&c, t.ptr, C.size_t(i), C.size_t(k))); err != nil {
			return nil, err
		}
		out[k] = token128FromC(c)
	}
	return out, nil
}

// NodeTokensBytes returns copies of the tokens (ascending) of node i of a
// ByteOrderedPartitioner topology.
func (t *Topology) NodeTokensBytes(i int) ([][]byte, error) {
	if i < 0 {
		return nil, goError(CodeRange, "node index %d is negative", i)
	}
	if err := t.enter(); err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	var n C.tokenring_node_info
	if err := check(C.tokenring_topology_node(&n, t.ptr, C.size_t(i))); err != nil {
		return nil, err
	}
	out := make([][]byte, int(n.token_count))
	for k := range out {
		var b *C.uint8_t
		var l C.size_t
		if err := check(C.tokenring_topology_node_token_bytes(&b, &l, t.ptr, C.size_t(i), C.size_t(k))); err != nil {
			return nil, err
		}
		out[k] = C.GoBytes(unsafe.Pointer(b), C.int(l))
	}
	return out, nil
}

// Partitioner returns the ring's partitioner.
func (r *Ring) Partitioner() Partitioner {
	p, err := r.acquire()
	if err != nil {
		return PartitionerMurmur3
	}
	defer r.release()
	return Partitioner(C.tokenring_ring_partitioner(p))
}

func searchResult(i C.uint32_t) (int, error) {
	if i == C.uint32_t(^uint32(0)) {
		return 0, goError(CodeUnsupported, "the ring's partitioner does not take this token type")
	}
	return int(i), nil
}

// Search128 returns the index of the range holding a RandomPartitioner token.
// ErrUnsupported on a ring of another partitioner.
func (r *Ring) Search128(token Token128) (int, error) {
	p, err := r.acquire()
	if err != nil {
		return 0, err
	}
	i := C.tokenring_ring_search128(p, token.c())
	r.release()
	return searchResult(i)
}

// SearchBytes returns the index of the range holding a ByteOrderedPartitioner token (a
// key's bytes). ErrUnsupported on a ring of another partitioner.
func (r *Ring) SearchBytes(token []byte) (int, error) {
	p, err := r.acquire()
	if err != nil {
		return 0, err
	}
	i := C.tokenring_ring_search_bytes(p, (*C.uint8_t)(bytesPtr(token)), C.size_t(len(token)))
	r.release()
	return searchResult(i)
}

// Token128 returns ring token i of a RandomPartitioner ring.
func (r *Ring) Token128(i int) (Token128, error) {
	if i < 0 {
		return Token128{}, goError(CodeRange, "ring index %d is negative", i)
	}
	p, err := r.acquire()
	if err != nil {
		return Token128{}, err
	}
	defer r.release()
	var c C.tokenring_token128
	if err := check(C.tokenring_ring_token128(&c, p, C.size_t(i))); err != nil {
		return Token128{}, err
	}
	return token128FromC(c), nil
}

// TokenBytes returns a copy of ring token i of a ByteOrderedPartitioner ring.
func (r *Ring) TokenBytes(i int) ([]byte, error) {
	if i < 0 {
		return nil, goError(CodeRange, "ring index %d is negative", i)
	}
	p, err := r.acquire()
	if err != nil {
		return nil, err
	}
	defer r.release()
	var b *C.uint8_t
	var l C.size_t
	if err := check(C.tokenring_ring_token_bytes(&b, &l, p, C.size_t(i))); err != nil {
		return nil, err
	}
	return C.GoBytes(unsafe.Pointer(b), C.int(l)), nil
}

// Range128 is one range (Start, End] of a RandomPartitioner ring with Cassandra's exact
// width over 2^127.
type Range128 struct {
	Start Token128 // exclusive lower bound
	End   Token128 // inclusive upper bound
	Width U128     // (End - Start + 2^127) mod 2^127; 2^127 for a single token
	Index int      // range index
	Owner int      // node index owning End
}

// Range128 returns range i of a RandomPartitioner ring (ErrUnsupported on another).
func (r *Ring) Range128(i int) (Range128, error) {
	if i < 0 {
		return Range128{}, goError(CodeRange, "range index %d is negative", i)
	}
	p, err := r.acquire()
	if err != nil {
		return Range128{}, err
	}
	defer r.release()
	var c C.tokenring_range128
	if err := check(C.tokenring_ring_range128(&c, p, C.size_t(i))); err != nil {
		return Range128{}, err
	}
	return Range128{Start: token128FromC(c.start), End: token128FromC(c.end), Width: u128(c.width), Index: int(c.index), Owner: int(c.owner)}, nil
}

// OwnershipFlags tells what Ownership gives for the ring's partitioner: 0, or
// OwnershipNoWidths|OwnershipDataDependent for ByteOrderedPartitioner.
func (r *Ring) OwnershipFlags() uint32 {
	p, err := r.acquire()
	if err != nil {
		return 0
	}
	defer r.release()
	return uint32(C.tokenring_ring_ownership_flags(p))
}

// ReplicasForKeyAny returns the replicas of a serialized partition key hashed with the
// ring's partitioner (Murmur3, RandomPartitioner's MD5, or the key's bytes).
func (p *Placement) ReplicasForKeyAny(key []byte) (Replicas, error) {
	pp, err := p.acquire()
	if err != nil {
		return Replicas{}, err
	}
	defer p.release()
	var c C.tokenring_replicas
	if err := check(C.tokenring_placement_replicas_for_key_any(&c, pp, bytesPtr(key), C.size_t(len(key)))); err != nil {
		return Replicas{}, err
	}
	return replicasFromC(&c), nil
}
