//! The answers as HTML: pure functions from the core's `Estimate` and `Fit` to markup.
//!
//! The result cards are mostly text and tables that change together, so they are written as one
//! escaped HTML string rather than hundreds of reactive nodes: the WASM stays small (each
//! distinct `view!` costs code) and the rendering is testable without a browser. Buttons carry
//! `data-action` and `data-arg`; the page handles their clicks in one place. Every dynamic string
//! passes through [`esc`].

use core::fmt::Write;

use headroom_core::catalog::device::DeviceKind;
use headroom_core::estimate::{Estimate, Memory, SweepPoint, TermKind};
use headroom_core::fit::{Fit, FitOrder, Verdict};
use headroom_core::inference::Runtime;
use headroom_core::model::Confidence;
use headroom_core::precision::SEED_TABLE;
use headroom_core::scenario::Scenario;
use headroom_core::share::{MAX_PIN_NAME, MAX_PINNED, Pinned};
use headroom_core::text::{Lang, Msg, MsgId, Units, format_int, format_num, format_size_in};
use headroom_core::units::Bytes;

use crate::i18n::{T, tr};

thread_local! {
    /// How sizes are written while rendering: a page-wide display choice like the language,
    /// set around each render by [`in_units`] rather than threaded through every function.
    static UNITS: core::cell::Cell<Units> = const { core::cell::Cell::new(Units::Both) };
}

/// Sizes are written in `units` until the returned guard is dropped (then as before): a
/// render closure starts with `let _units = render::write_sizes_in(ui.units.get());`.
#[must_use = "the choice lasts as long as the guard"]
pub fn write_sizes_in(units: Units) -> UnitsGuard {
    UnitsGuard(UNITS.replace(units))
}

/// Restores the size units in effect before [`write_sizes_in`] when dropped.
pub struct UnitsGuard(Units);

impl Drop for UnitsGuard {
    fn drop(&mut self) {
        UNITS.set(self.0);
    }
}

/// The size units in effect.
pub fn units() -> Units {
    UNITS.get()
}

/// A size as the page writes it now (language and units).
pub fn format_size(b: Bytes, l: Lang) -> String {
    format_size_in(b, l, units())
}

/// A core message as the page writes it now.
pub fn say(m: &Msg, l: Lang) -> String {
    m.render_in(l, units())
}

/// Escapes text for HTML content and attribute values.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A term's display name.
pub fn term_name(kind: TermKind, lang: Lang) -> String {
    Msg::new(kind.name(), Vec::new()).render(lang)
}

/// Tokens per second, readable, with the language's decimal mark.
pub fn tps(x: f64, l: Lang) -> String {
    match headroom_core::text::format_rate(x) {
        Some(s) if l == Lang::Fr => s.replace('.', ","),
        Some(s) => s,
        None => "—".into(),
    }
}

/// Dollars, readable: `$0.320` in English, `0,320 $` in French.
pub fn money(x: f64, l: Lang) -> String {
    let decimals = if x >= 100.0 {
        0
    } else if x >= 1.0 {
        2
    } else {
        3
    };
    match l {
        Lang::En => format!("${x:.decimals$}"),
        Lang::Fr => format!("{}\u{a0}$", format_num(x, decimals as u8, l)),
    }
}

/// Seconds, readable.
pub fn duration(s: f64, lang: Lang) -> String {
    if !s.is_finite() {
        "—".into()
    } else if s < 1.0 {
        format!("{} ms", format_num(s * 1000.0, 0, lang))
    } else if s < 120.0 {
        format!("{} s", format_num(s, 1, lang))
    } else if s < 7200.0 {
        format!("{} min", format_num(s / 60.0, 0, lang))
    } else if s < 172_800.0 {
        format!("{} h", format_num(s / 3600.0, 1, lang))
    } else {
        format!("{} d", format_num(s / 86400.0, 1, lang))
    }
}

/// Verdict words.
pub fn verdict_text(v: Verdict, lang: Lang) -> &'static str {
    tr(
        lang,
        match v {
            Verdict::Fits => T::Fits,
            Verdict::Offload => T::OffloadV,
            Verdict::Cpu => T::CpuV,
            Verdict::No => T::NoV,
        },
    )
}

/// A device's verdict in words: "cannot run" where the runtime or the hardware refuses the
/// scenario whatever the memory, "does not fit" where memory is short.
pub fn fit_text(f: &Fit, lang: Lang) -> &'static str {
    if f.refusal().is_some() { tr(lang, T::CannotRunV) } else { verdict_text(f.verdict, lang) }
}

/// What limits a speed, in words.
pub fn limit_text(limit: headroom_core::speed::Limit, l: Lang) -> &'static str {
    use headroom_core::speed::Limit;
    tr(
        l,
        match limit {
            Limit::WeightBandwidth => T::LimitWeights,
            Limit::KvBandwidth => T::LimitKv,
            Limit::Compute => T::LimitCompute,
            Limit::HostMemory => T::LimitHost,
            Limit::Latency => T::LimitLatency,
        },
    )
}

/// An estimate with its fit, or why it could not be computed.
pub type Outcome = Result<(Estimate, Option<Fit>), headroom_core::Error>;

/// What the results depend on besides the estimate.
pub struct Ctx<'a> {
    /// The language.
    pub lang: Lang,
    /// Keys of the `<details>` the reader opened.
    pub open: &'a [String],
}

/// The results of an estimate that could not be computed.
pub fn error(e: &headroom_core::Error, lang: Lang) -> String {
    format!(
        "<div class=\"hr-card hr-error-card\" role=\"alert\"><strong>{}</strong> {}</div>",
        tr(lang, T::Error),
        esc(&e.to_string())
    )
}

/// Disk, VRAM, RAM and compute side by side: "it downloads" is not "it runs".
pub fn resources(e: &Estimate, fit: Option<&Fit>, l: Lang) -> String {
    let on_cpu = matches!(e.runtime, Runtime::Mlx | Runtime::Cpu);
    let speed = fit.and_then(|f| f.speed.as_ref()).map(|s| s.decode_tokens_per_s);
    let per = if e.devices > 1 { format!(" × {}", e.devices) } else { String::new() };
    let mut compute = tr(l, T::PerToken).to_string();
    if e.training.is_some() {
        compute = format!("{compute} · {} {}", format_int(e.trainable_params, l), tr(l, T::Trainable));
    } else if let Some(t) = speed {
        compute = format!("{compute} · {} {}", tps(t, l), tr(l, T::TokS));
    }
    let card = |id: &str, label: &str, value: &str, bytes: Option<Bytes>, small: &str| {
        let data = bytes.map(|b| format!(" data-bytes=\"{}\"", b.get())).unwrap_or_default();
        let inner_id =
            if id == "hr-res-vram" { " id=\"hr-total-bytes\" elementtiming=\"hr-first-result\"" } else { "" };
        format!(
            "<div class=\"hr-res\" id=\"{id}\"><span class=\"hr-res-label\">{}</span><strong{inner_id}{data}>{}</strong><small>{}</small></div>",
            esc(label),
            esc(value),
            esc(small)
        )
    };
    let mut s = String::from("<div class=\"hr-resources\">");
    s.push_str(&card(
        "hr-res-disk",
        tr(l, T::Disk),
        &format_size(e.disk.weights, l),
        Some(e.disk.weights),
        tr(l, T::DiskHint),
    ));
    s.push_str(&card(
        "hr-res-vram",
        &format!("{}{per}", tr(l, if on_cpu { T::RamCard } else { T::Vram1 })),
        &format_size(e.memory.total, l),
        Some(e.memory.total),
        &format!("{} – {}", format_size(e.memory.total_low, l), format_size(e.memory.total_high, l)),
    ));
    s.push_str(&card(
        "hr-res-ram",
        tr(l, T::RamCard),
        &format_size(e.host.total, l),
        Some(e.host.total),
        tr(l, if on_cpu { T::RamCpuHint } else { T::RamHint }),
    ));
    s.push_str(&card(
        "hr-res-compute",
        tr(l, T::Compute),
        &format!("{} GFLOP", format_num(e.flops_per_token / 1e9, 1, l)),
        None,
        &compute,
    ));
    s.push_str("</div>");
    s
}

/// The banner over figures that are no longer what the form says: a field holds a value that
/// could not be read, so they are those of its last valid value.
pub fn stale(l: Lang) -> String {
    format!("<p class=\"hr-stale-note\" id=\"hr-stale\" role=\"status\">{}</p>", tr(l, T::Stale))
}

/// What the answer takes on trust, shown beside it (never as a footnote): an inferred family, a
/// stand-in shape, an encoder or a quantization not read. Empty when there is nothing to say.
pub fn warnings(e: &Estimate, l: Lang) -> String {
    if e.warnings.is_empty() {
        return String::new();
    }
    let head = match e.model.confidence {
        Confidence::Inferred => tr(l, T::ConfidenceInferred),
        Confidence::StandIn => tr(l, T::ConfidenceStandIn),
        _ => tr(l, T::ConfidenceNote),
    };
    let mut s = format!(
        "<div class=\"hr-card hr-warnings\" id=\"hr-warnings\" role=\"alert\" data-confidence=\"{}\"><h2>{}</h2><p><strong>{}</strong></p><ul>",
        e.model.confidence.id(),
        tr(l, T::Warnings),
        esc(head)
    );
    for w in &e.warnings {
        let _ = write!(s, "<li>{}</li>", esc(&say(w, l)));
    }
    s.push_str("</ul></div>");
    s
}

/// The stack, one row per run of identical layers.
fn layers_table(e: &Estimate, l: Lang) -> String {
    if e.model.layers.is_empty() {
        return String::new();
    }
    let mut s = format!(
        "<details class=\"hr-layers\" id=\"hr-layers\"><summary>{} — {}</summary><div class=\"hr-scroll\"><table><thead><tr><th>#</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        tr(l, T::Layers),
        esc(e.model.architecture.as_deref().unwrap_or("")),
        tr(l, T::LayerMixers),
        tr(l, T::LayerFfn),
        tr(l, T::LayerParams),
        tr(l, T::LayerCache)
    );
    let mut first = 0u64;
    for g in &e.model.layers {
        let range =
            if g.count == 1 { format!("{first}") } else { format!("{first}–{}", first + g.count - 1) };
        first += g.count;
        let mixers = if g.mixers.is_empty() {
            "—".to_string()
        } else {
            g.mixers.iter().map(|m| m.describe()).collect::<Vec<_>>().join(" + ")
        };
        let cache = match (g.kv_elements_per_token, g.state_elements_per_sequence) {
            (0, 0) => "—".to_string(),
            (k, 0) => format_int(k, l),
            (0, st) => format!("{} / seq", format_int(st, l)),
            (k, st) => format!("{} + {} / seq", format_int(k, l), format_int(st, l)),
        };
        let _ = write!(
            s,
            "<tr><td>{range}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(&mixers),
            esc(&g.ffn.describe()),
            format_int(g.params_per_layer, l),
            cache
        );
    }
    s.push_str("</tbody></table></div></details>");
    s
}

