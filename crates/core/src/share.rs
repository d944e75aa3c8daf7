//! The link format: a [`Scenario`] as a readable, versioned URL query, and back.
//!
//! `?v=1&params=7B&weights=fp16` — flat keys, defaults omitted, values in the same spelling the
//! CLI accepts. Decoding never fails: whatever cannot be understood is left at its default and
//! reported in [`Decoded::ignored`], so an old or hand-edited link still opens.
//!
//! Keys of version 1 (a link written by any later version keeps decoding to the same scenario):
//!
//! | key | value | default |
//! |---|---|---|
//! | `v` | format version | `1` |
//! | `model` | a catalog id (`llama-3.1-8b`) | `llama-3.1-8b` |
//! | `params` | a bare parameter count (`7B`, `500M`, `124439808`) instead of a model | — |
//! | `weights` | weight format id (`fp16`, `q4_k_m`, `gptq-4bit`…) | the model's own |
//! | `kv` | KV-cache format (`fp16`, `fp8`, `q8_0`…) | `fp16` |
//! | `ctx` | tokens per sequence | `4096` |
//! | `batch` | sequences at once / micro-batch | `1` |
//! | `runtime` | `transformers`, `vllm`, `llama.cpp`, `ollama`, `mlx`, `cpu` | by format |
//! | `gpus` | devices | `1` |
//! | `fa` | flash attention, `0` to turn off | `1` |
//! | `ngl` | llama.cpp GPU layers (`-ngl`) | all |
//! | `ub` | llama.cpp micro-batch (`-ub`) | `512` |
//! | `nb` | llama.cpp logical batch (`-b`) | `2048` |
//! | `kvv` | llama.cpp V-cache type when it differs from `kv` (`-ctv`) | `kv` |
//! | `swafull` | llama.cpp full-size sliding-window caches, `1` (`--swa-full`) | `0` |
//! | `kvu` | llama.cpp unified KV cache, `1` (`--kv-unified`) | `0` |
//! | `vver` | vLLM release whose defaults apply (`0.21`) | `0.34` |
//! | `gmu` | vLLM `--gpu-memory-utilization` | by release |
//! | `mns`, `mnbt` | vLLM `--max-num-seqs`, `--max-num-batched-tokens` | by card |
//! | `bs` | vLLM `--block-size` | by release (`64` from 0.34, `16` before) |
//! | `pp` | vLLM `--pipeline-parallel-size` | `1` |
//! | `dcp` | vLLM `--decode-context-parallel-size` | `1` |
//! | `cgmax` | vLLM `--max-cudagraph-capture-size` | vLLM's |
//! | `vauto` | vLLM `--max-model-len auto`, `1`: the model's length fitted to the cache | `0` |
//! | `vext` | vLLM's extensible KV cache, `1` or `0` (`--enable-extensible-kv-cache`, `--no-…`) | the release's |
//! | `mconv`, `mssm` | vLLM `--mamba-cache-dtype`, `--mamba-ssm-cache-dtype` (`float32`, `bfloat16`) | auto |
//! | `vpc` | vLLM prefix caching, `1` or `0` (`--[no-]enable-prefix-caching`) | by release |
//! | `vas` | vLLM async scheduling, `1` or `0` (`--[no-]async-scheduling`) | by release (on in 0.34) |
//! | `kvmem` | vLLM `--kv-cache-memory`, bytes | profiled |
//! | `eager`, `cge` | vLLM `--enforce-eager`, CUDA-graph estimate (`1`/`0`) | off, by release |
//! | `dp`, `ep` | vLLM `--data-parallel-size`, `--enable-expert-parallel` (`1`) | `1`, off |
//! | `spec` | vLLM speculative drafter: `mtp:N`, `eagle:N`, `draft:MODEL:N` | none |
//! | `cpuoff` | vLLM `--cpu-offload-gb`, in bytes | `0` |
//! | `reserve` | memory kept free for other programs: `auto` (by device) or MiB | none |
//! | `mfs` | SGLang `--mem-fraction-static` | by card |
//! | `cps`, `cgbs`, `page` | SGLang `--chunked-prefill-size`, `--cuda-graph-max-bs`, `--page-size` | by card, `1` |
//! | `nocg` | SGLang `--disable-cuda-graph`, `1` | `0` |
//! | `swar`, `noswa` | SGLang `--swa-full-tokens-ratio`, `--disable-hybrid-swa-memory` (`1`) | `0.8`, `0` |
//! | `mfr`, `mmcs` | SGLang `--mamba-full-memory-ratio`, `--max-mamba-cache-size` | `0.9`, from the ratio |
//! | `draft` | llama.cpp draft model for speculative decoding, a catalog id (`-md`) | none |
//! | `draftmax` | its most tokens drafted per step (`--draft-max`) | `16` |
//! | `cpumoe` | llama.cpp MoE experts in RAM: of the first N layers, or `all` (`--n-cpu-moe`, `--cpu-moe`) | none |
//! | `mode` | `inference`, `full`, `lora`, `qlora` | `inference` |
//! | `opt` | optimizer (`adamw`, `adamw-8bit`, `paged-adamw-8bit`, `sgd`, `adafactor`, `lion`…) | `adamw` |
//! | `prec` | full fine-tuning recipe (`mixed`, `amp`, `mixed-fp32-grads`, `pure-bf16`, `fp32`) | `mixed` |
//! | `rank` | LoRA rank | `16` |
//! | `targets` | LoRA targets (`all-linear` or `q,v`…) | `all-linear` |
//! | `ckpt` | activation checkpointing (`none`, `selective`, `full`, `offloaded`) | `none` |
//! | `fw` | the training framework whose defaults were applied (`hf`, `trl`, `unsloth`, `axolotl`, `llama-factory`, `torchtune`, `litgpt`, `deepspeed`, `fsdp`) | `custom` |
//! | `loss` | loss kernel (`full`, `chunked`, `fused`) | `full` |
//! | `ldrop` | LoRA dropout, `0` or `1` | `1` |
//! | `adt` | adapters' dtype (`fp32`, `bf16`) | `fp32` |
//! | `kbit` | QLoRA's FP32 upcast of unquantized parameters, `0` or `1` | `1` |
//! | `accum` | micro-batches per optimizer step | `1` |
//! | `oib` | optimizer in the backward pass, `1` | `0` |
//! | `aoff` | activations offloaded to CPU memory, `1` | `0` |
//! | `f8t` | float8 training (torchao), `1` | `0` |
//! | `rbs`, `ovl` | DeepSpeed `reduce_bucket_size` (elements) and `overlap_comm` (`1`/`0`) | `hidden²`, by stage |
//! | `compile` | `torch.compile`, `1` | `0` |
//! | `dora` | DoRA adapters, `1` | `0` |
//! | `cp` | context-parallel degree (training) | `1` |
//! | `uly` | DeepSpeed-Ulysses sequence-parallel degree (training) | `1` |
//! | `tsp` | sequence parallelism with tensor parallelism, `1` | `0` |
//! | `bat`, `msamp` | batching (`padded`, `packed`, `padding-free`) and mean sample tokens | `padded`, `0` |
//! | `dmap` | model parallelism, the layers split over the GPUs (`device_map`), `1` | `0` |
//! | `zero` | ZeRO stage 0–3 | `0` |
//! | `offload` | ZeRO offload (`none`, `optimizer`, `all`) | `none` |
//! | `tp` | tensor-parallel degree (training) | `1` |
//! | `tokens` | dataset tokens | `10000000` |
//! | `epochs` | passes over the dataset | `1` |
//! | `node` | GPUs per node | `8` |
//! | `device` | a catalog device id, or `mine` for the user's machine | none |
//! | `vram`, `ram`, `bw`, `tf`, `mac` | "my machine": GPU memory and RAM in GiB, GB/s, TFLOP/s, `1` for Apple unified memory | — |
//! | `macgpu` | share of a unified memory (a Mac's, an APU's) its GPU may use | the OS's default |
//! | `hostram` | system RAM beside a catalog GPU or laptop, GiB | not known (an offload's RAM not checked) |
//! | `kwh`, `hours`, `pue`, `upkeep` | electricity USD/kWh, hours of use per day, cooling factor, upkeep share per year | `0.15`, `8`, `1`, `0.05` |
//!
//! The page's own settings ride along ([`Link`]): `lang` (`en`, `fr`), `theme` (`light`,
//! `dark`), `embed=1` for the compact embeddable view, `cmp`, a pinned scenario of a
//! comparison, itself a link query (percent-encoded) with an optional `name` (repeated for each,
//! at most [`MAX_PINNED`]), `units`, how sizes are written (`gb`, `gib`; both when absent), `hf`, a Hugging Face model the page reads on
//! opening (`org/name`, `org/name@revision`, `org/name/file.gguf`, `org/name:Q4_K_M`), and `hub`,
//! the hub to read it from when not `https://huggingface.co`. An access token never travels in a
//! link.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::hardware::{DeviceChoice, MyMachine};
use crate::import::hub::{self, HubRef};
use crate::inference::Runtime;
use crate::precision::{KvDtype, WeightFormat};
use crate::scenario::{
    DEFAULT_MODEL, MAX_BATCH, MAX_CONTEXT, MAX_GPUS, ModelSource, Scenario, format_params, parse_params,
};
use crate::text::{Lang, Units};
use crate::training::{
    Checkpointing, Framework, LoraTargets, LossKernel, Mode, Offload, Optimizer, TrainPrecision,
};

