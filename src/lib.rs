#![deny(clippy::all)]
//! napi bindings: JS values <-> engine types. No edit logic lives here.

use napi_derive::napi;

#[napi]
pub fn engine_version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
