// SPDX-License-Identifier: Apache-2.0
package tokenring

import (
	"errors"
	"math/big"
	"strings"
	"testing"
)

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
