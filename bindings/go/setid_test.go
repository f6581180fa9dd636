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
