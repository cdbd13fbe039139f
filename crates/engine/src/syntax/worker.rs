//! Parses beside the write: an edit's changed paragraphs, or a new file whole, on a thread of its
//! own when the caller has other work to do meanwhile (the write).
//!
//! One long-lived thread serves every check, at the lowest scheduling priority (Linux's
//! `SCHED_IDLE`, else nice 19): woken on the caller's core, a normal-priority thread would preempt
//! the caller and the write would wait for the parse. A `SCHED_IDLE` thread never preempts another
//! and runs only where a core is idle (the other one, or this one while the write waits on the
//! disk); at nice 19 instead, the 1 KB edits of `bench/disk-ratio.mjs` took 13-15% longer and its
//! 1 KB creates 7%. It never delays a check: while it has a job, other checks parse on their
//! own thread; a caller that comes for its answer before the worker has begun takes the job back
//! and parses it itself, and one that comes while the worker parses waits for it, at most
//! [`patience`] (then parses it itself). Either thread parses the same text with the same grammar,
//! so the answer does not depend on which one did. A new file's parse can begin earlier still,
//! on the host's thread as its call arrives ([`WholeParse::begin_early`]).

use std::cell::RefCell;
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use std::sync::mpsc::{channel, sync_channel, Receiver, Sender};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use tree_sitter::{Parser, Tree};

use super::python_indent;
use super::touched::{Touched, Wrapper};
use crate::symbols::{new_parser, parse_with, Language};

/// Runs `f` with this thread's parser loaded with `lang` (kept for the next call); `None` when the
/// grammar cannot be loaded.
fn with_parser<T>(lang: Language, f: impl FnOnce(&mut Parser) -> Option<T>) -> Option<T> {
    thread_local! {
        static PARSER: RefCell<Option<(Language, Parser)>> = const { RefCell::new(None) };
    }
    PARSER.with_borrow_mut(|kept| {
        if kept.as_ref().is_none_or(|(l, _)| *l != lang) {
            *kept = Some((lang, new_parser(lang).ok()?));
        }
        f(&mut kept.as_mut()?.1)
    })
}

/// The tree of `text` parsed whole as `lang`; `None` when the parse failed.
pub(crate) fn parse_tree(lang: Language, text: &str) -> Option<Tree> {
    with_parser(lang, |parser| parse_with(parser, text, lang, None).ok())
}

/// Whether every text parses as `lang` without an error (and keeps Python's indentation rules);
/// `None` when a parse failed.
pub(crate) fn all_parse(
    lang: Language,
    texts: impl IntoIterator<Item = impl AsRef<str>>,
    wrapper: Option<Wrapper>,
) -> Option<bool> {
    with_parser(lang, |parser| {
        for text in texts {
            let wrapped;
            let text = match wrapper {
                Some((open, close)) => {
                    wrapped = format!("{open}{}{close}", text.as_ref());
                    &wrapped
                }
                None => text.as_ref(),
            };
            let tree = parse_with(parser, text, lang, None).ok()?;
            let broken = tree.root_node().has_error()
                || (lang == Language::Python && !python_indent::problems(text).is_empty());
            if broken {
                return Some(false);
            }
        }
        Some(true)
    })
}

/// Paragraph parses under way.
pub(crate) enum Parsing {
    /// Handed to the worker thread.
    Sent(Handed<Option<bool>>, Language, Touched),
    /// To be parsed on the caller's thread: these pieces of the new text.
    Here(Language, Touched),
}

impl Parsing {
    /// Starts the parse of the `touched` pieces of `after`: on the worker when `overlap` asks for
    /// it and the worker is idle, else later on the caller's thread.
    pub fn start(lang: Language, after: &str, touched: Touched, overlap: bool) -> Parsing {
        if !overlap || touched.pieces.is_empty() {
            return Parsing::Here(lang, touched);
        }
        let texts: Vec<String> = touched
            .pieces
            .iter()
            .map(|r| after[r.clone()].to_string())
            .collect();
        let wrapper = touched.wrapper;
        match hand(move || all_parse(lang, &texts, wrapper)) {
            Some(handed) => Parsing::Sent(handed, lang, touched),
            None => Parsing::Here(lang, touched),
        }
    }

    /// The answer of [`all_parse`] for the pieces of `after` given to [`Parsing::start`].
    pub fn clean(self, after: &str) -> Option<bool> {
        let (lang, touched) = match self {
            Parsing::Here(lang, touched) => (lang, touched),
            Parsing::Sent(handed, lang, touched) => {
                let bytes = touched.pieces.iter().map(ExactSizeIterator::len).sum();
                match handed.answer_within(patience(bytes)) {
                    Some(answer) => return answer,
                    None => (lang, touched),
                }
            }
        };
        let texts = touched.pieces.into_iter().map(|r| &after[r]);
        all_parse(lang, texts, touched.wrapper)
    }
}

