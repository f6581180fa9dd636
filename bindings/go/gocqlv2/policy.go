// SPDX-License-Identifier: Apache-2.0

// Package tokenringgocqlv2 puts libtokenring inside the Apache Cassandra Go driver, v2
// line (github.com/apache/cassandra-gocql-driver/v2, 2.1.x): a HostSelectionPolicy that
// routes each query to its replicas in Cassandra's own order (NewPolicy), a drop-in for
// gocql.TokenAwareHostPolicy, and the library's router read from a live session
// (RouterFromSession):
//
//	// was: cluster.PoolConfig.HostSelectionPolicy = gocql.TokenAwareHostPolicy(gocql.DCAwareRoundRobinPolicy("dc1"))
//	cluster.PoolConfig.HostSelectionPolicy = tokenringgocqlv2.NewPolicy(gocql.DCAwareRoundRobinPolicy("dc1"))
//
// A thin adapter over the driver-independent core (bindings/go/hostpolicy), which keeps
// the routing state on the library's router; gocql v1.7 (github.com/gocql/gocql) has its
// own adapter (bindings/go/gocql). A module of its own, so that the core binding keeps no
// third-party dependency.
package tokenringgocqlv2

import (
	"errors"
	"fmt"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
	tokenring "github.com/libtokenring/tokenring/bindings/go"
	"github.com/libtokenring/tokenring/bindings/go/hostpolicy"
)

// Policy is a gocql.HostSelectionPolicy that routes a query with a routing key to the
// key's replicas as Cassandra places them (libtokenring's router), a drop-in for
// gocql.TokenAwareHostPolicy(fallback).
//
// Pick's plan: the replicas of the key in the query's keyspace that the fallback calls
// local (IsLocal; with DCAwareRoundRobinPolicy: the local datacenter's) and that are up,
// in Cassandra's replica order, then the fallback's plan without those hosts. No routing
// key, a keyspace the router does not place (LocalStrategy, EverywhereStrategy,
// MetaStrategy, an unknown class, a dropped or not yet known keyspace) or no ring yet:
// the fallback's plan.
//
// The router follows AddHost / RemoveHost (joined, moved, left events), HostUp / HostDown
// and KeyspaceChanged (the session's schema events); a keyspace first seen in Pick is
// loaded in the background. A change the router refuses (a host without datacenter, an
// unknown replication class) leaves the routing state as it was for the rest and is kept
// in LastError. Readers never lock. A Policy serves one session; Close releases it.
type Policy struct {
	fallback gocql.HostSelectionPolicy
	core     *hostpolicy.Core[*gocql.HostInfo]
	ksMeta   func(string) (*gocql.KeyspaceMetadata, error)
}

// Option configures a Policy.
type Option func(*Policy)

// WithKeyspaceMetadata makes the policy read keyspaces with fn instead of the session's
// KeyspaceMetadata (for tests and for embedders that keep their own schema).
func WithKeyspaceMetadata(fn func(keyspace string) (*gocql.KeyspaceMetadata, error)) Option {
	return func(p *Policy) { p.ksMeta = fn }
}

func describe(h *gocql.HostInfo) hostpolicy.HostInfo {
	return hostpolicy.HostInfo{Addr: h.ConnectAddress().String(), Datacenter: h.DataCenter(),
		Rack: h.Rack(), HostID: h.HostID(), Tokens: h.Tokens(), Up: h.IsUp(), Version: h.Version().String()}
}

// NewPolicy returns a Policy over fallback (e.g. gocql.DCAwareRoundRobinPolicy("dc1")).
func NewPolicy(fallback gocql.HostSelectionPolicy, opts ...Option) *Policy {
	p := &Policy{fallback: fallback}
	for _, o := range opts {
		o(p)
	}
	isLocal := func(h *gocql.HostInfo) bool { return p.fallback != nil && p.fallback.IsLocal(h) }
	p.core = hostpolicy.New(hostpolicy.Config[*gocql.HostInfo]{Describe: describe, IsLocal: isLocal})
	if p.ksMeta != nil {
		p.core.SetKeyspaceSource(keyspaceSource(p.ksMeta))
	}
	return p
}

// ReplicationMap returns a keyspace's replication as system_schema.keyspaces holds it
// ({"class": ..., "dc1": "3"}); which classes place replicas is the router's to say.
func ReplicationMap(ks *gocql.KeyspaceMetadata) map[string]string {
	m := make(map[string]string, len(ks.StrategyOptions)+1)
	for k, v := range ks.StrategyOptions {
		m[k] = fmt.Sprint(v)
	}
	m["class"] = ks.StrategyClass
	return m
}

func keyspaceSource(fn func(string) (*gocql.KeyspaceMetadata, error)) func(string) (map[string]string, error) {
	return func(name string) (map[string]string, error) {
		md, err := fn(name)
		if errors.Is(err, gocql.ErrKeyspaceDoesNotExist) || (err == nil && md == nil) {
			return nil, hostpolicy.ErrNoKeyspace
		}
		if err != nil {
			return nil, err
		}
		return ReplicationMap(md), nil
	}
}

// Close releases the routing state (the router's C memory); the policy routes through the
// fallback afterwards. Calling it again does nothing.
func (p *Policy) Close() { p.core.Close() }

