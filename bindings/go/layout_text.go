// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <stdlib.h>
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"context"
)

// Layouts and allocation for every partitioner, the tokens in Cassandra's text form (one
// call each), and the RandomPartitioner (Token128) forms over them. ByteOrderedPartitioner
// has no token arithmetic, so no layout or allocation (ErrUnsupported).

// EvenTokensText returns numTokens evenly spaced tokens of partitioner p of slot slot out
// of slots interleaved slots, ascending, in text form: EvenTokens (Murmur3) or
// EvenTokens128 (RandomPartitioner).
func EvenTokensText(p Partitioner, numTokens, slot, slots int) ([]string, error) {
	if numTokens <= 0 || numTokens > LayoutMaxTokens || slots <= 0 || slots > 1<<31 || slot < 0 || slot >= slots {
		return nil, goError(CodeRange, "even layout of %d tokens, slot %d of %d: out of range", numTokens, slot, slots)
	}
	var l *C.tokenring_token_list
	var detail C.tokenring_error
	st := C.tokenring_layout_even_tokens_text(&l, C.tokenring_partitioner(p), C.uint32_t(numTokens), C.uint32_t(slot), C.uint32_t(slots), &detail)
	if err := newError(st, &detail); err != nil {
		return nil, err
	}
	return tokenList(l), nil
}

// EvenTokens128 returns numTokens evenly spaced RandomPartitioner tokens of slot slot out
// of slots interleaved slots: floor((j*slots + slot) * 2^127 / (numTokens*slots)),
// exactly, ascending. EvenTokens128(1, i, n) is the classic initial_token i * 2^127 / n of
// node i of n.
func EvenTokens128(numTokens, slot, slots int) ([]Token128, error) {
	texts, err := EvenTokensText(PartitionerRandom, numTokens, slot, slots)
	if err != nil {
		return nil, err
	}
	return token128sOfTexts(texts)
}

