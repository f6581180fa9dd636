// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"fmt"
	"math/rand"
	"testing"
)

// routeRings are the placements RouteKeysReplicas is checked on: a small ring (8 tokens,
// under one chunk of keys, every range including the wrapping one hit), a large one
// (60 x 64 tokens), NetworkTopologyStrategy over two datacenters, and transient replicas.
func routeRings(t *testing.T) map[string]*Placement {
	t.Helper()
	out := map[string]*Placement{}
	build := func(name string, topo *Topology, repl *Replication, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		defer topo.Close()
		defer repl.Close()
		ring, err := topo.Build()
		if err != nil {
			t.Fatal(err)
		}
		defer ring.Close()
		pl, err := ring.Placement(repl, 0)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { pl.Close() })
		out[name] = pl
	}

	small, _ := NewTopology()
	for i, n := range []string{"A", "B", "C", "D"} {
		if err := small.AddNode(n, "dc1", []string{"r1", "r2"}[i%2], []int64{int64(i)*4e18 - 7e18, int64(i)*4e18 - 5e18}); err != nil {
			t.Fatal(err)
		}
	}
	repl, err := NewSimpleStrategy(2, 0)
	build("small", small, repl, err)

	repl, err = NewNetworkTopologyStrategy(map[string]int{"dc1": 3})
	build("large", seededCluster(t, 60, 64), repl, err)

	nts, _ := NewTopology()
	for i := 0; i < 12; i++ {
		if err := nts.AddNode(fmt.Sprintf("10.0.%d.%d", i%2, i), []string{"dc1", "dc2"}[i%2],
			[]string{"r1", "r2", "r3"}[i/2%3], routerTokensInt(i, 16)); err != nil {
			t.Fatal(err)
		}
	}
	repl, err = NewNetworkTopologyStrategy(map[string]int{"dc1": 3, "dc2": 2})
	build("nts", nts, repl, err)

	tr, _ := NewTopology()
	for i := 0; i < 6; i++ {
		if err := tr.AddNode(fmt.Sprintf("10.0.0.%d", i+1), "dc1", "r1", []int64{int64(i)*3e18 - 8e18}); err != nil {
			t.Fatal(err)
		}
	}
	repl, err = NewSimpleStrategy(3, 1)
	build("transient", tr, repl, err)
	return out
}

func routerTokensInt(i, n int) []int64 {
	out := make([]int64, n)
	for k := range out {
		out[k] = int64(uint64(i*131+k+1) * 0x9E3779B97F4A7C15)
	}
	return out
}

func randomKeys(rng *rand.Rand, n int) [][]byte {
	keys := make([][]byte, n)
	for i := range keys {
		k := make([]byte, rng.Intn(24)) // empty keys too
		rng.Read(k)
		keys[i] = k
	}
	return keys
}

// RouteKeysReplicas gives each key exactly what ReplicasForKey and AppendReplicasForKey
// give it (nodes, flags, the key's own range, set id) and its token, across chunk
// boundaries; Nodes and Transient are the table Sets() gives.
func TestRouteKeysReplicas(t *testing.T) {
	rng := rand.New(rand.NewSource(34))
	for name, pl := range routeRings(t) {
		sets, err := pl.Sets()
		if err != nil {
			t.Fatal(err)
		}
		ranges := map[int]bool{}
		sawTransient := false
		for _, n := range []int{0, 1, 255, 256, 257, 1000} {
			keys := randomKeys(rng, n)
			batch := NewKeyBatch(n, 0)
			for _, k := range keys {
				batch.Add(k)
			}
			prefix := []Replicas{{Range: -7}} // appended after, left alone
			tokens := make([]int64, n+1)
			tokens[n] = 99 // past the batch: not written
			got, err := pl.RouteKeysReplicas(prefix, tokens, batch)
			if err != nil {
				t.Fatalf("%s, %d keys: %v", name, n, err)
			}
			if len(got) != n+1 || got[0].Range != -7 || tokens[n] != 99 {
				t.Fatalf("%s, %d keys: %d results, prefix %+v, tokens[n] %d", name, n, len(got), got[0], tokens[n])
			}
			noTokens, err := pl.RouteKeysReplicas(nil, nil, batch)
			if err != nil || len(noTokens) != n {
				t.Fatalf("%s, %d keys without tokens: %d results, %v", name, n, len(noTokens), err)
			}
			var nodes []uint32
			for i, k := range keys {
				r, g := got[i+1], noTokens[i]
				want, err := pl.ReplicasForKey(k)
				if err != nil {
					t.Fatal(err)
				}
				if nodes, err = pl.AppendReplicasForKey(nodes[:0], k); err != nil {
					t.Fatal(err)
				}
				if tok := Token(k); tokens[i] != tok {
					t.Fatalf("%s key %d: token %d, Token %d", name, i, tokens[i], tok)
				}
				if r.Range != want.Range || r.SetID != want.SetID || g.Range != want.Range || g.SetID != want.SetID {
					t.Fatalf("%s key %d: range %d set %d (without tokens %d, %d), ReplicasForKey %d, %d",
						name, i, r.Range, r.SetID, g.Range, g.SetID, want.Range, want.SetID)
				}
				if fmt.Sprint(r.Nodes) != fmt.Sprint(want.Nodes) || fmt.Sprint(r.Nodes) != fmt.Sprint(nodes) ||
					fmt.Sprint(g.Nodes) != fmt.Sprint(want.Nodes) || len(r.Nodes) == 0 {
					t.Fatalf("%s key %d: nodes %v, ReplicasForKey %v, AppendReplicasForKey %v", name, i, r.Nodes, want.Nodes, nodes)
				}
				if (r.Transient == nil) != (want.Transient == nil) || fmt.Sprint(r.Transient) != fmt.Sprint(want.Transient) {
					t.Fatalf("%s key %d: transient %v, ReplicasForKey %v", name, i, r.Transient, want.Transient)
				}
				s := sets[r.SetID]
				if len(r.Nodes) > 0 && &r.Nodes[0] != &s.Nodes[0] {
					t.Fatalf("%s key %d: nodes copied, not the Sets() table", name, i)
				}
				if r.Transient != nil && &r.Transient[0] != &s.Transient[0] {
					t.Fatalf("%s key %d: transient flags copied, not the Sets() table", name, i)
				}
				ranges[r.Range] = true
				sawTransient = sawTransient || r.Transient != nil
			}
		}
		if name == "small" && len(ranges) != 8 {
			t.Errorf("small ring: %d of 8 ranges routed to (the wrapping range 0: %v)", len(ranges), ranges[0])
		}
		if name == "large" && len(ranges) < 600 {
			t.Errorf("large ring: only %d ranges routed to", len(ranges))
		}
		if (name == "transient") != sawTransient {
			t.Errorf("%s: transient flags seen: %v", name, sawTransient)
		}
	}
}

