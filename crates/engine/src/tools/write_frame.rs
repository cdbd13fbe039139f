//! The read-modify-write frame of one file: open (guard, the file's lock, the read-before-edit
//! check under that same lock, decode), compute, commit — the commit hands the change to
//! [`ToolContext::apply`], the one place changes land — then the one after-write bookkeeping
//! ([`ToolContext::after_write`]).

use super::apply::{Change, FileEdit, Recording, Texts};
use super::ToolContext;
use crate::common_ends::KnownEnds;
use crate::fs::locks::FileLock;
use crate::fs::textfile::{read_text_confined, TextFile};
use crate::fs::{FsError, ResolvedPath};

/// An open, locked text file. The lock is held until the frame is dropped, so the content read
/// here is the content the write replaces (no lost updates between concurrent calls).
pub struct WriteFrame<'c> {
    pub path: ResolvedPath,
    pub display: String,
    pub file: TextFile,
    /// The tool named in the undo level this frame's commit records.
    tool: &'static str,
    ctx: &'c ToolContext,
    /// A preview's commit lent the content read to the plan (handed over on drop).
    lent: std::cell::Cell<bool>,
    /// The blob name of the content read, when [`Self::planning`] found it (`file` is never
    /// changed: a tool's change goes through [`Self::commit`]).
    read_name: std::cell::Cell<Option<String>>,
    _file_lock: FileLock,
}

impl Drop for WriteFrame<'_> {
    /// Hands the content read to the preview's plan when a commit lent it.
    fn drop(&mut self) {
        if self.lent.get() {
            let read = std::mem::take(&mut self.file.text).into_bytes();
            self.ctx
                .with_plan(|plan| plan.adopt_read(&self.path.real, read));
        }
    }
}

/// A preview of a file of at least this many bytes, written as read, names the content read
/// while the change is computed ([`WriteFrame::planning`]); below it naming costs less than a
/// thread.
pub const NAME_READ_BESIDE_PLAN_FROM: usize = crate::history::PARALLEL_NAMES_FROM;

impl WriteFrame<'_> {
    /// Runs `compute` (the tool's plan of the change) on the text read. A preview of a large
    /// file written as read ([`TextFile::encodes_verbatim`]) meanwhile names that content on a
    /// thread, for the commit to lend with it: the stored preview needs the name, and it is
    /// found without waiting once the change is planned.
    pub fn planning<T>(&self, compute: impl FnOnce(&TextFile) -> T) -> T {
        let beside = self.ctx.previewing()
            && self.file.encodes_verbatim()
            && self.file.text.len() >= NAME_READ_BESIDE_PLAN_FROM;
        if !beside {
            return compute(&self.file);
        }
        let read = self.file.text.as_bytes();
        std::thread::scope(|scope| {
            let naming = std::thread::Builder::new()
                .name("edit-engine-name".into())
                .spawn_scoped(scope, move || crate::history::content_name(read));
            let computed = compute(&self.file);
            let name = naming.ok().and_then(|naming| naming.join().ok());
            self.read_name.set(name);
            computed
        })
    }

    /// Writes `new_text` (an LF-view string) back in the file's own encoding and line endings,
    /// through [`ToolContext::apply`] (one undo level). `Ok` holds the syntax guard's note for the
    /// reply (empty when it has nothing to say); a NUL byte, the guard's refusal or a failed write
    /// is the error, and nothing was written.
    pub fn commit(&self, new_text: &str) -> Result<String, FsError> {
        self.commit_known(new_text, KnownEnds::NONE)
    }

    /// [`Self::commit`] of a `new_text` whose common ends with the text read are `known` (a plan
    /// that replaced a range of it knows them; see [`KnownEnds`]).
    pub fn commit_known(&self, new_text: &str, known: KnownEnds) -> Result<String, FsError> {
        let after = self.file.encode(new_text);
        let before = self.file.encode(&self.file.text);
        // A preview plans the content read as this frame holds it, without a copy.
        let lend = matches!(before, std::borrow::Cow::Borrowed(_)) && self.ctx.previewing();
        if lend {
            let name = self.read_name.take();
            self.ctx
                .with_plan(|plan| plan.lend_read(Some(&self.path.real), name));
            self.lent.set(true);
        }
        let file = FileEdit {
            path: &self.path,
            display: &self.display,
            before: Some(&before),
            after: Some(&after),
            texts: Some(Texts {
                before: Some(&self.file.text),
                after: new_text,
                known,
            }),
        };
        let applied = self.ctx.apply(&Change {
            files: vec![file],
            recording: Recording::Level(self.tool),
        });
        if lend {
            self.ctx.with_plan(|plan| plan.lend_read(None, None));
        }
        applied
    }
}

