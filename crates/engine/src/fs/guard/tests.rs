use super::*;
use std::fs;
use std::os::unix::fs::symlink;

struct Ws {
    _dir: tempfile::TempDir,
    root: PathBuf,
    outside: PathBuf,
}

/// `<tmp>/ws` (the workspace, with src/, .git/, secrets/) and `<tmp>/outside`.
fn ws() -> Ws {
    let dir = tempfile::tempdir().unwrap();
    let base = fs::canonicalize(dir.path()).unwrap();
    let root = base.join("ws");
    let outside = base.join("outside");
    for d in ["src", ".git", "secrets", ".obsidian", "a"] {
        fs::create_dir_all(root.join(d)).unwrap();
    }
    fs::create_dir_all(&outside).unwrap();
    fs::write(root.join("src/main.rs"), "fn main() {}\n").unwrap();
    fs::write(root.join(".git/config"), "[core]\n").unwrap();
    fs::write(outside.join("secret.txt"), "s\n").unwrap();
    Ws {
        _dir: dir,
        root,
        outside,
    }
}

fn s(p: &Path) -> String {
    p.to_str().unwrap().to_string()
}

fn policy(w: &Ws, protected: &[&str]) -> PathPolicy {
    let protected: Vec<String> = protected.iter().map(|p| p.to_string()).collect();
    PathPolicy::new(&[], Some(&s(&w.root)), None, &protected).unwrap()
}

fn writable(p: &PathPolicy, file: &str) -> Result<ResolvedPath, FsError> {
    let r = p.resolve(file, None)?;
    p.check_writable(&r)?;
    Ok(r)
}

#[test]
fn resolves_relative_against_working_dir_then_cwd() {
    let w = ws();
    let p = policy(&w, &[]);
    assert_eq!(
        p.resolve("src/main.rs", None).unwrap().lexical,
        w.root.join("src/main.rs")
    );
    let wd = s(&w.root.join("src"));
    assert_eq!(
        p.resolve("main.rs", Some(&wd)).unwrap().lexical,
        w.root.join("src/main.rs")
    );
    assert_eq!(
        p.resolve("main.rs", Some("")).unwrap().lexical,
        w.root.join("main.rs")
    );
    let abs = s(&w.root.join("src/./x/../main.rs"));
    let r = p.resolve(&abs, Some(&wd)).unwrap();
    assert_eq!(r.lexical, w.root.join("src/main.rs"));
    assert_eq!(r.real, w.root.join("src/main.rs"));
    assert_eq!(
        p.resolve("a//b/", None).unwrap().lexical,
        w.root.join("a/b")
    );
    assert_eq!(p.cwd(), w.root.as_path());
    assert_eq!(p.workspace_root(), w.root.as_path());
}

#[test]
fn nul_and_empty_paths_are_bad() {
    let w = ws();
    let p = policy(&w, &[]);
    assert!(matches!(
        p.resolve("a\0b", None),
        Err(FsError::BadPath { .. })
    ));
    assert!(matches!(
        p.resolve("a", Some("x\0")),
        Err(FsError::BadPath { .. })
    ));
    assert!(matches!(p.resolve("", None), Err(FsError::BadPath { .. })));
    let bad = PathPolicy::new(&["a\0".to_string()], None, None, &[]);
    assert!(matches!(bad, Err(FsError::BadPath { .. })));
}

#[test]
fn dot_dot_chains_cannot_escape() {
    let w = ws();
    let p = policy(&w, &[]);
    for bad in [
        "../outside/secret.txt",
        "a/../../outside/x",
        "src/../../ws/../outside",
        "../../../../../../etc/passwd",
        "..",
    ] {
        let r = p.resolve(bad, None).unwrap();
        assert!(
            matches!(p.check_allowed(&r), Err(FsError::OutsideAllowed { .. })),
            "{bad}"
        );
    }
    for good in [
        "a/../src/main.rs",
        "src/new/deep/file.rs",
        ".",
        "a/b/../../src",
    ] {
        let r = p.resolve(good, None).unwrap();
        assert!(p.check_allowed(&r).is_ok(), "{good}");
    }
}

#[test]
fn sibling_with_common_prefix_is_outside() {
    let w = ws();
    let sibling = w.root.with_file_name("ws2");
    fs::create_dir_all(&sibling).unwrap();
    let p = policy(&w, &[]);
    let r = p.resolve(&s(&sibling.join("f")), None).unwrap();
    assert!(p.check_allowed(&r).is_err());
}

