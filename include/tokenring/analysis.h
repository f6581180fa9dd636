/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file analysis.h
 * @brief Questions operators ask of a ring, answered exactly: balance statistics, what a
 *        join / decommission / replacement / move changes and streams, which failures
 *        break a consistency level, and a plan for changing num_tokens.
 *
 * Analyses never modify their inputs: a topology change is simulated on a copy
 * (tokenring_topology_clone()). Results that hold arrays are opaque, immutable handles
 * read through accessor functions and released with their free function; a result may be
 * read from any number of threads at once. Every width is exact (a count of token
 * values, up to 2^64 or more, as ::tokenring_u128); the doubles next to them are the same
 * widths divided by 2^64, for display. On RandomPartitioner rings widths are over 2^127
 * and fractions divide by 2^127; ByteOrderedPartitioner tokens have no width, so there
 * widths count ranges (see tokenring_balance_compute(),
 * tokenring_movement_compare_keys() and tokenring_availability_build()).
 *
 * This header gathers one header per concern, each implemented by its library file:
 * balance.h (lib/analysis/balance.c), movement.h with movement_result.h
 * (lib/analysis/movement.c), availability.h (lib/analysis/availability.c) and migration.h
 * (lib/layout/migration.c); with ring.h, which now declares tokenring_ring_tokens_kept().
 * A program may include any of them alone.
 */
#ifndef TOKENRING_ANALYSIS_H
#define TOKENRING_ANALYSIS_H

#include "tokenring/common.h"
#include "tokenring/ring.h"
#include "tokenring/balance.h"
#include "tokenring/movement.h"
#include "tokenring/availability.h"
#include "tokenring/migration.h"

#endif /* TOKENRING_ANALYSIS_H */
