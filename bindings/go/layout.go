// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <stdlib.h>
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"context"
	"unsafe"
)

// LayoutFlags modify the seeded-layout and allocator calls.
type LayoutFlags uint32

const (
	// LayoutStrict makes a seeded layout fail with ErrExists on a token collision
	// instead of rehashing with the next attempt number.
	LayoutStrict LayoutFlags = 1
	// AllocateNodeByNode makes AllocateNodes plan strictly node by node instead of
	// refining the whole batch jointly at the end.
	AllocateNodeByNode LayoutFlags = 1
)

// LayoutMaxTokens is the most tokens per node the layout and allocator calls accept.
const LayoutMaxTokens = 65536

// cStrings copies strings into a NULL-free C array of C strings (C memory: a Go array of
// pointers to Go memory may not be passed to C). Call the returned function to free it.
func cStrings(what string, strs []string) (**C.char, func(), error) {
	for _, s := range strs {
		if _, err := cname(what, s); err != nil {
			return nil, nil, err
		}
	}
	if len(strs) == 0 {
		return nil, func() {}, nil
	}
	mem := C.malloc(C.size_t(len(strs)) * C.size_t(unsafe.Sizeof((*C.char)(nil))))
	if mem == nil {
		return nil, nil, goError(CodeNoMem, "out of memory for %d names", len(strs))
	}
	arr := unsafe.Slice((**C.char)(mem), len(strs))
	for i, s := range strs {
		arr[i] = C.CString(s)
	}
	free := func() {
		for _, p := range arr {
			C.free(unsafe.Pointer(p))
		}
		C.free(unsafe.Pointer(&arr[0]))
	}
	return &arr[0], free, nil
}

// SeededToken returns one seeded token: the pure, documented function of (seed, identity,
// vnode, attempt) described in layout.h, without collision handling.
func SeededToken(seed uint64, identity string, vnode, attempt uint32) (int64, error) {
	var tok C.int64_t
	st := C.tokenring_layout_seeded_token(&tok, C.uint64_t(seed), textPtr(identity), C.size_t(len(identity)), C.uint32_t(vnode), C.uint32_t(attempt))
	return int64(tok), check(st)
}

