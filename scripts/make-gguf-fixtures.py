#!/usr/bin/env python3
"""Writes the GGUF header fixtures in tests/fixtures/gguf/ with the official `gguf` package.

Run from anywhere:

    scripts/make-gguf-fixtures.py

When `import gguf` fails (or finds a version other than GGUF_VERSION below), the script creates a
virtual environment at target/gguf-venv (`python3 -m venv`), installs gguf==0.17.1 from PyPI into
it (numpy and friends come with it) and re-executes itself with that environment's python.

Each fixture is a header-only GGUF file: the writer's `add_*` metadata and `add_tensor_info`
tensor infos, written with `write_header_to_file`, `write_kv_data_to_file` and
`write_ti_data_to_file`, then closed without any tensor data (and without the padding before it).
Beside each one, `<name>.expected.json` holds what a reader must find, computed here in Python:
the tensor infos are read back from the written bytes by a small reader of our own (GGUFReader
cannot open a file whose data is missing) and priced with `gguf.GGML_QUANT_SIZES`.

Shapes: `add_tensor_info` takes numpy order (slowest dimension first) and writes it reversed, so
the specs below are given in ggml order (`ne[0]`, the row length, first) and reversed on the way in.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / "target" / "gguf-venv"
OUT = ROOT / "tests" / "fixtures" / "gguf"
GGUF_VERSION = "0.17.1"
ALIGNMENT = 32


def _installed_version() -> str | None:
    try:
        import gguf  # noqa: F401
        from importlib.metadata import version

        return version("gguf")
    except Exception:
        return None


def bootstrap() -> None:
    """Makes `import gguf` give GGUF_VERSION, re-executing under target/gguf-venv when needed."""
    if _installed_version() == GGUF_VERSION:
        return
    if os.environ.get("HEADROOM_GGUF_VENV") == "1":
        sys.exit(f"gguf=={GGUF_VERSION} is still not importable inside {VENV}")
    py = VENV / "bin" / "python"
    if not py.exists():
        print(f"[gguf-fixtures] creating {VENV}", file=sys.stderr)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    probe = f"import importlib.metadata as m, gguf; assert m.version('gguf') == '{GGUF_VERSION}'"
    if subprocess.run([str(py), "-c", probe], capture_output=True).returncode != 0:
        print(f"[gguf-fixtures] installing gguf=={GGUF_VERSION} into {VENV}", file=sys.stderr)
        subprocess.run([str(py), "-m", "pip", "install", "-q", f"gguf=={GGUF_VERSION}"], check=True)
    env = dict(os.environ, HEADROOM_GGUF_VENV="1")
    os.execve(str(py), [str(py), str(Path(__file__).resolve()), *sys.argv[1:]], env)


bootstrap()

import numpy as np  # noqa: E402
import gguf  # noqa: E402
from gguf import GGMLQuantizationType as T  # noqa: E402

# MXFP4 (ggml type 39, blocks of 32 values in 17 bytes: an E8M0 scale and 16 bytes of FP4) is newer
# than gguf 0.17.1, whose enum and size table lack it; the writer stores the id as a plain u32.
MXFP4 = getattr(T, "MXFP4", 39)
QUANT_SIZES: dict[int, tuple[int, int]] = {int(k): v for k, v in gguf.GGML_QUANT_SIZES.items()}
QUANT_SIZES.setdefault(int(MXFP4), (32, 17))
# llama_ftype 38, LLAMA_FTYPE_MOSTLY_MXFP4_MOE, when the package knows it (0.17.1 does not).
FTYPE_MXFP4_MOE = getattr(gguf.LlamaFileType, "MOSTLY_MXFP4_MOE", None)


def nbytes(ne: list[int], ty: int) -> int:
    block, size = QUANT_SIZES[int(ty)]
    assert ne[0] % block == 0, f"row of {ne[0]} does not divide into blocks of {block}"
    rows = 1
    for d in ne[1:]:
        rows *= d
    return ne[0] // block * size * rows


def use_more_bits(i: int, n: int) -> bool:
    """llama-quant.cpp's use_more_bits: Q4_K_M's Q6_K layers for attn_v and ffn_down."""
    return i < n // 8 or i >= 7 * n // 8 or (i - n // 8) % 3 == 2


class Model:
    """Tensor specs in ggml order and the metadata calls for one GGUF file."""

    def __init__(self, arch: str) -> None:
        self.arch = arch
        self.tensors: list[tuple[str, list[int], int]] = []

    def t(self, name: str, ne: list[int], ty: int) -> None:
        self.tensors.append((name, list(ne), int(ty)))


def add_tensor_infos(w: gguf.GGUFWriter, m: Model) -> None:
    for name, ne, ty in m.tensors:
        # numpy order (reversed ne); a non-uint8 dtype keeps the shape in elements.
        w.add_tensor_info(name, list(reversed(ne)), np.dtype(np.float32), nbytes(ne, ty), raw_dtype=ty)


def finish(w: gguf.GGUFWriter) -> None:
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_ti_data_to_file()
    w.close()  # no padding, no tensor data


# --- a reader of our own, to compute the expectations from the written bytes -------------------


class Reader:
    SCALAR = {0: "<B", 1: "<b", 2: "<H", 3: "<h", 4: "<I", 5: "<i", 6: "<f", 7: "<?", 10: "<Q", 11: "<q", 12: "<d"}

    def __init__(self, data: bytes) -> None:
        self.b = data
        self.i = 0

    def take(self, fmt: str):
        v = struct.unpack_from(fmt, self.b, self.i)[0]
        self.i += struct.calcsize(fmt)
        return v

    def string(self) -> str:
        n = self.take("<Q")
        s = self.b[self.i : self.i + n]
        self.i += n
        return s.decode("utf-8")

    def value(self, t: int):
        if t in self.SCALAR:
            return self.take(self.SCALAR[t])
        if t == 8:
            return self.string()
        if t == 9:
            et = self.take("<I")
            n = self.take("<Q")
            return {"elem": et, "len": n, "values": [self.value(et) for _ in range(n)]}
        raise ValueError(f"metadata type {t}")

    def read(self) -> tuple[dict, list[tuple[str, list[int], int]]]:
        assert self.b[:4] == b"GGUF"
        self.i = 4
        assert self.take("<I") == 3
        n_t = self.take("<Q")
        n_kv = self.take("<Q")
        kv = {}
        for _ in range(n_kv):
            k = self.string()
            kv[k] = self.value(self.take("<I"))
        tensors = []
        for _ in range(n_t):
            name = self.string()
            nd = self.take("<I")
            ne = [self.take("<Q") for _ in range(nd)]
            ty = self.take("<I")
            self.take("<Q")  # offset
            tensors.append((name, ne, ty))
        assert self.i == len(self.b), "bytes after the tensor infos"
        return kv, tensors


def pad(x: int) -> int:
    return (x + ALIGNMENT - 1) // ALIGNMENT * ALIGNMENT


def facts(path: Path) -> dict:
    """What one written file holds."""
    data = path.read_bytes()
    kv, tensors = Reader(data).read()
    return {
        "kv": kv,
        "tensors": tensors,
        "tensor_count": len(tensors),
        "tensor_bytes": sum(nbytes(ne, ty) for _, ne, ty in tensors),
        "params": sum(int(np.prod(ne, dtype=np.int64)) for _, ne, _ in tensors),
        # The writer pads only before tensor data, which these files lack: the data would start
        # at the file's size rounded up to the alignment.
        "header_bytes": pad(len(data)),
        "file_bytes": pad(len(data)) + sum(pad(nbytes(ne, ty)) for _, ne, ty in tensors),
        "size": len(data),
    }


def type_name(ty: int) -> str:
    return "MXFP4" if ty == int(MXFP4) else T(ty).name


def by_type(tensors: list) -> dict[str, int]:
    out: dict[str, int] = {}
    for _, ne, ty in tensors:
        out[type_name(ty)] = out.get(type_name(ty), 0) + nbytes(ne, ty)
    return dict(sorted(out.items()))


def expected(kv: dict, tensors: list, parts: list[dict]) -> dict:
    arch = kv["general.architecture"]
    if arch == "clip":
        # A projector: no language model keys, only what it stores.
        return {
            "architecture": arch,
            "tensor_count": sum(p["tensor_count"] for p in parts),
            "tensor_bytes": sum(p["tensor_bytes"] for p in parts),
            "params": sum(p["params"] for p in parts),
            "bytes_by_type": by_type(tensors),
            "header_bytes": sum(p["header_bytes"] for p in parts),
            "file_bytes": sum(p["file_bytes"] for p in parts),
        }
    embd = next((ne for n, ne, _ in tensors if n == "token_embd.weight"), None)
    vocab = embd[1] if embd else kv["tokenizer.ggml.tokens"]["len"]
    return {
        "architecture": arch,
        "tensor_count": sum(p["tensor_count"] for p in parts),
        "tensor_bytes": sum(p["tensor_bytes"] for p in parts),
        "params": sum(p["params"] for p in parts),
        "layers": kv[f"{arch}.block_count"],
        "hidden": kv[f"{arch}.embedding_length"],
        "heads": kv[f"{arch}.attention.head_count"],
        "kv_heads": kv.get(f"{arch}.attention.head_count_kv", kv[f"{arch}.attention.head_count"]),
        "vocab": vocab,
        "experts": kv.get(f"{arch}.expert_count", 0),
        "file_type": kv.get("general.file_type"),
        "tied": not any(n == "output.weight" for n, _, _ in tensors),
        "bytes_by_type": by_type(tensors),
        "token_embd_bytes": next((nbytes(ne, ty) for n, ne, ty in tensors if n == "token_embd.weight"), 0),
        "header_bytes": sum(p["header_bytes"] for p in parts),
        "file_bytes": sum(p["file_bytes"] for p in parts),
    }


def write(m: Model, name: str, meta) -> None:
    path = OUT / f"{name}.gguf"
    w = gguf.GGUFWriter(path, m.arch)
    meta(w)
    add_tensor_infos(w, m)
    finish(w)
    f = facts(path)
    assert f["tensors"] == m.tensors, f"{name}: tensor infos read back differ from the spec"
    exp = expected(f["kv"], f["tensors"], [f])
    (OUT / f"{name}.expected.json").write_text(json.dumps(exp, indent=2) + "\n")
    print(f"{name}.gguf: {f['size']} bytes, {exp['tensor_count']} tensors, {exp['tensor_bytes']} tensor bytes")


# --- the models ---------------------------------------------------------------------------------


def attention(m: Model, i: int, hidden: int, q: int, kv: int, ty, v_ty=None, bias=False, out_bias=False) -> None:
    """Layer i's q, k, v and output projections in llama.cpp's order, each followed by its bias
    (F32) when the model has one."""
    for name, width, t in (("attn_q", q, ty), ("attn_k", kv, ty), ("attn_v", kv, v_ty or ty)):
        m.t(f"blk.{i}.{name}.weight", [hidden, width], t)
        if bias:
            m.t(f"blk.{i}.{name}.bias", [width], T.F32)
    m.t(f"blk.{i}.attn_output.weight", [q, hidden], ty)
    if out_bias:
        m.t(f"blk.{i}.attn_output.bias", [hidden], T.F32)


def dense_layer(m: Model, i: int, hidden: int, q: int, kv: int, ffn: int, ty, v_ty=None, down_ty=None) -> None:
    m.t(f"blk.{i}.attn_norm.weight", [hidden], T.F32)
    attention(m, i, hidden, q, kv, ty, v_ty)
    m.t(f"blk.{i}.ffn_norm.weight", [hidden], T.F32)
    m.t(f"blk.{i}.ffn_gate.weight", [hidden, ffn], ty)
    m.t(f"blk.{i}.ffn_up.weight", [hidden, ffn], ty)
    m.t(f"blk.{i}.ffn_down.weight", [ffn, hidden], down_ty or ty)


def llama_1b() -> None:
    n, hidden, ffn, heads, kv_heads, hd, vocab = 16, 2048, 8192, 32, 8, 64, 128256
    m = Model("llama")
    m.t("token_embd.weight", [hidden, vocab], T.Q6_K)  # tied: quantized as the output head
    for i in range(n):
        more = T.Q6_K if use_more_bits(i, n) else T.Q4_K
        dense_layer(m, i, hidden, heads * hd, kv_heads * hd, ffn, T.Q4_K, v_ty=more, down_ty=more)
    m.t("output_norm.weight", [hidden], T.F32)

    def meta(w: gguf.GGUFWriter) -> None:
        w.add_type("model")
        w.add_name("Llama 3.2 1B Instruct")
        w.add_size_label("1B")
        w.add_block_count(n)
        w.add_context_length(131072)
        w.add_embedding_length(hidden)
        w.add_feed_forward_length(ffn)
        w.add_head_count(heads)
        w.add_head_count_kv(kv_heads)
        w.add_rope_freq_base(500000.0)
        w.add_layer_norm_rms_eps(1e-5)
        w.add_key_length(hd)
        w.add_value_length(hd)
        w.add_file_type(gguf.LlamaFileType.MOSTLY_Q4_K_M)
        w.add_vocab_size(vocab)
        w.add_rope_dimension_count(hd)
        w.add_tokenizer_model("gpt2")
        w.add_tokenizer_pre("llama-bpe")
        w.add_token_list([f"t{i}" for i in range(vocab)])
        w.add_bos_token_id(128000)
        w.add_eos_token_id(128009)
        w.add_quantization_version(gguf.GGML_QUANT_VERSION)

    write(m, "llama-1b-q4_k_m", meta)


def qwen2_05b() -> None:
    n, hidden, ffn, heads, kv_heads, vocab = 24, 896, 4864, 14, 2, 151936
    hd = hidden // heads
    m = Model("qwen2")
    m.t("token_embd.weight", [hidden, vocab], T.F16)
    for i in range(n):
        m.t(f"blk.{i}.attn_norm.weight", [hidden], T.F32)
        attention(m, i, hidden, heads * hd, kv_heads * hd, T.F16, bias=True)
        m.t(f"blk.{i}.ffn_norm.weight", [hidden], T.F32)
        m.t(f"blk.{i}.ffn_gate.weight", [hidden, ffn], T.F16)
        m.t(f"blk.{i}.ffn_up.weight", [hidden, ffn], T.F16)
        m.t(f"blk.{i}.ffn_down.weight", [ffn, hidden], T.F16)
    m.t("output_norm.weight", [hidden], T.F32)

    def meta(w: gguf.GGUFWriter) -> None:
        w.add_type("model")
        w.add_name("Qwen2.5 0.5B Instruct")
        w.add_block_count(n)
        w.add_context_length(32768)
        w.add_embedding_length(hidden)
        w.add_feed_forward_length(ffn)
        w.add_head_count(heads)
        w.add_head_count_kv(kv_heads)
        w.add_rope_freq_base(1000000.0)
        w.add_layer_norm_rms_eps(1e-6)
        w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
        w.add_tokenizer_model("gpt2")
        w.add_tokenizer_pre("qwen2")
        w.add_token_list([f"t{i}" for i in range(vocab)])
        types = [gguf.TokenType.NORMAL] * vocab
        for i in range(151643, vocab):
            types[i] = gguf.TokenType.CONTROL
        w.add_token_types(types)
        w.add_eos_token_id(151645)
        w.add_quantization_version(gguf.GGML_QUANT_VERSION)

    write(m, "qwen2-0.5b-f16", meta)


def qwen3moe() -> None:
    n, hidden, heads, kv_heads, hd, experts, used, eff, vocab = 4, 2048, 32, 4, 128, 128, 8, 768, 151936
    m = Model("qwen3moe")
    m.t("token_embd.weight", [hidden, vocab], T.Q8_0)
    for i in range(n):
        m.t(f"blk.{i}.attn_norm.weight", [hidden], T.F32)
        attention(m, i, hidden, heads * hd, kv_heads * hd, T.Q8_0)
        m.t(f"blk.{i}.attn_q_norm.weight", [hd], T.F32)
        m.t(f"blk.{i}.attn_k_norm.weight", [hd], T.F32)
        m.t(f"blk.{i}.ffn_norm.weight", [hidden], T.F32)
        m.t(f"blk.{i}.ffn_gate_inp.weight", [hidden, experts], T.F32)
        m.t(f"blk.{i}.ffn_gate_exps.weight", [hidden, eff, experts], T.Q8_0)
        m.t(f"blk.{i}.ffn_up_exps.weight", [hidden, eff, experts], T.Q8_0)
        m.t(f"blk.{i}.ffn_down_exps.weight", [eff, hidden, experts], T.Q8_0)
    m.t("output_norm.weight", [hidden], T.F32)
    m.t("output.weight", [hidden, vocab], T.Q8_0)

    def meta(w: gguf.GGUFWriter) -> None:
        w.add_type("model")
        w.add_name("Qwen3 30B A3B (4 layers)")
        w.add_block_count(n)
        w.add_context_length(40960)
        w.add_embedding_length(hidden)
        w.add_feed_forward_length(6144)
        w.add_head_count(heads)
        w.add_head_count_kv(kv_heads)
        w.add_rope_freq_base(1000000.0)
        w.add_layer_norm_rms_eps(1e-6)
        w.add_expert_used_count(used)
        w.add_key_length(hd)
        w.add_value_length(hd)
        w.add_expert_count(experts)
        w.add_expert_feed_forward_length(eff)
        w.add_file_type(gguf.LlamaFileType.MOSTLY_Q8_0)
        w.add_quantization_version(gguf.GGML_QUANT_VERSION)

    write(m, "qwen3moe-q8_0", meta)


def gemma2_2b() -> None:
    n, hidden, ffn, heads, kv_heads, hd, vocab = 26, 2304, 9216, 8, 4, 256, 256000
    m = Model("gemma2")
    m.t("token_embd.weight", [hidden, vocab], T.Q6_K)  # tied: quantized as the output head
    for i in range(n):
        m.t(f"blk.{i}.attn_norm.weight", [hidden], T.F32)
        attention(m, i, hidden, heads * hd, kv_heads * hd, T.Q4_0)
        m.t(f"blk.{i}.post_attention_norm.weight", [hidden], T.F32)
        m.t(f"blk.{i}.ffn_norm.weight", [hidden], T.F32)
        m.t(f"blk.{i}.ffn_gate.weight", [hidden, ffn], T.Q4_0)
        m.t(f"blk.{i}.ffn_up.weight", [hidden, ffn], T.Q4_0)
        m.t(f"blk.{i}.ffn_down.weight", [ffn, hidden], T.Q4_0)
        m.t(f"blk.{i}.post_ffw_norm.weight", [hidden], T.F32)
    m.t("output_norm.weight", [hidden], T.F32)

    def meta(w: gguf.GGUFWriter) -> None:
        w.add_type("model")
        w.add_name("Gemma 2 2b It")
        w.add_context_length(8192)
        w.add_embedding_length(hidden)
        w.add_block_count(n)
        w.add_feed_forward_length(ffn)
        w.add_head_count(heads)
        w.add_head_count_kv(kv_heads)
        w.add_layer_norm_rms_eps(1e-6)
        w.add_key_length(hd)
        w.add_value_length(hd)
        w.add_attn_logit_softcapping(50.0)
        w.add_final_logit_softcapping(30.0)
        w.add_sliding_window(4096)
        w.add_file_type(gguf.LlamaFileType.MOSTLY_Q4_0)
        w.add_quantization_version(gguf.GGML_QUANT_VERSION)

    write(m, "gemma2-2b-q4_0", meta)


def deepseek2_lite() -> None:
    n, hidden, heads, vocab = 3, 2048, 16, 102400
    kv_lora, rope, nope, v_hd = 512, 64, 128, 128
    dense_ffn, experts, used, shared, eff, dense_first = 10944, 64, 6, 2, 1408, 1
    m = Model("deepseek2")
    m.t("token_embd.weight", [hidden, vocab], T.Q4_K)
    for i in range(n):
        more = use_more_bits(i, n)
        m.t(f"blk.{i}.attn_norm.weight", [hidden], T.F32)
        m.t(f"blk.{i}.attn_q.weight", [hidden, heads * (nope + rope)], T.Q4_K)
        m.t(f"blk.{i}.attn_kv_a_mqa.weight", [hidden, kv_lora + rope], T.Q4_K)
        m.t(f"blk.{i}.attn_kv_a_norm.weight", [kv_lora], T.F32)
        m.t(f"blk.{i}.attn_kv_b.weight", [kv_lora, heads * (nope + v_hd)], T.Q4_K)
        m.t(f"blk.{i}.attn_output.weight", [heads * v_hd, hidden], T.Q4_K)
        m.t(f"blk.{i}.ffn_norm.weight", [hidden], T.F32)
        if i < dense_first:
            m.t(f"blk.{i}.ffn_gate.weight", [hidden, dense_ffn], T.Q4_K)
            m.t(f"blk.{i}.ffn_up.weight", [hidden, dense_ffn], T.Q4_K)
            # 10944 is not a multiple of 256: llama.cpp falls back (Q6_K -> Q8_0, Q4_K -> Q5_0).
            m.t(f"blk.{i}.ffn_down.weight", [dense_ffn, hidden], T.Q8_0 if more else T.Q5_0)
        else:
            m.t(f"blk.{i}.ffn_gate_inp.weight", [hidden, experts], T.F32)
            m.t(f"blk.{i}.ffn_gate_exps.weight", [hidden, eff, experts], T.Q4_K)
            m.t(f"blk.{i}.ffn_up_exps.weight", [hidden, eff, experts], T.Q4_K)
            # 1408 is not a multiple of 256 either.
            m.t(f"blk.{i}.ffn_down_exps.weight", [eff, hidden, experts], T.Q8_0 if more else T.Q5_0)
            m.t(f"blk.{i}.ffn_gate_shexp.weight", [hidden, shared * eff], T.Q4_K)
            m.t(f"blk.{i}.ffn_up_shexp.weight", [hidden, shared * eff], T.Q4_K)
            m.t(f"blk.{i}.ffn_down_shexp.weight", [shared * eff, hidden], T.Q6_K if more else T.Q4_K)
    m.t("output_norm.weight", [hidden], T.F32)
    m.t("output.weight", [hidden, vocab], T.Q6_K)

    def meta(w: gguf.GGUFWriter) -> None:
        w.add_type("model")
        w.add_name("DeepSeek V2 Lite Chat (3 layers)")
        w.add_block_count(n)
        w.add_context_length(163840)
        w.add_embedding_length(hidden)
        w.add_feed_forward_length(dense_ffn)
        w.add_head_count(heads)
        w.add_head_count_kv(heads)
        w.add_rope_freq_base(10000.0)
        w.add_layer_norm_rms_eps(1e-6)
        w.add_expert_used_count(used)
        w.add_key_length(nope + rope)
        w.add_value_length(v_hd)
        w.add_leading_dense_block_count(dense_first)
        w.add_vocab_size(vocab)
        w.add_kv_lora_rank(kv_lora)
        w.add_expert_feed_forward_length(eff)
        w.add_expert_count(experts)
        w.add_expert_shared_count(shared)
        w.add_expert_weights_scale(1.0)
        w.add_rope_dimension_count(rope)
        w.add_rope_scaling_type(gguf.RopeScalingType.YARN)
        w.add_rope_scaling_factor(40.0)
        w.add_rope_scaling_orig_ctx_len(4096)
        w.add_rope_scaling_yarn_log_mul(0.0707)
        w.add_file_type(gguf.LlamaFileType.MOSTLY_Q4_K_M)
        w.add_quantization_version(gguf.GGML_QUANT_VERSION)

    write(m, "deepseek2-lite-q4_k_m", meta)


def gpt_oss() -> None:
    n, hidden, heads, kv_heads, hd, experts, used, eff, vocab = 2, 2880, 64, 8, 64, 32, 4, 2880, 201088
    m = Model("gpt-oss")
    m.t("token_embd.weight", [hidden, vocab], T.F16)
    for i in range(n):
        m.t(f"blk.{i}.attn_norm.weight", [hidden], T.F32)
        attention(m, i, hidden, heads * hd, kv_heads * hd, T.F16, bias=True, out_bias=True)
        m.t(f"blk.{i}.attn_sinks.weight", [heads], T.F32)
        m.t(f"blk.{i}.post_attention_norm.weight", [hidden], T.F32)
        m.t(f"blk.{i}.ffn_gate_inp.weight", [hidden, experts], T.F32)
        m.t(f"blk.{i}.ffn_gate_inp.bias", [experts], T.F32)
        m.t(f"blk.{i}.ffn_gate_exps.weight", [hidden, eff, experts], MXFP4)
        m.t(f"blk.{i}.ffn_gate_exps.bias", [eff, experts], T.F32)
        m.t(f"blk.{i}.ffn_up_exps.weight", [hidden, eff, experts], MXFP4)
        m.t(f"blk.{i}.ffn_up_exps.bias", [eff, experts], T.F32)
        m.t(f"blk.{i}.ffn_down_exps.weight", [eff, hidden, experts], MXFP4)
        m.t(f"blk.{i}.ffn_down_exps.bias", [hidden, experts], T.F32)
    m.t("output_norm.weight", [hidden], T.F32)
    m.t("output.weight", [hidden, vocab], T.F16)

    def meta(w: gguf.GGUFWriter) -> None:
        w.add_type("model")
        w.add_name("Gpt Oss 20b (2 layers)")
        w.add_block_count(n)
        w.add_context_length(131072)
        w.add_embedding_length(hidden)
        w.add_feed_forward_length(eff)
        w.add_head_count(heads)
        w.add_head_count_kv(kv_heads)
        w.add_rope_freq_base(150000.0)
        w.add_layer_norm_rms_eps(1e-5)
        w.add_expert_count(experts)
        w.add_expert_used_count(used)
        w.add_key_length(hd)
        w.add_value_length(hd)
        w.add_sliding_window(128)
        w.add_expert_feed_forward_length(eff)
        w.add_rope_scaling_type(gguf.RopeScalingType.YARN)
        w.add_rope_scaling_factor(32.0)
        w.add_rope_scaling_orig_ctx_len(4096)
        if FTYPE_MXFP4_MOE is not None:
            w.add_file_type(FTYPE_MXFP4_MOE)
        w.add_quantization_version(gguf.GGML_QUANT_VERSION)

    write(m, "gpt-oss-mxfp4", meta)


def llama_split() -> None:
    """Two shards, as the writer's own splitting (and llama.cpp's gguf-split) lays them out: the
    first with every metadata entry and the split keys, the second with the split keys only."""
    n, hidden, ffn, heads, kv_heads, vocab = 2, 256, 512, 4, 2, 1000
    hd = hidden // heads
    m = Model("llama")
    m.t("token_embd.weight", [hidden, vocab], T.Q8_0)
    for i in range(n):
        dense_layer(m, i, hidden, heads * hd, kv_heads * hd, ffn, T.Q8_0)
    m.t("output_norm.weight", [hidden], T.F32)
    m.t("output.weight", [hidden, vocab], T.Q8_0)

    base = OUT / "llama-split.gguf"
    w = gguf.GGUFWriter(base, m.arch, split_max_tensors=(len(m.tensors) + 1) // 2)
    w.add_type("model")
    w.add_name("Tiny Llama Split")
    w.add_block_count(n)
    w.add_context_length(2048)
    w.add_embedding_length(hidden)
    w.add_feed_forward_length(ffn)
    w.add_head_count(heads)
    w.add_head_count_kv(kv_heads)
    w.add_layer_norm_rms_eps(1e-5)
    w.add_file_type(gguf.LlamaFileType.MOSTLY_Q8_0)
    w.add_quantization_version(gguf.GGML_QUANT_VERSION)
    add_tensor_infos(w, m)
    finish(w)
    names = [OUT / f"llama-split-{i:05d}-of-00002.gguf" for i in (1, 2)]
    parts = [facts(p) for p in names]
    assert [t for p in parts for t in p["tensors"]] == m.tensors
    for i, p in enumerate(parts):
        assert p["kv"]["split.no"] == i and p["kv"]["split.count"] == 2
        assert p["kv"]["split.tensors.count"] == len(m.tensors)
    assert set(parts[1]["kv"]) == {"split.no", "split.count", "split.tensors.count"}
    exp = expected(parts[0]["kv"], m.tensors, parts)
    exp["parts"] = [
        {
            "file": p.name,
            "tensor_count": f["tensor_count"],
            "tensor_bytes": f["tensor_bytes"],
            "params": f["params"],
            "header_bytes": f["header_bytes"],
            "file_bytes": f["file_bytes"],
        }
        for p, f in zip(names, parts)
    ]
    (OUT / "llama-split.expected.json").write_text(json.dumps(exp, indent=2) + "\n")
    for p, f in zip(names, parts):
        print(f"{p.name}: {f['size']} bytes, {f['tensor_count']} tensors")


def mmproj_qwen25vl() -> None:
    """A multimodal projector as llama.cpp's convert_hf_to_gguf.py writes it for Qwen2.5-VL-7B
    (`--mmproj`, F16): general.architecture `clip`, the vision blocks under `v.blk.N`, the two
    temporal halves of the patch embedding, the merger as `mm.0` / `mm.2`."""
    depth, hidden, ffn, out, patch = 32, 1280, 3420, 3584, 14
    merged = hidden * 4
    m = Model("clip")
    m.t("v.patch_embd.weight", [patch, patch, 3, hidden], T.F16)
    m.t("v.patch_embd.weight.1", [patch, patch, 3, hidden], T.F16)
    for i in range(depth):
        for name in ("attn_q", "attn_k", "attn_v", "attn_out"):
            m.t(f"v.blk.{i}.{name}.weight", [hidden, hidden], T.F16)
            m.t(f"v.blk.{i}.{name}.bias", [hidden], T.F32)
        m.t(f"v.blk.{i}.ln1.weight", [hidden], T.F32)
        m.t(f"v.blk.{i}.ln2.weight", [hidden], T.F32)
        for name, ne in (("ffn_gate", [hidden, ffn]), ("ffn_up", [hidden, ffn]), ("ffn_down", [ffn, hidden])):
            m.t(f"v.blk.{i}.{name}.weight", ne, T.F16)
            m.t(f"v.blk.{i}.{name}.bias", [ne[1]], T.F32)
    m.t("v.post_ln.weight", [hidden], T.F32)
    m.t("mm.0.weight", [merged, merged], T.F16)
    m.t("mm.0.bias", [merged], T.F32)
    m.t("mm.2.weight", [merged, out], T.F16)
    m.t("mm.2.bias", [out], T.F32)

    def meta(w: gguf.GGUFWriter) -> None:
        w.add_type("mmproj")
        w.add_name("Qwen2.5-VL 7B Instruct")
        w.add_file_type(gguf.LlamaFileType.MOSTLY_F16)
        w.add_bool("clip.has_vision_encoder", True)
        w.add_string("clip.projector_type", "qwen2.5vl_merger")
        w.add_uint32("clip.vision.block_count", depth)
        w.add_uint32("clip.vision.embedding_length", hidden)
        w.add_uint32("clip.vision.feed_forward_length", ffn)
        w.add_uint32("clip.vision.head_count", 16)
        w.add_uint32("clip.vision.patch_size", patch)
        w.add_uint32("clip.vision.projection_dim", out)
        w.add_uint32("clip.vision.spatial_merge_size", 2)

    write(m, "mmproj-qwen2.5-vl-7b-f16", meta)


def hrm_text_1b() -> None:
    """HRM-Text-1B (transformers' HrmTextConfig defaults) as llama.cpp's converter lays it out:
    the low stack in blocks 0-15, the high stack in 16-31, no norm weights, `block_count` the 128
    cache layers (16 a stack x 2 high cycles x (3 low cycles + 1)). Q4_K_M by llama-quant.cpp's
    rules: tensors in block order (its loader sorts them so); attn_v by its count of attn_v
    tensors (32), ffn_down by its count of ffn_down tensors against `n_layer_all` (128)."""
    per_stack, high, low = 16, 2, 3
    hidden, ffn, heads, hd, vocab = 1536, 4096, 12, 128, 151808
    blocks, slots = 2 * per_stack, per_stack * high * (low + 1)
    m = Model("hrm_text")
    m.t("token_embd.weight", [hidden, vocab], T.Q4_K)
    m.t("output.weight", [hidden, vocab], T.Q6_K)
    m.t("hrm.z_l_init", [hidden], T.F32)
    for i in range(blocks):
        v = T.Q6_K if use_more_bits(i, blocks) else T.Q4_K
        down = T.Q6_K if use_more_bits(i, slots) else T.Q4_K
        attention(m, i, hidden, heads * hd, heads * hd, T.Q4_K, v_ty=v)
        m.t(f"blk.{i}.attn_gate.weight", [hidden, heads * hd], T.Q4_K)
        m.t(f"blk.{i}.ffn_gate.weight", [hidden, ffn], T.Q4_K)
        m.t(f"blk.{i}.ffn_up.weight", [hidden, ffn], T.Q4_K)
        m.t(f"blk.{i}.ffn_down.weight", [ffn, hidden], down)

    def meta(w: gguf.GGUFWriter) -> None:
        w.add_type("model")
        w.add_name("HRM-Text 1B")
        w.add_block_count(slots)
        w.add_context_length(2048)
        w.add_embedding_length(hidden)
        w.add_feed_forward_length(ffn)
        w.add_head_count(heads)
        w.add_head_count_kv(heads)
        w.add_rope_freq_base(10000.0)
        w.add_layer_norm_rms_eps(1e-6)
        w.add_key_length(hd)
        w.add_value_length(hd)
        w.add_rope_dimension_count(hd)
        w.add_float32("hrm_text.embedding_scale", 50.0)
        w.add_uint32("hrm_text.hrm.layers_per_stack", per_stack)
        w.add_uint32("hrm_text.hrm.h_cycles", high)
        w.add_uint32("hrm_text.hrm.l_cycles", low)
        w.add_bool("hrm_text.hrm.prefix_lm", True)
        w.add_file_type(gguf.LlamaFileType.MOSTLY_Q4_K_M)
        w.add_quantization_version(gguf.GGML_QUANT_VERSION)

    write(m, "hrm-text-1b-q4_k_m", meta)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    print(f"[gguf-fixtures] gguf {_installed_version()} -> {OUT.relative_to(ROOT)}", file=sys.stderr)
    llama_1b()
    qwen2_05b()
    qwen3moe()
    gemma2_2b()
    deepseek2_lite()
    gpt_oss()
    llama_split()
    mmproj_qwen25vl()
    hrm_text_1b()


if __name__ == "__main__":
    main()
