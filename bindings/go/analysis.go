// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <stdlib.h>
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"context"
	"math"
	"unsafe"
)

// ------------------------------------------------------------------- balance

// Balance holds statistics of one ownership measure over a group of nodes; fractions
// are of the whole ring.
type Balance struct {
	NodeCount  int     // nodes in the group holding ring tokens
	MinNode    int     // ring index of a node with the smallest share
	MaxNode    int     // ring index of a node with the largest share
	MinWidth   U128    // exact smallest width
	MaxWidth   U128    // exact largest width
	TotalWidth U128    // exact sum over the group (saturates at 2^128 - 1)
	Min        float64 // MinWidth / 2^64 (see Ring.Balance for other partitioners)
	Max        float64 // MaxWidth / 2^64
	Mean       float64 // TotalWidth / NodeCount / 2^64
	Stdev      float64 // sample standard deviation of the shares
}

func balanceFromC(b *C.tokenring_balance) Balance {
	return Balance{
		NodeCount: int(b.node_count), MinNode: int(b.min_node), MaxNode: int(b.max_node),
		MinWidth: u128(b.min_width), MaxWidth: u128(b.max_width), TotalWidth: u128(b.total_width),
		Min: float64(b.min), Max: float64(b.max), Mean: float64(b.mean), Stdev: float64(b.stdev),
	}
}

// Balance returns the balance of primary ownership and, when p is not nil, of effective
// ownership under p (built from this ring), over every node (datacenter ""), one
// datacenter, or one rack of a datacenter. A group without nodes gives ErrNotFound.
// Widths are in the ring's units: token values over 2^64 (Murmur3) or 2^127
// (RandomPartitioner), ring ranges owned or replicated (ByteOrderedPartitioner); the
// fractions divide by 2^64, 2^127 or the range count.
func (r *Ring) Balance(p *Placement, datacenter, rack string) (primary, effective Balance, err error) {
	if rack != "" && datacenter == "" {
		return primary, effective, goError(CodeInvalid, "a rack needs its datacenter")
	}
	var cd, cr []byte
	if datacenter != "" {
		if cd, err = cname("datacenter name", datacenter); err != nil {
			return
		}
	}
	if rack != "" {
		if cr, err = cname("rack name", rack); err != nil {
			return
		}
	}
	// One lock order with Placement.Update (see lockAll): no deadlock against a pending Close.
	hs := []handle{r}
	if p != nil {
		hs = append(hs, p)
	}
	unlock, err := lockAll(hs...)
	if err != nil {
		return
	}
	defer unlock()
	rp := r.ptr
	var pp *C.tokenring_placement
	var pb, eb C.tokenring_balance
	var ebp *C.tokenring_balance
	if p != nil {
		pp = p.ptr
		ebp = &eb
	}
	var dcp, rkp *C.char
	if cd != nil {
		dcp = charp(cd)
	}
	if cr != nil {
		rkp = charp(cr)
	}
	var detail C.tokenring_error
	if err = newError(C.tokenring_balance_compute(&pb, ebp, rp, pp, dcp, rkp, &detail), &detail); err != nil {
		return
	}
	primary = balanceFromC(&pb)
	if ebp != nil {
		effective = balanceFromC(&eb)
	}
	return
}

// ------------------------------------------------------------------ movement

// ChangeKind says what a movement analysis compares; it decides the streaming sources.
type ChangeKind int

// Kinds of topology change.
const (
	ChangeGeneric      ChangeKind = 0
	ChangeJoin         ChangeKind = 1
	ChangeDecommission ChangeKind = 2
	ChangeReplace      ChangeKind = 3
	ChangeMove         ChangeKind = 4
)

// MovementSummary holds the totals of a movement analysis.
type MovementSummary struct {
	ChangedWidth           U128    // token values whose replica set changes
	PrimaryChangedWidth    U128    // token values whose first replica changes
	StreamedWidth          U128    // sum of all stream widths
	ChangedFraction        float64 // ChangedWidth / 2^64 (2^127 RandomPartitioner, elementary ranges ByteOrderedPartitioner)
	PrimaryChangedFraction float64 // PrimaryChangedWidth / 2^64
	StreamedFraction       float64 // StreamedWidth / 2^64
	CleanupCount           int     // nodes that afterwards hold data they no longer replicate
	SamplesPrimaryChanged  int     // sample tokens whose primary replica changes
	SamplesReplicasChanged int     // sample tokens whose replica set changes
}

