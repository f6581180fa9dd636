/* SPDX-License-Identifier: Apache-2.0 */
/* The command table: one row per command, X(function, name, arguments, summary, details,
 * example). main.c dispatches on it, and --help and the man page (help.c, built into
 * tokenring.1 by tools/meson.build) are generated from it and from the options below, so
 * a command is documented where it is registered. A new command is one file defining
 * TOOL_COMMAND(cmd_x) and one row here. */
#include "tool.h"

#define TOOL_COMMANDS(X) \
    X(cmd_token_partitioned, \
      "token", "[KEY...]", "print the token of each key (and its owner)", \
      "Keys come from the arguments, or from standard input one per line when none is " \
      "given. A key is text (its UTF-8 bytes) unless --hex (hex bytes) or --types (the " \
      "string form nodetool getendpoints accepts, components of a composite key separated " \
      "by ':') is given. With a ring, the owner is the node of the first token at or after " \
      "the key's token. --partitioner random prints RandomPartitioner's token (MD5, decimal; -1 " \
      "for the empty key), --partitioner byteordered ByteOrderedPartitioner's (the key's " \
      "bytes in hex), without owners; the default is murmur3. Rings of those partitioners " \
      "come from any input (tokens in Cassandra's text form: decimal, or hex bytes; see " \
      "--partitioner): getendpoints prints a key's replicas there.", \
      "tokenring token --types int,text '42:alice'") \
    X(cmd_getendpoints_any, \
      "getendpoints", "KEYSPACE TABLE KEY | KEYSPACE KEY...", \
      "print the replicas of a key, as nodetool getendpoints", \
      "One address per line in Cassandra's replica order (pending nodes excluded). " \
      "Exactly three arguments are nodetool's form KEYSPACE TABLE KEY: the table is " \
      "skipped (the tool knows no tables; give the partition key's types with --types). " \
      "Any other count is KEYSPACE KEY...: one key, or three and more; the rule counts " \
      "arguments and never guesses whether one looks like a table name, so two keys " \
      "without a table go on standard input, one per line (no arguments after " \
      "KEYSPACE). Key types: text by default, --types for the partition key's CQL " \
      "types, --hex for raw bytes, --token when the arguments are tokens. With several " \
      "keys each list is preceded by a '# KEY (token T)' line.", \
      "tokenring --topology cluster.topo getendpoints shop orders --types uuid " \
      "f47ac10b-58cc-4372-a567-0e02b2c3d479") \
    X(cmd_ring_any, \
      "ring", "[KEYSPACE]", "print the ring, as nodetool ring", \
      "One row per token (joining nodes included), grouped by datacenter, in nodetool's " \
      "column layout. Owns is the node's effective ownership for KEYSPACE; without one, " \
      "that of the input's keyspaces if they all share one replication ('?' and a Note " \
      "when they differ), or primary ownership when the input defines no keyspace. Load " \
      "is the pasted listing's (nodetool ring or status input), else '?'; where the " \
      "tokens are unknown, Owns is the pasted figure, and a Note says which Owns is " \
      "shown when the pasted one differs.", \
      "tokenring --nodetool-ring ring.txt ring shop") \
    X(cmd_describering_any, \
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
      "choose tokens for new nodes: the replication-aware allocator or a layout", \
      "Plans N nodes of T tokens each joining datacenter DC (default: the input's only " \
      "datacenter; with no input, an empty cluster, like Cassandra's generatetokens tool) " \
      "so that effective ownership under replication factor RF is as even as possible. " \
      "--racks gives the number of nodes per rack (racks rack1, rack2, ... filled " \
      "round-robin; RAC1=2,RAC2=2 names them). The batch is refined jointly unless " \
      "--node-by-node is given: then each node gets the default plan for one join (as " \
      "join; never less balanced than Cassandra's tokens) and a progress bar shows on a " \
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
      "RandomPartitioner token of the bytes layout.h documents. --partitioner random " \
      "takes --layout or --as-cassandra (Cassandra's allocator, bit for bit, on a " \
      "--topology file of RandomPartitioner tokens or an empty cluster) and prints " \
      "decimal tokens, as initial_token takes them; byteordered has no token allocation " \
      "(Cassandra has none either).", \
      "tokenring generatetokens --nodes 6 --num-tokens 16 --rf 3 --racks 2,2,2") \
    X(cmd_join, \
      "join", "KEYSPACE NODE [--dc DC] [--rack RACK] [--num-tokens T | --initial-token LIST] " \
      "[--as-cassandra [--rf RF]]", \
      "simulate a node joining: ownership changes and streaming plan", \
      "The node joins with the given tokens, or T (default 16) tokens from the default " \
      "plan, which is never less balanced than Cassandra's own choice: the balance of " \
      "both is printed (max/mean and min/mean of the datacenter's effective ownership, " \
      "primary while it has at most RF nodes; SimpleStrategy ignores racks). " \
      "Prints which ranges change, each node's effective ownership before and after, what " \
      "it gains and loses (cleanup), and the streams Cassandra's bootstrap would run (the " \
      "replica losing a range streams it: strict). With --as-cassandra the tokens are the " \
      "ones Cassandra (--cassandra-version, default 5.0) would give node NODE (its address) " \
      "bootstrapping with allocate_tokens_for_keyspace: KEYSPACE, or with --rf RF " \
      "allocate_tokens_for_local_replication_factor: RF.", \
      "tokenring join demo 10.0.0.7 --num-tokens 8") \
    X(cmd_decommission, \
      "decommission", "KEYSPACE NODE", "simulate a node leaving: ownership changes and streams", \
      "As join, for `nodetool decommission`: the leaving node streams its ranges to the " \
      "nodes that gain them.", \
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
      "--rack, --num-tokens T), has its tokens planned as Cassandra's bootstrap " \
      "(--cassandra-version) chooses them: allocate_tokens_for_keyspace: KEYSPACE, or " \
      "with --rf RF allocate_tokens_for_local_replication_factor; --initial-token gives " \
      "them. nodetool status alone has no tokens at all: the error says what to add.", \
      "tokenring --nodetool-status status.txt --nodetool-ring ring.txt --keyspace " \
      "ks=dc1=3 pending ks") \
    X(cmd_availability, \
      "availability", "KEYSPACE [--cl LEVEL[,LEVEL]] [--fail UNIT] [--failures K] [--top N]", \
      "count the sets of failed nodes, racks or datacenters that make ranges unavailable", \
      "For each consistency level (default QUORUM; ONE, TWO, THREE, QUORUM, ALL, " \
      "LOCAL_ONE, LOCAL_QUORUM, EACH_QUORUM, comma-separated) and k = 1 .. K failed units " \
      "(default 3 nodes, at most 3 nodes; every rack or datacenter count with --fail racks " \
      "or --fail datacenters, which fail every node of the unit): how many of the k-sets " \
      "leave some range without enough live replicas, the largest share of the token " \
      "space one of them makes unavailable, and the --top N worst sets (default 5). " \
      "--list prints every failing set of nodes instead (k at most 3). A progress bar over " \
      "the replica sets and the search shows on a terminal.", \
      "tokenring availability demo --cl ONE,QUORUM --fail racks") \
    X(cmd_balance, \
      "balance", "[KEYSPACE] [--dc DC [--rack RACK]]", \
      "ownership balance: min, max, mean, standard deviation", \
      "Primary ownership, and effective ownership for KEYSPACE, over the ring's nodes or " \
      "those of one datacenter or rack, from the library's exact widths.", \
      "tokenring balance demo") \
    X(cmd_migrate, \
      "migrate-num-tokens", "--dc OLD --new-dc NEW --num-tokens T --nodes N --rf RF", \
      "plan moving a datacenter to a new num_tokens through a new datacenter", \
      "Tokens for the N nodes of the new datacenter (racks from --racks, names from " \
      "--names or NEW-node1, ...) and the steps: start them without bootstrap, add NEW to " \
      "each keyspace, rebuild, switch clients, drop OLD, decommission its nodes.", \
      "tokenring migrate-num-tokens --new-dc dc2 --num-tokens 16 --nodes 6 --rf 3 " \
      "--racks 2,2,2") \
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
      "MetaStrategy place nothing on the ring: they are skipped, with a note on stderr)" },
    { "--input", "FILE", "read a file of any of these formats (detected)" },
    { "--keyspace", "NAME=REPL",
      "define a keyspace, REPL as in the topology file (e.g. NetworkTopologyStrategy:dc1=3, "
      "SimpleStrategy:2, or a CQL replication map)" },
    { "--cassandra-version", "V",
      "place replicas in the order of Cassandra release V (default: the newest); releases "
      "before 3.2 (e.g. 3.0.30) order NetworkTopologyStrategy replicas differently when a "
      "datacenter has fewer racks than its replication factor. With --as-cassandra, the "
      "release whose token allocation to follow: 4.0, 4.1 or 5.0 or a release of them "
      "(default 5.0)" },
    { "--history", "FILE",
      "Cassandra 6.0: replay this cluster history (register, keyspace, unsafe_join, join, "
      "leave, move and replace lines; doc/cassandra-6.md) and give replicas in the order it "
      "makes (6.0's order depends on the history, not on the tokens alone); alone, it is "
      "the input: its ring and keyspaces" },
    { "--allow-partial", NULL,
      "accept elided or cut-short listings (results then cover only the tokens shown)" },
    { "--json", NULL, "print JSON instead of tables (tokens as strings)" },
    { "--hex", NULL, "keys are hex bytes" },
    { "--types", "T1,T2", "keys are CQL values of these partition-key types" },
    { "--token", NULL, "keys are tokens" },
    { "--partitioner", "P", "murmur3, random or byteordered: the token command's hash; "
                            "the partitioner of the inputs' tokens (without it: named by a "
                            "topology file's partitioner line or cqlsh system.local, else "
                            "read from the tokens; getendpoints, describering, ring, status, "
                            "availability, convert, join, decommission, replace, move, "
                            "removenode, assassinate, ranges and balance take such rings); "
                            "generatetokens' tokens (--layout, or --as-cassandra: random "
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
    { "--rf", "RF", "replication factor to plan for (generatetokens, migrate-num-tokens; join "
                    "--as-cassandra: allocate_tokens_for_local_replication_factor)" },
    { "--racks", "N1,N2", "new nodes per rack, racks named rack1, rack2, ... (or named: "
                          "RAC1=N1,RAC2=N2)" },
    { "--names", "A,B", "names of the new nodes (migrate-num-tokens, generatetokens "
                        "--layout seeded)" },
    { "--node-by-node", NULL, "plan new nodes one at a time (generatetokens)" },
    { "--as-cassandra", NULL,
      "choose the tokens Cassandra itself would (join, generatetokens): "
      "allocate_tokens_for_keyspace, or with --rf allocate_tokens_for_local_replication_factor" },
    { "--first-token", "T", "the token Cassandra starts an empty ring at (--as-cassandra; "
                            "default: random)" },
    { "--layout", "L", "even or seeded: lay out a new cluster instead of running the "
                       "allocator (generatetokens)" },
    { "--seed", "S", "the layout seed of --layout seeded, 0 to 2^64-1 (default 1)" },
    { "--cl", "LEVEL", "consistency level (availability; default QUORUM)" },
    { "--local-dc", "DC", "local datacenter for LOCAL_ONE and LOCAL_QUORUM" },
    { "--failures", "K", "largest number of failed nodes, racks or datacenters to try "
                         "(availability; nodes 1..3, the default)" },
    { "--fail", "UNIT", "what fails together: nodes (default), racks or datacenters "
                        "(availability)" },
    { "--top", "N", "how many worst failure sets to show per k (availability; default 5, 0 "
                    "counts only)" },
    { "--list", NULL, "list every failing set of nodes instead of the summary (availability)" },
    { "--help", NULL, "print this help" },
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
    "built-in demo ring. Options may appear before or after the command; negative "
    "numbers are arguments, and '--' ends the options (for keys that start with '-').";

const char *const tool_exit_text =
    "0 success; 1 internal error (e.g. out of memory); 2 bad usage (unknown command or "
    "option, malformed key argument, unknown keyspace); 3 bad input (a file that cannot be "
    "read or parsed, with FILE:LINE:COLUMN, or an input lacking what the command needs). "
    "Nothing is printed on standard output unless the command succeeds.";
