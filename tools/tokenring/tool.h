/* SPDX-License-Identifier: Apache-2.0 */
/* The tokenring tool's rooms and what they share. Built only on the public API: every
 * number the tool shows was computed by the library; the tool reads its input, asks, and
 * presents the answer.
 *
 *   main.c      options, dispatch
 *   commands.c  the command table (--help and the man page are generated from it)
 *   help.c      --help and --man from that table
 *   input.c     loading the cluster (files, demo ring, --keyspace), its lookups
 *   history.c   --history FILE: Cassandra 6.0's order replayed from a cluster's history
 *   history_dump.c  --history FILE as cqlsh's output of 6.0's metadata log, directory
 *               and keyspaces (the history built by the library from those rows)
 *   concurrent.c  concurrent: which planned operations Cassandra 6.0 lets run at once
 *   keys.c      keys and token lists from the command line or stdin
 *   files.c     a file or stdin read whole
 *   schema.c    tables' partition keys from a pasted schema (--schema): cqlsh
 *               system_schema.columns, and which reader reads a paste
 *   schema_cql.c  the same from CQL (DESCRIBE output, CREATE statements)
 *   schema_store.c  the tables both readers add to and getendpoints looks up
 *   output.c    the output buffer, tables, JSON strings, numbers, progress, exits
 *   queries.c   token, getendpoints, ring, describering, status, demo (every
 *               partitioner: tokens in Cassandra's text form)
 *   convert.c   convert
 *   changes.c   join, decommission, replace, move
 *   planning.c  generatetokens
 *   migrate.c   migrate-num-tokens
 *   analyses.c  availability, balance
 *   removal.c   removenode, assassinate, ranges, pending
 *   check.c     check: the findings collected and printed, the cluster's datacenters
 *               and racks counted once
 *   check_cluster.c  check: the cluster's layout (racks, factors, num_tokens, Owns)
 *   check_findings.c check: what its three files share (findings, datacenter and rack lookups)
 *   check_node.c     check --yaml/--rackdc: a node's settings against the cluster
 *   config.c    cassandra.yaml's scalar keys and cassandra-rackdc.properties (for check)
 *   suggest.c   "did you mean" for mistyped names, the datacenter lookups
 *   releases.c  the Cassandra releases --cassandra-version knows
 *   emit.c      --emit (what a planned node takes) and --write-topology (the cluster
 *               after a change)
 *   refusals.c  what Cassandra refuses before a change starts (decommission's checks)
 *   budget.c    --budget, --max-num-tokens, the limits of the long library calls
 *
 * All state is in one tr_ctx, passed to whatever needs it: there are no mutable globals.
 * A new command is one new file defining `TOOL_COMMAND(cmd_x) { ... }` plus one row in
 * commands.c. */
#ifndef TOKENRING_TOOL_H
#define TOKENRING_TOOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <tokenring/tokenring.h>
#include <tokenring/layout.h>
#include <tokenring/analysis.h>

/* Exit codes: 0 ok, 1 internal error, 2 bad usage, 3 bad input; check: 4 warnings (and no
 * error), 5 errors. */
enum { EXIT_OK = 0, EXIT_INTERNAL = 1, EXIT_USAGE = 2, EXIT_INPUT = 3, EXIT_CHECK_WARNINGS = 4,
       EXIT_CHECK_ERRORS = 5 };

/* ------------------------------------------------------------------ state */

typedef struct strbuf {
    char *p;
    size_t n, cap;
} strbuf;

enum in_kind { IN_AUTO, IN_TOPOLOGY, IN_RING, IN_STATUS, IN_CQLSH, IN_SCHEMA };

struct input {
    enum in_kind kind;
    const char *path;
};

