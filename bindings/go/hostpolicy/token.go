// SPDX-License-Identifier: Apache-2.0

package hostpolicy

// Pick routes without calling into C: the key's token (tokenring.Token, the library's
// tokenring_token in Go, the core binding's pure-Go Murmur3) and the range search
// (searchRange, tokenring_ring_search in Go) over a Go copy of the ring's tokens. policy_test.go checks both against the library, key
// by key (every length 0..300, every sign pattern of the tail) and token by token (each
// ring token, its neighbours and the extremes).

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
