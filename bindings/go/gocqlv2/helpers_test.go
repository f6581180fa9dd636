// SPDX-License-Identifier: Apache-2.0

package tokenringgocqlv2

// The driver's hosts are made with its NewTestHostInfoFromRow; queries are a statement
// type of the tests' own (Pick takes the ExecutableStatement interface). The driver's own
// TokenAwareHostPolicy needs its schema cache, which it keeps private: it is set through
// reflect + unsafe, and its keyspaces' placement strategies through the driver's own
// getStrategy (go:linkname), for offline tests and benchmarks only.

import (
	"fmt"
	"math/rand"
	"net"
	"reflect"
	"strconv"
	"testing"
	"unsafe"

	gocql "github.com/apache/cassandra-gocql-driver/v2"
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
	toks := make([]string, len(n.tokens))
	for i, t := range n.tokens {
		toks[i] = strconv.FormatInt(t, 10)
	}
	ip := net.ParseIP(n.addr).To4()
	row := map[string]interface{}{"peer": n.addr, "rpc_address": n.addr, "data_center": n.dc, "rack": n.rack,
		"host_id": fmt.Sprintf("00000000-0000-4000-8000-0000%02x%02x%02x%02x", ip[0], ip[1], ip[2], ip[3]),
		"tokens":  toks, "release_version": "5.0.9"}
	if n.rack == "" {
		delete(row, "rack")
	}
	h, err := gocql.NewTestHostInfoFromRow(row)
	if err != nil {
		panic(err)
	}
	return h
}

func setUp(h *gocql.HostInfo, up bool) {
	if up {
		setField(h, "state", gocql.NodeUp)
	} else {
		setField(h, "state", gocql.NodeDown)
	}
}

// statement is an ExecutableStatement of the tests.
type statement struct {
	keyspace string
	key      []byte
}

func (s *statement) GetRoutingKey() ([]byte, error) { return s.key, nil }
func (s *statement) Keyspace() string               { return s.keyspace }
func (s *statement) Table() string                  { return "t" }
func (s *statement) IsIdempotent() bool             { return true }
func (s *statement) GetHostID() string              { return "" }
func (s *statement) Statement() gocql.Statement     { return nil }

func query(keyspace string, key []byte) *statement { return &statement{keyspace, key} }

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

type ifaceWords struct{ tab, data unsafe.Pointer }

// getStrategy is the driver's (a keyspace's placementStrategy, as its schema cache sets
// it); declared with the interface's two words as its result.
//
//go:linkname getStrategy github.com/apache/cassandra-gocql-driver/v2.getStrategy
func getStrategy(ks *gocql.KeyspaceMetadata, logger gocql.StructuredLogger) ifaceWords

// schemaRefreshed is the driver's TokenAwareHostPolicy's, which a session calls after
// each schema refresh (its replica maps recomputed for every keyspace).
//
//go:linkname schemaRefreshed github.com/apache/cassandra-gocql-driver/v2.(*tokenAwareHostPolicy).schemaRefreshed
func schemaRefreshed(p unsafe.Pointer, meta unsafe.Pointer)

type nopLogger struct{}

func (nopLogger) Error(string, ...gocql.LogField)   {}
func (nopLogger) Warning(string, ...gocql.LogField) {}
func (nopLogger) Info(string, ...gocql.LogField)    {}
func (nopLogger) Debug(string, ...gocql.LogField)   {}

func ksMeta(name, class string, opts map[string]interface{}) *gocql.KeyspaceMetadata {
	ks := &gocql.KeyspaceMetadata{Name: name, StrategyClass: class, StrategyOptions: opts}
	w := getStrategy(ks, nopLogger{})
	f, _ := reflect.TypeOf(*ks).FieldByName("placementStrategy")
	*(*ifaceWords)(unsafe.Add(unsafe.Pointer(ks), f.Offset)) = w
	return ks
}

type schema map[string]*gocql.KeyspaceMetadata

func (s schema) get(name string) (*gocql.KeyspaceMetadata, error) {
	if m, ok := s[name]; ok {
		return m, nil
	}
	return nil, gocql.ErrKeyspaceDoesNotExist
}

// schemaMetaOf makes the driver's private schema cache (a *schemaMeta) of s, as a
// reflect value of the type its policy's getSchemaMeta returns.
func schemaMetaOf(fnType reflect.Type, s schema) reflect.Value {
	m := reflect.New(fnType.Out(0).Elem())
	f := m.Elem().FieldByName("keyspaceMeta")
	reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem().Set(reflect.ValueOf(map[string]*gocql.KeyspaceMetadata(s)))
	return m
}

// gocqlTokenAware returns the driver's own TokenAwareHostPolicy set up without a session
// (its keyspace lookup, schema cache, session keyspace and logger set directly).
func gocqlTokenAware(fallback gocql.HostSelectionPolicy, s schema, sessionKS string) gocql.HostSelectionPolicy {
	p := gocql.TokenAwareHostPolicy(fallback, gocql.DoNotShuffleReplicas())
	setField(p, "getKeyspaceMetadata", s.get)
	setField(p, "getKeyspaceName", func() string { return sessionKS })
	setField(p, "logger", gocql.StructuredLogger(nopLogger{}))
	v := reflect.ValueOf(p).Elem().FieldByName("getSchemaMeta")
	fn := reflect.MakeFunc(v.Type(), func([]reflect.Value) []reflect.Value {
		return []reflect.Value{schemaMetaOf(v.Type(), s)}
	})
	reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem().Set(fn)
	return p
}

// refreshSchema is what a session does after a schema change with the driver's own
// policy: schemaRefreshed with the whole schema.
func refreshSchema(p gocql.HostSelectionPolicy, s schema) {
	v := reflect.ValueOf(p).Elem().FieldByName("getSchemaMeta")
	schemaRefreshed(reflect.ValueOf(p).UnsafePointer(), schemaMetaOf(v.Type(), s).UnsafePointer())
}

func planOf(p gocql.HostSelectionPolicy, q gocql.ExecutableStatement) []string {
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
