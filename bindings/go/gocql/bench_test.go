// SPDX-License-Identifier: Apache-2.0

package tokenringgocql

// Benchmarks of the Policy next to gocql's own TokenAwareHostPolicy, on the same hosts, in
// the same run: 96 nodes x 256 tokens, two datacenters of 48 nodes on 3 racks each, a
// keyspace {dc1: 3, dc2: 3}. Recorded in doc/driver-policies.md:
//
//	cd bindings/go/gocql && go test -run '^$' -bench . -benchmem
//
// (with PKG_CONFIG_PATH / LD_LIBRARY_PATH of a Meson build, as bindings/go/test.sh sets).

import (
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gocql/gocql"
	"github.com/libtokenring/tokenring/bindings/go/gocql/internal/cmem"
)

const benchNodes, benchTokens = 48, 256

func benchLayout() []testNode {
	racks := make([]string, benchNodes)
	for i := range racks {
		racks[i] = "r" + strconv.Itoa(i%3+1)
	}
	return layout(42, benchTokens, []string{"dc1", "dc2"}, [][]string{racks, racks})
}

type benchSet struct {
	ours, theirs gocql.HostSelectionPolicy
	hosts        []*gocql.HostInfo
	extra        *gocql.HostInfo
	s            schema
}

var (
	benchOnce sync.Once
	bench     benchSet
)

func benchSchema() schema {
	return schema{"ks": ksMeta("ks", nts, map[string]interface{}{"dc1": "3", "dc2": "3"})}
}

func setupBench() *benchSet {
	benchOnce.Do(func() {
		nodes := benchLayout()
		s := benchSchema()
		for _, n := range nodes {
			bench.hosts = append(bench.hosts, newHost(n))
		}
		e := layout(4242, benchTokens, []string{"dc1"}, [][]string{{"r1"}})[0]
		e.addr = "10.0.1.250"
		bench.extra = newHost(e)
		bench.s = s
		bench.ours = buildOurs(s, bench.hosts)
		bench.theirs = buildTheirs(s, bench.hosts)
	})
	return &bench
}

func buildOurs(s schema, hosts []*gocql.HostInfo) gocql.HostSelectionPolicy {
	p := NewPolicy(gocql.DCAwareRoundRobinPolicy("dc1"), WithKeyspaceMetadata(s.get))
	p.SetPartitioner(murmur3)
	p.AddHosts(hosts)
	p.KeyspaceChanged(gocql.KeyspaceUpdateEvent{Keyspace: "ks", Change: "CREATED"})
	return p
}

func buildTheirs(s schema, hosts []*gocql.HostInfo) gocql.HostSelectionPolicy {
	p := gocqlTokenAware(gocql.DCAwareRoundRobinPolicy("dc1"), s, "ks")
	p.SetPartitioner(murmur3)
	p.(interface{ AddHosts([]*gocql.HostInfo) }).AddHosts(hosts)
	p.KeyspaceChanged(gocql.KeyspaceUpdateEvent{Keyspace: "ks", Change: "CREATED"})
	return p
}

func benchPick(b *testing.B, p gocql.HostSelectionPolicy) {
	ks := keys(4096, 1)
	qs := make([]*gocql.Query, len(ks))
	for i, k := range ks {
		qs[i] = query("ks", k)
	}
	cpu(b, func(i int) {
		next := p.Pick(qs[i&4095])
		if next() == nil {
			b.Fatal("no host")
		}
	})
}

// BenchmarkPick: one Pick and its first host (the routing cost of a request).
func BenchmarkPick(b *testing.B) {
	s := setupBench()
	b.Run("tokenring", func(b *testing.B) { benchPick(b, s.ours) })
	b.Run("gocql", func(b *testing.B) { benchPick(b, s.theirs) })
}

// BenchmarkPickPlan: one Pick and its whole plan (96 hosts).
func BenchmarkPickPlan(b *testing.B) {
	s := setupBench()
	q := query("ks", []byte("partition-key"))
	for _, c := range []struct {
		name string
		p    gocql.HostSelectionPolicy
	}{{"tokenring", s.ours}, {"gocql", s.theirs}} {
		b.Run(c.name, func(b *testing.B) {
			cpu(b, func(int) {
				next := c.p.Pick(q)
				for h := next(); h != nil; h = next() {
				}
			})
		})
	}
}

