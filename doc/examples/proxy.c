/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A token-aware proxy's routing core on libtokenring's router (router.h).
 *
 * The control thread builds a router from the rows a driver reads (system.local,
 * system.peers_v2, system_schema.keyspaces), tags every node with the proxy's own host
 * object, and publishes it through a holder. Worker threads route requests: a bigint key
 * of shop.orders and a composite (text, int) key of users.sessions, hashed from its parts
 * without packing; each takes the first up replica of the local datacenter and counts the
 * request on that host, found through the tag, without a lookup, a lock or an allocation.
 * Meanwhile the control thread applies cluster events (a node down and up again, a node
 * joining and leaving, a keyspace altered) and swaps each new snapshot in.
 *
 * Build:  cc proxy.c $(pkg-config --cflags --libs tokenring) -pthread -o proxy
 */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <tokenring/tokenring.h>

#define NODES 6
#define VNODES 16
#define WORKERS 3

/* The proxy's own host object: what a tag points to. */
typedef struct host {
    char name[32];
    atomic_long requests;
} host;

static host hosts[NODES + 1];
static char token_text[NODES + 1][VNODES][24];
static const char *tokens[NODES + 1][VNODES];
static tokenring_router_holder *holder;
static atomic_bool stop;
static atomic_int started; /* workers that have routed a request, or given up */
static atomic_long wrong; /* a request sent to a host that is not a replica */

static int fail(const char *what, int rc, const tokenring_error *err)
{
    fprintf(stderr, "%s: %s: %s\n", what, tokenring_status_name(rc),
            err && err->message[0] ? err->message : tokenring_strerror(rc));
    return 1;
}

/* Deterministic tokens (splitmix64), as text: how system.peers_v2 gives them. */
static void make_tokens(void)
{
    uint64_t s = 2026;
    for (int i = 0; i <= NODES; i++)
        for (int k = 0; k < VNODES; k++) {
            uint64_t z = (s += 0x9E3779B97F4A7C15ULL);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
            snprintf(token_text[i][k], sizeof token_text[i][k], "%lld",
                     (long long)(int64_t)(z ^ (z >> 31)));
            tokens[i][k] = token_text[i][k];
        }
}

/* One request: the first up replica of the local datacenter, else the first up one. */
static host *pick(const tokenring_route *r)
{
    uint32_t i = r->local_up_count > 0 ? 0 : r->local_count;
    if (i >= r->count)
        return NULL;
    host *h = (host *)(uintptr_t)r->tags[r->local[i]];
    for (uint32_t k = 0; k < r->count; k++) /* the tag is one of the replicas' */
        if (r->local[i] == r->replicas[k])
            return h;
    atomic_fetch_add(&wrong, 1);
    return h;
}

static void *worker(void *arg)
{
    tokenring_router_reader *reader = NULL;
    (void)arg;
    if (tokenring_router_reader_new(&reader, holder) != TOKENRING_OK) {
        atomic_fetch_add(&started, 1);
        return (void *)1; /* main reports it */
    }
    int64_t n = 0;
    while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
        const tokenring_router *router = tokenring_router_acquire(reader);
        tokenring_route r;
        /* shop.orders, partition key (order_id bigint) */
        uint8_t key[8];
        tokenring_encode_bigint(key, n);
        if (tokenring_router_route(&r, router, "shop", key, sizeof key,
                                   TOKENRING_ROUTE_UP_FIRST) == TOKENRING_OK) {
            host *h = pick(&r);
            if (h)
                atomic_fetch_add_explicit(&h->requests, 1, memory_order_relaxed);
        }
        /* users.sessions, partition key (user text, day int): hashed from the parts */
        char user[16];
        uint8_t day[4];
        int len = snprintf(user, sizeof user, "user%lld", (long long)(n % 1000));
        tokenring_encode_int(day, (int32_t)(n % 31));
        const void *parts[2] = { user, day };
        size_t lens[2] = { (size_t)len, sizeof day };
        if (tokenring_router_route_parts(&r, router, "users", parts, lens, 2,
                                         TOKENRING_ROUTE_UP_FIRST) == TOKENRING_OK) {
            host *h = pick(&r);
            if (h)
                atomic_fetch_add_explicit(&h->requests, 1, memory_order_relaxed);
        }
        tokenring_router_release(reader);
        if (n++ == 0)
            atomic_fetch_add(&started, 1); /* this worker has routed */
    }
    tokenring_router_reader_free(reader);
    return NULL;
}

/* Applies one event to the published snapshot and swaps the result in. */
static int apply(const tokenring_router_event *ev)
{
    tokenring_router *cur = tokenring_router_holder_current(holder), *next = NULL;
    tokenring_error err;
    int rc = tokenring_router_apply(&next, cur, ev, &err);
    tokenring_router_free(cur);
    if (rc != TOKENRING_OK)
        return fail("event", rc, &err);
    rc = tokenring_router_holder_swap(holder, next);
    tokenring_router_free(next);
    return rc == TOKENRING_OK ? 0 : fail("swap", rc, NULL);
}

