// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// Token returns the Murmur3Partitioner token of a serialized partition key, exactly as
// Cassandra computes it. The empty key gives MinToken (the partitioner's minimum-token
// sentinel; drivers return 0 there, the server -2^63). The key is read in place. Computed in
// Go (no cgo call: a cgo call alone costs several times the hash), checked against the
// library's tokenring_token by the binding's tests.
func Token(key []byte) int64 {
	return pureToken(key)
}

// TokenString is Token for the bytes of s (e.g. the UTF-8 of a text key), without copying.
func TokenString(s string) int64 {
	if len(s) == 0 {
		return pureToken(nil)
	}
	return pureToken(unsafe.Slice((*byte)(stringData(s)), len(s)))
}

// cToken is tokenring_token through cgo: what Token is checked against.
func cToken(key []byte) int64 {
	if len(key) == 0 {
		return int64(C.tokenring_token(nil, 0))
	}
	return int64(C.tokenring_token(unsafe.Pointer(&key[0]), C.size_t(len(key))))
}

// Murmur3Cassandra returns both 64-bit halves of Cassandra's variant of
// MurmurHash3_x64_128 (tail bytes read as signed), without the partitioner's rules for the
// empty key and the minimum token. Cassandra uses seed 0.
func Murmur3Cassandra(key []byte, seed uint64) (h1, h2 int64) {
	var out [2]C.int64_t
	st := C.tokenring_murmur3_cassandra(&out[0], bytesPtr(key), C.size_t(len(key)), C.uint64_t(seed))
	if st != C.TOKENRING_OK { // cannot happen: both pointers are valid
		panic(check(st))
	}
	return int64(out[0]), int64(out[1])
}

// KeyBatch packs many keys into one buffer plus an offsets array (key i is
// Bytes()[Offsets()[i]:Offsets()[i+1]]), the layout the library's batch calls take, so a
// batch crosses into C once without copying or pinning anything. Reuse a batch with
// Reset to avoid allocating. A KeyBatch is not safe for concurrent modification.
type KeyBatch struct {
	buf     []byte
	offsets []uint64 // len = keys + 1, offsets[0] = 0
}

// NewKeyBatch returns an empty batch with room for keys keys of bytes bytes in total
// (both are hints; the batch grows as needed).
func NewKeyBatch(keys, bytes int) *KeyBatch {
	if keys < 0 {
		keys = 0
	}
	if bytes < 0 {
		bytes = 0
	}
	b := &KeyBatch{buf: make([]byte, 0, bytes), offsets: make([]uint64, 1, keys+1)}
	return b
}

func (b *KeyBatch) init() {
	if len(b.offsets) == 0 {
		b.offsets = append(b.offsets, 0)
	}
}

// Add appends a copy of key to the batch.
func (b *KeyBatch) Add(key []byte) {
	b.init()
	b.buf = append(b.buf, key...)
	b.offsets = append(b.offsets, uint64(len(b.buf)))
}

// AddString appends the bytes of s to the batch.
func (b *KeyBatch) AddString(s string) {
	b.init()
	b.buf = append(b.buf, s...)
	b.offsets = append(b.offsets, uint64(len(b.buf)))
}

// Len returns the number of keys.
func (b *KeyBatch) Len() int {
	if len(b.offsets) == 0 {
		return 0
	}
	return len(b.offsets) - 1
}

// Key returns key i, sharing the batch's memory (valid until the next Add or Reset), or
// nil when i is out of range.
func (b *KeyBatch) Key(i int) []byte {
	if i < 0 || i >= b.Len() {
		return nil
	}
	return b.buf[b.offsets[i]:b.offsets[i+1]:b.offsets[i+1]]
}

// Reset empties the batch, keeping its memory.
func (b *KeyBatch) Reset() {
	b.buf = b.buf[:0]
	b.offsets = append(b.offsets[:0], 0)
}

// Bytes returns the packed key bytes (shared, not a copy).
func (b *KeyBatch) Bytes() []byte { return b.buf }

// Offsets returns the Len()+1 offsets (shared, not a copy).
func (b *KeyBatch) Offsets() []uint64 { b.init(); return b.offsets }

// packed validates a packed layout and returns the C pointers for it. It checks in O(1)
// that the last offset lies inside keys; the library checks that offsets never decrease,
// which together keep every read inside keys.
func packed(keys []byte, offsets []uint64) (k *C.uint8_t, o *C.uint64_t, n int, err error) {
	if len(offsets) == 0 {
		return nil, nil, 0, goError(CodeInvalid, "offsets must hold count+1 entries, got none")
	}
	n = len(offsets) - 1
	if offsets[0] > offsets[n] || offsets[n] > uint64(len(keys)) {
		return nil, nil, 0, goError(CodeInvalid, "offsets [%d, %d] outside the %d key bytes", offsets[0], offsets[n], len(keys))
	}
	if len(keys) > 0 {
		k = (*C.uint8_t)(unsafe.Pointer(&keys[0]))
	}
	return k, (*C.uint64_t)(unsafe.Pointer(&offsets[0])), n, nil
}

// TokensPacked writes the tokens of the keys packed in keys/offsets (len(offsets)-1 keys)
// into out, in one call into C, reading the Go memory in place. It fails with ErrInvalid
// if offsets decrease or point past keys, and with ErrBufSize if out is too short.
func TokensPacked(out []int64, keys []byte, offsets []uint64) error {
	k, o, n, err := packed(keys, offsets)
	if err != nil {
		return err
	}
	if len(out) < n {
		return goError(CodeBufSize, "output holds %d tokens, the batch has %d keys", len(out), n)
	}
	if n == 0 {
		return nil
	}
	st := C.tokenring_tokens((*C.int64_t)(unsafe.Pointer(&out[0])), k, o, C.size_t(n))
	runtime.KeepAlive(keys)
	runtime.KeepAlive(offsets)
	return check(st)
}

// Tokens returns the tokens of every key of the batch, hashed in one call into C.
func (b *KeyBatch) Tokens() []int64 {
	out := make([]int64, b.Len())
	if err := b.TokensInto(out); err != nil {
		panic(err) // a KeyBatch is always well formed
	}
	return out
}

// TokensInto writes the tokens of the batch's keys into out (at least Len() entries)
// without allocating.
func (b *KeyBatch) TokensInto(out []int64) error {
	b.init()
	return TokensPacked(out, b.buf, b.offsets)
}

// Tokens returns the token of each key, packing them into a temporary KeyBatch and
// hashing them in one call into C. Reuse a KeyBatch to avoid the copies.
func Tokens(keys ...[]byte) []int64 {
	total := 0
	for _, k := range keys {
		total += len(k)
	}
	b := NewKeyBatch(len(keys), total)
	for _, k := range keys {
		b.Add(k)
	}
	return b.Tokens()
}
