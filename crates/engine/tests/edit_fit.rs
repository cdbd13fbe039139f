//! Edits land as the author meant, through the `edit` tool on disk: a fuzzy match fitted into the
//! file's frame (indentation levels, tab/space style, line endings, line boundaries, escapes), a
//! symbol of a C++ header, line mode's corrections. Each case is minimized from a hunk of a public
//! project's commit replayed as an edit call; the expected file is the commit's.

#[path = "support/edit_call.rs"]
mod edit_call;

use edit_call::edit_in;
use serde_json::{json, Value};

/// The call succeeds and leaves exactly `expected`.
fn assert_lands(name: &str, content: &str, params: Value, expected: &str) {
    let (reply, text) = edit_in(name, content, params);
    assert!(reply.starts_with("Success"), "{reply}");
    assert_eq!(text, expected, "{reply}");
}

/// The call is refused and the file keeps its content.
fn assert_refused(name: &str, content: &str, params: Value) {
    let (reply, text) = edit_in(name, content, params);
    assert!(reply.starts_with("Error"), "applied: {text:?} ({reply})");
    assert_eq!(text, content);
}

fn text_edit(old: &str, new: &str) -> Value {
    json!({ "old_string": old, "new_string": new })
}

const PY: &str = "class A:\n    def f(self):\n        if x:\n            y()\n        return 1\n";

mod indentation {
    use super::*;

    /// Lines copied in tabs for a file that mixes tabs and spaces, `old_string` ending with its
    /// line break, a whitespace-only line after them: that line stays (it was removed).
    #[test]
    fn a_whitespace_only_line_after_the_match_stays() {
        let file = "class A:\n    def f(self):\n\tx = 1\n\ty = 2\n        return x\n    \n    def g(self):\n        pass\n";
        let params = text_edit(
            "\tx = 1\n\ty = 2\n\treturn x\n",
            "        x = 1\n        y = 2\n        return x\n",
        );
        let expected = file.replace("\tx = 1\n\ty = 2\n", "        x = 1\n        y = 2\n");
        assert_lands("a.py", file, params, &expected);
    }

    /// A hunk that starts deeper than it ends, copied one level too shallow: every line moves
    /// by its own old line's shift, not only those at the first line's indent.
    #[test]
    fn a_hunk_that_starts_deeper_than_it_ends_moves_every_line() {
        let params = text_edit("        y()\n    return 1", "        z()\n    return 2");
        let expected = PY.replace("y()", "z()").replace("return 1", "return 2");
        assert_lands("a.py", PY, params, &expected);
    }

    /// Both strings written flat (no indentation at all): nested lines keep their levels.
    #[test]
    fn lines_written_flat_keep_the_files_nesting() {
        let params = text_edit("if x:\ny()\nreturn 1", "if z:\ny()\nreturn 1");
        assert_lands("a.py", PY, params, &PY.replace("if x", "if z"));
    }

    /// A unique multi-line block copied two levels too shallow is accepted and edited in place.
    #[test]
    fn a_unique_block_shifted_two_levels_is_accepted() {
        let params = text_edit("if x:\n    y()", "if x:\n    y(1)");
        assert_lands("a.py", PY, params, &PY.replace("y()", "y(1)"));
    }

    /// A whitespace-normalized match that starts after a line's indentation (the call, not the
    /// `return` before it): the continuation line keeps the file's alignment.
    #[test]
    fn a_match_starting_mid_line_is_fitted_like_the_others() {
        let file = "def g():\n    return f(1,\n             2)\n";
        let params = text_edit("f(1,\n  2)", "f(0,\n  2)");
        assert_lands("a.py", file, params, &file.replace("f(1", "f(0"));
    }