// RouteKeysReplicas with enough capacity in dst allocates nothing.
func TestRouteKeysReplicasReusesDst(t *testing.T) {
	pl := routeRings(t)["large"]
	batch := NewKeyBatch(300, 0)
	for _, k := range randomKeys(rand.New(rand.NewSource(1)), 300) {
		batch.Add(k)
	}
	dst := make([]Replicas, 0, 300)
	if _, err := pl.RouteKeysReplicas(dst, nil, batch); err != nil { // loads the tables
		t.Fatal(err)
	}
	allocs := testing.AllocsPerRun(20, func() {
		out, err := pl.RouteKeysReplicas(dst[:0], nil, batch)
		if err != nil || len(out) != 300 || &out[0] != &dst[:1][0] {
			t.Fatal("dst not reused", err)
		}
	})
	if allocs > 0.5 {
		t.Errorf("%.1f allocations per call with room in dst", allocs)
	}
}

// Errors: nil keys, a short token buffer, a closed or zero placement, a ring of another
// partitioner; nothing appended to dst, nothing written to tokens.
func TestRouteKeysReplicasErrors(t *testing.T) {
	pl := routeRings(t)["nts"]
	batch := keyBatchOf("a", "b", "c")
	dst := make([]Replicas, 1, 8)
	dst[0].Range = 5
	tokens := []int64{7, 7, 7}
	check := func(what string, got []Replicas, err, want error) {
		t.Helper()
		if !errors.Is(err, want) {
			t.Errorf("%s: %v, want %v", what, err, want)
		}
		if len(got) != 1 || got[0].Range != 5 || dst[:2][1].Nodes != nil {
			t.Errorf("%s: dst changed to %+v", what, got)
		}
		if tokens[0] != 7 || tokens[1] != 7 || tokens[2] != 7 {
			t.Errorf("%s: tokens written: %v", what, tokens)
		}
	}
	got, err := pl.RouteKeysReplicas(dst, tokens, nil)
	check("nil keys", got, err, ErrInvalid)
	got, err = pl.RouteKeysReplicas(dst, tokens[:2], batch)
	check("2 tokens for 3 keys", got, err, ErrBufSize)
	got, err = (&Placement{}).RouteKeysReplicas(dst, tokens, batch)
	check("zero Placement", got, err, ErrZeroValue)
	var nilp *Placement
	got, err = nilp.RouteKeysReplicas(dst, tokens, batch)
	check("nil Placement", got, err, ErrInvalid)

	topo, err := NewPartitionedTopology(PartitionerRandom)
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	if err := topo.AddNode128("a", "dc1", "r1", []Token128{{Lo: 7}}); err != nil {
		t.Fatal(err)
	}
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer ring.Close()
	repl, _ := NewSimpleStrategy(1, 0)
	defer repl.Close()
	random, err := ring.Placement(repl, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer random.Close()
	got, err = random.RouteKeysReplicas(dst, tokens, batch)
	check("RandomPartitioner ring", got, err, ErrUnsupported)

	pl.Close()
	got, err = pl.RouteKeysReplicas(dst, tokens, batch)
	check("closed", got, err, ErrClosed)
	got, err = pl.RouteKeysReplicas(dst, nil, NewKeyBatch(0, 0))
	check("closed, no keys", got, err, ErrClosed)
}