// LastError returns the message of the last change the policy could not apply ("" none).
func (p *Policy) LastError() string { return p.core.LastError() }

// Builds returns the number of router snapshots that changed the ring and of keyspace
// tables made (tests, monitoring).
func (p *Policy) Builds() (ring, keyspace int64) { return p.core.Builds() }

// HistoryApplied returns how many times the cluster's history (Cassandra 6 and later) has
// been applied, and whether every change so far has had its history read.
func (p *Policy) HistoryApplied() (n int64, current bool) { return p.core.HistoryApplied() }

// Router returns the policy's current router snapshot (nil before the first). Do not
// close it; once replaced, its methods give tokenring.ErrClosed.
func (p *Policy) Router() *tokenring.Router { return p.core.Router() }

// Init is called by the driver when the session starts.
func (p *Policy) Init(s *gocql.Session) {
	p.core.SetKeyspaceSource(keyspaceSource(s.KeyspaceMetadata))
	// on Cassandra 6 and later the core reads the cluster's history with it, all tables
	// from one host
	p.core.SetQuery(func(stmt string) ([]Row, error) {
		q := s.Query(stmt)
		for _, h := range p.core.Hosts() {
			if h.IsUp() && h.HostID() != "" {
				q = q.SetHostID(h.HostID())
				break
			}
		}
		return q.Iter().SliceMap()
	})
	p.fallback.Init(s)
}

// IsLocal is the fallback's.
func (p *Policy) IsLocal(h *gocql.HostInfo) bool { return p.fallback.IsLocal(h) }

// SetPartitioner is called by gocql with the cluster's partitioner.
func (p *Policy) SetPartitioner(partitioner string) {
	p.fallback.SetPartitioner(partitioner)
	p.core.SetPartitioner(partitioner)
}

// AddHost adds a host (or applies its new tokens, datacenter or rack) to the router.
func (p *Policy) AddHost(h *gocql.HostInfo) {
	p.core.AddHosts([]*gocql.HostInfo{h})
	p.fallback.AddHost(h)
}

// AddHosts adds many hosts at once.
func (p *Policy) AddHosts(hosts []*gocql.HostInfo) {
	p.core.AddHosts(hosts)
	for _, h := range hosts {
		p.fallback.AddHost(h)
	}
}

// RemoveHost removes a host from the router.
func (p *Policy) RemoveHost(h *gocql.HostInfo) {
	p.core.RemoveHost(h)
	p.fallback.RemoveHost(h)
}

// HostUp marks a host up in the router and the fallback.
func (p *Policy) HostUp(h *gocql.HostInfo) {
	p.core.HostUp(h)
	p.fallback.HostUp(h)
}

// HostDown marks a host down in the router and the fallback (Pick skips hosts that are
// not up).
func (p *Policy) HostDown(h *gocql.HostInfo) {
	p.core.HostDown(h)
	p.fallback.HostDown(h)
}

// KeyspaceChanged reads the keyspace's replication again and applies it to the router
// (created, altered or dropped).
func (p *Policy) KeyspaceChanged(ev gocql.KeyspaceUpdateEvent) { p.core.KeyspaceChanged(ev.Keyspace) }

// LoadKeyspace reads keyspace's metadata now (Pick loads an unknown keyspace in the
// background on first sight; this does it at once).
func (p *Policy) LoadKeyspace(keyspace string) { p.core.LoadKeyspace(keyspace) }

// Replicas returns every replica of key in keyspace in Cassandra's order (nil when the
// policy cannot place it).
func (p *Policy) Replicas(keyspace string, key []byte) []*gocql.HostInfo {
	return p.core.Replicas(keyspace, key)
}

// selectedHost is a picked host (Mark does nothing, as for gocql's own policies).
type selectedHost gocql.HostInfo

func (h *selectedHost) Info() *gocql.HostInfo { return (*gocql.HostInfo)(h) }
func (h *selectedHost) Mark(error)            {}

// Pick returns the query plan of qry (see Policy).
func (p *Policy) Pick(qry gocql.ExecutableStatement) gocql.NextHost {
	if qry == nil {
		return p.fallback.Pick(qry)
	}
	key, err := qry.GetRoutingKey()
	if err != nil || key == nil {
		return p.fallback.Pick(qry)
	}
	r, ok := p.core.Local(qry.Keyspace(), key)
	if !ok {
		return p.fallback.Pick(qry)
	}
	it := &plan{p: p, qry: qry, r: r}
	return it.next
}

// plan is one Pick's iteration: the key's local replicas (Cassandra's order), then the
// fallback's plan without them.
type plan struct {
	p   *Policy
	qry gocql.ExecutableStatement
	r   hostpolicy.Replicas[*gocql.HostInfo]
	i   int
	fb  gocql.NextHost
}

func (it *plan) next() gocql.SelectedHost {
	for it.i < it.r.Len() {
		h := it.r.At(it.i)
		it.i++
		if h.IsUp() {
			return (*selectedHost)(h)
		}
	}
	if it.fb == nil {
		it.fb = it.p.fallback.Pick(it.qry)
	}
	for s := it.fb(); s != nil; s = it.fb() {
		if !it.r.Contains(s.Info()) {
			return s
		}
	}
	return nil
}
