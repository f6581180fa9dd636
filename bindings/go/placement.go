// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <string.h>
#include <tokenring/tokenring.h>

// The replicas of every range, packed (see RangeReplicaNodes): with nodes NULL, only
// *total_out (the number of replica entries); else starts[0..ranges] and nodes[0..cap).
static int trgo_range_nodes(const tokenring_placement *p, size_t ranges, uint32_t *starts,
                            uint32_t *nodes, size_t cap, size_t *total_out)
{
	tokenring_replicas r;
	size_t k = 0;
	for (size_t i = 0; i < ranges; i++) {
		int st = tokenring_placement_range_replicas(&r, p, i);
		if (st != TOKENRING_OK)
			return st;
		if (nodes != NULL) {
			if (r.count > cap - k)
				return TOKENRING_E_BUFSIZE;
			starts[i] = (uint32_t)k;
			memcpy(nodes + k, r.nodes, r.count * sizeof *nodes);
		}
		k += r.count;
	}
	if (nodes != NULL)
		starts[ranges] = (uint32_t)k;
	*total_out = k;
	return TOKENRING_OK;
}
*/
import "C"

import (
	"errors"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// PlacementFlags modify BuildPlacement.
type PlacementFlags uint32

// AllowUnknownDC applies Cassandra's rule to datacenters of the replication that have no
// node in the ring instead of failing with ErrNotFound: they get no replicas (the
// placement's EmptyDatacenters names them, so callers can warn), and when no replica at
// all results the build fails with ErrImpossible naming them (the library's
// TOKENRING_PLACEMENT_SKIP_EMPTY_DC; before 1.2 such a placement was built with empty
// replica sets).
const AllowUnknownDC PlacementFlags = 1

// cPlacementFlags maps the binding's flags to the library's.
func cPlacementFlags(f PlacementFlags) C.uint32_t {
	if f&AllowUnknownDC != 0 {
		f = f&^AllowUnknownDC | PlacementFlags(C.TOKENRING_PLACEMENT_SKIP_EMPTY_DC)
	}
	return C.uint32_t(f)
}

// Replicas are the replicas of one range, as node indices of the placement's ring.
type Replicas struct {
	Nodes     []uint32 // node indices in Cassandra's replica order
	Transient []bool   // nil when every replica is full; else true for a transient one
	Range     int      // the range these replicas serve (for a replica set: its first range)
	SetID     int      // id of this distinct replica set (equal sets share an id)
}

func replicasFromC(c *C.tokenring_replicas) Replicas {
	n := int(c.count)
	r := Replicas{Range: int(c.range_index), SetID: int(c.set_id), Nodes: make([]uint32, n)}
	if n > 0 {
		copy(r.Nodes, unsafe.Slice((*uint32)(unsafe.Pointer(c.nodes)), n))
		if c.transient != nil {
			r.Transient = make([]bool, n)
			for i, f := range unsafe.Slice((*uint8)(unsafe.Pointer(c.transient)), n) {
				r.Transient[i] = f != 0
			}
		}
	}
	return r
}

// Placement is the immutable replica map of one ring under one replication: replica
// lookups are a search plus a pointer into shared memory, with no allocation and no lock
// in C. Any number of goroutines may use one Placement at once. It keeps its ring alive
// by itself, so the Ring handle may be closed first. Close frees it once no method is
// running on it; afterwards every method returns ErrClosed (or a zero value).
type Placement struct {
	mu    sync.RWMutex // read-held by every method, write-held by Close
	ptr   *C.tokenring_placement
	names []string // node names of the ring

	closed     atomic.Bool // set by Close, for the lock-free Set
	tablesOnce sync.Once   // Go-side copy of the distinct sets, built on first use
	loaded     atomic.Bool // tables ready
	sets       []Replicas
	rangeSets  []uint32 // set id per range
	setNodes   []uint32 // the node lists of every set, packed in set id order (sets[i].Nodes point into it)
	setStarts  []uint32 // sets[i].Nodes is setNodes[setStarts[i]:setStarts[i+1]]

	replText string   // the replication, formatted, for EmptyDatacenters after Update
	emptyDCs []string // datacenters of the replication without nodes in the ring
}

// EmptyDatacenters returns the datacenters of the placement's replication that have a
// factor above 0 but no Normal, Leaving or Moving node in its ring: the datacenters it
// places no replica in (possible with AllowUnknownDC), in the replication's order. nil
// when there are none.
func (p *Placement) EmptyDatacenters() []string {
	if p == nil {
		return nil
	}
	return p.emptyDCs
}

// EmptyDatacenters returns the datacenters repl gives a factor above 0 that have no
// Normal, Leaving or Moving node in the ring (tokenring_replication_empty_dc): Cassandra
// places no replica there. nil when there are none (always for SimpleStrategy).
func (r *Ring) EmptyDatacenters(repl *Replication) ([]string, error) {
	unlock, err := lockAll(r, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	return emptyDCs(r.ptr, repl.ptr), nil
}

func emptyDCs(ring *C.tokenring_ring, repl *C.tokenring_replication) []string {
	n := int(C.tokenring_replication_empty_dc_count(repl, ring))
	if n == 0 {
		return nil
	}
	out := make([]string, n)
	for i := range out {
		out[i] = goStringN(C.tokenring_replication_empty_dc(repl, ring, C.size_t(i)))
	}
	return out
}

// BuildPlacement builds the replica map of every range of ring under repl, with exactly
// Cassandra's replica sets and order. A datacenter of repl without nodes in the ring
// gives ErrNotFound unless flags has AllowUnknownDC (see there). The replication is
// copied.
func BuildPlacement(ring *Ring, repl *Replication, flags PlacementFlags) (*Placement, error) {
	unlock, err := lockAll(ring, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	rp := ring.ptr
	var p *C.tokenring_placement
	var detail C.tokenring_error
	if err := newError(C.tokenring_placement_build(&p, rp, repl.ptr, cPlacementFlags(flags), &detail), &detail); err != nil {
		return nil, err
	}
	pl := wrapPlacement(p, ring.names)
	pl.emptyDCs = emptyDCs(rp, repl.ptr)
	if pl.emptyDCs != nil || flags&AllowUnknownDC != 0 {
		pl.replText, _ = formatReplication(repl.ptr)
	}
	return pl, nil
}

// Update returns the placement of ring (typically this placement's ring after a join, a
// decommission, a move or a replacement) under the same replication and flags. It equals
// BuildPlacement(ring, repl, flags) but walks again only the ranges the change can
// affect; p itself is unchanged and stays usable. A nil ring gives ErrInvalid. The two
// handles are locked in the package's one order (see lockAll), so Update and
// Ring.Balance on the same pair cannot deadlock against a pending Close.
func (p *Placement) Update(ring *Ring) (*Placement, error) {
	unlock, err := lockAll(p, ring)
	if err != nil {
		return nil, err
	}
	defer unlock()
	pp, rp := p.ptr, ring.ptr
	var out *C.tokenring_placement
	var detail C.tokenring_error
	if err := newError(C.tokenring_placement_update(&out, pp, rp, &detail), &detail); err != nil {
		return nil, err
	}
	np := wrapPlacement(out, ring.names)
	np.replText = p.replText
	if p.replText != "" {
		var repl *C.tokenring_replication
		if C.tokenring_replication_parse(&repl, textPtr(p.replText), C.size_t(len(p.replText)), nil) == C.TOKENRING_OK {
			np.emptyDCs = emptyDCs(rp, repl)
			C.tokenring_replication_free(repl)
		}
	}
	return np, nil
}

// Placement is BuildPlacement(r, repl, flags).
func (r *Ring) Placement(repl *Replication, flags PlacementFlags) (*Placement, error) {
	return BuildPlacement(r, repl, flags)
}

func wrapPlacement(p *C.tokenring_placement, names []string) *Placement {
	pl := &Placement{ptr: p, names: names}
	runtime.SetFinalizer(pl, (*Placement).Close)
	return pl
}

func (p *Placement) acquire() (*C.tokenring_placement, error) {
	if p == nil {
		return nil, nilHandle("Placement")
	}
	p.mu.RLock()
	if p.ptr == nil {
		err := p.gone()
		p.mu.RUnlock()
		return nil, err
	}
	return p.ptr, nil
}

func (p *Placement) release() {
	p.mu.RUnlock()
	runtime.KeepAlive(p)
}

// Close drops this handle's reference, waiting for methods running on it to return.
// Calling it again does nothing.
func (p *Placement) Close() error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ptr != nil {
		p.closed.Store(true)
		C.tokenring_placement_free(p.ptr)
		p.ptr = nil
		runtime.SetFinalizer(p, nil)
	}
	return nil
}

// Ref returns a second, independent handle to the same immutable placement; each handle
// must be closed.
func (p *Placement) Ref() (*Placement, error) {
	pp, err := p.acquire()
	if err != nil {
		return nil, err
	}
	defer p.release()
	np := wrapPlacement(C.tokenring_placement_ref(pp), p.names)
	np.replText, np.emptyDCs = p.replText, p.emptyDCs
	return np, nil
}

// Ring returns a new handle to the ring the placement was built from (close it too).
func (p *Placement) Ring() (*Ring, error) {
	pp, err := p.acquire()
	if err != nil {
		return nil, err
	}
	defer p.release()
	return wrapRing(C.tokenring_ring_ref(C.tokenring_placement_ring(pp))), nil
}

// NodeName returns the name of node i of the placement's ring ("" out of range); no
// call into C.
func (p *Placement) NodeName(i int) string {
	if p == nil {
		return ""
	}
	if i < 0 || i >= len(p.names) {
		return ""
	}
	return p.names[i]
}

// Replicas returns the replicas of the range holding token (newly allocated slices; see
// AppendReplicas to avoid allocating).
func (p *Placement) Replicas(token int64) (Replicas, error) {
	pp, err := p.acquire()
	if err != nil {
		return Replicas{}, err
	}
	defer p.release()
	var c C.tokenring_replicas
	if err := check(C.tokenring_placement_replicas(&c, pp, C.int64_t(token))); err != nil {
		return Replicas{}, err
	}
	return replicasFromC(&c), nil
}

// ReplicasForKey returns the replicas of a serialized partition key.
func (p *Placement) ReplicasForKey(key []byte) (Replicas, error) {
	pp, err := p.acquire()
	if err != nil {
		return Replicas{}, err
	}
	defer p.release()
	var c C.tokenring_replicas
	if err := check(C.tokenring_placement_replicas_for_key(&c, pp, bytesPtr(key), C.size_t(len(key)))); err != nil {
		return Replicas{}, err
	}
	return replicasFromC(&c), nil
}

// AppendReplicas appends the node indices of the replicas of token to dst, in replica
// order, and returns the extended slice. With enough capacity in dst it allocates
// nothing: reuse dst[:0] across calls.
func (p *Placement) AppendReplicas(dst []uint32, token int64) ([]uint32, error) {
	pp, err := p.acquire()
	if err != nil {
		return dst, err
	}
	var c C.tokenring_replicas
	st := C.tokenring_placement_replicas(&c, pp, C.int64_t(token))
	if st == C.TOKENRING_OK && c.count > 0 {
		dst = append(dst, unsafe.Slice((*uint32)(unsafe.Pointer(c.nodes)), int(c.count))...)
	}
	p.release() // the C memory read above lives as long as the placement
	return dst, check(st)
}

// AppendReplicasForKey is AppendReplicas for a serialized partition key (hashed in C).
func (p *Placement) AppendReplicasForKey(dst []uint32, key []byte) ([]uint32, error) {
	pp, err := p.acquire()
	if err != nil {
		return dst, err
	}
	var c C.tokenring_replicas
	st := C.tokenring_placement_replicas_for_key(&c, pp, bytesPtr(key), C.size_t(len(key)))
	if st == C.TOKENRING_OK && c.count > 0 {
		dst = append(dst, unsafe.Slice((*uint32)(unsafe.Pointer(c.nodes)), int(c.count))...)
	}
	p.release()
	return dst, check(st)
}

// SetIDForKey returns the id of the replica set of a serialized partition key (hashed in
// C), to be read with Set or Sets: one call into C, no allocation. A router that keeps its
// own table per set id (e.g. driver hosts) needs nothing else per request.
func (p *Placement) SetIDForKey(key []byte) (uint32, error) {
	pp, err := p.acquire()
	if err != nil {
		return 0, err
	}
	sid := C.tokenring_placement_key_set_id(pp, bytesPtr(key), C.size_t(len(key)))
	p.release()
	if sid < 0 {
		return 0, check(C.int(sid))
	}
	return uint32(sid), nil
}

// SetIDForToken is SetIDForKey for a token.
func (p *Placement) SetIDForToken(token int64) (uint32, error) {
	pp, err := p.acquire()
	if err != nil {
		return 0, err
	}
	var c C.tokenring_replicas
	st := C.tokenring_placement_replicas(&c, pp, C.int64_t(token))
	p.release()
	return uint32(c.set_id), check(st)
}

// AppendReplicaNames appends the names of the replicas of token to dst, in replica order.
// The names are shared strings: with enough capacity in dst nothing is allocated.
func (p *Placement) AppendReplicaNames(dst []string, token int64) ([]string, error) {
	pp, err := p.acquire()
	if err != nil {
		return dst, err
	}
	var c C.tokenring_replicas
	st := C.tokenring_placement_replicas(&c, pp, C.int64_t(token))
	if st == C.TOKENRING_OK && c.count > 0 {
		for _, n := range unsafe.Slice((*uint32)(unsafe.Pointer(c.nodes)), int(c.count)) {
			dst = append(dst, p.NodeName(int(n)))
		}
	}
	p.release()
	return dst, check(st)
}

// RangeReplicas returns the replicas of range i (0 .. token count - 1); ErrRange past
// the end.
func (p *Placement) RangeReplicas(i int) (Replicas, error) {
	if i < 0 {
		return Replicas{}, goError(CodeRange, "range index %d is negative", i)
	}
	pp, err := p.acquire()
	if err != nil {
		return Replicas{}, err
	}
	defer p.release()
	var c C.tokenring_replicas
	if err := check(C.tokenring_placement_range_replicas(&c, pp, C.size_t(i))); err != nil {
		return Replicas{}, err
	}
	return replicasFromC(&c), nil
}

// RangeReplicaNodes returns the replicas of every range of the placement's ring, packed:
// the node indices of range i (in Cassandra's replica order) are
// nodes[starts[i]:starts[i+1]], for i in 0 .. token count - 1 (len(starts) is the token
// count + 1). Two calls into C whatever the ring's size; the slices are new and the
// caller's. For a router that keeps its own per-range table (e.g. a driver's hosts by
// range) and so routes a key without calling into C.
func (p *Placement) RangeReplicaNodes() (starts, nodes []uint32, err error) {
	pp, err := p.acquire()
	if err != nil {
		return nil, nil, err
	}
	defer p.release()
	var nt, total C.size_t
	C.tokenring_ring_tokens(C.tokenring_placement_ring(pp), &nt)
	if err := check(C.trgo_range_nodes(pp, nt, nil, nil, 0, &total)); err != nil {
		return nil, nil, err
	}
	starts = make([]uint32, int(nt)+1)
	nodes = make([]uint32, int(total)+1) // +1: a valid pointer even when total is 0
	if err := check(C.trgo_range_nodes(pp, nt, (*C.uint32_t)(unsafe.Pointer(&starts[0])),
		(*C.uint32_t)(unsafe.Pointer(&nodes[0])), total, &total)); err != nil {
		return nil, nil, err
	}
	return starts, nodes[:int(total):int(total)], nil
}

// SetCount returns the number of distinct replica sets (0 after Close).
func (p *Placement) SetCount() int {
	pp, err := p.acquire()
	if err != nil {
		return 0
	}
	defer p.release()
	return int(C.tokenring_placement_set_count(pp))
}

// loadTables copies the distinct replica sets and the set id of every range into Go
// memory, once, so that batched routing can resolve set ids without calling into C.
func (p *Placement) loadTables(pp *C.tokenring_placement) {
	p.tablesOnce.Do(func() {
		n := int(C.tokenring_placement_set_count(pp))
		total := 0
		sets := make([]Replicas, n)
		var c C.tokenring_replicas
		for i := range sets {
			if C.tokenring_placement_set(&c, pp, C.size_t(i)) == C.TOKENRING_OK {
				sets[i] = replicasFromC(&c)
				total += len(sets[i].Nodes)
			}
		}
		// Pack the node lists into one backing array (fewer objects for the GC).
		flat := make([]uint32, 0, total)
		starts := make([]uint32, n+1)
		for i := range sets {
			start := len(flat)
			flat = append(flat, sets[i].Nodes...)
			sets[i].Nodes = flat[start:len(flat):len(flat)]
			starts[i+1] = uint32(len(flat))
		}
		ring := C.tokenring_placement_ring(pp)
		var nt C.size_t
		C.tokenring_ring_tokens(ring, &nt)
		rs := make([]uint32, int(nt))
		for i := range rs {
			if C.tokenring_placement_range_replicas(&c, pp, C.size_t(i)) == C.TOKENRING_OK {
				rs[i] = uint32(c.set_id)
			}
		}
		p.sets, p.rangeSets, p.setNodes, p.setStarts = sets, rs, flat, starts
		p.loaded.Store(true)
	})
}

// Set returns distinct replica set id (as returned by RouteKeys and RouteTokens). The
// slices are shared with every caller and must not be modified; Range is the first range
// using the set. The sets are copied into Go memory on first use, after which Set takes
// no lock and makes no call into C.
func (p *Placement) Set(id uint32) (Replicas, error) {
	if p == nil {
		return Replicas{}, nilHandle("Placement")
	}
	if !p.loaded.Load() {
		pp, err := p.acquire()
		if err != nil {
			return Replicas{}, err
		}
		p.loadTables(pp)
		p.release()
	}
	if p.closed.Load() {
		return Replicas{}, ErrClosed
	}
	if int(id) >= len(p.sets) {
		return Replicas{}, goError(CodeRange, "replica set %d out of range (%d sets)", id, len(p.sets))
	}
	return p.sets[id], nil
}

// Sets returns every distinct replica set, indexed by set id: the table Set reads, for
// loops over a routed batch. The slice and everything in it are shared and must not be
// modified; it stays valid (it is Go memory) after Close.
func (p *Placement) Sets() ([]Replicas, error) {
	if _, err := p.Set(0); err != nil && !errors.Is(err, ErrRange) {
		return nil, err
	}
	return p.sets, nil
}

// RouteKeys routes a batch of keys in one call into C: for each key its token (into
// tokens, which may be nil) and the id of its replica set (into setIDs), to be read with
// Set. The output slices must hold at least keys.Len() entries; nil keys give ErrInvalid.
func (p *Placement) RouteKeys(tokens []int64, setIDs []uint32, keys *KeyBatch) error {
	if keys == nil {
		return goError(CodeInvalid, "nil *tokenring.KeyBatch of keys")
	}
	keys.init()
	k, o, n, err := packed(keys.buf, keys.offsets)
	if err != nil {
		return err
	}
	if len(setIDs) < n || (tokens != nil && len(tokens) < n) {
		return goError(CodeBufSize, "outputs hold %d set ids and %d tokens for %d keys", len(setIDs), len(tokens), n)
	}
	pp, err := p.acquire()
	if err != nil {
		return err
	}
	p.loadTables(pp)
	if n == 0 {
		p.release()
		return nil
	}
	var tp *C.int64_t
	if tokens != nil {
		tp = (*C.int64_t)(unsafe.Pointer(&tokens[0]))
	}
	st := C.tokenring_placement_route_keys(tp, (*C.uint32_t)(unsafe.Pointer(&setIDs[0])), pp, k, o, C.size_t(n))
	p.release()
	runtime.KeepAlive(keys)
	return check(st)
}

// routeChunk is the number of keys RouteKeysReplicas routes per call into C: the C call
// prefetches each key's replica row, so a chunk of a few hundred keys (64-1,024 measured)
// keeps the rows in the cache and the scratch buffer small.
const routeChunk = 256

// routeBuf is RouteKeysReplicas' scratch buffer for a chunk of C replica lists, allocated
// as words without pointers: what C writes into it are pointers to C memory, which the
// garbage collector need not scan, nor cgo's pointer check on every call.
type routeBuf [routeChunk * unsafe.Sizeof(C.tokenring_replicas{}) / 8]uint64

// routeBufs recycles the scratch buffers.
var routeBufs = sync.Pool{New: func() any { return new(routeBuf) }}

// RouteKeysReplicas routes a batch of keys to their replicas and appends one Replicas per
// key to dst, in the batch's order, returning the extended slice: for each key exactly
// what ReplicasForKey gives (Range is the key's own range, not its set's first range as
// in Set and Sets; SetID its replica set). Nodes and Transient are not copied: they are
// the slices of the placement's table of distinct sets (see Sets), shared with every
// caller, and must not be modified; they stay valid after Close. tokens may be nil; else
// it must hold at least keys.Len() entries (ErrBufSize otherwise) and receives each key's
// token. The keys are routed in chunks of a few hundred per call into C, read in place.
// Nil keys give ErrInvalid, a ring of another partitioner than Murmur3 ErrUnsupported.
// On an error dst is returned unchanged and nothing is written to tokens. With enough
// capacity in dst it allocates nothing: reuse dst[:0] across batches. When the key's own
// range is not needed, RouteKeys with Sets costs less per key from Go (the Go side reads
// its own copy of the sets, which this call's prefetch of the C rows does not warm;
// doc/go-benchmark.md).
func (p *Placement) RouteKeysReplicas(dst []Replicas, tokens []int64, keys *KeyBatch) ([]Replicas, error) {
	if keys == nil {
		return dst, goError(CodeInvalid, "nil *tokenring.KeyBatch of keys")
	}
	keys.init()
	k, _, n, err := packed(keys.buf, keys.offsets)
	if err != nil {
		return dst, err
	}
	if tokens != nil && len(tokens) < n {
		return dst, goError(CodeBufSize, "output holds %d tokens for %d keys", len(tokens), n)
	}
	pp, err := p.acquire()
	if err != nil {
		return dst, err
	}
	p.loadTables(pp)
	if n == 0 {
		p.release()
		return dst, nil
	}
	raw := routeBufs.Get().(*routeBuf)
	buf := (*[routeChunk]C.tokenring_replicas)(unsafe.Pointer(raw))
	orig, sets, flat, starts, start := dst, p.sets, p.setNodes, p.setStarts, len(dst)
	if cap(dst)-start < n {
		grown := make([]Replicas, start, start+n)
		copy(grown, dst)
		dst = grown
	}
	var st C.int
	for off := 0; off < n; off += routeChunk {
		m := n - off
		if m > routeChunk {
			m = routeChunk
		}
		var tp *C.int64_t
		if tokens != nil {
			tp = (*C.int64_t)(unsafe.Pointer(&tokens[off]))
		}
		st = C.tokenring_placement_route_keys_replicas(&buf[0], tp, pp, k,
			(*C.uint64_t)(unsafe.Pointer(&keys.offsets[off])), C.size_t(m))
		if st != C.TOKENRING_OK {
			// Only the first chunk can fail (the partitioner; a KeyBatch's offsets never
			// decrease), and C writes nothing on an error.
			break
		}
		for i := range buf[:m] {
			// Nodes as Sets() has them, from the small table of starts rather than the
			// sets' headers (a cache miss less per key on a large ring).
			c := &buf[i]
			id := c.set_id
			r := Replicas{Nodes: flat[starts[id]:starts[id+1]:starts[id+1]], Range: int(c.range_index), SetID: int(id)}
			if c.transient != nil {
				r.Transient = sets[id].Transient
			}
			dst = append(dst, r)
		}
	}
	p.release()
	routeBufs.Put(raw)
	runtime.KeepAlive(keys)
	if err := check(st); err != nil {
		for i := range dst[start:] {
			dst[start+i] = Replicas{}
		}
		return orig, err
	}
	return dst, nil
}

// RouteTokens writes into setIDs the replica-set id of each token, with one call into C
// (a batched ring search) and a table lookup in Go. setIDs must hold len(tokens) entries.
func (p *Placement) RouteTokens(setIDs []uint32, tokens []int64) error {
	if len(setIDs) < len(tokens) {
		return goError(CodeBufSize, "output holds %d set ids for %d tokens", len(setIDs), len(tokens))
	}
	pp, err := p.acquire()
	if err != nil {
		return err
	}
	p.loadTables(pp)
	if len(tokens) == 0 {
		p.release()
		return nil
	}
	st := C.tokenring_ring_search_batch((*C.uint32_t)(unsafe.Pointer(&setIDs[0])), C.tokenring_placement_ring(pp),
		(*C.int64_t)(unsafe.Pointer(&tokens[0])), C.size_t(len(tokens)))
	p.release()
	if err := check(st); err != nil {
		return err
	}
	rs := p.rangeSets
	for i, r := range setIDs[:len(tokens)] {
		setIDs[i] = rs[r]
	}
	return nil
}

// RangeReplicaNames is one range of the ring with its replicas by name: a line of
// `nodetool describering`.
type RangeReplicaNames struct {
	Range     Range
	Endpoints []string // replica names in Cassandra's order
	Transient []bool   // nil when every replica is full
}

// DescribeRing returns every range of the ring in token order with its replicas, what
// `nodetool describering` lists (it prints the same lines in hash order).
func (p *Placement) DescribeRing() ([]RangeReplicaNames, error) {
	pp, err := p.acquire()
	if err != nil {
		return nil, err
	}
	defer p.release()
	ring := C.tokenring_placement_ring(pp)
	var nt C.size_t
	C.tokenring_ring_tokens(ring, &nt)
	out := make([]RangeReplicaNames, int(nt))
	var rg C.tokenring_range
	var c C.tokenring_replicas
	for i := range out {
		if err := check(C.tokenring_ring_range(&rg, ring, C.size_t(i))); err != nil {
			return nil, err
		}
		if err := check(C.tokenring_placement_range_replicas(&c, pp, C.size_t(i))); err != nil {
			return nil, err
		}
		rep := replicasFromC(&c)
		names := make([]string, len(rep.Nodes))
		for j, n := range rep.Nodes {
			names[j] = p.NodeName(int(n))
		}
		out[i] = RangeReplicaNames{Range: rangeFromC(&rg), Endpoints: names, Transient: rep.Transient}
	}
	return out, nil
}

// Ownership returns every node's primary and effective ownership under this placement.
func (p *Placement) Ownership() ([]Ownership, error) {
	r, err := p.Ring()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return r.Ownership(p)
}
