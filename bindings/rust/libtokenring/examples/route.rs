// SPDX-License-Identifier: Apache-2.0
//! Routes a few keys to their replicas: cargo run --example route
use libtokenring::{token, Event, Replication, RouterBuilder, RouterHolder, Topology};

fn main() -> Result<(), libtokenring::Error> {
    let mut topo = Topology::new()?;
    topo.add_node("10.0.0.1", "dc1", "r1", &[-9000000000000000000, 0])?;
    topo.add_node("10.0.0.2", "dc1", "r2", &[-3000000000000000000, 4000000000000000000])?;
    topo.add_node("10.0.0.3", "dc1", "r3", &[3000000000000000000])?;
    let ring = topo.build()?;
    let placement = ring.placement(&Replication::parse("{'class': 'NetworkTopologyStrategy', 'dc1': '2'}")?)?;
    for key in ["user:1", "user:2", "user:42"] {
        let replicas = placement.replica_names_for_key(key.as_bytes())?;
        println!("{:8} token {:>20} -> {:?}", key, token(key.as_bytes()), replicas);
    }

    // The same cluster as a driver sees it, through the router
    let mut b = RouterBuilder::new(Some("dc1"))?;
    let partitioner = "org.apache.cassandra.dht.Murmur3Partitioner";
    b.add_local("10.0.0.1", "dc1", Some("r1"), None, Some(partitioner), &["-9000000000000000000", "0"])?;
    b.add_peer("10.0.0.2", "dc1", Some("r2"), None, &["-3000000000000000000", "4000000000000000000"])?;
    b.add_peer("10.0.0.3", "dc1", Some("r3"), None, &["3000000000000000000"])?;
    b.add_keyspace("app", &[("class", "NetworkTopologyStrategy"), ("dc1", "2")])?;
    let holder = RouterHolder::new(&b.build()?)?;
    let next = holder.current().apply(&Event::Down("10.0.0.2"))?;
    holder.swap(&next)?;
    let mut reader = holder.reader()?;
    let snap = reader.acquire();
    for key in ["user:1", "user:2", "user:42"] {
        let route = snap.route("app", key.as_bytes(), libtokenring::ROUTE_UP_FIRST)?;
        let expected = placement.replica_names_for_key(key.as_bytes())?;
        assert_eq!(snap.names(route.replicas), expected);
        println!("{:8} router: {:?} (up first: {:?})", key, snap.names(route.replicas), snap.names(route.local));
    }
    Ok(())
}
