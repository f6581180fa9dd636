// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <stdlib.h>
#include <tokenring/tokenring.h>

// The tags of a route's local view, into tags (room for route->count).
static void trgo_local_tags(const tokenring_route *rt, uint64_t *tags)
{
	for (uint32_t i = 0; i < rt->count; i++)
		tags[i] = rt->tags[rt->local[i]];
}
*/
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"
)

// RouteFlags modify the route lookups.
type RouteFlags uint32

// RouteUpFirst orders a route's Local view up nodes first: the local datacenter's up
// replicas, its down ones, then the other datacenters' up and down replicas.
const RouteUpFirst RouteFlags = 1

// RouterNodeDown marks a node down (RouterBuilder.SetNode, RouterEvent.Down).
const RouterNodeDown = 1

// RouterEventKind names a change applied with Router.Apply.
type RouterEventKind int32

// The kinds of RouterEvent (the library's TOKENRING_ROUTER_EVENT_*).
const (
	EventUp        RouterEventKind = 1  // Node is up
	EventDown      RouterEventKind = 2  // Node is down
	EventJoined    RouterEventKind = 3  // Node joined with Datacenter, Rack, Tokens
	EventLeft      RouterEventKind = 4  // Node left
	EventMoved     RouterEventKind = 5  // Node has new Tokens
	EventReplaced  RouterEventKind = 6  // Node replaced OldNode
	EventCreated   RouterEventKind = 7  // Keyspace created with Replication
	EventAltered   RouterEventKind = 8  // Keyspace's replication is now Replication
	EventDropped   RouterEventKind = 9  // Keyspace dropped
	EventPlacement RouterEventKind = 10 // Keyspace routed through Placement
)

// RouterNode is one node of a Router.
type RouterNode struct {
	Name, Datacenter, Rack string
	HostID                 string // "" when none
	Tag                    uint64 // the caller's tag, kept across snapshots
	Up                     bool
	State                  NodeState
	TokenCount             int
	Local                  bool // in the router's local datacenter (or it has none)
}

// Route holds a key's replicas as node indices of the router.
type Route struct {
	Replicas     []uint32 // server order, primary first
	Local        []uint32 // local datacenter first (RouteUpFirst: up first)
	LocalCount   int      // entries of Local in the local datacenter
	LocalUpCount int      // of those, up
	SetID        int
	Token        int64 // Murmur3 routers; 0 otherwise
}

// Router is an immutable routing snapshot (router.h): nodes with their tags and liveness,
// every keyspace's placement (one per distinct replication) and the local-datacenter
// views. Safe for concurrent use; Close releases it (readers of a RouterHolder keep their
// own protection).
type Router struct {
	mu       sync.RWMutex
	ptr      *C.tokenring_router
	borrowed bool // a RouterReader's view: not freed by Close
	closed   bool
}

func adoptRouter(p *C.tokenring_router) *Router {
	r := &Router{ptr: p}
	runtime.SetFinalizer(r, (*Router).Close)
	return r
}

// Close releases the snapshot. Calling it again does nothing.
func (r *Router) Close() error {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.ptr != nil {
		if !r.borrowed {
			C.tokenring_router_free(r.ptr)
			runtime.SetFinalizer(r, nil)
		}
		r.ptr = nil
		r.closed = true
	}
	return nil
}

func routeFromC(c *C.tokenring_route) Route {
	n := int(c.count)
	rt := Route{Replicas: make([]uint32, n), Local: make([]uint32, n), LocalCount: int(c.local_count),
		LocalUpCount: int(c.local_up_count), SetID: int(c.set_id), Token: int64(c.token)}
	if n > 0 {
		copy(rt.Replicas, unsafe.Slice((*uint32)(unsafe.Pointer(c.replicas)), n))
		copy(rt.Local, unsafe.Slice((*uint32)(unsafe.Pointer(c.local)), n))
	}
	return rt
}

// Route gives the replicas of a serialized partition key of keyspace.
func (r *Router) Route(keyspace string, key []byte, flags RouteFlags) (Route, error) {
	ks, err := cname("keyspace", keyspace)
	if err != nil {
		return Route{}, err
	}
	p, err := r.enter()
	if err != nil {
		return Route{}, err
	}
	defer r.mu.RUnlock()
	var out C.tokenring_route
	if err := check(C.tokenring_router_route(&out, p, charp(ks), bytesPtr(key), C.size_t(len(key)), C.uint32_t(flags))); err != nil {
		return Route{}, err
	}
	return routeFromC(&out), nil
}

