// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// Router.Placement and Router.Ring give the router's own placement and ring: the same
// replicas, node indices and names as the route lookups, for every key; a skipped or
// unknown keyspace is ErrNotFound; the handles outlive the router.
func TestRouterPlacementAndRing(t *testing.T) {
	r := newTestRouter(t)
	pl, err := r.Placement("shop")
	if err != nil {
		t.Fatal(err)
	}
	defer pl.Close()
	ring, err := r.Ring()
	if err != nil {
		t.Fatal(err)
	}
	defer ring.Close()
	nodes, _ := r.Nodes()
	if ring.NodeCount() != len(nodes) {
		t.Fatalf("ring has %d nodes, router %d", ring.NodeCount(), len(nodes))
	}
	for i, n := range nodes {
		if ring.NodeNames()[i] != n.Name || pl.NodeName(i) != n.Name {
			t.Fatalf("node %d: ring %q, placement %q, router %q", i, ring.NodeNames()[i], pl.NodeName(i), n.Name)
		}
	}
	for i := 0; i < 200; i++ {
		key := []byte(fmt.Sprintf("key%d", i))
		rt, err := r.Route("shop", key, 0)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := pl.ReplicasForKey(key)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(rep.Nodes, rt.Replicas) {
			t.Fatalf("%s: placement %v, route %v", key, rep.Nodes, rt.Replicas)
		}
	}
	other, err := r.Placement("users") // the same replication: the same placement
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if a, b := pl.SetCount(), other.SetCount(); a != b || a == 0 {
		t.Fatalf("set counts %d %d", a, b)
	}
	for _, ks := range []string{"system", "nope"} {
		if _, err := r.Placement(ks); !errors.Is(err, ErrNotFound) {
			t.Fatalf("%s: %v, want ErrNotFound", ks, err)
		}
	}
	if _, err := r.Placement("a\x00b"); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a name with NUL: %v", err)
	}
	r.Close()
	if _, err := pl.ReplicasForKey([]byte("k")); err != nil {
		t.Fatalf("placement after the router's Close: %v", err)
	}
	if ring.NodeCount() != len(nodes) {
		t.Fatal("ring after the router's Close")
	}
	if _, err := r.Placement("shop"); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed router: %v", err)
	}
	if _, err := r.Ring(); !errors.Is(err, ErrClosed) {
		t.Fatalf("closed router: %v", err)
	}
}
