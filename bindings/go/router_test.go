// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
)

var routerNTS = map[string]string{"class": "org.apache.cassandra.locator.NetworkTopologyStrategy", "dc1": "2", "dc2": "1"}

func routerTokens(i, n int) []string {
	out := make([]string, n)
	for k := range out {
		out[k] = fmt.Sprint(int64(uint64(i*131+k+1) * 0x9E3779B97F4A7C15))
	}
	return out
}

func newTestRouter(t *testing.T) *Router {
	t.Helper()
	b, err := NewRouterBuilder("dc1")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for i := 0; i < 6; i++ {
		dc := "dc1"
		if i >= 4 {
			dc = "dc2"
		}
		name := fmt.Sprintf("10.0.0.%d", i+1)
		if i == 0 {
			err = b.AddLocal(name, dc, "r1", "h1", "org.apache.cassandra.dht.Murmur3Partitioner", routerTokens(i, 8))
		} else {
			err = b.AddPeer(name, dc, fmt.Sprintf("r%d", i%2), "", routerTokens(i, 8))
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := b.SetNode(name, uint64(100+i), false); err != nil {
			t.Fatal(err)
		}
	}
	for _, ks := range []string{"shop", "users"} {
		if err := b.AddKeyspace(ks, routerNTS); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.AddKeyspace("system", map[string]string{"class": "org.apache.cassandra.locator.LocalStrategy"}); err != nil {
		t.Fatal(err)
	}
	r, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRouterRoutes(t *testing.T) {
	r := newTestRouter(t)
	defer r.Close()
	ks, _ := r.Keyspaces()
	sk, _ := r.Skipped()
	if fmt.Sprint(ks) != "[shop users]" || len(sk) != 1 || sk[0][0] != "system" {
		t.Fatalf("keyspaces %v skipped %v", ks, sk)
	}
	nodes, err := r.Nodes()
	if err != nil || len(nodes) != 6 || nodes[0].HostID != "h1" || nodes[0].Tag != 100 {
		t.Fatalf("nodes %v %v", nodes, err)
	}
	for i := 0; i < 100; i++ {
		key := []byte(fmt.Sprintf("key%d", i))
		rt, err := r.Route("shop", key, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(rt.Replicas) != 3 || rt.LocalCount != 2 || rt.Token != Token(key) {
			t.Fatalf("route %+v", rt)
		}
		for j, n := range rt.Local {
			if (j < 2) != (nodes[n].Datacenter == "dc1") {
				t.Fatalf("local view %v", rt.Local)
			}
		}
		tags, err := r.LocalTags(nil, "shop", key)
		if err != nil || len(tags) != 3 || tags[0] != nodes[rt.Local[0]].Tag {
			t.Fatalf("tags %v %v", tags, err)
		}
		parts := [][]byte{key, {1, 2}}
		packed, _ := Composite(parts...)
		pr, err := r.RouteParts("shop", parts, 0)
		if err != nil || pr.Token != Token(packed) {
			t.Fatalf("parts %+v %v", pr, err)
		}
		tr, err := r.RouteToken("shop", rt.Token, RouteUpFirst)
		if err != nil || tr.SetID != rt.SetID {
			t.Fatalf("token %+v %v", tr, err)
		}
	}
	if _, err := r.Route("nope", nil, 0); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown keyspace: %v", err)
	}
	if _, err := r.FindNode("nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown node: %v", err)
	}
}

func TestRouterEvents(t *testing.T) {
	r := newTestRouter(t)
	defer r.Close()
	d, err := r.Apply(RouterEvent{Kind: EventDown, Node: "10.0.0.1"})
	if err != nil {
		t.Fatal(err)
	}
	nodes, _ := d.Nodes()
	if nodes[0].Up {
		t.Fatal("still up")
	}
	j, err := d.Apply(RouterEvent{Kind: EventJoined, Node: "10.0.0.9", Datacenter: "dc2", Rack: "r1", Tokens: routerTokens(9, 8), Tag: 9})
	if err != nil {
		t.Fatal(err)
	}
	l, err := j.Apply(RouterEvent{Kind: EventLeft, Node: "10.0.0.2"})
	if err != nil {
		t.Fatal(err)
	}
	idx, _ := l.FindNode("10.0.0.9")
	nodes, _ = l.Nodes()
	if nodes[idx].Tag != 9 || len(nodes) != 6 {
		t.Fatalf("tags after leave: %+v", nodes)
	}
	c, err := l.Apply(RouterEvent{Kind: EventCreated, Keyspace: "orders", Replication: map[string]string{"class": "SimpleStrategy", "replication_factor": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	if rt, err := c.Route("orders", []byte("k"), 0); err != nil || len(rt.Replicas) != 1 {
		t.Fatalf("orders %+v %v", rt, err)
	}
	if _, err := r.Apply(RouterEvent{Kind: EventDown, Node: "10.9.9.9"}); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown node: %v", err)
	}
	if _, err := r.Apply(RouterEvent{Kind: EventCreated, Keyspace: "x", Replication: map[string]string{"class": "OddStrategy"}}); !errors.Is(err, ErrParse) {
		t.Fatalf("unknown class: %v", err)
	}
	for _, x := range []*Router{d, j, l, c} {
		x.Close()
	}
	if _, err := c.Route("orders", nil, 0); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
}

func TestRinglessClassIsNotAParseError(t *testing.T) {
	if _, err := ParseReplication("{'class': 'LocalStrategy'}"); !errors.Is(err, ErrNotPlaced) {
		t.Fatalf("LocalStrategy: %v", err)
	}
	if _, err := ParseReplication("{'class': 'OddStrategy'}"); !errors.Is(err, ErrParse) {
		t.Fatalf("OddStrategy: %v", err)
	}
}

func TestRouterBuilderErrors(t *testing.T) {
	b, err := NewRouterBuilder("")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Build(); !errors.Is(err, ErrEmpty) {
		t.Fatalf("empty: %v", err)
	}
	if err := b.AddPeer("10.0.0.1", "", "r1", "", []string{"1"}); !errors.Is(err, ErrParse) {
		t.Fatalf("null datacenter: %v", err)
	}
	if err := b.SetNode("10.0.0.1", 1, true); !errors.Is(err, ErrNotFound) {
		t.Fatalf("unknown node: %v", err)
	}
	c, _ := NewCluster()
	defer c.Close()
	if _, err := c.Parse(FormatTopology, "node A dc=dc1 rack=r1 tokens=10,50\nkeyspace ks 1\n", 0); err != nil {
		t.Fatal(err)
	}
	if err := b.AddCluster(c); err != nil {
		t.Fatal(err)
	}
	r, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if ks, _ := r.Keyspaces(); fmt.Sprint(ks) != "[ks]" {
		t.Fatalf("keyspaces %v", ks)
	}
}

func TestRouterHolder(t *testing.T) {
	r := newTestRouter(t)
	h, err := NewRouterHolder(r)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	var stop atomic.Bool
	var wg sync.WaitGroup
	var bad atomic.Int64
	for g := 0; g < 4; g++ {
		rd, err := h.NewReader()
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer rd.Close()
			for !stop.Load() {
				snap := rd.Acquire()
				if rt, err := snap.Route("shop", []byte("k"), 0); err != nil || len(rt.Replicas) != 3 {
					bad.Add(1)
				}
				rd.Release()
			}
		}()
	}
	cur, err := h.Current()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 300; i++ {
		kind := EventDown
		if i%2 == 1 {
			kind = EventUp
		}
		next, err := cur.Apply(RouterEvent{Kind: kind, Node: "10.0.0.3"})
		if err != nil {
			t.Fatal(err)
		}
		if err := h.Swap(next); err != nil {
			t.Fatal(err)
		}
		cur.Close()
		cur = next
	}
	cur.Close()
	stop.Store(true)
	wg.Wait()
	if bad.Load() != 0 {
		t.Fatalf("%d bad routes", bad.Load())
	}
	h.Close()
	if _, err := h.Current(); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed holder: %v", err)
	}
}
