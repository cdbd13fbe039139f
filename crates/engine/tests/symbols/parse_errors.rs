//! A parse error outside a symbol's own definition does not stop finding it; one inside does.
//! (C and Ruby swallow the next definition into the error: found by parsing its piece alone.)

use edit_engine_core::symbols::{find_all_symbols, Language};

/// `(language, source with a broken piece right before an intact `target`, broken name)`.
const CASES: &[(Language, &str, &str)] = &[
    (Language::Python, "def broken(:\n    pass\n\ndef target(x):\n    return x\n", "broken"),
    (Language::Rust, "fn broken( {\n}\n\nfn target(x: u32) -> u32 {\n    x\n}\n", "broken"),
    (Language::Go, "package a\n\nfunc broken( {\n}\n\nfunc target(x int) int {\n\treturn x\n}\n", "broken"),
    (Language::C, "int broken( {\n}\n\nint target(int x) {\n    return x;\n}\n", "broken"),
    (Language::Ruby, "def broken(\n  1 +\nend\n\ndef target(x)\n  x\nend\n", "broken"),
    (Language::Java, "class A {\n    void broken( {\n    }\n\n    int target(int x) {\n        return x;\n    }\n}\n", "broken"),
];

#[test]
fn an_error_outside_the_definition_does_not_hide_it() {
    let failed: Vec<_> = CASES
        .iter()
        .map(|(lang, source, _)| (lang, find_all_symbols(source, *lang, "target")))
        .filter(|(_, found)| !matches!(found, Ok(v) if v.len() == 1))
        .collect();
    assert!(failed.is_empty(), "{failed:?}");
}

#[test]
fn an_error_inside_the_definition_still_refuses() {
    for (lang, source, broken) in CASES {
        let found = find_all_symbols(source, *lang, broken);
        assert!(
            !matches!(&found, Ok(v) if !v.is_empty()),
            "{lang:?}: {found:?}"
        );
    }
}
