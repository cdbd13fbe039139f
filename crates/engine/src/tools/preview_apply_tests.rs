//! Applying stored previews: exactly the previewed contents, only while every file holds what
//! the preview read, once, and before the preview expires.
use super::outcome::ErrorKind;
use super::preview::{apply_preview, preview, Action, Previews};
use super::*;
use crate::history::recording::HistoryOption;
use serde_json::{json, Value};
use std::path::Path;
use std::time::Duration;

fn setup(history: bool) -> (tempfile::TempDir, tempfile::TempDir, ToolContext) {
    let (ws, hist) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(ws.path().join("a.txt"), "one\ntwo\nthree\n").unwrap();
    let option = match history {
        true => HistoryOption::Dir(hist.path().to_string_lossy().into_owned()),
        false => HistoryOption::Off,
    };
    let ctx = test_context(ws.path(), option);
    (ws, hist, ctx)
}

fn read(ws: &Path) -> String {
    std::fs::read_to_string(ws.join("a.txt")).unwrap()
}

fn edit_two() -> Value {
    json!({"file_path": "a.txt", "old_string": "two", "new_string": "TWO"})
}

#[test]
fn a_file_changed_since_the_preview_is_refused_and_left_as_it_is() {
    let (ws, _h, ctx) = setup(true);
    let previews = Previews::new(None);
    let shown = preview(&ctx, &previews, None, |c| edit::call(c, &edit_two()));
    assert_eq!(shown.files[0].action, Action::Update);
    assert_eq!((shown.files[0].additions, shown.files[0].deletions), (1, 1));
    std::fs::write(ws.path().join("a.txt"), "one\ntwo\nthree, changed\n").unwrap();
    let out = apply_preview(&ctx, &previews, &shown.token.unwrap());
    assert_eq!(out.error, Some(ErrorKind::Stale));
    assert!(out.text.contains("a.txt changed since the preview. Nothing was written. Re-read the file and re-send the call."), "{}", out.text);
    assert!(out.text.contains("-three\n+three, changed"), "{}", out.text);
    assert_eq!(read(ws.path()), "one\ntwo\nthree, changed\n");
}

#[test]
fn a_token_applies_once() {
    let (ws, _h, ctx) = setup(true);
    let previews = Previews::new(None);
    let token = preview(&ctx, &previews, None, |c| edit::call(c, &edit_two()))
        .token
        .unwrap();
    assert!(apply_preview(&ctx, &previews, &token).ok());
    assert_eq!(read(ws.path()), "one\nTWO\nthree\n");
    std::fs::write(ws.path().join("a.txt"), "one\ntwo\nthree\n").unwrap();
    let again = apply_preview(&ctx, &previews, &token);
    assert_eq!(again.error, Some(ErrorKind::NotFound));
    assert!(again.text.contains("Re-send the call."), "{}", again.text);
    assert_eq!(read(ws.path()), "one\ntwo\nthree\n");
    let unknown = apply_preview(&ctx, &previews, "../../etc/passwd");
    assert_eq!(unknown.error, Some(ErrorKind::NotFound));
}

#[test]
fn an_expired_preview_is_refused() {
    let (ws, _h, ctx) = setup(true);
    let previews = Previews::new(Some(Duration::from_millis(1)));
    let token = preview(&ctx, &previews, None, |c| edit::call(c, &edit_two()))
        .token
        .unwrap();
    std::thread::sleep(Duration::from_millis(20));
    let out = apply_preview(&ctx, &previews, &token);
    assert_eq!(out.error, Some(ErrorKind::Stale));
    assert!(
        out.text
            .contains("has expired (previews can be applied for 1 ms)"),
        "{}",
        out.text
    );
    assert!(out.text.ends_with("Re-send the call."), "{}", out.text);
    assert_eq!(read(ws.path()), "one\ntwo\nthree\n");
}

