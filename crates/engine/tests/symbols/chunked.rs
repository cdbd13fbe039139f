//! The chunked lookup (`find_all_symbols_chunked`) against the whole-file lookup.

use edit_engine_core::symbols::{
    find_all_symbols, find_all_symbols_chunked, list_symbols, parse, Language,
};

use crate::common::lookup;

#[path = "../support/mutate.rs"]
mod mutate;
#[path = "../support/rng.rs"]
mod rng;
use mutate::mutate;
use rng::Rng;

const JS: Language = Language::JavaScript;
const TS: Language = Language::TypeScript;

/// JavaScript that a naive splitter gets wrong: declarations inside templates, comments and strings,
/// regexes holding quotes and backticks, ASI-style statements, chained `else`, names that prefix others.
const TRICKY_JS: &str = r#"#!/usr/bin/env node
'use strict';
const lib = require("lib")
const pattern = /[`'"]+\/}/g;

const template = `
};
function inTemplate() {
  return 1;
}
${lib.name};
function alsoInTemplate() {}
`;

/*
function inComment() {}
*/
const half = (lib.size + 1) / 2;

/**
 * Documented.
 */
export function documented(a, b) {
  if (a) {
    return /\//.test(b);
  } else {
    return a / b;
  }
}
class Store {
  constructor() {
    this.items = [];
  }

  add(item) {
    this.items.push(item);
  }
}
class Store2 {
  add(item) {
    return item;
  }
}
const handlers = {
  add() {
    return template.length;
  },
};
async function fetchAll() {
  return Promise.all([documented(1, 2), new Store().add(3)]);
}
export default class Panel extends Store {
  add(item) {
    super.add(item);
  }
}
"#;

/// TypeScript with decorators, overloads, namespaces, type-level templates, and a member assignment whose
/// qualified name is not spelled in the source (white space is removed from it).
const TRICKY_TS: &str = r#"import { Injectable } from "./di";

@Injectable()
export class Service {
  private cache = new Map<string, number>();

  get(key: string): number | undefined {
    return this.cache.get(key)!;
  }
}
export function pick(a: string): string;
export function pick(a: number): number;
export function pick(a: any): any {
  return a;
}
interface Shape {
  area(): number;
}
type Route = `/${string}`;
enum Color { Red, Green }
namespace Geometry {
  export function area(s: Shape): number {
    return s.area() / 2;
  }
}
declare module "ext" {
  export function get(key: string): string;
}
const ratio = <number>(window as any).ratio;
(config.checks![0] as { when?: unknown }).when = () => false;
export abstract class Base {
  abstract get(): void;
}
"#;

/// Every name a user could ask for in `src`: bare, qualified, anchored, and with each symbol's `@LINE`.
fn names(src: &str, lang: Language) -> Vec<String> {
    let mut out = Vec::new();
    for s in list_symbols(src, lang).expect("list") {
        out.push(s.name().to_string());
        out.push(s.qualified_name.clone());
        out.push(format!("::{}", s.name()));
        out.push(format!("{}@{}", s.name(), s.start_line));
    }
    out.extend(
        [
            "inTemplate",
            "inComment",
            "alsoInTemplate",
            "missing",
            "lib",
        ]
        .map(String::from),
    );
    out
}

#[test]
fn tricky_sources_split_and_agree_with_the_whole_file_lookup() {
    for (src, lang) in [(TRICKY_JS, JS), (TRICKY_TS, TS)] {
        assert!(!parse(src, lang).unwrap().root_node().has_error());
        let mut chunked = 0;
        for name in names(src, lang) {
            let full = find_all_symbols(src, lang, &name);
            if let Some(found) = find_all_symbols_chunked(src, lang, &name) {
                assert_eq!(found, full, "`{name}`");
                chunked += 1;
            }
        }
        assert!(chunked > 20, "only {chunked} lookups were chunked");
    }
    // Declarations inside a template literal or a comment are not definitions.
    for name in ["inTemplate", "alsoInTemplate", "inComment"] {
        assert_eq!(
            find_all_symbols_chunked(TRICKY_JS, JS, name),
            Some(Ok(vec![]))
        );
    }
}

#[test]
fn declines_what_it_cannot_split_or_parse() {
    // Not a plain identifier, JSX, a language without a scanner, a piece with a syntax error.
    assert_eq!(find_all_symbols_chunked(TRICKY_TS, TS, "operator=="), None);
    let jsx = "function App() {\n  return <div>hi</div>;\n}\n";
    assert_eq!(find_all_symbols_chunked(jsx, JS, "App"), None);
    assert_eq!(
        find_all_symbols_chunked("def f():\n  pass\n", Language::Python, "f"),
        None
    );
    let broken = "function good() {}\nfunction bad() { return 1 +; }\n";
    assert_eq!(find_all_symbols_chunked(broken, JS, "bad"), None);
    assert!(find_all_symbols_chunked(broken, JS, "good").is_some());
}

/// A syntax error in another piece does not hide a symbol whose own piece parses: the whole-file parse
/// may let its error recovery swallow the next statement (here it drops the `export` wrapper), the
/// chunked lookup reports the definition as written.
#[test]
fn a_syntax_error_elsewhere_does_not_spill_into_the_piece() {
    let src =
        "export in<terface A {\n  x: number;\n}\nexport interface Pos {\n  line: number;\n}\n";
    let chunked = find_all_symbols_chunked(src, TS, "Pos").unwrap().unwrap();
    assert_eq!(chunked.len(), 1);
    assert_eq!((chunked[0].start_line, chunked[0].end_line), (4, 6));
    assert_eq!(
        &src[chunked[0].start_byte..chunked[0].end_byte],
        "export interface Pos {\n  line: number;\n}"
    );
}

/// Seeded mutations of the fixtures (a bracket, quote, slash or newline inserted or deleted): whenever
/// the mutant still parses cleanly, the chunked lookup agrees with the whole-file one.
#[test]
fn mutants_that_parse_agree_with_the_whole_file_lookup() {
    let mut rng = Rng(0x5eed_c4a1);
    let (mut clean, mut chunked) = (0, 0);
    for (src, lang) in [
        (TRICKY_JS, JS),
        (TRICKY_TS, TS),
        (crate::javascript::SRC, JS),
        (crate::typescript::SRC, TS),
    ] {
        let all = names(src, lang);
        for _ in 0..60 {
            let text = mutate(src, &mut rng);
            if parse(&text, lang).unwrap().root_node().has_error() {
                continue;
            }
            clean += 1;
            for _ in 0..4 {
                let name = &all[rng.below(all.len())];
                let full = lookup(&text, lang, name);
                if let Some(found) = find_all_symbols_chunked(&text, lang, name) {
                    assert_eq!(found, full, "`{name}` in mutant:\n{text}");
                    chunked += 1;
                }
            }
        }
    }
    assert!(
        clean > 20 && chunked > 40,
        "{clean} clean mutants, {chunked} chunked lookups"
    );
}
