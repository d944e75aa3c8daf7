//! llama.cpp's compute buffer, as its graph allocator sizes it.
//!
//! llama.cpp reserves one compute buffer per device at start-up: it builds the graph of one
//! micro-batch (`n_ubatch` tokens, `n_seq` sequences, every token an output) and lets ggml's
//! graph allocator (`ggml-alloc.c`) place each intermediate tensor. The allocator walks the nodes
//! in order; a node takes its parent's memory when the operation may run in place and the parent
//! has no other consumer; otherwise it takes the smallest free block that fits, or grows the
//! buffer at its end; a tensor is freed after its last consumer. The buffer is the high-water mark.
//!
//! This module rebuilds that graph from the layer stack, node by node in llama.cpp's order, with
//! each tensor's shape and type, and replays the allocator over it. Views (reshape, permute, the
//! KV-cache views) take no memory; weights and the KV cache live in their own buffers. What the
//! replay returns was checked against the real llama.cpp (the CPU build node-llama-cpp ships,
//! its `llama_get_memory_breakdown`): see `tests/llama-cpp/`.
//!
//! Layers whose graph is rebuilt node for node: attention (full, sliding, chunked; GQA/MQA; fused
//! or not; Q/K norms; biases; the rotations of quantized caches) with and without flash attention,
//! MLA, Mamba-1 and Mamba-2, LFM2's short convolution, dense and MoE feed-forwards. Gated DeltaNet
//! and Kimi Delta Attention layers are stood in for by their projections, DeepSeek V3.2's indexer
//! layers by plain MLA, and [`ComputeBuffer::exact`] says so.

use alloc::vec::Vec;

use crate::model::{Architecture, Ffn, LayerCache, MambaVersion, Mixer, QkNorm, Span};
use crate::precision::KvDtype;

/// Cells of a llama.cpp KV cache are allocated in multiples of this.
pub const KV_PAD: u64 = 256;
/// ggml's tensor alignment in a CPU (and CUDA) buffer.
const ALIGN: u64 = 32;

/// Families whose llama.cpp graph keeps the last layer's hidden states as an output (their
/// multi-token-prediction support) and selects the output rows after the stack rather than in
/// the last layer (`models/openai-moe.cpp`, `deepseek2.cpp`, `glm4-moe.cpp`, `qwen3next.cpp`,
/// `qwen35*.cpp`, `nemotron-h*.cpp`, `gemma4.cpp`, …), by Headroom's family names.
pub const LATE_OUTPUT_FAMILIES: &[&str] = &[
    "gpt_oss",
    "deepseek_v2",
    "deepseek_v3",
    "deepseek_v32",
    "kimi_k2",
    "glm4_moe",
    "glm4moe",
    // GLM-4.7-Flash converts to llama.cpp's `deepseek2` architecture.
    "glm4_moe_lite",
    "glm_moe_dsa",
    "qwen3_next",
    "qwen3next",
    "qwen3_5",
    "qwen3_5_moe",
    "qwen35",
    "qwen35moe",
    "nemotron_h",
    "nemotron_h_moe",
    "gemma4_text",
    "gemma4",
    "cohere2_moe",
];

/// How llama.cpp's model loader marks a family's sliding-window layers (`load_arch_hparams` of
/// each `models/*.cpp`, `load_swa_pattern`, `llama_hparams::set_swa_pattern`), by GGUF
/// architecture name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwaRule {
    /// The period of the default pattern (`0`: every layer slides).
    pub period: u64,
    /// Dense first: layer `i` slides unless `i % period == 0`; otherwise it slides when
    /// `i % period < period − 1` (the last of each period is full).
    pub dense_first: bool,
    /// The window when the header sets none (`None`: no sliding without the key; a family
    /// that always slides has a default).
    pub default_window: Option<u64>,
    /// The window llama.cpp forces whatever the header says (Llama 4's chunks of 8,192,
    /// SmallThinker's 4,096).
    pub forced_window: Option<u64>,
    /// Chunked attention (Llama 4) rather than a sliding window.
    pub chunked: bool,
}

impl SwaRule {
    /// The window of the family's sliding layers given the header's `attention.sliding_window`
    /// (`None`: llama.cpp gives the family no sliding cache).
    pub fn window(&self, key: Option<u64>) -> Option<u64> {
        match (self.forced_window, key) {
            // Llama 4 and SmallThinker slide unless the key is there and says 0 (SmallThinker:
            // only when it is there).
            (Some(_), Some(0)) => None,
            (Some(w), Some(_)) => Some(w),
            (Some(w), None) if self.chunked => Some(w),
            (Some(_), None) => None,
            (None, Some(w)) if w > 0 => Some(w),
            (None, _) => self.default_window,
        }
    }

    /// Whether layer `i` slides under the default pattern of `period` (the header's when it
    /// sets one).
    pub fn slides(&self, i: u64, period: u64) -> bool {
        period == 0 || if self.dense_first { !i.is_multiple_of(period) } else { i % period < period - 1 }
    }
}

/// llama.cpp's sliding-window rule for a GGUF architecture (`None`: llama.cpp gives every layer
/// of that family the full cache, whatever its `sliding_window` says — Mistral v0.1, Qwen2,
/// Phi-3, StarCoder2). Families that read a per-layer pattern from the header (Gemma 4, MiMo-V2,
/// Step-3.5, Granite-SWA, …) have period 0 here: the header's pattern decides. EXAONE 4 slides
/// only in its 64-layer (32B) model.
pub fn swa_rule(arch: &str, layers: u64) -> Option<SwaRule> {
    let r = |period, dense_first, default_window| SwaRule {
        period,
        dense_first,
        default_window,
        forced_window: None,
        chunked: false,
    };
    Some(match arch {
        "gemma2" => r(2, false, Some(4096)),
        "gpt-oss" | "gpt_oss" => r(2, false, None),
        "gemma3" | "gemma3_text" | "gemma-embedding" => r(6, false, None),
        "gemma3n" => r(5, false, None),
        "cohere2" | "exaone-moe" | "afmoe" | "mellum" | "muse-glimmer" | "olmo2" => r(4, false, None),
        "exaone4" if layers == 64 => r(4, false, Some(4096)),
        "cohere2moe" | "laguna" => r(4, true, None),
        "plamo3" => r(8, false, None),
        "modern-bert" => r(3, true, None),
        "smallthinker" => SwaRule { forced_window: Some(4096), ..r(4, true, None) },
        "llama4" => SwaRule { forced_window: Some(8192), chunked: true, ..r(4, false, None) },
        "deepseek4" | "dflash" | "lfm2" | "gemma4" | "gemma4-assistant" | "mimo2" | "step35" | "maple"
        | "spark2_5" | "granite_swa" | "dots3note" => r(0, false, None),
        _ => return None,
    })
}

/// The instruction set of the CPU that runs llama.cpp's CPU layers, for its weight repacking.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CpuIsa {
    /// x86-64 with AVX2 (every desktop, laptop and server x86 CPU of the last decade).
    X86Avx2,
    /// ARM with NEON dot products and int8 matrix multiplies (Apple M-series, Graviton 3+).
    ArmNeon,
}

/// Whether llama.cpp's CPU backend repacks a matrix-multiplied weight of `ty` with `rows` rows
/// (ggml's `ne[1]`) into its `CPU_REPACK` buffer (`ggml-cpu/repack.cpp`,
/// `ggml_repack_get_optimal_repack_type`): on x86 with AVX2, Q4_0, Q4_K, IQ4_NL and MXFP4 in
/// blocks of 8 rows; on ARM, Q4_0, Q8_0, IQ4_NL and MXFP4 in blocks of 4 rows and Q4_K, Q5_K,
/// Q6_K in blocks of 8. Checked on x86 against the real llama.cpp (`tests/llama-cpp`).
pub fn repacks(ty: crate::precision::GgmlType, rows: u64, isa: CpuIsa) -> bool {
    use crate::precision::GgmlType as G;
    match isa {
        CpuIsa::X86Avx2 => matches!(ty, G::Q4_0 | G::Q4_K | G::IQ4_NL | G::MXFP4) && rows.is_multiple_of(8),
        CpuIsa::ArmNeon => match ty {
            G::Q4_0 | G::Q8_0 | G::IQ4_NL | G::MXFP4 => rows.is_multiple_of(4),
            G::Q4_K | G::Q5_K | G::Q6_K => rows.is_multiple_of(8),
            _ => false,
        },
    }
}

