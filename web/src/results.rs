//! The answers: the three resources side by side with compute, the memory breakdown with its
//! formulas, the verdict, speed and cost on the chosen device, the commands to run it, the
//! comparison, the seed guide's table and the devices that fit. Everything shown comes from the
//! core's `Estimate` and `Fit`.

use headroom_core::catalog::device::DeviceKind;
use headroom_core::estimate::{Estimate, Memory, TermKind};
use headroom_core::fit::{self, Fit, Verdict};
use headroom_core::hardware::DeviceChoice;
use headroom_core::precision::SEED_TABLE;
use headroom_core::scenario::{ModelSource, Scenario};
use headroom_core::text::{Lang, Msg, format_int, format_num, format_size};
use headroom_core::units::Bytes;
use leptos::prelude::*;

use crate::i18n::{T, tr};
use crate::state::ui;

/// A term's display name.
pub fn term_name(kind: TermKind, lang: Lang) -> String {
    Msg::new(kind.name(), Vec::new()).render(lang)
}

/// Tokens per second, readable.
pub fn tps(x: f64) -> String {
    if !x.is_finite() || x <= 0.0 {
        "—".into()
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// Dollars, readable.
pub fn money(x: f64) -> String {
    if x >= 100.0 {
        format!("${x:.0}")
    } else if x >= 1.0 {
        format!("${x:.2}")
    } else {
        format!("${x:.3}")
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

/// Link problems, model notices and the estimate's notes.
#[component]
pub fn Notices() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let custom = move || ui.scenario.with(|s| matches!(s.model, ModelSource::Custom(_)));
    view! {
        {move || {
            let ignored = ui.ignored.get();
            (!ignored.is_empty()).then(|| view! {
                <div class="hr-notice" role="status">
                    <strong>{tr(lang.get(), T::IgnoredLink)}</strong>
                    <ul>
                        {ignored.into_iter().map(|i| view! {
                            <li><code>{format!("{}={}", i.key, i.value)}</code>" — "{i.reason}</li>
                        }).collect_view()}
                    </ul>
                    <button type="button" class="hr-dismiss" on:click=move |_| ui.ignored.set(Vec::new())>"×"</button>
                </div>
            })
        }}
        {move || custom().then(|| view! { <div class="hr-notice hr-info" role="status">{tr(lang.get(), T::CustomNotLinked)}</div> })}
    }
}

fn card_error(e: &headroom_core::Error, lang: Lang) -> AnyView {
    view! {
        <div class="hr-card hr-error-card" role="alert">
            <strong>{tr(lang, T::Error)}</strong>" "{e.to_string()}
        </div>
    }
    .into_any()
}

/// Disk, VRAM, RAM and compute side by side: "it downloads" is not "it runs".
#[component]
pub fn Resources() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    move || {
        let l = lang.get();
        ui.result.with(|r| match r {
            Err(e) => card_error(e, l),
            Ok((e, fit)) => {
                let cpu = e.runtime == headroom_core::inference::Runtime::Mlx
                    || e.runtime == headroom_core::inference::Runtime::Cpu;
                let speed = fit.as_ref().and_then(|f| f.speed.as_ref()).map(|s| s.decode_tokens_per_s);
                let per = if e.devices > 1 { format!(" × {}", e.devices) } else { String::new() };
                let training = e.training.is_some();
                view! {
                    <div class="hr-resources">
                        <div class="hr-res" id="hr-res-disk">
                            <span class="hr-res-label">{tr(l, T::Disk)}</span>
                            <strong data-bytes=e.disk.weights.get().to_string()>{format_size(e.disk.weights, l)}</strong>
                            <small>{tr(l, T::DiskHint)}</small>
                        </div>
                        <div class="hr-res" id="hr-res-vram">
                            <span class="hr-res-label">{tr(l, if cpu { T::RamCard } else { T::Vram1 })}{per}</span>
                            <strong id="hr-total-bytes" data-bytes=e.memory.total.get().to_string()>{format_size(e.memory.total, l)}</strong>
                            <small>{format!("{} – {}", format_size(e.memory.total_low, l), format_size(e.memory.total_high, l))}</small>
                        </div>
                        <div class="hr-res" id="hr-res-ram">
                            <span class="hr-res-label">{tr(l, T::RamCard)}</span>
                            <strong data-bytes=e.host.total.get().to_string()>{format_size(e.host.total, l)}</strong>
                            <small>{tr(l, if cpu { T::RamCpuHint } else { T::RamHint })}</small>
                        </div>
                        <div class="hr-res" id="hr-res-compute">
                            <span class="hr-res-label">{tr(l, T::Compute)}</span>
                            <strong>{format!("{} GFLOP", format_num(e.flops_per_token / 1e9, 1, l))}</strong>
                            <small>{
                                let mut s = tr(l, T::PerToken).to_string();
                                if training {
                                    s = format!("{} · {} {}", s, format_int(e.trainable_params, l), tr(l, T::Trainable));
                                } else if let Some(t) = speed {
                                    s = format!("{s} · {} {}", tps(t), tr(l, T::TokS));
                                }
                                s
                            }</small>
                        </div>
                    </div>
                }
                .into_any()
            }
        })
    }
}

/// The verdict on the chosen device, with headroom and advice.
#[component]
pub fn VerdictCard() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    move || {
        let l = lang.get();
        ui.result.with(|r| {
            let Ok((_, Some(f))) = r else { return ().into_any() };
            let class = format!("hr-card hr-verdict hr-verdict-{}", f.verdict.id());
            view! {
                <div class=class id="hr-verdict" data-verdict=f.verdict.id()>
                    <h2>{tr(l, T::Verdict)}": "{f.name}</h2>
                    <p class="hr-verdict-line">
                        <strong>{verdict_text(f.verdict, l)}</strong>
                        {format!(
                            " — {} / {} · {} {}%",
                            format_size(f.need, l),
                            format_size(f.capacity, l),
                            tr(l, T::Headroom),
                            format_num(f.headroom * 100.0, 0, l)
                        )}
                    </p>
                    <Gauge need=f.need capacity=f.capacity/>
                    <ul class="hr-advice">
                        {f.advice.iter().map(|a| view! { <li>{a.render(l)}</li> }).collect_view()}
                    </ul>
                </div>
            }
            .into_any()
        })
    }
}

/// How full the device is.
#[component]
fn Gauge(need: Bytes, capacity: Bytes) -> impl IntoView {
    let pct = if capacity.get() > 0 { (need.get() as f64 / capacity.get() as f64 * 100.0).min(100.0) } else { 100.0 };
    let over = need > capacity;
    view! {
        <div class="hr-gauge" role="img" aria-label=format!("{pct:.0}%")>
            <div class="hr-gauge-fill" class:hr-over=over style=format!("width:{pct:.1}%")></div>
        </div>
    }
}

fn breakdown(m: &Memory, l: Lang, id_prefix: &'static str) -> AnyView {
    let total = m.total.get().max(1) as f64;
    view! {
        <div class="hr-bar" role="img" aria-label=format!("{}", format_size(m.total, l))>
            {m.terms.iter().filter(|t| t.bytes.get() > 0).map(|t| {
                let w = t.bytes.get() as f64 / total * 100.0;
                let class = format!("hr-seg hr-seg-{}", t.kind.key());
                let title = format!("{}: {}", term_name(t.kind, l), format_size(t.bytes, l));
                view! { <div class=class style=format!("width:{w:.2}%") title=title></div> }
            }).collect_view()}
        </div>
        <table class="hr-terms">
            <tbody>
                {m.terms.iter().map(|t| {
                    let swatch = format!("hr-swatch hr-seg-{}", t.kind.key());
                    let id = format!("{id_prefix}{}-bytes", t.kind.key().replace('_', "-"));
                    let band = if t.is_exact() {
                        tr(l, T::Exact).to_string()
                    } else {
                        format!("{} {} – {}", tr(l, T::Range), format_size(t.low, l), format_size(t.high, l))
                    };
                    view! {
                        <tr>
                            <td><span class=swatch></span></td>
                            <td>
                                <details>
                                    <summary>{term_name(t.kind, l)}</summary>
                                    <p class="hr-formula"><strong>{tr(l, T::Formula)}": "</strong>{t.formula.render(l)}</p>
                                    {(!t.assumptions.is_empty()).then(|| view! {
                                        <p class="hr-assume"><strong>{tr(l, T::Assumptions)}": "</strong></p>
                                        <ul class="hr-assume">
                                            {t.assumptions.iter().map(|a| view! { <li>{a.render(l)}</li> }).collect_view()}
                                        </ul>
                                    })}
                                </details>
                            </td>
                            <td class="hr-num"><output id=id data-bytes=t.bytes.get().to_string()>{format_size(t.bytes, l)}</output></td>
                            <td class="hr-band">{band}</td>
                        </tr>
                    }
                }).collect_view()}
                <tr class="hr-total-row">
                    <td></td>
                    <td>{tr(l, T::Total)}</td>
                    <td class="hr-num">{format_size(m.total, l)}</td>
                    <td class="hr-band">{format!("{} – {}", format_size(m.total_low, l), format_size(m.total_high, l))}</td>
                </tr>
            </tbody>
        </table>
    }
    .into_any()
}

/// The memory breakdown per device, each term with its formula, assumptions and band.
#[component]
pub fn BreakdownCard() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    move || {
        let l = lang.get();
        ui.result.with(|r| {
            let Ok((e, _)) = r else { return ().into_any() };
            let per = if e.devices > 1 { format!(" — {} / {}", tr(l, T::Vram1), e.devices) } else { String::new() };
            let host = (e.host.total > Bytes::ZERO && !std::ptr::eq(&e.host, &e.memory) && e.host != e.memory)
                .then(|| view! {
                    <h3>{tr(l, T::RamCard)}</h3>
                    {breakdown(&e.host, l, "hr-host-")}
                });
            view! {
                <div class="hr-card hr-breakdown">
                    <h2>{tr(l, T::Breakdown)}{per}</h2>
                    {breakdown(&e.memory, l, "hr-")}
                    {host}
                    <Notes/>
                </div>
            }
            .into_any()
        })
    }
}

