// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"context"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"
)

// seededCluster is n nodes of datacenter dc1 over three racks with seeded tokens.
func seededCluster(t testing.TB, n, tokens int) *Topology {
	t.Helper()
	topo, err := NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	nodes := make([]SeededNode, n)
	for i := range nodes {
		nodes[i] = SeededNode{Name: fmt.Sprintf("10.0.0.%d", i+1), Datacenter: "dc1", Rack: fmt.Sprintf("r%d", i%3+1)}
	}
	if err := topo.AddSeededNodes(7, tokens, nodes, 0); err != nil {
		t.Fatal(err)
	}
	return topo
}

// callAll calls every exported method of recv with zero arguments (a zero handle for a
// handle pointer, context.Background for a context) and returns the errors by method.
// A panic fails the test.
func callAll(t *testing.T, recv any) map[string]error {
	t.Helper()
	v := reflect.ValueOf(recv)
	errType := reflect.TypeOf((*error)(nil)).Elem()
	ctxType := reflect.TypeOf((*context.Context)(nil)).Elem()
	out := map[string]error{}
	for i := 0; i < v.NumMethod(); i++ {
		m := v.Type().Method(i)
		if m.Name == "Close" {
			continue
		}
		ft := v.Method(i).Type()
		args := make([]reflect.Value, ft.NumIn())
		for j := range args {
			at := ft.In(j)
			switch {
			case at == ctxType:
				args[j] = reflect.ValueOf(context.Background())
			case at.Kind() == reflect.Pointer && at.Elem().Kind() == reflect.Struct:
				args[j] = reflect.New(at.Elem()) // a zero handle (or struct)
			case ft.IsVariadic() && j == len(args)-1:
				args[j] = reflect.Zero(at)
			default:
				args[j] = reflect.Zero(at)
			}
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%T.%s on a zero value panics: %v", recv, m.Name, p)
				}
			}()
			var res []reflect.Value
			if ft.IsVariadic() {
				res = v.Method(i).CallSlice(args)
			} else {
				res = v.Method(i).Call(args)
			}
			if n := len(res); n > 0 && res[n-1].Type() == errType {
				err, _ := res[n-1].Interface().(error)
				out[m.Name] = err
			}
		}()
	}
	return out
}

func TestZeroValueHandles(t *testing.T) {
	for _, c := range []struct {
		recv any
		typ  string
	}{
		{&Topology{}, "Topology"}, {&Ring{}, "Ring"}, {&Replication{}, "Replication"},
		{&Placement{}, "Placement"}, {&Cluster{}, "Cluster"},
	} {
		errs := callAll(t, c.recv)
		zero := 0
		for name, err := range errs {
			if err == nil && name == "SearchBatch" {
				continue // an empty batch is nothing to do, whatever the ring
			}
			if err == nil {
				t.Errorf("%s.%s on a zero value returned no error", c.typ, name)
				continue
			}
			if errors.Is(err, ErrClosed) {
				t.Errorf("%s.%s on a zero value says closed: %v", c.typ, name, err)
			}
			if errors.Is(err, ErrZeroValue) {
				zero++
				if !strings.Contains(err.Error(), "zero tokenring."+c.typ+" value") {
					t.Errorf("%s.%s: %q does not name the type", c.typ, name, err)
				}
			}
		}
		if zero == 0 {
			t.Errorf("no method of a zero %s returned ErrZeroValue (%d methods)", c.typ, len(errs))
		}
	}
	// The everyday calls, by hand.
	var topo Topology
	expectErr(t, "AddNode on a zero Topology", topo.AddNode("a", "dc1", "r1", []int64{1}), ErrZeroValue, "NewTopology")
	if _, err := topo.Build(); !errors.Is(err, ErrZeroValue) {
		t.Errorf("Build on a zero Topology: %v", err)
	}
	if topo.NodeCount() != 0 {
		t.Error("NodeCount of a zero Topology")
	}
	var ring Ring
	if _, err := ring.Owner(0); !errors.Is(err, ErrZeroValue) || !strings.Contains(err.Error(), "Topology.Build") {
		t.Errorf("Owner on a zero Ring: %v", err)
	}
	if ring.NodeName(0) != "" || ring.NodeCount() != 0 {
		t.Error("zero Ring names or counts nodes")
	}
	var repl Replication
	if repl.String() != "<zero Replication>" || repl.Strategy() != 0 {
		t.Errorf("zero Replication: %q %v", repl.String(), repl.Strategy())
	}
	real := seededCluster(t, 3, 4)
	defer real.Close()
	r, err := real.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := BuildPlacement(r, &repl, 0); !errors.Is(err, ErrZeroValue) || !strings.Contains(err.Error(), "ParseReplication") {
		t.Errorf("BuildPlacement with a zero Replication: %v", err)
	}
	var p Placement
	if _, err := p.Replicas(0); !errors.Is(err, ErrZeroValue) {
		t.Errorf("Replicas on a zero Placement: %v", err)
	}
	var cl Cluster
	if _, err := cl.Parse(FormatAuto, "x", 0); !errors.Is(err, ErrZeroValue) {
		t.Errorf("Parse on a zero Cluster: %v", err)
	}
	// Closing a zero value is harmless; afterwards it is still a zero value, not closed.
	if err := topo.Close(); err != nil {
		t.Fatal(err)
	}
	expectErr(t, "AddNode on a closed zero Topology", topo.AddNode("a", "dc1", "r1", []int64{1}), ErrZeroValue, "")
	// A closed handle stays ErrClosed.
	closed := seededCluster(t, 1, 1)
	closed.Close()
	expectErr(t, "AddNode after Close", closed.AddNode("a", "dc1", "r1", []int64{1}), ErrClosed, "")
}