/// Families whose llama.cpp graph this replay follows, each checked against the real llama.cpp
/// in `tests/llama-cpp` (by GGUF architecture and Hugging Face family names). Other families
/// are replayed as the nearest of these (a llama-like layer), and the buffer is said to be a
/// stand-in: their graphs add or reorder nodes (Cohere's parallel blocks, OLMo's post-norms,
/// Llama 4's temperature tuning, …).
pub const GRAPH_CHECKED_FAMILIES: &[&str] = &[
    "llama",
    "mistral",
    "qwen2",
    "qwen3",
    "qwen3moe",
    "qwen3_moe",
    "gemma2",
    "gemma3",
    "gemma3_text",
    "gpt_oss",
    "gpt-oss",
    "deepseek2",
    "deepseek_v3",
    "deepseek_v32",
    "glm4_moe_lite",
    "kimi_k2",
    "nemotron_h",
    "qwen35",
    "qwen3_5",
    "lfm2",
    "phi3",
    "starcoder2",
    "mamba",
    "falcon_mamba",
];

/// What llama.cpp is asked to do: its context parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Tokens per sequence (`-c` / `--parallel`).
    pub context: u64,
    /// Sequences (`--parallel`, `n_seq_max`).
    pub sequences: u64,
    /// Logical batch (`-b`, `n_batch`): the most tokens one `llama_decode` call takes.
    pub batch: u64,
    /// Micro-batch (`-ub`, `n_ubatch`): the tokens one graph computes.
    pub ubatch: u64,
    /// Flash attention (`-fa on`).
    pub flash_attention: bool,
    /// K cache type (`-ctk`).
    pub k_type: KvDtype,
    /// V cache type (`-ctv`).
    pub v_type: KvDtype,
    /// Full-size caches for sliding-window layers (`--swa-full`).
    pub swa_full: bool,
    /// One cache for all sequences (`--kv-unified`) instead of one stream per sequence.
    pub unified: bool,
}

impl Setup {
    /// llama.cpp's defaults (`-b 2048 -ub 512`, F16 caches, flash attention, one stream per
    /// sequence) for `sequences` of `context` tokens.
    pub fn new(context: u64, sequences: u64) -> Self {
        Setup {
            context,
            sequences: sequences.max(1),
            batch: 2048,
            ubatch: 512,
            flash_attention: true,
            k_type: KvDtype::F16,
            v_type: KvDtype::F16,
            swa_full: false,
            unified: false,
        }
    }

    /// The micro-batch's size: llama.cpp caps `n_ubatch` by `n_batch`, and the reserved graph
    /// by the whole context.
    pub fn tokens(&self) -> u64 {
        self.ubatch.min(self.batch).min(self.context.saturating_mul(self.sequences)).max(1)
    }

    /// KV streams: one per sequence, or one when unified.
    pub fn streams(&self) -> u64 {
        if self.unified { 1 } else { self.sequences.max(1) }
    }

    /// Cells of each stream of a cache over `span`, by llama.cpp's rules: the context padded to
    /// 256 (all sequences' when unified); a sliding or chunked layer of a family llama.cpp treats
    /// as sliding keeps `pad256(min(context, window × sequences-if-unified + n_ubatch))` unless
    /// `--swa-full`.
    pub fn cells(&self, span: Span, swa: bool) -> u64 {
        let per_stream =
            if self.unified { self.context.saturating_mul(self.sequences) } else { self.context };
        let pad = |n: u64| n.div_ceil(KV_PAD).saturating_mul(KV_PAD);
        match span {
            Span::Sliding { window: w } | Span::Chunked { chunk: w } if swa && !self.swa_full => {
                let seqs = if self.unified { self.sequences } else { 1 };
                pad(per_stream.min(w.saturating_mul(seqs).saturating_add(self.ubatch.min(self.batch))))
            }
            _ => pad(per_stream),
        }
    }
}

/// The compute buffer llama.cpp reserves, and whether every layer's graph was rebuilt exactly.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ComputeBuffer {
    /// Bytes.
    pub bytes: u64,
    /// Every layer's graph is rebuilt node for node (false: a mixer is stood in for).
    pub exact: bool,
    /// The logits of the micro-batch (`vocab × n_ubatch × 4`), the buffer's largest tensor in
    /// most models with flash attention.
    pub logits: u64,
    /// The output buffer on the host: one token's logits per sequence (`vocab × n_seq × 4`),
    /// what llama.cpp reserves at start-up.
    pub output: u64,
}

/// One tensor of the rebuilt graph.
/// No source.
const NONE: usize = usize::MAX;

/// The most sources in the buffer a node of this graph has (the SSM scan: its input, step and
/// the two state projections).
const MAX_SRCS: usize = 4;

fn srcs_of(srcs: &[usize]) -> [usize; MAX_SRCS] {
    debug_assert!(
        srcs.len() <= MAX_SRCS,
        "a node of this graph has at most {MAX_SRCS} sources in the buffer"
    );
    let mut out = [NONE; MAX_SRCS];
    for (o, s) in out.iter_mut().zip(srcs) {
        *o = *s;
    }
    out
}

#[derive(Clone, Debug)]
struct Node {
    /// Bytes (`ggml_nbytes`); 0 for views, which own no memory.
    bytes: u64,
    /// Layout key for in-place reuse: the shape and element size.
    shape: [u64; 5],
    /// Sources inside the buffer (weights and caches are elsewhere and not listed); `NONE` pads.
    srcs: [usize; MAX_SRCS],
    /// The tensor this one views.
    view_of: Option<usize>,
    /// The operation may write over a source (`ggml_op_can_inplace`).
    inplace: bool,
    /// A graph output (logits, the final norm): never freed.
    output: bool,
    /// A graph input (token ids, positions, masks): allocated before the nodes.
    input: bool,
}

/// The graph, built in llama.cpp's node order.
#[derive(Default)]
struct Graph {
    nodes: Vec<Node>,
    /// The model's hidden-state norms are LayerNorms, whose `ggml_norm` does not run in place
    /// (RMS norms do).
    layer_norm: bool,
}

impl Graph {
    fn push(&mut self, bytes: u64, shape: [u64; 5], srcs: &[usize], inplace: bool) -> usize {
        self.nodes.push(Node {
            bytes,
            shape,
            srcs: srcs_of(srcs),
            view_of: None,
            inplace,
            output: false,
            input: false,
        });
        self.nodes.len() - 1
    }

    /// An f32 tensor of `ne0 × ne1 × ne2`.
    fn f32(&mut self, ne: [u64; 3], srcs: &[usize], inplace: bool) -> usize {
        let bytes = ne[0].saturating_mul(ne[1]).saturating_mul(ne[2]).saturating_mul(4);
        self.push(bytes, [ne[0], ne[1], ne[2], 1, 4], srcs, inplace)
    }

    fn input(&mut self, bytes: u64) -> usize {
        let i = self.push(bytes, [bytes, 0, 0, 0, 1], &[], false);
        self.nodes[i].input = true;
        i
    }

    /// A view (reshape, permute, view) of `of`.
    fn view(&mut self, of: usize) -> usize {
        let root = self.nodes[of].view_of.unwrap_or(of);
        self.nodes.push(Node {
            bytes: 0,
            shape: [0; 5],
            srcs: srcs_of(&[of]),
            view_of: Some(root),
            inplace: false,
            output: false,
            input: false,
        });
        self.nodes.len() - 1
    }

