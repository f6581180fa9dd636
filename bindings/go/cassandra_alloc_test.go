// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func parseTokenList(t *testing.T, s string) []int64 {
	t.Helper()
	parts := strings.Split(s, ",")
	out := make([]int64, len(parts))
	for i, p := range parts {
		v, err := strconv.ParseInt(p, 10, 64)
		if err != nil {
			t.Fatalf("token %q: %v", p, err)
		}
		out[i] = v
	}
	return out
}

func parseToken128List(t *testing.T, s string) []Token128 {
	t.Helper()
	parts := strings.Split(s, ",")
	out := make([]Token128, len(parts))
	for i, p := range parts {
		v, err := ParseToken128(p)
		if err != nil {
			t.Fatalf("token %q: %v", p, err)
		}
		out[i] = v
	}
	return out
}

// allocVectors are the vectors made by running Cassandra's own allocator, per
// partitioner (ByteOrderedPartitioner has no allocation in Cassandra), with the typed
// call of the partitioner, whose tokens must equal the text call's.
var allocVectors = []struct {
	p       Partitioner
	files   map[string]CassandraRelease
	atLeast int
	typed   func(t *testing.T, topo *Topology, nt int, name, dc, rack string, ks *Replication, localRF int, first *string, release CassandraRelease) ([]string, error)
}{
	{PartitionerMurmur3, map[string]CassandraRelease{
		"cassandra_allocation_5.0.2.tsv":  Cassandra50,
		"cassandra_allocation_4.1.7.tsv":  Cassandra41,
		"cassandra_allocation_4.0.14.tsv": Cassandra40,
	}, 1000, func(t *testing.T, topo *Topology, nt int, name, dc, rack string, ks *Replication, localRF int, first *string, release CassandraRelease) ([]string, error) {
		var f *int64
		if first != nil {
			v := parseTokenList(t, *first)[0]
			f = &v
		}
		got, err := topo.AllocateAsCassandra(nt, name, dc, rack, ks, localRF, f, release, 0)
		return int64Texts(got), err
	}},
	{PartitionerRandom, map[string]CassandraRelease{
		"cassandra_allocation_random_5.0.6.tsv":  Cassandra50,
		"cassandra_allocation_random_4.1.10.tsv": Cassandra41,
		"cassandra_allocation_random_4.0.19.tsv": Cassandra40,
	}, 900, func(t *testing.T, topo *Topology, nt int, name, dc, rack string, ks *Replication, localRF int, first *string, release CassandraRelease) ([]string, error) {
		var f *Token128
		if first != nil {
			f = &parseToken128List(t, *first)[0]
		}
		got, err := topo.AllocateAsCassandra128(nt, name, dc, rack, ks, localRF, f, release, 0)
		return token128Texts(got), err
	}},
}

// TestAllocateAsCassandraVectors replays the vectors made by running Cassandra's own
// allocator (tests/data/cassandra_allocation_*.tsv, Murmur3Partitioner, and
// cassandra_allocation_random_*.tsv, RandomPartitioner) through the one text call for
// every partitioner and the partitioner's typed call: every token set must be equal and
// every failure must fail.
func TestAllocateAsCassandraVectors(t *testing.T) {
	for _, pv := range allocVectors {
		for file, release := range pv.files {
			allocVectorFile(t, pv.p, file, release, pv.atLeast, pv.typed)
		}
	}
}

