// SPDX-License-Identifier: Apache-2.0

package tokenringgocql

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/gocql/gocql"
	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

// Policy is a gocql.HostSelectionPolicy that routes a query with a routing key to the
// key's replicas as Cassandra places them (libtokenring), a drop-in for
// gocql.TokenAwareHostPolicy(fallback).
//
// Pick's plan: the replicas of the key in the query's keyspace that the fallback calls
// local (IsLocal; with DCAwareRoundRobinPolicy: the local datacenter's) and that are up, in
// Cassandra's replica order, then the fallback's plan without those hosts. No routing key,
// a keyspace the policy cannot place (LocalStrategy, an unsupported class, a dropped or
// not yet known keyspace) or no ring yet: the fallback's plan.
//
// The ring follows AddHost / RemoveHost (rebuilt at once; placements updated), the
// keyspaces follow KeyspaceChanged (the session's schema events), and a keyspace first seen
// in Pick is loaded in the background. A change that cannot be placed (a host without
// datacenter or rack, without tokens, an unsupported replication class) leaves the routing
// state as it was for the rest and is kept in LastError. Readers never lock: the state is
// an immutable snapshot swapped atomically. A Policy serves one session.
type Policy struct {
	fallback gocql.HostSelectionPolicy

	mu          sync.Mutex                 // serialises writers
	topo        *tokenring.Topology        // the ring's nodes
	nodes       map[string]node            // what the topology holds, by host address
	byName      map[string]*gocql.HostInfo // every known host (in the ring or not)
	partitioner string
	ksMeta      func(string) (*gocql.KeyspaceMetadata, error)
	sessionKS   string
	loading     map[string]bool
	state       atomic.Pointer[policyState]
	lastErr     atomic.Pointer[string]

	// RingBuilds and KeyspaceBuilds count rebuilds (tests, monitoring).
	RingBuilds, KeyspaceBuilds atomic.Int64
}

// policyState is one immutable routing snapshot.
type policyState struct {
	ring      *tokenring.Ring
	tokens    []int64           // the ring's sorted tokens (Pick's range search, in Go)
	hosts     []*gocql.HostInfo // by ring node index
	local     []bool            // fallback.IsLocal by node index
	keyspaces map[string]*ksState
}

type ksState struct {
	repl  *tokenring.Replication
	text  string
	pl    *tokenring.Placement
	hosts []*gocql.HostInfo // the state's hosts by node index
	local []bool            // and whether the fallback calls them local
	// Pick's tables (tokens nil: Pick asks the placement): the ring's tokens and, by
	// range, the local replicas' node indices in replica order: rnodes[i*stride:][:stride]
	// when every range has stride of them, else rnodes[rstart[i]:rstart[i+1]]
	tokens []int64
	rstart []uint32
	rnodes []uint16
	stride int
	inErr  string
}

// Option configures a Policy.
type Option func(*Policy)

// WithKeyspaceMetadata makes the policy read keyspaces with fn instead of the session's
// KeyspaceMetadata (for tests and for embedders that keep their own schema).
func WithKeyspaceMetadata(fn func(keyspace string) (*gocql.KeyspaceMetadata, error)) Option {
	return func(p *Policy) { p.ksMeta = fn }
}

// NewPolicy returns a Policy over fallback (e.g. gocql.DCAwareRoundRobinPolicy("dc1")).
func NewPolicy(fallback gocql.HostSelectionPolicy, opts ...Option) *Policy {
	topo, err := tokenring.NewTopology()
	if err != nil {
		panic(fmt.Sprintf("tokenringgocql: no topology: %v", err)) // out of memory
	}
	p := &Policy{fallback: fallback, topo: topo, nodes: map[string]node{}, byName: map[string]*gocql.HostInfo{}, loading: map[string]bool{}}
	for _, o := range opts {
		o(p)
	}
	return p
}

