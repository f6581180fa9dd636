// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <stdlib.h>
#include <tokenring/tokenring.h>
*/
import "C"

// The tokens of a topology of any partitioner: one call per operation with the tokens in
// Cassandra's text form (token_text.go), and the typed forms of RandomPartitioner
// (Token128) and ByteOrderedPartitioner ([]byte) over them.

// NewPartitionedTopology returns an empty topology of the given partitioner. Its tokens
// enter through AddNodeText (any partitioner), AddNode128 (Random) or AddNodeBytes
// (ByteOrdered); AddNode and SetTokens return ErrUnsupported on a RandomPartitioner or
// ByteOrderedPartitioner topology, and NodeInfo.Tokens is nil there (see NodeTokensText).
func NewPartitionedTopology(p Partitioner) (*Topology, error) {
	var ptr *C.tokenring_topology
	if err := check(C.tokenring_topology_new_partitioned(&ptr, C.tokenring_partitioner(p))); err != nil {
		return nil, err
	}
	return wrapTopology(ptr), nil
}

// Partitioner returns the topology's partitioner (Murmur3 for the zero value).
func (t *Topology) Partitioner() Partitioner {
	if t == nil {
		return PartitionerMurmur3
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return Partitioner(C.tokenring_topology_partitioner(t.ptr))
}

// AddNodeText adds a node with tokens in the text form of the topology's partitioner
// (Murmur3 "-42", RandomPartitioner "170141183460469231731687303715884105728" or "-1",
// ByteOrderedPartitioner hex "0abc"), with AddNode's other rules; a bad token is named
// with its position. On failure the topology is unchanged.
func (t *Topology) AddNodeText(name, datacenter, rack string, tokens []string) error {
	cn, cd, cr, err := nodeNames(name, datacenter, rack)
	if err != nil {
		return err
	}
	toks, free, err := cTexts(tokens)
	if err != nil {
		return err
	}
	defer free()
	if err := t.enter(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	var detail C.tokenring_error
	st := C.tokenring_topology_add_node_text(t.ptr, charp(cn), charp(cd), charp(cr), toks, C.size_t(len(tokens)), &detail)
	return newError(st, &detail)
}

// SetTokensText gives a node new tokens (a completed move) in the text form of the
// topology's partitioner.
func (t *Topology) SetTokensText(name string, tokens []string) error {
	cn, err := cname("node name", name)
	if err != nil {
		return err
	}
	toks, free, err := cTexts(tokens)
	if err != nil {
		return err
	}
	defer free()
	if err := t.enter(); err != nil {
		return err
	}
	defer t.mu.Unlock()
	var detail C.tokenring_error
	return newError(C.tokenring_topology_set_tokens_text(t.ptr, charp(cn), toks, C.size_t(len(tokens)), &detail), &detail)
}

// NodeTokensText returns the tokens (ascending) of node i in the text form of the
// topology's partitioner, for any partitioner.
func (t *Topology) NodeTokensText(i int) ([]string, error) {
	if i < 0 {
		return nil, goError(CodeRange, "node index %d is negative", i)
	}
	if err := t.enter(); err != nil {
		return nil, err
	}
	defer t.mu.Unlock()
	var n C.tokenring_node_info
	if err := check(C.tokenring_topology_node(&n, t.ptr, C.size_t(i))); err != nil {
		return nil, err
	}
	out := make([]string, int(n.token_count))
	for k := range out {
		s, err := textOut(nil, func(o *C.char, cp C.size_t, l *C.size_t) C.int {
			return C.tokenring_topology_node_token_text(o, cp, l, t.ptr, C.size_t(i), C.size_t(k))
		})
		if err != nil {
			return nil, err
		}
		out[k] = s
	}
	return out, nil
}

// AddNode128 adds a node of a RandomPartitioner topology with its tokens (0 .. 2^127;
// Token128Min is refused with ErrRange), with AddNode's other rules: AddNodeText.
func (t *Topology) AddNode128(name, datacenter, rack string, tokens []Token128) error {
	if err := t.expect(PartitionerRandom, "AddNode128"); err != nil {
		return err
	}
	return t.AddNodeText(name, datacenter, rack, token128Texts(tokens))
}

// AddNodeBytes adds a node of a ByteOrderedPartitioner topology (tokens copied; at most
// ByteTokenMax bytes each), with AddNode's other rules: AddNodeText.
func (t *Topology) AddNodeBytes(name, datacenter, rack string, tokens [][]byte) error {
	if err := t.expect(PartitionerByteOrdered, "AddNodeBytes"); err != nil {
		return err
	}
	return t.AddNodeText(name, datacenter, rack, byteTexts(tokens))
}

// SetTokens128 gives a node of a RandomPartitioner topology new tokens (a completed move).
func (t *Topology) SetTokens128(name string, tokens []Token128) error {
	if err := t.expect(PartitionerRandom, "SetTokens128"); err != nil {
		return err
	}
	return t.SetTokensText(name, token128Texts(tokens))
}

// SetTokensBytes gives a node of a ByteOrderedPartitioner topology new tokens.
func (t *Topology) SetTokensBytes(name string, tokens [][]byte) error {
	if err := t.expect(PartitionerByteOrdered, "SetTokensBytes"); err != nil {
		return err
	}
	return t.SetTokensText(name, byteTexts(tokens))
}

// NodeTokens128 returns the tokens (ascending) of node i of a RandomPartitioner topology.
func (t *Topology) NodeTokens128(i int) ([]Token128, error) {
	if err := t.expect(PartitionerRandom, "NodeTokens128"); err != nil {
		return nil, err
	}
	texts, err := t.NodeTokensText(i)
	if err != nil {
		return nil, err
	}
	return token128sOfTexts(texts)
}

// NodeTokensBytes returns copies of the tokens (ascending) of node i of a
// ByteOrderedPartitioner topology.
func (t *Topology) NodeTokensBytes(i int) ([][]byte, error) {
	if err := t.expect(PartitionerByteOrdered, "NodeTokensBytes"); err != nil {
		return nil, err
	}
	texts, err := t.NodeTokensText(i)
	if err != nil {
		return nil, err
	}
	return bytesOfTexts(texts)
}
