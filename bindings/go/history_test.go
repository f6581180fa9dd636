// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The live stage's history: the last step's every range of every replication in
// Cassandra 6.0-alpha2's order (tests/data/cassandra6).
func TestHistoryReplaysCassandra60(t *testing.T) {
	dir := filepath.Join("..", "..", "tests", "data", "cassandra6")
	script, err := os.ReadFile(filepath.Join(dir, "live_stage.script"))
	if err != nil {
		t.Fatal(err)
	}
	vec, err := os.ReadFile(filepath.Join(dir, "live_stage.placements"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := ReplayHistory(string(script))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ring, err := h.Ring()
	if err != nil {
		t.Fatal(err)
	}
	defer ring.Close()
	toks, err := ring.Tokens()
	if err != nil {
		t.Fatal(err)
	}
	repls := map[string]string{"system_auth": "1", "system_traces": "2", "system_distributed": "3",
		"ks_below": "dc1=2,dc2=1", "ks_at": "dc1=3,dc2=0", "ks_above": "dc1=4,dc2=2", "ks_dc2": "dc2=1", "ks_simple": "3"}
	lines := strings.Split(string(vec), "\n")
	last := 0
	for i, l := range lines {
		if strings.HasPrefix(l, "step ") {
			last = i
		}
	}
	checked := 0
	for _, l := range lines[last+1:] {
		f := strings.Split(l, " ")
		if f[0] != "place" {
			continue
		}
		repl, err := ParseReplication(repls[strings.Split(f[1], ",")[0]])
		if err != nil {
			t.Fatal(err)
		}
		p, err := h.Placement(repl)
		if err != nil {
			t.Fatal(err)
		}
		if o, _ := p.Order(); o != OrderHistory {
			t.Fatalf("order %v", o)
		}
		end, _ := strconv.ParseInt(f[3], 10, 64)
		if end == -1<<63 {
			end = toks[len(toks)-1] + 1
		}
		names, err := p.AppendReplicaNames(nil, end)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(names, ",") != f[4] {
			t.Fatalf("%s (%s, %s]: library %v, Cassandra %s", f[1], f[2], f[3], names, f[4])
		}
		p.Close()
		repl.Close()
		checked++
	}
	if checked != 7*41 {
		t.Fatalf("%d lists checked", checked)
	}
	if _, err := ReplayHistory("hop\n"); err == nil || !strings.Contains(err.Error(), "unknown step") {
		t.Fatalf("bad step: %v", err)
	}
	empty, _ := ReplayHistory("")
	if _, err := empty.Ring(); !errors.Is(err, ErrEmpty) {
		t.Fatalf("empty ring: %v", err)
	}
	empty.Close()
	if _, err := empty.Ring(); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed: %v", err)
	}
	if _, err := h.Placement(nil); !errors.Is(err, ErrInvalid) {
		t.Fatalf("nil replication: %v", err)
	}
}

// 6.0's locked ranges (read in its source; the C test's rings): a join at 500 between
// tokens 0 and 10^6 splits (0, 10^6] and moves (0, 500]; joins far apart run at once.
func TestHistoryLocksAndConcurrent(t *testing.T) {
	h, err := ReplayHistory("register 10.0.0.1 dc1 r1\nregister 10.0.0.2 dc1 r1\nregister 10.0.0.3 dc1 r1\n" +
		"unsafe_join 10.0.0.1 0\nunsafe_join 10.0.0.2 1000000\n")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r1, _ := ParseReplication("1")
	defer r1.Close()
	got, err := h.LockedRanges(r1, "join 10.0.0.3 500")
	if err != nil || len(got) != 3 {
		t.Fatalf("%v %v", got, err)
	}
	want := map[LockedRange]bool{{0, 1000000, false}: true, {0, 500, false}: true, {500, 1000000, false}: true}
	for _, r := range got {
		if !want[r] {
			t.Errorf("unexpected %v", r)
		}
	}
	r9, _ := ParseReplication("dc1=9")
	defer r9.Close()
	if _, err := h.LockedRanges(r9, "join 10.0.0.3 500"); !errors.Is(err, ErrNotFound) {
		t.Errorf("a replication of no keyspace: %v", err)
	}
	if _, err := h.LockedRanges(r1, "register 10.0.0.4 dc1 r1"); !errors.Is(err, ErrParse) {
		t.Errorf("not an operation: %v", err)
	}
	text := ""
	for i := 0; i < 16; i++ {
		text += "register 10.0.1." + strconv.Itoa(i+1) + " dc1 r1\n"
	}
	for i := 0; i < 12; i++ {
		text += "unsafe_join 10.0.1." + strconv.Itoa(i+1) + " " + strconv.FormatInt(int64(i-6)*100000000000000000, 10) + "\n"
	}
	h12, err := ReplayHistory(text)
	if err != nil {
		t.Fatal(err)
	}
	defer h12.Close()
	c, err := h12.Concurrent([]string{"join 10.0.1.13 50", "join 10.0.1.14 450000000000000000",
		"join 10.0.1.15 150000000000000000", "leave 10.0.1.1", "move 10.0.1.5 -150000000000000000"})
	if err != nil || strings.Trim(strings.Join(strings.Fields(fmtInts(c)), ","), "") != "-1,-1,0,1,0" {
		t.Errorf("concurrent: %v %v", c, err)
	}
}

func fmtInts(v []int) string {
	s := ""
	for _, x := range v {
		s += strconv.Itoa(x) + " "
	}
	return s
}

// Transient replicas in 6.0's history order (6.0-alpha2's own classes on this history:
// (-100, 0] is 10.0.0.2, 10.0.0.3/t, 10.0.0.4), refused with several tokens a node.
func TestHistoryTransient(t *testing.T) {
	reg := "register 10.0.0.1 dc1 r1\nregister 10.0.0.2 dc1 r1\nregister 10.0.0.3 dc1 r1\nregister 10.0.0.4 dc1 r1\n"
	h, err := ReplayHistory(reg + "unsafe_join 10.0.0.1 -100\nunsafe_join 10.0.0.2 0\nunsafe_join 10.0.0.3 100\nkeyspace t 3/1\njoin 10.0.0.4 50\n")
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	repl, err := ParseReplication("3/1")
	if err != nil {
		t.Fatal(err)
	}
	defer repl.Close()
	p, err := h.Placement(repl)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	r, err := p.Replicas(-50)
	if err != nil {
		t.Fatal(err)
	}
	ring, _ := h.Ring()
	var got []string
	for i, n := range r.Nodes {
		info, _ := ring.Node(int(n))
		name := info.Name
		if r.Transient != nil && r.Transient[i] {
			name += "/t"
		}
		got = append(got, name)
	}
	if strings.Join(got, ",") != "10.0.0.2,10.0.0.3/t,10.0.0.4" {
		t.Fatalf("(-100, 0]: %v", got)
	}
	_, err = ReplayHistory(reg + "unsafe_join 10.0.0.1 5,50\nkeyspace t 3/1\n")
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "Transient nodes are not allowed with multiple tokens") {
		t.Fatalf("several tokens and a transient keyspace: %v", err)
	}
}

