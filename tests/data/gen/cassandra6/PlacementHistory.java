// SPDX-License-Identifier: Apache-2.0
// Cassandra 6.0's replica order after a history of topology changes, from 6.0's own
// classes run offline: ClusterMetadata and its transformations (Register, UnsafeJoin,
// PrepareJoin and its sequence's StartJoin/MidJoin/FinishJoin, PrepareLeave, PrepareMove,
// PrepareReplace and theirs), executed one after the other on an in-memory ClusterMetadata
// as the metadata log executes them on every node, with UniformRangePlacement (the
// placement provider of a 6.0 node). No node, no network, no disk.
//
// Input (a script, standard input), one step a line:
//   keyspace NAME RF                        a SimpleStrategy keyspace (CREATE KEYSPACE: before
//   keyspace NAME DC=RF[,DC=RF...]           the first join, or later as AlterSchema places
//                                           it), or a NetworkTopologyStrategy one; for a
//                                           keyspace that exists, ALTER KEYSPACE
//   drop_keyspace NAME                      DROP KEYSPACE (as AlterSchema places the rest)
//   register ADDRESS DC RACK                a node known to the cluster, not yet in the ring
//   unsafe_join ADDRESS TOKEN[,TOKEN...]    what a node started with auto_bootstrap: false does
//   join ADDRESS TOKEN[,TOKEN...]           a bootstrap: PREPARE_JOIN, START, MID, FINISH
//   leave ADDRESS                           decommission: PREPARE_LEAVE, START, MID, FINISH
//   move ADDRESS TOKEN                      PREPARE_MOVE, START, MID, FINISH
//   replace OLD_ADDRESS NEW_ADDRESS         PREPARE_REPLACE, START, MID, FINISH (NEW registered)
// Output (standard output), after each step but register (and keyspaces before a ring):
//   step N <the step's line>
//   ring ADDRESS DC RACK TOKEN,TOKEN...     (every node in the ring, by address)
//   place KEYSPACE[,KEYSPACE...] START END ADDRESS,ADDRESS...   (the read placement of
//        each distinct replication, range by range, in the server's order)
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.*;

import org.apache.cassandra.config.DatabaseDescriptor;
import org.apache.cassandra.dht.Murmur3Partitioner;
import org.apache.cassandra.dht.Range;
import org.apache.cassandra.dht.Token;
import org.apache.cassandra.locator.InetAddressAndPort;
import org.apache.cassandra.locator.Replica;
import org.apache.cassandra.schema.*;
import org.apache.cassandra.tcm.ClusterMetadata;
import org.apache.cassandra.tcm.Transformation;
import org.apache.cassandra.tcm.membership.*;
import org.apache.cassandra.tcm.ownership.*;
import org.apache.cassandra.tcm.sequences.*;
import org.apache.cassandra.tcm.transformations.*;

public class PlacementHistory {
    static ClusterMetadata cm;
    static final UniformRangePlacement PROVIDER = new UniformRangePlacement();
    static final Map<String, KeyspaceMetadata> keyspaces = new LinkedHashMap<>();

    static ClusterMetadata run(Transformation t) {
        Transformation.Result r = t.execute(cm);
        if (r.isRejected())
            throw new IllegalStateException(t.kind() + " rejected: " + r.rejected().reason);
        return r.success().metadata;
    }

    static NodeId id(String addr) throws Exception {
        NodeId n = cm.directory.peerId(InetAddressAndPort.getByName(addr));
        if (n == null)
            throw new IllegalArgumentException("unknown node " + addr);
        return n;
    }

    static Set<Token> tokens(String list) {
        Set<Token> out = new HashSet<>();
        for (String s : list.split(","))
            out.add(new Murmur3Partitioner.LongToken(Long.parseLong(s)));
        return out;
    }

