// SPDX-License-Identifier: Apache-2.0
//! The router (`router.h`): immutable routing snapshots built from a driver's rows, changed
//! by cluster events, and published to reader threads without locks.

use crate::{check, cstring, new_err, Result};
use libtokenring_sys as sys;
use std::ffi::{CStr, CString};
use std::marker::PhantomData;
use std::ops::Deref;
use std::os::raw::c_char;
use std::ptr;

/// Route flag: in [`Route::local`], the up replicas of the local datacenter first, then its
/// down ones, then the other datacenters' up and down ones (`TOKENRING_ROUTE_UP_FIRST`).
pub const ROUTE_UP_FIRST: u32 = sys::TOKENRING_ROUTE_UP_FIRST;

fn opt_cstring(s: Option<&str>, what: &str) -> Result<Option<CString>> {
    s.map(|s| cstring(s, what)).transpose()
}

fn opt_ptr(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(ptr::null(), |c| c.as_ptr())
}

fn cstrings(items: &[&str], what: &str) -> Result<Vec<CString>> {
    items.iter().map(|s| cstring(s, what)).collect()
}

fn ptrs(items: &[CString]) -> Vec<*const c_char> {
    items.iter().map(|c| c.as_ptr()).collect()
}

fn text<'a>(p: *const c_char) -> Option<&'a str> {
    if p.is_null() {
        None
    } else {
        Some(unsafe { CStr::from_ptr(p) }.to_str().unwrap_or(""))
    }
}

/// Collects the rows a driver reads (system.local, system.peers_v2, system_schema.keyspaces)
/// to build a [`Router`]. An ordinary mutable object: `Send`, not `Sync`.
pub struct RouterBuilder {
    ptr: *mut sys::tokenring_router_builder,
}

// router.h: a builder is an ordinary mutable object (one thread at a time).
unsafe impl Send for RouterBuilder {}

impl RouterBuilder {
    /// An empty builder; `local_dc` is the local datacenter of the routers it builds
    /// (`None`: every node counts as local).
    pub fn new(local_dc: Option<&str>) -> Result<RouterBuilder> {
        let dc = opt_cstring(local_dc, "datacenter")?;
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        check(unsafe { sys::tokenring_router_builder_new(&mut ptr, opt_ptr(&dc), &mut err) }, Some(&err))?;
        Ok(RouterBuilder { ptr })
    }

    /// Adds the row of system.local (before the peers: its partitioner fixes how every
    /// token reads). Tokens as text; `rack` `None` reads as `UNKNOWN_RACK`.
    pub fn add_local(
        &mut self,
        address: &str,
        datacenter: &str,
        rack: Option<&str>,
        host_id: Option<&str>,
        partitioner: Option<&str>,
        tokens: &[&str],
    ) -> Result<()> {
        let (a, d) = (cstring(address, "address")?, cstring(datacenter, "datacenter")?);
        let (r, h, p) = (opt_cstring(rack, "rack")?, opt_cstring(host_id, "host id")?, opt_cstring(partitioner, "partitioner")?);
        let t = cstrings(tokens, "token")?;
        let tp = ptrs(&t);
        let mut err = new_err();
        let rc = unsafe {
            sys::tokenring_router_builder_add_local(
                self.ptr, a.as_ptr(), d.as_ptr(), opt_ptr(&r), opt_ptr(&h), opt_ptr(&p), tp.as_ptr(), tp.len(), &mut err,
            )
        };
        check(rc, Some(&err))
    }

    /// Adds a row of system.peers_v2 (or system.peers).
    pub fn add_peer(
        &mut self,
        address: &str,
        datacenter: &str,
        rack: Option<&str>,
        host_id: Option<&str>,
        tokens: &[&str],
    ) -> Result<()> {
        let (a, d) = (cstring(address, "address")?, cstring(datacenter, "datacenter")?);
        let (r, h) = (opt_cstring(rack, "rack")?, opt_cstring(host_id, "host id")?);
        let t = cstrings(tokens, "token")?;
        let tp = ptrs(&t);
        let mut err = new_err();
        let rc = unsafe {
            sys::tokenring_router_builder_add_peer(self.ptr, a.as_ptr(), d.as_ptr(), opt_ptr(&r), opt_ptr(&h), tp.as_ptr(), tp.len(), &mut err)
        };
        check(rc, Some(&err))
    }