    /// A changed continuation line keeps the column of the line it replaces, not the first line's.
    #[test]
    fn a_changed_continuation_line_keeps_its_own_column() {
        let file = "def g():\n    return f(1,\n             2)\n";
        let params = text_edit("f(1,\n  2)", "f(1,\n  3)");
        assert_lands("a.py", file, params, &file.replace("2)", "3)"));
    }

    /// A one-line `old_string` written a level deeper than the file's line and a `new_string` two
    /// levels deeper than it, in the same frame: `new_string` lands two levels deeper than the
    /// file's line, not as written.
    #[test]
    fn new_at_another_indent_moves_with_a_one_line_olds_shift() {
        let file = "const db = open();\n// populate search\nlisten();\n";
        let params = text_edit("  // populate search", "      await db.connect();");
        let expected = file.replace("// populate search", "    await db.connect();");
        assert_lands("a.js", file, params, &expected);
    }

    /// A block copied a level too shallow, replaced by its inner line written where it stood in
    /// the copy: the line keeps its place in the file (the block's shift), not the copy's column.
    #[test]
    fn new_at_another_indent_moves_with_a_blocks_shift() {
        let file =
            "fn run() {\n    s(|| {\n        if ok {\n            go();\n        }\n    });\n}\n";
        let params = text_edit("    if ok {\n        go();\n    }", "        go();");
        let expected = file.replace(
            "        if ok {\n            go();\n        }",
            "            go();",
        );
        assert_lands("a.rs", file, params, &expected);
    }
}

mod tabs {
    use super::*;

    /// A tab-indented file whose head is a long space-indented script in a string: the block
    /// copied with four surplus spaces is written in the tabs of the code around it, not in the
    /// head's spaces.
    #[test]
    fn the_style_is_the_one_around_the_edit() {
        let script: String = (0..700)
            .map(|i| format!("    echo {i}\n        true\n"))
            .collect();
        let code: String = (0..150)
            .map(|i| format!("func g{i}() {{\n\tif a {{\n\t\tb{i}()\n\t}}\n}}\n\n"))
            .collect();
        let file = format!("package p\n\nconst s = `\n{script}`\n\n{code}func f() {{\n\tif a {{\n\t\tb()\n\t}}\n}}\n");
        let params = text_edit(
            "    \tif a {\n    \t\tb()\n    \t}",
            "    \tif a {\n    \t\tc()\n    \t\td()\n    \t}",
        );
        let expected = file.replace("\t\tb()\n", "\t\tc()\n\t\td()\n");
        assert_lands("a.go", &file, params, &expected);
    }

    /// Two tabs for eight spaces are the same two levels: matched, and every level written in
    /// the file's spaces.
    #[test]
    fn tabs_for_the_files_spaces_match_and_are_written_as_spaces() {
        let params = text_edit("\t\tif x:\n\t\t\ty()", "\t\tif x:\n\t\t\ty()\n\t\t\tw()");
        let expected = PY.replace("y()\n", "y()\n            w()\n");
        assert_lands("a.py", PY, params, &expected);
    }

    /// A file of two-space levels, the block copied in tabs: deeper levels take the file's style
    /// too (no tab left in the file).
    #[test]
    fn deeper_levels_take_the_files_style() {
        let file = "def f():\n  if x:\n    y()\n";
        let params = text_edit("\tif x:\n\t\ty()", "\tif x:\n\t\ty()\n\t\tw()");
        assert_lands(
            "a.py",
            file,
            params,
            &file.replace("y()\n", "y()\n    w()\n"),
        );
    }