#[test]
fn symlinks_escaping_the_root_are_refused() {
    let w = ws();
    symlink(w.outside.join("secret.txt"), w.root.join("link_file")).unwrap();
    symlink(&w.outside, w.root.join("link_dir")).unwrap();
    symlink(w.outside.join("not_yet"), w.root.join("dangling")).unwrap();
    symlink("../outside", w.root.join("rel_link")).unwrap();
    let p = policy(&w, &[]);
    for bad in [
        "link_file",
        "link_dir/secret.txt",
        "link_dir/new.txt",
        "link_dir/new/deep.txt",
        "dangling",
        "rel_link/x",
    ] {
        let r = p.resolve(bad, None).unwrap();
        assert!(!r.real.starts_with(&w.root), "{bad}: {:?}", r.real);
        assert!(
            matches!(p.check_writable(&r), Err(FsError::OutsideAllowed { .. })),
            "{bad}"
        );
    }
    assert_eq!(
        p.resolve("dangling", None).unwrap().real,
        w.outside.join("not_yet")
    );
}

#[test]
fn symlinks_inside_the_root_resolve_to_their_target() {
    let w = ws();
    symlink(w.root.join("src"), w.root.join("alias")).unwrap();
    symlink("main.rs", w.root.join("src/m.rs")).unwrap();
    let p = policy(&w, &[]);
    assert_eq!(
        p.resolve("alias/main.rs", None).unwrap().real,
        w.root.join("src/main.rs")
    );
    assert_eq!(
        p.resolve("src/m.rs", None).unwrap().real,
        w.root.join("src/main.rs")
    );
    assert_eq!(
        p.resolve("alias/new/x.rs", None).unwrap().real,
        w.root.join("src/new/x.rs")
    );
    assert!(writable(&p, "alias/main.rs").is_ok());
}

#[test]
fn symlink_loops_do_not_hang() {
    let w = ws();
    symlink(w.root.join("loop2"), w.root.join("loop1")).unwrap();
    symlink(w.root.join("loop1"), w.root.join("loop2")).unwrap();
    let p = policy(&w, &[]);
    let r = p.resolve("loop1/x", None).unwrap();
    assert!(r.real.starts_with(&w.root));
}

#[test]
fn allowed_folders_are_real_paths_and_override_cwd() {
    let w = ws();
    let link_root = w.root.with_file_name("ws_link");
    symlink(&w.root, &link_root).unwrap();
    let p = PathPolicy::new(
        &[s(&link_root.join("src"))],
        Some(&s(&w.outside)),
        None,
        &[],
    )
    .unwrap();
    assert_eq!(p.allowed_roots(), &[w.root.join("src")]);
    let inside = p.resolve(&s(&w.root.join("src/main.rs")), None).unwrap();
    assert!(p.check_allowed(&inside).is_ok());
    let via_link = p.resolve(&s(&link_root.join("src/main.rs")), None).unwrap();
    assert!(p.check_allowed(&via_link).is_ok());
    let cwd_file = p.resolve("secret.txt", None).unwrap();
    assert!(
        p.check_allowed(&cwd_file).is_err(),
        "cwd is not allowed when allowedFolders are given"
    );
    assert_eq!(
        p.workspace_root(),
        w.outside.as_path(),
        "workspaceRoot falls back to cwd"
    );
}

#[test]
fn workspace_root_chain() {
    let w = ws();
    let folders = vec![s(&w.root.join("src")), s(&w.outside)];
    let p = PathPolicy::new(&folders, None, None, &[]).unwrap();
    assert_eq!(p.workspace_root(), w.root.join("src").as_path());
    let p = PathPolicy::new(&folders, None, Some(&s(&w.outside)), &[]).unwrap();
    assert_eq!(p.workspace_root(), w.outside.as_path());
    let p = PathPolicy::new(&[], None, None, &[]).unwrap();
    assert_eq!(
        p.workspace_root(),
        std::env::current_dir().unwrap().as_path()
    );
}

const PROTECTED: &[&str] = &[".obsidian/", ".git", "secrets/**", "*.pem"];

#[test]
fn protected_paths_and_bypass_attempts_are_refused() {
    let w = ws();
    fs::create_dir_all(w.root.join(".GIT")).unwrap();
    symlink(w.root.join(".git"), w.root.join("gitlink")).unwrap();
    symlink(w.root.join(".git/config"), w.root.join("cfg")).unwrap();
    let p = policy(&w, PROTECTED);
    for bad in [
        ".git/config",
        "./.git/config",
        ".GIT/config",
        ".Git/HEAD",
        "a//.git/config",
        "x/../.git/config",
        "a/b/../../.git/config",
        "src/.git/hooks/pre-commit",
        ".git",
        "gitlink/config",
        "gitlink/new",
        "cfg",
        "secrets/key",
        "SECRETS/deep/key",
        "key.pem",
        "src/deep/KEY.PEM",
        ".obsidian/workspace.json",
        ".OBSIDIAN/x",
    ] {
        match writable(&p, bad) {
            Err(FsError::Protected { .. }) => {}
            other => panic!("{bad} not refused as protected: {other:?}"),
        }
    }
    for good in [
        "src/main.rs",
        ".gitignore",
        "src/git/config",
        "secretsfile",
        "a/pem.txt",
        "obsidian/x",
        "new.txt",
    ] {
        assert!(writable(&p, good).is_ok(), "{good}");
    }
}

