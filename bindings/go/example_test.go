// SPDX-License-Identifier: Apache-2.0

package tokenring_test

import (
	"errors"
	"fmt"
	"log"
	"runtime"
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
