//! Top-level statement boundaries of JavaScript and TypeScript source, found by a lexical scan.
//!
//! [`top_level_starts`] splits a file into pieces that tree-sitter parses exactly as it parses them inside
//! the whole file, so a symbol lookup can parse only the pieces that mention the name. A boundary is the
//! start of a line such that:
//! - the scan is in plain code there (not in a string, template, comment or regex) with no `{`, `(`, `[`
//!   or `${` open;
//! - the last token before it is a `;` or a `}` closing a top-level block, on an earlier line;
//! - the first token after it (past comments) starts a declaration: `function`, `class`, `const`, `let`,
//!   `var`, `export`, `import`, `async`, a decorator `@`, or (TypeScript) `interface`, `type`, `enum`,
//!   `declare`, `abstract`, `namespace`, `module`.
//!
//! A `;` or top-level `}` ends the statement before it, and none of those first tokens can continue a
//! statement (unlike `else`, `while`, `catch`, `(`, `[`, `.` or an operator), so both sides parse alone as
//! they do together. Comments between the two tokens go with the declaration, as doc comments must.
//!
//! The scan gives up (`None`) on anything it cannot vouch for: an unterminated string, comment, template or
//! regex, unbalanced brackets, JSX (`<` where an expression starts, JavaScript only), HTML-like comments,
//! a `\` escape in an identifier, and a `/` that could be division or a regex when the two readings would
//! lex the rest of its line differently. Callers then parse the whole file.

use super::grammar::Language;

/// Byte offsets where top-level pieces start, ascending, always beginning with 0; `None` when the file
/// cannot be split safely (see the module docs) or `lang` is not JavaScript or TypeScript.
pub(crate) fn top_level_starts(src: &str, lang: Language) -> Option<Vec<usize>> {
    let typescript = match lang {
        Language::JavaScript => false,
        Language::TypeScript => true,
        _ => return None,
    };
    if memchr::memmem::find(src.as_bytes(), b"<!--").is_some() || has_html_close_comment(src) {
        return None;
    }
    Scanner {
        src: src.as_bytes(),
        typescript,
        pos: 0,
        open: Vec::new(),
        prev: Prev::Start,
        statement_ended: false,
        pending: None,
        starts: vec![0],
    }
    .run()
}

/// What an open bracket is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Open {
    Brace,
    Paren,
    Bracket,
    /// A `${` inside a template literal: its `}` resumes the template.
    Substitution,
}

/// The previous significant token, as far as telling a regex from a division (and JSX from `<`) needs.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Prev {
    /// Start of the file.
    Start,
    /// An operator or opening punctuation: an expression starts next.
    Operator,
    /// `)`, `++`, `--` (and TypeScript's postfix `!`): either an expression ended or a new one starts.
    Ambiguous,
    /// `}`: a block ended (an expression starts next) or an object literal did (it ended).
    Brace,
    /// `.`: a property name follows, even when it is spelled like a keyword.
    Dot,
    /// An identifier, number, string, template, regex or `]`: an expression ended.
    Value,
    /// A keyword after which an expression starts (`return`, `typeof`, ...).
    ExpressionKeyword,
}

struct Scanner<'a> {
    src: &'a [u8],
    typescript: bool,
    pos: usize,
    open: Vec<Open>,
    prev: Prev,
    /// The last token was a `;` or a `}` at the top level.
    statement_ended: bool,
    /// The start of the first line after that token, while only white space and comments followed.
    pending: Option<usize>,
    starts: Vec<usize>,
}

/// Keywords after which a `/` starts a regex (an expression starts there).
fn is_expression_keyword(word: &[u8]) -> bool {
    matches!(
        word,
        b"return"
            | b"typeof"
            | b"instanceof"
            | b"in"
            | b"of"
            | b"new"
            | b"delete"
            | b"void"
            | b"throw"
            | b"case"
            | b"do"
            | b"else"
            | b"yield"
            | b"await"
            | b"extends"
    )
}

/// Whether `word` may start a piece (see the module docs).
fn is_declaration_start(word: &[u8], typescript: bool) -> bool {
    matches!(
        word,
        b"function" | b"class" | b"const" | b"let" | b"var" | b"export" | b"import" | b"async"
    ) || (typescript
        && matches!(
            word,
            b"interface" | b"type" | b"enum" | b"declare" | b"abstract" | b"namespace" | b"module"
        ))
}

