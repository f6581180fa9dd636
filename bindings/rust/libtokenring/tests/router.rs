// SPDX-License-Identifier: Apache-2.0
//! The router against the library's placement: a router built from the rows a driver reads
//! of a small two-datacenter cluster routes every key to the replicas the placement of a
//! topology of the same nodes gives; events; readers routing while a writer swaps.
use std::sync::atomic::{AtomicUsize, Ordering};
use libtokenring::{code, token, Event, Replication, Router, RouterBuilder, RouterHolder, Topology, ROUTE_UP_FIRST};

const NTS: &str = "org.apache.cassandra.locator.NetworkTopologyStrategy";
const M3: &str = "org.apache.cassandra.dht.Murmur3Partitioner";
const KS: &str = "app";

/// name, dc, rack, tokens: 6 nodes, 4 tokens each, deterministic.
fn nodes() -> Vec<(String, &'static str, &'static str, Vec<i64>)> {
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x as i64
    };
    let place = [("dc1", "r1"), ("dc1", "r2"), ("dc1", "r3"), ("dc2", "r1"), ("dc2", "r2"), ("dc2", "r1")];
    place
        .iter()
        .enumerate()
        .map(|(i, (dc, rack))| (format!("10.0.0.{}", i + 1), *dc, *rack, (0..4).map(|_| next()).collect()))
        .collect()
}

fn texts(tokens: &[i64]) -> Vec<String> {
    tokens.iter().map(|t| t.to_string()).collect()
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(|s| s.as_str()).collect()
}

fn router(local_dc: Option<&str>) -> Router {
    let mut b = RouterBuilder::new(local_dc).unwrap();
    for (i, (name, dc, rack, tokens)) in nodes().iter().enumerate() {
        let t = texts(tokens);
        if i == 0 {
            b.add_local(name, dc, Some(rack), Some("00000000-0000-0000-0000-000000000001"), Some(M3), &refs(&t)).unwrap();
        } else {
            b.add_peer(name, dc, Some(rack), None, &refs(&t)).unwrap();
        }
        b.set_node(name, 100 + i as u64, false).unwrap();
    }
    b.add_keyspace(KS, &[("class", NTS), ("dc1", "2"), ("dc2", "1")]).unwrap();
    b.add_keyspace("simple", &[("class", "SimpleStrategy"), ("replication_factor", "3")]).unwrap();
    b.add_keyspace("system", &[("class", "org.apache.cassandra.locator.LocalStrategy")]).unwrap();
    b.build().unwrap()
}

fn topology(nodes: &[(String, &str, &str, Vec<i64>)]) -> Topology {
    let mut topo = Topology::new().unwrap();
    for (name, dc, rack, tokens) in nodes {
        topo.add_node(name, dc, rack, tokens).unwrap();
    }
    topo
}

/// Every key of `keys` routes through `r` to the replicas `repl` places on `nodes`.
fn assert_routes_like_placement(r: &Router, keyspace: &str, nodes: &[(String, &str, &str, Vec<i64>)], repl: &Replication, keys: usize) {
    let ring = topology(nodes).build().unwrap();
    let placement = ring.placement(repl).unwrap();
    for i in 0..keys {
        let key = format!("key:{}", i);
        let want = placement.replica_names_for_key(key.as_bytes()).unwrap();
        let route = r.route(keyspace, key.as_bytes(), 0).unwrap();
        assert_eq!(r.names(route.replicas), want, "{} key {}", keyspace, key);
        assert_eq!(route.token, token(key.as_bytes()), "token of {}", key);
        let by_token = r.route_token(keyspace, route.token, 0).unwrap();
        assert_eq!(by_token.replicas, route.replicas, "route_token of {}", key);
    }
}

#[test]
fn routes_equal_the_placement() {
    let r = router(Some("dc1"));
    assert_eq!(r.node_count(), 6);
    assert_eq!(r.keyspaces(), vec!["app", "simple"]);
    assert_eq!(r.skipped(), vec![("system", "org.apache.cassandra.locator.LocalStrategy")]);
    let nts = Replication::network(&[("dc1", 2), ("dc2", 1)]).unwrap();
    assert_routes_like_placement(&r, KS, &nodes(), &nts, 3000);
    assert_routes_like_placement(&r, "simple", &nodes(), &Replication::simple(3).unwrap(), 1000);
}