    /// A node writing into an external buffer (the KV cache's `set_rows`): a view of memory the
    /// allocator does not own, that still keeps its sources alive until it runs.
    fn external(&mut self, srcs: &[usize]) -> usize {
        self.nodes.push(Node {
            bytes: 0,
            shape: [0; 5],
            srcs: srcs_of(srcs),
            view_of: Some(usize::MAX),
            inplace: false,
            output: false,
            input: false,
        });
        self.nodes.len() - 1
    }

    /// RMS norm then its weight: in place when `x` has no other consumer.
    fn norm(&mut self, x: usize, ne: [u64; 3]) -> usize {
        let n = self.f32(ne, &[x], true);
        self.f32(ne, &[n], true)
    }

    /// The model's own norm of a hidden state (RMS, or a LayerNorm that takes new memory), its
    /// weight and bias in place.
    fn hidden_norm(&mut self, x: usize, ne: [u64; 3]) -> usize {
        let n = self.f32(ne, &[x], !self.layer_norm);
        self.f32(ne, &[n], true)
    }
}

/// Free blocks of the buffer, sorted by offset; the last one is the open end.
struct Blocks {
    free: Vec<(u64, u64)>,
    high: u64,
}

impl Blocks {
    fn new() -> Self {
        Blocks { free: alloc::vec![(0, u64::MAX / 4)], high: 0 }
    }

    fn alloc(&mut self, size: u64) -> u64 {
        let size = size.div_ceil(ALIGN).saturating_mul(ALIGN);
        // The smallest block that fits, the end block excluded; then the end block.
        let mut best: Option<usize> = None;
        for (i, b) in self.free[..self.free.len() - 1].iter().enumerate() {
            if b.1 >= size && best.is_none_or(|j| b.1 <= self.free[j].1) {
                best = Some(i);
            }
        }
        let i = best.unwrap_or(self.free.len() - 1);
        let off = self.free[i].0;
        self.free[i].0 += size;
        self.free[i].1 -= size;
        if self.free[i].1 == 0 && i + 1 < self.free.len() {
            self.free.remove(i);
        }
        self.high = self.high.max(off.saturating_add(size));
        off
    }

    fn release(&mut self, off: u64, size: u64) {
        let size = size.div_ceil(ALIGN).saturating_mul(ALIGN);
        for i in 0..self.free.len() {
            let (bo, bs) = self.free[i];
            if bo + bs == off {
                self.free[i].1 += size;
                if i + 1 < self.free.len() && self.free[i].0 + self.free[i].1 == self.free[i + 1].0 {
                    self.free[i].1 += self.free[i + 1].1;
                    self.free.remove(i + 1);
                }
                return;
            }
            if off + size == bo {
                self.free[i].0 = off;
                self.free[i].1 += size;
                if i > 0 && self.free[i - 1].0 + self.free[i - 1].1 == self.free[i].0 {
                    self.free[i - 1].1 += self.free[i].1;
                    self.free.remove(i);
                }
                return;
            }
        }
        let at = self.free.iter().position(|b| b.0 > off).unwrap_or(self.free.len());
        self.free.insert(at, (off, size));
    }
}

/// Replays ggml's graph allocator over `g`: the buffer's high-water mark in bytes.
fn replay(g: &Graph) -> u64 {
    let n = g.nodes.len();
    let mut children = alloc::vec![0u32; n];
    let mut views = alloc::vec![0u32; n];
    let mut placed: Vec<Option<u64>> = alloc::vec![None; n];
    for node in &g.nodes {
        for &s in node.srcs.iter().filter(|s| **s != NONE) {
            children[s] += 1;
        }
        if let Some(v) = node.view_of.filter(|v| *v != usize::MAX) {
            views[v] += 1;
        }
    }
    let mut blocks = Blocks::new();
    for (i, node) in g.nodes.iter().enumerate() {
        if node.input {
            placed[i] = Some(blocks.alloc(node.bytes));
        }
    }
    for i in 0..n {
        let node = &g.nodes[i];
        if node.view_of.is_none() && placed[i].is_none() {
            let mut reused = None;
            if node.inplace {
                for &p in node.srcs.iter().filter(|s| **s != NONE) {
                    let parent = &g.nodes[p];
                    if placed[p].is_some()
                        && !parent.output
                        && parent.view_of.is_none()
                        && parent.shape == node.shape
                        && children[p] == 1
                        && views[p] == 0
                    {
                        reused = placed[p].take();
                        break;
                    }
                }
            }
            placed[i] = Some(match reused {
                Some(off) => off,
                None => blocks.alloc(node.bytes),
            });
        }
        for &p in node.srcs.iter().filter(|s| **s != NONE) {
            children[p] -= 1;
            if children[p] != 0 || views[p] != 0 {
                continue;
            }
            let target = match g.nodes[p].view_of {
                Some(usize::MAX) => continue,
                Some(v) => {
                    views[v] -= 1;
                    if views[v] != 0 || children[v] != 0 {
                        continue;
                    }
                    v
                }
                None => p,
            };
            if g.nodes[target].output {
                continue;
            }
            if let Some(off) = placed[target].take() {
                blocks.release(off, g.nodes[target].bytes);
            }
        }
    }
    blocks.high
}

/// The attention part of one layer: from the normed input `x` to the output projection.
struct AttnShape {
    heads: u64,
    kv_heads: u64,
    head_k: u64,
    head_v: u64,
    q_norm: bool,
    k_norm: bool,
    bias: bool,
    cells: u64,
    /// Index of this layer's mask input.
    mask: usize,
    /// The model has separate sliding and full caches (llama.cpp's `iswa` inputs).
    iswa: bool,
    /// The Hadamard matrices (inputs) that rotate Q and K, and V and the attention output,
    /// before a quantized cache.
    rot_k: Option<usize>,
    rot_v: Option<usize>,
    /// Rotary position embedding on Q and K (not on NoPE layers).
    rope: bool,
    /// Q, K and V come from one fused projection.
    fused: bool,
}

fn attention(
    g: &mut Graph,
    x: usize,
    a: &AttnShape,
    t: u64,
    s: &Setup,
    pos: usize,
    idx: (usize, usize),
) -> usize {
    let (heads, kvh, hk, hv) = (a.heads, a.kv_heads, a.head_k, a.head_v);
    // One fused Q/K/V projection (Phi-3) the three are views of, or one projection each.
    let fused = a.fused.then(|| {
        let m = g.f32([heads * hk + kvh * (hk + hv), t, 1], &[x], false);
        if a.bias { g.f32([heads * hk + kvh * (hk + hv), t, 1], &[m], true) } else { m }
    });
    let proj = |g: &mut Graph, width: u64| match fused {
        Some(qkv) => g.view(qkv),
        None => {
            let m = g.f32([width, t, 1], &[x], false);
            if a.bias { g.f32([width, t, 1], &[m], true) } else { m }
        }
    };
    let q = proj(g, heads * hk);
    let qr = g.view(q);
    let qn = if a.q_norm { g.norm(qr, [hk, heads, t]) } else { qr };
    let qrope = if a.rope { g.f32([hk, heads, t], &[qn, pos], true) } else { qn };
    // A rotation: reshaped into blocks, multiplied by the matrix (a new tensor), reshaped back.
    let rotate = |g: &mut Graph, x: usize, ne: [u64; 3], m: Option<usize>| match m {
        Some(m) => {
            let r = g.view(x);
            let y = g.f32(ne, &[m, r], false);
            g.view(y)
        }
        None => x,
    };
    let qrope = rotate(g, qrope, [hk, heads, t], a.rot_k);
    let key = |g: &mut Graph| {
        let k = proj(g, kvh * hk);
        let kr = g.view(k);
        let kn = if a.k_norm { g.norm(kr, [hk, kvh, t]) } else { kr };
        let kr = if a.rope { g.f32([hk, kvh, t], &[kn, pos], true) } else { kn };
        rotate(g, kr, [hk, kvh, t], a.rot_k)
    };
    let value = |g: &mut Graph| {
        let v = proj(g, kvh * hv);
        let vr = g.view(v);
        rotate(g, vr, [hv, kvh, t], a.rot_v)
    };
    // llama.cpp expands Q, V, K into the graph; with separate sliding and full caches Q, K, V.
    let (krope, vr) = if a.iswa {
        let k = key(g);
        (k, value(g))
    } else {
        let v = value(g);
        (key(g), v)
    };
    let kview = g.view(krope);
    g.external(&[kview, idx.0]);
    if s.flash_attention {
        let vview = g.view(vr);
        g.external(&[vview, idx.1]);
        let qv = g.view(qrope);
        let qp = g.view(qv);
        let out = g.f32([hv, heads, t], &[qp, a.mask], false);
        let out = g.view(out);
        rotate(g, out, [hv * heads, t, 1], a.rot_v)
    } else {
        // The V cache is stored transposed: its rows are written one element at a time.
        let v1 = g.view(vr);
        let v2 = g.view(v1);
        g.external(&[v2, idx.1]);
        let qv = g.view(qrope);
        let qp = g.view(qv);
        let kq = g.f32([a.cells, t, heads], &[qp], false);
        let sm = g.f32([a.cells, t, heads], &[kq, a.mask], true);
        let kqv = g.f32([hv, t, heads], &[sm], false);
        let perm = g.view(kqv);
        let out = g.f32([hv * heads, t, 1], &[perm], false);
        rotate(g, out, [hv * heads, t, 1], a.rot_v)
    }
}