/// Largest new file whose whole parse is handed to the worker: its parse (about 0.5 ms at 4 KiB)
/// can end within the write's own time; a larger one's would still be running when the write ends.
pub(crate) const WHOLE_PARSE_BESIDE_UP_TO: usize = 4 << 10;

/// A new file's whole parse under way.
pub(crate) enum WholeParse {
    /// Handed to the worker thread.
    Sent(Handed<Option<Tree>>),
    /// To be parsed on the caller's thread.
    Here,
}

impl WholeParse {
    /// Starts the parse of `text` as `lang`: on the worker (parsing its own copy) when `overlap`
    /// asks for it, the text is at most [`WHOLE_PARSE_BESIDE_UP_TO`] and the worker is idle, else
    /// later on the caller's thread.
    pub fn start(lang: Language, text: &str, overlap: bool) -> WholeParse {
        if let Some(handed) = take_early(lang, text) {
            return WholeParse::Sent(handed);
        }
        if !overlap || text.len() > WHOLE_PARSE_BESIDE_UP_TO {
            return WholeParse::Here;
        }
        let text = text.to_string();
        match hand(move || parse_tree(lang, &text)) {
            Some(handed) => WholeParse::Sent(handed),
            None => WholeParse::Here,
        }
    }

    /// Hands the whole parse of a new file's `text` (as `lang`) to the worker as soon as its call
    /// arrives, ahead of the call's path checks and locks: that call's [`WholeParse::start`], with
    /// the same language and text, takes the parse over (also when it would parse on its own
    /// thread). Nothing is handed for a text over [`WHOLE_PARSE_BESIDE_UP_TO`] or while the worker
    /// is busy. One parse is kept at a time: the next one handed drops a parse no call took.
    /// Returns whether the parse was handed.
    pub fn begin_early(lang: Language, text: &str) -> bool {
        if text.len() > WHOLE_PARSE_BESIDE_UP_TO {
            return false;
        }
        let text: Arc<str> = Arc::from(text);
        let parsed = text.clone();
        let Some(handed) = hand(move || parse_tree(lang, &parsed)) else {
            return false;
        };
        if let Some(dropped) = early().replace(Early { lang, text, handed }) {
            dropped.handed.take_back();
        }
        true
    }

    /// The tree of [`parse_tree`] for the `text` given to [`WholeParse::start`]: the worker's
    /// (waited for at most [`patience`] once it has begun), else parsed here.
    pub fn tree(self, lang: Language, text: &str) -> Option<Tree> {
        match self {
            WholeParse::Sent(handed) => handed
                .answer_within(patience(text.len()))
                .unwrap_or_else(|| parse_tree(lang, text)),
            WholeParse::Here => parse_tree(lang, text),
        }
    }
}

/// A parse handed by [`WholeParse::begin_early`], until its call takes it.
struct Early {
    lang: Language,
    text: Arc<str>,
    handed: Handed<Option<Tree>>,
}

/// The one parse [`WholeParse::begin_early`] keeps (nothing panics under this lock).
fn early() -> std::sync::MutexGuard<'static, Option<Early>> {
    static EARLY: Mutex<Option<Early>> = Mutex::new(None);
    EARLY
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Whether an early parse is kept (no call has taken it yet).
#[cfg(test)]
pub(crate) fn early_kept() -> bool {
    early().is_some()
}

/// Holds off other tests that begin early parses (each keeps the one parse in its place).
#[cfg(test)]
pub(crate) fn serial_early_parses() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: Mutex<()> = Mutex::new(());
    SERIAL
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The early parse of `text` as `lang`, taken out of the keep; `None` when there is none.
fn take_early(lang: Language, text: &str) -> Option<Handed<Option<Tree>>> {
    let mut kept = early();
    match &*kept {
        Some(e) if e.lang == lang && *e.text == *text => kept.take().map(|e| e.handed),
        _ => None,
    }
}

/// Work on the worker's queue, as its caller sees it.
pub(crate) struct Handed<T> {
    claim: Arc<AtomicU8>,
    answer: Receiver<T>,
}

/// [`Job::claim`]: nobody has begun the job, the worker has, or the caller took it back.
const QUEUED: u8 = 0;
const BEGUN: u8 = 1;
const TAKEN_BACK: u8 = 2;

struct Job {
    claim: Arc<AtomicU8>,
    /// Does the work and sends its answer.
    work: Box<dyn FnOnce() + Send>,
}

/// Set while the worker has a job (queued or begun).
static BUSY: AtomicBool = AtomicBool::new(false);

