// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"runtime"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/libtokenring/tokenring/bindings/go/internal/ctiming"
)

// Benchmarks: ns per key for single and batched tokens and replica lookups on the rings
// of the C benchmark (bench/bench_ring.c): 6x8 tokens in one datacenter (rf 3) and
// 1000x256 tokens in 3 datacenters x 3 racks (rf 3 each), with 100,000 fixed random
// 16-byte keys. Each figure is reported as ns/key. Next to them, the same work in pure Go:
// a Cassandra Murmur3 written in Go plus a plain sort.Search over the sorted tokens and a
// flat replica table, which is what a Go driver's own ring code does (gocql keeps its ring
// and Murmur3 in unexported and internal packages, so it cannot be driven from outside).
//
// Every binding figure is measured next to the same operation done by plain C on an
// identical ring and key set (internal/ctiming, checked by checksum), interleaved pass by
// pass on one locked OS thread, with both sides timed in thread CPU time (so that time
// spent preempted by other processes does not count), and reported as C-cpu-ns/key and
// go/C, the median of the per-pass ratios.
//
//	go test -run '^$' -bench . -benchtime 15x -count 3

type benchRing struct {
	index   int // ring index in internal/ctiming
	name    string
	keys    *KeyBatch
	tokens  []int64 // token of each key
	ring    *Ring
	p       *Placement
	sorted  []int64    // ring tokens, ascending
	flat    [][]uint32 // replicas per range (Go baseline)
	nkeys   int
	replica int
}

var benchRings struct {
	once  sync.Once
	rings []*benchRing
}

// splitmix64, as in bench/bench_ring.c.
type splitmix struct{ s uint64 }

func (r *splitmix) next() uint64 {
	r.s += 0x9E3779B97F4A7C15
	z := r.s
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	return z ^ (z >> 31)
}

func makeBenchRing(b testing.TB, index int, name string, nodes, vnodes, dcs, racks int, repl string) *benchRing {
	rng := &splitmix{s: 0x2545F4914F6CDD1D}
	topo, err := NewTopology()
	if err != nil {
		b.Fatal(err)
	}
	defer topo.Close()
	toks := make([]int64, vnodes)
	for i := 0; i < nodes; i++ {
		for {
			for k := range toks {
				toks[k] = int64(rng.next())
			}
			err := topo.AddNode(fmt.Sprintf("10.%d.%d.%d", i%dcs, i/250, i%250), fmt.Sprintf("dc%d", i%dcs+1),
				fmt.Sprintf("rack%d", i/dcs%racks+1), toks)
			if err == nil {
				break
			}
			if !isExists(err) {
				b.Fatal(err)
			}
		}
	}
	ring, err := topo.Build()
	if err != nil {
		b.Fatal(err)
	}
	r, err := ParseReplication(repl)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	p, err := BuildPlacement(ring, r, 0)
	if err != nil {
		b.Fatal(err)
	}
	br := &benchRing{index: index, name: name, ring: ring, p: p, nkeys: 100000}
	br.sorted, _ = ring.Tokens()
	for i := range br.sorted {
		rr, _ := p.RangeReplicas(i)
		br.flat = append(br.flat, rr.Nodes)
		br.replica = len(rr.Nodes)
	}
	br.keys = NewKeyBatch(br.nkeys, br.nkeys*16)
	key := make([]byte, 16)
	for i := 0; i < br.nkeys; i++ {
		binary.LittleEndian.PutUint64(key, rng.next())
		binary.LittleEndian.PutUint64(key[8:], rng.next())
		br.keys.Add(key)
	}
	br.tokens = br.keys.Tokens()
	// The C side builds the same ring and keys.
	csum, err := ctiming.Setup(index, nodes, vnodes, dcs, racks, repl)
	if err != nil {
		b.Fatal(err)
	}
	var sum uint64
	for _, t := range br.sorted {
		sum = sum*31 + uint64(t)
	}
	for _, t := range br.tokens {
		sum = sum*31 + uint64(t)
	}
	if sum != csum {
		b.Fatalf("%s: the C timing ring differs from the Go one", name)
	}
	return br
}

func isExists(err error) bool {
	e, ok := err.(*Error)
	return ok && e.Code == CodeExists
}

func getBenchRings(b *testing.B) []*benchRing {
	benchRings.once.Do(func() {
		benchRings.rings = []*benchRing{
			makeBenchRing(b, 0, "6x8", 6, 8, 1, 1, "dc1=3"),
			makeBenchRing(b, 1, "1000x256", 1000, 256, 3, 3, "dc1=3,dc2=3,dc3=3"),
		}
	})
	return benchRings.rings
}

