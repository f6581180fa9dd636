/* SPDX-License-Identifier: Apache-2.0 */
/* Replication descriptions: SimpleStrategy and NetworkTopologyStrategy, with their text
 * forms (a CQL replication map, "Class:options", or bare options). */
#include <stdio.h>
#include <string.h>

#include "ring_internal.h"

static int check_factors(tokenring_error *err, uint32_t column, const char *what, int64_t rf,
                         int64_t transient)
{
    if (rf < 0 || rf > TOKENRING_MAX_REPLICATION_FACTOR)
        return tr_fail_at(err, TOKENRING_E_RANGE, 0, column,
                          "%s: replication factor %lld is outside 0..%d", what, (long long)rf,
                          TOKENRING_MAX_REPLICATION_FACTOR);
    if (transient < 0)
        return tr_fail_at(err, TOKENRING_E_RANGE, 0, column,
                          "%s: transient replica count %lld is negative", what,
                          (long long)transient);
    if (rf == 0 && transient != 0)
        return tr_fail_at(err, TOKENRING_E_RANGE, 0, column,
                          "%s: transient replicas (%lld) with replication factor 0", what,
                          (long long)transient);
    if (rf > 0 && transient >= rf)
        return tr_fail_at(err, TOKENRING_E_RANGE, 0, column,
                          "%s: %lld transient replicas out of %lld leaves no full replica", what,
                          (long long)transient, (long long)rf);
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_replication_simple(tokenring_replication **out, int32_t rf,
                                               int32_t transient, tokenring_error *err)
{
    if (out == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "out is NULL");
    int rc = check_factors(err, 0, "SimpleStrategy", rf, transient);
    if (rc != TOKENRING_OK)
        return rc;
    tokenring_replication *r = tr_calloc(1, sizeof *r);
    if (!r)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    r->strategy = TOKENRING_SIMPLE;
    r->rf = rf;
    r->transient = transient;
    *out = r;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_replication_network(tokenring_replication **out)
{
    if (out == NULL)
        return TOKENRING_E_INVAL;
    tokenring_replication *r = tr_calloc(1, sizeof *r);
    if (!r)
        return TOKENRING_E_NOMEM;
    r->strategy = TOKENRING_NETWORK_TOPOLOGY;
    *out = r;
    return TOKENRING_OK;
}

TOKENRING_API void tokenring_replication_free(tokenring_replication *replication)
{
    if (!replication)
        return;
    for (size_t i = 0; i < replication->dc_count; i++)
        tr_free(replication->dcs[i].name);
    tr_free(replication->dcs);
    tr_free(replication);
}

static int set_dc_at(tokenring_replication *r, const char *dc, int32_t rf, int32_t transient,
                     uint32_t column, tokenring_error *err)
{
    if (r == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "replication is NULL");
    if (r->strategy != TOKENRING_NETWORK_TOPOLOGY)
        return tr_fail(err, TOKENRING_E_INVAL,
                       "datacenter factors need a NetworkTopologyStrategy description");
    int rc = tr_check_name(err, "datacenter", dc);
    if (rc != TOKENRING_OK) {
        if (err)
            err->column = column;
        return rc;
    }
    /* A CQL replication map keys datacenters next to 'class' (and SimpleStrategy's
     * 'replication_factor'): a datacenter so named could not be written back as a map. */
    if (strcmp(dc, "class") == 0 || strcmp(dc, "replication_factor") == 0) {
        rc = tr_fail(err, TOKENRING_E_INVAL,
                     "'%s' cannot name a datacenter: it is a replication option", dc);
        if (err)
            err->column = column;
        return rc;
    }
    char what[300];
    snprintf(what, sizeof what, "datacenter '%s'", dc);
    if ((rc = check_factors(err, column, what, rf, transient)) != TOKENRING_OK)
        return rc;
    size_t lo = 0, hi = r->dc_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(r->dcs[mid].name, dc);
        if (c == 0) {
            r->dcs[mid].rf = rf;
            r->dcs[mid].transient = transient;
            return TOKENRING_OK;
        }
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    char *name = tr_strdup(dc);
    if (!name)
        return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
    if (r->dc_count == r->dc_cap) {
        size_t cap = r->dc_cap ? r->dc_cap * 2 : 4;
        tr_repl_dc *dcs = tr_reallocarray(r->dcs, cap, sizeof *dcs);
        if (!dcs) {
            tr_free(name);
            return tr_fail(err, TOKENRING_E_NOMEM, "out of memory");
        }
        r->dcs = dcs;
        r->dc_cap = cap;
    }
    memmove(r->dcs + lo + 1, r->dcs + lo, (r->dc_count - lo) * sizeof *r->dcs);
    r->dcs[lo] = (tr_repl_dc){ name, rf, transient };
    r->dc_count++;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_replication_set_dc(tokenring_replication *replication,
                                               const char *datacenter, int32_t rf,
                                               int32_t transient, tokenring_error *err)
{
    return set_dc_at(replication, datacenter, rf, transient, 0, err);
}

TOKENRING_API int tokenring_replication_strategy(const tokenring_replication *replication)
{
    return replication ? replication->strategy : 0;
}

TOKENRING_API size_t tokenring_replication_dc_count(const tokenring_replication *replication)
{
    return replication ? replication->dc_count : 0;
}

TOKENRING_API int tokenring_replication_get(const char **dc_out, int32_t *rf_out,
                                            int32_t *transient_out,
                                            const tokenring_replication *replication,
                                            size_t index)
{
    if (replication == NULL)
        return TOKENRING_E_INVAL;
    const char *dc = NULL;
    int32_t rf, tr;
    if (replication->strategy == TOKENRING_SIMPLE) {
        if (index != 0)
            return TOKENRING_E_RANGE;
        rf = replication->rf;
        tr = replication->transient;
    } else {
        if (index >= replication->dc_count)
            return TOKENRING_E_RANGE;
        dc = replication->dcs[index].name;
        rf = replication->dcs[index].rf;
        tr = replication->dcs[index].transient;
    }
    if (dc_out)
        *dc_out = dc;
    if (rf_out)
        *rf_out = rf;
    if (transient_out)
        *transient_out = tr;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_replication_dc_factor(int32_t *rf_out, int32_t *transient_out,
                                                  const tokenring_replication *replication,
                                                  const char *datacenter)
{
    if (rf_out == NULL || replication == NULL || datacenter == NULL)
        return TOKENRING_E_INVAL;
    int32_t rf = 0, tr = 0;
    if (replication->strategy == TOKENRING_SIMPLE) {
        rf = replication->rf;
        tr = replication->transient;
    } else {
        for (size_t i = 0; i < replication->dc_count; i++)
            if (strcmp(replication->dcs[i].name, datacenter) == 0) {
                rf = replication->dcs[i].rf;
                tr = replication->dcs[i].transient;
            }
    }
    *rf_out = rf;
    if (transient_out)
        *transient_out = tr;
    return TOKENRING_OK;
}

/* ------------------------------------------------------------------ format */

typedef struct {
    char *out;
    size_t cap;
    size_t len;
} sbuf;

static void put(sbuf *b, const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++, b->len++)
        if (b->len + 1 < b->cap)
            b->out[b->len] = s[i];
}

static void puts_(sbuf *b, const char *s)
{
    put(b, s, strlen(s));
}

/* A CQL string literal: single quotes, a quote inside doubled. */
static void put_quoted(sbuf *b, const char *s)
{
    put(b, "'", 1);
    for (; *s; s++) {
        if (*s == '\'')
            put(b, "'", 1);
        put(b, s, 1);
    }
    put(b, "'", 1);
}

static void put_factor(sbuf *b, int32_t rf, int32_t transient)
{
    char num[32];
    if (transient > 0)
        snprintf(num, sizeof num, "'%d/%d'", (int)rf, (int)transient);
    else
        snprintf(num, sizeof num, "'%d'", (int)rf);
    puts_(b, num);
}

TOKENRING_API int tokenring_replication_format(char *out, size_t cap, size_t *len_out,
                                               const tokenring_replication *replication)
{
    if (replication == NULL || (out == NULL && cap > 0))
        return TOKENRING_E_INVAL;
    sbuf b = { out, cap, 0 };
    if (replication->strategy == TOKENRING_SIMPLE) {
        puts_(&b, "{'class': 'SimpleStrategy', 'replication_factor': ");
        put_factor(&b, replication->rf, replication->transient);
    } else {
        puts_(&b, "{'class': 'NetworkTopologyStrategy'");
        for (size_t i = 0; i < replication->dc_count; i++) {
            puts_(&b, ", ");
            put_quoted(&b, replication->dcs[i].name);
            puts_(&b, ": ");
            put_factor(&b, replication->dcs[i].rf, replication->dcs[i].transient);
        }
    }
    puts_(&b, "}");
    if (cap > 0)
        out[b.len < cap ? b.len : cap - 1] = '\0';
    if (len_out)
        *len_out = b.len;
    return b.len < cap ? TOKENRING_OK : TOKENRING_E_BUFSIZE;
}

/* ------------------------------------------------------------------- parse */

typedef struct {
    const char *s;
    size_t n;
    size_t i;
    tokenring_error *err;
} cursor;

static uint32_t col(size_t i)
{
    return i >= UINT32_MAX ? UINT32_MAX : (uint32_t)(i + 1);
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static void skip_ws(cursor *c)
{
    while (c->i < c->n && is_space(c->s[c->i]))
        c->i++;
}

/* Parses "R" or "R/T" in s[from, to) (surrounding spaces allowed). */
static int parse_factor(cursor *c, size_t from, size_t to, const char *what, int32_t *rf,
                        int32_t *transient)
{
    size_t i = from;
    while (i < to && is_space(c->s[i]))
        i++;
    while (to > i && is_space(c->s[to - 1]))
        to--;
    int64_t v[2] = { 0, 0 };
    size_t start = i;
    for (int k = 0; k < 2; k++) {
        size_t d0 = i;
        while (i < to && c->s[i] >= '0' && c->s[i] <= '9') {
            if (v[k] > TOKENRING_MAX_REPLICATION_FACTOR)
                return tr_fail_at(c->err, TOKENRING_E_RANGE, 1, col(d0),
                                  "%s: replication factor is above %d", what,
                                  TOKENRING_MAX_REPLICATION_FACTOR);
            v[k] = v[k] * 10 + (c->s[i] - '0');
            i++;
        }
        if (i == d0)
            return tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(i),
                              "%s: expected a replication factor such as 3 or 3/1", what);
        if (k == 0 && i < to && c->s[i] == '/') {
            i++;
            continue;
        }
        if (k == 0)
            break;
    }
    if (i != to)
        return tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(i),
                          "%s: unexpected character after the replication factor", what);
    int rc = check_factors(c->err, col(start), what, v[0], v[1]);
    if (rc != TOKENRING_OK) {
        if (c->err)
            c->err->line = 1;
        return rc;
    }
    *rf = (int32_t)v[0];
    *transient = (int32_t)v[1];
    return TOKENRING_OK;
}

static bool match_class(const char *s, size_t n, const char *name)
{
    static const char prefix[] = "org.apache.cassandra.locator.";
    size_t p = sizeof prefix - 1, l = strlen(name);
    if (n == l + p && memcmp(s, prefix, p) == 0)
        return memcmp(s + p, name, l) == 0;
    return n == l && memcmp(s, name, l) == 0;
}

/* LocalStrategy, EverywhereStrategy, MetaStrategy (short or with the locator package):
 * valid classes that place nothing on the token ring. */
static bool ringless(const char *s, size_t n)
{
    return match_class(s, n, "LocalStrategy") || match_class(s, n, "EverywhereStrategy") ||
           match_class(s, n, "MetaStrategy");
}

/* Class name in s[from, to) -> strategy, or 0. */
static int class_of(const char *s, size_t from, size_t to)
{
    if (match_class(s + from, to - from, "SimpleStrategy"))
        return TOKENRING_SIMPLE;
    if (match_class(s + from, to - from, "NetworkTopologyStrategy"))
        return TOKENRING_NETWORK_TOPOLOGY;
    return 0;
}

static int new_of(tokenring_replication **r, int strategy, tokenring_error *err)
{
    int rc = strategy == TOKENRING_SIMPLE ? tokenring_replication_simple(r, 0, 0, err)
                                          : tokenring_replication_network(r);
    if (rc != TOKENRING_OK)
        return tr_fail(err, rc, "out of memory");
    return TOKENRING_OK;
}

static bool has_dc(const tokenring_replication *r, const char *name)
{
    for (size_t i = 0; i < r->dc_count; i++)
        if (strcmp(r->dcs[i].name, name) == 0)
            return true;
    return false;
}

/* "dc1=3,dc2=2/1" in s[from, n): adds each to r. */
static int parse_dc_list(cursor *c, size_t from, tokenring_replication *r)
{
    size_t i = from;
    size_t end = c->n;
    while (end > i && is_space(c->s[end - 1]))
        end--;
    while (i < end && is_space(c->s[i]))
        i++;
    if (i == end)
        return TOKENRING_OK; /* no datacenters */
    for (;;) {
        size_t item = i;
        while (i < end && c->s[i] != ',')
            i++;
        size_t item_end = i;
        size_t eq = item;
        while (eq < item_end && c->s[eq] != '=')
            eq++;
        if (eq == item_end)
            return tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(item),
                              "expected datacenter=factor");
        size_t a = item, b = eq;
        while (a < b && is_space(c->s[a]))
            a++;
        while (b > a && is_space(c->s[b - 1]))
            b--;
        if (a == b)
            return tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(a),
                              "expected a datacenter name before '='");
        char *name = tr_strndup(c->s + a, b - a);
        if (!name)
            return tr_fail(c->err, TOKENRING_E_NOMEM, "out of memory");
        if (strlen(name) != b - a) {
            tr_free(name);
            return tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(a),
                              "NUL byte in a datacenter name");
        }
        int rc = TOKENRING_OK;
        char what[300];
        snprintf(what, sizeof what, "datacenter '%s'", name);
        int32_t rf = 0, tr = 0;
        if (has_dc(r, name))
            rc = tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(a),
                            "datacenter '%s' is given twice", name);
        if (rc == TOKENRING_OK)
            rc = parse_factor(c, eq + 1, item_end, what, &rf, &tr);
        if (rc == TOKENRING_OK)
            rc = set_dc_at(r, name, rf, tr, col(a), c->err);
        if (rc != TOKENRING_OK && c->err)
            c->err->line = 1;
        tr_free(name);
        if (rc != TOKENRING_OK)
            return rc;
        if (i == end)
            return TOKENRING_OK;
        i++; /* ',' */
        if (i == end)
            return tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(i),
                              "expected datacenter=factor after ','");
    }
}

