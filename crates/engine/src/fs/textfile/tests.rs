use super::*;

fn roundtrip(bytes: &[u8]) -> TextFile {
    let tf = TextFile::decode(bytes.to_vec(), "f").unwrap_or_else(|e| panic!("{bytes:?}: {e}"));
    assert_eq!(tf.encode(&tf.text), bytes, "round trip of {bytes:?}");
    tf
}

#[test]
fn decode_encode_is_identity_on_many_shapes() {
    let bodies: &[&[u8]] = &[
        b"",
        b"a",
        b"a\n",
        b"a\nb",
        b"a\nb\n",
        b"\n",
        b"\n\n",
        b"a\r\nb\r\n",
        b"a\r\nb",
        b"\r\n",
        b"\r\n\r\n",
        b"a\r\nb\n",
        b"a\nb\r\n",
        b"a\rb\r",
        b"a\r",
        b"\r",
        b"a\r\r\n",
        b"a\r\nb\rc\r\n",
        b"tab\t \n trailing  \r\n",
        "h\u{e9}llo \u{1F600}\r\n\u{2028}x\r\n".as_bytes(),
        "\u{FEFF}inner bom\n".as_bytes(),
    ];
    for body in bodies {
        roundtrip(body);
        let mut with_bom = b"\xEF\xBB\xBF".to_vec();
        with_bom.extend_from_slice(body);
        let tf = roundtrip(&with_bom);
        assert!(tf.bom);
    }
}

#[test]
fn exhaustive_small_inputs_round_trip() {
    let alphabet: &[u8] = b"a\r\n ";
    let mut buf = Vec::new();
    for len in 0..=6u32 {
        for mut code in 0..alphabet.len().pow(len) {
            buf.clear();
            for _ in 0..len {
                buf.push(alphabet[code % alphabet.len()]);
                code /= alphabet.len();
            }
            roundtrip(&buf);
        }
    }
}

#[test]
fn line_ending_detection() {
    assert_eq!(roundtrip(b"a\r\nb\r\n").line_ending, LineEnding::Crlf);
    assert_eq!(roundtrip(b"a\r\nb\r\n").text, "a\nb\n");
    assert_eq!(roundtrip(b"a\r\nb").text, "a\nb");
    assert_eq!(
        roundtrip(b"a\r\nb\n").line_ending,
        LineEnding::Lf,
        "mixed stays as is"
    );
    assert_eq!(roundtrip(b"a\r\nb\n").text, "a\r\nb\n");
    assert_eq!(
        roundtrip(b"a\r\nb\r").line_ending,
        LineEnding::Lf,
        "lone CR"
    );
    assert_eq!(roundtrip(b"abc").line_ending, LineEnding::Lf);
    assert_eq!(roundtrip(b"").line_ending, LineEnding::Lf);
}

#[test]
fn bom_only_and_crlf_bom() {
    let tf = roundtrip(b"\xEF\xBB\xBF");
    assert!(tf.bom);
    assert_eq!(tf.text, "");
    let tf = roundtrip(b"\xEF\xBB\xBFx\r\ny\r\n");
    assert!(tf.bom);
    assert_eq!(tf.line_ending, LineEnding::Crlf);
    assert_eq!(tf.text, "x\ny\n");
    assert_eq!(&*tf.encode("x\nz\nw"), b"\xEF\xBB\xBFx\r\nz\r\nw");
}

#[test]
fn encode_never_doubles_cr() {
    let tf = roundtrip(b"a\r\n");
    assert_eq!(&*tf.encode("a\r\nb\n"), b"a\r\nb\r\n");
    assert_eq!(&*tf.encode("\n"), b"\r\n");
    let lf = roundtrip(b"a\n");
    assert_eq!(&*lf.encode("a\r\nb\n"), b"a\r\nb\n");
}