    /// Adds a row of system_schema.keyspaces: the name and the replication map, e.g.
    /// `&[("class", "NetworkTopologyStrategy"), ("dc1", "3")]`.
    pub fn add_keyspace(&mut self, keyspace: &str, replication: &[(&str, &str)]) -> Result<()> {
        let k = cstring(keyspace, "keyspace")?;
        let (keys, values) = map_cstrings(replication)?;
        let (kp, vp) = (ptrs(&keys), ptrs(&values));
        let mut err = new_err();
        let rc = unsafe {
            sys::tokenring_router_builder_add_keyspace(self.ptr, k.as_ptr(), kp.as_ptr(), vp.as_ptr(), kp.len(), &mut err)
        };
        check(rc, Some(&err))
    }

    /// Sets the caller's tag (kept by the node in every later snapshot) and the liveness of
    /// a node already added.
    pub fn set_node(&mut self, name: &str, tag: u64, down: bool) -> Result<()> {
        let n = cstring(name, "node name")?;
        let flags = if down { sys::TOKENRING_ROUTER_NODE_DOWN } else { 0 };
        let mut err = new_err();
        check(unsafe { sys::tokenring_router_builder_set_node(self.ptr, n.as_ptr(), tag, flags, &mut err) }, Some(&err))
    }

    /// Builds a router from what the builder holds (the builder stays as it is).
    pub fn build(&self) -> Result<Router> {
        let mut ptr = ptr::null_mut();
        let mut err = new_err();
        check(unsafe { sys::tokenring_router_build(&mut ptr, self.ptr, &mut err) }, Some(&err))?;
        Ok(Router { ptr })
    }
}

impl Drop for RouterBuilder {
    fn drop(&mut self) {
        unsafe { sys::tokenring_router_builder_free(self.ptr) }
    }
}

fn map_cstrings(map: &[(&str, &str)]) -> Result<(Vec<CString>, Vec<CString>)> {
    let keys = map.iter().map(|(k, _)| cstring(k, "replication key")).collect::<Result<Vec<_>>>()?;
    let values = map.iter().map(|(_, v)| cstring(v, "replication value")).collect::<Result<Vec<_>>>()?;
    Ok((keys, values))
}

/// The replicas of a key or token, borrowed from the router that gave them (no allocation).
#[derive(Debug, Clone, Copy)]
pub struct Route<'r> {
    /// Node indices in the server's order, primary first.
    pub replicas: &'r [u32],
    /// The same nodes, local datacenter first (see [`ROUTE_UP_FIRST`]).
    pub local: &'r [u32],
    /// The router's tags by node index: the tag of replica `i` is `tags[replicas[i]]`.
    pub tags: &'r [u64],
    /// Replicas in the local datacenter: the first `local_count` entries of `local`.
    pub local_count: u32,
    /// Up replicas among them.
    pub local_up_count: u32,
    /// The placement's replica-set id.
    pub set_id: u32,
    /// The key's token (Murmur3 routers; 0 otherwise).
    pub token: i64,
}

impl Route<'_> {
    /// The tags of the replicas, in the server's order.
    pub fn replica_tags(&self) -> Vec<u64> {
        self.replicas.iter().map(|&n| self.tags[n as usize]).collect()
    }
}

/// One node of a router, borrowed from it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RouterNode<'r> {
    /// Node name (the address the rows gave).
    pub name: &'r str,
    /// Datacenter.
    pub datacenter: &'r str,
    /// Rack.
    pub rack: &'r str,
    /// Host ID as the rows gave it.
    pub host_id: Option<&'r str>,
    /// The caller's tag (0 unless set).
    pub tag: u64,
    /// Whether the node is down.
    pub down: bool,
    /// A `tokenring_node_state` (0 normal, 1 joining, 2 leaving, 3 moving).
    pub state: i32,
    /// Number of tokens.
    pub token_count: u32,
    /// Whether the node is in the router's local datacenter (or the router has none).
    pub local: bool,
}

