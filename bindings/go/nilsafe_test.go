// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"context"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// The package's exported API, read from its source: every exported function and the
// receiver types of every exported method. The tables below must cover each, so that a
// method or function added later is called with nil and zero arguments too.
func exportedAPI(t *testing.T) (funcs []string, receivers map[string]bool) {
	t.Helper()
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	receivers = map[string]bool{}
	for _, pkg := range pkgs {
		if pkg.Name != "tokenring" {
			continue
		}
		for _, f := range pkg.Files {
			for _, d := range f.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || !fd.Name.IsExported() {
					continue
				}
				if fd.Recv == nil {
					funcs = append(funcs, fd.Name.Name)
					continue
				}
				typ := fd.Recv.List[0].Type
				if st, ok := typ.(*ast.StarExpr); ok {
					typ = st.X
				}
				if id, ok := typ.(*ast.Ident); ok && id.IsExported() {
					receivers[id.Name] = true
				}
			}
		}
	}
	sort.Strings(funcs)
	return funcs, receivers
}

// zeroReceivers holds a pointer to the zero value of every exported type with methods.
var zeroReceivers = map[string]any{
	"AvailabilitySummary": &AvailabilitySummary{}, "BudgetError": &BudgetError{}, "CQLType": new(CQLType), "CassandraRelease": new(CassandraRelease),
	"CassandraRules": new(CassandraRules), "ChangeKind": new(ChangeKind), "Cluster": &Cluster{},
	"ClusterFlags": new(ClusterFlags), "Code": new(Code), "Consistency": new(Consistency), "Error": &Error{},
	"FailureUnit": new(FailureUnit), "History": &History{}, "InputFormat": new(InputFormat), "KeyBatch": &KeyBatch{},
	"LayoutFlags": new(LayoutFlags), "Liveness": new(Liveness), "Movement": &Movement{},
	"NodeState": new(NodeState), "ParseFlags": new(ParseFlags), "Partitioner": new(Partitioner),
	"Placement": &Placement{}, "ReplicaOrder": new(ReplicaOrder), "PlacementFlags": new(PlacementFlags), "Range": &Range{},
	"Range128": &Range128{}, "Replication": &Replication{}, "Ring": &Ring{}, "Strategy": new(Strategy),
	"Router": &Router{}, "RouterBuilder": &RouterBuilder{}, "RouterHolder": &RouterHolder{}, "RouterReader": &RouterReader{},
	"Token128": &Token128{}, "Topology": &Topology{}, "U128": &U128{},
}

// handleTypes wrap C objects: their zero values (and nil pointers) must answer every
// method with an error result by an error; they are also called live.
var handleTypes = map[string]bool{"Cluster": true, "History": true, "Placement": true, "Replication": true, "Ring": true, "Topology": true,
	"Router": true, "RouterBuilder": true, "RouterHolder": true, "RouterReader": true}

