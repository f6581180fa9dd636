/* SPDX-License-Identifier: Apache-2.0 */
/* The command table: one row per command, X(function, name, arguments, summary, details,
 * example). main.c dispatches on it, and --help and the man page (help.c, built into
 * tokenring.1 by tools/meson.build) are generated from it and from the options below, so
 * a command is documented where it is registered. A new command is one file defining
 * TOOL_COMMAND(cmd_x) and one row here. */
#include "tool.h"

#define TOOL_COMMANDS(X) \
    X(cmd_token, \
      "token", "[KEY...]", "print the token of each key (and its owner)", \
      "Keys come from the arguments, or from standard input one per line when none is " \
      "given. A key is text (its UTF-8 bytes) unless --hex (hex bytes) or --types (the " \
      "string form nodetool getendpoints accepts, components of a composite key separated " \
      "by ':') is given. With a ring, the owner is the node of the first token at or after " \
      "the key's token. --partitioner random prints RandomPartitioner's token (MD5, decimal; -1 " \
      "for the empty key), --partitioner byteordered ByteOrderedPartitioner's (the key's " \
      "bytes in hex); the default is the input's partitioner (murmur3 without one). Rings " \
      "of those partitioners come from any input (tokens in Cassandra's text form: " \
      "decimal, or hex bytes; see --partitioner), and give the owners as a Murmur3 ring " \
      "does.", \
      "tokenring token --types int,text '42:alice'") \
    X(cmd_getendpoints, \
      "getendpoints", "KEYSPACE TABLE KEY | KEYSPACE KEY...", \
      "print the replicas of a key, as nodetool getendpoints", \
      "One address per line in Cassandra's replica order (pending nodes excluded). " \
      "Exactly three arguments are nodetool's form KEYSPACE TABLE KEY: KEY is read as " \
      "nodetool reads it, with the table's partition-key types from --schema (cqlsh " \
      "DESCRIBE output, or SELECT keyspace_name, table_name, column_name, kind, position, " \
      "type FROM system_schema.columns; components of a composite key separated by ':'), " \
      "and a table the schema does not have is refused as nodetool refuses it; without a " \
      "schema (or --types, --hex) the key is hashed as text and the table ignored, which " \
      "stderr says. Any other count, and any count with --token (the arguments are then " \
      "tokens: there is no table), is KEYSPACE KEY...: one key, or three and more; the " \
      "rule counts arguments and never guesses whether one looks like a table name, so " \
      "two keys without a table go on standard input, one per line (no arguments after " \
      "KEYSPACE). Key types: text by default, --types for the partition key's CQL " \
      "types, --hex for raw bytes, --token when the arguments are tokens. With several " \
      "keys each list is preceded by a '# KEY (token T)' line. A keyspace that places no " \
      "replica (SimpleStrategy with factor 0, datacenters without nodes only) has empty " \
      "lists, as Cassandra answers, with a warning; so do describering, ring and status.", \
      "tokenring --nodetool-ring ring.txt --schema schema.cql getendpoints shop orders " \
      "f47ac10b-58cc-4372-a567-0e02b2c3d479") \
    X(cmd_ring, \
      "ring", "[KEYSPACE]", "print the ring, as nodetool ring", \
      "One row per token (joining nodes included), grouped by datacenter, in nodetool's " \
      "column layout. Owns is the node's effective ownership for KEYSPACE; without one, " \
      "that of the input's keyspaces if they all share one replication ('?' and a Note " \
      "when they differ), or primary ownership when the input defines no keyspace. Load " \
      "is the pasted listing's (nodetool ring or status input), else '?'; where the " \
      "tokens are unknown, Owns is the pasted figure, and a Note says which Owns is " \
      "shown when the pasted one differs.", \
      "tokenring --nodetool-ring ring.txt ring shop") \
    X(cmd_describering, \
      "describering", "KEYSPACE", "print every range with its replicas, as nodetool describering", \
      "Ranges are printed in ring order (range (t_last, t_0] first). Cassandra prints them " \
      "in the iteration order of a Java hash map, so compare sets of lines, not the order. " \
      "Schema Version is 'unknown' and rpc_endpoints repeat the endpoints.", \
      "tokenring --cqlsh peers.txt --cqlsh local.txt --keyspace " \
      "ks=NetworkTopologyStrategy:dc1=3 describering ks") \
    X(cmd_status, \
      "status", "[KEYSPACE]", "print nodes with token counts and ownership, as nodetool status", \
      "The 4.0+ layout: columns padded to the widest cell across all datacenters; nodes " \
      "in input order (nodetool prints them in hash-map order). Owns " \
      "(effective) for KEYSPACE, chosen as for ring. Works on nodetool status input too: " \
      "Load (two fields, e.g. '105.3 KiB'), Owns and Host ID are kept as pasted (Owns " \
      "is recomputed when the tokens are known, with a Note when it differs); '?' where " \
      "the input had none.", \
      "tokenring --nodetool-status status.txt status") \
    X(cmd_convert, \
      "convert", "", "write the input as a topology file", \
      "Reads any input (or several, merged) and writes the topology file format " \
      "(doc/topology-format.md); with --json, a JSON document with the same content " \
      "(tokens as strings).", \
      "tokenring --nodetool-ring ring.txt convert > cluster.topo") \
    X(cmd_generatetokens, \
      "generatetokens", "--nodes N --num-tokens T (--rf RF | --layout even|seeded) " \
      "[--racks 2,2,2] [--dc DC]", \
      "choose tokens for new nodes: the library's plan, Cassandra's allocator or a layout", \
      "Plans N nodes of T tokens each joining datacenter DC (default: the input's only " \
      "datacenter; with no input, an empty cluster, like Cassandra's generatetokens tool) " \
      "so that effective ownership under replication factor RF is as even as possible: " \
      "the library's plan (its replication-aware allocator). " \
      "--racks gives the number of nodes per rack (racks rack1, rack2, ... filled " \
      "round-robin; RAC1=2,RAC2=2 names them). The batch is refined jointly unless " \
      "--node-by-node is given: then each node gets the library's plan for one join (as " \
      "join: Cassandra's tokens, or with --one-step the plan best in one step) and a progress bar shows on a " \
      "terminal. Prints one line per node, in join order. With " \
      "--as-cassandra, the tokens Cassandra would give instead, bit for bit: with no input " \
      "those of its own generatetokens tool (nodes 127.0.0.1:0, :1, ...; racks ignored, as " \
      "that tool does), with an input those the nodes would get bootstrapping one after " \
      "another with allocate_tokens_for_local_replication_factor RF. An empty ring starts " \
      "at --first-token (Cassandra: a random token). With --layout, a new cluster (no " \
      "input) laid out without the allocator: even gives node i of N the tokens " \
      "floor((j*N + i) * R / (T*N)) (R = 2^64 from the minimum token, or 2^127 from 0 with " \
      "--partitioner random: one token each is the classic initial_token i * 2^127 / N); " \
      "seeded gives each node (named by --names, default node1, node2, ...) the " \
      "reproducible tokens of layout seed --seed (default 1), the Murmur3 or " \
      "RandomPartitioner token of the bytes layout.h documents. --emit " \
      "yaml|rackdc|initial-token prints what each node takes instead (a cassandra.yaml " \
      "snippet with partitioner, num_tokens, initial_token and " \
      "allocate_tokens_for_local_replication_factor; its cassandra-rackdc.properties; or " \
      "its comma-separated initial_token line). --partitioner random " \
      "takes --layout, --node-by-node (the library's join plan, node after node) or " \
      "--as-cassandra (Cassandra's allocator, bit for bit, on a " \
      "--topology file of RandomPartitioner tokens or an empty cluster) and prints " \
      "decimal tokens, as initial_token takes them; byteordered has no token allocation " \
      "(Cassandra has none either).", \
      "tokenring generatetokens --nodes 6 --num-tokens 16 --rf 3 --racks 2,2,2") \
    X(cmd_join, \
      "join", "KEYSPACE NODE [--dc DC] [--rack RACK] [--num-tokens T | --initial-token LIST] " \
      "[--as-cassandra [--rf RF] | --one-step]", \
      "simulate a node joining: ownership changes and streaming plan", \
      "The node joins with the given tokens, or T (default 16) tokens of the library's " \
      "plan: by default the tokens of Cassandra's allocator (those join --as-cassandra " \
      "and pending show; an empty datacenter starts at token 0), so a datacenter grown " \
      "node by node ends as balanced as under Cassandra; with --one-step the plan best " \
      "for this one join, never less balanced than Cassandra's for it (a datacenter grown " \
      "that way can end less balanced, see doc/performance.md): the balance of " \
      "both is printed (max/mean and min/mean of the datacenter's effective ownership, " \
      "primary while it has at most RF nodes; SimpleStrategy ignores racks). " \
      "Prints which ranges change, each node's effective ownership before and after, what " \
      "it gains and loses (cleanup), and the streams Cassandra's bootstrap would run (the " \
      "replica losing a range streams it: strict). With --as-cassandra the tokens are the " \
      "ones Cassandra (--cassandra-version, default 5.0) would give node NODE (its address) " \
      "bootstrapping with allocate_tokens_for_keyspace: KEYSPACE, or with --rf RF " \
      "allocate_tokens_for_local_replication_factor: RF. --emit prints what the node " \
      "takes instead of the plan (as generatetokens); --write-topology FILE writes the " \
      "cluster after the join, for the next command.", \
      "tokenring join demo 10.0.0.7 --num-tokens 8") \
    X(cmd_decommission, \
      "decommission", "KEYSPACE NODE", "simulate a node leaving: ownership changes and streams", \
      "As join, for `nodetool decommission`: the leaving node streams its ranges to the " \
      "nodes that gain them. Refused (exit 2, with Cassandra's message and what would " \
      "make it possible) where Cassandra 4.0 and later refuse it: when, for any keyspace " \
      "of the input, the nodes counted (the leaving node's datacenter under " \
      "NetworkTopologyStrategy, else the whole ring) are not more than its factor; --force " \
      "plans it anyway, as nodetool decommission --force does. --write-topology FILE " \
      "writes the cluster after it (also replace, move, removenode, assassinate).", \
      "tokenring decommission demo 10.0.0.3") \
    X(cmd_replace, \
      "replace", "KEYSPACE DEAD NEW", "simulate replacing a dead node (replace_address)", \
      "NEW takes DEAD's tokens, datacenter and rack; every range it gains streams from " \
      "another replica of it (the dead node cannot send).", \
      "tokenring replace demo 10.0.0.3 10.0.0.9") \
    X(cmd_move, \
      "move", "KEYSPACE NODE --initial-token LIST", \
      "simulate nodetool move: a node takes new tokens", \
      "As join, for a node that moves to the tokens of --initial-token.", \
      "tokenring move demo 10.0.0.2 --initial-token 0") \
    X(cmd_removenode, \
      "removenode", "KEYSPACE NODE", "simulate nodetool removenode: a dead node leaves, " \
      "the remaining replicas stream", \
      "The ring without NODE, as Cassandra's removenode leaves it, and the streams that " \
      "restore the replica count: every node that becomes a replica of one of NODE's " \
      "ranges fetches it from a replica that remains (the first one of its datacenter in " \
      "replica order; Cassandra picks the closest by its snitch). NODE never sends: it is " \
      "dead. The table and JSON are those of decommission.", \
      "tokenring removenode demo 10.0.0.3") \
    X(cmd_assassinate, \
      "assassinate", "KEYSPACE NODE", "simulate nodetool assassinate: the node is dropped, " \
      "nothing streams", \
      "The same ring change as removenode, but assassinate only marks the node as left in " \
      "gossip: no data moves. Lists each changed range with the new replicas that hold " \
      "none of its data until a repair.", \
      "tokenring assassinate demo 10.0.0.3") \
    X(cmd_ranges, \
      "ranges", "KEYSPACE NODE", "the ranges a node replicates, as nodetool describering " \
      "filtered to it", \
      "The describering lines of KEYSPACE whose endpoints include NODE (in ring order), " \
      "marked 'transient' where NODE is a transient replica, then the count, how many it " \
      "holds as the first replica, and their exact width.", \
      "tokenring ranges demo 10.0.0.3") \
    X(cmd_pending, \
      "pending", "KEYSPACE [NODE]", "the pending ranges of a joining node (UJ)", \
      "For each joining node of the input (or NODE), what it gains once it becomes " \
      "Normal, and who streams it: the movement of its bootstrap, as join prints it. " \
      "Its tokens come from the input (nodetool ring's Joining rows, cqlsh, a topology " \
      "file). A joining node given only by a UJ row of nodetool status (merged with the " \
      "others' tokens from nodetool ring or cqlsh), or a NODE in no input (with --dc, " \
      "--rack, --num-tokens T), has its tokens planned by Cassandra's allocator as its " \
      "bootstrap (--cassandra-version) runs it: allocate_tokens_for_keyspace: KEYSPACE, or " \
      "with --rf RF allocate_tokens_for_local_replication_factor; --initial-token gives " \
      "them. nodetool status alone has no tokens at all: the error says what to add.", \
      "tokenring --nodetool-status status.txt --nodetool-ring ring.txt --keyspace " \
      "ks=dc1=3 pending ks") \
    X(cmd_availability, \
      "availability", "KEYSPACE [--cl LEVEL[,LEVEL]] [--fail UNIT] [--failures K] [--top N]", \
      "count the sets of failed nodes, racks or datacenters that make ranges unavailable", \
      "For each consistency level (default QUORUM; ONE, TWO, THREE, QUORUM, ALL, " \
      "LOCAL_ONE, LOCAL_QUORUM, EACH_QUORUM, comma-separated) and k = 1 .. K failed units " \
      "(default 3 nodes; every rack or datacenter count with --fail racks or --fail " \
      "datacenters, which fail every node of the unit; a default count stops, with a note, " \
      "at the first k whose estimated work is above --budget): how many of the k-sets " \
      "leave some range without enough live replicas, the largest share of the token " \
      "space one of them makes unavailable, and the --top N worst sets (default 5). " \
      "Nodes already down (DN in nodetool status) count as failed: the k-sets are of " \
      "additional failures, and each level first says what is unavailable already. " \
      "--list prints every failing set of nodes instead (k at most 3). A progress bar over " \
      "the replica sets and the search shows on a terminal (--progress: lines on stderr " \
      "elsewhere).", \
      "tokenring availability demo --cl ONE,QUORUM --fail racks") \
    X(cmd_balance, \
      "balance", "[KEYSPACE] [--dc DC [--rack RACK]]", \
      "ownership balance: min, max, mean, standard deviation", \
      "Primary ownership, and effective ownership for KEYSPACE, over the ring's nodes or " \
      "those of one datacenter or rack, from the library's exact widths.", \
      "tokenring balance demo") \
    X(cmd_migrate, \
      "migrate-num-tokens", "--dc OLD --new-dc NEW --num-tokens T --nodes N [--rf RF]", \
      "plan moving a datacenter to a new num_tokens through a new datacenter", \
      "Tokens for the N nodes of the new datacenter (racks from --racks, names from " \
      "--names or NEW-node1, ...) and the steps, each one Cassandra accepts: pin the " \
      "clients to OLD (DC-aware policy, LOCAL_* levels); make SimpleStrategy keyspaces " \
      "NetworkTopologyStrategy with their factor (one-datacenter clusters; with several " \
      "datacenters they are refused, named: SimpleStrategy has no per-datacenter factor); " \
      "start the new nodes without bootstrap; add NEW to each keyspace with replicas in " \
      "OLD, with its factor there (--rf RF: RF for all, said in the plan); rebuild; repair; " \
      "switch clients; drop OLD (system_auth keeps it at 0 until its nodes leave); " \
      "decommission its nodes. Every other datacenter stays as it is. Needs the " \
      "keyspaces (--schema): refused without any, warns for system keyspaces missing.", \
      "tokenring --schema keyspaces.txt migrate-num-tokens --new-dc dc2 --num-tokens 16 " \
      "--nodes 6 --racks 2,2,2") \
    X(cmd_check, \
      "check", "[KEYSPACE...] [--yaml FILE] [--rackdc FILE] [--node NAME]", \
      "check the cluster's layout, and a node's settings against it", \
      "One line per finding, 'error:', 'warning:' or 'ok:', saying why it matters, then the " \
      "counts. The layout: nodes per rack per datacenter; each keyspace's factor against " \
      "its datacenter's racks as NetworkTopologyStrategy places replicas (fewer racks than " \
      "the factor: a rack holds several replicas of a range, and Cassandra's token " \
      "allocation refuses new nodes there; as many: each rack a full copy, so unequal " \
      "racks load unequal nodes; more: each rack's measured share), a factor larger than " \
      "its datacenter, SimpleStrategy across datacenters, mixed num_tokens, and a pasted " \
      "Owns that differs from the computed one (for KEYSPACE, or the replication all " \
      "keyspaces share). With --yaml (cassandra.yaml: num_tokens, initial_token, " \
      "allocate_tokens_for_keyspace, allocate_tokens_for_local_replication_factor, " \
      "partitioner, endpoint_snitch) and --rackdc (cassandra-rackdc.properties: dc, rack, " \
      "dc_suffix, prefer_local), node NAME's settings (a node of the cluster, or without " \
      "--node or with a name not in it, a node about to join): what Cassandra would refuse " \
      "(a changed dc, rack or num_tokens, initial_token's count, a token already taken, " \
      "another partitioner) and what would hurt (a dc or rack unknown to the cluster, with " \
      "'did you mean', num_tokens unlike its datacenter's, an allocator factor unlike the " \
      "keyspaces'). Exit status 0 when every line is ok, 4 with warnings, 5 with errors.", \
      "tokenring --nodetool-status status.txt --nodetool-ring ring.txt --schema ks.txt " \
      "check --yaml cassandra.yaml --rackdc cassandra-rackdc.properties --node 10.0.0.7") \
    X(cmd_concurrent, \
      "concurrent", "OPERATION...", "say whether planned operations can run at once on Cassandra 6.0", \
      "With --history FILE (the cluster's history): each OPERATION ('join ADDRESS TOKENS', " \
      "'leave ADDRESS', 'move ADDRESS TOKEN', 'replace OLD NEW'; nodes registered in the " \
      "history) is planned on the cluster as it is, as 6.0 plans one while others run, and " \
      "6.0 refuses to prepare it when the ranges it locks meet those of an earlier one. " \
      "Prints, per operation, the earlier one it waits for and the ranges it locks in each " \
      "keyspace's placement (the system keyspaces' too), as 6.0-alpha2's own classes decide.", \
      "tokenring --history cluster.history concurrent 'join 10.0.0.9 -42' 'leave 10.0.0.3'") \
    X(cmd_demo, \
      "demo", "[KEY...]", "show a key's token, owner and replicas on the demo ring", \
      "The built-in demo ring: six nodes with eight seeded tokens each (layout seed 1), " \
      "one datacenter 'datacenter1', keyspace 'demo' with NetworkTopologyStrategy " \
      "datacenter1=3. The default key is 'user42'.", \
      "tokenring demo user42")

