// SPDX-License-Identifier: Apache-2.0

//go:build cgo

package tokenring

// Zero values. Topology, Ring, Replication, Placement and Cluster wrap C objects that
// only their constructors make, so their zero values (var t tokenring.Topology, or
// &tokenring.Ring{}) hold none. Every method of a zero value returns an error matching
// ErrZeroValue that names the type and its constructor (methods without an error result
// return a zero value); none panics. A handle that was Closed returns ErrClosed instead.

func zeroValue(typ, ctor string) error {
	return &Error{Code: CodeZeroValue, Message: "zero tokenring." + typ + " value: not made by " + ctor}
}

// gone is nil for a live handle, else the error of a handle without its C object: nil
// (ErrInvalid), closed or a zero value. Callers hold the handle's lock.
func (t *Topology) gone() error {
	if t == nil {
		return nilHandle("Topology")
	}
	if t.ptr != nil {
		return nil
	}
	if t.closed {
		return ErrClosed
	}
	return zeroValue("Topology", "NewTopology")
}

func (r *Ring) gone() error {
	if r == nil {
		return nilHandle("Ring")
	}
	if r.ptr != nil {
		return nil
	}
	if r.closed {
		return ErrClosed
	}
	return zeroValue("Ring", "Topology.Build")
}

func (r *Replication) gone() error {
	if r == nil {
		return nilHandle("Replication")
	}
	if r.ptr != nil {
		return nil
	}
	if r.closed {
		return ErrClosed
	}
	return zeroValue("Replication", "ParseReplication, NewSimpleStrategy or NewNetworkTopologyStrategy")
}

func (p *Placement) gone() error {
	if p == nil {
		return nilHandle("Placement")
	}
	if p.ptr != nil {
		return nil
	}
	if p.closed.Load() {
		return ErrClosed
	}
	return zeroValue("Placement", "BuildPlacement")
}

func (c *Cluster) gone() error {
	if c == nil {
		return nilHandle("Cluster")
	}
	if c.ptr != nil {
		return nil
	}
	if c.closed {
		return ErrClosed
	}
	return zeroValue("Cluster", "NewCluster")
}