/// The verdict on the chosen device, with headroom, a gauge and advice.
pub fn verdict(f: &Fit, l: Lang) -> String {
    let pct = if f.capacity.get() > 0 {
        (f.need.get() as f64 / f.capacity.get() as f64 * 100.0).min(100.0)
    } else {
        100.0
    };
    // A setup the runtime refuses: its memory may fit, which is said as such, and the gauge is
    // not green.
    let refused = f.verdict == Verdict::No && f.refusal().is_some();
    let headroom = format_num(f.headroom * 100.0, 0, l);
    let mut s = format!(
        "<div class=\"hr-card hr-verdict hr-verdict-{v}{warn}\" id=\"hr-verdict\" data-verdict=\"{v}\"><h2>{}: {}</h2>\
         <p class=\"hr-verdict-line\"><strong>{}</strong> — {} / {} · {}</p>\
         <div class=\"hr-gauge\" role=\"img\" aria-label=\"{pct:.0}%\"><div class=\"hr-gauge-fill{}\" style=\"width:{pct:.1}%\"></div></div>",
        tr(l, T::Verdict),
        esc(f.name),
        fit_text(f, l),
        format_size(f.need, l),
        format_size(f.capacity, l),
        if refused && f.need <= f.capacity {
            tr(l, T::RefusedMemoryFits).replace("{0}", &headroom)
        } else {
            format!("{} {headroom}%", tr(l, T::Headroom))
        },
        if f.need > f.capacity || refused { " hr-over" } else { "" },
        v = f.verdict.id(),
        // A fit that leaves the system too little is a warning, not a plain yes.
        warn = if f.advice.iter().any(|m| matches!(m.id, MsgId::AdviceMacReserve | MsgId::AdviceTight)) {
            " hr-verdict-tight"
        } else {
            ""
        },
    );
    if !f.advice.is_empty() {
        s.push_str("<ul class=\"hr-advice\">");
        for a in &f.advice {
            let _ = write!(s, "<li>{}</li>", esc(&say(a, l)));
        }
        s.push_str("</ul>");
    }
    s.push_str("</div>");
    s
}

/// A training run on its device: what would make it fit, step by step, each a link to the
/// scenario it leads to; or, when it fits, the longest sequence and largest micro-batch that do.
pub fn training_advice(a: &headroom_core::fit::TrainingAdvice, l: Lang) -> String {
    let r = &a.remedies;
    if r.is_empty() {
        return match (a.max_context, a.max_micro_batch) {
            (Some(c), Some(b)) => format!(
                "<div class=\"hr-card hr-remedies\" id=\"hr-training-limits\"><p>{}</p></div>",
                esc(&tr(l, T::FitsUpTo).replace("{0}", &format_int(c, l)).replace("{1}", &format_int(b, l)))
            ),
            _ => String::new(),
        };
    }
    let mut s =
        format!("<div class=\"hr-card hr-remedies\" id=\"hr-remedies\"><h2>{}</h2><ol>", tr(l, T::MakeItFit));
    for x in r {
        let _ = write!(
            s,
            "<li{}><a href=\"{}\">{}</a> → {}{}</li>",
            if x.fits { " class=\"hr-fits\"" } else { "" },
            esc(&headroom_core::share::encode(&x.scenario)),
            esc(&say(&x.label, l)),
            format_size(x.need, l),
            if x.fits { format!(" — {}", tr(l, T::ItFits)) } else { String::new() }
        );
    }
    s.push_str("</ol>");
    if !r.iter().any(|x| x.fits) {
        let _ = write!(s, "<p>{}</p>", tr(l, T::NoneEnough));
    }
    s.push_str("</div>");
    s
}

/// LoRA's rank/targets trade-off as a table (ranks down, targets across), each setting a link
/// that applies it to `s`, the scenario's own marked.
pub fn lora_tradeoff(options: &[headroom_core::fit::LoraOption], s: &Scenario, l: Lang) -> String {
    if options.is_empty() {
        return String::new();
    }
    let mut h = format!(
        "<div class=\"hr-card hr-lora\" id=\"hr-lora-tradeoff\"><h2>{}</h2><table><thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>",
        tr(l, T::LoraTradeoff),
        tr(l, T::LoraRank),
        tr(l, T::LoraAttention),
        tr(l, T::LoraAllLinear),
    );
    for rank in headroom_core::fit::LORA_RANKS {
        let _ = write!(h, "<tr><th scope=\"row\">{rank}</th>");
        for o in options.iter().filter(|o| o.rank == rank) {
            let link = headroom_core::share::encode(&Scenario {
                lora_rank: rank,
                lora_targets: o.targets.clone(),
                ..s.clone()
            });
            let fit = match o.fits {
                Some(true) => format!(" <span class=\"hr-fit-yes\">{}</span>", tr(l, T::ItFits)),
                Some(false) => format!(" <span class=\"hr-fit-no\">{}</span>", tr(l, T::DoesNotFit)),
                None => String::new(),
            };
            let _ = write!(
                h,
                "<td{}><a href=\"{}\">{}</a> · {}{}</td>",
                if o.current { " class=\"hr-current\" aria-current=\"true\"" } else { "" },
                esc(&link),
                format_int(o.trainable, l),
                format_size(o.need, l),
                fit
            );
        }
        h.push_str("</tr>");
    }
    h.push_str("</tbody></table></div>");
    h
}

/// llama.cpp over several GPUs: each card's layers and memory under its layer split.
pub fn llama_gpus(gpus: &[headroom_core::llama_cpp::GpuShare], l: Lang) -> String {
    if gpus.is_empty() {
        return String::new();
    }
    let mut s = format!(
        "<div class=\"hr-card hr-llama-gpus\" id=\"hr-llama-gpus\"><h2>{}</h2><table><thead><tr><th>GPU</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        tr(l, T::LlamaSplitTitle),
        tr(l, T::LlamaSplitLayers),
        tr(l, T::LlamaSplitWeights),
        tr(l, T::LlamaSplitCache),
        tr(l, T::LlamaSplitCompute),
        tr(l, T::LlamaSplitTotal),
    );
    let busiest = gpus.iter().map(|g| g.total).max().unwrap_or_default();
    for (i, g) in gpus.iter().enumerate() {
        let layers = if g.end > g.first { format!("{}–{}", g.first, g.end - 1) } else { "—".to_string() };
        let _ = write!(
            s,
            "<tr{}><td>{i}</td><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            if g.total == busiest { " class=\"hr-busiest\"" } else { "" },
            layers,
            if g.head { format!(" + {}", tr(l, T::LlamaSplitHead)) } else { String::new() },
            format_size(g.weights, l),
            format_size(g.cache, l),
            format_size(g.compute, l),
            format_size(g.total, l),
        );
    }
    s.push_str("</tbody></table></div>");
    s
}

/// vLLM's startup budget: its share of the card, each term, the KV cache left, the log lines it
/// stands for and the requests the cache holds at once per context.
pub fn vllm_budget(b: &headroom_core::vllm::VllmBudget, l: Lang) -> String {
    let gib = |x: i64| format_size(Bytes::new(x.unsigned_abs()), l);
    let sign = |x: i64| if x < 0 { "−" } else { "" };
    let mut s = format!(
        "<div class=\"hr-card hr-vllm-budget\" id=\"hr-vllm-budget\"><h2>vLLM {} {}</h2>",
        esc(&b.version),
        tr(l, T::VllmAtStart)
    );
    // A setup vLLM refuses: it stops before loading anything (or once the weights are in), so
    // there is no budget to show, only why and the lines its log ends on.
    let refused = b.tp_refused.as_ref();
    match (refused, b.measured.as_ref()) {
        (Some(r), _) => {
            let _ = write!(s, "<p class=\"hr-warning\">{}</p>", esc(&r.reason.render(l)));
        }
        (None, Some(m)) => {
            // vLLM 0.34's extensible cache, measured after warmup within the profile step's
            // reservation: its share less what is in use and the transient when the share binds,
            // else the card less the context, what is in use, the margin and the transient.
            let (start, terms) = if m.capped {
                (
                    format!(
                        "{} × {:.2} = <strong>{}</strong> ({})",
                        format_size(b.total, l),
                        b.utilization,
                        format_size(b.requested, l),
                        tr(l, T::VllmShare)
                    ),
                    vec![(m.in_use, T::VllmInUse), (m.transient, T::VllmTransient)],
                )
            } else {
                (
                    format_size(b.total, l),
                    vec![
                        (m.context, T::VllmContext),
                        (m.in_use, T::VllmInUse),
                        (m.margin, T::VllmMargin),
                        (m.transient, T::VllmTransient),
                    ],
                )
            };
            let _ = write!(s, "<p>{start}");
            for (bytes, what) in terms {
                let _ = write!(s, " − {} ({})", format_size(bytes, l), tr(l, what));
            }
            let _ = write!(
                s,
                " = {} ({}): <strong>{}{}</strong> ({}{} … {}{}); {}{} {}</p>",
                tr(l, T::VllmKvCache),
                tr(l, T::VllmAfterWarmup),
                sign(m.kv),
                gib(m.kv),
                sign(m.kv_band.0),
                gib(m.kv_band.0),
                sign(m.kv_band.1),
                gib(m.kv_band.1),
                sign(b.available_kv),
                gib(b.available_kv),
                tr(l, T::VllmReserved),
            );
        }
        (None, None) => {
            let _ = write!(
                s,
                "<p>{} × {:.2} = <strong>{}</strong> ({}) − {} − {} − {} − {} = {}: <strong>{}{}</strong> ({}{} … {}{})</p>",
                format_size(b.total, l),
                b.utilization,
                format_size(b.requested, l),
                tr(l, T::VllmShare),
                // The sampler's state is built with the model, beside its weights.
                format_size(b.weights.saturating_add(b.sampler_state), l),
                format_size(b.activation_peak, l),
                format_size(b.non_torch, l),
                format_size(b.cuda_graphs, l),
                tr(l, T::VllmKvCache),
                sign(b.available_kv),
                gib(b.available_kv),
                sign(b.available_kv_band.0),
                gib(b.available_kv_band.0),
                sign(b.available_kv_band.1),
                gib(b.available_kv_band.1),
            );
        }
    }
    if refused.is_none() && !b.layout_exact {
        let _ = write!(s, "<p class=\"hr-warning\">{}</p>", tr(l, T::VllmApprox));
    }
    let _ = write!(s, "<h3>{}</h3><pre class=\"hr-log\">", tr(l, T::VllmLog));
    for line in b.log_lines() {
        let _ = writeln!(s, "{}", esc(&line));
    }
    s.push_str("</pre>");
    if refused.is_some() {
        s.push_str("</div>");
        return s;
    }
    if b.available_kv > 0 && b.measured.as_ref().is_none_or(|m| m.kv > 0) {
        let _ = write!(
            s,
            "<h3>{}</h3><table class=\"hr-table\"><thead><tr><th>{}</th><th>{}</th></tr></thead><tbody>",
            tr(l, T::VllmRequests),
            tr(l, T::VllmTokensPerRequest),
            tr(l, T::VllmRequestsCol)
        );
        for &(c, n) in &b.table {
            let mark = if c == b.max_model_len { " class=\"hr-current\"" } else { "" };
            let _ = write!(s, "<tr{mark}><td>{}</td><td>{}</td></tr>", format_int(c, l), format_int(n, l));
        }
        s.push_str("</tbody></table>");
    }
    s.push_str("</div>");
    s
}

/// SGLang's startup budget: the static share of the free memory, the weights, the KV pool and
/// the log lines it stands for.
pub fn sglang_budget(b: &headroom_core::sglang::SglangBudget, l: Lang) -> String {
    let mut s = format!(
        "<div class=\"hr-card hr-vllm-budget\" id=\"hr-sglang-budget\"><h2>{}</h2><p>{} × {:.3} − {} = <strong>{}{}</strong>: {} {}</p><h3>{}</h3><pre class=\"hr-log\">",
        tr(l, T::SglangAtStart),
        format_size(b.free_at_start, l),
        b.mem_fraction_static,
        format_size(b.weights, l),
        if b.pool < 0 { "−" } else { "" },
        format_size(Bytes::new(b.pool.unsigned_abs()), l),
        format_int(b.max_total_num_tokens, l),
        tr(l, T::SglangPoolTokens),
        tr(l, T::VllmLog),
    );
    for line in b.log_lines() {
        let _ = writeln!(s, "{}", esc(&line));
    }
    s.push_str("</pre></div>");
    s
}

