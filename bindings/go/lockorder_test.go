// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"context"
	"fmt"
	"math/rand"
	"sync"
	"testing"
	"time"
)

// Calls taking two handles lock them in one order whatever the argument order (see
// lockAll). Before, Ring.Balance(p) read-locked the ring then the placement while
// Placement.Update(ring) read-locked the placement then the ring: with a Close pending on
// each (a waiting writer blocks new readers) the two calls waited for each other for ever.
// Likewise TokensKept(a, b) against TokensKept(b, a), and Topology.AllocateJoin(keyspace)
// (keyspace, then topology) against Topology.SimulateJoin(keyspace) (address order): the
// last pair deadlocked even without a Close. Each test runs short trials for a bounded
// time and fails, rather than hangs, when a trial does not finish in time (the handles
// are closed only after the trials: a deferred Close would wait for the deadlocked calls).

const (
	lockTrialBudget  = 400 * time.Millisecond // per test: the suite runs on two cores under -race
	lockTrialTimeout = 10 * time.Second       // a trial this late is a deadlock
)

// trials runs trial until the budget is spent, each under the deadlock timeout.
func trials(t *testing.T, trial func(i int)) {
	t.Helper()
	start := time.Now()
	n := 0
	for ; time.Since(start) < lockTrialBudget; n++ {
		done := make(chan struct{})
		go func(i int) { defer close(done); trial(i) }(n)
		select {
		case <-done:
		case <-time.After(lockTrialTimeout):
			t.Fatalf("trial %d did not finish in %v: deadlock", n, lockTrialTimeout)
		}
	}
	t.Logf("%d trials", n)
}

// smallRing is a ring of nodes nodes (two racks, vnodes random tokens each) and its
// placement under dc1=2.
func smallRing(t *testing.T, rng *rand.Rand, nodes, vnodes int) (*Topology, *Ring, *Replication, *Placement) {
	t.Helper()
	topo, err := NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	seen := map[int64]bool{}
	for n := 0; n < nodes; n++ {
		toks := make([]int64, 0, vnodes)
		for len(toks) < vnodes {
			if tok := int64(rng.Uint64()); !seen[tok] {
				seen[tok] = true
				toks = append(toks, tok)
			}
		}
		if err := topo.AddNode(fmt.Sprintf("n%d", n), "dc1", fmt.Sprintf("r%d", n%2), toks); err != nil {
			t.Fatal(err)
		}
	}
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	repl, err := ParseReplication("dc1=2")
	if err != nil {
		t.Fatal(err)
	}
	p, err := BuildPlacement(ring, repl, 0)
	if err != nil {
		t.Fatal(err)
	}
	return topo, ring, repl, p
}

// spin calls f until it fails (its handle was closed).
func spin(wg *sync.WaitGroup, f func() error) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		for f() == nil {
		}
	}()
}

// closeSoon closes each handle from its own goroutine after a short random delay.
func closeSoon(wg *sync.WaitGroup, rng *rand.Rand, hs ...interface{ Close() error }) {
	for _, h := range hs {
		d := time.Duration(rng.Intn(300)) * time.Microsecond
		wg.Add(1)
		go func(h interface{ Close() error }) {
			defer wg.Done()
			time.Sleep(d)
			h.Close()
		}(h)
	}
}

// TestLockOrderBalanceUpdate: Ring.Balance(p) and Placement.Update(ring) in loops while
// both handles are closed.
func TestLockOrderBalanceUpdate(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	topo, ring0, repl, p0 := smallRing(t, rng, 8, 16)
	trials(t, func(i int) {
		ring, _ := ring0.Ref()
		p, _ := p0.Ref()
		var wg sync.WaitGroup
		spin(&wg, func() error { _, _, err := ring.Balance(p, "", ""); return err })
		spin(&wg, func() error {
			np, err := p.Update(ring)
			if err == nil {
				np.Close()
			}
			return err
		})
		spin(&wg, func() error { _, err := ring.Ownership(p); return err })
		closeSoon(&wg, rand.New(rand.NewSource(int64(i))), ring, p)
		wg.Wait()
	})
	topo.Close()
	repl.Close()
	ring0.Close()
	p0.Close()
}

