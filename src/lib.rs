#![deny(clippy::all)]
//! napi bindings for edit-engine: JS values <-> engine types, thread-pool plumbing, class
//! wrappers. No edit logic lives here; everything is in the `edit-engine-core` crate.

mod helpers;
mod modification;
mod quotes;
mod read_tracker;
mod symbols;
mod task;
mod tasks;
mod toolbox;
mod tracker;

use napi_derive::napi;

/// Version of the native engine (the crate version).
#[napi]
pub fn engine_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