// ReplayHistoryContext: the budget, progress and cancellation.
func TestHistoryReplayLimits(t *testing.T) {
	script, err := os.ReadFile(filepath.Join("..", "..", "tests", "data", "cassandra6", "nts_2dc_3racks_vnodes.script"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = ReplayHistoryContext(context.Background(), string(script), Limits{Budget: time.Nanosecond})
	var be *BudgetError
	if !errors.As(err, &be) || be.Estimate < 200 {
		t.Fatalf("tiny budget: %v", err)
	}
	var calls int
	var last, lastTotal uint64
	ctx := WithProgress(context.Background(), func(done, total uint64) {
		if done < last {
			t.Errorf("progress went back: %d after %d", done, last)
		}
		calls++
		last, lastTotal = done, total
	})
	h, err := ReplayHistoryContext(ctx, string(script), Limits{})
	if err != nil {
		t.Fatal(err)
	}
	h.Close()
	if calls < 20 || last != lastTotal || last != be.Estimate {
		t.Fatalf("progress: %d calls, last %d of %d, estimate %d", calls, last, lastTotal, be.Estimate)
	}
	cctx, cancel := context.WithCancel(context.Background())
	n := 0
	cctx = WithProgress(cctx, func(done, total uint64) {
		if n++; n == 3 {
			cancel()
		}
	})
	if _, err := ReplayHistoryContext(cctx, string(script), Limits{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	big := strings.Repeat("join 10.0.0.1 1\n", 4000)
	if _, err := ReplayHistory(big); !errors.As(err, &be) {
		t.Fatalf("default budget: %v", err)
	}
}