/// The estimate's remarks.
#[component]
fn Notes() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    move || {
        let l = lang.get();
        ui.result.with(|r| {
            let Ok((e, _)) = r else { return ().into_any() };
            if e.notes.is_empty() {
                return ().into_any();
            }
            view! {
                <div class="hr-notes">
                    <h3>{tr(l, T::Notes)}</h3>
                    <ul>{e.notes.iter().map(|n| view! { <li>{n.render(l)}</li> }).collect_view()}</ul>
                </div>
            }
            .into_any()
        })
    }
}

/// Tokens per second, first token, aggregate throughput; training time and cost.
#[component]
pub fn SpeedCard() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    move || {
        let l = lang.get();
        ui.result.with(|r| {
            let Ok((e, Some(f))) = r else { return ().into_any() };
            let Some(sp) = &f.speed else { return ().into_any() };
            let c = &f.cost;
            let mut costs = Vec::new();
            if let Some(h) = c.usd_per_hour {
                costs.push(format!("{}{}", money(h), tr(l, T::PerHour)));
            }
            if let Some(p) = c.purchase_usd {
                costs.push(format!("{}: {}", tr(l, T::Price), money(p)));
            }
            if let Some(m) = c.usd_per_million_tokens {
                costs.push(format!("{} {}", money(m), tr(l, T::PerMillion)));
            }
            if let Some(b) = c.break_even_months {
                costs.push(format!("{} {} {}", tr(l, T::BreakEven), format_num(b, 1, l), tr(l, T::Months)));
            }
            let body = if e.training.is_some() {
                view! {
                    <dl class="hr-speeds">
                        <dt>{tr(l, T::TrainingTime)}</dt>
                        <dd id="hr-train-time">{sp.training_s.map_or("—".into(), |t| duration(t, l))}</dd>
                        <dt>{tr(l, T::RunCost)}</dt>
                        <dd>{c.training_run_usd.map_or("—".into(), money)}</dd>
                    </dl>
                }
                .into_any()
            } else {
                let limit = sp.decode_limit.id().replace('_', " ");
                view! {
                    <dl class="hr-speeds">
                        <dt>{tr(l, T::Decode)}</dt>
                        <dd id="hr-decode" data-tps=format!("{:.3}", sp.decode_tokens_per_s)>
                            {format!("{} {}", tps(sp.decode_tokens_per_s), tr(l, T::TokS))}
                            <small>{format!(" ({} {limit})", tr(l, T::LimitedBy))}</small>
                        </dd>
                        <dt>{tr(l, T::Prefill)}</dt>
                        <dd>{format!("{} {}", tps(sp.prefill_tokens_per_s), tr(l, T::TokS))}</dd>
                        <dt>{tr(l, T::Ttft)}</dt>
                        <dd id="hr-ttft">{duration(sp.ttft_s, l)}</dd>
                        <dt>{tr(l, T::Aggregate)}</dt>
                        <dd>{format!("{} {}", tps(sp.aggregate_tokens_per_s), tr(l, T::TokS))}</dd>
                    </dl>
                }
                .into_any()
            };
            view! {
                <div class="hr-card hr-speed">
                    <h2>{tr(l, T::Speed)}</h2>
                    {body}
                    {(!costs.is_empty()).then(|| view! { <p class="hr-costs-line">{costs.join(" · ")}</p> })}
                </div>
            }
            .into_any()
        })
    }
}