    /// Closing braces copied in tabs at four and three levels of a four-space file are the pair
    /// at those levels (lines 7-8), never the pair two levels shallower (lines 9-10) that a
    /// one-character limit takes: of the pairs that match under a uniform shift, the only one not
    /// shifted.
    #[test]
    fn tab_copies_are_measured_in_levels() {
        let mut file = String::new();
        for depth in 0..5 {
            file.push_str(&format!("{}if (c{depth}) {{\n", "    ".repeat(depth)));
        }
        file.push_str(&format!("{}x();\n", "    ".repeat(5)));
        for depth in (0..5).rev() {
            file.push_str(&format!("{}}}\n", "    ".repeat(depth)));
        }
        let params = text_edit("\t\t\t\t}\n\t\t\t}", "\t\t\t\t}\n\t\t\t}\n\t\t\ty();");
        let expected = file.replacen(
            "                }\n            }\n",
            "                }\n            }\n            y();\n",
            1,
        );
        assert_lands("a.c", &file, params, &expected);
    }

    /// A file whose hanging indents make its detected unit two columns, a block of four copied in
    /// tabs: a tab is as wide as the matched lines show, so the added import lands with them.
    #[test]
    fn a_tab_is_as_wide_as_the_matched_lines_say() {
        let file = "x = f(a,\n  b)\nif TYPE_CHECKING:\n    from a import B\n";
        let params = text_edit(
            "if TYPE_CHECKING:\n\tfrom a import B",
            "if TYPE_CHECKING:\n\tfrom c import D\n\tfrom a import B",
        );
        let expected = file.replace("    from a", "    from c import D\n    from a");
        assert_lands("a.py", file, params, &expected);
    }

    /// A single line copied in tabs where the file's detected unit (2, from a hanging indent) is
    /// not the block's (4): its tab stands for its columns over its tabs.
    #[test]
    fn a_single_lines_tab_is_as_wide_as_its_columns_say() {
        let file = "X = f(a,\n  b)\nclass A:\n    def get(self): return 1\n";
        let params = text_edit(
            "\tdef get(self): return 1",
            "\tdef get(\n\t\tself,\n\t): return 1",
        );
        let expected = file.replace("(self)", "(\n        self,\n    )");
        assert_lands("a.py", file, params, &expected);
    }

    /// A `new_string` written at another base indent than `old_string`, in tabs for a space file:
    /// its levels are kept and written in the file's spaces.
    #[test]
    fn new_at_its_own_indent_takes_the_files_style() {
        let file = "f(() => {\n    g(() => {\n        if (a) {\n            b();\n        }\n    });\n});\n";
        let params = text_edit("\t\tif (a) {\n\t\t\tb();\n\t\t}\n\t});", "\t});");
        let expected = "f(() => {\n    g(() => {\n    });\n});\n";
        assert_lands("a.js", file, params, expected);
    }
}

mod line_breaks {
    use super::*;

    /// `new_string` with CRLF line endings written into an LF file takes the file's endings.
    #[test]
    fn a_crlf_new_string_takes_the_files_line_endings() {
        let params = text_edit("b();", "c();\r\nd();");
        assert_lands("a.js", "a();\nb();\n", params, "a();\nc();\nd();\n");
    }

    /// An `old_string` that ends with its line break and differs from the file only in
    /// indentation (tabs for spaces, or a level too shallow) still matches.
    #[test]
    fn an_old_string_ending_with_its_line_break_matches_at_another_indent() {
        let params = text_edit("\t\tif x:\n\t\t\ty()\n", "\t\tif x:\n\t\t\ty(2)\n");
        assert_lands("a.py", PY, params, &PY.replace("y()", "y(2)"));
        let params = text_edit("        y()\n    return 1\n", "        z()\n    return 2\n");
        let expected = PY.replace("y()", "z()").replace("return 1", "return 2");
        assert_lands("a.py", PY, params, &expected);
    }

    /// Line breaks around `old_string` that `new_string` lacks never join the lines around it;
    /// an empty `new_string` still deletes whole lines.
    #[test]
    fn boundary_line_breaks_never_join_untouched_lines() {
        let file = "a;\nfoo\nc;\n";
        assert_lands("a.js", file, text_edit("\nfoo\n", "bar"), "a;\nbar\nc;\n");
        assert_lands("a.js", file, text_edit("foo\n", ""), "a;\nc;\n");
    }

