//! The syntax guard at the write: [`crate::syntax::check`] run as the `syntaxCheck` option says.
//!
//! In `warn` mode a single-file write runs the check beside it ([`start_guard`] before the write,
//! [`Guard::note`] after it): the changed paragraphs (a new file: the whole text) are parsed on the
//! syntax worker thread while the file goes to disk; a large write runs the whole check on a thread
//! of its own instead (see [`crate::tools::apply`]). In `refuse` mode the verdict is needed before the write, so it is taken
//! at once.

use std::borrow::Cow;
use std::path::Path;

use crate::common_ends::KnownEnds;
use crate::fs::FsError;
use crate::symbols::file_lookup::parse_cache;
use crate::syntax::{check_known, Pending, SyntaxCheck, SyntaxOptions};

/// Checks the write `before` → `after` (LF views; `before` is `None` for a new file) of the file at
/// `real` (`known`: what is known of their common ends). `Ok` holds the text the reply ends with
/// (empty when there is nothing to say); in `refuse` mode an edit that introduces syntax errors is
/// [`FsError::SyntaxRefused`], to be answered before writing.
pub fn guard(
    options: &SyntaxOptions,
    real: &Path,
    display: &str,
    texts: (Option<&str>, &str, KnownEnds),
) -> Result<String, FsError> {
    if options.mode == SyntaxCheck::Off {
        return Ok(String::new());
    }
    let verdict = check_known(real, texts, options.max_bytes, Some(parse_cache()));
    if options.mode == SyntaxCheck::Refuse {
        if let Some(message) = verdict.refusal(display) {
            return Err(FsError::SyntaxRefused { message });
        }
    }
    Ok(verdict.note(display))
}

/// A check begun before a write; [`Guard::note`] after the write gives the reply's text.
pub struct Guard<'a>(State<'a>);

enum State<'a> {
    Done(String),
    Running {
        pending: Box<Pending<'static>>,
        before: Option<Cow<'a, str>>,
        after: Cow<'a, str>,
        display: String,
    },
}

impl Guard<'_> {
    /// This guard holding its own copies of the texts it checks (a check under way outlives
    /// the caller's texts; a finished one holds none).
    pub fn into_owned(self) -> Guard<'static> {
        Guard(match self.0 {
            State::Done(note) => State::Done(note),
            State::Running {
                pending,
                before,
                after,
                display,
            } => State::Running {
                pending,
                before: before.map(|b| Cow::Owned(b.into_owned())),
                after: Cow::Owned(after.into_owned()),
                display,
            },
        })
    }

    /// Bytes of the texts a check under way holds (0 once finished).
    pub fn held_bytes(&self) -> usize {
        match &self.0 {
            State::Done(_) => 0,
            State::Running { before, after, .. } => {
                before.as_ref().map_or(0, |b| b.len()) + after.len()
            }
        }
    }

    /// The text the write's reply ends with (empty when there is nothing to say).
    pub fn note(self) -> String {
        match self.0 {
            State::Done(note) => note,
            State::Running {
                pending,
                before,
                after,
                display,
            } => pending.verdict(before.as_deref(), &after).note(&display),
        }
    }
}

/// [`guard`] for a write about to happen: the same refusal in `refuse` mode; in `warn` mode with
/// `overlap` the paragraph parse (a new file's whole parse) runs on the syntax worker beside the
/// write (without it, the whole check runs here, for a caller that is itself beside the write).
pub fn start_guard<'a>(
    options: &SyntaxOptions,
    real: &Path,
    display: &str,
    (before, after, known): (Option<Cow<'a, str>>, Cow<'a, str>, KnownEnds),
    overlap: bool,
) -> Result<Guard<'a>, FsError> {
    if options.mode != SyntaxCheck::Warn || !overlap {
        return guard(options, real, display, (before.as_deref(), &after, known))
            .map(|n| Guard(State::Done(n)));
    }
    let started = Pending::start(
        real,
        (before.as_deref(), &after, known),
        options.max_bytes,
        Some(parse_cache()),
    );
    let Some(pending) = started else {
        return Ok(Guard(State::Done(String::new())));
    };
    Ok(Guard(State::Running {
        pending: Box::new(pending),
        before,
        after,
        display: display.to_string(),
    }))
}

