// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"bufio"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// typedRing holds, per partitioner, the typed forms of the text calls the ring vectors
// go through: a key's token, a ring token and a search (each must agree with the text).
var typedRing = map[Partitioner]struct {
	keyToken func(key []byte) string
	token    func(r *Ring, i int) (string, error)
	search   func(r *Ring, text string) (int, error)
}{
	PartitionerRandom: {
		keyToken: func(key []byte) string { return RandomToken(key).String() },
		token: func(r *Ring, i int) (string, error) {
			tk, err := r.Token128(i)
			return tk.String(), err
		},
		search: func(r *Ring, text string) (int, error) {
			v, err := ParseToken128(text)
			if err != nil {
				return 0, err
			}
			return r.Search128(v)
		},
	},
	PartitionerByteOrdered: {
		keyToken: func(key []byte) string { return FormatByteToken(ByteOrderedToken(key)) },
		token: func(r *Ring, i int) (string, error) {
			b, err := r.TokenBytes(i)
			return FormatByteToken(b), err
		},
		search: func(r *Ring, text string) (int, error) {
			b, err := ParseByteToken(text)
			if err != nil {
				return 0, err
			}
			return r.SearchBytes(b)
		},
	},
}

// TestRingVectorsEveryPartitioner checks RandomPartitioner and ByteOrderedPartitioner
// rings against Cassandra 5.0.2's TokenMetadata, strategies and describeOwnership
// (tests/data/partitioned_rings.tsv): keys, probe tokens and the ownership floats, through
// the text calls of every partitioner and the typed calls of each.
func TestRingVectorsEveryPartitioner(t *testing.T) {
	f, err := os.Open(filepath.Join(dataDir, "partitioned_rings.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var part Partitioner
	var topo *Topology
	var ring *Ring
	var pl *Placement
	keys, toks, owns := 0, 0, 0
	names := func(r Replicas) string {
		var s []string
		for _, n := range r.Nodes {
			s = append(s, ring.NodeName(int(n)))
		}
		return strings.Join(s, ",")
	}
	endText := func(i int) string {
		s, err := ring.TokenText(i)
		if err != nil {
			t.Fatal(err)
		}
		if typed, err := typedRing[part].token(ring, i); err != nil || typed != s {
			t.Fatalf("ring token %d: typed %s (%v), text %s", i, typed, err, s)
		}
		return s
	}
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") || line == "" {
			continue
		}
		fl := strings.Split(line, "\t")
		switch fl[0] {
		case "ring":
			if part, err = ParsePartitioner(fl[2]); err != nil {
				t.Fatal(err)
			}
			if topo, err = NewPartitionedTopology(part); err != nil {
				t.Fatal(err)
			}
			ring = nil
		case "node":
			if err := topo.AddNodeText(fl[1], fl[2], fl[3], strings.Split(fl[4], ",")); err != nil {
				t.Fatal(err)
			}
		case "repl":
			if ring == nil {
				if ring, err = topo.Build(); err != nil {
					t.Fatal(err)
				}
				if ring.Partitioner() != part {
					t.Fatalf("ring partitioner %v", ring.Partitioner())
				}
			}
			repl, err := ParseReplication(fl[1] + ":" + fl[2])
			if err != nil {
				t.Fatal(err)
			}
			if pl, err = BuildPlacement(ring, repl, 0); err != nil {
				t.Fatal(err)
			}
		case "key":
			key, _ := hex.DecodeString(fl[1])
			r, err := pl.ReplicasForKeyAny(key)
			if err != nil {
				t.Fatal(err)
			}
			if got := names(r); got != fl[4] {
				t.Fatalf("key %s: replicas %s, Cassandra %s", fl[1], got, fl[4])
			}
			if got := endText(int(r.Range)); got != fl[3] {
				t.Fatalf("key %s: range end %s, Cassandra %s", fl[1], got, fl[3])
			}
			if got, err := KeyTokenText(part, key); err != nil || got != fl[2] {
				t.Fatalf("key %s: token %s (%v), Cassandra %s", fl[1], got, err, fl[2])
			}
			if got := typedRing[part].keyToken(key); got != fl[2] {
				t.Fatalf("key %s: typed token %s, Cassandra %s", fl[1], got, fl[2])
			}
			if _, err := pl.ReplicasForKey(key); !errors.Is(err, ErrUnsupported) {
				t.Fatalf("Murmur3 lookup on a %v ring: %v", part, err)
			}
			keys++
		case "tok":
			i, err := ring.SearchText(fl[1])
			if err != nil {
				t.Fatal(err)
			}
			if typed, err := typedRing[part].search(ring, fl[1]); err != nil || typed != i {
				t.Fatalf("token %s: typed search %d (%v), text %d", fl[1], typed, err, i)
			}
			if got := endText(i); got != fl[2] {
				t.Fatalf("token %s: range end %s, Cassandra %s", fl[1], got, fl[2])
			}
			r, err := pl.RangeReplicas(i)
			if err != nil {
				t.Fatal(err)
			}
			if got := names(r); got != fl[3] {
				t.Fatalf("token %s: replicas %s, Cassandra %s", fl[1], got, fl[3])
			}
			toks++
		case "own":
			own, err := ring.Ownership(pl)
			if err != nil {
				t.Fatal(err)
			}
			n, _ := ring.FindNode(fl[1])
			if got := fmt.Sprintf("%08x", math.Float32bits(own[n].NodetoolPrimary)); got != fl[2] {
				t.Fatalf("node %s primary %s, Cassandra %s", fl[1], got, fl[2])
			}
			if got := fmt.Sprintf("%08x", math.Float32bits(own[n].NodetoolEffective)); got != fl[3] {
				t.Fatalf("node %s effective %s, Cassandra %s", fl[1], got, fl[3])
			}
			owns++
		}
	}
	if keys < 5000 || toks < 5000 || owns < 100 {
		t.Fatalf("only %d keys, %d tokens, %d ownership rows", keys, toks, owns)
	}
}