/// One failing operation of a non-atomic batch makes the whole preview a failure, with no token.
#[test]
fn a_preview_with_a_failed_operation_cannot_be_applied() {
    let (ws, _h, ctx) = setup(true);
    let params = json!({"edits": [
        {"file_path": "a.txt", "old_string": "two", "new_string": "2"},
        {"file_path": "a.txt", "old_string": "missing", "new_string": "x"},
    ]});
    let shown = preview(&ctx, &Previews::new(None), None, |c| {
        multi_edit::call(c, &params)
    });
    assert_eq!(shown.outcome.error, Some(ErrorKind::Partial));
    assert!(shown.token.is_none());
    assert_eq!(shown.files.len(), 1);
    assert_eq!(read(ws.path()), "one\ntwo\nthree\n");
}

/// With the history off, previews live in the tool object that made them: another one cannot
/// apply them.
#[test]
fn without_history_previews_stay_with_their_tool_object() {
    let (ws, hist, ctx) = setup(false);
    let (mine, other) = (Previews::new(None), Previews::new(None));
    let token = preview(&ctx, &mine, None, |c| edit::call(c, &edit_two()))
        .token
        .unwrap();
    assert_eq!(
        apply_preview(&ctx, &other, &token).error,
        Some(ErrorKind::NotFound)
    );
    assert!(apply_preview(&ctx, &mine, &token).ok());
    assert_eq!(read(ws.path()), "one\nTWO\nthree\n");
    assert_eq!(std::fs::read_dir(hist.path()).unwrap().count(), 0);
}

/// A move shows as one entry from its source to its destination; applying it is one undo level
/// across both files.
#[test]
fn a_move_is_one_entry_and_one_undo_level() {
    let (ws, _h, ctx) = setup(true);
    let input =
        "*** Begin Patch\n*** Update File: a.txt\n*** Move to: b.txt\n@@\n-two\n+2\n*** End Patch";
    let params = json!({ "input": input });
    let previews = Previews::new(None);
    let shown = preview(&ctx, &previews, None, |c| {
        apply_patch::call_patch(c, &params)
    });
    assert_eq!(shown.files.len(), 1, "{:?}", shown.files);
    assert_eq!(shown.files[0].action, Action::Move);
    assert_eq!(shown.files[0].moved_to.as_deref(), Some("b.txt"));
    assert!(
        shown.files[0].diff.contains("-two\n+2\n"),
        "{}",
        shown.files[0].diff
    );
    assert!(apply_preview(&ctx, &previews, &shown.token.unwrap()).ok());
    assert!(!ws.path().join("a.txt").exists());
    let undone = undo::call(&ctx, &json!({"path": "b.txt"}));
    assert!(undone.ok(), "{}", undone.text);
    assert_eq!(read(ws.path()), "one\ntwo\nthree\n");
    assert!(!ws.path().join("b.txt").exists());
}

/// A call's preview, once stored, is the one shown again for that call (here by another tool
/// object sharing the store, after the file changed) and the one its apply writes or refuses.
#[test]
fn a_calls_preview_is_shown_again_and_never_planned_anew() {
    let (ws, _h, ctx) = setup(true);
    let first = preview(&ctx, &Previews::new(None), Some("call-7"), |c| {
        edit::call(c, &edit_two())
    });
    std::fs::write(ws.path().join("a.txt"), "one\ntwo\nthree\nfour\n").unwrap();
    let again = preview(&ctx, &Previews::new(None), Some("call-7"), |c| {
        edit::call(
            c,
            &json!({"file_path": "a.txt", "old_string": "four", "new_string": "4"}),
        )
    });
    assert_eq!(again, first);
    let token = crate::history::previews::call_token("call-7");
    assert_eq!(first.token.as_deref(), Some(token.as_str()));
    let applied = apply_preview(&ctx, &Previews::new(None), &token);
    assert_eq!(applied.error, Some(ErrorKind::Stale));
    assert_eq!(read(ws.path()), "one\ntwo\nthree\nfour\n");
}

