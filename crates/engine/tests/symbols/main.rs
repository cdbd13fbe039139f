//! Symbol engine tests, one module per language (one test binary keeps link time down).

mod c;
mod chunked;
mod common;
mod cpp;
mod csharp;
mod engine;
mod go;
mod java;
mod javascript;
mod kotlin;
mod lua;
mod parse_errors;
mod php;
mod preprocessor;
mod python;
mod recovered;
mod ruby;
mod rust;
mod scala;
mod swift;
mod typescript;
mod zig;
