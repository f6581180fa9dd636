// SPDX-License-Identifier: Apache-2.0

// Package hostpolicy is the driver-independent core of libtokenring's token-aware host
// selection policies: the gocql v1 adapter (bindings/go/gocql) and the Apache driver v2
// adapter (bindings/go/gocqlv2) are thin layers over a Core, which keeps the routing state
// on the library's router (tokenring.Router).
//
// The router owns the rules: hosts go to a tokenring.RouterBuilder as the rows of
// system.local / system.peers_v2 would (a host without datacenter is refused, a null rack
// is UNKNOWN_RACK, a host without tokens is left out until it has some, any partitioner
// the library models is read), keyspaces as their replication maps (LocalStrategy,
// EverywhereStrategy and MetaStrategy keyspaces are skipped, an unknown class refused),
// and every later change is a tokenring.RouterEvent applied to the previous snapshot
// (joined, left, moved, up, down; created, altered, dropped). The driver's hosts are the
// nodes' tags.
//
// Readers never lock: a Pick reads an immutable state through an atomic pointer. On a
// Murmur3 cluster a Pick does not call into C either: the key's token is computed in Go
// and the range found in a Go copy of the router's ring tokens, whose local replicas come
// from a per-placement table read from the router's placement once per change.
package hostpolicy

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

// HostInfo is what the core needs of a driver's host.
type HostInfo struct {
	Addr       string   // the address the driver connects to: the node's name
	Datacenter string   // "" (unknown) is refused by the router's rules
	Rack       string   // "" is null: the server's UNKNOWN_RACK
	HostID     string   // "" none
	Tokens     []string // as text; none: left out of the ring until it has tokens
	Up         bool     // as the driver sees it now
	Version    string   // release_version ("" unknown)
}

// ErrNoKeyspace is returned by a Config.Keyspace function for a keyspace that does not
// exist (dropped, or never created).
var ErrNoKeyspace = errors.New("keyspace does not exist")

// Config connects a Core to a driver. H is the driver's host type (a pointer).
type Config[H comparable] struct {
	// Describe returns what the core needs of a host (required).
	Describe func(H) HostInfo
	// IsLocal says whether the driver's fallback policy calls a host local: Pick gives the
	// key's local replicas (required).
	IsLocal func(H) bool
	// Keyspace returns a keyspace's replication map as system_schema.keyspaces holds it
	// ({"class": ..., "dc1": "3"}), or ErrNoKeyspace; nil until SetKeyspaceSource.
	Keyspace func(name string) (map[string]string, error)
	// Query runs a CQL statement on one host of the cluster and gives its rows (nil until
	// SetQuery): on Cassandra 6.0 and later the core reads the cluster's history with it.
	Query func(stmt string) ([]Row, error)
}

// Core is the routing state of one driver session. Safe for concurrent use: writers
// (the driver's host and schema events) are serialised, readers never lock.
type Core[H comparable] struct {
	cfg Config[H]

	mu          sync.Mutex
	partitioner string
	hosts       map[string]*hostRec[H] // every known host, by address
	byTag       map[uint64]H
	nextTag     uint64
	given       map[string]map[string]string // replication maps the router holds (routed or skipped)
	refused     map[string]string            // keyspaces the router refused: the error
	loadMu      sync.Mutex                   // guards loading (Pick takes it, never mu)
	loading     map[string]bool
	closed      bool
	state       atomic.Pointer[state[H]]
	lastErr     atomic.Pointer[string]

	ringBuilds, keyspaceBuilds atomic.Int64

	historyWanted, historyDone uint64 // history reads asked for and finished (under mu)
	queriedRelease             int    // system.local's release: 6, 5 (older), 0 not asked
	historyApplied             atomic.Int64
}

type hostRec[H comparable] struct {
	h        H
	info     HostInfo
	tag      uint64
	inRouter bool
}

// state is one immutable routing snapshot.
type state[H comparable] struct {
	router *tokenring.Router
	hosts  []H    // by node index
	local  []bool // IsLocal by node index
	tokens []int64
	// tables: the Pick tables by canonical replication (valid for this ring)
	tables    map[string]*table
	keyspaces map[string]*ksState
}

