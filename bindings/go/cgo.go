// SPDX-License-Identifier: Apache-2.0

package tokenring

// The library is found with pkg-config ("tokenring", or "tokenring-uninstalled" from a
// Meson build directory when PKG_CONFIG_PATH points at its meson-uninstalled folder).
// Build with -tags static to link libtokenring.a instead of the shared library.

/*
#cgo !static pkg-config: tokenring
#cgo static pkg-config: --static tokenring
#cgo static LDFLAGS: -Wl,-Bstatic -ltokenring -Wl,-Bdynamic
#include <tokenring/tokenring.h>
#if TOKENRING_VERSION_MAJOR != 1
#error "this Go binding targets libtokenring 1.x: install matching headers or update the binding"
#endif
*/
import "C"
