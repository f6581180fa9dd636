// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"runtime"
	"sync"
	"unsafe"
)

// NodeState is a node's ring state as `nodetool status` shows it (tokenring_node_state).
type NodeState int32

// Node states. Only Normal, Leaving and Moving nodes' tokens form the ring.
const (
	StateNormal  NodeState = 0
	StateJoining NodeState = 1
	StateLeaving NodeState = 2
	StateMoving  NodeState = 3
)

// Liveness tells whether a node is reachable (tokenring_liveness). Placement ignores it.
type Liveness int32

// Liveness values.
const (
	Up      Liveness = 0
	Down    Liveness = 1
	Unknown Liveness = 2
)

// NodeInfo describes one node of a Topology or a Ring. It is a copy: it stays valid
// after the handle changes or is closed.
type NodeInfo struct {
	Index      int       // index of the node in the topology or ring
	Name       string    // unique node name (e.g. its address)
	Datacenter string    // datacenter name
	Rack       string    // rack name within the datacenter
	Tokens     []int64   // the node's tokens, ascending
	State      NodeState // ring state
	Liveness   Liveness  // reachability
	DCIndex    int       // datacenter index (rings only; 0 for a topology)
	RackIndex  int       // index of the (datacenter, rack) pair (rings only)
}

func nodeInfoFromC(i int, n *C.tokenring_node_info) NodeInfo {
	info := NodeInfo{
		Index: i, Name: goStringN(n.name), Datacenter: goStringN(n.datacenter), Rack: goStringN(n.rack),
		State: NodeState(n.state), Liveness: Liveness(n.liveness),
		DCIndex: int(n.dc_index), RackIndex: int(n.rack_index),
	}
	if n.token_count > 0 && n.tokens != nil {
		info.Tokens = append([]int64(nil), unsafe.Slice((*int64)(unsafe.Pointer(n.tokens)), int(n.token_count))...)
	}
	return info
}

// Topology is a mutable set of nodes with their datacenter, rack, tokens and state, from
// which immutable Rings are built. Its methods may be called from several goroutines
// (a mutex serializes them). A failing change leaves the topology exactly as it was.
// Call Close when done; a finalizer frees a forgotten topology, but only at the next
// garbage collection.
//
// The zero value is not a topology: its methods return ErrZeroValue (NodeCount returns 0)
// until it is replaced by one from NewTopology; they never panic.
type Topology struct {
	mu     sync.Mutex
	ptr    *C.tokenring_topology
	closed bool // set by Close: tells a closed handle from a zero value
}

func wrapTopology(p *C.tokenring_topology) *Topology {
	t := &Topology{ptr: p}
	runtime.SetFinalizer(t, (*Topology).Close)
	return t
}

// NewTopology returns an empty topology.
func NewTopology() (*Topology, error) {
	var p *C.tokenring_topology
	if err := check(C.tokenring_topology_new(&p)); err != nil {
		return nil, err
	}
	return wrapTopology(p), nil
}

// Close frees the topology. Rings built from it stay valid. Calling Close again does
// nothing; any other method then returns ErrClosed.
func (t *Topology) Close() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ptr != nil {
		C.tokenring_topology_free(t.ptr)
		t.ptr = nil
		t.closed = true
		runtime.SetFinalizer(t, nil)
	}
	return nil
}

// Clone returns an independent deep copy.
func (t *Topology) Clone() (*Topology, error) {
	if err := t.enter(); err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	var p *C.tokenring_topology
	if err := check(C.tokenring_topology_clone(&p, t.ptr)); err != nil {
		return nil, err
	}
	return wrapTopology(p), nil
}

// DefaultRack is the rack Cassandra gives a node whose rack is missing: DEFAULT_RACK of
// Cassandra's GossipingPropertyFileSnitch, which getRack returns when neither gossip nor
// system.peers has the node's rack. Cluster.Parse reads a cqlsh null rack as DefaultRack.
// The library's TOKENRING_DEFAULT_RACK.
const DefaultRack = C.TOKENRING_DEFAULT_RACK

