//! Symbol engine tests, one module per language (one test binary keeps link time down).

mod common;
mod go;
mod javascript;
mod python;
mod rust;
mod typescript;