// RouteParts gives the replicas of a composite key from its parts, hashed without
// packing them.
func (r *Router) RouteParts(keyspace string, parts [][]byte, flags RouteFlags) (Route, error) {
	ks, err := cname("keyspace", keyspace)
	if err != nil {
		return Route{}, err
	}
	// The parts go to C memory: the pointer array (Go memory) then holds no Go pointer.
	total := 0
	for _, part := range parts {
		total += len(part)
	}
	cbuf := C.malloc(C.size_t(total + 1))
	if cbuf == nil {
		return Route{}, goError(CodeNoMem, "out of memory")
	}
	defer C.free(cbuf)
	base := unsafe.Slice((*byte)(cbuf), total+1)
	ptrs := make([]unsafe.Pointer, len(parts)+1)
	lens := make([]C.size_t, len(parts)+1)
	off := 0
	for i, part := range parts {
		copy(base[off:], part)
		ptrs[i] = unsafe.Pointer(&base[off])
		lens[i] = C.size_t(len(part))
		off += len(part)
	}
	p, err := r.enter()
	if err != nil {
		return Route{}, err
	}
	defer r.mu.RUnlock()
	var out C.tokenring_route
	if err := check(C.tokenring_router_route_parts(&out, p, charp(ks), &ptrs[0], &lens[0], C.size_t(len(parts)), C.uint32_t(flags))); err != nil {
		return Route{}, err
	}
	return routeFromC(&out), nil
}

// RouteToken gives the replicas of a Murmur3 token of keyspace.
func (r *Router) RouteToken(keyspace string, token int64, flags RouteFlags) (Route, error) {
	ks, err := cname("keyspace", keyspace)
	if err != nil {
		return Route{}, err
	}
	p, err := r.enter()
	if err != nil {
		return Route{}, err
	}
	defer r.mu.RUnlock()
	var out C.tokenring_route
	if err := check(C.tokenring_router_route_token(&out, p, charp(ks), C.int64_t(token), C.uint32_t(flags))); err != nil {
		return Route{}, err
	}
	return routeFromC(&out), nil
}

// LocalTags appends to dst the tags of a key's replicas, local datacenter first and up
// before down: what a host-selection policy iterates.
func (r *Router) LocalTags(dst []uint64, keyspace string, key []byte) ([]uint64, error) {
	ks, err := cname("keyspace", keyspace)
	if err != nil {
		return dst, err
	}
	p, err := r.enter()
	if err != nil {
		return dst, err
	}
	defer r.mu.RUnlock()
	var out C.tokenring_route
	if err := check(C.tokenring_router_route(&out, p, charp(ks), bytesPtr(key), C.size_t(len(key)), C.TOKENRING_ROUTE_UP_FIRST)); err != nil {
		return dst, err
	}
	n := int(out.count)
	tags := make([]uint64, n)
	if n > 0 {
		C.trgo_local_tags(&out, (*C.uint64_t)(unsafe.Pointer(&tags[0])))
	}
	return append(dst, tags...), nil
}

// Nodes returns the router's nodes by index.
func (r *Router) Nodes() ([]RouterNode, error) {
	p, err := r.enter()
	if err != nil {
		return nil, err
	}
	defer r.mu.RUnlock()
	n := int(C.tokenring_router_node_count(p))
	out := make([]RouterNode, n)
	for i := range out {
		var info C.tokenring_router_node_info
		if err := check(C.tokenring_router_node(&info, p, C.size_t(i))); err != nil {
			return nil, err
		}
		nd := RouterNode{Name: C.GoString(info.name), Datacenter: C.GoString(info.datacenter),
			Rack: C.GoString(info.rack), Tag: uint64(info.tag),
			Up: info.flags&C.TOKENRING_ROUTER_NODE_DOWN == 0, State: NodeState(info.state),
			TokenCount: int(info.token_count), Local: info.local != 0}
		if info.host_id != nil {
			nd.HostID = C.GoString(info.host_id)
		}
		out[i] = nd
	}
	return out, nil
}

// FindNode returns the index of a node.
func (r *Router) FindNode(name string) (int, error) {
	cn, err := cname("node", name)
	if err != nil {
		return 0, err
	}
	p, err := r.enter()
	if err != nil {
		return 0, err
	}
	defer r.mu.RUnlock()
	var idx C.uint32_t
	if err := check(C.tokenring_router_find_node(&idx, p, charp(cn))); err != nil {
		return 0, err
	}
	return int(idx), nil
}

