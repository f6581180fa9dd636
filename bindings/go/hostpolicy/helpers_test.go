// SPDX-License-Identifier: Apache-2.0

package hostpolicy

import (
	"math/rand"
	"strconv"
	"sync"
	"testing"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

const murmur3 = "org.apache.cassandra.dht.Murmur3Partitioner"
const nts = "org.apache.cassandra.locator.NetworkTopologyStrategy"

type testNode struct {
	addr, dc, rack string
	tokens         []int64
}

// fakeHost is a driver's host for the core's tests.
type fakeHost struct {
	mu   sync.Mutex
	info HostInfo
}

func (h *fakeHost) describe() HostInfo {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.info
}

func (h *fakeHost) setUp(up bool) {
	h.mu.Lock()
	h.info.Up = up
	h.mu.Unlock()
}

func (h *fakeHost) isUp() bool { return h.describe().Up }

func texts(tokens []int64) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		out[i] = strconv.FormatInt(t, 10)
	}
	return out
}

func newFake(n testNode) *fakeHost {
	return &fakeHost{info: HostInfo{Addr: n.addr, Datacenter: n.dc, Rack: n.rack, HostID: "id-" + n.addr, Tokens: texts(n.tokens), Up: true}}
}

type schema map[string]map[string]string

func (s schema) get(name string) (map[string]string, error) {
	if m, ok := s[name]; ok {
		return m, nil
	}
	return nil, ErrNoKeyspace
}

// layout: nodes 10.0.<dc>.<i> with random distinct tokens; racks[dc] lists each node's rack.
func layout(seed int64, vnodes int, dcs []string, racks [][]string) []testNode {
	rnd := rand.New(rand.NewSource(seed))
	used := map[int64]bool{}
	var out []testNode
	for d, dc := range dcs {
		for i, r := range racks[d] {
			n := testNode{addr: "10.0." + strconv.Itoa(d+1) + "." + strconv.Itoa(i+1), dc: dc, rack: r}
			for len(n.tokens) < vnodes {
				t := int64(rnd.Uint64())
				if !used[t] {
					used[t] = true
					n.tokens = append(n.tokens, t)
				}
			}
			out = append(out, n)
		}
	}
	return out
}

// dc1: 3 nodes on ONE rack (vnodes), dc2: 2 nodes on two racks.
func topo1() []testNode {
	return layout(3, 8, []string{"dc1", "dc2"}, [][]string{{"r1", "r1", "r1"}, {"r1", "r2"}})
}

func testSchema() schema {
	return schema{
		"ks":     {"class": nts, "dc1": "2", "dc2": "1"},
		"ks_all": {"class": nts, "dc1": "3", "dc2": "2"},
		"ks_s":   {"class": "org.apache.cassandra.locator.SimpleStrategy", "replication_factor": "2"},
		"system": {"class": "org.apache.cassandra.locator.LocalStrategy"},
	}
}

func buildRing(t testing.TB, nodes []testNode) *tokenring.Ring {
	t.Helper()
	topo, err := tokenring.NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	defer topo.Close()
	for _, n := range nodes {
		if err := topo.AddNode(n.addr, n.dc, n.rack, n.tokens); err != nil {
			t.Fatal(err)
		}
	}
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	return ring
}

// placementOf is the library's placement of nodes under a replication text, built
// without the router (the tests' reference).
func placementOf(t testing.TB, nodes []testNode, text string) *tokenring.Placement {
	t.Helper()
	ring := buildRing(t, nodes)
	defer ring.Close()
	r, err := tokenring.ParseReplication(text)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	pl, err := ring.Placement(r, tokenring.AllowUnknownDC)
	if err != nil {
		t.Fatal(err)
	}
	return pl
}

// serverOrder returns the replicas of key in Cassandra's order, in dc only ("" all).
func serverOrder(t testing.TB, pl *tokenring.Placement, key []byte, dc string, dcOf map[string]string) []string {
	t.Helper()
	r, err := pl.ReplicasForKey(key)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range r.Nodes {
		name := pl.NodeName(int(n))
		if dc == "" || dcOf[name] == dc {
			out = append(out, name)
		}
	}
	return out
}

func dcMap(nodes []testNode) map[string]string {
	m := map[string]string{}
	for _, n := range nodes {
		m[n.addr] = n.dc
	}
	return m
}

func keys(n int, seed int64) [][]byte {
	rnd := rand.New(rand.NewSource(seed))
	out := make([][]byte, n)
	for i := range out {
		b := make([]byte, 8)
		rnd.Read(b)
		out[i] = b
	}
	return out
}

// newCore returns a core over nodes (local datacenter dc1) with every keyspace of s
// announced.
func newCore(t testing.TB, nodes []testNode, s schema) (*Core[*fakeHost], map[string]*fakeHost) {
	t.Helper()
	c := New(Config[*fakeHost]{
		Describe: (*fakeHost).describe,
		IsLocal:  func(h *fakeHost) bool { return h.describe().Datacenter == "dc1" },
		Keyspace: s.get,
	})
	c.SetPartitioner(murmur3)
	hosts := map[string]*fakeHost{}
	var hs []*fakeHost
	for _, n := range nodes {
		h := newFake(n)
		hosts[n.addr] = h
		hs = append(hs, h)
	}
	c.AddHosts(hs)
	for ks := range s {
		c.KeyspaceChanged(ks)
	}
	if e := c.LastError(); e != "" {
		t.Fatalf("LastError: %s", e)
	}
	return c, hosts
}

// localNames is what Local gives, by address (nil, false when it gives nothing).
func localNames(c *Core[*fakeHost], ks string, key []byte) ([]string, bool) {
	r, ok := c.Local(ks, key)
	if !ok {
		return nil, false
	}
	out := make([]string, r.Len())
	for i := range out {
		out[i] = r.At(i).info.Addr
	}
	return out, true
}