// SeededTokens returns the count seeded tokens of the node identity (in vnode order),
// avoiding the tokens of other nodes of taken (nil for none).
func SeededTokens(count int, seed uint64, identity string, taken *Topology, flags LayoutFlags) ([]int64, error) {
	var out []int64
	err := seededCall(count, identity, taken, func(ci *C.char, tp *C.tokenring_topology, detail *C.tokenring_error) C.int {
		out = make([]int64, count)
		return C.tokenring_layout_seeded_tokens((*C.int64_t)(unsafe.Pointer(&out[0])), C.size_t(count), C.uint64_t(seed), ci, tp, C.uint32_t(flags), detail)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// seededCall checks what SeededTokens and SeededTokens128 share (the count, the identity,
// a live taken topology, held locked during the call) and runs call.
func seededCall(count int, identity string, taken *Topology, call func(*C.char, *C.tokenring_topology, *C.tokenring_error) C.int) error {
	if count <= 0 || count > LayoutMaxTokens {
		return goError(CodeRange, "token count %d outside 1..%d", count, LayoutMaxTokens)
	}
	ci, err := cname("identity", identity)
	if err != nil {
		return err
	}
	var tp *C.tokenring_topology
	if taken != nil {
		if err := taken.enter(); err != nil {
			return err
		}
		defer taken.mu.Unlock()
		tp = taken.ptr
	}
	var detail C.tokenring_error
	st := call(charp(ci), tp, &detail)
	return newError(st, &detail)
}

// SeededToken128 returns RandomPartitioner's seeded token (0 .. 2^127): the
// RandomPartitioner token of the very byte string SeededToken hashes with Murmur3 (the
// definition in layout.h), without collision handling.
func SeededToken128(seed uint64, identity string, vnode, attempt uint32) (Token128, error) {
	var tok C.tokenring_token128
	st := C.tokenring_layout_seeded_token128(&tok, C.uint64_t(seed), textPtr(identity), C.size_t(len(identity)), C.uint32_t(vnode), C.uint32_t(attempt))
	return token128FromC(tok), check(st)
}

// SeededNode describes a node for AddSeededNodes. Empty Datacenter or Rack fields take
// Cassandra's SimpleSnitch defaults "datacenter1" and "rack1".
type SeededNode struct {
	Name       string
	Datacenter string
	Rack       string
}

// AddSeededNodes adds nodes with seeded tokens, in order, each laid out against the
// topology as it stands after the previous ones (so collisions between new nodes are
// resolved too). Adding nodes to a seeded layout keeps every existing token. On failure
// nothing is added. A RandomPartitioner topology gets RandomPartitioner's seeded tokens
// (SeededTokens128); a ByteOrderedPartitioner one is refused with ErrUnsupported.
func (t *Topology) AddSeededNodes(seed uint64, tokensPerNode int, nodes []SeededNode, flags LayoutFlags) error {
	if tokensPerNode <= 0 || tokensPerNode > LayoutMaxTokens {
		return goError(CodeRange, "tokens per node %d outside 1..%d", tokensPerNode, LayoutMaxTokens)
	}
	if len(nodes) == 0 {
		return nil
	}
	names := make([]string, len(nodes))
	dcs := make([]string, len(nodes))
	racks := make([]string, len(nodes))
	for i, n := range nodes {
		names[i], dcs[i], racks[i] = n.Name, n.Datacenter, n.Rack
		if dcs[i] == "" {
			dcs[i] = "datacenter1"
		}
		if racks[i] == "" {
			racks[i] = "rack1"
		}
	}
	cn, freeN, err := cStrings("node name", names)
	if err != nil {
		return err
	}
	defer freeN()
	cd, freeD, err := cStrings("datacenter name", dcs)
	if err != nil {
		return err
	}
	defer freeD()
	cr, freeR, err := cStrings("rack name", racks)
	if err != nil {
		return err
	}
	defer freeR()
	if err := t.enter(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	var detail C.tokenring_error
	st := C.tokenring_layout_add_seeded_nodes(t.ptr, C.uint64_t(seed), C.uint32_t(tokensPerNode), cn, cd, cr, C.size_t(len(nodes)), C.uint32_t(flags), &detail)
	return newError(st, &detail)
}

// EvenTokens returns numTokens evenly spaced tokens of slot slot out of slots interleaved
// slots (e.g. rack i of n racks): MinToken + floor((j*slots + slot) * 2^64 /
// (numTokens*slots)), exactly, ascending.
func EvenTokens(numTokens, slot, slots int) ([]int64, error) {
	if numTokens <= 0 || numTokens > LayoutMaxTokens || slots <= 0 || slots > 1<<31 || slot < 0 || slot >= slots {
		return nil, goError(CodeRange, "even layout of %d tokens, slot %d of %d: out of range", numTokens, slot, slots)
	}
	out := make([]int64, numTokens)
	st := C.tokenring_layout_even_tokens((*C.int64_t)(unsafe.Pointer(&out[0])), C.uint32_t(numTokens), C.uint32_t(slot), C.uint32_t(slots))
	if err := check(st); err != nil {
		return nil, err
	}
	return out, nil
}

// AllocateTokens chooses numTokens tokens (ascending) for one node joining datacenter /
// rack of the topology with the 1.0 allocator (tokenring_allocate_tokens), under
// NetworkTopologyStrategy with factor rf there. The topology is not modified.
//
// Deprecated: use AllocateJoin, the library's join plan (Cassandra's tokens by default):
// a datacenter grown node by node with AllocateTokens ended less balanced than with
// Cassandra's tokens on most growths of the sweep in doc/performance.md ("Growth sweep").
func (t *Topology) AllocateTokens(numTokens int, datacenter, rack string, rf int) ([]int64, error) {
	return t.AllocateTokensContext(context.Background(), numTokens, datacenter, rack, rf)
}

// AllocateTokensContext is AllocateTokens stopped by ctx (see AvailabilityContext); a
// ProgressFunc attached with WithProgress receives one unit per token placed.
func (t *Topology) AllocateTokensContext(ctx context.Context, numTokens int, datacenter, rack string, rf int) ([]int64, error) {
	if numTokens <= 0 || numTokens > LayoutMaxTokens {
		return nil, goError(CodeRange, "token count %d outside 1..%d", numTokens, LayoutMaxTokens)
	}
	if rf < -1<<31 || rf >= 1<<31 {
		return nil, goError(CodeRange, "replication factor %d does not fit 32 bits", rf)
	}
	cd, err := cname("datacenter name", datacenter)
	if err != nil {
		return nil, err
	}
	cr, err := cname("rack name", rack)
	if err != nil {
		return nil, err
	}
	if err := t.enter(); err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	out := make([]int64, numTokens)
	err = withProgress(ctx, func(fn C.tokenring_progress_fn, user unsafe.Pointer) error {
		var detail C.tokenring_error
		if fn == nil {
			return newError(C.tokenring_allocate_tokens((*C.int64_t)(unsafe.Pointer(&out[0])), C.uint32_t(numTokens), t.ptr, charp(cd), charp(cr), C.int32_t(rf), 0, &detail), &detail)
		}
		// What tokenring_allocate_tokens does, with the progress callback.
		racks, free, err := cStrings("rack name", []string{rack})
		if err != nil {
			return err
		}
		defer free()
		return newError(C.tokenring_allocate_nodes_progress((*C.int64_t)(unsafe.Pointer(&out[0])), C.uint32_t(numTokens), t.ptr, charp(cd),
			racks, 1, C.int32_t(rf), C.TOKENRING_ALLOCATE_NODE_BY_NODE, fn, user, &detail), &detail)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AllocateNodes plans len(racks) nodes joining datacenter together (node i in racks[i],
// in join order) and returns each node's numTokens tokens, ascending. Unless flags has
// AllocateNodeByNode the batch is refined jointly for the most even final state.
func (t *Topology) AllocateNodes(numTokens int, datacenter string, racks []string, rf int, flags LayoutFlags) ([][]int64, error) {
	return t.AllocateNodesContext(context.Background(), numTokens, datacenter, racks, rf, flags)
}

// AllocateNodesContext is AllocateNodes stopped by ctx (see AvailabilityContext); a
// ProgressFunc attached with WithProgress receives one unit per token placed, then one
// per refinement round.
func (t *Topology) AllocateNodesContext(ctx context.Context, numTokens int, datacenter string, racks []string, rf int, flags LayoutFlags) ([][]int64, error) {
	if numTokens <= 0 || numTokens > LayoutMaxTokens {
		return nil, goError(CodeRange, "token count %d outside 1..%d", numTokens, LayoutMaxTokens)
	}
	if len(racks) == 0 {
		return nil, goError(CodeInvalid, "no nodes to plan")
	}
	if rf < -1<<31 || rf >= 1<<31 {
		return nil, goError(CodeRange, "replication factor %d does not fit 32 bits", rf)
	}
	cd, err := cname("datacenter name", datacenter)
	if err != nil {
		return nil, err
	}
	cr, freeR, err := cStrings("rack name", racks)
	if err != nil {
		return nil, err
	}
	defer freeR()
	if err := t.enter(); err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	flat := make([]int64, numTokens*len(racks))
	err = withProgress(ctx, func(fn C.tokenring_progress_fn, user unsafe.Pointer) error {
		var detail C.tokenring_error
		if fn == nil {
			return newError(C.tokenring_allocate_nodes((*C.int64_t)(unsafe.Pointer(&flat[0])), C.uint32_t(numTokens), t.ptr, charp(cd), cr,
				C.size_t(len(racks)), C.int32_t(rf), C.uint32_t(flags), &detail), &detail)
		}
		st := C.tokenring_allocate_nodes_progress((*C.int64_t)(unsafe.Pointer(&flat[0])), C.uint32_t(numTokens), t.ptr, charp(cd), cr,
			C.size_t(len(racks)), C.int32_t(rf), C.uint32_t(flags), fn, user, &detail)
		return newError(st, &detail)
	})
	if err != nil {
		return nil, err
	}
	out := make([][]int64, len(racks))
	for i := range out {
		out[i] = flat[i*numTokens : (i+1)*numTokens : (i+1)*numTokens]
	}
	return out, nil
}

// AssignRacks gives each of nodes new nodes, in join order, a datacenter and a rack
// (0-based): node i goes to datacenter i mod datacenters; within a datacenter nodes go
// round-robin over the racks, a rack skipped once it holds nodesPerRack[r] nodes (as
// generatetokens --racks takes them; with nodesPerRack, racks is len(nodesPerRack); nil
// means no limit). Name a rack with RackName.
func AssignRacks(nodes, racks, datacenters int, nodesPerRack []uint32) (dcs, rackOf []uint32, err error) {
	if nodes < 0 || racks < 0 || racks > 1<<31 || datacenters < 0 || datacenters > 1<<31 {
		return nil, nil, goError(CodeRange, "%d nodes, %d racks, %d datacenters: out of range", nodes, racks, datacenters)
	}
	var counts *C.uint32_t
	if nodesPerRack != nil {
		racks = len(nodesPerRack)
		if racks > 0 {
			counts = (*C.uint32_t)(unsafe.Pointer(&nodesPerRack[0]))
		}
	}
	dcs = make([]uint32, nodes+1)
	rackOf = make([]uint32, nodes+1)
	var detail C.tokenring_error
	st := C.tokenring_layout_assign_racks((*C.uint32_t)(unsafe.Pointer(&dcs[0])), (*C.uint32_t)(unsafe.Pointer(&rackOf[0])),
		C.size_t(nodes), C.uint32_t(datacenters), C.uint32_t(racks), counts, &detail)
	if err := newError(st, &detail); err != nil {
		return nil, nil, err
	}
	return dcs[:nodes], rackOf[:nodes], nil
}

// RackName is the name of rack i (0-based) of AssignRacks: "rack1", "rack2", ...
func RackName(i uint32) string {
	var buf [16]C.char
	var n C.size_t
	mustOK(C.tokenring_layout_rack_name(&buf[0], C.size_t(len(buf)), &n, C.uint32_t(i)))
	return C.GoStringN(&buf[0], C.int(n))
}

// CassandraRelease names a Cassandra release line for AllocateAsCassandra.
type CassandraRelease uint32

const (
	// Cassandra40 is the 4.0.x line (node addresses hash as 31 * address + port).
	Cassandra40 CassandraRelease = 0x0400
	// Cassandra41 is the 4.1.x line.
	Cassandra41 CassandraRelease = 0x0401
	// Cassandra50 is the 5.0.x line.
	Cassandra50 CassandraRelease = 0x0500
)

// CassandraOffline makes AllocateAsCassandra follow Cassandra's offline generatetokens
// tool (which treats every rack as the only one) instead of a bootstrapping node.
const CassandraOffline LayoutFlags = 1

// AllocateAsCassandra returns the tokens (ascending) Cassandra release gives node name
// (its address) bootstrapping into datacenter/rack, bit for bit: with
// allocate_tokens_for_local_replication_factor: localRF when keyspace is nil, else with
// allocate_tokens_for_keyspace of a keyspace replicated as keyspace (then localRF must be
// 0). firstToken is the random token Cassandra starts an empty ring at (nil when the ring
// is not empty). A RandomPartitioner topology takes AllocateAsCassandra128.
func (t *Topology) AllocateAsCassandra(numTokens int, name, datacenter, rack string, keyspace *Replication, localRF int, firstToken *int64, release CassandraRelease, flags LayoutFlags) ([]int64, error) {
	var first *C.int64_t
	if firstToken != nil {
		v := C.int64_t(*firstToken)
		first = &v
	}
	var out []int64
	err := t.cassandraCall(numTokens, name, datacenter, rack, keyspace, localRF, func(cn, cd, cr *C.char, ks *C.tokenring_replication, detail *C.tokenring_error) C.int {
		out = make([]int64, numTokens)
		return C.tokenring_allocate_cassandra((*C.int64_t)(unsafe.Pointer(&out[0])), C.uint32_t(numTokens), t.ptr, cn, cd, cr, ks, C.int32_t(localRF), first, C.uint32_t(release), C.uint32_t(flags), detail)
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// cassandraCall checks what AllocateAsCassandra and AllocateAsCassandra128 share (the
// token count, the factor, the names, live handles, held locked during the call) and
// runs call.
func (t *Topology) cassandraCall(numTokens int, name, datacenter, rack string, keyspace *Replication, localRF int, call func(cn, cd, cr *C.char, ks *C.tokenring_replication, detail *C.tokenring_error) C.int) error {
	if numTokens <= 0 || numTokens > LayoutMaxTokens {
		return goError(CodeRange, "token count %d outside 1..%d", numTokens, LayoutMaxTokens)
	}
	if localRF < -1<<31 || localRF >= 1<<31 {
		return goError(CodeRange, "replication factor %d does not fit 32 bits", localRF)
	}
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
	// The topology and the keyspace in the one lock order (see lockAll); nil keyspace: none.
	hs := []handle{t}
	if keyspace != nil {
		hs = append(hs, keyspace)
	}
	unlock, err := lockAll(hs...)
	if err != nil {
		return err
	}
	defer unlock()
	var ks *C.tokenring_replication
	if keyspace != nil {
		ks = keyspace.ptr
	}
	var detail C.tokenring_error
	st := call(charp(cn), charp(cd), charp(cr), ks, &detail)
	return newError(st, &detail)
}

// AllocateJoin returns the library's join plan (tokens ascending) for node name joining
// datacenter/rack, final when it joins: by default the tokens Cassandra release would
// choose, bit for bit (an empty datacenter starts at token 0), so a datacenter grown node
// by node ends exactly as balanced as under Cassandra's allocator; the allocator's plan
// only where Cassandra gives none. Under keyspace (SimpleStrategy: the whole cluster) or,
// when keyspace is nil, NetworkTopologyStrategy {datacenter: localRF} (then localRF must
// be at least 1, else 0). AllocateJoinOneStep is the plan best for this one join. See
// tokenring_allocate_join.
func (t *Topology) AllocateJoin(numTokens int, name, datacenter, rack string, keyspace *Replication, localRF int, release CassandraRelease) ([]int64, error) {
	return t.allocateJoin(numTokens, name, datacenter, rack, keyspace, localRF, release, 0)
}

// AllocateJoinOneStep is AllocateJoin with TOKENRING_JOIN_BEST_ONE_STEP: the tokens best
// for this one join, never less balanced (max/mean, then min/mean of effective ownership
// in the datacenter, primary while it has at most rf nodes) than Cassandra's for it; a
// datacenter grown join after join that way can end less balanced than Cassandra's (12
// of 82 growths of the reduced sweep, doc/performance.md "Growth sweep").
func (t *Topology) AllocateJoinOneStep(numTokens int, name, datacenter, rack string, keyspace *Replication, localRF int, release CassandraRelease) ([]int64, error) {
	return t.allocateJoin(numTokens, name, datacenter, rack, keyspace, localRF, release, C.TOKENRING_JOIN_BEST_ONE_STEP)
}

func (t *Topology) allocateJoin(numTokens int, name, datacenter, rack string, keyspace *Replication, localRF int, release CassandraRelease, flags C.uint32_t) ([]int64, error) {
	if numTokens <= 0 || numTokens > LayoutMaxTokens {
		return nil, goError(CodeRange, "token count %d outside 1..%d", numTokens, LayoutMaxTokens)
	}
	if localRF < -1<<31 || localRF >= 1<<31 {
		return nil, goError(CodeRange, "replication factor %d does not fit 32 bits", localRF)
	}
	cn, err := cname("node name", name)
	if err != nil {
		return nil, err
	}
	cd, err := cname("datacenter name", datacenter)
	if err != nil {
		return nil, err
	}
	cr, err := cname("rack name", rack)
	if err != nil {
		return nil, err
	}
	// The topology and the keyspace in the one lock order (see lockAll); nil keyspace: none.
	hs := []handle{t}
	if keyspace != nil {
		hs = append(hs, keyspace)
	}
	unlock, err := lockAll(hs...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var ks *C.tokenring_replication
	if keyspace != nil {
		ks = keyspace.ptr
	}
	out := make([]int64, numTokens)
	var detail C.tokenring_error
	st := C.tokenring_allocate_join((*C.int64_t)(unsafe.Pointer(&out[0])), C.uint32_t(numTokens), t.ptr, charp(cn), charp(cd), charp(cr), ks, C.int32_t(localRF), C.uint32_t(release), flags, &detail)
	if err := newError(st, &detail); err != nil {
		return nil, err
	}
	return out, nil
}