// TestLockOrderTokensKept: TokensKept(a, b) against TokensKept(b, a), TokensKept(a, a)
// (one read lock, never two) and a pending Close on each ring.
func TestLockOrderTokensKept(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	topo, a0, repl, p := smallRing(t, rng, 6, 8)
	topo.SetTokens("n0", []int64{1, 2, 3})
	b0, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	trials(t, func(i int) {
		a, _ := a0.Ref()
		b, _ := b0.Ref()
		var wg sync.WaitGroup
		spin(&wg, func() error { _, _, _, err := TokensKept(a, b); return err })
		spin(&wg, func() error { _, _, _, err := TokensKept(b, a); return err })
		spin(&wg, func() error { _, _, _, err := TokensKept(a, a); return err })
		closeSoon(&wg, rand.New(rand.NewSource(int64(i))), a, b)
		wg.Wait()
	})
	topo.Close()
	repl.Close()
	p.Close()
	a0.Close()
	b0.Close()
}

// TestLockOrderJoinKeyspace: AllocateJoin(keyspace) and SimulateJoin(keyspace) on the
// same topology and replication, with no Close at all: before, the first locked the
// keyspace then the topology, the second the lower address first.
func TestLockOrderJoinKeyspace(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	topo, ring, repl, p := smallRing(t, rng, 6, 4)
	trials(t, func(i int) {
		var wg sync.WaitGroup
		for g := 0; g < 2; g++ {
			wg.Add(2)
			go func() {
				defer wg.Done()
				for j := 0; j < 20; j++ {
					if _, err := topo.AllocateJoin(4, "x", "dc1", "r0", repl, 0, Cassandra50); err != nil {
						t.Error(err)
						return
					}
				}
			}()
			go func() {
				defer wg.Done()
				for j := 0; j < 20; j++ {
					if _, err := topo.SimulateJoin(repl, "x", "dc1", "r0", []int64{42}, nil); err != nil {
						t.Error(err)
						return
					}
				}
			}()
		}
		wg.Wait()
	})
	topo.Close()
	ring.Close()
	repl.Close()
	p.Close()
}

// holdWrite write-locks h's mutex (a Close in progress): every call locking h waits.
func holdWrite(h handle) (release func()) {
	switch v := h.(type) {
	case *Ring:
		v.mu.Lock()
		return v.mu.Unlock
	case *Placement:
		v.mu.Lock()
		return v.mu.Unlock
	case *Topology:
		v.mu.Lock()
		return v.mu.Unlock
	case *Replication:
		v.mu.Lock()
		return v.mu.Unlock
	case *Cluster:
		v.mu.Lock()
		return v.mu.Unlock
	}
	panic("not a handle")
}

// held reports whether some call holds h locked (its write lock is not free).
func held(h handle) bool {
	var ok bool
	switch v := h.(type) {
	case *Ring:
		if ok = v.mu.TryLock(); ok {
			v.mu.Unlock()
		}
	case *Placement:
		if ok = v.mu.TryLock(); ok {
			v.mu.Unlock()
		}
	case *Topology:
		if ok = v.mu.TryLock(); ok {
			v.mu.Unlock()
		}
	case *Replication:
		if ok = v.mu.TryLock(); ok {
			v.mu.Unlock()
		}
	}
	return !ok
}

// locksFirst reports whether call locks x before y: with y write-locked, call runs until
// it blocks on y; x is then held exactly when call locked it first.
func locksFirst(x, y handle, call func()) bool {
	release := holdWrite(y)
	done := make(chan struct{})
	go func() { defer close(done); call() }()
	first := false
	for start := time.Now(); time.Since(start) < 100*time.Millisecond && !first; time.Sleep(time.Millisecond) {
		first = held(x)
	}
	release()
	<-done
	return first
}

