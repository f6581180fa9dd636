// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <string.h>
#include <tokenring/tokenring.h>

// The placement keyspace routes through (borrowed), or NULL for a keyspace the router
// does not route.
static const tokenring_placement *trgo_router_placement(const tokenring_router *r,
                                                        const char *keyspace)
{
	size_t n = tokenring_router_keyspace_count(r);
	for (size_t i = 0; i < n; i++) {
		const char *name = NULL;
		const tokenring_placement *p = NULL;
		if (tokenring_router_keyspace(&name, &p, r, i) == TOKENRING_OK && name != NULL &&
		    strcmp(name, keyspace) == 0)
			return p;
	}
	return NULL;
}
*/
import "C"

// Ring returns a new handle to the ring the router's placements are built from (close
// it): the ring to build a placement on for a RouterEvent of kind EventPlacement. Its
// node indices are the router's.
func (r *Router) Ring() (*Ring, error) {
	p, err := r.enter()
	if err != nil {
		return nil, err
	}
	defer r.mu.RUnlock()
	return wrapRing(C.tokenring_ring_ref(C.tokenring_router_ring(p))), nil
}

// Placement returns a new handle to the placement keyspace is routed through (close it;
// keyspaces of the same replication share one placement): its replica sets and per-range
// tables, for a caller that keeps tables of its own (a driver's hosts by range). Node
// indices are the router's. A keyspace the router does not route (unknown, or skipped:
// LocalStrategy, EverywhereStrategy, MetaStrategy) gives an ErrNotFound error.
func (r *Router) Placement(keyspace string) (*Placement, error) {
	ks, err := cname("keyspace", keyspace)
	if err != nil {
		return nil, err
	}
	p, err := r.enter()
	if err != nil {
		return nil, err
	}
	defer r.mu.RUnlock()
	pl := C.trgo_router_placement(p, charp(ks))
	if pl == nil {
		return nil, goError(CodeNotFound, "keyspace %q is not routed by this router", keyspace)
	}
	ring := C.tokenring_router_ring(p)
	n := int(C.tokenring_ring_node_count(ring))
	names := make([]string, n)
	var info C.tokenring_node_info
	for i := 0; i < n; i++ {
		if C.tokenring_ring_node_brief(&info, ring, C.uint32_t(i)) == C.TOKENRING_OK {
			names[i] = C.GoString(info.name)
		}
	}
	return wrapPlacement(C.tokenring_placement_ref(pl), names), nil
}