/// Multi-head latent attention as llama.cpp runs it (`models/deepseek2.cpp`, the absorbed form):
/// the query's no-position part multiplied into the latent space, the latent (plus the position
/// key) cached once and read as both K and V, the value up-projection after attention.
fn mla(
    g: &mut Graph,
    x: usize,
    m: &crate::model::Mla,
    s: &Setup,
    pos: usize,
    cache: (usize, usize, u64),
) -> usize {
    let (heads, lora, rope, nope, hv) =
        (m.num_heads, m.kv_lora_rank, m.qk_rope_head_dim, m.qk_nope_head_dim, m.v_head_dim);
    let t = s.tokens();
    let (k_idx, mask, cells) = cache;
    let q = match m.q_lora_rank {
        Some(r) => {
            let qa = g.f32([r, t, 1], &[x], false);
            let qa = g.norm(qa, [r, t, 1]);
            g.f32([heads * (nope + rope), t, 1], &[qa], false)
        }
        None => g.f32([heads * (nope + rope), t, 1], &[x], false),
    };
    let qr = g.view(q);
    let q_nope = g.view(qr);
    let q_nope = g.view(q_nope);
    let absorbed = g.f32([lora, t, heads], &[q_nope], false);
    let absorbed = g.view(absorbed);
    let q_pe = g.view(qr);
    let q_pe = g.f32([rope, heads, t], &[q_pe, pos], true);
    let qcur = g.f32([lora + rope, heads, t], &[absorbed, q_pe], false);
    let kv = g.f32([lora + rope, t, 1], &[x], false);
    let cmpr = g.view(kv);
    let cmpr = g.norm(cmpr, [lora, t, 1]);
    let vcur = g.view(cmpr);
    let k_pe = g.view(kv);
    let k_pe = g.f32([rope, 1, t], &[k_pe, pos], true);
    let kcur = g.f32([lora + rope, 1, t], &[vcur, k_pe], false);
    let kview = g.view(kcur);
    g.external(&[kview, k_idx]);
    let qv = g.view(qcur);
    let qp = g.view(qv);
    let latent_out = if s.flash_attention {
        let out = g.f32([lora, heads, t], &[qp, mask], false);
        g.view(out)
    } else {
        // V is the cache's latent part, transposed into a contiguous copy.
        let v = g.push(cells.saturating_mul(lora).saturating_mul(2), [cells, lora, 1, 1, 2], &[], false);
        let kq = g.f32([cells, t, heads], &[qp], false);
        let sm = g.f32([cells, t, heads], &[kq, mask], true);
        g.f32([lora, t, heads], &[v, sm], false)
    };
    let up = g.f32([hv, t, heads], &[latent_out], false);
    let perm = g.view(up);
    g.f32([hv, heads, t], &[perm], false)
}

/// A Mamba-2 layer as llama.cpp runs it (`build_mamba2_layer`): the input projection, the
/// convolution over the cached conv state and the micro-batch, the selective scan (its output and
/// the new state in one tensor), the skip term, the gate and its grouped norm, the output
/// projection. `conv_state` is this layer's conv state, fetched before the layer.
fn mamba2(
    g: &mut Graph,
    x: usize,
    m: &crate::model::Mamba,
    s: &Setup,
    conv_state: usize,
    h: u64,
    next: &mut dyn FnMut(&mut Graph),
) -> usize {
    let (inner, state, groups, heads, k) =
        (m.inner, m.state, m.groups.max(1), m.heads.max(1), m.conv_kernel.max(1));
    let (t, seqs) = (s.tokens(), s.sequences.max(1));
    let conv_dim = inner + 2 * groups * state;
    let head_dim = inner / heads;
    let zx = g.f32([2 * inner + 2 * groups * state + heads, t, 1], &[x], false);
    let zx =
        if m.proj_bias { g.f32([2 * inner + 2 * groups * state + heads, t, 1], &[zx], true) } else { zx };
    let zxr = g.view(zx);
    let xbc = g.view(zxr);
    let xbc = g.view(xbc);
    let prev = g.view(conv_state);
    let conv_in = g.f32([t + k - 1, conv_dim, 1], &[prev, xbc], false);
    let last = g.view(conv_in);
    g.external(&[last]);
    let conv = g.f32([conv_dim, t, 1], &[conv_in], false);
    let conv = if m.conv_bias { g.f32([conv_dim, t, 1], &[conv], true) } else { conv };
    let conv = g.f32([conv_dim, t, 1], &[conv], true);
    let xs = g.view(conv);
    let dt = g.view(zxr);
    let dt = g.f32([heads, t, 1], &[dt], false);
    let dt = g.f32([heads, t, 1], &[dt], true);
    let b = g.view(conv);
    let c = g.view(conv);
    let scan = g.f32([inner * t + state * inner * seqs, 1, 1], &[xs, dt, b, c], false);
    let new_state = g.view(scan);
    g.external(&[new_state]);
    next(g);
    let z = g.view(zxr);
    let z = g.f32([head_dim, heads, t], &[z], false);
    let y = g.view(scan);
    let xd = g.f32([head_dim, heads, t], &[xs], false);
    let y = g.f32([head_dim, heads, t], &[y, xd], true);
    let gated = g.f32([head_dim, heads, t], &[z, y], false);
    let out = if m.gated_norm {
        let r = g.view(gated);
        let n = g.norm(r, [inner / groups, groups, t]);
        g.view(n)
    } else {
        gated
    };
    g.f32([h, t, 1], &[out], false)
}

