// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <tokenring/tokenring.h>

// Defined in Go below (a file with //export may only declare C functions).
extern int tokenringGoProgress(void *user, uint64_t done, uint64_t total);
*/
import "C"

import (
	"context"
	"runtime/cgo"
	"unsafe"
)

// ProgressFunc receives the progress of a long analysis: done units of work out of total
// (total may grow while the analysis discovers work; done never decreases and equals
// total at the end). It runs on the goroutine that made the call, while the call holds
// its handles' locks: it must not call methods on the handles the call uses.
type ProgressFunc func(done, total uint64)

type progressKey struct{}

// WithProgress returns a context that makes the Context analyses (AvailabilityContext,
// AllocateNodesContext, AllocateTokensContext, PlanMigrationContext) report their
// progress to fn as they go (see tokenring_progress_fn in common.h). A nil ctx stands
// for context.Background().
func WithProgress(ctx context.Context, fn ProgressFunc) context.Context {
	if ctx == nil {
		ctx = context.Background()
	}
	return context.WithValue(ctx, progressKey{}, fn)
}

// progress is what the C callback reaches through its user pointer.
type progress struct {
	ctx context.Context
	fn  ProgressFunc
}

//export tokenringGoProgress
func tokenringGoProgress(user unsafe.Pointer, done, total C.uint64_t) C.int {
	p := (*(*cgo.Handle)(user)).Value().(*progress)
	if p.fn != nil {
		p.fn(uint64(done), uint64(total))
	}
	if p.ctx.Err() != nil {
		return 1
	}
	return 0
}

// withProgress runs call with the C progress callback and its user pointer when ctx can
// be cancelled or carries a ProgressFunc, else with NULL (the plain C function's cost).
// A call the callback stopped (TOKENRING_E_CANCELLED) returns an *Error that also
// unwraps to ctx.Err(). A context already done stops the call before C is reached.
func withProgress(ctx context.Context, call func(fn C.tokenring_progress_fn, user unsafe.Pointer) error) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return &Error{Code: CodeCancelled, Message: "not started: " + err.Error(), cause: err}
	}
	fn, _ := ctx.Value(progressKey{}).(ProgressFunc)
	if fn == nil && ctx.Done() == nil {
		return call(nil, nil)
	}
	h := cgo.NewHandle(&progress{ctx: ctx, fn: fn})
	defer h.Delete()
	// &h points to Go memory without Go pointers that C reads only during the call.
	err := call(C.tokenring_progress_fn(C.tokenringGoProgress), unsafe.Pointer(&h))
	if e, ok := err.(*Error); ok && e.Code == CodeCancelled {
		e.cause = ctx.Err()
		if e.cause == nil {
			e.cause = context.Canceled
		}
		// The library says its progress callback stopped it; say why: the context's
		// deadline or its cancellation.
		e.Message += " (" + e.cause.Error() + ")"
	}
	return err
}
