//! A small LRU of parse trees keyed by path + exact content, reused incrementally after our own edits.

use std::path::{Path, PathBuf};

use parking_lot::Mutex;
use tree_sitter::{InputEdit, Tree};

use super::chunked::find_all_symbols_chunked;
use super::grammar::Language;
use super::locate::{find_all_symbols_in_tree, list_symbols_in_tree};
use super::parsing::{new_parser, parse_with, text_edit};
use super::plan::ByteEdit;
use super::{SymbolError, SymbolInfo};

/// Default number of files kept.
pub const DEFAULT_CAPACITY: usize = 8;

struct Entry {
    path: PathBuf,
    lang: Language,
    /// The text `tree` describes (after `record_edit`, the edited text, whose tree still needs a re-parse).
    source: String,
    tree: Tree,
    /// The tree was edited with [`Tree::edit`] and must be re-parsed (incrementally) before use.
    stale: bool,
}

/// Recently parsed trees, most recent first. A lookup hits only when path, language and the whole content
/// are equal, so a hit can never describe other text. Thread-safe; parsing happens outside the lock.
pub struct ParseCache {
    entries: Mutex<Vec<Entry>>,
    capacity: usize,
}

impl Default for ParseCache {
    fn default() -> Self {
        ParseCache::new(DEFAULT_CAPACITY)
    }
}

impl ParseCache {
    /// A cache holding at most `capacity` trees (at least one).
    pub fn new(capacity: usize) -> Self {
        ParseCache {
            entries: Mutex::new(Vec::new()),
            capacity: capacity.max(1),
        }
    }

    /// The tree of `source` for `path`: a cached one, an incremental re-parse after [`Self::record_edit`], or
    /// a fresh parse.
    pub fn tree(&self, path: &Path, source: &str, lang: Language) -> Result<Tree, SymbolError> {
        match self.fresh_tree(path, source, lang) {
            Some(tree) => Ok(tree),
            None => self.parse_and_store(path, source, lang),
        }
    }

    /// Parses `source` (incrementally when the cache holds an edited tree of it) and caches the tree.
    fn parse_and_store(
        &self,
        path: &Path,
        source: &str,
        lang: Language,
    ) -> Result<Tree, SymbolError> {
        let previous = self
            .entries
            .lock()
            .iter()
            .find(|e| e.path == path && e.lang == lang && e.source == source)
            .map(|e| e.tree.clone());
        let mut parser = new_parser(lang)?;
        let tree = parse_with(&mut parser, source, lang, previous.as_ref())?;
        self.store(path, lang, source.to_string(), tree.clone(), false);
        Ok(tree)
    }

    /// [`super::find_all_symbols`] through the cache: a cached tree of exactly `source` when there is one,
    /// else [`find_all_symbols_chunked`] (which caches nothing), else a parse that is cached.
    pub fn find_all_symbols(
        &self,
        path: &Path,
        source: &str,
        lang: Language,
        name: &str,
    ) -> Result<Vec<SymbolInfo>, SymbolError> {
        if let Some(tree) = self.fresh_tree(path, source, lang) {
            return find_all_symbols_in_tree(&tree, source, lang, name);
        }
        if let Some(found) = find_all_symbols_chunked(source, lang, name) {
            return found;
        }
        let tree = self.parse_and_store(path, source, lang)?;
        find_all_symbols_in_tree(&tree, source, lang, name)
    }

    /// The cached tree of exactly `source`, when one needs no re-parse (it becomes the most recent).
    fn fresh_tree(&self, path: &Path, source: &str, lang: Language) -> Option<Tree> {
        let mut entries = self.entries.lock();
        let i = entries
            .iter()
            .position(|e| e.path == path && e.lang == lang && !e.stale && e.source == source)?;
        let e = entries.remove(i);
        let tree = e.tree.clone();
        entries.insert(0, e);
        Some(tree)
    }

    /// The cached tree of exactly `source` when one is there and needs no re-parse; never parses.
    pub fn cached_tree(&self, path: &Path, source: &str, lang: Language) -> Option<Tree> {
        self.fresh_tree(path, source, lang)
    }

    /// Caches `tree`, a complete parse of `source`, as `path`'s tree (replacing the path's previous one).
    pub fn insert(&self, path: &Path, lang: Language, source: String, tree: Tree) {
        self.store(path, lang, source, tree, false);
    }

