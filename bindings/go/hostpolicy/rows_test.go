// SPDX-License-Identifier: Apache-2.0

package hostpolicy

import (
	"errors"
	"net"
	"reflect"
	"strings"
	"testing"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

func testRows(nodes []testNode) (Row, []Row, []Row) {
	local := Row{"rpc_address": net.ParseIP(nodes[0].addr), "data_center": nodes[0].dc, "rack": nodes[0].rack,
		"tokens": texts(nodes[0].tokens), "partitioner": murmur3, "host_id": "h0"}
	var peers []Row
	for _, n := range nodes[1:] {
		toks := make([]interface{}, len(n.tokens))
		for i, s := range texts(n.tokens) {
			toks[i] = s
		}
		peers = append(peers, Row{"peer": net.ParseIP(n.addr), "native_address": n.addr, "data_center": n.dc, "rack": n.rack, "tokens": toks})
	}
	kss := []Row{
		{"keyspace_name": "ks", "replication": map[string]string{"class": nts, "dc1": "2", "dc2": "1"}},
		{"keyspace_name": "system", "replication": map[string]string{"class": "org.apache.cassandra.locator.LocalStrategy"}},
		{"keyspace_name": "e", "replication": map[string]interface{}{"class": "com.datastax.bdp.db.EverywhereStrategy"}},
	}
	return local, peers, kss
}

func TestRouterFromRows(t *testing.T) {
	nodes := topo1()
	local, peers, kss := testRows(nodes)
	r, err := RouterFromRows(local, peers, kss, RowOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if ks, _ := r.Keyspaces(); !reflect.DeepEqual(ks, []string{"ks"}) {
		t.Fatalf("keyspaces %v", ks)
	}
	if sk, _ := r.Skipped(); len(sk) != 2 {
		t.Fatalf("skipped %v", sk)
	}
	pl := placementOf(t, nodes, "dc1=2,dc2=1")
	defer pl.Close()
	for _, k := range keys(300, 6) {
		got, err := ReplicaNames(r, "ks", k)
		if err != nil {
			t.Fatal(err)
		}
		if want := serverOrder(t, pl, k, "", nil); !reflect.DeepEqual(got, want) {
			t.Fatalf("%x: %v want %v", k, got, want)
		}
	}
	if _, err := ReplicaNames(r, "nope", nil); !errors.Is(err, tokenring.ErrNotFound) {
		t.Fatalf("unknown keyspace: %v", err)
	}
	bad := func(want string, mod func(l Row, p []Row) []Row, opt RowOptions) {
		t.Helper()
		l, p, k := testRows(nodes)
		k = mod(l, p)
		_, err := RouterFromRows(l, p, k, opt)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("want an error naming %q, got %v", want, err)
		}
	}
	bad(nodes[2].addr, func(l Row, p []Row) []Row { p[1]["data_center"] = nil; return kss }, RowOptions{})
	bad("OddStrategy", func(l Row, p []Row) []Row {
		return append(kss, Row{"keyspace_name": "odd", "replication": map[string]string{"class": "OddStrategy"}})
	}, RowOptions{})
	bad("tokens of type", func(l Row, p []Row) []Row { l["tokens"] = 7; return kss }, RowOptions{})
	bad("no address", func(l Row, p []Row) []Row { p[0]["peer"], p[0]["native_address"] = nil, nil; return kss }, RowOptions{})
	// unsupported keyspaces skipped on request; a peer without tokens left out; a null
	// rack is UNKNOWN_RACK
	l, p, k := testRows(nodes)
	p[2]["tokens"] = nil
	p[0]["rack"] = nil
	k = append(k, Row{"keyspace_name": "odd", "replication": map[string]string{"class": "OddStrategy"}})
	r2, err := RouterFromRows(l, p, k, RowOptions{SkipUnsupported: true, LocalDC: "dc2"})
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	n2, _ := r2.Nodes()
	if len(n2) != len(nodes)-1 {
		t.Fatalf("%d nodes", len(n2))
	}
	for _, n := range n2 {
		if n.Name == nodes[1].addr && n.Rack != tokenring.DefaultRack {
			t.Fatalf("null rack: %q", n.Rack)
		}
		if n.Local != (n.Datacenter == "dc2") {
			t.Fatalf("node %s local %v", n.Name, n.Local)
		}
	}
	// a RandomPartitioner cluster is read (the router's rule)
	rl := Row{"rpc_address": "10.9.0.1", "data_center": "dc1", "rack": "r1", "tokens": []string{"0"}, "partitioner": "org.apache.cassandra.dht.RandomPartitioner"}
	rp := []Row{{"peer": "10.9.0.2", "data_center": "dc1", "rack": "r1", "tokens": []string{"85070591730234615865843651857942052864"}}}
	r3, err := RouterFromRows(rl, rp, []Row{{"keyspace_name": "ks", "replication": map[string]string{"class": "SimpleStrategy", "replication_factor": "1"}}}, RowOptions{})
	if err != nil {
		t.Fatalf("RandomPartitioner: %v", err)
	}
	r3.Close()
}
