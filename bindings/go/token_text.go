// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <stdlib.h>
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"encoding/hex"
	"math/big"
	"strconv"
	"strings"
	"unsafe"
)

// Tokens of every partitioner in Cassandra's text form (TokenFactory.toString and
// fromString, partitioner.h): Murmur3 signed decimal, RandomPartitioner decimal (-1 the
// minimum), ByteOrderedPartitioner lowercase hex (read in either case, an odd digit count
// with a leading 0). Every operation off the routing hot path has one function taking or
// returning tokens as strings for all three partitioners (AddNodeText, SimulateJoinText,
// EvenTokensText, ...); the typed functions of RandomPartitioner (Token128) and
// ByteOrderedPartitioner ([]byte) convert to and from the text and call them.

// cTexts copies token texts into one C block (the pointers, then each string with its
// NUL): cgo forbids passing Go memory that holds Go pointers. Free with the function
// returned. A text with a NUL byte is ErrInvalid (C would read it cut short).
func cTexts(tokens []string) (**C.char, func(), error) {
	total := 0
	for _, s := range tokens {
		if strings.IndexByte(s, 0) >= 0 {
			return nil, nil, goError(CodeInvalid, "token text %q contains a NUL byte", s)
		}
		total += len(s) + 1
	}
	ps := unsafe.Sizeof((*C.char)(nil))
	block := C.malloc(C.size_t(uintptr(len(tokens)+1)*ps + uintptr(total) + 1))
	if block == nil {
		return nil, nil, goError(CodeNoMem, "out of memory copying %d token texts", len(tokens))
	}
	ptrs := unsafe.Slice((**C.char)(block), len(tokens)+1)
	at := unsafe.Add(block, uintptr(len(tokens)+1)*ps)
	for i, s := range tokens {
		dst := unsafe.Slice((*byte)(at), len(s)+1)
		copy(dst, s)
		dst[len(s)] = 0
		ptrs[i] = (*C.char)(at)
		at = unsafe.Add(at, len(s)+1)
	}
	ptrs[len(tokens)] = nil
	return &ptrs[0], func() { C.free(block) }, nil
}

// textOut runs a call writing one token's text (out, cap, len_out), again with the
// length the library asked for when the first buffer is too small (ErrBufSize); detail
// (may be nil) is the call's tokenring_error.
func textOut(detail *C.tokenring_error, call func(out *C.char, cap C.size_t, n *C.size_t) C.int) (string, error) {
	var small [48]C.char // any Murmur3 or RandomPartitioner token, and short byte tokens
	var n C.size_t
	st := call(&small[0], C.size_t(len(small)), &n)
	if st == C.TOKENRING_E_BUFSIZE {
		buf := C.malloc(n + 1)
		if buf == nil {
			return "", goError(CodeNoMem, "out of memory for a token of %d characters", int(n))
		}
		defer C.free(buf)
		if st = call((*C.char)(buf), n+1, &n); st == C.TOKENRING_OK {
			return C.GoStringN((*C.char)(buf), C.int(n)), nil
		}
	}
	if err := newError(st, detail); err != nil {
		return "", err
	}
	return C.GoStringN(&small[0], C.int(n)), nil
}

// tokenList copies a tokenring_token_list into Go strings and frees it.
func tokenList(l *C.tokenring_token_list) []string {
	defer C.tokenring_token_list_free(l)
	out := make([]string, int(C.tokenring_token_list_count(l)))
	for i := range out {
		var n C.size_t
		p := C.tokenring_token_list_get(l, C.size_t(i), &n)
		out[i] = C.GoStringN(p, C.int(n))
	}
	return out
}

// KeyTokenText returns the token of a serialized partition key under partitioner p in
// Cassandra's text form (what SELECT token(...) prints): Murmur3, MD5 (RandomPartitioner)
// or the key's bytes (ByteOrderedPartitioner).
func KeyTokenText(p Partitioner, key []byte) (string, error) {
	return textOut(nil, func(out *C.char, cp C.size_t, n *C.size_t) C.int {
		return C.tokenring_key_token_text(out, cp, n, C.tokenring_partitioner(p), bytesPtr(key), C.size_t(len(key)))
	})
}

