//! Memory versus context, as inline SVG: the total per device with its band, the KV cache's
//! share, the device's usable capacity as a line, and the current context marked.

use headroom_core::estimate::{SweepPoint, sweep_context};
use headroom_core::scenario::MAX_CONTEXT;
use headroom_core::text::format_num;
use leptos::prelude::*;

use crate::i18n::{T, tr};
use crate::state::ui;

const W: f64 = 640.0;
const H: f64 = 260.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 36.0;

/// The contexts the curve samples: 48 points, log-spaced from 256 tokens to the model's trained
/// context (or four times the current one).
fn contexts(current: u64, max_trained: u64) -> Vec<u64> {
    let hi = if max_trained > 0 { max_trained.max(current) } else { (current * 4).max(8192) }.min(MAX_CONTEXT);
    let lo = 256u64.min(hi);
    let (a, b) = (headroom_core::ops::ln(lo as f64), headroom_core::ops::ln(hi as f64));
    let mut v: Vec<u64> = (0..48)
        .map(|i| headroom_core::ops::round(headroom_core::ops::exp(a + (b - a) * i as f64 / 47.0)) as u64)
        .collect();
    v.dedup();
    v
}

/// The chart card.
#[component]
pub fn ChartCard() -> impl IntoView {
    let ui = ui();
    let lang = ui.lang;
    let data = Memo::new(move |_| {
        let (scenario, max_ctx, capacity) = ui.result.with(|r| match r {
            Ok((e, f)) => (Some(()), e.model.max_context, f.as_ref().map(|f| f.capacity.get())),
            Err(_) => (None, 0, None),
        });
        scenario?;
        ui.scenario.with(|s| {
            let pts = sweep_context(s, &contexts(s.context, max_ctx)).ok()?;
            Some((pts, capacity, s.context))
        })
    });
    move || {
        let l = lang.get();
        let Some((pts, capacity, current)) = data.get() else { return ().into_any() };
        if pts.len() < 2 {
            return ().into_any();
        }
        view! {
            <div class="hr-card hr-chart">
                <h2>{tr(l, T::Chart)}</h2>
                {svg(&pts, capacity, current, tr(l, T::Capacity), l)}
            </div>
        }
        .into_any()
    }
}

fn svg(pts: &[SweepPoint], capacity: Option<u64>, current: u64, cap_label: &'static str, l: headroom_core::text::Lang) -> AnyView {
    let gib = |b: u64| b as f64 / (1u64 << 30) as f64;
    let x0 = headroom_core::ops::ln(pts[0].context as f64);
    let x1 = headroom_core::ops::ln(pts[pts.len() - 1].context as f64).max(x0 + 1e-9);
    let ymax_data = pts.iter().map(|p| gib(p.high.get())).fold(0.0, f64::max);
    let ymax = ymax_data.max(capacity.map_or(0.0, gib)) * 1.08 + 1e-9;
    let x = |c: u64| LEFT + (headroom_core::ops::ln(c as f64) - x0) / (x1 - x0) * (W - LEFT - RIGHT);
    let y = |g: f64| TOP + (1.0 - g / ymax) * (H - TOP - BOTTOM);
    let line = |f: &dyn Fn(&SweepPoint) -> f64| {
        pts.iter()
            .enumerate()
            .map(|(i, p)| format!("{}{:.1},{:.1}", if i == 0 { "M" } else { "L" }, x(p.context), y(f(p))))
            .collect::<Vec<_>>()
            .join("")
    };
    let total = line(&|p| gib(p.total.get()));
    let kv = line(&|p| gib(p.kv_cache.get()));
    let band = {
        let up: Vec<String> = pts.iter().map(|p| format!("{:.1},{:.1}", x(p.context), y(gib(p.high.get())))).collect();
        let down: Vec<String> =
            pts.iter().rev().map(|p| format!("{:.1},{:.1}", x(p.context), y(gib(p.low.get())))).collect();
        format!("M{}L{}Z", up.join("L"), down.join("L"))
    };
    // Ticks: powers of two contexts, and a few GiB levels.
    let xticks: Vec<u64> = (8..=24).map(|e| 1u64 << e).filter(|c| *c >= pts[0].context && *c <= pts[pts.len() - 1].context).collect();
    let step = nice_step(ymax);
    let yticks: Vec<f64> = (0..=20).map(|i| i as f64 * step).take_while(|v| *v <= ymax).collect();
    let cx = x(current.clamp(pts[0].context, pts[pts.len() - 1].context));
    view! {
        <svg class="hr-svg" viewBox=format!("0 0 {W} {H}") role="img"
            aria-label=format!("{} GiB", format_num(ymax_data, 1, l))>
            {yticks.iter().map(|v| {
                let yy = y(*v);
                view! {
                    <line class="hr-grid" x1=LEFT x2=W - RIGHT y1=yy y2=yy></line>
                    <text class="hr-axis" x=LEFT - 6.0 y=yy + 4.0 text-anchor="end">{format!("{} GiB", format_num(*v, if step < 1.0 { 1 } else { 0 }, l))}</text>
                }
            }).collect_view()}
            {xticks.iter().map(|c| {
                let xx = x(*c);
                let label = if *c >= 1 << 20 { format!("{}M", c >> 20) } else { format!("{}K", c >> 10) };
                view! { <text class="hr-axis" x=xx y=H - 12.0 text-anchor="middle">{label}</text> }
            }).collect_view()}
            <path class="hr-band-area" d=band></path>
            <path class="hr-kv-line" d=kv fill="none"></path>
            <path class="hr-total-line" d=total fill="none"></path>
            {capacity.map(|c| {
                let yy = y(gib(c));
                view! {
                    <line class="hr-capacity" x1=LEFT x2=W - RIGHT y1=yy y2=yy></line>
                    <text class="hr-axis hr-capacity-label" x=W - RIGHT y=yy - 5.0 text-anchor="end">{cap_label}</text>
                }
            })}
            <line class="hr-current" x1=cx x2=cx y1=TOP y2=H - BOTTOM></line>
        </svg>
    }
    .into_any()
}

fn nice_step(max: f64) -> f64 {
    let raw = max / 5.0;
    let mag = headroom_core::ops::powf(10.0, headroom_core::ops::floor(headroom_core::ops::log10(raw.max(1e-9))));
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