// measure runs pass b.N times, each followed (timer stopped) by the same operation in C
// (cop < 0: none), on one locked OS thread. It reports ns/key (wall time, as testing
// does), cpu-ns/key (the thread's CPU time per key, which leaves out the time spent
// preempted on a shared machine), C-cpu-ns/key (the same for the C passes) and go/C: the
// median over the passes of each Go pass's CPU time divided by the C pass right after it.
func measure(b *testing.B, br *benchRing, cop int, pass func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var goCPU, cCPU float64
	var wall time.Duration
	ratios := make([]float64, 0, b.N)
	b.ResetTimer()
	for it := 0; it < b.N; it++ {
		w0 := time.Now()
		t0 := threadCPUNanos()
		pass()
		g := float64(threadCPUNanos()-t0) / float64(br.nkeys)
		wall += time.Since(w0)
		goCPU += g
		if cop >= 0 {
			b.StopTimer()
			c := ctiming.Run(br.index, cop)
			cCPU += c
			ratios = append(ratios, g/c)
			b.StartTimer()
		}
	}
	b.ReportMetric(float64(wall.Nanoseconds())/float64(b.N)/float64(br.nkeys), "ns/key")
	b.ReportMetric(goCPU/float64(b.N), "cpu-ns/key")
	if cop >= 0 {
		b.ReportMetric(cCPU/float64(b.N), "C-cpu-ns/key")
		sort.Float64s(ratios)
		b.ReportMetric(ratios[len(ratios)/2], "go/C")
	}
}

var sink uint64

func BenchmarkToken(b *testing.B) {
	br := getBenchRings(b)[0]
	n := br.nkeys
	b.Run("single", func(b *testing.B) {
		measure(b, br, ctiming.TokenSingle, func() {
			var acc int64
			for i := 0; i < n; i++ {
				acc += Token(br.keys.Key(i))
			}
			sink += uint64(acc)
		})
	})
	b.Run("single-cgo", func(b *testing.B) {
		measure(b, br, ctiming.TokenSingle, func() {
			var acc int64
			for i := 0; i < n; i++ {
				acc += cToken(br.keys.Key(i))
			}
			sink += uint64(acc)
		})
	})
	b.Run("batch", func(b *testing.B) {
		out := make([]int64, n)
		measure(b, br, ctiming.TokenBatch, func() {
			if err := br.keys.TokensInto(out); err != nil {
				b.Fatal(err)
			}
		})
	})
	b.Run("go-murmur3", func(b *testing.B) {
		measure(b, br, ctiming.TokenSingle, func() {
			var acc int64
			for i := 0; i < n; i++ {
				acc += goToken(br.keys.Key(i))
			}
			sink += uint64(acc)
		})
	})
}