/// A stacked bar of the terms.
pub fn bar(m: &Memory, l: Lang) -> String {
    let total = m.total.get().max(1) as f64;
    let mut s =
        format!("<div class=\"hr-bar\" role=\"img\" aria-label=\"{}\">", esc(&format_size(m.total, l)));
    for t in m.terms.iter().filter(|t| t.bytes.get() > 0) {
        let _ = write!(
            s,
            "<div class=\"hr-seg hr-seg-{}\" style=\"width:{:.2}%\" title=\"{}: {}\"></div>",
            t.kind.key(),
            t.bytes.get() as f64 / total * 100.0,
            esc(&term_name(t.kind, l)),
            esc(&format_size(t.bytes, l))
        );
    }
    s.push_str("</div>");
    s
}

fn terms_table(m: &Memory, c: &Ctx<'_>, prefix: &str) -> String {
    let l = c.lang;
    let mut s = bar(m, l);
    s.push_str("<table class=\"hr-terms\"><tbody>");
    for t in &m.terms {
        let key = format!("{prefix}{}", t.kind.key());
        let open = if c.open.contains(&key) { " open" } else { "" };
        let band = if t.is_exact() {
            tr(l, T::Exact).to_string()
        } else {
            format!("{} {} – {}", tr(l, T::Range), format_size(t.low, l), format_size(t.high, l))
        };
        let _ = write!(
            s,
            "<tr><td><span class=\"hr-swatch hr-seg-{k}\"></span></td><td><details{open}>\
             <summary data-action=\"toggle\" data-arg=\"{key}\">{}</summary>\
             <p class=\"hr-formula\"><strong>{}:</strong> {}</p>",
            esc(&term_name(t.kind, l)),
            tr(l, T::Formula),
            esc(&say(&t.formula, l)),
            k = t.kind.key(),
        );
        if !t.assumptions.is_empty() {
            let _ = write!(
                s,
                "<p class=\"hr-assume\"><strong>{}:</strong></p><ul class=\"hr-assume\">",
                tr(l, T::Assumptions)
            );
            for a in &t.assumptions {
                let _ = write!(s, "<li>{}</li>", esc(&say(a, l)));
            }
            s.push_str("</ul>");
        }
        let _ = write!(
            s,
            "</details></td><td class=\"hr-num\"><output id=\"{prefix}{id}-bytes\" data-bytes=\"{}\">{}</output></td><td class=\"hr-band\">{}</td></tr>",
            t.bytes.get(),
            esc(&format_size(t.bytes, l)),
            esc(&band),
            id = t.kind.key().replace('_', "-"),
        );
    }
    let _ = write!(
        s,
        "<tr class=\"hr-total-row\"><td></td><td>{}</td><td class=\"hr-num\">{}</td><td class=\"hr-band\">{} – {}</td></tr></tbody></table>",
        tr(l, T::Total),
        format_size(m.total, l),
        format_size(m.total_low, l),
        format_size(m.total_high, l)
    );
    s
}

/// The memory breakdown per device and of system RAM, each term with formula, assumptions, band.
pub fn breakdown(e: &Estimate, c: &Ctx<'_>) -> String {
    let l = c.lang;
    let per = if e.devices > 1 { format!(" — {} / {}", tr(l, T::Vram1), e.devices) } else { String::new() };
    let mut s = format!("<div class=\"hr-card hr-breakdown\"><h2>{}{}</h2>", tr(l, T::Breakdown), esc(&per));
    s.push_str(&terms_table(&e.memory, c, "hr-"));
    if e.host.total > Bytes::ZERO && e.host != e.memory {
        let _ = write!(s, "<h3>{}</h3>", tr(l, T::RamCard));
        s.push_str(&terms_table(&e.host, c, "hr-host-"));
    }
    s.push_str(&layers_table(e, l));
    // What the warnings card already says is not repeated among the notes.
    let notes: Vec<&Msg> = e.notes.iter().filter(|n| !e.warnings.contains(n)).collect();
    if !notes.is_empty() {
        let _ = write!(s, "<div class=\"hr-notes\"><h3>{}</h3><ul>", tr(l, T::Notes));
        for n in notes {
            let _ = write!(s, "<li>{}</li>", esc(&say(n, l)));
        }
        s.push_str("</ul></div>");
    }
    s.push_str("</div>");
    s
}

/// Published measurements of this model, format and device, each beside the estimate at its own
/// setting (its tokens, one sequence, its runtime) with the difference and the source; empty
/// when there are none.
pub fn measured(found: &[headroom_core::measured::Beside], l: Lang) -> String {
    use headroom_core::measured::Phase;
    if found.is_empty() {
        return String::new();
    }
    let mut s = format!(
        "<div class=\"hr-card hr-measured\" id=\"hr-measured\"><h2>{}</h2><p>{}</p><table class=\"hr-measured-table\"><thead><tr><th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>",
        tr(l, T::Measured),
        tr(l, T::MeasuredIntro),
        tr(l, T::MeasuredTest),
        tr(l, T::MeasuredValue),
        tr(l, T::MeasuredEstimate),
        tr(l, T::MeasuredWhere),
        tr(l, T::MeasuredSource),
    );
    for b in found {
        let m = &b.measured;
        let phase = tr(l, if m.phase == Phase::Decode { T::Decode } else { T::Prefill });
        let est = match (b.estimated, b.error()) {
            (Some(x), Some(err)) => {
                let pct = format_num(err.abs() * 100.0, 0, l);
                let sign = if err < 0.0 { "−" } else { "+" };
                format!(
                    "{} {} <small>({sign}{pct}{}%)</small>",
                    esc(&tps(x, l)),
                    tr(l, T::TokS),
                    if l == Lang::Fr { "\u{a0}" } else { "" }
                )
            }
            _ => tr(l, T::NoEstimateThere).to_string(),
        };
        let _ = write!(
            s,
            "<tr data-phase=\"{}\" data-tps=\"{}\"><td>{phase} <small>({})</small></td><td class=\"hr-num\">{} {}</td><td class=\"hr-num\">{est}</td><td>{} · {} {} · {}</td><td><a href=\"{}\" target=\"_blank\" rel=\"noopener\">{}</a></td></tr>",
            m.phase.id(),
            m.tokens_per_s,
            esc(&m.test()),
            esc(&tps(m.tokens_per_s, l)),
            tr(l, T::TokS),
            esc(m.hardware),
            esc(m.runtime.label()),
            esc(m.build),
            esc(m.date),
            esc(m.url()),
            esc(&source_name(m.url())),
        );
    }
    s.push_str("</tbody></table></div>");
    s
}

/// A source address in a few words: `llama.cpp discussion #4167` for a GitHub discussion,
/// the host otherwise.
fn source_name(url: &str) -> String {
    let rest = url.trim_start_matches("https://").trim_start_matches("http://");
    let parts: Vec<&str> = rest.split('/').collect();
    match parts.as_slice() {
        ["github.com", _, repo, kind @ ("discussions" | "issues" | "pull"), n, ..] => {
            let what = match *kind {
                "discussions" => "discussion",
                "issues" => "issue",
                _ => "PR",
            };
            format!("{repo} {what} #{n}")
        }
        [host, ..] => (*host).to_string(),
        [] => url.to_string(),
    }
}

/// Speeds (or training time) and costs on the device.
pub fn speed(e: &Estimate, f: &Fit, l: Lang) -> String {
    let Some(sp) = &f.speed else { return String::new() };
    let c = &f.cost;
    let mut s =
        format!("<div class=\"hr-card hr-speed\"><h2>{}</h2><dl class=\"hr-speeds\">", tr(l, T::Speed));
    if e.training.is_some() {
        let _ = write!(
            s,
            "<dt>{}</dt><dd id=\"hr-train-time\">{}</dd><dt>{}</dt><dd>{}</dd>",
            tr(l, T::TrainingTime),
            sp.training_s.map_or("—".into(), |t| duration(t, l)),
            tr(l, T::RunCost),
            c.training_run_usd.map_or("—".into(), |x| money(x, l))
        );
    } else {
        let _ = write!(
            s,
            "<dt>{}</dt><dd id=\"hr-decode\" data-tps=\"{:.3}\">{} {} <small>({} {})</small></dd>\
             <dt>{}</dt><dd>{} {}</dd><dt>{}</dt><dd id=\"hr-ttft\">{}</dd><dt>{}</dt><dd>{} {}</dd>",
            tr(l, T::Decode),
            sp.decode_tokens_per_s,
            tps(sp.decode_tokens_per_s, l),
            tr(l, T::TokS),
            tr(l, T::LimitedBy),
            limit_text(sp.decode_limit, l),
            tr(l, T::Prefill),
            tps(sp.prefill_tokens_per_s, l),
            tr(l, T::TokS),
            tr(l, T::Ttft),
            duration(sp.ttft_s, l),
            tr(l, T::Aggregate),
            tps(sp.aggregate_tokens_per_s, l),
            tr(l, T::TokS)
        );
    }
    s.push_str("</dl>");
    let mut costs = Vec::new();
    if let Some(h) = c.usd_per_hour {
        costs.push(format!("{}{}", money(h, l), tr(l, T::PerHour)));
    }
    if let Some(p) = c.purchase_usd {
        costs.push(format!("{}: {}", tr(l, T::Price), money(p, l)));
    }
    if let Some(m) = c.usd_per_million_tokens {
        costs.push(format!("{} {}", money(m, l), tr(l, T::PerMillion)));
    }
    if let Some(b) = c.break_even_months {
        costs.push(format!("{} {} {}", tr(l, T::BreakEven), format_num(b, 1, l), tr(l, T::Months)));
    }
    if !costs.is_empty() {
        let _ = write!(s, "<p class=\"hr-costs-line\">{}</p>", esc(&costs.join(" · ")));
    }
    s.push_str("</div>");
    s
}

/// The command lines to run it.
pub fn commands(cmds: &[String], l: Lang) -> String {
    if cmds.is_empty() {
        return format!(
            "<div class=\"hr-card hr-commands\"><h2>{}</h2><p id=\"hr-commands\">{}</p></div>",
            tr(l, T::RunWith),
            tr(l, T::NoCommand)
        );
    }
    format!(
        "<div class=\"hr-card hr-commands\"><h2>{}</h2><pre id=\"hr-commands\"><code>{}</code></pre>\
         <button type=\"button\" data-action=\"copy-commands\">{}</button></div>",
        tr(l, T::RunWith),
        esc(&cmds.join("\n")),
        tr(l, T::CopyCommands)
    )
}

