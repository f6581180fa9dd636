// SPDX-License-Identifier: Apache-2.0

// Package tokenring is the Go binding of libtokenring, a C library that reproduces
// Apache Cassandra's token ring exactly: Murmur3Partitioner tokens, partition-key bytes,
// topologies, rings, replica placement (SimpleStrategy and NetworkTopologyStrategy,
// transient replicas included) and ownership.
//
// # Building
//
// The package uses cgo and finds the library with pkg-config ("tokenring"). Against a
// Meson build directory, point pkg-config at its uninstalled description:
//
//	PKG_CONFIG_PATH=BUILD/meson-uninstalled LD_LIBRARY_PATH=BUILD/lib go test ./...
//
// Build with -tags static to link the static library. The binding refuses to compile
// against headers of another major version.
//
// # Hashing
//
// Token hashes one key, in Go (Cassandra's Murmur3 port of the gocql module, checked
// against the library's tokenring_token by the tests): a cgo call costs tens of
// nanoseconds, more than hashing a short key. For many keys, pack them into a KeyBatch
// (one buffer plus offsets) and hash or route the whole batch in one call into C. The Go memory is passed in place,
// without copies, as the cgo pointer rules allow (it holds no Go pointers and C keeps
// nothing after the call).
//
// # Handles and lifetimes
//
// Topology, Ring, Replication and Placement wrap C objects. Each has an idempotent Close;
// a finalizer frees a forgotten handle at a later garbage collection as a safety net, but
// the C memory is invisible to Go's GC, so close handles explicitly. Using a handle after
// Close returns ErrClosed (methods without an error result return a zero value); it
// never crashes. Close waits for methods running on the same handle to return.
//
// A Placement holds its own reference to its ring, and a Ring does not depend on the
// Topology it came from, so each may be closed independently.
//
// # Concurrency and swapping in a new ring
//
// Ring and Placement are immutable snapshots: any number of goroutines may query one at
// once. Topology, Replication and Cluster are mutable builders whose methods are
// serialized by a mutex. After a topology change, build a new ring and placement, publish
// it with an atomic pointer, and close the old one once the readers that loaded it are
// done. One way to know that (the one the package's concurrency test uses) is a reader
// count per generation:
//
//	type generation struct {
//		p     *tokenring.Placement
//		users atomic.Int64
//	}
//	var current atomic.Pointer[generation]
//
//	// a reader
//	for {
//		g := current.Load()
//		g.users.Add(1)
//		if current.Load() != g { // swapped meanwhile: the writer may not wait for us
//			g.users.Add(-1)
//			continue
//		}
//		dst, err = g.p.AppendReplicas(dst[:0], token)
//		g.users.Add(-1)
//		break
//	}
//
//	// the writer, after a topology change
//	ring, _ := topo.Build()
//	p, err := tokenring.BuildPlacement(ring, repl, 0)
//	ring.Close() // the placement keeps its ring alive
//	old := current.Swap(&generation{p: p})
//	for old.users.Load() != 0 {
//		runtime.Gosched()
//	}
//	old.p.Close()
//
// Closing old while a reader still uses it is safe as well: Close waits for calls in
// progress, and later calls on old return ErrClosed rather than crashing, so a reader that
// sees ErrClosed can simply load current again. The reader count only makes sure no reader
// ever sees it.
//
// # Errors
//
// Failing calls return an *Error with the library's status Code and message (naming the
// node, token, datacenter or position that failed); its text reads as a Go error,
// "tokenring: parse: line 2, column 7: ...". errors.Is matches it against the sentinels
// ErrInvalid, ErrNoMem, ErrNotFound, ErrExists, ErrRange, ErrParse, ErrEmpty, ErrBufSize,
// ErrUnsupported, ErrImpossible, ErrCancelled, ErrBudget, ErrClosed and ErrZeroValue by
// code.
//
// # Budgets
//
// The long calls estimate their work before they start and refuse past a budget (about
// 5 seconds by default) with a *BudgetError carrying the estimate (errors.Is(err,
// ErrBudget)). The Limited variants (Ring.AvailabilityLimited,
// Ring.AvailabilitySummaryLimited, Topology.AllocateJoinLimited, Topology.AllocateNodesLimited,
// Topology.PlanMigrationLimited) take Limits: a larger Budget (or BudgetUnlimited), a
// num_tokens cap above Cassandra's 1536, and the nodes already down.
//
// # Zero values
//
// The zero value of a handle (var t Topology) holds no C object: its methods return
// ErrZeroValue naming the constructor to use (or a zero value), and never panic.
//
// # Cancellation
//
// The long analyses have Context variants (Ring.AvailabilityContext,
// Topology.AllocateNodesContext, Topology.AllocateTokensContext,
// Topology.PlanMigrationContext): once the context is done the C call stops at its next
// progress report and returns an error matching both ErrCancelled and the context's error
// (errors.Is(err, context.Canceled)). WithProgress attaches a ProgressFunc that receives
// the reports.
//
// # Allocation-free lookups
//
// AppendReplicas, AppendReplicasForKey and AppendReplicaNames append to a caller's
// slice, so a reused dst[:0] avoids allocating; RouteKeys and RouteTokens fill
// caller-provided slices for a whole batch, RouteKeysReplicas appends each key's replicas
// (shared, read-only) to a reused dst[:0], and Set returns shared replica sets.
package tokenring
