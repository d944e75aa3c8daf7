//! Cross-crate properties of the estimate and the link codec.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on a broken fixture

use headroom_core::precision::{ALL_FORMATS, WeightFormat};
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::units::Params;
use headroom_core::{estimate, share};
use proptest::prelude::*;

fn format() -> impl Strategy<Value = WeightFormat> {
    proptest::sample::select(ALL_FORMATS.to_vec())
}

proptest! {
    #[test]
    fn links_round_trip(p in 1u64..=1_000_000_000_000_000, w in proptest::option::of(format())) {
        let s = Scenario { model: ModelSource::Params(Params::new(p)), weights: w };
        let d = share::decode(&share::encode(&s));
        prop_assert!(d.ignored.is_empty());
        prop_assert_eq!(d.scenario, s);
    }

    #[test]
    fn decoding_any_text_never_panics(q in ".{0,200}") {
        let _ = share::decode(&q);
    }

    #[test]
    fn parts_sum_to_total(p in 1u64..=u64::MAX / 64, w in format()) {
        let s = Scenario { model: ModelSource::Params(Params::new(p)), weights: Some(w) };
        if let Ok(e) = estimate(&s) {
            let sum: u64 = e.memory.terms.iter().map(|t| t.bytes.get()).sum();
            prop_assert_eq!(sum, e.memory.total.get());
        }
    }

    #[test]
    fn fewer_bits_never_more_bytes(p in 1u64..=1_000_000_000_000_000) {
        let mut last = u64::MAX;
        for w in [WeightFormat::F32, WeightFormat::Bf16, WeightFormat::Int8, WeightFormat::Int4] {
            let s = Scenario { model: ModelSource::Params(Params::new(p)), weights: Some(w) };
            let b = estimate(&s).unwrap().memory.total.get();
            prop_assert!(b <= last);
            last = b;
        }
    }
}