/// The seed guide's table, the chosen row highlighted.
pub fn seed_table(e: &Estimate, l: Lang) -> String {
    let chosen = e.format;
    let mut s = format!(
        "<div class=\"hr-card hr-seed\"><h2>{}</h2><table><thead><tr><th>{}</th><th>{}</th><th>{}</th></tr></thead><tbody>",
        tr(l, T::SeedTable),
        tr(l, T::Precision),
        tr(l, T::PerBillion),
        tr(l, T::Uses)
    );
    for row in SEED_TABLE {
        let on = row.format == chosen;
        let _ = write!(
            s,
            "<tr{}><td>{}</td><td>{} GB</td><td>{}</td></tr>",
            if on { " class=\"hr-chosen\" aria-current=\"true\"" } else { "" },
            row.format.label(),
            format_num(row.gb_per_billion, 1, l),
            if l == Lang::Fr { row.use_fr } else { row.use_en }
        );
    }
    s.push_str("</tbody></table>");
    if !SEED_TABLE.iter().any(|r| r.format == chosen) && e.model.params_total.get() > 0 {
        let bits = e.weights_total.get() as f64 * 8.0 / e.model.params_total.get() as f64;
        let _ = write!(
            s,
            "<p class=\"hr-seed-other\">{} {} — {} {}</p>",
            tr(l, T::SeedOther),
            esc(&chosen.label()),
            format_num(bits, 3, l),
            tr(l, T::BitsPerWeight)
        );
    }
    s.push_str("</div>");
    s
}

/// The comparison card: the pinned scenarios (`pinned`, each with its outcome) and the current
/// one side by side, with units, each value's difference from the first pinned one (the
/// baseline), a name field, an open and a remove button per pinned scenario, and the pin button
/// while fewer than [`MAX_PINNED`] are pinned.
pub fn compare(
    pinned: &[(&Pinned, &Outcome)],
    current: (&Scenario, &Estimate, Option<&Fit>),
    l: Lang,
) -> String {
    let mut s = format!("<div class=\"hr-card hr-compare\"><h2>{}</h2>", tr(l, T::Compare));
    let pin_button = |s: &mut String| {
        if pinned.len() < MAX_PINNED {
            let _ = write!(
                s,
                "<button type=\"button\" id=\"hr-pin\" data-action=\"pin\">{}</button>",
                tr(l, if pinned.is_empty() { T::Pin } else { T::PinAnother })
            );
        }
    };
    if pinned.is_empty() {
        pin_button(&mut s);
        s.push_str("</div>");
        return s;
    }
    let mut cols: Vec<Option<Col>> =
        pinned.iter().map(|(p, o)| o.as_ref().ok().map(|(e, f)| (&p.scenario, e, f.as_ref()))).collect();
    cols.push(Some(current));
    let base = &pinned[0].0.name;
    let _ = write!(
        s,
        "<table class=\"hr-compare-table\" id=\"hr-compare\"><caption>{}</caption><thead><tr><th scope=\"col\"><span class=\"hr-visually-hidden\">{}</span></th>",
        fill(tr(l, T::CompareCaption), &[base]),
        tr(l, T::Quantity)
    );
    for (i, (p, _)) in pinned.iter().enumerate() {
        let n = esc(&p.name);
        let _ = write!(
            s,
            "<th scope=\"col\" class=\"hr-pin-col\"><input class=\"hr-pin-name\" id=\"hr-pin-name-{i}\" data-action=\"rename\" data-arg=\"{i}\" maxlength=\"{MAX_PIN_NAME}\" value=\"{n}\" aria-label=\"{}\"><span class=\"hr-pin-tools\"><button type=\"button\" class=\"hr-pin-open\" data-action=\"open\" data-arg=\"{i}\" aria-label=\"{}\">{}</button><button type=\"button\" class=\"hr-pin-remove\" data-action=\"unpin\" data-arg=\"{i}\" aria-label=\"{}\">{}</button></span></th>",
            fill(tr(l, T::PinNameLabel), &[&p.name]),
            fill(tr(l, T::PinOpenLabel), &[&p.name]),
            tr(l, T::PinOpen),
            fill(tr(l, T::PinRemoveLabel), &[&p.name]),
            tr(l, T::PinRemove),
        );
    }
    let _ = write!(s, "<th scope=\"col\">{}</th></tr></thead><tbody>", tr(l, T::Current));
    for row in compare_rows(&cols, l) {
        let differs = row.cells.iter().any(|c| c.text != row.cells[0].text);
        let _ = write!(
            s,
            "<tr{}><th scope=\"row\">{}</th>",
            if differs { " class=\"hr-diff\"" } else { "" },
            esc(&row.name)
        );
        let first = row.cells[0].num;
        for (i, c) in row.cells.iter().enumerate() {
            let _ = write!(s, "<td>{}", esc(&c.text));
            if let (true, Some(a), Some(b)) = (i > 0, first, c.num)
                && let Some(d) = delta(a, b, row.kind, l)
            {
                let _ = write!(s, "<span class=\"hr-delta\">{}</span>", esc(&d));
            }
            s.push_str("</td>");
        }
        s.push_str("</tr>");
    }
    s.push_str("</tbody></table>");
    for (p, o) in pinned {
        if let Err(e) = o {
            let _ = write!(s, "<p class=\"hr-error\">{}: {}</p>", esc(&p.name), esc(&e.to_string()));
        }
    }
    pin_button(&mut s);
    let _ = write!(
        s,
        "<button type=\"button\" id=\"hr-unpin\" data-action=\"unpin\" data-arg=\"all\">{}</button></div>",
        tr(l, T::Unpin)
    );
    s
}

/// What a comparison row holds, for its difference.
#[derive(Clone, Copy, PartialEq)]
enum RowKind {
    Text,
    Size,
    Rate,
    Count,
}

/// One cell of a comparison row: its text, and its number when it has one.
struct Cell {
    text: String,
    num: Option<f64>,
}

struct Row {
    name: String,
    kind: RowKind,
    cells: Vec<Cell>,
}

/// The difference of `b` from `a` as the row writes it, with its share: `+1.20 GB · +8%`;
/// `None` when they are equal.
fn delta(a: f64, b: f64, kind: RowKind, l: Lang) -> Option<String> {
    if a == b || kind == RowKind::Text {
        return None;
    }
    let sign = if b > a { "+" } else { "−" };
    let d = (b - a).abs();
    let abs = match kind {
        RowKind::Size => format_size(Bytes::new(d as u64), l),
        RowKind::Rate => format!("{} {}", tps(d, l), tr(l, T::TokS)),
        _ => format_int(d as u64, l),
    };
    let share = if a > 0.0 {
        let pct = (b - a) / a * 100.0;
        let pct = if pct.abs() < 10.0 { format_num(pct.abs(), 1, l) } else { format_num(pct.abs(), 0, l) };
        format!(" · {sign}{pct}{}%", if l == Lang::Fr { "\u{a0}" } else { "" })
    } else {
        String::new()
    };
    Some(format!("{sign}{abs}{share}"))
}

/// A compared scenario with its estimate and fit.
type Col<'a> = (&'a Scenario, &'a Estimate, Option<&'a Fit>);

fn compare_rows(cols: &[Option<Col>], l: Lang) -> Vec<Row> {
    let dash = || Cell { text: "—".into(), num: None };
    let row = |name: String, kind: RowKind, f: &dyn Fn(&Scenario, &Estimate, Option<&Fit>) -> Cell| Row {
        name,
        kind,
        cells: cols.iter().map(|c| c.map_or_else(dash, |(s, e, fit)| f(s, e, fit))).collect(),
    };
    let count = |n: u64| Cell { text: format_int(n, l), num: Some(n as f64) };
    let text = |t: String| Cell { text: t, num: None };
    let size = |b: Bytes| Cell { text: format_size(b, l), num: Some(b.get() as f64) };
    let mut rows = vec![
        row(tr(l, T::Model).into(), RowKind::Text, &|_, e, _| text(e.model.name.clone())),
        row(tr(l, T::WeightPrecision).into(), RowKind::Text, &|_, e, _| text(e.format.label())),
        row(tr(l, T::Runtime).into(), RowKind::Text, &|_, e, _| text(e.runtime.label().into())),
        row(tr(l, T::Context).into(), RowKind::Count, &|s, _, _| count(s.context)),
        row(tr(l, T::BatchOrUsers).into(), RowKind::Count, &|s, _, _| count(s.batch)),
        row(tr(l, T::Disk).into(), RowKind::Size, &|_, e, _| size(e.disk.weights)),
    ];
    for k in TermKind::ALL {
        let any = cols.iter().flatten().any(|(_, e, _)| e.memory.get(k) > Bytes::ZERO);
        if any {
            rows.push(row(term_name(k, l), RowKind::Size, &|_, e, _| size(e.memory.get(k))));
        }
    }
    rows.push(row(tr(l, T::Vram1).into(), RowKind::Size, &|_, e, _| size(e.memory.total)));
    rows.push(row(tr(l, T::Device).into(), RowKind::Text, &|_, _, f| {
        text(f.map_or("—".to_string(), |f| format!("{} ({})", f.name, fit_text(f, l))))
    }));
    rows.push(row(
        tr(l, T::Decode).into(),
        RowKind::Rate,
        &|_, _, f| match f.and_then(|f| f.speed.as_ref()) {
            Some(s) => Cell {
                text: format!("{} {}", tps(s.decode_tokens_per_s, l), tr(l, T::TokS)),
                num: Some(s.decode_tokens_per_s),
            },
            None => text("—".into()),
        },
    ));
    rows
}

/// The device kinds the devices table filters by.
pub const KINDS: [(Option<DeviceKind>, T, &str); 7] = [
    (None, T::All, "all"),
    (Some(DeviceKind::Gpu), T::GpusK, "gpu"),
    (Some(DeviceKind::Apple), T::AppleK, "apple"),
    (Some(DeviceKind::Apu), T::ApusK, "apu"),
    (Some(DeviceKind::Laptop), T::LaptopsK, "laptop"),
    (Some(DeviceKind::Cpu), T::CpusK, "cpu"),
    (Some(DeviceKind::Cloud), T::CloudK, "cloud"),
];

/// The device card's head: its title, the kinds of machine, and (for inference) the minimum
/// speed field with its message; shared by the table and its placeholder so the controls do not
/// move when the table arrives.
fn devices_head(filter: &DeviceFilter, training: bool, l: Lang) -> String {
    let kind = filter.kind;
    let mut s = format!(
        "<div class=\"hr-card hr-devices\"><h2>{}</h2><div class=\"hr-chips\" role=\"group\">",
        tr(l, T::Devices)
    );
    for (k, label, id) in KINDS {
        let _ = write!(
            s,
            "<button type=\"button\" class=\"hr-chip\" aria-pressed=\"{}\" data-action=\"kind\" data-arg=\"{id}\">{}</button>",
            k == kind,
            tr(l, label)
        );
    }
    // The minimum speed: a field of its own (inference only: training rows give durations), its
    // message beside it when the text is not a number, and then no filter rather than an old one.
    if !training {
        let (invalid, message) = match &filter.min_speed {
            Some(Err(m)) => (" aria-invalid=\"true\" aria-describedby=\"hr-min-speed-error\"", m.as_str()),
            _ => ("", ""),
        };
        let _ = write!(
            s,
            "<label class=\"hr-min-speed\">{}<input id=\"hr-min-speed\" inputmode=\"numeric\" autocomplete=\"off\" size=\"5\" data-action=\"min-speed\" value=\"{}\"{invalid}></label>",
            tr(l, T::MinSpeed),
            esc(&filter.min_speed_text)
        );
        if !message.is_empty() {
            let _ = write!(
                s,
                "<span class=\"hr-error\" id=\"hr-min-speed-error\" role=\"alert\">{} — {}</span>",
                esc(message),
                tr(l, T::FilterNotApplied)
            );
        }
    }
    s
}

/// The device card while its table is being computed: the same head, then an ellipsis.
pub fn devices_waiting(filter: &DeviceFilter, training: bool, l: Lang) -> String {
    let mut s = devices_head(filter, training, l);
    s.push_str("</div><p>…</p></div>");
    s
}