/// A Mamba-1 layer as llama.cpp runs it (`models/mamba-base.cpp`, `build_mamba_layer`): the
/// in-projection into x and z, x convolved over the cached state and the micro-batch, the
/// selective scan reading its own state (dt, B and C from one projection, RMS-normed in Falcon
/// Mamba and Jamba), then `y + x·D` gated by z and projected out; nodes in the order ggml's graph
/// expands them (the scan's chain when the state is written, the output after the next layer's
/// conv state).
#[allow(clippy::too_many_arguments)]
fn mamba1(
    g: &mut Graph,
    x: usize,
    m: &crate::model::Mamba,
    norms: bool,
    s: &Setup,
    conv_state: usize,
    h: u64,
    next: &mut dyn FnMut(&mut Graph),
) -> usize {
    let (inner, state, k, r) = (m.inner, m.state, m.conv_kernel.max(1), m.dt_rank);
    let (t, seqs) = (s.tokens(), s.sequences.max(1));
    let xz = g.f32([2 * inner, t, 1], &[x], false);
    let xv = g.view(xz);
    let xt = g.view(xv);
    let prev = g.view(conv_state);
    let conv_in = g.f32([t + k - 1, inner, 1], &[prev, xt], false);
    let last = g.view(conv_in);
    g.external(&[last]);
    let conv = g.f32([inner, t, 1], &[conv_in], false);
    let conv = g.f32([inner, t, 1], &[conv], true);
    let xs = g.f32([inner, t, 1], &[conv], true);
    let xr = g.view(xs);
    let x_db = g.f32([r + 2 * state, t, 1], &[xs], false);
    let dtv = g.view(x_db);
    // RMS-normed (Falcon Mamba, Jamba), or made contiguous.
    let dtn = g.f32([r, t, 1], &[dtv], false);
    let dt = g.f32([inner, t, 1], &[dtn], false);
    let dt = g.f32([inner, t, 1], &[dt], true);
    let bv = g.view(x_db);
    let b = if norms { g.f32([state, 1, t], &[bv], false) } else { bv };
    let cv = g.view(x_db);
    let c = if norms { g.f32([state, 1, t], &[cv], false) } else { cv };
    let scan = g.f32([inner * t + state * inner * seqs, 1, 1], &[xr, dt, b, c], false);
    let new_state = g.view(scan);
    g.external(&[new_state]);
    next(g);
    let zv = g.view(xz);
    let z = g.f32([inner, t, 1], &[zv], false);
    let y = g.view(scan);
    let xd = g.f32([inner, t, 1], &[xs], false);
    let y = g.f32([inner, t, 1], &[y, xd], true);
    let gated = g.f32([inner, t, 1], &[z, y], false);
    g.f32([h, t, 1], &[gated], false)
}

/// The conv state one sequence keeps for a recurrent layer with a convolution, in f32 values:
/// `(taps − 1) × channels` (Mamba-2: the x, B and C channels; LFM2's short conv: the hidden size).
fn conv_state_width(m: &Mixer, h: u64) -> Option<u64> {
    match m {
        Mixer::Mamba(mb) if mb.version == MambaVersion::V2 => {
            Some((mb.conv_kernel.max(1) - 1) * (mb.inner + 2 * mb.groups.max(1) * mb.state))
        }
        Mixer::Mamba(mb) => Some((mb.conv_kernel.max(1) - 1) * mb.inner),
        Mixer::ShortConv(sc) => Some(sc.kernel.max(1).saturating_sub(1) * h),
        _ => None,
    }
}

/// LFM2's gated short convolution as llama.cpp runs it (`models/lfm2.cpp`): the in-projection
/// into B, C and x, `B·x` convolved over the cached state and the micro-batch, gated by C,
/// projected out (a reshaped view, so the residual add takes the residual's memory).
fn short_conv(
    g: &mut Graph,
    x: usize,
    taps: u64,
    s: &Setup,
    conv_state: usize,
    h: u64,
    next: &mut dyn FnMut(&mut Graph),
) -> usize {
    let t = s.tokens();
    let xr = g.view(x);
    let bcx = g.f32([3 * h, t, 1], &[xr], false);
    let b = g.view(bcx);
    let xin = g.view(bcx);
    let bx = g.f32([h, t, 1], &[b, xin], false);
    let bxt = g.view(bx);
    let prev = g.view(conv_state);
    let conv_in = g.f32([t + taps.max(1) - 1, h, 1], &[prev, bxt], false);
    let last = g.view(conv_in);
    g.external(&[last]);
    next(g);
    let c = g.view(bcx);
    let conv = g.f32([h, t, 1], &[conv_in], false);
    let y = g.f32([h, t, 1], &[c, conv], true);
    let out = g.f32([h, t, 1], &[y], false);
    g.view(out)
}

fn feed_forward(g: &mut Graph, x: usize, ffn: &Ffn, h: u64, t: u64) -> usize {
    match ffn {
        Ffn::None => x,
        Ffn::Dense(m) => dense(g, x, m, h, t),
        Ffn::Moe(m) => {
            let e = m.num_experts.max(1);
            let k = m.experts_per_token.clamp(1, e);
            let fe = m.expert_intermediate;
            let logits = g.f32([e, t, 1], &[x], false);
            let probs = g.f32([e, t, 1], &[logits], true);
            let probs_r = g.view(probs);
            let sorted = g.push(e.saturating_mul(t).saturating_mul(4), [e, t, 1, 1, 40], &[probs], false);
            let topk = g.view(sorted);
            let w = g.f32([1, k, t], &[probs_r, topk], false);
            let wr = g.view(w);
            let sum = g.f32([1, t, 1], &[wr], false);
            let clamp = g.f32([1, t, 1], &[sum], true);
            let wn = g.f32([k, t, 1], &[wr, clamp], true);
            let wnr = g.view(wn);
            let xr = g.view(x);
            let up = if m.gated {
                let gate = g.f32([fe, k, t], &[xr, topk], false);
                let up = g.f32([fe, k, t], &[xr, topk], false);
                g.f32([fe, k, t], &[gate, up], false)
            } else {
                let up = g.f32([fe, k, t], &[xr, topk], false);
                g.f32([fe, k, t], &[up], true)
            };
            let down = g.f32([h, k, t], &[up, topk], false);
            let weighted = g.f32([h, k, t], &[down, wnr], true);
            let parts: Vec<usize> = (0..k).map(|_| g.view(weighted)).collect();
            let mut out = parts[0];
            for &p in &parts[1..] {
                out = g.f32([h, t, 1], &[out, p], true);
            }
            if k == 1 {
                out = g.f32([h, t, 1], &[out], false);
            }
            if m.shared_intermediate > 0 {
                let shared = crate::model::Mlp {
                    intermediate_size: m.shared_intermediate,
                    gated: m.gated,
                    bias: false,
                    fused_gate_up: false,
                };
                let sh = dense(g, x, &shared, h, t);
                let sh = if m.shared_expert_gate {
                    let gate = g.f32([1, t, 1], &[x], false);
                    let gate = g.f32([1, t, 1], &[gate], true);
                    g.f32([h, t, 1], &[sh, gate], true)
                } else {
                    sh
                };
                out = g.f32([h, t, 1], &[out, sh], true);
            }
            out
        }
    }
}

fn dense(g: &mut Graph, x: usize, m: &crate::model::Mlp, h: u64, t: u64) -> usize {
    let (f, gated, bias) = (m.intermediate_size, m.gated, m.bias);
    let lin = |g: &mut Graph, src: usize, w: u64| {
        let m = g.f32([w, t, 1], &[src], false);
        if bias { g.f32([w, t, 1], &[m], true) } else { m }
    };
    let act = if gated && m.fused_gate_up {
        // Phi-3: gate and up in one matrix, the GLU splitting its halves.
        let up = lin(g, x, 2 * f);
        g.f32([f, t, 1], &[up], false)
    } else if gated {
        let gate = lin(g, x, f);
        let up = lin(g, x, f);
        g.f32([f, t, 1], &[gate, up], false)
    } else {
        let up = lin(g, x, f);
        g.f32([f, t, 1], &[up], true)
    };
    lin(g, act, h)
}