    /// Blank lines around `old_string` are line boundaries: they never match inside a line or
    /// at the tail of a longer line.
    #[test]
    fn boundary_blank_lines_never_match_inside_a_line() {
        assert_refused(
            "a.js",
            "a(); b(); c();\n",
            text_edit("\n\n b(); \n", "\n B(); \n"),
        );
        let file = "        assert(x);\n    }\n}\n";
        let params = text_edit("    );\n    }\n}\n", "    );\n    }\n}\n\nint y;\n");
        assert_refused("a.c", file, params);
    }

    /// A blank line `old_string` carries beyond the end of the file leaves `new_string` too:
    /// one blank line is added before the new call, not two.
    #[test]
    fn blank_lines_old_has_beyond_the_file_end_leave_new_too() {
        let file = "f(() => {\n  g(() => {\n    y();\n  })\n})\n";
        let old = "    y();\n    })\n  })\n\n";
        let params = text_edit(old, &format!("{old}  x();\n\n"));
        assert_lands("a.js", file, params, &format!("{file}\nx();\n"));
    }

    /// Blank lines around `old_string` (trimmed-boundary): `new_string` is written in the file's
    /// frame, keeps a line break it adds, and does not add one `old_string` had beyond the file.
    #[test]
    fn trimmed_boundary_keeps_the_line_breaks_new_adds() {
        let file = "void f() {\n    va_start(ap);\n    g();\n}\n";
        let params = text_edit("\n\tva_start(ap);", "\n\t/* a\n\t * b */\n\tva_start(ap);");
        let expected = file.replace("    va_start", "    /* a\n     * b */\n    va_start");
        assert_lands("a.c", file, params, &expected);
        let params = text_edit("\n\tva_start(ap);\n", "\n\tva_start(ap);\n\n");
        assert_lands("a.c", file, params, &file.replace("(ap);\n", "(ap);\n\n"));
        assert_lands("a.c", "a {\n}\n", text_edit("}\n\n", "};\n\n"), "a {\n};\n");
    }
}

mod escapes {
    use super::*;

    /// `` \` `` and `\$` of a template literal are undone in `new_string`, also when it spans
    /// several lines.
    #[test]
    fn template_literal_escapes_are_undone() {
        let file = "const s = `a ${b}`;\n";
        let params = text_edit("const s = \\`a \\${b}\\`;", "const s = \\`c \\${b}\\`;");
        assert_lands("a.ts", file, params, "const s = `c ${b}`;\n");
        let file = "log(`b`);\n";
        let params = text_edit("log(\\`b\\`);", "log(\\`b\\`);\nlog(\\`\\${e}\\`);");
        assert_lands("a.ts", file, params, "log(`b`);\nlog(`${e}`);\n");
    }

    /// Template escapes added to text holding its own backslashes (a shell script's `\n` in a Go
    /// raw string, a Rust doc's `\xNN`): only the template escapes are undone, in `new_string`
    /// too, and the file's own backslashes stay.
    #[test]
    fn template_escapes_beside_the_files_own_backslashes() {
        let file = "s := `\n    done < <(printf \"%s\\n\" \"${c[@]}\")\n`\n";
        let params = text_edit(
            "    done < <(printf \"%s\\n\" \"\\${c[@]}\")",
            "    done < <(printf \"%s\\n\" \"\\${d[@]}\")",
        );
        assert_lands("a.go", file, params, &file.replace("{c[@]}", "{d[@]}"));
        let file = "/// Escapes as `\\xNN`.\nfn f() { w(\"\\\\x\") }\n/// Other.\n";
        let params = text_edit(
            "/// Escapes as \\`\\xNN\\`.\nfn f() { w(\"\\\\x\") }\n/// Other.",
            "/// Other.",
        );
        assert_lands("a.rs", file, params, "/// Other.\n");
    }
}

mod symbols {
    use super::*;

