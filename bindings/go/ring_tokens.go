// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <stdlib.h>
#include <tokenring/tokenring.h>
*/
import "C"

// The tokens of a ring of any partitioner: listing them in Cassandra's text form (one call
// for every partitioner), searching by text, and the typed lookups of RandomPartitioner
// (Token128) and ByteOrderedPartitioner ([]byte).

// Partitioner returns the ring's partitioner.
func (r *Ring) Partitioner() Partitioner {
	p, err := r.acquire()
	if err != nil {
		return PartitionerMurmur3
	}
	defer r.release()
	return Partitioner(C.tokenring_ring_partitioner(p))
}

func searchResult(i C.uint32_t) (int, error) {
	if i == C.uint32_t(^uint32(0)) {
		return 0, goError(CodeUnsupported, "the ring's partitioner does not take this token type")
	}
	return int(i), nil
}

// Search128 returns the index of the range holding a RandomPartitioner token.
// ErrUnsupported on a ring of another partitioner.
func (r *Ring) Search128(token Token128) (int, error) {
	p, err := r.acquire()
	if err != nil {
		return 0, err
	}
	i := C.tokenring_ring_search128(p, token.c())
	r.release()
	return searchResult(i)
}

// SearchBytes returns the index of the range holding a ByteOrderedPartitioner token (a
// key's bytes). ErrUnsupported on a ring of another partitioner.
func (r *Ring) SearchBytes(token []byte) (int, error) {
	p, err := r.acquire()
	if err != nil {
		return 0, err
	}
	i := C.tokenring_ring_search_bytes(p, (*C.uint8_t)(bytesPtr(token)), C.size_t(len(token)))
	r.release()
	return searchResult(i)
}

// TokenText returns ring token i (ascending) in the text form of the ring's
// partitioner, for any partitioner.
func (r *Ring) TokenText(i int) (string, error) {
	if i < 0 {
		return "", goError(CodeRange, "ring index %d is negative", i)
	}
	p, err := r.acquire()
	if err != nil {
		return "", err
	}
	defer r.release()
	return textOut(nil, func(o *C.char, cp C.size_t, n *C.size_t) C.int {
		return C.tokenring_ring_token_text(o, cp, n, p, C.size_t(i))
	})
}

// TokenTexts returns every ring token (ascending) in the text form of the ring's
// partitioner, as nodetool ring prints them.
func (r *Ring) TokenTexts() ([]string, error) {
	p, err := r.acquire()
	if err != nil {
		return nil, err
	}
	defer r.release()
	var count C.size_t
	C.tokenring_ring_tokens(p, &count)
	out := make([]string, int(count))
	for i := range out {
		s, err := textOut(nil, func(o *C.char, cp C.size_t, n *C.size_t) C.int {
			return C.tokenring_ring_token_text(o, cp, n, p, C.size_t(i))
		})
		if err != nil {
			return nil, err
		}
		out[i] = s
	}
	return out, nil
}

// SearchText returns the index of the range holding a token given in the text form of
// the ring's partitioner (ErrParse or ErrRange when it is not one). For routing, Search,
// Search128 and SearchBytes take typed tokens without parsing.
func (r *Ring) SearchText(token string) (int, error) {
	p, err := r.acquire()
	if err != nil {
		return 0, err
	}
	defer r.release()
	var idx C.uint32_t
	var detail C.tokenring_error
	if err := newError(C.tokenring_ring_search_text(&idx, p, textPtr(token), C.size_t(len(token)), &detail), &detail); err != nil {
		return 0, err
	}
	return int(idx), nil
}

// Token128 returns ring token i of a RandomPartitioner ring (ErrUnsupported on another).
func (r *Ring) Token128(i int) (Token128, error) {
	if err := r.expect(PartitionerRandom, "Token128"); err != nil {
		return Token128{}, err
	}
	s, err := r.TokenText(i)
	if err != nil {
		return Token128{}, err
	}
	return token128OfText(s)
}

// TokenBytes returns a copy of ring token i of a ByteOrderedPartitioner ring
// (ErrUnsupported on another).
func (r *Ring) TokenBytes(i int) ([]byte, error) {
	if err := r.expect(PartitionerByteOrdered, "TokenBytes"); err != nil {
		return nil, err
	}
	s, err := r.TokenText(i)
	if err != nil {
		return nil, err
	}
	b, err := bytesOfTexts([]string{s})
	if err != nil {
		return nil, err
	}
	return b[0], nil
}

// expect refuses a typed call of another partitioner's tokens with ErrUnsupported.
func (r *Ring) expect(want Partitioner, call string) error {
	p, err := r.acquire()
	if err != nil {
		return err
	}
	got := Partitioner(C.tokenring_ring_partitioner(p))
	r.release()
	if got != want {
		return goError(CodeUnsupported, "%s takes tokens of %v, not of this ring's %v", call, want, got)
	}
	return nil
}

// Range128 is one range (Start, End] of a RandomPartitioner ring with Cassandra's exact
// width over 2^127.
type Range128 struct {
	Start Token128 // exclusive lower bound
	End   Token128 // inclusive upper bound
	Width U128     // (End - Start + 2^127) mod 2^127; 2^127 for a single token
	Index int      // range index
	Owner int      // node index owning End
}

// Range128 returns range i of a RandomPartitioner ring (ErrUnsupported on another).
func (r *Ring) Range128(i int) (Range128, error) {
	if i < 0 {
		return Range128{}, goError(CodeRange, "range index %d is negative", i)
	}
	p, err := r.acquire()
	if err != nil {
		return Range128{}, err
	}
	defer r.release()
	var c C.tokenring_range128
	if err := check(C.tokenring_ring_range128(&c, p, C.size_t(i))); err != nil {
		return Range128{}, err
	}
	return Range128{Start: token128FromC(c.start), End: token128FromC(c.end), Width: u128(c.width), Index: int(c.index), Owner: int(c.owner)}, nil
}

// OwnershipFlags tells what Ownership gives for the ring's partitioner: 0, or
// OwnershipNoWidths|OwnershipDataDependent for ByteOrderedPartitioner.
func (r *Ring) OwnershipFlags() uint32 {
	p, err := r.acquire()
	if err != nil {
		return 0
	}
	defer r.release()
	return uint32(C.tokenring_ring_ownership_flags(p))
}

// ReplicasForKeyAny returns the replicas of a serialized partition key hashed with the
// ring's partitioner (Murmur3, RandomPartitioner's MD5, or the key's bytes).
func (p *Placement) ReplicasForKeyAny(key []byte) (Replicas, error) {
	pp, err := p.acquire()
	if err != nil {
		return Replicas{}, err
	}
	defer p.release()
	var c C.tokenring_replicas
	if err := check(C.tokenring_placement_replicas_for_key_any(&c, pp, bytesPtr(key), C.size_t(len(key)))); err != nil {
		return Replicas{}, err
	}
	return replicasFromC(&c), nil
}
