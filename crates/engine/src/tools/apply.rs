//! The one place a planned change lands. A writing tool plans a [`Change`] — the files its call
//! changes, each with its bytes before and after (`None`: no file), under the locks its staging
//! took — and [`ToolContext::apply`] carries it out as the context's [`Mode`] says:
//!
//! - **write**: the size limit (`maxFileBytes`), the NUL check, the syntax guard (in `warn` mode,
//!   for writes of [`GUARD_BESIDE_WRITE_FROM`] bytes or more and new files of
//!   [`NEW_FILE_GUARD_BESIDE_FROM`] or more, run whole on a thread of its own while the change is
//!   written: its verdict only goes into the reply), the undo level
//!   written ahead (one level; one transaction for several files; none for undo's own change; a
//!   level that cannot be recorded refuses the change before anything is written), the atomic writes (if one fails, the files already written are put back and the level is
//!   taken back), then the written contents' blobs. The caller then runs its after-write bookkeeping
//!   ([`ToolContext::after_write`]).
//! - **preview**: the same checks and the same syntax note (the guard beside the planning where
//!   it would run beside the write; a small change's, in a preview that is stored, found while it
//!   is stored: see [`super::preview_notes`]); each file's planned content goes to the preview's
//!   collector; nothing is written, no undo level is made, and the after-write bookkeeping does
//!   nothing.
//!
//! Undo levels are written ahead: the level of a write (the previous content's blob, and the
//! hashes of both contents) is recorded under the file's lock before the new content is renamed
//! into place (a replaced file's, or a new one's in an existing folder, while its new bytes go
//! to disk; from [`PREPARE_LEVEL_FROM`] bytes
//! its store is opened and both contents named on a thread while the temp file is written), and
//! retracted if the write
//! fails. A crash between the level and the write leaves a level whose previous content is what
//! the file still holds, which undo recognises and only removes (see [`super::undo`]); so a write
//! that landed always has its level.

use std::borrow::Cow;
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::preview_notes::PendingNotes;
use super::ToolContext;
use crate::common_ends::KnownEnds;
use crate::fs::atomic::{
    create_parent_dirs, remove_file_confined, write_atomic_confined, write_atomic_confined_before,
    WriteMode,
};
use crate::fs::background::Durability;
use crate::fs::{FsError, ResolvedPath};
use crate::history::previews::Splice;
use crate::history::recording::{Recorded, TxnFile};
use crate::history::ContentNames;
use crate::syntax::write_guard::{start_guard, start_guard_bytes, Guard};
use crate::syntax::SyntaxCheck;

/// Writes leaving at least this many bytes run their syntax guard beside the write (see
/// [`ToolContext::apply`]); below it the guard's own work before the write (its scans of both
/// texts) costs about what a thread does, and its paragraph parse is beside the write already.
pub const GUARD_BESIDE_WRITE_FROM: usize = 1 << 20;

/// A new file of at least this many bytes has its syntax guard run whole beside its write on a
/// thread of its own, at normal priority: up to `syntaxCheckMaxBytes` the guard parses it whole,
/// which costs more than the thread. One of at most 4 KiB is parsed on the syntax worker beside
/// the write; one in between after the write (its parse outlasts the write).
pub const NEW_FILE_GUARD_BESIDE_FROM: usize = 64 << 10;

/// Writes of at least this many bytes ready their undo level beside the write of the temp file
/// (the store opened, both contents named); below it naming costs less than a thread.
pub const PREPARE_LEVEL_FROM: usize = crate::history::PARALLEL_NAMES_FROM;

/// Whether a context's changes land on disk or are only reported.
#[derive(Debug, Clone, Default)]
pub enum Mode {
    /// Changes are written (the default).
    #[default]
    Write,
    /// Nothing is written; each planned change is handed to this collector.
    Preview(Arc<Mutex<Plan>>),
}