/// Every catalog device for the scenario, sorted by fit and cost, filtered by kind and speed.
pub fn devices(
    fits: &[Fit],
    filter: &DeviceFilter,
    shown: usize,
    selected: Option<&str>,
    order: FitOrder,
    l: Lang,
) -> String {
    let training = fits.iter().any(|f| f.speed.as_ref().is_some_and(|sp| sp.training_s.is_some()));
    let min = if training { None } else { filter.min_tokens_per_s().map(|m| m as u64) };
    let mut s = devices_head(filter, training, l);
    // Training rows give durations and the run's cost, inference rows tokens per second and the
    // cost of a million tokens: the columns say which. Each sortable column is a button.
    let head = |label: &str, o: FitOrder| {
        let sort = if o == order {
            if o == FitOrder::Headroom || (o == FitOrder::Speed && !training) {
                " aria-sort=\"descending\""
            } else {
                " aria-sort=\"ascending\""
            }
        } else {
            ""
        };
        format!(
            "<th{sort}><button type=\"button\" class=\"hr-sort\" data-action=\"sort\" data-arg=\"{}\">{}</button></th>",
            o.id(),
            esc(label)
        )
    };
    let _ = write!(
        s,
        "</div><table class=\"hr-device-table\" id=\"hr-device-table\"><thead><tr><th>{}</th>{}{}{}{}{}<th><span class=\"hr-visually-hidden\">{}</span></th></tr></thead><tbody>",
        tr(l, T::Device),
        head(tr(l, T::FitCol), FitOrder::Fit),
        head(tr(l, T::Headroom), FitOrder::Headroom),
        head(tr(l, if training { T::TrainingTime } else { T::TokS }), FitOrder::Speed),
        head(tr(l, T::Price), FitOrder::Price),
        head(tr(l, if training { T::RunCost } else { T::PerMillionTokens }), FitOrder::PerMillion),
        tr(l, T::Choose)
    );
    let fast_enough =
        |f: &Fit| min.is_none_or(|m| f.speed.as_ref().is_some_and(|sp| sp.decode_tokens_per_s >= m as f64));
    let matching: Vec<&Fit> =
        fits.iter().filter(|f| filter.kind.is_none_or(|k| f.kind == k) && fast_enough(f)).collect();
    if matching.is_empty() {
        let _ = write!(s, "<tr><td colspan=\"7\" class=\"hr-none\">{}</td></tr>", tr(l, T::NoDeviceMatches));
    }
    for f in matching.iter().take(shown) {
        let price = f
            .cost
            .usd_per_hour
            .map(|h| format!("{}{}", money(h, l), tr(l, T::PerHour)))
            .or(f.cost.purchase_usd.map(|x| money(x, l)))
            .unwrap_or_else(|| "—".into());
        let speed = f.speed.as_ref().map_or("—".into(), |sp| match sp.training_s {
            Some(t) => duration(t, l),
            None => tps(sp.decode_tokens_per_s, l),
        });
        let per = if training { f.cost.training_run_usd } else { f.cost.usd_per_million_tokens };
        let per =
            per.filter(|x| x.is_finite() && f.verdict != Verdict::No).map_or("—".into(), |x| money(x, l));
        // The chosen device's row says so; each button's name says which device it selects.
        let (row, current) =
            if selected == Some(f.device) { (" hr-selected", " aria-current=\"true\"") } else { ("", "") };
        let _ = write!(
            s,
            "<tr class=\"hr-v-{v}{row}\" data-device=\"{id}\"{current}><td>{}</td><td>{}</td><td class=\"hr-num\">{}%</td><td class=\"hr-num\">{}</td><td class=\"hr-num\">{}</td><td class=\"hr-num\">{}</td>\
             <td><button type=\"button\" class=\"hr-link-button\" data-action=\"device\" data-arg=\"{id}\" aria-label=\"{} {}\">{}</button></td></tr>",
            device_words(f.name),
            fit_text(f, l),
            format_num(f.headroom * 100.0, 0, l),
            esc(&speed),
            esc(&price),
            esc(&per),
            tr(l, T::Select),
            esc(f.name),
            tr(l, T::Select),
            v = f.verdict.id(),
            id = esc(f.device),
        );
    }
    s.push_str("</tbody></table>");
    if matching.len() > shown {
        let _ = write!(
            s,
            "<button type=\"button\" class=\"hr-more\" data-action=\"more\">{}</button>",
            tr(l, T::ShowMore)
        );
    }
    s.push_str("</div>");
    s
}

/// The minimum speed an answer was found at, as a sentence after it (empty when none).
fn at_least(min: Option<f64>, l: Lang) -> String {
    min.map_or(String::new(), |m| format!(" {}", fill(tr(l, T::AtLeastSpeed), &[&tps(m, l)])))
}

/// What the device table shows: a kind of machine, and a minimum generation speed as typed
/// (`None`: none asked; `Some(Err)`: the message for a text that is not a number).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeviceFilter {
    /// Only this kind of machine.
    pub kind: Option<DeviceKind>,
    /// Tokens per second at least, read from the field.
    pub min_speed: Option<Result<u64, String>>,
    /// The field's text as typed.
    pub min_speed_text: String,
}

impl DeviceFilter {
    /// The minimum speed in force, when one is.
    pub fn min_tokens_per_s(&self) -> Option<f64> {
        self.min_speed.as_ref().and_then(|r| r.as_ref().ok()).map(|&m| m as f64)
    }
}

/// The memory-versus-context chart as inline SVG: total with its band, the KV cache, the
/// device's usable capacity, the current context.
pub fn chart(pts: &[SweepPoint], capacity: Option<Bytes>, current: u64, l: Lang) -> String {
    const W: f64 = 640.0;
    const H: f64 = 260.0;
    const LEFT: f64 = 56.0;
    const RIGHT: f64 = 16.0;
    const TOP: f64 = 14.0;
    const BOTTOM: f64 = 36.0;
    if pts.len() < 2 {
        return String::new();
    }
    // The axis in the units the page writes sizes in (GiB when both), in TB/TiB from a
    // thousand (five-digit labels would not fit the margin).
    let decimal = units() == Units::Decimal;
    let giga = if decimal { 1e9 } else { (1u64 << 30) as f64 };
    let peak =
        pts.iter().map(|p| p.high.get() as f64).fold(capacity.map_or(0.0, |c| c.get() as f64), f64::max);
    let (per, unit) = match (decimal, peak * 1.08 / giga >= 1000.0) {
        (true, false) => (giga, T::GbUnit),
        (true, true) => (giga * 1e3, T::TbUnit),
        (false, false) => (giga, T::GibUnit),
        (false, true) => (giga * 1024.0, T::TibUnit),
    };
    let gib = |b: Bytes| b.get() as f64 / per;
    let ln = headroom_core::ops::ln;
    let first = pts[0].context;
    let last = pts[pts.len() - 1].context;
    let x0 = ln(first as f64);
    let x1 = ln(last as f64).max(x0 + 1e-9);
    let ymax_data = pts.iter().map(|p| gib(p.high)).fold(0.0, f64::max);
    let ymax = ymax_data.max(capacity.map_or(0.0, gib)) * 1.08 + 1e-9;
    let x = |c: u64| LEFT + (ln(c as f64) - x0) / (x1 - x0) * (W - LEFT - RIGHT);
    let y = |g: f64| TOP + (1.0 - g / ymax) * (H - TOP - BOTTOM);
    let path = |f: &dyn Fn(&SweepPoint) -> f64| {
        let mut d = String::new();
        for (i, p) in pts.iter().enumerate() {
            let _ = write!(d, "{}{:.1},{:.1}", if i == 0 { 'M' } else { 'L' }, x(p.context), y(f(p)));
        }
        d
    };
    let mut band = String::new();
    for (i, p) in pts.iter().enumerate() {
        let _ = write!(band, "{}{:.1},{:.1}", if i == 0 { 'M' } else { 'L' }, x(p.context), y(gib(p.high)));
    }
    for p in pts.iter().rev() {
        let _ = write!(band, "L{:.1},{:.1}", x(p.context), y(gib(p.low)));
    }
    band.push('Z');
    let mut s = format!(
        "<div class=\"hr-card hr-chart\"><h2>{}</h2><svg class=\"hr-svg\" viewBox=\"0 0 {W} {H}\" role=\"img\" aria-label=\"{}\">",
        tr(l, T::Chart),
        tr(l, T::Chart)
    );
    let step = nice_step(ymax);
    let mut v = 0.0;
    while v <= ymax {
        let yy = y(v);
        let _ = write!(
            s,
            "<line class=\"hr-grid\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\"></line><text class=\"hr-axis\" x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}{}</text>",
            W - RIGHT,
            LEFT - 6.0,
            yy + 4.0,
            format_num(v, if step < 1.0 { 1 } else { 0 }, l),
            tr(l, unit)
        );
        v += step;
    }
    for e in 8..=24u32 {
        let c = 1u64 << e;
        if c < first || c > last {
            continue;
        }
        let label = match c {
            c if c >= 1 << 20 => format!("{}M", c >> 20),
            c if c >= 1024 => format!("{}K", c >> 10),
            c => c.to_string(),
        };
        let _ = write!(
            s,
            "<text class=\"hr-axis\" x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\">{label}</text>",
            x(c),
            H - 12.0
        );
    }
    let _ = write!(
        s,
        "<path class=\"hr-band-area\" d=\"{band}\"></path><path class=\"hr-kv-line\" fill=\"none\" d=\"{}\"></path><path class=\"hr-total-line\" fill=\"none\" d=\"{}\"></path>",
        path(&|p| gib(p.kv_cache)),
        path(&|p| gib(p.total))
    );
    if let Some(c) = capacity {
        let yy = y(gib(c));
        let _ = write!(
            s,
            "<line class=\"hr-capacity\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{yy:.1}\" y2=\"{yy:.1}\"></line><text class=\"hr-axis hr-capacity-label\" x=\"{}\" y=\"{:.1}\" text-anchor=\"end\">{}</text>",
            W - RIGHT,
            W - RIGHT,
            yy - 5.0,
            tr(l, T::Capacity)
        );
    }
    let cx = x(current.clamp(first, last));
    let _ = write!(
        s,
        "<line class=\"hr-current\" x1=\"{cx:.1}\" x2=\"{cx:.1}\" y1=\"{TOP}\" y2=\"{}\"></line></svg></div>",
        H - BOTTOM
    );
    s
}

fn nice_step(max: f64) -> f64 {
    let raw = max / 5.0;
    let mag =
        headroom_core::ops::powf(10.0, headroom_core::ops::floor(headroom_core::ops::log10(raw.max(1e-9))));
    let n = raw / mag;
    let k = if n <= 1.0 {
        1.0
    } else if n <= 2.0 {
        2.0
    } else if n <= 5.0 {
        5.0
    } else {
        10.0
    };
    k * mag
}

/// The contexts the curve samples: 48 points, log-spaced from 256 tokens to the model's trained
/// context (or four times the current one).
pub fn chart_contexts(current: u64, max_trained: u64) -> Vec<u64> {
    let hi = if max_trained > 0 { max_trained.max(current) } else { (current * 4).max(8192) }
        .min(headroom_core::scenario::MAX_CONTEXT);
    let lo = 256u64.min(hi);
    let (a, b) = (headroom_core::ops::ln(lo as f64), headroom_core::ops::ln(hi as f64));
    let mut v: Vec<u64> = (0..48)
        .map(|i| headroom_core::ops::round(headroom_core::ops::exp(a + (b - a) * f64::from(i) / 47.0)) as u64)
        .collect();
    v.dedup();
    v
}

