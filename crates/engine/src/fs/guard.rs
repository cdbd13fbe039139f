//! Path resolution and confinement: allowed folders (real paths) and `protectedPaths` globs.
//!
//! Contracts:
//! - A path string is joined onto `workingDirectory` (else the policy's cwd, else the process cwd)
//!   and folded lexically (`.`, `..`, repeated separators), like Node's `path.resolve`.
//! - Its real path ([`safe_realpath`]) resolves every symlink that exists, including dangling
//!   ones, so a link can never carry a write outside the allowed folders.
//! - A path is allowed iff its real path is an allowed root or lies below one (component-wise).
//! - `protectedPaths` are gitignore-style globs matched case-insensitively against the real path
//!   (and the lexical path) relative to each allowed root and to the workspace root; a match on
//!   the path or any of its ancestor directories protects it.
use super::{FsError, ResolvedPath};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// Longest path accepted (Linux's `PATH_MAX`); longer ones could not be opened anyway.
pub const MAX_PATH_BYTES: usize = 4096;

/// Symlinks followed while resolving one path before the rest is taken lexically (Linux's limit).
const MAX_SYMLINKS: usize = 40;

/// Where tools may read and write. Built once per tool instance.
#[derive(Clone)]
pub struct PathPolicy {
    /// Real paths of the allowed roots (the cwd when no allowed folder was given).
    allowed: Vec<PathBuf>,
    /// Lexical (absolute, folded) and real forms of the allowed roots and the workspace root:
    /// the bases `protectedPaths` globs are matched relative to.
    protected_bases: Vec<PathBuf>,
    protected: Option<Gitignore>,
    protected_patterns: Vec<String>,
    cwd: PathBuf,
    workspace_root: PathBuf,
    /// The workspace root as [`to_relative_path`] resolves it, once (as the allowed roots are).
    workspace_root_real: PathBuf,
}

impl PathPolicy {
    /// `allowed_folders` empty -> `cwd` (or the process cwd) is the only allowed root. Relative
    /// `allowed_folders` and `workspace_root` resolve against `cwd` (a relative `cwd`, and every
    /// folder when `cwd` is not given, against the process cwd).
    /// `workspace_root` falls back to cwd, then the first allowed folder, then the process cwd
    /// (Probe's chain). `protected` are gitignore-style globs, matched case-insensitively against
    /// the real path relative to each allowed root and the workspace root.
    pub fn new(
        allowed_folders: &[String],
        cwd: Option<&str>,
        workspace_root: Option<&str>,
        protected: &[String],
    ) -> Result<Self, FsError> {
        let cwd = non_empty(cwd);
        let workspace_root = non_empty(workspace_root);
        let folders: Vec<&str> = allowed_folders
            .iter()
            .map(String::as_str)
            .filter(|f| !f.is_empty())
            .collect();
        for s in folders.iter().copied().chain(cwd).chain(workspace_root) {
            check_nul(s)?;
        }
        // Probe's chain: workspaceRoot > cwd > allowedFolders[0] > process cwd.
        let first_folder = folders.first().copied().filter(|_| cwd.is_none());
        // Relative folders resolve against `cwd`, the base for every relative path; a relative
        // `cwd` against the process cwd.
        let cwd = match cwd {
            Some(c) => absolute_against(Path::new(c), process_cwd)?,
            None => process_cwd()?,
        };
        let workspace_root = match workspace_root.or(first_folder) {
            Some(w) => absolute_against(Path::new(w), || Ok(cwd.clone()))?,
            None => cwd.clone(),
        };
        let lexical_roots: Vec<PathBuf> = if folders.is_empty() {
            vec![cwd.clone()]
        } else {
            folders
                .iter()
                .map(|f| absolute_against(Path::new(f), || Ok(cwd.clone())))
                .collect::<Result<_, _>>()?
        };
        let allowed: Vec<PathBuf> = lexical_roots.iter().map(|r| safe_realpath(r)).collect();
        let mut protected_bases = Vec::new();
        for base in lexical_roots
            .iter()
            .chain(&allowed)
            .chain([&workspace_root, &safe_realpath(&workspace_root)])
        {
            if !protected_bases.contains(base) {
                protected_bases.push(base.clone());
            }
        }
        Ok(PathPolicy {
            allowed,
            protected_bases,
            protected: build_protected(protected)?,
            protected_patterns: protected.to_vec(),
            cwd,
            workspace_root_real: probe_realpath(&workspace_root),
            workspace_root,
        })
    }

