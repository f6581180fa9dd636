// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"testing"
)

// SetIDForKey / SetIDForToken name the same set as Replicas, and Set reads it back.
func TestSetIDForKeyAndToken(t *testing.T) {
	topo, _ := NewTopology()
	defer topo.Close()
	for i, n := range []string{"A", "B", "C", "D"} {
		if err := topo.AddNode(n, "dc1", []string{"r1", "r2"}[i%2], []int64{int64(i*1000 - 1500), int64(i*1000 + 100)}); err != nil {
			t.Fatal(err)
		}
	}
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer ring.Close()
	repl, _ := NewNetworkTopologyStrategy(map[string]int{"dc1": 2})
	defer repl.Close()
	pl, err := ring.Placement(repl, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tok := range []int64{-9e18, -1500, -1499, 0, 100, 101, 2100, 9e18} {
		r, _ := pl.Replicas(tok)
		sid, err := pl.SetIDForToken(tok)
		if err != nil || int(sid) != r.SetID {
			t.Fatalf("token %d: set %d (%v), Replicas says %d", tok, sid, err, r.SetID)
		}
		s, _ := pl.Set(sid)
		if len(s.Nodes) != len(r.Nodes) || s.Nodes[0] != r.Nodes[0] {
			t.Fatalf("token %d: Set %v, Replicas %v", tok, s.Nodes, r.Nodes)
		}
	}
	for _, k := range []string{"a", "bb", "partition"} {
		r, _ := pl.ReplicasForKey([]byte(k))
		sid, err := pl.SetIDForKey([]byte(k))
		if err != nil || int(sid) != r.SetID {
			t.Fatalf("key %q: set %d (%v), want %d", k, sid, err, r.SetID)
		}
	}
	pl.Close()
	if _, err := pl.SetIDForKey([]byte("a")); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
	if _, err := pl.SetIDForToken(1); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
}

// RangeReplicaNodes packs exactly what RangeReplicas gives for every range; ErrClosed after
// Close.
func TestRangeReplicaNodes(t *testing.T) {
	topo, _ := NewTopology()
	defer topo.Close()
	for i, n := range []string{"A", "B", "C", "D", "E"} {
		if err := topo.AddNode(n, []string{"dc1", "dc2"}[i%2], []string{"r1", "r2"}[i/2%2],
			[]int64{int64(i*1000 - 1500), int64(i*1000 + 100), int64(i*37 + 7000)}); err != nil {
			t.Fatal(err)
		}
	}
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer ring.Close()
	repl, _ := NewNetworkTopologyStrategy(map[string]int{"dc1": 2, "dc2": 1})
	defer repl.Close()
	pl, err := ring.Placement(repl, 0)
	if err != nil {
		t.Fatal(err)
	}
	starts, nodes, err := pl.RangeReplicaNodes()
	if err != nil {
		t.Fatal(err)
	}
	toks, _ := ring.Tokens()
	if len(starts) != len(toks)+1 || int(starts[len(toks)]) != len(nodes) {
		t.Fatalf("%d starts, %d nodes for %d ranges", len(starts), len(nodes), len(toks))
	}
	for i := range toks {
		r, err := pl.RangeReplicas(i)
		if err != nil {
			t.Fatal(err)
		}
		got := nodes[starts[i]:starts[i+1]]
		if len(got) != len(r.Nodes) || len(got) != 3 {
			t.Fatalf("range %d: %v, RangeReplicas %v", i, got, r.Nodes)
		}
		for j := range got {
			if got[j] != r.Nodes[j] {
				t.Fatalf("range %d: %v, RangeReplicas %v", i, got, r.Nodes)
			}
		}
	}
	pl.Close()
	if _, _, err := pl.RangeReplicaNodes(); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
}
