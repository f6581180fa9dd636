// SPDX-License-Identifier: Apache-2.0

//go:build go1.22

package tokenring

// Go 1.22 and newer only (older cgo rejects these directives; the binding then works,
// with one small allocation per single-key lookup).

/*
// The hot calls keep no pointer after returning and never call back into Go: telling cgo
// so lets their pointer arguments stay on the Go stack, so a lookup allocates
// nothing, and skips the callback bookkeeping.
#cgo noescape tokenring_token
#cgo nocallback tokenring_token
#cgo noescape tokenring_tokens
#cgo nocallback tokenring_tokens
#cgo noescape tokenring_murmur3_cassandra
#cgo nocallback tokenring_murmur3_cassandra
#cgo noescape tokenring_ring_search
#cgo nocallback tokenring_ring_search
#cgo noescape tokenring_ring_search_batch
#cgo nocallback tokenring_ring_search_batch
#cgo noescape tokenring_ring_owner
#cgo nocallback tokenring_ring_owner
#cgo noescape tokenring_ring_range_of
#cgo nocallback tokenring_ring_range_of
#cgo noescape tokenring_ring_range
#cgo nocallback tokenring_ring_range
#cgo noescape tokenring_placement_replicas
#cgo nocallback tokenring_placement_replicas
#cgo noescape tokenring_placement_replicas_for_key
#cgo nocallback tokenring_placement_replicas_for_key
#cgo noescape tokenring_placement_key_set_id
#cgo nocallback tokenring_placement_key_set_id
#cgo noescape tokenring_placement_route_keys
#cgo nocallback tokenring_placement_route_keys
#cgo noescape tokenring_placement_route_keys_replicas
#cgo nocallback tokenring_placement_route_keys_replicas
#cgo noescape tokenring_placement_range_replicas
#cgo nocallback tokenring_placement_range_replicas
#cgo noescape tokenring_placement_set
#cgo nocallback tokenring_placement_set
#cgo noescape tokenring_encode_int
#cgo nocallback tokenring_encode_int
#cgo noescape tokenring_encode_bigint
#cgo nocallback tokenring_encode_bigint
#cgo noescape tokenring_encode_smallint
#cgo nocallback tokenring_encode_smallint
#cgo noescape tokenring_encode_tinyint
#cgo nocallback tokenring_encode_tinyint
#cgo noescape tokenring_encode_boolean
#cgo nocallback tokenring_encode_boolean
#cgo noescape tokenring_encode_timestamp
#cgo nocallback tokenring_encode_timestamp
#cgo noescape tokenring_encode_uuid
#cgo nocallback tokenring_encode_uuid
#cgo noescape tokenring_value_parse
#cgo nocallback tokenring_value_parse
#cgo noescape tokenring_key_parse
#cgo nocallback tokenring_key_parse
#cgo noescape tokenring_composite_encode
#cgo nocallback tokenring_composite_encode
#cgo nocallback tokenring_version_number
#include <tokenring/tokenring.h>
*/
import "C"
