// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"math/big"
	"runtime"
	"strconv"
	"sync"
	"unsafe"
)

// U128 is an unsigned 128-bit integer, for exact widths that can reach 2^64.
type U128 struct {
	Hi, Lo uint64
}

// Big returns the value as a big.Int.
func (u U128) Big() *big.Int {
	b := new(big.Int).SetUint64(u.Hi)
	b.Lsh(b, 64)
	return b.Or(b, new(big.Int).SetUint64(u.Lo))
}

// String returns the value in decimal.
func (u U128) String() string {
	if u.Hi == 0 {
		return strconv.FormatUint(u.Lo, 10)
	}
	return u.Big().String()
}

func u128(v C.tokenring_u128) U128 { return U128{Hi: uint64(v.hi), Lo: uint64(v.lo)} }

// Range is one range (Start, End] of a ring with its exact width.
type Range struct {
	Start int64 // exclusive lower bound (the previous ring token)
	End   int64 // inclusive upper bound (the range's own ring token)
	Width U128  // number of tokens in the range; 2^64 when the ring has one token
	Index int   // range index = index of End among the ring's sorted tokens
	Owner int   // index of the node owning End (the primary owner)
}

func rangeFromC(r *C.tokenring_range) Range {
	return Range{Start: int64(r.start), End: int64(r.end), Width: u128(r.width), Index: int(r.index), Owner: int(r.owner)}
}

// Ring is an immutable snapshot of a topology's token ring. Any number of goroutines may
// query one Ring at once. Close frees it once no method is running on it; afterwards
// every method returns ErrClosed (or a zero value). A finalizer frees a forgotten ring at
// a later garbage collection, but call Close: the C memory is invisible to Go's GC.
type Ring struct {
	mu    sync.RWMutex // read-held by every method, write-held by Close
	ptr   *C.tokenring_ring
	names []string // node names, cached when the ring is wrapped
	// closed is set by Close: it tells a closed handle from a zero value. The zero Ring
	// is not a ring: methods return ErrZeroValue (or a zero value), never panic.
	closed bool
}

func wrapRing(p *C.tokenring_ring) *Ring {
	r := &Ring{ptr: p}
	n := int(C.tokenring_ring_node_count(p))
	r.names = make([]string, n)
	var info C.tokenring_node_info
	for i := 0; i < n; i++ {
		if C.tokenring_ring_node_brief(&info, p, C.uint32_t(i)) == C.TOKENRING_OK {
			r.names[i] = C.GoString(info.name)
		}
	}
	runtime.SetFinalizer(r, (*Ring).Close)
	return r
}

// acquire read-locks the ring and returns its pointer, or ErrClosed (unlocked).
func (r *Ring) acquire() (*C.tokenring_ring, error) {
	if r == nil {
		return nil, nilHandle("Ring")
	}
	r.mu.RLock()
	if r.ptr == nil {
		err := r.gone()
		r.mu.RUnlock()
		return nil, err
	}
	return r.ptr, nil
}

func (r *Ring) release() {
	r.mu.RUnlock()
	runtime.KeepAlive(r)
}

// Close drops this handle's reference to the ring, waiting for methods running on it
// to return. Placements built from the ring keep their own reference. Calling Close
// again does nothing.
func (r *Ring) Close() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ptr != nil {
		C.tokenring_ring_free(r.ptr)
		r.ptr = nil
		r.closed = true
		runtime.SetFinalizer(r, nil)
	}
	return nil
}

// Ref returns a second, independent handle to the same immutable ring (the C reference
// count goes up); each handle must be closed.
func (r *Ring) Ref() (*Ring, error) {
	p, err := r.acquire()
	if err != nil {
		return nil, err
	}
	defer r.release()
	return wrapRing(C.tokenring_ring_ref(p)), nil
}

// NodeCount returns the number of nodes of every state (0 after Close).
func (r *Ring) NodeCount() int {
	p, err := r.acquire()
	if err != nil {
		return 0
	}
	defer r.release()
	return int(C.tokenring_ring_node_count(p))
}

// NodeName returns the name of node i (cached in Go: no call into C, no allocation), or
// "" for an index out of range.
func (r *Ring) NodeName(i int) string {
	if r == nil {
		return ""
	}
	if i < 0 || i >= len(r.names) {
		return ""
	}
	return r.names[i]
}