/// A change to apply to a router ([`Router::apply`]). Tokens are text, as the rows give them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event<'a> {
    /// The node is up.
    Up(&'a str),
    /// The node is down.
    Down(&'a str),
    /// A node joined.
    Joined {
        /// Its name.
        node: &'a str,
        /// Its datacenter.
        datacenter: &'a str,
        /// Its rack (`None`: `UNKNOWN_RACK`).
        rack: Option<&'a str>,
        /// Its host ID.
        host_id: Option<&'a str>,
        /// Its tokens.
        tokens: &'a [&'a str],
        /// The caller's tag.
        tag: u64,
        /// Whether it starts down.
        down: bool,
    },
    /// The node left the ring.
    Left(&'a str),
    /// The node now has these tokens.
    Moved {
        /// The node.
        node: &'a str,
        /// Its new tokens.
        tokens: &'a [&'a str],
    },
    /// `node` replaced `old_node`, taking its datacenter, rack and tokens.
    Replaced {
        /// The new node.
        node: &'a str,
        /// The node replaced.
        old_node: &'a str,
        /// The new node's host ID.
        host_id: Option<&'a str>,
        /// The new node's tag.
        tag: u64,
        /// Whether it starts down.
        down: bool,
    },
    /// A keyspace was created with this replication map.
    KeyspaceCreated(&'a str, &'a [(&'a str, &'a str)]),
    /// A keyspace's replication is now this map.
    KeyspaceAltered(&'a str, &'a [(&'a str, &'a str)]),
    /// A keyspace was dropped.
    KeyspaceDropped(&'a str),
}

/// An immutable, reference-counted routing snapshot. `Send + Sync` (router.h: a snapshot
/// may be read by any number of threads at once); `clone` takes another reference.
pub struct Router {
    pub(crate) ptr: *mut sys::tokenring_router,
}

// router.h: a snapshot never changes; any number of threads may read it at once, and its
// reference count is atomic.
unsafe impl Send for Router {}
unsafe impl Sync for Router {}

impl Clone for Router {
    fn clone(&self) -> Router {
        Router { ptr: unsafe { sys::tokenring_router_ref(self.ptr) } }
    }
}

impl std::fmt::Debug for Router {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Router").field("nodes", &self.node_count()).field("keyspaces", &self.keyspaces()).finish()
    }
}

impl Drop for Router {
    fn drop(&mut self) {
        unsafe { sys::tokenring_router_free(self.ptr) }
    }
}

fn empty_route() -> sys::tokenring_route {
    sys::tokenring_route {
        replicas: ptr::null(), local: ptr::null(), tags: ptr::null(), count: 0, local_count: 0,
        local_up_count: 0, set_id: 0, token: 0, reserved: [0; 2],
    }
}

fn slice<'a, T>(p: *const T, n: usize) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        unsafe { std::slice::from_raw_parts(p, n) }
    }
}

