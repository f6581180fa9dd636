// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"fmt"
	"io"
	"runtime"
	"sync"
	"unsafe"
)

// InputFormat is a text format a Cluster can parse (tokenring_input_format).
type InputFormat int

// Input formats.
const (
	FormatAuto           InputFormat = 0 // detect from the first lines
	FormatTopology       InputFormat = 1 // the topology file
	FormatTSV            InputFormat = 2 // node, dc, rack, tokens columns
	FormatNodetoolRing   InputFormat = 3 // `nodetool ring` output
	FormatNodetoolStatus InputFormat = 4 // `nodetool status` output
	FormatCQLSH          InputFormat = 5 // cqlsh output of system.peers_v2/local
	// `nodetool describering KEYSPACE` output: each range's end token belongs to its first
	// endpoint; refused, with the range and the reason, where it does not determine the
	// ring (doc/topology-format.md). Since library 1.2.
	FormatNodetoolDescribering InputFormat = 6
)

// String returns the format's short name ("topology", "tsv", "nodetool-ring",
// "nodetool-status", "cqlsh", "nodetool-describering", "auto"; "unknown" otherwise).
func (f InputFormat) String() string { return C.GoString(C.tokenring_input_format_name(C.int(f))) }

// DetectFormat guesses the format of a text from its first lines; FormatAuto when
// nothing matches.
func DetectFormat(text string) InputFormat {
	return InputFormat(C.tokenring_input_detect(textPtr(text), C.size_t(len(text))))
}

// ParseFlags modify Cluster.Parse.
type ParseFlags uint32

// Parse flags.
const (
	// AllowPartial accepts a visibly incomplete listing (an elided nodetool ring, a cqlsh
	// token set cut short, a datacenter block or table without rows); the cluster then
	// reports ClusterPartial.
	AllowPartial ParseFlags = 1
	// MergeDisjoint merges an input although it shares no node with the nodes already
	// read (nodetool and cqlsh outputs; without it that is an error: the outputs of two
	// clusters).
	MergeDisjoint ParseFlags = 2
)

// ClusterFlags describe a cluster as a whole.
type ClusterFlags uint32

// Cluster flags.
const (
	// ClusterPartial: an input was accepted with AllowPartial and was incomplete.
	ClusterPartial ClusterFlags = 1
	// ClusterTokensUnknown: some node's tokens are unknown (only their count is), so
	// the cluster has no topology.
	ClusterTokensUnknown ClusterFlags = 2
	// ClusterPartitionerInferred: the partitioner (RandomPartitioner or
	// ByteOrderedPartitioner) was inferred from the tokens' form, not fixed or named by
	// an input; Murmur3, the default, never is.
	ClusterPartitionerInferred ClusterFlags = 4
	// ClusterDefaultDCRack: an input gave some node's tokens without its datacenter and
	// rack (cqlsh SELECT peer, tokens FROM system.peers_v2): it is in datacenter1, rack
	// rack1 (Cassandra's SimpleSnitch defaults); a system.local row without its address
	// is the node "local".
	ClusterDefaultDCRack ClusterFlags = 8
)

// ClusterNode is a copy of one node of a Cluster.
type ClusterNode struct {
	Name           string
	Datacenter     string
	Rack           string
	HostID         string  // "" when the input had none
	Tokens         []int64 // nil when unknown, and on another partitioner than Murmur3 (Topology's NodeTokens128, NodeTokensBytes give those)
	DeclaredTokens int     // the node's token count (known or as the input declared it)
	State          NodeState
	Liveness       Liveness
	Line           int // 1-based line where the input first named the node, 0 if none
}

// Keyspace is one keyspace of a Cluster with its replication formatted as a CQL map.
type Keyspace struct {
	Name        string
	Replication string
}

// Cluster is a parsed cluster description: nodes (with datacenter, rack, state,
// liveness, host ID and tokens when known) plus keyspaces with their replication. Parse
// several inputs into one Cluster to merge them (for instance `nodetool status` for host
// IDs and `nodetool ring` for tokens). Methods are serialized by a mutex; a failing Parse
// leaves the cluster unchanged. Close when done (a finalizer is only a safety net).
//
// The zero value is not a cluster: methods return ErrZeroValue until it is replaced by one
// from NewCluster; they never panic.
type Cluster struct {
	mu     sync.Mutex
	ptr    *C.tokenring_cluster
	closed bool // set by Close: tells a closed handle from a zero value
}

