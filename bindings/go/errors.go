// SPDX-License-Identifier: Apache-2.0

package tokenring

/*
#include <tokenring/tokenring.h>
*/
import "C"

import (
	"fmt"
	"unsafe"
)

// Code is a libtokenring status code (a tokenring_status value), or one of the binding's
// own codes below the library's range (CodeClosed).
type Code int32

// The status codes of the C library (enum tokenring_status), plus CodeClosed for a Go
// handle used after Close. The values of the C codes are part of the library's ABI.
const (
	CodeOK          Code = 0
	CodeInvalid     Code = -1
	CodeNoMem       Code = -2
	CodeNotFound    Code = -3
	CodeExists      Code = -4
	CodeRange       Code = -5
	CodeParse       Code = -6
	CodeEmpty       Code = -7
	CodeBufSize     Code = -8
	CodeUnsupported Code = -9
	CodeImpossible  Code = -10
	CodeCancelled   Code = -11 // the caller's context (or progress callback) stopped the call
	CodeNotPlaced   Code = -14 // a valid replication class that places nothing on the ring
	// CodeClosed is the binding's own code for a handle used after Close. The C library
	// never returns it.
	CodeClosed Code = -1000
	// CodeZeroValue is the binding's own code for a zero-value handle (a Topology{} that
	// no constructor made). The C library never returns it.
	CodeZeroValue Code = -1001
)

// kinds are the short words an Error's text starts with after "tokenring: ".
var kinds = map[Code]string{
	CodeInvalid: "invalid argument", CodeNoMem: "out of memory", CodeNotFound: "not found",
	CodeExists: "exists", CodeRange: "out of range", CodeParse: "parse", CodeEmpty: "empty",
	CodeBufSize: "buffer too small", CodeUnsupported: "unsupported", CodeImpossible: "impossible",
	CodeCancelled: "cancelled", CodeNotPlaced: "not placed", CodeClosed: "closed", CodeZeroValue: "zero value",
}

// Kind returns the short word for the code used in error texts ("parse", "not found",
// "cancelled", ...), or its enumerator name for a code the binding does not know.
func (c Code) Kind() string {
	if k, ok := kinds[c]; ok {
		return k
	}
	return c.Name()
}

// Name returns the enumerator name of the code, e.g. "TOKENRING_E_INVAL"
// (tokenring_status_name), or "TOKENRING_GO_CLOSED" for CodeClosed.
func (c Code) Name() string {
	switch c {
	case CodeClosed:
		return "TOKENRING_GO_CLOSED"
	case CodeZeroValue:
		return "TOKENRING_GO_ZERO_VALUE"
	}
	return C.GoString(C.tokenring_status_name(C.tokenring_status(c)))
}

// String returns the library's static description of the code (tokenring_strerror).
func (c Code) String() string {
	switch c {
	case CodeClosed:
		return "use of a closed handle"
	case CodeZeroValue:
		return "use of a zero-value handle: make it with its constructor"
	}
	return C.GoString(C.tokenring_strerror(C.tokenring_status(c)))
}

// Error is the error type of every failing call: the library's status code and its
// message (the detail the library wrote into its tokenring_error, naming the node,
// token, datacenter or expectation that failed; the code's description otherwise).
// Line and Column are 1-based positions for text parsers, else 0.
//
// Match it against the exported sentinels with errors.Is, which compares codes:
//
//	if errors.Is(err, tokenring.ErrExists) { ... }
//
// or read the detail with errors.As. A call stopped by its context also matches the
// context's error: errors.Is(err, context.Canceled) (or context.DeadlineExceeded) and
// errors.Is(err, ErrCancelled) both hold.
type Error struct {
	Code    Code
	Message string
	Line    int
	Column  int
	cause   error // what stopped a cancelled call (the context's error), for Unwrap
}

// Error reads as a Go error: "tokenring: ", the code's Kind, the position for text
// parsers, and the message, e.g.
//
//	tokenring: parse: line 3, column 14: expected a token, found "abc"
//	tokenring: not found: datacenter 'dc9' of the replication has no node in the ring
func (e *Error) Error() string {
	if e.Line > 0 || e.Column > 0 {
		return fmt.Sprintf("tokenring: %s: line %d, column %d: %s", e.Code.Kind(), e.Line, e.Column, e.Message)
	}
	return fmt.Sprintf("tokenring: %s: %s", e.Code.Kind(), e.Message)
}

// Is reports whether target is an *Error with the same Code, so that errors.Is(err,
// ErrNotFound) matches every not-found error whatever its message.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Unwrap returns the context error that stopped a cancelled call, else nil.
func (e *Error) Unwrap() error { return e.cause }

func sentinel(c Code) *Error { return &Error{Code: c, Message: c.String()} }

// Sentinel errors, one per status code, for use with errors.Is. Never compare errors
// with == : returned errors carry their own message.
var (
	ErrInvalid     = sentinel(CodeInvalid)     // an argument is invalid
	ErrNoMem       = sentinel(CodeNoMem)       // a memory allocation failed
	ErrNotFound    = sentinel(CodeNotFound)    // a named node or datacenter does not exist
	ErrExists      = sentinel(CodeExists)      // a node name or token is already present
	ErrRange       = sentinel(CodeRange)       // a value is outside its limits
	ErrParse       = sentinel(CodeParse)       // malformed text
	ErrEmpty       = sentinel(CodeEmpty)       // nothing to work on (no tokens)
	ErrBufSize     = sentinel(CodeBufSize)     // an output buffer is too small
	ErrUnsupported = sentinel(CodeUnsupported) // a valid request the call cannot satisfy
	ErrImpossible  = sentinel(CodeImpossible)  // no answer can meet the request
	ErrCancelled   = sentinel(CodeCancelled)   // the context was done (see Error)
	ErrNotPlaced   = sentinel(CodeNotPlaced)   // LocalStrategy, EverywhereStrategy, MetaStrategy
	ErrClosed      = sentinel(CodeClosed)      // the handle was closed
	ErrZeroValue   = sentinel(CodeZeroValue)   // a zero-value handle no constructor made
)

// newError builds an *Error from a status and an optional filled tokenring_error.
func newError(status C.int, detail *C.tokenring_error) error {
	if status == C.TOKENRING_OK {
		return nil
	}
	e := &Error{Code: Code(status)}
	if detail != nil && detail.message[0] != 0 {
		e.Message = C.GoString((*C.char)(unsafe.Pointer(&detail.message[0])))
		e.Line = int(detail.line)
		e.Column = int(detail.column)
	} else {
		e.Message = e.Code.String()
	}
	return e
}

// check turns a status without detail into an error.
func check(status C.int) error { return newError(status, nil) }

// goError is an error raised by the binding itself before reaching C.
func goError(c Code, format string, args ...any) error {
	return &Error{Code: c, Message: fmt.Sprintf(format, args...)}
}