/// The compact embedded view.
pub fn embed(e: &Estimate, f: Option<&Fit>, s: &Scenario, l: Lang) -> String {
    let mut out = format!(
        "<h1 class=\"hr-embed-head\">{} · {} · {} × {}</h1><p class=\"hr-embed-total\"><span>{}</span><strong id=\"hr-total-bytes\" data-bytes=\"{}\">{}</strong><small>{} {}</small></p>",
        esc(&e.model.name),
        esc(&e.format.label()),
        format_int(s.context, l),
        s.batch,
        tr(l, T::Vram1),
        e.memory.total.get(),
        format_size(e.memory.total, l),
        tr(l, T::Disk),
        format_size(e.disk.weights, l)
    );
    if !e.warnings.is_empty() {
        // An embedded answer carries its caveat too.
        let _ = write!(
            out,
            "<p class=\"hr-embed-warning\" role=\"note\" data-confidence=\"{}\">⚠ {}</p>",
            e.model.confidence.id(),
            esc(&say(&e.warnings[0], l))
        );
    }
    out.push_str(&bar(&e.memory, l));
    out.push_str("<ul class=\"hr-legend\">");
    for t in e.memory.terms.iter().filter(|t| t.bytes.get() > 0) {
        let _ = write!(
            out,
            "<li><span class=\"hr-swatch hr-seg-{}\"></span> {} {}</li>",
            t.kind.key(),
            esc(&term_name(t.kind, l)),
            format_size(t.bytes, l)
        );
    }
    out.push_str("</ul>");
    if let Some(f) = f {
        let _ = write!(
            out,
            "<p class=\"hr-embed-verdict hr-verdict-{}\" id=\"hr-verdict\" data-verdict=\"{}\">{}: {}</p>",
            f.verdict.id(),
            f.verdict.id(),
            esc(f.name),
            fit_text(f, l)
        );
    }
    out
}

/// `template` with `{0}`, `{1}`… replaced by `args`, escaped.
fn fill(template: &str, args: &[&str]) -> String {
    let mut out = template.to_string();
    for (i, a) in args.iter().enumerate() {
        out = out.replace(&format!("{{{i}}}"), a);
    }
    esc(&out)
}

/// A device's name as HTML: a cloud instance (`Provider instance-id (1x GPU 24GB)`) in words —
/// the provider and the GPUs first, the provider's id after, smaller; any other name as it is.
pub fn device_words(name: &str) -> String {
    let parsed = name.strip_suffix(')').and_then(|n| n.rsplit_once(" (")).and_then(|(head, gpus)| {
        let (provider, id) = head.split_once(' ')?;
        let (count, gpu) = gpus.split_once("x ")?;
        let count: u32 = count.trim().parse().ok()?;
        Some((provider, id, count, gpu))
    });
    match parsed {
        Some((provider, id, count, gpu)) => format!(
            "{} · {count} × {} <small class=\"hr-instance-id\">{}</small>",
            esc(provider),
            esc(gpu),
            esc(id)
        ),
        None => esc(name),
    }
}

/// `text` as a sentence: a capital first letter and a final period.
fn sentence(text: &str) -> String {
    let mut c = text.chars();
    let mut out: String = c.next().map(|f| f.to_uppercase().collect()).unwrap_or_default();
    out.push_str(c.as_str());
    if !out.ends_with('.') {
        out.push('.');
    }
    out
}

/// The answer first: one sentence on whether the scenario runs on the chosen device, how fast
/// and what limits it (without a device: what it needs, and to choose one).
pub fn answer(e: &Estimate, f: Option<&Fit>, s: &Scenario, l: Lang) -> String {
    let runtime = s.runner_label(f.map_or(e.runtime, |f| f.runtime));
    let mut lines = Vec::new();
    let Some(f) = f else {
        let total = format_size(e.memory.total, l);
        let line = fill(
            tr(l, T::AnswerNoDevice),
            &[
                &e.model.name,
                &e.format.label(),
                runtime,
                &total,
                &format_int(s.context, l),
                &format_int(s.batch, l),
            ],
        );
        return format!("<p class=\"hr-answer\" id=\"hr-answer\" data-verdict=\"none\">{line}</p>");
    };
    let (need, cap) = (format_size(f.need, l), format_size(f.capacity, l));
    lines.push(match f.verdict {
        Verdict::Fits => fill(tr(l, T::AnswerFits), &[f.name, runtime, &need, &cap]),
        Verdict::Offload => fill(tr(l, T::AnswerOffload), &[f.name, runtime, &need, &cap]),
        Verdict::Cpu => fill(tr(l, T::AnswerCpu), &[f.name, runtime, &format_size(f.host_need, l)]),
        Verdict::No => match f.refusal() {
            Some(m) => {
                let mut why = say(m, l);
                if !why.ends_with('.') {
                    why.push('.');
                }
                fill(tr(l, T::AnswerRefused), &[f.name, runtime, &why])
            }
            None => fill(tr(l, T::AnswerNo), &[f.name, runtime, &need, &cap]),
        },
    });
    if f.verdict == Verdict::Offload
        && let Some(k) = f.gpu_layers
    {
        lines.push(fill(tr(l, T::AnswerLayers), &[&format_int(k, l)]));
    }
    // vLLM's `--max-model-len auto` settled on a shorter context than the model's.
    if let Some(a) = f.vllm.as_ref().and_then(|b| b.auto_fit).filter(|a| a.to > 0 && a.to < a.from) {
        lines.push(fill(tr(l, T::AnswerAutoFit), &[&format_int(a.to, l), &format_int(a.from, l)]));
    }
    // What system RAM decides, said rather than assumed: an offload's RAM when the machine's is
    // not known, and the RAM that stops one.
    for m in &f.advice {
        if matches!(
            m.id,
            MsgId::AdvicePagedSpill | MsgId::NoteOffloadRamUnchecked | MsgId::AdviceOffloadNeedsRam
        ) {
            lines.push(esc(&sentence(&say(m, l))));
        }
    }
    if let Some(sp) = f.speed.as_ref().filter(|_| f.verdict != Verdict::No) {
        if e.training.is_some() {
            if let Some(t) = sp.training_s {
                let (lo, hi) = sp.training_band_s.unwrap_or((t, t));
                lines.push(fill(tr(l, T::AnswerRun), &[&duration(t, l), &duration(lo, l), &duration(hi, l)]));
            }
            // Only a share worth reading: a minute or 2% of the run.
            if let (Some((w, lo, hi)), Some((link, stated))) = (sp.training_waiting_s, sp.training_link)
                && ((w >= 60.0 && w >= 0.02 * sp.training_s.unwrap_or(0.0)) || !stated)
            {
                use headroom_core::catalog::device::LinkKind;
                let name = tr(
                    l,
                    match link {
                        LinkKind::NvLink => T::LinkNvLink,
                        LinkKind::InfinityFabric => T::LinkInfinityFabric,
                        LinkKind::Ethernet => T::LinkEthernet,
                        LinkKind::Pcie => T::LinkPcie,
                        LinkKind::PcieHost | LinkKind::None => T::LinkPcieHost,
                    },
                );
                lines.push(fill(
                    tr(l, T::AnswerRunWaiting),
                    &[&duration(w, l), &duration(lo, l), &duration(hi, l), name],
                ));
                // An assumed link is said among the device's notes (`NoteLinkAssumed`).
            }
        } else if sp.decode_tokens_per_s > 0.0 {
            lines.push(fill(
                tr(l, T::AnswerSpeed),
                &[&tps(sp.decode_tokens_per_s, l), limit_text(sp.decode_limit, l)],
            ));
        }
    }
    format!(
        "<p class=\"hr-answer hr-answer-{v}\" id=\"hr-answer\" data-verdict=\"{v}\">{}</p>",
        lines.join(" "),
        v = f.verdict.id()
    )
}

/// A runtime that would run the scenario better on the device, with a button that switches to it.
pub fn better_runtime(r: Runtime, f: &Fit, l: Lang) -> String {
    let mut parts = vec![fit_text(f, l).to_string()];
    if let Some(k) = f.gpu_layers.filter(|_| f.verdict == Verdict::Offload) {
        parts.push(fill(tr(l, T::AltLayers), &[&format_int(k, l)]));
    }
    if let Some(sp) = f.speed.as_ref().filter(|sp| sp.decode_tokens_per_s > 0.0) {
        parts.push(fill(tr(l, T::AltSpeed), &[&tps(sp.decode_tokens_per_s, l)]));
    }
    format!(
        "<p class=\"hr-answer-alt\" id=\"hr-answer-alt\">{} <button type=\"button\" class=\"hr-chip\" id=\"hr-switch-runtime\" data-action=\"runtime\" data-arg=\"{}\">{}</button></p>",
        fill(tr(l, T::AltWith), &[r.label(), &parts.join(", ")]),
        r.id(),
        fill(tr(l, T::AltSwitch), &[r.label()])
    )
}

/// The reverse questions, one click each from the current scenario: their buttons, and the
/// answer to the one asked (rendered by [`question_answer`]) under them.
pub fn questions(has_device: bool, training: bool, answer: Option<&str>, l: Lang) -> String {
    let mut s = format!(
        "<div class=\"hr-card hr-questions\" id=\"hr-questions\"><h2>{}</h2><div class=\"hr-chips\" role=\"group\">",
        tr(l, T::Questions)
    );
    let mut asks: Vec<(&str, T)> = vec![("ctx", T::QContext)];
    if !training {
        asks.push(("quant", T::QQuant));
    }
    asks.push(("users", if training { T::QBatch } else { T::QUsers }));
    if !training {
        asks.push(("models", T::QModels));
    }
    for (id, label) in asks {
        let disabled = if has_device { "" } else { " disabled" };
        let _ = write!(
            s,
            "<button type=\"button\" class=\"hr-chip\" id=\"hr-ask-{id}\" data-action=\"ask\" data-arg=\"{id}\"{disabled}>{}</button>",
            tr(l, label)
        );
    }
    let _ = write!(
        s,
        "<button type=\"button\" class=\"hr-chip\" id=\"hr-ask-cheapest\" data-action=\"ask\" data-arg=\"cheapest\">{}</button></div>",
        tr(l, T::QCheapest)
    );
    if !has_device {
        let _ = write!(s, "<p class=\"hr-hint\">{}</p>", tr(l, T::QNeedsDevice));
    }
    if let Some(a) = answer {
        s.push_str(a);
    }
    s.push_str("</div>");
    s
}

