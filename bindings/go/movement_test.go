// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"errors"
	"fmt"
	"math/big"
	"math/rand"
	"testing"
)

// mvConv writes a Murmur3 token t in the other partitioners: u * 2^63 and the 8 bytes of
// u, u = t + 2^63 (the same order).
func mvConv(t int64) (Token128, []byte) {
	u := uint64(t) ^ 1<<63
	return Token128{Hi: u >> 1, Lo: u << 63}, binary.BigEndian.AppendUint64(nil, u)
}

func mvConvAll(ts []int64) ([]Token128, [][]byte) {
	r := make([]Token128, len(ts))
	b := make([][]byte, len(ts))
	for i, t := range ts {
		r[i], b[i] = mvConv(t)
	}
	return r, b
}

// md5Token is RandomPartitioner's token from crypto/md5: abs of the digest as a signed
// 128-bit integer.
func md5Token(key []byte) Token128 {
	d := md5.Sum(key)
	v := new(big.Int).SetBytes(d[:])
	if d[0]&0x80 != 0 {
		v.Sub(v, new(big.Int).Lsh(big.NewInt(1), 128))
		v.Neg(v)
	}
	var b [16]byte
	v.FillBytes(b[:])
	return Token128{Hi: binary.BigEndian.Uint64(b[:8]), Lo: binary.BigEndian.Uint64(b[8:])}
}

func mvSame(t *testing.T, what string, m [3]*Movement) {
	t.Helper()
	for p, want := range []Partitioner{PartitionerMurmur3, PartitionerRandom, PartitionerByteOrdered} {
		if m[p].Partitioner != want {
			t.Fatalf("%s: partitioner %v, want %v", what, m[p].Partitioner, want)
		}
	}
	a, b, c := m[0], m[1], m[2]
	if len(b.Ranges) != len(a.Ranges) || len(c.Ranges) != len(a.Ranges) ||
		len(b.Streams) != len(a.Streams) || len(c.Streams) != len(a.Streams) {
		t.Fatalf("%s: %d/%d/%d ranges, %d/%d/%d streams", what, len(a.Ranges), len(b.Ranges),
			len(c.Ranges), len(a.Streams), len(b.Streams), len(c.Streams))
	}
	if b.Summary.ChangedWidth != shl63(a.Summary.ChangedWidth) ||
		b.Summary.ChangedFraction != a.Summary.ChangedFraction {
		t.Fatalf("%s: changed %v %v vs %v %v", what, b.Summary.ChangedWidth, b.Summary.ChangedFraction,
			a.Summary.ChangedWidth, a.Summary.ChangedFraction)
	}
	if c.Summary.ChangedWidth != (U128{Lo: uint64(len(a.Ranges))}) {
		t.Fatalf("%s: byte-ordered changed width %v, want %d", what, c.Summary.ChangedWidth, len(a.Ranges))
	}
	for i, ra := range a.Ranges {
		rb, rc := b.Ranges[i], c.Ranges[i]
		s128, sb := mvConv(ra.Start)
		e128, eb := mvConv(ra.End)
		if rb.Start128 != s128 || rb.End128 != e128 || rb.Width != shl63(ra.Width) {
			t.Fatalf("%s: range %d: %+v vs %+v", what, i, rb, ra)
		}
		if !bytes.Equal(rc.StartBytes, sb) || !bytes.Equal(rc.EndBytes, eb) || rc.Width != (U128{Lo: 1}) {
			t.Fatalf("%s: range %d: %+v vs %+v", what, i, rc, ra)
		}
		if fmt.Sprint(rb.OldReplicas, rb.NewReplicas) != fmt.Sprint(ra.OldReplicas, ra.NewReplicas) ||
			fmt.Sprint(rc.OldReplicas, rc.NewReplicas) != fmt.Sprint(ra.OldReplicas, ra.NewReplicas) {
			t.Fatalf("%s: range %d replicas differ", what, i)
		}
	}
	for i, sa := range a.Streams {
		sb, sc := b.Streams[i], c.Streams[i]
		if sb.Source != sa.Source || sb.Destination != sa.Destination || sb.RangeIndex != sa.RangeIndex ||
			sb.Strict != sa.Strict || sb.Width != shl63(sa.Width) ||
			sc.Source != sa.Source || sc.Destination != sa.Destination || sc.Width != (U128{Lo: 1}) {
			t.Fatalf("%s: stream %d: %+v / %+v / %+v", what, i, sa, sb, sc)
		}
	}
	for i, na := range a.Nodes {
		nb := b.Nodes[i]
		if nb.Name != na.Name || nb.GainedWidth != shl63(na.GainedWidth) || nb.LostWidth != shl63(na.LostWidth) ||
			nb.AfterWidth != shl63(na.AfterWidth) || c.Nodes[i].NeedsCleanup != na.NeedsCleanup {
			t.Fatalf("%s: node %d: %+v vs %+v", what, i, nb, na)
		}
	}
}

