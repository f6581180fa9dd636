// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"fmt"
	"testing"
)

func TestCassandraRulesForVersion(t *testing.T) {
	for v, want := range map[string]CassandraRules{
		"3.0.30": Rules30, "3.1": Rules30, "2.2.19": Rules30, "3.2": Rules32,
		"3.11.17": Rules32, "4.0.14": Rules32, "4.1.7": Rules32, "5.0.6": RulesLatest,
		"5.0-rc1": Rules32, "5.0.9": Rules32, "6.0-alpha2": Rules32, "6.0": RulesLatest,
	} {
		got, err := CassandraRulesForVersion(v)
		if err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", v, got, err, want)
		}
	}
	for v, want := range map[string]error{"": ErrParse, "3": ErrParse, "3.x": ErrParse,
		"0.9": ErrRange, "100.0": ErrRange, "3\x00.0": ErrInvalid,
		// release lines the library does not know are refused, not guessed
		"7.0": ErrRange, "6.1": ErrRange, "4.2": ErrRange} {
		if _, err := CassandraRulesForVersion(v); !errors.Is(err, want) {
			t.Errorf("%q: %v, want %v", v, err, want)
		}
	}
	if Rules30.String() != "3.0" || Rules32.String() != "3.2+" || CassandraRules(9).String() != "CassandraRules(9)" {
		t.Error("String")
	}
}

// One datacenter with racks r1 r1 r1 r2 and rf 3: Cassandra 3.0 orders the replicas of
// token 5 B, D, C; 3.2 and later B, C, D (the same set).
func TestRulesOrder(t *testing.T) {
	topo, err := NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	for i, rack := range []string{"r1", "r1", "r1", "r2"} {
		if err := topo.AddNode(string(rune('A'+i)), "dc1", rack, []int64{int64(10 * i)}); err != nil {
			t.Fatal(err)
		}
	}
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer ring.Close()
	repl, err := ParseReplication("dc1=3")
	if err != nil {
		t.Fatal(err)
	}
	defer repl.Close()
	if repl.Rules() != RulesLatest {
		t.Fatalf("default rules %v", repl.Rules())
	}
	order := func() string {
		pl, err := BuildPlacement(ring, repl, 0)
		if err != nil {
			t.Fatal(err)
		}
		defer pl.Close()
		names, err := pl.AppendReplicaNames(nil, 5)
		if err != nil {
			t.Fatal(err)
		}
		return fmt.Sprint(names)
	}
	if got := order(); got != "[B C D]" {
		t.Errorf("3.2 rules: %s", got)
	}
	if err := repl.SetRules(Rules30); err != nil || repl.Rules() != Rules30 {
		t.Fatal(err, repl.Rules())
	}
	if got := order(); got != "[B D C]" {
		t.Errorf("3.0 rules: %s", got)
	}
	if err := repl.SetRules(7); !errors.Is(err, ErrInvalid) || repl.Rules() != Rules30 {
		t.Errorf("SetRules(7): %v, rules %v", err, repl.Rules())
	}
	tr, err := ParseReplication("dc1=3/1")
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	if err := tr.SetRules(Rules30); err != nil {
		t.Fatal(err)
	}
	if _, err := BuildPlacement(ring, tr, 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("transient under 3.0 rules: %v", err)
	}
	repl.Close()
	if repl.Rules() != 0 || !errors.Is(repl.SetRules(Rules32), ErrClosed) {
		t.Error("closed")
	}
}
