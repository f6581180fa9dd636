// SPDX-License-Identifier: Apache-2.0

package hostpolicy

import (
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

var repl = map[string]string{"ks": "dc1=2,dc2=1", "ks_all": "dc1=3,dc2=2", "ks_s": "SimpleStrategy:2"}

// checkRouting: for every keyspace of want (name -> replication text) and 300 keys,
// Local gives the server's local replicas in the server's order and Replicas every
// replica in that order.
func checkRouting(t *testing.T, c *Core[*fakeHost], nodes []testNode, want map[string]string, seed int64) {
	t.Helper()
	dcOf := dcMap(nodes)
	for ks, text := range want {
		pl := placementOf(t, nodes, text)
		for _, k := range keys(300, seed) {
			got, ok := localNames(c, ks, k)
			if w := serverOrder(t, pl, k, "dc1", dcOf); !ok || !reflect.DeepEqual(got, w) && !(len(got) == 0 && len(w) == 0) {
				t.Fatalf("%s %x: local %v (%v), want %v", ks, k, got, ok, w)
			}
			var all []string
			for _, h := range c.Replicas(ks, k) {
				all = append(all, h.info.Addr)
			}
			if w := serverOrder(t, pl, k, "", dcOf); !reflect.DeepEqual(all, w) {
				t.Fatalf("%s %x: replicas %v, want %v", ks, k, all, w)
			}
		}
		pl.Close()
	}
}

func TestCoreRoutesInServerOrder(t *testing.T) {
	nodes := topo1()
	c, _ := newCore(t, nodes, testSchema())
	defer c.Close()
	checkRouting(t, c, nodes, repl, 1)
	// LocalStrategy: skipped by the router, the fallback, no error
	if _, ok := c.Local("system", []byte("k")); ok {
		t.Fatal("a LocalStrategy keyspace was routed")
	}
	if c.LastError() != "" {
		t.Fatal(c.LastError())
	}
	r := c.Router()
	if sk, _ := r.Skipped(); len(sk) != 1 || sk[0][0] != "system" {
		t.Fatalf("skipped %v", sk)
	}
	// hosts are the nodes' tags
	nodesR, _ := r.Nodes()
	for _, n := range nodesR {
		if h, ok := c.Host(n.Name); !ok || h.info.Addr != n.Name {
			t.Fatalf("node %s: host %v", n.Name, h)
		}
	}
}

// Pick's tables in both shapes (a uniform number of local replicas per range:
// NetworkTopologyStrategy; a varying one: SimpleStrategy over two datacenters), and the
// path without tables (through the router, as on other partitioners) gives the same.
func TestCoreTablesMatchTheRouter(t *testing.T) {
	nodes := topo1()
	c, _ := newCore(t, nodes, testSchema())
	defer c.Close()
	st := c.state.Load()
	if ks := st.keyspaces["ks_all"]; ks.t == nil || ks.t.rstart != nil || ks.t.stride != 3 {
		t.Fatalf("ks_all: %+v (want a uniform table of 3)", ks)
	}
	if ks := st.keyspaces["ks_s"]; ks.t == nil || ks.t.rstart == nil {
		t.Fatalf("ks_s: %+v (want per-range starts)", ks)
	}
	want := map[string][][]string{}
	for name := range repl {
		for _, k := range keys(300, 12) {
			got, _ := localNames(c, name, k)
			want[name] = append(want[name], got)
		}
	}
	bare := &state[*fakeHost]{router: st.router, hosts: st.hosts, local: st.local, keyspaces: map[string]*ksState{}}
	for name, ks := range st.keyspaces {
		bare.keyspaces[name] = &ksState{routed: ks.routed, err: ks.err}
	}
	c.state.Store(bare)
	for name, plans := range want {
		for i, k := range keys(300, 12) {
			if got, ok := localNames(c, name, k); !ok || !reflect.DeepEqual(got, plans[i]) && len(got)+len(plans[i]) > 0 {
				t.Fatalf("%s %x: through the router %v, from the tables %v", name, k, got, plans[i])
			}
		}
	}
	c.state.Store(st)
}

func TestCoreEvents(t *testing.T) {
	nodes := topo1()
	s := testSchema()
	c, hosts := newCore(t, nodes, s)
	defer c.Close()
	// a node joins dc1: one event on the router, tables made again
	extra := layout(77, 8, []string{"dc1"}, [][]string{{"r1"}})[0]
	extra.addr = "10.0.1.99"
	joined := append(append([]testNode(nil), nodes...), extra)
	eh := newFake(extra)
	ring0, _ := c.Builds()
	c.AddHosts([]*fakeHost{eh})
	if ring1, _ := c.Builds(); ring1 != ring0+1 {
		t.Fatalf("ring builds %d -> %d", ring0, ring1)
	}
	checkRouting(t, c, joined, repl, 3)
	// it moves (new tokens)
	moved := extra
	moved.tokens = layout(78, 8, []string{"dc1"}, [][]string{{"r1"}})[0].tokens
	eh.info.Tokens = texts(moved.tokens)
	c.AddHosts([]*fakeHost{eh})
	movedNodes := append(append([]testNode(nil), nodes...), moved)
	checkRouting(t, c, movedNodes, repl, 4)
	// it changes rack (left and joined again)
	moved.rack = "r2"
	eh.info.Rack = "r2"
	c.AddHosts([]*fakeHost{eh})
	movedNodes[len(movedNodes)-1] = moved
	checkRouting(t, c, movedNodes, repl, 4)
	// it leaves
	c.RemoveHost(eh)
	checkRouting(t, c, nodes, repl, 5)
	// a host object replaced by another of the same address: Pick gives the new one
	h0 := hosts[nodes[0].addr]
	h0b := newFake(nodes[0])
	c.AddHosts([]*fakeHost{h0b})
	for _, k := range keys(200, 6) {
		if r, ok := c.Local("ks_all", k); !ok || !r.Contains(h0b) || r.Contains(h0) {
			t.Fatalf("%x: the new host object is not the replica", k)
		}
	}
	// down and up: the router's liveness; the tables stay
	tbl := c.state.Load().keyspaces["ks"].t
	c.HostDown(h0b)
	n, _ := c.Router().Nodes()
	down := 0
	for _, x := range n {
		if !x.Up {
			down++
		}
	}
	if down != 1 || c.state.Load().keyspaces["ks"].t != tbl {
		t.Fatalf("after HostDown: %d down, table kept %v", down, c.state.Load().keyspaces["ks"].t == tbl)
	}
	c.HostUp(h0b)
	// ALTER KEYSPACE
	s["ks"] = map[string]string{"class": nts, "dc1": "1"}
	c.KeyspaceChanged("ks")
	checkRouting(t, c, nodes, map[string]string{"ks": "dc1=1"}, 7)
	// two keyspaces of one replication share one table
	s["ks2"] = map[string]string{"class": "NetworkTopologyStrategy", "dc2": "2", "dc1": "3"}
	c.KeyspaceChanged("ks2")
	st := c.state.Load()
	if st.keyspaces["ks2"].t == nil || st.keyspaces["ks2"].t != st.keyspaces["ks_all"].t {
		t.Fatal("ks2 and ks_all do not share their table")
	}
	// DROP KEYSPACE: the fallback, the router no longer holds it
	delete(s, "ks")
	c.KeyspaceChanged("ks")
	if _, ok := c.Local("ks", []byte("k")); ok || c.Replicas("ks", []byte("k")) != nil {
		t.Fatal("a dropped keyspace is still routed")
	}
	if ks, _ := c.Router().Keyspaces(); strings.Contains(strings.Join(ks, ","), "ks,") {
		t.Fatalf("router keyspaces %v", ks)
	}
	// a keyspace first seen in Local is loaded in the background
	s["late"] = map[string]string{"class": nts, "dc1": "2"}
	if _, ok := c.Local("late", []byte("k")); ok {
		t.Fatal("an unseen keyspace was routed at once")
	}
	c.LoadKeyspace("late")
	if r, ok := c.Local("late", []byte("k")); !ok || r.Len() != 2 {
		t.Fatal("a keyspace first seen in Local was not loaded")
	}
	if e := c.LastError(); e != "" {
		t.Fatalf("LastError: %s", e)
	}
}

// The router's rules, not the core's: EverywhereStrategy and MetaStrategy keyspaces are
// skipped without error, an unknown class is refused (that keyspace falls back, with
// LastError), a host without datacenter is refused and the rest routes as before, a null
// rack is UNKNOWN_RACK, a host without tokens waits outside the ring.
func TestCoreRouterRules(t *testing.T) {
	nodes := topo1()
	s := testSchema()
	c, _ := newCore(t, nodes, s)
	defer c.Close()
	ks := keys(200, 5)
	before := make([][]string, len(ks))
	for i, k := range ks {
		before[i], _ = localNames(c, "ks", k)
	}
	same := func(what string) {
		t.Helper()
		for i, k := range ks {
			if got, _ := localNames(c, "ks", k); !reflect.DeepEqual(got, before[i]) {
				t.Fatalf("%s: %v, was %v", what, got, before[i])
			}
		}
	}
	for _, cls := range []string{"EverywhereStrategy", "org.apache.cassandra.locator.MetaStrategy"} {
		s["e"] = map[string]string{"class": cls}
		c.KeyspaceChanged("e")
		if _, ok := c.Local("e", []byte("k")); ok || c.LastError() != "" {
			t.Fatalf("%s: routed, or an error %q", cls, c.LastError())
		}
	}
	s["odd"] = map[string]string{"class": "com.example.OddStrategy", "x": "1"}
	c.KeyspaceChanged("odd")
	if e := c.LastError(); !strings.Contains(e, `"odd"`) || !strings.Contains(e, "OddStrategy") {
		t.Fatalf("LastError %q", e)
	}
	if _, ok := c.Local("odd", []byte("k")); ok {
		t.Fatal("an unknown class was routed")
	}
	// ALTER to an unknown class: the keyspace leaves the router
	s["ks_all"] = map[string]string{"class": "com.example.OddStrategy"}
	c.KeyspaceChanged("ks_all")
	if _, ok := c.Local("ks_all", []byte("k")); ok || c.Replicas("ks_all", []byte("k")) != nil {
		t.Fatal("a keyspace altered to an unknown class is still routed")
	}
	same("unknown class")
	// a host without datacenter
	n := layout(8, 8, []string{"dc1"}, [][]string{{"r1"}})[0]
	n.addr, n.dc = "10.0.1.50", ""
	c.AddHosts([]*fakeHost{newFake(n)})
	if e := c.LastError(); !strings.Contains(e, "10.0.1.50") {
		t.Fatalf("LastError %q", e)
	}
	same("host without datacenter")
	// a host without tokens: outside the ring until it has some
	n2 := layout(9, 8, []string{"dc1"}, [][]string{{"r1"}})[0]
	n2.addr = "10.0.1.51"
	h2 := newFake(n2)
	h2.info.Tokens = nil
	c.AddHosts([]*fakeHost{h2})
	same("host without tokens")
	if _, err := c.Router().FindNode("10.0.1.51"); !errors.Is(err, tokenring.ErrNotFound) {
		t.Fatalf("a host without tokens is in the router: %v", err)
	}
	h2.info.Tokens = texts(n2.tokens)
	c.AddHosts([]*fakeHost{h2})
	if _, err := c.Router().FindNode("10.0.1.51"); err != nil {
		t.Fatalf("the host's tokens did not bring it in: %v", err)
	}
	// a null rack: UNKNOWN_RACK
	n3 := layout(10, 8, []string{"dc2"}, [][]string{{""}})[0]
	n3.addr = "10.0.2.60"
	c.AddHosts([]*fakeHost{newFake(n3)})
	nodesR, _ := c.Router().Nodes()
	for _, x := range nodesR {
		if x.Name == "10.0.2.60" && x.Rack != tokenring.DefaultRack {
			t.Fatalf("null rack read as %q", x.Rack)
		}
	}
}

// A RandomPartitioner cluster is routed (through the router, no Go tables).
func TestCoreRandomPartitioner(t *testing.T) {
	c := New(Config[*fakeHost]{Describe: (*fakeHost).describe, IsLocal: func(*fakeHost) bool { return true },
		Keyspace: schema{"ks": {"class": "SimpleStrategy", "replication_factor": "2"}}.get})
	defer c.Close()
	c.SetPartitioner("org.apache.cassandra.dht.RandomPartitioner")
	var hs []*fakeHost
	for i, tok := range []string{"0", "56713727820156410577229101238628035242", "113427455640312821154458202477256070484"} {
		hs = append(hs, &fakeHost{info: HostInfo{Addr: "10.1.0." + string(rune('1'+i)), Datacenter: "dc1", Rack: "r1", Tokens: []string{tok}, Up: true}})
	}
	c.AddHosts(hs)
	c.LoadKeyspace("ks")
	r, ok := c.Local("ks", []byte("key"))
	if !ok || r.Len() != 2 || c.LastError() != "" {
		t.Fatalf("RandomPartitioner: %v %d %q", ok, r.Len(), c.LastError())
	}
	names, err := ReplicaNames(c.Router(), "ks", []byte("key"))
	if err != nil || names[0] != r.At(0).info.Addr || names[1] != r.At(1).info.Addr {
		t.Fatalf("%v %v", names, err)
	}
}

func TestCoreClose(t *testing.T) {
	c, hosts := newCore(t, topo1(), testSchema())
	r := c.Router()
	c.Close()
	c.Close()
	if _, ok := c.Local("ks", []byte("k")); ok || c.Router() != nil {
		t.Fatal("routes after Close")
	}
	if _, err := r.Nodes(); !errors.Is(err, tokenring.ErrClosed) {
		t.Fatalf("the router after Close: %v", err)
	}
	for _, h := range hosts {
		c.AddHosts([]*fakeHost{h}) // ignored
	}
	if c.Router() != nil {
		t.Fatal("an event after Close built a router")
	}
}

// TestCoreChurn: a writer joins and removes a node, alters a keyspace and marks hosts
// down while goroutines route; every answer is the first local replica of one of the
// rings. Run under -race.
func TestCoreChurn(t *testing.T) {
	nodes := topo1()
	s := testSchema()
	c, hosts := newCore(t, nodes, s)
	defer c.Close()
	extra := layout(99, 8, []string{"dc1"}, [][]string{{"r1"}})[0]
	extra.addr = "10.0.1.98"
	with := append(append([]testNode(nil), nodes...), extra)
	dcOf := dcMap(with)
	plA := placementOf(t, nodes, "dc1=2,dc2=1")
	plB := placementOf(t, with, "dc1=2,dc2=1")
	ks := keys(300, 9)
	wantA := make([]string, len(ks))
	wantB := make([]string, len(ks))
	for i, k := range ks {
		wantA[i] = serverOrder(t, plA, k, "dc1", dcOf)[0]
		wantB[i] = serverOrder(t, plB, k, "dc1", dcOf)[0]
	}
	eh := newFake(extra)
	var stop atomic.Bool
	var picks atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			rnd := rand.New(rand.NewSource(seed))
			for n := 0; !stop.Load() || n < 500; n++ {
				i := rnd.Intn(len(ks))
				got, ok := localNames(c, "ks", ks[i])
				if !ok || len(got) != 2 || (got[0] != wantA[i] && got[0] != wantB[i]) {
					errs <- "torn answer " + strings.Join(got, ",")
					return
				}
				c.Replicas("ks", ks[i])
				picks.Add(1)
			}
		}(int64(g))
	}
	h0 := hosts[nodes[0].addr]
	for i := 0; i < 50; i++ {
		c.AddHosts([]*fakeHost{eh})
		c.HostDown(h0)
		s["ks_s"] = map[string]string{"class": "SimpleStrategy", "replication_factor": string(rune('1' + i%3))}
		c.KeyspaceChanged("ks_s")
		c.HostUp(h0)
		c.RemoveHost(eh)
	}
	stop.Store(true)
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	if picks.Load() < 2000 {
		t.Fatalf("only %d answers", picks.Load())
	}
}

