// SPDX-License-Identifier: Apache-2.0

// Package tokenringgocql puts libtokenring inside gocql (github.com/gocql/gocql): the ring
// and every keyspace's replication read from a live session (RingFromSession), and a
// HostSelectionPolicy that routes each query to its replicas in Cassandra's own order
// (NewPolicy), a drop-in for gocql.TokenAwareHostPolicy:
//
//	// was: cluster.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(gocql.DCAwareRoundRobinPolicy("dc1"))
//	cluster.PoolConfig.HostSelectionPolicy = tokenringgocql.NewPolicy(gocql.DCAwareRoundRobinPolicy("dc1"))
//
// A module of its own, so that the core binding (github.com/libtokenring/tokenring/bindings/go)
// keeps no third-party dependency.
package tokenringgocql

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gocql/gocql"
	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

// ClusterRing is a ring with the replication of each keyspace: what a driver needs to place
// a key of a keyspace. Placements are built on first use and shared; safe for concurrent use.
type ClusterRing struct {
	Ring        *tokenring.Ring
	Replication map[string]*tokenring.Replication // by keyspace (LocalStrategy ones left out)

	mu         sync.Mutex
	placements map[string]*tokenring.Placement
}

// NewClusterRing returns the ClusterRing of ring and keyspaces (both are used, not copied).
func NewClusterRing(ring *tokenring.Ring, keyspaces map[string]*tokenring.Replication) *ClusterRing {
	if keyspaces == nil {
		keyspaces = map[string]*tokenring.Replication{}
	}
	return &ClusterRing{Ring: ring, Replication: keyspaces, placements: map[string]*tokenring.Placement{}}
}

// Placement returns the replica map of keyspace (ErrNotFound-coded error for an unknown one).
// A datacenter of the replication with no node gets no replicas, as in Cassandra.
func (c *ClusterRing) Placement(keyspace string) (*tokenring.Placement, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if p := c.placements[keyspace]; p != nil {
		return p, nil
	}
	r := c.Replication[keyspace]
	if r == nil {
		known := make([]string, 0, len(c.Replication))
		for k := range c.Replication {
			known = append(known, k)
		}
		sort.Strings(known)
		return nil, fmt.Errorf("%w: unknown keyspace %q (known: %s)", tokenring.ErrNotFound, keyspace, strings.Join(known, ", "))
	}
	p, err := c.Ring.Placement(r, tokenring.AllowUnknownDC)
	if err != nil {
		return nil, fmt.Errorf("keyspace %q: %w", keyspace, err)
	}
	c.placements[keyspace] = p
	return p, nil
}

// Replicas returns the replica names of a serialized partition key (the driver's routing
// key) in keyspace, in Cassandra's order.
func (c *ClusterRing) Replicas(keyspace string, key []byte) ([]string, error) {
	p, err := c.Placement(keyspace)
	if err != nil {
		return nil, err
	}
	r, err := p.ReplicasForKey(key)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(r.Nodes))
	for i, n := range r.Nodes {
		out[i] = p.NodeName(int(n))
	}
	return out, nil
}

// Close frees the placements, the ring and the replications.
func (c *ClusterRing) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.placements {
		p.Close()
	}
	c.placements = map[string]*tokenring.Placement{}
	for _, r := range c.Replication {
		r.Close()
	}
	c.Ring.Close()
}

// ErrUnsupported is wrapped by the errors of a replication class other than SimpleStrategy
// and NetworkTopologyStrategy and of a partitioner other than Murmur3Partitioner.
var ErrUnsupported = tokenring.ErrUnsupported

func shortClass(c string) string {
	if i := strings.LastIndexByte(c, '.'); i >= 0 {
		return c[i+1:]
	}
	return c
}

// ReplicationOf returns the Replication of a keyspace's replication map (a
// system_schema.keyspaces row's `replication`, or gocql's KeyspaceMetadata StrategyClass
// with StrategyOptions): nil, nil for LocalStrategy; an error wrapping ErrUnsupported that
// names the keyspace and the class for anything but SimpleStrategy and
// NetworkTopologyStrategy.
func ReplicationOf(keyspace, class string, options map[string]string) (*tokenring.Replication, error) {
	c := shortClass(class)
	switch c {
	case "LocalStrategy":
		return nil, nil
	case "SimpleStrategy", "NetworkTopologyStrategy":
	case "":
		return nil, fmt.Errorf("keyspace %q: the replication has no class", keyspace)
	default:
		return nil, fmt.Errorf("keyspace %q: replication class %q is %w (only SimpleStrategy and NetworkTopologyStrategy place replicas by token)", keyspace, class, ErrUnsupported)
	}
	keys := make([]string, 0, len(options))
	for k := range options {
		if k != "class" {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("{'class': '" + c + "'")
	for _, k := range keys {
		b.WriteString(", '" + k + "': '" + options[k] + "'")
	}
	b.WriteString("}")
	r, err := tokenring.ParseReplication(b.String())
	if err != nil {
		return nil, fmt.Errorf("keyspace %q: %w", keyspace, err)
	}
	return r, nil
}

// ReplicationOfMetadata is ReplicationOf for gocql's KeyspaceMetadata.
func ReplicationOfMetadata(ks *gocql.KeyspaceMetadata) (*tokenring.Replication, error) {
	opts := make(map[string]string, len(ks.StrategyOptions))
	for k, v := range ks.StrategyOptions {
		opts[k] = fmt.Sprint(v)
	}
	return ReplicationOf(ks.Name, ks.StrategyClass, opts)
}

// Row is one row of a system table as gocql's MapScan returns it.
type Row = map[string]interface{}

// RowOptions are the choices of RingFromRows.
type RowOptions struct {
	SkipTokenless   bool // leave out nodes without tokens (joining) instead of failing
	SkipUnsupported bool // leave out keyspaces of an unsupported replication class
}

func str(v interface{}) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case fmt.Stringer:
		return x.String()
	case []byte:
		return string(x)
	default:
		return fmt.Sprint(x)
	}
}

