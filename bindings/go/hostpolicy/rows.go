// SPDX-License-Identifier: Apache-2.0

package hostpolicy

import (
	"fmt"

	tokenring "github.com/libtokenring/tokenring/bindings/go"
)

// The system-table queries a driver adapter reads a router with (all three from ONE
// host: other nodes may see another ring for a moment).
const (
	SelectLocal     = "SELECT rpc_address, broadcast_address, listen_address, data_center, rack, tokens, partitioner, host_id, release_version FROM system.local WHERE key='local'"
	SelectPeersV2   = "SELECT peer, native_address, data_center, rack, tokens, host_id FROM system.peers_v2"
	SelectPeers     = "SELECT peer, rpc_address, data_center, rack, tokens, host_id FROM system.peers"
	SelectKeyspaces = "SELECT keyspace_name, replication FROM system_schema.keyspaces"
)

// Row is one row of a system table as a driver's MapScan gives it (column name to
// value).
type Row = map[string]interface{}

// RowOptions are the choices of RouterFromRows.
type RowOptions struct {
	LocalDC         string // the datacenter of the routes' Local view ("" none)
	SkipUnsupported bool   // leave out a keyspace the router refuses instead of failing
}

// Text is a column value as text: "" for null (nil, or a nil IP); what fmt.Stringer
// gives (addresses, UUIDs); strings and byte slices as they are.
func Text(v interface{}) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case []byte:
		return string(x)
	case fmt.Stringer:
		s := x.String()
		if s == "<nil>" {
			return ""
		}
		return s
	default:
		return fmt.Sprint(x)
	}
}

func firstText(row Row, cols ...string) string {
	for _, c := range cols {
		if s := Text(row[c]); s != "" {
			return s
		}
	}
	return ""
}

// Tokens is a tokens column ([]string, or []interface{} of texts) as text.
func Tokens(v interface{}) ([]string, error) {
	switch x := v.(type) {
	case nil:
		return nil, nil
	case []string:
		return x, nil
	case []interface{}:
		out := make([]string, len(x))
		for i, t := range x {
			out[i] = Text(t)
		}
		return out, nil
	default:
		return nil, fmt.Errorf("tokens of type %T", v)
	}
}

// ReplicationMap is a replication column (map[string]string, or map[string]interface{})
// as a map of text.
func ReplicationMap(v interface{}) (map[string]string, error) {
	switch x := v.(type) {
	case map[string]string:
		return x, nil
	case map[string]interface{}:
		out := make(map[string]string, len(x))
		for k, s := range x {
			out[k] = Text(s)
		}
		return out, nil
	default:
		return nil, fmt.Errorf("replication of type %T", v)
	}
}

// RouterFromRows builds a router from one host's system.local row, its system.peers_v2
// (or system.peers) rows and system_schema.keyspaces rows (keyspace_name, replication),
// under the router's rules (tokenring.RouterBuilder: a row without datacenter is refused,
// a null rack is UNKNOWN_RACK, a node without tokens yet is left out, LocalStrategy /
// EverywhereStrategy / MetaStrategy keyspaces skipped, any partitioner the library models
// read). Node names are the addresses clients connect to (native_address / rpc_address;
// the peer address when those are null).
func RouterFromRows(local Row, peers []Row, keyspaces []Row, opt RowOptions) (*tokenring.Router, error) {
	b, err := tokenring.NewRouterBuilder(opt.LocalDC)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	toks, err := Tokens(local["tokens"])
	if err != nil {
		return nil, fmt.Errorf("system.local: %w", err)
	}
	addr := firstText(local, "rpc_address", "broadcast_address", "listen_address")
	if addr == "" {
		return nil, fmt.Errorf("system.local has no address (rpc_address, broadcast_address, listen_address)")
	}
	if err := b.AddLocal(addr, Text(local["data_center"]), Text(local["rack"]), Text(local["host_id"]),
		Text(local["partitioner"]), toks); err != nil {
		return nil, fmt.Errorf("system.local: %w", err)
	}
	for _, p := range peers {
		toks, err := Tokens(p["tokens"])
		addr := firstText(p, "native_address", "rpc_address", "peer")
		if err != nil {
			return nil, fmt.Errorf("peer %s: %w", addr, err)
		}
		if addr == "" {
			return nil, fmt.Errorf("a peer row has no address (native_address, rpc_address, peer)")
		}
		if err := b.AddPeer(addr, Text(p["data_center"]), Text(p["rack"]), Text(p["host_id"]), toks); err != nil {
			return nil, fmt.Errorf("peer %s: %w", addr, err)
		}
	}
	for _, k := range keyspaces {
		name := Text(k["keyspace_name"])
		m, err := ReplicationMap(k["replication"])
		if err == nil {
			err = b.AddKeyspace(name, m)
		}
		if err != nil {
			if opt.SkipUnsupported {
				continue
			}
			return nil, fmt.Errorf("keyspace %q: %w", name, err)
		}
	}
	return b.Build()
}

// ReplicaNames returns the names of a key's replicas in keyspace, in the server's order.
func ReplicaNames(r *tokenring.Router, keyspace string, key []byte) ([]string, error) {
	rt, err := r.Route(keyspace, key, 0)
	if err != nil {
		return nil, err
	}
	nodes, err := r.Nodes()
	if err != nil {
		return nil, err
	}
	out := make([]string, len(rt.Replicas))
	for i, n := range rt.Replicas {
		out[i] = nodes[n].Name
	}
	return out, nil
}