// LastError returns the message of the last change the policy could not apply ("" none).
func (p *Policy) LastError() string {
	if s := p.lastErr.Load(); s != nil {
		return *s
	}
	return ""
}

func (p *Policy) fail(format string, args ...interface{}) {
	s := fmt.Sprintf(format, args...)
	p.lastErr.Store(&s)
}

// Init is called by gocql when the session starts.
func (p *Policy) Init(s *gocql.Session) {
	p.mu.Lock()
	if p.ksMeta == nil {
		p.ksMeta = s.KeyspaceMetadata
	}
	p.mu.Unlock()
	p.fallback.Init(s)
}

// IsLocal is the fallback's.
func (p *Policy) IsLocal(h *gocql.HostInfo) bool { return p.fallback.IsLocal(h) }

// SetPartitioner is called by gocql with the cluster's partitioner; only
// Murmur3Partitioner is routed (any other leaves every query to the fallback).
func (p *Policy) SetPartitioner(partitioner string) {
	p.fallback.SetPartitioner(partitioner)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.partitioner == partitioner {
		return
	}
	p.partitioner = partitioner
	if shortClass(partitioner) != "Murmur3Partitioner" {
		p.fail("partitioner %s is not supported: every query goes to the fallback", partitioner)
		p.state.Store(nil)
		return
	}
	p.buildLocked()
}

// AddHost adds a host (or applies a host's new tokens, datacenter or rack) and rebuilds
// the ring. A host without datacenter, rack or tokens is left out of the ring (LastError
// says why); a host already in it then keeps its previous place.
func (p *Policy) AddHost(h *gocql.HostInfo) {
	p.mu.Lock()
	if p.addLocked(h) {
		p.buildLocked()
	}
	p.mu.Unlock()
	p.fallback.AddHost(h)
}

// AddHosts adds many hosts with one ring rebuild.
func (p *Policy) AddHosts(hosts []*gocql.HostInfo) {
	p.mu.Lock()
	changed := false
	for _, h := range hosts {
		changed = p.addLocked(h) || changed
	}
	if changed {
		p.buildLocked()
	}
	p.mu.Unlock()
	for _, h := range hosts {
		p.fallback.AddHost(h)
	}
}

func sameNode(a, b node) bool {
	if a.dc != b.dc || a.rack != b.rack || len(a.tokens) != len(b.tokens) {
		return false
	}
	for i := range a.tokens {
		if a.tokens[i] != b.tokens[i] {
			return false
		}
	}
	return true
}

// addLocked puts h into the topology; true when the topology changed.
func (p *Policy) addLocked(h *gocql.HostInfo) bool {
	name := hostName(h)
	p.byName[name] = h
	n, err := nodeOf("host", name, h.DataCenter(), h.Rack(), h.Tokens(), false)
	if err != nil {
		p.fail("host %s is left out of the ring (routing stays as it was): %v", name, err)
		return false
	}
	if len(n.tokens) == 0 {
		p.fail("host %s has no tokens yet: left out of the ring (routing stays as it was)", name)
		return false
	}
	if old, ok := p.nodes[name]; ok {
		if sameNode(old, n) {
			return true // the same node; the HostInfo pointer may be new
		}
		clone, err := p.topo.Clone()
		if err == nil {
			if err = clone.RemoveNode(name); err == nil {
				err = clone.AddNode(n.name, n.dc, n.rack, n.tokens)
			}
		}
		if err != nil {
			if clone != nil {
				clone.Close()
			}
			p.fail("host %s: its new tokens, datacenter or rack were not applied (routing stays as it was): %v", name, err)
			return false
		}
		p.topo.Close()
		p.topo = clone
	} else if err := p.topo.AddNode(n.name, n.dc, n.rack, n.tokens); err != nil {
		p.fail("host %s is left out of the ring (routing stays as it was): %v", name, err)
		return false
	}
	p.nodes[name] = n
	return true
}