/// Which GPU each layer goes to under llama.cpp's layer split (`--split-mode layer`, its
/// default), as `llama_model::load_tensors` assigns them: the split points are the cumulative
/// shares of `split` (`--tensor-split`; empty or all zero: each GPU's free memory, equal for equal
/// cards), normalised to 1, in `float`; of the `gpu_layers` layers offloaded (`-ngl`, the output
/// layer counted as layer `layers` and offloaded first; `layers + 1` or more: all), layer `il`
/// goes to the first GPU whose split point exceeds `(il − first)/offloaded`, `first` being
/// `layers + 1 − gpu_layers`. Returns, per GPU, its layers `[first, end)` and whether it holds
/// the output layer.
///
/// # Example
/// ```
/// // Two equal cards, 32 layers and the head: 17 layers on the first, 15 and the head on the second.
/// assert_eq!(headroom_core::llama_cpp::layer_split(32, 33, 2, &[]), vec![(0, 17, false), (17, 32, true)]);
/// ```
pub fn layer_split(layers: u64, gpu_layers: u64, gpus: u64, split: &[u32]) -> Vec<(u64, u64, bool)> {
    let n = gpus.clamp(1, 1 << 10) as usize;
    let weights: Vec<f32> = if split.iter().all(|w| *w == 0) {
        alloc::vec![1.0; n]
    } else {
        (0..n).map(|i| split.get(i).copied().unwrap_or(0) as f32).collect()
    };
    let mut points = Vec::with_capacity(n);
    let mut sum = 0.0f32;
    for w in &weights {
        sum += *w;
        points.push(sum);
    }
    for p in &mut points {
        *p /= sum;
    }
    let offloaded = gpu_layers.min(layers + 1);
    let first = (layers + 1).saturating_sub(gpu_layers);
    let mut out: Vec<(u64, u64, bool)> = alloc::vec![(0, 0, false); n];
    let mut seen = alloc::vec![false; n];
    for il in first..=layers {
        if il - first >= offloaded {
            break;
        }
        let x = (il - first) as f32 / offloaded as f32;
        let gpu = points.iter().position(|p| *p > x).unwrap_or(n - 1);
        let e = &mut out[gpu];
        if il == layers {
            e.2 = true;
        } else {
            if !seen[gpu] {
                seen[gpu] = true;
                e.0 = il;
            }
            e.1 = il + 1;
        }
    }
    for (e, seen) in out.iter_mut().zip(&seen) {
        if !seen {
            // No layers: an empty range where the GPU sits (after the ones before it).
            e.0 = first.min(layers);
            e.1 = e.0;
        }
    }
    out
}

/// One GPU's part of a model under llama.cpp's layer split.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GpuShare {
    /// The first of its layers.
    pub first: u64,
    /// One past its last layer (`first == end`: no layers).
    pub end: u64,
    /// It holds the output layer (final norm and head) and computes the logits.
    pub head: bool,
    /// Its weights.
    pub weights: crate::units::Bytes,
    /// The KV cache and recurrent state of its layers.
    pub cache: crate::units::Bytes,
    /// Its compute buffer.
    pub compute: crate::units::Bytes,
    /// All of it, with the runtime's overhead.
    pub total: crate::units::Bytes,
}

/// The compute buffer of a GPU that holds layers but not the output layer: the graph without
/// the head's logits (a stand-in: the layers' own nodes on that device are replayed with the
/// others', which llama.cpp's scheduler splits apart).
pub fn compute_buffer_layers(a: &Architecture, s: &Setup) -> u64 {
    let (mut g, _, _) = build(a, s);
    g.nodes.pop();
    replay(&g).saturating_add(first_reservation_extra(a, s))
}

/// llama.cpp's first reservation, the one whose size it keeps, holds one more hidden state of the
/// micro-batch than the layout its later graphs reuse (measured on every architecture with
/// attention in tests/llama-cpp; a model without attention, Falcon Mamba, does not).
fn first_reservation_extra(a: &Architecture, s: &Setup) -> u64 {
    let attends = a.mixers().any(|(_, m)| matches!(m, Mixer::Attention(_) | Mixer::Mla(_)));
    if attends { a.hidden_size.max(1).saturating_mul(s.tokens()).saturating_mul(4) } else { 0 }
}

/// llama.cpp's compute buffer for `a` under `s`, and its host output buffer.
pub fn compute_buffer(a: &Architecture, s: &Setup) -> ComputeBuffer {
    let (g, exact, logits) = build(a, s);
    let bytes = replay(&g).saturating_add(first_reservation_extra(a, s));
    // The output buffer starts with room for one token's logits per sequence (it grows when a
    // request asks for more).
    let output = a.vocab_size.saturating_mul(s.sequences.max(1)).saturating_mul(4);
    ComputeBuffer { bytes, exact, logits, output }
}

/// The rebuilt graph, one line per tensor (`bytes` or `view`, then its sources), for comparing
/// with the graph llama.cpp builds (`LLAMA_DUMP_GRAPH=1 target/llama-cpp/driver …`).
#[doc(hidden)]
pub fn outline(a: &Architecture, s: &Setup) -> alloc::string::String {
    use core::fmt::Write;
    let (g, _, _) = build(a, s);
    let mut out = alloc::string::String::new();
    for (i, n) in g.nodes.iter().enumerate() {
        let what = match n.view_of {
            Some(usize::MAX) => alloc::string::String::from("external"),
            Some(v) => alloc::format!("view of {v}"),
            None => alloc::format!(
                "{}{}{}{}",
                n.bytes,
                if n.inplace { " inplace" } else { "" },
                if n.input { " input" } else { "" },
                if n.output { " output" } else { "" }
            ),
        };
        let _ = writeln!(out, "{i}\t{what}\t{:?}", n.srcs.iter().filter(|s| **s != NONE).collect::<Vec<_>>());
    }
    out
}