// NodeNames returns the node names indexed by node (a shared slice: do not modify it).
func (r *Ring) NodeNames() []string {
	if r == nil {
		return nil
	}
	return r.names
}

// Node returns a copy of node i of the ring; ErrRange past the end.
func (r *Ring) Node(i int) (NodeInfo, error) {
	if i < 0 || i > int(^uint32(0)) {
		return NodeInfo{}, goError(CodeRange, "node index %d out of range", i)
	}
	p, err := r.acquire()
	if err != nil {
		return NodeInfo{}, err
	}
	defer r.release()
	var n C.tokenring_node_info
	if err := check(C.tokenring_ring_node(&n, p, C.uint32_t(i))); err != nil {
		return NodeInfo{}, err
	}
	return nodeInfoFromC(i, &n), nil
}

// Nodes returns a copy of every node.
func (r *Ring) Nodes() ([]NodeInfo, error) {
	p, err := r.acquire()
	if err != nil {
		return nil, err
	}
	defer r.release()
	n := int(C.tokenring_ring_node_count(p))
	out := make([]NodeInfo, n)
	var info C.tokenring_node_info
	for i := range out {
		if err := check(C.tokenring_ring_node(&info, p, C.uint32_t(i))); err != nil {
			return nil, err
		}
		out[i] = nodeInfoFromC(i, &info)
	}
	return out, nil
}

// FindNode returns the index of the named node, or ErrNotFound.
func (r *Ring) FindNode(name string) (int, error) {
	cn, err := cname("node name", name)
	if err != nil {
		return 0, err
	}
	p, err := r.acquire()
	if err != nil {
		return 0, err
	}
	defer r.release()
	var idx C.uint32_t
	if err := check(C.tokenring_ring_find_node(&idx, p, charp(cn))); err != nil {
		return 0, &Error{Code: err.(*Error).Code, Message: "no node named " + quote(name)}
	}
	return int(idx), nil
}

// Datacenters returns the datacenter names, indexed by datacenter (sorted by name).
func (r *Ring) Datacenters() ([]string, error) {
	p, err := r.acquire()
	if err != nil {
		return nil, err
	}
	defer r.release()
	out := make([]string, int(C.tokenring_ring_dc_count(p)))
	for i := range out {
		out[i] = goStringN(C.tokenring_ring_dc_name(p, C.size_t(i)))
	}
	return out, nil
}

// RackCount returns the number of distinct (datacenter, rack) pairs (0 after Close).
func (r *Ring) RackCount() int {
	p, err := r.acquire()
	if err != nil {
		return 0
	}
	defer r.release()
	return int(C.tokenring_ring_rack_count(p))
}

// Tokens returns a copy of the ring's sorted, distinct tokens.
func (r *Ring) Tokens() ([]int64, error) {
	p, err := r.acquire()
	if err != nil {
		return nil, err
	}
	defer r.release()
	var n C.size_t
	t := C.tokenring_ring_tokens(p, &n)
	if t == nil || n == 0 {
		return []int64{}, nil
	}
	return append([]int64(nil), unsafe.Slice((*int64)(unsafe.Pointer(t)), int(n))...), nil
}

// TokenNodes returns, for each ring token (in Tokens order), the index of its node.
func (r *Ring) TokenNodes() ([]uint32, error) {
	p, err := r.acquire()
	if err != nil {
		return nil, err
	}
	defer r.release()
	var n C.size_t
	t := C.tokenring_ring_token_nodes(p, &n)
	if t == nil || n == 0 {
		return []uint32{}, nil
	}
	return append([]uint32(nil), unsafe.Slice((*uint32)(unsafe.Pointer(t)), int(n))...), nil
}

// Search returns the index of the range holding token: the first ring token at or after
// it, wrapping to 0. O(log n), no allocation.
func (r *Ring) Search(token int64) (int, error) {
	p, err := r.acquire()
	if err != nil {
		return 0, err
	}
	i := C.tokenring_ring_search(p, C.int64_t(token))
	r.release()
	if i == C.uint32_t(^uint32(0)) {
		return 0, goError(CodeUnsupported, "the ring's partitioner is not Murmur3: use Search128 or SearchBytes")
	}
	return int(i), nil
}

