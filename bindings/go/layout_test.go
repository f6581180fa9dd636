// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"crypto/md5"
	"encoding/binary"
	"errors"
	"math/big"
	"sort"
	"strings"
	"testing"
)

// layoutBytes is the documented byte string of a seeded token (layout.h).
func layoutBytes(seed uint64, id string, vnode, attempt uint32) []byte {
	b := []byte("tokenring-layout-v1")
	b = binary.BigEndian.AppendUint64(b, seed)
	b = binary.BigEndian.AppendUint32(b, uint32(len(id)))
	b = append(b, id...)
	b = binary.BigEndian.AppendUint32(b, vnode)
	if attempt > 0 {
		b = binary.BigEndian.AppendUint32(b, attempt)
	}
	return b
}

// seeded128ByDefinition: abs of the MD5 digest read as a signed big-endian integer, with
// Go's crypto/md5 and math/big.
func seeded128ByDefinition(seed uint64, id string, vnode, attempt uint32) Token128 {
	d := md5.Sum(layoutBytes(seed, id, vnode, attempt))
	v := new(big.Int).SetBytes(d[:])
	if d[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 128))
	}
	t, err := Token128FromBig(v.Abs(v))
	if err != nil {
		panic(err)
	}
	return t
}

// TestEvenTokensExact: the even layout of each partitioner against the exact formula in
// math/big (min + floor((j*slots + slot) * space / (numTokens*slots))), through the text
// call and the partitioner's typed call; ByteOrderedPartitioner has none.
func TestEvenTokensExact(t *testing.T) {
	for _, p := range []struct {
		p          Partitioner
		min, space *big.Int
		typed      func(num, slot, slots int) ([]string, error)
	}{
		{PartitionerMurmur3, big.NewInt(MinToken), new(big.Int).Lsh(big.NewInt(1), 64), func(num, slot, slots int) ([]string, error) {
			toks, err := EvenTokens(num, slot, slots)
			return int64Texts(toks), err
		}},
		{PartitionerRandom, big.NewInt(0), new(big.Int).Lsh(big.NewInt(1), 127), func(num, slot, slots int) ([]string, error) {
			toks, err := EvenTokens128(num, slot, slots)
			return token128Texts(toks), err
		}},
		{PartitionerByteOrdered, nil, nil, nil},
	} {
		cases := []struct{ num, slot, slots int }{{1, 0, 3}, {1, 1, 3}, {1, 2, 3}, {1, 6, 7}, {4, 0, 1}, {16, 2, 3}, {1000, 999, 1000}}
		for _, c := range cases {
			toks, err := EvenTokensText(p.p, c.num, c.slot, c.slots)
			if p.typed == nil {
				if !errors.Is(err, ErrUnsupported) {
					t.Fatalf("%v: %v", p.p, err)
				}
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			if typed, err := p.typed(c.num, c.slot, c.slots); err != nil || strings.Join(typed, ",") != strings.Join(toks, ",") {
				t.Fatalf("%v %+v: typed %v (%v), text %v", p.p, c, typed, err, toks)
			}
			for j, tok := range toks {
				want := new(big.Int).Mul(big.NewInt(int64(j*c.slots+c.slot)), p.space)
				want.Quo(want, big.NewInt(int64(c.num*c.slots)))
				want.Add(want, p.min)
				if tok != want.String() {
					t.Fatalf("EvenTokensText(%v, %+v)[%d] = %s, want %s", p.p, c, j, tok, want)
				}
			}
		}
		if _, err := EvenTokensText(p.p, 4, 3, 3); !errors.Is(err, ErrRange) {
			t.Errorf("%v: slot 3 of 3: %v", p.p, err)
		}
		if _, err := EvenTokensText(p.p, 0, 0, 1); !errors.Is(err, ErrRange) {
			t.Errorf("%v: 0 tokens: %v", p.p, err)
		}
	}
	one, _ := EvenTokens128(1, 1, 3)
	if one[0].String() != "56713727820156410577229101238628035242" {
		t.Errorf("1 * 2^127 / 3 = %s", one[0])
	}
	if _, err := EvenTokens128(4, 3, 3); !errors.Is(err, ErrRange) {
		t.Errorf("slot 3 of 3: %v", err)
	}
	if _, err := EvenTokens128(0, 0, 1); !errors.Is(err, ErrRange) {
		t.Errorf("0 tokens: %v", err)
	}
}

func TestSeededToken128Definition(t *testing.T) {
	got, err := SeededToken128(1, "10.0.0.1", 0, 0)
	if err != nil || got.String() != "144675658811347221704957138149180670279" {
		t.Fatalf("SeededToken128 = %s, %v", got, err)
	}
	for v := uint32(0); v < 50; v++ {
		got, err := SeededToken128(uint64(v)*7919, "node-x", v, v%3)
		if want := seeded128ByDefinition(uint64(v)*7919, "node-x", v, v%3); err != nil || got != want {
			t.Fatalf("vnode %d: %s, %v; want %s", v, got, err, want)
		}
		// the same bytes as the Murmur3 layout, given to RandomToken
		if got != RandomToken(layoutBytes(uint64(v)*7919, "node-x", v, v%3)) {
			t.Fatalf("vnode %d: not RandomToken of the layout bytes", v)
		}
	}
	if _, err := SeededToken128(1, strings.Repeat("a", MaxName+1), 0, 0); !errors.Is(err, ErrRange) {
		t.Errorf("long identity: %v", err)
	}
}

func TestSeededTokensCollisions(t *testing.T) {
	toks, err := SeededTokens128(3, 1, "10.0.0.1", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	for v, tok := range toks {
		if tok != seeded128ByDefinition(1, "10.0.0.1", uint32(v), 0) {
			t.Fatalf("vnode %d: %s", v, tok)
		}
	}
	topo, err := NewPartitionedTopology(PartitionerRandom)
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	first := seeded128ByDefinition(5, "victim", 0, 0)
	if err := topo.AddNode128("squatter", "dc1", "r1", []Token128{first}); err != nil {
		t.Fatal(err)
	}
	got, err := SeededTokens128(2, 5, "victim", topo, 0)
	if err != nil || got[0] != seeded128ByDefinition(5, "victim", 0, 1) || got[1] != seeded128ByDefinition(5, "victim", 1, 0) {
		t.Fatalf("collision not rehashed: %v, %v", got, err)
	}
	_, err = SeededTokens128(2, 5, "victim", topo, LayoutStrict)
	if !errors.Is(err, ErrExists) || !strings.Contains(err.Error(), first.String()) || !strings.Contains(err.Error(), "squatter") {
		t.Fatalf("strict: %v", err)
	}
	m3, _ := NewTopology()
	defer m3.Close()
	if _, err := SeededTokens128(2, 5, "victim", m3, 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Murmur3 taken: %v", err)
	}
	if _, err := SeededTokens(2, 5, "victim", topo, 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("SeededTokens with a RandomPartitioner taken: %v", err)
	}
	if _, err := SeededTokens128(0, 5, "victim", nil, 0); !errors.Is(err, ErrRange) {
		t.Errorf("0 tokens: %v", err)
	}
}

func TestAddSeededNodesEveryPartitioner(t *testing.T) {
	topo, err := NewPartitionedTopology(PartitionerRandom)
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	nodes := []SeededNode{{Name: "10.0.0.1"}, {Name: "10.0.0.2", Datacenter: "east", Rack: "r2"}}
	if err := topo.AddSeededNodes(1, 8, nodes, 0); err != nil {
		t.Fatal(err)
	}
	for i, n := range nodes {
		got, err := topo.NodeTokens128(i)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]Token128, 8)
		for v := range want {
			want[v] = seeded128ByDefinition(1, n.Name, uint32(v), 0)
		}
		sort.Slice(want, func(a, b int) bool { return want[a].Cmp(want[b]) < 0 })
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("node %s token %d: %s, want %s", n.Name, k, got[k], want[k])
			}
		}
	}
	if err := topo.AddSeededNodes(1, 8, []SeededNode{{Name: "fresh"}, {Name: "10.0.0.1"}}, 0); !errors.Is(err, ErrExists) || topo.NodeCount() != 2 {
		t.Errorf("duplicate: %v, %d nodes", err, topo.NodeCount())
	}
	bop, _ := NewPartitionedTopology(PartitionerByteOrdered)
	defer bop.Close()
	err = bop.AddSeededNodes(1, 8, nodes, 0)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "no token allocation") || bop.NodeCount() != 0 {
		t.Errorf("ByteOrdered: %v", err)
	}
}