    /// Resolves `file_path` against `working_dir` (else the policy's cwd, else the process cwd).
    pub fn resolve(
        &self,
        file_path: &str,
        working_dir: Option<&str>,
    ) -> Result<ResolvedPath, FsError> {
        check_nul(file_path)?;
        if file_path.is_empty() {
            return Err(FsError::BadPath {
                reason: "the path is empty".into(),
            });
        }
        let lexical = normalize_lexically(&self.joined(file_path, working_dir)?);
        if lexical.as_os_str().len() > MAX_PATH_BYTES {
            return Err(FsError::BadPath {
                reason: format!("the path is longer than {MAX_PATH_BYTES} bytes"),
            });
        }
        let real = safe_realpath(&lexical);
        Ok(ResolvedPath { lexical, real })
    }

    /// Probe's `resolvedPath`: `file_path` itself when absolute, else `path.resolve(base, file_path)`
    /// with base = `working_dir` or the policy's cwd. Useful for messages that must match Probe's
    /// spelling of a path outside the workspace.
    pub fn joined(&self, file_path: &str, working_dir: Option<&str>) -> Result<PathBuf, FsError> {
        check_nul(file_path)?;
        let path = Path::new(file_path);
        if path.is_absolute() {
            return Ok(path.to_path_buf());
        }
        let base = match non_empty(working_dir) {
            Some(w) => {
                check_nul(w)?;
                let w = Path::new(w);
                if w.is_absolute() {
                    w.to_path_buf()
                } else {
                    std::env::current_dir()
                        .unwrap_or_else(|_| self.cwd.clone())
                        .join(w)
                }
            }
            None => self.cwd.clone(),
        };
        Ok(normalize_lexically(&base.join(path)))
    }

    /// Ok when the real path lies inside an allowed folder (or is one).
    pub fn check_allowed(&self, path: &ResolvedPath) -> Result<(), FsError> {
        if self.allowed.iter().any(|root| path.real.starts_with(root)) {
            Ok(())
        } else {
            Err(FsError::OutsideAllowed {
                display: self.display(&path.lexical),
            })
        }
    }

    /// `check_allowed` plus the `protectedPaths` check: the gate for every write, and for every
    /// read of the read-only tools (a protected file is neither written nor shown).
    pub fn check_writable(&self, path: &ResolvedPath) -> Result<(), FsError> {
        self.check_allowed(path)?;
        match self.protected_pattern(path) {
            Some(pattern) => Err(FsError::Protected {
                display: self.display(&path.lexical),
                pattern,
            }),
            None => Ok(()),
        }
    }

    /// The `protectedPaths` pattern that protects `path`, if any.
    pub fn protected_pattern(&self, path: &ResolvedPath) -> Option<String> {
        let gi = self.protected.as_ref()?;
        for candidate in [&path.real, &path.lexical] {
            for base in &self.protected_bases {
                let Ok(rel) = candidate.strip_prefix(base) else {
                    continue;
                };
                if rel.as_os_str().is_empty() {
                    continue;
                }
                for is_dir in [false, true] {
                    if let ignore::Match::Ignore(glob) = gi.matched_path_or_any_parents(rel, is_dir)
                    {
                        return Some(glob.original().to_string());
                    }
                }
            }
        }
        None
    }

    /// Probe's `toRelativePath(path, workspaceRoot)`: relative when inside the root, else absolute.
    pub fn display(&self, path: &Path) -> String {
        relative_to_root(path, &probe_realpath(path), &self.workspace_root_real)
    }

    /// [`Self::display`] of a resolved path: when its real path exists, that is what
    /// `realpath` gives, so it is not resolved again.
    /// A real path that is missing (a file to be created) does not resolve either, so only its
    /// ancestors are resolved.
    pub fn display_resolved(&self, path: &ResolvedPath) -> String {
        use rustix::fs::{statat, AtFlags, FileType, CWD};
        let real = match statat(CWD, &path.real, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(st) if FileType::from_raw_mode(st.st_mode) != FileType::Symlink => path.real.clone(),
            Err(rustix::io::Errno::NOENT) => ancestor_realpath(&path.lexical),
            _ => return self.display(&path.lexical),
        };
        relative_to_root(&path.lexical, &real, &self.workspace_root_real)
    }