#[test]
fn protected_error_names_display_and_pattern() {
    let w = ws();
    let p = policy(&w, PROTECTED);
    let err = writable(&p, "./.git/config").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Permission denied - .git/config is a protected path (matches \".git\")"
    );
    let err = writable(&p, "x/y.pem").unwrap_err();
    assert_eq!(
        err.to_string(),
        "Permission denied - x/y.pem is a protected path (matches \"*.pem\")"
    );
}

#[test]
fn protected_is_matched_relative_to_workspace_root_too() {
    let w = ws();
    // Allowed root is src/, workspace root is ws/: "/src/generated/**" anchors at the workspace.
    let prot = vec!["/src/generated/**".to_string(), "/only-here".to_string()];
    let p = PathPolicy::new(&[s(&w.root.join("src"))], None, Some(&s(&w.root)), &prot).unwrap();
    let r = p
        .resolve(&s(&w.root.join("src/generated/a.rs")), None)
        .unwrap();
    assert!(matches!(
        p.check_writable(&r),
        Err(FsError::Protected { .. })
    ));
    let r = p.resolve(&s(&w.root.join("src/only-here")), None).unwrap();
    assert!(
        matches!(p.check_writable(&r), Err(FsError::Protected { .. })),
        "anchored at the allowed root"
    );
    let r = p
        .resolve(&s(&w.root.join("src/lib/generated/a.rs")), None)
        .unwrap();
    assert!(p.check_writable(&r).is_ok());
}

#[test]
fn protected_symlink_out_of_a_protected_dir_is_refused_too() {
    let w = ws();
    symlink(w.root.join("src/main.rs"), w.root.join(".git/alias")).unwrap();
    let p = policy(&w, PROTECTED);
    assert!(matches!(
        writable(&p, ".git/alias"),
        Err(FsError::Protected { .. })
    ));
}

#[test]
fn negated_patterns_reallow() {
    let w = ws();
    let p = policy(&w, &["secrets/**", "!secrets/public.txt"]);
    assert!(writable(&p, "secrets/public.txt").is_ok());
    assert!(writable(&p, "secrets/private.txt").is_err());
}

#[test]
fn bad_pattern_is_reported() {
    let r = PathPolicy::new(&[], Some("/"), None, &["[z-a]".to_string()]);
    match r {
        Err(FsError::BadPattern { pattern, .. }) => assert_eq!(pattern, "[z-a]"),
        other => panic!("{other:?}"),
    }
    assert!(PathPolicy::new(&[], Some("/"), None, &["".to_string(), "  ".to_string()]).is_ok());
}

#[test]
fn display_matches_probe_to_relative_path() {
    let w = ws();
    let p = policy(&w, &[]);
    assert_eq!(p.display(&w.root.join("src/main.rs")), "src/main.rs");
    assert_eq!(
        p.display(&w.root.join("src/new/file.rs")),
        "src/new/file.rs"
    );
    assert_eq!(p.display(&w.root), ".");
    let out = w.outside.join("secret.txt");
    assert_eq!(p.display(&out), s(&out));
    assert_eq!(p.display(Path::new("")), "");
    // A workspace root reached through a symlink still gives relative paths.
    let link_root = w.root.with_file_name("ws_link");
    symlink(&w.root, &link_root).unwrap();
    let p = PathPolicy::new(&[], Some(&s(&link_root)), None, &[]).unwrap();
    assert_eq!(p.display(&w.root.join("src/main.rs")), "src/main.rs");
    assert_eq!(p.display(&link_root.join("src/x/y.rs")), "src/x/y.rs");
    let err = p
        .check_allowed(&p.resolve(&s(&out), None).unwrap())
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "Permission denied - {} is outside allowed directories",
            s(&out)
        )
    );
}

