// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"time"
	"unsafe"
)

// CQLType is a CQL type whose values can be serialized or parsed (tokenring_cql_type).
type CQLType int32

// The CQL types the library knows; the values are the library's ABI.
const (
	CQLAscii     CQLType = 1
	CQLBigint    CQLType = 2
	CQLBlob      CQLType = 3
	CQLBoolean   CQLType = 4
	CQLDate      CQLType = 5
	CQLDecimal   CQLType = 6
	CQLDouble    CQLType = 7
	CQLFloat     CQLType = 8
	CQLInet      CQLType = 9
	CQLInt       CQLType = 10
	CQLSmallint  CQLType = 11
	CQLText      CQLType = 12
	CQLTime      CQLType = 13
	CQLTimestamp CQLType = 14
	CQLTimeuuid  CQLType = 15
	CQLTinyint   CQLType = 16
	CQLUUID      CQLType = 17
	CQLVarint    CQLType = 18
)

// ParseCQLType looks a type up by its CQL name, case-insensitively ("int", "bigint",
// "counter", "varchar", "text", "uuid", ...). An unknown name gives ErrNotFound.
func ParseCQLType(name string) (CQLType, error) {
	cn, err := cname("CQL type name", name)
	if err != nil {
		return 0, err
	}
	var t C.tokenring_cql_type
	if err := check(C.tokenring_cql_type_from_name(&t, charp(cn))); err != nil {
		return 0, &Error{Code: err.(*Error).Code, Message: "unknown CQL type " + quote(name)}
	}
	return CQLType(t), nil
}

func quote(s string) string { return "\"" + s + "\"" }

// String returns the canonical CQL name of the type ("int", "text", ...), or
// "CQLType(n)" for a value that is not a CQL type.
func (t CQLType) String() string {
	p := C.tokenring_cql_type_name(C.tokenring_cql_type(t))
	if p == nil {
		return "CQLType(" + itoa(int64(t)) + ")"
	}
	return C.GoString(p)
}

