"""Model files for the llama.cpp check: real architectures' shapes, no data.

Each spec below is a GGUF as `convert_hf_to_gguf.py` would write it for a real model (its
metadata keys and tensor names, the shapes of the published checkpoint or a few of its layers),
written with the `gguf` package's writer, header first; the tensor data region is then extended
with `truncate`, a sparse file of zeros that llama.cpp maps but never reads (the driver loads
with `no_alloc`). A vocabulary of the real size is written as SentencePiece pieces (the 256 byte
pieces llama.cpp looks for, then placeholders), so the logits and output buffers have their real
widths.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import gguf  # the gguf-py of the llama.cpp release under test (on PYTHONPATH)
import numpy as np

F32, F16, Q8_0, Q4_0, Q4_K, Q6_K, MXFP4 = (
    gguf.GGMLQuantizationType.F32,
    gguf.GGMLQuantizationType.F16,
    gguf.GGMLQuantizationType.Q8_0,
    gguf.GGMLQuantizationType.Q4_0,
    gguf.GGMLQuantizationType.Q4_K,
    gguf.GGMLQuantizationType.Q6_K,
    gguf.GGMLQuantizationType.MXFP4,
)


@dataclass
class Spec:
    name: str
    arch: str
    source: str
    meta: dict
    vocab: int
    tensors: list = field(default_factory=list)  # (name, ggml shape ne0-first, type)

    def t(self, name, shape, typ=Q8_0):
        if typ not in (F32, F16) and shape[0] % 256 and typ in (Q4_K, Q6_K):
            typ = Q8_0
        if len(shape) == 1:
            typ = F32
        self.tensors.append((name, list(shape), typ))

    def attention(self, p, hidden, *, q, kv, out, typ, qk_norm=0):
        """Layer `p`'s Q, K, V and output projections (Q `q` wide, K and V `kv`, the output
        `out` wide), then its Q/K norms of `qk_norm` when there are some."""
        self.t(p + "attn_q.weight", [hidden, q], typ)
        self.t(p + "attn_k.weight", [hidden, kv], typ)
        self.t(p + "attn_v.weight", [hidden, kv], typ)
        self.t(p + "attn_output.weight", [out, hidden], typ)
        if qk_norm:
            self.t(p + "attn_q_norm.weight", [qk_norm])
            self.t(p + "attn_k_norm.weight", [qk_norm])

    def mla(self, p, hidden, *, heads, q_lora, kv_lora, rope, nope, v_hd, typ):
        """Layer `p`'s multi-head latent attention as convert_hf_to_gguf.py writes it: the
        query (through its low-rank `q_a`/`q_b` when `q_lora`), the latent and its norm, the
        key/value up-projection split into `attn_k_b` and `attn_v_b`, the output."""
        if q_lora:
            self.t(p + "attn_q_a.weight", [hidden, q_lora], typ)
            self.t(p + "attn_q_a_norm.weight", [q_lora])
            self.t(p + "attn_q_b.weight", [q_lora, heads * (nope + rope)], typ)
        else:
            self.t(p + "attn_q.weight", [hidden, heads * (nope + rope)], typ)
        self.t(p + "attn_kv_a_mqa.weight", [hidden, kv_lora + rope], typ)
        self.t(p + "attn_kv_a_norm.weight", [kv_lora])
        self.t(p + "attn_k_b.weight", [nope, kv_lora, heads], typ)
        self.t(p + "attn_v_b.weight", [kv_lora, v_hd, heads], typ)
        self.t(p + "attn_output.weight", [heads * v_hd, hidden], typ)

    def moe_ffn(self, p, hidden, *, experts, eff, shared, typ):
        """Layer `p`'s routed experts (sigmoid router with its score bias) and shared experts."""
        self.t(p + "ffn_gate_inp.weight", [hidden, experts], F32)
        self.t(p + "exp_probs_b.bias", [experts])
        self.t(p + "ffn_gate_exps.weight", [hidden, eff, experts], typ)
        self.t(p + "ffn_up_exps.weight", [hidden, eff, experts], typ)
        self.t(p + "ffn_down_exps.weight", [eff, hidden, experts], typ)
        self.t(p + "ffn_gate_shexp.weight", [hidden, shared * eff], typ)
        self.t(p + "ffn_up_shexp.weight", [hidden, shared * eff], typ)
        self.t(p + "ffn_down_shexp.weight", [shared * eff, hidden], typ)

    def gated_ffn(self, p, hidden, ffn, typ):
        """Layer `p`'s gate, up and down projections."""
        self.t(p + "ffn_gate.weight", [hidden, ffn], typ)
        self.t(p + "ffn_up.weight", [hidden, ffn], typ)
        self.t(p + "ffn_down.weight", [ffn, hidden], typ)


def _nbytes(shape, typ) -> int:
    block, size = gguf.GGML_QUANT_SIZES[typ]
    n = 1
    for d in shape:
        n *= d
    assert shape[0] % block == 0, (shape, typ)
    return n // block * size