impl Router {
    fn route_of(&self, rc: std::os::raw::c_int, r: &sys::tokenring_route) -> Result<Route<'_>> {
        check(rc, None)?;
        Ok(Route {
            replicas: slice(r.replicas, r.count as usize),
            local: slice(r.local, r.count as usize),
            tags: slice(r.tags, self.node_count()),
            local_count: r.local_count,
            local_up_count: r.local_up_count,
            set_id: r.set_id,
            token: r.token,
        })
    }

    /// Routes a serialized partition key of a keyspace; `flags` 0 or [`ROUTE_UP_FIRST`].
    pub fn route(&self, keyspace: &str, key: &[u8], flags: u32) -> Result<Route<'_>> {
        let k = cstring(keyspace, "keyspace")?;
        let mut r = empty_route();
        let rc = unsafe { sys::tokenring_router_route(&mut r, self.ptr, k.as_ptr(), key.as_ptr().cast(), key.len(), flags) };
        self.route_of(rc, &r)
    }

    /// Routes a composite partition key given as its parts (the column values).
    pub fn route_parts(&self, keyspace: &str, parts: &[&[u8]], flags: u32) -> Result<Route<'_>> {
        let k = cstring(keyspace, "keyspace")?;
        let pp: Vec<*const std::os::raw::c_void> = parts.iter().map(|p| p.as_ptr().cast()).collect();
        let lens: Vec<usize> = parts.iter().map(|p| p.len()).collect();
        let mut r = empty_route();
        let rc = unsafe {
            sys::tokenring_router_route_parts(&mut r, self.ptr, k.as_ptr(), pp.as_ptr(), lens.as_ptr(), pp.len(), flags)
        };
        self.route_of(rc, &r)
    }

    /// Routes a Murmur3 token of a keyspace.
    pub fn route_token(&self, keyspace: &str, token: i64, flags: u32) -> Result<Route<'_>> {
        let k = cstring(keyspace, "keyspace")?;
        let mut r = empty_route();
        let rc = unsafe { sys::tokenring_router_route_token(&mut r, self.ptr, k.as_ptr(), token, flags) };
        self.route_of(rc, &r)
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        unsafe { sys::tokenring_router_node_count(self.ptr) }
    }

    /// Node `index` (0 .. node_count - 1).
    pub fn node(&self, index: usize) -> Result<RouterNode<'_>> {
        let mut n = sys::tokenring_router_node_info {
            name: ptr::null(), datacenter: ptr::null(), rack: ptr::null(), host_id: ptr::null(), tag: 0,
            flags: 0, state: 0, token_count: 0, local: 0, reserved: [0; 2],
        };
        check(unsafe { sys::tokenring_router_node(&mut n, self.ptr, index) }, None)?;
        Ok(RouterNode {
            name: text(n.name).unwrap_or(""),
            datacenter: text(n.datacenter).unwrap_or(""),
            rack: text(n.rack).unwrap_or(""),
            host_id: text(n.host_id),
            tag: n.tag,
            down: n.flags & sys::TOKENRING_ROUTER_NODE_DOWN != 0,
            state: n.state,
            token_count: n.token_count,
            local: n.local != 0,
        })
    }

    /// The index of a node by name.
    pub fn find_node(&self, name: &str) -> Result<u32> {
        let n = cstring(name, "node name")?;
        let mut index = 0;
        check(unsafe { sys::tokenring_router_find_node(&mut index, self.ptr, n.as_ptr()) }, None)?;
        Ok(index)
    }

    /// The names of the replicas of a route.
    pub fn names(&self, nodes: &[u32]) -> Vec<&str> {
        nodes.iter().map(|&i| self.node(i as usize).map_or("", |n| n.name)).collect()
    }

    /// The keyspaces routed, sorted by name (skipped ones excluded).
    pub fn keyspaces(&self) -> Vec<&str> {
        let n = unsafe { sys::tokenring_router_keyspace_count(self.ptr) };
        (0..n)
            .filter_map(|i| {
                let mut name = ptr::null();
                let rc = unsafe { sys::tokenring_router_keyspace(&mut name, ptr::null_mut(), self.ptr, i) };
                if rc == sys::TOKENRING_OK { text(name) } else { None }
            })
            .collect()
    }

    /// The keyspaces skipped (LocalStrategy, EverywhereStrategy, MetaStrategy), with their class.
    pub fn skipped(&self) -> Vec<(&str, &str)> {
        let n = unsafe { sys::tokenring_router_skipped_count(self.ptr) };
        (0..n)
            .filter_map(|i| {
                let (mut name, mut class) = (ptr::null(), ptr::null());
                let rc = unsafe { sys::tokenring_router_skipped(&mut name, &mut class, self.ptr, i) };
                if rc == sys::TOKENRING_OK { Some((text(name)?, text(class).unwrap_or(""))) } else { None }
            })
            .collect()
    }

    /// The snapshot that follows this one after `event` (this one is unchanged).
    pub fn apply(&self, event: &Event<'_>) -> Result<Router> {
        let mut ev = sys::tokenring_router_event {
            kind: 0, flags: 0, node: ptr::null(), old_node: ptr::null(), datacenter: ptr::null(),
            rack: ptr::null(), host_id: ptr::null(), tokens: ptr::null(), token_count: 0, tag: 0,
            keyspace: ptr::null(), keys: ptr::null(), values: ptr::null(), count: 0,
            placement: ptr::null(), reserved: [0; 4],
        };
        // Everything the event points to lives until the call returns.
        let (mut tokens, mut keys, mut values) = (Vec::new(), Vec::new(), Vec::new());
        let down_flag = |d: bool| if d { sys::TOKENRING_ROUTER_NODE_DOWN } else { 0 };
        let (node, old, dc, rack, host, ks);
        match *event {
            Event::Up(n) | Event::Down(n) | Event::Left(n) => {
                ev.kind = match event {
                    Event::Up(_) => sys::TOKENRING_ROUTER_EVENT_UP,
                    Event::Down(_) => sys::TOKENRING_ROUTER_EVENT_DOWN,
                    _ => sys::TOKENRING_ROUTER_EVENT_LEFT,
                };
                node = Some(cstring(n, "node name")?);
                (old, dc, rack, host, ks) = (None, None, None, None, None);
            }
            Event::Joined { node: n, datacenter, rack: r, host_id, tokens: t, tag, down } => {
                ev.kind = sys::TOKENRING_ROUTER_EVENT_JOINED;
                ev.flags = down_flag(down);
                ev.tag = tag;
                node = Some(cstring(n, "node name")?);
                dc = Some(cstring(datacenter, "datacenter")?);
                rack = opt_cstring(r, "rack")?;
                host = opt_cstring(host_id, "host id")?;
                tokens = cstrings(t, "token")?;
                (old, ks) = (None, None);
            }
            Event::Moved { node: n, tokens: t } => {
                ev.kind = sys::TOKENRING_ROUTER_EVENT_MOVED;
                node = Some(cstring(n, "node name")?);
                tokens = cstrings(t, "token")?;
                (old, dc, rack, host, ks) = (None, None, None, None, None);
            }
            Event::Replaced { node: n, old_node, host_id, tag, down } => {
                ev.kind = sys::TOKENRING_ROUTER_EVENT_REPLACED;
                ev.flags = down_flag(down);
                ev.tag = tag;
                node = Some(cstring(n, "node name")?);
                old = Some(cstring(old_node, "node name")?);
                host = opt_cstring(host_id, "host id")?;
                (dc, rack, ks) = (None, None, None);
            }
            Event::KeyspaceCreated(k, map) | Event::KeyspaceAltered(k, map) => {
                ev.kind = if matches!(event, Event::KeyspaceCreated(..)) {
                    sys::TOKENRING_ROUTER_EVENT_CREATED
                } else {
                    sys::TOKENRING_ROUTER_EVENT_ALTERED
                };
                ks = Some(cstring(k, "keyspace")?);
                (keys, values) = map_cstrings(map)?;
                (node, old, dc, rack, host) = (None, None, None, None, None);
            }
            Event::KeyspaceDropped(k) => {
                ev.kind = sys::TOKENRING_ROUTER_EVENT_DROPPED;
                ks = Some(cstring(k, "keyspace")?);
                (node, old, dc, rack, host) = (None, None, None, None, None);
            }
        }
        ev.node = opt_ptr(&node);
        ev.old_node = opt_ptr(&old);
        ev.datacenter = opt_ptr(&dc);
        ev.rack = opt_ptr(&rack);
        ev.host_id = opt_ptr(&host);
        ev.keyspace = opt_ptr(&ks);
        let (tp, kp, vp) = (ptrs(&tokens), ptrs(&keys), ptrs(&values));
        if !tp.is_empty() {
            ev.tokens = tp.as_ptr();
            ev.token_count = tp.len();
        }
        if !kp.is_empty() {
            ev.keys = kp.as_ptr();
            ev.values = vp.as_ptr();
            ev.count = kp.len();
        }
        let mut out = ptr::null_mut();
        let mut err = new_err();
        check(unsafe { sys::tokenring_router_apply(&mut out, self.ptr, &ev, &mut err) }, Some(&err))?;
        Ok(Router { ptr: out })
    }
}

