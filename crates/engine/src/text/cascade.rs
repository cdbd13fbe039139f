//! Running strategies in order on the LF view of the inputs.

use std::borrow::Cow;

use super::js::js_trim;
use super::{FuzzyMatch, Strategy, UnknownStrategy};

/// Runs `strategies` in order on the CRLF->LF normalized inputs; the first with a region wins
/// (later strategies are not run). `None` for an empty or whitespace-only search.
pub(crate) fn run(content: &str, search: &str, strategies: &[Strategy]) -> Option<FuzzyMatch> {
    if js_trim(search).is_empty() {
        return None;
    }
    let content = lf_view(content);
    let search = lf_view(search);
    strategies.iter().find_map(|&strategy| {
        let found = strategy.matcher()(&content, &search)?;
        let first = found.regions.first()?.clone();
        Some(FuzzyMatch {
            matched_text: content.get(first)?.to_string(),
            strategy,
            count: found.regions.len(),
            regions: found.regions,
        })
    })
}

/// `s` with every CRLF replaced by LF, borrowed when it has none (one `memmem` scan).
pub(crate) fn lf_view(s: &str) -> Cow<'_, str> {
    if memchr::memmem::find(s.as_bytes(), b"\r\n").is_some() {
        Cow::Owned(s.replace("\r\n", "\n"))
    } else {
        Cow::Borrowed(s)
    }
}

/// All fuzzy strategies in [`Strategy::ALL`] order (Probe's three, then quote-normalized,
/// escape-normalized, trimmed-boundary, block-anchor), or only `only` when given. Same input
/// handling and result as [`find_fuzzy_match`](super::find_fuzzy_match): CRLF is normalized to LF
/// first and regions refer to the LF content. Probe's strategies report overlapping candidate
/// windows as Probe counts them; ours report non-overlapping occurrences (block-anchor: at most one).
pub fn find_match_cascade(
    content: &str,
    search: &str,
    only: Option<Strategy>,
) -> Option<FuzzyMatch> {
    match only {
        Some(s) => run(content, search, &[s]),
        None => run(content, search, &Strategy::ALL),
    }
}

/// [`find_match_cascade`] with the restriction given by name (`None`: every strategy); an unknown
/// name is an error rather than "no match".
pub fn find_match_cascade_named(
    content: &str,
    search: &str,
    only: Option<&str>,
) -> Result<Option<FuzzyMatch>, UnknownStrategy> {
    let only = only.map(str::parse::<Strategy>).transpose()?;
    Ok(find_match_cascade(content, search, only))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_strategies_run_after_probes() {
        let content = "say(\u{201C}hi\u{201D});\r\nnext();\r\n";
        let m = find_match_cascade(content, "say(\"hi\");", None).unwrap();
        assert_eq!(m.strategy, Strategy::QuoteNormalized);
        assert_eq!(m.matched_text, "say(\u{201C}hi\u{201D});");
        assert_eq!(crate::text::find_fuzzy_match(content, "say(\"hi\");"), None);
    }

    #[test]
    fn each_new_strategy_is_reachable() {
        let m = find_match_cascade("a(\"x\");\nb();", r#"a(\"x\");\nb();"#, None).unwrap();
        assert_eq!(m.strategy, Strategy::EscapeNormalized);
        let m = find_match_cascade("x = foo(1); y();", "\n foo(1); \n", None).unwrap();
        assert_eq!(
            (m.strategy, m.matched_text.as_str()),
            (Strategy::TrimmedBoundary, "foo(1);")
        );
        let content = "fn a() {\n    let value = compute(1, 2);\n    value\n}\n";
        let m = find_match_cascade(
            content,
            "fn a() {\n    let value = compute(1,2);\n    value\n}",
            None,
        )
        .unwrap();
        assert_eq!(m.strategy, Strategy::BlockAnchor);
        assert_eq!(m.matched_text, content.trim_end());
    }

    #[test]
    fn probe_strategies_keep_priority() {
        let m = find_match_cascade("  a\u{2019}\n  b", "a\u{2019}\nb", None).unwrap();
        assert_eq!(m.strategy, Strategy::LineTrimmed);
    }

    #[test]
    fn restricting_to_one_strategy() {
        let content = "  foo(a,  b)";
        let only =
            |name: &str| find_match_cascade(content, "foo(a, b)", Some(name.parse().unwrap()));
        assert_eq!(
            only("whitespace-normalized").unwrap().strategy,
            Strategy::WhitespaceNormalized
        );
        assert_eq!(only("line-trimmed"), None);
        assert_eq!(only("quote-normalized"), None);
        assert!("fuzzy".parse::<Strategy>().is_err());
        let named = find_match_cascade_named(content, "foo(a, b)", Some("whitespace-normalized"));
        assert_eq!(
            named.unwrap().unwrap().strategy,
            Strategy::WhitespaceNormalized
        );
        assert!(find_match_cascade_named(content, "foo(a, b)", None)
            .unwrap()
            .is_some());
        let err = find_match_cascade_named(content, "x", Some("fuzzy")).unwrap_err();
        assert_eq!(err, UnknownStrategy("fuzzy".into()));
        assert!(err.to_string().contains("block-anchor"));
    }

    #[test]
    fn names_round_trip() {
        for s in Strategy::ALL {
            assert_eq!(Strategy::from_name(s.as_str()), Some(s));
        }
        assert_eq!(Strategy::QuoteNormalized.as_str(), "quote-normalized");
        assert_eq!(Strategy::EscapeNormalized.as_str(), "escape-normalized");
        assert_eq!(Strategy::TrimmedBoundary.as_str(), "trimmed-boundary");
        assert_eq!(Strategy::BlockAnchor.as_str(), "block-anchor");
        assert_eq!(Strategy::from_name("Line-Trimmed"), None);
    }

    #[test]
    fn lf_view_borrows_without_crlf() {
        assert!(matches!(lf_view("a\nb\r"), Cow::Borrowed("a\nb\r")));
        assert_eq!(lf_view("a\r\nb\r\r\n"), "a\nb\r\n");
    }

    #[test]
    fn blank_search_is_none() {
        assert_eq!(find_match_cascade("a", " \r\n ", None), None);
        assert_eq!(
            find_match_cascade("a", "", Some(Strategy::TrimmedBoundary)),
            None
        );
    }
}
