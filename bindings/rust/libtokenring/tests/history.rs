// SPDX-License-Identifier: Apache-2.0
//! Cassandra 6.0's history from the rows a driver reads (tests/data/cassandra6/metadata):
//! equal to the history text they stand for; a router routed through it answers that
//! order; bad rows are named (the test skips, saying so, outside the repository).
use libtokenring::{code, History, MetadataLogRow, MetadataNodeRow, Replication, RouterBuilder};
use std::path::PathBuf;

fn dir() -> PathBuf {
    std::env::var("TOKENRING_TEST_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../tests/data"))
        .join("cassandra6/metadata")
}

fn lines(name: &str) -> Option<Vec<Vec<String>>> {
    let text = match std::fs::read_to_string(dir().join(name)) {
        Ok(t) => t,
        Err(_) => {
            eprintln!("{} not found in {}: skipped", name, dir().display());
            return None;
        }
    };
    Some(text.lines().filter(|l| !l.starts_with('#')).map(|l| l.split('\t').map(String::from).collect()).collect())
}

struct Rows {
    log: Vec<MetadataLogRow>,
    nodes: Vec<MetadataNodeRow>,
    router: libtokenring::Router,
    text: String,
}

fn rows() -> Option<Rows> {
    let log = lines("log.tsv")?
        .into_iter()
        .map(|f| MetadataLogRow { epoch: f[0].clone(), kind: f[1].clone(), transformation: f[2].clone() })
        .collect();
    let mut b = RouterBuilder::new(Some("dc1")).unwrap();
    let mut nodes = Vec::new();
    for f in lines("directory.tsv")? {
        let tokens: Vec<String> = if f[6].is_empty() { vec![] } else { f[6].split(',').map(String::from).collect() };
        if !tokens.is_empty() {
            let t: Vec<&str> = tokens.iter().map(|s| s.as_str()).collect();
            b.add_peer(f[1].trim_start_matches('/'), &f[3], Some(&f[4]), None, &t).unwrap();
        }
        nodes.push(MetadataNodeRow {
            node_id: f[0].clone(),
            broadcast_address: f[1].clone(),
            broadcast_port: if f[2].is_empty() { None } else { Some(f[2].clone()) },
            dc: f[3].clone(),
            rack: f[4].clone(),
            state: Some(f[5].clone()),
            tokens,
        });
    }
    for f in lines("keyspaces.tsv")? {
        // {'class': 'X', 'dc1': '2'} -> pairs
        let inner = f[1].trim_matches(|c| c == '{' || c == '}');
        let pairs: Vec<(String, String)> = inner
            .split(", ")
            .map(|kv| {
                let mut it = kv.split(": ").map(|s| s.trim_matches('\'').to_string());
                (it.next().unwrap(), it.next().unwrap())
            })
            .collect();
        let refs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        b.add_keyspace(&f[0], &refs).unwrap();
    }
    let text = std::fs::read_to_string(dir().join("history.txt")).ok()?;
    Some(Rows { log, nodes, router: b.build().unwrap(), text })
}

#[test]
fn rows_replay_as_the_text_and_route_in_its_order() {
    let r = match rows() { Some(r) => r, None => return };
    let h = History::from_metadata(&r.log, &r.nodes, Some(&r.router), 0).unwrap();
    let want = History::replay(&r.text).unwrap();
    let (hr, wr) = (h.ring().unwrap(), want.ring().unwrap());
    let routed = r.router.with_history(&h).unwrap();
    let mut differ = 0;
    for (ks, spec) in [("ks_a", "dc1=2,dc2=1"), ("ks_b", "3"), ("ks_c", "dc1=1")] {
        let repl = Replication::parse(spec).unwrap();
        let (p, w) = (h.placement(&hr, &repl).unwrap(), want.placement(&wr, &repl).unwrap());
        let mut t = i64::MIN + 1;
        while t < i64::MAX - (1 << 58) {
            assert_eq!(p.replica_names(t), w.replica_names(t));
            let got = routed.names(routed.route_token(ks, t, 0).unwrap().replicas);
            assert_eq!(got, w.replica_names(t), "{} {}", ks, t);
            let old = r.router.names(r.router.route_token(ks, t, 0).unwrap().replicas);
            differ += (old != got) as usize;
            t += 1 << 58;
        }
    }
    assert!(differ > 0, "the history's order equals the tokens' everywhere");
    // the ring must be the history's own
    assert_eq!(h.placement(&wr, &Replication::parse("3").unwrap()).err().unwrap().code, code::INVAL);
}

#[test]
fn bad_rows_are_named_and_other_moments_refused() {
    let r = match rows() { Some(r) => r, None => return };
    let mut bad = r.log.clone();
    bad[23].kind = "NEW_KIND".into();
    let e = History::from_metadata(&bad, &r.nodes, Some(&r.router), 0).err().unwrap();
    assert_eq!(e.code, code::UNSUPPORTED);
    assert!(e.message.contains("epoch 24 (NEW_KIND)"), "{}", e.message);
    let e = History::from_metadata(&r.log, &r.nodes[1..], Some(&r.router), 0).err().unwrap();
    assert_eq!(e.code, code::NOTFOUND);
    assert!(e.message.contains("node id 3 is not in"), "{}", e.message);
    let e = History::from_metadata(&r.log, &r.nodes, Some(&r.router), 1).err().unwrap();
    assert_eq!(e.code, code::BUDGET);
    // before node 4's join: not the router's ring
    let h = History::from_metadata(&r.log[..16], &r.nodes[..3], None, 0).unwrap();
    let e = r.router.with_history(&h).err().unwrap();
    assert_eq!(e.code, code::INVAL);
    assert!(e.message.contains("ring differs"), "{}", e.message);
}
