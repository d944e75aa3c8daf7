//! Published measurements of inference speed, shown beside the estimate.
//!
//! The data is `data/measured.tsv`: one measured speed per line (model, weight format, runtime,
//! the catalog devices with that chip, the phase and its token counts, tokens per second, the
//! runtime's build, the date and the source), read when asked. Nothing here is fitted or
//! interpolated: a measurement is shown only for the model, format and device it was taken on,
//! and beside it the estimate for that same setting (its context, one sequence, its runtime), so
//! the two are compared like with like.

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::fit;
use crate::hardware::DeviceChoice;
use crate::inference::Runtime;
use crate::precision::WeightFormat;
use crate::scenario::{ModelSource, Scenario};

/// The dataset as shipped: `data/measured.tsv` (tab-separated, a header line) with its `#` comment
/// lines emptied by `build.rs` (line numbers kept).
pub const DATA: &str = include_str!(concat!(env!("OUT_DIR"), "/measured.tsv"));

/// The header line the data must start with (after its comments).
const HEADER: &str = "model\tweights\truntime\tdevices\thardware\tphase\tprompt\tgenerated\tbatch\ttokens_per_s\tbuild\tdate\tsource\tubatch\tgpus";

/// Which speed was measured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Reading the prompt (llama-bench `pp`).
    Prefill,
    /// Generating tokens one by one (llama-bench `tg`).
    Decode,
}

impl Phase {
    /// The id in the data and in JSON.
    pub const fn id(self) -> &'static str {
        match self {
            Phase::Prefill => "prefill",
            Phase::Decode => "decode",
        }
    }
}

/// One published measurement.
#[derive(Clone, Debug, PartialEq)]
pub struct Measurement {
    /// Catalog model id.
    pub model: &'static str,
    /// The weight format of the file measured.
    pub weights: WeightFormat,
    /// The runtime that ran it.
    pub runtime: Runtime,
    /// Catalog devices with the chip it ran on.
    pub devices: Vec<&'static str>,
    /// The hardware as the source names it.
    pub hardware: &'static str,
    /// Prefill or decode.
    pub phase: Phase,
    /// Prompt tokens.
    pub prompt: u64,
    /// Generated tokens.
    pub generated: u64,
    /// Sequences at once.
    pub batch: u64,
    /// The measured speed.
    pub tokens_per_s: f64,
    /// The runtime's build or version (`-` when not stated).
    pub build: &'static str,
    /// When (`YYYY`, `YYYY-MM` or `YYYY-MM-DD`).
    pub date: &'static str,
    /// Where it was published (a URL, then details after ` ; `).
    pub source: &'static str,
    /// llama.cpp's micro-batch (`-ub`) when the source set it (`None`: the default).
    pub ubatch: Option<u64>,
    /// GPUs the model was split over (tensor parallelism for vLLM and SGLang); 1 for one device.
    pub gpus: u64,
}

impl Measurement {
    /// The source's address (before any detail).
    pub fn url(&self) -> &'static str {
        self.source.split(" ; ").next().unwrap_or(self.source).trim()
    }

    /// The test as llama-bench names it: `pp512`, `tg128`.
    pub fn test(&self) -> String {
        match self.phase {
            Phase::Prefill => alloc::format!("pp{}", self.prompt),
            Phase::Decode => alloc::format!("tg{}", self.generated),
        }
    }

    /// The scenario of this measurement on `device`: `base`'s model and settings, with the
    /// measured format, runtime, one batch of the measured sequences, and a context of the
    /// measured tokens.
    pub fn scenario(&self, base: &Scenario, device: &str) -> Scenario {
        let mut llama = base.llama.clone();
        if let Some(ub) = self.ubatch {
            llama.ubatch = ub;
            llama.batch = llama.batch.max(ub);
        }
        Scenario {
            llama,
            model: ModelSource::Catalog(self.model.into()),
            weights: Some(self.weights),
            runtime: Some(self.runtime),
            context: (self.prompt + self.generated).max(1),
            batch: self.batch.max(1),
            device: Some(DeviceChoice::Catalog(device.into())),
            gpus: self.gpus.max(1),
            mode: crate::training::Mode::Inference,
            ..base.clone()
        }
    }
}