/// The version this build writes.
pub const VERSION: u32 = 1;

/// Something in a link that was not used, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ignored {
    /// The key as written.
    pub key: String,
    /// The value as written (decoded).
    pub value: String,
    /// Why it was ignored, lowercase.
    pub reason: String,
}

/// The result of reading a link.
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded {
    /// The scenario, with defaults wherever the link said nothing usable.
    pub scenario: Scenario,
    /// What was ignored.
    pub ignored: Vec<Ignored>,
}

/// The page's colour theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Theme {
    /// Light.
    Light,
    /// Dark.
    Dark,
}

impl Theme {
    /// The id in links.
    pub const fn id(self) -> &'static str {
        match self {
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }
}

/// A whole link: the scenario, and the page's settings around it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Link {
    /// The scenario.
    pub scenario: Scenario,
    /// The pinned scenarios shown beside it, when comparing (at most [`MAX_PINNED`]).
    pub compare: Vec<Pinned>,
    /// The language, when chosen (otherwise the browser's).
    pub lang: Option<Lang>,
    /// The theme, when chosen (otherwise the system's).
    pub theme: Option<Theme>,
    /// The compact view for iframes.
    pub embed: bool,
    /// A Hugging Face model the page reads on opening (its headers, never the weights).
    pub hf: Option<HubRef>,
    /// The hub to read it from, when not the public one (a mirror or a test server).
    pub hub: Option<String>,
    /// How sizes are written.
    pub units: Units,
}

/// At most this many scenarios are pinned beside the current one.
pub const MAX_PINNED: usize = 4;

/// The longest name of a pinned scenario, in characters.
pub const MAX_PIN_NAME: usize = 40;

/// A scenario pinned for comparison, with its name.
#[derive(Clone, Debug, PartialEq)]
pub struct Pinned {
    /// Its name: what the user called it, or its letter (`A` for the first).
    pub name: String,
    /// The scenario.
    pub scenario: Scenario,
}

impl Pinned {
    /// The name a pinned scenario has at position `i` until the user names it: `A`, `B`, ….
    pub fn default_name(i: usize) -> String {
        let letter = char::from(b'A' + (i % 26) as u8);
        letter.to_string()
    }

    /// Pins `scenario` as the `i`-th, under `name` cleaned by [`clean_pin_name`] (its letter when
    /// nothing is left).
    pub fn new(i: usize, name: &str, scenario: Scenario) -> Pinned {
        let name = clean_pin_name(name).unwrap_or_else(|| Pinned::default_name(i));
        Pinned { name, scenario }
    }
}

/// Removes the `i`-th pinned scenario (nothing when there is none); those still called by a letter
/// take the letter of their new position, so a link written after keeps them unnamed.
pub fn unpin(pins: &mut Vec<Pinned>, i: usize) {
    if i >= pins.len() {
        return;
    }
    pins.remove(i);
    for (at, p) in pins.iter_mut().enumerate() {
        if p.name.len() == 1 && p.name.as_bytes()[0].is_ascii_uppercase() {
            p.name = Pinned::default_name(at);
        }
    }
}

/// A pinned scenario's name as kept: control characters dropped, spaces collapsed, at most
/// [`MAX_PIN_NAME`] characters; `None` when nothing is left.
pub fn clean_pin_name(name: &str) -> Option<String> {
    let mut out = String::new();
    for word in name.split(|c: char| c.is_whitespace() || c.is_control()).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    let out: String = out.chars().take(MAX_PIN_NAME).collect();
    let out = out.trim_end().to_string();
    (!out.is_empty()).then_some(out)
}

/// The result of reading a whole link.
#[derive(Clone, Debug, PartialEq)]
pub struct DecodedLink {
    /// The link, with defaults wherever it said nothing usable.
    pub link: Link,
    /// What was ignored (for `cmp`, keys are shown as `cmp.key`).
    pub ignored: Vec<Ignored>,
}

/// Writes a whole link's query: the scenario's keys, then the page's settings.
///
/// # Example
/// ```
/// use headroom_core::{scenario::Scenario, share::{self, Link}, text::Lang};
/// let pin = share::Pinned::new(0, "", Scenario::catalog("qwen3-8b"));
/// let link = Link { compare: vec![pin], lang: Some(Lang::Fr), ..Link::default() };
/// let q = share::encode_link(&link);
/// assert_eq!(q, "?v=1&cmp=v%3D1%26model%3Dqwen3-8b&lang=fr");
/// assert_eq!(share::decode_link(&q).link, link);
/// ```
pub fn encode_link(link: &Link) -> String {
    let mut q = encode(&link.scenario);
    let mut push = |k: &str, v: &str| {
        q.push('&');
        q.push_str(k);
        q.push('=');
        percent_encode_into(&mut q, v);
    };
    for (i, p) in link.compare.iter().enumerate() {
        let mut inner = String::from(encode(&p.scenario).trim_start_matches('?'));
        if p.name != Pinned::default_name(i) {
            inner.push_str("&name=");
            percent_encode_into(&mut inner, &p.name);
        }
        push("cmp", &inner);
    }
    if let Some(l) = link.lang {
        push("lang", l.code());
    }
    if let Some(t) = link.theme {
        push("theme", t.id());
    }
    if link.embed {
        push("embed", "1");
    }
    if let Some(r) = &link.hf {
        push("hf", &r.to_link_value());
    }
    if let Some(h) = &link.hub {
        push("hub", h);
    }
    if link.units != Units::Both {
        push("units", link.units.id());
    }
    q
}

