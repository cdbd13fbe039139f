//! edit-engine-core: the whole file-editing engine, free of any napi type.
//!
//! Data flows one way: tool params -> [`tools`] (validate, plan) -> [`fs`] (guard, lock, read) ->
//! [`text`] / [`lines`] / [`symbols`] (compute the new content, pure) -> [`fs`] (atomic write) -> message.

// Unix only: the atomic write, the confined reads and the locks rest on `openat` without following
// symlinks, `renameat2`/`linkat`, file ownership and `flock`, which this crate uses with no fallback.
#[cfg(not(unix))]
compile_error!(
    "edit-engine-core supports Unix only (Linux, macOS): its file safety rests on openat, flock and file ownership"
);

pub mod batch_plan;
pub mod common_ends;
pub mod fs;
pub mod history;
pub mod lines;
pub mod parallel;
pub mod patch;
pub mod search;
pub mod specs;
pub mod symbols;
pub mod syntax;
pub mod sys;
pub mod tasks;
pub mod text;
pub mod tools;
pub mod tracker;