fn build(a: &Architecture, s: &Setup) -> (Graph, bool, u64) {
    // Whether llama.cpp gives this family's sliding layers their own small cache.
    let swa = crate::inference::llama_cpp_slides(a);
    let h = a.hidden_size.max(1);
    let t = s.tokens();
    let mut g = Graph { layer_norm: !matches!(a.norm, crate::model::NormKind::Rms), ..Graph::default() };
    let mut exact = GRAPH_CHECKED_FAMILIES.contains(&a.family.as_str());
    // Inputs, in the order llama.cpp's graph first uses them.
    let tokens = g.input(t * 4);
    // Which recurrent state each sequence reads (Mamba-2 and short-conv layers), used from the
    // first layer on.
    let recurrent = a.mixers().any(|(_, m)| conv_state_width(m, a.hidden_size).is_some());
    let s_copy = if recurrent { g.input(s.sequences.max(1) * 4) } else { NONE };
    // A model without attention (Mamba) has no positions, cache rows or masks among its inputs.
    let attends = a.mixers().any(|(_, m)| matches!(m, Mixer::Attention(_) | Mixer::Mla(_)));
    let pos = if attends { g.input(t * 4) } else { NONE };
    let first_v = a
        .mixers()
        .find_map(|(_, m)| match m.cache(a.hidden_size) {
            LayerCache::Kv { v, .. } => Some(v),
            _ => None,
        })
        .unwrap_or(0);
    // The V cache's row indices: one per token, or one per value when V is stored transposed
    // (without flash attention).
    let v_idx_bytes =
        if s.flash_attention { t * 8 } else { t.saturating_mul(first_v.max(1)).saturating_mul(8) };
    let sliding = a.mixers().find_map(|(_, m)| m.span().filter(|s| *s != Span::Full));
    // Families llama.cpp gives a sliding cache have two caches, each with its indices and mask.
    let iswa = swa && sliding.is_some();
    let mask_bytes =
        |cells: u64| cells.saturating_mul(t).saturating_mul(if s.flash_attention { 2 } else { 4 });
    // This release rotates what goes into a quantized cache (Hadamard matrices, inputs of the
    // graph): Q and K by the largest power-of-two block of at least 64 that divides the head, V
    // and the attention output by 64 × 64; each cache (sliding, full) has its own.
    let head_k = a.mixers().find_map(|(_, m)| match m {
        Mixer::Attention(at) => Some(at.head_dim),
        _ => None,
    });
    let head_v = a.mixers().find_map(|(_, m)| match m {
        Mixer::Attention(at) => Some(at.v_head_dim),
        _ => None,
    });
    let rot_block = |head: u64| {
        let mut n = 64u64;
        while head.is_multiple_of(n * 2) && n < (1 << 20) {
            n *= 2;
        }
        n
    };
    // Each cache's inputs (rotations, row indices of K and V, mask), in the order the layers
    // first use them (Gemma's first layer slides).
    let first_slides = a.mixers().find_map(|(_, m)| m.span().map(|s| s != Span::Full)) == Some(true);
    let inputs_for = |g: &mut Graph, span: Span| {
        let rot_k = head_k
            .filter(|hk| s.k_type.is_quantized() && hk.is_multiple_of(64))
            .map(|hk| g.input(rot_block(hk).pow(2) * 4));
        let rot_v = head_v
            .filter(|hv| s.v_type.is_quantized() && hv.is_multiple_of(64))
            .map(|_| g.input(64 * 64 * 4));
        let io = (g.input(t * 8), g.input(v_idx_bytes), g.input(mask_bytes(s.cells(span, swa))));
        (io, (rot_k, rot_v))
    };
    let ((full, full_rot), (window, window_rot)) = match sliding {
        _ if !attends => (((NONE, NONE, NONE), (None, None)), ((NONE, NONE, NONE), (None, None))),
        Some(span) if iswa && first_slides => {
            let w = inputs_for(&mut g, span);
            (inputs_for(&mut g, Span::Full), w)
        }
        Some(span) if iswa => {
            let f = inputs_for(&mut g, Span::Full);
            (f, inputs_for(&mut g, span))
        }
        _ => {
            let f = inputs_for(&mut g, Span::Full);
            (f, f)
        }
    };
    let out_ids = g.input(t * 4);
    let late_output = LATE_OUTPUT_FAMILIES.contains(&a.family.as_str());
    let mut x = g.f32([h, t, 1], &[tokens], false);
    if a.embedding_norm {
        x = g.hidden_norm(x, [h, t, 1]);
    }
    // Every layer: the free blocks drift from layer to layer, so a shortened stack can miss the
    // high-water mark (Qwen3-0.6B's 28 layers end 3% above their first three).
    let groups = a.groups.len();
    let layers: Vec<&crate::model::LayerGroup> =
        a.groups.iter().flat_map(|gr| core::iter::repeat_n(gr, gr.count as usize)).collect();
    let mut layer_index = 0usize;
    let mut pending_conv: Option<usize> = None;
    let seqs = s.sequences.max(1);
    let fetch_conv = |g: &mut Graph, width: u64| g.f32([width, seqs, 1], &[s_copy], false);
    // LFM2 adds the residual first (`ggml_add(prev, cur)`), so the residual's memory is reused.
    let residual_first = a.family == "lfm2";
    // Phi-3 adds the feed-forward's input first (`ggml_add(ffn_inp, cur)`).
    let ffn_residual_first = matches!(a.family.as_str(), "phi3" | "phi4");
    // Nemotron-H's attention layers have no rotary embedding.
    let nope = matches!(a.family.as_str(), "nemotron_h" | "nemotron_h_moe");
    for (gi, group) in a.groups.iter().enumerate() {
        let shown = group.count;
        for li in 0..shown {
            let last = gi + 1 == groups && li + 1 == shown && !late_output;
            let residual = x;
            // A Mamba-2 layer's conv state (one row per sequence) is fetched before the first
            // such layer, and for the next one in the middle of the mixer layer before it (where
            // llama.cpp's graph expands it).
            let conv_state = group.mixers.iter().find_map(|m| {
                conv_state_width(m, h).map(|w| pending_conv.take().unwrap_or_else(|| fetch_conv(&mut g, w)))
            });
            layer_index += 1;
            let next_conv = layers[layer_index..]
                .iter()
                .find(|l| !l.mixers.is_empty())
                .and_then(|l| l.mixers.iter().find_map(|m| conv_state_width(m, h)));
            // What llama.cpp's graph visits right after a recurrent layer writes its conv state:
            // the next such layer's conv state, and in LFM2's last layer the residual's output
            // rows (its residual add lists the residual first).
            let mut early_rows: Option<usize> = None;
            let mut fetch_next = |g: &mut Graph| {
                if let Some(w) = next_conv {
                    pending_conv = Some(fetch_conv(g, w));
                }
                if last && residual_first {
                    early_rows = Some(g.f32([h, t, 1], &[residual, out_ids], false));
                }
            };
            if group.mixers.is_empty() {
                // A feed-forward-only layer (Nemotron-H's MLP layers): norm, feed-forward, residual.
                let fx = g.hidden_norm(x, [h, t, 1]);
                let f = feed_forward(&mut g, fx, &group.ffn, h, t);
                x = g.f32([h, t, 1], &[f, x], true);
                continue;
            }
            let xn = g.hidden_norm(x, [h, t, 1]);
            let mut outs: Vec<usize> = Vec::new();
            for m in &group.mixers {
                let o = match m {
                    Mixer::Attention(at) => {
                        let span = match at.cache() {
                            LayerCache::Kv { span, .. } => span,
                            _ => Span::Full,
                        };
                        let cells = s.cells(span, swa);
                        let ((k_idx, v_idx, mask), (rot_k, rot_v)) =
                            if span == Span::Full { (full, full_rot) } else { (window, window_rot) };
                        let shape = AttnShape {
                            heads: at.num_heads,
                            kv_heads: at.num_kv_heads.max(1),
                            head_k: at.head_dim,
                            head_v: at.v_head_dim,
                            q_norm: !matches!(at.qk_norm, QkNorm::None),
                            k_norm: !matches!(at.qk_norm, QkNorm::None),
                            bias: at.qkv_bias,
                            cells,
                            mask,
                            iswa,
                            rot_k,
                            rot_v,
                            rope: !nope,
                            fused: at.fused_qkv,
                        };
                        let o = attention(&mut g, xn, &shape, t, s, pos, (k_idx, v_idx));
                        fetch_next(&mut g);
                        g.f32([h, t, 1], &[o], false)
                    }
                    Mixer::Mamba(mb) if mb.version == MambaVersion::V2 => {
                        mamba2(&mut g, xn, mb, s, conv_state.unwrap_or(s_copy), h, &mut fetch_next)
                    }
                    // A convolutional attention's state has no graph of its own (llama.cpp has no
                    // ZAYA).
                    Mixer::ConvState(_) => continue,
                    Mixer::ShortConv(sc) => {
                        short_conv(&mut g, xn, sc.kernel, s, conv_state.unwrap_or(s_copy), h, &mut fetch_next)
                    }
                    Mixer::Mla(ml) => {
                        // (Not rebuilt: the rotations of a quantized latent cache, and DeepSeek
                        // V3.2's sparse indexer, whose layers are replayed as plain MLA.)
                        exact &= !s.k_type.is_quantized() && ml.indexer.is_none();
                        let cells = s.cells(Span::Full, swa);
                        let (k_idx, _, mask) = full;
                        let o = mla(&mut g, xn, ml, s, pos, (k_idx, mask, cells));
                        let o = g.view(o);
                        g.f32([h, t, 1], &[o], false)
                    }
                    Mixer::Compressed(c) => {
                        // Stand-in for DeepSeek V4's attention (llama.cpp's `deepseek4` graph is
                        // not rebuilt): one-KV-head attention over the window and the compressed
                        // rows.
                        exact = false;
                        let cells = s.cells(Span::Full, swa) / c.ratio.max(1) + c.window;
                        let (k_idx, v_idx, mask) = full;
                        let shape = AttnShape {
                            heads: c.num_heads,
                            kv_heads: 1,
                            head_k: c.head_dim,
                            head_v: c.head_dim,
                            q_norm: false,
                            k_norm: true,
                            bias: false,
                            cells,
                            mask,
                            iswa,
                            rot_k: full_rot.0,
                            rot_v: full_rot.1,
                            rope: true,
                            fused: false,
                        };
                        let o = attention(&mut g, xn, &shape, t, s, pos, (k_idx, v_idx));
                        fetch_next(&mut g);
                        g.f32([h, t, 1], &[o], false)
                    }
                    Mixer::Mamba(mb) => {
                        let norms = mb.inner_norms || matches!(a.family.as_str(), "falcon_mamba" | "jamba");
                        mamba1(&mut g, xn, mb, norms, s, conv_state.unwrap_or(s_copy), h, &mut fetch_next)
                    }
                    Mixer::GatedDeltaNet(_) | Mixer::Kda(_) | Mixer::Lightning(_) => {
                        // Stand-in for a recurrent mixer: its input projection, the recurrence's
                        // output of the same width, the output projection (no scores: it
                        // attends to a state, not to the context).
                        exact = false;
                        let w = match m {
                            Mixer::GatedDeltaNet(gd) => {
                                2 * gd.key_heads * gd.key_head_dim + 2 * gd.value_heads * gd.value_head_dim
                            }
                            _ => 3 * h,
                        };
                        let p = g.f32([w, t, 1], &[xn], false);
                        let y = g.f32([w, t, 1], &[p], false);
                        g.f32([h, t, 1], &[y], false)
                    }
                };
                outs.push(o);
            }
            let mut cur = outs.first().copied().unwrap_or(xn);
            for &o in outs.iter().skip(1) {
                cur = g.f32([h, t, 1], &[cur, o], true);
            }
            let mut res = residual;
            if last {
                cur = g.f32([h, t, 1], &[cur, out_ids], false);
                res = match early_rows {
                    Some(r) => r,
                    None => g.f32([h, t, 1], &[res, out_ids], false),
                };
            }
            let ffn_in = if residual_first {
                g.f32([h, t, 1], &[res, cur], true)
            } else {
                g.f32([h, t, 1], &[cur, res], true)
            };
            let out = if matches!(group.ffn, Ffn::None) {
                ffn_in
            } else {
                let fx = g.hidden_norm(ffn_in, [h, t, 1]);
                let f = feed_forward(&mut g, fx, &group.ffn, h, t);
                if residual_first || ffn_residual_first {
                    g.f32([h, t, 1], &[ffn_in, f], true)
                } else {
                    g.f32([h, t, 1], &[f, ffn_in], true)
                }
            };
            x = out;
        }
    }
    // Where the last hidden state of every token is an output (for multi-token prediction), the
    // output rows are picked after the stack: before the final norm (gpt-oss) or after it.
    if late_output && a.family == "gpt_oss" {
        g.nodes[x].output = true;
        x = g.f32([h, t, 1], &[x, out_ids], false);
    }
    let mut normed = g.hidden_norm(x, [h, t, 1]);
    if late_output && a.family != "gpt_oss" {
        g.nodes[normed].output = true;
        normed = g.f32([h, t, 1], &[normed, out_ids], false);
    }
    let logits_bytes = a.vocab_size.saturating_mul(t).saturating_mul(4);
    g.nodes[normed].output = true;
    let head = g.push(logits_bytes, [a.vocab_size, t, 1, 1, 4], &[normed], false);
    g.nodes[head].output = true;
    (g, exact, logits_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocator_reuses_freed_blocks_best_fit() {
        let mut b = Blocks::new();
        let a = b.alloc(100);
        let c = b.alloc(64);
        let d = b.alloc(200);
        b.release(a, 100);
        // 64 fits the freed 128-byte hole (aligned) rather than growing the end.
        assert_eq!(b.alloc(64), 0);
        b.release(c, 64);
        b.release(d, 200);
        assert_eq!(b.high, 128 + 64 + 224);
    }

    #[test]
    fn a_larger_micro_batch_never_shrinks_the_buffer() {
        // (A longer context may: the larger mask moves the free blocks, and the real llama.cpp
        // shows it too: 111.7 MB at 4,096 cells, 82.3 MB at 8,192 for a 4096-wide, 32k-vocabulary
        // llama.)
        for m in crate::catalog::models() {
            let Ok(a) = m.architecture() else { continue };
            for fa in [true, false] {
                let mut last = 0;
                for ub in [64, 128, 256, 512, 1024, 2048] {
                    let s = Setup { ubatch: ub, flash_attention: fa, ..Setup::new(8192, 1) };
                    let b = compute_buffer(&a, &s).bytes;
                    assert!(b >= last, "{}: ub {ub} fa {fa}: {b} < {last}", m.id);
                    last = b;
                }
            }
        }
    }

    #[test]
    fn the_logits_of_a_micro_batch_bound_the_buffer_from_below() {
        for m in crate::catalog::models() {
            let Ok(a) = m.architecture() else { continue };
            let s = Setup::new(4096, 1);
            let cb = compute_buffer(&a, &s);
            assert!(cb.bytes >= cb.logits, "{}", m.id);
            assert_eq!(cb.logits, a.vocab_size * 512 * 4);
        }
    }

    /// `HEADROOM_GGUF=file.gguf cargo test -p headroom-core --lib outline -- --ignored --nocapture`
    #[test]
    #[ignore = "a development aid: prints the rebuilt graph of a GGUF"]
    fn outline_of_a_gguf() {
        extern crate std;
        let path = std::env::var("HEADROOM_GGUF").expect("HEADROOM_GGUF");
        let bytes = std::fs::read(&path).unwrap();
        let g = crate::import::gguf::parse(&bytes[..bytes.len().min(64 << 20)]).unwrap();
        let (m, _) = crate::import::gguf::merge(alloc::vec![g]).unwrap().to_custom("x").unwrap();
        let a = m.architecture;
        let ctx = std::env::var("HEADROOM_CTX").ok().and_then(|c| c.parse().ok()).unwrap_or(4096);
        let swa_full = std::env::var("HEADROOM_SWA_FULL").is_ok();
        std::print!("{}", outline(&a, &Setup { swa_full, ..Setup::new(ctx, 1) }));
    }

    #[test]
    fn sliding_layers_follow_each_familys_loader() {
        let slides = |arch: &str, layers: u64, key: Option<u64>| -> Option<Vec<bool>> {
            let r = swa_rule(arch, layers)?;
            r.window(key)?;
            Some((0..8).map(|i| r.slides(i, r.period)).collect())
        };
        // Gemma 3: 5 sliding, 1 full; Command R7B: 3 and 1; Cohere2 MoE and Laguna: dense first.
        assert_eq!(slides("gemma3", 26, Some(512)).unwrap()[..6], [true, true, true, true, true, false]);
        assert_eq!(slides("cohere2", 32, Some(4096)).unwrap()[..4], [true, true, true, false]);
        assert_eq!(slides("cohere2moe", 32, Some(4096)).unwrap()[..4], [false, true, true, true]);
        // Families llama.cpp does not slide keep the full cache; Gemma 3 without a window too.
        assert_eq!(slides("llama", 32, Some(4096)), None);
        assert_eq!(slides("qwen2", 32, Some(32768)), None);
        assert_eq!(slides("gemma3", 26, None), None);
        // Gemma 2 slides with its default window when the header has none.
        assert_eq!(swa_rule("gemma2", 26).unwrap().window(None), Some(4096));
        // Llama 4 chunks 8,192 whatever the header says, unless it says 0.
        let l4 = swa_rule("llama4", 48).unwrap();
        assert_eq!(
            (l4.window(None), l4.window(Some(4096)), l4.window(Some(0))),
            (Some(8192), Some(8192), None)
        );
        assert!(l4.chunked);
        // EXAONE 4 slides only in its 64-layer model.
        assert!(swa_rule("exaone4", 64).is_some() && swa_rule("exaone4", 30).is_none());
    }

    #[test]
    fn cells_follow_llama_cpp_rules() {
        let s = Setup::new(5000, 1);
        assert_eq!(s.cells(Span::Full, true), 5120);
        assert_eq!(s.cells(Span::Sliding { window: 4096 }, true), 4608);
        assert_eq!(s.cells(Span::Sliding { window: 1024 }, true), 1536);
        assert_eq!(s.cells(Span::Sliding { window: 1024 }, false), 5120);
        let full = Setup { swa_full: true, ..s };
        assert_eq!(full.cells(Span::Sliding { window: 1024 }, true), 5120);
        let uni = Setup { unified: true, sequences: 4, context: 2000, ..s };
        assert_eq!(uni.cells(Span::Full, true), 8192);
        assert_eq!(uni.cells(Span::Sliding { window: 512 }, true), 2560);
    }
}