/// Reads a whole link. Never fails.
pub fn decode_link(query: &str) -> DecodedLink {
    let d = decode(query);
    let mut link = Link { scenario: d.scenario, ..Link::default() };
    let mut ignored = Vec::new();
    for i in d.ignored {
        match i.key.as_str() {
            "cmp" if link.compare.len() >= MAX_PINNED => {
                ignored.push(Ignored { reason: format!("at most {MAX_PINNED} scenarios are pinned"), ..i })
            }
            "cmp" => {
                let inner = decode(&i.value);
                let at = link.compare.len();
                let mut name = None;
                for x in inner.ignored {
                    if x.key == "name" && name.is_none() {
                        name = Some(x.value);
                    } else {
                        ignored.push(Ignored { key: format!("cmp.{}", x.key), ..x });
                    }
                }
                link.compare.push(Pinned::new(at, name.as_deref().unwrap_or(""), inner.scenario));
            }
            "units" => match Units::parse(&i.value) {
                Some(u) => link.units = u,
                None => ignored.push(Ignored { reason: "not a size unit (gb, gib or both)".into(), ..i }),
            },
            "lang" => match Lang::from_tag(&i.value) {
                Some(l) => link.lang = Some(l),
                None => ignored.push(Ignored { reason: "not a language (en or fr)".into(), ..i }),
            },
            "theme" => match i.value.as_str() {
                "light" => link.theme = Some(Theme::Light),
                "dark" => link.theme = Some(Theme::Dark),
                _ => ignored.push(Ignored { reason: "not a theme (light or dark)".into(), ..i }),
            },
            "embed" => match i.value.as_str() {
                "1" | "true" => link.embed = true,
                "0" | "false" | "" => {}
                _ => ignored.push(Ignored { reason: "use 0 or 1".into(), ..i }),
            },
            "hf" => match hub::parse_link_value(&i.value) {
                Ok(r) => link.hf = Some(r),
                Err(e) => ignored.push(Ignored { reason: e.to_string(), ..i }),
            },
            "hub" => match hub::parse_base(&i.value) {
                Ok(b) => link.hub = Some(b),
                Err(e) => ignored.push(Ignored { reason: e.to_string(), ..i }),
            },
            _ => ignored.push(i),
        }
    }
    DecodedLink { link, ignored }
}

/// Writes the query string (starting with `?`) for a scenario.
///
/// # Example
/// ```
/// use headroom_core::{precision::WeightFormat, scenario::*, share, units::Params};
/// let s = Scenario::params(Params::new(7_000_000_000), Some(WeightFormat::F16));
/// assert_eq!(share::encode(&s), "?v=1&params=7B&weights=fp16");
/// assert_eq!(share::decode(&share::encode(&s)).scenario, s);
/// ```
pub fn encode(s: &Scenario) -> String {
    let d = Scenario::default();
    let mut q = QueryWriter::new();
    q.push("v", &format!("{VERSION}"));
    match &s.model {
        ModelSource::Params(p) => q.push("params", &format_params(*p)),
        ModelSource::Catalog(id) => {
            if *id != DEFAULT_MODEL {
                q.push("model", id);
            }
        }
        // A model read from a file cannot travel in a link; the page says so.
        ModelSource::Custom(_) => {}
    }
    if let Some(w) = s.weights {
        q.push("weights", &w.id());
    }
    if s.kv != d.kv {
        q.push("kv", s.kv.id());
    }
    if s.context != d.context {
        q.push("ctx", &format!("{}", s.context));
    }
    if s.batch != d.batch {
        q.push("batch", &format!("{}", s.batch));
    }
    if let Some(r) = s.runtime {
        q.push("runtime", r.id());
    }
    if s.gpus != d.gpus {
        q.push("gpus", &format!("{}", s.gpus));
    }
    if !s.flash_attention {
        q.push("fa", "0");
    }
    if s.text_only {
        q.push("text", "1");
    }
    if let Some(n) = s.gpu_layers {
        q.push("ngl", &format!("{n}"));
    }
    if s.llama.ubatch != d.llama.ubatch {
        q.push("ub", &format!("{}", s.llama.ubatch));
    }
    if s.llama.batch != d.llama.batch {
        q.push("nb", &format!("{}", s.llama.batch));
    }
    if let Some(v) = s.llama.v_type {
        q.push("kvv", v.id());
    }
    if s.llama.swa_full {
        q.push("swafull", "1");
    }
    if s.llama.unified {
        q.push("kvu", "1");
    }
    match s.llama.cpu_moe {
        Some(crate::scenario::ALL_LAYERS) => q.push("cpumoe", "all"),
        Some(n) => q.push("cpumoe", &format!("{n}")),
        None => {}
    }
    if let Some(dm) = &s.llama.draft {
        q.push("draft", dm);
    }
    if s.llama.draft_max != d.llama.draft_max {
        q.push("draftmax", &format!("{}", s.llama.draft_max));
    }
    if !s.llama.with_gpus.is_empty() {
        q.push("with", &s.llama.with_gpus.join(","));
    }
    if let Some(n) = s.llama.num_batch {
        q.push("numbatch", &format!("{n}"));
    }
    if !s.llama.tensor_split.is_empty() {
        q.push("ts", &crate::scenario::format_tensor_split(&s.llama.tensor_split));
    }
    let v = &s.vllm;
    if v.version != d.vllm.version {
        q.push("vver", &v.version.id());
    }
    if let Some(u) = v.utilization {
        q.push("gmu", &format!("{}", f64::from(u) / 10_000.0));
    }
    for (key, n) in [
        ("mns", v.max_num_seqs),
        ("mnbt", v.max_num_batched_tokens),
        ("bs", v.block_size),
        ("kvmem", v.kv_cache_memory),
    ] {
        if let Some(n) = n {
            q.push(key, &format!("{n}"));
        }
    }
    if v.enforce_eager {
        q.push("eager", "1");
    }
    if let Some(g) = v.graph_estimate {
        q.push("cge", if g { "1" } else { "0" });
    }
    if v.cpu_offload > 0 {
        q.push("cpuoff", &format!("{}", v.cpu_offload));
    }
    if let Some(sp) = &v.speculative {
        q.push("spec", &sp.id());
    }
    if let Some(d) = v.data_parallel {
        q.push("dp", &format!("{d}"));
    }
    if v.expert_parallel {
        q.push("ep", "1");
    }
    if v.mm_encoder_data {
        q.push("mmdata", "1");
    }
    if let Some(p) = v.prefix_caching {
        q.push("vpc", if p { "1" } else { "0" });
    }
    if let Some(p) = v.async_scheduling {
        q.push("vas", if p { "1" } else { "0" });
    }
    if let Some(p) = v.pipeline_parallel {
        q.push("pp", &format!("{p}"));
    }
    if let Some(d) = v.decode_context_parallel {
        q.push("dcp", &format!("{d}"));
    }
    if let Some(x) = v.extensible_kv_cache {
        q.push("vext", if x { "1" } else { "0" });
    }
    if v.max_model_len_auto {
        q.push("vauto", "1");
    }
    if let Some(n) = v.max_cudagraph_capture_size {
        q.push("cgmax", &format!("{n}"));
    }
    for (key, b) in [("mconv", v.mamba_cache_bytes), ("mssm", v.mamba_ssm_cache_bytes)] {
        if let Some(b) = b {
            q.push(key, crate::vllm::mamba_dtype_id(b));
        }
    }
    let g = &s.sglang;
    if let Some(f) = g.mem_fraction_static {
        q.push("mfs", &format!("{}", f64::from(f) / 10_000.0));
    }
    for (key, n) in [("cps", g.chunked_prefill_size), ("cgbs", g.cuda_graph_max_bs), ("page", g.page_size)] {
        if let Some(n) = n {
            q.push(key, &format!("{n}"));
        }
    }
    if g.disable_cuda_graph {
        q.push("nocg", "1");
    }
    for (key, r) in [("swar", g.swa_full_tokens_ratio), ("mfr", g.mamba_full_memory_ratio)] {
        if let Some(r) = r {
            q.push(key, &format!("{}", f64::from(r) / 10_000.0));
        }
    }
    if let Some(n) = g.max_mamba_cache_size {
        q.push("mmcs", &format!("{n}"));
    }
    if g.disable_hybrid_swa_memory {
        q.push("noswa", "1");
    }
    if s.mode != d.mode {
        q.push("mode", s.mode.id());
    }
    if s.optimizer != d.optimizer {
        q.push("opt", s.optimizer.id());
    }
    if s.precision != d.precision {
        q.push("prec", s.precision.id());
    }
    if s.lora_rank != d.lora_rank {
        q.push("rank", &format!("{}", s.lora_rank));
    }
    if s.lora_targets != d.lora_targets {
        q.push("targets", &s.lora_targets.id());
    }
    if s.checkpointing != d.checkpointing {
        q.push("ckpt", s.checkpointing.id());
    }
    let (t, dt) = (&s.train, &d.train);
    if t.framework != dt.framework {
        q.push("fw", t.framework.id());
    }
    if t.loss != dt.loss {
        q.push("loss", t.loss.id());
    }
    for (key, on, default) in [
        ("ldrop", t.lora_dropout, dt.lora_dropout),
        ("kbit", t.kbit_upcast, dt.kbit_upcast),
        ("oib", t.optimizer_in_backward, dt.optimizer_in_backward),
        ("aoff", t.activation_offload, dt.activation_offload),
        ("compile", t.compile, dt.compile),
        ("dora", t.dora, dt.dora),
        ("dmap", t.device_map, dt.device_map),
        ("f8t", t.fp8, dt.fp8),
        ("tsp", t.sequence_parallel, dt.sequence_parallel),
    ] {
        if on != default {
            q.push(key, if on { "1" } else { "0" });
        }
    }
    if t.adapters_fp32 != dt.adapters_fp32 {
        q.push("adt", if t.adapters_fp32 { "fp32" } else { "bf16" });
    }
    if t.grad_accum != dt.grad_accum {
        q.push("accum", &format!("{}", t.grad_accum));
    }
    if t.ckpt_every != dt.ckpt_every {
        q.push("ckev", &format!("{}", t.ckpt_every));
    }
    if t.cp != dt.cp {
        q.push("cp", &format!("{}", t.cp));
    }
    if t.ulysses != dt.ulysses {
        q.push("uly", &format!("{}", t.ulysses));
    }
    if t.batching != dt.batching {
        q.push("bat", t.batching.id());
    }
    if t.mean_sample != dt.mean_sample {
        q.push("msamp", &format!("{}", t.mean_sample));
    }
    if t.reduce_bucket != dt.reduce_bucket {
        q.push("rbs", &format!("{}", t.reduce_bucket));
    }
    if let Some(on) = t.overlap_comm {
        q.push("ovl", if on { "1" } else { "0" });
    }
    if s.zero != d.zero {
        q.push("zero", &format!("{}", s.zero));
    }
    if s.offload != d.offload {
        q.push("offload", s.offload.id());
    }
    if s.tp != d.tp {
        q.push("tp", &format!("{}", s.tp));
    }
    if s.dataset_tokens != d.dataset_tokens {
        q.push("tokens", &format!("{}", s.dataset_tokens));
    }
    if s.epochs != d.epochs {
        q.push("epochs", &format!("{}", s.epochs));
    }
    if s.gpus_per_node != d.gpus_per_node {
        q.push("node", &format!("{}", s.gpus_per_node));
    }
    match &s.device {
        None => {}
        Some(DeviceChoice::Catalog(id)) => q.push("device", id),
        Some(DeviceChoice::Mine(m)) => {
            q.push("device", "mine");
            q.push("vram", &num(m.vram_gib));
            q.push("ram", &num(m.ram_gib));
            if m.bandwidth_gbs > 0.0 {
                q.push("bw", &num(m.bandwidth_gbs));
            }
            if m.tflops > 0.0 {
                q.push("tf", &num(m.tflops));
            }
            if m.unified {
                q.push("mac", "1");
            }
        }
    }
    if s.reserve != d.reserve {
        q.push("reserve", &s.reserve.id());
    }
    if let Some(f) = s.mac_gpu_fraction {
        q.push("macgpu", &num(f));
    }
    if let Some(g) = s.host_ram_gib {
        q.push("hostram", &num(g));
    }
    let c = &s.costs;
    let dc = &d.costs;
    if c.usd_per_kwh != dc.usd_per_kwh {
        q.push("kwh", &num(c.usd_per_kwh));
    }
    if c.hours_per_day != dc.hours_per_day {
        q.push("hours", &num(c.hours_per_day));
    }
    if c.cooling_factor != dc.cooling_factor {
        q.push("pue", &num(c.cooling_factor));
    }
    if c.upkeep_per_year != dc.upkeep_per_year {
        q.push("upkeep", &num(c.upkeep_per_year));
    }
    q.finish()
}