#[test]
fn to_view_converts_only_for_crlf_files() {
    let crlf = roundtrip(b"a\r\n");
    assert_eq!(crlf.to_view("x\r\ny"), "x\ny");
    assert!(matches!(crlf.to_view("x\ny"), Cow::Borrowed(_)));
    let lf = roundtrip(b"a\n");
    assert_eq!(lf.to_view("x\r\ny"), "x\r\ny");
}

#[test]
fn binary_and_non_utf8_are_refused() {
    assert!(matches!(
        TextFile::decode(b"a\0b".to_vec(), "f"),
        Err(FsError::Binary { .. })
    ));
    assert!(matches!(
        TextFile::decode(b"\xEF\xBB\xBF\0".to_vec(), "f"),
        Err(FsError::Binary { .. })
    ));
    assert!(matches!(
        TextFile::decode(b"caf\xE9\n".to_vec(), "f"),
        Err(FsError::NotUtf8 { .. })
    ));
    assert!(matches!(
        TextFile::decode(b"\xEF\xBB".to_vec(), "f"),
        Err(FsError::NotUtf8 { .. })
    ));
    assert!(matches!(
        TextFile::decode(b"\xFF\xFEa\0".to_vec(), "f"),
        Err(FsError::Binary { .. })
    ));
    let e = TextFile::decode(b"\xC3(".to_vec(), "src/x.rs").unwrap_err();
    assert_eq!(e.to_string(), "src/x.rs is not valid UTF-8 text");
}

#[test]
fn read_text_checks_kind_and_size() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("f.txt");
    std::fs::write(&f, b"\xEF\xBB\xBFa\r\nb\r\n").unwrap();
    let tf = read_text(&f, "f.txt", None).unwrap();
    assert_eq!(
        (tf.text.as_str(), tf.bom, tf.line_ending),
        ("a\nb\n", true, LineEnding::Crlf)
    );
    assert!(read_text(&f, "f.txt", Some(9)).is_ok());
    match read_text(&f, "f.txt", Some(8)) {
        Err(FsError::TooLarge {
            size: 9, max: 8, ..
        }) => {}
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        read_text(&dir.path().join("none"), "none", None),
        Err(FsError::NotFound { .. })
    ));
    assert!(matches!(
        read_text(dir.path(), "dir", None),
        Err(FsError::NotAFile { .. })
    ));
    let bin = dir.path().join("b.bin");
    std::fs::write(&bin, b"\x7FELF\0\0").unwrap();
    assert!(matches!(
        read_text(&bin, "b.bin", None),
        Err(FsError::Binary { .. })
    ));
}

#[test]
fn read_text_refuses_fifo_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    assert!(matches!(
        read_text(&fifo, "pipe", None),
        Err(FsError::NotAFile { .. })
    ));
}

/// Regression (issue 9): the tools' read follows no symlink swapped in after the path check.
#[test]
fn confined_read_refuses_symlinks_swapped_in() {
    use crate::fs::FsError;
    let inside = tempfile::tempdir().unwrap();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "secret\n").unwrap();
    std::fs::write(inside.path().join("plain.txt"), "plain\n").unwrap();
    std::os::unix::fs::symlink(
        outside.path().join("secret.txt"),
        inside.path().join("link.txt"),
    )
    .unwrap();
    std::os::unix::fs::symlink(outside.path(), inside.path().join("dir")).unwrap();
    std::fs::create_dir(inside.path().join("sub")).unwrap();
    let read = |rel: &str| read_text_confined(&inside.path().join(rel), rel, None);
    assert_eq!(read("plain.txt").unwrap().text, "plain\n");
    assert!(matches!(read("link.txt"), Err(FsError::Changed { .. })));
    assert!(matches!(
        read("dir/secret.txt"),
        Err(FsError::Changed { .. })
    ));
    assert!(matches!(read("missing.txt"), Err(FsError::NotFound { .. })));
    assert!(matches!(
        read("nowhere/missing.txt"),
        Err(FsError::NotFound { .. })
    ));
    assert!(matches!(read("sub"), Err(FsError::NotAFile { .. })));
}