    fn symbol_edit(symbol: &str, new: &str) -> Value {
        json!({ "symbol": symbol, "new_string": new })
    }

    /// A `.h` header holding C++ is parsed as C++: by its markers (namespace, class) or, without
    /// them, because only C++ parses it (references).
    #[test]
    fn a_cpp_header_is_edited_by_symbol() {
        let file = "namespace n {\nclass A {\n public:\n  int f() { return 1; }\n};\n}\n";
        let params = symbol_edit("A", "class A {\n public:\n  int f() { return 2; }\n};");
        assert_lands("a.h", file, params, &file.replace("return 1", "return 2"));
        let file = "void swap(int &a, int &b) {\n  int t = a;\n  a = b;\n  b = t;\n}\n";
        let new = "void swap(int &a, int &b) {\n  std::swap(a, b);\n}";
        assert_lands("b.h", file, symbol_edit("swap", new), &format!("{new}\n"));
    }
}

mod line_mode {
    use super::*;

    /// A real closing line added next to the identical line after the range is kept.
    #[test]
    fn a_closing_line_added_next_to_its_twin_is_kept() {
        let file = "f(() => {\n  g(() => {\n    x();\n  });\n});\n";
        let params = json!({ "start_line": "3", "end_line": "4", "new_string": "    x();\n  });\n  h(() => {\n    y();\n  });" });
        let expected =
            "f(() => {\n  g(() => {\n    x();\n  });\n  h(() => {\n    y();\n  });\n});\n";
        assert_lands("a.js", file, params, expected);
    }

    /// Lines deliberately re-indented (wrapped into the block around them) keep the new
    /// indentation.
    #[test]
    fn a_deliberate_reindentation_is_kept() {
        let file = "if (a) {\nx();\ny();\n}\n";
        let params = json!({ "start_line": "2", "end_line": "3", "new_string": "  x();\n  y();" });
        assert_lands("a.js", file, params, "if (a) {\n  x();\n  y();\n}\n");
    }
}

/// Slips real models make around the text they copy: blank lines and indentation around whole
/// lines, `new_string`'s frame, white space on blank lines, an edit re-sent after it landed, a
/// fragment of a line given as a line.
mod slips {
    use super::*;

    /// The reply and file of an edit that needed no change.
    fn assert_already_applied(name: &str, content: &str, params: Value, lines: &str) {
        let (reply, text) = edit_in(name, content, params);
        let expected = format!(
            "No change needed: {name} already contains new_string at lines {lines}; nothing was written."
        );
        assert_eq!(reply, expected);
        assert_eq!(text, content);
    }

    /// A blank line the file does not have before the lines, and two spaces of indentation
    /// missing on each of them: the lines are found, `new_string` keeps their indentation.
    #[test]
    fn a_surplus_blank_line_and_missing_indentation_around_whole_lines() {
        let file = "    line1\n    line2\n    line3\n";
        let params = text_edit("\n  line1\n  line2\n", "  new_line1\n  new_line2\n");
        let expected = "    new_line1\n    new_line2\n    line3\n";
        assert_lands("a.txt", file, params, expected);
    }

    /// One whole line wrapped in blank lines (and indentation) the file does not have; the blank
    /// lines `new_string` mirrors from them are dropped.
    #[test]
    fn a_whole_line_wrapped_in_blank_lines_the_file_lacks() {
        let file = "a();\nb();\nc();";
        let params = text_edit("\n\n  b();  \n\n", "\n\n  d();\n\n");
        assert_lands("a.js", file, params, "a();\nd();\nc();");
    }

    /// Surplus blank lines never make text inside a line match, nor lines found twice.
    #[test]
    fn surplus_blank_lines_never_rescue_a_mid_line_or_repeated_match() {
        let params = text_edit("\n\nfoo(1);\n\n", "foo(2);");
        assert_refused("a.js", "x = foo(1); y();\n", params);
        let params = text_edit("\n\n  b();\n\n", "d();");
        assert_refused("a.js", "b();\nx();\nb();\n", params);
    }

