// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"encoding/binary"
	"fmt"
	"math/rand"
	"testing"
)

// shl63 is w * 2^63 (w at most 2^64).
func shl63(w U128) U128 {
	return U128{Hi: w.Hi<<63 | w.Lo>>1, Lo: w.Lo << 63}
}

// TestAvailabilityEveryPartitioner builds one ring in three partitioners (Murmur3 t,
// RandomPartitioner u * 2^63, the 8 big-endian bytes of u, u = t + 2^63: the same order)
// and checks the same failing sets, RandomPartitioner's widths Murmur3's times 2^63 and
// ByteOrderedPartitioner widths that count ranges.
func TestAvailabilityEveryPartitioner(t *testing.T) {
	rnd := rand.New(rand.NewSource(20261204))
	parts := []Partitioner{PartitionerMurmur3, PartitionerRandom, PartitionerByteOrdered}
	topos := make([]*Topology, 3)
	for p := range parts {
		var err error
		if topos[p], err = NewPartitionedTopology(parts[p]); err != nil {
			t.Fatal(err)
		}
		defer topos[p].Close()
	}
	const nodes, tokens = 7, 4
	for i := 0; i < nodes; i++ {
		m3 := make([]int64, tokens)
		rp := make([]Token128, tokens)
		bo := make([][]byte, tokens)
		for k := range m3 {
			u := rnd.Uint64()
			m3[k] = int64(u ^ 1<<63)
			rp[k] = Token128{Hi: u >> 1, Lo: u << 63}
			bo[k] = binary.BigEndian.AppendUint64(nil, u)
		}
		name, dc, rack := fmt.Sprintf("n%d", i), []string{"dc1", "dc2"}[i%2], fmt.Sprintf("r%d", i%3)
		if err := topos[0].AddNode(name, dc, rack, m3); err != nil {
			t.Fatal(err)
		}
		if err := topos[1].AddNode128(name, dc, rack, rp); err != nil {
			t.Fatal(err)
		}
		if err := topos[2].AddNodeBytes(name, dc, rack, bo); err != nil {
			t.Fatal(err)
		}
	}
	rings := make([]*Ring, 3)
	for p := range rings {
		var err error
		if rings[p], err = topos[p].Build(); err != nil {
			t.Fatal(err)
		}
		defer rings[p].Close()
	}
	repl, err := ParseReplication("NetworkTopologyStrategy:dc1=2,dc2=2")
	if err != nil {
		t.Fatal(err)
	}
	defer repl.Close()
	for _, cl := range []Consistency{One, Quorum, All} {
		for k := 1; k <= 2; k++ {
			var sets [3][]FailureSet
			for p := range rings {
				if sets[p], err = rings[p].Availability(repl, cl, "", k); err != nil {
					t.Fatal(cl, k, err)
				}
			}
			if len(sets[1]) != len(sets[0]) || len(sets[2]) != len(sets[0]) {
				t.Fatalf("cl %d k %d: %d / %d / %d sets", cl, k, len(sets[0]), len(sets[1]), len(sets[2]))
			}
			for i := range sets[0] {
				a, b, c := sets[0][i], sets[1][i], sets[2][i]
				if fmt.Sprint(a.Nodes) != fmt.Sprint(b.Nodes) || fmt.Sprint(a.Nodes) != fmt.Sprint(c.Nodes) {
					t.Fatalf("set %d: %v / %v / %v", i, a.Nodes, b.Nodes, c.Nodes)
				}
				if b.Width != shl63(a.Width) || b.Fraction != a.Fraction {
					t.Fatalf("set %d: RandomPartitioner %v %v, Murmur3 %v %v", i, b.Width, b.Fraction, a.Width, a.Fraction)
				}
				if c.Width.Hi != 0 || c.Width.Lo < 1 || c.Width.Lo > nodes*tokens ||
					c.Fraction != float64(c.Width.Lo)/float64(nodes*tokens) {
					t.Fatalf("set %d: ByteOrdered width %v fraction %v", i, c.Width, c.Fraction)
				}
			}
			var sums [3]*AvailabilitySummary
			for p := range rings {
				if sums[p], err = rings[p].AvailabilitySummary(repl, cl, "", FailNodes, k, 3); err != nil {
					t.Fatal(err)
				}
			}
			if sums[1].Breaking != sums[0].Breaking || sums[2].Breaking != sums[0].Breaking ||
				sums[1].WorstWidth != shl63(sums[0].WorstWidth) {
				t.Fatalf("summaries: %+v / %+v / %+v", sums[0], sums[1], sums[2])
			}
		}
	}
}