/// Publishes the current [`Router`] to reader threads without locks. `Send + Sync`:
/// share it (by reference, e.g. across `std::thread::scope`); any thread may
/// [`swap`](RouterHolder::swap), concurrently with readers and other swaps. Each reader
/// thread registers its own [`RouterReader`], which borrows the holder so the holder
/// outlives every reader.
///
/// ```
/// use libtokenring::{Event, RouterBuilder, RouterHolder};
/// let mut b = RouterBuilder::new(Some("dc1"))?;
/// b.add_local("10.0.0.1", "dc1", Some("r1"), None, None, &["-100", "100"])?;
/// b.add_peer("10.0.0.2", "dc1", Some("r1"), None, &["0"])?;
/// b.add_keyspace("app", &[("class", "SimpleStrategy"), ("replication_factor", "1")])?;
/// let holder = RouterHolder::new(&b.build()?)?;
/// std::thread::scope(|s| {
///     s.spawn(|| {
///         let mut reader = holder.reader().unwrap();
///         let snap = reader.acquire(); // released when `snap` drops
///         let route = snap.route_token("app", 50, 0).unwrap();
///         assert!(route.replicas.len() == 1);
///     });
///     let next = holder.current().apply(&Event::Left("10.0.0.2")).unwrap();
///     holder.swap(&next).unwrap();
/// });
/// # Ok::<(), libtokenring::Error>(())
/// ```
pub struct RouterHolder {
    ptr: *mut sys::tokenring_router_holder,
}

// router.h: swap, current and reader_new are thread-safe; free needs every reader gone
// and no call running, which the borrow of each RouterReader and `drop(self)` ensure.
unsafe impl Send for RouterHolder {}
unsafe impl Sync for RouterHolder {}