    /// `old_string`'s first line starts mid-line (its indentation left out) while the later
    /// lines carry the file's columns; `new_string` is written relative to its own first line.
    #[test]
    fn new_string_is_read_relative_to_its_first_line() {
        let file = "\n  function oldFunc() {\n    // some code\n  }";
        let old = "function  oldFunc() {\n    // some code\n  }";
        let params = text_edit(old, "function newFunc() {\n  // new code\n}");
        let expected = "\n  function newFunc() {\n    // new code\n  }";
        assert_lands("a.js", file, params, expected);
        // A new_string in old_string's own frame lands the same.
        let params = text_edit(old, "function newFunc() {\n    // new code\n  }");
        assert_lands("a.js", file, params, expected);
    }

    /// A fitted block moves by one shift: the lines under its first line move with it.
    #[test]
    fn a_fitted_block_moves_as_one() {
        let file = "void f() {\n    va_start(ap);\n    g();\n}\n";
        let params = text_edit("\n\tva_start(ap);", "va_start(ap);\nif (x)\n    h();");
        let expected = file.replace("(ap);\n", "(ap);\n    if (x)\n        h();\n");
        assert_lands("a.c", file, params, &expected);
    }

    /// Whitespace-only lines of `new_string` are written as given on a fuzzy path (with their
    /// block's shift), and empty where the file's blank lines there are empty.
    #[test]
    fn whitespace_only_lines_of_new_string_are_kept() {
        let file = "def f():\n    x = 1\n    y = 2\n";
        let params = text_edit("  x = 1\n  y = 2", "  x = 1\n  \n  y = 2");
        assert_lands(
            "a.py",
            file,
            params,
            "def f():\n    x = 1\n    \n    y = 2\n",
        );
        let file = "def f():\n    x = 1\n\n    y = 2\n";
        let params = text_edit("  x = 1\n\n  y = 2", "  x = 1\n  \n  z = 2");
        assert_lands("a.py", file, params, "def f():\n    x = 1\n\n    z = 2\n");
    }

    /// An edit re-sent after it landed: its fuzzy match lands on the edited lines, which already
    /// hold new_string; nothing is written.
    #[test]
    fn an_edit_already_applied_writes_nothing() {
        let new = "def f():\n    x = load()\n            \n    y = x * 2\n    return y\n";
        let old = new.replace("x * 2", "x + 1");
        assert_already_applied("a.py", new, text_edit(&old, new), "1-5");
        // No candidate for old_string at all: new_string found once, over two lines.
        let file = "a();\nb();\nc();\n";
        let params = text_edit("zzz();\nqqq();", "b();\nc();");
        assert_already_applied("a.js", file, params, "2-3");
        assert_refused("a.js", file, text_edit("zzz();\nqqq();", "b();"));
    }

    /// A fragment of one line given as its own indented line: replaced inside the line.
    #[test]
    fn a_fragment_given_as_a_line_is_replaced_inside_its_line() {
        let file =
            "<div>\n  <video src=\"/a.mp4\" poster=\"/img/old.jpg\" autoplay></video>\n</div>\n";
        let params = text_edit(
            "    poster=\"/img/old.jpg\"\n",
            "    poster=\"/img/new.jpg\"\n",
        );
        assert_lands("a.html", file, params, &file.replace("old.jpg", "new.jpg"));
        // Refused: new_string over several lines, a fragment that starts inside a word, one
        // too short, and one found twice.
        let params = text_edit(
            "    poster=\"/img/old.jpg\"\n",
            "    poster=\"/a.jpg\"\n    muted\n",
        );
        assert_refused("a.html", file, params);
        assert_refused(
            "a.html",
            file,
            text_edit("  oster=\"/img/old.jpg\"\n", "  x\n"),
        );
        assert_refused("a.html", file, text_edit("  <video\n", "  <audio\n"));
        let twice = "<a href=\"/x/y.html\">\n<a href=\"/x/y.html\" id=b>\n";
        assert_refused(
            "a.html",
            twice,
            text_edit("  href=\"/x/y.html\"\n", "  href=\"/z\"\n"),
        );
    }

