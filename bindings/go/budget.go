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
	"runtime/cgo"
	"time"
	"unsafe"
)

// CodeBudget is TOKENRING_E_BUDGET: the call's estimated work is above its budget; it
// refused before doing anything (see Limits).
const CodeBudget Code = -12

// ErrBudget matches every budget refusal with errors.Is; errors.As reads its
// *BudgetError, which carries the estimate.
var ErrBudget = sentinel(CodeBudget)

// BudgetUnlimited is a Limits.Budget without limit.
const BudgetUnlimited = time.Duration(math.MaxInt64)

// WorkUnitsPerSecond is the calibration of the work estimates
// (TOKENRING_WORK_UNITS_PER_SECOND): a unit is about 5 ns.
const WorkUnitsPerSecond = 200000000

// MaxNumTokens is Cassandra's own num_tokens limit (TOKENRING_MAX_NUM_TOKENS), the default
// cap of the allocators and migration plans.
const MaxNumTokens = 1536

// BudgetDefaultUnits is the default budget in work units (TOKENRING_BUDGET_DEFAULT, about
// 5 seconds).
const BudgetDefaultUnits = 1000000000

// budgetUnlimitedUnits is TOKENRING_BUDGET_UNLIMITED, what BudgetUnlimited becomes.
const budgetUnlimitedUnits = uint64(math.MaxUint64)

// MaxClusterTokens is the most tokens a layout may build (TOKENRING_MAX_CLUSTER_TOKENS,
// 2^26): a node count x token count product past it is refused at once.
const MaxClusterTokens = 67108864

// Compile-time checks that the Go constants equal the C ones.
var _ = [1]struct{}{}[uint(int64(CodeBudget)-int64(C.TOKENRING_E_BUDGET))+uint(int64(C.TOKENRING_E_BUDGET)-int64(CodeBudget))]
var _ = [1]struct{}{}[uint(WorkUnitsPerSecond-int64(C.TOKENRING_WORK_UNITS_PER_SECOND))+uint(int64(C.TOKENRING_WORK_UNITS_PER_SECOND)-WorkUnitsPerSecond)]
var _ = [1]struct{}{}[uint(MaxNumTokens-int64(C.TOKENRING_MAX_NUM_TOKENS))+uint(int64(C.TOKENRING_MAX_NUM_TOKENS)-MaxNumTokens)]
var _ = [1]struct{}{}[uint(BudgetDefaultUnits-int64(C.TOKENRING_BUDGET_DEFAULT))+uint(int64(C.TOKENRING_BUDGET_DEFAULT)-BudgetDefaultUnits)]
var _ = [1]struct{}{}[uint(MaxClusterTokens-int64(C.TOKENRING_MAX_CLUSTER_TOKENS))+uint(int64(C.TOKENRING_MAX_CLUSTER_TOKENS)-MaxClusterTokens)]
var _ = [1]struct{}{}[budgetUnlimitedUnits-uint64(C.TOKENRING_BUDGET_UNLIMITED)]

// Limits bound a long call (tokenring_limits): before it runs, the call estimates its work
// from its inputs and refuses with a *BudgetError past Budget. The zero value is the
// library's defaults (about 5 seconds; num_tokens at most MaxNumTokens).
type Limits struct {
	// Budget is how long the call may run as the library estimates it (0: the default,
	// BudgetUnlimited: no limit).
	Budget time.Duration
	// MaxNumTokens raises the num_tokens cap of the allocators and migration plans
	// (0: MaxNumTokens).
	MaxNumTokens int
	// Down lists ring node indices already down (DN in nodetool status): the availability
	// analyses (AvailabilitySummaryLimited, AvailabilityLimited) count them as failed
	// before the k more.
	Down []int
}

// BudgetError is the error of a call refused by its budget: Estimate is its work in work
// units (math.MaxUint64 when it saturated), Seconds the same in rough seconds.
type BudgetError struct {
	Err      *Error
	Estimate uint64
}