/* A quoted CQL string ('...' with '' for a quote, or "..." with "") or a bare number.
 * Returns the unquoted text (allocated). */
static int parse_string(cursor *c, char **out, bool allow_number)
{
    skip_ws(c);
    if (c->i >= c->n)
        return tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(c->i), "unexpected end of text");
    char q = c->s[c->i];
    if (q != '\'' && q != '"') {
        size_t a = c->i;
        while (allow_number && c->i < c->n && c->s[c->i] >= '0' && c->s[c->i] <= '9')
            c->i++;
        if (c->i == a)
            return tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(a), "expected a quoted string");
        *out = tr_strndup(c->s + a, c->i - a);
        return *out ? TOKENRING_OK : tr_fail(c->err, TOKENRING_E_NOMEM, "out of memory");
    }
    size_t open = c->i++;
    size_t len = 0;
    char *buf = tr_malloc(c->n - c->i + 1);
    if (!buf)
        return tr_fail(c->err, TOKENRING_E_NOMEM, "out of memory");
    for (;;) {
        if (c->i >= c->n) {
            tr_free(buf);
            return tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(open),
                              "string is not closed");
        }
        char ch = c->s[c->i++];
        if (ch == q) {
            if (c->i < c->n && c->s[c->i] == q) {
                buf[len++] = q;
                c->i++;
                continue;
            }
            break;
        }
        if (ch == '\0') {
            tr_free(buf);
            return tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(c->i - 1), "NUL byte in a string");
        }
        buf[len++] = ch;
    }
    buf[len] = '\0';
    *out = buf;
    return TOKENRING_OK;
}