/* What the command line says. */
typedef struct tr_options {
    bool json, hex, token_mode, allow_partial, merge_disjoint;
    const char *types;
    const char *partitioner; /* --partitioner: NULL, murmur3, random, byteordered */
    struct input inputs[64];
    size_t ninputs;
    const char *ks_defs[64];
    size_t nks_defs;
    const char *dc, *rack, *new_dc, *racks, *initial_token, *cl, *local_dc, *names;
    long num_tokens, nodes, rf, failures; /* -1: not given */
    long top;                /* --top (availability), -1: not given */
    const char *fail_unit;   /* --fail (availability) */
    bool avail_list;         /* --list (availability) */
    bool node_by_node;
    int rules;               /* --cassandra-version: tokenring_cassandra_rules, 0: default */
    const char *cassandra_version; /* --cassandra-version V as given */
    const char *history;     /* --history FILE: Cassandra 6.0's order from a history */
    bool as_cassandra;       /* --as-cassandra */
    bool one_step;           /* --one-step (join, generatetokens --node-by-node) */
    const char *first_token; /* --first-token T */
    const char *layout;      /* --layout even|seeded (generatetokens), NULL: the allocator */
    uint64_t seed;           /* --seed S (generatetokens --layout seeded), default 1 */
    bool seed_given;
    const char *yaml, *rackdc, *node; /* --yaml, --rackdc, --node (check) */
    bool force;                /* --force (decommission: as nodetool decommission --force) */
    const char *emit;          /* --emit yaml|rackdc|initial-token (generatetokens, join) */
    const char *write_topology; /* --write-topology FILE: the cluster after the change */
    uint64_t budget;         /* --budget in work units, 0: the library's default */
    uint32_t max_num_tokens; /* --max-num-tokens, 0: Cassandra's 1536 */
    bool progress;           /* --progress: report progress on stderr off a terminal too */
    const char *cmd;         /* the command's name */
    char **args, **positional;
    size_t nargs;            /* arguments after the command's name */
    size_t literal_from;     /* positional[i] with i >= this came after '--': never an
                                option, and '-' is a key, not standard input */
} tr_options;

/* A table's partition key as a pasted schema gave it (schema.c). */
struct schema_table {
    char *keyspace, *table; /* as Cassandra keeps them (unquoted names in lower case) */
    size_t ncols;           /* partition-key columns, in order */
    char **names, **types;  /* their names and CQL types as system_schema shows them */
};

/* Everything a command works with. */
typedef struct tr_ctx {
    tr_options opt;
    tokenring_cluster *cluster; /* the merged inputs (or the demo ring) */
    tokenring_ring *ring;       /* built on first need_ring() */
    bool demo;                  /* the cluster is the built-in demo ring */
    bool progress_on;           /* stderr is a terminal */
    const char *progress_what;  /* what the limits' progress callback reports */
    double progress_t0, progress_last; /* off a terminal: start, last line (seconds) */
    strbuf out;                 /* stdout, written only once the command succeeded */
    int exit_code;              /* flush_and_exit's code (check: findings), 0 by default */
    struct schema_table *tables; /* partition keys from --schema (schema.c) */
    size_t ntables;
} tr_ctx;

/* --------------------------------------------------------------- commands */

typedef void tool_command_fn(tr_ctx *ctx);

/* Defines a command's entry point, with the prototype -Wmissing-prototypes asks for. */
#define TOOL_COMMAND(fn) \
    tool_command_fn fn;  \
    void fn(tr_ctx *ctx)

typedef struct tool_command {
    const char *name, *args, *summary, *details, *example;
    tool_command_fn *fn;
} tool_command;

typedef struct tool_option {
    const char *flag, *arg, *help;
} tool_option;

/* commands.c */
extern const tool_command tool_commands[];
extern const size_t tool_command_count;
extern const tool_option tool_options[];
extern const size_t tool_option_count;
extern const char *const tool_description;
extern const char *const tool_exit_text;

/* help.c */
void print_help(void);
void print_man(void);
/* One command's help (tokenring help CMD, tokenring CMD --help). */
void print_command_help(const tool_command *cmd);
const tool_command *find_command(const char *name); /* dies naming the closest */

/* suggest.c: the known name closest to NAME (a typo away), or NULL; "; did you mean 'X'?"
 * in BUF (or an empty string); the same over the cluster's datacenters. */
const char *closest_name(const char *name, const char *const *known, size_t n);
const char *did_you_mean(const char *name, const char *const *known, size_t n, char *buf,
                         size_t cap);

const char *dc_hint(tr_ctx *ctx, const char *dc, char *buf, size_t cap);
void check_dc_lookups(tr_ctx *ctx, const char *cmd);

/* releases.c: dies unless V (a version tokenring_cassandra_rules_for_version accepted) is
 * of a release line the tool knows; release_before: --cassandra-version is older than
 * MAJOR.MINOR (false by default: the newest). */
extern const char *const known_releases_text;
void check_release(const char *v);
bool release_before(tr_ctx *ctx, int major, int minor);

/* config.c: a node's settings files. */
struct conf_entry {
    char *key, *value; /* value NULL: the key is empty or null */
    unsigned line, col;
};
struct conf {
    const char *path;
    struct conf_entry e[64];
    size_t n;
};
void conf_read_yaml(struct conf *c, const char *path, const char *const *keys, size_t nkeys);
void conf_read_properties(struct conf *c, const char *path);
const struct conf_entry *conf_get(const struct conf *c, const char *key);
void conf_free(struct conf *c);

