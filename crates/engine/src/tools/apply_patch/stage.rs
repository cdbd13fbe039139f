//! The files of a patch: guarded, locked in path order, read once, and changed in memory.

use super::super::outcome::{ErrorKind, Outcome, ToolError};
use super::super::ToolContext;
use crate::fs::locks::FileLock;
use crate::fs::textfile::{read_text_confined, TextFile};
use crate::fs::{FsError, ResolvedPath};
use crate::patch::apply::apply_hunks;
use crate::patch::FileOp;
use std::collections::BTreeMap;
use std::path::PathBuf;

/// One file the patch touches.
pub(super) struct Slot {
    pub path: ResolvedPath,
    pub display: String,
    /// The content on disk when locked (`None`: no file there).
    pub original: Option<TextFile>,
    /// The planned content, LF view (`None`: no file there after the patch).
    pub current: Option<String>,
    /// Encoding (BOM, line endings) the planned content is written in.
    pub style: TextFile,
    _lock: FileLock,
}

/// Every file of a patch, keyed by real path (the lock order), and how each op names its paths.
pub(super) struct Staged {
    pub slots: BTreeMap<PathBuf, Slot>,
    /// For each op: its real path and, for a move, the destination's.
    targets: Vec<(PathBuf, Option<PathBuf>)>,
    /// Human summary lines, one per op, filled by [`Staged::plan`].
    pub changes: Vec<String>,
}

fn plain_style() -> TextFile {
    TextFile {
        text: String::new(),
        bom: false,
        line_ending: crate::fs::textfile::LineEnding::Lf,
    }
}

/// The name of an op's path field, for messages.
fn field_name(op: &FileOp, moved: bool) -> &'static str {
    match (op, moved) {
        (_, true) => "'*** Move to:' path",
        (FileOp::Add { .. }, _) => "'*** Add File:' path",
        (FileOp::Delete { .. }, _) => "'*** Delete File:' path",
        (FileOp::Update { .. }, _) => "'*** Update File:' path",
    }
}

impl Staged {
    /// Guards every path of `ops`, then locks (in path order) and reads every file.
    pub fn open(
        ctx: &ToolContext,
        ops: &[FileOp],
        working_dir: Option<&str>,
    ) -> Result<Staged, ToolError> {
        let mut resolved: BTreeMap<PathBuf, ResolvedPath> = BTreeMap::new();
        let mut targets = Vec::with_capacity(ops.len());
        for op in ops {
            let mut guard = |raw: &str, moved: bool| -> Result<PathBuf, ToolError> {
                let path = ctx.resolve_writable(raw, working_dir).map_err(|e| {
                    let lead = format!(
                        "The patch's {} \"{raw}\" is refused: ",
                        field_name(op, moved)
                    );
                    ToolError::fs(&lead, &e, &ctx.host_tools)
                })?;
                let real = path.real.clone();
                resolved.entry(real.clone()).or_insert(path);
                Ok(real)
            };
            let source = guard(op.path(), false)?;
            let dest = match op {
                FileOp::Update {
                    move_to: Some(to), ..
                } => Some(guard(to, true)?),
                _ => None,
            };
            targets.push((source, dest));
        }
        let mut locked = Vec::with_capacity(resolved.len());
        for (real, path) in resolved {
            let lock = ctx
                .lock(&path)
                .map_err(|e| ToolError::fs("", &e, &ctx.host_tools))?;
            locked.push((real, ctx.display(&path), path, lock));
        }
        let reads = read_all(ctx, &locked);
        let mut slots = BTreeMap::new();
        for ((real, display, path, lock), original) in locked.into_iter().zip(reads) {
            let original = original?;
            let slot = Slot {
                style: original.clone().unwrap_or_else(plain_style),
                current: original.as_ref().map(|f| f.text.clone()),
                original,
                path,
                display,
                _lock: lock,
            };
            slots.insert(real, slot);
        }
        Ok(Staged {
            slots,
            targets,
            changes: Vec::new(),
        })
    }

