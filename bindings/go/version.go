// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <tokenring/tokenring.h>
*/
import "C"

// Version numbers of the headers the binding was compiled against.
const (
	HeaderVersionMajor  = C.TOKENRING_VERSION_MAJOR
	HeaderVersionMinor  = C.TOKENRING_VERSION_MINOR
	HeaderVersionPatch  = C.TOKENRING_VERSION_PATCH
	HeaderVersionNumber = C.TOKENRING_VERSION_NUMBER
	HeaderVersionString = C.TOKENRING_VERSION_STRING
)

// Limits of the library (see common.h).
const (
	MinToken = int64(-1 << 63)  // -2^63, the token of the empty key
	MaxToken = int64(1<<63 - 1) // 2^63-1
	MaxName  = 255              // longest node, datacenter or rack name in bytes
	MaxRF    = 255              // largest replication factor the allocators and layouts plan for
	// MaxReplicationFactor is the largest factor a Replication accepts per datacenter
	// (2^31-1, as Cassandra; above the nodes of a datacenter every node is a replica).
	MaxReplicationFactor = 1<<31 - 1
	MaxKey               = 65535 // largest serialized partition key in bytes
)

// Version returns the version string of the library loaded at run time, e.g. "1.0.0".
func Version() string { return C.GoString(C.tokenring_version_string()) }

// VersionNumber returns the run-time library version as MAJOR*10000 + MINOR*100 + PATCH,
// to compare with HeaderVersionNumber.
func VersionNumber() int { return int(C.tokenring_version_number()) }
