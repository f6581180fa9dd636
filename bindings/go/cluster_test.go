// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestClusterParseAndRoundTrip(t *testing.T) {
	for _, name := range replicaTopologies {
		t.Run(name, func(t *testing.T) {
			text, err := os.ReadFile(filepath.Join(dataDir, "replicas_"+name+".topology.tsv"))
			if err != nil {
				t.Fatal(err)
			}
			if f := DetectFormat(string(text)); f != FormatTSV {
				t.Fatalf("detected %v, want tsv", f)
			}
			c, err := NewCluster()
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			got, err := c.Parse(FormatAuto, string(text), 0)
			if err != nil || got != FormatTSV {
				t.Fatalf("Parse: %v, %v", got, err)
			}
			repl, _ := NewSimpleStrategy(1, 0)
			defer repl.Close()
			if err := c.AddKeyspace("ks1", repl); err != nil {
				t.Fatal(err)
			}
			// The cluster's topology is the same ring as the vector topology built by hand.
			want := topologyFile(t, name)
			defer want.Close()
			topo, err := c.Topology()
			if err != nil {
				t.Fatal(err)
			}
			defer topo.Close()
			if describeTopology(t, topo) != describeTopology(t, want) {
				t.Fatalf("parsed topology differs:\n%s\n%s", describeTopology(t, topo), describeTopology(t, want))
			}
			// Format, parse back: same nodes and keyspaces.
			doc, err := c.Format()
			if err != nil {
				t.Fatal(err)
			}
			c2, _ := NewCluster()
			defer c2.Close()
			if f, err := c2.Parse(FormatAuto, doc, 0); err != nil || f != FormatTopology {
				t.Fatalf("re-parse of the formatted cluster: %v %v\n%s", f, err, doc)
			}
			n1, _ := c.Nodes()
			n2, _ := c2.Nodes()
			if len(n1) != len(n2) || len(n1) != want.NodeCount() {
				t.Fatalf("%d nodes, %d after the round trip, want %d", len(n1), len(n2), want.NodeCount())
			}
			for i := range n1 {
				if n1[i].Name != n2[i].Name || n1[i].Rack != n2[i].Rack || len(n1[i].Tokens) != len(n2[i].Tokens) ||
					n1[i].DeclaredTokens != len(n1[i].Tokens) {
					t.Errorf("node %d: %+v vs %+v", i, n1[i], n2[i])
				}
			}
			ks, err := c2.Keyspaces()
			if err != nil || len(ks) != 1 || ks[0].Name != "ks1" || ks[0].Replication != repl.String() {
				t.Fatalf("keyspaces after the round trip: %+v %v", ks, err)
			}
			r, err := c2.KeyspaceReplication("ks1")
			if err != nil || r.String() != repl.String() {
				t.Fatalf("KeyspaceReplication: %v %v", r, err)
			}
			r.Close()
			_, err = c2.KeyspaceReplication("nope")
			expectErr(t, "unknown keyspace", err, ErrNotFound, "nope")
			if c.Flags() != 0 {
				t.Errorf("flags %v", c.Flags())
			}
		})
	}
}

func TestClusterErrors(t *testing.T) {
	c, _ := NewCluster()
	defer c.Close()
	_, err := c.Parse(FormatTopology, "node a dc=dc1 rack=r1 tokens=1\nnode b dc=dc1 rack=r1 tokens=zzz\n", 0)
	expectErr(t, "malformed topology file", err, ErrParse, "")
	var e *Error
	if asError(err, &e) && e.Line != 2 {
		t.Errorf("parse error on line %d, want 2: %v", e.Line, err)
	}
	if n, _ := c.Nodes(); len(n) != 0 {
		t.Fatalf("a failed parse left %d nodes", len(n))
	}
	_, err = c.Parse(FormatTopology, "node a dc=dc1 rack=r1 tokens=1\nnode b dc=dc1 rack=r1 tokens=1\n", 0)
	expectErr(t, "token held twice", err, ErrExists, "")
	_, err = c.Parse(FormatAuto, "what is this", 0)
	expectErr(t, "undetectable format", err, ErrParse, "")
	_, err = c.Topology()
	expectErr(t, "topology of an empty cluster", err, ErrEmpty, "")
	if FormatNodetoolRing.String() != "nodetool-ring" || InputFormat(77).String() != "unknown" {
		t.Errorf("format names %q %q", FormatNodetoolRing, InputFormat(77))
	}
	c.Close()
	_, err = c.Parse(FormatAuto, "", 0)
	expectErr(t, "parse after Close", err, ErrClosed, "")
	_, err = c.Format()
	expectErr(t, "format after Close", err, ErrClosed, "")
	if c.Flags() != 0 {
		t.Error("flags after close")
	}
}

