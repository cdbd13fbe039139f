//! edit-engine-core: the whole file-editing engine, free of any napi type.
//!
//! Data flows one way: tool params -> [`tools`] (validate, plan) -> [`fs`] (guard, lock, read) ->
//! [`text`] / [`lines`] / [`symbols`] (compute the new content, pure) -> [`fs`] (atomic write) -> message.

pub mod batch;
pub mod fs;
pub mod history;
pub mod lines;
pub mod parallel;
pub mod patch;
pub mod search;
pub mod symbols;
pub mod syntax;
pub mod tasks;
pub mod text;
pub mod tools;
pub mod tracker;
