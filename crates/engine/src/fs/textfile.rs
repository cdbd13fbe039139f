//! Reading text with fidelity: UTF-8 only, BOM kept, CRLF files edited through an LF view.
//!
//! `TextFile::decode(b).encode(&text)` is byte-identical to `b` for every accepted `b`: the BOM
//! is remembered, and only a file whose line endings are all `\r\n` gets an LF view.
use super::FsError;
use std::borrow::Cow;
use std::io::Read;
use std::path::Path;

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// Line-ending style of a file. Only a file whose every `\n` is preceded by `\r` (and with no lone
/// `\r`) is `Crlf`; files with mixed endings are `Lf` and edited byte-for-byte as they are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnding {
    Lf,
    Crlf,
}

/// A decoded text file: the LF view that matching works on, plus what is needed to write it back
/// in the file's own style.
#[derive(Debug, Clone)]
pub struct TextFile {
    /// The content without BOM, with CRLF turned into LF when `line_ending` is `Crlf`.
    pub text: String,
    pub bom: bool,
    pub line_ending: LineEnding,
}

impl TextFile {
    /// Pure decoding of raw bytes. Refuses NUL bytes (`Binary`) and invalid UTF-8 (`NotUtf8`).
    pub fn decode(bytes: Vec<u8>, display: &str) -> Result<TextFile, FsError> {
        let bom = bytes.starts_with(BOM);
        let mut bytes = bytes;
        if bom {
            bytes.drain(..BOM.len());
        }
        if memchr::memchr(0, &bytes).is_some() {
            return Err(FsError::Binary {
                display: display.to_string(),
            });
        }
        let text = String::from_utf8(bytes).map_err(|_| FsError::NotUtf8 {
            display: display.to_string(),
        })?;
        let line_ending = detect_line_ending(text.as_bytes());
        let text = match line_ending {
            LineEnding::Crlf => text.replace("\r\n", "\n"),
            LineEnding::Lf => text,
        };
        Ok(TextFile {
            text,
            bom,
            line_ending,
        })
    }

    /// Whether this file's text is written as it is (no BOM, LF endings): [`Self::encode`]
    /// borrows it.
    pub fn encodes_verbatim(&self) -> bool {
        !self.bom && self.line_ending == LineEnding::Lf
    }

    /// Bytes for writing `text` (an LF-view string) back in this file's style: BOM restored,
    /// LF -> CRLF for `Crlf` files. In a `Crlf` file a `\n` already preceded by `\r` is kept as it
    /// is (never `\r\r\n`). A file with neither BOM nor CRLF borrows `text` (no copy).
    pub fn encode<'a>(&self, text: &'a str) -> Cow<'a, [u8]> {
        if self.encodes_verbatim() {
            return Cow::Borrowed(text.as_bytes());
        }
        let mut out = Vec::with_capacity(text.len() + if self.bom { 3 } else { 0 });
        if self.bom {
            out.extend_from_slice(BOM);
        }
        match self.line_ending {
            LineEnding::Lf => out.extend_from_slice(text.as_bytes()),
            LineEnding::Crlf => {
                let bytes = text.as_bytes();
                let mut start = 0;
                for nl in memchr::memchr_iter(b'\n', bytes) {
                    out.extend_from_slice(&bytes[start..nl]);
                    if nl == 0 || bytes[nl - 1] != b'\r' {
                        out.push(b'\r');
                    }
                    out.push(b'\n');
                    start = nl + 1;
                }
                out.extend_from_slice(&bytes[start..]);
            }
        }
        Cow::Owned(out)
    }

    /// Brings caller-supplied text (an `old_string`, a `new_string`) into the LF view: CRLF -> LF
    /// for `Crlf` files, unchanged otherwise.
    pub fn to_view<'a>(&self, input: &'a str) -> Cow<'a, str> {
        if self.line_ending == LineEnding::Crlf && input.contains("\r\n") {
            Cow::Owned(input.replace("\r\n", "\n"))
        } else {
            Cow::Borrowed(input)
        }
    }
}

/// `Crlf` iff there is at least one `\n`, every `\n` follows a `\r`, and every `\r` precedes a `\n`.
fn detect_line_ending(bytes: &[u8]) -> LineEnding {
    let mut newlines = 0usize;
    for i in memchr::memchr2_iter(b'\r', b'\n', bytes) {
        let ok = match bytes[i] {
            b'\n' => {
                newlines += 1;
                i > 0 && bytes[i - 1] == b'\r'
            }
            _ => bytes.get(i + 1) == Some(&b'\n'),
        };
        if !ok {
            return LineEnding::Lf;
        }
    }
    if newlines > 0 {
        LineEnding::Crlf
    } else {
        LineEnding::Lf
    }
}

/// Reads and decodes a regular file. `max_bytes` caps the size (error `TooLarge`).
/// Errors: `NotFound`, `NotAFile`, `TooLarge`, `Binary`, `NotUtf8`, `Io`.
///
/// The size is checked from metadata before reading and again while reading (a file that grows
/// past the cap meanwhile is refused too). FIFOs and devices are refused without blocking.
pub fn read_text(path: &Path, display: &str, max_bytes: Option<u64>) -> Result<TextFile, FsError> {
    let bytes = read_bytes(path, display, max_bytes)?;
    TextFile::decode(bytes, display)
}

