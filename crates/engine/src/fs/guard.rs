//! Path resolution and confinement: allowed folders (real paths) and `protectedPaths` globs.
use super::{FsError, ResolvedPath};
use std::path::{Path, PathBuf};

/// Where tools may read and write. Built once per tool instance.
#[derive(Debug, Clone)]
pub struct PathPolicy {
    _todo: (),
}

impl PathPolicy {
    /// `allowed_folders` empty -> `cwd` (or the process cwd) is the only allowed root.
    /// `workspace_root` falls back to cwd, then the first allowed folder, then the process cwd
    /// (Probe's chain). `protected` are gitignore-style globs, matched case-insensitively against
    /// the real path relative to each allowed root and the workspace root.
    pub fn new(
        allowed_folders: &[String],
        cwd: Option<&str>,
        workspace_root: Option<&str>,
        protected: &[String],
    ) -> Result<Self, FsError> {
        let _ = (allowed_folders, cwd, workspace_root, protected);
        todo!("fs::guard::PathPolicy::new")
    }

    /// Resolves `file_path` against `working_dir` (else the policy's cwd, else the process cwd).
    pub fn resolve(&self, file_path: &str, working_dir: Option<&str>) -> Result<ResolvedPath, FsError> {
        let _ = (file_path, working_dir);
        todo!("fs::guard::PathPolicy::resolve")
    }

    /// Ok when the real path lies inside an allowed folder (or is one).
    pub fn check_allowed(&self, path: &ResolvedPath) -> Result<(), FsError> {
        let _ = path;
        todo!("fs::guard::PathPolicy::check_allowed")
    }

    /// `check_allowed` plus the `protectedPaths` check: the gate for every write.
    pub fn check_writable(&self, path: &ResolvedPath) -> Result<(), FsError> {
        let _ = path;
        todo!("fs::guard::PathPolicy::check_writable")
    }

    /// Probe's `toRelativePath(path, workspaceRoot)`: relative when inside the root, else absolute.
    pub fn display(&self, path: &Path) -> String {
        let _ = path;
        todo!("fs::guard::PathPolicy::display")
    }

    /// The root relative paths resolve against when no `working_dir` is given.
    pub fn cwd(&self) -> &Path {
        todo!("fs::guard::PathPolicy::cwd")
    }

    /// The workspace root used for display paths.
    pub fn workspace_root(&self) -> &Path {
        todo!("fs::guard::PathPolicy::workspace_root")
    }
}

/// Real path of `p`, or for a missing path its nearest existing ancestor's real path + the rest.
pub fn safe_realpath(p: &Path) -> PathBuf {
    let _ = p;
    todo!("fs::guard::safe_realpath")
}