typedef struct {
    char *key;
    char *value;
    size_t key_at;
    size_t value_at; /* position of the value's first byte in the text */
} map_entry;

static int parse_map(cursor *c, tokenring_replication **out)
{
    map_entry *e = NULL;
    size_t count = 0, cap = 0;
    tokenring_replication *r = NULL;
    int rc = TOKENRING_OK;
    c->i++; /* '{' */
    skip_ws(c);
    if (c->i < c->n && c->s[c->i] == '}') {
        c->i++;
    } else {
        for (;;) {
            if (count == cap) {
                size_t ncap = cap ? cap * 2 : 8;
                map_entry *ne = tr_reallocarray(e, ncap, sizeof *ne);
                if (!ne) {
                    rc = tr_fail(c->err, TOKENRING_E_NOMEM, "out of memory");
                    goto done;
                }
                e = ne;
                cap = ncap;
            }
            map_entry *m = &e[count];
            m->key = m->value = NULL;
            skip_ws(c);
            m->key_at = c->i;
            if ((rc = parse_string(c, &m->key, false)) != TOKENRING_OK)
                goto done;
            count++;
            skip_ws(c);
            if (c->i >= c->n || c->s[c->i] != ':') {
                rc = tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(c->i),
                                "expected ':' after the key '%s'", m->key);
                goto done;
            }
            c->i++;
            skip_ws(c);
            m->value_at = c->i;
            if ((rc = parse_string(c, &m->value, true)) != TOKENRING_OK)
                goto done;
            for (size_t k = 0; k + 1 < count; k++) {
                if (strcmp(e[k].key, m->key) == 0) {
                    rc = tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(m->key_at),
                                    "key '%s' is given twice", m->key);
                    goto done;
                }
            }
            skip_ws(c);
            if (c->i < c->n && c->s[c->i] == ',') {
                c->i++;
                continue;
            }
            if (c->i < c->n && c->s[c->i] == '}') {
                c->i++;
                break;
            }
            rc = tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(c->i), "expected ',' or '}'");
            goto done;
        }
    }
    skip_ws(c);
    if (c->i != c->n) {
        rc = tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(c->i), "unexpected text after '}'");
        goto done;
    }
    const map_entry *cls = NULL;
    for (size_t k = 0; k < count; k++)
        if (strcmp(e[k].key, "class") == 0)
            cls = &e[k];
    if (!cls) {
        rc = tr_fail_at(c->err, TOKENRING_E_PARSE, 1, 1, "the replication map has no 'class'");
        goto done;
    }
    int strategy = class_of(cls->value, 0, strlen(cls->value));
    if (strategy == 0 && ringless(cls->value, strlen(cls->value))) {
        rc = tr_fail_at(c->err, TOKENRING_E_NOT_PLACED, 1, col(cls->value_at),
                        "replication class '%s' is valid but places nothing on the token "
                        "ring (a system keyspace's)", cls->value);
        goto done;
    }
    if (strategy == 0) {
        rc = tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(cls->value_at),
                        "unknown replication class '%s' (expected SimpleStrategy or "
                        "NetworkTopologyStrategy)", cls->value);
        goto done;
    }
    if ((rc = new_of(&r, strategy, c->err)) != TOKENRING_OK)
        goto done;
    bool have_rf = false;
    for (size_t k = 0; k < count && rc == TOKENRING_OK; k++) {
        const map_entry *m = &e[k];
        if (m == cls)
            continue;
        /* Parse the value in place: positions refer to the original text when the value
         * was bare, or to its quoted form (quotes doubled inside are rare in numbers). */
        cursor vc = { m->value, strlen(m->value), 0, c->err };
        int32_t rf = 0, tr = 0;
        size_t base = m->value_at + (c->s[m->value_at] == '\'' || c->s[m->value_at] == '"');
        const char *what = "SimpleStrategy";
        char dcwhat[300];
        if (strcmp(m->key, "replication_factor") != 0 && strategy == TOKENRING_SIMPLE) {
            rc = tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(m->key_at),
                            "unrecognized option '%s' for SimpleStrategy", m->key);
            break;
        }
        if (strcmp(m->key, "replication_factor") == 0 && strategy != TOKENRING_SIMPLE) {
            rc = tr_fail_at(c->err, TOKENRING_E_PARSE, 1, col(m->key_at),
                            "'replication_factor' in a NetworkTopologyStrategy map "
                            "depends on the cluster's datacenters: name each datacenter");
            break;
        }
        if (strategy != TOKENRING_SIMPLE) {
            snprintf(dcwhat, sizeof dcwhat, "datacenter '%s'", m->key);
            what = dcwhat;
        }
        rc = parse_factor(&vc, 0, vc.n, what, &rf, &tr);
        if (rc != TOKENRING_OK) {
            /* Columns of the value string -> columns of the text. */
            if (c->err && c->err->column != 0)
                c->err->column = col(base + c->err->column - 1);
            break;
        }
        if (strategy == TOKENRING_SIMPLE) {
            r->rf = rf;
            r->transient = tr;
            have_rf = true;
        } else if ((rc = set_dc_at(r, m->key, rf, tr, col(m->key_at), c->err)) != 0) {
            if (c->err)
                c->err->line = 1;
            break;
        }
    }
    if (rc == TOKENRING_OK && strategy == TOKENRING_SIMPLE && !have_rf)
        rc = tr_fail_at(c->err, TOKENRING_E_PARSE, 1, 1,
                        "SimpleStrategy needs a 'replication_factor'");
