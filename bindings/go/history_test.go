// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
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