/// [`read_text`] for a real path the guard has checked (see [`read_bytes_confined`]).
pub fn read_text_confined(
    real_path: &Path,
    display: &str,
    max_bytes: Option<u64>,
) -> Result<TextFile, FsError> {
    TextFile::decode(read_bytes_confined(real_path, display, max_bytes)?, display)
}

/// [`read_bytes`] for a real path the guard has checked: the file is opened relative to its
/// folder, which is opened one component at a time without following symlinks, and the file itself
/// without following a symlink (see [`super::atomic::write_atomic_confined`]). A symlink swapped in
/// after the check is refused with `Changed` instead of being read through.
pub fn read_bytes_confined(
    real_path: &Path,
    display: &str,
    max_bytes: Option<u64>,
) -> Result<Vec<u8>, FsError> {
    let file = super::atomic::open_confined(real_path, display)?;
    let meta = file.metadata().map_err(inspect_error(display))?;
    if is_foreign_hard_link(&meta) {
        return Err(FsError::ForeignHardLink {
            display: display.to_string(),
        });
    }
    read_checked(file, &meta, display, max_bytes)
}

/// The rule for reading hard-linked files (the one home of it, applied by every confined read:
/// view and edits through [`read_bytes_confined`], grep's search): a file with several links is
/// read only when it belongs to this user (package stores link the user's own files); one owned
/// by someone else may be a link to a file outside the workspace, so it is not read.
pub fn is_foreign_hard_link(meta: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    meta.is_file() && meta.nlink() > 1 && meta.uid() != crate::sys::effective_uid()
}

/// Reads a regular file's raw bytes with the same checks as [`read_text`].
pub fn read_bytes(path: &Path, display: &str, max_bytes: Option<u64>) -> Result<Vec<u8>, FsError> {
    let meta = std::fs::metadata(path).map_err(|e| not_found_or(e, display, "read"))?;
    check_regular(&meta, display, max_bytes)?;
    let file = open_nonblocking(path).map_err(|e| not_found_or(e, display, "open"))?;
    read_open(file, display, max_bytes)
}

/// Reads an opened file after checking (on the open file) that it is regular and within the cap.
fn read_open(
    file: std::fs::File,
    display: &str,
    max_bytes: Option<u64>,
) -> Result<Vec<u8>, FsError> {
    let meta = file.metadata().map_err(inspect_error(display))?;
    read_checked(file, &meta, display, max_bytes)
}

/// The error of a failed status call on an open file.
fn inspect_error(display: &str) -> impl FnOnce(std::io::Error) -> FsError + '_ {
    move |source| FsError::Io {
        op: "inspect",
        display: display.to_string(),
        source,
    }
}

/// [`read_open`] given the open file's status `meta`.
fn read_checked(
    file: std::fs::File,
    meta: &std::fs::Metadata,
    display: &str,
    max_bytes: Option<u64>,
) -> Result<Vec<u8>, FsError> {
    let io = |op: &'static str| {
        move |source: std::io::Error| FsError::Io {
            op,
            display: display.to_string(),
            source,
        }
    };
    check_regular(meta, display, max_bytes)?;
    let cap = max_bytes.unwrap_or(u64::MAX);
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0).min(1 << 30));
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(io("read"))?;
    if bytes.len() as u64 > cap {
        return Err(FsError::TooLarge {
            display: display.to_string(),
            size: bytes.len() as u64,
            max: cap,
        });
    }
    Ok(bytes)
}

fn check_regular(
    meta: &std::fs::Metadata,
    display: &str,
    max_bytes: Option<u64>,
) -> Result<(), FsError> {
    if !meta.is_file() {
        return Err(FsError::NotAFile {
            display: display.to_string(),
        });
    }
    match max_bytes {
        Some(max) if meta.len() > max => Err(FsError::TooLarge {
            display: display.to_string(),
            size: meta.len(),
            max,
        }),
        _ => Ok(()),
    }
}

fn not_found_or(e: std::io::Error, display: &str, op: &'static str) -> FsError {
    if e.kind() == std::io::ErrorKind::NotFound {
        FsError::NotFound {
            display: display.to_string(),
        }
    } else {
        FsError::Io {
            op,
            display: display.to_string(),
            source: e,
        }
    }
}

fn open_nonblocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

/// Test set-up of the hard-link rule: in `ws`, `link.txt` is a hard link to a file owned by another
/// user (uid 4242) holding `foreign`, and `own.txt` one to the caller's own file holding `own`; both
/// targets live in the returned folder. `None` unless running as root (giving a file away needs it).
#[cfg(test)]
pub(crate) fn hard_links_to_foreign_and_own(
    ws: &Path,
    foreign: &str,
    own: &str,
) -> Option<tempfile::TempDir> {
    if crate::sys::effective_uid() != 0 {
        return None;
    }
    let outside = tempfile::tempdir().unwrap();
    let shadow = outside.path().join("shadow");
    std::fs::write(&shadow, foreign).unwrap();
    std::os::unix::fs::chown(&shadow, Some(4242), Some(4242)).unwrap();
    std::fs::hard_link(&shadow, ws.join("link.txt")).unwrap();
    let mine = outside.path().join("own");
    std::fs::write(&mine, own).unwrap();
    std::fs::hard_link(&mine, ws.join("own.txt")).unwrap();
    Some(outside)
}

#[cfg(test)]
mod tests;
