// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"strings"
	"testing"
)

// expectErr checks that err matches the sentinel and, when part is not empty, that the
// message names it.
func expectErr(t *testing.T, what string, err error, sentinel error, part string) {
	t.Helper()
	if !errors.Is(err, sentinel) {
		t.Errorf("%s: got %v, want %v", what, err, sentinel)
		return
	}
	var e *Error
	if !errors.As(err, &e) || e.Message == "" {
		t.Errorf("%s: %v is not an *Error with a message", what, err)
		return
	}
	if part != "" && !strings.Contains(e.Message, part) {
		t.Errorf("%s: message %q does not mention %q", what, e.Message, part)
	}
	for _, other := range []error{ErrInvalid, ErrNoMem, ErrNotFound, ErrExists, ErrRange, ErrParse, ErrEmpty,
		ErrBufSize, ErrUnsupported, ErrImpossible, ErrClosed} {
		if other != sentinel && errors.Is(err, other) {
			t.Errorf("%s: %v also matches %v", what, err, other)
		}
	}
}

func TestSentinels(t *testing.T) {
	codes := map[*Error]Code{ErrInvalid: -1, ErrNoMem: -2, ErrNotFound: -3, ErrExists: -4, ErrRange: -5,
		ErrParse: -6, ErrEmpty: -7, ErrBufSize: -8, ErrUnsupported: -9, ErrImpossible: -10}
	for e, c := range codes {
		if e.Code != c {
			t.Errorf("%v has code %d, want %d", e, e.Code, c)
		}
		if !strings.HasPrefix(e.Code.Name(), "TOKENRING_E_") || e.Message == "" || e.Message == "unknown status" {
			t.Errorf("code %d: name %q, message %q", c, e.Code.Name(), e.Message)
		}
	}
	if CodeOK.Name() != "TOKENRING_OK" {
		t.Errorf("CodeOK name %q", CodeOK.Name())
	}
	if !strings.Contains(ErrClosed.Error(), "closed") {
		t.Errorf("ErrClosed reads %q", ErrClosed.Error())
	}
}

func toyTopology(t testing.TB) *Topology {
	t.Helper()
	topo, err := NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []struct {
		name string
		toks []int64
	}{{"A", []int64{10, 50}}, {"B", []int64{30, 80}}, {"C", []int64{65, 95}}} {
		if err := topo.AddNode(n.name, "dc1", "r1", n.toks); err != nil {
			t.Fatal(err)
		}
	}
	return topo
}

func TestTopologyErrors(t *testing.T) {
	topo := toyTopology(t)
	defer topo.Close()
	before := describeTopology(t, topo)

	expectErr(t, "same node twice", topo.AddNode("A", "dc1", "r1", []int64{1}), ErrExists, "A")
	expectErr(t, "token held by another node", topo.AddNode("D", "dc1", "r1", []int64{1, 30}), ErrExists, "30")
	expectErr(t, "repeated token", topo.AddNode("D", "dc1", "r1", []int64{7, 7}), ErrExists, "")
	expectErr(t, "no tokens", topo.AddNode("D", "dc1", "r1", nil), ErrEmpty, "")
	expectErr(t, "empty name", topo.AddNode("", "dc1", "r1", []int64{1}), ErrInvalid, "")
	expectErr(t, "empty datacenter", topo.AddNode("D", "", "r1", []int64{1}), ErrInvalid, "")
	expectErr(t, "non-UTF-8 name", topo.AddNode("D\xff", "dc1", "r1", []int64{1}), ErrInvalid, "")
	expectErr(t, "NUL in a name", topo.AddNode("D\x00E", "dc1", "r1", []int64{1}), ErrInvalid, "NUL")
	expectErr(t, "name too long", topo.AddNode(strings.Repeat("n", MaxName+1), "dc1", "r1", []int64{1}), ErrRange, "")
	expectErr(t, "unknown node removed", topo.RemoveNode("Z"), ErrNotFound, "Z")
	expectErr(t, "unknown node replaced", topo.ReplaceNode("Z", "Y"), ErrNotFound, "Z")
	expectErr(t, "replacement exists", topo.ReplaceNode("A", "B"), ErrExists, "B")
	expectErr(t, "move onto a taken token", topo.SetTokens("A", []int64{30}), ErrExists, "30")
	expectErr(t, "bad state", topo.SetState("A", NodeState(9), Up), ErrInvalid, "")
	_, err := topo.Node(3)
	expectErr(t, "node index past the end", err, ErrRange, "")
	_, err = topo.FindNode("Z")
	expectErr(t, "find unknown", err, ErrNotFound, "Z")

	if after := describeTopology(t, topo); after != before {
		t.Fatalf("failed calls changed the topology:\n%s\n%s", before, after)
	}
	// A name at the limit is fine.
	if err := topo.AddNode(strings.Repeat("n", MaxName), "dc1", "r1", []int64{1}); err != nil {
		t.Fatalf("name of %d bytes: %v", MaxName, err)
	}
}