int main(void)
{
    make_tokens();
    tokenring_error err;
    tokenring_router_builder *b = NULL;
    int rc = tokenring_router_builder_new(&b, "dc1", &err);
    if (rc != TOKENRING_OK)
        return fail("builder", rc, &err);
    /* The rows a driver reads, as column values. */
    for (int i = 0; i < NODES; i++) {
        snprintf(hosts[i].name, sizeof hosts[i].name, "10.0.%d.%d", i < 3 ? 1 : 2, i + 1);
        char rack[8];
        snprintf(rack, sizeof rack, "rack%d", i % 3 + 1);
        const char *dc = i < 3 ? "dc1" : "dc2";
        rc = i == 0 ? tokenring_router_builder_add_local(
                          b, hosts[i].name, dc, rack, NULL,
                          "org.apache.cassandra.dht.Murmur3Partitioner", tokens[i], VNODES, &err)
                    : tokenring_router_builder_add_peer(b, hosts[i].name, dc, rack, NULL,
                                                        tokens[i], VNODES, &err);
        if (rc == TOKENRING_OK)
            rc = tokenring_router_builder_set_node(b, hosts[i].name, (uintptr_t)&hosts[i], 0,
                                                   &err);
        if (rc != TOKENRING_OK)
            return fail("node row", rc, &err);
    }
    static const char *const keys[] = { "class", "dc1", "dc2" };
    static const char *const nts[] = { "org.apache.cassandra.locator.NetworkTopologyStrategy",
                                       "3", "2" };
    static const char *const local_keys[] = { "class" };
    static const char *const local[] = { "org.apache.cassandra.locator.LocalStrategy" };
    if ((rc = tokenring_router_builder_add_keyspace(b, "shop", keys, nts, 3, &err)) != 0 ||
        (rc = tokenring_router_builder_add_keyspace(b, "users", keys, nts, 3, &err)) != 0 ||
        (rc = tokenring_router_builder_add_keyspace(b, "system", local_keys, local, 1, &err)) != 0)
        return fail("keyspace row", rc, &err);
    tokenring_router *router = NULL;
    if ((rc = tokenring_router_build(&router, b, &err)) != TOKENRING_OK)
        return fail("build", rc, &err);
    tokenring_router_builder_free(b);
    if ((rc = tokenring_router_holder_new(&holder, router)) != TOKENRING_OK)
        return fail("holder", rc, NULL);
    tokenring_router_free(router);

    pthread_t th[WORKERS];
    for (int i = 0; i < WORKERS; i++)
        pthread_create(&th[i], NULL, worker, NULL);

    /* The control thread: cluster events while the workers route. */
    snprintf(hosts[NODES].name, sizeof hosts[NODES].name, "10.0.1.7");
    static const char *const nts2[] = { "org.apache.cassandra.locator.NetworkTopologyStrategy",
                                        "2", "2" };
    int events = 0;
    for (int round = 0; round < 40; round++) {
        tokenring_router_event ev;
        memset(&ev, 0, sizeof ev);
        ev.kind = TOKENRING_ROUTER_EVENT_DOWN;
        ev.node = hosts[round % NODES].name;
        if (apply(&ev))
            return 1;
        ev.kind = TOKENRING_ROUTER_EVENT_UP;
        if (apply(&ev))
            return 1;
        memset(&ev, 0, sizeof ev);
        ev.kind = TOKENRING_ROUTER_EVENT_JOINED;
        ev.node = hosts[NODES].name;
        ev.datacenter = "dc1";
        ev.rack = "rack1";
        ev.tokens = tokens[NODES];
        ev.token_count = VNODES;
        ev.tag = (uintptr_t)&hosts[NODES];
        if (apply(&ev))
            return 1;
        memset(&ev, 0, sizeof ev);
        ev.kind = TOKENRING_ROUTER_EVENT_ALTERED;
        ev.keyspace = "users";
        ev.keys = keys;
        ev.values = round % 2 ? nts : nts2;
        ev.count = 3;
        if (apply(&ev))
            return 1;
        memset(&ev, 0, sizeof ev);
        ev.kind = TOKENRING_ROUTER_EVENT_LEFT;
        ev.node = hosts[NODES].name;
        if (apply(&ev))
            return 1;
        events += 5;
    }
    /* stop only once every worker has routed (on a loaded machine a thread may not have
     * run at all while the events were applied) */
    while (atomic_load(&started) < WORKERS)
        sched_yield();
    atomic_store(&stop, true);
    long total = 0;
    for (int i = 0; i < WORKERS; i++) {
        void *res;
        pthread_join(th[i], &res);
        if (res)
            return fail("reader", TOKENRING_E_NOMEM, NULL);
    }
    tokenring_router_holder_free(holder);
    for (int i = 0; i <= NODES; i++) {
        long n = atomic_load(&hosts[i].requests);
        total += n;
        printf("%-10s %s %ld requests\n", hosts[i].name, i < 3 || i == NODES ? "dc1" : "dc2",
               n);
    }
    printf("%d events applied while %d workers routed %ld requests; %ld misrouted\n", events,
           WORKERS, total, atomic_load(&wrong));
    /* every request went to the local datacenter's first up replica */
    return atomic_load(&wrong) == 0 && total > 0 ? 0 : 1;
}