// ksState is a keyspace Pick has seen: routed through a table (or, without tables, the
// router), or given to the fallback (t == nil && !routed).
type ksState struct {
	routed bool
	t      *table
	key    string // t's key in the state's tables
	err    string
}

// table holds, by range, the local replicas' node indices in the server's order:
// rnodes[i*stride:][:stride] when every range has stride of them, else
// rnodes[rstart[i]:rstart[i+1]]; for i in 0 .. token count, the last entry being the list
// of the tokens above the last ring token (range 0's, except on a Cassandra 6.0 history
// placement, which cuts the wrapping range at the minimum token).
type table struct {
	rnodes []uint16
	rstart []uint32
	stride int
}

// New returns a Core; cfg.Describe and cfg.IsLocal are required.
func New[H comparable](cfg Config[H]) *Core[H] {
	if cfg.Describe == nil || cfg.IsLocal == nil {
		panic("hostpolicy: Config.Describe and Config.IsLocal are required")
	}
	return &Core[H]{cfg: cfg, hosts: map[string]*hostRec[H]{}, byTag: map[uint64]H{},
		given: map[string]map[string]string{}, refused: map[string]string{}, loading: map[string]bool{}}
}

// SetKeyspaceSource sets the function that reads a keyspace's replication (the driver's
// schema metadata), once the session exists.
func (c *Core[H]) SetKeyspaceSource(fn func(name string) (map[string]string, error)) {
	c.mu.Lock()
	if c.cfg.Keyspace == nil {
		c.cfg.Keyspace = fn
	}
	c.mu.Unlock()
}

// SetQuery sets the function that runs a CQL statement on one host (Config.Query), once
// the session exists.
func (c *Core[H]) SetQuery(fn func(stmt string) ([]Row, error)) {
	c.mu.Lock()
	if c.cfg.Query == nil {
		c.cfg.Query = fn
	}
	c.mu.Unlock()
}

// LastError returns the message of the last change the core could not apply ("" none).
func (c *Core[H]) LastError() string {
	if s := c.lastErr.Load(); s != nil {
		return *s
	}
	return ""
}

func (c *Core[H]) fail(format string, args ...interface{}) {
	s := fmt.Sprintf(format, args...)
	c.lastErr.Store(&s)
}

// Builds returns how many router snapshots changed the ring (full builds and node
// events) and how many keyspace tables were made (tests, monitoring).
func (c *Core[H]) Builds() (ring, keyspace int64) {
	return c.ringBuilds.Load(), c.keyspaceBuilds.Load()
}

// Router returns the current router snapshot (nil before the first; do not close it:
// the core closes a snapshot once it is replaced, after which its methods give
// tokenring.ErrClosed).
func (c *Core[H]) Router() *tokenring.Router {
	if st := c.state.Load(); st != nil {
		return st.router
	}
	return nil
}

// Close releases the routing state; the policy routes through its fallback afterwards
// and ignores later events. Calling it again does nothing.
func (c *Core[H]) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closed = true
	if st := c.state.Swap(nil); st != nil {
		st.router.Close()
	}
}

