// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <tokenring/tokenring.h>
*/
import "C"

import "unsafe"

// ReplicaOrder says which rule ordered a placement's replicas. Cassandra before 6.0
// orders a range's replicas by the replication's walk of the ring (a function of the
// tokens); Cassandra 6.0's order depends on the cluster's history (doc/cassandra-6.md),
// so a placement of 6.0 takes its lists from the server or from the history replayed.
type ReplicaOrder int

const (
	// OrderTokens: computed from the ring's tokens (BuildPlacement, Update).
	OrderTokens ReplicaOrder = 0
	// OrderServer: given lists, in the order a server reported (e.g. describering).
	OrderServer ReplicaOrder = 1
	// OrderHistory: given lists, Cassandra 6.0's order replayed from the cluster's history.
	OrderHistory ReplicaOrder = 2
)

// String names the rule: "tokens", "server" or "history".
func (o ReplicaOrder) String() string {
	switch o {
	case OrderTokens:
		return "tokens"
	case OrderServer:
		return "server"
	case OrderHistory:
		return "history"
	}
	return "ReplicaOrder(?)"
}

// PlacementFromLists builds a placement of ring whose range i has the replicas
// nodes[starts[i]:starts[i+1]] (ring node indices) in the order given: order is
// OrderServer or OrderHistory. The layout is RangeReplicaNodes's. upper, when not nil,
// is the list of the tokens above the largest ring token where it differs from range 0's
// (Cassandra 6.0 keeps (t_last, min] apart from (min, t_0]). Every lookup then answers
// from these lists; Update refuses such a placement (ErrUnsupported). An error names a
// range that repeats a node or names an index past the ring's nodes.
func PlacementFromLists(ring *Ring, repl *Replication, starts, nodes, upper []uint32, order ReplicaOrder) (*Placement, error) {
	// the ring and the keyspace in the one lock order (see lockAll)
	unlock, err := lockAll(ring, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	rp := ring.ptr
	var nt C.size_t
	C.tokenring_ring_tokens(rp, &nt)
	if len(starts) != int(nt)+1 {
		return nil, goError(Code(C.TOKENRING_E_INVAL), "starts: %d offsets for a ring of %d tokens (want the token count + 1)", len(starts), int(nt))
	}
	for _, s := range starts {
		if int(s) > len(nodes) {
			return nil, goError(Code(C.TOKENRING_E_INVAL), "starts: offset %d lies past the %d nodes", s, len(nodes))
		}
	}
	var np *C.uint32_t
	if len(nodes) > 0 {
		np = (*C.uint32_t)(unsafe.Pointer(&nodes[0]))
	}
	var up *C.uint32_t
	if upper != nil {
		buf := append(make([]uint32, 0, len(upper)+1), upper...)
		buf = append(buf, 0) // a valid pointer even for an empty list
		up = (*C.uint32_t)(unsafe.Pointer(&buf[0]))
	}
	var p *C.tokenring_placement
	var detail C.tokenring_error
	if err := newError(C.tokenring_placement_from_lists(&p, rp, repl.ptr,
		(*C.uint32_t)(unsafe.Pointer(&starts[0])), np, up, C.size_t(len(upper)), C.int(order), &detail), &detail); err != nil {
		return nil, err
	}
	return wrapPlacement(p, ring.names), nil
}

// Order says which rule ordered the placement's replicas.
func (p *Placement) Order() (ReplicaOrder, error) {
	pp, err := p.acquire()
	if err != nil {
		return 0, err
	}
	defer p.release()
	o := C.tokenring_placement_order(pp)
	if o < 0 {
		return 0, check(o)
	}
	return ReplicaOrder(o), nil
}