/// One file of a previewed change: where, and its content before and after (`None`: no file),
/// the content after kept as a splice of the content before (the shared head and tail, found
/// once here, are not copied again; the diff and the stored preview start from them). The
/// change's diff and the name of the content before are found when it is planned, while the
/// syntax guard's parse runs on its worker (a large change's guard runs on a thread of its own,
/// which names the contents before too, but for one its write frame named while the change was
/// computed: [`super::write_frame::WriteFrame::planning`]); the preview shows that diff. A write
/// frame's content before is not copied: the frame hands it over when dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlannedFile {
    pub display: String,
    pub path: ResolvedPath,
    /// Empty while the write frame that read it still holds it (see [`Plan::lend_read`]).
    pub before: Option<Vec<u8>>,
    /// `before` is still to be handed over by its write frame ([`Plan::adopt_read`]).
    awaiting_before: bool,
    pub after: Option<Splice>,
    /// The unified diff from `before` to `after` and its added and deleted line counts.
    pub diff: (String, usize, usize),
    /// The blob name of `before` (see [`crate::history::content_name`]).
    pub before_name: Option<String>,
    /// How the write would record it: the tool's name, and whether it is undo's own change,
    /// a write forgetting the file's levels, or an ordinary level.
    pub recording: PlannedRecording,
}

/// The [`Recording`] of a planned file, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PlannedRecording {
    Level(String),
    Forget,
    Undo,
}

/// Everything a previewed call would do, in order: the files of each change, the moves among
/// them, and the after-write bookkeeping of each landed file.
#[derive(Debug, Default)]
pub struct Plan {
    pub files: Vec<PlannedFile>,
    /// `(from, to)` real paths of files a change moves (the source deleted, the destination
    /// written).
    pub moves: Vec<(std::path::PathBuf, std::path::PathBuf)>,
    pub effects: Vec<(ResolvedPath, crate::tools::write_frame::TrackerEffect)>,
    /// A rewind's plan: applying it takes a checkpoint with this label first and restores the
    /// files as one transaction without content checks ([`Recording::Restore`]).
    pub checkpoint_first: Option<String>,
    /// The content before, in the change being planned, that its write frame lends instead of
    /// a copy ([`Plan::lend_read`]).
    lent: Option<Lent>,
    /// Syntax notes still being found (see [`super::preview_notes`]).
    pub notes: PendingNotes,
}

/// The content before that a write frame lends to the change being planned: the file's real
/// path, and the content's blob name when the frame found it while the change was computed.
#[derive(Debug, Clone)]
pub struct Lent {
    real: std::path::PathBuf,
    name: Option<String>,
}

impl PlannedFile {
    /// The planned form of `file`, its content before copied unless `lent` (then handed over
    /// later by its write frame).
    fn new(file: &FileEdit, recording: PlannedRecording, lent: bool) -> Self {
        let base = file.before.unwrap_or_default();
        let known = file.known_ends();
        let after = file.after.map(|after| Splice::of_known(base, after, known));
        let parts = after.as_ref().map_or((0, &[][..], 0), Splice::parts);
        let lent = lent && file.before.is_some();
        PlannedFile {
            display: file.display.to_string(),
            path: file.path.clone(),
            before: file
                .before
                .map(|b| if lent { Vec::new() } else { b.to_vec() }),
            awaiting_before: lent,
            diff: super::diff::unified_counted_spliced(base, parts, file.display),
            before_name: None,
            after,
            recording,
        }
    }

    /// A later change of the same file planned after this one: the content after is that
    /// change's (the diff and the content before stay this file's first).
    pub fn then(&mut self, later: &PlannedFile) {
        let after = later.after_bytes();
        self.after = after.as_deref().map(|a| Splice::of(self.base(), a));
        let parts = self.after.as_ref().map_or((0, &[][..], 0), Splice::parts);
        self.diff = super::diff::unified_counted_spliced(self.base(), parts, &self.display);
    }

    /// The content before, empty when there was no file (the base of [`Self::after`]).
    pub fn base(&self) -> &[u8] {
        self.before.as_deref().unwrap_or_default()
    }

    /// The content after, built (`None`: no file).
    pub fn after_bytes(&self) -> Option<Vec<u8>> {
        // A splice made of this base always fits it.
        let after = self.after.as_ref()?;
        Some(after.apply(self.base()).unwrap_or_default())
    }

    /// True when the content after is the content before.
    pub fn unchanged(&self) -> bool {
        match (&self.before, &self.after) {
            (None, None) => true,
            (Some(before), Some(after)) => after.keeps(before),
            _ => false,
        }
    }
}

