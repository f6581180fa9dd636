// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// A placement from given lists (the server's order) answers exactly those lists, says
// its order, and refuses Update and bad lists.
func TestPlacementFromLists(t *testing.T) {
	rnd := rand.New(rand.NewSource(29))
	topo, err := NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	for i := 0; i < 6; i++ {
		toks := make([]int64, 4)
		for k := range toks {
			toks[k] = int64(rnd.Uint64())
		}
		if err := topo.AddNode(fmt.Sprintf("n%d", i), fmt.Sprintf("dc%d", i%2+1), "r1", toks); err != nil {
			t.Fatal(err)
		}
	}
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer ring.Close()
	repl, err := ParseReplication("dc1=2,dc2=2")
	if err != nil {
		t.Fatal(err)
	}
	defer repl.Close()
	computed, err := BuildPlacement(ring, repl, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer computed.Close()
	if o, err := computed.Order(); err != nil || o != OrderTokens || o.String() != "tokens" {
		t.Fatalf("computed order %v %v", o, err)
	}
	starts, nodes, err := computed.RangeReplicaNodes()
	if err != nil {
		t.Fatal(err)
	}
	// reverse every list: an order no walk of the tokens gives
	for i := 0; i+1 < len(starts); i++ {
		l := nodes[starts[i]:starts[i+1]]
		for a, b := 0, len(l)-1; a < b; a, b = a+1, b-1 {
			l[a], l[b] = l[b], l[a]
		}
	}
	given, err := PlacementFromLists(ring, repl, starts, nodes, nil, OrderServer)
	if err != nil {
		t.Fatal(err)
	}
	defer given.Close()
	if o, _ := given.Order(); o != OrderServer || o.String() != "server" {
		t.Fatalf("given order %v", o)
	}
	for i := 0; i+1 < len(starts); i++ {
		r, err := given.RangeReplicas(i)
		if err != nil {
			t.Fatal(err)
		}
		want := nodes[starts[i]:starts[i+1]]
		if fmt.Sprint(r.Nodes) != fmt.Sprint(want) {
			t.Fatalf("range %d: %v, given %v", i, r.Nodes, want)
		}
	}
	if _, err := given.Update(ring); err != nil {
		t.Fatalf("update on the same ring: %v", err)
	}
	topo.RemoveNode("n5")
	other, _ := topo.Build()
	defer other.Close()
	_, err = given.Update(other)
	var te *Error
	if !errors.As(err, &te) || te.Code != CodeUnsupported || !strings.Contains(te.Message, "server's order") {
		t.Fatalf("update of a given order: %v", err)
	}
	// a node twice in one list
	bad := append([]uint32(nil), nodes...)
	bad[starts[3]+1] = bad[starts[3]]
	if _, err := PlacementFromLists(ring, repl, starts, bad, nil, OrderHistory); err == nil || !strings.Contains(err.Error(), "range 3") || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("duplicate: %v", err)
	}
	if _, err := PlacementFromLists(ring, repl, starts[1:], nodes, nil, OrderServer); err == nil || !strings.Contains(err.Error(), "offsets for a ring") {
		t.Fatalf("short starts: %v", err)
	}
	if _, err := PlacementFromLists(ring, repl, starts, nodes[:3], nil, OrderServer); err == nil || !strings.Contains(err.Error(), "past the") {
		t.Fatalf("short nodes: %v", err)
	}
	if _, err := PlacementFromLists(ring, repl, starts, nodes, nil, OrderTokens); err == nil {
		t.Fatal("OrderTokens accepted")
	}
	if _, err := PlacementFromLists(nil, repl, starts, nodes, nil, OrderServer); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil ring: %v", err)
	}
	hist, err := PlacementFromLists(ring, repl, starts, nodes, []uint32{nodes[1], nodes[0]}, OrderHistory)
	if err != nil {
		t.Fatal(err)
	}
	if o, _ := hist.Order(); o != OrderHistory || o.String() != "history" || ReplicaOrder(9).String() != "ReplicaOrder(?)" {
		t.Fatalf("history order %v", o)
	}
	hist.Close()
	if _, err := hist.Order(); err == nil {
		t.Fatal("Order after Close")
	}
}
