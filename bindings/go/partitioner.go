// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"math/big"
	"runtime"
	"unsafe"
)

// Partitioner is one of Cassandra's partitioners a ring can use (tokenring_partitioner).
type Partitioner int32

// Partitioners.
const (
	PartitionerMurmur3     Partitioner = 0 // Murmur3Partitioner: int64 tokens (the default)
	PartitionerRandom      Partitioner = 1 // RandomPartitioner: Token128 tokens, 0 .. 2^127
	PartitionerByteOrdered Partitioner = 2 // ByteOrderedPartitioner: the key's bytes
)

// ByteTokenMax is the longest ByteOrderedPartitioner node token in bytes
// (TOKENRING_BYTE_TOKEN_MAX, a partition key's limit).
const ByteTokenMax = 65535

// Ownership flags (Ring.OwnershipFlags).
const (
	OwnershipNoWidths      uint32 = 1 // no token arithmetic: every width is 0 (ByteOrdered)
	OwnershipDataDependent uint32 = 2 // Cassandra's figure depends on the data; the no-data one is given
)

// String returns the Java class name ("org.apache.cassandra.dht.RandomPartitioner"), or
// "Partitioner(N)" outside the enum.
func (p Partitioner) String() string {
	s := C.tokenring_partitioner_name(C.tokenring_partitioner(p))
	if s == nil {
		return "Partitioner(" + itoa(int64(p)) + ")"
	}
	return C.GoString(s)
}

// ParsePartitioner reads a class name or short class name, exactly as Cassandra reads them
// (case-sensitive), or murmur3/random/byteordered (case ignored). ErrUnsupported for OrderPreservingPartitioner and LocalPartitioner,
// ErrParse for anything else.
func ParsePartitioner(text string) (Partitioner, error) {
	var detail C.tokenring_error
	var out C.tokenring_partitioner
	st := C.tokenring_partitioner_parse(&out, textPtr(text), C.size_t(len(text)), &detail)
	if err := newError(st, &detail); err != nil {
		return 0, err
	}
	return Partitioner(out), nil
}

// Token128 is a RandomPartitioner token: 0 .. 2^127, or the minimum token -1 (the empty
// key's), which is stored as Hi = Lo = 2^64 - 1 (Token128Min). It is a plain value of two
// uint64 halves, the C type tokenring_token128, rather than a *big.Int: it is exact,
// comparable with ==, usable as a map key, and a batch fills a []Token128 in place without
// one allocation per token. BigInt converts it when arithmetic is needed.
type Token128 struct {
	Hi uint64 // high 64 bits of the value (at most 2^63), or 2^64 - 1 for the minimum
	Lo uint64 // low 64 bits of the value
}

// Limits of RandomPartitioner tokens (the C macros TOKENRING_TOKEN128_*).
const (
	Token128MinHi   uint64 = 0xFFFFFFFFFFFFFFFF // Hi of the minimum token -1
	Token128MinLo   uint64 = 0xFFFFFFFFFFFFFFFF // Lo of the minimum token -1
	Token128MaxHi   uint64 = 0x8000000000000000 // Hi of the largest token 2^127 (Lo 0)
	Token128TextMax        = 40                 // bytes for any token in decimal, with a NUL
)

// Token128Min is RandomPartitioner's minimum token -1; Token128Max is 2^127.
var (
	Token128Min = Token128{Token128MinHi, Token128MinLo}
	Token128Max = Token128{Token128MaxHi, 0}
)

func (t Token128) c() C.tokenring_token128 {
	return C.tokenring_token128{hi: C.uint64_t(t.Hi), lo: C.uint64_t(t.Lo)}
}

func token128FromC(t C.tokenring_token128) Token128 { return Token128{uint64(t.hi), uint64(t.lo)} }

// IsMin reports whether t is the minimum token -1.
func (t Token128) IsMin() bool { return t == Token128Min }