/// Each file of `change` as planned, its content before not yet named; the file `lent` names
/// (see [`Plan::lend_read`]) awaits its content before.
fn planned_files(change: &Change, lent: Option<&Lent>) -> Vec<PlannedFile> {
    let lent = lent.map(|l| l.real.as_path());
    let recording = match change.recording {
        Recording::Level(tool) | Recording::Transaction(tool) | Recording::Restore(tool) => {
            PlannedRecording::Level(tool.to_string())
        }
        Recording::Forget => PlannedRecording::Forget,
        Recording::Undo => PlannedRecording::Undo,
    };
    let files = change.files.iter();
    files
        .map(|f| PlannedFile::new(f, recording.clone(), Some(&*f.path.real) == lent))
        .collect()
}

/// The blob names of the contents before of `change`'s files, in order (`None`: no file); a
/// content `lent` with its name is not named again.
fn names_before(change: &Change, lent: Option<&Lent>) -> Vec<Option<String>> {
    let known = |f: &FileEdit| {
        let lent = lent.filter(|l| l.real == *f.path.real)?;
        lent.name.clone()
    };
    let files = change.files.iter();
    files
        .map(|f| {
            f.before
                .map(|b| known(f).unwrap_or_else(|| crate::history::content_name(b)))
        })
        .collect()
}

/// Hands the planned files, named by `names`, to the preview's collector.
fn collect_planned(
    collector: &Mutex<Plan>,
    mut planned: Vec<PlannedFile>,
    names: Vec<Option<String>>,
) {
    for (file, name) in planned.iter_mut().zip(names) {
        file.before_name = name;
    }
    let mut plan = collector.lock().unwrap_or_else(|e| e.into_inner());
    plan.files.extend(planned);
}

impl Plan {
    /// Before a write frame's change of the file at `real` is planned: the frame holds that
    /// content before and hands it over once it is dropped ([`Self::adopt_read`]), so planning
    /// does not copy it; `name` is its blob name when the frame already found it. `None` ends
    /// the loan (the change was planned or refused).
    pub fn lend_read(&mut self, real: Option<&Path>, name: Option<String>) {
        self.lent = real.map(|real| Lent {
            real: real.to_path_buf(),
            name,
        });
    }

    /// The content before that a write frame lent for the file at `real`, handed over.
    pub fn adopt_read(&mut self, real: &Path, before: Vec<u8>) {
        let waiting = self.files.iter_mut().rev();
        let mut waiting = waiting.filter(|f| f.awaiting_before && *f.path.real == *real);
        if let Some(last) = waiting.next() {
            waiting.for_each(|f| (f.before, f.awaiting_before) = (Some(before.clone()), false));
            (last.before, last.awaiting_before) = (Some(before), false);
        }
    }

    /// The content an earlier change of this plan leaves at `real` (`Some(None)`: deleted),
    /// `None` when no change planned that file.
    pub fn planned(&self, real: &std::path::Path) -> Option<Option<Vec<u8>>> {
        let file = self.files.iter().rev().find(|f| f.path.real == real)?;
        Some(file.after_bytes())
    }
}

/// The texts the syntax guard checks, when the tool has them as LF views (else the bytes are
/// decoded for it).
#[derive(Clone, Copy)]
pub struct Texts<'a> {
    pub before: Option<&'a str>,
    pub after: &'a str,
    /// What the plan knows of the two texts' common ends ([`KnownEnds::NONE`]: nothing).
    pub known: KnownEnds,
}

/// One file of a [`Change`].
pub struct FileEdit<'a> {
    pub path: &'a ResolvedPath,
    pub display: &'a str,
    /// The file's bytes when it was locked (`None`: there was no file).
    pub before: Option<&'a [u8]>,
    /// The bytes to leave (`None`: delete the file).
    pub after: Option<&'a [u8]>,
    /// The LF-view texts of a text edit, for the syntax guard.
    pub texts: Option<Texts<'a>>,
}

impl FileEdit<'_> {
    /// What is known of the common ends of the bytes before and after: the texts' known ends
    /// when the texts are these very bytes (an encoding that changes nothing), else nothing.
    fn known_ends(&self) -> KnownEnds {
        let same = |text: &str, bytes: &[u8]| std::ptr::eq(text.as_bytes(), bytes);
        match (self.texts, self.before, self.after) {
            (Some(t), Some(before), Some(after))
                if t.before.is_some_and(|b| same(b, before)) && same(t.after, after) =>
            {
                t.known
            }
            _ => KnownEnds::NONE,
        }
    }
}

/// What a call changes: its files, and how the undo history records it.
pub struct Change<'a> {
    pub files: Vec<FileEdit<'a>>,
    pub recording: Recording<'a>,
}

