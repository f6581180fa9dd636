/* SPDX-License-Identifier: Apache-2.0 */
/* Many threads route keys on one placement while another thread builds new rings and
 * placements and swaps them in, using exactly the publication pattern documented in
 * tokenring/ring.h (a reader holds the lock only to take a reference). Run under
 * ThreadSanitizer by scripts/test.sh; in the ordinary suite it checks the answers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tokenring/tokenring.h"

#define READERS 4
#define SWAPS 40
#define NODES 12
#define VNODES 16

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static tokenring_placement *current; /* owned reference, guarded by lock */
static atomic_int done;
static atomic_long lookups;

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Generation g has nodes 0 .. NODES-1 except node g % NODES (one node "leaves" per swap),
 * so every generation differs from the previous one. */
static tokenring_placement *build_generation(int g)
{
    tokenring_topology *t = NULL;
    assert_int_equal(tokenring_topology_new(&t), TOKENRING_OK);
    char name[16], rack[8];
    for (int n = 0; n < NODES; n++) {
        if (n == g % NODES)
            continue;
        int64_t tok[VNODES];
        for (int v = 0; v < VNODES; v++)
            tok[v] = (int64_t)mix((uint64_t)(n * VNODES + v + 1));
        snprintf(name, sizeof name, "node%02d", n);
        snprintf(rack, sizeof rack, "r%d", n % 3);
        assert_int_equal(tokenring_topology_add_node(t, name, "dc1", rack, tok, VNODES, NULL),
                         TOKENRING_OK);
    }
    tokenring_ring *ring = NULL;
    assert_int_equal(tokenring_ring_build(&ring, t, NULL), TOKENRING_OK);
    tokenring_topology_free(t);
    tokenring_replication *repl = NULL;
    assert_int_equal(tokenring_replication_parse(&repl, "dc1=3", 5, NULL), TOKENRING_OK);
    tokenring_placement *p = NULL;
    assert_int_equal(tokenring_placement_build(&p, ring, repl, 0, NULL), TOKENRING_OK);
    tokenring_replication_free(repl);
    tokenring_ring_free(ring); /* the placement keeps its own reference */
    return p;
}

static void *reader(void *arg)
{
    uint64_t seed = (uint64_t)(uintptr_t)arg;
    long mine = 0;
    while (!atomic_load(&done) || mine < 1000) {
        pthread_rwlock_rdlock(&lock);
        tokenring_placement *p = tokenring_placement_ref(current);
        pthread_rwlock_unlock(&lock);
        const tokenring_ring *ring = tokenring_placement_ring(p);
        for (int i = 0; i < 200; i++) {
            uint8_t key[16];
            uint64_t a = mix(seed++), b = mix(seed++);
            memcpy(key, &a, 8);
            memcpy(key + 8, &b, 8);
            tokenring_replicas r;
            if (tokenring_placement_replicas_for_key(&r, p, key, sizeof key) != TOKENRING_OK)
                abort();
            /* Three replicas on three distinct racks, the first the range's owner. */
            uint32_t owner;
            if (r.count != 3 ||
                tokenring_ring_owner(&owner, ring, tokenring_token(key, sizeof key)) !=
                    TOKENRING_OK ||
                owner != r.nodes[0])
                abort();
            const char *racks[3];
            for (uint32_t k = 0; k < 3; k++) {
                tokenring_node_info ni;
                if (tokenring_ring_node(&ni, ring, r.nodes[k]) != TOKENRING_OK)
                    abort();
                racks[k] = ni.rack;
            }
            if (!strcmp(racks[0], racks[1]) || !strcmp(racks[0], racks[2]) ||
                !strcmp(racks[1], racks[2]))
                abort();
            mine++;
        }
        tokenring_placement_free(p);
    }
    atomic_fetch_add(&lookups, mine);
    return NULL;
}

static void readers_and_swapper(void **state)
{
    (void)state;
    current = build_generation(0);
    pthread_t th[READERS];
    for (uintptr_t i = 0; i < READERS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, reader, (void *)(i * 1000003 + 1)), 0);
    for (int g = 1; g <= SWAPS; g++) {
        tokenring_placement *next = build_generation(g);
        pthread_rwlock_wrlock(&lock);
        tokenring_placement *old = current;
        current = next;
        pthread_rwlock_unlock(&lock);
        tokenring_placement_free(old); /* freed when the last reader lets go */
    }
    atomic_store(&done, 1);
    for (int i = 0; i < READERS; i++)
        pthread_join(th[i], NULL);
    tokenring_placement_free(current);
    assert_true(atomic_load(&lookups) >= READERS * 1000);
    printf("%ld lookups across %d swaps\n", atomic_load(&lookups), SWAPS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(readers_and_swapper),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