    /// The root relative paths resolve against when no `working_dir` is given.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// The workspace root used for display paths.
    pub fn workspace_root(&self) -> &Path {
        &self.workspace_root
    }

    /// Real paths of the allowed roots.
    pub fn allowed_roots(&self) -> &[PathBuf] {
        &self.allowed
    }
}

impl std::fmt::Debug for PathPolicy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PathPolicy")
            .field("allowed", &self.allowed)
            .field("protected", &self.protected_patterns)
            .field("cwd", &self.cwd)
            .field("workspace_root", &self.workspace_root)
            .finish()
    }
}

fn non_empty(s: Option<&str>) -> Option<&str> {
    s.filter(|s| !s.is_empty())
}

fn check_nul(s: &str) -> Result<(), FsError> {
    if s.contains('\0') {
        Err(FsError::BadPath {
            reason: format!("{:?} contains a NUL byte", s.replace('\0', "\\0")),
        })
    } else {
        Ok(())
    }
}

fn process_cwd() -> Result<PathBuf, FsError> {
    std::env::current_dir().map_err(|source| FsError::Io {
        op: "read the current directory",
        display: ".".into(),
        source,
    })
}

/// `p` folded lexically, made absolute first against `base()` when relative.
fn absolute_against(
    p: &Path,
    base: impl FnOnce() -> Result<PathBuf, FsError>,
) -> Result<PathBuf, FsError> {
    if p.is_absolute() {
        Ok(normalize_lexically(p))
    } else {
        Ok(normalize_lexically(&base()?.join(p)))
    }
}

fn build_protected(patterns: &[String]) -> Result<Option<Gitignore>, FsError> {
    let patterns: Vec<&String> = patterns.iter().filter(|p| !p.trim().is_empty()).collect();
    if patterns.is_empty() {
        return Ok(None);
    }
    // Root "." disables the builder's own prefix stripping: we pass paths already made relative.
    let mut builder = GitignoreBuilder::new(".");
    builder
        .case_insensitive(true)
        .map_err(|e| bad_pattern("", e))?;
    for p in patterns {
        check_nul(p).map_err(|_| FsError::BadPattern {
            pattern: p.replace('\0', "\\0"),
            reason: "contains a NUL byte".into(),
        })?;
        builder.add_line(None, p).map_err(|e| bad_pattern(p, e))?;
    }
    builder.build().map(Some).map_err(|e| bad_pattern("", e))
}

fn bad_pattern(pattern: &str, e: ignore::Error) -> FsError {
    FsError::BadPattern {
        pattern: pattern.to_string(),
        reason: e.to_string(),
    }
}