impl RouterHolder {
    /// A holder publishing `initial` (the holder takes its own reference).
    pub fn new(initial: &Router) -> Result<RouterHolder> {
        let mut ptr = ptr::null_mut();
        check(unsafe { sys::tokenring_router_holder_new(&mut ptr, initial.ptr) }, None)?;
        Ok(RouterHolder { ptr })
    }

    /// Publishes `next`: later acquires give it; the previous snapshot is released once
    /// no reader holds it.
    pub fn swap(&self, next: &Router) -> Result<()> {
        check(unsafe { sys::tokenring_router_holder_swap(self.ptr, next.ptr) }, None)
    }

    /// A new reference to the current snapshot (for a writer applying an event to it).
    pub fn current(&self) -> Router {
        Router { ptr: unsafe { sys::tokenring_router_holder_current(self.ptr) } }
    }

    /// Registers a reader (one per thread).
    pub fn reader(&self) -> Result<RouterReader<'_>> {
        let mut ptr = ptr::null_mut();
        check(unsafe { sys::tokenring_router_reader_new(&mut ptr, self.ptr) }, None)?;
        Ok(RouterReader { ptr, _holder: PhantomData })
    }
}

impl Drop for RouterHolder {
    fn drop(&mut self) {
        unsafe { sys::tokenring_router_holder_free(self.ptr) }
    }
}

/// One thread's registration with a [`RouterHolder`]. `Send` but not `Sync` (router.h:
/// a reader is used by one thread at a time and holds one snapshot at a time).
///
/// A reader cannot be shared between threads:
/// ```compile_fail
/// fn sync<T: Sync>(_: &T) {}
/// # let mut b = libtokenring::RouterBuilder::new(None).unwrap();
/// # b.add_local("a", "dc1", None, None, None, &["0"]).unwrap();
/// let holder = libtokenring::RouterHolder::new(&b.build().unwrap()).unwrap();
/// let reader = holder.reader().unwrap();
/// sync(&reader);
/// ```
/// and a snapshot cannot outlive its release (nor the reader acquire again while one is held):
/// ```compile_fail
/// # let mut b = libtokenring::RouterBuilder::new(None).unwrap();
/// # b.add_local("a", "dc1", None, None, None, &["0"]).unwrap();
/// let holder = libtokenring::RouterHolder::new(&b.build().unwrap()).unwrap();
/// let mut reader = holder.reader().unwrap();
/// let first = reader.acquire();
/// let second = reader.acquire();
/// first.node_count();
/// ```
/// nor a reader its holder:
/// ```compile_fail
/// # let mut b = libtokenring::RouterBuilder::new(None).unwrap();
/// # b.add_local("a", "dc1", None, None, None, &["0"]).unwrap();
/// let holder = libtokenring::RouterHolder::new(&b.build().unwrap()).unwrap();
/// let reader = holder.reader().unwrap();
/// drop(holder);
/// drop(reader);
/// ```
pub struct RouterReader<'h> {
    ptr: *mut sys::tokenring_router_reader,
    _holder: PhantomData<&'h RouterHolder>,
}

// One thread at a time: it may move to another thread, never be shared (the raw pointer
// keeps it !Sync).
unsafe impl Send for RouterReader<'_> {}

impl RouterReader<'_> {
    /// Takes the current snapshot, with no lock and no allocation. The guard borrows the
    /// reader mutably, so it is released (on drop) before the reader acquires again.
    pub fn acquire(&mut self) -> Snapshot<'_> {
        let p = unsafe { sys::tokenring_router_acquire(self.ptr) };
        Snapshot { router: std::mem::ManuallyDrop::new(Router { ptr: p as *mut _ }), reader: self.ptr, _reader: PhantomData }
    }
}

impl Drop for RouterReader<'_> {
    fn drop(&mut self) {
        unsafe { sys::tokenring_router_reader_free(self.ptr) }
    }
}

/// A snapshot acquired by a [`RouterReader`]: dereferences to the [`Router`]; dropping it
/// releases it. `clone()` the router to keep a reference beyond the guard.
pub struct Snapshot<'a> {
    router: std::mem::ManuallyDrop<Router>,
    reader: *mut sys::tokenring_router_reader,
    _reader: PhantomData<&'a mut sys::tokenring_router_reader>,
}

impl Deref for Snapshot<'_> {
    type Target = Router;
    fn deref(&self) -> &Router {
        &self.router
    }
}

impl Drop for Snapshot<'_> {
    fn drop(&mut self) {
        // The router is borrowed from the reader's protection: release it, never free it.
        unsafe { sys::tokenring_router_release(self.reader) }
    }
}