// exportedFuncs holds every exported function of the package.
var exportedFuncs = map[string]any{
	"AssignRacks": AssignRacks, "BuildPlacement": BuildPlacement, "CassandraRulesForVersion": CassandraRulesForVersion,
	"CompareByteTokens": CompareByteTokens, "CompareMovement": CompareMovement,
	"CompareMovementKeys": CompareMovementKeys, "Composite": Composite, "DetectFormat": DetectFormat,
	"EncodeBigint": EncodeBigint, "EncodeBoolean": EncodeBoolean, "EncodeInt": EncodeInt,
	"EncodeSmallint": EncodeSmallint, "EncodeTimestamp": EncodeTimestamp,
	"EncodeTimestampMillis": EncodeTimestampMillis, "EncodeTinyint": EncodeTinyint, "EncodeUUID": EncodeUUID,
	"EncodeUUIDHalves": EncodeUUIDHalves, "EvenTokens": EvenTokens, "EvenTokens128": EvenTokens128,
	"FormatByteToken": FormatByteToken, "HexDecode": HexDecode, "MD5": MD5, "Murmur3Cassandra": Murmur3Cassandra,
	"NewCluster": NewCluster, "NewKeyBatch": NewKeyBatch, "NewNetworkTopologyStrategy": NewNetworkTopologyStrategy,
	"NewPartitionedTopology": NewPartitionedTopology, "NewRouterBuilder": NewRouterBuilder, "NewRouterHolder": NewRouterHolder, "NewSimpleStrategy": NewSimpleStrategy,
	"NewTopology": NewTopology, "PlacementFromLists": PlacementFromLists, "ReplayHistory": ReplayHistory, "ReplayHistoryContext": ReplayHistoryContext,
	"HistoryFromMetadata": HistoryFromMetadata, "ParseByteToken": ParseByteToken, "ParseCQLType": ParseCQLType,
	"ParseKey": ParseKey, "ParsePartitioner": ParsePartitioner, "ParseReplication": ParseReplication,
	"ParseToken": ParseToken, "ParseToken128": ParseToken128, "ParseValue": ParseValue, "AppendValue": AppendValue,
	"AppendKey": AppendKey, "AppendComposite": AppendComposite, "RackName": RackName, "RandomToken": RandomToken,
	"RandomTokens": RandomTokens, "RandomTokensPacked": RandomTokensPacked, "SeededToken": SeededToken,
	"SeededToken128": SeededToken128, "SeededTokens": SeededTokens, "SeededTokens128": SeededTokens128,
	"Token": Token, "Token128FromBig": Token128FromBig, "TokenString": TokenString, "Tokens": Tokens,
	"TokensKept": TokensKept, "TokensPacked": TokensPacked, "Version": Version, "VersionNumber": VersionNumber,
	"WithProgress": WithProgress, "ByteOrderedToken": ByteOrderedToken,
	"CompareTokens": CompareTokens, "EvenTokensText": EvenTokensText, "KeyTokenText": KeyTokenText,
	"NormalizeToken": NormalizeToken, "SeededTokensText": SeededTokensText,
}

// zeroArgs gives the zero value of each parameter: nil pointers, slices, maps, funcs and
// interfaces (a nil context.Context and io.Reader included), "", 0 and false.
func zeroArgs(ft reflect.Type, skipRecv bool) []reflect.Value {
	var args []reflect.Value
	first := 0
	if skipRecv {
		first = 1
	}
	for i := first; i < ft.NumIn(); i++ {
		args = append(args, reflect.Zero(ft.In(i)))
	}
	return args
}

// call calls fn with args and reports a panic as an error; the results come back.
func call(fn reflect.Value, args []reflect.Value) (out []reflect.Value, panicked any) {
	defer func() { panicked = recover() }()
	if fn.Type().IsVariadic() {
		return fn.CallSlice(args), nil
	}
	return fn.Call(args), nil
}

var errorType = reflect.TypeOf((*error)(nil)).Elem()

// lastError returns the error result of a call (nil when it has none or returned nil),
// and whether it has one.
func lastError(out []reflect.Value) (error, bool) {
	if len(out) == 0 || out[len(out)-1].Type() != errorType {
		return nil, false
	}
	err, _ := out[len(out)-1].Interface().(error)
	return err, true
}

// closeResults closes the handles a call returned.
func closeResults(out []reflect.Value) {
	for _, v := range out {
		if c, ok := v.Interface().(interface{ Close() error }); ok && !v.IsNil() {
			c.Close()
		}
	}
}

// TestExportedTablesComplete: the tables name every exported function and receiver type.
func TestExportedTablesComplete(t *testing.T) {
	funcs, receivers := exportedAPI(t)
	for _, f := range funcs {
		if _, ok := exportedFuncs[f]; !ok {
			t.Errorf("exported function %s is missing from exportedFuncs in nilsafe_test.go", f)
		}
	}
	for r := range receivers {
		if _, ok := zeroReceivers[r]; !ok {
			t.Errorf("exported type %s has methods but is missing from zeroReceivers in nilsafe_test.go", r)
		}
	}
	if len(funcs) < 40 || len(receivers) < 10 {
		t.Fatalf("read %d functions and %d receiver types from the source: too few", len(funcs), len(receivers))
	}
}