func shortClass(s string) string {
	if i := strings.LastIndexByte(s, '.'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// SetPartitioner records the cluster's partitioner (its Java class name); a change
// rebuilds the router.
func (c *Core[H]) SetPartitioner(partitioner string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.partitioner == partitioner {
		return
	}
	c.partitioner = partitioner
	c.rebuildLocked()
}

// AddHosts adds hosts, or applies their new tokens, datacenter or rack.
func (c *Core[H]) AddHosts(hs []H) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	var events []tokenring.RouterEvent
	relink := false
	for _, h := range hs {
		info := c.cfg.Describe(h)
		if info.Addr == "" {
			c.fail("a host without address is left out of the ring")
			continue
		}
		rec := c.hosts[info.Addr]
		if rec == nil {
			c.nextTag++
			rec = &hostRec[H]{h: h, info: info, tag: c.nextTag}
			c.hosts[info.Addr] = rec
			c.byTag[rec.tag] = h
			if len(info.Tokens) > 0 {
				events = append(events, joined(rec))
			}
			continue
		}
		if rec.h != h {
			rec.h = h
			c.byTag[rec.tag] = h
			relink = true
		}
		old := rec.info
		rec.info = info
		switch {
		case !rec.inRouter:
			if len(info.Tokens) > 0 {
				events = append(events, joined(rec))
			}
		case len(info.Tokens) == 0:
			// tokens not known (yet) in this description: keep the node as it is
			rec.info.Tokens = old.Tokens
		case old.Datacenter != info.Datacenter || old.Rack != info.Rack:
			events = append(events, tokenring.RouterEvent{Kind: tokenring.EventLeft, Node: info.Addr}, joined(rec))
		case !sameTokens(old.Tokens, info.Tokens):
			events = append(events, tokenring.RouterEvent{Kind: tokenring.EventMoved, Node: info.Addr, Tokens: info.Tokens})
		}
	}
	st := c.state.Load()
	switch {
	case st == nil || 2*len(events) > len(c.hosts):
		if len(events) > 0 || st == nil {
			c.rebuildLocked()
		} else if relink {
			c.publishLocked(st.router, false, "")
		}
	case len(events) > 0:
		c.applyLocked(events)
	case relink:
		c.publishLocked(st.router, false, "")
	}
}

func joined[H comparable](rec *hostRec[H]) tokenring.RouterEvent {
	return tokenring.RouterEvent{Kind: tokenring.EventJoined, Node: rec.info.Addr,
		Datacenter: rec.info.Datacenter, Rack: rec.info.Rack, HostID: rec.info.HostID,
		Tokens: rec.info.Tokens, Tag: rec.tag, Down: !rec.info.Up}
}

func sameTokens(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// RemoveHost removes a host (it left the cluster).
func (c *Core[H]) RemoveHost(h H) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	addr := c.cfg.Describe(h).Addr
	rec := c.hosts[addr]
	if rec == nil {
		return
	}
	delete(c.hosts, addr)
	delete(c.byTag, rec.tag)
	if rec.inRouter {
		c.applyLocked([]tokenring.RouterEvent{{Kind: tokenring.EventLeft, Node: addr}})
	}
}

// HostUp and HostDown mark a host's liveness in the router (Pick asks the driver's own
// host state as it iterates).
func (c *Core[H]) HostUp(h H) { c.liveness(h, tokenring.EventUp) }

// HostDown: see HostUp.
func (c *Core[H]) HostDown(h H) { c.liveness(h, tokenring.EventDown) }

func (c *Core[H]) liveness(h H, kind tokenring.RouterEventKind) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return
	}
	rec := c.hosts[c.cfg.Describe(h).Addr]
	if rec == nil {
		return
	}
	rec.info.Up = kind == tokenring.EventUp
	if rec.inRouter {
		c.applyLocked([]tokenring.RouterEvent{{Kind: kind, Node: rec.info.Addr}})
	}
}

// rebuildLocked builds a router from every known host and keyspace; on failure the
// previous state stays (LastError says why).
func (c *Core[H]) rebuildLocked() {
	if len(c.hosts) == 0 {
		c.swapLocked(nil)
		return
	}
	b, err := tokenring.NewRouterBuilder("")
	if err != nil {
		c.fail("the router was not built: %v", err)
		return
	}
	defer b.Close()
	addrs := make([]string, 0, len(c.hosts))
	for a := range c.hosts {
		addrs = append(addrs, a)
	}
	sort.Strings(addrs)
	first := true
	for _, a := range addrs {
		rec := c.hosts[a]
		rec.inRouter = false
		i := rec.info
		if len(i.Tokens) == 0 {
			continue
		}
		if first {
			err = b.AddLocal(a, i.Datacenter, i.Rack, i.HostID, c.partitioner, i.Tokens)
		} else {
			err = b.AddPeer(a, i.Datacenter, i.Rack, i.HostID, i.Tokens)
		}
		if err != nil {
			c.fail("host %s is left out of the ring: %v", a, err)
			continue
		}
		first = false
		if err := b.SetNode(a, rec.tag, !i.Up); err != nil {
			c.fail("host %s: %v", a, err)
			continue
		}
		rec.inRouter = true
	}
	if first {
		c.swapLocked(nil) // no host with tokens yet
		return
	}
	names := make([]string, 0, len(c.given))
	for n := range c.given {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := b.AddKeyspace(n, c.given[n]); err != nil {
			c.refuseLocked(n, err)
		}
	}
	r, err := b.Build()
	if err != nil {
		c.fail("the router was not built (routing stays as it was): %v", err)
		return
	}
	c.ringBuilds.Add(1)
	c.publishLocked(r, true, "")
	c.scheduleHistoryLocked()
}