/// [`start_guard`] on encoded bytes (a whole-file write): text as written, without a BOM. Bytes that
/// are not UTF-8 are not checked.
pub fn start_guard_bytes(
    options: &SyntaxOptions,
    real: &Path,
    display: &str,
    before: Option<&[u8]>,
    after: &[u8],
    overlap: bool,
) -> Result<Guard<'static>, FsError> {
    let text = |b: &[u8]| {
        std::str::from_utf8(b)
            .ok()
            .map(|s| Cow::Owned(s.trim_start_matches('\u{feff}').to_string()))
    };
    match (before.map(text), text(after)) {
        (Some(None), _) | (_, None) => Ok(Guard(State::Done(String::new()))),
        (before, Some(after)) => {
            let texts = (before.flatten(), after, KnownEnds::NONE);
            start_guard(options, real, display, texts, overlap)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::recording::HistoryOption;
    use crate::tools::outcome::ErrorKind;
    use crate::tools::text_editor::{self, TextEditorOptions};
    use crate::tools::{create, edit, multi_edit, test_context, ToolContext};
    use serde_json::json;
    use serde_json::Value;

    fn context(dir: &Path, mode: SyntaxCheck) -> ToolContext {
        let mut ctx = test_context(dir, HistoryOption::Off);
        ctx.syntax.mode = mode;
        ctx
    }

    const SOURCE: &str = "def f(x):\n    return g(x)\n";
    const BROKEN_NEW_FILE: &str = "def f(:\n    pass\n";

    fn bad_edit() -> serde_json::Value {
        json!({"file_path": "m.py", "old_string": "return g(x)", "new_string": "return g(x"})
    }

    #[test]
    fn warn_writes_and_lists_the_error() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("m.py"), SOURCE).unwrap();
        let out = edit::run(&context(dir.path(), SyntaxCheck::Warn), &bad_edit());
        assert!(out.starts_with("Successfully"), "{out}");
        assert!(
            out.contains("Syntax check: this edit introduced 1 syntax error in m.py (python)"),
            "{out}"
        );
        assert!(out.contains("- line 2: unbalanced parentheses"), "{out}");
        let written = std::fs::read_to_string(dir.path().join("m.py")).unwrap();
        assert!(written.contains("g(x\n"));
    }

    /// A create whose new file's parse began as the call arrived (as the toolbox begins it on
    /// the host's thread) replies as one whose parse did not, and its guard took that parse; for
    /// both tools that create files.
    #[test]
    fn a_create_parsed_early_replies_as_one_parsed_at_its_write() {
        /// A tool's early begin and its run, with its params creating a named file.
        type Runs = (
            fn(&ToolContext, &Value) -> bool,
            fn(&ToolContext, &Value) -> String,
        );
        type Tool = (Runs, fn(&str) -> Value);
        let tools: [Tool; 2] = [
            (
                (create::begin_guard, create::run),
                |name| json!({"file_path": name, "content": BROKEN_NEW_FILE}),
            ),
            (
                (
                    |c, p| text_editor::begin_guard(c, &TextEditorOptions::default(), p),
                    |c, p| text_editor::run(c, &TextEditorOptions::default(), p),
                ),
                |name| json!({"command": "create", "path": name, "file_text": BROKEN_NEW_FILE}),
            ),
        ];
        let _serial = crate::syntax::serial_early_parses();
        let dir = tempfile::tempdir().unwrap();
        for (i, ((begin, run), params)) in tools.into_iter().enumerate() {
            for mode in [SyntaxCheck::Warn, SyntaxCheck::Refuse] {
                let ctx = context(dir.path(), mode);
                let (plain, early) = (
                    format!("plain-{i}-{mode:?}.py"),
                    format!("early-{i}-{mode:?}.py"),
                );
                let expected = run(&ctx, &params(&plain)).replace(&plain, &early);
                assert!(expected.contains("line 1"), "{expected}");
                // Another test's job may hold the worker: try again until it is free.
                while !begin(&ctx, &params(&early)) {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                assert!(crate::syntax::early_kept());
                assert_eq!(run(&ctx, &params(&early)), expected);
                assert!(
                    !crate::syntax::early_kept(),
                    "the guard did not take the early parse"
                );
            }
            let off = context(dir.path(), SyntaxCheck::Off);
            assert!(!begin(&off, &params("off.py")));
        }
        let ctx = context(dir.path(), SyntaxCheck::Warn);
        let parsed_up_to = super::super::worker::WHOLE_PARSE_BESIDE_UP_TO;
        for bytes in [parsed_up_to, crate::syntax::EARLY_PARSE_PARAMS_UP_TO] {
            let large = "x = 1\n".repeat(bytes / 6 + 1);
            let large = json!({"file_path": "large.py", "content": large});
            assert!(!create::begin_guard(&ctx, &large), "{bytes} parsed early");
        }
    }

    #[test]
    fn refuse_leaves_the_file_untouched() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("m.py"), SOURCE).unwrap();
        let out = edit::run(&context(dir.path(), SyntaxCheck::Refuse), &bad_edit());
        assert!(
            out.starts_with("Error editing file: the edit was not applied"),
            "{out}"
        );
        assert!(out.contains("syntaxCheck"), "{out}");
        assert_eq!(
            std::fs::read_to_string(dir.path().join("m.py")).unwrap(),
            SOURCE
        );
        let good = json!({"file_path": "m.py", "old_string": "g(x)", "new_string": "g(x, 1)"});
        let out = edit::run(&context(dir.path(), SyntaxCheck::Refuse), &good);
        assert!(
            out.starts_with("Successfully") && !out.contains("Syntax check"),
            "{out}"
        );
    }

    #[test]
    fn off_says_nothing() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("m.py"), SOURCE).unwrap();
        let out = edit::run(&context(dir.path(), SyntaxCheck::Off), &bad_edit());
        assert!(
            out.starts_with("Successfully") && !out.contains("Syntax check"),
            "{out}"
        );
    }

    #[test]
    fn an_atomic_batch_is_refused_whole() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("m.py"), SOURCE).unwrap();
        let ops = json!({"atomic": true, "edits": [
            {"file_path": "m.py", "old_string": "def f(x):", "new_string": "def f(x, y):"},
            bad_edit(),
        ]});
        let outcome = multi_edit::call(&context(dir.path(), SyntaxCheck::Refuse), &ops);
        let out = &outcome.text;
        assert!(out.contains("was not applied"), "{out}");
        assert_eq!(outcome.error, Some(ErrorKind::SyntaxRefused));
        assert!(outcome.changed_files.is_empty());
        assert_eq!(
            std::fs::read_to_string(dir.path().join("m.py")).unwrap(),
            SOURCE
        );
    }

    #[test]
    fn a_created_file_reports_its_errors() {
        let dir = tempfile::tempdir().unwrap();
        let ctx = context(dir.path(), SyntaxCheck::Warn);
        let out = crate::tools::create::run(
            &ctx,
            &json!({"file_path": "n.js", "content": "if (a {\n}\n"}),
        );
        assert!(
            out.starts_with("Successfully created") && out.contains("Syntax check"),
            "{out}"
        );
        let out =
            crate::tools::create::run(&ctx, &json!({"file_path": "o.js", "content": "f(a);\n"}));
        assert!(!out.contains("Syntax check"), "{out}");
    }

    /// Python source of at least `bytes`: functions separated by blank lines.
    fn large_python(bytes: usize) -> String {
        let mut text = String::new();
        for i in 0.. {
            if text.len() >= bytes {
                break;
            }
            text.push_str(&format!("def f{i}(x):\n    return g(x, {i})\n\n\n"));
        }
        text
    }

    /// A write large enough to be checked beside it (on its own thread) says what the check
    /// run before the write says: the errors an edit introduced, none for a clean edit, a new
    /// file's errors.
    #[test]
    fn a_write_checked_beside_it_gets_the_same_verdict() {
        use crate::tools::apply::{GUARD_BESIDE_WRITE_FROM, NEW_FILE_GUARD_BESIDE_FROM};
        let dir = tempfile::tempdir().unwrap();
        let ctx = context(dir.path(), SyntaxCheck::Warn);
        let expected = |name: &str, before: Option<&str>, after: &str| {
            let path = dir.path().join(name);
            let verdict = crate::syntax::check(&path, before, after, ctx.syntax.max_bytes, None);
            verdict.note(name)
        };
        let source = large_python(GUARD_BESIDE_WRITE_FROM + 4096);
        std::fs::write(dir.path().join("m.py"), &source).unwrap();
        let bad = json!({"file_path": "m.py", "old_string": "return g(x, 7)", "new_string": "return g(x, 7"});
        let out = edit::run(&ctx, &bad);
        let broken = source.replace("return g(x, 7)\n", "return g(x, 7\n");
        let note = expected("m.py", Some(&source), &broken);
        assert!(note.contains("unbalanced parentheses"), "{note}");
        assert!(
            out.starts_with("Successfully") && out.contains(&note),
            "{out}"
        );
        let good =
            json!({"file_path": "m.py", "old_string": "g(x, 7\n", "new_string": "g(x, 7)\n"});
        let out = edit::run(&ctx, &good);
        assert!(
            out.starts_with("Successfully") && !out.contains("Syntax check"),
            "{out}"
        );

        let source = large_python(NEW_FILE_GUARD_BESIDE_FROM + 4096);
        let broken = source.replace("return g(x, 7)\n", "return g(x, 7\n");
        let out = crate::tools::create::run(&ctx, &json!({"file_path": "n.py", "content": broken}));
        let note = expected("n.py", None, &broken);
        assert!(note.contains("Syntax check"), "{note}");
        assert!(
            out.starts_with("Successfully created") && out.contains(&note),
            "{out}"
        );
        let out = crate::tools::create::run(&ctx, &json!({"file_path": "o.py", "content": source}));
        assert!(
            out.starts_with("Successfully created") && !out.contains("Syntax check"),
            "{out}"
        );
    }

    /// A large write that fails while its guard runs beside it answers with the write's error
    /// and leaves the file as it was.
    #[test]
    fn a_failed_write_checked_beside_it_reports_the_failure() {
        let dir = tempfile::tempdir().unwrap();
        let source = large_python(crate::tools::apply::GUARD_BESIDE_WRITE_FROM + 4096);
        std::fs::write(dir.path().join("m.py"), &source).unwrap();
        let ctx = context(dir.path(), SyntaxCheck::Warn);
        let bad = json!({"file_path": "m.py", "old_string": "return g(x, 7)", "new_string": "return g(x, 7"});
        crate::fs::atomic::FAIL_AT.with(|f| f.set(Some("rename")));
        let out = edit::run(&ctx, &bad);
        crate::fs::atomic::FAIL_AT.with(|f| f.set(None));
        assert!(out.starts_with("Error"), "{out}");
        assert!(out.contains("injected failure at rename"), "{out}");
        assert!(!out.contains("Syntax check"), "{out}");
        let on_disk = std::fs::read_to_string(dir.path().join("m.py")).unwrap();
        assert_eq!(on_disk, source);
    }
}