func describeTopology(t *testing.T, topo *Topology) string {
	var b strings.Builder
	for i := 0; i < topo.NodeCount(); i++ {
		n, err := topo.Node(i)
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString(n.Name + "/" + n.Datacenter + "/" + n.Rack + "/")
		for _, tok := range n.Tokens {
			b.WriteString(itoa(tok) + ",")
		}
		b.WriteString(itoa(int64(n.State)) + ";")
	}
	return b.String()
}

func TestRingAndReplicationErrors(t *testing.T) {
	empty, _ := NewTopology()
	defer empty.Close()
	_, err := empty.Build()
	expectErr(t, "ring of an empty topology", err, ErrEmpty, "")

	_, err = NewSimpleStrategy(-1, 0)
	expectErr(t, "negative rf", err, ErrRange, "")
	_, err = NewSimpleStrategy(MaxReplicationFactor+1, 0)
	expectErr(t, "rf above the limit", err, ErrRange, "")
	_, err = NewSimpleStrategy(3, 3)
	expectErr(t, "transient = rf", err, ErrRange, "")
	_, err = NewSimpleStrategy(1<<40, 0)
	expectErr(t, "rf beyond 32 bits", err, ErrRange, "")
	_, err = ParseReplication("{'class': 'NetworkTopologyStrategy', 'dc1': 'x'}")
	expectErr(t, "malformed replication", err, ErrParse, "")
	var e *Error
	if errors.As(err, &e) && e.Column == 0 {
		t.Errorf("a parse error should carry a column: %+v", e)
	}
	simple, _ := NewSimpleStrategy(2, 0)
	defer simple.Close()
	expectErr(t, "set_dc on SimpleStrategy", simple.SetDC("dc1", 3, 0), ErrInvalid, "")

	topo := toyTopology(t)
	defer topo.Close()
	ring, _ := topo.Build()
	defer ring.Close()
	nts, err := NewNetworkTopologyStrategy(map[string]int{"dc1": 2, "nowhere": 1})
	if err != nil {
		t.Fatal(err)
	}
	defer nts.Close()
	_, err = BuildPlacement(ring, nts, 0)
	expectErr(t, "unknown datacenter", err, ErrNotFound, "nowhere")
	p, err := BuildPlacement(ring, nts, AllowUnknownDC)
	if err != nil {
		t.Fatalf("AllowUnknownDC: %v", err)
	}
	defer p.Close()
	_, err = p.RangeReplicas(6)
	expectErr(t, "range index past the end", err, ErrRange, "")
	_, err = ring.Range(6)
	expectErr(t, "ring range past the end", err, ErrRange, "")
	_, err = p.Set(1 << 30)
	expectErr(t, "set id past the end", err, ErrRange, "")

	// A placement of another ring is refused by Ownership.
	other, _ := topo.Build()
	defer other.Close()
	_, err = other.Ownership(p)
	expectErr(t, "ownership with a placement of another ring", err, ErrInvalid, "")
}

func TestKeyErrors(t *testing.T) {
	_, err := ParseValue(CQLInt, "12x")
	expectErr(t, "malformed int", err, ErrParse, "")
	_, err = ParseValue(CQLInt, "2147483648")
	expectErr(t, "int overflow", err, ErrRange, "")
	_, err = ParseValue(CQLType(99), "1")
	expectErr(t, "unknown type", err, ErrInvalid, "")
	_, err = ParseKey([]CQLType{CQLInt, CQLInt}, "1:2:3")
	expectErr(t, "too many components", err, ErrParse, "")
	_, err = ParseKey(nil, "1")
	expectErr(t, "no column types", err, ErrInvalid, "")
	_, err = ParseCQLType("nosuchtype")
	expectErr(t, "unknown CQL type", err, ErrNotFound, "nosuchtype")
	_, err = Composite()
	expectErr(t, "composite without components", err, ErrInvalid, "")
	_, err = Composite(make([]byte, MaxKey+1))
	expectErr(t, "oversized component", err, ErrRange, "")
	if CQLType(99).String() != "CQLType(99)" || CQLInt.String() != "int" {
		t.Errorf("CQLType names: %q %q", CQLType(99).String(), CQLInt.String())
	}

	// Malformed packed batches never reach C out of bounds.
	out := make([]int64, 2)
	expectErr(t, "offsets past the keys", TokensPacked(out, []byte("ab"), []uint64{0, 1, 3}), ErrInvalid, "")
	expectErr(t, "decreasing offsets", TokensPacked(out, []byte("abc"), []uint64{0, 2, 1}), ErrInvalid, "")
	expectErr(t, "no offsets", TokensPacked(out, nil, nil), ErrInvalid, "")
	expectErr(t, "short output", TokensPacked(out[:1], []byte("ab"), []uint64{0, 1, 2}), ErrBufSize, "")
	if err := TokensPacked(out, []byte("ab"), []uint64{0, 1, 2}); err != nil || out[0] != Token([]byte("a")) {
		t.Fatalf("TokensPacked: %v %v", out, err)
	}
}