// Cmp returns -1, 0 or +1 as t sorts below, equal to or above o (-1 first, then by value).
func (t Token128) Cmp(o Token128) int {
	c := int(C.tokenring_token128_compare(t.c(), o.c()))
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

// String is Cassandra's text form of the token (decimal, "-1" for the minimum); a value
// that is not a token (above 2^127 and not -1) gives "!(not a RandomPartitioner token)".
func (t Token128) String() string {
	var buf [Token128TextMax]C.char
	var n C.size_t
	if C.tokenring_token128_format(&buf[0], C.size_t(len(buf)), &n, t.c()) != C.TOKENRING_OK {
		return "!(not a RandomPartitioner token)"
	}
	return C.GoStringN(&buf[0], C.int(n))
}

// BigInt returns the token as a new *big.Int (-1 for the minimum).
func (t Token128) BigInt() *big.Int {
	if t.IsMin() {
		return big.NewInt(-1)
	}
	v := new(big.Int).SetUint64(t.Hi)
	v.Lsh(v, 64)
	return v.Or(v, new(big.Int).SetUint64(t.Lo))
}

// Token128FromBig converts -1 or 0 .. 2^127; anything else gives ErrRange.
func Token128FromBig(v *big.Int) (Token128, error) {
	if v == nil {
		return Token128{}, goError(CodeInvalid, "nil *big.Int")
	}
	if v.Sign() < 0 {
		if v.IsInt64() && v.Int64() == -1 {
			return Token128Min, nil
		}
		return Token128{}, goError(CodeRange, "%s is not a RandomPartitioner token (-1 or 0 .. 2^127)", v)
	}
	if v.BitLen() > 128 {
		return Token128{}, goError(CodeRange, "%s is not a RandomPartitioner token (-1 or 0 .. 2^127)", v)
	}
	lo := new(big.Int).And(v, new(big.Int).SetUint64(^uint64(0))).Uint64()
	hi := new(big.Int).Rsh(v, 64).Uint64()
	t := Token128{hi, lo}
	if hi > Token128MaxHi || (hi == Token128MaxHi && lo != 0) {
		return Token128{}, goError(CodeRange, "%s is not a RandomPartitioner token (-1 or 0 .. 2^127)", v)
	}
	return t, nil
}

// ParseToken128 parses a RandomPartitioner token in Cassandra's text form
// (TokenFactory.fromString: an optional sign and decimal digits): -1 or 0 .. 2^127.
// Malformed text gives ErrParse (Column tells where), another number ErrRange.
func ParseToken128(text string) (Token128, error) {
	var detail C.tokenring_error
	var out C.tokenring_token128
	st := C.tokenring_token128_parse(&out, textPtr(text), C.size_t(len(text)), &detail)
	if err := newError(st, &detail); err != nil {
		return Token128{}, err
	}
	return token128FromC(out), nil
}

// MD5 returns the MD5 digest (RFC 1321) of data.
func MD5(data []byte) [16]byte {
	var out [16]byte
	st := C.tokenring_md5((*C.uint8_t)(unsafe.Pointer(&out[0])), bytesPtr(data), C.size_t(len(data)))
	runtime.KeepAlive(data)
	if st != C.TOKENRING_OK { // cannot happen: both pointers are valid
		panic(check(st))
	}
	return out
}

// RandomToken returns the RandomPartitioner token of a serialized partition key, exactly
// as Cassandra's RandomPartitioner.getToken: the absolute value of the MD5 digest read as
// a signed 128-bit big-endian integer, and Token128Min (-1) for the empty key.
func RandomToken(key []byte) Token128 {
	if len(key) == 0 {
		return token128FromC(C.tokenring_random_token(nil, 0))
	}
	t := C.tokenring_random_token(unsafe.Pointer(&key[0]), C.size_t(len(key)))
	runtime.KeepAlive(key)
	return token128FromC(t)
}

// RandomTokensPacked writes the RandomPartitioner tokens of packed keys (the layout of
// TokensPacked) into out, in one call into C.
func RandomTokensPacked(out []Token128, keys []byte, offsets []uint64) error {
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
	st := C.tokenring_random_tokens((*C.tokenring_token128)(unsafe.Pointer(&out[0])), k, o, C.size_t(n))
	runtime.KeepAlive(keys)
	runtime.KeepAlive(offsets)
	runtime.KeepAlive(out)
	return check(st)
}

// RandomTokens returns the RandomPartitioner tokens of the batch's keys, in one call.
func (b *KeyBatch) RandomTokens() []Token128 {
	b.init()
	out := make([]Token128, b.Len())
	if err := RandomTokensPacked(out, b.buf, b.offsets); err != nil {
		panic(err) // a KeyBatch is always well formed
	}
	return out
}

// RandomTokens returns the RandomPartitioner token of each key, hashed in one call.
func RandomTokens(keys ...[]byte) []Token128 {
	total := 0
	for _, k := range keys {
		total += len(k)
	}
	b := NewKeyBatch(len(keys), total)
	for _, k := range keys {
		b.Add(k)
	}
	return b.RandomTokens()
}

// ByteOrderedToken returns the ByteOrderedPartitioner token of a key: a copy of its bytes
// (the empty key's token, the partitioner's minimum, is empty).
func ByteOrderedToken(key []byte) []byte { return append([]byte{}, key...) }

// CompareByteTokens returns -1, 0 or +1 as ByteOrderedPartitioner token a sorts below,
// equal to or above b (unsigned bytes, lexicographic, a proper prefix first).
func CompareByteTokens(a, b []byte) int {
	c := int(C.tokenring_byte_token_compare((*C.uint8_t)(bytesPtr(a)), C.size_t(len(a)),
		(*C.uint8_t)(bytesPtr(b)), C.size_t(len(b))))
	runtime.KeepAlive(a)
	runtime.KeepAlive(b)
	switch {
	case c < 0:
		return -1
	case c > 0:
		return 1
	}
	return 0
}

// FormatByteToken writes a ByteOrderedPartitioner token as Cassandra prints it
// (lowercase hex, no prefix).
func FormatByteToken(token []byte) string {
	buf := make([]C.char, 2*len(token)+1)
	var n C.size_t
	st := C.tokenring_byte_token_format(&buf[0], C.size_t(len(buf)), &n,
		(*C.uint8_t)(bytesPtr(token)), C.size_t(len(token)))
	runtime.KeepAlive(token)
	if st != C.TOKENRING_OK { // cannot happen: the buffer is large enough
		panic(check(st))
	}
	return C.GoStringN(&buf[0], C.int(n))
}

// ParseByteToken parses a ByteOrderedPartitioner token in Cassandra's text form (hex
// digits of either case, an odd count read with a leading 0). A non-digit gives ErrParse.
func ParseByteToken(text string) ([]byte, error) {
	var detail C.tokenring_error
	out, err := measureAndFill(nil, func(o *C.uint8_t, c C.size_t, n *C.size_t) C.int {
		return C.tokenring_byte_token_parse(o, c, n, textPtr(text), C.size_t(len(text)), &detail)
	})
	if err != nil {
		return nil, newError(C.int(err.(*Error).Code), &detail)
	}
	if out == nil {
		out = []byte{}
	}
	return out, nil
}
