/* SPDX-License-Identifier: Apache-2.0 */
/* Cassandra 6.0's history from what a driver reads (system_views.cluster_metadata_log and
 * cluster_metadata_directory, plus the keyspaces' replications), turned into the history
 * text lib/history/history.c replays; and a router snapshot routed through a history's
 * placements. The rules are listed in include/tokenring/history.h and doc/cassandra-6.md;
 * the entries' text is Transformation.toString() of 6.0-alpha2 (tcm/transformations). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "history_internal.h"
#include "tokenring/history.h"

/* What an entry of the log is to the replay. */
enum act {
    A_SKIP,    /* changes no read placement of the ring */
    A_START,   /* the first entry of a cluster (PRE_INITIALIZE_CMS, INITIALIZE_CMS) */
    A_UNSAFE,  /* UNSAFE_JOIN: a join in one entry */
    A_JOIN,    /* PREPARE_JOIN */
    A_LEAVE,   /* PREPARE_LEAVE */
    A_MOVE,    /* PREPARE_MOVE */
    A_REPLACE, /* PREPARE_REPLACE */
    A_STEP,    /* START_ and MID_ of an operation */
    A_FINISH,  /* FINISH_ of an operation */
    A_SCHEMA,  /* SCHEMA_CHANGE */
    A_REFUSE   /* a change the replay does not model */
};

static const struct {
    const char *kind;
    enum act act;
    const char *op; /* A_JOIN..A_REPLACE, A_STEP, A_FINISH: the operation */
} KINDS[] = {
    { "PRE_INITIALIZE_CMS", A_START, NULL },
    { "INITIALIZE_CMS", A_START, NULL },
    { "FORCE_SNAPSHOT", A_REFUSE, NULL },
    { "TRIGGER_SNAPSHOT", A_SKIP, NULL },
    { "SCHEMA_CHANGE", A_SCHEMA, NULL },
    { "REGISTER", A_SKIP, NULL },
    { "UNREGISTER", A_SKIP, NULL },
    { "UNSAFE_JOIN", A_UNSAFE, NULL },
    { "PREPARE_JOIN", A_JOIN, "JOIN" },
    { "START_JOIN", A_STEP, "JOIN" },
    { "MID_JOIN", A_STEP, "JOIN" },
    { "FINISH_JOIN", A_FINISH, "JOIN" },
    { "PREPARE_MOVE", A_MOVE, "MOVE" },
    { "START_MOVE", A_STEP, "MOVE" },
    { "MID_MOVE", A_STEP, "MOVE" },
    { "FINISH_MOVE", A_FINISH, "MOVE" },
    { "PREPARE_LEAVE", A_LEAVE, "LEAVE" },
    { "START_LEAVE", A_STEP, "LEAVE" },
    { "MID_LEAVE", A_STEP, "LEAVE" },
    { "FINISH_LEAVE", A_FINISH, "LEAVE" },
    { "ASSASSINATE", A_REFUSE, NULL },
    { "PREPARE_REPLACE", A_REPLACE, "REPLACE" },
    { "START_REPLACE", A_STEP, "REPLACE" },
    { "MID_REPLACE", A_STEP, "REPLACE" },
    { "FINISH_REPLACE", A_FINISH, "REPLACE" },
    { "CANCEL_SEQUENCE", A_REFUSE, NULL },
    { "START_ADD_TO_CMS", A_SKIP, NULL },
    { "FINISH_ADD_TO_CMS", A_SKIP, NULL },
    { "REMOVE_FROM_CMS", A_SKIP, NULL },
    { "STARTUP", A_SKIP, NULL },
    { "CUSTOM", A_REFUSE, NULL },
    { "PREPARE_SIMPLE_CMS_RECONFIGURATION", A_SKIP, NULL },
    { "PREPARE_COMPLEX_CMS_RECONFIGURATION", A_SKIP, NULL },
    { "ADVANCE_CMS_RECONFIGURATION", A_SKIP, NULL },
    { "CANCEL_CMS_RECONFIGURATION", A_SKIP, NULL },
    { "ALTER_TOPOLOGY", A_REFUSE, NULL },
    { "UPDATE_AVAILABILITY", A_SKIP, NULL },
    { "BEGIN_CONSENSUS_MIGRATION_FOR_TABLE_AND_RANGE", A_SKIP, NULL },
    { "MAYBE_FINISH_CONSENSUS_MIGRATION_FOR_TABLE_AND_RANGE", A_SKIP, NULL },
    { "ACCORD_MARK_STALE", A_SKIP, NULL },
    { "ACCORD_MARK_REJOINING", A_SKIP, NULL },
    { "PREPARE_DROP_ACCORD_TABLE", A_SKIP, NULL },
    { "FINISH_DROP_ACCORD_TABLE", A_SKIP, NULL },
    { "ACCORD_MARK_HARD_REMOVED", A_SKIP, NULL },
};

