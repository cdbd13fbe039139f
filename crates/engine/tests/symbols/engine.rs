//! Language-independent behaviour: errors, extensions, parse errors, the cache, robustness.

use std::path::Path;

use edit_engine_core::symbols::{
    closest_names, find_all_symbols, language_for_path, language_for_path_checked, list_symbols,
    parse, plan_insert, plan_replace, Language, ParseCache, SymbolError, SymbolInfo, ALL_LANGUAGES,
};

use crate::common::*;

#[test]
fn extensions_map_to_languages() {
    let cases = [
        ("a.js", Language::JavaScript),
        ("a.mjs", Language::JavaScript),
        ("a.cjs", Language::JavaScript),
        ("a.jsx", Language::JavaScript),
        ("a.ts", Language::TypeScript),
        ("a.mts", Language::TypeScript),
        ("a.cts", Language::TypeScript),
        ("a.tsx", Language::Tsx),
        ("a.py", Language::Python),
        ("a.rs", Language::Rust),
        ("a.go", Language::Go),
        ("A.java", Language::Java),
        ("a.c", Language::C),
        ("a.h", Language::C),
        ("a.cpp", Language::Cpp),
        ("a.hpp", Language::Cpp),
        ("a.cc", Language::Cpp),
        ("a.rb", Language::Ruby),
        ("a.php", Language::Php),
        ("a.swift", Language::Swift),
        ("a.kt", Language::Kotlin),
        ("a.kts", Language::Kotlin),
        ("a.scala", Language::Scala),
        ("a.cs", Language::CSharp),
        ("a.lua", Language::Lua),
        ("a.zig", Language::Zig),
        ("dir.v2/UPPER.TS", Language::TypeScript),
    ];
    for (path, lang) in cases {
        assert_eq!(language_for_path(Path::new(path)), Some(lang), "{path}");
    }
}

#[test]
fn unsupported_extension_is_a_typed_error() {
    assert_eq!(language_for_path(Path::new("notes.txt")), None);
    assert_eq!(language_for_path(Path::new("Makefile")), None);
    assert_eq!(
        language_for_path_checked(Path::new("notes.txt")),
        Err(SymbolError::UnsupportedLanguage { ext: "txt".into() })
    );
    assert_eq!(
        language_for_path_checked(Path::new("Makefile")),
        Err(SymbolError::UnsupportedLanguage { ext: String::new() })
    );
    let msg = SymbolError::UnsupportedLanguage { ext: "txt".into() }.to_string();
    assert_eq!(msg, "symbol mode does not support '.txt' files");
}

#[test]
fn every_grammar_loads() {
    for lang in ALL_LANGUAGES {
        let tree = parse("", lang).unwrap_or_else(|e| panic!("{lang:?}: {e}"));
        assert!(!tree.root_node().has_error(), "{lang:?}");
        assert_eq!(list_symbols("", lang).unwrap(), Vec::<SymbolInfo>::new());
    }
}

const BROKEN_TS: &str = "function good(a: number) {\n  return a;\n}\n\nfunction bad( {\n  return 1;\n\nclass Later {\n  m() {}\n}\n";

#[test]
fn intact_symbol_in_a_broken_file_is_still_found() {
    assert!(parse(BROKEN_TS, Language::TypeScript)
        .unwrap()
        .root_node()
        .has_error());
    let s = one(BROKEN_TS, Language::TypeScript, "good");
    assert_eq!(span(&s), (1, 3, "function_declaration", "good"));
    let plan = plan_replace(
        BROKEN_TS,
        &s,
        "function good(a: number) {\n  return a * 2;\n}",
    );
    assert!(plan
        .new_source
        .starts_with("function good(a: number) {\n  return a * 2;\n}\n\nfunction bad( {"));
}