// TestLockOrderConsistent: every pair of calls on the same two handles locks them in the
// same order, whatever the order of the arguments (deterministic: one handle is held
// write-locked, and the test looks whether the call holds the other while it waits).
// Before, Ring.Balance(p) took the ring first and Placement.Update(ring) the placement,
// TokensKept(a, b) took a first and TokensKept(b, a) b, AllocateJoin the keyspace first.
func TestLockOrderConsistent(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	topo, ring, repl, p := smallRing(t, rng, 4, 2)
	defer topo.Close()
	defer ring.Close()
	defer repl.Close()
	defer p.Close()
	ring2, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer ring2.Close()
	type namedCall struct {
		name string
		call func()
	}
	pairs := []struct {
		x, y  handle
		calls []namedCall
	}{
		{ring, p, []namedCall{
			{"Ring.Balance(p)", func() { ring.Balance(p, "", "") }},
			{"Placement.Update(ring)", func() { p.Update(ring) }},
			{"Ring.Ownership(p)", func() { ring.Ownership(p) }},
		}},
		{ring, ring2, []namedCall{
			{"TokensKept(a, b)", func() { TokensKept(ring, ring2) }},
			{"TokensKept(b, a)", func() { TokensKept(ring2, ring) }},
		}},
		{topo, repl, []namedCall{
			{"Topology.AllocateJoin(repl)", func() { topo.AllocateJoin(2, "x", "dc1", "r0", repl, 0, Cassandra50) }},
			{"Topology.SimulateJoin(repl)", func() { topo.SimulateJoin(repl, "x", "dc1", "r0", []int64{42}, nil) }},
			{"Topology.SimulateDecommission(repl)", func() { topo.SimulateDecommission(repl, "n0", nil) }},
			{"Topology.AllocateJoinLimited(repl)", func() {
				topo.AllocateJoinLimited(2, "x", "dc1", "r0", repl, 0, Cassandra50, Limits{})
			}},
		}},
		{ring, repl, []namedCall{
			{"BuildPlacement(ring, repl)", func() {
				np, err := BuildPlacement(ring, repl, 0)
				if err == nil {
					np.Close()
				}
			}},
			{"Ring.Availability(repl)", func() { ring.Availability(repl, One, "", 1) }},
			{"Ring.EmptyDatacenters(repl)", func() { ring.EmptyDatacenters(repl) }},
			{"Ring.AvailabilityLimited(repl)", func() { ring.AvailabilityLimited(context.Background(), repl, One, "", 1, Limits{}) }},
			{"Ring.AvailabilitySummaryLimited(repl)", func() {
				ring.AvailabilitySummaryLimited(context.Background(), repl, One, "", FailNodes, 1, 0, Limits{})
			}},
		}},
	}
	for _, pr := range pairs {
		// Whichever of the two the package locks first, every call must agree, in both
		// probes (x held back, then y held back).
		for _, probe := range [][2]handle{{pr.x, pr.y}, {pr.y, pr.x}} {
			want := locksFirst(probe[0], probe[1], pr.calls[0].call)
			for _, c := range pr.calls[1:] {
				if got := locksFirst(probe[0], probe[1], c.call); got != want {
					t.Errorf("%s and %s lock their two handles in different orders", pr.calls[0].name, c.name)
				}
			}
		}
	}
}

// TestLockAllOrder: lockAll locks in address order whatever the argument order, each
// handle once, and reports the first nil, closed or zero handle in argument order with
// nothing left locked.
func TestLockAllOrder(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	topo, ring, repl, p := smallRing(t, rng, 3, 1)
	defer topo.Close()
	defer repl.Close()
	unlock, err := lockAll(p, ring, p, ring, repl, topo)
	if err != nil {
		t.Fatal(err)
	}
	// A read lock taken twice would let this TryLock fail after unlock.
	unlock()
	for _, h := range []handle{topo, ring, repl, p} {
		h.lock()
		h.unlock()
	}
	if !ring.mu.TryLock() || !p.mu.TryLock() || !repl.mu.TryLock() || !topo.mu.TryLock() {
		t.Fatal("a lock is still held after unlock")
	}
	ring.mu.Unlock()
	p.mu.Unlock()
	repl.mu.Unlock()
	topo.mu.Unlock()
	ring.Close()
	if _, err := lockAll(topo, (*Replication)(nil), ring); err == nil || err.Error() != "tokenring: invalid argument: nil *tokenring.Replication" {
		t.Fatalf("nil handle: %v", err)
	}
	if _, err := lockAll(topo, ring, p); err != ErrClosed && !isClosed(err) {
		t.Fatalf("closed ring: %v", err)
	}
	if !topo.mu.TryLock() || !p.mu.TryLock() {
		t.Fatal("a lock is held after a refused lockAll")
	}
	topo.mu.Unlock()
	p.mu.Unlock()
	p.Close()
}

func isClosed(err error) bool {
	e, ok := err.(*Error)
	return ok && e.Code == CodeClosed
}