#[test]
fn normalize_lexically_like_node() {
    let n = |p: &str| {
        normalize_lexically(Path::new(p))
            .to_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(n("/a/b/../c/./d//e/"), "/a/c/d/e");
    assert_eq!(n("/../../x"), "/x");
    assert_eq!(n("/"), "/");
    assert_eq!(n("a/../../b"), "../b");
    assert_eq!(n("./"), ".");
}

#[test]
fn safe_realpath_of_missing_paths() {
    let w = ws();
    assert_eq!(
        safe_realpath(&w.root.join("src/none/x.rs")),
        w.root.join("src/none/x.rs")
    );
    assert_eq!(
        safe_realpath(&w.root.join("src/none/../../a")),
        w.root.join("a")
    );
    assert_eq!(
        safe_realpath(&w.root.join("src/main.rs/x")),
        w.root.join("src/main.rs/x")
    );
}

#[test]
fn odd_patterns_and_paths_never_panic() {
    let w = ws();
    let patterns: Vec<String> = [
        "!", "/", "**", "\\", "#", "a/**/b/", "!/x", "*", "**/", " ", "/**/.git",
    ]
    .iter()
    .map(|p| p.to_string())
    .collect();
    for pat in &patterns {
        let Ok(p) = PathPolicy::new(&[], Some(&s(&w.root)), None, std::slice::from_ref(pat)) else {
            continue;
        };
        let long = "x/".repeat(3000);
        for path in [
            "////",
            "..",
            "\\",
            ".",
            "./",
            "a/../..",
            "\u{feff}",
            "💥/x",
            &long,
            "src/main.rs",
            "/",
        ] {
            if let Ok(r) = p.resolve(path, None) {
                let _ = p.check_writable(&r);
                let _ = p.display(&r.lexical);
            } else {
                assert!(path.len() > MAX_PATH_BYTES - 100, "{path:?}");
            }
        }
    }
}

/// Relative `allowedFolders` and `workspaceRoot` resolve against `cwd`, never the process cwd
/// (the test process's cwd is the crate folder, far from the temporary workspace).
#[test]
fn relative_folders_resolve_against_cwd() {
    let w = ws();
    let cwd = s(&w.root.join("src"));
    let p = PathPolicy::new(&[".".into()], Some(&cwd), Some("."), &[]).unwrap();
    assert_eq!(p.allowed_roots(), [w.root.join("src")]);
    assert_eq!(p.workspace_root(), w.root.join("src").as_path());
    assert!(writable(&p, "main.rs").is_ok());
    assert!(matches!(
        writable(&p, "../a/x.txt"),
        Err(FsError::OutsideAllowed { .. })
    ));
    let p = PathPolicy::new(&["../a".into()], Some(&cwd), None, &[]).unwrap();
    assert_eq!(p.allowed_roots(), [w.root.join("a")]);
}

/// A resolved path is displayed exactly as `to_relative_path` displays its lexical path: an
/// existing file (directly and through a symlinked folder), a missing one, a dangling symlink and
/// a file outside the workspace.
#[test]
fn a_resolved_path_is_displayed_as_its_lexical_path() {
    let w = ws();
    symlink(w.root.join("src"), w.root.join("linked")).unwrap();
    symlink(w.root.join("src/none.rs"), w.root.join("dangling.rs")).unwrap();
    symlink(&w.outside, w.root.join("out")).unwrap();
    let p = policy(&w, &[]);
    let cases = [
        "src/main.rs",
        "linked/main.rs",
        "src/new.rs",
        "new/dir/file.rs",
        "dangling.rs",
        "out/secret.txt",
        ".",
    ];
    for file in cases {
        let resolved = p.resolve(file, None).unwrap();
        assert_eq!(
            p.display_resolved(&resolved),
            to_relative_path(&resolved.lexical, &w.root),
            "{file}"
        );
    }
    let outside = p.resolve(&s(&w.outside.join("secret.txt")), None).unwrap();
    assert_eq!(
        p.display_resolved(&outside),
        to_relative_path(&outside.lexical, &w.root)
    );
}

/// A resolved path's display is its lexical path's display, also for files still to be created:
/// in a plain folder, in folders still to be made, through a symlinked folder (inside the
/// workspace and out of it), and at a dangling symlink.
#[test]
fn a_missing_files_display_is_its_lexical_paths() {
    let w = ws();
    symlink(w.root.join("src"), w.root.join("linked")).unwrap();
    symlink(&w.outside, w.root.join("away")).unwrap();
    symlink(w.root.join("src/gone.rs"), w.root.join("dangling.rs")).unwrap();
    let p = policy(&w, &[]);
    for file in [
        "src/new.rs",
        "src/deeper/still/new.rs",
        "linked/new.rs",
        "linked/deeper/new.rs",
        "away/new.rs",
        "dangling.rs",
        "src/main.rs",
    ] {
        let resolved = p.resolve(file, None).unwrap();
        assert_eq!(
            p.display_resolved(&resolved),
            p.display(&resolved.lexical),
            "{file}"
        );
    }
    let linked = p.resolve("linked/new.rs", None).unwrap();
    assert_eq!(p.display_resolved(&linked), "src/new.rs");
}