    /// [`super::list_symbols`] through the cache.
    pub fn list_symbols(
        &self,
        path: &Path,
        source: &str,
        lang: Language,
    ) -> Result<Vec<SymbolInfo>, SymbolError> {
        let tree = self.tree(path, source, lang)?;
        list_symbols_in_tree(&tree, source, lang)
    }

    /// Tells the cache that `old_source` of `path` became `new_source` by `edit` (after the write
    /// succeeded). When the cached tree is of `old_source`, it is edited so the next lookup
    /// re-parses incrementally.
    pub fn record_edit(
        &self,
        path: &Path,
        lang: Language,
        old_source: &str,
        new_source: &str,
        edit: ByteEdit,
    ) {
        let mut entries = self.entries.lock();
        let Some(i) = entries
            .iter()
            .position(|e| e.path == path && e.lang == lang)
        else {
            return;
        };
        if entries[i].source != old_source || entries[i].stale {
            entries.remove(i);
            return;
        }
        let e = &mut entries[i];
        match input_edit(old_source, new_source, edit) {
            Some(edit) => {
                e.tree.edit(&edit);
                e.source = new_source.to_string();
                e.stale = true;
            }
            None => {
                entries.remove(i);
            }
        }
    }

    /// Number of cached trees.
    pub fn len(&self) -> usize {
        self.entries.lock().len()
    }

    /// Whether the cache holds no tree.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Caches `tree` as the newest entry; the entries it replaces or pushes out are freed on the
    /// background thread (freeing a tree walks all its nodes: ~15 us for a 1 KB file's, on the
    /// call's path when a create of the same file replaced it).
    fn store(&self, path: &Path, lang: Language, source: String, tree: Tree, stale: bool) {
        let gone = {
            let mut entries = self.entries.lock();
            let (mut gone, mut kept): (Vec<Entry>, Vec<Entry>) = std::mem::take(&mut *entries)
                .into_iter()
                .partition(|e| e.path == path && e.lang == lang);
            kept.insert(
                0,
                Entry {
                    path: path.to_path_buf(),
                    lang,
                    source,
                    tree,
                    stale,
                },
            );
            gone.extend(kept.drain(self.capacity.min(kept.len())..));
            *entries = kept;
            gone
        };
        if !gone.is_empty() {
            use crate::fs::background::{submit_or_run, Job};
            submit_or_run(Job::Task(Box::new(move || drop(gone))));
        }
    }
}

/// The tree-sitter edit for a plan, `None` when the plan's offsets do not fit the texts.
fn input_edit(old: &str, new: &str, e: ByteEdit) -> Option<InputEdit> {
    if e.start_byte > e.old_end_byte || e.old_end_byte > old.len() || e.new_end_byte > new.len() {
        return None;
    }
    if old.get(..e.start_byte) != new.get(..e.start_byte) {
        return None;
    }
    Some(text_edit(
        old,
        new,
        e.start_byte,
        e.old_end_byte,
        e.new_end_byte,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::symbols::parsing::parse;

    /// A new tree replaces its path's older one and pushes the oldest path out past the
    /// capacity; the trees kept are the ones of their exact texts.
    #[test]
    fn trees_are_replaced_per_path_and_kept_up_to_the_capacity() {
        let cache = ParseCache::new(2);
        let lang = Language::JavaScript;
        let put = |path: &str, text: &str| {
            cache.insert(
                Path::new(path),
                lang,
                text.to_string(),
                parse(text, lang).unwrap(),
            )
        };
        put("/a.js", "let a = 1;");
        put("/a.js", "let a = 2;");
        put("/b.js", "let b = 1;");
        let kept = |path: &str, text: &str| cache.cached_tree(Path::new(path), text, lang);
        assert!(
            kept("/a.js", "let a = 1;").is_none(),
            "the replaced tree is kept"
        );
        assert!(kept("/a.js", "let a = 2;").is_some());
        put("/c.js", "let c = 1;");
        put("/d.js", "let d = 1;");
        assert!(
            kept("/a.js", "let a = 2;").is_none(),
            "a pushed-out tree is kept"
        );
        let tree = kept("/d.js", "let d = 1;").unwrap();
        assert_eq!(
            tree.root_node().to_sexp(),
            parse("let d = 1;", lang).unwrap().root_node().to_sexp()
        );
        assert!(kept("/c.js", "let c = 1;").is_some());
        crate::fs::background::flush();
    }
}