func asError(err error, target **Error) bool {
	e, ok := err.(*Error)
	if ok {
		*target = e
	}
	return ok
}

func TestClusterStatusTokensUnknown(t *testing.T) {
	c, _ := NewCluster()
	defer c.Close()
	if _, err := c.Parse(FormatTopology, "node a dc=dc1 rack=r1 num_tokens=16\n", 0); err != nil {
		t.Fatal(err)
	}
	if c.Flags()&ClusterTokensUnknown == 0 {
		t.Fatalf("flags %v: tokens should be unknown", c.Flags())
	}
	nodes, _ := c.Nodes()
	if len(nodes) != 1 || nodes[0].Tokens != nil || nodes[0].DeclaredTokens != 16 {
		t.Fatalf("%+v", nodes)
	}
	_, err := c.Topology()
	expectErr(t, "topology with unknown tokens", err, ErrEmpty, "")
	if !strings.Contains(err.Error(), "unknown") {
		t.Errorf("message %q", err)
	}
}

// What operators paste: the seed's queries without data_center and rack, under cqlsh
// prompts, one of them as EXPAND ON records, give datacenter1/rack1 and say so.
func TestClusterPastedSeedQueries(t *testing.T) {
	c, _ := NewCluster()
	defer c.Close()
	text := "cqlsh> SELECT peer, tokens FROM system.peers_v2;\n\n" +
		"    peer | tokens\n    ------+--------\n        b | {'5'}\n\n    (1 rows)\n" +
		"cqlsh> SELECT tokens FROM system.local;\n\n" +
		"@ Row 1\n--------+-------\n tokens | {'-5', '7'}\n\n(1 rows)\n"
	if _, err := c.Parse(FormatAuto, text, 0); err != nil {
		t.Fatal(err)
	}
	if c.Flags()&ClusterDefaultDCRack == 0 {
		t.Fatalf("flags %v: defaults should be said", c.Flags())
	}
	nodes, _ := c.Nodes()
	if len(nodes) != 2 || nodes[0].Name != "b" || nodes[1].Name != "local" ||
		nodes[1].Datacenter != "datacenter1" || nodes[1].Rack != "rack1" ||
		len(nodes[1].Tokens) != 2 || nodes[1].Tokens[0] != -5 {
		t.Fatalf("%+v", nodes)
	}
}

// A pasted `nodetool describering` goes through the generic Parse: each range's end
// token belongs to its first endpoint, and the replicas of the ring so read are the listed
// ones (the 1,536 ranges of a 3-rack ccm cluster).
func TestClusterDescribering(t *testing.T) {
	path := filepath.Join(dataDir, "samples", "describering-ccm-vnodes256-6nodes-3racks.txt")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	text := string(raw)
	if f := DetectFormat(text); f != FormatNodetoolDescribering || f.String() != "nodetool-describering" {
		t.Fatalf("detected %v", f)
	}
	c, err := NewCluster()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, err := c.Parse(FormatAuto, text, 0); err != nil || got != FormatNodetoolDescribering {
		t.Fatalf("Parse: %v, %v", got, err)
	}
	nodes, err := c.Nodes()
	if err != nil || len(nodes) != 6 {
		t.Fatalf("nodes: %d, %v", len(nodes), err)
	}
	for _, n := range nodes {
		if len(n.Tokens) != 256 || n.Datacenter != "dc1" {
			t.Errorf("node %s: %d tokens in %s", n.Name, len(n.Tokens), n.Datacenter)
		}
	}
	topo, err := c.Topology()
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
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
	p, err := ring.Placement(repl, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	// the file's first range: (236226276953227033, 274158322884995148]
	first := strings.Split(text, "\n")[2]
	listed := strings.Split(strings.SplitN(strings.SplitN(first, "endpoints:[", 2)[1], "]", 2)[0], ", ")
	r, err := p.Replicas(274158322884995148)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, i := range r.Nodes {
		got = append(got, p.NodeName(int(i)))
	}
	if strings.Join(got, ",") != strings.Join(listed, ",") {
		t.Errorf("replicas %v, listed %v", got, listed)
	}
	// refused with the reason: getendpoints output, empty input
	ge, err := os.ReadFile(filepath.Join(dataDir, "samples", "getendpoints-5.0-nts-2dc-crlf.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for text, want := range map[string]string{string(ge): "nodetool getendpoints output", "": "empty input"} {
		if _, err := c.Parse(FormatAuto, text, 0); !errors.Is(err, ErrParse) || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q): %v, want %q", text, err, want)
		}
	}
}