def write(spec: Spec, out_dir: Path) -> Path:
    path = out_dir / f"{spec.name}.gguf"
    w = gguf.GGUFWriter(str(path), spec.arch)
    w.add_name(spec.name)
    for key, value in spec.meta.items():
        full = key if key.startswith(("general.", "tokenizer.")) else f"{spec.arch}.{key}"
        if isinstance(value, bool):
            w.add_bool(full, value)
        elif isinstance(value, int):
            w.add_uint32(full, value)
        elif isinstance(value, float):
            w.add_float32(full, value)
        elif isinstance(value, str):
            w.add_string(full, value)
        elif isinstance(value, list) and value and isinstance(value[0], bool):
            w.add_array(full, value)
        elif isinstance(value, list):
            w.add_array(full, [int(v) for v in value] if isinstance(value[0], int) else value)
        else:
            raise TypeError(key)
    pieces = [f"<0x{b:02X}>" for b in range(256)]
    # (Phi-3's vocabulary rules look up <|endoftext|>.)
    specials = ["<unk>", "<s>", "</s>", "<|endoftext|>"]
    tokens = specials[:3] + pieces + specials[3:] + [f"t{i}" for i in range(spec.vocab - len(specials) - len(pieces))]
    w.add_tokenizer_model("llama")
    w.add_token_list(tokens)
    w.add_token_scores([0.0] * spec.vocab)
    w.add_token_types([3] * 3 + [6] * 256 + [3] + [1] * (spec.vocab - 260))
    w.add_bos_token_id(1)
    w.add_eos_token_id(2)
    w.add_unk_token_id(0)
    total = 0
    for name, shape, typ in spec.tensors:
        nb = _nbytes(shape, typ)
        w.add_tensor_info(name, list(reversed(shape)), np.dtype(np.float32) if typ == F32 else np.dtype(np.float16), nb, raw_dtype=typ)
        total += gguf.GGUFWriter.ggml_pad(nb, w.data_alignment)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    w.close()
    size = os.path.getsize(path)
    start = gguf.GGUFWriter.ggml_pad(size, w.data_alignment)
    os.truncate(path, start + total)
    return path


