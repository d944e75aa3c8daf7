//! Every link in `fixtures/golden-links.tsv` keeps decoding to the same scenario.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::share;
use headroom_tests::fixture_lines;

#[test]
fn golden_links_decode_forever() {
    let lines = fixture_lines("golden-links.tsv");
    assert!(lines.len() >= 20);
    for line in lines {
        let (query, canonical) = line.split_once('\t').expect("two columns");
        let decoded = share::decode_link(query);
        assert!(decoded.ignored.is_empty(), "{query}: ignored {:?}", decoded.ignored);
        assert_eq!(share::encode_link(&decoded.link), canonical, "{query}");
        // The canonical form is a fixed point, and every scenario in it can be estimated.
        assert_eq!(share::decode_link(canonical).link, decoded.link, "{canonical}");
        assert!(headroom_core::fit::estimate_with_device(&decoded.link.scenario).is_ok(), "{query}");
    }
}