// applyLocked applies node events to the current router; a refused event leaves the
// routing state as it was for the rest (the node stays out, or as it was).
func (c *Core[H]) applyLocked(events []tokenring.RouterEvent) {
	st := c.state.Load()
	if st == nil {
		c.rebuildLocked()
		return
	}
	r := st.router
	ringChanged := false
	for _, ev := range events {
		next, err := r.Apply(ev)
		if err != nil {
			if errors.Is(err, tokenring.ErrEmpty) && ev.Kind == tokenring.EventLeft {
				// the last node with tokens left
				if rec := c.hosts[ev.Node]; rec != nil {
					rec.inRouter = false
				}
				if r != st.router {
					r.Close()
				}
				c.swapLocked(nil)
				return
			}
			c.fail("host %s: %v (routing stays as it was for it)", ev.Node, err)
			continue
		}
		if r != st.router {
			r.Close()
		}
		r = next
		switch ev.Kind {
		case tokenring.EventJoined:
			if rec := c.hosts[ev.Node]; rec != nil {
				rec.inRouter = true
			}
			ringChanged = true
		case tokenring.EventLeft:
			if rec := c.hosts[ev.Node]; rec != nil {
				rec.inRouter = false
			}
			ringChanged = true
		case tokenring.EventMoved, tokenring.EventReplaced:
			ringChanged = true
		}
	}
	if r == st.router {
		return
	}
	if ringChanged {
		c.ringBuilds.Add(1)
	}
	c.publishLocked(r, ringChanged, "")
	if ringChanged {
		c.scheduleHistoryLocked()
	}
}

// refuseLocked records a keyspace the router refused: it routes through the fallback.
func (c *Core[H]) refuseLocked(name string, err error) {
	delete(c.given, name)
	c.refused[name] = err.Error()
	c.fail("keyspace %q routes through the fallback: %v", name, err)
}

// swapLocked publishes st (nil: no routing state) and closes the replaced router.
func (c *Core[H]) swapLocked(st *state[H]) {
	old := c.state.Swap(st)
	if old != nil && (st == nil || old.router != st.router) {
		old.router.Close()
	}
}

// publishLocked publishes a state of router r. ringChanged: the node indices or the
// ring may differ from the current state's (every table is made again); changedKS: a
// keyspace whose replication changed (its table is made again).
func (c *Core[H]) publishLocked(r *tokenring.Router, ringChanged bool, changedKS string) {
	prev := c.state.Load()
	nodes, err := r.Nodes()
	if err != nil {
		c.fail("the router's nodes could not be read: %v", err)
		return
	}
	st := &state[H]{router: r, hosts: make([]H, len(nodes)), local: make([]bool, len(nodes)),
		keyspaces: map[string]*ksState{}, tables: map[string]*table{}}
	for i, n := range nodes {
		h, ok := c.byTag[n.Tag]
		if !ok {
			c.fail("the router's node %s has no host (tag %d)", n.Name, n.Tag)
			return
		}
		st.hosts[i] = h
		st.local[i] = c.cfg.IsLocal(h)
	}
	reuse := prev != nil && !ringChanged && sameBools(prev.local, st.local)
	if reuse {
		st.tokens = prev.tokens
		for k, t := range prev.tables {
			st.tables[k] = t
		}
	} else if shortClass(c.partitioner) == "Murmur3Partitioner" {
		if ring, err := r.Ring(); err == nil {
			st.tokens, _ = ring.Tokens()
			ring.Close()
		}
	}
	if prev != nil {
		for name, ks := range prev.keyspaces {
			if reuse && name != changedKS {
				st.keyspaces[name] = ks
				continue
			}
			st.keyspaces[name] = c.keyspaceStateLocked(st, name)
		}
	}
	if changedKS != "" {
		st.keyspaces[changedKS] = c.keyspaceStateLocked(st, changedKS)
	}
	if prev == nil {
		for name := range c.given {
			if st.keyspaces[name] == nil {
				st.keyspaces[name] = c.keyspaceStateLocked(st, name)
			}
		}
	}
	// keep only the tables a keyspace uses
	used := map[string]*table{}
	for _, ks := range st.keyspaces {
		if ks.t != nil {
			used[ks.key] = ks.t
		}
	}
	st.tables = used
	c.swapLocked(st)
}

