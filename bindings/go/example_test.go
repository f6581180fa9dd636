// SPDX-License-Identifier: Apache-2.0

package tokenring_test

import (
	"context"
	"errors"
	"fmt"
	"log"
	"os"
	"runtime"
	"strings"
	"sync/atomic"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

// The seed's toy ring: A holds tokens 10 and 50, B 30 and 80, C 65 and 95.
func toyRing() (*tokenring.Topology, *tokenring.Ring) {
	topo, err := tokenring.NewTopology()
	if err != nil {
		log.Fatal(err)
	}
	for _, n := range []struct {
		name   string
		tokens []int64
	}{{"A", []int64{10, 50}}, {"B", []int64{30, 80}}, {"C", []int64{65, 95}}} {
		if err := topo.AddNode(n.name, "dc1", "r1", n.tokens); err != nil {
			log.Fatal(err)
		}
	}
	ring, err := topo.Build()
	if err != nil {
		log.Fatal(err)
	}
	return topo, ring
}

func ExampleToken() {
	fmt.Println(tokenring.Token([]byte("user42")))
	fmt.Println(tokenring.Token(nil) == tokenring.MinToken)
	// Output:
	// -7655210805937031185
	// true
}

func ExampleKeyBatch() {
	batch := tokenring.NewKeyBatch(3, 64)
	for _, k := range []string{"alice", "bob", "carol"} {
		batch.AddString(k)
	}
	tokens := make([]int64, batch.Len())
	if err := batch.TokensInto(tokens); err != nil { // one call into C for the batch
		log.Fatal(err)
	}
	fmt.Println(tokens[1] == tokenring.TokenString("bob"))
	// Output: true
}

func ExampleParseKey() {
	// A table with PRIMARY KEY ((name text, id int)): the key in getendpoints form.
	key, err := tokenring.ParseKey([]tokenring.CQLType{tokenring.CQLText, tokenring.CQLInt}, "user:42")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%x %d\n", key, tokenring.Token(key))
	// The same key from typed components.
	same, _ := tokenring.Composite([]byte("user"), tokenring.EncodeInt(42))
	fmt.Println(string(same) == string(key))
	// Output:
	// 0004757365720000040000002a00 4575207870461280363
	// true
}

func ExampleParseValue() {
	v, err := tokenring.ParseValue(tokenring.CQLBigint, "-1")
	fmt.Printf("%x %v\n", v, err)
	_, err = tokenring.ParseValue(tokenring.CQLInt, "forty-two")
	fmt.Println(errors.Is(err, tokenring.ErrParse))
	// Output:
	// ffffffffffffffff <nil>
	// true
}

func ExampleRing_RangeOf() {
	topo, ring := toyRing()
	defer topo.Close()
	defer ring.Close()
	for _, tok := range []int64{42, 97, 50} {
		r, _ := ring.RangeOf(tok)
		fmt.Printf("token %d: range (%d, %d], owner %s\n", tok, r.Start, r.End, ring.NodeName(r.Owner))
	}
	// Output:
	// token 42: range (30, 50], owner A
	// token 97: range (95, 10], owner A
	// token 50: range (30, 50], owner A
}

func ExamplePlacement_AppendReplicaNames() {
	topo, ring := toyRing()
	defer topo.Close()
	defer ring.Close()
	repl, _ := tokenring.NewSimpleStrategy(2, 0)
	defer repl.Close()
	p, err := tokenring.BuildPlacement(ring, repl, 0)
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	names := make([]string, 0, 2) // reused: no allocation per lookup
	for _, tok := range []int64{42, 97} {
		names, _ = p.AppendReplicaNames(names[:0], tok)
		fmt.Println(tok, names)
	}
	// Output:
	// 42 [A C]
	// 97 [A B]
}

func ExamplePlacement_RouteKeys() {
	topo, ring := toyRing()
	defer topo.Close()
	defer ring.Close()
	repl, _ := tokenring.ParseReplication("{'class': 'NetworkTopologyStrategy', 'dc1': '3'}")
	defer repl.Close()
	p, _ := tokenring.BuildPlacement(ring, repl, 0)
	defer p.Close()

	batch := tokenring.NewKeyBatch(2, 16)
	batch.AddString("alice")
	batch.AddString("bob")
	tokens := make([]int64, batch.Len())
	sets := make([]uint32, batch.Len())
	if err := p.RouteKeys(tokens, sets, batch); err != nil { // one call into C
		log.Fatal(err)
	}
	for i := range sets {
		set, _ := p.Set(sets[i]) // shared, read-only
		fmt.Println(len(set.Nodes), tokens[i] == tokenring.Token(batch.Key(i)))
	}
	// Output:
	// 3 true
	// 3 true
}

func ExamplePlacement_RouteKeysReplicas() {
	topo, ring := toyRing()
	defer topo.Close()
	defer ring.Close()
	repl, _ := tokenring.NewSimpleStrategy(2, 0)
	defer repl.Close()
	p, _ := tokenring.BuildPlacement(ring, repl, 0)
	defer p.Close()

	batch := tokenring.NewKeyBatch(2, 16)
	batch.AddString("alice")
	batch.AddString("bob")
	// A call into C per 256 keys; reuse routed[:0] for the next batch.
	var routed []tokenring.Replicas
	routed, err := p.RouteKeysReplicas(routed[:0], nil, batch)
	if err != nil {
		log.Fatal(err)
	}
	for i, r := range routed { // r.Nodes is shared, read-only
		one, _ := p.ReplicasForKey(batch.Key(i))
		fmt.Println(string(batch.Key(i)), "range", r.Range, p.NodeName(int(r.Nodes[0])), p.NodeName(int(r.Nodes[1])),
			r.Range == one.Range && r.SetID == one.SetID)
	}
	// Output:
	// alice range 0 A B true
	// bob range 0 A B true
}

func ExamplePlacement_Ownership() {
	topo, ring := toyRing()
	defer topo.Close()
	defer ring.Close()
	repl, _ := tokenring.NewSimpleStrategy(2, 0)
	defer repl.Close()
	p, _ := tokenring.BuildPlacement(ring, repl, 0)
	defer p.Close()
	own, _ := p.Ownership()
	for _, o := range own {
		fmt.Printf("%s primary %s effective %s\n", o.Name, o.PrimaryWidth, o.EffectiveWidth)
	}
	// Output:
	// A primary 18446744073709551551 effective 18446744073709551586
	// B primary 35 effective 18446744073709551581
	// C primary 30 effective 65
}

func ExamplePlacement_DescribeRing() {
	topo, ring := toyRing()
	defer topo.Close()
	defer ring.Close()
	repl, _ := tokenring.NewSimpleStrategy(2, 0)
	defer repl.Close()
	p, _ := tokenring.BuildPlacement(ring, repl, 0)
	defer p.Close()
	lines, _ := p.DescribeRing()
	for _, l := range lines {
		fmt.Printf("(%d, %d] %v\n", l.Range.Start, l.Range.End, l.Endpoints)
	}
	// Output:
	// (95, 10] [A B]
	// (10, 30] [B A]
	// (30, 50] [A C]
	// (50, 65] [C B]
	// (65, 80] [B C]
	// (80, 95] [C A]
}

func ExampleTopology_AddNode_errors() {
	topo, _ := tokenring.NewTopology()
	defer topo.Close()
	_ = topo.AddNode("A", "dc1", "r1", []int64{10})
	err := topo.AddNode("B", "dc1", "r1", []int64{10})
	var e *tokenring.Error
	fmt.Println(errors.Is(err, tokenring.ErrExists), errors.As(err, &e) && e.Code == tokenring.CodeExists)
	// Output: true true
}

func ExampleRing_Close() {
	topo, ring := toyRing()
	topo.Close()
	ring.Close()
	_, err := ring.Owner(42)
	fmt.Println(errors.Is(err, tokenring.ErrClosed), ring.Close())
	// Output: true <nil>
}

// Example_swap publishes a new placement after a topology change while readers keep
// routing: an atomic pointer to the current generation, a reader count per generation,
// and Close on the old one once its readers are gone (see the package documentation).
func Example_swap() {
	type generation struct {
		p     *tokenring.Placement
		users atomic.Int64
	}
	topo, ring := toyRing()
	defer topo.Close()
	repl, _ := tokenring.NewSimpleStrategy(1, 0)
	defer repl.Close()
	p, _ := tokenring.BuildPlacement(ring, repl, 0)
	ring.Close() // the placement keeps its ring alive
	var current atomic.Pointer[generation]
	current.Store(&generation{p: p})

	owner := func(token int64) string { // a reader
		for {
			g := current.Load()
			g.users.Add(1)
			if current.Load() != g {
				g.users.Add(-1)
				continue
			}
			names, _ := g.p.AppendReplicaNames(nil, token)
			g.users.Add(-1)
			return names[0]
		}
	}
	fmt.Println(owner(42))

	// The writer: node D joins with token 40; 42 stays with A, 35 moves to D.
	_ = topo.AddNode("D", "dc1", "r1", []int64{40})
	next, _ := topo.Build()
	np, _ := tokenring.BuildPlacement(next, repl, 0)
	next.Close()
	old := current.Swap(&generation{p: np})
	for old.users.Load() != 0 {
		runtime.Gosched()
	}
	old.p.Close()

	fmt.Println(owner(42), owner(35))
	current.Load().p.Close()
	// Output:
	// A
	// A D
}

// A zero-value handle is not usable: its methods say so (ErrZeroValue) instead of
// panicking. Handles come from their constructors.
func ExampleTopology_zeroValue() {
	var topo tokenring.Topology
	err := topo.AddNode("A", "dc1", "r1", []int64{10})
	fmt.Println(errors.Is(err, tokenring.ErrZeroValue))
	fmt.Println(err)
	// Output:
	// true
	// tokenring: zero value: zero tokenring.Topology value: not made by NewTopology
}

// Errors read as Go errors, with the position for parse errors; errors.Is and errors.As
// still see the library's code.
func ExampleError() {
	c, _ := tokenring.NewCluster()
	defer c.Close()
	_, err := c.Parse(tokenring.FormatTopology, "node a dc=dc1 rack=r1 tokens=1\nnode b dc=dc1 rack=r1 tokens=1\n", 0)
	var e *tokenring.Error
	fmt.Println(errors.Is(err, tokenring.ErrExists), errors.As(err, &e) && e.Code == tokenring.CodeExists)
	fmt.Println(strings.HasPrefix(err.Error(), "tokenring: exists: "))
	// Output:
	// true true
	// true
}

// ParseReader reads a file, a pipe or an HTTP body: here `nodetool status` saved to a
// file (any io.Reader works).
func ExampleCluster_ParseReader() {
	f, err := os.CreateTemp("", "topology")
	if err != nil {
		log.Fatal(err)
	}
	defer os.Remove(f.Name())
	fmt.Fprint(f, "node 10.0.0.1 dc=dc1 rack=r1 tokens=-100,100\nnode 10.0.0.2 dc=dc1 rack=r2 tokens=0\n")
	f.Seek(0, 0)
	defer f.Close()

	c, _ := tokenring.NewCluster()
	defer c.Close()
	format, err := c.ParseReader(tokenring.FormatAuto, f, 0)
	nodes, _ := c.Nodes()
	fmt.Println(format, len(nodes), err)
	// Output: topology 2 <nil>
}

// A long analysis takes a context: cancel it (or let a deadline pass) and the call
// returns promptly with an error that errors.Is matches against context.Canceled.
// WithProgress reports how far it got.
func ExampleRing_AvailabilityContext() {
	topo, _ := tokenring.NewTopology()
	defer topo.Close()
	nodes := make([]tokenring.SeededNode, 12)
	for i := range nodes {
		nodes[i] = tokenring.SeededNode{Name: fmt.Sprintf("10.0.0.%d", i+1), Datacenter: "dc1", Rack: fmt.Sprintf("r%d", i%3+1)}
	}
	topo.AddSeededNodes(1, 16, nodes, 0)
	ring, _ := topo.Build()
	defer ring.Close()
	repl, _ := tokenring.ParseReplication("dc1=3")
	defer repl.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var reports int
	ctx = tokenring.WithProgress(ctx, func(done, total uint64) {
		reports++
		cancel() // a user pressed Stop as soon as the analysis started
	})
	_, err := ring.AvailabilityContext(ctx, repl, tokenring.Quorum, "", 3)
	fmt.Println(errors.Is(err, context.Canceled), errors.Is(err, tokenring.ErrCancelled), reports)

	sets, err := ring.AvailabilityContext(context.Background(), repl, tokenring.Quorum, "", 2)
	fmt.Println(len(sets) > 0, err)
	// Output:
	// true true 1
	// true <nil>
}

// A datacenter of the replication without nodes gets no replicas, as in Cassandra, with
// AllowUnknownDC; EmptyDatacenters names it so the caller can warn. When no replica at all
// results the build fails.
func ExamplePlacement_EmptyDatacenters() {
	topo, ring := toyRing()
	defer topo.Close()
	defer ring.Close()
	repl, _ := tokenring.ParseReplication("dc1=2, dc9=3")
	defer repl.Close()
	p, err := tokenring.BuildPlacement(ring, repl, tokenring.AllowUnknownDC)
	fmt.Println(p.EmptyDatacenters(), err)
	p.Close()

	only9, _ := tokenring.ParseReplication("dc9=3")
	defer only9.Close()
	_, err = tokenring.BuildPlacement(ring, only9, tokenring.AllowUnknownDC)
	fmt.Println(errors.Is(err, tokenring.ErrImpossible))
	fmt.Println(err)
	// Output:
	// [dc9] <nil>
	// true
	// tokenring: impossible: no replica: datacenter 'dc9' of the replication has no node in the ring (Cassandra places no replica in a datacenter without nodes)
}
