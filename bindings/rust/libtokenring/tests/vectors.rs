// SPDX-License-Identifier: Apache-2.0
//! Tokens and replica lists against the C library's golden vectors (tests/data of the
//! repository; the test skips, saying so, when the crate is built outside it).
use libtokenring::{token, Replication, Topology, ALLOW_UNKNOWN_DC};
use std::path::PathBuf;

fn data(name: &str) -> Option<Vec<Vec<String>>> {
    let dir = std::env::var("TOKENRING_TEST_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/data"));
    let text = match std::fs::read_to_string(dir.join(name)) {
        Ok(t) => t,
        Err(_) => {
            eprintln!("{} not found in {}: skipped", name, dir.display());
            return None;
        }
    };
    Some(text.lines().skip(1).map(|l| l.split('\t').map(String::from).collect()).collect())
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap()).collect()
}

#[test]
fn tokens_equal_cassandra() {
    let rows = match data("murmur3_tokens.tsv") { Some(r) => r, None => return };
    assert!(rows.len() > 1000);
    for r in &rows {
        assert_eq!(token(&unhex(&r[0])), r[1].parse::<i64>().unwrap(), "key {}", r[0]);
    }
}

#[test]
fn replicas_equal_cassandra() {
    for case in ["toy", "2racks_rf3_vn8", "12n_3racks_vn16", "2dc_3r_2r_vn8"] {
        let (topo_rows, rows) = match (data(&format!("replicas_{}.topology.tsv", case)), data(&format!("replicas_{}.tsv", case))) {
            (Some(a), Some(b)) => (a, b),
            _ => return,
        };
        let mut topo = Topology::new().unwrap();
        for n in &topo_rows {
            let tokens: Vec<i64> = n[3].split(',').map(|t| t.parse().unwrap()).collect();
            topo.add_node(&n[0], &n[1], &n[2], &tokens).unwrap();
        }
        let ring = topo.build().unwrap();
        let mut checked = 0;
        for r in &rows {
            let repl = if r[0] == "SimpleStrategy" {
                Replication::simple(r[1].parse().unwrap()).unwrap()
            } else {
                Replication::parse(&r[1]).unwrap()
            };
            let placement = ring.placement_with(&repl, ALLOW_UNKNOWN_DC).unwrap();
            let got = placement.replica_names(r[2].parse().unwrap()).join(",");
            assert_eq!(got, r[6], "{} {} {} token {}", case, r[0], r[1], r[2]);
            checked += 1;
        }
        assert!(checked > 0, "{}: no rows", case);
    }
}

#[test]
fn errors_are_results() {
    let mut topo = Topology::new().unwrap();
    topo.add_node("A", "dc1", "r1", &[1]).unwrap();
    let e = topo.add_node("A", "dc1", "r1", &[2]).unwrap_err();
    assert!(e.code < 0 && e.message.contains('A'), "{}", e);
    assert!(Replication::simple(-1).is_err());
    assert!(Replication::parse("{'class': 'Nope'}").is_err());
}

#[test]
fn shared_across_threads() {
    let mut topo = Topology::new().unwrap();
    topo.add_node("A", "dc1", "r1", &[10, 50]).unwrap();
    topo.add_node("B", "dc1", "r1", &[30, 80]).unwrap();
    let ring = topo.build().unwrap();
    let repl = Replication::simple(1).unwrap();
    let placement = ring.placement(&repl).unwrap();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| assert_eq!(placement.replica_names(20), vec!["B"]));
        }
    });
}
