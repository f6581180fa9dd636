// SPDX-License-Identifier: Apache-2.0

package tokenring

// #include <tokenring/tokenring.h>
import "C"

import "unsafe"

// Router, RouterBuilder and RouterHolder are handles of the lock order of handles.go: a
// call naming two handles (Router.Apply with a Placement, RouterBuilder.AddCluster,
// RouterHolder.Swap) locks them through lockAll. Router and RouterHolder read-lock in
// their methods and write-lock in Close; RouterBuilder locks its mutex. Nil pointers,
// zero values and closed handles answer with an error, as the other handles do.

func (r *Router) isNil() bool          { return r == nil }
func (r *Router) lock()                { r.mu.RLock() }
func (r *Router) unlock()              { r.mu.RUnlock() }
func (r *Router) addr() uintptr        { return uintptr(unsafe.Pointer(r)) }
func (b *RouterBuilder) isNil() bool   { return b == nil }
func (b *RouterBuilder) lock()         { b.mu.Lock() }
func (b *RouterBuilder) unlock()       { b.mu.Unlock() }
func (b *RouterBuilder) addr() uintptr { return uintptr(unsafe.Pointer(b)) }
func (h *RouterHolder) isNil() bool    { return h == nil }
func (h *RouterHolder) lock()          { h.mu.RLock() }
func (h *RouterHolder) unlock()        { h.mu.RUnlock() }
func (h *RouterHolder) addr() uintptr  { return uintptr(unsafe.Pointer(h)) }

func (r *Router) gone() error {
	if r == nil {
		return nilHandle("Router")
	}
	if r.ptr != nil {
		return nil
	}
	if r.closed {
		return ErrClosed
	}
	return zeroValue("Router", "RouterBuilder.Build, Router.Apply or RouterHolder.Current")
}

func (b *RouterBuilder) gone() error {
	if b == nil {
		return nilHandle("RouterBuilder")
	}
	if b.ptr != nil {
		return nil
	}
	if b.closed {
		return ErrClosed
	}
	return zeroValue("RouterBuilder", "NewRouterBuilder")
}

func (h *RouterHolder) gone() error {
	if h == nil {
		return nilHandle("RouterHolder")
	}
	if h.ptr != nil {
		return nil
	}
	if h.closed {
		return ErrClosed
	}
	return zeroValue("RouterHolder", "NewRouterHolder")
}

// enter read-locks a Router for a method on it alone and returns its C object, or the
// error of a nil, closed or zero router (then unlocked). The method defers
// r.mu.RUnlock() after a nil error.
func (r *Router) enter() (*C.tokenring_router, error) {
	if r == nil {
		return nil, nilHandle("Router")
	}
	r.mu.RLock()
	if r.ptr == nil {
		r.mu.RUnlock()
		return nil, r.gone()
	}
	return r.ptr, nil
}

// enter locks a RouterBuilder (the method defers b.mu.Unlock() after a nil error).
func (b *RouterBuilder) enter() error {
	if b == nil {
		return nilHandle("RouterBuilder")
	}
	b.mu.Lock()
	if b.ptr == nil {
		b.mu.Unlock()
		return b.gone()
	}
	return nil
}

// enter read-locks a RouterHolder (the method defers h.mu.RUnlock() after a nil error).
func (h *RouterHolder) enter() error {
	if h == nil {
		return nilHandle("RouterHolder")
	}
	h.mu.RLock()
	if h.ptr == nil {
		h.mu.RUnlock()
		return h.gone()
	}
	return nil
}
