//! What one training step keeps for the backward pass, tensor by tensor, the way PyTorch's
//! autograd keeps it for a Hugging Face model: the peak of activations, logits and the
//! loss's buffers.
//!
//! The rule autograd follows decides everything: an operation saves an input only when the
//! gradient of *another* input needs it. So a frozen linear layer saves nothing (its input's
//! gradient needs only its weight), a trained one saves its input, and a LoRA adapter saves the
//! tensor its `lora_A` reads: the dropout's output (and its mask) when dropout is on, the input
//! cast to the adapter's dtype when it is not. Per token and layer, in bytes, with `c` the compute
//! dtype's size and `e` the residual stream's:
//!
//! * each RMSNorm (transformers upcasts inside): the FP32 input `4h`, and when its weight is
//!   trained the normalised value `e·h`;
//! * each linear input: `c·in` once when the base is trained (under autocast, one bf16 cast per
//!   linear, `2·in` each); with LoRA, per adapted module `(a + 1)·in` with dropout or `a·in`
//!   without (`a`: 2 under autocast, else the adapters' dtype), shared once when `a = c`;
//! * attention (SDPA/flash): the rotated Q and K, V and the output `c·(2q + 2kv)` and the FP32
//!   log-sum-exp `4·heads`; without flash attention the FP32 softmax and its cast
//!   `6·heads·attended`;
//! * a gated MLP: gate, its activation and up `3c·i`; a plain one: the first projection `c·i`;
//! * `torch.compile`: a norm keeps its input alone (`e·h`), a gated MLP its gate and up (`2c·i`):
//!   Inductor recomputes the element-wise work from them;
//! * the loss: transformers' `ForCausalLMLoss` upcasts the logits (`c·V` → `4·V`), the log-softmax
//!   keeps `4·V`, and its backward starts with two FP32 `V`-wide gradients: `12·V` per token at
//!   the peak; chunked (torchtune's `CEWithChunkedOutputLoss`, LitGPT's `chunked_cross_entropy`)
//!   keeps the 16-bit logits and the FP32 log-softmax `(c + 4)·V` (compiled, as torchtune runs
//!   it, the logits and one chunk's gradient, `(c + c/8)·V`); fused kernels (Liger's
//!   fused linear cross-entropy, Unsloth, Apple's Cut Cross-Entropy) never build the logits:
//!   a chunk of hidden-sized FP32 work `8·h + c·h`.
//!
//! Checked against measured steps (PyTorch's allocator, `scripts/train-measure.py`,
//! `tests/fixtures/training/`).

use crate::model::attention::QkNorm;
use crate::model::{Architecture, Ffn, LayerGroup, Mixer};

use super::{LoraTarget, LoraTargets};
use crate::tensor::Role;

/// How the step keeps its tensors.
#[derive(Clone, Debug)]
pub struct Saving<'a> {
    /// Bytes of a compute-dtype activation: 2 (BF16/FP16, autocast), 4 in FP32 training.
    pub c: f64,
    /// Bytes of the residual stream between layers: 4 when the weights (or the embeddings,
    /// after peft's k-bit preparation) are FP32, else `c`.
    pub e: f64,
    /// Inputs are cast per operation (autocast over FP32 weights).
    pub autocast: bool,
    /// Bytes of the MLP's intermediates: `c`, except where bitsandbytes' 4-bit layers return
    /// their output in their input's dtype and that input is the FP32 residual stream (QLoRA
    /// after peft's k-bit preparation): 4.
    pub mlp_c: f64,
    /// The base weights are trained (full fine-tuning).
    pub full: bool,
    /// LoRA adapters: their targets, dropout and dtype.
    pub lora: Option<LoraSaving<'a>>,
    /// Flash attention / SDPA (no score matrix kept).
    pub flash: bool,
    /// `torch.compile`d layers: Inductor fuses the element-wise work and its partitioner keeps
    /// a norm's input (recomputing the FP32 upcast and the normalised value from it and the
    /// per-row scale) and a gated MLP's gate and up (recomputing the activation).
    pub compiled: bool,
}