func TestUseAfterClose(t *testing.T) {
	topo := toyTopology(t)
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	repl, _ := NewSimpleStrategy(2, 0)
	p, err := BuildPlacement(ring, repl, 0)
	if err != nil {
		t.Fatal(err)
	}
	// The placement outlives its ring handle and the topology.
	topo.Close()
	ring.Close()
	repl.Close()
	nodes, err := p.AppendReplicas(nil, 42)
	if err != nil || len(nodes) != 2 || p.NodeName(int(nodes[0])) != "A" || p.NodeName(int(nodes[1])) != "C" {
		t.Fatalf("after closing ring and topology: replicas of 42 = %v, %v (want A, C)", nodes, err)
	}
	r2, err := p.Ring()
	if err != nil || r2.NodeCount() != 3 {
		t.Fatalf("Placement.Ring: %v", err)
	}
	p2, _ := p.Ref()
	p.Close()
	p.Close() // idempotent
	if nodes, err := p2.AppendReplicas(nil, 97); err != nil || len(nodes) != 2 {
		t.Fatalf("a second reference survives Close of the first: %v %v", nodes, err)
	}
	p2.Close()
	r2.Close()

	closed := []struct {
		what string
		err  error
	}{
		{"topology AddNode", topo.AddNode("D", "dc1", "r1", []int64{1})},
		{"topology RemoveNode", topo.RemoveNode("A")},
		{"topology ReplaceNode", topo.ReplaceNode("A", "Z")},
		{"topology SetTokens", topo.SetTokens("A", []int64{1})},
		{"topology SetState", topo.SetState("A", StateNormal, Up)},
		{"topology Build", second(topo.Build())},
		{"topology Clone", second(topo.Clone())},
		{"topology Node", second(topo.Node(0))},
		{"topology FindNode", second(topo.FindNode("A"))},
		{"ring Owner", second(ring.Owner(1))},
		{"ring Search", second(ring.Search(1))},
		{"ring RangeOf", second(ring.RangeOf(1))},
		{"ring Range", second(ring.Range(0))},
		{"ring Tokens", second(ring.Tokens())},
		{"ring TokenNodes", second(ring.TokenNodes())},
		{"ring Node", second(ring.Node(0))},
		{"ring Nodes", second(ring.Nodes())},
		{"ring FindNode", second(ring.FindNode("A"))},
		{"ring Datacenters", second(ring.Datacenters())},
		{"ring Ownership", second(ring.Ownership(nil))},
		{"ring Ref", second(ring.Ref())},
		{"ring SearchBatch", ring.SearchBatch(make([]uint32, 1), []int64{1})},
		{"placement of a closed ring", second(BuildPlacement(ring, repl, 0))},
		{"placement Replicas", second(p.Replicas(1))},
		{"placement ReplicasForKey", second(p.ReplicasForKey([]byte("k")))},
		{"placement AppendReplicas", second(p.AppendReplicas(nil, 1))},
		{"placement AppendReplicasForKey", second(p.AppendReplicasForKey(nil, []byte("k")))},
		{"placement AppendReplicaNames", second(p.AppendReplicaNames(nil, 1))},
		{"placement RangeReplicas", second(p.RangeReplicas(0))},
		{"placement Set", second(p.Set(0))},
		{"placement RouteKeys", p.RouteKeys(nil, make([]uint32, 1), keyBatchOf("k"))},
		{"placement RouteTokens", p.RouteTokens(make([]uint32, 1), []int64{1})},
		{"placement DescribeRing", second(p.DescribeRing())},
		{"placement Ownership", second(p.Ownership())},
		{"placement Ring", second(p.Ring())},
		{"placement Ref", second(p.Ref())},
		{"replication SetDC", repl.SetDC("dc1", 1, 0)},
		{"replication Factors", second(repl.Factors())},
	}
	for _, c := range closed {
		expectErr(t, c.what+" after Close", c.err, ErrClosed, "")
	}
	if topo.NodeCount() != 0 || ring.NodeCount() != 0 || ring.RackCount() != 0 || p.SetCount() != 0 ||
		repl.Strategy() != 0 || repl.String() != "<closed>" {
		t.Error("counts after Close must be zero")
	}
	for _, c := range []interface{ Close() error }{topo, ring, p, repl} {
		if err := c.Close(); err != nil {
			t.Errorf("second Close: %v", err)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func keyBatchOf(keys ...string) *KeyBatch {
	b := NewKeyBatch(len(keys), 0)
	for _, k := range keys {
		b.AddString(k)
	}
	return b
}
