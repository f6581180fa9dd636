package tokenring

import (
	"errors"
	"fmt"
	"math/rand"
	"reflect"
	"testing"
)

// Update after a join, a decommission and a move equals a full build of the new ring,
// range by range, and leaves the previous placement as it was.
func TestPlacementUpdate(t *testing.T) {
	rnd := rand.New(rand.NewSource(11))
	tokens := func(n int) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = int64(rnd.Uint64())
		}
		return out
	}
	topo, err := NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	for i := 0; i < 18; i++ {
		if err := topo.AddNode(fmt.Sprintf("n%02d", i), fmt.Sprintf("dc%d", i%3+1), fmt.Sprintf("r%d", i/3%3), tokens(16)); err != nil {
			t.Fatal(err)
		}
	}
	repl, err := ParseReplication("dc1=3,dc2=3,dc3=2")
	if err != nil {
		t.Fatal(err)
	}
	defer repl.Close()
	ring, _ := topo.Build()
	defer ring.Close()
	prev, err := BuildPlacement(ring, repl, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer prev.Close()
	before, _ := prev.RangeReplicas(0)

	changes := []func() error{
		func() error { return topo.AddNode("joined", "dc2", "r1", tokens(16)) },
		func() error { return topo.RemoveNode("n04") },
		func() error { return topo.SetTokens("n07", tokens(5)) },
	}
	for k, change := range changes {
		if err := change(); err != nil {
			t.Fatal(err)
		}
		next, err := topo.Build()
		if err != nil {
			t.Fatal(err)
		}
		upd, err := prev.Update(next)
		if err != nil {
			t.Fatalf("change %d: %v", k, err)
		}
		full, err := BuildPlacement(next, repl, 0)
		if err != nil {
			t.Fatal(err)
		}
		if upd.SetCount() != full.SetCount() {
			t.Errorf("change %d: %d sets, a full build has %d", k, upd.SetCount(), full.SetCount())
		}
		toks, _ := next.Tokens()
		for i := range toks {
			a, _ := upd.RangeReplicas(i)
			b, _ := full.RangeReplicas(i)
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("change %d, range %d: update %+v, full build %+v", k, i, a, b)
			}
		}
		full.Close()
		next.Close()
		prev.Close()
		prev = upd
	}
	if _, err := prev.Update(nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("Update(nil): %v, want ErrInvalid", err)
	}
	closed, _ := topo.Build()
	closed.Close()
	if _, err := prev.Update(closed); !errors.Is(err, ErrClosed) {
		t.Errorf("Update(closed ring): %v, want ErrClosed", err)
	}
	// the same ring: an equal placement
	same, err := prev.Update(ring)
	if err != nil {
		t.Fatal(err)
	}
	defer same.Close()
	a, _ := same.RangeReplicas(0)
	if !reflect.DeepEqual(a, before) {
		t.Errorf("update to the original ring: %+v, want %+v", a, before)
	}
}
