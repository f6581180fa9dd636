// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"strings"
	"unsafe"
)

// zeroByte gives a valid, non-NULL pointer for empty inputs: taking &s[0] of an empty
// slice panics, and several C functions reject NULL even with a zero length.
var zeroByte [1]byte

// cname copies s into a NUL-terminated Go byte slice that can be passed to C as a
// const char* (it holds no Go pointers and C keeps nothing after the call). A string
// with an embedded NUL would be silently cut by C, so it is rejected.
func cname(what, s string) ([]byte, error) {
	if strings.IndexByte(s, 0) >= 0 {
		return nil, goError(CodeInvalid, "%s %q contains a NUL byte", what, s)
	}
	b := make([]byte, len(s)+1)
	copy(b, s)
	return b, nil
}

func charp(b []byte) *C.char { return (*C.char)(unsafe.Pointer(&b[0])) }

// textPtr returns a pointer to the bytes of s for calls taking (text, len). It points
// into Go memory without copying; C reads it only during the call.
func textPtr(s string) *C.char {
	if len(s) == 0 {
		return (*C.char)(unsafe.Pointer(&zeroByte[0]))
	}
	return (*C.char)(stringData(s))
}

// stringData returns the address of the bytes of a non-empty string without copying
// (what unsafe.StringData does from Go 1.20 on; the data pointer is the first word of a
// string header).
func stringData(s string) unsafe.Pointer { return *(*unsafe.Pointer)(unsafe.Pointer(&s)) }

// bytesPtr returns &b[0], or a pointer to a static byte for an empty slice.
func bytesPtr(b []byte) unsafe.Pointer {
	if len(b) == 0 {
		return unsafe.Pointer(&zeroByte[0])
	}
	return unsafe.Pointer(&b[0])
}

// tokensPtr returns &t[0], or nil for an empty slice.
func tokensPtr(t []int64) *C.int64_t {
	if len(t) == 0 {
		return nil
	}
	return (*C.int64_t)(unsafe.Pointer(&t[0]))
}

// goStringN copies a C string (NULL gives "").
func goStringN(p *C.char) string {
	if p == nil {
		return ""
	}
	return C.GoString(p)
}