/// A failed call's preview made for a call is kept: applying it answers that failure, even if
/// the call would now succeed, and writes nothing.
#[test]
fn a_calls_failed_preview_applies_as_its_failure() {
    let (ws, _h, ctx) = setup(true);
    let params = json!({"file_path": "a.txt", "old_string": "five", "new_string": "5"});
    let shown = preview(&ctx, &Previews::new(None), Some("call-8"), |c| {
        edit::call(c, &params)
    });
    assert_eq!(shown.outcome.error, Some(ErrorKind::NotFound));
    assert!(shown.token.is_none());
    std::fs::write(ws.path().join("a.txt"), "five\n").unwrap();
    let token = crate::history::previews::call_token("call-8");
    let applied = apply_preview(&ctx, &Previews::new(None), &token);
    assert_eq!(applied, shown.outcome);
    assert_eq!(read(ws.path()), "five\n");
}

/// A preview is stored in the held-open store's `previews/` folder; once that folder is replaced
/// by a symlink, no preview is stored or taken through it and nothing lands in its target.
#[test]
fn previews_go_through_the_held_open_store_only() {
    let (ws, hist, ctx) = setup(true);
    let previews = Previews::new(None);
    let token = preview(&ctx, &previews, None, |c| edit::call(c, &edit_two()))
        .token
        .unwrap();
    let folder = hist.path().join("previews");
    assert!(folder.join(&token).is_file());
    let target = tempfile::tempdir().unwrap();
    std::fs::rename(&folder, hist.path().join("moved")).unwrap();
    std::os::unix::fs::symlink(target.path(), &folder).unwrap();
    let shown = preview(&ctx, &previews, None, |c| edit::call(c, &edit_two()));
    assert_eq!(
        (shown.outcome.error, shown.token),
        (Some(ErrorKind::Fs), None)
    );
    assert!(
        shown
            .outcome
            .text
            .contains("previews/ is not the folder it was"),
        "{}",
        shown.outcome.text
    );
    let out = apply_preview(&ctx, &previews, &token);
    assert_eq!(out.error, Some(ErrorKind::Fs));
    assert!(
        out.text.contains("previews/ is not the folder it was"),
        "{}",
        out.text
    );
    assert!(out.text.contains("Nothing was written"), "{}", out.text);
    assert_eq!(read(ws.path()), "one\ntwo\nthree\n");
    assert_eq!(std::fs::read_dir(target.path()).unwrap().count(), 0);
    assert!(hist.path().join("moved").join(&token).is_file());
}

/// A large file with one changed line: the stored preview holds the changed bytes, not the
/// file's contents (what it read is named by its hash, and kept once, as a blob shared with the
/// undo levels); applying it writes the whole new content.
#[test]
fn a_stored_preview_holds_only_the_changed_region() {
    let (ws, hist, ctx) = setup(true);
    let big: String = (0..20_000).map(|i| format!("line {i}\n")).collect();
    std::fs::write(ws.path().join("a.txt"), &big).unwrap();
    let previews = Previews::new(None);
    let params =
        json!({"file_path": "a.txt", "old_string": "line 10000\n", "new_string": "ten thousand\n"});
    let token = preview(&ctx, &previews, None, |c| edit::call(c, &params))
        .token
        .unwrap();
    let stored = std::fs::metadata(hist.path().join("previews").join(&token)).unwrap();
    assert!(stored.len() < 4096, "{} bytes stored", stored.len());
    assert!(apply_preview(&ctx, &previews, &token).ok());
    let expected = big.replace("line 10000\n", "ten thousand\n");
    assert_eq!(read(ws.path()), expected);
    let undone = undo::call(&ctx, &json!({"path": "a.txt"}));
    assert!(undone.ok(), "{}", undone.text);
    assert_eq!(read(ws.path()), big);
}