func TestErrorText(t *testing.T) {
	c, _ := NewCluster()
	defer c.Close()
	_, err := c.Parse(FormatTopology, "node a dc=dc1 rack=r1 tokens=1\nnode b dc=dc1 rack=r1 tokens=zzz\n", 0)
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrParse) || e.Line != 2 {
		t.Fatalf("parse error %v", err)
	}
	want := fmt.Sprintf("tokenring: parse: line 2, column %d: %s", e.Column, e.Message)
	if err.Error() != want || !strings.HasPrefix(err.Error(), "tokenring: parse: line 2, column ") {
		t.Errorf("parse error reads %q, want %q", err, want)
	}
	topo := seededCluster(t, 3, 4)
	defer topo.Close()
	ring, _ := topo.Build()
	defer ring.Close()
	repl, _ := ParseReplication("dc9=3")
	defer repl.Close()
	_, err = BuildPlacement(ring, repl, 0)
	if !errors.Is(err, ErrNotFound) || err.Error() != "tokenring: not found: datacenter 'dc9' of the replication has no node in the ring" {
		t.Errorf("unknown datacenter reads %q", err)
	}
	for code, kind := range map[Code]string{CodeInvalid: "invalid argument", CodeRange: "out of range", CodeClosed: "closed",
		CodeCancelled: "cancelled", CodeZeroValue: "zero value", Code(-77): "TOKENRING_E_UNKNOWN"} {
		if code.Kind() != kind {
			t.Errorf("%d.Kind() = %q, want %q", code, code.Kind(), kind)
		}
	}
	if ErrClosed.Error() != "tokenring: closed: use of a closed handle" {
		t.Errorf("ErrClosed reads %q", ErrClosed)
	}
	if CodeCancelled.Name() != "TOKENRING_E_CANCELLED" || CodeZeroValue.Name() != "TOKENRING_GO_ZERO_VALUE" {
		t.Errorf("names %s %s", CodeCancelled.Name(), CodeZeroValue.Name())
	}
}

