// SPDX-License-Identifier: Apache-2.0

package hostpolicy

import (
	"encoding/binary"
	"math"
	"math/bits"
)

// Pick routes without calling into C: the key's token (keyToken, the library's
// tokenring_token in Go) and the range search (searchRange, tokenring_ring_search in Go)
// over a Go copy of the ring's tokens. policy_test.go checks both against the library, key
// by key (every length 0..300, every sign pattern of the tail) and token by token (each
// ring token, its neighbours and the extremes).

const (
	mmC1 = 0x87c37b91114253d5
	mmC2 = 0x4cf5ad432745937f
)

func fmix64(k uint64) uint64 {
	k ^= k >> 33
	k *= 0xff51afd7ed558ccd
	k ^= k >> 33
	k *= 0xc4ceb9fe1a85ec53
	k ^= k >> 33
	return k
}

// sb is a key byte as Java reads it: signed, widened to 64 bits by sign extension.
func sb(b byte) uint64 { return uint64(int64(int8(b))) }

// keyToken is the Murmur3Partitioner token of a serialized partition key: Cassandra's
// MurmurHash3_x64_128 (seed 0, tail bytes signed), its first half, the minimum mapped to the
// maximum; the empty key gives the minimum token.
func keyToken(key []byte) int64 {
	n := len(key)
	if n == 0 {
		return math.MinInt64
	}
	var h1, h2 uint64
	p := key
	for len(p) >= 16 {
		k1 := binary.LittleEndian.Uint64(p)
		k2 := binary.LittleEndian.Uint64(p[8:])
		p = p[16:]
		k1 *= mmC1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= mmC2
		h1 ^= k1
		h1 = bits.RotateLeft64(h1, 27)
		h1 += h2
		h1 = h1*5 + 0x52dce729
		k2 *= mmC2
		k2 = bits.RotateLeft64(k2, 33)
		k2 *= mmC1
		h2 ^= k2
		h2 = bits.RotateLeft64(h2, 31)
		h2 += h1
		h2 = h2*5 + 0x38495ab5
	}
	if m := len(p); m > 0 {
		var k1, k2 uint64
		if m > 8 {
			for i := m - 1; i >= 8; i-- {
				k2 ^= sb(p[i]) << (8 * uint(i-8))
			}
			k2 *= mmC2
			k2 = bits.RotateLeft64(k2, 33)
			k2 *= mmC1
			h2 ^= k2
		}
		top := m
		if top > 8 {
			top = 8
		}
		for i := top - 1; i >= 0; i-- {
			k1 ^= sb(p[i]) << (8 * uint(i))
		}
		k1 *= mmC1
		k1 = bits.RotateLeft64(k1, 31)
		k1 *= mmC2
		h1 ^= k1
	}
	h1 ^= uint64(n)
	h2 ^= uint64(n)
	h1 += h2
	h2 += h1
	h1 = fmix64(h1)
	h2 = fmix64(h2)
	h1 += h2
	t := int64(h1)
	if t == math.MinInt64 {
		return math.MaxInt64
	}
	return t
}

// searchRange is the index of the range holding t: the first of the sorted tokens at or
// after t, wrapping to 0 (tokens is never empty).
func searchRange(tokens []int64, t int64) int {
	if i := lowerBound(tokens, t); i < len(tokens) {
		return i
	}
	return 0
}

// lowerBound is the index of the first of the sorted tokens at or after t, len(tokens)
// when t is above the last: the tables' extra entry, the list of the tokens above the
// last ring token (Cassandra 6.0 cuts the wrapping range at the minimum token, and a
// history can order its two parts differently).
func lowerBound(tokens []int64, t int64) int {
	lo, hi := 0, len(tokens)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if tokens[m] < t {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}