/// Hands `work` to the worker; `None` when the worker is busy or cannot be started (the caller
/// then does the work itself).
fn hand<T: Send + 'static>(work: impl FnOnce() -> T + Send + 'static) -> Option<Handed<T>> {
    if BUSY.swap(true, Ordering::AcqRel) {
        return None;
    }
    let (reply, answer) = sync_channel(1);
    let claim = Arc::new(AtomicU8::new(QUEUED));
    let job = Job {
        claim: claim.clone(),
        work: Box::new(move || {
            // A panic drops `reply`: the caller then does the work itself.
            let done = std::panic::catch_unwind(AssertUnwindSafe(work));
            BUSY.store(false, Ordering::Release);
            if let Ok(answer) = done {
                let _ = reply.send(answer);
            }
        }),
    };
    match worker().and_then(|w| w.lock().ok()?.send(job).ok()) {
        Some(()) => Some(Handed { claim, answer }),
        None => {
            BUSY.store(false, Ordering::Release);
            None
        }
    }
}

/// How long a caller waits for a parse of `bytes` the worker has begun before parsing them
/// itself: twice a parse's own time (about 8 bytes a microsecond) and 100 us more. Waiting beats
/// parsing again from scratch (a 1 KB file parsed whole: ~150 us) unless the worker, at the
/// lowest priority on a busy machine, is starved mid-parse; then the wait is bounded by what a
/// second parse costs.
fn patience(bytes: usize) -> Duration {
    Duration::from_micros(100 + bytes as u64 / 4)
}

impl<T> Handed<T> {
    /// The worker's answer, waited for at most `patience` once it has begun the work; `None`
    /// when the caller takes the work back (the worker has not begun it), the worker failed or
    /// did not answer in time, and the caller must do it itself (a late answer is dropped).
    fn answer_within(self, patience: Duration) -> Option<T> {
        match self.take_back() {
            true => None,
            false => self.answer.recv_timeout(patience).ok(),
        }
    }

    /// Whether the caller took the work back before the worker began it.
    fn take_back(&self) -> bool {
        self.claim
            .compare_exchange(QUEUED, TAKEN_BACK, Ordering::AcqRel, Ordering::Acquire)
            .is_ok()
    }
}

/// The worker's queue, the thread started on first use; `None` when it cannot be started.
fn worker() -> Option<&'static Mutex<Sender<Job>>> {
    static WORKER: OnceLock<Option<Mutex<Sender<Job>>>> = OnceLock::new();
    WORKER
        .get_or_init(|| {
            let (jobs, queue) = channel::<Job>();
            std::thread::Builder::new()
                .name("edit-engine-syntax".into())
                .spawn(move || {
                    lowest_priority();
                    for job in queue {
                        let begun = job
                            .claim
                            .compare_exchange(QUEUED, BEGUN, Ordering::AcqRel, Ordering::Acquire)
                            .is_ok();
                        match begun {
                            true => (job.work)(),
                            false => BUSY.store(false, Ordering::Release),
                        }
                    }
                })
                .ok()?;
            Some(Mutex::new(jobs))
        })
        .as_ref()
}

