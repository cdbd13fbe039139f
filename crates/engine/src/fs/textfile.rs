//! Reading text with fidelity: UTF-8 only, BOM kept, CRLF files edited through an LF view.
use super::FsError;
use std::path::Path;

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
        let _ = (bytes, display);
        todo!("fs::textfile::TextFile::decode")
    }

    /// Bytes for writing `text` (an LF-view string) back in this file's style: BOM restored,
    /// LF -> CRLF for `Crlf` files.
    pub fn encode(&self, text: &str) -> Vec<u8> {
        let _ = text;
        todo!("fs::textfile::TextFile::encode")
    }

    /// Brings caller-supplied text (an `old_string`, a `new_string`) into the LF view: CRLF -> LF
    /// for `Crlf` files, unchanged otherwise.
    pub fn to_view<'a>(&self, input: &'a str) -> std::borrow::Cow<'a, str> {
        let _ = input;
        todo!("fs::textfile::TextFile::to_view")
    }
}

/// Reads and decodes a regular file. `max_bytes` caps the size (error `TooLarge`).
/// Errors: `NotFound`, `NotAFile`, `TooLarge`, `Binary`, `NotUtf8`, `Io`.
pub fn read_text(path: &Path, display: &str, max_bytes: Option<u64>) -> Result<TextFile, FsError> {
    let _ = (path, display, max_bytes);
    todo!("fs::textfile::read_text")
}