// A placement that keeps a list of its own above the last ring token (Cassandra 6.0 cuts
// the wrapping range at the minimum token; a history can order its two parts
// differently): Pick's table answers the keys there from that list, not range 0's.
func TestCoreTableAboveTheLastToken(t *testing.T) {
	nodes := topo1()
	c, _ := newCore(t, nodes, testSchema())
	defer c.Close()
	c.mu.Lock()
	st := c.state.Load()
	ring, err := st.router.Ring()
	if err != nil {
		t.Fatal(err)
	}
	pl, err := st.router.Placement("ks_all")
	if err != nil {
		t.Fatal(err)
	}
	starts, lists, err := pl.RangeReplicaNodes()
	if err != nil {
		t.Fatal(err)
	}
	// the upper part: range 0's list reversed
	r0 := lists[starts[0]:starts[1]]
	upper := make([]uint32, len(r0))
	for i, x := range r0 {
		upper[len(r0)-1-i] = x
	}
	repl, _ := tokenring.ParseReplication("dc1=3,dc2=2")
	given, err := tokenring.PlacementFromLists(ring, repl, starts, lists, upper, tokenring.OrderHistory)
	if err != nil {
		t.Fatal(err)
	}
	r, err := st.router.Apply(tokenring.RouterEvent{Kind: tokenring.EventPlacement, Keyspace: "ks_all", Placement: given})
	if err != nil {
		t.Fatal(err)
	}
	c.publishLocked(r, true, "")
	c.mu.Unlock()
	toks, _ := ring.Tokens()
	above, below := 0, 0
	for i := 0; above < 50 || below < 50; i++ {
		k := []byte(fmt.Sprintf("key-%d", i))
		var want []string
		for _, h := range c.Replicas("ks_all", k) {
			if h.info.Datacenter == "dc1" {
				want = append(want, h.info.Addr)
			}
		}
		got, ok := localNames(c, "ks_all", k)
		if !ok || !reflect.DeepEqual(got, want) {
			t.Fatalf("%x (token %d, last ring token %d): local %v, the router's %v", k, tokenring.Token(k), toks[len(toks)-1], got, want)
		}
		if tokenring.Token(k) > toks[len(toks)-1] {
			above++
		} else if tokenring.Token(k) <= toks[0] {
			below++
		}
	}
	ring.Close()
	pl.Close()
	given.Close()
	repl.Close()
}