/// The adapters' part of [`Saving`].
#[derive(Clone, Debug)]
pub struct LoraSaving<'a> {
    /// The adapted module kinds.
    pub targets: &'a LoraTargets,
    /// Dropout before `lora_A` (peft's `lora_dropout > 0`).
    pub dropout: bool,
    /// On the CPU, PyTorch's dropout keeps its noise in the input's dtype, not a one-byte mask.
    pub cpu_noise: bool,
    /// Bytes per adapter value (4: peft's FP32 adapters; 2: torchtune, LitGPT).
    pub adapter_bytes: f64,
    /// Rank.
    pub rank: f64,
}

impl Saving<'_> {
    /// Bytes per token kept for a group of linear layers reading one input of width `w` whose
    /// elements are `in_b` bytes: `adapted` of its `members` carry adapters.
    fn linear_inputs(&self, w: f64, in_b: f64, members: f64, adapted: f64) -> f64 {
        let mut bytes = 0.0;
        if self.full {
            bytes += if self.autocast { 2.0 * w * members } else { in_b * w };
        }
        if let Some(l) = &self.lora
            && adapted > 0.0
        {
            let a = if self.autocast { 2.0 } else { l.adapter_bytes };
            // Without dropout, `lora_A` keeps the very input tensor when neither peft's cast to
            // the adapters' dtype nor autocast's to the compute dtype copies it.
            let shared = !l.dropout && l.adapter_bytes == in_b && a == in_b;
            bytes += if shared && !self.full {
                in_b * w
            } else if shared {
                0.0
            } else {
                let mask = match (l.dropout, l.cpu_noise) {
                    (false, _) => 0.0,
                    (true, false) => 1.0,
                    // The noise has the dtype of the tensor dropped out: the input cast to the
                    // adapters' dtype.
                    (true, true) => l.adapter_bytes,
                };
                adapted * w * (a + mask)
            };
            // Each lora_A output, kept by lora_B.
            bytes += adapted * l.rank * a;
        }
        bytes
    }

    /// Whether `role`'s modules carry adapters: [`LoraTargets`]' own rule (1 or 0).
    fn adapted_role(&self, role: Role) -> f64 {
        match &self.lora {
            Some(l) if l.targets.covers(role) => 1.0,
            _ => 0.0,
        }
    }

    /// [`Saving::adapted_role`] for a module kind.
    fn adapted(&self, t: LoraTarget) -> f64 {
        self.adapted_role(match t {
            LoraTarget::Q => Role::AttnQ,
            LoraTarget::K => Role::AttnK,
            LoraTarget::V => Role::AttnV,
            LoraTarget::Qkv => Role::AttnQkv,
            LoraTarget::O => Role::AttnOut,
            LoraTarget::Gate => Role::FfnGate,
            LoraTarget::Up => Role::FfnUp,
            LoraTarget::GateUp => Role::FfnGateUp,
            LoraTarget::Down => Role::FfnDown,
            LoraTarget::Head => Role::Output,
            LoraTarget::Embed => Role::TokenEmbd,
        })
    }

    /// A norm over width `w`: the FP32 input, and the normalised value when its weight trains;
    /// compiled, its input alone.
    fn norm(&self, w: f64) -> f64 {
        if self.compiled {
            return self.e * w;
        }
        4.0 * w + if self.full { self.e * w } else { 0.0 }
    }

    /// Bytes per token of one layer of group `g`, attending `seq` tokens.
    pub fn layer(&self, a: &Architecture, g: &LayerGroup, seq: u64) -> f64 {
        let h = a.hidden_size as f64;
        let c = self.c;
        let mut bytes = g.norms as f64 * self.norm(h);
        for m in &g.mixers {
            match m {
                Mixer::Attention(st) => {
                    let q = st.q_width() as f64;
                    let kv = st.kv_width() as f64;
                    let v = st.v_width() as f64;
                    let heads = st.num_heads as f64;
                    let gate = if st.output_gate { q } else { 0.0 };
                    bytes += self.mixer_input(h, m);
                    // Rotated Q and K, V, the output (and an output gate's product).
                    bytes += c * (2.0 * q + kv + v + gate);
                    if st.qk_norm != QkNorm::None {
                        bytes += self.norm(q) + self.norm(kv);
                    }
                    // Eager attention builds the whole `seq × seq` score matrix and masks a
                    // sliding window inside it.
                    if self.flash {
                        bytes += 4.0 * heads;
                    } else {
                        bytes += 6.0 * heads * seq as f64;
                    }
                    bytes += self.linear_inputs(q, self.c, 1.0, self.adapted(LoraTarget::O));
                }
                Mixer::Mla(ml) => {
                    let qk = (ml.qk_nope_head_dim + ml.qk_rope_head_dim) as f64;
                    let heads = ml.num_heads as f64;
                    let q = heads * qk;
                    let vw = heads * ml.v_head_dim as f64;
                    let latent = (ml.kv_lora_rank + ml.qk_rope_head_dim) as f64;
                    let qa = ml.q_lora_rank.unwrap_or(0) as f64;
                    let ad_q = self.adapted(LoraTarget::Q);
                    let ad_kv = self.adapted(LoraTarget::K).max(self.adapted(LoraTarget::V));
                    // Down-projections read the hidden state; up-projections their latents.
                    bytes += self.mixer_input(h, m);
                    if qa > 0.0 {
                        bytes += self.norm(qa) + self.linear_inputs(qa, self.e, 1.0, ad_q);
                    }
                    bytes += self.norm(ml.kv_lora_rank as f64)
                        + self.linear_inputs(ml.kv_lora_rank as f64, self.e, 1.0, ad_kv);
                    bytes += c * (2.0 * q + vw + latent);
                    let attended =
                        ml.indexer.as_ref().map_or(seq as f64, |ix| (seq as f64).min(ix.topk as f64));
                    bytes += if self.flash { 4.0 * heads } else { 6.0 * heads * attended };
                    bytes += self.linear_inputs(vw, self.c, 1.0, self.adapted(LoraTarget::O));
                }
                Mixer::Compressed(cm) => {
                    // DeepSeek V4 (not measured): the query latent and its norm, the shared row,
                    // rotated queries, the output and its low-rank middle, the compressor's
                    // projections when it has one.
                    let q = (cm.num_heads * cm.head_dim) as f64;
                    let qa = cm.q_lora_rank as f64;
                    let row = cm.head_dim as f64;
                    let ad_q = self.adapted(LoraTarget::Q);
                    bytes += self.mixer_input(h, m);
                    bytes += self.norm(qa) + self.linear_inputs(qa, self.e, 1.0, ad_q);
                    bytes += self.norm(row) + c * (2.0 * q + 2.0 * row);
                    if cm.ratio > 0 {
                        bytes += c * 4.0 * row;
                    }
                    let heads = cm.num_heads as f64;
                    bytes += if self.flash { 4.0 * heads } else { 6.0 * heads * cm.attended(seq) as f64 };
                    let mid = (cm.o_groups * cm.o_lora_rank) as f64;
                    bytes += self.linear_inputs(q, self.c, 1.0, 0.0)
                        + self.linear_inputs(mid, self.c, 1.0, self.adapted(LoraTarget::O));
                }
                Mixer::GatedDeltaNet(d) => {
                    let kd = (d.key_heads * d.key_head_dim) as f64;
                    let vd = (d.value_heads * d.value_head_dim) as f64;
                    bytes += self.recurrent(h, 2.0 * kd + 2.0 * vd, vd);
                }
                Mixer::Kda(crate::model::KimiDeltaAttention { heads, head_dim, .. })
                | Mixer::Lightning(crate::model::LightningAttention { heads, head_dim, .. }) => {
                    let w = (heads * head_dim) as f64;
                    bytes += self.recurrent(h, 4.0 * w, w);
                }
                Mixer::Mamba(mb) => {
                    let rows = (2 * mb.inner + 2 * mb.groups * mb.state + mb.heads) as f64;
                    bytes += self.recurrent(h, rows, mb.inner as f64);
                }
                Mixer::ShortConv(_) => bytes += self.recurrent(h, 3.0 * h, h),
                // Its attention's activations are counted with the attention.
                Mixer::ConvState(_) => {}
            }
        }
        match &g.ffn {
            Ffn::Dense(mlp) => {
                bytes += self.mlp(h, mlp.intermediate_size as f64, mlp.gated, mlp.fused_gate_up, 1.0)
            }
            Ffn::Moe(m) => {
                let k = m.experts_per_token as f64;
                // Each token's copy routed to its experts, every expert's MLP for its tokens, the
                // shared expert, the router's FP32 logits and softmax.
                bytes += k * c * h + self.mlp(h, m.expert_intermediate as f64, m.gated, false, k);
                if m.shared_intermediate > 0 {
                    bytes += self.mlp(h, m.shared_intermediate as f64, m.gated, false, 1.0);
                }
                bytes += 8.0 * m.num_experts as f64;
            }
            Ffn::None => {}
        }
        bytes
    }

    /// A feed-forward of width `i` run `times` per token (MoE: top-k experts).
    fn mlp(&self, h: f64, i: f64, gated: bool, fused: bool, times: f64) -> f64 {
        // Gate, its activation and up; compiled, the activation is recomputed.
        let gated_kept = if self.compiled { 2.0 } else { 3.0 };
        let inner = if gated { gated_kept * self.mlp_c * i } else { self.mlp_c * i };
        times * (self.mlp_input(h, gated, fused) + inner + self.down_input(i))
    }

    /// What a feed-forward's first projections keep of their `h`-wide input.
    fn mlp_input(&self, h: f64, gated: bool, fused: bool) -> f64 {
        if gated && !fused {
            self.linear_inputs(h, self.e, 2.0, self.adapted(LoraTarget::Gate) + self.adapted(LoraTarget::Up))
        } else if gated {
            self.linear_inputs(h, self.e, 1.0, self.adapted(LoraTarget::GateUp))
        } else {
            self.linear_inputs(h, self.e, 1.0, self.adapted(LoraTarget::Up))
        }
    }

    /// The down projection's input, in the MLP's dtype.
    fn down_input(&self, i: f64) -> f64 {
        self.linear_inputs(i, self.mlp_c, 1.0, self.adapted(LoraTarget::Down))
    }

    /// A recurrent mixer: its input projection (`rows` wide), the convolution's and the scan's
    /// outputs, the gated output `out` wide, and the output projection's input.
    fn recurrent(&self, h: f64, rows: f64, out: f64) -> f64 {
        let ad = self.adapted_role(Role::MixIn);
        self.linear_inputs(h, self.e, 1.0, ad)
            + self.c * (2.0 * rows + out)
            + self.linear_inputs(out, self.c, 1.0, ad)
    }

    /// What a mixer's projections keep of the residual stream they read (`h` wide).
    fn mixer_input(&self, h: f64, m: &Mixer) -> f64 {
        match m {
            Mixer::Attention(st) if st.fused_qkv => {
                self.linear_inputs(h, self.e, 1.0, self.adapted(LoraTarget::Qkv))
            }
            Mixer::Attention(_) => {
                let ad =
                    self.adapted(LoraTarget::Q) + self.adapted(LoraTarget::K) + self.adapted(LoraTarget::V);
                self.linear_inputs(h, self.e, 3.0, ad)
            }
            Mixer::Mla(_) | Mixer::Compressed(_) => {
                let ad_kv = self.adapted(LoraTarget::K).max(self.adapted(LoraTarget::V));
                self.linear_inputs(h, self.e, 2.0, self.adapted(LoraTarget::Q) + ad_kv)
            }
            Mixer::GatedDeltaNet(_)
            | Mixer::Kda(_)
            | Mixer::Lightning(_)
            | Mixer::Mamba(_)
            | Mixer::ShortConv(_) => self.linear_inputs(h, self.e, 1.0, self.adapted_role(Role::MixIn)),
            Mixer::ConvState(_) => 0.0,
        }
    }

    /// Bytes per token one layer keeps under PyTorch's selective activation checkpointing as
    /// torchtitan applies it (`selective_ac_option: "op"`, `torch.utils.checkpoint`'s policy
    /// context): the layer's input; every second matrix product's output, counted in the
    /// layer's forward order (`aten.mm` on its save list, every even-numbered one recomputed);
    /// attention's output and log-sum-exp (SDPA is on the list); everything else — norms,
    /// activations, rotary, the other products — recomputed in the backward pass. Recurrent
    /// mixers' scans are recomputed; a mixture of experts' grouped products alternate the same way
    /// per picked expert.
    pub fn layer_sac(&self, a: &Architecture, g: &LayerGroup, seq: u64) -> f64 {
        let h = a.hidden_size as f64;
        let c = self.c;
        // Output widths of the layer's matrix products in forward order, each in its dtype.
        let mut mm: alloc::vec::Vec<(f64, f64)> = alloc::vec::Vec::new();
        let mut kept = self.e * h;
        for m in &g.mixers {
            match m {
                Mixer::Attention(st) => {
                    let (q, kv, v) = (st.q_width() as f64, st.kv_width() as f64, st.v_width() as f64);
                    if st.fused_qkv {
                        mm.push((q + kv + v, c));
                    } else {
                        mm.extend([(q, c), (kv, c), (v, c)]);
                    }
                    if st.output_gate {
                        mm.push((q, c));
                    }
                    kept += c * q;
                    kept += if self.flash {
                        4.0 * st.num_heads as f64
                    } else {
                        6.0 * st.num_heads as f64 * seq as f64
                    };
                    mm.push((h, c));
                }
                Mixer::Mla(ml) => {
                    let heads = ml.num_heads as f64;
                    let q = heads * (ml.qk_nope_head_dim + ml.qk_rope_head_dim) as f64;
                    let vw = heads * ml.v_head_dim as f64;
                    match ml.q_lora_rank {
                        Some(r) => mm.extend([(r as f64, c), (q, c)]),
                        None => mm.push((q, c)),
                    }
                    mm.push(((ml.kv_lora_rank + ml.qk_rope_head_dim) as f64, c));
                    mm.push((heads * ml.qk_nope_head_dim as f64 + vw, c));
                    kept += c * vw + if self.flash { 4.0 * heads } else { 6.0 * heads * seq as f64 };
                    mm.push((h, c));
                }
                // Other mixers: their input projection's and output projection's products; the
                // scan in between is recomputed.
                other => {
                    let rows = match other {
                        Mixer::GatedDeltaNet(d) => {
                            (2 * d.key_heads * d.key_head_dim + 2 * d.value_heads * d.value_head_dim) as f64
                        }
                        Mixer::Kda(crate::model::KimiDeltaAttention { heads, head_dim, .. })
                        | Mixer::Lightning(crate::model::LightningAttention { heads, head_dim, .. }) => {
                            (4 * heads * head_dim) as f64
                        }
                        Mixer::Mamba(mb) => (2 * mb.inner + 2 * mb.groups * mb.state + mb.heads) as f64,
                        Mixer::Compressed(cm) => (cm.num_heads * cm.head_dim + cm.q_lora_rank) as f64,
                        Mixer::ShortConv(_) => 3.0 * h,
                        _ => 0.0,
                    };
                    if rows > 0.0 {
                        mm.extend([(rows, c), (h, c)]);
                    }
                }
            }
        }
        let mut mlp = |i: f64, gated: bool, fused: bool, times: f64| {
            for _ in 0..(times as u64).max(1) {
                if gated && fused {
                    mm.push((2.0 * i, self.mlp_c));
                } else if gated {
                    mm.extend([(i, self.mlp_c), (i, self.mlp_c)]);
                } else {
                    mm.push((i, self.mlp_c));
                }
                mm.push((h, c));
            }
        };
        match &g.ffn {
            Ffn::Dense(d) => mlp(d.intermediate_size as f64, d.gated, d.fused_gate_up, 1.0),
            Ffn::Moe(m) => {
                kept += m.experts_per_token as f64 * c * h + 8.0 * m.num_experts as f64;
                mlp(m.expert_intermediate as f64, m.gated, false, m.experts_per_token as f64);
                if m.shared_intermediate > 0 {
                    mlp(m.shared_intermediate as f64, m.gated, false, 1.0);
                }
            }
            Ffn::None => {}
        }
        // The first, third, fifth… product's output is kept.
        kept += mm.iter().step_by(2).map(|(w, b)| w * b).sum::<f64>();
        // Adapters keep each `lora_A` output, as without checkpointing: one per module the layer
        // has (fused projections are one module).
        if let Some(l) = &self.lora {
            let ab = if self.autocast { 2.0 } else { l.adapter_bytes };
            let mut modules: alloc::vec::Vec<LoraTarget> = alloc::vec::Vec::new();
            for m in &g.mixers {
                match m {
                    Mixer::Attention(st) if st.fused_qkv => modules.extend([LoraTarget::Qkv, LoraTarget::O]),
                    Mixer::Attention(_) | Mixer::Mla(_) => {
                        modules.extend([LoraTarget::Q, LoraTarget::K, LoraTarget::V, LoraTarget::O]);
                    }
                    _ => {}
                }
            }
            let ffn = |gated: bool, fused: bool| match (gated, fused) {
                (true, true) => &[LoraTarget::GateUp, LoraTarget::Down][..],
                (true, false) => &[LoraTarget::Gate, LoraTarget::Up, LoraTarget::Down][..],
                _ => &[LoraTarget::Up, LoraTarget::Down][..],
            };
            match &g.ffn {
                Ffn::Dense(d) => modules.extend_from_slice(ffn(d.gated, d.fused_gate_up)),
                Ffn::Moe(m) => modules.extend_from_slice(ffn(m.gated, false)),
                Ffn::None => {}
            }
            let adapted = modules.iter().map(|t| self.adapted(*t)).sum::<f64>();
            kept += adapted * l.rank * ab;
        }
        kept
    }

    /// The `hidden`-wide part of [`Saving::layer`]: its norms and what the projections reading
    /// the residual stream keep (with an MoE, each routed copy too). Tensor parallelism
    /// without sequence parallelism keeps it whole on every GPU of a group; the rest (heads,
    /// intermediate widths) divides.
    pub fn hidden_wide(&self, a: &Architecture, g: &LayerGroup) -> f64 {
        let h = a.hidden_size as f64;
        let mut bytes = g.norms as f64 * self.norm(h);
        for m in &g.mixers {
            bytes += self.mixer_input(h, m);
        }
        bytes += match &g.ffn {
            Ffn::Dense(mlp) => self.mlp_input(h, mlp.gated, mlp.fused_gate_up),
            Ffn::Moe(m) => {
                let k = m.experts_per_token as f64;
                let shared = if m.shared_intermediate > 0 { self.mlp_input(h, m.gated, false) } else { 0.0 };
                k * (self.c * h + self.mlp_input(h, m.gated, false)) + shared
            }
            Ffn::None => 0.0,
        };
        bytes
    }

    /// After the last layer: the final norm, the head's input (kept when the head trains or
    /// carries an adapter).
    pub fn head(&self, a: &Architecture) -> f64 {
        let h = a.hidden_size as f64;
        let input = if self.full {
            if self.autocast { 2.0 * h } else { self.c * h }
        } else {
            self.linear_inputs(h, self.e, 1.0, self.adapted(LoraTarget::Head))
        };
        self.norm(h) + input
    }

    /// A LoRA head's vocabulary-wide tensors, per token: what it keeps until the backward pass
    /// (one 16-bit vocabulary-wide tensor, measured with peft 0.21), and at the end of the
    /// forward pass `lora_B`'s output and its sum with the base logits in the adapters' dtype.
    pub fn head_adapter_kept(&self, a: &Architecture) -> f64 {
        if self.lora.is_some() && self.adapted(LoraTarget::Head) > 0.0 {
            self.c * a.vocab_size as f64
        } else {
            0.0
        }
    }

    /// See [`Saving::head_adapter_kept`]: the forward pass's transients.
    pub fn head_adapter_transient(&self, a: &Architecture) -> f64 {
        match &self.lora {
            Some(l) if self.adapted(LoraTarget::Head) > 0.0 => {
                let ab = if self.autocast { 2.0 } else { l.adapter_bytes };
                2.0 * ab * a.vocab_size as f64
            }
            _ => 0.0,
        }
    }
}