// NewCluster returns an empty cluster.
func NewCluster() (*Cluster, error) {
	var p *C.tokenring_cluster
	if err := check(C.tokenring_cluster_new(&p)); err != nil {
		return nil, err
	}
	c := &Cluster{ptr: p}
	runtime.SetFinalizer(c, (*Cluster).Close)
	return c, nil
}

// Close frees the cluster. Calling it again does nothing.
func (c *Cluster) Close() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ptr != nil {
		C.tokenring_cluster_free(c.ptr)
		c.ptr = nil
		c.closed = true
		runtime.SetFinalizer(c, nil)
	}
	return nil
}

// Parse parses text in the given format (FormatAuto detects it) and merges it into the
// cluster; it returns the format actually parsed. Errors carry the 1-based Line and
// Column and what was expected (ErrParse), or the builder's code (ErrExists for a token
// held twice or a merge conflict).
func (c *Cluster) Parse(format InputFormat, text string, flags ParseFlags) (InputFormat, error) {
	if err := c.enter(); err != nil {
		return 0, err
	}
	defer c.mu.Unlock()
	var got C.int
	var detail C.tokenring_error
	st := C.tokenring_cluster_parse(c.ptr, C.int(format), textPtr(text), C.size_t(len(text)), C.uint32_t(flags), &got, &detail)
	if err := newError(st, &detail); err != nil {
		return 0, err
	}
	return InputFormat(got), nil
}

// ParseBytes is Parse on a byte slice (passed to C in place, without a copy).
func (c *Cluster) ParseBytes(format InputFormat, text []byte, flags ParseFlags) (InputFormat, error) {
	if err := c.enter(); err != nil {
		return 0, err
	}
	defer c.mu.Unlock()
	var got C.int
	var detail C.tokenring_error
	st := C.tokenring_cluster_parse(c.ptr, C.int(format), (*C.char)(bytesPtr(text)), C.size_t(len(text)), C.uint32_t(flags), &got, &detail)
	if err := newError(st, &detail); err != nil {
		return 0, err
	}
	return InputFormat(got), nil
}

// ParseReader reads r to its end and parses what it read as Parse does (a file, a pipe,
// an HTTP body). An error reading r is returned wrapped ("tokenring: parse: reading
// input: ..."; errors.Is sees the reader's error) and leaves the cluster unchanged.
func (c *Cluster) ParseReader(format InputFormat, r io.Reader, flags ParseFlags) (InputFormat, error) {
	if r == nil {
		return 0, goError(CodeInvalid, "nil io.Reader")
	}
	text, err := io.ReadAll(r)
	if err != nil {
		return 0, fmt.Errorf("tokenring: parse: reading input: %w", err)
	}
	return c.ParseBytes(format, text, flags)
}

// AddTopology merges every node of a topology into the cluster.
func (c *Cluster) AddTopology(t *Topology) error {
	unlock, err := lockAll(c, t)
	if err != nil {
		return err
	}
	defer unlock()
	var detail C.tokenring_error
	return newError(C.tokenring_cluster_add_topology(c.ptr, t.ptr, &detail), &detail)
}

// AddKeyspace adds a keyspace with a copy of its replication.
func (c *Cluster) AddKeyspace(name string, repl *Replication) error {
	cn, err := cname("keyspace name", name)
	if err != nil {
		return err
	}
	unlock, err := lockAll(c, repl)
	if err != nil {
		return err
	}
	defer unlock()
	var detail C.tokenring_error
	return newError(C.tokenring_cluster_add_keyspace(c.ptr, charp(cn), repl.ptr, &detail), &detail)
}