/* ----------------------------------------------------------------- output */

void die(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3), noreturn));
int lib_exit(int rc);
void fail_lib(int rc, const tokenring_error *err, const char *what)
    __attribute__((noreturn));
void flush_and_exit(tr_ctx *ctx) __attribute__((noreturn));
/* MSG (a library error message) with the flag that remedies it named, in BUF, or MSG. */
const char *with_remedy(const char *msg, char *buf, size_t cap);

void sb_reserve(strbuf *b, size_t extra);
void sb_put(strbuf *b, const char *s, size_t n);
void sb_puts(strbuf *b, const char *s);
void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void sb_pad(strbuf *b, const char *s, size_t w);
void sb_json_str(strbuf *b, const char *s);

/* The one decimal form of a 128-bit width (widths of the 2^64-value ring). */
void u128_str(char buf[48], tokenring_u128 v);
/* A width as a fraction of the ring, for display only. */
double frac(tokenring_u128 w);
/* Ring range i's width in the units of the ring's partitioner (2^64 values for Murmur3,
 * 2^127 for RandomPartitioner), or false: ByteOrderedPartitioner's ranges have none;
 * ring_frac: a width as a fraction of the ring (ByteOrdered: a count of ranges over the
 * ring's). */
bool ring_range_width(const tokenring_ring *r, size_t i, tokenring_u128 *w);
double ring_frac(const tokenring_ring *r, tokenring_u128 w);
const char *liveness_word(int32_t l);
const char *state_word(int32_t s);
const char *repl_text(const tokenring_replication *r, char *buf, size_t cap);
void progress(tr_ctx *ctx, const char *what, size_t done, size_t total);

/* budget.c */
void parse_budget_option(tr_ctx *ctx, const char *flag, const char *val);
void check_num_tokens(tr_ctx *ctx);
/* Zeroed limits with --budget, --max-num-tokens and a progress callback reporting
 * `what`. */
void tool_limits(tr_ctx *ctx, tokenring_limits *lim, const char *what);

/* ------------------------------------------------------------------ input */

/* What stderr says whenever the tool runs on its built-in demo ring (no input given). */
#define DEMO_NOTICE                                                                       \
    "tokenring: note: no input given: this is the built-in demo ring (6 made-up nodes, "  \
    "keyspace demo), not a cluster of yours; give one with --topology, --nodetool-ring, " \
    "--cqlsh or --input FILE"

/* files.c: a file, or stdin for "-", read whole (dies naming it on error) */
char *read_all(const char *path, size_t *len);
void load_cluster(tr_ctx *ctx);
/* history.c: --history FILE replayed (with no other input, the history is the input) */
void load_history(tr_ctx *ctx);
/* history_dump.c: whether a --history file is cqlsh's output of 6.0's metadata tables;
 * the history the library builds from them (dies naming the line or row on bad input),
 * the schema's keyspaces appended to `keyspaces` as the tool's topology lines. */
bool history_is_metadata_dump(const char *text, size_t len);
tokenring_history *history_from_dump(tr_ctx *ctx, const char *path, const char *text,
                                     size_t len, strbuf *keyspaces);
/* The history's placement of r laid over the tool's ring (RING, which must have the
 * history's tokens); NULL without --history. */
tokenring_placement *history_placement(tr_ctx *ctx, const tokenring_ring *ring,
                                       const tokenring_replication *r);
/* says once on stderr which rule ordered P's replica lists (commands that show an order) */
void order_note(tr_ctx *ctx, const tokenring_placement *p);
/* the --history replayed (NULL without --history) */
const tokenring_history *tool_history(void);
void add_keyspace_defs(tr_ctx *ctx); /* the --keyspace definitions into ctx->cluster */
/* --first-token, else a random token as partitioner P's getRandomToken() draws it, in
 * P's text form (malloc'ed; NULL for ByteOrderedPartitioner; planning.c). */
char *cassandra_first_token_text(tr_ctx *ctx, tokenring_partitioner p);

/* main.c: whether command NAME takes rings of every partitioner. */
bool partitioned_command(const char *name);
const tokenring_ring *need_ring(tr_ctx *ctx);
const tokenring_topology *need_topology(tr_ctx *ctx);
const tokenring_replication *find_keyspace(tr_ctx *ctx, const char *name);
const tokenring_replication *with_rules(tr_ctx *ctx, const tokenring_replication *r);
/* The replication every keyspace of the input shares (nodetool's ownership without a
 * keyspace), or NULL: none defined (*differ false), or they differ (*differ true). */