// Error is the *Error's text, which gives the estimate and how to raise the budget (on a
// nil or zero BudgetError: a text saying so).
func (e *BudgetError) Error() string {
	if e == nil || e.Err == nil {
		return "tokenring: TOKENRING_E_BUDGET: the estimated work is above the budget"
	}
	return e.Err.Error()
}

// Seconds is the estimate in rough seconds on the machine the units were calibrated on
// (0 on a nil BudgetError).
func (e *BudgetError) Seconds() float64 {
	if e == nil {
		return 0
	}
	return float64(e.Estimate) / WorkUnitsPerSecond
}

// Is matches ErrBudget (a zero BudgetError too; a nil one matches nothing).
func (e *BudgetError) Is(target error) bool {
	if e == nil {
		return false
	}
	if e.Err == nil {
		t, ok := target.(*Error)
		return ok && t.Code == CodeBudget
	}
	return e.Err.Is(target)
}

// Unwrap returns the *Error (nil when there is none).
func (e *BudgetError) Unwrap() error {
	if e == nil || e.Err == nil {
		return nil
	}
	return e.Err
}

// withLimits runs call with a C tokenring_limits (in C memory, with the progress callback
// of ctx) and returns the estimate the call wrote, and its error (a *BudgetError for a
// refusal).
func withLimits(ctx context.Context, lim Limits, call func(l *C.tokenring_limits) error) (uint64, error) {
	if lim.Budget < 0 || lim.MaxNumTokens < 0 || lim.MaxNumTokens > LayoutMaxTokens {
		return 0, goError(CodeRange, "limits: budget %v or max num_tokens %d out of range", lim.Budget, lim.MaxNumTokens)
	}
	cl := (*C.tokenring_limits)(C.calloc(1, C.size_t(unsafe.Sizeof(C.tokenring_limits{}))))
	if cl == nil {
		return 0, goError(CodeNoMem, "out of memory")
	}
	defer C.free(unsafe.Pointer(cl))
	switch {
	case lim.Budget == BudgetUnlimited:
		cl.budget = C.uint64_t(budgetUnlimitedUnits)
	case lim.Budget > 0:
		units := lim.Budget.Seconds() * WorkUnitsPerSecond
		if units < 1 {
			units = 1
		}
		cl.budget = C.uint64_t(units)
	}
	cl.max_num_tokens = C.uint32_t(lim.MaxNumTokens)
	if len(lim.Down) > 0 {
		arr := (*[1 << 28]C.uint32_t)(C.calloc(C.size_t(len(lim.Down)), 4))
		if arr == nil {
			return 0, goError(CodeNoMem, "out of memory")
		}
		defer C.free(unsafe.Pointer(arr))
		for i, d := range lim.Down {
			if d < 0 || int64(d) > math.MaxUint32 {
				return 0, goError(CodeRange, "down node index %d out of range", d)
			}
			arr[i] = C.uint32_t(d)
		}
		cl.failed_nodes = &arr[0]
		cl.failed_count = C.size_t(len(lim.Down))
	}
	err := withProgress(ctx, func(fn C.tokenring_progress_fn, user unsafe.Pointer) error {
		if fn != nil {
			// the handle's value, in C memory: the limits hold no Go pointer
			cell := (*cgo.Handle)(C.malloc(C.size_t(unsafe.Sizeof(cgo.Handle(0)))))
			if cell == nil {
				return goError(CodeNoMem, "out of memory")
			}
			defer C.free(unsafe.Pointer(cell))
			*cell = *(*cgo.Handle)(user)
			cl.progress = fn
			cl.user = unsafe.Pointer(cell)
		}
		return call(cl)
	})
	est := uint64(cl.estimate)
	if e, ok := err.(*Error); ok && e.Code == CodeBudget {
		return est, &BudgetError{Err: e, Estimate: est}
	}
	return est, err
}

// LimitedSummary is an availability summary under Limits: the summary, what is
// unavailable already with the Down nodes down, and the call's estimate.
type LimitedSummary struct {
	*AvailabilitySummary
	UnavailableAlready U128    // the width unavailable with only the Down nodes down
	AlreadyFraction    float64 // the same as a fraction of the ring
	Estimate           uint64  // the call's work estimate, in work units
}

