#!/usr/bin/env python3
"""Writes the quantized-checkpoint header fixtures in tests/fixtures/quant/ (standard library only).

Run from anywhere:

    scripts/make-quant-fixtures.py

Each fixture is a directory holding `config.json` (a real model config, Meta's Llama 3.2 1B,
with the `quantization_config` of one quantization library) and `header.tsv`: every tensor the
library writes for that model — name, safetensors dtype and shape — one per line, as its
safetensors header would list them. The layouts are read in each library's public source, not
in Headroom's code (a test then checks that Headroom's config-only estimate gives the same bytes):

- compressed-tensors 0.12 (`compressors/quantized_compressors/*.py`,
  `quantization/lifecycle/initialize.py`, `compressors/base.py`): `pack-quantized` writes
  `weight_packed` int32 [out, ceil(in*bits/32)], `weight_scale` in the weight's dtype of the
  strategy's shape (group: [out, in/group]; channel: [out, 1]), `weight_shape` (a torch.tensor of
  the shape: int64 [2]), and for asymmetric group/channel schemes `weight_zero_point` int32
  [ceil(out*bits/32), groups]; `float-quantized` (FP8) writes `weight` F8_E4M3 and
  `weight_scale`; static input activations add `input_scale` ([1], the weight's dtype);
  `int-quantized` writes `weight` int8; `nvfp4-pack-quantized` writes `weight_packed` uint8
  [out, in/2], `weight_scale` F8_E4M3 [out, in/16], `weight_global_scale` F32 [1] and, for W4A4,
  `input_global_scale` F32 [1]. Symmetric zero points are not saved.
- ModelOpt (`modelopt/torch/export/unified_export_hf.py`, as in nvidia/*-FP8 and *-FP4
  checkpoints): FP8 `weight` F8_E4M3 with scalar F32 `weight_scale` and `input_scale`; NVFP4
  `weight` uint8 [out, in/2], `weight_scale` F8_E4M3 [out, in/16], scalar F32 `weight_scale_2`
  and `input_scale`.
- transformers' FineGrainedFP8 / DeepSeek-V3 and Qwen3-FP8 checkpoints: `weight` F8_E4M3 and
  `weight_scale_inv` F32 [ceil(out/128), ceil(in/128)].
- AutoGPTQ / GPTQModel (`nn_modules/qlinear/__init__.py`): `qweight` int32 [in*bits/32, out],
  `qzeros` int32 [groups, out*bits/32], `scales` F16 [groups, out], `g_idx` int32 [in].
- AutoAWQ (`modules/linear/gemm.py`): `qweight` int32 [in, out/8], `qzeros` int32 [groups, out/8],
  `scales` F16 [groups, out].
- bitsandbytes 0.50 (`functional.py` `QuantState.as_dict(packed=True)`, `utils.py`
  `pack_dict_to_tensor`) as transformers saves a 4-bit model (unsloth/*-bnb-4bit): `weight` uint8
  [ceil(n/2), 1], `weight.absmax` (uint8 with double quantization, else F32) [ceil(n/64)],
  `weight.quant_map` F32 [16], with double quantization `weight.nested_absmax` F32
  [ceil(blocks/256)] and `weight.nested_quant_map` F32 [256], and
  `weight.quant_state.bitsandbytes__nf4` uint8 holding json.dumps of quant_type, blocksize, dtype,
  shape (and nested_blocksize, nested_dtype, nested_offset); LLM.int8: `weight` int8, `SCB` F32
  [out], `weight_format` uint8 scalar. The output head stays unquantized (no skip list given).

Tensors a library leaves alone keep the model's dtype (BF16; F16 for the GPTQ and AWQ fixtures,
whose tools save in FP16). Which `quantization_config` each fixture carries, and where it comes
from, is in each fixture's config.json (written by this script).
"""

from __future__ import annotations