// Nodes returns a copy of every node, in the order the inputs first named them.
func (c *Cluster) Nodes() ([]ClusterNode, error) {
	if err := c.enter(); err != nil {
		return nil, err
	}
	defer c.mu.Unlock()
	out := make([]ClusterNode, int(C.tokenring_cluster_node_count(c.ptr)))
	var n C.tokenring_cluster_node_info
	for i := range out {
		if err := check(C.tokenring_cluster_node(&n, c.ptr, C.size_t(i))); err != nil {
			return nil, err
		}
		node := ClusterNode{
			Name: goStringN(n.name), Datacenter: goStringN(n.datacenter), Rack: goStringN(n.rack),
			HostID: goStringN(n.host_id), DeclaredTokens: int(n.declared_tokens),
			State: NodeState(n.state), Liveness: Liveness(n.liveness), Line: int(n.line),
		}
		if n.tokens != nil && n.token_count > 0 {
			node.Tokens = append([]int64(nil), unsafe.Slice((*int64)(unsafe.Pointer(n.tokens)), int(n.token_count))...)
		}
		out[i] = node
	}
	return out, nil
}

// SetPartitioner fixes the partitioner whose string form the cluster's inputs give tokens
// in. Without it, an input's tokens are Murmur3 tokens when every one is a signed 64-bit
// decimal, else RandomPartitioner tokens (decimals 0 .. 2^127), else
// ByteOrderedPartitioner tokens (hex); a topology file's `partitioner` line and cqlsh
// system.local's partitioner column name it too. ErrExists when the cluster already has
// another partitioner (its tokens, an earlier call or an input named it).
func (c *Cluster) SetPartitioner(p Partitioner) error {
	if err := c.enter(); err != nil {
		return err
	}
	defer c.mu.Unlock()
	var detail C.tokenring_error
	return newError(C.tokenring_cluster_set_partitioner(c.ptr, C.tokenring_partitioner(p), &detail), &detail)
}