/// How the undo history records a [`Change`].
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Recording<'a> {
    /// One level of the one file, naming this tool.
    Level(&'a str),
    /// One transaction across the files, naming this tool: one level that reverts them all.
    Transaction(&'a str),
    /// No level, and the file's older levels are forgotten (the content a write replaces could
    /// not be read, so no level could restore it; later undos must not skip it).
    Forget,
    /// Undo's own change: no level, no content checks (it puts back what was there), every
    /// rename durable before returning.
    Undo,
    /// A rewind's change: one transaction naming this tool, like [`Recording::Transaction`],
    /// without content checks (it puts back contents the files held).
    Restore(&'a str),
}

impl ToolContext {
    /// Carries out `change` (see the module doc). `Ok` holds the syntax guard's note for the reply
    /// (empty when it has nothing to say), then, in the rare change whose undo level could not be
    /// kept, the sentence saying so (see [`Self::cleared_history_note`]); its refusal, a file
    /// over `maxFileBytes`, a NUL byte or a failed write is the error, and then no file was
    /// changed. Undo's own change is not checked: it puts back what was there.
    pub fn apply(&self, change: &Change) -> Result<String, FsError> {
        let mut note = self.apply_checked(change)?;
        note.push_str(&self.cleared_history_note(change));
        Ok(note)
    }

    /// The sentence a reply gains when `change` could not be kept in the undo history: a
    /// content it replaces is over the store's size cap, so recording it cleared its files'
    /// histories (see [`crate::history::HistoryStore::keeps`]); empty for every other change.
    fn cleared_history_note(&self, change: &Change) -> String {
        let recorded = match (change.recording, change.files.as_slice()) {
            (Recording::Level(_), [file]) => file.after.is_some(),
            (Recording::Level(_) | Recording::Transaction(_) | Recording::Restore(_), _) => true,
            (Recording::Forget | Recording::Undo, _) => false,
        };
        let largest = change
            .files
            .iter()
            .filter_map(|f| f.before.map(<[u8]>::len));
        let Some((largest, cap)) = largest
            .max()
            .filter(|_| recorded)
            .and_then(|len| Some((len, self.history.over_cap(len)?)))
        else {
            return String::new();
        };
        let files: Vec<&str> = change.files.iter().map(|f| f.display).collect();
        let their = if files.len() == 1 { "its" } else { "their" };
        format!(" This write was not kept in the undo history: the content it replaced ({largest} bytes) is over the history store's {cap}-byte size cap, so the undo history of {} was cleared and undo cannot bring back {their} earlier contents.", files.join(", "))
    }

    /// [`Self::apply`] but the note on the undo history.
    fn apply_checked(&self, change: &Change) -> Result<String, FsError> {
        let checked = !matches!(change.recording, Recording::Undo | Recording::Restore(_));
        if checked {
            super::size_limit::refuse_oversized(change, self.max_file_bytes)?;
        }
        for file in change.files.iter().filter(|_| checked) {
            if let Some(after) = file.after {
                crate::tools::write_frame::refuse_nul(after, file.display)?;
            }
        }
        if checked && self.guards_beside_write(change) {
            return self.write_beside_guards(change);
        }
        let guards = match checked {
            true => self.start_guards(change, true)?,
            false => Vec::new(),
        };
        self.land(change, self.take_lent().as_ref())?;
        Ok(guards.into_iter().map(|g| self.note_of(g)).collect())
    }

    /// The reply's note of `guard`: waited for now, or, for a preview that stores itself, a
    /// mark the preview replaces once it is stored (see [`super::preview_notes`]).
    fn note_of(&self, guard: Guard<'_>) -> String {
        match self.with_plan(|plan| plan.notes.defers(&guard)) {
            Some(true) => {
                let guard = guard.into_owned();
                self.with_plan(|plan| plan.notes.keep(guard))
                    .unwrap_or_default()
            }
            _ => guard.note(),
        }
    }

    /// Writes the change, or in preview mode hands each file's planned content to the collector
    /// (`lent`: the content before a write frame lends it, see [`Plan::lend_read`]).
    fn land(&self, change: &Change, lent: Option<&Lent>) -> Result<(), FsError> {
        let Mode::Preview(collector) = &self.mode else {
            return self.write_change(change);
        };
        let planned = planned_files(change, lent);
        collect_planned(collector, planned, names_before(change, lent));
        Ok(())
    }

    /// The content before a write frame lends to the change being previewed, taken from the
    /// collector (`None` when not previewing or nothing is lent).
    fn take_lent(&self) -> Option<Lent> {
        let Mode::Preview(collector) = &self.mode else {
            return None;
        };
        let mut plan = collector.lock().unwrap_or_else(|e| e.into_inner());
        plan.lent.take()
    }

    /// Whether the change's syntax guard runs whole on a thread of its own while the change is
    /// written (previewing: planned): in `warn` mode (the verdict is needed only for the reply), for writes of at least
    /// [`GUARD_BESIDE_WRITE_FROM`] bytes, or that create a file of at least
    /// [`NEW_FILE_GUARD_BESIDE_FROM`], whose guard costs more than the thread.
    fn guards_beside_write(&self, change: &Change) -> bool {
        let afters = || {
            change
                .files
                .iter()
                .filter_map(|f| f.after.map(|a| (f, a.len())))
        };
        let bytes: usize = afters().map(|(_, len)| len).sum();
        let new_file =
            afters().any(|(f, len)| f.before.is_none() && len >= NEW_FILE_GUARD_BESIDE_FROM);
        self.syntax.mode == SyntaxCheck::Warn && (bytes >= GUARD_BESIDE_WRITE_FROM || new_file)
    }

    /// Writes (previewing: plans) the change while its syntax guard runs on a scoped thread; the
    /// guard's note once both are done (a failed write's error, whatever the guard found). A
    /// preview's thread also names the contents before (but a lent one already named), while
    /// this one plans each file.
    fn write_beside_guards(&self, change: &Change) -> Result<String, FsError> {
        let lent = self.take_lent();
        let lent = lent.as_ref();
        std::thread::scope(|scope| {
            let beside = std::thread::Builder::new()
                .name("edit-engine-guard".into())
                .spawn_scoped(scope, move || {
                    let names = self.previewing().then(|| names_before(change, lent));
                    let guards = self.start_guards(change, false);
                    (
                        guards.map(|g| g.into_iter().map(Guard::note).collect()),
                        names,
                    )
                });
            let Ok(beside) = beside else {
                // No thread: the guard runs here, before the write, as for a small one.
                let guards = self.start_guards(change, true)?;
                self.land(change, lent)?;
                return Ok(guards.into_iter().map(Guard::note).collect());
            };
            let landed = match &self.mode {
                Mode::Write => self.write_change(change).map(|()| None),
                Mode::Preview(collector) => Ok(Some((collector, planned_files(change, lent)))),
            };
            let (note, names): (Result<String, FsError>, _) = beside
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            if let (Some((collector, planned)), Some(names)) = (landed?, names) {
                collect_planned(collector, planned, names);
            }
            note
        })
    }

    /// The syntax guard of every file the change leaves: in `refuse` mode its refusal comes
    /// before anything is written; in `warn` mode with `overlap` a single file's paragraphs are
    /// parsed on the syntax worker beside its write.
    fn start_guards<'c>(
        &self,
        change: &'c Change,
        overlap: bool,
    ) -> Result<Vec<Guard<'c>>, FsError> {
        let mut guards = Vec::with_capacity(change.files.len());
        for file in &change.files {
            let Some(after) = file.after else { continue };
            let real = &file.path.real;
            let guard = match file.texts {
                Some(t) => start_guard(
                    &self.syntax,
                    real,
                    file.display,
                    (t.before.map(Cow::Borrowed), Cow::Borrowed(t.after), t.known),
                    overlap,
                )?,
                None => start_guard_bytes(
                    &self.syntax,
                    real,
                    file.display,
                    file.before,
                    after,
                    overlap,
                )?,
            };
            guards.push(guard);
        }
        Ok(guards)
    }

    /// Records the undo level, writes every file (all or nothing), then stores the blobs.
    fn write_change(&self, change: &Change) -> Result<(), FsError> {
        if let (Recording::Level(tool), [file]) = (change.recording, change.files.as_slice()) {
            // A create into a folder still to be made takes the path below: its level is
            // recorded before the folder is made, so a refused level leaves nothing behind.
            let folder_exists = || file.path.real.parent().is_some_and(Path::is_dir);
            if let (Some(after), true) = (file.after, file.before.is_some() || folder_exists()) {
                return self.write_with_level(file, after, tool);
            }
        }
        let txn = matches!(
            change.recording,
            Recording::Transaction(_) | Recording::Restore(_)
        )
        .then(crate::history::new_txn_id);
        let pending = match change.recording {
            Recording::Level(tool) | Recording::Transaction(tool) | Recording::Restore(tool) => {
                self.record_level(change, tool, txn.as_deref())?
            }
            Recording::Forget => {
                for f in &change.files {
                    self.history.forget(&f.path.real)?;
                }
                Vec::new()
            }
            Recording::Undo => Vec::new(),
        };
        let durability = match change.recording {
            Recording::Undo => Durability::Strict,
            _ => self.durability,
        };
        let recorded = matches!(
            change.recording,
            Recording::Level(_) | Recording::Transaction(_) | Recording::Restore(_)
        ) && self.history.enabled();
        if durability == Durability::Strict && recorded {
            // The level's syncs are queued: a write durable on return needs them done first.
            crate::fs::background::flush();
        }
        for (i, file) in change.files.iter().enumerate() {
            if let Err(e) = self.write_one(file, change.recording, durability) {
                change.files[..i]
                    .iter()
                    .rev()
                    .for_each(|f| self.put_back(f, durability));
                self.retract_level(change, txn.as_deref());
                return Err(e);
            }
        }
        for (file, pending) in change.files.iter().zip(pending) {
            if let (Some(pending), Some(after)) = (pending, file.after) {
                pending.finish(after);
            }
        }
        Ok(())
    }

    /// Replaces one file, or creates it in an existing folder, and records its level while the
    /// bytes go to disk: once they are in the temp file, before its fsync and the rename, so the
    /// level is still recorded (and its syncs queued) ahead of the rename; a standard write's
    /// small written content's blob is stored there too. A level that cannot be recorded abandons
    /// the write; a write that fails after its level was recorded takes the level back.
    fn write_with_level(&self, file: &FileEdit, after: &[u8], tool: &str) -> Result<(), FsError> {
        let (real, display) = (&file.path.real, file.display);
        let mode = match file.before {
            Some(_) => WriteMode::Replace,
            None => WriteMode::CreateNew,
        };
        if !self.history.enabled() {
            return write_atomic_confined(real, after, mode, display, self.durability);
        }
        std::thread::scope(|scope| {
            let prepared = self.prepare_level(scope, file.before, after);
            self.write_with_level_prepared(file, after, mode, tool, prepared)
        })
    }

    /// For a write of at least [`PREPARE_LEVEL_FROM`] bytes with the history on, when its store
    /// is still to be opened or a content to be hashed: a scoped thread that readies its level
    /// (see [`crate::history::recording::History::prepare`]) while the bytes go to the temp file.
    /// Contents named by a comparison are left to the recording, which overlaps the writeback.
    fn prepare_level<'s, 'e>(
        &'e self,
        scope: &'s std::thread::Scope<'s, 'e>,
        before: Option<&'e [u8]>,
        after: &'e [u8],
    ) -> Option<std::thread::ScopedJoinHandle<'s, Option<ContentNames>>> {
        let history = &self.history;
        if !history.enabled()
            || after.len() < PREPARE_LEVEL_FROM
            || !history.worth_preparing(before, after)
        {
            return None;
        }
        std::thread::Builder::new()
            .name("edit-engine-prepare".into())
            .spawn_scoped(scope, move || history.prepare(before, after))
            .ok()
    }

    /// [`Self::write_with_level`], the level readied by `prepared` (joined before recording).
    fn write_with_level_prepared(
        &self,
        file: &FileEdit,
        after: &[u8],
        mode: WriteMode,
        tool: &str,
        mut prepared: Option<std::thread::ScopedJoinHandle<'_, Option<ContentNames>>>,
    ) -> Result<(), FsError> {
        let mut pending = None;
        let mut record = || -> Result<(), FsError> {
            // A preparation that panicked only leaves its work to the recording.
            let names = prepared.take().and_then(|t| t.join().ok().flatten());
            let recorded = Recorded {
                previous: file.before,
                written: after,
                tool,
                txn: None,
                names: names.as_ref(),
            };
            // With `durability: 'strict'` the write waits for the level's queued syncs after its
            // own fsync, before the rename (see `write_atomic_confined_before`).
            let recorded = self.history.record(&file.path.real, &recorded)?;
            // A small blob of a standard write is stored now, before the fsync; a large one, and
            // any of a strict write (which would wait for its syncs too), once the write landed.
            pending = Some(recorded.and_then(|p| match self.durability {
                Durability::Standard => p.finish_if_small(after),
                Durability::Strict => Some(p),
            }));
            Ok(())
        };
        let (real, display) = (&file.path.real, file.display);
        let written =
            write_atomic_confined_before(real, after, mode, display, self.durability, &mut record);
        match (written, pending) {
            (Ok(()), Some(Some(pending))) => {
                pending.finish_in_background(after);
                Ok(())
            }
            (Ok(()), _) => Ok(()),
            (Err(e), Some(_)) => {
                self.history.retract(&file.path.real, after);
                Err(e)
            }
            (Err(e), None) => Err(e),
        }
    }

    /// Writes the undo level of `change` ahead of its writes; the pending blob of each file's
    /// written content. `Err`: the level cannot be recorded, and nothing may be written.
    fn record_level(
        &self,
        change: &Change,
        tool: &str,
        txn: Option<&str>,
    ) -> Result<Vec<Option<crate::history::recording::Pending>>, FsError> {
        match (txn, change.files.as_slice()) {
            (None, [file]) => {
                let Some(written) = file.after else {
                    return Ok(vec![None]);
                };
                let recorded = Recorded {
                    previous: file.before,
                    written,
                    tool,
                    txn: None,
                    names: None,
                };
                Ok(vec![self.history.record(&file.path.real, &recorded)?])
            }
            (txn, files) => {
                let members: Vec<TxnFile> = files
                    .iter()
                    .map(|f| TxnFile {
                        path: &f.path.real,
                        previous: f.before,
                        written: f.after,
                    })
                    .collect();
                let id = txn.unwrap_or_default();
                self.history.record_txn(id, &members, tool)
            }
        }
    }

    /// Takes back the level of a change whose write failed.
    fn retract_level(&self, change: &Change, txn: Option<&str>) {
        match (txn, change.recording, change.files.as_slice()) {
            (Some(id), _, files) => {
                let paths: Vec<&std::path::Path> = files.iter().map(|f| &*f.path.real).collect();
                self.history.retract_txn(id, &paths);
            }
            (None, Recording::Level(_), [file]) => {
                if let Some(after) = file.after {
                    self.history.retract(&file.path.real, after);
                }
            }
            _ => {}
        }
    }

    /// Puts one file's new state on disk: a file that was read is replaced, a new one created
    /// (with its folders); a file whose content was not read, and undo's restores, either way.
    fn write_one(
        &self,
        file: &FileEdit,
        recording: Recording,
        durability: Durability,
    ) -> Result<(), FsError> {
        let (real, display) = (&file.path.real, file.display);
        let Some(after) = file.after else {
            return remove_file_confined(real, display);
        };
        let mode = match (recording, file.before) {
            (Recording::Forget | Recording::Undo, _) => WriteMode::CreateOrReplace,
            (_, Some(_)) => WriteMode::Replace,
            (_, None) => WriteMode::CreateNew,
        };
        if mode != WriteMode::Replace {
            create_parent_dirs(real, display)?;
        }
        write_atomic_confined(real, after, mode, display, durability)
    }

    /// Best effort: puts a written file back as it was before.
    fn put_back(&self, file: &FileEdit, durability: Durability) {
        let (real, display) = (&file.path.real, file.display);
        let _ = match file.before {
            Some(bytes) => {
                write_atomic_confined(real, bytes, WriteMode::CreateOrReplace, display, durability)
            }
            None => remove_file_confined(real, display),
        };
    }

    /// Whether this context only previews its changes.
    pub fn previewing(&self) -> bool {
        matches!(self.mode, Mode::Preview(_))
    }

    /// This context in preview mode, and the collector its changes go to.
    pub fn preview(&self) -> (ToolContext, Arc<Mutex<Plan>>) {
        let collector = Arc::new(Mutex::new(Plan::default()));
        let mut ctx = self.clone();
        ctx.mode = Mode::Preview(collector.clone());
        (ctx, collector)
    }

    /// In preview mode, runs `f` on the plan so far; `None` when writing.
    pub fn with_plan<T>(&self, f: impl FnOnce(&mut Plan) -> T) -> Option<T> {
        match &self.mode {
            Mode::Preview(collector) => {
                Some(f(&mut collector.lock().unwrap_or_else(|e| e.into_inner())))
            }
            Mode::Write => None,
        }
    }
}
