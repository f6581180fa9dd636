// SPDX-License-Identifier: Apache-2.0
//! Per-key cost of libtokenring's Rust binding next to the Rust ecosystem's own way to
//! compute a Cassandra Murmur3 token: the ScyllaDB Rust driver's `Murmur3Partitioner`
//! (crate `scylla`). Not a test: prints machine-readable lines for bench/per-key.py.
//!
//! 100,000 fixed random 16-byte keys; each measured side is paired with its peer pass by
//! pass (7 passes, the side that runs first alternates); thread CPU time
//! (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`) on Linux, wall time (`Instant`) elsewhere.
//!
//! Output, one line per pair, tab-separated:
//!     pair <ours> <median ns/key> <min ns/key> <peer> <peer median> <peer min>
//! and `clock <thread-cpu|wall>`, `ring <description>`, `check <what> ok`.
use std::hint::black_box;

use libtokenring::{code, token, Placement, Replication, Topology};
use scylla::routing::partitioner::{Murmur3Partitioner, Partitioner};

const N_KEYS: usize = 100_000;
const KEY_LEN: usize = 16;
const PASSES: usize = 7;

/// bench-ring's generator (splitmix64, same seed).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

#[cfg(all(target_os = "linux", target_pointer_width = "64"))]
mod clock {
    #[repr(C)]
    struct Timespec {
        tv_sec: i64,
        tv_nsec: i64,
    }
    extern "C" {
        fn clock_gettime(clk: i32, ts: *mut Timespec) -> i32;
    }
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    pub const NAME: &str = "thread-cpu";

    /// Thread CPU time in ns (std links the C library, which declares clock_gettime).
    pub fn now_ns() -> f64 {
        let mut ts = Timespec { tv_sec: 0, tv_nsec: 0 };
        let rc = unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        assert_eq!(rc, 0, "clock_gettime(CLOCK_THREAD_CPUTIME_ID) failed");
        ts.tv_sec as f64 * 1e9 + ts.tv_nsec as f64
    }
}

#[cfg(not(all(target_os = "linux", target_pointer_width = "64")))]
mod clock {
    use std::sync::OnceLock;
    use std::time::Instant;
    pub const NAME: &str = "wall";

    pub fn now_ns() -> f64 {
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_nanos() as f64
    }
}

fn median(v: &[f64]) -> f64 {
    let mut s = v.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = s.len();
    if n % 2 == 1 {
        s[n / 2]
    } else {
        (s[n / 2 - 1] + s[n / 2]) / 2.0
    }
}

fn min(v: &[f64]) -> f64 {
    v.iter().cloned().fold(f64::INFINITY, f64::min)
}

/// Times `ours` and `peer` over the keys, pass by pass, alternating which runs first, and
/// prints one `pair` line.
fn pair(ours_name: &str, ours: &mut dyn FnMut(), peer_name: &str, peer: &mut dyn FnMut()) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let timed = |f: &mut dyn FnMut()| {
        let t0 = clock::now_ns();
        f();
        (clock::now_ns() - t0) / N_KEYS as f64
    };
    for r in 0..PASSES {
        if r % 2 == 0 {
            a.push(timed(ours));
            b.push(timed(peer));
        } else {
            b.push(timed(peer));
            a.push(timed(ours));
        }
    }
    println!(
        "pair\t{}\t{:.2}\t{:.2}\t{}\t{:.2}\t{:.2}",
        ours_name,
        median(&a),
        min(&a),
        peer_name,
        median(&b),
        min(&b)
    );
}

/// bench-ring's 1000x256 ring: 3 DCs x 3 racks, random tokens, NetworkTopologyStrategy
/// with rf 3 in each DC. Returns the topology and every token placed, sorted.
fn make_topology(rng: &mut Rng, nodes: usize, vnodes: usize) -> (Topology, Vec<i64>) {
    let (dcs, racks) = (3, 3);
    let mut topo = Topology::new().expect("topology");
    let mut all = Vec::with_capacity(nodes * vnodes);
    let mut tok = vec![0i64; vnodes];
    for i in 0..nodes {
        let name = format!("10.{}.{}.{}", i % dcs, i / 250, i % 250);
        let dc = format!("dc{}", i % dcs + 1);
        let rack = format!("rack{}", i / dcs % racks + 1);
        loop {
            for t in tok.iter_mut() {
                *t = rng.next() as i64;
            }
            match topo.add_node(&name, &dc, &rack, &tok) {
                Ok(()) => break,
                Err(e) if e.code == code::EXISTS => continue, // a drawn token already taken
                Err(e) => panic!("add_node: {}", e),
            }
        }
        all.extend_from_slice(&tok);
    }
    all.sort_unstable();
    (topo, all)
}

/// What a Rust proxy author writes without the library, given the ring's replica rows:
/// the driver's Murmur3, `partition_point` over the sorted tokens, a flat table of rows.
struct PeerRoute {
    tokens: Vec<i64>,
    flat: Vec<u32>,
    width: usize,
}

impl PeerRoute {
    fn new(placement: &Placement<'_>, tokens: Vec<i64>) -> PeerRoute {
        let width = placement.replicas(tokens[0]).len();
        let mut flat = Vec::with_capacity(tokens.len() * width);
        for &t in &tokens {
            // the range ending at ring token t holds exactly the tokens routed to index i
            let row = placement.replicas(t);
            assert_eq!(row.len(), width, "replica rows of unequal width");
            flat.extend_from_slice(&row);
        }
        PeerRoute { tokens, flat, width }
    }