/// The content a preview read is kept only to show what changed since: once the store no longer
/// holds it, an unchanged file still takes the preview, and a changed one is refused without
/// the difference.
#[test]
fn a_preview_whose_read_content_was_collected_still_applies() {
    let (ws, hist, ctx) = setup(true);
    let previews = Previews::new(None);
    let clear_objects = || {
        for blob in std::fs::read_dir(hist.path().join("objects")).unwrap() {
            std::fs::remove_file(blob.unwrap().path()).unwrap();
        }
    };
    let token = preview(&ctx, &previews, None, |c| edit::call(c, &edit_two()))
        .token
        .unwrap();
    clear_objects();
    assert!(apply_preview(&ctx, &previews, &token).ok());
    assert_eq!(read(ws.path()), "one\nTWO\nthree\n");
    std::fs::write(ws.path().join("a.txt"), "one\ntwo\nthree\n").unwrap();
    let token = preview(&ctx, &previews, None, |c| edit::call(c, &edit_two()))
        .token
        .unwrap();
    clear_objects();
    std::fs::write(ws.path().join("a.txt"), "one\ntwo\nthree!\n").unwrap();
    let out = apply_preview(&ctx, &previews, &token);
    assert_eq!(out.error, Some(ErrorKind::Stale));
    assert!(
        out.text.contains("a.txt holds other content (the content the preview read is no longer kept to show the difference)."),
        "{}",
        out.text
    );
    assert_eq!(read(ws.path()), "one\ntwo\nthree!\n");
}

/// A stored preview is written without fsync: one a crash cut short or damaged (here: cut at
/// every length, or one changed byte of what it would write) is refused as missing, nothing
/// written, never applied.
#[test]
fn a_damaged_or_cut_short_preview_is_refused_as_missing() {
    let (ws, hist, ctx) = setup(true);
    let previews = Previews::new(None);
    let token = preview(&ctx, &previews, None, |c| edit::call(c, &edit_two()))
        .token
        .unwrap();
    let stored = hist.path().join("previews").join(&token);
    let whole = std::fs::read(&stored).unwrap();
    let at = whole.windows(3).rposition(|w| w == b"TWO").unwrap();
    let mut flipped = whole.clone();
    flipped[at] = b'X';
    let damaged = (0..whole.len())
        .map(|n| whole[..n].to_vec())
        .chain([flipped]);
    for bytes in damaged {
        std::fs::write(&stored, &bytes).unwrap();
        let out = apply_preview(&ctx, &previews, &token);
        assert_eq!(
            out.error,
            Some(ErrorKind::NotFound),
            "{} bytes: {}",
            bytes.len(),
            out.text
        );
        assert!(out.text.ends_with("Re-send the call."), "{}", out.text);
        assert_eq!(read(ws.path()), "one\ntwo\nthree\n");
    }
    std::fs::write(&stored, &whole).unwrap();
    assert!(apply_preview(&ctx, &previews, &token).ok());
    assert_eq!(read(ws.path()), "one\nTWO\nthree\n");
}

/// A preview stored by an older build (no layout version in its header) is refused saying so,
/// nothing written.
#[test]
fn a_preview_stored_by_an_older_build_is_refused_saying_so() {
    let (ws, hist, ctx) = setup(true);
    let previews = Previews::new(None);
    let token = preview(&ctx, &previews, None, |c| edit::call(c, &edit_two()))
        .token
        .unwrap();
    let stored = hist.path().join("previews").join(&token);
    let bytes = std::fs::read(&stored).unwrap();
    let end = bytes.iter().position(|&b| b == b'\n').unwrap();
    let mut header: Value = serde_json::from_slice(&bytes[..end]).unwrap();
    header.as_object_mut().unwrap().remove("format");
    header.as_object_mut().unwrap().remove("ttl_ms");
    let mut older = serde_json::to_vec(&header).unwrap();
    older.extend_from_slice(&bytes[end..bytes.len() - 40]);
    std::fs::write(&stored, &older).unwrap();
    let out = apply_preview(&ctx, &previews, &token);
    assert_eq!(out.error, Some(ErrorKind::Stale));
    assert!(
        out.text
            .contains("stored by an older version of edit-engine"),
        "{}",
        out.text
    );
    assert!(out.text.ends_with("Re-send the call."), "{}", out.text);
    assert_eq!(read(ws.path()), "one\ntwo\nthree\n");
}