func addrOf(row Row, cols ...string) string {
	for _, c := range cols {
		if s := str(row[c]); s != "" && s != "<nil>" {
			return s
		}
	}
	return ""
}

func tokensOf(v interface{}) ([]string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []string:
		return x, nil
	case []interface{}:
		out := make([]string, len(x))
		for i, t := range x {
			out[i] = str(t)
		}
		return out, nil
	default:
		return nil, fmt.Errorf("tokens of type %T", v)
	}
}

// node is what the ring needs of one host.
type node struct {
	name, dc, rack string
	tokens         []int64
}

// nodeOf checks one host. emptyRack accepts the rack "" (rows, where a null rack is told
// apart); a driver's host with rack "" is one whose rack gossip has not told yet.
func nodeOf(what, addr, dc, rack string, tokens []string, emptyRack bool) (node, error) {
	if addr == "" {
		return node{}, fmt.Errorf("%s has no address", what)
	}
	if dc == "" {
		return node{}, fmt.Errorf("%s %s has no data_center (gossip has not told this node its datacenter yet)", what, addr)
	}
	if rack == "" && !emptyRack {
		return node{}, fmt.Errorf("%s %s has no rack (gossip has not told this node its rack yet)", what, addr)
	}
	n := node{name: addr, dc: dc, rack: rack, tokens: make([]int64, 0, len(tokens))}
	for _, t := range tokens {
		v, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return node{}, fmt.Errorf("%s %s: token %q is not a signed 64-bit integer (not a Murmur3Partitioner cluster?)", what, addr, t)
		}
		n.tokens = append(n.tokens, v)
	}
	return n, nil
}

func ringOf(nodes []node, skipTokenless bool) (*tokenring.Ring, error) {
	topo, err := tokenring.NewTopology()
	if err != nil {
		return nil, err
	}
	defer topo.Close()
	for _, n := range nodes {
		if len(n.tokens) == 0 {
			if skipTokenless {
				continue
			}
			return nil, fmt.Errorf("node %s (%s/%s) has no tokens yet (joining, or its row is incomplete): %w", n.name, n.dc, n.rack, tokenring.ErrEmpty)
		}
		if err := topo.AddNode(n.name, n.dc, n.rack, n.tokens); err != nil {
			return nil, fmt.Errorf("node %s: %w", n.name, err)
		}
	}
	return topo.Build()
}

// RingFromRows returns the ClusterRing of one host's system.local row, its system.peers_v2
// (or system.peers) rows and system_schema.keyspaces rows (keyspace_name, replication).
// Node names are the addresses clients connect to (native_address / rpc_address; the peer
// address when those are null). A null (or missing) rack is tokenring.DefaultRack, the
// rack the server gives such a peer, and "" the rack "". Errors name the row: a
// partitioner other than Murmur3, a row without datacenter, a node without tokens (unless
// SkipTokenless), an unsupported replication class (unless SkipUnsupported).
func RingFromRows(local Row, peers []Row, keyspaces []Row, opt RowOptions) (*ClusterRing, error) {
	if p := str(local["partitioner"]); p != "" && shortClass(p) != "Murmur3Partitioner" {
		return nil, fmt.Errorf("partitioner %s is %w: only Murmur3Partitioner", p, ErrUnsupported)
	}
	var nodes []node
	add := func(what string, row Row, cols ...string) error {
		toks, err := tokensOf(row["tokens"])
		if err != nil {
			return fmt.Errorf("%s: %w", what, err)
		}
		// "" is the rack "", as Cassandra's snitches read rack=; a null rack is the
		// DEFAULT_RACK the server's GossipingPropertyFileSnitch gives such a peer (gocql
		// itself ignores the peer)
		rack := tokenring.DefaultRack
		if v, ok := row["rack"]; ok && v != nil {
			rack = str(v)
		}
		n, err := nodeOf(what, addrOf(row, cols...), str(row["data_center"]), rack, toks, true)
		if err != nil {
			return err
		}
		nodes = append(nodes, n)
		return nil
	}
	if err := add("system.local", local, "rpc_address", "broadcast_address", "listen_address"); err != nil {
		return nil, err
	}
	for _, p := range peers {
		if err := add("peer", p, "native_address", "rpc_address", "peer"); err != nil {
			return nil, err
		}
	}
	repl := map[string]*tokenring.Replication{}
	closeAll := func() {
		for _, r := range repl {
			r.Close()
		}
	}
	for _, k := range keyspaces {
		name := str(k["keyspace_name"])
		m, ok := k["replication"].(map[string]string)
		if !ok {
			closeAll()
			return nil, fmt.Errorf("keyspace %q: replication of type %T", name, k["replication"])
		}
		r, err := ReplicationOf(name, m["class"], m)
		if err != nil {
			if opt.SkipUnsupported && errors.Is(err, ErrUnsupported) {
				continue
			}
			closeAll()
			return nil, err
		}
		if r != nil {
			repl[name] = r
		}
	}
	ring, err := ringOf(nodes, opt.SkipTokenless)
	if err != nil {
		closeAll()
		return nil, err
	}
	return NewClusterRing(ring, repl), nil
}