func itoa(v int64) string {
	var b [24]byte
	i := len(b)
	neg := v < 0
	u := uint64(v)
	if neg {
		u = -u
	}
	for {
		i--
		b[i] = byte('0' + u%10)
		u /= 10
		if u == 0 {
			break
		}
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

func mustOK(st C.int) {
	if st != C.TOKENRING_OK { // the encoders fail only for a NULL output
		panic(check(st))
	}
}

// EncodeInt returns the serialized CQL int (4 bytes, big-endian).
func EncodeInt(v int32) []byte {
	out := make([]byte, 4)
	mustOK(C.tokenring_encode_int((*C.uint8_t)(&out[0]), C.int32_t(v)))
	return out
}

// EncodeBigint returns the serialized CQL bigint or counter (8 bytes, big-endian).
func EncodeBigint(v int64) []byte {
	out := make([]byte, 8)
	mustOK(C.tokenring_encode_bigint((*C.uint8_t)(&out[0]), C.int64_t(v)))
	return out
}

// EncodeSmallint returns the serialized CQL smallint (2 bytes).
func EncodeSmallint(v int16) []byte {
	out := make([]byte, 2)
	mustOK(C.tokenring_encode_smallint((*C.uint8_t)(&out[0]), C.int16_t(v)))
	return out
}

// EncodeTinyint returns the serialized CQL tinyint (1 byte).
func EncodeTinyint(v int8) []byte {
	out := make([]byte, 1)
	mustOK(C.tokenring_encode_tinyint((*C.uint8_t)(&out[0]), C.int8_t(v)))
	return out
}

// EncodeBoolean returns the serialized CQL boolean (one byte, 00 or 01).
func EncodeBoolean(v bool) []byte {
	out := make([]byte, 1)
	b := C.int(0)
	if v {
		b = 1
	}
	mustOK(C.tokenring_encode_boolean((*C.uint8_t)(&out[0]), b))
	return out
}

// EncodeTimestampMillis returns the serialized CQL timestamp of signed milliseconds since
// 1970-01-01T00:00Z (8 bytes).
func EncodeTimestampMillis(millis int64) []byte {
	out := make([]byte, 8)
	mustOK(C.tokenring_encode_timestamp((*C.uint8_t)(&out[0]), C.int64_t(millis)))
	return out
}

// EncodeTimestamp returns the serialized CQL timestamp of t, truncated to milliseconds
// as Cassandra stores it.
func EncodeTimestamp(t time.Time) []byte { return EncodeTimestampMillis(t.UnixMilli()) }

// EncodeUUID returns the serialized CQL uuid or timeuuid (16 bytes in RFC 4122 order).
func EncodeUUID(u [16]byte) []byte {
	var msb, lsb uint64
	for i := 0; i < 8; i++ {
		msb = msb<<8 | uint64(u[i])
		lsb = lsb<<8 | uint64(u[8+i])
	}
	return EncodeUUIDHalves(msb, lsb)
}

// EncodeUUIDHalves returns the serialized uuid with the given most and least significant
// 64 bits (Java's UUID(msb, lsb)).
func EncodeUUIDHalves(msb, lsb uint64) []byte {
	out := make([]byte, 16)
	mustOK(C.tokenring_encode_uuid((*C.uint8_t)(&out[0]), C.uint64_t(msb), C.uint64_t(lsb)))
	return out
}

// measureAndFill runs a C writer that follows key.h's convention (write into out/cap,
// report the needed length, ErrBufSize when short): first into a small stack buffer,
// then, if needed, into an exact-size one. The result is appended to dst.
func measureAndFill(dst []byte, call func(out *C.uint8_t, cap C.size_t, n *C.size_t) C.int) ([]byte, error) {
	var small [64]byte
	var n C.size_t
	st := call((*C.uint8_t)(&small[0]), C.size_t(len(small)), &n)
	if st == C.TOKENRING_OK {
		return append(dst, small[:n]...), nil
	}
	if st != C.TOKENRING_E_BUFSIZE {
		return dst, check(st)
	}
	start := len(dst)
	dst = grow(dst, int(n))
	buf := dst[start : start+int(n)]
	st = call((*C.uint8_t)(bytesPtr(buf)), C.size_t(len(buf)), &n)
	if st != C.TOKENRING_OK {
		return dst[:start], check(st)
	}
	return dst[:start+int(n)], nil
}

// grow extends dst by n bytes (contents of the new bytes undefined).
func grow(dst []byte, n int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst[:len(dst)+n]
	}
	nb := make([]byte, len(dst)+n, 2*len(dst)+n)
	copy(nb, dst)
	return nb
}

// ParseValue parses the string form `nodetool getendpoints` accepts for one value of
// type t (Cassandra's AbstractType.fromString) into its serialized bytes. An empty string
// gives an empty value. Malformed text gives ErrParse (Column tells where), a number that
// does not fit ErrRange.
func ParseValue(t CQLType, text string) ([]byte, error) { return AppendValue(nil, t, text) }

// AppendValue is ParseValue appending the bytes to dst.
func AppendValue(dst []byte, t CQLType, text string) ([]byte, error) {
	var detail C.tokenring_error
	out, err := measureAndFill(dst, func(o *C.uint8_t, c C.size_t, n *C.size_t) C.int {
		return C.tokenring_value_parse(o, c, n, C.tokenring_cql_type(t), textPtr(text), C.size_t(len(text)), &detail)
	})
	if err != nil {
		return dst, newError(C.int(err.(*Error).Code), &detail)
	}
	return out, nil
}

// ParseKey parses a whole partition key in `nodetool getendpoints` form for a table whose
// partition-key columns have the given types: one value for one column, or ':'-separated
// components (escaped as Cassandra does) giving the composite layout for several.
func ParseKey(types []CQLType, text string) ([]byte, error) { return AppendKey(nil, types, text) }

// AppendKey is ParseKey appending the bytes to dst.
func AppendKey(dst []byte, types []CQLType, text string) ([]byte, error) {
	if len(types) == 0 {
		return dst, goError(CodeInvalid, "a partition key needs at least one column type")
	}
	var detail C.tokenring_error
	tp := (*C.tokenring_cql_type)(unsafe.Pointer(&types[0]))
	out, err := measureAndFill(dst, func(o *C.uint8_t, c C.size_t, n *C.size_t) C.int {
		return C.tokenring_key_parse(o, c, n, tp, C.size_t(len(types)), textPtr(text), C.size_t(len(text)), &detail)
	})
	if err != nil {
		return dst, newError(C.int(err.(*Error).Code), &detail)
	}
	return out, nil
}

// Composite builds a composite (multi-column) partition key from the serialized
// component values: for each component a u16 big-endian length, the bytes and a 0x00
// end-of-component byte. A component longer than MaxKey gives ErrRange. (For a
// one-column table the key is the value itself, not Composite(value).)
func Composite(components ...[]byte) ([]byte, error) {
	b := NewKeyBatch(len(components), 0)
	for _, c := range components {
		b.Add(c)
	}
	return AppendComposite(nil, b)
}

// AppendComposite builds the composite key of the components held in a KeyBatch (one
// component per key), appending it to dst, in one call into C.
func AppendComposite(dst []byte, components *KeyBatch) ([]byte, error) {
	if components == nil {
		return dst, goError(CodeInvalid, "nil *tokenring.KeyBatch of components")
	}
	components.init()
	k, o, n, err := packed(components.buf, components.offsets)
	if err != nil {
		return dst, err
	}
	if n == 0 {
		return dst, goError(CodeInvalid, "a composite key needs at least one component")
	}
	if k == nil {
		k = (*C.uint8_t)(&zeroByte[0])
	}
	return measureAndFill(dst, func(out *C.uint8_t, c C.size_t, ln *C.size_t) C.int {
		return C.tokenring_composite_encode(out, c, ln, k, o, C.size_t(n))
	})
}

// ParseToken parses a token in the form Cassandra's Murmur3Partitioner reads
// (Long.parseLong: an optional sign and decimal digits, nothing else). Malformed text
// gives ErrParse (Column tells where), a number outside int64 ErrRange.
func ParseToken(text string) (int64, error) {
	var detail C.tokenring_error
	var out C.int64_t
	st := C.tokenring_token_parse(&out, textPtr(text), C.size_t(len(text)), &detail)
	if err := newError(st, &detail); err != nil {
		return 0, err
	}
	return int64(out), nil
}

// HexDecode decodes hex text with an optional "0x" prefix into bytes, as the command-line
// tool reads --hex keys. An odd number of digits or a non-digit gives ErrParse.
func HexDecode(text string) ([]byte, error) {
	var detail C.tokenring_error
	out, err := measureAndFill(nil, func(o *C.uint8_t, c C.size_t, n *C.size_t) C.int {
		return C.tokenring_hex_decode(o, c, n, textPtr(text), C.size_t(len(text)), &detail)
	})
	if err != nil {
		return nil, newError(C.int(err.(*Error).Code), &detail)
	}
	if out == nil {
		out = []byte{}
	}
	return out, nil
}