/// Reads a query string (with or without the leading `?`, or a whole URL). Never fails.
pub fn decode(query: &str) -> Decoded {
    let query = match query.find('?') {
        Some(i) => &query[i + 1..],
        None => query,
    };
    let query = query.split('#').next().unwrap_or("");
    let mut scenario = Scenario::default();
    let mut ignored = Vec::new();
    let mut mine: Option<MyMachine> = None;
    let mut ignore = |key: &str, value: &str, reason: String| {
        ignored.push(Ignored { key: key.into(), value: value.into(), reason });
    };
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (raw_key, raw_value) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode(raw_key);
        let value = percent_decode(raw_value);
        match key.as_str() {
            "v" => match value.parse::<u32>() {
                Ok(1) => {}
                Ok(n) if n > VERSION => ignore(
                    &key,
                    &value,
                    format!("link written by a newer version ({n}); read as version {VERSION}"),
                ),
                _ => ignore(&key, &value, "not a known link version".into()),
            },
            "params" => match parse_params(&value) {
                Ok(p) => scenario.model = ModelSource::Params(p),
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "model" => match crate::catalog::model(&value) {
                Ok(m) => scenario.model = ModelSource::Catalog(m.id.into()),
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "weights" => match WeightFormat::parse(&value) {
                Ok(w) => scenario.weights = Some(w),
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "kv" => match KvDtype::parse(&value) {
                Ok(k) => scenario.kv = k,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "ctx" => match parse_count(&value, MAX_CONTEXT) {
                Some(n) => scenario.context = n,
                None => ignore(&key, &value, format!("not a context length (1 to {MAX_CONTEXT} tokens)")),
            },
            "batch" => match parse_count(&value, MAX_BATCH) {
                Some(n) => scenario.batch = n,
                None => ignore(&key, &value, format!("not a batch size (1 to {MAX_BATCH})")),
            },
            "runtime" => match Runtime::parse(&value) {
                Ok(r) => scenario.runtime = Some(r),
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "gpus" => match parse_count(&value, MAX_GPUS) {
                Some(n) => scenario.gpus = n,
                None => ignore(&key, &value, format!("not a device count (1 to {MAX_GPUS})")),
            },
            "ngl" => match value.trim().parse::<u64>() {
                Ok(n) if n <= crate::model::MAX_LAYERS => scenario.gpu_layers = Some(n),
                _ => ignore(&key, &value, "not a layer count".into()),
            },
            "ub" | "nb" => match parse_count(&value, crate::scenario::MAX_LLAMA_BATCH) {
                Some(n) if key == "ub" => scenario.llama.ubatch = n,
                Some(n) => scenario.llama.batch = n,
                None => ignore(
                    &key,
                    &value,
                    format!("not a token count (1 to {})", crate::scenario::MAX_LLAMA_BATCH),
                ),
            },
            "draft" => match crate::catalog::model(&value) {
                Ok(m) => scenario.llama.draft = Some(m.id.into()),
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "with" => match value
                .split(',')
                .map(|id| crate::catalog::device(id.trim()).map(|d| d.id.to_string()))
                .collect::<crate::error::Result<Vec<_>>>()
            {
                Ok(v) if !v.is_empty() && v.len() < 64 => scenario.llama.with_gpus = v,
                Ok(_) => ignore(&key, &value, "one to 63 catalog GPU ids".into()),
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "numbatch" => match parse_count(&value, crate::scenario::MAX_LLAMA_BATCH) {
                Some(n) => scenario.llama.num_batch = Some(n),
                None => ignore(
                    &key,
                    &value,
                    format!("not a token count (1 to {})", crate::scenario::MAX_LLAMA_BATCH),
                ),
            },
            "ts" => match crate::scenario::parse_tensor_split(&value) {
                Ok(t) => scenario.llama.tensor_split = t,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "draftmax" => match parse_count(&value, 1024) {
                Some(n) => scenario.llama.draft_max = n,
                None => ignore(&key, &value, "a number of tokens (1 to 1024)".into()),
            },
            "cpumoe" => match value.trim() {
                "all" => scenario.llama.cpu_moe = Some(crate::scenario::ALL_LAYERS),
                v => match v.parse::<u64>() {
                    Ok(n) if n <= crate::model::MAX_LAYERS => scenario.llama.cpu_moe = Some(n),
                    _ => ignore(&key, &value, "a layer count or `all`".into()),
                },
            },
            "kvv" => match KvDtype::parse(&value) {
                Ok(v) => scenario.llama.v_type = Some(v),
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "swafull" | "kvu" => match value.as_str() {
                "0" | "1" => {
                    let on = value == "1";
                    if key == "swafull" { scenario.llama.swa_full = on } else { scenario.llama.unified = on }
                }
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "reserve" => match value.trim() {
                "auto" => scenario.reserve = crate::hardware::Reserve::Auto,
                "none" => scenario.reserve = crate::hardware::Reserve::None,
                v => match v.parse::<u64>() {
                    Ok(n) if n > 0 && n <= crate::hardware::MAX_RESERVE_MIB => {
                        scenario.reserve = crate::hardware::Reserve::Mib(n);
                    }
                    _ => ignore(&key, &value, "none, auto, or MiB (1 to 1048576)".into()),
                },
            },
            "mfs" => match value.trim().parse::<f64>().ok().and_then(crate::vllm::utilization_of) {
                Some(f) => scenario.sglang.mem_fraction_static = Some(f),
                None => ignore(&key, &value, "a share above 0 and at most 1".into()),
            },
            "cps" | "cgbs" | "page" => match parse_count(&value, crate::sglang::MAX_SGLANG) {
                Some(n) if key == "cps" => scenario.sglang.chunked_prefill_size = Some(n),
                Some(n) if key == "cgbs" => scenario.sglang.cuda_graph_max_bs = Some(n),
                Some(n) => scenario.sglang.page_size = Some(n),
                None => ignore(&key, &value, format!("a count (1 to {})", crate::sglang::MAX_SGLANG)),
            },
            "nocg" => match value.as_str() {
                "0" | "1" => scenario.sglang.disable_cuda_graph = value == "1",
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "noswa" => match value.as_str() {
                "0" | "1" => scenario.sglang.disable_hybrid_swa_memory = value == "1",
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "swar" | "mfr" => match value.trim().parse::<f64>().ok().and_then(crate::vllm::utilization_of) {
                Some(f) if key == "swar" => scenario.sglang.swa_full_tokens_ratio = Some(f),
                Some(f) => scenario.sglang.mamba_full_memory_ratio = Some(f),
                None => ignore(&key, &value, "a ratio above 0 and at most 1".into()),
            },
            "mmcs" => match parse_count(&value, crate::sglang::MAX_SGLANG) {
                Some(n) => scenario.sglang.max_mamba_cache_size = Some(n),
                None => ignore(
                    &key,
                    &value,
                    format!("a count of state slots (1 to {})", crate::sglang::MAX_SGLANG),
                ),
            },
            "dp" => match parse_count(&value, MAX_GPUS) {
                Some(n) => scenario.vllm.data_parallel = Some(n),
                None => ignore(&key, &value, format!("a replica count (1 to {MAX_GPUS})")),
            },
            "ep" => match value.as_str() {
                "0" | "1" => scenario.vllm.expert_parallel = value == "1",
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "mmdata" => match value.as_str() {
                "0" | "1" => scenario.vllm.mm_encoder_data = value == "1",
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "mconv" | "mssm" => match crate::vllm::mamba_dtype_bytes(&value) {
                Ok(Some(b)) if key == "mconv" => scenario.vllm.mamba_cache_bytes = Some(b),
                Ok(Some(b)) => scenario.vllm.mamba_ssm_cache_bytes = Some(b),
                Ok(None) => {}
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "dcp" => match parse_count(&value, MAX_GPUS) {
                Some(n) => scenario.vllm.decode_context_parallel = Some(n),
                None => ignore(&key, &value, format!("a rank count (1 to {MAX_GPUS})")),
            },
            "pp" => match parse_count(&value, MAX_GPUS) {
                Some(n) => scenario.vllm.pipeline_parallel = Some(n),
                None => ignore(&key, &value, format!("a stage count (1 to {MAX_GPUS})")),
            },
            "vpc" => match value.as_str() {
                "0" | "1" => scenario.vllm.prefix_caching = Some(value == "1"),
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "cgmax" => match parse_count(&value, crate::vllm::MAX_VLLM_TOKENS) {
                Some(n) => scenario.vllm.max_cudagraph_capture_size = Some(n),
                None => ignore(&key, &value, format!("a batch size (1 to {})", crate::vllm::MAX_VLLM_TOKENS)),
            },
            "vauto" => match value.as_str() {
                "0" | "1" => scenario.vllm.max_model_len_auto = value == "1",
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "vext" => match value.as_str() {
                "0" | "1" => scenario.vllm.extensible_kv_cache = Some(value == "1"),
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "vas" => match value.as_str() {
                "0" | "1" => scenario.vllm.async_scheduling = Some(value == "1"),
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "spec" => match crate::vllm::Speculative::parse(&value) {
                Ok(sp) => scenario.vllm.speculative = Some(sp),
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "vver" => match crate::vllm::VllmVersion::parse(&value) {
                Ok(v) => scenario.vllm.version = v,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "gmu" => match value.trim().parse::<f64>().ok().and_then(crate::vllm::utilization_of) {
                Some(u) => scenario.vllm.utilization = Some(u),
                None => ignore(&key, &value, "a share above 0 and at most 1".into()),
            },
            "mns" | "mnbt" => match parse_count(&value, crate::vllm::MAX_VLLM_TOKENS) {
                Some(n) if key == "mns" => scenario.vllm.max_num_seqs = Some(n),
                Some(n) => scenario.vllm.max_num_batched_tokens = Some(n),
                None => ignore(&key, &value, format!("a count (1 to {})", crate::vllm::MAX_VLLM_TOKENS)),
            },
            "bs" => match value.trim().parse::<u64>() {
                Ok(n)
                    if (crate::vllm::VllmOptions { block_size: Some(n), ..Default::default() })
                        .validate()
                        .is_ok() =>
                {
                    scenario.vllm.block_size = Some(n);
                }
                _ => ignore(&key, &value, "a block size (16, 32 … 2048)".into()),
            },
            "kvmem" | "cpuoff" => match value.trim().parse::<u64>() {
                Ok(n) if n > 0 && n < 1 << 50 => {
                    if key == "kvmem" {
                        scenario.vllm.kv_cache_memory = Some(n)
                    } else {
                        scenario.vllm.cpu_offload = n
                    }
                }
                _ => ignore(&key, &value, "a size in bytes".into()),
            },
            "eager" | "cge" => match value.as_str() {
                "0" | "1" => {
                    let on = value == "1";
                    if key == "eager" {
                        scenario.vllm.enforce_eager = on
                    } else {
                        scenario.vllm.graph_estimate = Some(on)
                    }
                }
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "mode" => match Mode::parse(&value) {
                Ok(m) => scenario.mode = m,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "opt" => match Optimizer::parse(&value) {
                Ok(o) => scenario.optimizer = o,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "prec" => match TrainPrecision::parse(&value) {
                Ok(p) => scenario.precision = p,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "rank" => match parse_count(&value, 65_536) {
                Some(n) => scenario.lora_rank = n,
                None => ignore(&key, &value, "not a LoRA rank (1 to 65536)".into()),
            },
            "targets" => match LoraTargets::parse(&value) {
                Ok(t) => scenario.lora_targets = t,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "ckpt" => match Checkpointing::parse(&value) {
                Ok(c) => scenario.checkpointing = c,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "zero" => match value.trim().parse::<u8>() {
                Ok(z) if z <= 3 => scenario.zero = z,
                _ => ignore(&key, &value, "not a ZeRO stage (0 to 3)".into()),
            },
            "offload" => match Offload::parse(&value) {
                Ok(o) => scenario.offload = o,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "fw" => match Framework::parse(&value) {
                Ok(f) => scenario.train.framework = f,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "loss" => match LossKernel::parse(&value) {
                Ok(l) => scenario.train.loss = l,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "ldrop" | "kbit" | "oib" | "aoff" | "compile" | "dora" | "dmap" | "f8t" | "tsp" => {
                match value.as_str() {
                    "0" | "1" => {
                        let on = value == "1";
                        let t = &mut scenario.train;
                        match key.as_str() {
                            "ldrop" => t.lora_dropout = on,
                            "kbit" => t.kbit_upcast = on,
                            "oib" => t.optimizer_in_backward = on,
                            "aoff" => t.activation_offload = on,
                            "dora" => t.dora = on,
                            "dmap" => t.device_map = on,
                            "f8t" => t.fp8 = on,
                            "tsp" => t.sequence_parallel = on,
                            _ => t.compile = on,
                        }
                    }
                    _ => ignore(&key, &value, "use 0 or 1".into()),
                }
            }
            "adt" => match value.as_str() {
                "fp32" => scenario.train.adapters_fp32 = true,
                "bf16" => scenario.train.adapters_fp32 = false,
                _ => ignore(&key, &value, "not an adapter dtype (fp32 or bf16)".into()),
            },
            "rbs" => match crate::training::parse_bucket(&value) {
                Ok(n) => scenario.train.reduce_bucket = n,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "ovl" => match value.as_str() {
                "0" | "1" => scenario.train.overlap_comm = Some(value == "1"),
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "cp" => match parse_count(&value, MAX_GPUS) {
                Some(n) => scenario.train.cp = n,
                None => ignore(&key, &value, format!("not a context-parallel degree (1 to {MAX_GPUS})")),
            },
            "uly" => match parse_count(&value, MAX_GPUS) {
                Some(n) => scenario.train.ulysses = n,
                None => ignore(&key, &value, format!("not a Ulysses degree (1 to {MAX_GPUS})")),
            },
            "bat" => match crate::training::Batching::parse(&value) {
                Ok(b) => scenario.train.batching = b,
                Err(e) => ignore(&key, &value, format!("{e}")),
            },
            "msamp" => match value.parse::<u64>() {
                Ok(n) if n <= MAX_CONTEXT => scenario.train.mean_sample = n,
                _ => ignore(&key, &value, "not a mean sample length (0 to 16777216 tokens)".into()),
            },
            "ckev" => match parse_count(&value, 1 << 10) {
                Some(n) => scenario.train.ckpt_every = n,
                None => ignore(&key, &value, "not a checkpointing interval (every 1 to 1024 layers)".into()),
            },
            "accum" => match parse_count(&value, 1 << 20) {
                Some(n) => scenario.train.grad_accum = n,
                None => ignore(&key, &value, "not a count of micro-batches per step (1 to 1048576)".into()),
            },
            "tp" => match parse_count(&value, MAX_GPUS) {
                Some(n) => scenario.tp = n,
                None => ignore(&key, &value, format!("not a tensor-parallel degree (1 to {MAX_GPUS})")),
            },
            "tokens" => match parse_params(&value) {
                Ok(n) if n.get() <= 1 << 50 => scenario.dataset_tokens = n.get(),
                _ => ignore(&key, &value, "not a token count (like 10000000 or 10M)".into()),
            },
            "epochs" => match parse_count(&value, 10_000) {
                Some(n) => scenario.epochs = n,
                None => ignore(&key, &value, "not an epoch count (1 to 10000)".into()),
            },
            "node" => match parse_count(&value, 1024) {
                Some(n) => scenario.gpus_per_node = n,
                None => ignore(&key, &value, "not a GPU count per node (1 to 1024)".into()),
            },
            "device" => {
                if value.trim().eq_ignore_ascii_case("mine") {
                    mine.get_or_insert(MyMachine::EMPTY);
                } else {
                    match crate::catalog::device(&value) {
                        Ok(d) => scenario.device = Some(DeviceChoice::Catalog(d.id.into())),
                        Err(e) => ignore(&key, &value, format!("{e}")),
                    }
                }
            }
            "vram" | "ram" | "bw" | "tf" => match parse_number(&value, 1_048_576.0) {
                Some(x) => {
                    let m = mine.get_or_insert(MyMachine::EMPTY);
                    match key.as_str() {
                        "vram" => m.vram_gib = x,
                        "ram" => m.ram_gib = x,
                        "bw" => m.bandwidth_gbs = x,
                        _ => m.tflops = x,
                    }
                }
                None => ignore(&key, &value, "not a positive number".into()),
            },
            "mac" => match value.as_str() {
                "1" | "true" => mine.get_or_insert(MyMachine::EMPTY).unified = true,
                "0" | "false" => {}
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "hostram" => match parse_number(&value, crate::scenario::MAX_HOST_RAM_GIB) {
                Some(x) if x >= 1.0 => scenario.host_ram_gib = Some(x),
                _ => ignore(&key, &value, "system RAM in GiB, 1 to 65,536".into()),
            },
            "macgpu" => match parse_number(&value, 1.0) {
                Some(x) if x >= 0.1 => scenario.mac_gpu_fraction = Some(x),
                _ => ignore(&key, &value, "a share of memory between 0.1 and 1".into()),
            },
            "kwh" => match parse_number(&value, 10.0) {
                Some(x) => scenario.costs.usd_per_kwh = x,
                None => ignore(&key, &value, "an electricity price between 0 and 10 USD per kWh".into()),
            },
            "hours" => match parse_number(&value, 24.0) {
                Some(x) => scenario.costs.hours_per_day = x,
                None => ignore(&key, &value, "hours per day between 0 and 24".into()),
            },
            "pue" => match parse_number(&value, 3.0) {
                Some(x) if x >= 1.0 => scenario.costs.cooling_factor = x,
                _ => ignore(&key, &value, "a cooling factor between 1 and 3".into()),
            },
            "upkeep" => match parse_number(&value, 1.0) {
                Some(x) => scenario.costs.upkeep_per_year = x,
                None => ignore(&key, &value, "an upkeep share between 0 and 1".into()),
            },
            "fa" => match value.as_str() {
                "0" | "off" | "false" => scenario.flash_attention = false,
                "1" | "on" | "true" => scenario.flash_attention = true,
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            "text" => match value.as_str() {
                "0" | "off" | "false" => scenario.text_only = false,
                "1" | "on" | "true" => scenario.text_only = true,
                _ => ignore(&key, &value, "use 0 or 1".into()),
            },
            _ => ignore(&key, &value, "unknown setting".into()),
        }
    }
    if let Some(m) = mine {
        match m.validate() {
            Ok(()) => scenario.device = Some(DeviceChoice::Mine(m)),
            Err(e) => {
                ignored.push(Ignored { key: "device".into(), value: "mine".into(), reason: format!("{e}") })
            }
        }
    }
    // More cards go beside a catalog device, and count among the GPUs.
    if !scenario.llama.with_gpus.is_empty() {
        if !matches!(scenario.device, Some(DeviceChoice::Catalog(_))) {
            ignored.push(Ignored {
                key: "with".into(),
                value: scenario.llama.with_gpus.join(","),
                reason: "more GPUs go beside a catalog device, and the link names none".into(),
            });
            scenario.llama.with_gpus.clear();
        } else if scenario.gpus != 1 + scenario.llama.with_gpus.len() as u64 {
            ignored.push(Ignored {
                key: "gpus".into(),
                value: scenario.gpus.to_string(),
                reason: format!(
                    "the device and the {} more card(s) make {} GPUs",
                    scenario.llama.with_gpus.len(),
                    1 + scenario.llama.with_gpus.len()
                ),
            });
            scenario.gpus = 1 + scenario.llama.with_gpus.len() as u64;
        }
    }
    Decoded { scenario, ignored }
}

/// A finite number in `[0, max]`.
fn parse_number(value: &str, max: f64) -> Option<f64> {
    let x: f64 = value.trim().parse().ok()?;
    (x.is_finite() && (0.0..=max).contains(&x)).then_some(x)
}

/// The shortest decimal that reads back as the same float.
fn num(x: f64) -> String {
    format!("{x}")
}

/// A positive integer up to `max` (`4096`, `32k`, `128K` accepted).
fn parse_count(value: &str, max: u64) -> Option<u64> {
    let v = value.trim();
    let (num, scale) = match v.as_bytes().last() {
        Some(b'k' | b'K') => (&v[..v.len() - 1], 1024),
        _ => (v, 1),
    };
    let n: u64 = num.parse().ok()?;
    let n = n.checked_mul(scale)?;
    (1..=max).contains(&n).then_some(n)
}

struct QueryWriter {
    out: String,
}

impl QueryWriter {
    fn new() -> Self {
        QueryWriter { out: String::from("?") }
    }

    fn push(&mut self, key: &str, value: &str) {
        if self.out.len() > 1 {
            self.out.push('&');
        }
        self.out.push_str(key);
        self.out.push('=');
        percent_encode_into(&mut self.out, value);
    }

    fn finish(self) -> String {
        self.out
    }
}

/// Escapes everything but the characters that read well in a URL query value.
fn percent_encode_into(out: &mut String, value: &str) {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~' | b',' | b':' | b'/') {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
        }
    }
}

/// Decodes `%XX` escapes and `+` as a space; malformed escapes are kept as written and invalid
/// UTF-8 is replaced, so decoding cannot fail.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b'%' if i + 2 < bytes.len() && hex(bytes[i + 1]).is_some() && hex(bytes[i + 2]).is_some() => {
                let hi = hex(bytes[i + 1]).unwrap_or(0);
                let lo = hex(bytes[i + 2]).unwrap_or(0);
                out.push(hi << 4 | lo);
                i += 3;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn hex(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::units::Params;
    use alloc::vec;

    #[test]
    fn several_named_pinned_scenarios_travel_in_order() {
        let pins = vec![
            Pinned::new(0, "", Scenario::catalog("qwen3-8b")),
            Pinned::new(1, "  Q4 on my\tcard  ", Scenario::catalog("llama-3.1-8b")),
            Pinned::new(2, "C", Scenario::default()),
        ];
        assert_eq!(pins[0].name, "A");
        assert_eq!(pins[1].name, "Q4 on my card");
        let link = Link { compare: pins, units: Units::Binary, ..Link::default() };
        let q = encode_link(&link);
        assert_eq!(q.matches("cmp=").count(), 3, "{q}");
        assert!(q.contains("name%3DQ4%2520on%2520my%2520card"), "{q}");
        assert!(q.ends_with("&units=gib"), "{q}");
        let d = decode_link(&q);
        assert!(d.ignored.is_empty(), "{:?}", d.ignored);
        assert_eq!(d.link, link);
    }

    #[test]
    fn unpinning_reletters_the_unnamed_and_keeps_the_named() {
        let mut pins = vec![
            Pinned::new(0, "", Scenario::default()),
            Pinned::new(1, "mine", Scenario::default()),
            Pinned::new(2, "", Scenario::default()),
        ];
        unpin(&mut pins, 0);
        let names: Vec<&str> = pins.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["mine", "B"]);
        unpin(&mut pins, 7);
        assert_eq!(pins.len(), 2);
        let q = encode_link(&Link { compare: pins.clone(), ..Link::default() });
        assert!(!q.contains("name%3DB"), "{q}");
    }

    #[test]
    fn pinned_beyond_the_limit_and_bad_units_are_said_not_dropped_silently() {
        let q: String = (0..MAX_PINNED + 2).map(|_| "&cmp=v%3D1").collect();
        let d = decode_link(&format!("?v=1{q}&units=tb&cmp=zzz"));
        assert_eq!(d.link.compare.len(), MAX_PINNED);
        assert_eq!(d.link.compare[3].name, "D");
        let why: Vec<_> = d.ignored.iter().map(|i| (i.key.as_str(), i.reason.as_str())).collect();
        assert_eq!(why.iter().filter(|(k, _)| *k == "cmp").count(), 3, "{why:?}");
        assert!(why.iter().any(|(k, r)| *k == "units" && r.contains("gb, gib")), "{why:?}");
        assert_eq!(d.link.units, Units::Both);
        // A name longer than the limit is cut; one of only spaces is the letter.
        assert_eq!(Pinned::new(1, &"x".repeat(99), Scenario::default()).name.len(), MAX_PIN_NAME);
        assert_eq!(Pinned::new(1, " \n ", Scenario::default()).name, "B");
    }

    #[test]
    fn defaults_are_omitted_and_round_trip() {
        let s = Scenario::default();
        assert_eq!(encode(&s), "?v=1");
        assert_eq!(decode(&encode(&s)), Decoded { scenario: s, ignored: Vec::new() });
    }

    #[test]
    fn llama_cpp_settings_round_trip_and_bad_ones_are_ignored() {
        let s = Scenario {
            llama: crate::scenario::LlamaOptions {
                batch: 1024,
                ubatch: 256,
                v_type: Some(KvDtype::Q8_0),
                swa_full: true,
                unified: true,
                cpu_moe: Some(12),
                draft: Some("qwen3-0.6b".into()),
                draft_max: 8,
                tensor_split: alloc::vec![3000, 1000],
                num_batch: None,
                with_gpus: Vec::new(),
            },
            gpus: 2,
            ..Scenario::default()
        };
        let q = encode(&s);
        assert_eq!(
            q,
            "?v=1&gpus=2&ub=256&nb=1024&kvv=q8_0&swafull=1&kvu=1&cpumoe=12&draft=qwen3-0.6b&draftmax=8&ts=3,1"
        );
        assert_eq!(decode(&q), Decoded { scenario: s, ignored: Vec::new() });
        let d = decode("?v=1&ub=0&nb=lots&kvv=q3&kvu=yes&ts=x");
        assert_eq!(d.scenario, Scenario::default());
        assert_eq!(
            d.ignored.iter().map(|i| i.key.as_str()).collect::<Vec<_>>(),
            ["ub", "nb", "kvv", "kvu", "ts"]
        );
    }

    #[test]
    fn more_cards_need_a_device_and_count_among_the_gpus() {
        let d = decode("?v=1&with=rtx-3090&gpus=2");
        assert!(d.scenario.llama.with_gpus.is_empty());
        assert_eq!(d.ignored.iter().map(|i| i.key.as_str()).collect::<Vec<_>>(), ["with"]);
        let d = decode("?v=1&with=rtx-3090,rtx-3060-12gb&gpus=7&device=rtx-4090");
        assert_eq!((d.scenario.gpus, d.scenario.llama.with_gpus.len()), (3, 2));
        assert_eq!(d.ignored.iter().map(|i| i.key.as_str()).collect::<Vec<_>>(), ["gpus"]);
        assert!(d.scenario.validate().is_ok());
    }

    #[test]
    fn every_setting_round_trips() {
        let s = Scenario {
            model: ModelSource::Catalog("qwen3-8b".into()),
            weights: Some(WeightFormat::parse("q4_k_m").unwrap()),
            kv: KvDtype::Q8_0,
            context: 32768,
            batch: 4,
            runtime: Some(Runtime::LlamaCpp),
            gpus: 2,
            flash_attention: false,
            text_only: true,
            gpu_layers: Some(20),
            ..Scenario::default()
        };
        let q = encode(&s);
        assert_eq!(
            q,
            "?v=1&model=qwen3-8b&weights=q4_k_m&kv=q8_0&ctx=32768&batch=4&runtime=llama.cpp&gpus=2&fa=0&text=1&ngl=20"
        );
        assert_eq!(decode(&q).scenario, s);
    }

    #[test]
    fn vllm_settings_round_trip_and_bad_ones_are_ignored() {
        let s = Scenario {
            runtime: Some(Runtime::Vllm),
            vllm: crate::vllm::VllmOptions {
                version: crate::vllm::VllmVersion::parse("0.11").unwrap(),
                utilization: Some(8500),
                max_num_seqs: Some(64),
                max_num_batched_tokens: Some(4096),
                block_size: Some(32),
                kv_cache_memory: Some(20 << 30),
                enforce_eager: true,
                graph_estimate: Some(false),
                cpu_offload: 4 << 30,
                speculative: Some(crate::vllm::Speculative::parse("draft:qwen3-0.6b:4").unwrap()),
                data_parallel: Some(2),
                expert_parallel: true,
                mm_encoder_data: true,
                prefix_caching: Some(false),
                async_scheduling: Some(false),
                pipeline_parallel: Some(2),
                mamba_cache_bytes: Some(2),
                mamba_ssm_cache_bytes: Some(4),
                decode_context_parallel: Some(2),
                extensible_kv_cache: Some(false),
                max_model_len_auto: true,
                max_cudagraph_capture_size: Some(128),
            },
            ..Scenario::default()
        };
        let q = encode(&s);
        assert_eq!(
            q,
            "?v=1&runtime=vllm&vver=0.11&gmu=0.85&mns=64&mnbt=4096&bs=32&kvmem=21474836480&eager=1&cge=0&cpuoff=4294967296&spec=draft:qwen3-0.6b:4&dp=2&ep=1&mmdata=1&vpc=0&vas=0&pp=2&dcp=2&vext=0&vauto=1&cgmax=128&mconv=bfloat16&mssm=float32"
        );
        assert_eq!(decode(&q).scenario, s);
        let d = decode("?v=1&runtime=vllm&gmu=1.5&mns=0&bs=24&vver=0.5&eager=yes&kvmem=lots");
        assert_eq!(d.scenario.vllm, crate::vllm::VllmOptions::default());
        assert_eq!(
            d.ignored.iter().map(|i| i.key.as_str()).collect::<Vec<_>>(),
            ["gmu", "mns", "bs", "vver", "eager", "kvmem"]
        );
    }

    #[test]
    fn a_reserve_round_trips() {
        for r in [crate::hardware::Reserve::Auto, crate::hardware::Reserve::Mib(1536)] {
            let s = Scenario { reserve: r, ..Scenario::default() };
            assert_eq!(decode(&encode(&s)).scenario, s);
        }
        assert_eq!(decode("?v=1&reserve=lots").ignored.len(), 1);
    }

    #[test]
    fn sglang_settings_round_trip() {
        let s = Scenario {
            runtime: Some(Runtime::Sglang),
            sglang: crate::sglang::SglangOptions {
                mem_fraction_static: Some(8800),
                chunked_prefill_size: Some(4096),
                cuda_graph_max_bs: Some(32),
                page_size: Some(16),
                disable_cuda_graph: true,
                swa_full_tokens_ratio: Some(5000),
                disable_hybrid_swa_memory: true,
                mamba_full_memory_ratio: Some(7500),
                max_mamba_cache_size: Some(64),
            },
            ..Scenario::default()
        };
        let q = encode(&s);
        assert_eq!(
            q,
            "?v=1&runtime=sglang&mfs=0.88&cps=4096&cgbs=32&page=16&nocg=1&swar=0.5&mfr=0.75&mmcs=64&noswa=1"
        );
        assert_eq!(decode(&q).scenario, s);
        let d = decode("?v=1&runtime=sglang&mfs=0&cps=-1&nocg=2&swar=2&mfr=x&mmcs=0&noswa=3");
        assert_eq!(d.ignored.len(), 7);
    }

    #[test]
    fn training_settings_round_trip() {
        let s = Scenario {
            mode: Mode::Qlora,
            optimizer: Optimizer::PagedAdamW8bit,
            precision: TrainPrecision::PureBf16,
            lora_rank: 64,
            lora_targets: LoraTargets::parse("q,v").unwrap(),
            checkpointing: Checkpointing::Full,
            zero: 3,
            offload: Offload::Optimizer,
            tp: 2,
            dataset_tokens: 50_000_000,
            epochs: 3,
            gpus_per_node: 4,
            ..Scenario::default()
        };
        let q = encode(&s);
        assert_eq!(
            q,
            "?v=1&mode=qlora&opt=paged-adamw-8bit&prec=pure-bf16&rank=64&targets=q,v&ckpt=full&zero=3&offload=optimizer&tp=2&tokens=50000000&epochs=3&node=4"
        );
        assert_eq!(decode(&q), Decoded { scenario: s, ignored: Vec::new() });
    }

    #[test]
    fn devices_and_costs_round_trip() {
        let s = Scenario {
            device: Some(DeviceChoice::Catalog("rtx-4090".into())),
            mac_gpu_fraction: Some(0.9),
            costs: crate::cost::CostSettings {
                usd_per_kwh: 0.3,
                hours_per_day: 24.0,
                cooling_factor: 1.4,
                upkeep_per_year: 0.1,
            },
            ..Scenario::default()
        };
        let q = encode(&s);
        assert_eq!(q, "?v=1&device=rtx-4090&macgpu=0.9&kwh=0.3&hours=24&pue=1.4&upkeep=0.1");
        assert_eq!(decode(&q), Decoded { scenario: s, ignored: Vec::new() });
        let mine = Scenario {
            device: Some(DeviceChoice::Mine(MyMachine {
                vram_gib: 0.0,
                ram_gib: 36.0,
                unified: true,
                bandwidth_gbs: 150.0,
                tflops: 0.0,
            })),
            ..Scenario::default()
        };
        let q = encode(&mine);
        assert_eq!(q, "?v=1&device=mine&vram=0&ram=36&bw=150&mac=1");
        assert_eq!(decode(&q).scenario, mine);
        // A machine without memory is ignored with a reason, not a broken page.
        let d = decode("?device=mine&bw=100");
        assert_eq!(d.scenario.device, None);
        assert_eq!(d.ignored.len(), 1);
    }

    #[test]
    fn bad_values_are_ignored_with_a_reason() {
        let d = decode("?v=1&params=abc&weights=fp12&colour=red&ctx=0&model=llama-9");
        assert_eq!(d.scenario, Scenario::default());
        assert_eq!(d.ignored.len(), 5);
        assert_eq!(d.ignored[2].key, "colour");
    }

    #[test]
    fn reads_whole_urls_and_escapes() {
        let d = decode("https://x.test/app/?params=1.5B&weights=%62f16&ctx=32k#top");
        assert_eq!(d.scenario.model, ModelSource::Params(Params::new(1_500_000_000)));
        assert_eq!(d.scenario.weights, Some(WeightFormat::Bf16));
        assert_eq!(d.scenario.context, 32768);
        assert!(d.ignored.is_empty());
    }

    #[test]
    fn percent_decoding_never_fails() {
        assert_eq!(percent_decode("%"), "%");
        assert_eq!(percent_decode("%4"), "%4");
        assert_eq!(percent_decode("%zz"), "%zz");
        assert_eq!(percent_decode("%FF"), "\u{FFFD}");
        assert_eq!(percent_decode("a+b"), "a b");
    }

    #[test]
    fn hub_models_travel_but_tokens_never_do() {
        let link = Link {
            hf: Some(hub::parse_ref("bartowski/X-GGUF:Q4_K_M").unwrap()),
            hub: Some("http://127.0.0.1:9000".into()),
            ..Link::default()
        };
        let q = encode_link(&link);
        assert_eq!(q, "?v=1&hf=bartowski/X-GGUF:Q4_K_M&hub=http://127.0.0.1:9000");
        assert_eq!(decode_link(&q).link, link);
        let bad = decode_link("?v=1&hf=not-a-repo&hub=javascript:alert(1)");
        assert_eq!(bad.link.hf, None);
        assert_eq!(bad.link.hub, None);
        assert_eq!(bad.ignored.len(), 2);
    }
}