/// Every measurement in the dataset.
///
/// # Errors
/// [`Error::Parse`] naming the line when the data is malformed (a test keeps it from shipping so).
pub fn all() -> Result<Vec<Measurement>> {
    data_lines()?.map(|(i, line)| row(i, line)).collect()
}

/// The data lines (after the comments and the header), with their line index.
fn data_lines() -> Result<impl Iterator<Item = (usize, &'static str)>> {
    let mut lines = DATA.lines().enumerate().filter(|(_, l)| !l.starts_with('#') && !l.trim().is_empty());
    match lines.next() {
        Some((_, h)) if h == HEADER => Ok(lines),
        Some((i, _)) => Err(bad(i, "the header line is not the expected one")),
        None => Err(bad(0, "no header line")),
    }
}

fn bad(line: usize, why: &str) -> Error {
    Error::Parse { format: "measured.tsv", reason: alloc::format!("line {}: {why}", line + 1) }
}

fn row(i: usize, line: &'static str) -> Result<Measurement> {
    let f: Vec<&'static str> = line.split('\t').collect();
    if f.len() != 15 {
        return Err(bad(i, "not 15 tab-separated fields"));
    }
    let num = |s: &str| s.parse::<u64>().map_err(|_| bad(i, "a token count is not a whole number"));
    let model = crate::catalog::model(f[0]).map_err(|_| bad(i, "unknown model"))?.id;
    let weights = WeightFormat::parse(f[1]).map_err(|_| bad(i, "unknown weight format"))?;
    let runtime = Runtime::parse(f[2]).map_err(|_| bad(i, "unknown runtime"))?;
    let devices = f[3]
        .split(',')
        .map(|d| crate::catalog::device(d).map(|d| d.id).map_err(|_| bad(i, "unknown device")))
        .collect::<Result<Vec<_>>>()?;
    let phase = match f[5] {
        "prefill" => Phase::Prefill,
        "decode" => Phase::Decode,
        _ => return Err(bad(i, "phase is neither prefill nor decode")),
    };
    let tokens_per_s: f64 = f[9].parse().map_err(|_| bad(i, "tokens_per_s is not a number"))?;
    if !(tokens_per_s.is_finite() && tokens_per_s > 0.0) {
        return Err(bad(i, "tokens_per_s is not positive"));
    }
    if !f[12].starts_with("https://") {
        return Err(bad(i, "the source is not an https address"));
    }
    Ok(Measurement {
        model,
        weights,
        runtime,
        devices,
        hardware: f[4],
        phase,
        prompt: num(f[6])?,
        generated: num(f[7])?,
        batch: num(f[8])?,
        tokens_per_s,
        build: f[10],
        date: f[11],
        source: f[12],
        ubatch: match f[13] {
            "-" => None,
            n => Some(num(n)?),
        },
        gpus: match f[14] {
            "-" => 1,
            n => num(n)
                .ok()
                .filter(|g| (1..=crate::scenario::MAX_GPUS).contains(g))
                .ok_or_else(|| bad(i, "gpus is not a GPU count"))?,
        },
    })
}

/// A measurement with the estimate for its own setting.
#[derive(Clone, Debug, PartialEq)]
pub struct Beside {
    /// The measurement.
    pub measured: Measurement,
    /// The estimate's speed for the same phase, model, format, runtime, device and tokens
    /// (`None` when the estimate gives none there, e.g. it does not fit).
    pub estimated: Option<f64>,
}

impl Beside {
    /// The estimate over the measurement, minus one (`-0.1`: 10% under); `None` without one.
    pub fn error(&self) -> Option<f64> {
        self.estimated.map(|e| e / self.measured.tokens_per_s - 1.0)
    }
}

