// SPDX-License-Identifier: Apache-2.0

//go:build cgo

package tokenring

import (
	"sort"
	"unsafe"
)

// One lock order for every call that takes several handles. Topology, Replication and
// Cluster hold a mutex; Ring and Placement a read-write mutex that every method
// read-locks and Close write-locks. A call naming several handles locks them all with
// lockAll, in the order of their addresses, whatever their types and the order of the
// arguments: a pending Close (a waiting writer blocks new readers) can then never close
// a cycle between two such calls (Ring.Balance(p) against Placement.Update(ring), or
// TokensKept(a, b) against TokensKept(b, a)). Each handle is locked once however often it
// is named: a read lock must not be taken twice with a writer waiting. Close locks only
// its own handle, and no method calls another that locks while it holds a lock.

// handle is one of the five handle types, possibly a nil pointer.
type handle interface {
	isNil() bool
	lock()   // Lock, or RLock for Ring and Placement
	unlock() // the matching unlock
	addr() uintptr
	gone() error // nil for a live handle, else ErrInvalid (nil), ErrClosed or ErrZeroValue
}

func (t *Topology) isNil() bool      { return t == nil }
func (t *Topology) lock()            { t.mu.Lock() }
func (t *Topology) unlock()          { t.mu.Unlock() }
func (t *Topology) addr() uintptr    { return uintptr(unsafe.Pointer(t)) }
func (r *Replication) isNil() bool   { return r == nil }
func (r *Replication) lock()         { r.mu.Lock() }
func (r *Replication) unlock()       { r.mu.Unlock() }
func (r *Replication) addr() uintptr { return uintptr(unsafe.Pointer(r)) }
func (c *Cluster) isNil() bool       { return c == nil }
func (c *Cluster) lock()             { c.mu.Lock() }
func (c *Cluster) unlock()           { c.mu.Unlock() }
func (c *Cluster) addr() uintptr     { return uintptr(unsafe.Pointer(c)) }
func (r *Ring) isNil() bool          { return r == nil }
func (r *Ring) lock()                { r.mu.RLock() }
func (r *Ring) unlock()              { r.mu.RUnlock() }
func (r *Ring) addr() uintptr        { return uintptr(unsafe.Pointer(r)) }
func (p *Placement) isNil() bool     { return p == nil }
func (p *Placement) lock()           { p.mu.RLock() }
func (p *Placement) unlock()         { p.mu.RUnlock() }
func (p *Placement) addr() uintptr   { return uintptr(unsafe.Pointer(p)) }

// lockAll locks the distinct non-nil handles of hs in address order. It returns the
// unlock, or, when a handle is nil, closed or a zero value, the error of the first such
// in argument order with nothing left locked (and unlock a no-op).
func lockAll(hs ...handle) (unlock func(), err error) {
	uniq := make([]handle, 0, len(hs))
	for _, h := range hs {
		if h.isNil() {
			continue
		}
		dup := false
		for _, u := range uniq {
			if u.addr() == h.addr() {
				dup = true
				break
			}
		}
		if !dup {
			uniq = append(uniq, h)
		}
	}
	sort.Slice(uniq, func(i, j int) bool { return uniq[i].addr() < uniq[j].addr() })
	for _, h := range uniq {
		h.lock()
	}
	unlock = func() {
		for i := len(uniq) - 1; i >= 0; i-- {
			uniq[i].unlock()
		}
	}
	for _, h := range hs {
		if err = h.gone(); err != nil {
			unlock()
			return func() {}, err
		}
	}
	return unlock, nil
}

// enter locks a Topology, Replication or Cluster for a method on it alone and returns
// nil, or the error of a nil, closed or zero handle (then unlocked). The method defers
// h.mu.Unlock() after a nil error.
func (t *Topology) enter() error {
	if t == nil {
		return nilHandle("Topology")
	}
	t.mu.Lock()
	if t.ptr == nil {
		t.mu.Unlock()
		return t.gone()
	}
	return nil
}

func (r *Replication) enter() error {
	if r == nil {
		return nilHandle("Replication")
	}
	r.mu.Lock()
	if r.ptr == nil {
		r.mu.Unlock()
		return r.gone()
	}
	return nil
}

func (c *Cluster) enter() error {
	if c == nil {
		return nilHandle("Cluster")
	}
	c.mu.Lock()
	if c.ptr == nil {
		c.mu.Unlock()
		return c.gone()
	}
	return nil
}

// nilHandle is the error of a nil handle, as a receiver or an argument.
func nilHandle(typ string) error {
	return &Error{Code: CodeInvalid, Message: "nil *tokenring." + typ}
}