const tokenring_replication *shared_replication(tr_ctx *ctx, bool *differ);
tokenring_placement *build_placement(tr_ctx *ctx, const tokenring_replication *r);
/* As build_placement, but a replication that places no replica at all (SimpleStrategy
 * with factor 0, datacenters without nodes only) gives empty replica lists with a warning
 * on stderr, as Cassandra answers: getendpoints, describering, ring and status. */
tokenring_placement *build_placement_empty_ok(tr_ctx *ctx, const tokenring_replication *r);
const char *node_name(tr_ctx *ctx, uint32_t idx);
const char **cluster_dcs(tr_ctx *ctx, size_t *count);
const char *only_dc(tr_ctx *ctx);
void check_args(tr_ctx *ctx, size_t min, size_t max, const char *usage);

/* schema.c (schema_read) and schema_store.c (schema_table, schema_free): a pasted
 * schema (cqlsh system_schema.columns, or CQL: DESCRIBE output, CREATE KEYSPACE /
 * TABLE / MATERIALIZED VIEW) read into ctx->tables and, for CREATE
 * KEYSPACE, the cluster's keyspaces. schema_read returns false for any other text (the
 * library's parsers read it). schema_table: KEYSPACE.TABLE, or NULL; then the names of
 * the keyspace's known tables are appended to KNOWN (if not NULL). */
bool schema_read(tr_ctx *ctx, const char *name, const char *text, size_t len);
const struct schema_table *schema_table(tr_ctx *ctx, const char *keyspace, const char *table,
                                        strbuf *known);
void schema_free(tr_ctx *ctx);
/* For both readers: a table read (schema_store.c; T moved in; one read twice must have
 * the same key, else a refusal naming WHERE); does TEXT open with CREATE or USE (after
 * comments and cqlsh prompts) and reading it (schema_cql.c); malloc / strndup that die
 * when out of memory (schema_store.c). */
void schema_add_table(tr_ctx *ctx, struct schema_table *t, const char *where);
bool schema_is_cql(const char *text, size_t len);
void schema_read_cql(tr_ctx *ctx, const char *name, const char *text, size_t len);
void *schema_alloc(size_t n);
char *schema_strndup(const char *s, size_t n);

/* ---------------------------------------------------------------- changes */

/* changes.c: a movement as the change commands print it (tables, or JSON with TITLE). */
void print_movement(tr_ctx *ctx, const tokenring_movement *m, const char *title);
/* A movement's changed range @p range_index (or a stream's: its range_index) as the
 * partitioner writes its bounds (tokenring_movement_range_bound_text); the caller frees
 * *a and *b. movement_scale_of: the ring's size in the movement's width units;
 * movement_frac: a width over it. */
void movement_bounds(const tokenring_movement *m, uint32_t range_index, char **a, char **b);
long double movement_scale_of(const tokenring_movement *m);
double movement_frac(long double scale, tokenring_u128 w);
/* Ring token i as the ring's partitioner writes it (output.c); ring_token_text_cap:
 * the buffer that holds the longest. */
void ring_token_text(char *out, size_t cap, const tokenring_ring *r, size_t i);
/* Token k of cluster node i in its partitioner's text form (malloc'ed), or NULL when the
 * node's tokens are not known (output.c). */
char *cluster_token_text(tr_ctx *ctx, size_t i, size_t k);
size_t ring_token_text_cap(const tokenring_ring *r);

/* The token of key K under partitioner P in its text form (malloc'ed; with --token the
 * token given), output.c. */
struct key;
char *key_token_text(tr_ctx *ctx, tokenring_partitioner p, const struct key *k);
/* The partitioner the command works in: --partitioner, else the input's (input.c). */
tokenring_partitioner tool_partitioner(tr_ctx *ctx);

/* As print_movement; JSON also lists the joining node's tokens ("tokens", in the
 * partitioner's text form) when given. */
void print_movement_tokens(tr_ctx *ctx, const tokenring_movement *m, const char *title,
                           char *const *tokens, size_t nt);

/* ------------------------------------------------------------------- keys */

struct key {
    char *label; /* as given */
    uint8_t *bytes;
    size_t len;
    int64_t token;    /* Murmur3's token of the key (with --token: the token, on Murmur3) */
    char *token_text; /* with --token: the token in the partitioner's canonical text form */
};

struct key *collect_keys(tr_ctx *ctx, char **args, size_t nargs, size_t *count);
/* getendpoints' keys: KEYSPACE TABLE KEY (nodetool's form: exactly three arguments, not
 * with --token) read with the table's partition-key types from the schema input (a
 * warning on stderr without one), or KEYSPACE KEY... (tokens with --token). */
