// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <stdlib.h>
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"context"
	"strings"
	"unsafe"
)

// MetadataLogRow is one row of Cassandra 6.0's system_views.cluster_metadata_log, as the
// text of its columns (Epoch in decimal).
type MetadataLogRow struct {
	Epoch, Kind, Transformation string
}

// MetadataNodeRow is one row of Cassandra 6.0's system_views.cluster_metadata_directory,
// as the text of its columns ("" for a null BroadcastPort or State; NodeID in decimal).
type MetadataNodeRow struct {
	NodeID, BroadcastAddress, BroadcastPort, DC, Rack, State string
	Tokens                                                   []string
}

// HistoryFromMetadata builds a history from what a driver reads on Cassandra 6.0: the
// rows of system_views.cluster_metadata_log and cluster_metadata_directory, with the
// keyspaces' replications from keyspaces (a router built from the same moment's rows;
// nil when no user keyspace is created in the log), under the rules of
// tokenring_history_from_metadata (doc/cassandra-6.md). A bad row gives an *Error naming
// it; an operation in progress, an entry the replay does not model or a log that lost
// its first entries gives CodeUnsupported; a replay estimated above lim's budget a
// *BudgetError.
func HistoryFromMetadata(log []MetadataLogRow, directory []MetadataNodeRow, keyspaces *Router, lim Limits) (*History, error) {
	var frees []unsafe.Pointer
	defer func() {
		for _, f := range frees {
			C.free(f)
		}
	}()
	cstr := func(what, s string) (*C.char, error) {
		if strings.IndexByte(s, 0) >= 0 {
			return nil, goError(CodeInvalid, "%s %q contains a NUL byte", what, s)
		}
		p := C.CString(s)
		frees = append(frees, unsafe.Pointer(p))
		return p, nil
	}
	alloc := func(n int, size uintptr) unsafe.Pointer {
		if n == 0 {
			return nil
		}
		p := C.calloc(C.size_t(n), C.size_t(size))
		if p != nil {
			frees = append(frees, p)
		}
		return p
	}
	var err error
	logC := (*C.tokenring_metadata_log_row)(alloc(len(log), unsafe.Sizeof(C.tokenring_metadata_log_row{})))
	dirC := (*C.tokenring_metadata_node_row)(alloc(len(directory), unsafe.Sizeof(C.tokenring_metadata_node_row{})))
	if (len(log) > 0 && logC == nil) || (len(directory) > 0 && dirC == nil) {
		return nil, goError(CodeNoMem, "out of memory")
	}
	if len(log) > 0 {
		rows := unsafe.Slice(logC, len(log))
		for i, r := range log {
			if rows[i].epoch, err = cstr("epoch", r.Epoch); err != nil {
				return nil, err
			}
			if rows[i].kind, err = cstr("kind", r.Kind); err != nil {
				return nil, err
			}
			if rows[i].transformation, err = cstr("transformation", r.Transformation); err != nil {
				return nil, err
			}
		}
	}
	if len(directory) > 0 {
		rows := unsafe.Slice(dirC, len(directory))
		for i, r := range directory {
			fields := []struct {
				dst *(*C.char)
				val string
				opt bool
			}{
				{&rows[i].node_id, r.NodeID, false},
				{&rows[i].broadcast_address, r.BroadcastAddress, false},
				{&rows[i].broadcast_port, r.BroadcastPort, true},
				{&rows[i].dc, r.DC, false},
				{&rows[i].rack, r.Rack, false},
				{&rows[i].state, r.State, true},
			}
			for _, f := range fields {
				if f.opt && f.val == "" {
					continue
				}
				if *f.dst, err = cstr("directory column", f.val); err != nil {
					return nil, err
				}
			}
			if len(r.Tokens) > 0 {
				toks := (**C.char)(alloc(len(r.Tokens), unsafe.Sizeof((*C.char)(nil))))
				if toks == nil {
					return nil, goError(CodeNoMem, "out of memory")
				}
				ts := unsafe.Slice(toks, len(r.Tokens))
				for j, t := range r.Tokens {
					if ts[j], err = cstr("token", t); err != nil {
						return nil, err
					}
				}
				rows[i].tokens = toks
				rows[i].token_count = C.size_t(len(r.Tokens))
			}
		}
	}
	var hs []handle
	if keyspaces != nil {
		hs = append(hs, keyspaces)
	}
	unlock, err := lockAll(hs...)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var ks *C.tokenring_router
	if keyspaces != nil {
		ks = keyspaces.ptr
	}
	var h *C.tokenring_history
	_, err = withLimits(context.Background(), lim, func(l *C.tokenring_limits) error {
		var detail C.tokenring_error
		return newError(C.tokenring_history_from_metadata(&h, logC, C.size_t(len(log)), dirC,
			C.size_t(len(directory)), ks, l, &detail), &detail)
	})
	if err != nil {
		return nil, err
	}
	return adoptHistory(h), nil
}

// WithHistory returns a new snapshot of r whose every keyspace routes through h's
// placement of its replication (Cassandra 6.0's order, OrderHistory), with r's nodes,
// tags and liveness (tokenring_router_with_history). An *Error with CodeInvalid when h's
// ring is not r's (e.g. a metadata log older than the peers rows); r is unchanged.
func (r *Router) WithHistory(h *History) (*Router, error) {
	unlock, err := lockAll(r, h)
	if err != nil {
		return nil, err
	}
	defer unlock()
	var out *C.tokenring_router
	var detail C.tokenring_error
	if err := newError(C.tokenring_router_with_history(&out, r.ptr, h.ptr, &detail), &detail); err != nil {
		return nil, err
	}
	return adoptRouter(out), nil
}