import json
import math
import struct
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "quant"
BASE_CONFIG = ROOT / "crates" / "core" / "src" / "catalog" / "models" / "llama-3.2-1b.json"


def llama_tensors(cfg: dict) -> list[tuple[str, str, list[int], bool]]:
    """(name, role, shape [out, in], is_linear) of a Llama checkpoint, in file order."""
    h = cfg["hidden_size"]
    i = cfg["intermediate_size"]
    heads = cfg["num_attention_heads"]
    kv = cfg["num_key_value_heads"]
    d = cfg.get("head_dim", h // heads)
    v = cfg["vocab_size"]
    out = [("model.embed_tokens.weight", "embed", [v, h], False)]
    for layer in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{layer}."
        out += [
            (p + "input_layernorm.weight", "norm", [h], False),
            (p + "self_attn.q_proj.weight", "linear", [heads * d, h], True),
            (p + "self_attn.k_proj.weight", "linear", [kv * d, h], True),
            (p + "self_attn.v_proj.weight", "linear", [kv * d, h], True),
            (p + "self_attn.o_proj.weight", "linear", [h, heads * d], True),
            (p + "post_attention_layernorm.weight", "norm", [h], False),
            (p + "mlp.gate_proj.weight", "linear", [i, h], True),
            (p + "mlp.up_proj.weight", "linear", [i, h], True),
            (p + "mlp.down_proj.weight", "linear", [h, i], True),
        ]
    out.append(("model.norm.weight", "norm", [h], False))
    if not cfg.get("tie_word_embeddings", False):
        out.append(("lm_head.weight", "linear", [v, h], True))
    return out


def ct_pack(module: str, out: int, inp: int, bits: int, group: int | None, sym: bool, dt: str):
    pack = 32 // bits
    t = [(module + ".weight_packed", "I32", [out, math.ceil(inp / pack)])]
    if group is None:  # channel
        t.append((module + ".weight_scale", dt, [out, 1]))
        groups = 1
    else:
        groups = math.ceil(inp / group)
        t.append((module + ".weight_scale", dt, [out, groups]))
    t.append((module + ".weight_shape", "I64", [2]))
    if not sym:
        t.append((module + ".weight_zero_point", "I32", [math.ceil(out / pack), groups]))
    return t


def ct_fp8(module, out, inp, strategy, dt, static_input):
    scale = {"channel": [out, 1], "tensor": [1]}[strategy]
    t = [(module + ".weight", "F8_E4M3", [out, inp]), (module + ".weight_scale", dt, scale)]
    if static_input:
        t.append((module + ".input_scale", dt, [1]))
    return t


def ct_int8(module, out, inp, dt):
    return [(module + ".weight", "I8", [out, inp]), (module + ".weight_scale", dt, [out, 1])]


def ct_nvfp4(module, out, inp, w4a4=True):
    t = [
        (module + ".weight_packed", "U8", [out, inp // 2]),
        (module + ".weight_scale", "F8_E4M3", [out, inp // 16]),
        (module + ".weight_global_scale", "F32", [1]),
    ]
    if w4a4:
        t.append((module + ".input_global_scale", "F32", [1]))
    return t


def modelopt_fp8(module, out, inp):
    return [
        (module + ".weight", "F8_E4M3", [out, inp]),
        (module + ".weight_scale", "F32", []),
        (module + ".input_scale", "F32", []),
    ]


def modelopt_nvfp4(module, out, inp):
    return [
        (module + ".weight", "U8", [out, inp // 2]),
        (module + ".weight_scale", "F8_E4M3", [out, inp // 16]),
        (module + ".weight_scale_2", "F32", []),
        (module + ".input_scale", "F32", []),
    ]


def fp8_block(module, out, inp):
    return [
        (module + ".weight", "F8_E4M3", [out, inp]),
        (module + ".weight_scale_inv", "F32", [math.ceil(out / 128), math.ceil(inp / 128)]),
    ]


def gptq(module, out, inp, bits, group):
    groups = math.ceil(inp / group)
    return [
        (module + ".qweight", "I32", [inp * bits // 32, out]),
        (module + ".qzeros", "I32", [groups, out * bits // 32]),
        (module + ".scales", "F16", [groups, out]),
        (module + ".g_idx", "I32", [inp]),
    ]


def awq(module, out, inp, group):
    groups = math.ceil(inp / group)
    return [
        (module + ".qweight", "I32", [inp, out // 8]),
        (module + ".qzeros", "I32", [groups, out // 8]),
        (module + ".scales", "F16", [groups, out]),
    ]


def f32(x: float) -> float:
    """x rounded to float32, as `QuantState.offset.item()` returns it."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


# A mean absmax whose repr has the usual 20 characters (Python prints float32 means in 16-21).
NESTED_OFFSET = f32(0.0257160179)
assert len(repr(NESTED_OFFSET)) == 20, repr(NESTED_OFFSET)


def bnb4(module, out, inp, double_quant):
    """bitsandbytes 4-bit as `QuantState.as_dict(packed=True)` saves it (bitsandbytes 0.50
    functional.py; transformers' bnb 4-bit serialization): packed codes, absmax (8-bit with
    double quantization), the code tables, and the JSON rest as a uint8 tensor."""
    n = out * inp
    blocks = math.ceil(n / 64)
    state = {"quant_type": "nf4", "blocksize": 64, "dtype": "bfloat16", "shape": [out, inp]}
    t = [
        (module + ".weight", "U8", [math.ceil(n / 2), 1]),
        (module + ".weight.absmax", "U8" if double_quant else "F32", [blocks]),
        (module + ".weight.quant_map", "F32", [16]),
    ]
    if double_quant:
        t += [
            (module + ".weight.nested_absmax", "F32", [math.ceil(blocks / 256)]),
            (module + ".weight.nested_quant_map", "F32", [256]),
        ]
        state.update({"nested_blocksize": 256, "nested_dtype": "float32", "nested_offset": NESTED_OFFSET})
    t.append((module + ".weight.quant_state.bitsandbytes__nf4", "U8", [len(json.dumps(state).encode())]))
    return t


def bnb8(module, out, inp):
    """bitsandbytes LLM.int8: int8 codes, the FP32 row scales `SCB` and a `weight_format` byte."""
    return [
        (module + ".weight", "I8", [out, inp]),
        (module + ".SCB", "F32", [out]),
        (module + ".weight_format", "U8", []),
    ]


def ignored(module: str, ignore: list[str]) -> bool:
    """compressed-tensors' `_match_name`: `re:` entries with re.match, else the exact name."""
    for entry in ignore:
        if entry.startswith("re:"):
            if re.match(entry[3:], module):
                return True
        elif entry == module:
            return True
    return False


_UNSET = object()


def ct_config(fmt: str, weights: dict, inputs=_UNSET, ignore=None) -> dict:
    """A compressed-tensors `quantization_config` with one group on every `Linear` (`inputs`:
    its `input_activations`, written only when given, `None` included)."""
    group = {"targets": ["Linear"], "weights": weights}
    if inputs is not _UNSET:
        group["input_activations"] = inputs
    return {"quant_method": "compressed-tensors", "format": fmt, "config_groups": {"group_0": group},
            "ignore": ignore or []}


# Each fixture: (name, quantization_config, float dtype of the rest, per-linear writer).
def fixtures():
    dense_ignore = ["lm_head"]
    yield (
        "ct-fp8-dynamic",
        ct_config(
            "float-quantized",
            weights={"num_bits": 8, "type": "float", "symmetric": True, "strategy": "channel",
                     "group_size": None, "dynamic": False},
            inputs={"num_bits": 8, "type": "float", "symmetric": True,
                     "strategy": "token", "dynamic": True},
            ignore=dense_ignore,
        ),
        "BF16",
        lambda m, o, i: ct_fp8(m, o, i, "channel", "BF16", False),
    )
    yield (
        "ct-fp8-static",
        ct_config(
            "float-quantized",
            weights={"num_bits": 8, "type": "float", "strategy": "tensor", "dynamic": False},
            inputs={"num_bits": 8, "type": "float", "strategy": "tensor",
                     "dynamic": False},
            ignore=dense_ignore,
        ),
        "BF16",
        lambda m, o, i: ct_fp8(m, o, i, "tensor", "BF16", True),
    )
    yield (
        "ct-w4a16",
        ct_config(
            "pack-quantized",
            weights={"num_bits": 4, "type": "int", "symmetric": True, "strategy": "group",
                     "group_size": 128},
            ignore=dense_ignore,
        ),
        "BF16",
        lambda m, o, i: ct_pack(m, o, i, 4, 128, True, "BF16"),
    )
    yield (
        "ct-w4a16-asym-g32-skip-layer0",
        ct_config(
            "pack-quantized",
            weights={"num_bits": 4, "type": "int", "symmetric": False, "strategy": "group",
                     "group_size": 32},
            ignore=["lm_head", r"re:model\.layers\.0\..*"],
        ),
        "BF16",
        lambda m, o, i: ct_pack(m, o, i, 4, 32, False, "BF16"),
    )
    yield (
        "ct-w8a8-int",
        ct_config(
            "int-quantized",
            weights={"num_bits": 8, "type": "int", "symmetric": True, "strategy": "channel"},
            inputs={"num_bits": 8, "type": "int", "symmetric": True,
                     "strategy": "token", "dynamic": True},
            ignore=dense_ignore,
        ),
        "BF16",
        lambda m, o, i: ct_int8(m, o, i, "BF16"),
    )
    yield (
        "ct-nvfp4",
        ct_config(
            "nvfp4-pack-quantized",
            weights={"num_bits": 4, "type": "float", "symmetric": True, "strategy": "tensor_group",
                     "group_size": 16, "dynamic": False},
            inputs={"num_bits": 4, "type": "float", "symmetric": True,
                     "strategy": "tensor_group", "group_size": 16, "dynamic": "local"},
            ignore=dense_ignore,
        ),
        "BF16",
        lambda m, o, i: ct_nvfp4(m, o, i),
    )
    yield (
        "ct-nvfp4a16",
        ct_config(
            "nvfp4-pack-quantized",
            weights={"num_bits": 4, "type": "float", "symmetric": True, "strategy": "tensor_group",
                     "group_size": 16, "dynamic": False},
            inputs=None,
            ignore=dense_ignore,
        ),
        "BF16",
        lambda m, o, i: ct_nvfp4(m, o, i, w4a4=False),
    )
    # Per-module mixes (Kimi K2 Thinking's INT4 experts beside BF16 attention; FP4 experts beside
    # FP8 attention): groups targeting modules by pattern, each with its own format.
    mixed = {
        "quant_method": "compressed-tensors",
        "format": "mixed-precision",
        "config_groups": {
            "group_0": {
                "targets": [r"re:.*mlp\.(gate|up|down)_proj$"],
                "weights": {"num_bits": 4, "type": "int", "symmetric": True, "strategy": "group", "group_size": 32},
                "format": "pack-quantized",
            },
            "group_1": {
                "targets": [r"re:.*self_attn\.(q|k|v|o)_proj$"],
                "weights": {"num_bits": 8, "type": "float", "symmetric": True, "strategy": "channel"},
                "format": "float-quantized",
            },
        },
        "ignore": ["lm_head"],
    }

    def mixed_writer(m, o, i):
        if re.match(r".*mlp\.(gate|up|down)_proj$", m):
            return ct_pack(m, o, i, 4, 32, True, "BF16")
        return ct_fp8(m, o, i, "channel", "BF16", False)

    yield ("ct-mixed-int4-mlp-fp8-attn", mixed, "BF16", mixed_writer)
    yield (
        "modelopt-fp8",
        {"quant_method": "modelopt", "quant_algo": "FP8", "exclude_modules": ["lm_head"]},
        "BF16",
        modelopt_fp8,
    )
    yield (
        "modelopt-nvfp4",
        {"quant_method": "modelopt", "quant_algo": "NVFP4", "group_size": 16,
         "exclude_modules": ["lm_head", "model.layers.15.mlp*"]},
        "BF16",
        lambda m, o, i: None if m.startswith("model.layers.15.mlp") else modelopt_nvfp4(m, o, i),
    )
    yield (
        "fp8-block128",
        {"quant_method": "fp8", "fmt": "e4m3", "activation_scheme": "dynamic", "weight_block_size": [128, 128]},
        "BF16",
        fp8_block,
    )
    yield (
        "gptq-4bit-g128",
        {"quant_method": "gptq", "bits": 4, "group_size": 128, "desc_act": True, "sym": True,
         "dynamic": {"-:model\\.layers\\.1\\.mlp\\..*": {}}},
        "F16",
        lambda m, o, i: None if re.match(r"model\.layers\.1\.mlp\..*", m) else gptq(m, o, i, 4, 128),
    )
    yield (
        "awq-4bit-g128",
        {"quant_method": "awq", "bits": 4, "group_size": 128, "version": "gemm", "zero_point": True,
         "modules_to_not_convert": ["self_attn.o_proj"]},
        "F16",
        lambda m, o, i: None if m.endswith("self_attn.o_proj") else awq(m, o, i, 128),
    )

    bnb = {"quant_method": "bitsandbytes", "_load_in_4bit": True, "_load_in_8bit": False,
           "bnb_4bit_compute_dtype": "bfloat16", "bnb_4bit_quant_storage": "uint8",
           "bnb_4bit_quant_type": "nf4", "bnb_4bit_use_double_quant": True,
           "llm_int8_enable_fp32_cpu_offload": False, "llm_int8_has_fp16_weight": False,
           "llm_int8_skip_modules": None, "llm_int8_threshold": 6.0,
           "load_in_4bit": True, "load_in_8bit": False}
    yield ("bnb-nf4-dq", bnb, "BF16", lambda m, o, i: bnb4(m, o, i, True))
    yield ("bnb-nf4", dict(bnb, bnb_4bit_use_double_quant=False), "BF16",
           lambda m, o, i: bnb4(m, o, i, False))
    yield ("bnb-int8", dict(bnb, _load_in_4bit=False, _load_in_8bit=True, load_in_4bit=False,
                            load_in_8bit=True), "F16", bnb8)


def main() -> None:
    base = json.loads(BASE_CONFIG.read_text())
    OUT.mkdir(parents=True, exist_ok=True)
    for name, qc, dtype, writer in fixtures():
        cfg = dict(base)
        cfg["quantization_config"] = qc
        cfg["torch_dtype"] = {"BF16": "bfloat16", "F16": "float16"}[dtype]
        ignore = qc.get("ignore", [])
        lines = []
        for tname, role, shape, linear in llama_tensors(base):
            module = tname.removesuffix(".weight")
            quantized = None
            if linear and not (qc["quant_method"] == "compressed-tensors" and ignored(module, ignore)) \
                    and not (module == "lm_head"):
                quantized = writer(module, shape[0], shape[1])
            if quantized is None:
                quantized = [(tname, dtype, shape)]
            for n, dt, sh in quantized:
                lines.append(f"{n}\t{dt}\t{','.join(str(x) for x in sh)}")
        d = OUT / name
        d.mkdir(exist_ok=True)
        (d / "config.json").write_text(json.dumps(cfg, indent=2) + "\n")
        (d / "header.tsv").write_text("\n".join(lines) + "\n")
        print(f"{name}: {len(lines)} tensors")


if __name__ == "__main__":
    main()