// closeAll frees the current state's C memory at once (benchmarks); the policy routes
// through the fallback afterwards.
func (p *Policy) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	st := p.state.Swap(nil)
	if st == nil {
		return
	}
	for _, ks := range st.keyspaces {
		if ks.pl != nil {
			ks.pl.Close()
			ks.repl.Close()
		}
	}
	st.ring.Close()
}

// RemoveHost removes a host and rebuilds the ring.
func (p *Policy) RemoveHost(h *gocql.HostInfo) {
	p.mu.Lock()
	name := hostName(h)
	delete(p.byName, name)
	if _, ok := p.nodes[name]; ok {
		if err := p.topo.RemoveNode(name); err != nil {
			p.fail("host %s: %v", name, err)
		} else {
			delete(p.nodes, name)
			p.buildLocked()
		}
	}
	p.mu.Unlock()
	p.fallback.RemoveHost(h)
}

// HostUp is passed to the fallback (Pick skips hosts that are not up).
func (p *Policy) HostUp(h *gocql.HostInfo) { p.fallback.HostUp(h) }

// HostDown is passed to the fallback (Pick skips hosts that are not up).
func (p *Policy) HostDown(h *gocql.HostInfo) { p.fallback.HostDown(h) }

// KeyspaceChanged rebuilds (or, for a dropped keyspace, removes) one keyspace's placement.
func (p *Policy) KeyspaceChanged(ev gocql.KeyspaceUpdateEvent) {
	if ev.Keyspace == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.sessionKS == "" && ev.Change == "" {
		p.sessionKS = ev.Keyspace // gocql announces the session keyspace with no change
	}
	p.loadKeyspaceLocked(ev.Keyspace)
}

// anyUpHost returns the first host (by address) that is up, or nil.
func (p *Policy) anyUpHost() *gocql.HostInfo {
	p.mu.Lock()
	defer p.mu.Unlock()
	names := make([]string, 0, len(p.byName))
	for n := range p.byName {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if h := p.byName[n]; h.IsUp() {
			return h
		}
	}
	return nil
}

func hostName(h *gocql.HostInfo) string { return h.ConnectAddress().String() }

// buildLocked builds the ring of the topology and updates the placements of the known
// keyspaces; on failure the previous state stays.
func (p *Policy) buildLocked() {
	if shortClass(p.partitioner) != "Murmur3Partitioner" && p.partitioner != "" {
		return
	}
	if p.topo.NodeCount() == 0 {
		p.state.Store(nil)
		return
	}
	ring, err := p.topo.Build()
	if err != nil {
		p.fail("the ring was not rebuilt (routing stays as it was): %v", err)
		return
	}
	st := &policyState{ring: ring, keyspaces: map[string]*ksState{}}
	if st.tokens, err = ring.Tokens(); err != nil {
		st.tokens = nil // Pick asks the placements
	}
	names := ring.NodeNames()
	st.hosts = make([]*gocql.HostInfo, len(names))
	st.local = make([]bool, len(names))
	for i, n := range names {
		st.hosts[i] = p.byName[n]
		st.local[i] = p.fallback.IsLocal(st.hosts[i])
	}
	old := p.state.Load()
	if old != nil {
		for name, ks := range old.keyspaces {
			if ks.pl == nil {
				st.keyspaces[name] = ks
				continue
			}
			pl, err := ks.pl.Update(ring)
			if err != nil {
				p.fail("keyspace %q routes through the fallback: %v", name, err)
				continue
			}
			st.keyspaces[name] = newKS(st, ks.repl, ks.text, pl)
			p.KeyspaceBuilds.Add(1)
		}
	}
	p.RingBuilds.Add(1)
	p.state.Store(st)
	if (old == nil || len(old.keyspaces) == 0) && p.sessionKS != "" {
		p.loadKeyspaceLocked(p.sessionKS)
	}
}

