// SPDX-License-Identifier: Apache-2.0
// Compiles the library's single-file source (csrc/tokenring, generated from lib/ by
// scripts/amalgamate.py) into a static library linked into the crate: nothing to install.
use std::path::PathBuf;

fn main() {
    let dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap()).join("csrc/tokenring");
    let src = dir.join("tokenring.c");
    println!("cargo:rerun-if-changed={}", src.display());
    println!("cargo:rerun-if-changed={}", dir.join("tokenring.h").display());
    cc::Build::new()
        .file(&src)
        .include(&dir)
        .flag_if_supported("-std=c11")
        .warnings(false)
        .compile("tokenring");
    println!("cargo:include={}", dir.display());
}