#[test]
fn local_view_tags_and_parts() {
    let r = router(Some("dc1"));
    for i in 0..500 {
        let key = format!("user:{}", i);
        let route = r.route(KS, key.as_bytes(), 0).unwrap();
        assert_eq!(route.replicas.len(), 3);
        assert_eq!(route.local_count, 2);
        assert_eq!(route.local_up_count, 2);
        let mut sorted_local = route.local.to_vec();
        let mut sorted = route.replicas.to_vec();
        sorted_local.sort_unstable();
        sorted.sort_unstable();
        assert_eq!(sorted_local, sorted, "the local view holds the same nodes");
        for &n in &route.local[..2] {
            assert_eq!(r.node(n as usize).unwrap().datacenter, "dc1");
        }
        let tags: Vec<u64> = route.replicas.iter().map(|&n| 100 + n as u64).collect();
        // nodes are numbered by name here, as added: 10.0.0.1 .. 10.0.0.6
        assert_eq!(route.replica_tags(), tags);
        // route_parts packs even one part as a composite (length, bytes, 0)
        let mut packed = vec![0u8, key.len() as u8];
        packed.extend_from_slice(key.as_bytes());
        packed.push(0);
        let parts = r.route_parts(KS, &[key.as_bytes()], 0).unwrap();
        assert_eq!(parts.token, token(&packed));
        assert_eq!(parts.replicas, r.route(KS, &packed, 0).unwrap().replicas, "one part routes as its packed key");
    }
    let two = r.route_parts(KS, &[b"a", b"bc"], 0).unwrap();
    // the composite encoding: each part as a 2-byte length, the bytes, a 0 byte
    let packed = [0u8, 1, b'a', 0, 0, 2, b'b', b'c', 0];
    assert_eq!(two.token, token(&packed));
    assert_eq!(two.replicas, r.route(KS, &packed, 0).unwrap().replicas);
}

#[test]
fn node_info() {
    let r = router(Some("dc2"));
    let i = r.find_node("10.0.0.1").unwrap();
    let n = r.node(i as usize).unwrap();
    assert_eq!((n.name, n.datacenter, n.rack), ("10.0.0.1", "dc1", "r1"));
    assert_eq!(n.host_id, Some("00000000-0000-0000-0000-000000000001"));
    assert_eq!((n.tag, n.down, n.local, n.token_count, n.state), (100, false, false, 4, 0));
    let n4 = r.node(r.find_node("10.0.0.4").unwrap() as usize).unwrap();
    assert!(n4.local);
    assert_eq!(n4.host_id, None);
    assert_eq!(r.find_node("10.9.9.9").unwrap_err().code, code::NOTFOUND);
    assert_eq!(r.node(6).unwrap_err().code, code::RANGE);
}

#[test]
fn errors_are_results() {
    let r = router(None);
    assert_eq!(r.route("nope", b"k", 0).unwrap_err().code, code::NOTFOUND);
    assert_eq!(r.route("system", b"k", 0).unwrap_err().code, code::NOTFOUND);
    assert_eq!(r.route(KS, b"k", 0x80).unwrap_err().code, code::INVAL);
    assert_eq!(r.route("a\0b", b"k", 0).unwrap_err().code, code::INVAL);
    let mut b = RouterBuilder::new(None).unwrap();
    let e = b.add_local("10.0.0.1", "dc1", None, None, Some(M3), &["12x"]).unwrap_err();
    assert_eq!(e.code, code::PARSE);
    assert!(e.message.contains("12x"), "{}", e.message);
    assert_eq!(b.set_node("10.0.0.1", 1, false).unwrap_err().code, code::NOTFOUND);
    assert_eq!(b.build().unwrap_err().code, code::EMPTY);
    b.add_local("10.0.0.1", "dc1", None, None, Some(M3), &["12"]).unwrap();
    let e = b.add_keyspace("k", &[("class", NTS), ("dc1", "x")]).unwrap_err();
    assert_eq!(e.code, code::PARSE);
    b.add_keyspace("k", &[("class", NTS), ("dc1", "1")]).unwrap();
    assert_eq!(b.add_keyspace("k", &[("class", NTS), ("dc1", "1")]).unwrap_err().code, code::EXISTS);
    assert_eq!((code::BUDGET, code::BUSY, code::NOT_PLACED), (-12, -13, -14));
}