// TestExportedFuncsZeroArgs calls every exported function with zero arguments: an error
// or a zero result, never a panic.
func TestExportedFuncsZeroArgs(t *testing.T) {
	for name, f := range exportedFuncs {
		fn := reflect.ValueOf(f)
		out, p := call(fn, zeroArgs(fn.Type(), false))
		if p != nil {
			t.Errorf("%s with zero arguments panics: %v", name, p)
			continue
		}
		closeResults(out)
	}
}

// TestExportedMethodsZeroReceiver calls every exported method of the zero value (and, for
// the handle types, of a nil pointer) with zero arguments: never a panic, and on a handle
// an error from every method with an error result but Close. TestZeroReceiverErrors
// checks which error.
func TestExportedMethodsZeroReceiver(t *testing.T) {
	for name, zero := range zeroReceivers {
		recvs := map[string]reflect.Value{"zero": reflect.ValueOf(zero)}
		if handleTypes[name] {
			recvs["nil"] = reflect.Zero(reflect.TypeOf(zero))
		}
		for kind, recv := range recvs {
			rt := recv.Type()
			for i := 0; i < rt.NumMethod(); i++ {
				m := rt.Method(i)
				// A fresh zero value per method: Close must not change what the next sees.
				if kind == "zero" {
					recv = reflect.New(rt.Elem())
				}
				out, p := call(m.Func, append([]reflect.Value{recv}, zeroArgs(m.Type, true)...))
				what := fmt.Sprintf("%s %s.%s", kind, name, m.Name)
				if p != nil {
					t.Errorf("%s panics: %v", what, p)
					continue
				}
				closeResults(out)
				err, has := lastError(out)
				if !handleTypes[name] || !has || m.Name == "Close" {
					continue
				}
				// Zero arguments may be refused first (a count of 0 is out of range).
				if err == nil {
					t.Errorf("%s returns no error", what)
				}
			}
		}
	}
}

// liveHandles makes a small live topology, ring, replication, placement and cluster.
func liveHandles(t *testing.T) map[string]reflect.Value {
	t.Helper()
	topo, err := NewTopology()
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		if err := topo.AddNode(fmt.Sprintf("n%d", i), "dc1", fmt.Sprintf("r%d", i%2), []int64{int64(i)*1000 - 1500}); err != nil {
			t.Fatal(err)
		}
	}
	ring, err := topo.Build()
	if err != nil {
		t.Fatal(err)
	}
	repl, err := ParseReplication("dc1=2")
	if err != nil {
		t.Fatal(err)
	}
	p, err := BuildPlacement(ring, repl, 0)
	if err != nil {
		t.Fatal(err)
	}
	c, err := NewCluster()
	if err != nil {
		t.Fatal(err)
	}
	h, err := ReplayHistory("")
	if err != nil {
		t.Fatal(err)
	}
	rb, router, holder, rd := liveRouter(t)
	t.Cleanup(func() {
		topo.Close()
		ring.Close()
		repl.Close()
		p.Close()
		c.Close()
		h.Close()
	})
	return map[string]reflect.Value{
		"Topology": reflect.ValueOf(topo), "Ring": reflect.ValueOf(ring), "Replication": reflect.ValueOf(repl),
		"Placement": reflect.ValueOf(p), "Cluster": reflect.ValueOf(c), "History": reflect.ValueOf(h),
		"RouterBuilder": reflect.ValueOf(rb), "Router": reflect.ValueOf(router),
		"RouterHolder": reflect.ValueOf(holder), "RouterReader": reflect.ValueOf(rd),
	}
}