// MovementNode is what one node gains and loses (effective and primary widths).
type MovementNode struct {
	Name               string
	BeforeWidth        U128
	AfterWidth         U128
	GainedWidth        U128 // replicated after but not before: what it receives
	LostWidth          U128 // replicated before but not after
	PrimaryBeforeWidth U128
	PrimaryAfterWidth  U128
	GainedFraction     float64 // GainedWidth / AfterWidth
	LostFraction       float64 // LostWidth / BeforeWidth
	InBefore, InAfter  bool
	NeedsCleanup       bool // what `nodetool cleanup` would remove afterwards
}

// MovedRange is an elementary range whose replica set changes; node numbers index
// Movement.Nodes. StartText and EndText are the bounds in the text form of any
// partitioner; Start and End are Murmur3 tokens; on a RandomPartitioner result the typed
// bounds are Start128 and End128, on a ByteOrderedPartitioner one StartBytes and
// EndBytes (the other typed fields are zero).
type MovedRange struct {
	Start, End           int64
	Width                U128
	OldReplicas          []uint32
	NewReplicas          []uint32
	Start128, End128     Token128
	StartBytes, EndBytes []byte
	StartText, EndText   string
}

// Stream is one range (Start, End] that Source sends to Destination (on other
// partitioners Start and End are 0: the bounds are those of Ranges[RangeIndex]).
type Stream struct {
	Start, End          int64
	Width               U128
	Source, Destination int  // indices into Movement.Nodes
	RangeIndex          int  // index into Movement.Ranges
	Strict              bool // the source is the replica losing the range
}

// SampleChange is what happens to one sample token (TokenText on every result; Token128
// on a RandomPartitioner result, TokenBytes on a ByteOrderedPartitioner one, Token is
// then 0).
type SampleChange struct {
	Token           int64
	Token128        Token128
	TokenBytes      []byte
	TokenText       string
	OldReplicas     []uint32
	NewReplicas     []uint32
	OldOwner        int
	NewOwner        int
	OwnerChanged    bool
	ReplicasChanged bool
}

// Movement is the full result of a movement analysis, copied into Go memory. Nodes are
// numbered as the library numbers them: the nodes of the topology before, in order, then
// the nodes only in the topology after.
type Movement struct {
	Partitioner Partitioner // of the topologies compared: says which bounds are set
	Summary     MovementSummary
	Nodes       []MovementNode
	Ranges      []MovedRange
	Streams     []Stream
	Samples     []SampleChange
}

func u32s(p *C.uint32_t, n C.uint32_t) []uint32 {
	if p == nil || n == 0 {
		return []uint32{}
	}
	return append([]uint32(nil), unsafe.Slice((*uint32)(unsafe.Pointer(p)), int(n))...)
}

