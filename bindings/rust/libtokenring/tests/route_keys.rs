// SPDX-License-Identifier: Apache-2.0
//! Placement::route_keys / route_keys_into / route_keys_packed against the single-key
//! calls (route_key, replicas, replica_names_for_key, transient) and a range search
//! written here over the ring's sorted tokens; chunk boundaries, empty input, errors.

use libtokenring::{code, token, Partitioner, Placement, Replication, Ring, RoutedKey, Topology, ROUTE_CHUNK};

/// A small deterministic generator (xorshift64*), so the test needs no crate.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
}

/// A ring of `nodes` nodes with `vnodes` random tokens each over `dcs` datacenters, and
/// its sorted tokens.
fn ring(nodes: usize, vnodes: usize, dcs: usize, seed: u64) -> (Ring, Vec<i64>) {
    let mut rng = Rng(seed);
    let mut topo = Topology::new().unwrap();
    let mut all = Vec::new();
    for n in 0..nodes {
        let mut toks = Vec::new();
        while toks.len() < vnodes {
            let t = rng.next() as i64;
            if t != i64::MIN && !all.contains(&t) {
                all.push(t);
                toks.push(t);
            }
        }
        let (name, dc, rack) = (format!("n{}", n), format!("dc{}", n % dcs + 1), format!("r{}", n % 3));
        topo.add_node(&name, &dc, &rack, &toks).unwrap();
    }
    all.sort_unstable();
    (topo.build().unwrap(), all)
}

/// The index of the range holding `t`: the first token at or above it, wrapping to 0.
fn range_of(sorted: &[i64], t: i64) -> u32 {
    let i = sorted.partition_point(|&x| x < t);
    if i == sorted.len() {
        0
    } else {
        i as u32
    }
}

fn keys(n: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut rng = Rng(seed | 1);
    (0..n).map(|_| (0..rng.next() % 24).map(|_| rng.next() as u8).collect()).collect()
}

fn check(pl: &Placement<'_>, ring: &Ring, sorted: &[i64], keys: &[Vec<u8>], got: &[RoutedKey<'_>]) {
    assert_eq!(got.len(), keys.len());
    for (k, r) in keys.iter().zip(got) {
        assert_eq!(*r, pl.route_key(k).unwrap());
        assert_eq!(r.token, token(k));
        assert_eq!(r.range, range_of(sorted, r.token));
        assert_eq!(r.nodes, pl.replicas(r.token).as_slice());
        let names: Vec<&str> = r.nodes.iter().map(|&n| ring.node_name(n).unwrap()).collect();
        assert_eq!(names, pl.replica_names_for_key(k).unwrap());
        let flags: Vec<bool> = (0..r.nodes.len()).map(|i| r.is_transient(i)).collect();
        assert_eq!(flags, pl.transient(r.token));
        assert!(!r.nodes.is_empty());
    }
}

#[test]
fn each_key_as_the_single_key_calls() {
    let small = ring(3, 2, 1, 1);
    let large = ring(120, 16, 2, 2);
    let nts = Replication::network(&[("dc1", 3), ("dc2", 2)]).unwrap();
    let transient = Replication::parse("dc1=3/1").unwrap();
    let cases: Vec<(&(Ring, Vec<i64>), Replication)> = vec![
        (&small, Replication::simple(2).unwrap()),
        (&large, Replication::simple(3).unwrap()),
        (&large, nts),
        (&large, transient),
    ];
    let ks = keys(3000, 7);
    for (i, (rs, repl)) in cases.iter().enumerate() {
        let pl = rs.0.placement(repl).unwrap();
        let got = pl.route_keys(&ks).unwrap();
        check(&pl, &rs.0, &rs.1, &ks, &got);
        if i == 0 {
            // the key's own range, not its set's first: more ranges than sets are seen
            let mut ranges: Vec<u32> = got.iter().map(|r| r.range).collect();
            let mut sets: Vec<u32> = got.iter().map(|r| r.set_id).collect();
            ranges.sort_unstable();
            ranges.dedup();
            sets.sort_unstable();
            sets.dedup();
            assert!(ranges.len() > sets.len(), "{:?} {:?}", ranges, sets);
        }
        if i == 3 {
            assert!(got.iter().any(|r| r.transient.is_some() && r.is_transient(2)));
        }
    }
}

