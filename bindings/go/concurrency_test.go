// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"fmt"
	"math/rand"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// randomTopology makes nodes nodes in dcs datacenters (3 racks each) with vnodes random
// tokens per node.
func randomTopology(t testing.TB, rng *rand.Rand, nodes, vnodes, dcs int) *Topology {
	t.Helper()
	topo, err := NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for n := 0; n < nodes; n++ {
		toks := make([]int64, 0, vnodes)
		for len(toks) < vnodes {
			tok := int64(rng.Uint64())
			if !seen[tok] {
				seen[tok] = true
				toks = append(toks, tok)
			}
		}
		dc := fmt.Sprintf("dc%d", n%dcs+1)
		rack := fmt.Sprintf("r%d", (n/dcs)%3+1)
		if err := topo.AddNode(fmt.Sprintf("n%d", n), dc, rack, toks); err != nil {
			t.Fatal(err)
		}
	}
	return topo
}

// routingState is one published generation: a ring and a placement, and the answers
// every reader must get from them, computed when the generation is built (owners and
// replica sets per range, for a plain model search in Go).
type routingState struct {
	ring       *Ring
	p          *Placement
	generation int
	tokens     []int64
	owners     []uint32
	sets       [][]uint32 // replicas per range
	users      atomic.Int64
}

// TestConcurrentSwap: many goroutines read the current placement while a writer builds
// new rings and swaps them in with atomic.Pointer, closing each old generation once the
// readers that loaded it are done (the pattern of the package documentation). Run with
// -race. A second phase closes the old generation without waiting, which must give
// ErrClosed to late readers, never a crash or a wrong answer.
func TestConcurrentSwap(t *testing.T) {
	for _, wait := range []bool{true, false} {
		t.Run(fmt.Sprintf("wait=%v", wait), func(t *testing.T) { concurrentSwap(t, wait) })
	}
}

func concurrentSwap(t *testing.T, waitForReaders bool) {
	rng := rand.New(rand.NewSource(7))
	topo := randomTopology(t, rng, 12, 16, 2)
	defer topo.Close()
	repl, err := NewNetworkTopologyStrategy(map[string]int{"dc1": 3, "dc2": 2})
	if err != nil {
		t.Fatal(err)
	}
	defer repl.Close()

	build := func(gen int) *routingState {
		ring, err := topo.Build()
		if err != nil {
			t.Error(err)
			return nil
		}
		p, err := BuildPlacement(ring, repl, 0)
		if err != nil {
			t.Error(err)
			return nil
		}
		st := &routingState{ring: ring, p: p, generation: gen}
		st.tokens, _ = ring.Tokens()
		st.owners, _ = ring.TokenNodes()
		for i := range st.tokens {
			r, err := p.RangeReplicas(i)
			if err != nil {
				t.Error(err)
			}
			st.sets = append(st.sets, r.Nodes)
		}
		return st
	}
	var current atomic.Pointer[routingState]
	current.Store(build(0))

	const readers = 8
	const generations = 20
	var stop atomic.Bool
	var lookups, closedSeen atomic.Int64
	var wg sync.WaitGroup
	for g := 0; g < readers; g++ {
		wg.Add(1)
		go func(seed int64) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(seed))
			dst := make([]uint32, 0, 8)
			batch := NewKeyBatch(64, 64*16)
			ids := make([]uint32, 64)
			toks := make([]int64, 64)
			key := make([]byte, 16)
			for !stop.Load() {
				// Announce ourselves on the generation we loaded, then make sure it is
				// still current: otherwise the writer may already have stopped waiting.
				st := current.Load()
				st.users.Add(1)
				if waitForReaders && current.Load() != st {
					st.users.Add(-1)
					continue
				}
				lookups.Add(1 + int64(readOne(t, st, rng, dst, batch, ids, toks, key, waitForReaders, &closedSeen)))
				st.users.Add(-1)
			}
		}(int64(g))
	}

	for gen := 1; gen <= generations; gen++ {
		time.Sleep(2 * time.Millisecond)
		// A topology change: move one node to fresh tokens.
		victim := fmt.Sprintf("n%d", rng.Intn(12))
		toks := make([]int64, 16)
		for i := range toks {
			toks[i] = int64(rng.Uint64())
		}
		if err := topo.SetTokens(victim, toks); err != nil {
			t.Fatal(err)
		}
		next := build(gen)
		if next == nil {
			break
		}
		old := current.Swap(next)
		if waitForReaders {
			for old.users.Load() != 0 {
				runtime.Gosched()
			}
		}
		old.p.Close()
		old.ring.Close()
	}
	stop.Store(true)
	wg.Wait()
	last := current.Load()
	last.p.Close()
	last.ring.Close()
	if lookups.Load() == 0 {
		t.Fatal("readers did no lookups")
	}
	if waitForReaders && closedSeen.Load() != 0 {
		t.Fatalf("%d readers saw a closed placement although the writer waited", closedSeen.Load())
	}
	t.Logf("%d lookups over %d generations, %d saw ErrClosed", lookups.Load(), generations, closedSeen.Load())
}

