//! Benchmarks of the estimation core (figures in BENCHMARKS.md).

use criterion::{Criterion, criterion_group, criterion_main};
use headroom_core::precision::WeightFormat;
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::units::Params;
use std::hint::black_box;

fn bench_estimate(c: &mut Criterion) {
    let s =
        Scenario { model: ModelSource::Params(Params::new(7_000_000_000)), weights: Some(WeightFormat::F16) };
    c.bench_function("estimate/params-7b-fp16", |b| b.iter(|| headroom_core::estimate(black_box(&s))));
    c.bench_function("share/round-trip", |b| {
        b.iter(|| headroom_core::share::decode(&headroom_core::share::encode(black_box(&s))))
    });
}

criterion_group!(benches, bench_estimate);
criterion_main!(benches);