// Keyspaces returns the routed keyspaces, sorted; Skipped the keyspaces whose class
// places nothing on the ring, as (name, class) pairs.
func (r *Router) Keyspaces() ([]string, error) {
	p, err := r.enter()
	if err != nil {
		return nil, err
	}
	defer r.mu.RUnlock()
	out := make([]string, int(C.tokenring_router_keyspace_count(p)))
	for i := range out {
		var name *C.char
		if err := check(C.tokenring_router_keyspace(&name, nil, p, C.size_t(i))); err != nil {
			return nil, err
		}
		out[i] = C.GoString(name)
	}
	return out, nil
}

// Skipped returns the keyspaces not routed (LocalStrategy, EverywhereStrategy,
// MetaStrategy) as (name, class) pairs.
func (r *Router) Skipped() ([][2]string, error) {
	p, err := r.enter()
	if err != nil {
		return nil, err
	}
	defer r.mu.RUnlock()
	out := make([][2]string, int(C.tokenring_router_skipped_count(p)))
	for i := range out {
		var name, cls *C.char
		if err := check(C.tokenring_router_skipped(&name, &cls, p, C.size_t(i))); err != nil {
			return nil, err
		}
		out[i] = [2]string{C.GoString(name), C.GoString(cls)}
	}
	return out, nil
}

// RouterEvent is a change for Router.Apply; set Kind and the fields it names. An empty
// string is absent (a NULL rack reads as UNKNOWN_RACK).
type RouterEvent struct {
	Kind        RouterEventKind
	Node        string
	OldNode     string
	Datacenter  string
	Rack        string
	HostID      string
	Tokens      []string
	Tag         uint64
	Down        bool
	Keyspace    string
	Replication map[string]string
	Placement   *Placement
}

// cOpt is a C copy of s, or nil for "" (freed by the caller's cleanup).
func cOpt(s string, frees *[]unsafe.Pointer) *C.char {
	if s == "" {
		return nil
	}
	p := C.CString(s)
	*frees = append(*frees, unsafe.Pointer(p))
	return p
}

func cMap(m map[string]string) (keys, values []string) {
	for k, v := range m {
		keys = append(keys, k)
		values = append(values, v)
	}
	return
}