// System-table queries of RingFromSession.
const (
	SelectLocal     = "SELECT rpc_address, broadcast_address, listen_address, data_center, rack, tokens, partitioner FROM system.local WHERE key='local'"
	SelectPeersV2   = "SELECT peer, native_address, data_center, rack, tokens FROM system.peers_v2"
	SelectPeers     = "SELECT peer, rpc_address, data_center, rack, tokens FROM system.peers"
	SelectKeyspaces = "SELECT keyspace_name, replication FROM system_schema.keyspaces"
)

type pinKey struct{}

// PinHost returns a context that makes a Policy send the queries that carry it (and have
// no routing key) to host only: how RingFromSession reads all its tables from one node.
func PinHost(ctx context.Context, host *gocql.HostInfo) context.Context {
	return context.WithValue(ctx, pinKey{}, host)
}

func pinnedHost(q gocql.ExecutableQuery) *gocql.HostInfo {
	if qq, ok := q.(*gocql.Query); ok {
		if h, ok := qq.Context().Value(pinKey{}).(*gocql.HostInfo); ok {
			return h
		}
	}
	return nil
}

func readAll(s *gocql.Session, ctx context.Context, stmt string) ([]Row, *gocql.HostInfo, error) {
	it := s.Query(stmt).WithContext(ctx).Iter()
	rows, err := it.SliceMap()
	host := it.Host()
	if err != nil {
		return nil, host, err
	}
	return rows, host, nil
}

// RingFromSession returns the ClusterRing of a connected session: system.local,
// system.peers_v2 (system.peers on servers without it) and system_schema.keyspaces, all
// read from ONE host (other nodes may see another ring for a moment). When the session's
// policy is a Policy, the queries are pinned to its first host that is up (see PinHost);
// with any other policy, the three reads are repeated (up to 20 times) until one host has
// answered all three, and it is an error if none did.
func RingFromSession(s *gocql.Session, opt RowOptions) (*ClusterRing, error) {
	return RingFromSessionContext(context.Background(), s, nil, opt)
}

// RingFromSessionContext is RingFromSession with a context and, with a Policy session, a
// chosen host (nil: the policy's first host that is up).
func RingFromSessionContext(ctx context.Context, s *gocql.Session, policy *Policy, opt RowOptions) (*ClusterRing, error) {
	var host *gocql.HostInfo
	if policy != nil {
		host = policy.anyUpHost()
		if host == nil {
			return nil, errors.New("the policy knows no host that is up")
		}
		ctx = PinHost(ctx, host)
	}
	var lastErr error
	for attempt := 0; attempt < 20; attempt++ {
		local, h1, err := readAll(s, ctx, SelectLocal)
		if err != nil {
			return nil, fmt.Errorf("system.local: %w", err)
		}
		peers, h2, err := readAll(s, ctx, SelectPeersV2)
		if err != nil && strings.Contains(err.Error(), "peers_v2") {
			peers, h2, err = readAll(s, ctx, SelectPeers)
		}
		if err != nil {
			return nil, fmt.Errorf("system.peers: %w", err)
		}
		keyspaces, h3, err := readAll(s, ctx, SelectKeyspaces)
		if err != nil {
			return nil, fmt.Errorf("system_schema.keyspaces: %w", err)
		}
		if h1 == nil || h1 != h2 || h2 != h3 {
			lastErr = fmt.Errorf("the three tables came from different hosts (%v, %v, %v)", h1, h2, h3)
			continue
		}
		if len(local) != 1 {
			return nil, fmt.Errorf("system.local of %s has %d rows", h1.ConnectAddress(), len(local))
		}
		return RingFromRows(local[0], peers, keyspaces, opt)
	}
	return nil, fmt.Errorf("could not read the system tables from one host: %w (use a Policy session, or one host)", lastErr)
}
