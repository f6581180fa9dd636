// SPDX-License-Identifier: Apache-2.0

package tokenringgocql

import (
	"errors"
	"math/rand"
	"net"
	"reflect"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gocql/gocql"
	tokenring "github.com/libtokenring/tokenring/bindings/go"
	"github.com/libtokenring/tokenring/bindings/go/hostpolicy"
)

const murmur3 = "org.apache.cassandra.dht.Murmur3Partitioner"
const nts = "org.apache.cassandra.locator.NetworkTopologyStrategy"

// dc1: 3 nodes on ONE rack (vnodes), dc2: 2 nodes on two racks.
func topo1() []testNode {
	return layout(3, 8, []string{"dc1", "dc2"}, [][]string{{"r1", "r1", "r1"}, {"r1", "r2"}})
}

func testSchema() schema {
	return schema{
		"ks":     ksMeta("ks", nts, map[string]interface{}{"dc1": "2", "dc2": "1"}),
		"ks_all": ksMeta("ks_all", nts, map[string]interface{}{"dc1": "3", "dc2": "2"}),
		"ks_s":   ksMeta("ks_s", "org.apache.cassandra.locator.SimpleStrategy", map[string]interface{}{"replication_factor": "2"}),
		"system": ksMeta("system", "org.apache.cassandra.locator.LocalStrategy", nil),
	}
}

func newTestPolicy(t testing.TB, nodes []testNode, s schema) (*Policy, map[string]*gocql.HostInfo) {
	p := NewPolicy(gocql.DCAwareRoundRobinPolicy("dc1"), WithKeyspaceMetadata(s.get))
	p.SetPartitioner(murmur3)
	hosts := map[string]*gocql.HostInfo{}
	for _, n := range nodes {
		h := newHost(n)
		hosts[n.addr] = h
		p.AddHost(h)
	}
	for ks := range s {
		p.KeyspaceChanged(gocql.KeyspaceUpdateEvent{Keyspace: ks, Change: "CREATED"})
	}
	if e := p.LastError(); e != "" {
		t.Fatalf("LastError: %s", e)
	}
	return p, hosts
}