// Partitioner returns the partitioner of the cluster's tokens (Murmur3 while none is
// known, and after Close).
func (c *Cluster) Partitioner() Partitioner {
	if c == nil {
		return PartitionerMurmur3
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return Partitioner(C.tokenring_cluster_partitioner(c.ptr))
}

// Flags returns the cluster's properties (0 after Close).
func (c *Cluster) Flags() ClusterFlags {
	if c == nil {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return ClusterFlags(C.tokenring_cluster_flags(c.ptr))
}

// Topology returns an independent copy of the cluster's nodes as a Topology. A cluster
// without nodes, or with a node whose tokens are unknown, gives ErrEmpty.
func (c *Cluster) Topology() (*Topology, error) {
	if err := c.enter(); err != nil {
		return nil, err
	}
	defer c.mu.Unlock()
	t := C.tokenring_cluster_topology(c.ptr)
	if t == nil {
		return nil, goError(CodeEmpty, "the cluster has no topology: no nodes, or some node's tokens are unknown")
	}
	var p *C.tokenring_topology
	if err := check(C.tokenring_topology_clone(&p, t)); err != nil {
		return nil, err
	}
	return wrapTopology(p), nil
}

// Keyspaces returns the keyspaces in the order they were added.
func (c *Cluster) Keyspaces() ([]Keyspace, error) {
	if err := c.enter(); err != nil {
		return nil, err
	}
	defer c.mu.Unlock()
	out := make([]Keyspace, int(C.tokenring_cluster_keyspace_count(c.ptr)))
	for i := range out {
		var name *C.char
		var repl *C.tokenring_replication
		if err := check(C.tokenring_cluster_keyspace(&name, &repl, c.ptr, C.size_t(i))); err != nil {
			return nil, err
		}
		s, err := formatReplication(repl)
		if err != nil {
			return nil, err
		}
		out[i] = Keyspace{Name: goStringN(name), Replication: s}
	}
	return out, nil
}

// NodetoolColumns are the Load and Owns cells a pasted `nodetool status` or `ring`
// printed for a node ("105.3 KiB", "33.5%"); empty where it printed "?" or the input had
// none. nodetool's figures, as pasted.
type NodetoolColumns struct {
	Name, Load, Owns string
}

// NodetoolColumns lists every node's pasted Load and Owns cells, in node order
// (tokenring_cluster_node_columns). Since library 1.2.
func (c *Cluster) NodetoolColumns() ([]NodetoolColumns, error) {
	if err := c.enter(); err != nil {
		return nil, err
	}
	defer c.mu.Unlock()
	out := make([]NodetoolColumns, int(C.tokenring_cluster_node_count(c.ptr)))
	for i := range out {
		var info C.tokenring_cluster_node_info
		if err := check(C.tokenring_cluster_node(&info, c.ptr, C.size_t(i))); err != nil {
			return nil, err
		}
		var load, owns *C.char
		if err := check(C.tokenring_cluster_node_columns(&load, &owns, c.ptr, C.size_t(i))); err != nil {
			return nil, err
		}
		out[i].Name = goStringN(info.name)
		if load != nil {
			out[i].Load = goStringN(load)
		}
		if owns != nil {
			out[i].Owns = goStringN(owns)
		}
	}
	return out, nil
}

// SkippedKeyspace is a keyspace a cqlsh `SELECT * FROM system_schema.keyspaces` table
// listed but the cluster does not keep: its replication class (LocalStrategy,
// EverywhereStrategy, MetaStrategy) places nothing on the token ring.
type SkippedKeyspace struct {
	Name  string
	Class string // as cqlsh printed it, e.g. org.apache.cassandra.locator.LocalStrategy
}

// SkippedKeyspaces lists the keyspaces skipped while reading system_schema.keyspaces, in
// reading order (tokenring_cluster_skipped_keyspace). Since library 1.2.
func (c *Cluster) SkippedKeyspaces() ([]SkippedKeyspace, error) {
	if err := c.enter(); err != nil {
		return nil, err
	}
	defer c.mu.Unlock()
	out := make([]SkippedKeyspace, int(C.tokenring_cluster_skipped_keyspace_count(c.ptr)))
	for i := range out {
		var name, cls *C.char
		if err := check(C.tokenring_cluster_skipped_keyspace(&name, &cls, c.ptr, C.size_t(i))); err != nil {
			return nil, err
		}
		out[i] = SkippedKeyspace{Name: goStringN(name), Class: goStringN(cls)}
	}
	return out, nil
}

// KeyspaceReplication returns an owned copy of a keyspace's replication (close it), or
// ErrNotFound.
func (c *Cluster) KeyspaceReplication(name string) (*Replication, error) {
	cn, err := cname("keyspace name", name)
	if err != nil {
		return nil, err
	}
	if err := c.enter(); err != nil {
		return nil, err
	}
	var idx C.size_t
	var repl *C.tokenring_replication
	var text string
	if err = check(C.tokenring_cluster_find_keyspace(&idx, c.ptr, charp(cn))); err != nil {
		err = &Error{Code: err.(*Error).Code, Message: "no keyspace named " + quote(name)}
	} else if err = check(C.tokenring_cluster_keyspace(nil, &repl, c.ptr, idx)); err == nil {
		text, err = formatReplication(repl)
	}
	c.mu.Unlock()
	if err != nil {
		return nil, err
	}
	return ParseReplication(text)
}

// Format writes the cluster in the topology file format (keyspaces first, then nodes
// with ascending tokens); parsing it gives back the same cluster.
func (c *Cluster) Format() (string, error) {
	if err := c.enter(); err != nil {
		return "", err
	}
	defer c.mu.Unlock()
	var n C.size_t
	st := C.tokenring_cluster_format(nil, 0, &n, c.ptr)
	if st != C.TOKENRING_OK && st != C.TOKENRING_E_BUFSIZE {
		return "", check(st)
	}
	buf := make([]byte, int(n)+1)
	if err := check(C.tokenring_cluster_format((*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), &n, c.ptr)); err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}

// formatReplication formats a borrowed C replication as a CQL map.
func formatReplication(r *C.tokenring_replication) (string, error) {
	var n C.size_t
	st := C.tokenring_replication_format(nil, 0, &n, r)
	if st != C.TOKENRING_OK && st != C.TOKENRING_E_BUFSIZE {
		return "", check(st)
	}
	buf := make([]byte, int(n)+1)
	if err := check(C.tokenring_replication_format((*C.char)(unsafe.Pointer(&buf[0])), C.size_t(len(buf)), &n, r)); err != nil {
		return "", err
	}
	return string(buf[:n]), nil
}