// cqlsh's `SELECT * FROM system_schema.keyspaces` gives every keyspace's replication;
// the LocalStrategy system keyspaces are skipped and listed with their class.
func TestClusterSchemaKeyspaces(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(dataDir, "samples", "written",
		"cqlsh-system_schema-keyspaces-5.0.txt"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCluster()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got, err := c.Parse(FormatAuto, string(raw), 0); err != nil || got != FormatCQLSH {
		t.Fatalf("Parse: %v, %v", got, err)
	}
	ks, err := c.Keyspaces()
	if err != nil || len(ks) != 5 {
		t.Fatalf("keyspaces: %v, %v", ks, err)
	}
	if ks[1].Name != "shop" ||
		ks[1].Replication != "{'class': 'NetworkTopologyStrategy', 'dc1': '3', 'dc2': '2'}" {
		t.Errorf("shop: %+v", ks[1])
	}
	sk, err := c.SkippedKeyspaces()
	want := []SkippedKeyspace{{"system_schema", "org.apache.cassandra.locator.LocalStrategy"},
		{"system", "org.apache.cassandra.locator.LocalStrategy"}}
	if err != nil || len(sk) != 2 || sk[0] != want[0] || sk[1] != want[1] {
		t.Fatalf("skipped: %+v, %v", sk, err)
	}
	c.Close()
	if _, err := c.SkippedKeyspaces(); !errors.Is(err, ErrClosed) {
		t.Errorf("closed: %v", err)
	}
}

// A pasted nodetool status keeps its Load (two fields, one cell) and Owns cells.
func TestClusterNodetoolColumns(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join(dataDir, "samples", "status-5.0-uj-joining-vnodes16.txt"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCluster()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Parse(FormatAuto, string(raw), 0); err != nil {
		t.Fatal(err)
	}
	cols, err := c.NodetoolColumns()
	want := []NodetoolColumns{{"172.16.0.12", "30.9 KiB", ""}, {"172.16.0.11", "538.24 KiB", ""}}
	if err != nil || len(cols) != 2 || cols[0] != want[0] || cols[1] != want[1] {
		t.Fatalf("columns: %+v, %v", cols, err)
	}
}

// A cut listing fails (or is partial with AllowPartial), another cluster's listing is
// refused unless MergeDisjoint, and an inferred partitioner is flagged.
func TestClusterCutDisjointInferred(t *testing.T) {
	const hdr = "Datacenter: %s\n==========\nAddress  Rack  Status State  Load  Owns  Token\n"
	ring := strings.Replace(hdr, "%s", "dc1", 1) + "   100\n" +
		"10.0.0.1  r1  Up  Normal  1 KiB  50%  -100\n10.0.0.2  r1  Up  Normal  1 KiB  50%  100\n"
	cut := ring + strings.Replace(hdr, "%s", "dc2", 1) + "   200\n"
	c, _ := NewCluster()
	defer c.Close()
	_, err := c.Parse(FormatAuto, cut, 0)
	expectErr(t, "a datacenter without rows", err, ErrParse, "datacenter dc2 lists no node")
	if _, err := c.Parse(FormatAuto, cut, AllowPartial); err != nil {
		t.Fatal(err)
	}
	if c.Flags()&ClusterPartial == 0 || c.Flags()&ClusterPartitionerInferred != 0 {
		t.Fatalf("flags %v: want partial, not inferred", c.Flags())
	}
	other := "Datacenter: dc9\n===\nStatus=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n" +
		"--  Address  Load  Tokens  Owns  Host ID  Rack\nUN  10.9.9.9  1 KiB  1  ?  ?  r1\n"
	_, err = c.Parse(FormatAuto, other, 0)
	expectErr(t, "another cluster's status", err, ErrInvalid, "shares no node")
	if _, err := c.Parse(FormatAuto, other, MergeDisjoint); err != nil {
		t.Fatal(err)
	}
	if nodes, _ := c.Nodes(); len(nodes) != 3 {
		t.Fatalf("%d nodes after MergeDisjoint, want 3", len(nodes))
	}
	r, _ := NewCluster()
	defer r.Close()
	if _, err := r.Parse(FormatTopology,
		"node a dc=d rack=r tokens=0,85070591730234615865843651857942052864\n", 0); err != nil {
		t.Fatal(err)
	}
	if r.Flags()&ClusterPartitionerInferred == 0 {
		t.Fatalf("flags %v: RandomPartitioner should be inferred", r.Flags())
	}
	m, _ := NewCluster()
	defer m.Close()
	_, err = m.Parse(FormatTopology, "node a dc=d rack=r tokens=3074457345618258603\n"+
		"node b dc=d rack=r tokens=30744573456182586020\nnode c dc=d rack=r tokens=7\n", 0)
	expectErr(t, "a mistyped Murmur3 token", err, ErrRange, "2 of the 3 tokens are Murmur3")
}

// Inputs of RandomPartitioner and ByteOrderedPartitioner clusters: the partitioner is read
// from the tokens, named by the input, or fixed beforehand.
func TestClusterPartitioners(t *testing.T) {
	two127 := new(big.Int).Lsh(big.NewInt(1), 127)
	big1 := new(big.Int).Div(two127, big.NewInt(3))
	text := "node A dc=dc1 rack=r1 tokens=10," + two127.String() + "\nnode B dc=dc1 rack=r1 tokens=" + big1.String() + "\n"
	c, err := NewCluster()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Parse(FormatAuto, text, 0); err != nil {
		t.Fatal(err)
	}
	if c.Partitioner() != PartitionerRandom {
		t.Fatalf("partitioner %v, want Random", c.Partitioner())
	}
	nodes, err := c.Nodes()
	if err != nil || len(nodes) != 2 || nodes[0].Tokens != nil || nodes[0].DeclaredTokens != 2 {
		t.Fatalf("nodes %+v %v", nodes, err)
	}
	topo, err := c.Topology()
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	toks, err := topo.NodeTokens128(0)
	if err != nil || len(toks) != 2 || toks[0].BigInt().Cmp(big.NewInt(10)) != 0 || toks[1].BigInt().Cmp(two127) != 0 {
		t.Fatalf("tokens %v %v", toks, err)
	}
	out, err := c.Format()
	if err != nil || !strings.Contains(out, "partitioner org.apache.cassandra.dht.RandomPartitioner\n") {
		t.Fatalf("format %q %v", out, err)
	}
	// the cluster holds RandomPartitioner tokens: another partitioner is refused
	if err := c.SetPartitioner(PartitionerMurmur3); !errors.Is(err, ErrExists) {
		t.Fatalf("SetPartitioner on a Random cluster: %v", err)
	}
	if _, err := c.Parse(FormatAuto, "node C dc=dc1 rack=r1 tokens=-5\n", 0); !errors.Is(err, ErrRange) {
		t.Fatalf("a negative token on a Random cluster: %v", err)
	}
	if n, _ := c.Nodes(); len(n) != 2 {
		t.Fatalf("a failed parse changed the cluster: %d nodes", len(n))
	}

	// hex tokens read as ByteOrdered; fixed beforehand, decimal digits are hex too
	b, _ := NewCluster()
	defer b.Close()
	if err := b.SetPartitioner(PartitionerByteOrdered); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Parse(FormatAuto, "node A dc=dc1 rack=r1 tokens=10,ff01\n", 0); err != nil {
		t.Fatal(err)
	}
	bt, _ := b.Topology()
	defer bt.Close()
	bs, err := bt.NodeTokensBytes(0)
	if err != nil || len(bs) != 2 || string(bs[0]) != "\x10" || string(bs[1]) != "\xff\x01" {
		t.Fatalf("byte tokens %q %v", bs, err)
	}
	if err := b.SetPartitioner(Partitioner(9)); !errors.Is(err, ErrInvalid) {
		t.Fatalf("unknown partitioner: %v", err)
	}
}