#[test]
fn events() {
    let r0 = router(Some("dc1"));
    let nts = Replication::network(&[("dc1", 2), ("dc2", 1)]).unwrap();
    let mut all = nodes();

    let down = r0.apply(&Event::Down("10.0.0.2")).unwrap();
    let i2 = down.find_node("10.0.0.2").unwrap() as usize;
    assert!(down.node(i2).unwrap().down);
    assert!(!r0.node(i2).unwrap().down, "the previous snapshot is unchanged");
    let mut saw = false;
    for i in 0..200 {
        let key = format!("k{}", i);
        let route = down.route(KS, key.as_bytes(), ROUTE_UP_FIRST).unwrap();
        if route.replicas.contains(&(i2 as u32)) {
            saw = true;
            assert_eq!(route.local_up_count, 1);
            assert_eq!(route.local[1], i2 as u32, "the down local replica after the up one");
        }
    }
    assert!(saw);
    let up = down.apply(&Event::Up("10.0.0.2")).unwrap();
    assert!(!up.node(i2).unwrap().down);

    let joined_tokens = [1_000_000_007i64, -4_000_000_000_000_000_000, 5_000_000_000_000_000_000];
    let jt = texts(&joined_tokens);
    let joined = up
        .apply(&Event::Joined {
            node: "10.0.0.7",
            datacenter: "dc2",
            rack: Some("r3"),
            host_id: None,
            tokens: &refs(&jt),
            tag: 7,
            down: false,
        })
        .unwrap();
    all.push(("10.0.0.7".to_string(), "dc2", "r3", joined_tokens.to_vec()));
    assert_routes_like_placement(&joined, KS, &all, &nts, 1000);
    assert_eq!(joined.node(joined.find_node("10.0.0.7").unwrap() as usize).unwrap().tag, 7);

    let moved_tokens = [42i64, 43];
    let mt = texts(&moved_tokens);
    let moved = joined.apply(&Event::Moved { node: "10.0.0.7", tokens: &refs(&mt) }).unwrap();
    all.last_mut().unwrap().3 = moved_tokens.to_vec();
    assert_routes_like_placement(&moved, KS, &all, &nts, 1000);

    let left = moved.apply(&Event::Left("10.0.0.3")).unwrap();
    all.retain(|n| n.0 != "10.0.0.3");
    assert_routes_like_placement(&left, KS, &all, &nts, 1000);
    assert_eq!(left.find_node("10.0.0.3").unwrap_err().code, code::NOTFOUND);

    let replaced = left
        .apply(&Event::Replaced { node: "10.0.0.9", old_node: "10.0.0.5", host_id: Some("h9"), tag: 9, down: false })
        .unwrap();
    for n in all.iter_mut().filter(|n| n.0 == "10.0.0.5") {
        n.0 = "10.0.0.9".to_string();
    }
    assert_routes_like_placement(&replaced, KS, &all, &nts, 1000);
    let n9 = replaced.node(replaced.find_node("10.0.0.9").unwrap() as usize).unwrap();
    assert_eq!((n9.datacenter, n9.tag, n9.host_id), ("dc2", 9, Some("h9")));

    let created = replaced.apply(&Event::KeyspaceCreated("ks2", &[("class", NTS), ("dc2", "2")])).unwrap();
    assert_routes_like_placement(&created, "ks2", &all, &Replication::network(&[("dc2", 2)]).unwrap(), 500);
    let altered = created.apply(&Event::KeyspaceAltered("ks2", &[("class", NTS), ("dc1", "1"), ("dc2", "1")])).unwrap();
    assert_routes_like_placement(&altered, "ks2", &all, &Replication::network(&[("dc1", 1), ("dc2", 1)]).unwrap(), 500);
    let dropped = altered.apply(&Event::KeyspaceDropped("ks2")).unwrap();
    assert_eq!(dropped.route("ks2", b"k", 0).unwrap_err().code, code::NOTFOUND);
    assert!(altered.route("ks2", b"k", 0).is_ok(), "the previous snapshot still routes it");

    // a failing event: a clear error, nothing changed
    assert_eq!(dropped.apply(&Event::Left("10.9.9.9")).unwrap_err().code, code::NOTFOUND);
    assert_eq!(dropped.apply(&Event::KeyspaceCreated(KS, &[("class", NTS), ("dc1", "1")])).unwrap_err().code, code::EXISTS);
    let e = dropped.apply(&Event::Moved { node: "10.0.0.1", tokens: &["nope"] }).unwrap_err();
    assert_eq!(e.code, code::PARSE);
    assert_routes_like_placement(&dropped, KS, &all, &nts, 200);
}