    public static void main(String[] args) throws Exception {
        DatabaseDescriptor.clientInitialization();
        DatabaseDescriptor.setPartitionerUnsafe(Murmur3Partitioner.instance);
        cm = new ClusterMetadata(Murmur3Partitioner.instance);
        // the distributed system keyspaces every 6.0 cluster has from its first epoch
        for (var p : DistributedSchema.distributedKeyspacesWithGeneration())
            keyspaces.put(p.left.name, p.left);
        boolean schemaSet = false;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        int step = 0;
        while ((line = in.readLine()) != null) {
            line = line.strip();
            if (line.isEmpty() || line.startsWith("#"))
                continue;
            String[] f = line.split("\\s+");
            switch (f[0]) {
                case "keyspace": {
                    // SPEC as the library's compact replication syntax: RF (SimpleStrategy)
                    // or DC=RF,DC=RF (NetworkTopologyStrategy)
                    Map<String, String> m = new LinkedHashMap<>();
                    if (f[2].matches("\\d+")) {
                        m.put("class", "SimpleStrategy");
                        m.put("replication_factor", f[2]);
                    } else {
                        m.put("class", "NetworkTopologyStrategy");
                        for (String dc : f[2].split(",")) {
                            String[] kv = dc.split("=");
                            m.put(kv[0], kv[1]);
                        }
                    }
                    ReplicationParams rp = ReplicationParams.fromMap(m);
                    keyspaces.put(f[1], KeyspaceMetadata.create(f[1], KeyspaceParams.create(true, rp.asMap())));
                    if (!schemaSet || cm.tokenMap.tokens().isEmpty())
                        continue;
                    alterSchema();
                    break;
                }
                case "drop_keyspace": { // DROP KEYSPACE
                    keyspaces.remove(f[1]);
                    alterSchema();
                    break;
                }
                case "register":
                    if (!schemaSet) {
                        cm = cm.transformer().with(new DistributedSchema(Keyspaces.of(keyspaces.values().toArray(new KeyspaceMetadata[0])))).build().metadata;
                        schemaSet = true;
                    }
                    cm = run(new Register(new NodeAddresses(InetAddressAndPort.getByName(f[1])), new Location(f[2], f[3]), NodeVersion.CURRENT));
                    continue;
                case "unsafe_join":
                    cm = run(new UnsafeJoin(id(f[1]), tokens(f[2]), PROVIDER));
                    break;
                case "join": {
                    NodeId n = id(f[1]);
                    cm = run(new PrepareJoin(n, tokens(f[2]), PROVIDER, true, false));
                    BootstrapAndJoin seq = (BootstrapAndJoin) cm.inProgressSequences.get(n);
                    cm = run(seq.startJoin);
                    cm = run(seq.midJoin);
                    cm = run(seq.finishJoin);
                    break;
                }
                case "leave": {
                    NodeId n = id(f[1]);
                    cm = run(new PrepareLeave(n, true, PROVIDER, LeaveStreams.Kind.UNBOOTSTRAP));
                    UnbootstrapAndLeave seq = (UnbootstrapAndLeave) cm.inProgressSequences.get(n);
                    cm = run(seq.startLeave);
                    cm = run(seq.midLeave);
                    cm = run(seq.finishLeave);
                    break;
                }
                case "move": {
                    NodeId n = id(f[1]);
                    cm = run(new PrepareMove(n, tokens(f[2]), PROVIDER, false));
                    Move seq = (Move) cm.inProgressSequences.get(n);
                    cm = run(seq.startMove);
                    cm = run(seq.midMove);
                    cm = run(seq.finishMove);
                    break;
                }
                case "replace": {
                    NodeId old = id(f[1]), neu = id(f[2]);
                    cm = run(new PrepareReplace(old, neu, PROVIDER, true, false));
                    BootstrapAndReplace seq = (BootstrapAndReplace) cm.inProgressSequences.get(neu);
                    cm = run(seq.startReplace);
                    cm = run(seq.midReplace);
                    cm = run(seq.finishReplace);
                    break;
                }
                case "reset": { // a new cluster (several scenarios in one run)
                    cm = new ClusterMetadata(Murmur3Partitioner.instance);
                    keyspaces.clear();
                    for (var p : DistributedSchema.distributedKeyspacesWithGeneration())
                        keyspaces.put(p.left.name, p.left);
                    schemaSet = false;
                    System.out.println(line);
                    continue;
                }
                case "prepare_join":
                case "prepare_leave":
                case "prepare_move":
                case "prepare_replace": {
                    // only the Prepare* transformation: the operation stays in progress,
                    // its ranges locked; prints whether 6.0 accepts it now
                    NodeId n = id(f[1]);
                    Transformation t = f[0].equals("prepare_join") ? new PrepareJoin(n, tokens(f[2]), PROVIDER, true, false)
                                     : f[0].equals("prepare_leave") ? new PrepareLeave(n, true, PROVIDER, LeaveStreams.Kind.UNBOOTSTRAP)
                                     : f[0].equals("prepare_move") ? new PrepareMove(n, tokens(f[2]), PROVIDER, false)
                                     : new PrepareReplace(n, id(f[2]), PROVIDER, true, false);
                    Transformation.Result r = t.execute(cm);
                    if (r.isRejected()) {
                        System.out.println("prepare rejected " + line);
                    } else {
                        cm = r.success().metadata;
                        System.out.println("prepare ok " + line);
                    }
                    continue;
                }
                default:
                    throw new IllegalArgumentException("unknown step: " + line);
            }
            step++;
            System.out.println("step " + step + " " + line);
            print();
        }
    }