func TestParseReader(t *testing.T) {
	const text = "node a dc=dc1 rack=r1 tokens=1,100\nnode b dc=dc1 rack=r2 tokens=50\n"
	want, _ := NewCluster()
	defer want.Close()
	if _, err := want.Parse(FormatAuto, text, 0); err != nil {
		t.Fatal(err)
	}
	wantText, _ := want.Format()
	for name, parse := range map[string]func(c *Cluster) (InputFormat, error){
		"reader": func(c *Cluster) (InputFormat, error) {
			return c.ParseReader(FormatAuto, iotest.OneByteReader(strings.NewReader(text)), 0)
		},
		"bytes": func(c *Cluster) (InputFormat, error) { return c.ParseBytes(FormatAuto, []byte(text), 0) },
	} {
		c, _ := NewCluster()
		f, err := parse(c)
		if err != nil || f != FormatTopology {
			t.Fatalf("%s: %v %v", name, f, err)
		}
		got, _ := c.Format()
		if got != wantText {
			t.Errorf("%s parsed\n%s\nwant\n%s", name, got, wantText)
		}
		c.Close()
	}
	// Errors keep their position through a reader; a failing reader is wrapped.
	c, _ := NewCluster()
	defer c.Close()
	_, err := c.ParseReader(FormatTopology, strings.NewReader("node a dc=dc1 rack=r1 tokens=zzz\n"), 0)
	var e *Error
	if !errors.As(err, &e) || e.Line != 1 || !errors.Is(err, ErrParse) {
		t.Errorf("malformed input through a reader: %v", err)
	}
	broken := errors.New("disk on fire")
	_, err = c.ParseReader(FormatAuto, io.MultiReader(strings.NewReader(text), iotest.ErrReader(broken)), 0)
	if !errors.Is(err, broken) || !strings.HasPrefix(err.Error(), "tokenring: parse: reading input: ") {
		t.Errorf("failing reader: %v", err)
	}
	if n, _ := c.Nodes(); len(n) != 0 {
		t.Errorf("a failed read left %d nodes", len(n))
	}
	_, err = c.ParseReader(FormatAuto, nil, 0)
	expectErr(t, "nil reader", err, ErrInvalid, "")
	_, err = c.ParseBytes(FormatAuto, nil, 0)
	expectErr(t, "empty bytes", err, ErrParse, "")
}

// cancelAt returns a context that is cancelled from inside the progress report number n,
// and a counter of the reports made after it was cancelled.
func cancelAt(n int) (context.Context, *int, *[2]uint64) {
	ctx, cancel := context.WithCancel(context.Background())
	calls, after := 0, 0
	var last [2]uint64
	return WithProgress(ctx, func(done, total uint64) {
		calls++
		if ctx.Err() != nil {
			after++
		}
		last = [2]uint64{done, total}
		if calls == n {
			cancel()
		}
	}), &after, &last
}

func expectCancelled(t *testing.T, what string, err error, after int) {
	t.Helper()
	var e *Error
	if !errors.Is(err, context.Canceled) || !errors.Is(err, ErrCancelled) || !errors.As(err, &e) || e.Code != CodeCancelled {
		t.Fatalf("%s: %v, want a cancelled error", what, err)
	}
	if !strings.HasPrefix(err.Error(), "tokenring: cancelled: ") {
		t.Errorf("%s reads %q", what, err)
	}
	if after != 0 {
		t.Errorf("%s: %d progress reports after the cancel", what, after)
	}
}

func TestAvailabilityContext(t *testing.T) {
	topo := seededCluster(t, 40, 4)
	defer topo.Close()
	ring, _ := topo.Build()
	defer ring.Close()
	repl, _ := ParseReplication("dc1=3")
	defer repl.Close()
	plain, err := ring.Availability(repl, All, "", 3)
	if err != nil {
		t.Fatal(err)
	}
	var reports int
	var last [2]uint64
	got, err := ring.AvailabilityContext(WithProgress(context.Background(), func(d, tot uint64) {
		if d < last[0] || tot < last[1] || d > tot {
			t.Errorf("progress went from %v to %d/%d", last, d, tot)
		}
		reports++
		last = [2]uint64{d, tot}
	}), repl, All, "", 3)
	if err != nil || !reflect.DeepEqual(got, plain) {
		t.Fatalf("with progress: %d sets, %v; want %d sets", len(got), err, len(plain))
	}
	if reports < 3 || last[0] != last[1] {
		t.Errorf("%d reports, last %v", reports, last)
	}
	for _, n := range []int{1, 2, reports / 2} {
		ctx, after, _ := cancelAt(n)
		got, err := ring.AvailabilityContext(ctx, repl, All, "", 3)
		if got != nil {
			t.Errorf("a cancelled analysis returned %d sets", len(got))
		}
		expectCancelled(t, fmt.Sprintf("availability cancelled at report %d", n), err, *after)
	}
	// Cancelled before the call: C is not reached.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = ring.AvailabilityContext(ctx, repl, Quorum, "", 1)
	expectCancelled(t, "availability with a cancelled context", err, 0)
	// A deadline: DeadlineExceeded, from another goroutine's clock.
	dctx, dcancel := context.WithTimeout(context.Background(), 0)
	defer dcancel()
	<-dctx.Done()
	if _, err := ring.AvailabilityContext(dctx, repl, Quorum, "", 1); !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrCancelled) {
		t.Errorf("expired deadline: %v", err)
	}
	// Cancelled from another goroutine while the analysis runs.
	gctx, gcancel := context.WithCancel(context.Background())
	started := make(chan struct{})
	var once bool
	go func() { <-started; gcancel() }()
	_, err = ring.AvailabilityContext(WithProgress(gctx, func(d, tot uint64) {
		if !once {
			once = true
			close(started)
		}
	}), repl, All, "", 3)
	if err != nil && !errors.Is(err, context.Canceled) {
		t.Errorf("cancel from another goroutine: %v", err)
	}
}

