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

// A context that ends while a long call runs stops it at its next progress report, with
// no ProgressFunc attached (a terminal, a request handler, a batch job: no one watches the
// progress) and from another goroutine's clock. The calls below take seconds here; the
// context ends after ctxCancelAfter and the call must return well before it would finish.
// Their estimates are above the default work budget, so they run under an unlimited one
// (the context, not the budget, must stop them).

const (
	ctxCancelAfter = 30 * time.Millisecond
	ctxCancelLimit = 1500 * time.Millisecond
)

// longAvailability is a ring on which 3 failed nodes at QUORUM take a few hundred ms to
// enumerate: as long as the library's default work budget allows (the call has no budget
// argument), so a call that was not stopped returns no error and fails the test.
func longAvailability(t *testing.T) (*Ring, *Replication) {
	t.Helper()
	topo := seededCluster(t, 84, 16)
	defer topo.Close()
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	repl, err := ParseReplication("dc1=3")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ring.Close(); repl.Close() })
	return ring, repl
}

func expectStopped(t *testing.T, what string, err error, want error, took time.Duration) {
	t.Helper()
	if !errors.Is(err, want) || !errors.Is(err, ErrCancelled) {
		t.Fatalf("%s: %v, want an error matching %v and ErrCancelled", what, err, want)
	}
	if took > ctxCancelLimit {
		t.Errorf("%s returned %v after the call started (the context ended after %v)", what, took, ctxCancelAfter)
	}
}

// unlimited lets the long calls run until their context ends.
var unlimited = Limits{Budget: BudgetUnlimited}

// TestContextDeadlineStopsAvailability: a deadline passing during AvailabilityLimited.
func TestContextDeadlineStopsAvailability(t *testing.T) {
	ring, repl := longAvailability(t)
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), ctxCancelAfter)
	defer cancel()
	sets, err := ring.AvailabilityLimited(ctx, repl, Quorum, "", 3, unlimited)
	if sets != nil {
		t.Errorf("a stopped analysis returned %d sets", len(sets))
	}
	expectStopped(t, "AvailabilityLimited past its deadline", err, context.DeadlineExceeded, time.Since(start))
	if !strings.Contains(err.Error(), "context deadline exceeded") {
		t.Errorf("the error does not name the deadline: %v", err)
	}
}

// TestContextCancelStopsLongCalls: cancel() from a timer goroutine during
// AvailabilityLimited and AvailabilitySummaryLimited (150 single-node racks, 4 failed),
// both under an unlimited budget.
func TestContextCancelStopsLongCalls(t *testing.T) {
	ring, repl := longAvailability(t)
	racks, err := NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	nodes := make([]SeededNode, 150)
	for i := range nodes {
		nodes[i] = SeededNode{Name: fmt.Sprintf("n%d", i), Datacenter: "dc1", Rack: fmt.Sprintf("r%d", i)}
	}
	if err := racks.AddSeededNodes(7, 4, nodes, 0); err != nil {
		t.Fatal(err)
	}
	rackRing, err := racks.Build()
	racks.Close()
	if err != nil {
		t.Fatal(err)
	}
	defer rackRing.Close()
	calls := map[string]func(ctx context.Context) error{
		"AvailabilityLimited": func(ctx context.Context) error {
			_, err := ring.AvailabilityLimited(ctx, repl, Quorum, "", 3, unlimited)
			return err
		},
		"AvailabilitySummaryLimited": func(ctx context.Context) error {
			_, err := rackRing.AvailabilitySummaryLimited(ctx, repl, Quorum, "", FailRacks, 4, 10, unlimited)
			return err
		},
	}
	for name, call := range calls {
		start := time.Now()
		ctx, cancel := context.WithCancel(context.Background())
		timer := time.AfterFunc(ctxCancelAfter, cancel)
		err := call(ctx)
		took := time.Since(start)
		timer.Stop()
		cancel()
		expectStopped(t, name+" cancelled", err, context.Canceled, took)
	}
}