/// How the loss is computed over the vocabulary.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
pub enum LossKernel {
    /// The whole logits tensor, upcast to FP32 (transformers' `ForCausalLMLoss`).
    #[default]
    Full,
    /// The logits kept in 16 bits, the loss upcast chunk by chunk (torchtune, LitGPT).
    Chunked,
    /// A fused linear cross-entropy that never builds the logits (Liger, Unsloth, Cut
    /// Cross-Entropy).
    Fused,
}

impl LossKernel {
    /// Every kernel.
    pub const ALL: [LossKernel; 3] = [LossKernel::Full, LossKernel::Chunked, LossKernel::Fused];

    /// The id of the CLI and the link.
    pub const fn id(self) -> &'static str {
        match self {
            LossKernel::Full => "full",
            LossKernel::Chunked => "chunked",
            LossKernel::Fused => "fused",
        }
    }

    /// Parses an id.
    ///
    /// # Errors
    /// [`crate::error::Error::Invalid`] on `loss`.
    pub fn parse(s: &str) -> crate::error::Result<Self> {
        let t = s.trim();
        Ok(match t.to_ascii_lowercase().replace('_', "-").as_str() {
            "full" | "fp32" | "standard" | "default" => LossKernel::Full,
            "chunked" | "chunked-ce" | "chunk" => LossKernel::Chunked,
            "fused" | "fused-ce" | "liger" | "cce" | "cut-cross-entropy" | "flce" => LossKernel::Fused,
            _ => {
                return Err(crate::error::Error::invalid(
                    "loss",
                    alloc::format!("`{t}` is not a loss kernel; accepted: full chunked fused"),
                ));
            }
        })
    }

    /// Chunks of torchtune's `CEWithChunkedOutputLoss` (`num_output_chunks`).
    pub const CHUNKS: f64 = 8.0;

    /// Bytes per token at the loss's peak (the start of the backward pass), `compiled` when the
    /// upcast and the cross-entropy run inside `torch.compile`: Inductor reduces the 16-bit logits
    /// to a log-sum-exp a row without an FP32 copy and writes a 16-bit gradient. A compiled full
    /// loss (torchtitan's compiled loss, a compiled transformers model computing its loss in its
    /// forward) keeps the logits and builds their gradient, `2c·V`; a compiled chunked one
    /// (torchtune compiles its per-chunk upcast and cross-entropy) the logits and one chunk's
    /// gradient at a time.
    pub fn bytes_per_token(self, a: &Architecture, c: f64, compiled: bool) -> f64 {
        let v = a.vocab_size as f64;
        let h = a.hidden_size as f64;
        match self {
            LossKernel::Full if compiled => 2.0 * c * v,
            LossKernel::Full => 12.0 * v,
            LossKernel::Chunked if compiled => (c + c / Self::CHUNKS) * v,
            LossKernel::Chunked => (c + 4.0) * v,
            LossKernel::Fused => 8.0 * h + c * h,
        }
    }
}