// SeededTokensText returns the count seeded tokens of partitioner p of the node identity
// (in vnode order) in text form, avoiding the tokens of other nodes of taken (nil for
// none; otherwise a topology of p, else ErrUnsupported): SeededTokens (Murmur3) or
// SeededTokens128 (RandomPartitioner).
func SeededTokensText(p Partitioner, count int, seed uint64, identity string, taken *Topology, flags LayoutFlags) ([]string, error) {
	var out []string
	err := seededCall(count, identity, taken, func(ci *C.char, tp *C.tokenring_topology, detail *C.tokenring_error) C.int {
		var l *C.tokenring_token_list
		st := C.tokenring_layout_seeded_tokens_text(&l, C.tokenring_partitioner(p), C.size_t(count), C.uint64_t(seed), ci, tp, C.uint32_t(flags), detail)
		if st == C.TOKENRING_OK {
			out = tokenList(l)
		}
		return st
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// SeededTokens128 returns the count RandomPartitioner seeded tokens of the node identity
// (in vnode order), avoiding the tokens of other nodes of taken (nil for none; otherwise
// a RandomPartitioner topology, else ErrUnsupported).
func SeededTokens128(count int, seed uint64, identity string, taken *Topology, flags LayoutFlags) ([]Token128, error) {
	texts, err := SeededTokensText(PartitionerRandom, count, seed, identity, taken, flags)
	if err != nil {
		return nil, err
	}
	return token128sOfTexts(texts)
}

// AllocateAsCassandraText is AllocateAsCassandra for a topology of any partitioner with
// the tokens in text form (tokenring_allocate_cassandra_text): the tokens (ascending)
// Cassandra release gives node name there, bit for bit. firstToken, when not nil, is the
// token an empty ring starts at, in text form. ByteOrderedPartitioner: ErrUnsupported.
func (t *Topology) AllocateAsCassandraText(numTokens int, name, datacenter, rack string, keyspace *Replication, localRF int, firstToken *string, release CassandraRelease, flags LayoutFlags) ([]string, error) {
	var first []byte
	if firstToken != nil {
		var err error
		if first, err = cname("first token", *firstToken); err != nil {
			return nil, err
		}
	}
	var out []string
	err := t.cassandraCall(numTokens, name, datacenter, rack, keyspace, localRF, func(cn, cd, cr *C.char, ks *C.tokenring_replication, detail *C.tokenring_error) C.int {
		var fp *C.char
		if first != nil {
			fp = charp(first)
		}
		var l *C.tokenring_token_list
		st := C.tokenring_allocate_cassandra_text(&l, C.uint32_t(numTokens), t.ptr, cn, cd, cr, ks, C.int32_t(localRF), fp, C.uint32_t(release), C.uint32_t(flags), nil, detail)
		if st == C.TOKENRING_OK {
			out = tokenList(l)
		}
		return st
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AllocateAsCassandra128 is AllocateAsCassandra for a RandomPartitioner topology: the
// tokens (0 .. 2^127, ascending) Cassandra release gives the node there, bit for bit
// (AllocateAsCassandraText). firstToken, when not nil, must be a node token
// (0 .. 2^127). A Murmur3Partitioner topology takes AllocateAsCassandra; Cassandra has no
// allocation for ByteOrderedPartitioner (ErrUnsupported for both).
func (t *Topology) AllocateAsCassandra128(numTokens int, name, datacenter, rack string, keyspace *Replication, localRF int, firstToken *Token128, release CassandraRelease, flags LayoutFlags) ([]Token128, error) {
	if err := t.expect(PartitionerRandom, "AllocateAsCassandra128"); err != nil {
		return nil, err
	}
	var first *string
	if firstToken != nil {
		s := firstToken.text()
		first = &s
	}
	texts, err := t.AllocateAsCassandraText(numTokens, name, datacenter, rack, keyspace, localRF, first, release, flags)
	if err != nil {
		return nil, err
	}
	return token128sOfTexts(texts)
}

// AllocateJoinText is AllocateJoinLimited for a topology of any partitioner, the tokens
// in text form (tokenring_allocate_join_text): the library's join plan (ascending) for
// node name joining datacenter/rack, by default the tokens Cassandra release would choose
// bit for bit; oneStep is AllocateJoinOneStep's plan. ByteOrderedPartitioner:
// ErrUnsupported. Over budget: a *BudgetError.
func (t *Topology) AllocateJoinText(numTokens int, name, datacenter, rack string, keyspace *Replication, localRF int, release CassandraRelease, oneStep bool, lim Limits) ([]string, error) {
	if t == nil {
		return nil, goError(CodeInvalid, "nil *Topology")
	}
	if lim.Budget < 0 || lim.MaxNumTokens < 0 || lim.MaxNumTokens > LayoutMaxTokens {
		return nil, goError(CodeRange, "limits: budget %v or max num_tokens %d out of range", lim.Budget, lim.MaxNumTokens)
	}
	var flags C.uint32_t
	if oneStep {
		flags = C.TOKENRING_JOIN_BEST_ONE_STEP
	}
	var out []string
	var est uint64
	err := t.cassandraCall(numTokens, name, datacenter, rack, keyspace, localRF, func(cn, cd, cr *C.char, ks *C.tokenring_replication, detail *C.tokenring_error) C.int {
		st := C.int(C.TOKENRING_E_NOMEM) // unless the call runs
		est, _ = withLimits(context.Background(), lim, func(l *C.tokenring_limits) error {
			var list *C.tokenring_token_list
			st = C.tokenring_allocate_join_text(&list, C.uint32_t(numTokens), t.ptr, cn, cd, cr, ks, C.int32_t(localRF), C.uint32_t(release), flags, l, detail)
			if st == C.TOKENRING_OK {
				out = tokenList(list)
			}
			return nil
		})
		return st
	})
	if e, ok := err.(*Error); ok && e.Code == CodeBudget {
		err = &BudgetError{Err: e, Estimate: est}
	}
	if err != nil {
		return nil, err
	}
	return out, nil
}

// AllocateJoin128 is AllocateJoin for a RandomPartitioner topology: the library's join
// plan (ascending, 0 .. 2^127) for node name joining, by default the tokens Cassandra
// release would choose (AllocateAsCassandra128) bit for bit (AllocateJoinText).
func (t *Topology) AllocateJoin128(numTokens int, name, datacenter, rack string, keyspace *Replication, localRF int, release CassandraRelease) ([]Token128, error) {
	if err := t.expect(PartitionerRandom, "AllocateJoin128"); err != nil {
		return nil, err
	}
	texts, err := t.AllocateJoinText(numTokens, name, datacenter, rack, keyspace, localRF, release, false, Limits{})
	if err != nil {
		return nil, err
	}
	return token128sOfTexts(texts)
}