done:
    for (size_t k = 0; k < count; k++) {
        tr_free(e[k].key);
        tr_free(e[k].value);
    }
    tr_free(e);
    if (rc != TOKENRING_OK) {
        tokenring_replication_free(r);
        return rc;
    }
    *out = r;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_replication_parse(tokenring_replication **out, const char *text,
                                              size_t text_len, tokenring_error *err)
{
    if (out == NULL || (text == NULL && text_len > 0))
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL", out ? "text" : "out");
    cursor c = { text ? text : "", text_len, 0, err };
    skip_ws(&c);
    if (c.i == c.n)
        return tr_fail_at(err, TOKENRING_E_PARSE, 1, col(c.i), "empty replication description");
    if (c.s[c.i] == '{')
        return parse_map(&c, out);

    tokenring_replication *r = NULL;
    int rc;
    size_t start = c.i;
    size_t colon = start;
    while (colon < c.n && c.s[colon] != ':' && c.s[colon] != '=' && c.s[colon] != ',')
        colon++;
    int strategy = 0;
    size_t body = start;
    if (colon < c.n && c.s[colon] == ':') {
        size_t b = colon;
        while (b > start && is_space(c.s[b - 1]))
            b--;
        strategy = class_of(c.s, start, b);
        if (strategy == 0 && ringless(c.s + start, b - start))
            return tr_fail_at(err, TOKENRING_E_NOT_PLACED, 1, col(start),
                              "replication class '%.*s' is valid but places nothing on the "
                              "token ring (a system keyspace's)",
                              (int)(b - start > 200 ? 200 : b - start), c.s + start);
        if (strategy == 0)
            return tr_fail_at(err, TOKENRING_E_PARSE, 1, col(start),
                              "unknown replication class '%.*s' (expected SimpleStrategy or "
                              "NetworkTopologyStrategy)", (int)(b - start > 200 ? 200 : b - start),
                              c.s + start);
        body = colon + 1;
    } else {
        /* A class name without its ':' ("NetworkTopologyStrategy dc1=3") is no option. */
        size_t w = start;
        while (w < c.n && !is_space(c.s[w]) && c.s[w] != '=' && c.s[w] != ',')
            w++;
        if (class_of(c.s, start, w) != 0)
            return tr_fail_at(err, TOKENRING_E_PARSE, 1, col(w),
                              "expected ':' and the options after the class %.*s (e.g. "
                              "NetworkTopologyStrategy:dc1=3,dc2=3 or SimpleStrategy:3)",
                              (int)(w - start), c.s + start);
        /* Bare options: "3" or "3/1" is SimpleStrategy, "dc=..." NetworkTopologyStrategy. */
        strategy = memchr(c.s + start, '=', c.n - start) ? TOKENRING_NETWORK_TOPOLOGY
                                                         : TOKENRING_SIMPLE;
    }
    if ((rc = new_of(&r, strategy, err)) != TOKENRING_OK)
        return rc;
    if (strategy == TOKENRING_SIMPLE) {
        int32_t rf = 0, tr = 0;
        rc = parse_factor(&c, body, c.n, "SimpleStrategy", &rf, &tr);
        r->rf = rf;
        r->transient = tr;
    } else {
        rc = parse_dc_list(&c, body, r);
    }
    if (rc != TOKENRING_OK) {
        tokenring_replication_free(r);
        return rc;
    }
    *out = r;
    return TOKENRING_OK;
}