impl Scanner<'_> {
    fn run(mut self) -> Option<Vec<usize>> {
        if self.src.starts_with(b"#!") {
            self.pos = self.line_end(0);
        }
        while let Some(&b) = self.src.get(self.pos) {
            match b {
                b'\n' => {
                    self.pos += 1;
                    if self.statement_ended && self.pending.is_none() && self.open.is_empty() {
                        self.pending = Some(self.pos);
                    }
                }
                b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => self.pos += 1,
                b'/' => self.slash()?,
                _ => {
                    self.token_starts();
                    self.token(b)?;
                }
            }
        }
        if !self.open.is_empty() {
            return None;
        }
        Some(self.starts)
    }

    /// Called at the first byte of every significant token: commits or drops a pending boundary.
    #[inline]
    fn token_starts(&mut self) {
        if let Some(start) = self.pending.take() {
            if self.open.is_empty() && self.starts_declaration() {
                self.starts.push(start);
            }
        }
        self.statement_ended = false;
    }

    fn starts_declaration(&self) -> bool {
        if self.src[self.pos] == b'@' {
            return true;
        }
        is_declaration_start(
            &self.src[self.pos..self.word_end(self.pos)],
            self.typescript,
        )
    }

    fn token(&mut self, b: u8) -> Option<()> {
        match b {
            b'\'' | b'"' => {
                self.string(b)?;
                self.prev = Prev::Value;
            }
            b'`' => {
                self.pos += 1;
                self.template()?;
            }
            b'{' | b'(' | b'[' => {
                self.open.push(match b {
                    b'{' => Open::Brace,
                    b'(' => Open::Paren,
                    _ => Open::Bracket,
                });
                self.pos += 1;
                self.prev = Prev::Operator;
            }
            b'}' => {
                self.pos += 1;
                match self.open.pop()? {
                    Open::Brace => {
                        self.prev = Prev::Brace;
                        self.statement_ended = self.open.is_empty();
                    }
                    Open::Substitution => self.template()?,
                    _ => return None,
                }
            }
            b')' | b']' => {
                let expected = if b == b')' {
                    Open::Paren
                } else {
                    Open::Bracket
                };
                if self.open.pop()? != expected {
                    return None;
                }
                self.pos += 1;
                self.prev = if b == b')' {
                    Prev::Ambiguous
                } else {
                    Prev::Value
                };
            }
            b';' => {
                self.pos += 1;
                self.prev = Prev::Operator;
                self.statement_ended = self.open.is_empty();
            }
            b'<' => {
                let jsx_position = matches!(
                    self.prev,
                    Prev::Start | Prev::Operator | Prev::ExpressionKeyword | Prev::Brace
                );
                if !self.typescript && jsx_position {
                    return None;
                }
                self.pos += 1;
                self.prev = Prev::Operator;
            }
            b'+' | b'-' if self.src.get(self.pos + 1) == Some(&b) => {
                self.pos += 2;
                self.prev = Prev::Ambiguous;
            }
            b'!' if self.typescript && self.prev == Prev::Value => {
                self.pos += 1;
                self.prev = Prev::Ambiguous;
            }
            b'.' if self.src.get(self.pos + 1).is_some_and(u8::is_ascii_digit) => self.number(),
            b'0'..=b'9' => self.number(),
            // An escape in code spells an identifier (`\u0061`), which this scan does not decode.
            b'\\' => return None,
            _ if is_word_byte(b) || b == b'#' => {
                let end = self.word_end(self.pos + 1);
                let word = &self.src[self.pos..end];
                self.prev = if self.prev != Prev::Dot && is_expression_keyword(word) {
                    Prev::ExpressionKeyword
                } else {
                    Prev::Value
                };
                self.pos = end;
            }
            b'.' => {
                self.pos += 1;
                self.prev = Prev::Dot;
            }
            _ => {
                self.pos += 1;
                self.prev = Prev::Operator;
            }
        }
        Some(())
    }

    /// A `/`: a comment, a regex or a division.
    fn slash(&mut self) -> Option<()> {
        match self.src.get(self.pos + 1) {
            Some(b'/') => self.pos = self.line_end(self.pos),
            Some(b'*') => {
                let body = self.pos + 2;
                let close = memchr::memmem::find(&self.src[body..], b"*/")?;
                self.pos = body + close + 2;
            }
            _ => {
                self.token_starts();
                let regex = match self.prev {
                    Prev::Start | Prev::Operator | Prev::ExpressionKeyword | Prev::Dot => true,
                    Prev::Value => false,
                    Prev::Ambiguous | Prev::Brace => {
                        // Either reading is safe when no second `/` on the line could close a regex, or
                        // when the line holds nothing whose lexing depends on the reading.
                        let rest = &self.src[self.pos + 1..self.line_end(self.pos)];
                        if rest.contains(&b'/')
                            && (rest.iter().any(|c| b"'\"`{}()[]".contains(c))
                                || memchr::memmem::find(rest, b"/*").is_some())
                        {
                            return None;
                        }
                        false
                    }
                };
                if regex {
                    self.regex()?;
                    self.prev = Prev::Value;
                } else {
                    self.pos += 1;
                    self.prev = Prev::Operator;
                }
            }
        }
        Some(())
    }

    /// A string literal starting at `self.pos` with `quote`; `None` when a line ends inside it.
    fn string(&mut self, quote: u8) -> Option<()> {
        let mut i = self.pos + 1;
        loop {
            match *self.src.get(i)? {
                b'\\' => i += 2,
                b'\n' => return None,
                c if c == quote => break,
                _ => i += 1,
            }
        }
        self.pos = i + 1;
        Some(())
    }

    /// Template text from `self.pos` up to its closing backtick or next `${`.
    fn template(&mut self) -> Option<()> {
        let mut i = self.pos;
        loop {
            match *self.src.get(i)? {
                b'\\' => i += 2,
                b'`' => {
                    self.pos = i + 1;
                    self.prev = Prev::Value;
                    return Some(());
                }
                b'$' if self.src.get(i + 1) == Some(&b'{') => {
                    self.open.push(Open::Substitution);
                    self.pos = i + 2;
                    self.prev = Prev::Operator;
                    return Some(());
                }
                _ => i += 1,
            }
        }
    }

    /// A regex literal starting at the `/` at `self.pos`, with its flags.
    fn regex(&mut self) -> Option<()> {
        let mut i = self.pos + 1;
        let mut class = false;
        loop {
            match *self.src.get(i)? {
                b'\\' => {
                    if matches!(self.src.get(i + 1), Some(b'\n') | None) {
                        return None;
                    }
                    i += 2;
                }
                b'\n' => return None,
                b'[' => {
                    class = true;
                    i += 1;
                }
                b']' => {
                    class = false;
                    i += 1;
                }
                b'/' if !class => break,
                _ => i += 1,
            }
        }
        self.pos = self.word_end(i + 1);
        Some(())
    }

    fn number(&mut self) {
        let mut i = self.pos + 1;
        while self
            .src
            .get(i)
            .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_' || c == b'.')
        {
            i += 1;
        }
        self.pos = i;
        self.prev = Prev::Value;
    }

    /// The end of the identifier-like run starting at `from`.
    fn word_end(&self, from: usize) -> usize {
        let mut i = from;
        while self.src.get(i).is_some_and(|&c| is_word_byte(c)) {
            i += 1;
        }
        i
    }

    /// The offset of the `\n` ending the line holding `pos` (or the end of the source).
    fn line_end(&self, pos: usize) -> usize {
        memchr::memchr(b'\n', &self.src[pos..]).map_or(self.src.len(), |i| pos + i)
    }
}

/// Identifier bytes; every non-ASCII byte counts, so no multi-byte character is split.
#[inline]
pub(super) fn is_word_byte(b: u8) -> bool {
    WORD_BYTES[b as usize]
}

/// [`is_word_byte`] as a table (the scan's hottest test).
static WORD_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        table[b] = c.is_ascii_alphanumeric() || c == b'_' || c == b'$' || c >= 0x80;
        b += 1;
    }
    table
};

/// Whether a line starts (after blanks) with `-->`, which scripts treat as a comment.
fn has_html_close_comment(src: &str) -> bool {
    let bytes = src.as_bytes();
    memchr::memmem::find_iter(bytes, b"-->").any(|at| {
        bytes[..at]
            .iter()
            .rev()
            .take_while(|&&b| b != b'\n')
            .all(|b| b.is_ascii_whitespace())
    })
}

#[cfg(test)]
mod tests;