#[test]
fn chunk_boundaries_and_forms() {
    let (r, sorted) = ring(40, 8, 2, 3);
    let pl = r.placement(&Replication::network(&[("dc1", 2), ("dc2", 1)]).unwrap()).unwrap();
    assert_eq!(ROUTE_CHUNK, 1024);
    for &n in &[0usize, 1, 1023, 1024, 1025, 2049] {
        let ks = keys(n, n as u64 + 11);
        let got = pl.route_keys(&ks).unwrap();
        check(&pl, &r, &sorted, &ks, &got);
        // slices of bytes, strings-like forms and the packed form agree
        let refs: Vec<&[u8]> = ks.iter().map(|k| k.as_slice()).collect();
        assert_eq!(pl.route_keys(&refs).unwrap(), got);
        let mut data = Vec::new();
        let mut offsets = vec![0u64];
        for k in &ks {
            data.extend_from_slice(k);
            offsets.push(data.len() as u64);
        }
        let mut packed = Vec::new();
        pl.route_keys_packed(&data, &offsets, &mut packed).unwrap();
        assert_eq!(packed, got);
        // into appends, reusing the vector
        let mut out = pl.route_keys(&ks[..n / 2]).unwrap();
        pl.route_keys_into(&ks[n / 2..], &mut out).unwrap();
        assert_eq!(out, got);
    }
    assert_eq!(pl.route_keys(&["a", "b"]).unwrap(), pl.route_keys(&[b"a", b"b"]).unwrap());
    let empty: [&[u8]; 0] = [];
    assert!(pl.route_keys(&empty).unwrap().is_empty());
}

#[test]
fn errors_leave_the_output_unchanged() {
    let (r, _) = ring(5, 4, 1, 4);
    let pl = r.placement(&Replication::simple(2).unwrap()).unwrap();
    let mut out = pl.route_keys(&["kept"]).unwrap();
    let before = out.clone();
    let data = vec![b'x'; 1100];
    let mut offsets: Vec<u64> = (0..1101).collect();
    // decreasing in the second chunk
    offsets[1050] = 3;
    for (d, o) in [(&data[..], &offsets[..]), (&b"abc"[..], &[0u64, 4][..]), (&b"abc"[..], &[][..]), (&b"abc"[..], &[0u64, 2, 1][..])] {
        let e = pl.route_keys_packed(d, o, &mut out).unwrap_err();
        assert_eq!(e.code, code::INVAL, "{}", e);
        assert_eq!(out, before);
    }
    let e = pl.route_keys_packed(b"abc", &[0, 4], &mut out).unwrap_err();
    assert!(e.message.contains("reach byte 4"), "{}", e.message);
    // only one offset: no keys
    pl.route_keys_packed(b"abc", &[1], &mut out).unwrap();
    assert_eq!(out, before);

    let mut topo = Topology::with_partitioner(Partitioner::Random).unwrap();
    topo.add_node_text("a", "dc1", "r1", &["0"]).unwrap();
    topo.add_node_text("b", "dc1", "r1", &["85070591730234615865843651857942052864"]).unwrap();
    let random = topo.build().unwrap();
    let rp = random.placement(&Replication::simple(1).unwrap()).unwrap();
    let mut got = Vec::new();
    for ks in [&["k"][..], &[][..]] {
        let e = rp.route_keys(ks).unwrap_err();
        assert_eq!(e.code, code::UNSUPPORTED, "{}", e);
        assert_eq!(rp.route_keys_into(ks, &mut got).unwrap_err().code, code::UNSUPPORTED);
        assert!(got.is_empty());
    }
    assert_eq!(rp.route_key(b"k").unwrap_err().code, code::UNSUPPORTED);
}