func BenchmarkReplicas(b *testing.B) {
	for _, br := range getBenchRings(b) {
		br := br
		n := br.nkeys
		b.Run(br.name+"/owner-single", func(b *testing.B) {
			measure(b, br, ctiming.OwnerSingle, func() {
				acc := 0
				for i := 0; i < n; i++ {
					o, _ := br.ring.Search(br.tokens[i])
					acc += o
				}
				sink += uint64(acc)
			})
		})
		b.Run(br.name+"/owner-sort.Search", func(b *testing.B) {
			measure(b, br, ctiming.OwnerSingle, func() {
				acc := 0
				for i := 0; i < n; i++ {
					acc += goSearch(br.sorted, br.tokens[i])
				}
				sink += uint64(acc)
			})
		})
		b.Run(br.name+"/key-single", func(b *testing.B) {
			dst := make([]uint32, 0, 16)
			measure(b, br, ctiming.KeySingle, func() {
				var acc uint64
				for i := 0; i < n; i++ {
					dst, _ = br.p.AppendReplicasForKey(dst[:0], br.keys.Key(i))
					for _, r := range dst {
						acc += uint64(r)
					}
				}
				sink += acc
			})
		})
		b.Run(br.name+"/key-batch", func(b *testing.B) {
			ids := make([]uint32, n)
			measure(b, br, ctiming.KeyBatch, func() {
				if err := br.p.RouteKeys(nil, ids, br.keys); err != nil {
					b.Fatal(err)
				}
				sets, _ := br.p.Sets()
				var acc uint64
				for _, id := range ids {
					for _, r := range sets[id].Nodes {
						acc += uint64(r)
					}
				}
				sink += acc
			})
		})
		b.Run(br.name+"/key-batch-replicas", func(b *testing.B) {
			dst := make([]Replicas, 0, n)
			measure(b, br, ctiming.KeyReplicasBatch, func() {
				var err error
				if dst, err = br.p.RouteKeysReplicas(dst[:0], nil, br.keys); err != nil {
					b.Fatal(err)
				}
				var acc uint64
				for i := range dst {
					for _, r := range dst[i].Nodes {
						acc += uint64(r)
					}
				}
				sink += acc
			})
		})
		b.Run(br.name+"/key-batch-replicas-256", func(b *testing.B) {
			var chunks []*KeyBatch
			for i := 0; i < n; i += 256 {
				c := NewKeyBatch(256, 256*16)
				for j := i; j < i+256 && j < n; j++ {
					c.Add(br.keys.Key(j))
				}
				chunks = append(chunks, c)
			}
			dst := make([]Replicas, 0, 256)
			measure(b, br, ctiming.KeyReplicasBatch, func() {
				var acc uint64
				var err error
				for _, c := range chunks {
					if dst, err = br.p.RouteKeysReplicas(dst[:0], nil, c); err != nil {
						b.Fatal(err)
					}
					for i := range dst {
						for _, r := range dst[i].Nodes {
							acc += uint64(r)
						}
					}
				}
				sink += acc
			})
		})
		b.Run(br.name+"/key-go-murmur3+sort.Search", func(b *testing.B) {
			measure(b, br, ctiming.KeyBatch, func() {
				var acc uint64
				for i := 0; i < n; i++ {
					for _, r := range br.flat[goSearch(br.sorted, goToken(br.keys.Key(i)))] {
						acc += uint64(r)
					}
				}
				sink += acc
			})
		})
		b.Run(br.name+"/token-single", func(b *testing.B) {
			dst := make([]uint32, 0, 16)
			measure(b, br, ctiming.TokenReplicasSingle, func() {
				var acc uint64
				for i := 0; i < n; i++ {
					dst, _ = br.p.AppendReplicas(dst[:0], br.tokens[i])
					acc += uint64(dst[0])
				}
				sink += acc
			})
		})
		b.Run(br.name+"/token-batch", func(b *testing.B) {
			ids := make([]uint32, n)
			measure(b, br, ctiming.TokenReplicasBatch, func() {
				if err := br.p.RouteTokens(ids, br.tokens); err != nil {
					b.Fatal(err)
				}
				sets, _ := br.p.Sets()
				var acc uint64
				for _, id := range ids {
					acc += uint64(sets[id].Nodes[0])
				}
				sink += acc
			})
		})
		b.Run(br.name+"/token-sort.Search", func(b *testing.B) {
			measure(b, br, ctiming.TokenReplicasBatch, func() {
				var acc uint64
				for i := 0; i < n; i++ {
					acc += uint64(br.flat[goSearch(br.sorted, br.tokens[i])][0])
				}
				sink += acc
			})
		})
	}
}

// goSearch is the plain baseline: sort.Search for the first token >= t, wrapping.
func goSearch(sorted []int64, t int64) int {
	i := sort.Search(len(sorted), func(i int) bool { return sorted[i] >= t })
	if i == len(sorted) {
		return 0
	}
	return i
}

