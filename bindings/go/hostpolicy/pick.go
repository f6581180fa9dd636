// SPDX-License-Identifier: Apache-2.0

package hostpolicy

import (
	"errors"
	"sort"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

// Replicas is a key's local replicas in the server's order: a read-only view of the
// state it was taken from (no copy).
type Replicas[H comparable] struct {
	hosts []H
	idx   []uint16
}

// Len returns the number of replicas.
func (r Replicas[H]) Len() int { return len(r.idx) }

// At returns replica i.
func (r Replicas[H]) At(i int) H { return r.hosts[r.idx[i]] }

// Contains says whether h is one of the replicas.
func (r Replicas[H]) Contains(h H) bool {
	for _, n := range r.idx {
		if r.hosts[n] == h {
			return true
		}
	}
	return false
}

// Local returns the replicas of a serialized partition key of keyspace that IsLocal
// accepts, in the server's order (up or not: the driver's host state is asked as its
// plan iterates). ok is false when the core cannot place the key (no routing state yet,
// a keyspace not seen before, which is then loaded in the background, a keyspace the
// router skips or refused, a dropped one): the fallback's plan then.
func (c *Core[H]) Local(keyspace string, key []byte) (r Replicas[H], ok bool) {
	st := c.state.Load()
	if st == nil {
		return r, false
	}
	ks := st.keyspaces[keyspace]
	if ks == nil {
		if keyspace != "" {
			c.loadAsync(keyspace)
		}
		return r, false
	}
	if !ks.routed {
		return r, false
	}
	if t := ks.t; t != nil {
		// no call into C: the token and the range search in Go, then the range's local
		// replicas from the placement's table (entry len(tokens): above the last token)
		i := lowerBound(st.tokens, tokenring.Token(key))
		if t.rstart == nil {
			a := i * t.stride
			return Replicas[H]{st.hosts, t.rnodes[a : a+t.stride : a+t.stride]}, true
		}
		a, b := t.rstart[i], t.rstart[i+1]
		return Replicas[H]{st.hosts, t.rnodes[a:b:b]}, true
	}
	rt, err := st.router.Route(keyspace, key, 0)
	if err != nil {
		return r, false
	}
	idx := make([]uint16, 0, len(rt.Replicas))
	for _, n := range rt.Replicas {
		if st.local[n] {
			idx = append(idx, uint16(n))
		}
	}
	return Replicas[H]{st.hosts, idx}, true
}

// Replicas returns every replica of key in keyspace in the server's order, whatever
// their datacenter (nil when the core cannot place it).
func (c *Core[H]) Replicas(keyspace string, key []byte) []H {
	for try := 0; try < 8; try++ {
		st := c.state.Load()
		if st == nil {
			return nil
		}
		rt, err := st.router.Route(keyspace, key, 0)
		if errors.Is(err, tokenring.ErrClosed) {
			continue // replaced meanwhile: the current state
		}
		if err != nil {
			return nil
		}
		out := make([]H, len(rt.Replicas))
		for i, n := range rt.Replicas {
			out[i] = st.hosts[n]
		}
		return out
	}
	return nil
}

// Host returns the host of a node of the current router, by name (false if none).
func (c *Core[H]) Host(name string) (h H, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if rec := c.hosts[name]; rec != nil {
		return rec.h, true
	}
	return h, false
}

// Hosts returns every known host (in the router or not), by address.
func (c *Core[H]) Hosts() []H {
	c.mu.Lock()
	defer c.mu.Unlock()
	addrs := make([]string, 0, len(c.hosts))
	for a := range c.hosts {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	out := make([]H, len(addrs))
	for i, a := range addrs {
		out[i] = c.hosts[a].h
	}
	return out
}
