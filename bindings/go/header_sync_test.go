// SPDX-License-Identifier: Apache-2.0

package tokenring

import (
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// notWrapped lists the public C functions the binding deliberately does not wrap, each
// with the reason. Everything else declared TOKENRING_API in include/tokenring/*.h must be
// called from the binding's Go source, so a header change fails this test until the
// binding follows (or the function is added here with a reason).
var notWrapped = map[string]string{
	"tokenring_set_allocator": "process-global C allocator hooks for C embedders: Go has no C function pointers " +
		"to offer without C shims, and swapping allocators while Go holds objects would free them with the wrong allocator",
	"tokenring_get_allocator": "only meaningful together with tokenring_set_allocator (see there)",
	"tokenring_router_ref":    "a Router owns one reference; Go shares the *Router",
	"tokenring_history_replay": "ReplayHistory calls tokenring_history_replay_limited with zeroed limits, " +
		"which is the same call (the default budget)",
}

// viaText maps the one _text call of an operation (tokens in text form, every
// partitioner) to the typed calls of the other partitioners it serves: the binding's
// Token128 and []byte functions convert to and from the text and call it.
var viaText = map[string][]string{
	"tokenring_topology_add_node_text":     {"tokenring_topology_add_node128", "tokenring_topology_add_node_bytes"},
	"tokenring_topology_set_tokens_text":   {"tokenring_topology_set_tokens128", "tokenring_topology_set_tokens_bytes"},
	"tokenring_topology_node_token_text":   {"tokenring_topology_node_token128", "tokenring_topology_node_token_bytes"},
	"tokenring_ring_token_text":            {"tokenring_ring_token128", "tokenring_ring_token_bytes"},
	"tokenring_movement_join_text":         {"tokenring_movement_join128", "tokenring_movement_join_bytes"},
	"tokenring_movement_move_text":         {"tokenring_movement_move128", "tokenring_movement_move_bytes"},
	"tokenring_movement_range_bound_text":  {"tokenring_movement_range_bounds128", "tokenring_movement_range_bounds_bytes"},
	"tokenring_movement_sample_token_text": {"tokenring_movement_sample_token128", "tokenring_movement_sample_token_bytes"},
	"tokenring_layout_even_tokens_text":    {"tokenring_layout_even_tokens128"},
	"tokenring_layout_seeded_tokens_text":  {"tokenring_layout_seeded_tokens128"},
	"tokenring_allocate_cassandra_text":    {"tokenring_allocate_cassandra128"},
	"tokenring_allocate_join_text":         {"tokenring_allocate_join128", "tokenring_allocate_join_limited"},
}

func init() {
	for text, typed := range viaText {
		for _, f := range typed {
			notWrapped[f] = "the binding calls " + text + " (one call for every partitioner, tokens as text)"
		}
	}
}

// notMirrored lists the public macros and enumerators the binding deliberately has no Go
// constant for, with the reason. Every other one must be referenced as C.NAME from the
// binding's Go source (constcheck.go pins each Go constant to its C value), so that a new
// status code, CQL type, flag or limit fails this test until the binding follows.
var notMirrored = map[string]string{
	"TOKENRING_API":    "the export attribute, not a value",
	"TOKENRING_E_BUSY": "returned only by tokenring_set_allocator, which the binding does not wrap (see notWrapped)",
}

// headerDir is the public header folder of the source tree this binding lives in.
const headerDir = "../../include/tokenring"

var apiDecl = regexp.MustCompile(`TOKENRING_API\b[^;{]*?\b(tokenring_[A-Za-z0-9_]+)\s*\(`)
var cCall = regexp.MustCompile(`\bC\.(tokenring_[A-Za-z0-9_]+)\s*\(`)
var macroDef = regexp.MustCompile(`(?m)^\s*#\s*define\s+(TOKENRING_[A-Z0-9_]+)(\(?)`)
var enumerator = regexp.MustCompile(`\b(TOKENRING_[A-Z0-9_]+)\s*=\s*-?[0-9]`)
var cName = regexp.MustCompile(`\bC\.(TOKENRING_[A-Z0-9_]+)\b`)
var typedefName = regexp.MustCompile(`\b(tokenring_[A-Za-z0-9_]+)\s*;|\(\s*\*\s*(tokenring_[A-Za-z0-9_]+)\s*\)`)
var blockComment = regexp.MustCompile(`(?s)/\*.*?\*/`)
var lineComment = regexp.MustCompile(`//[^\n]*`)

// headerFunctions returns every function declared with TOKENRING_API, mapped to its
// header, and the names of the header's types (C.tokenring_status(x) is a conversion,
// not a call).
func headerFunctions(t *testing.T) (map[string]string, map[string]bool) {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(headerDir, "*.h"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no public headers found in %s (err %v): run the test from bindings/go in the source tree", headerDir, err)
	}
	decls := map[string]string{}
	types := map[string]bool{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := blockComment.ReplaceAllString(string(src), "")
		text = lineComment.ReplaceAllString(text, "")
		for _, m := range apiDecl.FindAllStringSubmatch(text, -1) {
			decls[m[1]] = filepath.Base(f)
		}
		for _, m := range typedefName.FindAllStringSubmatch(text, -1) {
			// "} tokenring_x;", "typedef struct tokenring_x tokenring_x;" and
			// "typedef int (*tokenring_x)(...);"
			types[m[1]+m[2]] = true
		}
	}
	return decls, types
}

// wrappedFunctions returns every C.tokenring_xxx( called from the non-test Go files.
func wrappedFunctions(t *testing.T) map[string]bool {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	calls := map[string]bool{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Comments may mention functions that are not called: drop them. The cgo
		// preamble is a comment too, which is fine (it declares nothing we call).
		text := lineComment.ReplaceAllString(blockComment.ReplaceAllString(string(src), ""), "")
		for _, m := range cCall.FindAllStringSubmatch(text, -1) {
			calls[m[1]] = true
		}
	}
	return calls
}

func TestHeaderInSync(t *testing.T) {
	decls, types := headerFunctions(t)
	calls := wrappedFunctions(t)
	if len(decls) < 10 {
		t.Fatalf("found only %d TOKENRING_API declarations: the extraction is broken", len(decls))
	}
	var missing, stale, needless, unknown []string
	for name, header := range decls {
		_, allowed := notWrapped[name]
		switch {
		case !calls[name] && !allowed:
			missing = append(missing, name+" ("+header+")")
		case calls[name] && allowed:
			needless = append(needless, name)
		}
	}
	for name := range notWrapped {
		if _, ok := decls[name]; !ok {
			stale = append(stale, name)
		}
	}
	wrapped := 0
	for name := range calls {
		if _, ok := decls[name]; ok {
			wrapped++
		} else if !types[name] {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(missing)
	sort.Strings(stale)
	sort.Strings(needless)
	sort.Strings(unknown)
	for _, m := range missing {
		t.Errorf("public function %s is not wrapped: call it from the binding, or list it in notWrapped with a reason", m)
	}
	for _, s := range stale {
		t.Errorf("notWrapped lists %s, which no public header declares any more", s)
	}
	for _, s := range needless {
		t.Errorf("notWrapped lists %s, but the binding calls it: remove it from the list", s)
	}
	for _, s := range unknown {
		t.Errorf("the binding calls C.%s, which no public header declares", s)
	}
	t.Logf("%d public functions, %d wrapped, %d deliberately not wrapped", len(decls), wrapped, len(notWrapped))
}

// TestHeaderExtraction guards the extraction itself on a known declaration shape.
func TestHeaderExtraction(t *testing.T) {
	src := "/** doc TOKENRING_API int tokenring_fake(void); */\n" +
		"TOKENRING_API const int64_t *tokenring_ring_tokens(const tokenring_ring *ring,\n    size_t *count_out);\n" +
		"TOKENRING_API int\ntokenring_multi_line(int a);\n"
	text := blockComment.ReplaceAllString(src, "")
	var got []string
	for _, m := range apiDecl.FindAllStringSubmatch(text, -1) {
		got = append(got, m[1])
	}
	want := "tokenring_ring_tokens,tokenring_multi_line"
	if strings.Join(got, ",") != want {
		t.Fatalf("extracted %v, want %s", got, want)
	}
}

// headerValues returns the object-like macros and the enumerators of the public headers
// (include guards and function-like macros left out).
func headerValues(t *testing.T) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(headerDir, "*.h"))
	files = append(files, filepath.Join(headerDir, "version.h.in"))
	names := map[string]string{}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		text := lineComment.ReplaceAllString(blockComment.ReplaceAllString(string(src), ""), "")
		for _, m := range macroDef.FindAllStringSubmatch(text, -1) {
			if m[2] == "(" || strings.HasSuffix(m[1], "_H") {
				continue
			}
			names[m[1]] = filepath.Base(f)
		}
		for _, m := range enumerator.FindAllStringSubmatch(text, -1) {
			names[m[1]] = filepath.Base(f)
		}
	}
	return names
}

func TestHeaderValuesMirrored(t *testing.T) {
	names := headerValues(t)
	if len(names) < 50 {
		t.Fatalf("found only %d macros and enumerators: the extraction is broken", len(names))
	}
	used := map[string]bool{}
	files, _ := filepath.Glob("*.go")
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range cName.FindAllStringSubmatch(string(src), -1) {
			used[m[1]] = true
		}
	}
	var missing []string
	for name, header := range names {
		if _, ok := notMirrored[name]; !ok && !used[name] {
			missing = append(missing, name+" ("+header+")")
		}
	}
	sort.Strings(missing)
	t.Logf("%d public macros and enumerators, %d without a Go counterpart", len(names), len(missing))
	for _, m := range missing {
		t.Errorf("public constant %s has no Go counterpart: add one (and its check in constcheck.go), or list it in notMirrored with a reason", m)
	}
	for name := range notMirrored {
		if _, ok := names[name]; !ok && name != "TOKENRING_API" {
			t.Errorf("notMirrored lists %s, which no public header defines any more", name)
		}
	}
}