// BenchmarkTopologyChange: a node joins then leaves (two ring rebuilds per op; each policy
// recomputes the keyspace's replicas).
func BenchmarkTopologyChange(b *testing.B) {
	s := setupBench()
	for _, c := range []struct {
		name string
		p    gocql.HostSelectionPolicy
	}{{"tokenring", s.ours}, {"gocql", s.theirs}} {
		b.Run(c.name, func(b *testing.B) {
			cpu(b, func(int) {
				c.p.AddHost(s.extra)
				c.p.RemoveHost(s.extra)
			})
		})
	}
}

// BenchmarkSchemaChange: ALTER KEYSPACE between two replication factors (one keyspace
// rebuild per op).
func BenchmarkSchemaChange(b *testing.B) {
	s := setupBench()
	alt := []*gocql.KeyspaceMetadata{
		ksMeta("ks", nts, map[string]interface{}{"dc1": "2", "dc2": "2"}),
		ksMeta("ks", nts, map[string]interface{}{"dc1": "3", "dc2": "3"}),
	}
	for _, c := range []struct {
		name string
		p    gocql.HostSelectionPolicy
	}{{"tokenring", s.ours}, {"gocql", s.theirs}} {
		b.Run(c.name, func(b *testing.B) {
			cpu(b, func(i int) {
				s.s["ks"] = alt[i&1]
				c.p.KeyspaceChanged(gocql.KeyspaceUpdateEvent{Keyspace: "ks", Change: "UPDATED"})
			})
			s.s["ks"] = alt[1]
			c.p.KeyspaceChanged(gocql.KeyspaceUpdateEvent{Keyspace: "ks", Change: "UPDATED"})
		})
	}
}

// BenchmarkBuild: a policy from scratch, as at a session's start (the hosts, then the
// keyspace; the driver's own policy builds its token ring and replica map).
func BenchmarkBuild(b *testing.B) {
	s := setupBench()
	for _, c := range []struct {
		name  string
		build func(schema, []*gocql.HostInfo) gocql.HostSelectionPolicy
	}{{"tokenring", buildOurs}, {"gocql", buildTheirs}} {
		b.Run(c.name, func(b *testing.B) {
			cpu(b, func(int) {
				p := c.build(s.s, s.hosts)
				if pp, ok := p.(*Policy); ok {
					pp.Close()
				}
			})
		})
	}
}

// cpu runs fn b.N times on one locked OS thread and reports its CPU time per op.
func cpu(b *testing.B, fn func(i int)) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ReportAllocs()
	b.ResetTimer()
	t0 := threadCPUNanos()
	for i := 0; i < b.N; i++ {
		fn(i)
	}
	b.ReportMetric(float64(threadCPUNanos()-t0)/float64(b.N), "cpu-ns/op")
}

func heapNow() int64 {
	runtime.GC()
	time.Sleep(20 * time.Millisecond) // finalizers free C memory of dropped handles
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

// BenchmarkMemory: the memory a built policy holds (Go heap, and C heap for libtokenring),
// reported as metrics; one build per op.
func BenchmarkMemory(b *testing.B) {
	s := setupBench()
	for _, c := range []struct {
		name  string
		build func(schema, []*gocql.HostInfo) gocql.HostSelectionPolicy
	}{{"tokenring", buildOurs}, {"gocql", buildTheirs}} {
		b.Run(c.name, func(b *testing.B) {
			var goBytes, cBytes int64
			for i := 0; i < b.N; i++ {
				h0, c0 := heapNow(), cmem.Allocated()
				p := c.build(benchSchema(), s.hosts)
				h1, c1 := heapNow(), cmem.Allocated()
				goBytes += h1 - h0
				cBytes += c1 - c0
				runtime.KeepAlive(p)
				if pp, ok := p.(*Policy); ok {
					pp.Close()
				}
			}
			b.ReportMetric(float64(goBytes)/float64(b.N), "go-heap-B")
			b.ReportMetric(float64(cBytes)/float64(b.N), "c-heap-B")
			b.ReportMetric(float64(goBytes+cBytes)/float64(b.N), "total-B")
		})
	}
}
