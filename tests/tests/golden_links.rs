//! Every link in `fixtures/golden-links.tsv` keeps decoding to the same scenario.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::share;
use headroom_tests::fixture_lines;

#[test]
fn golden_links_decode_forever() {
    let lines = fixture_lines("golden-links.tsv");
    assert!(!lines.is_empty());
    for line in lines {
        let (query, canonical) = line.split_once('\t').expect("two columns");
        let decoded = share::decode(query);
        assert!(decoded.ignored.is_empty(), "{query}: ignored {:?}", decoded.ignored);
        assert_eq!(share::encode(&decoded.scenario), canonical, "{query}");
        // The canonical form is a fixed point.
        assert_eq!(share::decode(canonical).scenario, decoded.scenario, "{canonical}");
    }
}