struct key *endpoint_keys(tr_ctx *ctx, size_t *count);
void free_keys(struct key *keys, size_t n);
char **split_list(const char *s, size_t *count);
int64_t *parse_token_list_arg(const char *s, size_t *count);
/* A list of tokens T1,T2,... of partitioner P (FLAG names its option in errors), each read
 * and written back in P's canonical text form; free with free_token_texts. */
char **parse_token_texts(tokenring_partitioner p, const char *flag, const char *list,
                         size_t *count);
void free_token_texts(char **v, size_t n);

/* --as-cassandra (planning.c): the release line of --cassandra-version (default 5.0) as the
 * library's TOKENRING_CASSANDRA_* value and as text (the token an empty ring starts at:
 * cassandra_first_token_text). */
uint32_t cassandra_release(tr_ctx *ctx, const char **name_out);
/* The rack a new node of datacenter dc joins (planning.c): --rack if given (an existing
 * rack or, on purpose, a new one); else the datacenter's only rack, or "rack1" for a
 * datacenter without nodes; a datacenter with several racks needs --rack, and the error
 * lists them. */
const char *join_rack(tr_ctx *ctx, const tokenring_topology *t, const char *dc,
                      const char *cmd);
/* planning.c: the names of n planned nodes (--names, exactly n, else node1, ... or
 * PREFIX-node1, ...) and their racks (--racks: nodes per rack, or named RAC1=2,...; else
 * one rack), malloc'ed; *nracks_out receives the number of racks. */
char **node_names(tr_ctx *ctx, size_t n, const char *prefix);
char **rack_plan(tr_ctx *ctx, size_t n, size_t *nracks_out);

/* ------------------------------------------------------------------- emit */

/* emit.c: --emit, --write-topology and --force with the commands that take them only. */
void check_plan_options(tr_ctx *ctx);
/* One planned node as --emit asks: a cassandra.yaml snippet (partitioner, num_tokens,
 * initial_token, and ALLOCATION, e.g. "allocate_tokens_for_local_replication_factor: 3",
 * when not NULL), its cassandra-rackdc.properties, or its initial_token line; tokens in
 * the partitioner's text form. */
void emit_node(tr_ctx *ctx, tokenring_partitioner p, const char *label, const char *dc,
               const char *rack, char *const *tokens, size_t nt, const char *allocation);
/* --write-topology FILE: AFTER, with the input's keyspaces, as a topology file. */
void write_topology_after(tr_ctx *ctx, const tokenring_topology *after);

/* ------------------------------------------------------------------ check */

/* check.c: one finding of check (a line `error:`, `warning:` or `ok:` about SUBJECT), the
 * cluster's datacenters and racks as check counts them, and their lookups. */
enum sev { SEV_OK, SEV_WARNING, SEV_ERROR };

struct finding {
    enum sev sev;
    char *subject, *text;
};

struct findings {
    struct finding *f;
    size_t n, cap;
};

struct rack {
    const char *name;
    size_t nodes;          /* normal, leaving and moving nodes: the ones placement counts */
    long double eff;       /* effective ownership of the keyspace in hand, of 2^64 */
};

struct dc {
    const char *name;
    struct rack racks[256];
    size_t nracks, nodes, joining;
};

void check_add(struct findings *fs, enum sev sev, const char *subject, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
struct dc *check_find_dc(struct dc *dcs, size_t n, const char *name);
struct rack *check_find_rack(struct dc *d, const char *name);
/* The token count most of the datacenter's nodes have (0 when none is known). */
size_t check_usual_tokens(tr_ctx *ctx, const char *dc);
/* check_cluster.c: the layout (nodes per rack per datacenter, mixed num_tokens), each
 * keyspace's factor against its datacenters and racks (KEYSPACE... on the command line, or
 * all), and pasted Owns against the computed one. */
void check_layout(tr_ctx *ctx, struct findings *fs, struct dc *dcs, size_t ndc);
void check_keyspaces(tr_ctx *ctx, struct findings *fs, struct dc *dcs, size_t ndc);
void check_owns(tr_ctx *ctx, struct findings *fs);
/* check_node.c: --yaml / --rackdc (of --node NAME, or of a node about to join) against the
 * cluster. */
void check_node(tr_ctx *ctx, struct findings *fs, struct dc *dcs, size_t ndc);

/* refusals.c: dies with Cassandra's message (and what would make it possible) where
 * Cassandra refuses to decommission NODE of T: a joining node, the ring's only node, and
 * from 4.0 on (--cassandra-version) any keyspace of the input whose factor is not below
 * the nodes it counts, unless --force. */
void decommission_allowed(tr_ctx *ctx, const tokenring_topology *t, const char *node);

#endif