    /// Applies every op in memory, in order. Returns the notes of fuzzy-placed hunks.
    pub fn plan(&mut self, ops: &[FileOp]) -> Result<Vec<String>, ToolError> {
        self.check_one_content_per_path(ops)?;
        let mut notes = Vec::new();
        for (i, op) in ops.iter().enumerate() {
            let (source, dest) = self.targets[i].clone();
            let prefix = if ops.len() > 1 {
                format!("File operation {} of {}: ", i + 1, ops.len())
            } else {
                String::new()
            };
            self.plan_one(op, &source, dest.as_ref(), &mut notes)
                .map_err(|e| e.map_text(|m| format!("{prefix}{m}")))?;
        }
        Ok(notes)
    }

    /// Refuses a patch in which two ops each put a whole file at one path (an Add and a Move
    /// onto it, two Moves onto it): the later would silently discard the earlier's content.
    fn check_one_content_per_path(&self, ops: &[FileOp]) -> Result<(), ToolError> {
        let mut filled: BTreeMap<&PathBuf, usize> = BTreeMap::new();
        for (i, (op, (source, dest))) in ops.iter().zip(&self.targets).enumerate() {
            let target = match (op, dest) {
                (FileOp::Add { .. }, _) => source,
                (FileOp::Update { .. }, Some(dest)) if dest != source => dest,
                _ => continue,
            };
            if let Some(first) = filled.insert(target, i) {
                let display = &self.slots[target].display;
                return Err(ToolError::bad_param(format!("File operations {} and {} both put a whole file at {display} (by '*** Add File:' or '*** Move to:'), so the later would discard the earlier's content. Keep one of them and resend the patch.", first + 1, i + 1)));
            }
        }
        Ok(())
    }

    fn plan_one(
        &mut self,
        op: &FileOp,
        source: &PathBuf,
        dest: Option<&PathBuf>,
        notes: &mut Vec<String>,
    ) -> Result<(), ToolError> {
        let not_found = |text: String| ToolError::new(ErrorKind::NotFound, text);
        let slot = self.slots.get_mut(source).expect("every path was staged");
        let display = slot.display.clone();
        match op {
            FileOp::Add { content, .. } => {
                // As the reference implementation does, an existing file is replaced (its
                // encoding and line endings kept; the undo history holds its old content).
                let replaced = slot.current.replace(content.clone()).is_some();
                let note = if replaced {
                    " (replaced the existing file)"
                } else {
                    ""
                };
                self.changes.push(format!("A {display}{note}"));
            }
            FileOp::Delete { .. } => {
                if slot.current.take().is_none() {
                    return Err(not_found(format!("{display} does not exist, so it cannot be deleted. Remove that section and resend the patch.")));
                }
                self.changes.push(format!("D {display}"));
            }
            FileOp::Update {
                hunks, placement, ..
            } => {
                let Some(text) = slot.current.as_deref() else {
                    return Err(not_found(format!("{display} does not exist. Check the path (or add the file with '*** Add File:') and resend the patch.")));
                };
                let applied = apply_hunks(text, hunks, *placement, &display)
                    .map_err(|e| not_found(e.message))?;
                notes.extend(applied.notes.into_iter().map(|n| format!("{display}: {n}")));
                slot.current = Some(applied.text);
                match dest.filter(|d| *d != source) {
                    None => self
                        .changes
                        .push(format!("M {display} ({} hunk(s))", hunks.len())),
                    Some(dest) => self.move_file(source, dest),
                }
            }
        }
        Ok(())
    }