#[test]
fn symbol_in_the_broken_region_is_a_parse_error_with_its_line() {
    let err = find_all_symbols(BROKEN_TS, Language::TypeScript, "bad").unwrap_err();
    match err {
        SymbolError::Parse { language, line } => {
            assert_eq!(language, "typescript");
            assert_eq!(line, 5);
        }
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn wholly_broken_file_lists_as_parse_error() {
    let err = list_symbols("def (:\n  ::\n", Language::Python).unwrap_err();
    assert!(
        matches!(
            err,
            SymbolError::Parse {
                language: "python",
                line: 1
            }
        ),
        "{err:?}"
    );
    assert_eq!(err.to_string(), "python parse error at line 1");
}

#[test]
fn missing_name_and_empty_name_find_nothing() {
    let src = "function a() {}\n";
    assert!(find_all_symbols(src, Language::JavaScript, "")
        .unwrap()
        .is_empty());
    assert!(find_all_symbols(src, Language::JavaScript, "  ..  ")
        .unwrap()
        .is_empty());
    assert!(find_all_symbols(src, Language::JavaScript, "zzz")
        .unwrap()
        .is_empty());
    assert!(closest_names(&[], "a", 3).is_empty());
}

#[test]
fn anchored_name_selects_the_top_level_definition() {
    let src = "function add() {}\nclass R {\n  add() {}\n}\n";
    assert_eq!(
        matches(src, Language::JavaScript, "add"),
        vec!["add", "R.add"]
    );
    assert_eq!(matches(src, Language::JavaScript, "::add"), vec!["add"]);
    assert_eq!(matches(src, Language::JavaScript, ".add"), vec!["add"]);
    assert_eq!(matches(src, Language::JavaScript, "R::add"), vec!["R.add"]);
}

#[test]
fn closest_names_ranks_by_edit_distance() {
    let src = "function calculateTotal() {}\nfunction calculateTax() {}\nfunction render() {}\n";
    let all = list_symbols(src, Language::JavaScript).unwrap();
    assert_eq!(
        closest_names(&all, "calculateTotl", 2),
        vec!["calculateTotal", "calculateTax"]
    );
    assert_eq!(closest_names(&all, "Render", 1), vec!["render"]);
    assert_eq!(
        closest_names(&all, "calc", 3),
        vec!["calculateTotal", "calculateTax", "render"]
    );
}

/// Every sample of the per-language tests, for the cross-language checks below.
fn samples() -> Vec<(Language, &'static str)> {
    vec![
        (Language::JavaScript, crate::javascript::SRC),
        (Language::TypeScript, crate::typescript::SRC),
        (Language::Python, crate::python::SRC),
        (Language::Rust, crate::rust::SRC),
        (Language::Go, crate::go::SRC),
        (Language::Java, crate::java::SRC),
        (Language::C, crate::c::SRC),
        (Language::Cpp, crate::cpp::SRC),
        (Language::Ruby, crate::ruby::SRC),
        (Language::Php, crate::php::SRC),
        (Language::Swift, crate::swift::SRC),
        (Language::Kotlin, crate::kotlin::SRC),
        (Language::Scala, crate::scala::SRC),
        (Language::CSharp, crate::csharp::SRC),
        (Language::Lua, crate::lua::SRC),
        (Language::Zig, crate::zig::SRC),
    ]
}

#[test]
fn samples_parse_cleanly_and_lookup_agrees_with_listing() {
    for (lang, src) in samples() {
        assert_clean(src, lang);
        let all = list_symbols(src, lang).unwrap();
        assert!(all.len() >= 4, "{lang:?} lists {}", all.len());
        for s in &all {
            let by_full = find_all_symbols(src, lang, &s.qualified_name).unwrap();
            assert!(
                by_full.contains(s),
                "{lang:?}: {} not found by its qualified name",
                s.qualified_name
            );
            let by_bare = find_all_symbols(src, lang, s.name()).unwrap();
            let expected: Vec<&SymbolInfo> = all.iter().filter(|o| o.name() == s.name()).collect();
            assert_eq!(
                by_bare.iter().collect::<Vec<_>>(),
                expected,
                "{lang:?}: bare {}",
                s.name()
            );
            assert!(s.start_line <= s.end_line && s.start_byte < s.end_byte);
            assert_eq!(
                s.code.lines().count(),
                s.end_line - s.start_line + 1,
                "{lang:?} {}",
                s.qualified_name
            );
        }
    }
}

#[test]
fn replacing_a_symbol_with_itself_is_the_identity() {
    for (lang, src) in samples() {
        for s in list_symbols(src, lang).unwrap() {
            let plan = plan_replace(src, &s, &s.code);
            assert_eq!(plan.new_source, src, "{lang:?} {}", s.qualified_name);
            assert_eq!(plan.new_line_count, s.end_line - s.start_line + 1);
        }
    }
}

/// A method of a one-line class: its bare replacement keeps the class's own closing brace (the
/// method's `}` is no restatement of it); restating the whole line replaces the line.
#[test]
fn a_member_sharing_its_line_keeps_the_enclosing_code() {
    let src = "class K { m() { return 2; } }\nclass Z {}\n";
    let s = one(src, Language::JavaScript, "K.m");
    let bare = plan_replace(src, &s, "m() { return 3; }");
    assert_eq!(
        bare.new_source,
        "class K { m() { return 3; } }\nclass Z {}\n"
    );
    let restated = plan_replace(src, &s, "class K { m() { return 4; } }");
    assert_eq!(
        restated.new_source,
        "class K { m() { return 4; } }\nclass Z {}\n"
    );
    let line = "let x = 1; function f() { a(); } go();\n";
    let f = one(line, Language::JavaScript, "f");
    let inner = plan_replace(line, &f, "function f() { b(); }");
    assert_eq!(inner.new_source, "let x = 1; function f() { b(); } go();\n");
    let with_tail = plan_replace(line, &f, "function f() { c(); } go();");
    assert_eq!(
        with_tail.new_source,
        "let x = 1; function f() { c(); } go();\n"
    );
}

#[test]
fn replacing_with_only_the_bare_definition_restores_the_same_text() {
    // Strip every leading part from the code; rule 9 must put them all back.
    for (lang, src) in samples() {
        for s in list_symbols(src, lang).unwrap() {
            let Some(last) = s.leading.last() else {
                continue;
            };
            let line = &src[src[..s.start_byte].rfind('\n').map_or(0, |i| i + 1)..];
            let indent = &line[..line.len() - line.trim_start().len()];
            let bare = format!("{indent}{}", &src[last.end_byte..s.end_byte]);
            let plan = plan_replace(src, &s, &bare);
            assert_eq!(plan.new_source, src, "{lang:?} {}", s.qualified_name);
        }
    }
}

#[test]
fn never_panics_on_truncated_sources_or_bogus_symbols() {
    for (lang, src) in samples() {
        // SYMBOL_FUZZ_STEP=1 tries every prefix and suffix (slow); the default samples them.
        let step = std::env::var("SYMBOL_FUZZ_STEP")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(7);
        let cuts: Vec<usize> = (0..src.len())
            .step_by(step)
            .filter(|&i| src.is_char_boundary(i))
            .collect();
        let texts = cuts.iter().flat_map(|&c| [&src[..c], &src[c..]]);
        for text in texts {
            let listed = list_symbols(text, lang).unwrap_or_default();
            let _ = find_all_symbols(text, lang, "push");
            for s in listed.iter().take(3) {
                let _ = plan_replace(text, s, "x");
                let _ = plan_insert(text, s, "y", true);
                let _ = plan_insert(text, s, "y", false);
                let _ = closest_names(&listed, "pus", 2);
            }
        }
    }
    let bogus = SymbolInfo {
        start_line: 99,
        end_line: 1,
        start_byte: 1_000,
        end_byte: 3,
        code: String::new(),
        node_type: String::new(),
        qualified_name: String::new(),
        language: Language::Rust,
        leading: vec![],
    };
    for src in ["", "é", "fn a() {}\n", "\n\n"] {
        let _ = plan_replace(src, &bogus, "fn b() {}");
        let _ = plan_insert(src, &bogus, "fn b() {}", false);
        let _ = plan_insert(src, &bogus, "", true);
    }
}

#[test]
fn blank_new_string_deletes_the_symbol_with_its_leading_parts() {
    let src = "a();\n\n/** Doc. */\nexport function f() {}\n\nb();\n";
    let sym = one(src, Language::TypeScript, "f");
    let plan = plan_replace(src, &sym, "");
    assert_eq!(plan.new_source, "a();\n\n\n\nb();\n");
    assert_eq!(plan.new_line_count, 1);
}

#[test]
fn plan_reports_the_byte_edit() {
    let src = "x = 1\n\ndef f():\n    pass\n";
    let sym = one(src, Language::Python, "f");
    let plan = plan_replace(src, &sym, "def f():\n    return 2");
    assert_eq!(plan.new_source, "x = 1\n\ndef f():\n    return 2\n");
    assert_eq!(
        (
            plan.edit.start_byte,
            plan.edit.old_end_byte,
            plan.edit.new_end_byte
        ),
        (7, 24, 28)
    );
    assert_eq!(plan.insert_line, 3);
    let ins = plan_insert(src, &sym, "def g():\n    pass", false);
    assert_eq!(
        ins.new_source,
        "x = 1\n\ndef f():\n    pass\n\ndef g():\n    pass\n"
    );
    assert_eq!(
        (
            ins.edit.start_byte,
            ins.edit.old_end_byte,
            ins.edit.new_end_byte
        ),
        (24, 24, 43)
    );
    assert_eq!((ins.insert_line, ins.new_line_count), (5, 2));
}

#[test]
fn cache_hits_and_reparses_incrementally_after_an_edit() {
    let cache = ParseCache::new(2);
    let path = Path::new("/virtual/a.ts");
    let src = crate::typescript::SRC;
    let lang = Language::TypeScript;
    // A chunked lookup parses pieces and caches nothing; listing parses (and caches) the whole file.
    let first = cache.find_all_symbols(path, src, lang, "Calc.pop").unwrap();
    assert_eq!(first, find_all_symbols(src, lang, "Calc.pop").unwrap());
    assert_eq!(cache.len(), 0);
    cache.list_symbols(path, src, lang).unwrap();
    assert_eq!(cache.len(), 1);
    let again = cache.find_all_symbols(path, src, lang, "Calc.pop").unwrap();
    assert_eq!(first, again);

    let plan = plan_replace(src, &first[0], "pop(): number {\n  return 0;\n}");
    cache.record_edit(path, lang, src, &plan.new_source, plan.edit);
    let new_src = plan.new_source.as_str();
    for name in ["Calc.pop", "mul", "main", "Demo.Calc.push", "Shape"] {
        assert_eq!(
            cache.find_all_symbols(path, new_src, lang, name).unwrap(),
            find_all_symbols(new_src, lang, name).unwrap(),
            "{name}"
        );
    }
    assert_eq!(
        cache.list_symbols(path, new_src, lang).unwrap(),
        list_symbols(new_src, lang).unwrap()
    );
    let fresh = parse(new_src, lang).unwrap();
    assert_eq!(
        cache
            .tree(path, new_src, lang)
            .unwrap()
            .root_node()
            .to_sexp(),
        fresh.root_node().to_sexp()
    );

    // Different content for the same path is a miss, never a stale answer.
    let other = "export function add() {}\n";
    assert_eq!(
        cache.find_all_symbols(path, other, lang, "add").unwrap()[0].start_line,
        1
    );
    // Capacity is honoured.
    cache.tree(Path::new("/virtual/b.ts"), other, lang).unwrap();
    cache.tree(Path::new("/virtual/c.ts"), other, lang).unwrap();
    assert_eq!(cache.len(), 2);
}

#[test]
fn record_edit_for_unknown_or_changed_text_is_harmless() {
    let cache = ParseCache::default();
    let path = Path::new("/virtual/x.py");
    let src = "def f():\n    pass\n";
    let sym = one(src, Language::Python, "f");
    let plan = plan_replace(src, &sym, "def f():\n    return 1");
    cache.record_edit(path, Language::Python, src, &plan.new_source, plan.edit);
    assert!(cache.is_empty());
    cache.tree(path, "x = 1\n", Language::Python).unwrap();
    cache.record_edit(path, Language::Python, src, &plan.new_source, plan.edit);
    assert!(cache.is_empty());
    assert_eq!(
        cache
            .find_all_symbols(path, &plan.new_source, Language::Python, "f")
            .unwrap()
            .len(),
        1
    );
}

#[test]
fn unknown_name_in_a_broken_file_is_not_found_rather_than_a_parse_error() {
    assert!(find_all_symbols(BROKEN_TS, Language::TypeScript, "nowhere")
        .unwrap()
        .is_empty());
    // `Later` comes after the unclosed function, inside the error region.
    assert!(matches!(
        find_all_symbols(BROKEN_TS, Language::TypeScript, "Later"),
        Err(SymbolError::Parse { line: 5, .. })
    ));
}

#[test]
fn selectors_pick_each_duplicate_exactly() {
    let cases: Vec<(Language, &str, &str)> = vec![
        (
            Language::JavaScript,
            "function add() {}\nclass R {\n  add() {}\n}\n",
            "add",
        ),
        (Language::Java, crate::java::SRC, "add"),
        (Language::TypeScript, crate::typescript::SRC, "push"),
        (Language::Python, crate::python::SRC, "add"),
        (Language::Rust, crate::rust::SRC, "push"),
    ];
    for (lang, src, name) in cases {
        let found = find_all_symbols(src, lang, name).unwrap();
        assert!(found.len() > 1);
        let names = edit_engine_core::symbols::selectors(&found);
        for (s, sel) in found.iter().zip(&names) {
            assert_eq!(
                find_all_symbols(src, lang, sel).unwrap(),
                vec![s.clone()],
                "{lang:?} {sel}"
            );
        }
    }
    let found = find_all_symbols(crate::java::SRC, Language::Java, "add").unwrap();
    assert_eq!(
        edit_engine_core::symbols::selectors(&found),
        vec!["Calc.add@10", "Calc.add@17"]
    );
    let found = find_all_symbols(crate::python::SRC, Language::Python, "add").unwrap();
    assert_eq!(
        edit_engine_core::symbols::selectors(&found),
        vec!["Store.add", "Store.Meta.add", "::add"]
    );
}
