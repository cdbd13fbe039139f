//! The napi crate's only `unsafe` code: the allocator hook run at load and the JSON value
//! conversion handed to JS (napi's `ToNapiValue` is an `unsafe` trait method).

use napi::bindgen_prelude::{ToNapiValue, TypeName, ValueType};
use serde_json::Value;

/// Runs when the addon is loaded: tree-sitter's C core allocates through mimalloc too (its parse
/// of a large file is allocation-heavy; glibc's malloc cost about a tenth of a cold parse).
#[napi_derive::module_init]
fn route_tree_sitter_allocations() {
    use libmimalloc_sys::{mi_calloc, mi_free, mi_malloc, mi_realloc};
    // SAFETY: called once at load, before any tree-sitter object exists; the four functions are
    // one allocator family (mimalloc) with malloc's alignment and null only on failure.
    unsafe {
        tree_sitter::set_allocator(Some(tree_sitter::Allocator {
            malloc: mi_malloc,
            calloc: mi_calloc,
            realloc: mi_realloc,
            free: mi_free,
        }));
    }
}

/// A JSON value handed to JS (serde_json's conversion, with a type name for `Task`).
pub struct JsonValue(pub Value);

impl TypeName for JsonValue {
    fn type_name() -> &'static str {
        "unknown"
    }

    fn value_type() -> ValueType {
        ValueType::Unknown
    }
}

impl ToNapiValue for JsonValue {
    unsafe fn to_napi_value(
        env: napi::sys::napi_env,
        val: Self,
    ) -> napi::Result<napi::sys::napi_value> {
        // SAFETY: forwarded as received; serde_json's conversion upholds the same contract.
        unsafe { Value::to_napi_value(env, val.0) }
    }
}