// SearchBatch writes into ranges the range index of each token, in one call into C.
// ranges must hold at least len(tokens) entries (ErrBufSize otherwise).
func (r *Ring) SearchBatch(ranges []uint32, tokens []int64) error {
	if len(ranges) < len(tokens) {
		return goError(CodeBufSize, "output holds %d ranges for %d tokens", len(ranges), len(tokens))
	}
	p, err := r.acquire()
	if err != nil {
		return err
	}
	if len(tokens) == 0 {
		r.release()
		return nil
	}
	st := C.tokenring_ring_search_batch((*C.uint32_t)(unsafe.Pointer(&ranges[0])), p, (*C.int64_t)(unsafe.Pointer(&tokens[0])), C.size_t(len(tokens)))
	r.release()
	return check(st)
}

// Owner returns the index of the node owning token (the primary owner).
func (r *Ring) Owner(token int64) (int, error) {
	p, err := r.acquire()
	if err != nil {
		return 0, err
	}
	var node C.uint32_t
	st := C.tokenring_ring_owner(&node, p, C.int64_t(token))
	r.release()
	return int(node), check(st)
}

// RangeOf returns the range holding token, with its exact bounds and owner.
func (r *Ring) RangeOf(token int64) (Range, error) {
	p, err := r.acquire()
	if err != nil {
		return Range{}, err
	}
	var rg C.tokenring_range
	st := C.tokenring_ring_range_of(&rg, p, C.int64_t(token))
	r.release()
	if err := check(st); err != nil {
		return Range{}, err
	}
	return rangeFromC(&rg), nil
}

// Range returns range number i (0 .. token count - 1); ErrRange past the end.
func (r *Ring) Range(i int) (Range, error) {
	if i < 0 {
		return Range{}, goError(CodeRange, "range index %d is negative", i)
	}
	p, err := r.acquire()
	if err != nil {
		return Range{}, err
	}
	var rg C.tokenring_range
	st := C.tokenring_ring_range(&rg, p, C.size_t(i))
	r.release()
	if err := check(st); err != nil {
		return Range{}, err
	}
	return rangeFromC(&rg), nil
}

// Ownership is one node's share of the ring. The exact widths decide; the floats are
// for display, and the Nodetool fields are exactly what `nodetool ring`/`status` print.
type Ownership struct {
	Node              int     // node index
	Name              string  // node name
	PrimaryWidth      U128    // token values whose primary owner is the node (sums to 2^64)
	EffectiveWidth    U128    // token values the node replicates (0 without a placement)
	Primary           float64 // PrimaryWidth / 2^64
	Effective         float64 // EffectiveWidth / 2^64
	NodetoolPrimary   float32 // nodetool's Owns without a keyspace (its float quirks included)
	NodetoolEffective float32 // nodetool's Owns (effective); 0 without a placement
	TokenCount        int     // the node's tokens in the ring
}

// Ownership returns every node's ownership, indexed by node: primary from the ring, and
// effective from p when p is not nil (p must have been built from this ring, else
// ErrInvalid).
func (r *Ring) Ownership(p *Placement) ([]Ownership, error) {
	hs := []handle{r}
	if p != nil {
		hs = append(hs, p)
	}
	unlock, err := lockAll(hs...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	rp := r.ptr
	var pp *C.tokenring_placement
	if p != nil {
		pp = p.ptr
	}
	n := int(C.tokenring_ring_node_count(rp))
	if n == 0 {
		return []Ownership{}, nil
	}
	cout := make([]C.tokenring_ownership, n)
	if err := check(C.tokenring_ring_ownership(&cout[0], C.size_t(n), rp, pp)); err != nil {
		return nil, err
	}
	out := make([]Ownership, n)
	for i := range cout {
		c := &cout[i]
		out[i] = Ownership{
			Node: i, Name: r.NodeName(i),
			PrimaryWidth: u128(c.primary_width), EffectiveWidth: u128(c.effective_width),
			Primary: float64(c.primary), Effective: float64(c.effective),
			NodetoolPrimary: float32(c.nodetool_primary), NodetoolEffective: float32(c.nodetool_effective),
			TokenCount: int(c.token_count),
		}
	}
	return out, nil
}
