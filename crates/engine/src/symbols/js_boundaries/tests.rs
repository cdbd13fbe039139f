use super::*;

const JS: Language = Language::JavaScript;
const TS: Language = Language::TypeScript;

/// The first non-blank line of each piece, for readable assertions.
fn pieces(src: &str, lang: Language) -> Option<Vec<&str>> {
    let starts = top_level_starts(src, lang)?;
    Some(
        starts
            .iter()
            .map(|&s| {
                src[s..]
                    .lines()
                    .find(|l| !l.trim().is_empty())
                    .unwrap_or("")
            })
            .collect(),
    )
}

#[test]
fn splits_after_semicolons_and_top_level_braces() {
    let src = "import a from \"a\";\nconst x = 1;\n\nfunction f() {\n  return x;\n}\nclass C {\n  m() {}\n}\nexport const y = 2;\n";
    assert_eq!(
        pieces(src, JS).unwrap(),
        vec![
            "import a from \"a\";",
            "const x = 1;",
            "function f() {",
            "class C {",
            "export const y = 2;"
        ]
    );
}

#[test]
fn comments_before_a_declaration_stay_with_it() {
    let src = "a();\n// about f\n/**\n * doc\n */\nfunction f() {}\nb(); /* trailing\n comment */\nasync function g() {}\n";
    assert_eq!(
        pieces(src, JS).unwrap(),
        vec!["a();", "// about f", "async function g() {}"]
    );
}

#[test]
fn no_split_where_the_statement_may_continue() {
    // No `;` before `function` (ASI style), `else` / `while` / `catch` / `(` continue a statement, and a
    // comment does not make `(` a declaration.
    let cases = [
        "const a = require(\"a\")\nfunction f() {}\n",
        "if (x) {\n  y();\n}\nelse {\n  z();\n}\n",
        "do x();\nwhile (y);\n",
        "try {\n}\ncatch (e) {\n}\n",
        "const f = function () {\n}\n// call it\n(g);\n",
        "x = {}\n.toString();\n",
    ];
    for src in cases {
        assert_eq!(pieces(src, JS).unwrap().len(), 1, "{src}");
    }
}

#[test]
fn nothing_inside_strings_templates_comments_or_regexes_splits() {
    let cases = [
        "const t = `\n};\nfunction f() {}\n`;\n",
        "const t = `${a};\nfunction f() {}\n${b}`;\n",
        "/*\nx();\nfunction f() {}\n*/\n",
        "const s = 'a\\\n;\\\nfunction';\n",
        "const r = /;\\/}`/g;\nfunction f() {}\n",
    ];
    let expected = [1, 1, 1, 1, 2];
    for (src, n) in cases.iter().zip(expected) {
        assert_eq!(pieces(src, JS).unwrap().len(), n, "{src}");
    }
}

#[test]
fn nested_brackets_hide_their_statements() {
    let src = "class A {\n  x = 1;\n  static y() {}\n}\nfor (let i = 0;\n  i < 2;\n  i++) {}\n";
    assert_eq!(pieces(src, JS).unwrap(), vec!["class A {"]);
}

#[test]
fn gives_up_on_what_it_cannot_vouch_for() {
    let cases = [
        ("const s = 'open\nfunction f() {}\n", JS),
        ("const t = `never closed\n", JS),
        ("/* never closed\n", JS),
        ("function f() {\n", JS),
        ("}\n", JS),
        ("f(]);\n", JS),
        ("const r = /unclosed\n", JS),
        ("const el = <div>it's</div>;\n", JS),
        ("function f() {}\n<App />;\n", JS),
        ("const \\u0061 = 1;\n", JS),
        ("<!-- old\nx();\n", JS),
        ("x();\n--> old\n", JS),
        // After `)` a `/` may be division or a regex; here the readings disagree about the quote.
        ("if (a) /'/.test(s);\n", JS),
        ("x();\n", Language::Tsx),
        ("x = 1\n", Language::Python),
    ];
    for (src, lang) in cases {
        assert_eq!(top_level_starts(src, lang), None, "{src}");
    }
}

#[test]
fn tells_division_from_regex() {
    // Division after values; regex after operators and `return`; property names spelled like keywords
    // are values. Each source splits before `function f` only when lexed right.
    let cases = [
        "const a = b / c / d;\nfunction f() {}\n",
        "const a = (b + c) / 2;\nfunction f() {}\n",
        "const a = x.return / 2 / y;\nfunction f() {}\n",
        "const r = [/`/, /'/];\nfunction f() {}\n",
        "function g() {\n  return /[/`]/.test(s);\n}\nfunction f() {}\n",
        "const a = b++ / 2;\nfunction f() {}\n",
    ];
    for src in cases {
        assert_eq!(
            pieces(src, JS).unwrap().last().copied(),
            Some("function f() {}"),
            "{src}"
        );
    }
}

#[test]
fn typescript_declarations_and_type_syntax() {
    let src = "@Component({})\nexport class A {\n  x!: number;\n}\ninterface B {\n  y: Array<string>;\n}\ntype C = `a${string}`;\nconst d = <number>e;\nenum E { F }\ndeclare module \"m\" {\n}\nconst g = h! / 2;\n";
    assert_eq!(
        pieces(src, TS).unwrap(),
        vec![
            "@Component({})",
            "interface B {",
            "type C = `a${string}`;",
            "const d = <number>e;",
            "enum E { F }",
            "declare module \"m\" {",
            "const g = h! / 2;"
        ]
    );
    // In JavaScript those words are identifiers: no split before them.
    assert_eq!(pieces("x();\ninterface\n", JS).unwrap(), vec!["x();"]);
}

#[test]
fn a_hashbang_line_is_skipped() {
    let src = "#!/usr/bin/env node\n'use strict';\nconst a = 1;\n";
    assert_eq!(
        pieces(src, JS).unwrap(),
        vec!["#!/usr/bin/env node", "const a = 1;"]
    );
}
