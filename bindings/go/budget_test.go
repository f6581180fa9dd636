// SPDX-License-Identifier: Apache-2.0
package tokenring

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

// One DN node, rf 3 at QUORUM: one more failure on a node sharing ranges with it breaks
// them (the summary without Down reports 0).
func TestAvailabilityDownNodes(t *testing.T) {
	topo, _ := NewTopology()
	defer topo.Close()
	for i, tok := range []int64{-6e18, -1e18, 3e18, 7e18} {
		if err := topo.AddNode(string(rune('A'+i)), "dc1", "r1", []int64{tok}); err != nil {
			t.Fatal(err)
		}
	}
	if err := topo.SetState("A", StateNormal, Down); err != nil {
		t.Fatal(err)
	}
	ring, _ := topo.Build()
	defer ring.Close()
	repl, _ := NewSimpleStrategy(3, 0)
	defer repl.Close()
	s, err := ring.AvailabilitySummaryLimited(context.Background(), repl, Quorum, "", FailNodes, 1, 3, Limits{Down: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	if s.Sets.Lo != 3 || s.Breaking.Lo != 3 || s.AlreadyFraction != 0 || s.Estimate == 0 {
		t.Fatalf("sets %v breaking %v already %v estimate %d", s.Sets, s.Breaking, s.AlreadyFraction, s.Estimate)
	}
	for _, w := range s.Worst {
		if w.Units[0] == 0 {
			t.Fatalf("the down node is a unit: %v", w.Units)
		}
	}
	all, err := ring.AvailabilitySummaryLimited(context.Background(), repl, All, "", FailNodes, 1, 0, Limits{Down: []int{0}})
	if err != nil || all.AlreadyFraction < 0.5 {
		t.Fatalf("ALL with A down: %v %v", all, err)
	}
	plain, err := ring.AvailabilitySummaryLimited(context.Background(), repl, Quorum, "", FailNodes, 1, 0, Limits{})
	if err != nil || plain.Breaking.Lo != 0 || plain.Sets.Lo != 4 {
		t.Fatalf("without Down: %v %v", plain, err)
	}
	if _, err := ring.AvailabilitySummaryLimited(context.Background(), repl, Quorum, "", FailNodes, 1, 0, Limits{Down: []int{9}}); !errors.Is(err, ErrRange) {
		t.Fatalf("down node 9: %v", err)
	}
	if _, err := ring.AvailabilitySummaryLimited(context.Background(), repl, Quorum, "", FailNodes, 1, 0, Limits{Down: []int{-1}}); !errors.Is(err, ErrRange) {
		t.Fatalf("down node -1: %v", err)
	}
	if _, err := ring.AvailabilitySummaryLimited(context.Background(), nil, Quorum, "", FailNodes, 1, 0, Limits{}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil replication: %v", err)
	}
}

func seededTopology(t *testing.T, nodes, tokens int) *Topology {
	topo, _ := NewTopology()
	sn := make([]SeededNode, nodes)
	for i := range sn {
		sn[i] = SeededNode{Name: fmt.Sprintf("10.0.%d.%d", i/250, i%250+1), Datacenter: "datacenter1", Rack: "rack1"}
	}
	if err := topo.AddSeededNodes(1, tokens, sn, 0); err != nil {
		t.Fatal(err)
	}
	return topo
}

// Every long call refuses past its budget with a *BudgetError carrying the estimate.
func TestBudgetRefusals(t *testing.T) {
	topo := seededTopology(t, 300, 16)
	defer topo.Close()
	ring, _ := topo.Build()
	defer ring.Close()
	repl, _ := NewSimpleStrategy(3, 0)
	defer repl.Close()
	_, err := ring.AvailabilitySummaryLimited(context.Background(), repl, Quorum, "", FailNodes, 2, 5, Limits{Budget: time.Microsecond})
	var be *BudgetError
	if !errors.As(err, &be) || !errors.Is(err, ErrBudget) || be.Estimate < 200 {
		t.Fatalf("want a budget refusal, got %v", err)
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("estimated %d work units", be.Estimate)) || be.Seconds() <= 0 {
		t.Fatalf("message %q estimate %d", err, be.Estimate)
	}
	var reports int
	ctx := WithProgress(context.Background(), func(done, total uint64) { reports++ })
	s, err := ring.AvailabilitySummaryLimited(ctx, repl, Quorum, "", FailNodes, 2, 5, Limits{Budget: BudgetUnlimited})
	if err != nil || s.Sets.Lo != 300*299/2 || reports == 0 {
		t.Fatalf("unlimited: %v %v reports %d", s, err, reports)
	}
	if _, err := ring.AvailabilitySummary(repl, One, "", FailNodes, 20, 5); !errors.Is(err, ErrBudget) {
		t.Fatalf("the default budget applies: %v", err)
	}
	if _, err := ring.AvailabilitySummaryLimited(context.Background(), repl, One, "", FailNodes, 1, 5, Limits{Budget: -1}); !errors.Is(err, ErrRange) {
		t.Fatalf("negative budget: %v", err)
	}

	small := seededTopology(t, 6, 8)
	defer small.Close()
	if _, _, err := small.AllocateJoinLimited(1537, "10.9.9.9", "datacenter1", "rack1", nil, 3, Cassandra50, Limits{}); !errors.Is(err, ErrRange) || !strings.Contains(err.Error(), "1536") {
		t.Fatalf("num_tokens 1537: %v", err)
	}
	if _, _, err := small.AllocateJoinLimited(8192, "10.9.9.9", "datacenter1", "rack1", nil, 3, Cassandra50, Limits{MaxNumTokens: 8192}); !errors.As(err, &be) || be.Estimate <= 1e9 {
		t.Fatalf("8192 tokens joining 48: %v", err)
	}
	toks, _, err := small.AllocateJoinLimited(1600, "10.9.9.9", "datacenter1", "rack1", nil, 3, Cassandra50, Limits{MaxNumTokens: 1600, Budget: BudgetUnlimited})
	if err != nil || len(toks) != 1600 {
		t.Fatalf("1600 tokens with the cap raised: %d %v", len(toks), err)
	}
	if _, err := small.AllocateNodesLimited(context.Background(), 16, "datacenter1", []string{"rack1"}, 3, 0, Limits{Budget: time.Nanosecond}); !errors.Is(err, ErrBudget) {
		t.Fatalf("allocate nodes over budget: %v", err)
	}
	if n, err := small.AllocateNodesLimited(context.Background(), 16, "datacenter1", []string{"rack1"}, 3, 0, Limits{}); err != nil || len(n[0]) != 16 {
		t.Fatalf("allocate nodes: %v", err)
	}
	if _, err := small.PlanMigrationLimited(context.Background(), "datacenter1", "dc2", []string{"a", "b", "c"}, []string{"r1", "r2", "r3"}, 16, 3, Limits{Budget: time.Nanosecond}); !errors.Is(err, ErrBudget) {
		t.Fatalf("migration over budget: %v", err)
	}
	p, err := small.PlanMigrationLimited(context.Background(), "datacenter1", "dc2", []string{"a", "b", "c"}, []string{"r1", "r2", "r3"}, 16, 3, Limits{})
	if err != nil || len(p.Nodes) != 3 || len(p.Nodes[0].Tokens) != 16 || len(p.Steps) == 0 {
		t.Fatalf("migration: %v %v", p, err)
	}
	if _, err := small.AllocateAsCassandra(1537, "10.9.9.9", "datacenter1", "rack1", nil, 3, nil, Cassandra50, 0); !errors.Is(err, ErrRange) || !strings.Contains(err.Error(), "A maximum number of 1536 tokens") {
		t.Fatalf("Cassandra's allocator, 1537 tokens: %v", err)
	}
	if c, err := small.AllocateAsCassandra(1536, "10.9.9.9", "datacenter1", "rack1", nil, 3, nil, Cassandra50, 0); err != nil || len(c) != 1536 {
		t.Fatalf("Cassandra's allocator, 1536 tokens: %v", err)
	}
	single, _ := NewTopology()
	defer single.Close()
	for i := 0; i < 3; i++ {
		tok := int64(uint64(1<<63) + 1 + uint64(i)*(^uint64(0)/3))
		if err := single.AddNode(fmt.Sprintf("10.1.0.%d", i+1), "dc1", "r1", []int64{tok}); err != nil {
			t.Fatal(err)
		}
	}
	if n, err := single.AllocateNodes(16, "dc1", []string{"r1", "r1"}, 3, 0); err != nil || len(n) != 2 || len(n[0]) != 16 || len(n[1]) != 16 {
		t.Fatalf("a batch into a single-token datacenter: %v %v", n, err)
	}
	var nilTopo *Topology
	if _, err := nilTopo.AllocateNodesLimited(context.Background(), 16, "dc", []string{"r"}, 3, 0, Limits{}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil topology: %v", err)
	}
}

// AvailabilityLimited: the 1.0 list under a budget, from the nodes already down (as the
// summary counts them), and its refusals.
func TestAvailabilityLimited(t *testing.T) {
	topo, _ := NewTopology()
	defer topo.Close()
	for i, tok := range []int64{-6e18, -1e18, 3e18, 7e18} {
		if err := topo.AddNode(string(rune('A'+i)), "dc1", "r1", []int64{tok}); err != nil {
			t.Fatal(err)
		}
	}
	ring, _ := topo.Build()
	defer ring.Close()
	repl, _ := NewSimpleStrategy(3, 0)
	defer repl.Close()
	ctx := context.Background()
	plain, err := ring.AvailabilityLimited(ctx, repl, Quorum, "", 1, Limits{})
	if err != nil || len(plain) != 0 {
		t.Fatalf("nothing down: %v %v", plain, err)
	}
	sets, err := ring.AvailabilityLimited(ctx, repl, Quorum, "", 1, Limits{Down: []int{0}})
	if err != nil || len(sets) != 3 {
		t.Fatalf("A down: %v %v", sets, err)
	}
	s, err := ring.AvailabilitySummaryLimited(ctx, repl, Quorum, "", FailNodes, 1, 10, Limits{Down: []int{0}})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range sets {
		if f.Nodes[0] != uint32(i+1) || f.Width != s.Worst[0].Width && f.Width != s.Worst[1].Width && f.Width != s.Worst[2].Width {
			t.Fatalf("set %d: %v (summary %v)", i, f, s.Worst)
		}
	}
	if _, err := ring.AvailabilityLimited(ctx, repl, Quorum, "", 1, Limits{Down: []int{9}}); !errors.Is(err, ErrRange) {
		t.Fatalf("down node 9: %v", err)
	}
	if _, err := ring.AvailabilityLimited(ctx, repl, One, "", 3, Limits{Down: []int{0, 1}}); !errors.Is(err, ErrRange) {
		t.Fatalf("3 more of 2 up: %v", err)
	}
	if _, err := ring.AvailabilityLimited(ctx, nil, Quorum, "", 1, Limits{}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil replication: %v", err)
	}
	big := seededTopology(t, 300, 16)
	defer big.Close()
	bring, _ := big.Build()
	defer bring.Close()
	_, err = bring.AvailabilityLimited(ctx, repl, Quorum, "", 1, Limits{Budget: time.Microsecond})
	var be *BudgetError
	if !errors.As(err, &be) || be.Estimate < 200 {
		t.Fatalf("want a budget refusal, got %v", err)
	}
	if _, err := bring.AvailabilityContext(ctx, repl, Quorum, "", 3); !errors.Is(err, ErrBudget) {
		t.Fatalf("the default budget applies: %v", err)
	}
	if got, err := bring.AvailabilityLimited(ctx, repl, Quorum, "", 1, Limits{Budget: BudgetUnlimited}); err != nil || len(got) != 0 {
		t.Fatalf("unlimited: %v %v", got, err)
	}
	var zero BudgetError
	if zero.Error() == "" || !errors.Is(&zero, ErrBudget) || zero.Unwrap() != nil {
		t.Fatalf("zero BudgetError: %q", zero.Error())
	}
}