    /// `(source, destination)` real paths of every move the patch makes.
    pub fn moves(&self) -> impl Iterator<Item = (PathBuf, PathBuf)> + '_ {
        self.targets
            .iter()
            .filter_map(|(source, dest)| Some((source.clone(), dest.clone()?)))
            .filter(|(source, dest)| source != dest)
    }

    /// Moves the planned content of `source` to `dest`; an existing destination is replaced (as
    /// the reference implementation does; the undo history holds its old content).
    fn move_file(&mut self, source: &PathBuf, dest: &PathBuf) {
        let from = self.slots.get_mut(source).expect("staged");
        let (content, style) = (from.current.take(), from.style.clone());
        let from_display = from.display.clone();
        let to = self.slots.get_mut(dest).expect("staged");
        let note = match to.current {
            Some(_) => " (replaced the existing file)",
            None => "",
        };
        to.current = content;
        to.style = style;
        let line = format!("R {from_display} -> {}{note}", to.display);
        self.changes.push(line);
    }

    /// The files the patch changes, by the paths its operations name, each once.
    pub fn changed_files(&self, ops: &[FileOp]) -> Vec<String> {
        let mut outcome = Outcome::default();
        let changed = |real: &PathBuf| self.slots.get(real).is_some_and(|s| s.changed());
        for (op, (source, dest)) in ops.iter().zip(&self.targets) {
            if changed(source) {
                outcome.add_changed(op.path());
            }
            if let (
                FileOp::Update {
                    move_to: Some(to), ..
                },
                Some(dest),
            ) = (op, dest)
            {
                if changed(dest) {
                    outcome.add_changed(to);
                }
            }
        }
        outcome.changed_files
    }

    /// The success message: every change, fuzzy notes, and diffs when asked.
    pub fn summary(&self, ctx: &ToolContext, notes: &[String]) -> String {
        let changed = self.slots.values().filter(|s| s.changed()).count();
        let mut out = format!(
            "Success. Patch applied to {changed} file(s):\n{}",
            self.changes.join("\n")
        );
        if !notes.is_empty() {
            out.push_str("\nFuzzy matches:\n");
            out.push_str(&notes.join("\n"));
        }
        if ctx.return_diff {
            for slot in self.slots.values().filter(|s| s.changed()) {
                let before = slot
                    .original
                    .as_ref()
                    .map(|f| f.text.as_str())
                    .unwrap_or("");
                let after = slot.current.as_deref().unwrap_or("");
                out.push_str("\n\n");
                out.push_str(&super::super::diff::unified(before, after, &slot.display));
            }
        }
        out
    }
}

impl Slot {
    /// Whether the planned state differs from the file on disk.
    pub fn changed(&self) -> bool {
        self.original.as_ref().map(|f| &f.text) != self.current.as_ref()
            || self
                .original
                .as_ref()
                .is_some_and(|f| f.bom != self.style.bom || f.line_ending != self.style.line_ending)
    }
}

/// Reads every locked file (several on all cores, through the ordered pool that grep uses);
/// results in `locked`'s order.
fn read_all(
    ctx: &ToolContext,
    locked: &[(PathBuf, String, ResolvedPath, FileLock)],
) -> Vec<Result<Option<TextFile>, ToolError>> {
    let items: Vec<(&ResolvedPath, &str)> = locked
        .iter()
        .map(|(_, display, path, _)| (path, display.as_str()))
        .collect();
    if items.len() < 2 {
        return items.iter().map(|(p, d)| read_one(ctx, p, d)).collect();
    }
    crate::parallel::Pool::all_cores().map_ordered(items, |(p, d)| read_one(ctx, p, d))
}

/// Reads one locked file and checks its read state; a missing file is `None`.
fn read_one(
    ctx: &ToolContext,
    path: &ResolvedPath,
    display: &str,
) -> Result<Option<TextFile>, ToolError> {
    let original = match read_text_confined(&path.real, display, Some(ctx.max_file_bytes)) {
        Ok(file) => Some(file),
        Err(FsError::NotFound { .. }) => None,
        Err(e) => return Err(ToolError::fs("", &e, &ctx.host_tools)),
    };
    if original.is_some() {
        ctx.check_read_state(path)
            .map_err(|m| ToolError::new(ErrorKind::Stale, m))?;
    }
    Ok(original)
}