// movementFromC copies a C result into Go memory and frees it.
func movementFromC(m *C.tokenring_movement) (*Movement, error) {
	defer C.tokenring_movement_free(m)
	var s C.tokenring_movement_summary
	if err := check(C.tokenring_movement_get_summary(&s, m)); err != nil {
		return nil, err
	}
	out := &Movement{Partitioner: Partitioner(C.tokenring_movement_partitioner(m)), Summary: MovementSummary{
		ChangedWidth: u128(s.changed_width), PrimaryChangedWidth: u128(s.primary_changed_width),
		StreamedWidth: u128(s.streamed_width), ChangedFraction: float64(s.changed_fraction),
		PrimaryChangedFraction: float64(s.primary_changed_fraction), StreamedFraction: float64(s.streamed_fraction),
		CleanupCount: int(s.cleanup_count), SamplesPrimaryChanged: int(s.samples_primary_changed),
		SamplesReplicasChanged: int(s.samples_replicas_changed),
	}}
	out.Nodes = make([]MovementNode, int(s.node_count))
	for i := range out.Nodes {
		var n C.tokenring_movement_node
		if err := check(C.tokenring_movement_get_node(&n, m, C.size_t(i))); err != nil {
			return nil, err
		}
		out.Nodes[i] = MovementNode{
			Name: goStringN(n.name), BeforeWidth: u128(n.before_width), AfterWidth: u128(n.after_width),
			GainedWidth: u128(n.gained_width), LostWidth: u128(n.lost_width),
			PrimaryBeforeWidth: u128(n.primary_before_width), PrimaryAfterWidth: u128(n.primary_after_width),
			GainedFraction: float64(n.gained_fraction), LostFraction: float64(n.lost_fraction),
			InBefore: n.in_before != 0, InAfter: n.in_after != 0, NeedsCleanup: n.needs_cleanup != 0,
		}
	}
	out.Ranges = make([]MovedRange, int(s.range_count))
	for i := range out.Ranges {
		var r C.tokenring_moved_range
		if err := check(C.tokenring_movement_get_range(&r, m, C.size_t(i))); err != nil {
			return nil, err
		}
		out.Ranges[i] = MovedRange{Start: int64(r.start), End: int64(r.end), Width: u128(r.width),
			OldReplicas: u32s(r.old_replicas, r.old_count), NewReplicas: u32s(r.new_replicas, r.new_count)}
	}
	out.Streams = make([]Stream, int(s.stream_count))
	for i := range out.Streams {
		var st C.tokenring_stream
		if err := check(C.tokenring_movement_get_stream(&st, m, C.size_t(i))); err != nil {
			return nil, err
		}
		out.Streams[i] = Stream{Start: int64(st.start), End: int64(st.end), Width: u128(st.width),
			Source: int(st.source), Destination: int(st.destination), RangeIndex: int(st.range_index), Strict: st.strict != 0}
	}
	out.Samples = make([]SampleChange, int(s.sample_count))
	for i := range out.Samples {
		var sc C.tokenring_sample_change
		if err := check(C.tokenring_movement_get_sample(&sc, m, C.size_t(i))); err != nil {
			return nil, err
		}
		out.Samples[i] = SampleChange{Token: int64(sc.token),
			OldReplicas: u32s(sc.old_replicas, sc.old_count), NewReplicas: u32s(sc.new_replicas, sc.new_count),
			OldOwner: int(sc.old_owner), NewOwner: int(sc.new_owner),
			OwnerChanged: sc.owner_changed != 0, ReplicasChanged: sc.replicas_changed != 0}
	}
	if err := out.textTokens(m); err != nil {
		return nil, err
	}
	return out, nil
}