def llama_like(name, arch, source, *, vocab, hidden, layers, heads, kv_heads, ffn, head_dim=None,
               tied=False, typ=Q8_0, extra_meta=None, qk_norm=False, ctx=131072):
    hd = head_dim or hidden // heads
    meta = {
        "context_length": ctx,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": kv_heads,
        "attention.layer_norm_rms_epsilon": 1e-5,
        "rope.freq_base": 500000.0,
        "rope.dimension_count": hd,
        "attention.key_length": hd,
        "attention.value_length": hd,
        "vocab_size": vocab,
    }
    meta.update(extra_meta or {})
    s = Spec(name, arch, source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    for i in range(layers):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        s.attention(p, hidden, q=heads * hd, kv=kv_heads * hd, out=heads * hd, typ=typ, qk_norm=hd if qk_norm else 0)
        s.t(p + "ffn_norm.weight", [hidden])
        s.gated_ffn(p, hidden, ffn, typ)
    s.t("output_norm.weight", [hidden])
    if not tied:
        s.t("output.weight", [hidden, vocab], typ)
    return s


def gemma2(name, source, *, vocab, hidden, layers, heads, kv_heads, head_dim, ffn, window, typ=Q8_0):
    meta = {
        "context_length": 8192,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": kv_heads,
        "attention.layer_norm_rms_epsilon": 1e-6,
        "attention.key_length": head_dim,
        "attention.value_length": head_dim,
        "attn_logit_softcapping": 50.0,
        "final_logit_softcapping": 30.0,
        "attention.sliding_window": window,
    }
    s = Spec(name, "gemma2", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    for i in range(layers):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        s.attention(p, hidden, q=heads * head_dim, kv=kv_heads * head_dim, out=heads * head_dim, typ=typ)
        s.t(p + "post_attention_norm.weight", [hidden])
        s.t(p + "ffn_norm.weight", [hidden])
        s.gated_ffn(p, hidden, ffn, typ)
        s.t(p + "post_ffw_norm.weight", [hidden])
    s.t("output_norm.weight", [hidden])
    return s


def gemma3(name, source, *, vocab, hidden, layers, heads, kv_heads, head_dim, ffn, window, typ=Q8_0):
    meta = {
        "context_length": 32768,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": kv_heads,
        "attention.layer_norm_rms_epsilon": 1e-6,
        "attention.key_length": head_dim,
        "attention.value_length": head_dim,
        "attention.sliding_window": window,
        "rope.freq_base": 1000000.0,
    }
    s = Spec(name, "gemma3", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    for i in range(layers):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        s.attention(p, hidden, q=heads * head_dim, kv=kv_heads * head_dim, out=heads * head_dim, typ=typ, qk_norm=head_dim)
        s.t(p + "post_attention_norm.weight", [hidden])
        s.t(p + "ffn_norm.weight", [hidden])
        s.gated_ffn(p, hidden, ffn, typ)
        s.t(p + "post_ffw_norm.weight", [hidden])
    s.t("output_norm.weight", [hidden])
    return s


def gpt_oss(name, source, *, layers, typ=MXFP4):
    hidden, heads, kv_heads, hd, experts, used, eff, vocab = 2880, 64, 8, 64, 32, 4, 2880, 201088
    meta = {
        "context_length": 131072,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": eff,
        "attention.head_count": heads,
        "attention.head_count_kv": kv_heads,
        "rope.freq_base": 150000.0,
        "attention.layer_norm_rms_epsilon": 1e-5,
        "expert_count": experts,
        "expert_used_count": used,
        "attention.key_length": hd,
        "attention.value_length": hd,
        "attention.sliding_window": 128,
        "expert_feed_forward_length": eff,
        "rope.scaling.type": "yarn",
        "rope.scaling.factor": 32.0,
        "rope.scaling.original_context_length": 4096,
    }
    s = Spec(name, "gpt-oss", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], Q8_0)
    for i in range(layers):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        for t, w in (("attn_q", heads * hd), ("attn_k", kv_heads * hd), ("attn_v", kv_heads * hd)):
            s.t(p + t + ".weight", [hidden, w], Q8_0)
            s.t(p + t + ".bias", [w])
        s.t(p + "attn_output.weight", [heads * hd, hidden], Q8_0)
        s.t(p + "attn_output.bias", [hidden])
        s.t(p + "attn_sinks.weight", [heads])
        s.t(p + "post_attention_norm.weight", [hidden])
        s.t(p + "ffn_gate_inp.weight", [hidden, experts], F32)
        s.t(p + "ffn_gate_inp.bias", [experts])
        for t in ("ffn_gate_exps", "ffn_up_exps"):
            s.t(p + t + ".weight", [hidden, eff, experts], typ)
            s.t(p + t + ".bias", [eff, experts], F32)
        s.t(p + "ffn_down_exps.weight", [eff, hidden, experts], typ)
        s.t(p + "ffn_down_exps.bias", [hidden, experts], F32)
    s.t("output_norm.weight", [hidden])
    s.t("output.weight", [hidden, vocab], Q8_0)
    return s


def qwen2(name, source, *, vocab, hidden, layers, heads, kv_heads, ffn, tied, typ=Q8_0):
    s = llama_like(name, "qwen2", source, vocab=vocab, hidden=hidden, layers=layers, heads=heads,
                   kv_heads=kv_heads, ffn=ffn, tied=tied, typ=typ,
                   extra_meta={"rope.freq_base": 1000000.0})
    hd = hidden // heads
    order = []
    for name_, shape, t in s.tensors:
        order.append((name_, shape, t))
        for proj, width in (("attn_q", heads * hd), ("attn_k", kv_heads * hd), ("attn_v", kv_heads * hd)):
            if name_.endswith(proj + ".weight"):
                order.append((name_.replace(".weight", ".bias"), [width], F32))
    s.tensors = order
    return s


def deepseek2(name, source, *, vocab, hidden, layers, heads, q_lora, kv_lora, rope, nope, v_hd,
              dense_ffn, experts, used, shared, eff, dense_first, typ=Q8_0, indexer=None):
    """DeepSeek V2/V3 (and Kimi K2) as convert_hf_to_gguf.py writes them today: MLA with the
    key/value up-projection split into `attn_k_b` and `attn_v_b` (the latent cached once)."""
    meta = {
        "context_length": 163840,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": dense_ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": 1,
        "rope.freq_base": 10000.0,
        "attention.layer_norm_rms_epsilon": 1e-6,
        "expert_used_count": used,
        "attention.key_length": kv_lora + rope,
        "attention.value_length": kv_lora,
        "attention.key_length_mla": nope + rope,
        "attention.value_length_mla": v_hd,
        "leading_dense_block_count": dense_first,
        "attention.kv_lora_rank": kv_lora,
        "expert_feed_forward_length": eff,
        "expert_count": experts,
        "expert_shared_count": shared,
        "expert_weights_scale": 2.5,
        "expert_weights_norm": True,
        "expert_gating_func": 2,
        "rope.dimension_count": rope,
    }
    if q_lora:
        meta["attention.q_lora_rank"] = q_lora
    if indexer:
        # DeepSeek V3.2 (llama.cpp's `deepseek32`): the lightning indexer's heads and width.
        ix_heads, ix_dim = indexer
        meta.update({"attention.indexer.head_count": ix_heads, "attention.indexer.key_length": ix_dim,
                     "attention.indexer.top_k": 2048})
    s = Spec(name, "deepseek32" if indexer else "deepseek2", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    for i in range(layers):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        s.mla(p, hidden, heads=heads, q_lora=q_lora, kv_lora=kv_lora, rope=rope, nope=nope, v_hd=v_hd, typ=typ)
        s.t(p + "ffn_norm.weight", [hidden])
        if indexer:
            ix_heads, ix_dim = indexer
            s.t(p + "indexer.k_norm.weight", [ix_dim])
            s.t(p + "indexer.k_norm.bias", [ix_dim])
            s.t(p + "indexer.proj.weight", [hidden, ix_heads], F16)
            s.t(p + "indexer.attn_k.weight", [hidden, ix_dim], typ)
            s.t(p + "indexer.attn_q_b.weight", [q_lora, ix_heads * ix_dim], typ)
        if i < dense_first:
            s.gated_ffn(p, hidden, dense_ffn, typ)
        else:
            s.moe_ffn(p, hidden, experts=experts, eff=eff, shared=shared, typ=typ)
    s.t("output_norm.weight", [hidden])
    s.t("output.weight", [hidden, vocab], typ)
    return s


def kimi_linear(name, source, *, pattern, vocab, hidden, heads, kda_dim, kv_lora, rope, nope, v_hd,
                dense_ffn, experts, used, shared, eff, dense_first, conv=4, typ=Q8_0):
    """Kimi Linear (llama.cpp's `kimi-linear`): Kimi Delta Attention layers (`K`, a KV head count
    of 0) between MLA layers (`M`), a dense first layer then MoE with a shared expert."""
    layers = len(pattern)
    meta = {
        "context_length": 1048576,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": dense_ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": [0 if c == "K" else 1 for c in pattern],
        "rope.freq_base": 10000.0,
        "attention.layer_norm_rms_epsilon": 1e-5,
        "attention.key_length": kv_lora + rope,
        "attention.value_length": kv_lora,
        "attention.key_length_mla": nope + rope,
        "attention.value_length_mla": v_hd,
        "attention.kv_lora_rank": kv_lora,
        "rope.dimension_count": rope,
        "ssm.conv_kernel": conv,
        "kda.head_dim": kda_dim,
        "leading_dense_block_count": dense_first,
        "expert_used_count": used,
        "expert_feed_forward_length": eff,
        "expert_count": experts,
        "expert_shared_count": shared,
        "expert_weights_scale": 2.446,
        "expert_weights_norm": True,
        "expert_gating_func": 2,
    }
    s = Spec(name, "kimi-linear", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    w = heads * kda_dim
    for i, c in enumerate(pattern):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        if c == "K":
            for x in "qkv":
                s.t(p + f"ssm_conv1d_{x}.weight", [conv, 1, w], F32)
            s.t(p + "attn_q.weight", [hidden, w], typ)
            s.t(p + "attn_k.weight", [hidden, w], typ)
            s.t(p + "attn_v.weight", [hidden, w], typ)
            s.t(p + "ssm_f_a.weight", [hidden, kda_dim], typ)
            s.t(p + "ssm_f_b.weight", [kda_dim, w], typ)
            s.t(p + "ssm_beta.weight", [hidden, heads], F32)
            s.t(p + "ssm_a", [1, heads], F32)
            s.t(p + "ssm_dt.bias", [w])
            s.t(p + "ssm_g_a.weight", [hidden, kda_dim], typ)
            s.t(p + "ssm_g_b.weight", [kda_dim, w], typ)
            s.t(p + "ssm_norm.weight", [kda_dim])
            s.t(p + "attn_output.weight", [w, hidden], typ)
        else:
            s.mla(p, hidden, heads=heads, q_lora=0, kv_lora=kv_lora, rope=rope, nope=nope, v_hd=v_hd, typ=typ)
        s.t(p + "ffn_norm.weight", [hidden])
        if i < dense_first:
            s.gated_ffn(p, hidden, dense_ffn, typ)
        else:
            s.moe_ffn(p, hidden, experts=experts, eff=eff, shared=shared, typ=typ)
    s.t("output_norm.weight", [hidden])
    s.t("output.weight", [hidden, vocab], typ)
    return s


def nemotron_h(name, source, *, pattern, vocab, hidden, heads, kv_heads, head_dim, ffn, ssm_heads,
               ssm_head_dim, state, groups, conv=4, typ=Q8_0):
    """NVIDIA Nemotron-H (Mamba-2, attention and MLP layers, one kind per layer: `M`, `*`, `-` as in
    the config's `hybrid_override_pattern`)."""
    inner = ssm_heads * ssm_head_dim
    meta = {
        "context_length": 131072,
        "embedding_length": hidden,
        "block_count": len(pattern),
        "feed_forward_length": [ffn if c == "-" else 0 for c in pattern],
        "attention.head_count": heads,
        "attention.head_count_kv": [kv_heads if c == "*" else 0 for c in pattern],
        "attention.key_length": head_dim,
        "attention.value_length": head_dim,
        "attention.layer_norm_rms_epsilon": 1e-5,
        "attention.layer_norm_epsilon": 1e-5,
        "ssm.conv_kernel": conv,
        "ssm.inner_size": inner,
        "ssm.state_size": state,
        "ssm.time_step_rank": ssm_heads,
        "ssm.group_count": groups,
        "rope.freq_base": 10000.0,
    }
    s = Spec(name, "nemotron_h", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    conv_dim = inner + 2 * groups * state
    for i, c in enumerate(pattern):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        if c == "M":
            s.t(p + "ssm_in.weight", [hidden, 2 * inner + 2 * groups * state + ssm_heads], typ)
            s.t(p + "ssm_conv1d.weight", [conv, conv_dim], F32)
            s.t(p + "ssm_conv1d.bias", [conv_dim])
            s.t(p + "ssm_dt.bias", [ssm_heads])
            s.t(p + "ssm_a", [1, ssm_heads], F32)
            s.t(p + "ssm_d", [1, ssm_heads], F32)
            s.t(p + "ssm_norm.weight", [inner // groups, groups], F32)
            s.t(p + "ssm_out.weight", [inner, hidden], typ)
        elif c == "*":
            s.attention(p, hidden, q=heads * head_dim, kv=kv_heads * head_dim, out=heads * head_dim, typ=typ)
        else:
            s.t(p + "ffn_up.weight", [hidden, ffn], typ)
            s.t(p + "ffn_down.weight", [ffn, hidden], typ)
    s.t("output_norm.weight", [hidden])
    s.t("output.weight", [hidden, vocab], typ)
    return s


def qwen35(name, source, *, pattern, vocab, hidden, heads, kv_heads, head_dim, ffn, k_heads, v_heads,
           k_dim, v_dim, conv=4, typ=Q8_0):
    """Qwen3.5 (Gated DeltaNet `L` and gated full attention `F` layers, dense feed-forwards) as
    convert_hf_to_gguf.py writes it: the linear layers' widths in the `ssm.*` keys."""
    key_dim, value_dim = k_heads * k_dim, v_heads * v_dim
    meta = {
        "context_length": 262144,
        "embedding_length": hidden,
        "block_count": len(pattern),
        "feed_forward_length": ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": kv_heads,
        "attention.key_length": head_dim,
        "attention.value_length": head_dim,
        "attention.layer_norm_rms_epsilon": 1e-6,
        "rope.freq_base": 10000000.0,
        "rope.dimension_count": 64,
        "rope.dimension_sections": [11, 11, 10, 0],
        "ssm.conv_kernel": conv,
        "ssm.inner_size": value_dim,
        "ssm.state_size": k_dim,
        "ssm.time_step_rank": v_heads,
        "ssm.group_count": k_heads,
        "full_attention_interval": pattern.index("F") + 1,
    }
    s = Spec(name, "qwen35", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    for i, c in enumerate(pattern):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        s.t(p + "post_attention_norm.weight", [hidden])
        if c == "L":
            s.t(p + "attn_qkv.weight", [hidden, 2 * key_dim + value_dim], typ)
            s.t(p + "attn_gate.weight", [hidden, value_dim], typ)
            s.t(p + "ssm_conv1d.weight", [conv, 2 * key_dim + value_dim], F32)
            s.t(p + "ssm_dt.bias", [v_heads])
            s.t(p + "ssm_a", [v_heads])
            s.t(p + "ssm_beta.weight", [hidden, v_heads], typ if hidden % 32 == 0 else F32)
            s.t(p + "ssm_alpha.weight", [hidden, v_heads], typ if hidden % 32 == 0 else F32)
            s.t(p + "ssm_norm.weight", [v_dim])
            s.t(p + "ssm_out.weight", [value_dim, hidden], typ)
        else:
            s.attention(p, hidden, q=heads * head_dim * 2, kv=kv_heads * head_dim, out=heads * head_dim, typ=typ, qk_norm=head_dim)
        s.gated_ffn(p, hidden, ffn, typ)
    s.t("output_norm.weight", [hidden])
    s.t("output.weight", [hidden, vocab], typ)
    return s


def lfm2(name, source, *, attn_layers, layers, vocab, hidden, heads, kv_heads, ffn, l_cache=3, typ=Q8_0):
    """Liquid LFM2: gated short-convolution layers and GQA attention layers (`full_attn_idxs`)."""
    meta = {
        "context_length": 128000,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": [kv_heads if i in attn_layers else 0 for i in range(layers)],
        "attention.layer_norm_rms_epsilon": 1e-5,
        "rope.freq_base": 1000000.0,
        "shortconv.l_cache": l_cache,
    }
    s = Spec(name, "lfm2", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    hd = hidden // heads
    for i in range(layers):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        if i in attn_layers:
            s.attention(p, hidden, q=hidden, kv=kv_heads * hd, out=hidden, typ=typ, qk_norm=hd)
        else:
            s.t(p + "shortconv.conv.weight", [l_cache, hidden], F32)
            s.t(p + "shortconv.in_proj.weight", [hidden, 3 * hidden], typ)
            s.t(p + "shortconv.out_proj.weight", [hidden, hidden], typ)
        s.t(p + "ffn_norm.weight", [hidden])
        s.gated_ffn(p, hidden, ffn, typ)
    s.t("token_embd_norm.weight", [hidden])
    return s


def phi3(name, source, *, vocab, hidden, layers, heads, kv_heads, ffn, typ=Q8_0):
    """Phi-3: fused `attn_qkv`, and gate and up fused in one `ffn_up` of twice the width."""
    hd = hidden // heads
    meta = {
        "context_length": 4096,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": kv_heads,
        "attention.layer_norm_rms_epsilon": 1e-5,
        "rope.dimension_count": hd,
        "rope.freq_base": 10000.0,
        "rope.scaling.original_context_length": 4096,
    }
    s = Spec(name, "phi3", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    for i in range(layers):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        s.t(p + "attn_qkv.weight", [hidden, hidden + 2 * kv_heads * hd], typ)
        s.t(p + "attn_output.weight", [hidden, hidden], typ)
        s.t(p + "ffn_norm.weight", [hidden])
        s.t(p + "ffn_up.weight", [hidden, 2 * ffn], typ)
        s.t(p + "ffn_down.weight", [ffn, hidden], typ)
    s.t("output_norm.weight", [hidden])
    s.t("output.weight", [hidden, vocab], typ)
    return s


def starcoder2(name, source, *, vocab, hidden, layers, heads, kv_heads, ffn, typ=Q8_0):
    """StarCoder2: layer norms with biases, biased projections, a plain GELU MLP."""
    hd = hidden // heads
    meta = {
        "context_length": 16384,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": kv_heads,
        "attention.layer_norm_epsilon": 1e-5,
        "rope.freq_base": 999999.4420358813,
    }
    s = Spec(name, "starcoder2", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    for i in range(layers):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        s.t(p + "attn_norm.bias", [hidden])
        for t_, w in (("attn_q", hidden), ("attn_k", kv_heads * hd), ("attn_v", kv_heads * hd)):
            s.t(p + t_ + ".weight", [hidden, w], typ)
            s.t(p + t_ + ".bias", [w])
        s.t(p + "attn_output.weight", [hidden, hidden], typ)
        s.t(p + "attn_output.bias", [hidden])
        s.t(p + "ffn_norm.weight", [hidden])
        s.t(p + "ffn_norm.bias", [hidden])
        s.t(p + "ffn_up.weight", [hidden, ffn], typ)
        s.t(p + "ffn_up.bias", [ffn])
        s.t(p + "ffn_down.weight", [ffn, hidden], typ)
        s.t(p + "ffn_down.bias", [hidden])
    s.t("output_norm.weight", [hidden])
    s.t("output_norm.bias", [hidden])
    return s


def olmo2(name, source, *, vocab, hidden, layers, heads, kv_heads, ffn, window=None, typ=Q8_0):
    """OLMo 2 / Olmo 3 (llama.cpp's `olmo2`): Q/K norms over the whole projection, norms after
    attention and the feed-forward; Olmo 3 slides 3 layers of 4 (llama.cpp's default period)."""
    hd = hidden // heads
    meta = {
        "context_length": 65536,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": kv_heads,
        "attention.layer_norm_rms_epsilon": 1e-6,
        "rope.freq_base": 500000.0,
    }
    if window:
        meta["attention.sliding_window"] = window
    s = Spec(name, "olmo2", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    for i in range(layers):
        p = f"blk.{i}."
        s.attention(p, hidden, q=heads * hd, kv=kv_heads * hd, out=heads * hd, typ=typ)
        s.t(p + "attn_q_norm.weight", [heads * hd])
        s.t(p + "attn_k_norm.weight", [kv_heads * hd])
        s.t(p + "post_attention_norm.weight", [hidden])
        s.gated_ffn(p, hidden, ffn, typ)
        s.t(p + "post_ffw_norm.weight", [hidden])
    s.t("output_norm.weight", [hidden])
    s.t("output.weight", [hidden, vocab], typ)
    return s


def cohere2(name, source, *, vocab, hidden, layers, heads, kv_heads, ffn, window, typ=Q8_0):
    """Command R7B (llama.cpp's `cohere2`): one norm feeding attention and the feed-forward in
    parallel, tied embeddings, 3 sliding layers of 4."""
    hd = hidden // heads
    meta = {
        "context_length": 8192,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": kv_heads,
        "attention.layer_norm_epsilon": 1e-5,
        "attention.sliding_window": window,
        "logit_scale": 0.25,
        "rope.freq_base": 50000.0,
        "rope.dimension_count": hd,
    }
    s = Spec(name, "cohere2", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    for i in range(layers):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        s.attention(p, hidden, q=heads * hd, kv=kv_heads * hd, out=heads * hd, typ=typ)
        s.gated_ffn(p, hidden, ffn, typ)
    s.t("output_norm.weight", [hidden])
    return s


def mamba(name, source, *, vocab, hidden, layers, inner, state, dt_rank, conv=4, typ=Q8_0, dt_b_c_rms=False):
    """Mamba-1 (llama.cpp's `mamba`: Mamba, Falcon Mamba): a selective scan per layer, no attention."""
    meta = {
        "context_length": 1048576,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": 0,
        "attention.head_count": 0,
        "attention.layer_norm_rms_epsilon": 1e-5,
        "ssm.conv_kernel": conv,
        "ssm.inner_size": inner,
        "ssm.state_size": state,
        "ssm.time_step_rank": dt_rank,
    }
    if dt_b_c_rms:
        meta["ssm.dt_b_c_rms"] = True
    s = Spec(name, "mamba", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    for i in range(layers):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        s.t(p + "ssm_in.weight", [hidden, 2 * inner], typ)
        s.t(p + "ssm_conv1d.weight", [conv, inner], F32)
        s.t(p + "ssm_conv1d.bias", [inner])
        s.t(p + "ssm_x.weight", [inner, dt_rank + 2 * state], typ)
        s.t(p + "ssm_dt.weight", [dt_rank, inner], typ)
        s.t(p + "ssm_dt.bias", [inner])
        s.t(p + "ssm_a", [state, inner], F32)
        s.t(p + "ssm_d", [inner])
        s.t(p + "ssm_out.weight", [inner, hidden], typ)
    s.t("output_norm.weight", [hidden])
    s.t("output.weight", [hidden, vocab], typ)
    return s


def hrm_text(name, source, *, vocab, hidden, heads, head_dim, ffn, per_stack, h_cycles, l_cycles, typ=Q8_0):
    """HRM-Text as llama.cpp's converter writes it: the low stack's layers in blocks
    [0, per_stack), the high stack's in [per_stack, 2 × per_stack), no norm weights, the low
    stack's initial state; `block_count` is the cache layers of every run of a stack."""
    slots = per_stack * h_cycles * (l_cycles + 1)
    meta = {
        "context_length": 2048,
        "embedding_length": hidden,
        "block_count": slots,
        "feed_forward_length": ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": heads,
        "attention.layer_norm_rms_epsilon": 1e-6,
        "rope.freq_base": 10000.0,
        "rope.dimension_count": head_dim,
        "attention.key_length": head_dim,
        "attention.value_length": head_dim,
        "embedding_scale": 50.0,
        "hrm.layers_per_stack": per_stack,
        "hrm.h_cycles": h_cycles,
        "hrm.l_cycles": l_cycles,
        "hrm.prefix_lm": True,
    }
    s = Spec(name, "hrm_text", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    s.t("output.weight", [hidden, vocab], typ)
    s.t("hrm.z_l_init", [hidden])
    for i in range(2 * per_stack):
        p = f"blk.{i}."
        s.attention(p, hidden, q=heads * head_dim, kv=heads * head_dim, out=heads * head_dim, typ=typ)
        s.t(p + "attn_gate.weight", [hidden, heads * head_dim], typ)
        s.gated_ffn(p, hidden, ffn, typ)
    return s


def granite_swa(name, source, *, pattern, vocab, hidden, heads, kv_heads, ffn, window, typ=Q8_0):
    """IBM's Granite with sliding layers (llama.cpp's `granite_swa`): the header's
    `sliding_window_pattern` flags each layer, a learned sink a head on every layer, Granite's
    scales, a tied head."""
    hd = hidden // heads
    meta = {
        "context_length": 8192,
        "embedding_length": hidden,
        "block_count": len(pattern),
        "feed_forward_length": ffn,
        "attention.head_count": heads,
        "attention.head_count_kv": kv_heads,
        "attention.layer_norm_rms_epsilon": 1e-5,
        "rope.freq_base": 10000.0,
        "rope.dimension_count": hd,
        "logit_scale": 1.0,
        "residual_scale": 1.0,
        "embedding_scale": 1.0,
        "attention.scale": 1.0 / hd,
        "attention.sliding_window": window,
        "attention.sliding_window_pattern": [c == "S" for c in pattern],
    }
    s = Spec(name, "granite_swa", source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    for i in range(len(pattern)):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        s.attention(p, hidden, q=heads * hd, kv=kv_heads * hd, out=heads * hd, typ=typ)
        s.t(p + "attn_sinks.weight", [heads])
        s.t(p + "ffn_norm.weight", [hidden])
        s.gated_ffn(p, hidden, ffn, typ)
    s.t("output_norm.weight", [hidden])
    return s


def specs() -> list[Spec]:
    """The architectures checked, each with the published model's widths (fewer layers where the
    buffers do not depend on their number: the compute buffer is one layer's working set, the
    KV cache scales per layer and is checked per layer)."""
    return [
        llama_like("llama-3.2-1b", "llama", "meta-llama/Llama-3.2-1B config.json", vocab=128256,
                   hidden=2048, layers=16, heads=32, kv_heads=8, ffn=8192, tied=True),
        llama_like("mistral-7b-v0.3-4l", "llama", "mistralai/Mistral-7B-v0.3 config.json (4 of 32 layers)",
                   vocab=32768, hidden=4096, layers=4, heads=32, kv_heads=8, ffn=14336),
        llama_like("qwen3-0.6b", "qwen3", "Qwen/Qwen3-0.6B config.json", vocab=151936, hidden=1024,
                   layers=28, heads=16, kv_heads=8, head_dim=128, ffn=3072, tied=True, qk_norm=True,
                   extra_meta={"rope.freq_base": 1000000.0}),
        llama_like("qwen3-8b-4l", "qwen3", "Qwen/Qwen3-8B config.json (4 of 36 layers)", vocab=151936,
                   hidden=4096, layers=4, heads=32, kv_heads=8, head_dim=128, ffn=12288, qk_norm=True),
        moe_like("qwen3-30b-a3b-4l", "qwen3moe", "Qwen/Qwen3-30B-A3B config.json (4 of 48 layers)",
                 vocab=151936, hidden=2048, layers=4, heads=32, kv_heads=4, head_dim=128, experts=128,
                 used=8, expert_ffn=768),
        gemma2("gemma-2-2b", "google/gemma-2-2b config.json", vocab=256000, hidden=2304, layers=26,
               heads=8, kv_heads=4, head_dim=256, ffn=9216, window=4096),
        gemma3("gemma-3-1b", "google/gemma-3-1b-it config.json", vocab=262144, hidden=1152, layers=26,
               heads=4, kv_heads=1, head_dim=256, ffn=6912, window=512),
        gemma3("gemma-3-12b-6l", "google/gemma-3-12b-it text_config (6 of 48 layers)", vocab=262208,
               hidden=3840, layers=6, heads=16, kv_heads=8, head_dim=256, ffn=15360, window=1024),
        qwen2("qwen2.5-0.5b", "Qwen/Qwen2.5-0.5B config.json", vocab=151936, hidden=896, layers=24,
              heads=14, kv_heads=2, ffn=4864, tied=True),
        qwen2("qwen2.5-7b-4l", "Qwen/Qwen2.5-7B config.json (4 of 28 layers)", vocab=152064, hidden=3584,
              layers=4, heads=28, kv_heads=4, ffn=18944, tied=False),
        gpt_oss("gpt-oss-20b-4l", "openai/gpt-oss-20b config.json (4 of 24 layers)", layers=4),
        deepseek2("deepseek-v3-4l", "deepseek-ai/DeepSeek-V3 config.json (4 of 61 layers: 3 dense, 1 MoE)",
                  vocab=129280, hidden=7168, layers=4, heads=128, q_lora=1536, kv_lora=512, rope=64, nope=128,
                  v_hd=128, dense_ffn=18432, experts=256, used=8, shared=1, eff=2048, dense_first=3),
        nemotron_h("nemotron-nano-9b-v2-8l", "nvidia/NVIDIA-Nemotron-Nano-9B-v2 config.json (its first 8 layers)",
                   pattern="M-M-M*-M", vocab=131072, hidden=4480, heads=40, kv_heads=8, head_dim=128,
                   ffn=15680, ssm_heads=128, ssm_head_dim=80, state=128, groups=8),
        qwen35("qwen3.5-9b-8l", "Qwen/Qwen3.5-9B text_config (8 of 32 layers)", pattern="LLLFLLLF",
               vocab=248320, hidden=4096, heads=16, kv_heads=4, head_dim=256, ffn=12288, k_heads=16,
               v_heads=32, k_dim=128, v_dim=128),
        lfm2("lfm2-1.2b", "LiquidAI/LFM2-1.2B config.json (block_ff_dim 12288 auto-adjusted to 8192)",
             attn_layers={2, 5, 8, 10, 12, 14}, layers=16, vocab=65536, hidden=2048, heads=32, kv_heads=8,
             ffn=8192),
        phi3("phi-3-mini-4k-4l", "microsoft/Phi-3-mini-4k-instruct config.json (4 of 32 layers)", vocab=32064,
             hidden=3072, layers=4, heads=32, kv_heads=32, ffn=8192),
        starcoder2("starcoder2-3b-4l", "bigcode/starcoder2-3b config.json (4 of 30 layers)", vocab=49152,
                   hidden=3072, layers=4, heads=24, kv_heads=2, ffn=12288),
        olmo2("olmo-3-7b-8l", "allenai/Olmo-3-1025-7B config.json (8 of 32 layers)", vocab=100278,
              hidden=4096, layers=8, heads=32, kv_heads=32, ffn=11008, window=4096),
        cohere2("command-r7b-8l", "CohereLabs/c4ai-command-r7b-12-2024 config.json (8 of 32 layers)",
                vocab=256000, hidden=4096, layers=8, heads=32, kv_heads=8, ffn=14336, window=4096),
        # Q4_K and Q4_0 weights: repacked by the CPU backend (x86, AVX2), the tied head twice.
        llama_like("llama-3.2-1b-q4k-4l", "llama", "meta-llama/Llama-3.2-1B config.json (4 of 16 layers), Q4_K",
                   vocab=128256, hidden=2048, layers=4, heads=32, kv_heads=8, ffn=8192, tied=True, typ=Q4_K),
        qwen2("qwen2.5-0.5b-q4_0", "Qwen/Qwen2.5-0.5B config.json, Q4_0 where rows allow", vocab=151936,
              hidden=896, layers=24, heads=14, kv_heads=2, ffn=4864, tied=True, typ=Q4_0),
        deepseek2("deepseek-v3.2-4l", "deepseek-ai/DeepSeek-V3.2 config.json (4 of 61 layers: 3 dense, 1 MoE)",
                  vocab=129280, hidden=7168, layers=4, heads=128, q_lora=1536, kv_lora=512, rope=64, nope=128,
                  v_hd=128, dense_ffn=18432, experts=256, used=8, shared=1, eff=2048, dense_first=3,
                  indexer=(64, 128)),
        kimi_linear("kimi-linear-48b-a3b-4l", "moonshotai/Kimi-Linear-48B-A3B-Instruct config.json (4 of 27 layers: 3 KDA, 1 MLA)",
                    pattern="KKKM", vocab=163840, hidden=2304, heads=32, kda_dim=128, kv_lora=512, rope=64,
                    nope=128, v_hd=128, dense_ffn=9216, experts=256, used=8, shared=1, eff=1024, dense_first=1),
        mamba("falcon-mamba-7b-4l", "tiiuae/falcon-mamba-7b config.json (4 of 64 layers)", vocab=65024,
              hidden=4096, layers=4, inner=8192, state=16, dt_rank=256, dt_b_c_rms=True),
        # Mistral 7B v0.1 slides in its config; llama.cpp's `llama` keeps a full cache anyway.
        llama_like("mistral-7b-v0.1-4l", "llama", "mistralai/Mistral-7B-v0.1 config.json (4 of 32 layers)",
                   vocab=32000, hidden=4096, layers=4, heads=32, kv_heads=8, ffn=14336,
                   extra_meta={"attention.sliding_window": 4096}),
        # Sliding layers flagged in the header, sinks on every layer.
        granite_swa("granite-swa-2b-8l", "transformers GraniteSWAConfig defaults (8 of 24 layers, its full-sliding-sliding-sliding pattern)",
                    pattern="FSSSFSSS", vocab=100352, hidden=2560, heads=20, kv_heads=4, ffn=8192, window=128),
        # Looped stacks: each run of a layer a cache layer of its own.
        hrm_text("hrm-text-1b-2l", "transformers HrmTextConfig defaults, HRM-Text-1B's widths (2 of 16 layers a stack)",
                 vocab=151808, hidden=1536, heads=12, head_dim=128, ffn=4096, per_stack=2, h_cycles=2,
                 l_cycles=3),
    ]

def moe_like(name, arch, source, *, vocab, hidden, layers, heads, kv_heads, head_dim, experts, used,
             expert_ffn, shared_ffn=0, typ=Q8_0, qk_norm=True, tied=False, extra_meta=None, ctx=40960):
    hd = head_dim
    meta = {
        "context_length": ctx,
        "embedding_length": hidden,
        "block_count": layers,
        "feed_forward_length": expert_ffn,
        "expert_feed_forward_length": expert_ffn,
        "expert_count": experts,
        "expert_used_count": used,
        "attention.head_count": heads,
        "attention.head_count_kv": kv_heads,
        "attention.layer_norm_rms_epsilon": 1e-6,
        "rope.freq_base": 1000000.0,
        "attention.key_length": hd,
        "attention.value_length": hd,
        "vocab_size": vocab,
    }
    if shared_ffn:
        meta["expert_shared_feed_forward_length"] = shared_ffn
    meta.update(extra_meta or {})
    s = Spec(name, arch, source, meta, vocab)
    s.t("token_embd.weight", [hidden, vocab], typ)
    for i in range(layers):
        p = f"blk.{i}."
        s.t(p + "attn_norm.weight", [hidden])
        s.attention(p, hidden, q=heads * hd, kv=kv_heads * hd, out=heads * hd, typ=typ, qk_norm=hd if qk_norm else 0)
        s.t(p + "ffn_norm.weight", [hidden])
        s.t(p + "ffn_gate_inp.weight", [hidden, experts], F32)
        s.t(p + "ffn_gate_exps.weight", [hidden, expert_ffn, experts], typ)
        s.t(p + "ffn_up_exps.weight", [hidden, expert_ffn, experts], typ)
        s.t(p + "ffn_down_exps.weight", [expert_ffn, hidden, experts], typ)
        if shared_ffn:
            s.t(p + "ffn_gate_shexp.weight", [hidden, shared_ffn], typ)
            s.t(p + "ffn_up_shexp.weight", [hidden, shared_ffn], typ)
            s.t(p + "ffn_down_shexp.weight", [shared_ffn, hidden], typ)
            s.t(p + "ffn_gate_inp_shexp.weight", [hidden])
    s.t("output_norm.weight", [hidden])
    if not tied:
        s.t("output.weight", [hidden, vocab], typ)
    return s
