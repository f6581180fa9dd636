// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"errors"
	"strings"
	"testing"
)

// TestRouterHandleErrors: nil, zero and closed router handles answer with the error of
// the other handles (ErrInvalid naming the type, ErrZeroValue, ErrClosed), never a panic.
func TestRouterHandleErrors(t *testing.T) {
	b, r, _, _ := liveRouter(t)
	var nilR *Router
	var nilB *RouterBuilder
	var nilH *RouterHolder
	if _, err := nilR.Nodes(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "nil *tokenring.Router") {
		t.Errorf("nil Router.Nodes: %v", err)
	}
	if _, err := (&Router{}).RouteToken("ks", 0, 0); !errors.Is(err, ErrZeroValue) {
		t.Errorf("zero Router.RouteToken: %v", err)
	}
	if err := nilB.SetNode("10.0.0.1", 1, false); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "nil *tokenring.RouterBuilder") {
		t.Errorf("nil RouterBuilder.SetNode: %v", err)
	}
	if _, err := (&RouterBuilder{}).Build(); !errors.Is(err, ErrZeroValue) {
		t.Errorf("zero RouterBuilder.Build: %v", err)
	}
	if err := b.AddCluster(nil); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "nil *tokenring.Cluster") {
		t.Errorf("AddCluster(nil): %v", err)
	}
	if err := nilH.Swap(r); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "nil *tokenring.RouterHolder") {
		t.Errorf("nil RouterHolder.Swap: %v", err)
	}
	if _, err := NewRouterHolder(nil); !errors.Is(err, ErrInvalid) {
		t.Errorf("NewRouterHolder(nil): %v", err)
	}
	if _, err := NewRouterHolder(&Router{}); !errors.Is(err, ErrZeroValue) {
		t.Errorf("NewRouterHolder(zero): %v", err)
	}
	if got := (&RouterReader{}).Acquire(); got != nil {
		t.Errorf("zero RouterReader.Acquire: %v, want nil", got)
	}
	(*RouterReader)(nil).Release()
	if _, err := r.Apply(RouterEvent{Kind: EventPlacement, Keyspace: "ks", Placement: &Placement{}}); !errors.Is(err, ErrZeroValue) {
		t.Errorf("Apply with a zero Placement: %v", err)
	}
	closed, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	closed.Close()
	if _, err := closed.Keyspaces(); !errors.Is(err, ErrClosed) {
		t.Errorf("closed Router.Keyspaces: %v", err)
	}
	h, err := NewRouterHolder(r)
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Swap(closed); !errors.Is(err, ErrClosed) {
		t.Errorf("Swap(closed router): %v", err)
	}
	rd, err := h.NewReader()
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Close(); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "open reader") {
		t.Errorf("Close with an open reader: %v", err)
	}
	view := rd.Acquire()
	if _, err := view.Nodes(); err != nil {
		t.Errorf("view: %v", err)
	}
	rd.Release()
	if _, err := view.Nodes(); !errors.Is(err, ErrClosed) {
		t.Errorf("released view: %v", err)
	}
	rd.Close()
	rd.Close()
	if err := h.Close(); err != nil {
		t.Errorf("Close after the reader: %v", err)
	}
	if _, err := h.Current(); !errors.Is(err, ErrClosed) {
		t.Errorf("closed RouterHolder.Current: %v", err)
	}
}