// newKS is a keyspace of st: its placement, the state's hosts and Pick's tables (the local
// replicas of every range, read from the placement in two calls into C).
func newKS(st *policyState, repl *tokenring.Replication, text string, pl *tokenring.Placement) *ksState {
	ks := &ksState{repl: repl, text: text, pl: pl, hosts: st.hosts, local: st.local}
	if st.tokens == nil || len(st.hosts) > math.MaxUint16+1 {
		return ks // Pick asks the placement
	}
	starts, nodes, err := pl.RangeReplicaNodes()
	if err != nil || len(starts) != len(st.tokens)+1 {
		return ks
	}
	n, stride := 0, -1
	for i := 0; i+1 < len(starts); i++ {
		c := 0
		for _, x := range nodes[starts[i]:starts[i+1]] {
			if st.local[x] {
				c++
			}
		}
		if i == 0 {
			stride = c
		} else if c != stride {
			stride = -1 - len(starts) // not uniform
		}
		n += c
	}
	rnodes := make([]uint16, 0, n)
	var rstart []uint32
	if stride < 0 {
		rstart = make([]uint32, len(starts))
	}
	for i := 0; i+1 < len(starts); i++ {
		if rstart != nil {
			rstart[i] = uint32(len(rnodes))
		}
		for _, x := range nodes[starts[i]:starts[i+1]] {
			if st.local[x] {
				rnodes = append(rnodes, uint16(x))
			}
		}
	}
	if rstart != nil {
		rstart[len(starts)-1] = uint32(len(rnodes))
		stride = 0
	}
	ks.tokens, ks.rstart, ks.rnodes, ks.stride = st.tokens, rstart, rnodes, stride
	return ks
}

// loadKeyspaceLocked reads one keyspace's metadata and publishes a new state with it.
func (p *Policy) loadKeyspaceLocked(name string) {
	st := p.state.Load()
	if st == nil || p.ksMeta == nil {
		return
	}
	next := &policyState{ring: st.ring, tokens: st.tokens, hosts: st.hosts, local: st.local, keyspaces: make(map[string]*ksState, len(st.keyspaces)+1)}
	for k, v := range st.keyspaces {
		next.keyspaces[k] = v
	}
	md, err := p.ksMeta(name)
	switch {
	case errors.Is(err, gocql.ErrKeyspaceDoesNotExist) || (err == nil && md == nil):
		// dropped (or never created): the fallback routes it; the entry keeps Pick from
		// loading it again until a KeyspaceChanged event names it
		next.keyspaces[name] = &ksState{inErr: "keyspace does not exist"}
	case err != nil:
		p.fail("keyspace %q: its metadata could not be read: %v", name, err)
		return
	default:
		repl, err := ReplicationOfMetadata(md)
		switch {
		case err != nil:
			p.fail("keyspace %q routes through the fallback: %v", name, err)
			next.keyspaces[name] = &ksState{inErr: err.Error()}
		case repl == nil: // LocalStrategy
			next.keyspaces[name] = &ksState{}
		default:
			text := repl.String()
			if cur := st.keyspaces[name]; cur != nil && cur.pl != nil && cur.text == text {
				repl.Close()
				return
			}
			pl, err := st.ring.Placement(repl, tokenring.AllowUnknownDC)
			if err == nil {
				next.keyspaces[name] = newKS(st, repl, text, pl)
				p.KeyspaceBuilds.Add(1)
				break
			}
			p.fail("keyspace %q routes through the fallback: %v", name, err)
			next.keyspaces[name] = &ksState{inErr: err.Error()}
		}
	}
	p.state.Store(next)
}

func (p *Policy) loadAsync(name string) {
	p.mu.Lock()
	if p.loading[name] {
		p.mu.Unlock()
		return
	}
	p.loading[name] = true
	p.mu.Unlock()
	go func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		p.loadKeyspaceLocked(name)
		delete(p.loading, name)
	}()
}

// LoadKeyspace reads keyspace's metadata now (Pick loads an unknown keyspace in the
// background on first sight; this does it at once).
func (p *Policy) LoadKeyspace(keyspace string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.loadKeyspaceLocked(keyspace)
}

