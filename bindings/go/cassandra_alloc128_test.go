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

// TestAllocateAsCassandra128Vectors replays the vectors made by running Cassandra's own
// allocator with RandomPartitioner (tests/data/cassandra_allocation_random_*.tsv): every
// token set must be equal and every failure must fail.
func TestAllocateAsCassandra128Vectors(t *testing.T) {
	for file, release := range map[string]CassandraRelease{
		"cassandra_allocation_random_5.0.6.tsv":  Cassandra50,
		"cassandra_allocation_random_4.1.10.tsv": Cassandra41,
		"cassandra_allocation_random_4.0.19.tsv": Cassandra40,
	} {
		f, err := os.Open(filepath.Join(dataDir, file))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		var topo *Topology
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
				if topo, err = NewPartitionedTopology(PartitionerRandom); err != nil {
					t.Fatal(err)
				}
				continue
			case "node":
				if err := topo.AddNode128(fs[1], fs[2], fs[3], parseToken128List(t, fs[5])); err != nil {
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
			var first *Token128
			if fs[6] != "-" {
				v, err := ParseToken128(fs[6])
				if err != nil {
					t.Fatal(err)
				}
				first = &v
			}
			got, gerr := topo.AllocateAsCassandra128(nt, fs[1], fs[2], fs[3], ks, localRF, first, release, 0)
			if ks != nil {
				ks.Close()
			}
			vectors++
			if rest, ok := strings.CutPrefix(fs[7], "ok "); ok {
				want := parseToken128List(t, rest)
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
					wantSet := map[Token128]bool{}
					for _, w := range want {
						wantSet[w] = true
					}
					for i := topo.NodeCount() - 1; i >= 0; i-- {
						n, _ := topo.Node(i)
						if n.State != StateJoining {
							continue
						}
						toks, _ := topo.NodeTokens128(i)
						for _, tk := range toks {
							if wantSet[tk] {
								_ = topo.RemoveNode(n.Name)
								break
							}
						}
					}
					if err := topo.AddNode128(fs[1], fs[2], fs[3], want); err != nil {
						t.Fatal(err)
					}
				}
			} else if gerr == nil {
				t.Errorf("%s: %s %s: Cassandra failed (%s), got %v", file, fs[0], fs[1], fs[7], got)
			} else {
				equal++
			}
		}
		f.Close()
		if topo != nil {
			topo.Close()
		}
		if vectors < 900 || equal != vectors {
			t.Errorf("%s: %d of %d vectors equal", file, equal, vectors)
		}
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
