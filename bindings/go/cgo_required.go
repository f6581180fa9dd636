// SPDX-License-Identifier: Apache-2.0

//go:build !cgo

package tokenring

// The binding calls the C library through cgo: with CGO_ENABLED=0 (the default when
// cross-compiling) it cannot build, and this file makes the build say so instead of
// failing on the first type the cgo files would have defined.
//
// Fix: CGO_ENABLED=1 with a C compiler for the target (CC=... for a cross build).
var _ = tokenring_binding_requires_cgo__build_with_CGO_ENABLED_1_and_a_C_compiler