/// Lowers the calling thread to `SCHED_IDLE`, or to nice 19 where that is refused (Linux only:
/// elsewhere the call would lower the whole process).
fn lowest_priority() {
    #[cfg(target_os = "linux")]
    if !crate::sys::lower_thread_policy(crate::sys::LowPolicy::OnlyWhenIdle) {
        let _ = rustix::process::setpriority_process(None, 19);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::ops::Range;

    const TEXT: &str = "def f():\n    return 1\n\n\ndef g(:\n    pass\n";

    fn pieces(ranges: &[Range<usize>]) -> Touched {
        Touched {
            pieces: ranges.to_vec(),
            wrapper: None,
        }
    }

    fn ranges() -> (Touched, Touched) {
        let g = TEXT.find("def g").unwrap();
        let def_f: Range<usize> = 0..g;
        (
            pieces(&[def_f.clone()][..]),
            pieces(&[def_f, g..TEXT.len()]),
        )
    }

    #[test]
    fn the_worker_answers_as_the_callers_thread_would() {
        let (clean, broken) = ranges();
        for overlap in [false, true] {
            let lang = Language::Python;
            let answer = Parsing::start(lang, TEXT, pieces(&clean.pieces), overlap).clean(TEXT);
            assert_eq!(answer, Some(true));
            let answer = Parsing::start(lang, TEXT, pieces(&broken.pieces), overlap).clean(TEXT);
            assert_eq!(answer, Some(false));
        }
    }

    /// The worker runs under `SCHED_IDLE` (policy 5 in `/proc/thread-self/stat`, field 41), so
    /// waking it never preempts the caller.
    #[cfg(target_os = "linux")]
    #[test]
    fn the_worker_runs_only_when_a_core_is_idle() {
        let policy = || {
            let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
            let after_name = &stat[stat.rfind(')').unwrap() + 1..];
            after_name.split_whitespace().nth(38).unwrap().to_string()
        };
        let handed = loop {
            // Another test's job may hold the worker: try again until it is free.
            match hand(policy) {
                Some(handed) => break handed,
                None => std::thread::sleep(Duration::from_millis(1)),
            }
        };
        let answer = handed.answer.recv_timeout(Duration::from_secs(60));
        assert_eq!(answer.as_deref(), Ok("5"), "the worker's scheduling policy");
        assert_eq!(policy(), "0", "the caller's own policy is untouched");
    }

    #[test]
    fn a_whole_parse_on_the_worker_gives_the_callers_tree() {
        let here = parse_tree(Language::Python, TEXT)
            .unwrap()
            .root_node()
            .to_sexp();
        let started: Vec<WholeParse> = (0..4)
            .map(|i| WholeParse::start(Language::Python, TEXT, i % 2 == 0))
            .collect();
        for parse in started {
            let tree = parse.tree(Language::Python, TEXT).unwrap();
            assert_eq!(tree.root_node().to_sexp(), here);
        }
    }

    /// An early parse is taken over only by the start of the same text in the same language,
    /// which then gets the tree its own parse would give.
    #[test]
    fn an_early_parse_serves_only_its_own_text() {
        const EARLY_TEXT: &str = "def early_only():\n    return [1, 2\n";
        let _serial = serial_early_parses();
        let here = parse_tree(Language::Python, EARLY_TEXT).unwrap();
        // Another test's job may hold the worker: try again until it is free.
        while !WholeParse::begin_early(Language::Python, EARLY_TEXT) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let other_text = WholeParse::start(Language::Python, TEXT, false);
        assert!(
            matches!(other_text, WholeParse::Here),
            "another text took it"
        );
        let other_lang = WholeParse::start(Language::Ruby, EARLY_TEXT, false);
        assert!(
            matches!(other_lang, WholeParse::Here),
            "another language took it"
        );
        let own = WholeParse::start(Language::Python, EARLY_TEXT, false);
        assert!(
            matches!(own, WholeParse::Sent(_)),
            "the early parse was not taken"
        );
        let tree = own.tree(Language::Python, EARLY_TEXT).unwrap();
        assert_eq!(tree.root_node().to_sexp(), here.root_node().to_sexp());
        assert!(tree.root_node().has_error());
        let again = WholeParse::start(Language::Python, EARLY_TEXT, false);
        assert!(
            matches!(again, WholeParse::Here),
            "an early parse served twice"
        );
    }

    /// A job the worker has begun but does not finish is waited for only until the patience
    /// runs out: the caller then does the work itself.
    #[test]
    fn a_begun_job_is_waited_for_only_so_long() {
        let (release, held) = std::sync::mpsc::channel::<()>();
        let held = Arc::new(Mutex::new(held));
        let handed = loop {
            let held = held.clone();
            // Another test's job may hold the worker: try again until it is free.
            match hand(move || held.lock().unwrap().recv().is_ok()) {
                Some(handed) => break handed,
                None => std::thread::sleep(Duration::from_millis(1)),
            }
        };
        while handed.claim.load(Ordering::Acquire) == QUEUED {
            std::thread::sleep(Duration::from_millis(1));
        }
        let answer = handed.answer_within(Duration::from_millis(20));
        release.send(()).unwrap();
        assert_eq!(
            answer, None,
            "the caller waited for a worker that did not answer"
        );
        let quick = loop {
            match hand(|| 7) {
                Some(handed) => break handed,
                None => std::thread::sleep(Duration::from_millis(1)),
            }
        };
        while quick.claim.load(Ordering::Acquire) == QUEUED {
            std::thread::sleep(Duration::from_millis(1));
        }
        assert_eq!(quick.answer_within(Duration::from_secs(30)), Some(7));
    }

    #[test]
    fn checks_started_together_all_get_their_answers() {
        let (clean, broken) = ranges();
        let started: Vec<(Parsing, bool)> = (0..8)
            .map(|i| {
                let wanted = if i % 2 == 0 { &clean } else { &broken };
                let parsing = Parsing::start(Language::Python, TEXT, pieces(&wanted.pieces), true);
                (parsing, i % 2 == 0)
            })
            .collect();
        for (parsing, clean) in started {
            assert_eq!(parsing.clean(TEXT), Some(clean));
        }
    }
}
