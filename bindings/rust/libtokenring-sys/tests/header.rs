// SPDX-License-Identifier: Apache-2.0
//! The hand-written declarations of src/lib.rs against the C header they mirror
//! (csrc/tokenring/tokenring.h, the frozen public API): every function exists there with
//! the same parameter names in the same order, and every struct has the same fields in
//! the same order.

fn normalize(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn header() -> String {
    let p = concat!(env!("CARGO_MANIFEST_DIR"), "/csrc/tokenring/tokenring.h");
    normalize(&std::fs::read_to_string(p).expect("csrc/tokenring/tokenring.h"))
}

fn rust() -> String {
    normalize(include_str!("../src/lib.rs"))
}

/// The identifier that ends a C parameter declaration (`const char *name` -> `name`).
fn last_ident(decl: &str) -> String {
    decl.trim()
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .find(|s| !s.is_empty())
        .unwrap_or("")
        .to_string()
}

#[test]
fn functions_match_the_header() {
    let (h, r) = (header(), rust());
    let mut checked = 0;
    for part in r.split("pub fn ").skip(1) {
        let name = &part[..part.find('(').unwrap()];
        let rparams = &part[name.len() + 1..part.find(')').unwrap()];
        let rnames: Vec<String> = rparams
            .split(',')
            .filter(|p| p.contains(':'))
            .map(|p| p.split(':').next().unwrap().trim().to_string())
            .collect();
        // the declaration: TOKENRING_API <type> <name>(<params>);
        let decl = h
            .split("TOKENRING_API ")
            .skip(1)
            .map(|d| &d[..d.find(';').unwrap_or(d.len())])
            .find(|d| d.find('(').map_or(false, |i| last_ident(&d[..i]) == name))
            .unwrap_or_else(|| panic!("{} is not declared in tokenring.h", name));
        let start = decl.find('(').unwrap() + 1;
        let cparams = &decl[start..decl.rfind(')').unwrap()];
        let cnames: Vec<String> = if cparams.trim() == "void" {
            vec![]
        } else {
            cparams.split(',').map(last_ident).collect()
        };
        assert_eq!(rnames, cnames, "parameters of {}", name);
        checked += 1;
    }
    assert!(checked >= 45, "only {} functions found in src/lib.rs", checked);
}

#[test]
fn structs_match_the_header() {
    let (h, r) = (header(), rust());
    for name in [
        "tokenring_error",
        "tokenring_replicas",
        "tokenring_node_info",
        "tokenring_router_node_info",
        "tokenring_route",
        "tokenring_router_event",
        "tokenring_limits",
        "tokenring_metadata_log_row",
        "tokenring_metadata_node_row",
    ] {
        let rs = &r[r.find(&format!("pub struct {} {{", name)).unwrap()..];
        let rbody = &rs[rs.find('{').unwrap() + 1..rs.find('}').unwrap()];
        let rfields: Vec<String> = rbody
            .split(',')
            .filter(|f| f.contains(':'))
            .map(|f| f.split(':').next().unwrap().trim().trim_start_matches("pub ").to_string())
            .collect();
        let cs = &h[h.find(&format!("typedef struct {} {{", name)).unwrap()..];
        let cbody = &cs[cs.find('{').unwrap() + 1..cs.find('}').unwrap()];
        // drop the Doxygen comments, then take each declaration's last identifier
        let mut clean = String::new();
        let mut rest = cbody;
        while let Some(i) = rest.find("/*") {
            clean.push_str(&rest[..i]);
            rest = &rest[i + rest[i..].find("*/").unwrap() + 2..];
        }
        clean.push_str(rest);
        let cfields: Vec<String> = clean
            .split(';')
            .filter(|d| !d.trim().is_empty())
            .map(|d| last_ident(d.split('[').next().unwrap()))
            .collect();
        assert_eq!(rfields, cfields, "fields of {}", name);
    }
}

#[test]
fn the_library_links_and_hashes() {
    let t = unsafe { libtokenring_sys::tokenring_token(b"hello".as_ptr().cast(), 5) };
    assert_eq!(t, -3758069500696749310);
}

#[test]
fn constants_match_the_header() {
    let (h, r) = (header(), rust());
    let mut checked = 0;
    for part in r.split("pub const ").skip(1) {
        let name = &part[..part.find(':').unwrap()];
        let value = part[part.find('=').unwrap() + 1..part.find(';').unwrap()].trim();
        let as_enum = format!("{} = {}", name, value);
        let as_define = format!("#define {} {}u", name, value);
        assert!(h.contains(&as_enum) || h.contains(&as_define), "{} = {} is not in tokenring.h", name, value);
        checked += 1;
    }
    assert!(checked >= 15, "only {} constants found in src/lib.rs", checked);
}
