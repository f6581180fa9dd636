// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"encoding/binary"
	"fmt"
	"math/big"
	"math/rand"
	"sort"
	"testing"
)

// The seeded layout is documented bit for bit in layout.h: check it against the formula
// computed here with the hash alone.
func TestSeededTokenFormula(t *testing.T) {
	for _, c := range []struct {
		seed    uint64
		id      string
		vnode   uint32
		attempt uint32
	}{{1, "n1", 0, 0}, {1, "n1", 7, 0}, {42, "10.0.0.1", 3, 2}, {0, "x", 0, 1}} {
		b := []byte("tokenring-layout-v1")
		b = binary.BigEndian.AppendUint64(b, c.seed)
		b = binary.BigEndian.AppendUint32(b, uint32(len(c.id)))
		b = append(b, c.id...)
		b = binary.BigEndian.AppendUint32(b, c.vnode)
		if c.attempt > 0 {
			b = binary.BigEndian.AppendUint32(b, c.attempt)
		}
		h1, _ := Murmur3Cassandra(b, 0)
		if h1 == MinToken {
			h1 = MaxToken
		}
		got, err := SeededToken(c.seed, c.id, c.vnode, c.attempt)
		if err != nil || got != h1 {
			t.Errorf("SeededToken(%+v) = %d, %v; the formula gives %d", c, got, err, h1)
		}
	}
	toks, err := SeededTokens(8, 1, "n1", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for v, tok := range toks {
		if want, _ := SeededToken(1, "n1", uint32(v), 0); tok != want {
			t.Errorf("vnode %d: %d, want %d", v, tok, want)
		}
	}
	_, err = SeededToken(1, string(make([]byte, MaxName+1)), 0, 0)
	expectErr(t, "identity too long", err, ErrRange, "")
	_, err = SeededTokens(0, 1, "n1", nil, 0)
	expectErr(t, "no tokens", err, ErrRange, "")
}

func TestEvenTokens(t *testing.T) {
	toks, err := EvenTokens(4, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for j, tok := range toks {
		if want := MinToken + int64(j)<<62; tok != want {
			t.Errorf("token %d: %d, want %d", j, tok, want)
		}
	}
	// Slot 1 of 3, 2 tokens: MinToken + floor((j*3+1) * 2^64 / 6).
	toks, _ = EvenTokens(2, 1, 3)
	for j, tok := range toks {
		v := new(big.Int).Lsh(big.NewInt(1), 64)
		v.Mul(v, big.NewInt(int64(j*3+1)))
		v.Quo(v, big.NewInt(6))
		v.Add(v, big.NewInt(MinToken))
		if tok != v.Int64() {
			t.Errorf("slot 1/3 token %d: %d, want %s", j, tok, v)
		}
	}
	_, err = EvenTokens(4, 3, 3)
	expectErr(t, "slot past the slots", err, ErrRange, "")
}

// sampleTokens are the tokens of 200 fixed sample keys.
func sampleTokens() []int64 {
	b := NewKeyBatch(200, 200*8)
	for i := 0; i < 200; i++ {
		b.AddString(fmt.Sprintf("key%d", i))
	}
	return b.Tokens()
}

// The seed's claim: six nodes, eight tokens each, layout seed one, 200 sample keys; after
// adding one node some primaries move, every moved primary goes to the new node, and the
// existing tokens do not change.
func TestSeededJoin(t *testing.T) {
	topo, _ := NewTopology()
	defer topo.Close()
	var nodes []SeededNode
	for i := 1; i <= 6; i++ {
		nodes = append(nodes, SeededNode{Name: fmt.Sprintf("node%d", i)})
	}
	if err := topo.AddSeededNodes(1, 8, nodes, 0); err != nil {
		t.Fatal(err)
	}
	before := describeTopology(t, topo)
	n0, _ := topo.Node(0)
	if n0.Datacenter != "datacenter1" || n0.Rack != "rack1" || len(n0.Tokens) != 8 {
		t.Fatalf("seeded node %+v", n0)
	}
	joined, _ := topo.Clone()
	defer joined.Close()
	if err := joined.AddSeededNodes(1, 8, []SeededNode{{Name: "node7"}}, 0); err != nil {
		t.Fatal(err)
	}
	if after := describeTopology(t, joined); after[:len(before)] != before {
		t.Fatal("adding a node changed existing tokens")
	}
	n7, _ := joined.Node(6)

	repl, _ := NewSimpleStrategy(1, 0)
	defer repl.Close()
	m, err := topo.SimulateJoin(repl, "node7", "datacenter1", "rack1", n7.Tokens, sampleTokens())
	if err != nil {
		t.Fatal(err)
	}
	// The same analysis from two topologies.
	m2, err := CompareMovement(topo, joined, repl, ChangeJoin, sampleTokens())
	if err != nil {
		t.Fatal(err)
	}
	if m.Summary != m2.Summary || len(m.Streams) != len(m2.Streams) {
		t.Errorf("SimulateJoin and CompareMovement disagree: %+v vs %+v", m.Summary, m2.Summary)
	}
	newIdx := -1
	for i, n := range m.Nodes {
		if n.Name == "node7" {
			newIdx = i
			if n.InBefore || !n.InAfter {
				t.Errorf("node7 in before/after: %v/%v", n.InBefore, n.InAfter)
			}
		}
	}
	if newIdx != 6 {
		t.Fatalf("the new node is result node %d, want 6", newIdx)
	}
	moved := 0
	for _, s := range m.Samples {
		if s.OwnerChanged {
			moved++
			if s.NewOwner != newIdx {
				t.Errorf("sample %d moved to %s, not to the new node", s.Token, m.Nodes[s.NewOwner].Name)
			}
		}
	}
	if moved == 0 || moved != m.Summary.SamplesPrimaryChanged || len(m.Samples) != 200 {
		t.Fatalf("%d of %d samples moved (summary %d)", moved, len(m.Samples), m.Summary.SamplesPrimaryChanged)
	}
	// Every stream goes to the new node, and the stream widths add up.
	sum := new(big.Int)
	for _, s := range m.Streams {
		if s.Destination != newIdx {
			t.Errorf("stream to %s", m.Nodes[s.Destination].Name)
		}
		sum.Add(sum, s.Width.Big())
	}
	if sum.Cmp(m.Summary.StreamedWidth.Big()) != 0 || m.Nodes[newIdx].GainedWidth != m.Summary.StreamedWidth {
		t.Errorf("streams sum to %s, summary %s, gained %s", sum, m.Summary.StreamedWidth, m.Nodes[newIdx].GainedWidth)
	}
	if len(m.Ranges) == 0 {
		t.Fatal("no changed ranges")
	}

	// Decommissioning the node again moves the same width back.
	d, err := joined.SimulateDecommission(repl, "node7", nil)
	if err != nil {
		t.Fatal(err)
	}
	if d.Summary.ChangedWidth != m.Summary.ChangedWidth {
		t.Errorf("decommission changes %s, join changed %s", d.Summary.ChangedWidth, m.Summary.ChangedWidth)
	}
	r, err := topo.SimulateReplace(repl, "node1", "node1b", nil)
	if err != nil || r.Summary.ChangedWidth.Big().Sign() == 0 {
		t.Errorf("replace: %+v %v", r, err)
	}
	mv, err := topo.SimulateMove(repl, "node1", []int64{12345}, nil)
	if err != nil || len(mv.Ranges) == 0 {
		t.Errorf("move: %v", err)
	}
	_, err = topo.SimulateJoin(repl, "node1", "datacenter1", "rack1", []int64{1}, nil)
	expectErr(t, "join of an existing name", err, ErrExists, "")
	_, err = topo.SimulateDecommission(repl, "nobody", nil)
	expectErr(t, "decommission of an unknown node", err, ErrNotFound, "")
	if describeTopology(t, topo) != before {
		t.Fatal("simulations modified the topology")
	}
}

// The seed's availability facts: 12 nodes, rf 3, 256 random tokens each: with one rack
// every one of the 66 pairs breaks QUORUM; with three racks of four nodes exactly the 48
// cross-rack pairs do.
func TestAvailabilityQuorumPairs(t *testing.T) {
	for _, racks := range []int{1, 3} {
		rng := rand.New(rand.NewSource(int64(racks)))
		topo, _ := NewTopology()
		rackOf := map[string]string{}
		for n := 0; n < 12; n++ {
			toks := make([]int64, 256)
			for i := range toks {
				toks[i] = int64(rng.Uint64())
			}
			name := fmt.Sprintf("n%02d", n)
			rackOf[name] = fmt.Sprintf("r%d", n%racks)
			if err := topo.AddNode(name, "dc1", rackOf[name], toks); err != nil {
				t.Fatal(err)
			}
		}
		ring, _ := topo.Build()
		repl, _ := NewNetworkTopologyStrategy(map[string]int{"dc1": 3})
		sets, err := ring.Availability(repl, Quorum, "", 2)
		if err != nil {
			t.Fatal(err)
		}
		want := 66
		if racks == 3 {
			want = 48
		}
		if len(sets) != want {
			t.Errorf("%d racks: %d pairs break QUORUM, want %d", racks, len(sets), want)
		}
		for _, s := range sets {
			a, b := ring.NodeName(int(s.Nodes[0])), ring.NodeName(int(s.Nodes[1]))
			if racks == 3 && rackOf[a] == rackOf[b] {
				t.Errorf("same-rack pair %s %s breaks QUORUM", a, b)
			}
			if s.Nodes[0] >= s.Nodes[1] || s.Width.Big().Sign() <= 0 || s.Fraction <= 0 {
				t.Errorf("bad failure set %+v", s)
			}
		}
		if !sort.SliceIsSorted(sets, func(i, j int) bool {
			return sets[i].Nodes[0] < sets[j].Nodes[0] || sets[i].Nodes[0] == sets[j].Nodes[0] && sets[i].Nodes[1] < sets[j].Nodes[1]
		}) {
			t.Error("failure sets are not sorted")
		}
		one, err := ring.Availability(repl, One, "", 1)
		if err != nil || len(one) != 0 {
			t.Errorf("a single failure must not break ONE at rf 3: %v %v", one, err)
		}
		two, _ := NewNetworkTopologyStrategy(map[string]int{"dc1": 2})
		_, err = ring.Availability(two, Three, "", 1)
		expectErr(t, "THREE with rf 2", err, ErrImpossible, "")
		_, err = ring.Availability(repl, LocalQuorum, "", 1)
		expectErr(t, "LOCAL_QUORUM without a local datacenter", err, ErrInvalid, "")
		_, err = ring.Availability(repl, Quorum, "", 4)
		expectErr(t, "k too large", err, ErrRange, "")
		two.Close()
		repl.Close()
		ring.Close()
		topo.Close()
	}
}

func TestBalanceAndAllocator(t *testing.T) {
	topo := randomTopology(t, rand.New(rand.NewSource(3)), 9, 16, 1)
	defer topo.Close()
	ring, _ := topo.Build()
	defer ring.Close()
	repl, _ := NewNetworkTopologyStrategy(map[string]int{"dc1": 3})
	defer repl.Close()
	p, _ := BuildPlacement(ring, repl, 0)
	defer p.Close()
	prim, eff, err := ring.Balance(p, "", "")
	if err != nil {
		t.Fatal(err)
	}
	own, _ := ring.Ownership(p)
	maxW := own[0].PrimaryWidth.Big()
	for _, o := range own {
		if o.PrimaryWidth.Big().Cmp(maxW) > 0 {
			maxW = o.PrimaryWidth.Big()
		}
	}
	if prim.NodeCount != 9 || prim.MaxWidth.Big().Cmp(maxW) != 0 || prim.TotalWidth != (U128{Hi: 1}) ||
		own[prim.MaxNode].PrimaryWidth != prim.MaxWidth {
		t.Errorf("primary balance %+v disagrees with ownership (max %s)", prim, maxW)
	}
	if eff.TotalWidth != (U128{Hi: 3}) || eff.Max < eff.Mean || eff.Min > eff.Mean {
		t.Errorf("effective balance %+v", eff)
	}
	if r1, _, err := ring.Balance(nil, "dc1", "r1"); err != nil || r1.NodeCount != 3 {
		t.Errorf("rack balance %+v %v", r1, err)
	}
	_, _, err = ring.Balance(nil, "nowhere", "")
	expectErr(t, "balance of an unknown datacenter", err, ErrNotFound, "")
	_, _, err = ring.Balance(nil, "", "r1")
	expectErr(t, "rack without datacenter", err, ErrInvalid, "")

	// The allocator gives distinct new tokens, ascending, not already on the ring.
	taken := map[int64]bool{}
	toks, _ := ring.Tokens()
	for _, tok := range toks {
		taken[tok] = true
	}
	got, err := topo.AllocateTokens(16, "dc1", "r1", 3)
	if err != nil || len(got) != 16 || !sort.SliceIsSorted(got, func(i, j int) bool { return got[i] < got[j] }) {
		t.Fatalf("AllocateTokens: %v %v", got, err)
	}
	for _, tok := range got {
		if taken[tok] {
			t.Errorf("allocated token %d is taken", tok)
		}
	}
	plan, err := topo.AllocateNodes(8, "dc2", []string{"a", "b", "c", "a"}, 3, 0)
	if err != nil || len(plan) != 4 || len(plan[3]) != 8 {
		t.Fatalf("AllocateNodes: %v %v", plan, err)
	}
	_, err = topo.AllocateTokens(16, "dc1", "r1", 0)
	expectErr(t, "rf 0", err, ErrRange, "")
	_, err = topo.AllocateNodes(8, "dc2", nil, 3, 0)
	expectErr(t, "no nodes", err, ErrInvalid, "")
	_, err = topo.AllocateNodes(8, "dc2", []string{"a\x00"}, 3, 0)
	expectErr(t, "NUL in a rack", err, ErrInvalid, "NUL")
}

func TestMigrationPlan(t *testing.T) {
	topo := randomTopology(t, rand.New(rand.NewSource(5)), 6, 256, 1)
	defer topo.Close()
	repl, _ := NewNetworkTopologyStrategy(map[string]int{"dc1": 3})
	defer repl.Close()
	names := []string{"new1", "new2", "new3", "new4"}
	racks := []string{"r1", "r2", "r3", "r1"}
	plan, err := topo.PlanMigration("dc1", "dc1new", names, racks, 16, 3, []KeyspaceReplication{{"shop", repl}, {"users", repl}})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Nodes) != 4 || len(plan.Steps) == 0 {
		t.Fatalf("plan %+v", plan)
	}
	for i, n := range plan.Nodes {
		if n.Name != names[i] || n.Rack != racks[i] || len(n.Tokens) != 16 {
			t.Errorf("new node %d: %+v", i, n)
		}
	}
	mentions := false
	for _, s := range plan.Steps {
		if containsAll(s, "shop") {
			mentions = true
		}
	}
	if !mentions {
		t.Errorf("no step names keyspace shop: %q", plan.Steps)
	}
	if bare, err := topo.PlanMigration("dc1", "dc1new", names, racks, 16, 3, nil); err != nil || len(bare.Nodes) != 4 {
		t.Errorf("plan without keyspaces: %v", err)
	}
	_, err = topo.PlanMigration("nowhere", "x", names, racks, 16, 3, nil)
	expectErr(t, "unknown old datacenter", err, ErrNotFound, "")
	_, err = topo.PlanMigration("dc1", "dc1new", names[:2], racks[:2], 16, 3, nil)
	expectErr(t, "fewer nodes than rf", err, ErrImpossible, "")
}

// rf 0 keeps each keyspace's factor; the other datacenter stays in every ALTER, and
// SimpleStrategy across two datacenters is refused.
func TestPlanMigrationKeepsFactors(t *testing.T) {
	topo, _ := NewTopology()
	defer topo.Close()
	for i := 0; i < 6; i++ {
		dc := "dc1"
		if i >= 3 {
			dc = "dc2"
		}
		if err := topo.AddNode(fmt.Sprintf("n%d", i), dc, "r1", []int64{int64(i)*1000 - 3000}); err != nil {
			t.Fatal(err)
		}
	}
	shop, _ := NewNetworkTopologyStrategy(map[string]int{"dc1": 3, "dc2": 2})
	defer shop.Close()
	plan, err := topo.PlanMigration("dc2", "dc3", []string{"x1", "x2"}, []string{"r1", "r2"}, 4, 0,
		[]KeyspaceReplication{{"shop", shop}})
	if err != nil {
		t.Fatal(err)
	}
	want := "cqlsh: ALTER KEYSPACE shop WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2', 'dc3': '2'};"
	found := false
	for _, s := range plan.Steps {
		found = found || s == want
	}
	if !found {
		t.Errorf("no step %q in %q", want, plan.Steps)
	}
	simple, _ := NewSimpleStrategy(3, 0)
	defer simple.Close()
	_, err = topo.PlanMigration("dc2", "dc3", []string{"x1", "x2", "x3"}, []string{"r1", "r2", "r3"}, 4, 0,
		[]KeyspaceReplication{{"system_auth", simple}})
	expectErr(t, "SimpleStrategy across datacenters", err, ErrUnsupported, "system_auth")
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		found := false
		for i := 0; i+len(p) <= len(s); i++ {
			if s[i:i+len(p)] == p {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// The library says which tokens a change kept: all of them for a join, not for a move.
func TestTokensKept(t *testing.T) {
	topo, _ := NewTopology()
	defer topo.Close()
	for i := 0; i < 4; i++ {
		if err := topo.AddNode(fmt.Sprintf("n%d", i), "dc1", "r1", []int64{int64(i) * 1000, int64(i)*1000 + 500}); err != nil {
			t.Fatal(err)
		}
	}
	before, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer before.Close()
	joined, _ := topo.Clone()
	defer joined.Close()
	if err := joined.AddNode("n9", "dc1", "r1", []int64{250, 1250}); err != nil {
		t.Fatal(err)
	}
	after, _ := joined.Build()
	defer after.Close()
	if k, l, g, err := TokensKept(before, after); err != nil || k != 8 || l != 0 || g != 0 {
		t.Errorf("join: kept %d lost %d gained %d (%v), want 8 0 0", k, l, g, err)
	}
	if k, l, g, err := TokensKept(after, before); err != nil || k != 8 || l != 2 || g != 0 {
		t.Errorf("decommission: kept %d lost %d gained %d (%v), want 8 2 0", k, l, g, err)
	}
	if k, l, g, err := TokensKept(before, before); err != nil || k != 8 || l != 0 || g != 0 {
		t.Errorf("same ring: kept %d lost %d gained %d (%v)", k, l, g, err)
	}
	after.Close()
	if _, _, _, err := TokensKept(before, after); err == nil {
		t.Error("a closed ring must give an error")
	}
}

func TestParseTokenHexDecodeAssignRacks(t *testing.T) {
	if v, err := ParseToken("-9223372036854775808"); err != nil || v != MinToken {
		t.Errorf("ParseToken(min) = %d, %v", v, err)
	}
	for _, bad := range []string{"", " 5", "0x10", "1.5"} {
		if _, err := ParseToken(bad); err == nil || err.(*Error).Code != CodeParse {
			t.Errorf("ParseToken(%q): %v, want a parse error", bad, err)
		}
	}
	if _, err := ParseToken("9223372036854775808"); err == nil || err.(*Error).Code != CodeRange {
		t.Errorf("ParseToken(2^63): %v, want a range error", err)
	}
	if b, err := HexDecode("0x00ff"); err != nil || string(b) != "\x00\xff" {
		t.Errorf("HexDecode(0x00ff) = %x, %v", b, err)
	}
	if b, err := HexDecode(""); err != nil || len(b) != 0 {
		t.Errorf("HexDecode(\"\") = %x, %v", b, err)
	}
	if _, err := HexDecode("abc"); err == nil || err.(*Error).Code != CodeParse {
		t.Errorf("HexDecode(abc): %v, want a parse error", err)
	}
	dcs, racks, err := AssignRacks(6, 0, 1, []uint32{2, 1, 3})
	want := []uint32{0, 1, 2, 0, 2, 2}
	if err != nil || len(racks) != 6 {
		t.Fatalf("AssignRacks: %v %v", racks, err)
	}
	for i := range want {
		if racks[i] != want[i] || dcs[i] != 0 {
			t.Errorf("node %d: dc %d rack %d, want 0 %d", i, dcs[i], racks[i], want[i])
		}
	}
	dcs, racks, err = AssignRacks(7, 3, 2, nil)
	for i := 0; i < 7 && err == nil; i++ {
		if dcs[i] != uint32(i%2) || racks[i] != uint32((i/2)%3) {
			t.Errorf("node %d: dc %d rack %d", i, dcs[i], racks[i])
		}
	}
	if _, _, err := AssignRacks(3, 0, 1, []uint32{1, 1}); err == nil || err.(*Error).Code != CodeInvalid {
		t.Errorf("counts that do not add up: %v", err)
	}
	if RackName(0) != "rack1" || RackName(41) != "rack42" {
		t.Errorf("RackName: %q %q", RackName(0), RackName(41))
	}
}

func TestReplicationDCFactor(t *testing.T) {
	nts, err := ParseReplication("dc1=3/1,dc2=2")
	if err != nil {
		t.Fatal(err)
	}
	defer nts.Close()
	for _, c := range []struct {
		dc     string
		rf, tr int
	}{{"dc1", 3, 1}, {"dc2", 2, 0}, {"dc9", 0, 0}} {
		if rf, tr, err := nts.DCFactor(c.dc); err != nil || rf != c.rf || tr != c.tr {
			t.Errorf("DCFactor(%s) = %d/%d, %v; want %d/%d", c.dc, rf, tr, err, c.rf, c.tr)
		}
	}
	simple, _ := ParseReplication("SimpleStrategy:2")
	defer simple.Close()
	if rf, _, err := simple.DCFactor("anywhere"); err != nil || rf != 2 {
		t.Errorf("SimpleStrategy DCFactor = %d, %v", rf, err)
	}
	if _, _, err := simple.DCFactor("a\x00b"); err == nil {
		t.Error("a NUL in the name must be refused")
	}
}
