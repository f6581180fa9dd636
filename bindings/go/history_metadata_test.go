// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// metadataRows reads tests/data/cassandra6/metadata: the rows of a 6.0 cluster's
// metadata log and directory, its keyspaces, and the history text they stand for.
func metadataRows(t *testing.T) ([]MetadataLogRow, []MetadataNodeRow, *Router, string) {
	t.Helper()
	dir := filepath.Join("..", "..", "tests", "data", "cassandra6", "metadata")
	lines := func(name string) [][]string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		var out [][]string
		for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
			if !strings.HasPrefix(l, "#") {
				out = append(out, strings.Split(l, "\t"))
			}
		}
		return out
	}
	var log []MetadataLogRow
	for _, f := range lines("log.tsv") {
		log = append(log, MetadataLogRow{Epoch: f[0], Kind: f[1], Transformation: f[2]})
	}
	var nodes []MetadataNodeRow
	b, err := NewRouterBuilder("dc1")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, f := range lines("directory.tsv") {
		var toks []string
		if f[6] != "" {
			toks = strings.Split(f[6], ",")
		}
		nodes = append(nodes, MetadataNodeRow{NodeID: f[0], BroadcastAddress: f[1], BroadcastPort: f[2],
			DC: f[3], Rack: f[4], State: f[5], Tokens: toks})
		if toks != nil {
			if err := b.AddPeer(strings.TrimPrefix(f[1], "/"), f[3], f[4], "", toks); err != nil {
				t.Fatal(err)
			}
		}
	}
	pair := regexp.MustCompile(`'([^']*)': '([^']*)'`)
	for _, f := range lines("keyspaces.tsv") {
		m := map[string]string{}
		for _, kv := range pair.FindAllStringSubmatch(f[1], -1) {
			m[kv[1]] = kv[2]
		}
		if err := b.AddKeyspace(f[0], m); err != nil {
			t.Fatal(err)
		}
	}
	r, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	text, err := os.ReadFile(filepath.Join(dir, "history.txt"))
	if err != nil {
		t.Fatal(err)
	}
	return log, nodes, r, string(text)
}

// The rows replay as the history text they stand for, and a router routed through the
// history answers its order.
func TestHistoryFromMetadata(t *testing.T) {
	log, nodes, r, text := metadataRows(t)
	defer r.Close()
	h, err := HistoryFromMetadata(log, nodes, r, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	want, err := ReplayHistory(text)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	hr, err := r.WithHistory(h)
	if err != nil {
		t.Fatal(err)
	}
	defer hr.Close()
	rnodes, err := hr.Nodes()
	if err != nil {
		t.Fatal(err)
	}
	wring, err := want.Ring()
	if err != nil {
		t.Fatal(err)
	}
	defer wring.Close()
	names := wring.NodeNames()
	differ := 0
	for ks, spec := range map[string]string{"ks_a": "dc1=2,dc2=1", "ks_b": "3", "ks_c": "dc1=1", "system_auth": "1"} {
		repl, err := ParseReplication(spec)
		if err != nil {
			t.Fatal(err)
		}
		p, err := want.Placement(repl)
		if err != nil {
			t.Fatal(err)
		}
		for tok := int64(-9e18); tok < 9e18; tok += 1e17 {
			rt, err := hr.RouteToken(ks, tok, 0)
			if err != nil {
				t.Fatal(err)
			}
			exp, err := p.Replicas(tok)
			if err != nil {
				t.Fatal(err)
			}
			if len(rt.Replicas) != len(exp.Nodes) {
				t.Fatalf("%s %d: %v, want %v", ks, tok, rt.Replicas, exp.Nodes)
			}
			for i, v := range rt.Replicas {
				if rnodes[v].Name != names[exp.Nodes[i]] {
					t.Fatalf("%s %d: replica %d is %s, want %s", ks, tok, i, rnodes[v].Name, names[exp.Nodes[i]])
				}
			}
			old, err := r.RouteToken(ks, tok, 0)
			if err != nil {
				t.Fatal(err)
			}
			for i := range old.Replicas {
				if old.Replicas[i] != rt.Replicas[i] {
					differ++
					break
				}
			}
		}
		p.Close()
		repl.Close()
	}
	if differ == 0 {
		t.Fatal("the history's order equals the tokens' everywhere: the test proves nothing")
	}
}

// Bad rows are refused naming the row; a ring of another moment is refused by
// WithHistory; the budget is applied.
func TestHistoryFromMetadataErrors(t *testing.T) {
	log, nodes, r, _ := metadataRows(t)
	defer r.Close()
	bad := append([]MetadataLogRow(nil), log...)
	bad[23].Kind = "NEW_KIND"
	_, err := HistoryFromMetadata(bad, nodes, r, Limits{})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeUnsupported || !strings.Contains(e.Message, "epoch 24 (NEW_KIND)") {
		t.Fatalf("got %v", err)
	}
	_, err = HistoryFromMetadata(log, nodes[1:], r, Limits{})
	if !errors.As(err, &e) || e.Code != CodeNotFound || !strings.Contains(e.Message, "node id 3 is not in cluster_metadata_directory") {
		t.Fatalf("got %v", err)
	}
	_, err = HistoryFromMetadata([]MetadataLogRow{{Epoch: "1", Kind: "PRE\x00", Transformation: ""}}, nil, nil, Limits{})
	if !errors.As(err, &e) || e.Code != CodeInvalid {
		t.Fatalf("got %v", err)
	}
	_, err = HistoryFromMetadata(log, nodes, r, Limits{Budget: 1})
	var be *BudgetError
	if !errors.As(err, &be) || be.Estimate == 0 {
		t.Fatalf("got %v", err)
	}
	// the history without its last node's join: the router's ring has node 4, it does not
	short := append([]MetadataLogRow(nil), log[:16]...)
	nodes3 := append([]MetadataNodeRow(nil), nodes[:3]...)
	h, err := HistoryFromMetadata(short, nodes3, nil, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if _, err := r.WithHistory(h); !errors.As(err, &e) || e.Code != CodeInvalid ||
		!strings.Contains(e.Message, "the history's ring differs from the router's") {
		t.Fatalf("got %v", err)
	}
	var nilRouter *Router
	if _, err := nilRouter.WithHistory(h); err == nil {
		t.Fatal("nil router accepted")
	}
}