func placementOf(t testing.TB, ring *tokenring.Ring, text string) *tokenring.Placement {
	r, err := tokenring.ParseReplication(text)
	if err != nil {
		t.Fatal(err)
	}
	pl, err := ring.Placement(r, tokenring.AllowUnknownDC)
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

func dcMap(nodes []testNode) map[string]string {
	m := map[string]string{}
	for _, n := range nodes {
		m[n.addr] = n.dc
	}
	return m
}

func localHosts(nodes []testNode, dc string) []string {
	var out []string
	for _, n := range nodes {
		if n.dc == dc {
			out = append(out, n.addr)
		}
	}
	sort.Strings(out)
	return out
}

// localFirst: every host once, the dc1 hosts first (gocql's DCAwareRoundRobinPolicy
// plans the remote datacenters after the local one).
func localFirst(got []string, nodes []testNode) bool {
	all := append(localHosts(nodes, "dc1"), localHosts(nodes, "dc2")...)
	if !reflect.DeepEqual(sorted(got), sorted(all)) {
		return false
	}
	n := len(localHosts(nodes, "dc1"))
	return reflect.DeepEqual(sorted(got[:n]), localHosts(nodes, "dc1"))
}

func sorted(s []string) []string {
	c := append([]string(nil), s...)
	sort.Strings(c)
	return c
}

func TestPolicyFirstHostIsServersFirstLocalReplica(t *testing.T) {
	nodes := topo1()
	s := testSchema()
	p, hosts := newTestPolicy(t, nodes, s)
	ring := libRing(t, nodes)
	dcOf := dcMap(nodes)
	theirs := gocqlTokenAware(gocql.DCAwareRoundRobinPolicy("dc1"), s, "ks_all")
	theirs.SetPartitioner(murmur3)
	for _, n := range nodes {
		theirs.AddHost(hosts[n.addr])
	}
	checked, repeats, nonReplica := 0, 0, 0
	for ksName, text := range map[string]string{"ks": "dc1=2,dc2=1", "ks_all": "dc1=3,dc2=2", "ks_s": "SimpleStrategy:2"} {
		pl := placementOf(t, ring, text)
		for _, k := range keys(300, 11) {
			want := serverLocal(t, pl, k, "dc1", dcOf)
			got := planOf(p, query(ksName, k))
			if len(want) > 0 && !reflect.DeepEqual(got[:len(want)], want) {
				t.Fatalf("%s %x: plan %v, want first %v", ksName, k, got, want)
			}
			if !localFirst(got, nodes) {
				t.Fatalf("%s %x: plan %v is not every host once, dc1 first", ksName, k, got)
			}
			if r := p.Replicas(ksName, k); len(r) == 0 {
				t.Fatalf("no replicas for %s", ksName)
			}
			if ksName == "ks_all" {
				tp := planOf(theirs, query(ksName, k))
				seen := map[string]bool{}
				for _, h := range tp {
					if seen[h] {
						repeats++
						break
					}
					seen[h] = true
				}
				for _, h := range tp[:len(want)] {
					if !contains(want, h) {
						nonReplica++
						break
					}
				}
			}
			checked++
		}
	}
	if checked != 900 {
		t.Fatalf("checked %d", checked)
	}
	// dc1 is one rack with vnodes and rf 3: gocql's NetworkTopologyStrategy walk adds a
	// host once per vnode it meets ("TODO: ensure we dont add the same host twice"), so its
	// plan repeats hosts
	if repeats == 0 {
		t.Fatalf("gocql's TokenAwareHostPolicy repeated no host: the known difference is gone")
	}
	t.Logf("%d picks; gocql's TokenAwareHostPolicy repeats a host in %d of 300 ks_all plans, puts a non-replica among the first rf in %d", checked, repeats, nonReplica)
}

func contains(s []string, x string) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

func TestPolicyFallbacks(t *testing.T) {
	nodes := topo1()
	p, _ := newTestPolicy(t, nodes, testSchema())
	dc1 := localHosts(nodes, "dc1")
	for _, q := range []*gocql.Query{query("ks", nil), query("system", []byte("k")), query("nope", []byte("k"))} {
		if got := planOf(p, q); !localFirst(got, nodes) {
			t.Fatalf("fallback plan %v, want %v first", got, dc1)
		}
	}
	if got := planOf(p, nil); !localFirst(got, nodes) {
		t.Fatalf("nil query: %v", got)
	}
}

func TestPolicyDownHostSkipped(t *testing.T) {
	nodes := topo1()
	p, hosts := newTestPolicy(t, nodes, testSchema())
	pl := placementOf(t, libRing(t, nodes), "dc1=2,dc2=1")
	dcOf := dcMap(nodes)
	down := nodes[0].addr
	setUp(hosts[down], false)
	p.HostDown(hosts[down])
	hit := 0
	for _, k := range keys(300, 2) {
		var want []string
		for _, n := range serverLocal(t, pl, k, "dc1", dcOf) {
			if n != down {
				want = append(want, n)
			} else {
				hit++
			}
		}
		got := planOf(p, query("ks", k))
		if !reflect.DeepEqual(got[:len(want)], want) || contains(got, down) {
			t.Fatalf("plan %v with %s down, want first %v", got, down, want)
		}
	}
	if hit == 0 {
		t.Fatal("the down host was never a replica")
	}
}

func TestPolicyTopologyAndSchemaChanges(t *testing.T) {
	nodes := topo1()
	s := testSchema()
	p, hosts := newTestPolicy(t, nodes, s)
	dcOf := dcMap(nodes)
	// a node joins dc1
	extra := layout(77, 8, []string{"dc1"}, [][]string{{"r1"}})[0]
	extra.addr = "10.0.1.99"
	joined := append(append([]testNode(nil), nodes...), extra)
	dcOf[extra.addr] = "dc1"
	eh := newHost(extra)
	builds, _ := p.Builds()
	p.AddHost(eh)
	if b, _ := p.Builds(); b != builds+1 {
		t.Fatal("AddHost did not rebuild the ring")
	}
	pl := placementOf(t, libRing(t, joined), "dc1=2,dc2=1")
	hit := 0
	for _, k := range keys(300, 3) {
		want := serverLocal(t, pl, k, "dc1", dcOf)
		got := planOf(p, query("ks", k))
		if !reflect.DeepEqual(got[:len(want)], want) {
			t.Fatalf("after join: %v, want first %v", got, want)
		}
		if contains(want, extra.addr) {
			hit++
		}
	}
	if hit == 0 {
		t.Fatal("the new node is never a replica")
	}
	// it leaves again
	p.RemoveHost(eh)
	pl = placementOf(t, libRing(t, nodes), "dc1=2,dc2=1")
	for _, k := range keys(300, 3) {
		want := serverLocal(t, pl, k, "dc1", dcOf)
		if got := planOf(p, query("ks", k)); !reflect.DeepEqual(got[:len(want)], want) {
			t.Fatalf("after remove: %v, want first %v", got, want)
		}
	}
	// ALTER KEYSPACE
	s["ks"] = ksMeta("ks", nts, map[string]interface{}{"dc1": "1"})
	p.KeyspaceChanged(gocql.KeyspaceUpdateEvent{Keyspace: "ks", Change: "UPDATED"})
	pl = placementOf(t, libRing(t, nodes), "dc1=1")
	for _, k := range keys(300, 4) {
		want := serverLocal(t, pl, k, "dc1", dcOf)
		if got := planOf(p, query("ks", k)); len(want) != 1 || got[0] != want[0] {
			t.Fatalf("after ALTER: %v, want first %v", got, want)
		}
	}
	// DROP KEYSPACE: the fallback
	delete(s, "ks")
	p.KeyspaceChanged(gocql.KeyspaceUpdateEvent{Keyspace: "ks", Change: "DROPPED"})
	if got := planOf(p, query("ks", []byte("k"))); !localFirst(got, nodes) {
		t.Fatalf("after DROP: %v", got)
	}
	if p.Replicas("ks", []byte("k")) != nil {
		t.Fatal("a dropped keyspace still has replicas")
	}
	if e := p.LastError(); e != "" {
		t.Fatalf("LastError: %s", e)
	}
	// a keyspace first seen in Pick is loaded in the background
	s["late"] = ksMeta("late", nts, map[string]interface{}{"dc1": "2"})
	planOf(p, query("late", []byte("k")))
	for i := 0; i < 1000 && p.Replicas("late", []byte("k")) == nil; i++ {
		time.Sleep(time.Millisecond) // the background load
	}
	if len(p.Replicas("late", []byte("k"))) != 2 {
		t.Fatal("a keyspace first seen in Pick was not loaded")
	}
	_ = hosts
}

func TestPolicyBadInputKeepsState(t *testing.T) {
	nodes := topo1()
	s := testSchema()
	p, _ := newTestPolicy(t, nodes, s)
	ks := keys(200, 5)
	before := make([][]string, len(ks))
	for i, k := range ks {
		before[i] = planOf(p, query("ks", k))[:2]
	}
	same := func(what string) {
		t.Helper()
		for i, k := range ks {
			if got := planOf(p, query("ks", k))[:2]; !reflect.DeepEqual(got, before[i]) {
				t.Fatalf("%s: plan %v, was %v", what, got, before[i])
			}
		}
	}
	// a host without a datacenter: refused by the router's rules
	n := layout(8, 8, []string{"dc1"}, [][]string{{"r1"}})[0]
	n.addr, n.dc = "10.0.1.50", ""
	p.AddHost(newHost(n))
	if !strings.Contains(p.LastError(), "10.0.1.50") {
		t.Fatalf("LastError %q", p.LastError())
	}
	p.RemoveHost(newHost(n))
	same("host without datacenter")
	// a host without tokens yet: outside the ring, no error
	n.dc, n.tokens = "dc1", nil
	p.AddHost(newHost(n))
	same("host without tokens")
	p.RemoveHost(newHost(n))
	// EverywhereStrategy: skipped by the router (the fallback), no error
	s["ks_e"] = ksMeta("ks_e", "EverywhereStrategy", nil)
	last := p.LastError()
	p.KeyspaceChanged(gocql.KeyspaceUpdateEvent{Keyspace: "ks_e", Change: "CREATED"})
	if got := planOf(p, query("ks_e", ks[0])); !localFirst(got, nodes) || p.LastError() != last {
		t.Fatalf("EverywhereStrategy: %v, %q", got, p.LastError())
	}
	// an unknown replication class: that keyspace falls back, the others stay
	s["ks_all"] = ksMeta("ks_all", "com.example.OddStrategy", map[string]interface{}{"x": "1"})
	p.KeyspaceChanged(gocql.KeyspaceUpdateEvent{Keyspace: "ks_all", Change: "UPDATED"})
	if !strings.Contains(p.LastError(), `"ks_all"`) || !strings.Contains(p.LastError(), "OddStrategy") {
		t.Fatalf("LastError %q", p.LastError())
	}
	if got := planOf(p, query("ks_all", ks[0])); !localFirst(got, nodes) || p.Replicas("ks_all", ks[0]) != nil {
		t.Fatalf("unknown class: %v", got)
	}
	same("unknown class")
}

// RouterFromRows reads rows as gocql's MapScan gives them (addresses as net.IP, the
// host ID as a UUID), under the router's rules; ReplicationMap is a KeyspaceMetadata's
// replication as system_schema.keyspaces holds it.
func TestRouterFromGocqlRows(t *testing.T) {
	nodes := topo1()
	toks := func(n testNode) []string {
		var out []string
		for _, t := range n.tokens {
			out = append(out, strconvI(t))
		}
		return out
	}
	uuid, _ := gocql.ParseUUID("6c2f1a55-0000-4000-8000-000000000001")
	local := Row{"rpc_address": net.ParseIP(nodes[0].addr), "data_center": nodes[0].dc, "rack": nodes[0].rack, "tokens": toks(nodes[0]), "partitioner": murmur3, "host_id": uuid}
	var peers []Row
	for _, n := range nodes[1:] {
		peers = append(peers, Row{"peer": net.ParseIP(n.addr), "native_address": net.ParseIP(n.addr), "data_center": n.dc, "rack": n.rack, "tokens": toks(n)})
	}
	kss := []Row{{"keyspace_name": "ks", "replication": ReplicationMap(testSchema()["ks"])}}
	r, err := RouterFromRows(local, peers, kss, RowOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rn, _ := r.Nodes()
	if rn[0].Name != nodes[0].addr || rn[0].HostID != uuid.String() {
		t.Fatalf("node 0: %+v", rn[0])
	}
	pl := placementOf(t, libRing(t, nodes), "dc1=2,dc2=1")
	for _, k := range keys(300, 6) {
		got, err := hostpolicy.ReplicaNames(r, "ks", k)
		if err != nil {
			t.Fatal(err)
		}
		rs, _ := pl.ReplicasForKey(k)
		var want []string
		for _, n := range rs.Nodes {
			want = append(want, pl.NodeName(int(n)))
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%x: %v want %v", k, got, want)
		}
	}
	if m := ReplicationMap(ksMeta("x", nts, map[string]interface{}{"dc1": 3})); !reflect.DeepEqual(m, map[string]string{"class": nts, "dc1": "3"}) {
		t.Fatalf("ReplicationMap %v", m)
	}
}

func TestPolicyClose(t *testing.T) {
	nodes := topo1()
	p, hosts := newTestPolicy(t, nodes, testSchema())
	r := p.Router()
	p.Close()
	p.Close()
	if p.Router() != nil {
		t.Fatal("a router after Close")
	}
	if _, err := r.Nodes(); !errors.Is(err, tokenring.ErrClosed) {
		t.Fatalf("the router after Close: %v", err)
	}
	if got := planOf(p, query("ks", []byte("k"))); !localFirst(got, nodes) {
		t.Fatalf("after Close: %v", got)
	}
	p.AddHost(hosts[nodes[0].addr])
	if p.Router() != nil {
		t.Fatal("an event after Close built a router")
	}
}

func strconvI(v int64) string { return tokenringItoa(v) }

// TestPolicyChurn: a writer adds and removes a node while goroutines pick; every plan is
// complete (each local host once) and starts with the first local replica of the ring
// without or with the extra node. Run under -race.
func TestPolicyChurn(t *testing.T) {
	nodes := topo1()
	p, _ := newTestPolicy(t, nodes, testSchema())
	extra := layout(99, 8, []string{"dc1"}, [][]string{{"r1"}})[0]
	extra.addr = "10.0.1.98"
	with := append(append([]testNode(nil), nodes...), extra)
	dcOf := dcMap(with)
	plA := placementOf(t, libRing(t, nodes), "dc1=2,dc2=1")
	plB := placementOf(t, libRing(t, with), "dc1=2,dc2=1")
	ks := keys(300, 9)
	wantA := make([]string, len(ks))
	wantB := make([]string, len(ks))
	for i, k := range ks {
		wantA[i] = serverLocal(t, plA, k, "dc1", dcOf)[0]
		wantB[i] = serverLocal(t, plB, k, "dc1", dcOf)[0]
	}
	eh := newHost(extra)
	var stop atomic.Bool
	var picks atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			rnd := rand.New(rand.NewSource(seed))
			for n := 0; !stop.Load() || n < 500; n++ {
				i := rnd.Intn(len(ks))
				got := planOf(p, query("ks", ks[i]))
				seen := map[string]bool{}
				for _, h := range got {
					if seen[h] {
						errs <- "bad plan " + strings.Join(got, ",")
						return
					}
					seen[h] = true
				}
				if len(got) < 5 || (got[0] != wantA[i] && got[0] != wantB[i]) {
					errs <- "torn plan " + strings.Join(got, ",")
					return
				}
				picks.Add(1)
			}
		}(int64(g))
	}
	for i := 0; i < 100; i++ {
		p.AddHost(eh)
		p.RemoveHost(eh)
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	if picks.Load() < 4000 {
		t.Fatalf("only %d picks", picks.Load())
	}
}