// readOne does one single lookup and one batch of 64 keys on st and checks them against
// the model; it returns the number of batched keys routed.
func readOne(t *testing.T, st *routingState, rng *rand.Rand, dst []uint32, batch *KeyBatch, ids []uint32,
	toks []int64, key []byte, waitForReaders bool, closedSeen *atomic.Int64) int {
	closedOK := func(err error) bool {
		if errors.Is(err, ErrClosed) && !waitForReaders {
			closedSeen.Add(1)
			return true
		}
		t.Errorf("generation %d: %v", st.generation, err)
		return false
	}
	tok := int64(rng.Uint64())
	want := modelRange(st.tokens, tok)
	owner, err := st.ring.Owner(tok)
	if err != nil {
		closedOK(err)
		return 0
	}
	if uint32(owner) != st.owners[want] {
		t.Errorf("generation %d: owner of %d is %d, model says %d", st.generation, tok, owner, st.owners[want])
	}
	dst, err = st.p.AppendReplicas(dst[:0], tok)
	if err != nil {
		closedOK(err)
		return 0
	}
	if fmt.Sprint(dst) != fmt.Sprint(st.sets[want]) {
		t.Errorf("generation %d: replicas of %d are %v, model says %v", st.generation, tok, dst, st.sets[want])
	}
	batch.Reset()
	for i := 0; i < len(ids); i++ {
		rng.Read(key)
		batch.Add(key)
	}
	if err := st.p.RouteKeys(toks, ids, batch); err != nil {
		closedOK(err)
		return 0
	}
	for i := range ids {
		set, err := st.p.Set(ids[i])
		if err != nil {
			closedOK(err)
			return 0
		}
		if r := modelRange(st.tokens, toks[i]); fmt.Sprint(set.Nodes) != fmt.Sprint(st.sets[r]) {
			t.Errorf("generation %d: batched replicas of %d are %v, model says %v", st.generation, toks[i], set.Nodes, st.sets[r])
		}
	}
	return len(ids)
}

// modelRange is the plain search: the index of the first token >= tok, wrapping.
func modelRange(tokens []int64, tok int64) int {
	lo, hi := 0, len(tokens)
	for lo < hi {
		m := (lo + hi) / 2
		if tokens[m] < tok {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(tokens) {
		lo = 0
	}
	return lo
}

// TestFinalizer: handles dropped without Close are freed by the finalizer without
// crashing (the C allocations go through the library's own allocator either way).
func TestFinalizer(t *testing.T) {
	for i := 0; i < 50; i++ {
		topo := toyTopology(t)
		ring, _ := topo.Build()
		repl, _ := NewSimpleStrategy(2, 0)
		p, _ := BuildPlacement(ring, repl, 0)
		if _, err := p.Replicas(42); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.GC()
}