func allocVectorFile(t *testing.T, p Partitioner, file string, release CassandraRelease, atLeast int,
	typed func(t *testing.T, topo *Topology, nt int, name, dc, rack string, ks *Replication, localRF int, first *string, release CassandraRelease) ([]string, error)) {
	f, err := os.Open(filepath.Join(dataDir, file))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	var topo *Topology
	defer func() {
		if topo != nil {
			topo.Close()
		}
	}()
	vectors, equal := 0, 0
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fs := strings.Split(line, "\t")
		switch fs[0] {
		case "seq":
			if topo != nil {
				topo.Close()
			}
			if topo, err = NewPartitionedTopology(p); err != nil {
				t.Fatal(err)
			}
			continue
		case "node":
			if err := topo.AddNodeText(fs[1], fs[2], fs[3], strings.Split(fs[5], ",")); err != nil {
				t.Fatal(err)
			}
			if fs[4] == "J" {
				if err := topo.SetState(fs[1], StateJoining, Up); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		nt, _ := strconv.Atoi(fs[4])
		kind, arg, _ := strings.Cut(fs[5], ":")
		var ks *Replication
		localRF := 0
		switch kind {
		case "rf":
			localRF, _ = strconv.Atoi(arg)
		case "simple":
			rf, _ := strconv.Atoi(arg)
			ks, err = NewSimpleStrategy(rf, 0)
		default:
			m := map[string]int{}
			for _, kv := range strings.Split(arg, ",") {
				k, v, _ := strings.Cut(kv, "=")
				m[k], _ = strconv.Atoi(v)
			}
			ks, err = NewNetworkTopologyStrategy(m)
		}
		if err != nil {
			t.Fatal(err)
		}
		var first *string
		if fs[6] != "-" {
			first = &fs[6]
		}
		got, gerr := topo.AllocateAsCassandraText(nt, fs[1], fs[2], fs[3], ks, localRF, first, release, 0)
		tgot, terr := typed(t, topo, nt, fs[1], fs[2], fs[3], ks, localRF, first, release)
		if (gerr == nil) != (terr == nil) || (gerr == nil && strings.Join(got, ",") != strings.Join(tgot, ",")) {
			t.Errorf("%s: %s %s: the %v typed call gave %v (%v), the text call %v (%v)", file, fs[0], fs[1], p, tgot, terr, got, gerr)
		}
		if ks != nil {
			ks.Close()
		}
		vectors++
		if rest, ok := strings.CutPrefix(fs[7], "ok "); ok {
			want := strings.Split(rest, ",")
			same := gerr == nil && len(got) == len(want)
			for i := 0; same && i < len(want); i++ {
				same = got[i] == want[i]
			}
			if !same {
				t.Errorf("%s: %s %s: got %v (%v), want %v", file, fs[0], fs[1], got, gerr, want)
				continue
			}
			equal++
			if fs[0] == "join" {
				// a joining node Cassandra could not see may hold one of these tokens
				wantSet := map[string]bool{}
				for _, w := range want {
					wantSet[w] = true
				}
				for i := topo.NodeCount() - 1; i >= 0; i-- {
					n, _ := topo.Node(i)
					if n.State != StateJoining {
						continue
					}
					toks, _ := topo.NodeTokensText(i)
					for _, tk := range toks {
						if wantSet[tk] {
							_ = topo.RemoveNode(n.Name)
							break
						}
					}
				}
				if err := topo.AddNodeText(fs[1], fs[2], fs[3], want); err != nil {
					t.Fatal(err)
				}
			}
		} else if gerr == nil {
			t.Errorf("%s: %s %s: Cassandra failed (%s), got %v", file, fs[0], fs[1], fs[7], got)
		} else {
			equal++
		}
	}
	if vectors < atLeast || equal != vectors {
		t.Errorf("%s: %d of %d vectors equal", file, equal, vectors)
	}
}

func TestAllocateAsCassandraArguments(t *testing.T) {
	topo, _ := NewTopology()
	defer topo.Close()
	if err := topo.AddNode("10.0.0.1", "dc1", "rack1", []int64{0}); err != nil {
		t.Fatal(err)
	}
	if _, err := topo.AllocateAsCassandra(1, "10.0.0.1", "dc1", "rack1", nil, 3, nil, Cassandra50, 0); err == nil {
		t.Error("a node already in the ring was accepted")
	}
	if _, err := topo.AllocateAsCassandra(4, "10.0.0.2", "dc2", "rack1", nil, 3, nil, Cassandra50, 0); err == nil {
		t.Error("an empty allocation ring without a first token was accepted")
	}
	if _, err := topo.AllocateAsCassandra(4, "10.0.0.2", "dc1", "rack1", nil, 3, nil, 0x0311, 0); err == nil {
		t.Error("an unknown release was accepted")
	}
	first := int64(123)
	got, err := topo.AllocateAsCassandra(4, "10.0.0.2", "dc2", "rack1", nil, 3, &first, Cassandra41, CassandraOffline)
	if err != nil || len(got) != 4 {
		t.Fatalf("got %v, %v", got, err)
	}
	found := false
	for _, g := range got {
		found = found || g == first
	}
	if !found {
		t.Errorf("the first token %d of an empty ring is not among %v", first, got)
	}
}

// TestAllocateJoin reaches tokenring_allocate_join: SimpleStrategy 2 over two nodes that
// Cassandra built, then the argument checks.
func TestAllocateJoin(t *testing.T) {
	topo, err := NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	first := int64(-8686704767075290596)
	for _, name := range []string{"172.16.0.11", "172.16.0.12"} {
		toks, err := topo.AllocateAsCassandra(16, name, "datacenter1", "RAC1", nil, 2, &first, Cassandra50, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := topo.AddNode(name, "datacenter1", "RAC1", toks); err != nil {
			t.Fatal(err)
		}
	}
	ks, err := NewSimpleStrategy(2, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer ks.Close()
	got, err := topo.AllocateJoin(16, "172.16.0.13", "datacenter1", "rack1", ks, 0, Cassandra50)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 16 {
		t.Fatalf("%d tokens", len(got))
	}
	for i := 1; i < len(got); i++ {
		if got[i-1] >= got[i] {
			t.Fatalf("tokens not ascending: %v", got)
		}
	}
	theirs, err := topo.AllocateAsCassandra(16, "172.16.0.13", "datacenter1", "rack1", ks, 0, nil, Cassandra50, 0)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != fmt.Sprint(theirs) {
		t.Fatalf("default plan %v, Cassandra's tokens %v", got, theirs)
	}
	one, err := topo.AllocateJoinOneStep(16, "172.16.0.13", "datacenter1", "rack1", ks, 0, Cassandra50)
	if err != nil || len(one) != 16 {
		t.Fatalf("one step: %v %v", one, err)
	}
	if _, err := topo.AllocateJoinOneStep(16, "172.16.0.11", "datacenter1", "rack1", nil, 3, Cassandra50); !errors.Is(err, ErrExists) {
		t.Fatalf("existing node, one step: %v", err)
	}
	if _, err := topo.AllocateJoin(16, "172.16.0.11", "datacenter1", "rack1", nil, 3, Cassandra50); !errors.Is(err, ErrExists) {
		t.Fatalf("existing node: %v", err)
	}
	if _, err := topo.AllocateJoin(0, "172.16.0.13", "datacenter1", "rack1", nil, 3, Cassandra50); err == nil {
		t.Fatal("0 tokens accepted")
	}
}

func TestAllocateAsCassandra128Arguments(t *testing.T) {
	topo, _ := NewPartitionedTopology(PartitionerRandom)
	defer topo.Close()
	if err := topo.AddNode128("10.0.0.1", "dc1", "rack1", []Token128{{0, 0}}); err != nil {
		t.Fatal(err)
	}
	if _, err := topo.AllocateAsCassandra128(1, "10.0.0.1", "dc1", "rack1", nil, 3, nil, Cassandra50, 0); !errors.Is(err, ErrExists) {
		t.Errorf("a node already in the ring: %v", err)
	}
	if _, err := topo.AllocateAsCassandra128(4, "10.0.0.2", "dc2", "rack1", nil, 3, nil, Cassandra50, 0); !errors.Is(err, ErrInvalid) {
		t.Errorf("an empty allocation ring without a first token: %v", err)
	}
	for _, bad := range []Token128{Token128Min, {Token128MaxHi, 1}} {
		if _, err := topo.AllocateAsCassandra128(4, "10.0.0.2", "dc2", "rack1", nil, 3, &bad, Cassandra50, 0); !errors.Is(err, ErrRange) {
			t.Errorf("first token %v: %v", bad, err)
		}
	}
	if _, err := topo.AllocateAsCassandra(1, "10.0.0.2", "dc1", "rack1", nil, 1, nil, Cassandra50, 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("the 64-bit call on a RandomPartitioner topology: %v", err)
	}
	top := Token128{Token128MaxHi, 0}
	got, err := topo.AllocateAsCassandra128(4, "10.0.0.2", "dc2", "rack1", nil, 3, &top, Cassandra41, CassandraOffline)
	if err != nil || len(got) != 4 || got[3] != top {
		t.Fatalf("got %v, %v; want 4 tokens ending at the first one, 2^127", got, err)
	}
	m3, _ := NewTopology()
	defer m3.Close()
	if err := m3.AddNode("10.0.0.1", "dc1", "rack1", []int64{0}); err != nil {
		t.Fatal(err)
	}
	if _, err := m3.AllocateAsCassandra128(1, "10.0.0.2", "dc1", "rack1", nil, 1, nil, Cassandra50, 0); !errors.Is(err, ErrUnsupported) {
		t.Errorf("a Murmur3 topology: %v", err)
	}
	bop, _ := NewPartitionedTopology(PartitionerByteOrdered)
	defer bop.Close()
	if err := bop.AddNodeBytes("10.0.0.1", "dc1", "rack1", [][]byte{[]byte("k")}); err != nil {
		t.Fatal(err)
	}
	_, err = bop.AllocateAsCassandra128(1, "10.0.0.2", "dc1", "rack1", nil, 1, &top, Cassandra50, 0)
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "ByteOrderedPartitioner") {
		t.Errorf("a ByteOrderedPartitioner topology: %v", err)
	}
}

// TestAllocateJoin128 reaches tokenring_allocate_join128: tokens 0 .. 2^127, ascending,
// none held; a Murmur3 topology is refused with ErrUnsupported.
func TestAllocateJoin128(t *testing.T) {
	topo, err := NewPartitionedTopology(PartitionerRandom)
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	held := map[Token128]bool{}
	for i := 0; i < 4; i++ {
		toks := make([]Token128, 8)
		for k := range toks {
			toks[k] = Token128{Hi: uint64(i*8+k+1) << 57, Lo: uint64(i)}
			held[toks[k]] = true
		}
		if err := topo.AddNode128(fmt.Sprintf("10.0.0.%d", i+1), "dc1", fmt.Sprintf("r%d", i%2), toks); err != nil {
			t.Fatal(err)
		}
	}
	got, err := topo.AllocateJoin128(8, "10.0.1.1", "dc1", "r0", nil, 2, Cassandra50)
	if err != nil {
		t.Fatal(err)
	}
	max := Token128{Hi: 1 << 63}
	for i, tk := range got {
		if held[tk] || (tk.Hi > max.Hi || (tk.Hi == max.Hi && tk.Lo > 0)) {
			t.Fatalf("token %d %v held or above 2^127", i, tk)
		}
		if i > 0 && (got[i-1].Hi > tk.Hi || (got[i-1].Hi == tk.Hi && got[i-1].Lo >= tk.Lo)) {
			t.Fatalf("tokens not ascending: %v", got)
		}
	}
	m3, _ := NewTopology()
	defer m3.Close()
	if _, err := m3.AllocateJoin128(4, "n", "dc1", "r1", nil, 1, Cassandra50); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("a Murmur3 topology: %v", err)
	}
}
