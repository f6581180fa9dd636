// SPDX-License-Identifier: Apache-2.0
//! The history API: every range list of the 6.0 vectors (tests/data/cassandra6) after
//! each scenario's last step, transient flags included; locks and concurrent operations;
//! the bounded replay (budget, progress, cancel).

use libtokenring::{code, History, Limits, Order, Replication, BUDGET_UNLIMITED};
use std::path::PathBuf;

fn data(name: &str) -> String {
    let dir = std::env::var("TOKENRING_TEST_DATA")
        .map(PathBuf::from)
        .unwrap_or_else(|_| PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../tests/data")));
    std::fs::read_to_string(dir.join("cassandra6").join(name)).expect(name)
}

/// The replication of a keyspace of the script (the system ones: 6.0's).
fn replication(script: &str, ks: &str) -> Replication {
    let spec = match ks {
        "system_auth" => "1".to_string(),
        "system_traces" => "2".to_string(),
        "system_distributed" => "3".to_string(),
        _ => {
            let want = format!("keyspace {} ", ks);
            let line = script.lines().find(|l| l.starts_with(&want)).expect(ks);
            line[want.len()..].trim().to_string()
        }
    };
    Replication::parse(&spec).unwrap()
}

#[test]
fn history_equals_cassandra_60_last_step() {
    let mut lists = 0;
    for scenario in ["live_stage", "transient_single_token", "transient_bucket_collisions"] {
        let script = data(&format!("{}.script", scenario));
        let vectors = data(&format!("{}.placements", scenario));
        let last = &vectors[vectors.rfind("\nstep ").unwrap() + 1..];
        let h = History::replay(&script).unwrap();
        let ring = h.ring().unwrap();
        assert!(ring.node_count() > 3);
        for line in last.lines().filter(|l| l.starts_with("place ")) {
            let f: Vec<&str> = line.split(' ').collect();
            let repl = replication(&script, f[1].split(',').next().unwrap());
            let p = h.placement(&repl).unwrap();
            assert_eq!(p.order(), Order::History);
            let end: i64 = f[3].parse().unwrap();
            // (t_last, min]: any token above the largest ring token answers it
            let token = if end == i64::MIN { i64::MAX } else { end };
            let names = p.replica_names(token);
            let flags = p.transient(token);
            let got: Vec<String> = names
                .iter()
                .zip(flags.iter())
                .map(|(n, &t)| if t { format!("{}/t", n) } else { n.to_string() })
                .collect();
            assert_eq!(got.join(","), f.get(4).copied().unwrap_or(""), "{} {}", scenario, line);
            lists += 1;
        }
    }
    assert!(lists > 300, "{} lists", lists);
}

#[test]
fn transient_refused_with_several_tokens() {
    let e = History::replay("register 10.0.0.1 dc1 r1\nunsafe_join 10.0.0.1 5,50\nkeyspace t 3/1\n").err().unwrap();
    assert_eq!(e.code, code::UNSUPPORTED);
    assert!(e.message.contains("Transient nodes are not allowed with multiple tokens"), "{}", e.message);
    let e = History::replay("hop\n").err().unwrap();
    assert_eq!(e.code, code::PARSE);
    let empty = History::replay("").unwrap();
    assert!(empty.ring().is_none());
    assert_eq!(empty.placement(&Replication::simple(1).unwrap()).err().unwrap().code, code::EMPTY);
}

#[test]
fn locks_and_concurrent() {
    let h = History::replay(
        "register 10.0.0.1 dc1 r1\nregister 10.0.0.2 dc1 r1\nregister 10.0.0.3 dc1 r1\n\
         unsafe_join 10.0.0.1 0\nunsafe_join 10.0.0.2 1000000\n",
    )
    .unwrap();
    let mut locked = h.locked_ranges(&Replication::simple(1).unwrap(), "join 10.0.0.3 500").unwrap();
    locked.sort();
    assert_eq!(locked, vec![(0, Some(500)), (0, Some(1000000)), (500, Some(1000000))]);
    assert!(h.locked_ranges(&Replication::simple(3).unwrap(), "join 10.0.0.3 500").unwrap().contains(&(1000000, None)));
    assert_eq!(h.locked_ranges(&Replication::parse("dc1=9").unwrap(), "join 10.0.0.3 500").err().unwrap().code, code::NOTFOUND);
    let mut text = String::new();
    for i in 0..16 {
        text += &format!("register 10.0.1.{} dc1 r1\n", i + 1);
    }
    for i in 0..12i64 {
        text += &format!("unsafe_join 10.0.1.{} {}\n", i + 1, (i - 6) * 100_000_000_000_000_000);
    }
    let h = History::replay(&text).unwrap();
    let ops = [
        "join 10.0.1.13 50".to_string(),
        format!("join 10.0.1.14 {}", 45 * 10i64.pow(16)),
        format!("join 10.0.1.15 {}", 15 * 10i64.pow(16)),
        "leave 10.0.1.1".to_string(),
        format!("move 10.0.1.5 {}", -15 * 10i64.pow(16)),
    ];
    let refs: Vec<&str> = ops.iter().map(|s| s.as_str()).collect();
    assert_eq!(h.concurrent(&refs).unwrap(), vec![None, None, Some(0), Some(1), Some(0)]);
    assert_eq!(h.concurrent(&[]).unwrap(), vec![]);
    assert_eq!(h.concurrent(&["join 10.0.1.13 50\nleave 10.0.1.1"]).err().unwrap().code, code::INVAL);
}

#[test]
fn replay_limited_budget_progress_cancel() {
    let script = data("nts_2dc_3racks_vnodes.script");
    let mut lim = Limits { budget: 1000, ..Default::default() };
    let e = History::replay_limited(&script, &mut lim).err().unwrap();
    assert_eq!(e.code, code::BUDGET);
    assert!(lim.estimate > 1000);
    let estimate = lim.estimate;
    let mut seen: Vec<(u64, u64)> = Vec::new();
    let mut record = |d: u64, t: u64| {
        seen.push((d, t));
        false
    };
    let mut lim = Limits { progress: Some(&mut record), ..Default::default() };
    let h = History::replay_limited(&script, &mut lim).unwrap();
    assert_eq!(lim.estimate, estimate);
    assert!(h.ring().is_some());
    assert!(seen.len() > 20);
    assert_eq!(seen.last().copied(), Some((estimate, estimate)));
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0));
    let mut calls = 0;
    let mut stop = |_: u64, _: u64| {
        calls += 1;
        calls == 3
    };
    let mut lim = Limits { budget: BUDGET_UNLIMITED, progress: Some(&mut stop), ..Default::default() };
    assert_eq!(History::replay_limited(&script, &mut lim).err().unwrap().code, code::CANCELLED);
    assert_eq!(calls, 3);
    let mut boom = |_: u64, _: u64| -> bool { panic!("in the callback") };
    let mut lim = Limits { progress: Some(&mut boom), ..Default::default() };
    assert_eq!(History::replay_limited(&script, &mut lim).err().unwrap().code, code::CANCELLED);
    // the plain replay applies the default budget (estimated from the text)
    let big = "join 10.0.0.1 1\n".repeat(4000);
    assert_eq!(History::replay(&big).err().unwrap().code, code::BUDGET);
}

#[test]
fn history_is_send_and_sync() {
    fn check<T: Send + Sync>() {}
    check::<History>();
    let h = std::sync::Arc::new(History::replay(&data("live_stage.script")).unwrap());
    let r = Replication::simple(3).unwrap();
    let want = h.placement(&r).unwrap().replicas(42);
    let h2 = h.clone();
    let got = std::thread::spawn(move || h2.placement(&Replication::simple(3).unwrap()).unwrap().replicas(42)).join().unwrap();
    assert_eq!(got, want);
}