/* Why a refused kind is refused. */
static const char *refused_why(const char *kind)
{
    if (strcmp(kind, "FORCE_SNAPSHOT") == 0)
        return "a forced metadata snapshot replaces the placements";
    if (strcmp(kind, "ASSASSINATE") == 0)
        return "an assassinated node leaves without the steps of a decommission";
    if (strcmp(kind, "CANCEL_SEQUENCE") == 0)
        return "a cancelled operation reverts its deltas, appending replicas again";
    if (strcmp(kind, "ALTER_TOPOLOGY") == 0)
        return "a node's datacenter or rack changed, and the directory gives only the last";
    return "a custom transformation";
}

/* A growing text buffer. */
typedef struct {
    char *s;
    size_t n, cap;
    bool failed;
} sbuf;

static void sb_add(sbuf *b, const char *p, size_t n)
{
    if (b->failed)
        return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *m = tr_realloc(b->s, cap);
        if (!m) {
            b->failed = true;
            return;
        }
        b->s = m;
        b->cap = cap;
    }
    memcpy(b->s + b->n, p, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void sb_str(sbuf *b, const char *s)
{
    sb_add(b, s, strlen(s));
}

/* A strict decimal integer (optional '-'), the whole of [p, p + n). */
static bool parse_i64(const char *p, size_t n, int64_t *out)
{
    size_t i = 0;
    bool neg = n > 0 && p[0] == '-';
    i += neg;
    if (i == n || n - i > 19)
        return false;
    uint64_t v = 0;
    for (; i < n; i++) {
        if (p[i] < '0' || p[i] > '9')
            return false;
        uint64_t d = (uint64_t)(p[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    if (neg ? v > (uint64_t)INT64_MAX + 1 : v > (uint64_t)INT64_MAX)
        return false;
    *out = neg ? (int64_t)(0 - v) : (int64_t)v;
    return true;
}

static bool parse_cstr_i64(const char *s, int64_t *out)
{
    return s && parse_i64(s, strlen(s), out);
}

/* The node id after key (e.g. "nodeId=") in an entry: key NodeId{id=N}. */
static bool node_after(const char *t, const char *key, int64_t *id)
{
    const char *p = strstr(t, key);
    if (!p)
        return false;
    p += strlen(key);
    static const char pre[] = "NodeId{id=";
    if (strncmp(p, pre, sizeof pre - 1) != 0)
        return false;
    p += sizeof pre - 1;
    const char *e = strchr(p, '}');
    return e && parse_i64(p, (size_t)(e - p), id);
}

/* The token list after "tokens=[" in an entry, checked and appended to b as
 * TOKEN,TOKEN (no blank). *count receives the number of tokens. */
static bool tokens_after(const char *t, sbuf *b, size_t *count)
{
    const char *p = strstr(t, "tokens=[");
    if (!p)
        return false;
    p += 8;
    const char *e = strchr(p, ']');
    if (!e)
        return false;
    *count = 0;
    while (p < e) {
        while (p < e && *p == ' ')
            p++;
        const char *q = p;
        while (q < e && *q != ',')
            q++;
        const char *r = q;
        while (r > p && r[-1] == ' ')
            r--;
        int64_t v;
        if (!parse_i64(p, (size_t)(r - p), &v) || v == INT64_MIN)
            return false;
        if ((*count)++)
            sb_str(b, ",");
        sb_add(b, p, (size_t)(r - p));
        p = q < e ? q + 1 : e;
    }
    return *count > 0;
}

/* A name the history text takes as one field. */
static bool plain_name(const char *s)
{
    if (!s || !*s || *s == '#')
        return false;
    for (; *s; s++)
        if (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
            return false;
    return true;
}

typedef struct {
    int64_t id;
    size_t row;
} dir_ix;

typedef struct {
    int64_t epoch;
    size_t row;
} log_ix;

static int cmp_dir(const void *a, const void *b)
{
    const dir_ix *x = a, *y = b;
    return (x->id > y->id) - (x->id < y->id);
}

static int cmp_log(const void *a, const void *b)
{
    const log_ix *x = a, *y = b;
    return (x->epoch > y->epoch) - (x->epoch < y->epoch);
}

/* What the conversion builds: the text and, per line, the row it came from. */
typedef struct {
    sbuf text;
    const char **line_what; /* per text line: "directory" or "log" */
    int64_t *line_key;      /* the node id or the epoch */
    size_t nlines, caplines;
    const tokenring_metadata_log_row *log;
    const tokenring_metadata_node_row *dir;
    dir_ix *dirs;
    size_t ndirs;
} conv;

static bool line_end(conv *c, const char *what, int64_t key)
{
    sb_str(&c->text, "\n");
    if (c->nlines == c->caplines) {
        size_t cap = c->caplines ? c->caplines * 2 : 64;
        const char **w = tr_reallocarray(c->line_what, cap, sizeof *w);
        if (w)
            c->line_what = w;
        int64_t *k = w ? tr_reallocarray(c->line_key, cap, sizeof *k) : NULL;
        if (!k)
            return false;
        c->line_key = k;
        c->caplines = cap;
    }
    c->line_what[c->nlines] = what;
    c->line_key[c->nlines++] = key;
    return !c->text.failed;
}

/* The directory row of node id, or NULL. */
static const tokenring_metadata_node_row *dir_node(const conv *c, int64_t id)
{
    dir_ix key = { id, 0 };
    const dir_ix *d = c->ndirs ? bsearch(&key, c->dirs, c->ndirs, sizeof *c->dirs, cmp_dir)
                               : NULL;
    return d ? &c->dir[d->row] : NULL;
}

/* The node's name in the history text: its address, with :PORT when not 7000. */
static void add_address(sbuf *b, const tokenring_metadata_node_row *r)
{
    const char *a = r->broadcast_address;
    sb_str(b, a[0] == '/' ? a + 1 : a);
    if (r->broadcast_port && strcmp(r->broadcast_port, "7000") != 0) {
        sb_str(b, ":");
        sb_str(b, r->broadcast_port);
    }
}

static int fail_row(tokenring_error *err, int code, const tokenring_metadata_log_row *r,
                    const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return tr_fail(err, code, "cluster_metadata_log epoch %s (%s): %s", r->epoch, r->kind,
                   msg);
}

/* The node a step names, by the key before its NodeId; appends its address. */
static int step_node(conv *c, const tokenring_metadata_log_row *r, const char *key,
                     tokenring_error *err)
{
    int64_t id;
    if (!node_after(r->transformation, key, &id))
        return fail_row(err, TOKENRING_E_PARSE, r, "no '%sNodeId{id=N}' in '%.80s'", key,
                        r->transformation);
    const tokenring_metadata_node_row *d = dir_node(c, id);
    if (!d)
        return fail_row(err, TOKENRING_E_NOTFOUND, r,
                        "node id %lld is not in cluster_metadata_directory (read both tables "
                        "at the same moment)",
                        (long long)id);
    add_address(&c->text, d);
    return TOKENRING_OK;
}

/* The keyspace a schema change names: "AlterSchema{schemaTransformation=VERB (NAME)}"
 * with VERB one of the keyspace statements; *verb 0 otherwise (another schema change). */
static int schema_keyspace(const tokenring_metadata_log_row *r, int *verb, const char **name,
                           size_t *len)
{
    static const char *const verbs[] = { "CreateKeyspaceStatement (",
                                         "AlterKeyspaceStatement (",
                                         "DropKeyspaceStatement (" };
    static const char pre[] = "AlterSchema{schemaTransformation=";
    *verb = 0;
    if (strncmp(r->transformation, pre, sizeof pre - 1) != 0)
        return TOKENRING_E_PARSE;
    const char *p = r->transformation + sizeof pre - 1;
    for (int v = 0; v < 3; v++) {
        size_t n = strlen(verbs[v]);
        if (strncmp(p, verbs[v], n) == 0) {
            const char *e = strchr(p + n, ')');
            if (!e || e == p + n)
                return TOKENRING_E_PARSE;
            *verb = v + 1;
            *name = p + n;
            *len = (size_t)(e - (p + n));
            return TOKENRING_OK;
        }
    }
    return TOKENRING_OK;
}


static bool is_system_keyspace(const char *name, size_t len)
{
    static const char *const sys[] = { "system_auth", "system_traces", "system_distributed" };
    for (size_t i = 0; i < 3; i++)
        if (strlen(sys[i]) == len && memcmp(sys[i], name, len) == 0)
            return true;
    return false;
}

/* A replication in the history text's compact form (RF, or DC=RF,DC=RF). */
static bool add_replication(sbuf *b, const tokenring_replication *repl)
{
    size_t n = 0;
    tokenring_replication_format(NULL, 0, &n, repl);
    char *s = tr_malloc(n + 1);
    if (!s || tokenring_replication_format(s, n + 1, &n, repl) != TOKENRING_OK) {
        tr_free(s);
        return false;
    }
    /* the formatted text has no blank (the replication syntax's compact form) */
    for (size_t i = 0; i < n; i++)
        if (s[i] != ' ')
            sb_add(b, &s[i], 1);
    tr_free(s);
    return true;
}

/* Whether keyspace name is altered or dropped in the log after sorted position from. */
static int later_change(const conv *c, const log_ix *order, size_t nlog, size_t from,
                        const char *name, size_t len)
{
    int last = 0;
    for (size_t i = from + 1; i < nlog; i++) {
        const tokenring_metadata_log_row *r = &c->log[order[i].row];
        int verb;
        const char *n2;
        size_t l2;
        if (strcmp(r->kind, "SCHEMA_CHANGE") == 0 &&
            schema_keyspace(r, &verb, &n2, &l2) == TOKENRING_OK && verb > 1 && l2 == len &&
            memcmp(n2, name, len) == 0) {
            if (verb == 3)
                return 3;
            last = 2;
        }
    }
    return last;
}

/* One schema change: a keyspace step, or nothing. */
static int schema_step(conv *c, const log_ix *order, size_t nlog, size_t i,
                       const tokenring_router *keyspaces, tokenring_error *err)
{
    const tokenring_metadata_log_row *r = &c->log[order[i].row];
    int verb;
    const char *name;
    size_t len;
    if (schema_keyspace(r, &verb, &name, &len) != TOKENRING_OK)
        return fail_row(err, TOKENRING_E_PARSE, r,
                        "not 'AlterSchema{schemaTransformation=...}': '%.80s'",
                        r->transformation);
    if (verb == 0)
        return TOKENRING_OK; /* tables, types, functions, the system keyspaces' start-up */
    /* a keyspace's replication before its last ALTER is not in the log: it is taken from
     * its last ALTER on (and one dropped since as one that shared no placement) */
    int later = later_change(c, order, nlog, i, name, len);
    if (later != 0 || verb == 3)
        return TOKENRING_OK;
    const tokenring_replication *repl = tr_router_keyspace_replication(keyspaces, name, len);
    if (!repl) {
        if (is_system_keyspace(name, len) || !keyspaces)
            return TOKENRING_OK;
        /* a keyspace the router skips (LocalStrategy, ...) places nothing */
        for (size_t k = 0; k < tokenring_router_skipped_count(keyspaces); k++) {
            const char *sk = NULL;
            tokenring_router_skipped(&sk, NULL, keyspaces, k);
            if (strlen(sk) == len && memcmp(sk, name, len) == 0)
                return TOKENRING_OK;
        }
        return fail_row(err, TOKENRING_E_NOTFOUND, r,
                        "keyspace %.*s exists but the keyspaces given do not have it (give "
                        "the schema read at the same moment)",
                        (int)len, name);
    }
    sb_str(&c->text, "keyspace ");
    sb_add(&c->text, name, len);
    sb_str(&c->text, " ");
    if (!add_replication(&c->text, repl))
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    return line_end(c, "log", order[i].epoch) ? TOKENRING_OK
                                              : tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
}

/* Every keyspace the router routes is created in the log (or is a system keyspace). */
static int keyspaces_created(const conv *c, const log_ix *order, size_t nlog,
                             const tokenring_router *keyspaces, tokenring_error *err)
{
    for (size_t k = 0; k < tokenring_router_keyspace_count(keyspaces); k++) {
        const char *name = NULL;
        tokenring_router_keyspace(&name, NULL, keyspaces, k);
        size_t len = strlen(name);
        if (is_system_keyspace(name, len))
            continue;
        bool found = false;
        for (size_t i = 0; i < nlog && !found; i++) {
            const tokenring_metadata_log_row *r = &c->log[order[i].row];
            int verb;
            const char *n2;
            size_t l2;
            found = strcmp(r->kind, "SCHEMA_CHANGE") == 0 &&
                    schema_keyspace(r, &verb, &n2, &l2) == TOKENRING_OK && verb != 0 &&
                    verb != 3 && l2 == len && memcmp(n2, name, len) == 0;
        }
        if (!found)
            return tr_fail(err, TOKENRING_E_NOTFOUND,
                           "keyspace %s is in the schema, but no cluster_metadata_log entry "
                           "creates it: the log does not hold the cluster's whole history",
                           name);
    }
    return TOKENRING_OK;
}

/* The directory's rows: checked, registered, indexed by node id. */
static int directory_lines(conv *c, size_t ndir, tokenring_error *err)
{
    for (size_t i = 0; i < ndir; i++) {
        const tokenring_metadata_node_row *d = &c->dir[i];
        int64_t id;
        if (!parse_cstr_i64(d->node_id, &id))
            return tr_fail(err, TOKENRING_E_PARSE,
                           "cluster_metadata_directory row %zu: node_id '%s' is not a number",
                           i + 1, d->node_id ? d->node_id : "null");
        const char *col = !d->broadcast_address ? "broadcast_address"
                          : !plain_name(d->dc)  ? "dc"
                          : !plain_name(d->rack) ? "rack"
                                                 : NULL;
        if (col)
            return tr_fail(err, TOKENRING_E_PARSE,
                           "cluster_metadata_directory node_id %lld: %s is null, empty or has "
                           "a blank",
                           (long long)id, col);
        int64_t port;
        if (d->broadcast_port && (!parse_cstr_i64(d->broadcast_port, &port) || port < 1 ||
                                  port > 65535))
            return tr_fail(err, TOKENRING_E_PARSE,
                           "cluster_metadata_directory node_id %lld: broadcast_port '%s' is "
                           "not a port",
                           (long long)id, d->broadcast_port);
        if (d->token_count && !d->tokens)
            return tr_fail(err, TOKENRING_E_INVAL,
                           "cluster_metadata_directory node_id %lld: NULL tokens", (long long)id);
        for (size_t t = 0; t < d->token_count; t++) {
            int64_t v;
            if (!parse_cstr_i64(d->tokens[t], &v) || v == INT64_MIN)
                return tr_fail(err, TOKENRING_E_PARSE,
                               "cluster_metadata_directory node_id %lld: token '%s' is not a "
                               "Murmur3 token",
                               (long long)id, d->tokens[t] ? d->tokens[t] : "null");
        }
        c->dirs[i] = (dir_ix){ id, i };
        sb_str(&c->text, "register ");
        add_address(&c->text, d);
        sb_str(&c->text, " ");
        sb_str(&c->text, d->dc);
        sb_str(&c->text, " ");
        sb_str(&c->text, d->rack);
        if (!line_end(c, "directory", id))
            return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    }
    c->ndirs = ndir;
    if (ndir)
        qsort(c->dirs, ndir, sizeof *c->dirs, cmp_dir);
    for (size_t i = 1; i < ndir; i++)
        if (c->dirs[i].id == c->dirs[i - 1].id)
            return tr_fail(err, TOKENRING_E_EXISTS,
                           "cluster_metadata_directory: node_id %lld is in two rows",
                           (long long)c->dirs[i].id);
    return TOKENRING_OK;
}

/* The log's entries, in epoch order, as history steps. *ops receives the number of
 * operations (for the work estimate). */
static int log_lines(conv *c, log_ix *order, size_t nlog, const tokenring_router *keyspaces,
                     size_t *ops, tokenring_error *err)
{
    for (size_t i = 0; i < nlog; i++) {
        const tokenring_metadata_log_row *r = &c->log[i];
        if (!r->epoch || !r->kind || !r->transformation)
            return tr_fail(err, TOKENRING_E_PARSE, "cluster_metadata_log row %zu: %s is null",
                           i + 1, !r->epoch ? "epoch" : !r->kind ? "kind" : "transformation");
        if (!parse_cstr_i64(r->epoch, &order[i].epoch))
            return tr_fail(err, TOKENRING_E_PARSE,
                           "cluster_metadata_log row %zu: epoch '%s' is not a number", i + 1,
                           r->epoch);
        order[i].row = i;
    }
    if (nlog)
        qsort(order, nlog, sizeof *order, cmp_log);
    for (size_t i = 1; i < nlog; i++)
        if (order[i].epoch == order[i - 1].epoch)
            return tr_fail(err, TOKENRING_E_EXISTS, "cluster_metadata_log: epoch %lld is in "
                                                    "two rows",
                           (long long)order[i].epoch);
    for (size_t i = 1; i < nlog; i++) {
        if (order[i].epoch == order[i - 1].epoch + 2)
            return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                           "cluster_metadata_log: epoch %lld is missing (read the whole table)",
                           (long long)order[i - 1].epoch + 1);
        if (order[i].epoch != order[i - 1].epoch + 1)
            return tr_fail(err, TOKENRING_E_UNSUPPORTED,
                           "cluster_metadata_log: epochs %lld to %lld are missing (read the "
                           "whole table)",
                           (long long)order[i - 1].epoch + 1, (long long)order[i].epoch - 1);
    }
    const char *open = NULL; /* the operation in progress */
    const tokenring_metadata_log_row *open_row = NULL;
    *ops = 0;
    for (size_t i = 0; i < nlog; i++) {
        const tokenring_metadata_log_row *r = &c->log[order[i].row];
        size_t k = 0;
        while (k < sizeof KINDS / sizeof KINDS[0] && strcmp(KINDS[k].kind, r->kind) != 0)
            k++;
        if (k == sizeof KINDS / sizeof KINDS[0])
            return fail_row(err, TOKENRING_E_UNSUPPORTED, r,
                            "a kind of entry this release does not know: it may change "
                            "placements");
        enum act a = KINDS[k].act;
        if (i == 0 && a != A_START)
            return fail_row(err, TOKENRING_E_UNSUPPORTED, r,
                            "the log does not start at the cluster's first entry "
                            "(PRE_INITIALIZE_CMS): older entries are gone (a metadata "
                            "snapshot), and the history with them");
        if (a == A_START && strstr(r->transformation, "baseState = Epoch{epoch=-"))
            return fail_row(err, TOKENRING_E_UNSUPPORTED, r,
                            "a cluster upgraded from gossip: its first placements are "
                            "Cassandra 5.0's, not in the log");
        if (a == A_REFUSE)
            return fail_row(err, TOKENRING_E_UNSUPPORTED, r, "not modelled: %s",
                            refused_why(r->kind));
        if (a == A_SKIP || a == A_START)
            continue;
        if (a == A_SCHEMA) {
            int rc = schema_step(c, order, nlog, i, keyspaces, err);
            if (rc != TOKENRING_OK)
                return rc;
            continue;
        }
        if (a == A_STEP || a == A_FINISH) {
            if (!open || strcmp(open, KINDS[k].op) != 0)
                return fail_row(err, TOKENRING_E_UNSUPPORTED, r,
                                "no PREPARE_%s in progress: operations interleave, or the log "
                                "is not whole",
                                KINDS[k].op);
            if (a == A_FINISH)
                open = NULL;
            continue;
        }
        if (open)
            return fail_row(err, TOKENRING_E_UNSUPPORTED, r,
                            "starts while the %s of epoch %s is in progress: the replay "
                            "takes one operation at a time",
                            open, open_row->epoch);
        if ((a == A_JOIN || a == A_UNSAFE || a == A_REPLACE) &&
            strstr(r->transformation, "joinTokenRing=false"))
            return fail_row(err, TOKENRING_E_UNSUPPORTED, r,
                            "a node that does not join the ring (write survey)");
        static const char *const verbs[] = { [A_UNSAFE] = "unsafe_join ", [A_JOIN] = "join ",
                                             [A_LEAVE] = "leave ", [A_MOVE] = "move ",
                                             [A_REPLACE] = "replace " };
        sb_str(&c->text, verbs[a]);
        int rc = step_node(c, r, a == A_LEAVE     ? "leaving="
                                 : a == A_REPLACE ? "replaced="
                                                  : "nodeId=",
                           err);
        if (rc == TOKENRING_OK && a == A_REPLACE) {
            sb_str(&c->text, " ");
            rc = step_node(c, r, "replacement=", err);
        }
        if (rc != TOKENRING_OK)
            return rc;
        if (a == A_JOIN || a == A_UNSAFE || a == A_MOVE) {
            size_t n = 0;
            sb_str(&c->text, " ");
            if (!tokens_after(r->transformation, &c->text, &n))
                return fail_row(err, TOKENRING_E_PARSE, r,
                                "no list of Murmur3 tokens 'tokens=[...]' in '%.80s'",
                                r->transformation);
        }
        if (!line_end(c, "log", order[i].epoch))
            return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
        (*ops)++;
        if (a != A_UNSAFE) {
            open = KINDS[k].op;
            open_row = r;
        }
    }
    if (open)
        return fail_row(err, TOKENRING_E_UNSUPPORTED, open_row,
                        "still in progress (no FINISH_%s in the log): read the tables again "
                        "when it has finished",
                        open);
    return keyspaces_created(c, order, nlog, keyspaces, err);
}

/* Every node the directory gives tokens has them in the history's ring, and no other
 * node is in it. */
static int same_moment(const conv *c, const tokenring_history *h, tokenring_error *err)
{
    const tokenring_ring *ring = tokenring_history_ring(h);
    for (size_t i = 0; i < c->ndirs; i++) {
        const tokenring_metadata_node_row *d = &c->dir[c->dirs[i].row];
        sbuf name = { 0 };
        add_address(&name, d);
        if (name.failed)
            return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
        uint32_t v = UINT32_MAX;
        if (ring)
            tokenring_ring_find_node(&v, ring, name.s);
        tokenring_node_info info;
        memset(&info, 0, sizeof info);
        if (v != UINT32_MAX)
            tokenring_ring_node(&info, ring, v);
        bool same = info.token_count == d->token_count;
        for (size_t t = 0; same && t < d->token_count; t++) {
            int64_t x = 0;
            same = false;
            if (!parse_cstr_i64(d->tokens[t], &x))
                break; /* checked when the rows were read; not the same if it were not */
            for (size_t u = 0; u < info.token_count && !same; u++)
                same = info.tokens[u] == x;
        }
        if (!same) {
            int rc = tr_fail(err, TOKENRING_E_INVAL,
                             "cluster_metadata_directory node_id %lld (%s) has %zu tokens, "
                             "the log's replay gives it %zu%s: the two tables were read at "
                             "different moments",
                             (long long)c->dirs[i].id, name.s, d->token_count,
                             (size_t)info.token_count,
                             info.token_count == d->token_count ? " others" : "");
            tr_free(name.s);
            return rc;
        }
        tr_free(name.s);
    }
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_history_from_metadata(tokenring_history **out,
                                                  const tokenring_metadata_log_row *log,
                                                  size_t log_count,
                                                  const tokenring_metadata_node_row *directory,
                                                  size_t directory_count,
                                                  const tokenring_router *keyspaces,
                                                  tokenring_limits *limits,
                                                  tokenring_error *err)
{
    if (limits)
        limits->estimate = 0;
    if (!out || (!log && log_count) || (!directory && directory_count))
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL",
                       !out ? "out" : !log && log_count ? "log" : "directory");
    conv c;
    memset(&c, 0, sizeof c);
    c.log = log;
    c.dir = directory;
    c.dirs = tr_malloc((directory_count ? directory_count : 1) * sizeof *c.dirs);
    log_ix *order = tr_malloc((log_count ? log_count : 1) * sizeof *order);
    int rc = c.dirs && order ? TOKENRING_OK : tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    size_t ops = 0;
    if (rc == TOKENRING_OK)
        rc = directory_lines(&c, directory_count, err);
    if (rc == TOKENRING_OK)
        rc = log_lines(&c, order, log_count, keyspaces, &ops, err);
    tokenring_history *h = NULL;
    if (rc == TOKENRING_OK) {
        /* the replay of the history the rows make: its estimate, budget, progress and
         * cancel are the caller's (the rows' conversion is linear) */
        tokenring_error e2;
        memset(&e2, 0, sizeof e2);
        rc = tokenring_history_replay_limited(&h, c.text.s ? c.text.s : "", c.text.n, limits,
                                              &e2);
        if (rc == TOKENRING_E_NOMEM) {
            rc = tr_fail(err, rc, "out of memory");
        } else if (rc == TOKENRING_E_BUDGET || rc == TOKENRING_E_CANCELLED) {
            rc = tr_fail(err, rc, "replaying the cluster's metadata log: %s", e2.message);
        } else if (rc != TOKENRING_OK) {
            size_t l = e2.line ? e2.line - 1 : 0;
            bool dir = l < c.nlines && strcmp(c.line_what[l], "directory") == 0;
            rc = tr_fail(err, rc, "%s %lld: %s", dir ? "cluster_metadata_directory node_id"
                                                     : "cluster_metadata_log epoch",
                         l < c.nlines ? (long long)c.line_key[l] : 0LL, e2.message);
        }
    }
    if (rc == TOKENRING_OK)
        rc = same_moment(&c, h, err);
    tr_free(c.text.s);
    tr_free(c.line_what);
    tr_free(c.line_key);
    tr_free(c.dirs);
    tr_free(order);
    if (rc != TOKENRING_OK) {
        tokenring_history_free(h);
        return rc;
    }
    *out = h;
    return TOKENRING_OK;
}
