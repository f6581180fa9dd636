// SPDX-License-Identifier: Apache-2.0
package tokenring

import (
	"context"
	"fmt"
	"math/big"
	"math/rand"
	"testing"
)

// AvailabilitySummary agrees with the full list of Availability for k <= 3 (count and the
// widest sets), counts whole racks and datacenters, refuses bad k and stops with ctx.
func TestAvailabilitySummary(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	topo, _ := NewTopology()
	for n := 0; n < 12; n++ {
		toks := make([]int64, 16)
		for i := range toks {
			toks[i] = int64(rng.Uint64())
		}
		if err := topo.AddNode(fmt.Sprintf("n%02d", n), "dc1", fmt.Sprintf("r%d", n%3), toks); err != nil {
			t.Fatal(err)
		}
	}
	ring, _ := topo.Build()
	defer ring.Close()
	defer topo.Close()
	repl, _ := NewNetworkTopologyStrategy(map[string]int{"dc1": 3})
	defer repl.Close()
	for _, cl := range []Consistency{One, Quorum, All} {
		for k := 1; k <= 3; k++ {
			list, err := ring.Availability(repl, cl, "", k)
			if err != nil {
				t.Fatal(err)
			}
			s, err := ring.AvailabilitySummary(repl, cl, "", FailNodes, k, 3)
			if err != nil {
				t.Fatal(err)
			}
			if s.K != k || s.Breaking.Big().Int64() != int64(len(list)) {
				t.Errorf("cl %d k %d: summary counts %v, the list has %d", cl, k, s.Breaking.Big(), len(list))
			}
			best := new(big.Int)
			for _, f := range list {
				if f.Width.Big().Cmp(best) > 0 {
					best = f.Width.Big()
				}
			}
			if s.WorstWidth.Big().Cmp(best) != 0 || (len(list) > 0 && s.Worst[0].Width.Big().Cmp(best) != 0) {
				t.Errorf("cl %d k %d: worst %v, the list's widest %v", cl, k, s.WorstWidth.Big(), best)
			}
			if len(s.Worst) > 3 || (len(list) >= 3 && len(s.Worst) != 3) {
				t.Errorf("cl %d k %d: %d worst sets", cl, k, len(s.Worst))
			}
		}
	}
	racks, err := ring.AvailabilitySummary(repl, Quorum, "", FailRacks, 2, 5)
	if err != nil || racks.Breaking.Big().Int64() != 3 || racks.Sets.Big().Int64() != 3 || racks.Worst[0].Fraction != 1 {
		t.Errorf("two whole racks of three break QUORUM everywhere: %+v %v", racks, err)
	}
	one, err := ring.AvailabilitySummary(repl, One, "", FailRacks, 2, 5)
	if err != nil || one.Breaking.Big().Sign() != 0 {
		t.Errorf("two racks of three never break ONE at rf 3 (one replica per rack): %+v %v", one, err)
	}
	dc, err := ring.AvailabilitySummary(repl, One, "", FailDatacenters, 1, 1)
	if err != nil || dc.Breaking.Big().Int64() != 1 {
		t.Errorf("losing the datacenter breaks ONE: %+v %v", dc, err)
	}
	_, err = ring.AvailabilitySummary(repl, One, "", FailRacks, 4, 1)
	expectErr(t, "k above the racks", err, ErrRange, "")
	_, err = ring.AvailabilitySummary(repl, One, "", FailNodes, 0, 1)
	expectErr(t, "k = 0", err, ErrRange, "")
	_, err = ring.AvailabilitySummary(repl, One, "", FailNodes, 1, -1)
	expectErr(t, "negative top", err, ErrRange, "")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = ring.AvailabilitySummaryContext(ctx, repl, Quorum, "", FailNodes, 3, 5)
	expectErr(t, "cancelled", err, ErrCancelled, "")
}

// Replication factors above 255 (up to MaxReplicationFactor) give every node of the
// datacenter, as in Cassandra.
func TestReplicationFactorsAbove255(t *testing.T) {
	topo, _ := NewTopology()
	defer topo.Close()
	for n := 0; n < 10; n++ {
		if err := topo.AddNode(fmt.Sprintf("n%d", n), "dc1", fmt.Sprintf("r%d", n%2), []int64{int64(n) * 1000003, int64(n)*-77777 - 5}); err != nil {
			t.Fatal(err)
		}
	}
	ring, _ := topo.Build()
	defer ring.Close()
	simple, err := NewSimpleStrategy(300, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer simple.Close()
	huge, err := ParseReplication("dc1=2147483647")
	if err != nil {
		t.Fatal(err)
	}
	defer huge.Close()
	for _, repl := range []*Replication{simple, huge} {
		p, err := ring.Placement(repl, 0)
		if err != nil {
			t.Fatal(err)
		}
		toks, _ := ring.Tokens()
		for i := range toks {
			got, err := p.RangeReplicas(i)
			if err != nil || len(got.Nodes) != 10 {
				t.Errorf("%v range %d: %d replicas (%v), want every node (10)", repl, i, len(got.Nodes), err)
			}
		}
		p.Close()
	}
	_, err = NewSimpleStrategy(MaxReplicationFactor+1, 0)
	expectErr(t, "rf 2^31", err, ErrRange, "")
	_, err = ParseReplication("dc1=2147483648")
	expectErr(t, "rf 2^31 in text", err, ErrRange, "")
}