// NormalizeToken validates a token of partitioner p in Cassandra's text form and returns
// its canonical form ("+007" is "7", "ABC" is "0abc"). ErrParse for malformed text
// (Error.Column tells where), ErrRange outside the partitioner's tokens.
func NormalizeToken(p Partitioner, text string) (string, error) {
	var detail C.tokenring_error
	return textOut(&detail, func(out *C.char, cp C.size_t, n *C.size_t) C.int {
		return C.tokenring_token_text_normalize(out, cp, n, C.tokenring_partitioner(p), textPtr(text), C.size_t(len(text)), &detail)
	})
}

// CompareTokens returns -1, 0 or +1 as token a sorts below, equal to or above token b on
// the ring of partitioner p (both in Cassandra's text form).
func CompareTokens(p Partitioner, a, b string) (int, error) {
	ca, err := cname("token text", a)
	if err != nil {
		return 0, err
	}
	cb, err := cname("token text", b)
	if err != nil {
		return 0, err
	}
	var c C.int
	var detail C.tokenring_error
	if err := newError(C.tokenring_token_text_compare(&c, C.tokenring_partitioner(p), charp(ca), charp(cb), &detail), &detail); err != nil {
		return 0, err
	}
	switch {
	case c < 0:
		return -1, nil
	case c > 0:
		return 1, nil
	}
	return 0, nil
}

// The typed forms' conversions to and from the text form.

func int64Texts(tokens []int64) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		out[i] = strconv.FormatInt(t, 10)
	}
	return out
}

func token128Texts(tokens []Token128) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		out[i] = t.text()
	}
	return out
}

func byteTexts(tokens [][]byte) []string {
	out := make([]string, len(tokens))
	for i, t := range tokens {
		out[i] = hex.EncodeToString(t)
	}
	return out
}

// token128OfText reads a RandomPartitioner token the library wrote (canonical decimal).
func token128OfText(s string) (Token128, error) {
	if s == "-1" {
		return Token128Min, nil
	}
	v, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return Token128{}, goError(CodeParse, "%q is not a RandomPartitioner token", s)
	}
	return Token128FromBig(v)
}

func token128sOfTexts(texts []string) ([]Token128, error) {
	out := make([]Token128, len(texts))
	for i, s := range texts {
		t, err := token128OfText(s)
		if err != nil {
			return nil, err
		}
		out[i] = t
	}
	return out, nil
}

func bytesOfTexts(texts []string) ([][]byte, error) {
	out := make([][]byte, len(texts))
	for i, s := range texts {
		b, err := hex.DecodeString(s)
		if err != nil {
			return nil, goError(CodeParse, "%q is not a ByteOrderedPartitioner token", s)
		}
		out[i] = b
	}
	return out, nil
}

func int64sOfTexts(texts []string) ([]int64, error) {
	out := make([]int64, len(texts))
	for i, s := range texts {
		v, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, goError(CodeParse, "%q is not a Murmur3 token", s)
		}
		out[i] = v
	}
	return out, nil
}

// expect refuses a typed call of another partitioner's tokens with ErrUnsupported (the
// text calls would read "7" as a token of any partitioner).
func (t *Topology) expect(p Partitioner, call string) error {
	if err := t.enter(); err != nil {
		return err
	}
	got := Partitioner(C.tokenring_topology_partitioner(t.ptr))
	t.mu.Unlock()
	if got != p {
		return goError(CodeUnsupported, "%s takes tokens of %v, not of this topology's %v", call, p, got)
	}
	return nil
}

// text is the token in Cassandra's text form, in Go (String asks the library).
func (t Token128) text() string { return t.BigInt().String() }