    #[inline]
    fn route(&self, key: &[u8]) -> &[u32] {
        let t = Murmur3Partitioner.hash_one(key).value();
        let mut i = self.tokens.partition_point(|&x| x < t);
        if i == self.tokens.len() {
            i = 0;
        }
        &self.flat[i * self.width..(i + 1) * self.width]
    }
}

fn main() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let quick = std::env::args().any(|a| a == "--quick");
    let (nodes, vnodes) = if quick { (96, 16) } else { (1000, 256) };
    println!("clock\t{}", clock::NAME);

    let (topo, ring_tokens) = make_topology(&mut rng, nodes, vnodes);
    let ring = topo.build().expect("ring");
    let repl = Replication::network(&[("dc1", 3), ("dc2", 3), ("dc3", 3)]).expect("replication");
    let placement = ring.placement(&repl).expect("placement");
    let ring_name = format!("{}x{}", nodes, vnodes);
    println!("ring\t{}\t3 DCs x 3 racks, random tokens, NetworkTopologyStrategy rf 3 each", ring_name);

    let mut blob = vec![0u8; N_KEYS * KEY_LEN];
    for b in blob.iter_mut() {
        *b = rng.next() as u8;
    }
    let keys: Vec<&[u8]> = blob.chunks(KEY_LEN).collect();

    // The answers agree before anything is timed: every benchmark key, and keys of every
    // length 1..63 with high bytes (the tail bytes Cassandra reads as signed).
    for k in &keys {
        assert_eq!(token(k), Murmur3Partitioner.hash_one(k).value(), "scylla disagrees on {:?}", k);
    }
    let mut odd = Vec::new();
    for len in 1..64usize {
        for rep in 0..16 {
            let high = if rep % 2 == 0 { 0x80 } else { 0 };
            odd.push((0..len).map(|_| high | rng.next() as u8).collect::<Vec<u8>>());
        }
    }
    for k in &odd {
        assert_eq!(token(k), Murmur3Partitioner.hash_one(k).value(), "scylla disagrees on {:?}", k);
    }
    // The one difference: Cassandra gives the empty key the minimum token; the driver hashes it.
    assert_eq!((token(b""), Murmur3Partitioner.hash_one(b"").value()), (i64::MIN, 0));
    println!(
        "check\ttoken\tlibtokenring::token == scylla Murmur3Partitioner on {} keys + {} keys of 1-63 bytes (half all high bytes); empty key: {} vs {}",
        keys.len(),
        odd.len(),
        i64::MIN,
        0
    );

    let peer = PeerRoute::new(&placement, ring_tokens);
    let routed = placement.route_keys(&keys).expect("route_keys");
    for (k, r) in keys.iter().zip(routed.iter()) {
        assert_eq!(r.nodes, peer.route(k), "peer route disagrees");
        assert_eq!(*r, placement.route_key(k).expect("route_key"));
    }
    for k in keys.iter().take(1000) {
        let names = placement.replica_names_for_key(k).expect("replica_names_for_key");
        let want: Vec<&str> = peer.route(k).iter().map(|&n| ring.node_name(n).unwrap()).collect();
        assert_eq!(names, want);
    }
    drop(routed);
    println!("check\troute\troute_keys == route_key == peer route on {} keys", keys.len());

    let scylla_loop = &mut || {
        for k in &keys {
            black_box(Murmur3Partitioner.hash_one(black_box(k)).value());
        }
    };
    pair(
        "token",
        &mut || {
            for k in &keys {
                black_box(token(black_box(k)));
            }
        },
        "scylla-hash_one",
        scylla_loop,
    );

    let peer_loop = &mut || {
        for k in &keys {
            black_box(peer.route(black_box(k))[0]);
        }
    };
    pair(
        &format!("route_key/{}", ring_name),
        &mut || {
            for k in &keys {
                black_box(placement.route_key(black_box(k)).unwrap().nodes[0]);
            }
        },
        &format!("peer-route/{}", ring_name),
        peer_loop,
    );
    pair(
        &format!("replica_names_for_key/{}", ring_name),
        &mut || {
            for k in &keys {
                black_box(placement.replica_names_for_key(black_box(k)).unwrap());
            }
        },
        &format!("peer-route/{}", ring_name),
        peer_loop,
    );
    pair(
        &format!("route_keys/{}", ring_name),
        &mut || {
            let routed = placement.route_keys(black_box(&keys)).unwrap();
            for r in &routed {
                black_box(r.nodes[0]);
            }
        },
        &format!("peer-route/{}", ring_name),
        peer_loop,
    );
    let mut out = Vec::with_capacity(N_KEYS);
    let offsets: Vec<u64> = (0..=N_KEYS as u64).map(|i| i * KEY_LEN as u64).collect();
    pair(
        &format!("route_keys_packed/{}", ring_name),
        &mut || {
            out.clear();
            placement.route_keys_packed(black_box(&blob), &offsets, &mut out).unwrap();
            for r in &out {
                black_box(r.nodes[0]);
            }
        },
        &format!("peer-route/{}", ring_name),
        peer_loop,
    );
}