// Replicas returns every replica of key in keyspace in Cassandra's order (nil when the
// policy cannot place it).
func (p *Policy) Replicas(keyspace string, key []byte) []*gocql.HostInfo {
	st := p.state.Load()
	if st == nil {
		return nil
	}
	ks := st.keyspaces[keyspace]
	if ks == nil || ks.pl == nil {
		return nil
	}
	idx, err := ks.pl.AppendReplicasForKey(nil, key)
	if err != nil {
		return nil
	}
	out := make([]*gocql.HostInfo, len(idx))
	for i, n := range idx {
		out[i] = st.hosts[n]
	}
	return out
}

// selectedHost is a picked host (Mark does nothing, as for gocql's own policies).
type selectedHost gocql.HostInfo

func (h *selectedHost) Info() *gocql.HostInfo { return (*gocql.HostInfo)(h) }
func (h *selectedHost) Mark(error)            {}

func pinned(h *gocql.HostInfo) gocql.NextHost {
	done := false
	return func() gocql.SelectedHost {
		if done {
			return nil
		}
		done = true
		return (*selectedHost)(h)
	}
}

// Pick returns the query plan of qry (see Policy).
func (p *Policy) Pick(qry gocql.ExecutableQuery) gocql.NextHost {
	if qry == nil {
		return p.fallback.Pick(qry)
	}
	key, err := qry.GetRoutingKey()
	if err != nil || key == nil {
		if h := pinnedHost(qry); h != nil {
			return pinned(h)
		}
		return p.fallback.Pick(qry)
	}
	st := p.state.Load()
	if st == nil {
		return p.fallback.Pick(qry)
	}
	name := qry.Keyspace()
	ks := st.keyspaces[name]
	if ks == nil {
		if name != "" {
			p.loadAsync(name)
		}
		return p.fallback.Pick(qry)
	}
	if ks.pl == nil {
		return p.fallback.Pick(qry)
	}
	var idx []uint16
	if ks.tokens != nil {
		// no call into C: the token and the range search in Go, then the range's local
		// replicas from the keyspace's table
		r := searchRange(ks.tokens, keyToken(key))
		if ks.rstart == nil {
			a := r * ks.stride
			idx = ks.rnodes[a : a+ks.stride : a+ks.stride]
		} else {
			a, b := ks.rstart[r], ks.rstart[r+1]
			idx = ks.rnodes[a:b:b]
		}
	} else {
		all, err := ks.pl.AppendReplicasForKey(nil, key)
		if err != nil {
			return p.fallback.Pick(qry)
		}
		for _, n := range all {
			if ks.local[n] {
				idx = append(idx, uint16(n))
			}
		}
	}
	it := &plan{p: p, qry: qry, ks: ks, idx: idx}
	return it.next
}

// plan is one Pick's iteration: the key's local replicas (node indices, Cassandra's
// order; shared, read only), then the fallback's plan without them.
type plan struct {
	p   *Policy
	qry gocql.ExecutableQuery
	ks  *ksState
	idx []uint16
	i   int
	fb  gocql.NextHost
}

func (it *plan) next() gocql.SelectedHost {
	ks := it.ks
	for it.i < len(it.idx) {
		n := it.idx[it.i]
		it.i++
		if h := ks.hosts[n]; h.IsUp() {
			return (*selectedHost)(h)
		}
	}
	if it.fb == nil {
		it.fb = it.p.fallback.Pick(it.qry)
	}
	for s := it.fb(); s != nil; s = it.fb() {
		if !it.isReplica(s.Info()) {
			return s
		}
	}
	return nil
}

// isReplica: h is one of the local replicas the plan gave (or skipped as down).
func (it *plan) isReplica(h *gocql.HostInfo) bool {
	for _, n := range it.idx {
		if it.ks.hosts[n] == h {
			return true
		}
	}
	return false
}