func TestTopologyAndRingTokensEveryPartitioner(t *testing.T) {
	if p, err := ParsePartitioner("RandomPartitioner"); err != nil || p != PartitionerRandom {
		t.Fatal(p, err)
	}
	if _, err := ParsePartitioner("OrderPreservingPartitioner"); !errors.Is(err, ErrUnsupported) {
		t.Fatal(err)
	}
	// class names exactly as Cassandra reads them; the short forms in any case
	if p, err := ParsePartitioner("org.apache.cassandra.dht.ByteOrderedPartitioner"); err != nil || p != PartitionerByteOrdered {
		t.Fatal(p, err)
	}
	if p, err := ParsePartitioner("MURMUR3"); err != nil || p != PartitionerMurmur3 {
		t.Fatal(p, err)
	}
	if _, err := ParsePartitioner("randompartitioner"); !errors.Is(err, ErrParse) {
		t.Fatal(err)
	}
	if PartitionerByteOrdered.String() != "org.apache.cassandra.dht.ByteOrderedPartitioner" {
		t.Fatal(PartitionerByteOrdered.String())
	}
	topo, err := NewPartitionedTopology(PartitionerRandom)
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	if err := topo.AddNode("a", "dc1", "r1", []int64{1}); !errors.Is(err, ErrUnsupported) {
		t.Fatal(err)
	}
	if err := topo.AddNode128("a", "dc1", "r1", []Token128{Token128Min}); !errors.Is(err, ErrRange) {
		t.Fatal(err)
	}
	max := Token128{Hi: Token128MaxHi}
	if err := topo.AddNode128("a", "dc1", "r1", []Token128{max, {Lo: 7}}); err != nil {
		t.Fatal(err)
	}
	if err := topo.SetTokens128("a", []Token128{{Lo: 9}, max}); err != nil {
		t.Fatal(err)
	}
	toks, err := topo.NodeTokens128(0)
	if err != nil || len(toks) != 2 || toks[0] != (Token128{Lo: 9}) || toks[1] != max {
		t.Fatal(toks, err)
	}
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer ring.Close()
	if _, err := ring.Search(0); !errors.Is(err, ErrUnsupported) {
		t.Fatal(err)
	}
	if i, err := ring.Search128(Token128{Lo: 10}); err != nil || i != 1 {
		t.Fatal(i, err)
	}
	rg, err := ring.Range128(1)
	if err != nil || rg.Width.Big().String() != "170141183460469231731687303715884105719" { // 2^127 - 9
		t.Fatal(rg, err)
	}
	bop, err := NewPartitionedTopology(PartitionerByteOrdered)
	if err != nil {
		t.Fatal(err)
	}
	defer bop.Close()
	if err := bop.AddNodeBytes("a", "dc1", "r1", [][]byte{[]byte("m"), {}}); err != nil {
		t.Fatal(err)
	}
	if err := bop.AddNodeBytes("b", "dc1", "r1", [][]byte{[]byte("m")}); !errors.Is(err, ErrExists) {
		t.Fatal(err)
	}
	if err := bop.SetTokensBytes("a", [][]byte{[]byte("q")}); err != nil {
		t.Fatal(err)
	}
	bt, err := bop.NodeTokensBytes(0)
	if err != nil || len(bt) != 1 || string(bt[0]) != "q" {
		t.Fatal(bt, err)
	}
	br, err := bop.Build()
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	if br.OwnershipFlags() != OwnershipNoWidths|OwnershipDataDependent {
		t.Fatal(br.OwnershipFlags())
	}
	if i, err := br.SearchBytes([]byte("r")); err != nil || i != 0 {
		t.Fatal(i, err)
	}
	if tb, err := br.TokenBytes(0); err != nil || string(tb) != "q" {
		t.Fatal(tb, err)
	}
}