/// The measurements taken for the scenario's catalog model, its weight `format` (the one its
/// estimate resolved) and its catalog device, each with the estimate at the measurement's own
/// setting; empty when there are none (or the scenario names no catalog model or device).
///
/// # Errors
/// The scenario's own errors (an unknown model or device).
pub fn for_scenario(s: &Scenario, format: WeightFormat) -> Result<Vec<Beside>> {
    let (ModelSource::Catalog(m), Some(DeviceChoice::Catalog(d))) = (&s.model, &s.device) else {
        return Ok(Vec::new());
    };
    let model = crate::catalog::model(m)?.id;
    let device = crate::catalog::device(d)?.id;
    let mut out = Vec::new();
    // Only the lines of this model and device are read in full (this runs on every change).
    let candidate = |line: &str| {
        let mut f = line.split('\t');
        f.next() == Some(model) && f.nth(2).is_some_and(|ids| ids.split(',').any(|d| d == device))
    };
    for (i, line) in data_lines()?.filter(|(_, l)| candidate(l)) {
        let m = row(i, line)?;
        // A measurement over several GPUs stands beside a scenario over as many.
        if m.weights != format || m.gpus != s.gpus.max(1) {
            continue;
        }
        let at = m.scenario(s, device);
        let estimated =
            fit::estimate_with_device(&at).ok().and_then(|(_, f)| f?.speed).map(|sp| match m.phase {
                Phase::Prefill => sp.prefill_tokens_per_s,
                Phase::Decode => sp.decode_tokens_per_s,
            });
        out.push(Beside { measured: m, estimated: estimated.filter(|x| x.is_finite() && *x > 0.0) });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_reads_with_catalog_ids_a_source_and_a_date() {
        let all = all().unwrap();
        assert!(all.len() >= 20, "{}", all.len());
        // Ids as the catalog writes them, not aliases: the per-scenario reader matches them as text.
        for (i, line) in data_lines().unwrap() {
            let m = row(i, line).unwrap();
            let f: Vec<&str> = line.split('\t').collect();
            assert_eq!(f[0], m.model, "line {}", i + 1);
            assert_eq!(f[3], m.devices.join(","), "line {}", i + 1);
        }
        for m in &all {
            assert!(!m.devices.is_empty() && !m.hardware.is_empty());
            let year: u32 = m.date[..4].parse().unwrap();
            assert!((2023..=2026).contains(&year), "{}", m.date);
            assert!(m.url().starts_with("https://") && !m.url().contains(' '), "{}", m.source);
            match m.phase {
                Phase::Prefill => assert!(m.prompt > 0 && m.generated == 0),
                Phase::Decode => assert!(m.generated > 0),
            }
        }
    }

    #[test]
    fn a_scenario_sees_its_own_measurements_only() {
        let s = Scenario {
            weights: Some(WeightFormat::parse("q4_0").unwrap()),
            device: Some(DeviceChoice::Catalog("rtx-4090".into())),
            ..Scenario::catalog("llama-2-7b")
        };
        let q4 = WeightFormat::parse("q4_0").unwrap();
        let found = for_scenario(&s, q4).unwrap();
        assert!(!found.is_empty());
        for b in &found {
            assert_eq!(b.measured.model, "llama-2-7b");
            assert!(b.measured.devices.contains(&"rtx-4090"));
            assert!(b.estimated.is_some());
        }
        // Another format, another device, a device of one's own: none.
        let q8 = WeightFormat::parse("q8_0").unwrap();
        assert!(for_scenario(&s, q8).unwrap().iter().all(|b| b.measured.weights == q8));
        let mine = Scenario { device: None, ..s.clone() };
        assert!(for_scenario(&mine, q4).unwrap().is_empty());
        let other = Scenario { model: ModelSource::Catalog("qwen3-8b".into()), ..s.clone() };
        assert!(for_scenario(&other, q4).unwrap().is_empty());
        let h100 = Scenario { device: Some(DeviceChoice::Catalog("h100-sxm".into())), ..s };
        assert!(for_scenario(&h100, q4).unwrap().is_empty());
    }
}