/// The command lines to copy.
#[component]
pub fn CommandsCard() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    move || {
        let l = lang.get();
        ui.result.with(|r| {
            let Ok((e, f)) = r else { return ().into_any() };
            let cmds = ui.scenario.with(|s| headroom_core::flags::commands(s, e, f.as_ref()));
            let text = cmds.join("\n");
            let copy_text = text.clone();
            view! {
                <div class="hr-card hr-commands">
                    <h2>{tr(l, T::RunWith)}</h2>
                    <pre id="hr-commands"><code>{text}</code></pre>
                    <button type="button" on:click=move |_| {
                        if let Some(w) = web_sys::window() {
                            let _ = w.navigator().clipboard().write_text(&copy_text);
                        }
                    }>{tr(l, T::CopyLink).replace("link", "").replace("le lien", "").trim().to_string()}</button>
                </div>
            }
            .into_any()
        })
    }
}

/// The seed guide's table with the chosen row highlighted.
#[component]
pub fn SeedTable() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    move || {
        let l = lang.get();
        ui.result.with(|r| {
            let Ok((e, _)) = r else { return ().into_any() };
            let chosen = e.format;
            let is_seed = SEED_TABLE.iter().any(|row| row.format == chosen);
            let bits = if e.model.params_total.get() > 0 {
                e.weights_total.get() as f64 * 8.0 / e.model.params_total.get() as f64
            } else {
                0.0
            };
            view! {
                <div class="hr-card hr-seed">
                    <h2>{tr(l, T::SeedTable)}</h2>
                    <table>
                        <thead><tr><th>{tr(l, T::Precision)}</th><th>{tr(l, T::PerBillion)}</th><th>{tr(l, T::Uses)}</th></tr></thead>
                        <tbody>
                            {SEED_TABLE.iter().map(|row| {
                                let on = row.format == chosen;
                                view! {
                                    <tr class:hr-chosen=on aria-current=on.then_some("true")>
                                        <td>{row.format.label()}</td>
                                        <td>{format!("{} GB", format_num(row.gb_per_billion, 1, l))}</td>
                                        <td>{if l == Lang::Fr { row.use_fr } else { row.use_en }}</td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                    {(!is_seed).then(|| view! {
                        <p class="hr-seed-other">
                            {format!("{} {} — {} {}", tr(l, T::SeedOther), chosen.label(), format_num(bits, 3, l), tr(l, T::BitsPerWeight))}
                        </p>
                    })}
                </div>
            }
            .into_any()
        })
    }
}

/// Pin the current scenario and see the next one beside it, differences highlighted.
#[component]
pub fn CompareCard() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let pin = move |_| ui.compare.set(Some(ui.scenario.get_untracked()));
    let unpin = move |_| ui.compare.set(None);
    move || {
        let l = lang.get();
        let pinned = ui.pinned.get();
        let current = ui.result.get();
        let body = match (pinned, current) {
            (Some(Ok((pe, pf))), Ok((ce, cf))) => {
                let rows = compare_rows(&pe, pf.as_ref(), &ce, cf.as_ref(), l);
                view! {
                    <table class="hr-compare-table" id="hr-compare">
                        <thead><tr><th></th><th>{tr(l, T::Pinned)}</th><th>{tr(l, T::Current)}</th></tr></thead>
                        <tbody>
                            {rows.into_iter().map(|(name, a, b)| {
                                let diff = a != b;
                                view! { <tr class:hr-diff=diff><th>{name}</th><td>{a}</td><td>{b}</td></tr> }
                            }).collect_view()}
                        </tbody>
                    </table>
                    <button type="button" id="hr-unpin" on:click=unpin>{tr(l, T::Unpin)}</button>
                }
                .into_any()
            }
            (Some(Err(e)), _) => view! {
                <p class="hr-error">{e.to_string()}</p>
                <button type="button" id="hr-unpin" on:click=unpin>{tr(l, T::Unpin)}</button>
            }
            .into_any(),
            _ => view! { <button type="button" id="hr-pin" on:click=pin>{tr(l, T::Pin)}</button> }.into_any(),
        };
        view! {
            <div class="hr-card hr-compare">
                <h2>{tr(l, T::Compare)}</h2>
                {body}
            </div>
        }
    }
}

fn compare_rows(a: &Estimate, af: Option<&Fit>, b: &Estimate, bf: Option<&Fit>, l: Lang) -> Vec<(String, String, String)> {
    let mut rows = vec![
        (tr(l, T::Model).to_string(), a.model.name.clone(), b.model.name.clone()),
        (tr(l, T::WeightPrecision).to_string(), a.format.label(), b.format.label()),
        (tr(l, T::Runtime).to_string(), a.runtime.label().to_string(), b.runtime.label().to_string()),
        (tr(l, T::Disk).to_string(), format_size(a.disk.weights, l), format_size(b.disk.weights, l)),
    ];
    for k in TermKind::ALL {
        let (x, y) = (a.memory.get(k), b.memory.get(k));
        if x > Bytes::ZERO || y > Bytes::ZERO {
            rows.push((term_name(k, l), format_size(x, l), format_size(y, l)));
        }
    }
    rows.push((tr(l, T::Vram1).to_string(), format_size(a.memory.total, l), format_size(b.memory.total, l)));
    let v = |f: Option<&Fit>| f.map_or("—".to_string(), |f| format!("{} ({})", f.name, verdict_text(f.verdict, l)));
    rows.push((tr(l, T::Device).to_string(), v(af), v(bf)));
    let sp = |f: Option<&Fit>| f.and_then(|f| f.speed.as_ref()).map_or("—".to_string(), |s| tps(s.decode_tokens_per_s));
    rows.push((tr(l, T::Decode).to_string(), sp(af), sp(bf)));
    rows
}

/// The scenario across the catalog: verdicts sorted by fit and cost, filterable by kind.
#[component]
pub fn DevicesCard() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let kind = RwSignal::new(None::<DeviceKind>);
    let shown = RwSignal::new(12usize);
    let fits = Memo::new(move |_| ui.scenario.with(fit::fit_all).unwrap_or_default());
    let chips = [
        (None, T::All),
        (Some(DeviceKind::Gpu), T::GpusK),
        (Some(DeviceKind::Apple), T::AppleK),
        (Some(DeviceKind::Laptop), T::LaptopsK),
        (Some(DeviceKind::Cpu), T::CpusK),
        (Some(DeviceKind::Cloud), T::CloudK),
    ];
    let choose = move |id: &'static str| {
        ui.scenario.update(|s: &mut Scenario| s.device = Some(DeviceChoice::Catalog(id.into())));
    };
    view! {
        <div class="hr-card hr-devices">
            <h2>{move || tr(lang.get(), T::Devices)}</h2>
            <div class="hr-chips" role="group">
                {chips.into_iter().map(|(k, label)| view! {
                    <button type="button" class="hr-chip" aria-pressed=move || (kind.get() == k).to_string()
                        on:click=move |_| { kind.set(k); shown.set(12); }>
                        {move || tr(lang.get(), label)}
                    </button>
                }).collect_view()}
            </div>
            <table class="hr-device-table" id="hr-device-table">
                <thead>
                    <tr>
                        <th>{move || tr(lang.get(), T::Device)}</th>
                        <th>{move || tr(lang.get(), T::Verdict)}</th>
                        <th>{move || tr(lang.get(), T::Headroom)}</th>
                        <th>{move || tr(lang.get(), T::TokS)}</th>
                        <th>{move || tr(lang.get(), T::Price)}</th>
                        <th></th>
                    </tr>
                </thead>
                <tbody>
                    {move || {
                        let l = lang.get();
                        let k = kind.get();
                        fits.with(|all| {
                            all.iter().filter(|f| k.is_none_or(|k| f.kind == k)).take(shown.get()).map(|f| {
                                let id = f.device;
                                let price = f.cost.usd_per_hour.map(|h| format!("{}{}", money(h), tr(l, T::PerHour)))
                                    .or(f.cost.purchase_usd.map(money)).unwrap_or_else(|| "—".into());
                                let speed = f.speed.as_ref().map_or("—".into(), |s| {
                                    if s.training_s.is_some() { s.training_s.map_or("—".into(), |t| duration(t, l)) } else { tps(s.decode_tokens_per_s) }
                                });
                                let class = format!("hr-v-{}", f.verdict.id());
                                view! {
                                    <tr class=class data-device=id>
                                        <td>{f.name}</td>
                                        <td>{verdict_text(f.verdict, l)}</td>
                                        <td class="hr-num">{format!("{}%", format_num(f.headroom * 100.0, 0, l))}</td>
                                        <td class="hr-num">{speed}</td>
                                        <td class="hr-num">{price}</td>
                                        <td><button type="button" class="hr-link-button" on:click=move |_| choose(id)>{tr(l, T::Select)}</button></td>
                                    </tr>
                                }
                            }).collect_view()
                        })
                    }}
                </tbody>
            </table>
            <button type="button" class="hr-more" on:click=move |_| shown.update(|n| *n += 24)>
                {move || tr(lang.get(), T::ShowMore)}
            </button>
        </div>
    }
}