// liveRouter makes a builder with two nodes and a keyspace, its router, a holder of it
// and a reader of a second holder (so that the first one's Close can succeed).
func liveRouter(t *testing.T) (*RouterBuilder, *Router, *RouterHolder, *RouterReader) {
	t.Helper()
	b, err := NewRouterBuilder("dc1")
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(b.AddLocal("10.0.0.1", "dc1", "r1", "", "org.apache.cassandra.dht.Murmur3Partitioner", []string{"-100", "100"}))
	must(b.AddPeer("10.0.0.2", "dc1", "r2", "", []string{"0"}))
	must(b.AddKeyspace("ks", map[string]string{"class": "NetworkTopologyStrategy", "dc1": "2"}))
	r, err := b.Build()
	must(err)
	holder, err := NewRouterHolder(r)
	must(err)
	other, err := NewRouterHolder(r)
	must(err)
	rd, err := other.NewReader()
	must(err)
	t.Cleanup(func() {
		rd.Close()
		must(other.Close())
		holder.Close()
		r.Close()
		b.Close()
	})
	return b, r, holder, rd
}

// TestExportedMethodsLiveZeroArgs calls every exported method of a live handle with zero
// arguments (nil handles, nil slices, nil contexts and readers, "", 0): never a panic. Each
// method gets fresh handles (Close and the mutators must not affect the next).
func TestExportedMethodsLiveZeroArgs(t *testing.T) {
	for name := range handleTypes {
		rt := reflect.TypeOf(zeroReceivers[name])
		for i := 0; i < rt.NumMethod(); i++ {
			m := rt.Method(i)
			recv := liveHandles(t)[name]
			out, p := call(m.Func, append([]reflect.Value{recv}, zeroArgs(m.Type, true)...))
			if p != nil {
				t.Errorf("live %s.%s with zero arguments panics: %v", name, m.Name, p)
				continue
			}
			closeResults(out)
		}
	}
}

// TestNilHandleArguments: the calls the issue names give an error naming the nil argument.
func TestNilHandleArguments(t *testing.T) {
	h := liveHandles(t)
	topo := h["Topology"].Interface().(*Topology)
	ring := h["Ring"].Interface().(*Ring)
	p := h["Placement"].Interface().(*Placement)
	c := h["Cluster"].Interface().(*Cluster)
	var nilRepl *Replication
	_, e1 := topo.SimulateJoin(nilRepl, "x", "dc1", "r0", []int64{7}, nil)
	_, e2 := topo.SimulateMove(nilRepl, "n0", []int64{7}, nil)
	_, e3 := topo.SimulateReplace(nilRepl, "n0", "x", nil)
	_, e4 := topo.SimulateDecommission(nilRepl, "n0", nil)
	e5 := c.AddKeyspace("ks", nil)
	e6 := c.AddTopology(nil)
	e7 := p.RouteKeys(nil, make([]uint32, 1), nil)
	e8 := (&Placement{}).RouteKeys(nil, nil, NewKeyBatch(1, 1))
	_, e9 := BuildPlacement(nil, nilRepl, 0)
	_, _, e10 := ring.Balance((*Placement)(nil), "", "")
	_, e11 := (*Placement)(nil).Update(ring)
	_, _, _, e12 := TokensKept(ring, nil)
	for i, err := range []error{e1, e2, e3, e4, e5, e6, e7, e8, e9, e11, e12} {
		if err == nil {
			t.Errorf("call %d: no error", i+1)
		}
	}
	if !errors.Is(e1, ErrInvalid) || !strings.Contains(e1.Error(), "nil *tokenring.Replication") {
		t.Errorf("SimulateJoin(nil): %v, want ErrInvalid naming the nil *tokenring.Replication", e1)
	}
	if !errors.Is(e6, ErrInvalid) || !strings.Contains(e6.Error(), "nil *tokenring.Topology") {
		t.Errorf("AddTopology(nil): %v", e6)
	}
	if !errors.Is(e8, ErrZeroValue) {
		t.Errorf("Placement{}.RouteKeys: %v, want ErrZeroValue", e8)
	}
	if e10 != nil { // a nil placement is documented: primary balance only
		t.Errorf("Balance(nil placement): %v", e10)
	}
	if _, err := (&Ring{}).AvailabilityContext(context.Background(), nilRepl, One, "", 1); !errors.Is(err, ErrZeroValue) {
		t.Errorf("zero Ring: %v", err)
	}
}
