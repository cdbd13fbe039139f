//! Probe's `findSymbol` / `findAllSymbols`: AST lookup of a named definition in a file, off the
//! event loop.

use edit_engine_core::symbols::file_lookup::{lookup_all, FoundSymbol};
use napi::bindgen_prelude::AsyncTask;
use napi::{Env, Task};
use napi_derive::napi;
use std::path::PathBuf;

/// A definition in Probe's `findAllSymbols` shape.
#[napi(object)]
pub struct SymbolMatch {
    pub start_line: u32,
    pub end_line: u32,
    pub code: String,
    pub node_type: String,
    pub file: String,
    pub qualified_name: String,
}

pub struct FindSymbolsTask {
    file: PathBuf,
    name: String,
}

impl Task for FindSymbolsTask {
    type Output = Vec<FoundSymbol>;
    type JsValue = Vec<SymbolMatch>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        let (file, name) = (&self.file, &self.name);
        Ok(std::panic::catch_unwind(|| lookup_all(file, name)).unwrap_or_default())
    }

    fn resolve(&mut self, _env: Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        let file = self.file.to_string_lossy().into_owned();
        Ok(output
            .into_iter()
            .map(|s| SymbolMatch {
                start_line: s.start_line as u32,
                end_line: s.end_line as u32,
                code: s.code,
                node_type: s.node_type,
                file: file.clone(),
                qualified_name: s.qualified_name,
            })
            .collect())
    }
}

/// Every definition named `symbolName` (bare or dot-qualified) in `filePath` (resolved against
/// `cwd`); an empty array when none, or when the file cannot be read or parsed.
#[napi(ts_return_type = "Promise<SymbolMatch[]>")]
pub fn find_all_symbols(
    file_path: String,
    symbol_name: String,
    cwd: Option<String>,
) -> AsyncTask<FindSymbolsTask> {
    let base = cwd
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_default();
    AsyncTask::new(FindSymbolsTask {
        file: base.join(file_path),
        name: symbol_name,
    })
}
