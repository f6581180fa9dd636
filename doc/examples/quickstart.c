/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libtokenring quick start: build a small topology, snapshot it as a ring, compute the
 * replica map of a keyspace, then route a partition key to its token, owner and replicas.
 *
 * Build:  cc quickstart.c $(pkg-config --cflags --libs tokenring) -o quickstart
 */
#include <stdio.h>
#include <string.h>

#include <tokenring/tokenring.h>

/* Prints a failure with the library's detail and returns 1 (for `return fail(...)`). */
static int fail(const char *what, int rc, const tokenring_error *err)
{
    fprintf(stderr, "%s: %s (%s)%s%s\n", what, tokenring_strerror((tokenring_status)rc),
            tokenring_status_name((tokenring_status)rc), err && err->message[0] ? ": " : "",
            err && err->message[0] ? err->message : "");
    return 1;
}

int main(void)
{
    /* Six nodes in two racks of one datacenter, two tokens each. */
    static const struct {
        const char *name, *rack;
        int64_t tokens[2];
    } nodes[] = {
        {"10.0.0.1", "rack1", {-9000000000000000000LL, -3000000000000000000LL}},
        {"10.0.0.2", "rack2", {-7000000000000000000LL, -1000000000000000000LL}},
        {"10.0.0.3", "rack1", {-5000000000000000000LL, 1000000000000000000LL}},
        {"10.0.0.4", "rack2", {3000000000000000000LL, 8000000000000000000LL}},
        {"10.0.0.5", "rack1", {5000000000000000000LL, 9000000000000000000LL}},
        {"10.0.0.6", "rack2", {6000000000000000000LL, 7000000000000000000LL}},
    };
    const char *key = "user:42"; /* a one-column text partition key: its UTF-8 bytes */

    tokenring_error err;
    memset(&err, 0, sizeof err);
    tokenring_topology *topology = NULL;
    tokenring_ring *ring = NULL;
    tokenring_replication *replication = NULL;
    tokenring_placement *placement = NULL;
    int status = 1;
    int rc;

    printf("libtokenring %s (headers %s)\n", tokenring_version_string(),
           TOKENRING_VERSION_STRING);

    /* 1. A topology is a mutable builder. */
    if ((rc = tokenring_topology_new(&topology)) != TOKENRING_OK)
        return fail("tokenring_topology_new", rc, NULL);
    for (size_t i = 0; i < sizeof nodes / sizeof nodes[0]; i++) {
        rc = tokenring_topology_add_node(topology, nodes[i].name, "dc1", nodes[i].rack,
                                         nodes[i].tokens, 2, &err);
        if (rc != TOKENRING_OK) {
            fail("tokenring_topology_add_node", rc, &err);
            goto out;
        }
    }

    /* 2. A ring is an immutable snapshot: share it between threads freely. */
    if ((rc = tokenring_ring_build(&ring, topology, &err)) != TOKENRING_OK) {
        fail("tokenring_ring_build", rc, &err);
        goto out;
    }

    /* 3. Replicas for NetworkTopologyStrategy {'dc1': 3}, computed once for all ranges. */
    rc = tokenring_replication_parse(&replication, "{'class': 'NetworkTopologyStrategy', "
                                     "'dc1': '3'}", strlen("{'class': "
                                     "'NetworkTopologyStrategy', 'dc1': '3'}"), &err);
    if (rc != TOKENRING_OK) {
        fail("tokenring_replication_parse", rc, &err);
        goto out;
    }
    if ((rc = tokenring_placement_build(&placement, ring, replication, 0, &err)) != TOKENRING_OK) {
        fail("tokenring_placement_build", rc, &err);
        goto out;
    }

    /* 4. Route a key: token, owning range, owner, replicas (no allocation). */
    int64_t token = tokenring_token(key, strlen(key));
    tokenring_range range;
    if ((rc = tokenring_ring_range_of(&range, ring, token)) != TOKENRING_OK) {
        fail("tokenring_ring_range_of", rc, NULL);
        goto out;
    }
    tokenring_node_info owner;
    if ((rc = tokenring_ring_node(&owner, ring, range.owner)) != TOKENRING_OK) {
        fail("tokenring_ring_node", rc, NULL);
        goto out;
    }
    printf("key %s\ntoken %lld\nrange (%lld, %lld]\nowner %s (%s)\n", key, (long long)token,
           (long long)range.start, (long long)range.end, owner.name, owner.rack);

    tokenring_replicas replicas;
    if ((rc = tokenring_placement_replicas(&replicas, placement, token)) != TOKENRING_OK) {
        fail("tokenring_placement_replicas", rc, NULL);
        goto out;
    }
    printf("replicas");
    for (uint32_t i = 0; i < replicas.count; i++) {
        tokenring_node_info replica;
        if (tokenring_ring_node(&replica, ring, replicas.nodes[i]) != TOKENRING_OK)
            goto out;
        printf(" %s/%s", replica.name, replica.rack);
    }
    printf("\n");

    /* The first replica is the owner, and rf 3 over 6 nodes gives 3 replicas. */
    if (replicas.count != 3 || replicas.nodes[0] != range.owner) {
        fprintf(stderr, "unexpected replicas\n");
        goto out;
    }
    status = 0;

out:
    /* Everything is freed with its own function; NULL is accepted. Freeing the topology
     * first is fine: the ring and the placement keep what they need. */
    tokenring_topology_free(topology);
    tokenring_placement_free(placement);
    tokenring_replication_free(replication);
    tokenring_ring_free(ring);
    return status;
}