// AddNode adds a node in state StateNormal, Up, with the given tokens (copied; any order).
// Names must be valid UTF-8 of at most MaxName bytes; name and datacenter non-empty. The
// rack may be "": Cassandra's snitches read rack= as the rack "", a rack distinct from
// every other (SeededNode alone reads an empty Rack as "rack1"). A repeated name or a
// token held by another node gives ErrExists; no tokens gives ErrEmpty.
func (t *Topology) AddNode(name, datacenter, rack string, tokens []int64) error {
	cn, err := cname("node name", name)
	if err != nil {
		return err
	}
	cd, err := cname("datacenter name", datacenter)
	if err != nil {
		return err
	}
	cr, err := cname("rack name", rack)
	if err != nil {
		return err
	}
	if err := t.enter(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	var detail C.tokenring_error
	st := C.tokenring_topology_add_node(t.ptr, charp(cn), charp(cd), charp(cr), tokensPtr(tokens), C.size_t(len(tokens)), &detail)
	return newError(st, &detail)
}

// RemoveNode removes a node (a completed decommission or removenode). An unknown name
// gives ErrNotFound.
func (t *Topology) RemoveNode(name string) error {
	cn, err := cname("node name", name)
	if err != nil {
		return err
	}
	if err := t.enter(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	var detail C.tokenring_error
	return newError(C.tokenring_topology_remove_node(t.ptr, charp(cn), &detail), &detail)
}

// ReplaceNode replaces node oldName by a new node newName that takes over its
// datacenter, rack, tokens and index (Cassandra's replace_address).
func (t *Topology) ReplaceNode(oldName, newName string) error {
	co, err := cname("node name", oldName)
	if err != nil {
		return err
	}
	cn, err := cname("node name", newName)
	if err != nil {
		return err
	}
	if err := t.enter(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	var detail C.tokenring_error
	return newError(C.tokenring_topology_replace_node(t.ptr, charp(co), charp(cn), &detail), &detail)
}

// SetTokens gives a node a new set of tokens (a completed move), with AddNode's rules.
func (t *Topology) SetTokens(name string, tokens []int64) error {
	cn, err := cname("node name", name)
	if err != nil {
		return err
	}
	if err := t.enter(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	var detail C.tokenring_error
	return newError(C.tokenring_topology_set_tokens(t.ptr, charp(cn), tokensPtr(tokens), C.size_t(len(tokens)), &detail), &detail)
}

// SetState sets a node's state and liveness.
func (t *Topology) SetState(name string, state NodeState, liveness Liveness) error {
	cn, err := cname("node name", name)
	if err != nil {
		return err
	}
	if err := t.enter(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	var detail C.tokenring_error
	st := C.tokenring_topology_set_state(t.ptr, charp(cn), C.tokenring_node_state(state), C.tokenring_liveness(liveness), &detail)
	return newError(st, &detail)
}

// NodeCount returns the number of nodes (0 after Close).
func (t *Topology) NodeCount() int {
	if t == nil {
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return int(C.tokenring_topology_node_count(t.ptr))
}

// Node returns a copy of node i (0-based, in insertion order). An index past the end
// gives ErrRange.
func (t *Topology) Node(i int) (NodeInfo, error) {
	if i < 0 {
		return NodeInfo{}, goError(CodeRange, "node index %d is negative", i)
	}
	if err := t.enter(); err != nil {
		return NodeInfo{}, err
	}
	defer t.mu.Unlock()
	var n C.tokenring_node_info
	if err := check(C.tokenring_topology_node(&n, t.ptr, C.size_t(i))); err != nil {
		return NodeInfo{}, err
	}
	return nodeInfoFromC(i, &n), nil
}

// FindNode returns the index of the named node, or ErrNotFound.
func (t *Topology) FindNode(name string) (int, error) {
	cn, err := cname("node name", name)
	if err != nil {
		return 0, err
	}
	if err := t.enter(); err != nil {
		return 0, err
	}
	defer t.mu.Unlock()
	var idx C.size_t
	if err := check(C.tokenring_topology_find_node(&idx, t.ptr, charp(cn))); err != nil {
		return 0, &Error{Code: err.(*Error).Code, Message: "no node named " + quote(name)}
	}
	return int(idx), nil
}

// Build returns an immutable Ring snapshot of the topology; the ring does not refer to
// the topology afterwards. A topology without a Normal, Leaving or Moving node gives
// ErrEmpty.
func (t *Topology) Build() (*Ring, error) {
	if err := t.enter(); err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	var p *C.tokenring_ring
	var detail C.tokenring_error
	if err := newError(C.tokenring_ring_build(&p, t.ptr, &detail), &detail); err != nil {
		return nil, err
	}
	return wrapRing(p), nil
}