/// Rewrites the stored preview `token`'s header with `change`, its check made valid again.
fn rewrite_header(hist: &Path, token: &str, change: impl FnOnce(&mut Value)) -> Vec<u8> {
    let stored = hist.join("previews").join(token);
    let bytes = std::fs::read(&stored).unwrap();
    let end = bytes.iter().position(|&b| b == b'\n').unwrap();
    let mut header: Value = serde_json::from_slice(&bytes[..end]).unwrap();
    change(&mut header);
    let mut body = serde_json::to_vec(&header).unwrap();
    body.extend_from_slice(&bytes[end..bytes.len() - 40]);
    let mut whole = body.clone();
    whole.extend_from_slice(blake3::hash(&body).as_bytes());
    whole.extend_from_slice(&(body.len() as u64).to_le_bytes());
    std::fs::write(&stored, &whole).unwrap();
    bytes
}

/// A preview stored by a newer build (a newer layout, even one whose header this build cannot
/// read whole) is refused saying so, nothing written, and stays in the store for that build.
#[test]
fn a_preview_stored_by_a_newer_build_is_refused_and_kept_for_it() {
    use crate::history::previews::PREVIEW_FORMAT;
    let (ws, hist, ctx) = setup(true);
    let previews = Previews::new(None);
    let token = preview(&ctx, &previews, None, |c| edit::call(c, &edit_two()))
        .token
        .unwrap();
    let stored = hist.path().join("previews").join(&token);
    let newer: [fn(&mut Value); 2] = [
        |h| h["format"] = json!(PREVIEW_FORMAT + 1),
        |h| {
            h["format"] = json!(PREVIEW_FORMAT + 1);
            h["files"] = json!("laid out otherwise");
        },
    ];
    for change in newer {
        let original = rewrite_header(hist.path(), &token, change);
        for _ in 0..2 {
            let out = apply_preview(&ctx, &previews, &token);
            assert_eq!(out.error, Some(ErrorKind::Stale));
            assert!(
                out.text
                    .contains("stored by a newer version of edit-engine"),
                "{}",
                out.text
            );
            assert!(out.text.contains("Nothing was written"), "{}", out.text);
            assert_eq!(read(ws.path()), "one\ntwo\nthree\n");
            assert!(
                stored.is_file(),
                "the newer build's preview stays in the store"
            );
        }
        std::fs::write(&stored, original).unwrap();
    }
    assert!(apply_preview(&ctx, &previews, &token).ok());
    assert_eq!(read(ws.path()), "one\nTWO\nthree\n");
}

/// A preview expires by the time to live of the tool that made it, whichever tool applies it.
#[test]
fn a_preview_expires_by_the_time_to_live_it_was_made_with() {
    let (ws, _h, ctx) = setup(true);
    let brief = Previews::new(Some(Duration::from_millis(1)));
    let token = preview(&ctx, &brief, None, |c| edit::call(c, &edit_two()))
        .token
        .unwrap();
    std::thread::sleep(Duration::from_millis(20));
    let out = apply_preview(&ctx, &Previews::new(None), &token);
    assert_eq!(out.error, Some(ErrorKind::Stale), "{}", out.text);
    assert!(out.text.contains("can be applied for 1 ms"), "{}", out.text);
    assert_eq!(read(ws.path()), "one\ntwo\nthree\n");
}