    /** What AlterSchema.execute does to the placements when a keyspace's replication is
     *  new (a CREATE KEYSPACE): every placement is calculated again from the token map, and
     *  a replication's previous placement is kept where it is equivalent (same ranges, same
     *  replica sets): only a new replication gets a fresh placement. Then the transformer
     *  sorts every placement (the owner first), as for any change of the placements. */
    static void alterSchema() {
        DistributedSchema schema = new DistributedSchema(Keyspaces.of(keyspaces.values().toArray(new KeyspaceMetadata[0])));
        ClusterMetadata.Transformer next = cm.transformer().with(schema);
        if (!cm.tokenMap.tokens().isEmpty()) {
            DataPlacements calculated = PROVIDER.calculatePlacements(cm.nextEpoch(), cm.tokenMap.toRanges(), cm, schema.getKeyspaces());
            DataPlacements.Builder b = DataPlacements.builder(calculated.size());
            calculated.forEach((params, placement) -> {
                DataPlacement previous = cm.placement(params);
                b.with(params, previous.equivalentTo(placement) ? previous : placement);
            });
            next = next.with(b.build());
        }
        cm = next.build().metadata;
    }

    static void print() {
        SortedMap<String, String> ring = new TreeMap<>();
        for (NodeId n : cm.tokenMap.tokens().stream().map(cm.tokenMap::owner).distinct().toArray(NodeId[]::new)) {
            List<String> toks = new ArrayList<>();
            for (Token t : cm.tokenMap.tokens(n))
                toks.add(t.toString());
            Location loc = cm.directory.location(n);
            ring.put(cm.directory.endpoint(n).getHostAddress(false),
                     loc.datacenter + " " + loc.rack + " " + String.join(",", toks));
        }
        ring.forEach((a, rest) -> System.out.println("ring " + a + " " + rest));
        // keyspaces by distinct replication, in name order
        SortedMap<String, ReplicationParams> byName = new TreeMap<>();
        for (KeyspaceMetadata k : cm.schema.getKeyspaces())
            byName.put(k.name, k.params.replication);
        Map<ReplicationParams, List<String>> names = new LinkedHashMap<>();
        byName.forEach((n, p) -> names.computeIfAbsent(p, x -> new ArrayList<>()).add(n));
        names.forEach((params, kss) -> {
            DataPlacement pl = cm.placements().get(params);
            if (pl == null)
                return;
            ReplicaGroups reads = pl.reads;
            for (int i = 0; i < reads.ranges.size(); i++) {
                Range<Token> r = reads.ranges.get(i);
                List<String> eps = new ArrayList<>();
                for (Replica rep : reads.endpoints.get(i).get())
                    eps.add(rep.endpoint().getHostAddress(false));
                System.out.println("place " + String.join(",", kss) + " " + r.left + " " + r.right + " " + String.join(",", eps));
            }
        });
    }
}