func sameBools(a, b []bool) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// canonical is a replication map as one string (the table cache's key).
func canonical(m map[string]string) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		v := m[k]
		if k == "class" {
			v = shortClass(v)
		}
		b.WriteString(k + "=" + v + ";")
	}
	return b.String()
}

// keyspaceStateLocked is name's entry on st (building st's table for its replication if
// none is there yet).
func (c *Core[H]) keyspaceStateLocked(st *state[H], name string) *ksState {
	m, ok := c.given[name]
	if !ok {
		if e, bad := c.refused[name]; bad {
			return &ksState{err: e}
		}
		return &ksState{err: "keyspace does not exist"}
	}
	pl, err := st.router.Placement(name)
	if err != nil {
		return &ksState{err: err.Error()} // skipped (LocalStrategy, ...): the fallback
	}
	defer pl.Close()
	if st.tokens == nil {
		return &ksState{routed: true}
	}
	key := canonical(m)
	if t := st.tables[key]; t != nil {
		return &ksState{routed: true, t: t, key: key}
	}
	t, err := makeTable(pl, st.local, st.tokens)
	if err != nil {
		return &ksState{routed: true} // Pick asks the router
	}
	c.keyspaceBuilds.Add(1)
	st.tables[key] = t
	return &ksState{routed: true, t: t, key: key}
}

// makeTable reads the local replicas of every range of pl (two calls into C), and of the
// tokens above the last ring token (one more).
func makeTable(pl *tokenring.Placement, local []bool, tokens []int64) (*table, error) {
	if len(local) > math.MaxUint16+1 {
		return nil, errors.New("too many nodes for a table")
	}
	starts, nodes, err := pl.RangeReplicaNodes()
	if err != nil {
		return nil, err
	}
	if len(starts) != len(tokens)+1 {
		return nil, errors.New("the placement's ring is not the router's")
	}
	// the list above the last token (what a lookup of the largest token gives; range 0's
	// when the placement does not cut at the minimum token)
	upper := nodes[starts[0]:starts[1]]
	if last := tokens[len(tokens)-1]; last < math.MaxInt64 {
		r, err := pl.Replicas(math.MaxInt64)
		if err != nil {
			return nil, err
		}
		upper = r.Nodes
	}
	list := func(i int) []uint32 {
		if i == len(tokens) {
			return upper
		}
		return nodes[starts[i]:starts[i+1]]
	}
	n, stride := 0, -1
	for i := 0; i <= len(tokens); i++ {
		cnt := 0
		for _, x := range list(i) {
			if local[x] {
				cnt++
			}
		}
		if i == 0 {
			stride = cnt
		} else if cnt != stride {
			stride = -1 // not uniform
		}
		n += cnt
	}
	t := &table{rnodes: make([]uint16, 0, n), stride: stride}
	if stride < 0 {
		t.rstart = make([]uint32, len(tokens)+2)
		t.stride = 0
	}
	for i := 0; i <= len(tokens); i++ {
		if t.rstart != nil {
			t.rstart[i] = uint32(len(t.rnodes))
		}
		for _, x := range list(i) {
			if local[x] {
				t.rnodes = append(t.rnodes, uint16(x))
			}
		}
	}
	if t.rstart != nil {
		t.rstart[len(tokens)+1] = uint32(len(t.rnodes))
	}
	return t, nil
}