    /// A fragment given as a line that occurs at several places: refused, naming the lines that
    /// hold it (it used to be "String not found").
    #[test]
    fn a_fragment_found_at_several_places_names_its_lines() {
        let label =
            |id: &str| format!("  <label htmlFor=\"{id}\" className=\"block text-sm mb-1\">\n");
        let file = format!(
            "<form>\n{}  <input id=\"a\" />\n{}</form>\n",
            label("a"),
            label("b")
        );
        let params = text_edit(
            "      className=\"block text-sm mb-1\"\n",
            "      className=\"block text-sm mb-2\"\n",
        );
        let (reply, text) = edit_in("a.tsx", &file, params);
        assert_eq!(text, file);
        let lead = "Error editing file: old_string was found only as part of a line, at 2 places (lines 2, 4 of a.tsx)";
        assert!(reply.starts_with(lead), "{reply}");
    }
}

/// A block-anchor match pins only the first and last lines: a line between them that the model
/// copied wrongly but did not mean to change keeps the file's text; one it changed is refused.
mod loose_middle {
    use super::*;

    const EX: &str = "defmodule Live do\n  def handle_info(msg, socket) do\n    # broadcast(\"some_other_event\", msg)\n    count = socket.assigns.count\n    {:noreply, assign(socket, count: count)}\n  end\nend\n";

    #[test]
    fn a_kept_line_copied_wrongly_keeps_the_file_text() {
        let old = "  def handle_info(msg, socket) do\n    # broadcast(\"ping\", msg)\n    count = socket.assigns.count\n    {:noreply, assign(socket, count: count)}\n  end";
        let new = "  def handle_info(msg, socket) do\n    # broadcast(\"ping\", msg)\n    count = socket.assigns.count + 1\n    {:noreply, assign(socket, count: count)}\n  end";
        let expected = EX.replace("assigns.count\n", "assigns.count + 1\n");
        assert_lands("live.ex", EX, text_edit(old, new), &expected);
    }

    #[test]
    fn a_changed_line_copied_wrongly_is_refused_with_the_file_line() {
        let old = "  def handle_info(msg, socket) do\n    # broadcast(\"ping\", msg)\n    count = socket.assigns.count\n    {:noreply, assign(socket, count: count)}\n  end";
        let new = "  def handle_info(msg, socket) do\n    broadcast(\"ping\", msg)\n    count = socket.assigns.count\n    {:noreply, assign(socket, count: count)}\n  end";
        assert_refused("live.ex", EX, text_edit(old, new));
        let (reply, _) = edit_in("live.ex", EX, text_edit(old, new));
        assert!(
            reply.contains("+    # broadcast(\"some_other_event\", msg)\n"),
            "{reply}"
        );
        assert!(reply.contains("lines 2-6"), "{reply}");
    }

    #[test]
    fn lines_that_do_not_line_up_are_refused() {
        let file = "def f(socket) do\n  count = socket.assigns.count\n  :ok\n  {:noreply, assign(socket, count: count)}\nend\n";
        let old = "def f(socket) do\n  count = socket.assigns.count\n  {:noreply, assign(socket, count: count)}\nend";
        let new = "def f(socket) do\n  count = socket.assigns.count + 1\n  {:noreply, assign(socket, count: count)}\nend";
        assert_refused("live.ex", file, text_edit(old, new));
        let (reply, _) = edit_in("live.ex", file, text_edit(old, new));
        assert!(reply.contains("\n+  :ok\n"), "{reply}");
    }
}