// CompareMovement compares the replica placement of two topologies under repl: every
// elementary range whose replica set changes, who streams what to whom, what each node
// gains and loses, and what happens to the sample tokens (may be nil).
func CompareMovement(before, after *Topology, repl *Replication, kind ChangeKind, samples []int64) (*Movement, error) {
	unlock, err := lockAll(before, after, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var m *C.tokenring_movement
	var detail C.tokenring_error
	st := C.tokenring_movement_compare(&m, before.ptr, after.ptr, repl.ptr, C.int(kind), tokensPtr(samples), C.size_t(len(samples)), &detail)
	if err := newError(st, &detail); err != nil {
		return nil, err
	}
	return movementFromC(m)
}

// SimulateJoin analyses the node name joining datacenter/rack with the given tokens
// (the topology is not modified).
func (t *Topology) SimulateJoin(repl *Replication, name, datacenter, rack string, tokens, samples []int64) (*Movement, error) {
	cn, err := cname("node name", name)
	if err != nil {
		return nil, err
	}
	cd, err := cname("datacenter name", datacenter)
	if err != nil {
		return nil, err
	}
	cr, err := cname("rack name", rack)
	if err != nil {
		return nil, err
	}
	unlock, err := lockAll(t, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var m *C.tokenring_movement
	var detail C.tokenring_error
	st := C.tokenring_movement_join(&m, t.ptr, repl.ptr, charp(cn), charp(cd), charp(cr), tokensPtr(tokens), C.size_t(len(tokens)),
		tokensPtr(samples), C.size_t(len(samples)), &detail)
	if err := newError(st, &detail); err != nil {
		return nil, err
	}
	return movementFromC(m)
}

// SimulateDecommission analyses the node name leaving.
func (t *Topology) SimulateDecommission(repl *Replication, name string, samples []int64) (*Movement, error) {
	cn, err := cname("node name", name)
	if err != nil {
		return nil, err
	}
	unlock, err := lockAll(t, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var m *C.tokenring_movement
	var detail C.tokenring_error
	st := C.tokenring_movement_decommission(&m, t.ptr, repl.ptr, charp(cn), tokensPtr(samples), C.size_t(len(samples)), &detail)
	if err := newError(st, &detail); err != nil {
		return nil, err
	}
	return movementFromC(m)
}

// SimulateReplace analyses the dead node oldName being replaced by newName (same tokens,
// datacenter and rack).
func (t *Topology) SimulateReplace(repl *Replication, oldName, newName string, samples []int64) (*Movement, error) {
	co, err := cname("node name", oldName)
	if err != nil {
		return nil, err
	}
	cn, err := cname("node name", newName)
	if err != nil {
		return nil, err
	}
	unlock, err := lockAll(t, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var m *C.tokenring_movement
	var detail C.tokenring_error
	st := C.tokenring_movement_replace(&m, t.ptr, repl.ptr, charp(co), charp(cn), tokensPtr(samples), C.size_t(len(samples)), &detail)
	if err := newError(st, &detail); err != nil {
		return nil, err
	}
	return movementFromC(m)
}

// SimulateMove analyses the node name moving to new tokens.
func (t *Topology) SimulateMove(repl *Replication, name string, tokens, samples []int64) (*Movement, error) {
	cn, err := cname("node name", name)
	if err != nil {
		return nil, err
	}
	unlock, err := lockAll(t, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var m *C.tokenring_movement
	var detail C.tokenring_error
	st := C.tokenring_movement_move(&m, t.ptr, repl.ptr, charp(cn), tokensPtr(tokens), C.size_t(len(tokens)),
		tokensPtr(samples), C.size_t(len(samples)), &detail)
	if err := newError(st, &detail); err != nil {
		return nil, err
	}
	return movementFromC(m)
}

// -------------------------------------------------------------- availability

// Consistency is a Cassandra consistency level for availability analyses.
type Consistency int

// Consistency levels.
const (
	One         Consistency = 1
	Two         Consistency = 2
	Three       Consistency = 3
	Quorum      Consistency = 4
	All         Consistency = 5
	LocalOne    Consistency = 6
	LocalQuorum Consistency = 7
	EachQuorum  Consistency = 8
)

// AvailabilityMaxK is the largest number of failed nodes an analysis enumerates.
const AvailabilityMaxK = 3

// FailureSet is a set of k failed nodes that leaves some range unable to reach the
// consistency level, with the exact width of the token space it makes unavailable.
type FailureSet struct {
	Nodes    []uint32 // ring node indices, ascending
	Width    U128
	Fraction float64 // Width / 2^64 (/ 2^127 on a RandomPartitioner ring; a ByteOrderedPartitioner width counts ranges: / the range count)
}

// Availability returns every set of exactly k failed nodes (1 .. AvailabilityMaxK) that
// leaves some range of the ring unable to reach consistency cl under repl, sorted by
// node indices. localDC names the local datacenter for LocalOne and LocalQuorum ("" for
// the others). A level unreachable even with every node up gives ErrImpossible.
func (r *Ring) Availability(repl *Replication, cl Consistency, localDC string, k int) ([]FailureSet, error) {
	return r.AvailabilityContext(context.Background(), repl, cl, localDC, k)
}

// AvailabilityContext is Availability stopped by ctx: once ctx is done the analysis
// returns at its next progress report (tens of milliseconds of CPU apart at most on 1000
// nodes x 256 tokens; doc/performance.md) an error matching both ErrCancelled and
// ctx.Err() (errors.Is(err, context.Canceled)). A ProgressFunc attached with
// WithProgress receives its progress (distinct replica sets, then candidate failure sets).
// The default work budget applies (a *BudgetError past it); AvailabilityLimited raises
// it and starts from the nodes already down.
func (r *Ring) AvailabilityContext(ctx context.Context, repl *Replication, cl Consistency, localDC string, k int) ([]FailureSet, error) {
	if k < 1 || k > AvailabilityMaxK {
		return nil, goError(CodeRange, "k = %d outside 1..%d", k, AvailabilityMaxK)
	}
	var lp *C.char
	if localDC != "" {
		cdc, err := cname("datacenter name", localDC)
		if err != nil {
			return nil, err
		}
		lp = charp(cdc)
	}
	unlock, err := lockAll(r, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	rp := r.ptr
	var a *C.tokenring_availability
	err = withProgress(ctx, func(fn C.tokenring_progress_fn, user unsafe.Pointer) error {
		var detail C.tokenring_error
		if fn == nil {
			return newError(C.tokenring_availability_build(&a, rp, repl.ptr, C.int(cl), lp, C.uint32_t(k), &detail), &detail)
		}
		return newError(C.tokenring_availability_build_progress(&a, rp, repl.ptr, C.int(cl), lp, C.uint32_t(k), fn, user, &detail), &detail)
	})
	if err != nil {
		return nil, err
	}
	defer C.tokenring_availability_free(a)
	return failureSets(a, k)
}

// failureSets reads the k-node sets of an availability result.
func failureSets(a *C.tokenring_availability, k int) ([]FailureSet, error) {
	n := int(C.tokenring_availability_count(a))
	out := make([]FailureSet, n)
	flat := make([]uint32, n*k)
	for i := range out {
		var w C.tokenring_u128
		var f C.double
		nodes := flat[i*k : (i+1)*k : (i+1)*k]
		if err := check(C.tokenring_availability_get((*C.uint32_t)(unsafe.Pointer(&nodes[0])), &w, &f, a, C.size_t(i))); err != nil {
			return nil, err
		}
		out[i] = FailureSet{Nodes: nodes, Width: u128(w), Fraction: float64(f)}
	}
	return out, nil
}

// FailureUnit says what fails together in an availability summary.
type FailureUnit int

// Failure units; the values are the C library's.
const (
	FailNodes       FailureUnit = 0 // single nodes (ring node indices)
	FailRacks       FailureUnit = 1 // every node of a (datacenter, rack) pair (ring rack indices)
	FailDatacenters FailureUnit = 2 // every node of a datacenter (ring datacenter indices)
)

// WorstSet is one of the worst failure sets of a summary: the failed units (ring node,
// rack or datacenter indices, ascending) and the exact width they make unavailable.
type WorstSet struct {
	Units    []uint32
	Width    U128
	Fraction float64 // Width / 2^64, or as FailureSet.Fraction on other partitioners
}

// AvailabilitySummary counts the k-sets of failed units that break a consistency level:
// Breaking of Sets = C(units, k); WorstWidth is the largest unavailable width of any of
// them (zero when no worst sets were asked for), Worst the top sets, worst first.
type AvailabilitySummary struct {
	K          int
	Sets       U128
	Breaking   U128
	WorstWidth U128
	Worst      []WorstSet
}

// AvailabilitySummary counts, exactly and for any k, the sets of k failed units (nodes,
// whole racks or whole datacenters) that leave some range unable to reach cl under repl,
// and keeps the top worst ones (largest unavailable width first; 0 counts only).
// localDC as for Availability. k outside 1 .. the number of units gives ErrRange.
func (r *Ring) AvailabilitySummary(repl *Replication, cl Consistency, localDC string, unit FailureUnit, k, top int) (*AvailabilitySummary, error) {
	return r.AvailabilitySummaryContext(context.Background(), repl, cl, localDC, unit, k, top)
}

// AvailabilitySummaryContext is AvailabilitySummary stopped by ctx (see
// AvailabilityContext); a ProgressFunc attached with WithProgress receives its progress
// (distinct replica sets, then the first units of the search).
func (r *Ring) AvailabilitySummaryContext(ctx context.Context, repl *Replication, cl Consistency, localDC string, unit FailureUnit, k, top int) (*AvailabilitySummary, error) {
	if k < 1 || int64(k) > math.MaxUint32 {
		return nil, goError(CodeRange, "k = %d failed units is below 1 or above 2^32-1", k)
	}
	if top < 0 {
		return nil, goError(CodeRange, "top = %d is negative", top)
	}
	var lp *C.char
	if localDC != "" {
		cdc, err := cname("datacenter name", localDC)
		if err != nil {
			return nil, err
		}
		lp = charp(cdc)
	}
	unlock, err := lockAll(r, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	rp := r.ptr
	var s *C.tokenring_availability_summary
	err = withProgress(ctx, func(fn C.tokenring_progress_fn, user unsafe.Pointer) error {
		var detail C.tokenring_error
		return newError(C.tokenring_availability_summary_build(&s, rp, repl.ptr, C.int(cl), lp, C.int(unit), C.uint32_t(k), C.size_t(top), fn, user, &detail), &detail)
	})
	if err != nil {
		return nil, err
	}
	defer C.tokenring_availability_summary_free(s)
	var b, t, w C.tokenring_u128
	if err := check(C.tokenring_availability_summary_counts(&b, &t, &w, s)); err != nil {
		return nil, err
	}
	k = int(C.tokenring_availability_summary_k(s))
	out := &AvailabilitySummary{K: k, Sets: u128(t), Breaking: u128(b), WorstWidth: u128(w)}
	n := int(C.tokenring_availability_summary_top_count(s))
	out.Worst = make([]WorstSet, n)
	flat := make([]uint32, n*k)
	for i := range out.Worst {
		var tw C.tokenring_u128
		var f C.double
		units := flat[i*k : (i+1)*k : (i+1)*k]
		if err := check(C.tokenring_availability_summary_top((*C.uint32_t)(unsafe.Pointer(&units[0])), &tw, &f, s, C.size_t(i))); err != nil {
			return nil, err
		}
		out.Worst[i] = WorstSet{Units: units, Width: u128(tw), Fraction: float64(f)}
	}
	return out, nil
}

// ----------------------------------------------------------------- migration

// KeyspaceReplication names a keyspace and its current replication.
type KeyspaceReplication struct {
	Name        string
	Replication *Replication
}

// MigrationNode is one new node of a migration plan with its tokens (ascending).
type MigrationNode struct {
	Name   string
	Rack   string
	Tokens []int64
}

// MigrationPlan is a plan for changing num_tokens through a new datacenter: the new
// nodes with their tokens, and the ordered steps as text naming the real keyspaces,
// datacenters and nodes.
type MigrationPlan struct {
	Nodes []MigrationNode
	Steps []string
}

// PlanMigration plans moving from oldDC to a new datacenter newDC whose nodes (names,
// racks in join order, at least rf of them) get numTokens tokens each; keyspaces are the
// keyspaces to migrate with their current replication. Every keyspace with replicas in
// oldDC gets factor rf in newDC, or with rf 0 keeps its factor of oldDC; every other
// datacenter is kept as it is. A SimpleStrategy keyspace in a cluster of several
// datacenters gives ErrUnsupported. The topology is not modified.
func (t *Topology) PlanMigration(oldDC, newDC string, names, racks []string, numTokens, rf int, keyspaces []KeyspaceReplication) (*MigrationPlan, error) {
	return t.PlanMigrationContext(context.Background(), oldDC, newDC, names, racks, numTokens, rf, keyspaces)
}

// PlanMigrationContext is PlanMigration stopped by ctx (see AvailabilityContext); a
// ProgressFunc attached with WithProgress receives the allocator's progress.
func (t *Topology) PlanMigrationContext(ctx context.Context, oldDC, newDC string, names, racks []string, numTokens, rf int, keyspaces []KeyspaceReplication) (*MigrationPlan, error) {
	if len(names) != len(racks) {
		return nil, goError(CodeInvalid, "%d node names for %d racks", len(names), len(racks))
	}
	if numTokens <= 0 || numTokens > LayoutMaxTokens || rf < 0 || rf >= 1<<31 {
		return nil, goError(CodeRange, "num_tokens %d or rf %d out of range", numTokens, rf)
	}
	co, err := cname("datacenter name", oldDC)
	if err != nil {
		return nil, err
	}
	cn, err := cname("datacenter name", newDC)
	if err != nil {
		return nil, err
	}
	cNames, freeNames, err := cStrings("node name", names)
	if err != nil {
		return nil, err
	}
	defer freeNames()
	cRacks, freeRacks, err := cStrings("rack name", racks)
	if err != nil {
		return nil, err
	}
	defer freeRacks()
	ksNames := make([]string, len(keyspaces))
	locks := []handle{t}
	for i, ks := range keyspaces {
		if ks.Replication == nil {
			return nil, goError(CodeInvalid, "keyspace %q has no replication", ks.Name)
		}
		ksNames[i] = ks.Name
		locks = append(locks, ks.Replication)
	}
	cKs, freeKs, err := cStrings("keyspace name", ksNames)
	if err != nil {
		return nil, err
	}
	defer freeKs()
	unlock, err := lockAll(locks...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	// An array of C pointers in Go memory holds no Go pointers: it may be passed as is.
	repls := make([]*C.tokenring_replication, len(keyspaces)+1)
	for i, ks := range keyspaces {
		if ks.Replication.ptr == nil {
			return nil, ks.Replication.gone()
		}
		repls[i] = ks.Replication.ptr
	}
	var m *C.tokenring_migration
	err = withProgress(ctx, func(fn C.tokenring_progress_fn, user unsafe.Pointer) error {
		var detail C.tokenring_error
		if fn == nil {
			return newError(C.tokenring_migration_plan(&m, t.ptr, charp(co), charp(cn), cNames, cRacks, C.size_t(len(names)),
				C.uint32_t(numTokens), C.int32_t(rf), cKs, &repls[0], C.size_t(len(keyspaces)), &detail), &detail)
		}
		st := C.tokenring_migration_plan_progress(&m, t.ptr, charp(co), charp(cn), cNames, cRacks, C.size_t(len(names)),
			C.uint32_t(numTokens), C.int32_t(rf), cKs, &repls[0], C.size_t(len(keyspaces)), fn, user, &detail)
		return newError(st, &detail)
	})
	if err != nil {
		return nil, err
	}
	defer C.tokenring_migration_free(m)
	plan := &MigrationPlan{}
	plan.Nodes = make([]MigrationNode, int(C.tokenring_migration_node_count(m)))
	for i := range plan.Nodes {
		var name, rack *C.char
		var toks *C.int64_t
		var nt C.size_t
		if err := check(C.tokenring_migration_node(&name, &rack, &toks, &nt, m, C.size_t(i))); err != nil {
			return nil, err
		}
		node := MigrationNode{Name: goStringN(name), Rack: goStringN(rack)}
		if toks != nil && nt > 0 {
			node.Tokens = append([]int64(nil), unsafe.Slice((*int64)(unsafe.Pointer(toks)), int(nt))...)
		}
		plan.Nodes[i] = node
	}
	plan.Steps = make([]string, int(C.tokenring_migration_step_count(m)))
	for i := range plan.Steps {
		plan.Steps[i] = goStringN(C.tokenring_migration_step(m, C.size_t(i)))
	}
	return plan, nil
}

// TokensKept says how the tokens of the nodes of before fare in after (nodes matched by
// name): kept are still held by the same node, lost are not (also when the node is gone),
// gained are held by a node of before only in after. Tokens of nodes only in after (joining
// nodes) are not counted. A join keeps every existing token: lost and gained are 0.
func TokensKept(before, after *Ring) (kept, lost, gained int, err error) {
	// lockAll: one read lock per ring (read locks must not nest), in the one order.
	unlock, err := lockAll(before, after)
	if err != nil {
		return 0, 0, 0, err
	}
	defer unlock()
	bp, ap := before.ptr, after.ptr
	var k, l, g C.size_t
	if err := check(C.tokenring_ring_tokens_kept(&k, &l, &g, bp, ap)); err != nil {
		return 0, 0, 0, err
	}
	return int(k), int(l), int(g), nil
}