// TestMovementEveryPartitioner: one ring in three partitioners gives the same movement,
// RandomPartitioner's widths Murmur3's times 2^63, a ByteOrderedPartitioner width of 1
// per elementary range; sample keys hash with the partitioner; kept tokens and balance.
func TestMovementEveryPartitioner(t *testing.T) {
	rnd := rand.New(rand.NewSource(20261205))
	var topos [3]*Topology
	for p, part := range []Partitioner{PartitionerMurmur3, PartitionerRandom, PartitionerByteOrdered} {
		var err error
		if topos[p], err = NewPartitionedTopology(part); err != nil {
			t.Fatal(err)
		}
		defer topos[p].Close()
	}
	for i := 0; i < 6; i++ {
		m3 := []int64{int64(rnd.Uint64()), int64(rnd.Uint64()), int64(rnd.Uint64())}
		rp, bo := mvConvAll(m3)
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
	repl, err := ParseReplication("NetworkTopologyStrategy:dc1=2,dc2=2")
	if err != nil {
		t.Fatal(err)
	}
	defer repl.Close()
	var m [3]*Movement
	jt := []int64{int64(rnd.Uint64()), int64(rnd.Uint64())}
	jr, jb := mvConvAll(jt)
	if m[0], err = topos[0].SimulateJoin(repl, "new", "dc1", "r1", jt, nil); err != nil {
		t.Fatal(err)
	}
	if m[1], err = topos[1].SimulateJoin128(repl, "new", "dc1", "r1", jr, nil); err != nil {
		t.Fatal(err)
	}
	if m[2], err = topos[2].SimulateJoinBytes(repl, "new", "dc1", "r1", jb, nil); err != nil {
		t.Fatal(err)
	}
	mvSame(t, "join", m)
	for p := range topos {
		if m[p], err = topos[p].SimulateDecommissionKeys(repl, "n1", nil); err != nil {
			t.Fatal(err)
		}
	}
	mvSame(t, "decommission", m)
	for p := range topos {
		if m[p], err = topos[p].SimulateReplaceKeys(repl, "n0", "n9", nil); err != nil {
			t.Fatal(err)
		}
	}
	mvSame(t, "replace", m)
	mt := []int64{int64(rnd.Uint64())}
	mr, mb := mvConvAll(mt)
	if m[0], err = topos[0].SimulateMove(repl, "n2", mt, nil); err != nil {
		t.Fatal(err)
	}
	if m[1], err = topos[1].SimulateMove128(repl, "n2", mr, nil); err != nil {
		t.Fatal(err)
	}
	if m[2], err = topos[2].SimulateMoveBytes(repl, "n2", mb, nil); err != nil {
		t.Fatal(err)
	}
	mvSame(t, "move", m)

	// sample keys: MD5 on RandomPartitioner, the key on ByteOrderedPartitioner
	keys := [][]byte{[]byte("a"), []byte("key-2"), {}, []byte("zzzz")}
	mr1, err := topos[1].SimulateDecommissionKeys(repl, "n3", keys)
	if err != nil {
		t.Fatal(err)
	}
	mb1, err := topos[2].SimulateDecommissionKeys(repl, "n3", keys)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range keys {
		want := md5Token(k)
		if len(k) == 0 {
			want = Token128Min
		}
		if mr1.Samples[i].Token128 != want || mr1.Samples[i].Token != 0 {
			t.Fatalf("sample %d: %v, want %v", i, mr1.Samples[i].Token128, want)
		}
		if !bytes.Equal(mb1.Samples[i].TokenBytes, k) {
			t.Fatalf("sample %d: %x, want %x", i, mb1.Samples[i].TokenBytes, k)
		}
	}
	// CompareMovementKeys equals the simulation; on Murmur3 it hashes with Murmur3
	after, err := topos[1].Clone()
	if err != nil {
		t.Fatal(err)
	}
	defer after.Close()
	if err := after.RemoveNode("n3"); err != nil {
		t.Fatal(err)
	}
	mc, err := CompareMovementKeys(topos[1], after, repl, ChangeDecommission, keys)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(mc) != fmt.Sprint(mr1) {
		t.Fatal("CompareMovementKeys differs from SimulateDecommissionKeys")
	}
	m3k, err := topos[0].SimulateDecommissionKeys(repl, "n3", keys)
	if err != nil {
		t.Fatal(err)
	}
	for i, k := range keys {
		if m3k.Samples[i].Token != Token(k) {
			t.Fatalf("Murmur3 sample %d: %d, want %d", i, m3k.Samples[i].Token, Token(k))
		}
	}

	// kept tokens and balance on every partitioner
	var rings [3]*Ring
	for p := range topos {
		if rings[p], err = topos[p].Build(); err != nil {
			t.Fatal(err)
		}
		defer rings[p].Close()
		k, l, g, err := TokensKept(rings[p], rings[p])
		if err != nil || k != 18 || l != 0 || g != 0 {
			t.Fatalf("partitioner %d: kept %d %d %d %v", p, k, l, g, err)
		}
	}
	var pb [3]Balance
	for p := range rings {
		if pb[p], _, err = rings[p].Balance(nil, "", ""); err != nil {
			t.Fatal(err)
		}
	}
	if pb[1].MinWidth != shl63(pb[0].MinWidth) || pb[1].MaxNode != pb[0].MaxNode || pb[1].Mean != pb[0].Mean {
		t.Fatalf("balance: %+v vs %+v", pb[1], pb[0])
	}
	if pb[2].MinWidth != (U128{Lo: 3}) || pb[2].TotalWidth != (U128{Lo: 18}) || pb[2].Mean != 1.0/6 {
		t.Fatalf("byte-ordered balance: %+v", pb[2])
	}
}

func TestMovementPartitionedEdgesAndErrors(t *testing.T) {
	// RandomPartitioner: 2^127 joins after 2^126 (rf 1): c takes (2^126, 2^127]
	rp, err := NewPartitionedTopology(PartitionerRandom)
	if err != nil {
		t.Fatal(err)
	}
	defer rp.Close()
	half := Token128{Hi: 1 << 62}
	if err := rp.AddNode128("a", "dc1", "r1", []Token128{{}}); err != nil {
		t.Fatal(err)
	}
	if err := rp.AddNode128("b", "dc1", "r1", []Token128{half}); err != nil {
		t.Fatal(err)
	}
	one, err := ParseReplication("SimpleStrategy:1")
	if err != nil {
		t.Fatal(err)
	}
	defer one.Close()
	m, err := rp.SimulateJoin128(one, "c", "dc1", "r1", []Token128{Token128Max}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Ranges) != 1 || m.Ranges[0].Start128 != half || m.Ranges[0].End128 != Token128Max ||
		m.Ranges[0].Width != (U128{Hi: 1 << 62}) || m.Summary.ChangedFraction != 0.5 {
		t.Fatalf("%+v", m.Ranges)
	}
	// ByteOrdered: the empty token and tokens sharing 8 bytes
	bo, err := NewPartitionedTopology(PartitionerByteOrdered)
	if err != nil {
		t.Fatal(err)
	}
	defer bo.Close()
	if err := bo.AddNodeBytes("a", "dc1", "r1", [][]byte{{}}); err != nil {
		t.Fatal(err)
	}
	if err := bo.AddNodeBytes("b", "dc1", "r1", [][]byte{[]byte("abcdefgh1")}); err != nil {
		t.Fatal(err)
	}
	m, err = bo.SimulateJoinBytes(one, "c", "dc1", "r1", [][]byte{[]byte("abcdefgh0")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Ranges) != 1 || len(m.Ranges[0].StartBytes) != 0 || string(m.Ranges[0].EndBytes) != "abcdefgh0" ||
		m.Summary.ChangedFraction != 1.0/3 {
		t.Fatalf("%+v %+v", m.Ranges, m.Summary)
	}
	// bad input: errors, the topologies untouched
	if _, err := rp.SimulateJoin128(one, "c", "dc1", "r1", []Token128{Token128Min}, nil); !errors.Is(err, ErrRange) {
		t.Fatal("-1:", err)
	}
	if _, err := rp.SimulateJoin128(one, "c", "dc1", "r1", []Token128{half}, nil); !errors.Is(err, ErrExists) {
		t.Fatal("taken token:", err)
	}
	if _, err := rp.SimulateJoin128(one, "c", "dc1", "r1", []Token128{{Lo: 7}, {Lo: 7}}, nil); !errors.Is(err, ErrExists) {
		t.Fatal("duplicate:", err)
	}
	if _, err := rp.SimulateJoinBytes(one, "c", "dc1", "r1", [][]byte{[]byte("x")}, nil); !errors.Is(err, ErrUnsupported) {
		t.Fatal("bytes on random:", err)
	}
	if _, err := bo.SimulateMove128(one, "a", []Token128{{Lo: 1}}, nil); !errors.Is(err, ErrUnsupported) {
		t.Fatal("128 on byte-ordered:", err)
	}
	if _, err := rp.SimulateDecommission(one, "a", []int64{5}); !errors.Is(err, ErrUnsupported) {
		t.Fatal("int64 samples:", err)
	}
	if _, err := CompareMovementKeys(rp, bo, one, ChangeGeneric, nil); !errors.Is(err, ErrInvalid) {
		t.Fatal("two partitioners:", err)
	}
	if rp.NodeCount() != 2 || bo.NodeCount() != 2 {
		t.Fatal("a refused simulation changed the topology")
	}
}
