// SPDX-License-Identifier: Apache-2.0
//! Tokens as text, one table over the three partitioners: topologies, rings, movement,
//! layouts and allocation through the one `_text` call of each operation.

use libtokenring::{code, compare_tokens, even_tokens_text, key_token_text, normalize_token, release, seeded_tokens_text, Limits};
use libtokenring::{Partitioner, Replication, Topology};

struct Case {
    partitioner: Partitioner,
    a: [&'static str; 2], // node A's tokens, ascending and canonical
    b: &'static str,      // node B's token, between A's
    moved: &'static str,  // B's new token, above A's
    key_test: &'static str,
    loose: &'static str, // a non-canonical spelling of `b`
    bad: &'static str,
    arithmetic: bool, // even and seeded layouts and allocation exist
}

const CASES: [Case; 3] = [
    Case {
        partitioner: Partitioner::Murmur3,
        a: ["-4611686018427387904", "4611686018427387904"],
        b: "0",
        moved: "9223372036854775807",
        key_test: "-6017608668500074083",
        loose: "+000",
        bad: "9223372036854775808",
        arithmetic: true,
    },
    Case {
        partitioner: Partitioner::Random,
        a: ["42535295865117307932921825928971026432", "127605887595351923798765477786913079296"],
        b: "85070591730234615865843651857942052864",
        moved: "170141183460469231731687303715884105728",
        key_test: "12707736894140473154801792860916528374",
        loose: "+085070591730234615865843651857942052864",
        bad: "170141183460469231731687303715884105729",
        arithmetic: true,
    },
    Case {
        partitioner: Partitioner::ByteOrdered,
        a: ["40", "c0"],
        b: "80",
        moved: "ff",
        key_test: "74657374",
        loose: "80",
        bad: "8x",
        arithmetic: false,
    },
];

fn topology(c: &Case) -> Topology {
    let mut t = Topology::with_partitioner(c.partitioner).unwrap();
    assert_eq!(t.partitioner(), c.partitioner);
    t.add_node_text("A", "dc1", "r1", &[c.a[1], c.a[0]]).unwrap();
    t.add_node_text("B", "dc1", "r1", &[c.loose]).unwrap();
    t
}

#[test]
fn topologies_and_rings_take_and_give_text() {
    for c in &CASES {
        let mut t = topology(c);
        assert_eq!(t.node_token_texts(0).unwrap(), c.a, "{:?}", c.partitioner);
        assert_eq!(t.node_token_texts(1).unwrap(), vec![c.b]);
        assert_eq!(t.node_token_texts(2).unwrap_err().code, code::RANGE);
        // a bad token is refused, named with its position, and nothing changes
        let e = t.add_node_text("C", "dc1", "r1", &[c.b, c.bad]).unwrap_err();
        assert!(e.message.contains("token 2 of 2"), "{:?}: {}", c.partitioner, e.message);
        assert!(e.code == code::PARSE || e.code == code::RANGE);
        assert_eq!(t.add_node_text("C", "dc1", "r1", &[c.b]).unwrap_err().code, code::EXISTS);
        let ring = t.build().unwrap();
        assert_eq!(ring.partitioner(), c.partitioner);
        assert_eq!(ring.token_texts().unwrap(), vec![c.a[0], c.b, c.a[1]]);
        assert_eq!(ring.token_text(1).unwrap(), c.b);
        assert_eq!(ring.token_text(3).unwrap_err().code, code::RANGE);
        assert_eq!(ring.search_text(c.b).unwrap(), 1);
        assert_eq!(ring.search_text(c.moved).unwrap(), 0); // past the last token: wraps
        assert!(ring.search_text(c.bad).is_err());
        t.set_tokens_text("B", &[c.moved]).unwrap();
        assert_eq!(t.node_token_texts(1).unwrap(), vec![c.moved]);
        assert_eq!(t.set_tokens_text("Z", &[c.b]).unwrap_err().code, code::NOTFOUND);
    }
}

#[test]
fn tokens_of_keys_normalized_and_compared() {
    for c in &CASES {
        assert_eq!(key_token_text(c.partitioner, b"test").unwrap(), c.key_test);
        assert_eq!(normalize_token(c.partitioner, c.loose).unwrap(), c.b);
        let e = normalize_token(c.partitioner, c.bad).unwrap_err();
        assert!(e.code == code::PARSE || e.code == code::RANGE, "{:?}", e);
        assert!(e.message.len() > 20, "the library's detail: {}", e.message);
        assert_eq!(compare_tokens(c.partitioner, c.a[0], c.b).unwrap(), -1);
        assert_eq!(compare_tokens(c.partitioner, c.b, c.loose).unwrap(), 0);
        assert_eq!(compare_tokens(c.partitioner, c.a[1], c.b).unwrap(), 1);
        assert!(compare_tokens(c.partitioner, c.bad, c.b).is_err());
    }
    assert_eq!(key_token_text(Partitioner::Random, b"").unwrap(), "-1");
    assert_eq!(key_token_text(Partitioner::ByteOrdered, b"").unwrap(), "");
    assert_eq!(normalize_token(Partitioner::ByteOrdered, "ABC").unwrap(), "0abc");
}

#[test]
fn movement_gives_bounds_and_samples_as_text() {
    let repl = Replication::simple(1).unwrap();
    for c in &CASES {
        let t = topology(c);
        let keys: [&[u8]; 2] = [b"test", b"other"];
        let join = t.simulate_join_text(&repl, "C", "dc1", "r1", &[c.moved], &keys).unwrap();
        let ranges = join.range_bound_texts().unwrap();
        assert_eq!(ranges, vec![(c.a[1].to_string(), c.moved.to_string())], "{:?}", c.partitioner);
        let samples = join.sample_token_texts().unwrap();
        assert_eq!(samples, vec![key_token_text(c.partitioner, b"test").unwrap(), key_token_text(c.partitioner, b"other").unwrap()]);
        let mv = t.simulate_move_text(&repl, "B", &[c.moved], &[]).unwrap();
        assert_eq!(mv.range_bound_texts().unwrap().len(), 2); // (a0, b] and (a1, moved] change owner
        assert!(mv.sample_token_texts().unwrap().is_empty());
        assert!(t.simulate_move_text(&repl, "B", &[c.bad], &[]).is_err());
        assert!(t.simulate_join_text(&repl, "A", "dc1", "r1", &[c.moved], &[]).is_err()); // A exists
    }
}

#[test]
fn layouts_and_allocation_for_each_partitioner() {
    for c in &CASES {
        let even = even_tokens_text(c.partitioner, 4, 0, 1);
        let seeded = seeded_tokens_text(c.partitioner, 4, 7, "n1", None, false);
        let t = topology(c);
        let cass = t.allocate_as_cassandra_text(4, "10.0.0.9", "dc1", "r1", None, 1, None, release::CASSANDRA_5_0, false);
        let join = t.allocate_join_text(4, "10.0.0.9", "dc1", "r1", None, 1, release::CASSANDRA_5_0, false, &mut Limits::default());
        if !c.arithmetic {
            for r in [even.map(|_| ()), seeded.map(|_| ()), cass.map(|_| ()), join.map(|_| ())] {
                assert_eq!(r.unwrap_err().code, code::UNSUPPORTED);
            }
            continue;
        }
        let even = even.unwrap();
        assert_eq!(even.len(), 4);
        for w in even.windows(2) {
            assert_eq!(compare_tokens(c.partitioner, &w[0], &w[1]).unwrap(), -1);
        }
        assert_eq!(seeded.unwrap().len(), 4);
        let cass = cass.unwrap();
        assert_eq!(cass.len(), 4);
        assert_eq!(join.unwrap(), cass, "the join plan is Cassandra's tokens by default");
    }
    assert_eq!(even_tokens_text(Partitioner::Random, 1, 1, 4).unwrap(), vec!["42535295865117307932921825928971026432"]);
    assert_eq!(even_tokens_text(Partitioner::Murmur3, 2, 0, 1).unwrap(), vec!["-9223372036854775808", "0"]);
}