func TestAllocateAndMigrationContext(t *testing.T) {
	topo := seededCluster(t, 9, 8)
	defer topo.Close()
	racks := []string{"r1", "r2", "r3", "r4"}
	plain, err := topo.AllocateNodes(8, "dc1", racks, 3, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, after, last := cancelAt(-1)
	got, err := topo.AllocateNodesContext(ctx, 8, "dc1", racks, 3, 0)
	if err != nil || !reflect.DeepEqual(got, plain) || *after != 0 || last[0] != last[1] || last[0] < 32 {
		t.Fatalf("AllocateNodesContext: %v, last report %v", err, *last)
	}
	for _, n := range []int{1, 5, 30} {
		ctx, after, _ := cancelAt(n)
		got, err := topo.AllocateNodesContext(ctx, 8, "dc1", racks, 3, 0)
		if got != nil {
			t.Error("a cancelled allocation returned tokens")
		}
		expectCancelled(t, fmt.Sprintf("allocation cancelled at report %d", n), err, *after)
	}
	one, err := topo.AllocateTokens(8, "dc1", "r2", 3)
	if err != nil {
		t.Fatal(err)
	}
	ctx, _, last = cancelAt(-1)
	if got, err := topo.AllocateTokensContext(ctx, 8, "dc1", "r2", 3); err != nil || !reflect.DeepEqual(got, one) || last[0] != 8 {
		t.Fatalf("AllocateTokensContext: %v %v (last %v), want %v", got, err, *last, one)
	}
	ctx, after, _ = cancelAt(3)
	_, err = topo.AllocateTokensContext(ctx, 8, "dc1", "r2", 3)
	expectCancelled(t, "token allocation", err, *after)

	names := []string{"n1", "n2", "n3", "n4", "n5", "n6"}
	mracks := []string{"r1", "r2", "r3", "r1", "r2", "r3"}
	plan, err := topo.PlanMigration("dc1", "dc16", names, mracks, 16, 3, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, _, last = cancelAt(-1)
	if got, err := topo.PlanMigrationContext(ctx, "dc1", "dc16", names, mracks, 16, 3, nil); err != nil || !reflect.DeepEqual(got, plan) || last[0] != last[1] {
		t.Fatalf("PlanMigrationContext: %v (last %v)", err, *last)
	}
	for _, n := range []int{1, 2} {
		ctx, after, _ := cancelAt(n)
		got, err := topo.PlanMigrationContext(ctx, "dc1", "dc16", names, mracks, 16, 3, nil)
		if got != nil {
			t.Error("a cancelled plan was returned")
		}
		expectCancelled(t, fmt.Sprintf("migration cancelled at report %d", n), err, *after)
	}
	// The topology is untouched and usable after a cancel.
	if got, err := topo.AllocateNodes(8, "dc1", racks, 3, 0); err != nil || !reflect.DeepEqual(got, plain) {
		t.Errorf("allocation after cancels: %v", err)
	}
}

func TestEmptyDatacenters(t *testing.T) {
	topo := seededCluster(t, 6, 4)
	defer topo.Close()
	ring, _ := topo.Build()
	defer ring.Close()
	only9, _ := ParseReplication("NetworkTopologyStrategy:dc9=3")
	defer only9.Close()
	mixed, _ := ParseReplication("dc1=2, dc9=3")
	defer mixed.Close()

	// Strict by default: the library's ErrNotFound naming the datacenter.
	_, err := BuildPlacement(ring, mixed, 0)
	expectErr(t, "strict placement", err, ErrNotFound, "'dc9'")
	// AllowUnknownDC: Cassandra skips dc9 (and says which), but no replica at all fails.
	_, err = BuildPlacement(ring, only9, AllowUnknownDC)
	expectErr(t, "no replica at all", err, ErrImpossible, "no replica: datacenter 'dc9' of the replication has no node in the ring")
	p, err := BuildPlacement(ring, mixed, AllowUnknownDC)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if got := p.EmptyDatacenters(); !reflect.DeepEqual(got, []string{"dc9"}) {
		t.Errorf("EmptyDatacenters = %v", got)
	}
	if r, _ := p.Replicas(0); len(r.Nodes) != 2 {
		t.Errorf("replicas %v, want dc1's 2", r.Nodes)
	}
	if got, err := ring.EmptyDatacenters(mixed); err != nil || !reflect.DeepEqual(got, []string{"dc9"}) {
		t.Errorf("Ring.EmptyDatacenters = %v, %v", got, err)
	}
	simple, _ := NewSimpleStrategy(3, 0)
	defer simple.Close()
	if got, err := ring.EmptyDatacenters(simple); err != nil || got != nil {
		t.Errorf("SimpleStrategy empty datacenters %v %v", got, err)
	}
	q, _ := p.Ref()
	defer q.Close()
	if !reflect.DeepEqual(q.EmptyDatacenters(), []string{"dc9"}) {
		t.Error("Ref lost the empty datacenters")
	}
	// After dc9 joins, an update has none; the placement equals a fresh build.
	if err := topo.AddNode("10.0.9.1", "dc9", "r1", []int64{42}); err != nil {
		t.Fatal(err)
	}
	ring2, _ := topo.Build()
	defer ring2.Close()
	u, err := p.Update(ring2)
	if err != nil {
		t.Fatal(err)
	}
	defer u.Close()
	if u.EmptyDatacenters() != nil {
		t.Errorf("after dc9 joined: %v", u.EmptyDatacenters())
	}
}

// The rack "" is a rack of its own, as NetworkTopologyStrategy keys racks by name; a cqlsh
// null rack is DefaultRack, an empty cqlsh cell the rack "".
func TestEmptyAndMissingRacks(t *testing.T) {
	topo, err := NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	if DefaultRack != "UNKNOWN_RACK" { // the library's TOKENRING_DEFAULT_RACK
		t.Fatalf("DefaultRack = %q", DefaultRack)
	}
	for i, r := range []string{"", "", "r1", DefaultRack} {
		if err := topo.AddNode(string(rune('A'+i)), "dc1", r, []int64{int64(10 * (i + 1))}); err != nil {
			t.Fatalf("AddNode rack %q: %v", r, err)
		}
	}
	expectErr(t, "empty datacenter", topo.AddNode("E", "", "", []int64{50}), ErrInvalid, "datacenter name is empty")
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer ring.Close()
	if ring.RackCount() != 3 {
		t.Errorf("RackCount = %d, want 3", ring.RackCount())
	}
	repl, _ := NewNetworkTopologyStrategy(map[string]int{"dc1": 3})
	defer repl.Close()
	p, err := BuildPlacement(ring, repl, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// From A: A (rack ""), B skipped (same rack), C (r1), D (UNKNOWN_RACK).
	for tok, want := range map[int64][]uint32{5: {0, 2, 3}, 15: {1, 2, 3}, 35: {3, 0, 2}} {
		if r, err := p.Replicas(tok); err != nil || !reflect.DeepEqual(r.Nodes, want) {
			t.Errorf("Replicas(%d) = %v, %v; want %v", tok, r.Nodes, err, want)
		}
	}
	c, _ := NewCluster()
	defer c.Close()
	text := " peer | data_center | rack | tokens\n---+---+---+---\n a | dc1 |  | {'1'}\n b | dc1 | null | {'2'}\n"
	if _, err := c.Parse(FormatAuto, text, 0); err != nil {
		t.Fatal(err)
	}
	nodes, _ := c.Nodes()
	if len(nodes) != 2 || nodes[0].Rack != "" || nodes[1].Rack != DefaultRack {
		t.Errorf("cqlsh racks %+v", nodes)
	}
}