fn assert_send_sync<T: Send + Sync>() {}
fn assert_send<T: Send>() {}

#[test]
fn readers_route_while_a_writer_swaps() {
    assert_send_sync::<Router>();
    assert_send_sync::<RouterHolder>();
    assert_send::<libtokenring::RouterReader<'static>>();
    assert_send::<RouterBuilder>();

    // two snapshots told apart by their node count, each with the replicas it must give
    let a = router(Some("dc1"));
    let b = a.apply(&Event::Left("10.0.0.6")).unwrap();
    let keys: Vec<String> = (0..64).map(|i| format!("t{}", i)).collect();
    let expect = |r: &Router| -> Vec<Vec<u32>> { keys.iter().map(|k| r.route(KS, k.as_bytes(), 0).unwrap().replicas.to_vec()).collect() };
    let (ea, eb) = (expect(&a), expect(&b));
    assert_ne!(ea, eb);
    let holder = RouterHolder::new(&a).unwrap();
    // each reader routes until it has routed through both snapshots (and 5000 times);
    // the writer swaps until every reader is done
    let done = AtomicUsize::new(0);
    let readers = 3;
    std::thread::scope(|s| {
        for t in 0..readers {
            let (holder, keys, ea, eb, done) = (&holder, &keys, &ea, &eb, &done);
            s.spawn(move || {
                let mut reader = holder.reader().unwrap();
                let mut counts = [0usize; 2];
                let mut i = t;
                while counts[0] == 0 || counts[1] == 0 || counts[0] + counts[1] < 5000 {
                    let snap = reader.acquire();
                    let which = if snap.node_count() == 6 { 0 } else { 1 };
                    let k = i % keys.len();
                    let got = snap.route(KS, keys[k].as_bytes(), 0).unwrap();
                    assert_eq!(got.replicas, if which == 0 { &ea[k] } else { &eb[k] }.as_slice(), "key {}", keys[k]);
                    counts[which] += 1;
                    i += 1;
                    if i % 64 == 0 {
                        std::thread::yield_now();
                    }
                }
                done.fetch_add(1, Ordering::SeqCst);
            });
        }
        s.spawn(|| {
            let mut i = 0u64;
            while done.load(Ordering::SeqCst) < readers {
                holder.swap(if i % 2 == 0 { &b } else { &a }).unwrap();
                let cur = holder.current();
                assert!(cur.node_count() == 5 || cur.node_count() == 6);
                i += 1;
                std::thread::yield_now();
            }
            assert!(i > 0);
        });
    });
    holder.swap(&a).unwrap();
    let cur = holder.current();
    assert_eq!(cur.node_count(), 6);
    let next = cur.apply(&Event::Down("10.0.0.1")).unwrap();
    holder.swap(&next).unwrap();
    let mut reader = holder.reader().unwrap();
    let snap = reader.acquire();
    assert!(snap.node(snap.find_node("10.0.0.1").unwrap() as usize).unwrap().down);
    let kept = snap.clone();
    drop(snap);
    drop(reader);
    drop(holder);
    assert_eq!(kept.node_count(), 6, "a cloned snapshot outlives the holder");
}