// AvailabilitySummaryLimited is AvailabilitySummaryContext under lim
// (tokenring_availability_summary_build_limited): a budget, and nodes already down, which
// count as failed before the k more (with FailNodes the units are the other nodes).
func (r *Ring) AvailabilitySummaryLimited(ctx context.Context, repl *Replication, cl Consistency, localDC string, unit FailureUnit, k, top int, lim Limits) (*LimitedSummary, error) {
	if repl == nil {
		return nil, goError(CodeInvalid, "nil *Replication")
	}
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
	// the ring and the keyspace in the one lock order (see lockAll)
	unlock, err := lockAll(r, repl)
	if err != nil {
		return nil, err
	}
	defer unlock()
	rp := r.ptr
	var s *C.tokenring_availability_summary
	est, err := withLimits(ctx, lim, func(l *C.tokenring_limits) error {
		var detail C.tokenring_error
		return newError(C.tokenring_availability_summary_build_limited(&s, rp, repl.ptr, C.int(cl), lp, C.int(unit), C.uint32_t(k), C.size_t(top), l, &detail), &detail)
	})
	if err != nil {
		return nil, err
	}
	defer C.tokenring_availability_summary_free(s)
	var b, t, w, d C.tokenring_u128
	var df C.double
	if err := check(C.tokenring_availability_summary_counts(&b, &t, &w, s)); err != nil {
		return nil, err
	}
	if err := check(C.tokenring_availability_summary_down(&d, &df, s)); err != nil {
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
	return &LimitedSummary{AvailabilitySummary: out, UnavailableAlready: u128(d), AlreadyFraction: float64(df), Estimate: est}, nil
}

// AvailabilityLimited is AvailabilityContext under lim
// (tokenring_availability_build_limited): a budget (BudgetUnlimited runs it however long
// it takes; ctx still cancels it), and nodes already down (lim.Down, ring node indices),
// which count as failed before the k more as in AvailabilitySummaryLimited: the sets are
// of nodes still up, listed when they make more of the ring unavailable, with the width
// they add. A refusal is a *BudgetError carrying the estimate.
func (r *Ring) AvailabilityLimited(ctx context.Context, repl *Replication, cl Consistency, localDC string, k int, lim Limits) ([]FailureSet, error) {
	if repl == nil {
		return nil, goError(CodeInvalid, "nil *Replication")
	}
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
	_, err = withLimits(ctx, lim, func(l *C.tokenring_limits) error {
		var detail C.tokenring_error
		return newError(C.tokenring_availability_build_limited(&a, rp, repl.ptr, C.int(cl), lp, C.uint32_t(k), l, &detail), &detail)
	})
	if err != nil {
		return nil, err
	}
	defer C.tokenring_availability_free(a)
	return failureSets(a, k)
}

// AllocateJoinLimited is AllocateJoin (Murmur3 topologies) or AllocateJoin128
// (RandomPartitioner; then the tokens are in out128) under lim
// (tokenring_allocate_join_limited): num_tokens up to lim.MaxNumTokens (default
// MaxNumTokens, Cassandra's limit) and a budget; planning one join is about cubic in
// num_tokens when the node's tokens outnumber the datacenter's.
func (t *Topology) AllocateJoinLimited(numTokens int, name, datacenter, rack string, keyspace *Replication, localRF int, release CassandraRelease, lim Limits) (out []int64, out128 []Token128, err error) {
	if t == nil {
		return nil, nil, goError(CodeInvalid, "nil *Topology")
	}
	if lim.Budget < 0 || lim.MaxNumTokens < 0 || lim.MaxNumTokens > LayoutMaxTokens {
		return nil, nil, goError(CodeRange, "limits: budget %v or max num_tokens %d out of range", lim.Budget, lim.MaxNumTokens)
	}
	texts, err := t.AllocateJoinText(numTokens, name, datacenter, rack, keyspace, localRF, release, false, lim)
	if err != nil {
		return nil, nil, err
	}
	if t.Partitioner() == PartitionerRandom { // the typed outputs of this 1.2 call
		out128, err = token128sOfTexts(texts)
	} else {
		out, err = int64sOfTexts(texts)
	}
	if err != nil {
		return nil, nil, err
	}
	return out, out128, nil
}

// AllocateNodesLimited is AllocateNodesContext under lim
// (tokenring_allocate_nodes_limited): num_tokens up to lim.MaxNumTokens and a budget.
func (t *Topology) AllocateNodesLimited(ctx context.Context, numTokens int, datacenter string, racks []string, rf int, flags LayoutFlags, lim Limits) ([][]int64, error) {
	if t == nil {
		return nil, goError(CodeInvalid, "nil *Topology")
	}
	if numTokens <= 0 || numTokens > LayoutMaxTokens {
		return nil, goError(CodeRange, "token count %d outside 1..%d", numTokens, LayoutMaxTokens)
	}
	if len(racks) == 0 {
		return nil, goError(CodeInvalid, "no nodes to plan")
	}
	if rf < -1<<31 || rf >= 1<<31 {
		return nil, goError(CodeRange, "replication factor %d does not fit 32 bits", rf)
	}
	cd, err := cname("datacenter name", datacenter)
	if err != nil {
		return nil, err
	}
	cr, freeR, err := cStrings("rack name", racks)
	if err != nil {
		return nil, err
	}
	defer freeR()
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ptr == nil {
		return nil, t.gone()
	}
	flat := make([]int64, numTokens*len(racks))
	_, err = withLimits(ctx, lim, func(l *C.tokenring_limits) error {
		var detail C.tokenring_error
		return newError(C.tokenring_allocate_nodes_limited((*C.int64_t)(unsafe.Pointer(&flat[0])), C.uint32_t(numTokens), t.ptr, charp(cd), cr,
			C.size_t(len(racks)), C.int32_t(rf), C.uint32_t(flags), l, &detail), &detail)
	})
	if err != nil {
		return nil, err
	}
	out := make([][]int64, len(racks))
	for i := range out {
		out[i] = flat[i*numTokens : (i+1)*numTokens : (i+1)*numTokens]
	}
	return out, nil
}

// PlanMigrationLimited is PlanMigrationContext under lim
// (tokenring_migration_plan_limited) for a migration without keyspaces to alter (the
// steps then name none): num_tokens up to lim.MaxNumTokens and a budget.
func (t *Topology) PlanMigrationLimited(ctx context.Context, oldDC, newDC string, names, racks []string, numTokens, rf int, lim Limits) (*MigrationPlan, error) {
	if t == nil {
		return nil, goError(CodeInvalid, "nil *Topology")
	}
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
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.ptr == nil {
		return nil, t.gone()
	}
	var m *C.tokenring_migration
	_, err = withLimits(ctx, lim, func(l *C.tokenring_limits) error {
		var detail C.tokenring_error
		return newError(C.tokenring_migration_plan_limited(&m, t.ptr, charp(co), charp(cn), cNames, cRacks, C.size_t(len(names)),
			C.uint32_t(numTokens), C.int32_t(rf), nil, nil, 0, l, &detail), &detail)
	})
	if err != nil {
		return nil, err
	}
	defer C.tokenring_migration_free(m)
	plan := &MigrationPlan{Nodes: make([]MigrationNode, int(C.tokenring_migration_node_count(m)))}
	for i := range plan.Nodes {
		var name, rack *C.char
		var toks *C.int64_t
		var cnt C.size_t
		if err := check(C.tokenring_migration_node(&name, &rack, &toks, &cnt, m, C.size_t(i))); err != nil {
			return nil, err
		}
		tk := make([]int64, int(cnt))
		if cnt > 0 {
			copy(tk, unsafe.Slice((*int64)(unsafe.Pointer(toks)), int(cnt)))
		}
		plan.Nodes[i] = MigrationNode{Name: C.GoString(name), Rack: C.GoString(rack), Tokens: tk}
	}
	for i := 0; i < int(C.tokenring_migration_step_count(m)); i++ {
		plan.Steps = append(plan.Steps, C.GoString(C.tokenring_migration_step(m, C.size_t(i))))
	}
	return plan, nil
}