impl ToolContext {
    /// Resolves a tool's path parameter and checks it may be written.
    pub fn resolve_writable(
        &self,
        file_path: &str,
        working_dir: Option<&str>,
    ) -> Result<ResolvedPath, FsError> {
        let resolved = self.policy.resolve(file_path, working_dir)?;
        self.policy.check_writable(&resolved)?;
        Ok(resolved)
    }

    /// Display form of a path (relative to the workspace root when inside it).
    pub fn display(&self, path: &ResolvedPath) -> String {
        self.policy.display_resolved(path)
    }

    /// Locks the file and reads it as text (undo levels of its commit are labelled `edit`).
    pub fn open_for_edit(&self, path: &ResolvedPath) -> Result<WriteFrame<'_>, FsError> {
        self.open_for_tool(path, "edit")
    }

    /// Locks the file, checks the read-before-edit guard under that lock, and reads it as text;
    /// `tool` labels the undo level its commit records.
    pub fn open_for_tool(
        &self,
        path: &ResolvedPath,
        tool: &'static str,
    ) -> Result<WriteFrame<'_>, FsError> {
        let display = self.display(path);
        let lock = self.lock(path)?;
        self.check_read_state(path)
            .map_err(|message| FsError::ReadState { message })?;
        let file = match self.with_plan(|plan| plan.planned(&path.real)) {
            // A preview's later operation builds on what its earlier ones planned.
            Some(Some(Some(planned))) => TextFile::decode(planned, &display)?,
            _ => read_text_confined(&path.real, &display, Some(self.max_file_bytes))?,
        };
        Ok(WriteFrame {
            path: path.clone(),
            display,
            file,
            tool,
            ctx: self,
            lent: std::cell::Cell::new(false),
            read_name: std::cell::Cell::new(None),
            _file_lock: lock,
        })
    }

    /// The one after-write bookkeeping of every writing tool: the read tracker records the
    /// file's new state as read (chained edits need no re-read), the session tracker applies
    /// `effect`. Nothing in preview mode (nothing was written).
    pub fn after_write(&self, path: &ResolvedPath, effect: TrackerEffect) {
        let effect = match self.with_plan(|plan| plan.effects.push((path.clone(), effect.clone())))
        {
            Some(()) => return,
            None => effect,
        };
        self.read_tracker_after_write(path);
        let Some(tracker) = &self.tracker else {
            return;
        };
        let lexical = &path.lexical;
        match effect {
            TrackerEffect::TextEdit => {
                tracker.track_file_after_write(lexical);
                tracker.record_text_edit(lexical);
            }
            TrackerEffect::Write => tracker.track_file_after_write(lexical),
            TrackerEffect::Symbol { name, updated } => {
                if let Some((code, start, end)) = updated {
                    tracker.track_symbol_after_write(
                        lexical,
                        &name,
                        &code,
                        start as u32,
                        end as u32,
                    );
                }
                tracker.mark_file_seen(lexical);
            }
        }
    }

    /// True when the session's tracker (if any) has seen the file, under either its lexical or
    /// its real path.
    pub fn tracker_has_seen(&self, path: &ResolvedPath) -> bool {
        match &self.tracker {
            None => true,
            Some(t) => t.is_file_seen(&path.lexical) || t.is_file_seen(&path.real),
        }
    }
}

/// What a landed write does to the session tracker ([`ToolContext::after_write`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum TrackerEffect {
    /// A text edit: file re-seen, symbol records dropped, one more consecutive text edit.
    TextEdit,
    /// Any other write: file re-seen, symbol records dropped.
    Write,
    /// A symbol replace: the symbol's new hash and position recorded, file marked seen.
    Symbol {
        name: String,
        updated: Option<(String, usize, usize)>,
    },
}

/// Refuses new content with a NUL byte (it would turn the text file binary). Searched with
/// `memchr`'s vector search: the slice's own `contains` scans a 100 KB content word by word.
pub fn refuse_nul(bytes: &[u8], display: &str) -> Result<(), FsError> {
    if memchr::memchr(0, bytes).is_some() {
        return Err(FsError::NulInContent {
            display: display.to_string(),
        });
    }
    Ok(())
}