#define DECLARE(fn, ...) tool_command_fn fn;
TOOL_COMMANDS(DECLARE)
#undef DECLARE

#define ROW(fn, name, args, summary, details, example) \
    { name, args, summary, details, example, fn },
const tool_command tool_commands[] = { TOOL_COMMANDS(ROW) };
#undef ROW

const size_t tool_command_count = sizeof tool_commands / sizeof *tool_commands;

const tool_option tool_options[] = {
    { "--topology", "FILE", "read a topology file (or golden-vector TSV); '-' is stdin" },
    { "--nodetool-ring", "FILE", "read `nodetool ring` output" },
    { "--nodetool-status", "FILE",
      "read `nodetool status` output (no tokens: only status and convert work)" },
    { "--cqlsh", "FILE", "read cqlsh output of SELECT peer, data_center, rack, tokens FROM "
                         "system.peers_v2 (or system.local); repeat for several files" },
    { "--schema", "FILE",
      "read every keyspace's replication from cqlsh output of SELECT * FROM "
      "system_schema.keyspaces (keyspaces with LocalStrategy, EverywhereStrategy or "
      "MetaStrategy place nothing on the ring: they are skipped, with a note on stderr); "
      "or the tables' partition keys (for getendpoints KEYSPACE TABLE KEY) from cqlsh "
      "output of SELECT keyspace_name, table_name, column_name, kind, position, type FROM "
      "system_schema.columns, or from CQL: DESCRIBE KEYSPACE / TABLE / SCHEMA output "
      "(CREATE KEYSPACE also defines the keyspace); repeat for several files" },
    { "--input", "FILE", "read a file of any of these formats (detected)" },
    { "--keyspace", "NAME=REPL",
      "define a keyspace, REPL as in the topology file (e.g. NetworkTopologyStrategy:dc1=3, "
      "SimpleStrategy:2, or a CQL replication map)" },
    { "--cassandra-version", "V",
      "place replicas in the order of Cassandra release V (default: the newest); releases "
      "before 3.2 (e.g. 3.0.30) order NetworkTopologyStrategy replicas differently when a "
      "datacenter has fewer racks than its replication factor; ring's address column "
      "leaves out the port before 4.0. With --as-cassandra, the "
      "release whose token allocation to follow: 4.0, 4.1 or 5.0 or a release of them "
      "(default 5.0). Known: 1.2, 2.0, 2.1, 2.2, 3.0 to 3.11, 4.0, 4.1, 5.0 and 6.0 (any "
      "release of those lines); others are refused. 6.0: the sets and Owns are 5.0's; its "
      "order follows the cluster's history (--history FILE); without one the order is "
      "5.0's, and getendpoints and describering say so on stderr" },
    { "--history", "FILE",
      "Cassandra 6.0: replay this cluster history (register, keyspace, drop_keyspace, "
      "unsafe_join, join, leave, move and replace lines; doc/cassandra-6.md) and give "
      "replicas in the order it makes (6.0's order depends on the history, not on the "
      "tokens alone); alone, it is the input: its ring and keyspaces. FILE may instead "
      "hold cqlsh's output of SELECT epoch, kind, transformation FROM "
      "system_views.cluster_metadata_log, SELECT node_id, broadcast_address, "
      "broadcast_port, dc, rack, state, tokens FROM "
      "system_views.cluster_metadata_directory and SELECT keyspace_name, replication FROM "
      "system_schema.keyspaces, read from one node: the history is built from those rows" },
    { "--allow-partial", NULL,
      "accept elided or cut-short listings (an elided '...' line, a datacenter or table "
      "without rows, a cut token set), each named in a warning on stderr (results then "
      "cover only the tokens shown)" },
    { "--merge-disjoint", NULL,
      "merge an input that shares no node with the inputs before it (without it that is "
      "an error: the outputs of two different clusters)" },
    { "--json", NULL, "print JSON instead of tables (tokens as strings)" },
    { "--hex", NULL, "keys are hex bytes" },
    { "--types", "T1,T2", "keys are CQL values of these partition-key types" },
    { "--token", NULL, "keys are tokens (getendpoints: no TABLE argument then)" },
    { "--partitioner", "P", "murmur3, random or byteordered, or Cassandra's class name "
                            "(RandomPartitioner, org.apache.cassandra.dht.RandomPartitioner; "
                            "case-sensitive, as cassandra.yaml): the token command's hash; "
                            "the partitioner of the inputs' tokens (without it: named by a "
                            "topology file's partitioner line or cqlsh system.local, else "
                            "read from the tokens; getendpoints, describering, ring, status, "
                            "availability, convert, join, decommission, replace, move, "
                            "removenode, assassinate, ranges, pending, balance and check take such "
                            "rings); generatetokens' tokens (--layout, or --as-cassandra: random "
                            "only)" },
    { "--dc", "DC", "datacenter (join, generatetokens, balance; the old one for "
                    "migrate-num-tokens)" },
    { "--rack", "RACK", "the new node's rack (join, generatetokens: an existing rack or a new "
                        "one; needed when the datacenter has several), or the rack to report "
                        "(balance)" },
    { "--new-dc", "DC", "the new datacenter (migrate-num-tokens)" },
    { "--num-tokens", "T", "tokens per node (join, generatetokens, migrate-num-tokens)" },
    { "--initial-token", "T1,T2", "the joining or moving node's tokens (join, move)" },
    { "--nodes", "N", "number of new nodes (generatetokens, migrate-num-tokens)" },
    { "--rf", "RF", "replication factor to plan for (generatetokens; migrate-num-tokens: "
                    "every keyspace's factor in the new datacenter, else each keeps its own; "
                    "join --as-cassandra: allocate_tokens_for_local_replication_factor)" },
    { "--racks", "N1,N2", "new nodes per rack, racks named rack1, rack2, ... (or named: "
                          "RAC1=N1,RAC2=N2)" },
    { "--names", "A,B", "names of the new nodes (migrate-num-tokens, generatetokens "
                        "--layout seeded)" },
    { "--node-by-node", NULL, "plan new nodes one at a time (generatetokens)" },
    { "--as-cassandra", NULL,
      "choose the tokens Cassandra itself would (join, generatetokens): "
      "allocate_tokens_for_keyspace, or with --rf allocate_tokens_for_local_replication_factor" },
    { "--one-step", NULL,
      "the library's plan best in one step instead of Cassandra's tokens (join, "
      "generatetokens --node-by-node): never less balanced for this join, but a datacenter "
      "grown that way can end less balanced than Cassandra's" },
    { "--first-token", "T", "the token Cassandra starts an empty ring at (--as-cassandra; "
                            "default: random)" },
    { "--layout", "L", "even or seeded: lay out a new cluster instead of running the "
                       "allocator (generatetokens)" },
    { "--seed", "S", "the layout seed of --layout seeded, 0 to 2^64-1 (default 1)" },
    { "--force", NULL, "plan a decommission Cassandra 4.0+ refuses for a keyspace's factor, "
                       "as nodetool decommission --force does (decommission)" },
    { "--emit", "WHAT", "print what a new node takes instead of the plan: yaml (a "
                        "cassandra.yaml snippet), rackdc (cassandra-rackdc.properties) or "
                        "initial-token (the initial_token line), per node (generatetokens, "
                        "join)" },
    { "--write-topology", "FILE", "also write the cluster after the change as a topology "
                                  "file, for the next command (join, decommission, replace, "
                                  "move, removenode)" },
    { "--cl", "LEVEL", "consistency level (availability; default QUORUM)" },
    { "--local-dc", "DC", "local datacenter for LOCAL_ONE and LOCAL_QUORUM" },
    { "--failures", "K", "largest number of failed nodes, racks or datacenters to try "
                         "(availability; nodes 1..3, the default)" },
    { "--fail", "UNIT", "what fails together: nodes (default), racks or datacenters "
                        "(availability)" },
    { "--top", "N", "how many worst failure sets to show per k (availability; default 5, 0 "
                    "counts only)" },
    { "--list", NULL, "list every failing set of nodes instead of the summary (availability)" },
    { "--yaml", "FILE", "the node's cassandra.yaml (check)" },
    { "--rackdc", "FILE", "the node's cassandra-rackdc.properties (check)" },
    { "--node", "NAME", "the node whose --yaml and --rackdc to check: a node of the cluster, "
                        "or a new one (check)" },
    { "--budget", "SECONDS", "how long a long command may run, as the library estimates it "
                             "before starting (availability, join, generatetokens, "
                             "migrate-num-tokens, the replay of --history; default about 5 s; "
                             "'unlimited' for no limit)" },
    { "--max-num-tokens", "T", "accept --num-tokens up to T (default 1536, Cassandra's own "
                               "limit)" },
    { "--progress", NULL, "report progress on stderr even when it is not a terminal (off a "
                          "terminal, work that lasts over a second reports once a second "
                          "anyway)" },
    { "--help", NULL, "print this help; after a command, that command's help (as tokenring "
                      "help COMMAND)" },
    { "--man", NULL, "print the manual page (roff)" },
    { "--version", NULL, "print the version" },
};

const size_t tool_option_count = sizeof tool_options / sizeof *tool_options;

const char *const tool_description =
    "tokenring answers nodetool's questions about a Cassandra token ring offline, with "
    "Cassandra's exact arithmetic (Murmur3Partitioner tokens, SimpleStrategy and "
    "NetworkTopologyStrategy replica order, nodetool's ownership figures). The cluster "
    "comes from a topology file, `nodetool ring` or `nodetool status` output, or cqlsh "
    "output of the system tables; several inputs are merged. With no input it uses a "
    "built-in demo ring of made-up nodes, and says so on standard error. Options may "
    "appear before or after the command; negative numbers are arguments, and '--' ends "
    "the options (for keys that start with '-'; after it '-' is the key '-', not "
    "standard input).";

const char *const tool_exit_text =
    "0 success; 1 internal error (e.g. out of memory); 2 bad usage (unknown command or "
    "option, malformed key argument, unknown keyspace, a request whose estimated work is "
    "above --budget); 3 bad input (a file that cannot be "
    "read or parsed, with FILE:LINE:COLUMN, or an input lacking what the command needs); "
    "check: 4 warnings and no error, 5 errors (its findings are printed). "
    "Nothing is printed on standard output unless the command succeeds.";