/// What a reverse question found, for [`question_answer`]: each scenario it proposes is a link.
pub enum Found<'a> {
    /// The longest context, with the device's name.
    Context(Option<u64>, &'a str),
    /// The best format and its fit, with the device's name.
    Quant(Option<(headroom_core::precision::WeightFormat, &'a Fit)>, &'a str),
    /// The most sequences at once, at a context, on a device (training: per micro-batch).
    Users(Option<u64>, u64, &'a str, bool),
    /// Models on a device: `(name, format, fit, link)`, of `total` catalog models.
    Models(Vec<(&'a str, headroom_core::precision::WeightFormat, &'a Fit, String)>, usize, &'a str),
    /// Devices where it runs, cheapest first: `(fit, link)`.
    Cheapest(Vec<(&'a Fit, String)>, Option<f64>),
}

/// The answer to a reverse question; `apply` is the link of the scenario it proposes.
pub fn question_answer(found: &Found, apply: Option<&str>, l: Lang) -> String {
    let mut s = String::from("<div class=\"hr-answer-box\" id=\"hr-question-answer\" role=\"status\">");
    let use_it = |s: &mut String| {
        if let Some(href) = apply {
            let _ = write!(
                s,
                " <a class=\"hr-apply\" id=\"hr-apply\" href=\"{}\">{}</a>",
                esc(href),
                tr(l, T::UseIt)
            );
        }
    };
    match found {
        Found::Context(Some(c), dev) => {
            let _ = write!(s, "<p>{}", fill(tr(l, T::AContext), &[&format_int(*c, l), dev]));
            use_it(&mut s);
            s.push_str("</p>");
        }
        Found::Context(None, dev) => {
            let _ = write!(s, "<p>{}</p>", fill(tr(l, T::AContextNone), &[dev]));
        }
        Found::Quant(Some((format, f)), dev) => {
            let need = format_size(f.need, l);
            let cap = format_size(f.capacity, l);
            let _ = write!(s, "<p>{}", fill(tr(l, T::AQuant), &[&format.label(), dev, &need, &cap]));
            use_it(&mut s);
            s.push_str("</p>");
        }
        Found::Quant(None, dev) => {
            let _ = write!(s, "<p>{}</p>", fill(tr(l, T::AQuantNone), &[dev]));
        }
        Found::Users(Some(b), ctx, dev, training) => {
            let t = if *training { T::ABatch } else { T::AUsers };
            let _ = write!(s, "<p>{}", fill(tr(l, t), &[&format_int(*b, l), &format_int(*ctx, l), dev]));
            use_it(&mut s);
            s.push_str("</p>");
        }
        Found::Users(None, _, dev, _) => {
            let _ = write!(s, "<p>{}</p>", fill(tr(l, T::AUsersNone), &[dev]));
        }
        Found::Models(list, total, dev) if list.is_empty() => {
            let _ = (total, write!(s, "<p>{}</p>", fill(tr(l, T::AModelsNone), &[dev])));
        }
        Found::Models(list, total, dev) => {
            let _ = write!(
                s,
                "<p>{}</p><ol class=\"hr-found\">",
                fill(
                    tr(l, T::AModels),
                    &[&format_int(list.len() as u64, l), &format_int(*total as u64, l), dev]
                )
            );
            for (name, format, f, href) in list.iter().take(12) {
                let speed =
                    f.speed.as_ref().filter(|sp| sp.decode_tokens_per_s > 0.0).map_or(String::new(), |sp| {
                        format!(" · {} {}", tps(sp.decode_tokens_per_s, l), tr(l, T::TokS))
                    });
                let _ = write!(
                    s,
                    "<li><a href=\"{}\">{}</a> · {} · {}{speed}</li>",
                    esc(href),
                    esc(name),
                    esc(&format.label()),
                    format_size(f.need, l)
                );
            }
            s.push_str("</ol>");
        }
        Found::Cheapest(list, min) if list.is_empty() => {
            let _ = write!(s, "<p>{}{}</p>", tr(l, T::ACheapestNone), at_least(*min, l));
        }
        Found::Cheapest(list, min) => {
            let _ = write!(s, "<p>{}{}</p><ol class=\"hr-found\">", tr(l, T::ACheapest), at_least(*min, l));
            for (f, href) in list.iter().take(8) {
                let price = match (f.cost.usd_per_hour, f.cost.purchase_usd) {
                    (Some(h), _) => format!("{}/h", money(h, l)),
                    (None, Some(p)) => money(p, l),
                    (None, None) => "—".into(),
                };
                let speed =
                    f.speed.as_ref().filter(|sp| sp.decode_tokens_per_s > 0.0).map_or(String::new(), |sp| {
                        format!(" · {} {}", tps(sp.decode_tokens_per_s, l), tr(l, T::TokS))
                    });
                let _ = write!(s, "<li><a href=\"{}\">{}</a> · {price}{speed}</li>", esc(href), esc(f.name));
            }
            s.push_str("</ol>");
        }
    }
    s.push_str("</div>");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use headroom_core::fit::estimate_with_device;
    use headroom_core::hardware::DeviceChoice;

    /// vLLM refuses tensor parallelism over three GPUs for Llama-3.1-8B's 32 heads: the budget
    /// card says why and shows the error alone, in both languages, with no requests table.
    #[test]
    fn a_refused_vllm_setup_shows_the_error_not_a_budget() {
        let s = Scenario {
            device: Some(DeviceChoice::Catalog("h100-sxm".into())),
            runtime: Some(Runtime::Vllm),
            gpus: 3,
            ..Scenario::default()
        };
        let (_, f) = estimate_with_device(&s).unwrap();
        let f = f.unwrap();
        let b = f.vllm.as_ref().unwrap();
        let en = vllm_budget(b, Lang::En);
        assert!(en.contains("the 32 attention heads do not divide among them"), "{en}");
        assert!(
            en.contains("ValueError: Total number of attention heads (32) must be divisible by tensor parallel size (3)."),
            "{en}"
        );
        assert!(!en.contains("Available KV cache memory") && !en.contains("<table"), "{en}");
        let fr = vllm_budget(b, Lang::Fr);
        assert!(fr.contains("vLLM refuse le parallélisme de tenseurs sur 3 GPU"), "{fr}");
        // The device card: its memory would fit, said so, and the gauge is not green.
        let card = verdict(&f, Lang::En);
        assert!(
            card.contains("the memory alone would fit (") && card.contains("hr-gauge-fill hr-over"),
            "{card}"
        );
        assert!(!card.contains("· headroom"), "{card}");
        let four = Scenario { gpus: 4, ..s };
        let (_, f) = estimate_with_device(&four).unwrap();
        let en = vllm_budget(f.unwrap().vllm.as_ref().unwrap(), Lang::En);
        assert!(en.contains("Available KV cache memory") && en.contains("<table"), "{en}");
        // The card's title: the version before "at start", in both languages.
        assert!(en.contains("<h2>vLLM 0.34 at start</h2>"), "{en}");
        assert!(vllm_budget(b, Lang::Fr).contains("<h2>vLLM 0.34 au démarrage</h2>"));
    }

    /// DeepSeek V3.2 with `--block-size 32` on an H200: no sparse latent-attention kernel takes it,
    /// vLLM stops before loading; a fine-tune's answer names its framework, not a runtime.
    #[test]
    fn a_refused_block_and_a_frameworks_answer() {
        let s = Scenario {
            model: headroom_core::scenario::ModelSource::Catalog("deepseek-v3.2".into()),
            device: Some(DeviceChoice::Catalog("h200-sxm".into())),
            runtime: Some(Runtime::Vllm),
            gpus: 8,
            vllm: headroom_core::vllm::VllmOptions { block_size: Some(32), ..Default::default() },
            ..Scenario::default()
        };
        let (e, f) = estimate_with_device(&s).unwrap();
        let f = f.unwrap();
        let en = vllm_budget(f.vllm.as_ref().unwrap(), Lang::En);
        assert!(en.contains("take blocks of a multiple of 64 tokens on this GPU"), "{en}");
        assert!(en.contains("No valid attention backend found for cuda"), "{en}");
        assert!(!en.contains("Available KV cache memory"), "{en}");
        let a = answer(&e, Some(&f), &s, Lang::En);
        assert!(a.starts_with("<p class=\"hr-answer hr-answer-no\"") && a.contains("Does not run on"), "{a}");
        let t: Scenario = headroom_core::share::decode_link(
            "v=1&model=llama-3.2-3b&mode=lora&fw=torchtune&device=rtx-4090",
        )
        .link
        .scenario;
        let (e, f) = estimate_with_device(&t).unwrap();
        let a = answer(&e, f.as_ref(), &t, Lang::En);
        assert!(a.contains("with torchtune"), "{a}");
    }

    #[test]
    fn the_answer_comes_first_in_one_sentence_per_verdict() {
        let bare = Scenario::default();
        let (e, _) = estimate_with_device(&bare).unwrap();
        let a = answer(&e, None, &bare, Lang::En);
        assert!(a.contains("data-verdict=\"none\"") && a.contains("Choose a device"), "{a}");
        assert!(a.contains(&format_size(e.memory.total, Lang::En)), "{a}");
        assert!(!a.contains('{'), "every placeholder filled: {a}");

        let on = |device: &str, weights: &str| {
            let s = Scenario {
                device: Some(DeviceChoice::Catalog(device.into())),
                weights: Some(headroom_core::precision::WeightFormat::parse(weights).unwrap()),
                runtime: Some(Runtime::LlamaCpp),
                ..Scenario::default()
            };
            let (e, f) = estimate_with_device(&s).unwrap();
            let f = f.unwrap();
            (answer(&e, Some(&f), &s, Lang::En), answer(&e, Some(&f), &s, Lang::Fr), f)
        };
        let (en, fr, f) = on("rtx-4090", "q4_k_m");
        assert_eq!(f.verdict, Verdict::Fits);
        assert!(
            en.starts_with("<p class=\"hr-answer hr-answer-fits\"")
                && en.contains("Runs on NVIDIA GeForce RTX 4090 24GB with llama.cpp"),
            "{en}"
        );
        let sp = f.speed.as_ref().unwrap();
        assert!(en.contains(&format!("About {} tokens/s", tps(sp.decode_tokens_per_s, Lang::En))), "{en}");
        assert!(fr.contains("Tourne sur") && fr.contains("limité par"), "{fr}");
        // A 70B in BF16 on a 4090 spills to system RAM with llama.cpp: said, with its layers.
        let s = Scenario {
            model: headroom_core::scenario::ModelSource::Catalog("llama-3.1-70b".into()),
            ..Scenario::default()
        };
        let s = Scenario {
            device: Some(DeviceChoice::Catalog("rtx-4090".into())),
            runtime: Some(Runtime::LlamaCpp),
            ..s
        };
        let (e, f) = estimate_with_device(&s).unwrap();
        let f = f.unwrap();
        let a = answer(&e, Some(&f), &s, Lang::En);
        match f.verdict {
            Verdict::Offload => assert!(a.contains("offloading") && a.contains("layers on the GPU"), "{a}"),
            v => assert!(a.contains(&format!("data-verdict=\"{}\"", v.id())), "{a}"),
        }
    }

    #[test]
    fn reverse_answers_say_what_was_found_and_link_it() {
        let s = Scenario { device: Some(DeviceChoice::Catalog("rtx-4090".into())), ..Scenario::default() };
        let (_, f) = estimate_with_device(&s).unwrap();
        let f = f.unwrap();
        let a =
            question_answer(&Found::Context(Some(131_072), "RTX 4090"), Some("?v=1&ctx=131072"), Lang::En);
        assert!(a.contains("131,072 tokens") && a.contains("href=\"?v=1&amp;ctx=131072\""), "{a}");
        let none = question_answer(&Found::Users(None, 4096, "RTX 4090", false), None, Lang::Fr);
        assert!(none.contains("Pas même une séquence") && !none.contains("href"), "{none}");
        let list = vec![(f.name, f.runtime.label(), &f, "?v=1&device=rtx-4090".to_string())];
        let list = list
            .into_iter()
            .map(|(n, _, f, h)| (n, headroom_core::precision::WeightFormat::Bf16, f, h))
            .collect();
        let m = question_answer(&Found::Models(list, 113, "RTX 4090"), None, Lang::En);
        assert!(m.contains("1 of 113 catalog models") && m.contains("<ol class=\"hr-found\">"), "{m}");
        let q = questions(false, false, None, Lang::En);
        assert_eq!(q.matches(" disabled").count(), 4, "only the cheapest device needs no device: {q}");
        assert!(questions(true, true, None, Lang::En).contains("Largest micro-batch"));
    }

    #[test]
    fn speeds_and_prices_in_each_language() {
        assert_eq!(tps(31.6, Lang::Fr).replace(',', "."), tps(31.6, Lang::En));
        assert!(tps(31.6, Lang::Fr).contains(',') && !tps(31.6, Lang::Fr).contains('.'));
        assert_eq!(money(0.32, Lang::En), "$0.320");
        assert_eq!(money(0.32, Lang::Fr), "0,320\u{a0}$");
        assert_eq!(money(1599.0, Lang::En), "$1599");
        assert!(money(1599.0, Lang::Fr).ends_with("\u{a0}$"));
        assert_eq!(tps(f64::NAN, Lang::Fr), "—");
    }

    #[test]
    fn cloud_instances_are_named_in_words() {
        assert_eq!(
            device_words("RunPod 1x_RTX4000-Ada_SECURE (1x RTX 4000 Ada Generation 20GB)"),
            "RunPod · 1 × RTX 4000 Ada Generation 20GB <small class=\"hr-instance-id\">1x_RTX4000-Ada_SECURE</small>"
        );
        assert!(device_words("AWS p5.48xlarge (8x H100 80GB)").starts_with("AWS · 8 × H100 80GB"));
        assert_eq!(device_words("NVIDIA GeForce RTX 4090 24GB"), "NVIDIA GeForce RTX 4090 24GB");
        assert_eq!(device_words("Odd (name)"), "Odd (name)");
        assert_eq!(device_words("<b> (2x y)"), "&lt;b&gt; (2x y)");
        assert!(device_words("A<b> x (1x y)").starts_with("A&lt;b&gt; · 1 × y"));
    }

    #[test]
    fn escapes_what_users_type() {
        assert_eq!(esc("<img src=x onerror=\"a\">&'"), "&lt;img src=x onerror=&quot;a&quot;&gt;&amp;&#39;");
    }

    #[test]
    fn renders_every_card_with_the_core_numbers() {
        let s = Scenario { device: Some(DeviceChoice::Catalog("rtx-4090".into())), ..Scenario::default() };
        let (e, f) = estimate_with_device(&s).unwrap();
        let f = f.unwrap();
        let c = Ctx { lang: Lang::En, open: &["hr-weights".to_string()] };
        let b = breakdown(&e, &c);
        assert!(b.contains(&format!(
            "id=\"hr-weights-bytes\" data-bytes=\"{}\"",
            e.memory.get(TermKind::Weights).get()
        )));
        assert!(b.contains("<details open>"));
        assert!(resources(&e, Some(&f), Lang::En).contains("id=\"hr-total-bytes\""));
        assert!(verdict(&f, Lang::Fr).contains("tient"));
        assert!(speed(&e, &f, Lang::En).contains("hr-decode"));
        assert!(seed_table(&e, Lang::En).contains("hr-chosen"));
        let pts = headroom_core::estimate::sweep_context(&s, &chart_contexts(4096, 131_072)).unwrap();
        let svg = chart(&pts, Some(f.capacity), 4096, Lang::En);
        assert!(svg.starts_with("<div") && svg.contains("<svg") && svg.contains("hr-capacity"));
        assert!(svg.contains(" GiB<") && !svg.contains(" TiB<"));
        // Thousands of GiB are written in TiB: five-digit labels would not fit the margin.
        let big = Scenario { mode: headroom_core::training::Mode::Full, batch: 8, ..Scenario::default() };
        let pts = headroom_core::estimate::sweep_context(&big, &chart_contexts(8192, 131_072)).unwrap();
        let svg = chart(&pts, None, 8192, Lang::En);
        assert!(svg.contains(" TiB<") && !svg.contains(" GiB<"), "{svg}");
        let none = DeviceFilter::default();
        let d = devices(std::slice::from_ref(&f), &none, 10, Some(f.device), FitOrder::Fit, Lang::En);
        assert!(
            d.contains("hr-selected")
                && d.contains("aria-current=\"true\"")
                && d.contains(&format!("aria-label=\"Select {}\"", f.name))
        );
        assert!(d.contains("data-arg=\"rtx-4090\""));
        assert!(d.contains("tok/s") || d.contains("tokens/s"), "inference rows: a speed column");
        let train = Scenario {
            mode: headroom_core::training::Mode::Lora,
            dataset_tokens: 100_000_000,
            device: Some(DeviceChoice::Catalog("rtx-4090".into())),
            ..Scenario::catalog("qwen2.5-0.5b")
        };
        let (_, tf) = estimate_with_device(&train).unwrap();
        let td = devices(std::slice::from_ref(&tf.unwrap()), &none, 10, None, FitOrder::Fit, Lang::En);
        assert!(td.contains("Training time"), "training rows: a duration column");
        assert!(!td.contains("hr-min-speed"), "training rows have no speed filter");
        assert!(compare(&[], (&s, &e, Some(&f)), Lang::En).contains("data-action=\"pin\""));
        let same: Outcome = Ok((e.clone(), Some(f.clone())));
        let pin = Pinned::new(0, "", s.clone());
        let both = compare(&[(&pin, &same)], (&s, &e, Some(&f)), Lang::En);
        assert!(both.contains("hr-compare") && !both.contains("hr-diff") && !both.contains("hr-delta"));
    }

    #[test]
    fn three_scenarios_side_by_side_with_their_differences_from_the_first() {
        let at = |w: &str| Scenario {
            weights: Some(headroom_core::precision::WeightFormat::parse(w).unwrap()),
            device: Some(DeviceChoice::Catalog("rtx-4090".into())),
            ..Scenario::catalog("llama-3.1-8b")
        };
        let (a, b, c) = (at("bf16"), at("q8_0"), at("q4_k_m"));
        let out = |s: &Scenario| -> Outcome { estimate_with_device(s) };
        let (oa, ob) = (out(&a), out(&b));
        let (ec, fc) = estimate_with_device(&c).unwrap();
        let (pa, pb) = (Pinned::new(0, "", a.clone()), Pinned::new(1, "Eight <bits>", b.clone()));
        let h = compare(&[(&pa, &oa), (&pb, &ob)], (&c, &ec, fc.as_ref()), Lang::En);
        // Two name fields, each named; a header per scenario and the current one.
        assert!(h.contains("value=\"A\"") && h.contains("value=\"Eight &lt;bits&gt;\""), "{h}");
        assert_eq!(h.matches("data-action=\"rename\"").count(), 2);
        assert_eq!(h.matches("data-action=\"open\"").count(), 2);
        assert!(h.contains("aria-label=\"Remove scenario Eight &lt;bits&gt;\""));
        // The total row: three sizes, the last two with a negative difference from A.
        let (ea, _) = oa.as_ref().unwrap();
        let total = format_size(ea.memory.total, Lang::En);
        let row = h.split("<tr").find(|r| r.contains(&total)).expect("total row");
        assert_eq!(row.matches("hr-delta").count(), 2, "{row}");
        assert_eq!(row.matches("−").count(), 4, "a sign on each size and share: {row}");
        assert!(row.contains("%</span>"), "{row}");
        // Pinning is offered until four are pinned.
        assert!(h.contains("id=\"hr-pin\""));
        let many: Vec<Pinned> = (0..MAX_PINNED).map(|i| Pinned::new(i, "", a.clone())).collect();
        let pairs: Vec<(&Pinned, &Outcome)> = many.iter().map(|p| (p, &oa)).collect();
        assert!(!compare(&pairs, (&c, &ec, fc.as_ref()), Lang::En).contains("id=\"hr-pin\""));
        // A pinned scenario with no answer says why, by name, and the others still show.
        let bad: Outcome = Err(headroom_core::Error::UnknownModel { id: "zzz".into() });
        let pbad = Pinned::new(1, "broken", a.clone());
        let h = compare(&[(&pa, &oa), (&pbad, &bad)], (&c, &ec, fc.as_ref()), Lang::En);
        assert!(h.contains("broken: ") && h.contains("hr-error"), "{h}");
    }

    #[test]
    fn sizes_follow_the_chosen_units_until_the_guard_goes() {
        let s = Scenario::catalog("llama-3.1-8b");
        let (e, _) = estimate_with_device(&s).unwrap();
        let both = resources(&e, None, Lang::En);
        assert!(both.contains(" GB (") && both.contains("GiB)"));
        {
            let _units = write_sizes_in(Units::Binary);
            let gib = resources(&e, None, Lang::En);
            assert!(gib.contains("GiB") && !gib.contains(" GB"), "{gib}");
            let _inner = write_sizes_in(Units::Decimal);
            assert!(!resources(&e, None, Lang::Fr).contains("Gio"));
        }
        assert_eq!(resources(&e, None, Lang::En), both);
    }

    #[test]
    fn the_device_table_keeps_what_is_fast_enough_and_says_when_the_filter_is_not_a_number() {
        let s = Scenario::catalog("llama-3.1-8b");
        let fits = headroom_core::fit::fit_all(&s).unwrap();
        let rows = |f: &DeviceFilter| {
            devices(&fits, f, 500, None, FitOrder::Fit, Lang::En).matches("data-action=\"device\"").count()
        };
        let all = rows(&DeviceFilter::default());
        let fast =
            DeviceFilter { min_speed: Some(Ok(30)), min_speed_text: "30".into(), ..Default::default() };
        let expect =
            fits.iter().filter(|f| f.speed.as_ref().is_some_and(|sp| sp.decode_tokens_per_s >= 30.0)).count();
        assert!(expect > 0 && expect < all, "{expect} of {all}");
        assert_eq!(rows(&fast), expect);
        let bad = DeviceFilter {
            min_speed: Some(Err("not a number".into())),
            min_speed_text: "fast".into(),
            ..Default::default()
        };
        let h = devices(&fits, &bad, 500, None, FitOrder::Fit, Lang::En);
        assert!(
            h.contains("aria-invalid=\"true\"")
                && h.contains("value=\"fast\"")
                && h.contains("no speed filter applied")
        );
        assert_eq!(rows(&bad), all);
        let none = DeviceFilter { min_speed: Some(Ok(1_000_000)), ..Default::default() };
        assert!(devices(&fits, &none, 500, None, FitOrder::Fit, Lang::En).contains("No device matches"));
    }

    #[test]
    fn measurements_show_with_the_estimate_there_and_their_source() {
        let s = Scenario {
            weights: Some(headroom_core::precision::WeightFormat::parse("q4_0").unwrap()),
            runtime: Some(Runtime::LlamaCpp),
            device: Some(DeviceChoice::Catalog("m2-max-64gb".into())),
            ..Scenario::catalog("llama-2-7b")
        };
        let (e, _) = estimate_with_device(&s).unwrap();
        let found = headroom_core::measured::for_scenario(&s, e.format).unwrap();
        assert!(found.len() >= 2);
        let h = measured(&found, Lang::Fr);
        assert!(h.contains("id=\"hr-measured\"") && h.contains("Mesuré"));
        assert!(h.contains("llama.cpp discussion #4167") && h.contains("rel=\"noopener\""));
        assert!(h.contains("(tg128)") && h.contains("(pp512)"));
        assert!(measured(&[], Lang::En).is_empty());
        assert_eq!(source_name("https://github.com/vllm-project/vllm/issues/12"), "vllm issue #12");
        assert_eq!(source_name("https://example.org/a/b"), "example.org");
    }
}
