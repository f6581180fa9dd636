// SPDX-License-Identifier: Apache-2.0

package tokenringgocql

// gocql keeps HostInfo's fields and Query's keyspace private (its own unit tests, inside the
// package, set them directly). These helpers set them through reflect + unsafe, for
// offline tests and benchmarks only.

import (
	"io"
	"log"
	"math/rand"
	"net"
	"reflect"
	"strconv"
	"testing"
	"unsafe"

	"github.com/gocql/gocql"
	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

func setField(ptr interface{}, name string, val interface{}) {
	v := reflect.ValueOf(ptr).Elem().FieldByName(name)
	if !v.IsValid() {
		panic("no field " + name)
	}
	f := reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem()
	rv := reflect.ValueOf(val)
	if rv.Type() != v.Type() {
		rv = rv.Convert(v.Type())
	}
	f.Set(rv)
}

type testNode struct {
	addr, dc, rack string
	tokens         []int64
}

func newHost(n testNode) *gocql.HostInfo {
	h := &gocql.HostInfo{}
	ip := net.ParseIP(n.addr)
	setField(h, "connectAddress", ip)
	setField(h, "rpcAddress", ip)
	setField(h, "peer", ip)
	setField(h, "port", 9042)
	setField(h, "dataCenter", n.dc)
	setField(h, "rack", n.rack)
	setField(h, "hostId", "id-"+n.addr)
	toks := make([]string, len(n.tokens))
	for i, t := range n.tokens {
		toks[i] = strconv.FormatInt(t, 10)
	}
	setField(h, "tokens", toks)
	return h
}

func setUp(h *gocql.HostInfo, up bool) {
	if up {
		setField(h, "state", 0) // gocql's NodeUp
	} else {
		setField(h, "state", 1) // NodeDown
	}
}

func query(keyspace string, key []byte) *gocql.Query {
	q := &gocql.Query{}
	q.RoutingKey(key)
	if key == nil { // a statement bound without values: GetRoutingKey gives nil, nil
		v := reflect.ValueOf(q).Elem().FieldByName("binding")
		fn := reflect.MakeFunc(v.Type(), func(args []reflect.Value) []reflect.Value {
			out := make([]reflect.Value, v.Type().NumOut())
			for i := range out {
				out[i] = reflect.Zero(v.Type().Out(i))
			}
			return out
		})
		reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem().Set(fn)
	}
	setField(q, "getKeyspace", func() string { return keyspace })
	return q
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

func libRing(t testing.TB, nodes []testNode) *tokenring.Ring {
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
	r, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// serverLocal returns the replicas of key under repl in Cassandra's order, in dc only.
func serverLocal(t testing.TB, pl *tokenring.Placement, key []byte, dc string, dcOf map[string]string) []string {
	r, err := pl.ReplicasForKey(key)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, n := range r.Nodes {
		name := pl.NodeName(int(n))
		if dcOf[name] == dc {
			out = append(out, name)
		}
	}
	return out
}

func ksMeta(name, class string, opts map[string]interface{}) *gocql.KeyspaceMetadata {
	return &gocql.KeyspaceMetadata{Name: name, StrategyClass: class, StrategyOptions: opts}
}

type schema map[string]*gocql.KeyspaceMetadata

func (s schema) get(name string) (*gocql.KeyspaceMetadata, error) {
	if m, ok := s[name]; ok {
		return m, nil
	}
	return nil, gocql.ErrKeyspaceDoesNotExist
}

// gocqlTokenAware returns gocql's own TokenAwareHostPolicy set up without a session (its
// keyspace lookup, session keyspace and logger set directly).
func gocqlTokenAware(fallback gocql.HostSelectionPolicy, s schema, sessionKS string) gocql.HostSelectionPolicy {
	p := gocql.TokenAwareHostPolicy(fallback)
	setField(p, "getKeyspaceMetadata", s.get)
	setField(p, "getKeyspaceName", func() string { return sessionKS })
	setField(p, "logger", gocql.StdLogger(log.New(io.Discard, "", 0)))
	return p
}

func planOf(p gocql.HostSelectionPolicy, q gocql.ExecutableQuery) []string {
	next := p.Pick(q)
	var out []string
	for s := next(); s != nil; s = next() {
		out = append(out, s.Info().ConnectAddress().String())
		if len(out) > 1000 {
			panic("endless plan")
		}
	}
	return out
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

func tokenringItoa(v int64) string { return strconv.FormatInt(v, 10) }
