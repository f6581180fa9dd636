// SPDX-License-Identifier: Apache-2.0
//! Routes a few keys to their replicas: cargo run --example route
use libtokenring::{token, Replication, Topology};

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
    Ok(())
}
