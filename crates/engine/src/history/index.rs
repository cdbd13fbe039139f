//! Per-file level lists (`index/<key>.json`) and size-bounded eviction across all files.
use super::{hex, store_fs, HistoryEntry, HistoryError};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashMap};
use std::path::{Path, PathBuf};

/// The levels of one file, oldest first.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct Index {
    pub path: String,
    pub entries: Vec<HistoryEntry>,
    /// Where this index lives (not serialized).
    #[serde(skip)]
    file: PathBuf,
}

impl Index {
    /// The index of `path`; empty when there is none or it cannot be parsed.
    pub fn load(dir: &Path, path: &Path) -> Index {
        let key = hex(&Sha256::digest(path.to_string_lossy().as_bytes()));
        let file = dir.join("index").join(format!("{key}.json"));
        let mut idx = Index::read_file(&file).unwrap_or_default();
        idx.path = path.to_string_lossy().into_owned();
        idx.file = file;
        idx
    }

    fn read_file(file: &Path) -> Option<Index> {
        let bytes = std::fs::read(file).ok()?;
        let mut idx: Index = serde_json::from_slice(&bytes).ok()?;
        idx.file = file.to_path_buf();
        Some(idx)
    }

    /// Writes the index atomically (removes it when it has no entries).
    pub fn save(&self) -> Result<(), HistoryError> {
        if self.entries.is_empty() {
            return self.remove_file();
        }
        let json = serde_json::to_vec(self).map_err(|e| HistoryError::Io {
            op: "serialize the index of",
            path: self.path.clone(),
            source: std::io::Error::other(e),
        })?;
        store_fs::write_whole(&self.file, &json)
    }

    /// Forgets every level (the blobs are collected by the next eviction).
    pub fn remove(&mut self) -> Result<(), HistoryError> {
        self.entries.clear();
        self.remove_file()
    }

    fn remove_file(&self) -> Result<(), HistoryError> {
        match std::fs::remove_file(&self.file) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(source) => Err(HistoryError::Io {
                op: "remove the index of",
                path: self.path.clone(),
                source,
            }),
        }
    }
}

/// Brings the blobs under `max_bytes`: unreferenced blobs go first, then the oldest levels of all
/// files (always from the old end of a file's chain).
pub(super) fn evict(dir: &Path, max_bytes: u64) -> Result<(), HistoryError> {
    let mut indexes = load_all(dir);
    let mut refs: HashMap<String, usize> = HashMap::new();
    for e in indexes.iter().flat_map(|i| &i.entries) {
        *refs.entry(e.sha256.clone()).or_default() += 1;
    }
    let mut sizes: HashMap<String, u64> = HashMap::new();
    let mut total = 0u64;
    for (name, size) in store_fs::objects(dir) {
        if refs.contains_key(&name) {
            total += size;
            sizes.insert(name, size);
        } else {
            store_fs::remove_object(dir, &name);
        }
    }
    let mut heap: BinaryHeap<Reverse<(u64, usize)>> = indexes
        .iter()
        .enumerate()
        .filter_map(|(i, idx)| idx.entries.first().map(|e| Reverse((e.timestamp, i))))
        .collect();
    let mut dirty = vec![false; indexes.len()];
    while total > max_bytes {
        let Some(Reverse((_, i))) = heap.pop() else {
            break;
        };
        let e = indexes[i].entries.remove(0);
        dirty[i] = true;
        let count = refs.entry(e.sha256.clone()).or_default();
        *count = count.saturating_sub(1);
        if *count == 0 {
            store_fs::remove_object(dir, &e.sha256);
            total = total.saturating_sub(sizes.get(&e.sha256).copied().unwrap_or(0));
        }
        if let Some(first) = indexes[i].entries.first() {
            heap.push(Reverse((first.timestamp, i)));
        }
    }
    for (idx, _) in indexes.iter().zip(&dirty).filter(|(_, d)| **d) {
        idx.save()?;
    }
    Ok(())
}

/// Every readable index; unreadable ones are removed (their levels are lost, never misread).
fn load_all(dir: &Path) -> Vec<Index> {
    let Ok(entries) = std::fs::read_dir(dir.join("index")) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for entry in entries.flatten() {
        let file = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || !name.ends_with(".json") {
            continue;
        }
        match Index::read_file(&file) {
            Some(idx) => out.push(idx),
            None => {
                let _ = std::fs::remove_file(&file);
            }
        }
    }
    out
}