// goToken is Cassandra's Murmur3Partitioner token written in Go (signed tail bytes), the
// pure-Go baseline; TestGoMurmur3Baseline checks it against the golden vectors.
func goToken(key []byte) int64 {
	if len(key) == 0 {
		return MinToken
	}
	const c1, c2 = 0x87c37b91114253d5, 0x4cf5ad432745937f
	var h1, h2 uint64
	n := len(key) / 16
	for i := 0; i < n; i++ {
		k1 := binary.LittleEndian.Uint64(key[16*i:])
		k2 := binary.LittleEndian.Uint64(key[16*i+8:])
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
		h1 = bits.RotateLeft64(h1, 27)
		h1 += h2
		h1 = h1*5 + 0x52dce729
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
		h2 = bits.RotateLeft64(h2, 31)
		h2 += h1
		h2 = h2*5 + 0x38495ab5
	}
	tail := key[16*n:]
	var k1, k2 uint64
	// Cassandra reads tail bytes as signed Java bytes: sign-extend each one.
	sx := func(b byte) uint64 { return uint64(int64(int8(b))) }
	switch len(tail) {
	case 15:
		k2 ^= sx(tail[14]) << 48
		fallthrough
	case 14:
		k2 ^= sx(tail[13]) << 40
		fallthrough
	case 13:
		k2 ^= sx(tail[12]) << 32
		fallthrough
	case 12:
		k2 ^= sx(tail[11]) << 24
		fallthrough
	case 11:
		k2 ^= sx(tail[10]) << 16
		fallthrough
	case 10:
		k2 ^= sx(tail[9]) << 8
		fallthrough
	case 9:
		k2 ^= sx(tail[8])
		k2 *= c2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= c1
		h2 ^= k2
		fallthrough
	case 8:
		k1 ^= sx(tail[7]) << 56
		fallthrough
	case 7:
		k1 ^= sx(tail[6]) << 48
		fallthrough
	case 6:
		k1 ^= sx(tail[5]) << 40
		fallthrough
	case 5:
		k1 ^= sx(tail[4]) << 32
		fallthrough
	case 4:
		k1 ^= sx(tail[3]) << 24
		fallthrough
	case 3:
		k1 ^= sx(tail[2]) << 16
		fallthrough
	case 2:
		k1 ^= sx(tail[1]) << 8
		fallthrough
	case 1:
		k1 ^= sx(tail[0])
		k1 *= c1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= c2
		h1 ^= k1
	}
	h1 ^= uint64(len(key))
	h2 ^= uint64(len(key))
	h1 += h2
	h2 += h1
	h1 = fmix(h1)
	h2 = fmix(h2)
	h1 += h2
	if int64(h1) == MinToken {
		return MaxToken
	}
	return int64(h1)
}

func fmix(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// TestGoMurmur3Baseline keeps the benchmark's pure-Go baseline honest.
func TestGoMurmur3Baseline(t *testing.T) {
	for i, r := range readTSV(t, "murmur3_tokens.tsv", "key_hex\ttoken") {
		if got, want := goToken(mustHex(t, r[0])), mustInt(t, r[1]); got != want {
			t.Fatalf("row %d: Go baseline token %d, want %d", i+2, got, want)
		}
	}
}

// BenchmarkCgoCall is the floor of any single-key call: one cgo crossing to the cheapest
// library function (tokenring_version_number), per key.
func BenchmarkCgoCall(b *testing.B) {
	br := getBenchRings(b)[0]
	measure(b, br, -1, func() {
		acc := 0
		for i := 0; i < br.nkeys; i++ {
			acc += VersionNumber()
		}
		sink += uint64(acc)
	})
}

// BenchmarkParallelLookup: every core looks up replicas on one shared placement, as a
// driver's request goroutines do. ns/op is wall time per lookup over all goroutines
// (so with 2 cores, half the per-goroutine latency when nothing is contended).
func BenchmarkParallelLookup(b *testing.B) {
	for _, br := range getBenchRings(b) {
		br := br
		b.Run(br.name+"/token-single", func(b *testing.B) {
			b.RunParallel(func(pb *testing.PB) {
				dst := make([]uint32, 0, 16)
				i := 0
				var acc uint64
				for pb.Next() {
					dst, _ = br.p.AppendReplicas(dst[:0], br.tokens[i])
					acc += uint64(dst[0])
					if i++; i == br.nkeys {
						i = 0
					}
				}
				sinkAdd(acc)
			})
		})
		b.Run(br.name+"/key-batch-1024", func(b *testing.B) {
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				batch := NewKeyBatch(1024, 1024*16)
				ids := make([]uint32, 1024)
				start := 0
				var acc uint64
				for pb.Next() {
					batch.Reset()
					for k := 0; k < 1024; k++ {
						batch.Add(br.keys.Key((start + k) % br.nkeys))
					}
					start = (start + 1024) % br.nkeys
					if err := br.p.RouteKeys(nil, ids, batch); err != nil {
						b.Error(err)
						return
					}
					sets, _ := br.p.Sets()
					for _, id := range ids {
						acc += uint64(sets[id].Nodes[0])
					}
				}
				sinkAdd(acc)
			})
			b.ReportMetric(float64(time.Since(start).Nanoseconds())/float64(b.N)/1024, "ns/key")
		})
	}
}

var sinkMu sync.Mutex

func sinkAdd(v uint64) {
	sinkMu.Lock()
	sink += v
	sinkMu.Unlock()
}