/// Folds `.`, `..` and repeated separators without touching the disk (Node's `path.normalize`
/// for absolute paths; `..` at the root stays at the root). Relative paths keep leading `..`.
pub fn normalize_lexically(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    let mut depth = 0usize; // normal components pushed (poppable)
    for c in p.components() {
        match c {
            Component::Prefix(_) | Component::RootDir => out.push(c.as_os_str()),
            Component::CurDir => {}
            Component::ParentDir => {
                if depth > 0 {
                    out.pop();
                    depth -= 1;
                } else if !out.has_root() {
                    out.push("..");
                }
            }
            Component::Normal(n) => {
                out.push(n);
                depth += 1;
            }
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// `p` joined onto the process cwd when relative (`/` when the cwd is unknown); not normalized.
pub fn absolute(p: &Path) -> PathBuf {
    if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .unwrap_or_else(|_| PathBuf::from("/"))
            .join(p)
    }
}

/// Real path of `p`, or for a missing path its nearest existing ancestor's real path + the rest.
///
/// `p` is made absolute (process cwd) and folded lexically first, so `a/../..` cannot climb past
/// what the caller sees. Every existing symlink on the way is resolved, dangling ones included
/// (their target is where a write would land); components after the first missing one are
/// appended as they are.
pub fn safe_realpath(p: &Path) -> PathBuf {
    let norm = normalize_lexically(&absolute(p));
    if let Ok(real) = std::fs::canonicalize(&norm) {
        return real;
    }
    resolve_components(&norm)
}

/// Component-by-component resolution of an absolute, lexically normal path.
fn resolve_components(norm: &Path) -> PathBuf {
    let mut resolved = PathBuf::from("/");
    let mut pending: VecDeque<OsString> = normal_components(norm).collect();
    let mut links = 0usize;
    while let Some(c) = pending.pop_front() {
        if c == ".." {
            resolved.pop();
            continue;
        }
        let next = resolved.join(&c);
        let meta = std::fs::symlink_metadata(&next);
        match meta {
            Ok(m) if m.file_type().is_symlink() && links < MAX_SYMLINKS => {
                links += 1;
                match std::fs::read_link(&next) {
                    Ok(target) => {
                        if target.is_absolute() {
                            resolved = PathBuf::from("/");
                        }
                        for part in normal_components(&target)
                            .collect::<Vec<_>>()
                            .into_iter()
                            .rev()
                        {
                            pending.push_front(part);
                        }
                    }
                    Err(_) => resolved = next,
                }
            }
            Ok(_) => resolved = next,
            Err(_) => {
                resolved = next;
                for rest in pending {
                    if rest == ".." {
                        resolved.pop();
                    } else {
                        resolved.push(rest);
                    }
                }
                return resolved;
            }
        }
    }
    resolved
}

/// Normal and `..` components of `p` (root, prefix and `.` dropped).
fn normal_components(p: &Path) -> impl Iterator<Item = OsString> + '_ {
    p.components().filter_map(|c| match c {
        Component::Normal(n) => Some(n.to_os_string()),
        Component::ParentDir => Some(OsString::from("..")),
        _ => None,
    })
}

/// Probe's `safeRealpath`: `realpath`, else the nearest existing ancestor's realpath joined with
/// the remaining components (dangling symlinks are not followed). Used for display only.
fn probe_realpath(p: &Path) -> PathBuf {
    if let Ok(real) = std::fs::canonicalize(p) {
        return real;
    }
    ancestor_realpath(p)
}

/// [`probe_realpath`] of a path that does not resolve: its nearest existing ancestor's realpath
/// joined with the remaining components.
fn ancestor_realpath(p: &Path) -> PathBuf {
    let norm = normalize_lexically(p);
    let parts: Vec<Component> = norm.components().collect();
    for i in (0..parts.len()).rev() {
        let ancestor: PathBuf = if i == 0 {
            PathBuf::from("/")
        } else {
            parts[..i].iter().collect()
        };
        let ancestor = if ancestor.as_os_str().is_empty() {
            PathBuf::from("/")
        } else {
            ancestor
        };
        if let Ok(real) = std::fs::canonicalize(&ancestor) {
            let mut out = real;
            for c in &parts[i..] {
                if !matches!(c, Component::RootDir | Component::Prefix(_)) {
                    out.push(c.as_os_str());
                }
            }
            return out;
        }
    }
    norm
}

/// Probe's `toRelativePath(absolutePath, workspaceRoot)`.
pub fn to_relative_path(path: &Path, workspace_root: &Path) -> String {
    let original = path.to_string_lossy().into_owned();
    if original.is_empty() || workspace_root.as_os_str().is_empty() {
        return original;
    }
    relative_to_root(path, &probe_realpath(path), &probe_realpath(workspace_root))
}

/// [`to_relative_path`] given both real paths (`path_real` of `path`, `root_real` of the root).
fn relative_to_root(path: &Path, path_real: &Path, root_real: &Path) -> String {
    let original = path.to_string_lossy().into_owned();
    if original.is_empty() || root_real.as_os_str().is_empty() {
        return original;
    }
    let real = path_real.to_string_lossy().into_owned();
    let mut root = root_real.to_string_lossy().into_owned();
    while root.len() > 1 && root.ends_with('/') {
        root.pop();
    }
    if real == root {
        return ".".into();
    }
    match real.strip_prefix(&format!("{root}/")) {
        Some(rest) => rest.trim_end_matches('/').to_string(),
        None => original,
    }
}

#[cfg(test)]
mod tests;