tokenring_replication *tr_replication_clone(const tokenring_replication *r)
{
    tokenring_replication *c = tr_calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->strategy = r->strategy;
    c->rules = r->rules;
    c->rf = r->rf;
    c->transient = r->transient;
    if (r->dc_count) {
        c->dcs = tr_calloc(r->dc_count, sizeof *c->dcs);
        if (!c->dcs) {
            tr_free(c);
            return NULL;
        }
        c->dc_cap = r->dc_count;
        for (size_t i = 0; i < r->dc_count; i++) {
            c->dcs[i] = r->dcs[i];
            c->dcs[i].name = tr_strdup(r->dcs[i].name);
            if (!c->dcs[i].name) {
                c->dc_count = i;
                tokenring_replication_free(c);
                return NULL;
            }
        }
        c->dc_count = r->dc_count;
    }
    return c;
}

/* ------------------------------------------------------------------- rules */

TOKENRING_API int tokenring_cassandra_rules_for_version(int *rules_out, const char *version,
                                                        tokenring_error *err)
{
    if (rules_out == NULL || version == NULL)
        return tr_fail(err, TOKENRING_E_INVAL, "%s is NULL", !rules_out ? "rules_out" : "version");
    long part[3] = { 0, 0, 0 };
    int parts = 0;
    const char *p = version;
    while (parts < 3) {
        if (*p < '0' || *p > '9')
            return tr_fail_at(err, TOKENRING_E_PARSE, 1, (uint32_t)(p - version) + 1,
                              "Cassandra version '%.40s': expected a digit", version);
        long v = 0;
        while (*p >= '0' && *p <= '9') {
            if (v > 99999)
                return tr_fail_at(err, TOKENRING_E_RANGE, 1, (uint32_t)(p - version) + 1,
                                  "Cassandra version '%.40s': number too large", version);
            v = v * 10 + (*p++ - '0');
        }
        part[parts++] = v;
        if (*p != '.')
            break;
        p++;
    }
    if (parts < 2 || (*p != '\0' && *p != '-'))
        return tr_fail_at(err, TOKENRING_E_PARSE, 1, (uint32_t)(p - version) + 1,
                          "Cassandra version '%.40s': expected MAJOR.MINOR[.PATCH][-SUFFIX]",
                          version);
    if (part[0] < 1 || part[0] > 99)
        return tr_fail(err, TOKENRING_E_RANGE,
                       "Cassandra version '%.40s': major version %ld is outside 1..99", version,
                       part[0]);
    /* the release lines the library models; a line it does not know may place replicas
     * otherwise (3.2 changed the order, 6.0 made it follow the cluster's history) */
    static const struct {
        int major, minor_min, minor_max;
    } known[] = { { 1, 2, 2 }, { 2, 0, 2 }, { 3, 0, 11 }, { 4, 0, 1 }, { 5, 0, 0 }, { 6, 0, 0 } };
    bool found = false;
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        found |= part[0] == known[i].major && part[1] >= known[i].minor_min &&
                 part[1] <= known[i].minor_max;
    if (!found)
        return tr_fail(err, TOKENRING_E_RANGE,
                       "Cassandra version '%.40s': unknown release line %ld.%ld (the library "
                       "knows 1.2, 2.0 to 2.2, 3.0 to 3.11, 4.0, 4.1, 5.0 and 6.0)",
                       version, part[0], part[1]);
    /* 6.0 places the same sets with the same strategies as 3.2 to 5.0; its order follows
     * the cluster's history (tokenring_history_replay), which no rules value can say */
    *rules_out = part[0] < 3 || (part[0] == 3 && part[1] < 2) ? TOKENRING_RULES_3_0
                                                              : TOKENRING_RULES_3_2;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_replication_set_rules(tokenring_replication *replication, int rules)
{
    if (replication == NULL || (rules != TOKENRING_RULES_3_0 && rules != TOKENRING_RULES_3_2))
        return TOKENRING_E_INVAL;
    replication->rules = rules;
    return TOKENRING_OK;
}

TOKENRING_API int tokenring_replication_rules(const tokenring_replication *replication)
{
    if (replication == NULL)
        return 0;
    return replication->rules ? replication->rules : TOKENRING_RULES_LATEST;
}