// Apply returns the snapshot after one event; r is unchanged (also on error).
func (r *Router) Apply(ev RouterEvent) (*Router, error) {
	var frees []unsafe.Pointer
	defer func() {
		for _, f := range frees {
			C.free(f)
		}
	}()
	var cev C.tokenring_router_event
	cev.kind = C.int32_t(ev.Kind)
	cev.node = cOpt(ev.Node, &frees)
	cev.old_node = cOpt(ev.OldNode, &frees)
	cev.datacenter = cOpt(ev.Datacenter, &frees)
	cev.rack = cOpt(ev.Rack, &frees)
	cev.host_id = cOpt(ev.HostID, &frees)
	cev.keyspace = cOpt(ev.Keyspace, &frees)
	cev.tag = C.uint64_t(ev.Tag)
	if ev.Down {
		cev.flags = C.TOKENRING_ROUTER_NODE_DOWN
	}
	toks, freeToks, err := cStrings("token", ev.Tokens)
	if err != nil {
		return nil, err
	}
	defer freeToks()
	cev.tokens = toks
	cev.token_count = C.size_t(len(ev.Tokens))
	k, v := cMap(ev.Replication)
	ck, freeK, err := cStrings("replication key", k)
	if err != nil {
		return nil, err
	}
	defer freeK()
	cv, freeV, err := cStrings("replication value", v)
	if err != nil {
		return nil, err
	}
	defer freeV()
	cev.keys, cev.values, cev.count = ck, cv, C.size_t(len(k))
	if r == nil {
		return nil, nilHandle("Router")
	}
	hs := []handle{r}
	if ev.Placement != nil {
		hs = append(hs, ev.Placement)
	}
	unlock, err := lockAll(hs...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if ev.Placement != nil {
		cev.placement = ev.Placement.ptr
	}
	p := r.ptr
	var out *C.tokenring_router
	var detail C.tokenring_error
	if err := newError(C.tokenring_router_apply(&out, p, &cev, &detail), &detail); err != nil {
		return nil, err
	}
	return adoptRouter(out), nil
}

// RouterBuilder collects the rows a driver reads under the rules of the library's cqlsh
// reader: system.local (AddLocal, first), system.peers_v2 or system.peers (AddPeer),
// system_schema.keyspaces (AddKeyspace). An empty string is CQL null.
type RouterBuilder struct {
	mu     sync.Mutex
	ptr    *C.tokenring_router_builder
	closed bool
}

// NewRouterBuilder returns an empty builder; localDC ("" for none) is the datacenter of
// the routes' Local view.
func NewRouterBuilder(localDC string) (*RouterBuilder, error) {
	var frees []unsafe.Pointer
	dc := cOpt(localDC, &frees)
	defer func() {
		for _, f := range frees {
			C.free(f)
		}
	}()
	var p *C.tokenring_router_builder
	var detail C.tokenring_error
	if err := newError(C.tokenring_router_builder_new(&p, dc, &detail), &detail); err != nil {
		return nil, err
	}
	b := &RouterBuilder{ptr: p}
	runtime.SetFinalizer(b, (*RouterBuilder).Close)
	return b, nil
}

// Close frees the builder. Calling it again does nothing.
func (b *RouterBuilder) Close() error {
	if b == nil {
		return nil
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.ptr != nil {
		C.tokenring_router_builder_free(b.ptr)
		b.ptr = nil
		b.closed = true
		runtime.SetFinalizer(b, nil)
	}
	return nil
}

func (b *RouterBuilder) node(local bool, address, dc, rack, hostID, partitioner string, tokens []string) error {
	if err := b.enter(); err != nil {
		return err
	}
	defer b.mu.Unlock()
	var frees []unsafe.Pointer
	defer func() {
		for _, f := range frees {
			C.free(f)
		}
	}()
	toks, freeToks, err := cStrings("token", tokens)
	if err != nil {
		return err
	}
	defer freeToks()
	addr := C.CString(address)
	frees = append(frees, unsafe.Pointer(addr))
	var detail C.tokenring_error
	var st C.int
	if local {
		st = C.tokenring_router_builder_add_local(b.ptr, addr, cOpt(dc, &frees), cOpt(rack, &frees), cOpt(hostID, &frees), cOpt(partitioner, &frees), toks, C.size_t(len(tokens)), &detail)
	} else {
		st = C.tokenring_router_builder_add_peer(b.ptr, addr, cOpt(dc, &frees), cOpt(rack, &frees), cOpt(hostID, &frees), toks, C.size_t(len(tokens)), &detail)
	}
	return newError(st, &detail)
}

// AddLocal adds the row of system.local (partitioner: its class name, or "").
func (b *RouterBuilder) AddLocal(address, datacenter, rack, hostID, partitioner string, tokens []string) error {
	return b.node(true, address, datacenter, rack, hostID, partitioner, tokens)
}

// AddPeer adds a row of system.peers_v2 or system.peers.
func (b *RouterBuilder) AddPeer(address, datacenter, rack, hostID string, tokens []string) error {
	return b.node(false, address, datacenter, rack, hostID, "", tokens)
}

// AddKeyspace adds a row of system_schema.keyspaces: its replication map as the driver
// decodes it ({"class": ..., "dc1": "3"}).
func (b *RouterBuilder) AddKeyspace(name string, replication map[string]string) error {
	cn, err := cname("keyspace", name)
	if err != nil {
		return err
	}
	k, v := cMap(replication)
	ck, freeK, err := cStrings("replication key", k)
	if err != nil {
		return err
	}
	defer freeK()
	cv, freeV, err := cStrings("replication value", v)
	if err != nil {
		return err
	}
	defer freeV()
	if err := b.enter(); err != nil {
		return err
	}
	defer b.mu.Unlock()
	var detail C.tokenring_error
	return newError(C.tokenring_router_builder_add_keyspace(b.ptr, charp(cn), ck, cv, C.size_t(len(k)), &detail), &detail)
}

// AddCluster adds every node and keyspace of a parsed cluster.
func (b *RouterBuilder) AddCluster(c *Cluster) error {
	if b == nil {
		return nilHandle("RouterBuilder")
	}
	unlock, err := lockAll(b, c)
	if err != nil {
		return err
	}
	defer unlock()
	var detail C.tokenring_error
	return newError(C.tokenring_router_builder_add_cluster(b.ptr, c.ptr, &detail), &detail)
}

// SetNode sets a node's tag (kept in every later snapshot) and liveness.
func (b *RouterBuilder) SetNode(name string, tag uint64, down bool) error {
	cn, err := cname("node", name)
	if err != nil {
		return err
	}
	if err := b.enter(); err != nil {
		return err
	}
	defer b.mu.Unlock()
	var flags C.uint32_t
	if down {
		flags = C.TOKENRING_ROUTER_NODE_DOWN
	}
	var detail C.tokenring_error
	return newError(C.tokenring_router_builder_set_node(b.ptr, charp(cn), C.uint64_t(tag), flags, &detail), &detail)
}

// Build makes a router of what was added (the builder stays usable).
func (b *RouterBuilder) Build() (*Router, error) {
	if err := b.enter(); err != nil {
		return nil, err
	}
	defer b.mu.Unlock()
	var out *C.tokenring_router
	var detail C.tokenring_error
	if err := newError(C.tokenring_router_build(&out, b.ptr, &detail), &detail); err != nil {
		return nil, err
	}
	return adoptRouter(out), nil
}

// RouterHolder publishes the current Router to readers without locks (router.h).
type RouterHolder struct {
	mu      sync.RWMutex // Close against the other methods
	ptr     *C.tokenring_router_holder
	closed  bool
	readers atomic.Int64 // open RouterReaders: Close refuses while any is
}

// NewRouterHolder publishes r (the holder keeps its own reference).
func NewRouterHolder(r *Router) (*RouterHolder, error) {
	p, err := r.enter()
	if err != nil {
		return nil, err
	}
	defer r.mu.RUnlock()
	var h *C.tokenring_router_holder
	if err := check(C.tokenring_router_holder_new(&h, p)); err != nil {
		return nil, err
	}
	return &RouterHolder{ptr: h}, nil
}

// Close frees the holder; every reader must be closed first (else an ErrInvalid error,
// and the holder stays open).
func (h *RouterHolder) Close() error {
	if h == nil {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.ptr != nil {
		if n := h.readers.Load(); n > 0 {
			return goError(CodeInvalid, "router holder has %d open reader(s): close them first", n)
		}
		C.tokenring_router_holder_free(h.ptr)
		h.ptr = nil
		h.closed = true
	}
	return nil
}

// Swap publishes r; the previous snapshot is freed once no reader holds it.
func (h *RouterHolder) Swap(r *Router) error {
	if h == nil {
		return nilHandle("RouterHolder")
	}
	if r == nil {
		return nilHandle("Router")
	}
	unlock, err := lockAll(h, r)
	if err != nil {
		return err
	}
	defer unlock()
	return check(C.tokenring_router_holder_swap(h.ptr, r.ptr))
}

// Current returns a reference to the current snapshot (to apply an event to it).
func (h *RouterHolder) Current() (*Router, error) {
	if err := h.enter(); err != nil {
		return nil, err
	}
	defer h.mu.RUnlock()
	p := C.tokenring_router_holder_current(h.ptr)
	if p == nil {
		return nil, goError(CodeNoMem, "out of memory")
	}
	return adoptRouter(p), nil
}

// RouterReader is one worker's registration with a holder: use it from one goroutine at a
// time (it is not tied to an OS thread), one reader per worker.
type RouterReader struct {
	h        *RouterHolder
	ptr      *C.tokenring_router_reader
	view     Router
	acquired bool
}

// NewReader registers a reader.
func (h *RouterHolder) NewReader() (*RouterReader, error) {
	if err := h.enter(); err != nil {
		return nil, err
	}
	defer h.mu.RUnlock()
	var p *C.tokenring_router_reader
	if err := check(C.tokenring_router_reader_new(&p, h.ptr)); err != nil {
		return nil, err
	}
	h.readers.Add(1)
	return &RouterReader{h: h, ptr: p}, nil
}

// Acquire returns the current snapshot, valid until Release (a view: do not keep it). A
// nil, zero or closed reader returns nil (whose methods return ErrInvalid).
func (rd *RouterReader) Acquire() *Router {
	if rd == nil || rd.ptr == nil {
		return nil
	}
	rd.view.mu.Lock()
	rd.view.ptr = C.tokenring_router_acquire(rd.ptr)
	rd.view.borrowed = true
	rd.view.closed = false
	rd.view.mu.Unlock()
	rd.acquired = true
	return &rd.view
}

// Release gives the snapshot back; the view from Acquire then returns ErrClosed.
// Without an Acquire (or on a nil, zero or closed reader) it does nothing.
func (rd *RouterReader) Release() {
	if rd == nil || rd.ptr == nil || !rd.acquired {
		return
	}
	rd.view.mu.Lock()
	rd.view.ptr = nil
	rd.view.closed = true
	rd.view.mu.Unlock()
	C.tokenring_router_release(rd.ptr)
	rd.acquired = false
}

// Close unregisters the reader. Calling it again does nothing.
func (rd *RouterReader) Close() error {
	if rd == nil || rd.ptr == nil {
		return nil
	}
	rd.Release()
	C.tokenring_router_reader_free(rd.ptr)
	rd.ptr = nil
	rd.h.readers.Add(-1)
	return nil
}
