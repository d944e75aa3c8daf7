#!/usr/bin/env python3
"""Writes the Hugging Face Hub fixtures under tests/fixtures/hub/ that the end-to-end tests serve
with tests/e2e/hub-server.mjs in place of huggingface.co.

Each repository is a folder `hub/<org>/<name>/` holding what the Hub would serve for it:
`config.json` (a catalog config, as published), and the safetensors files written as their
headers only (the 8-byte length and the JSON header, exactly as the `safetensors` library lays
them out: tensors sorted by name, contiguous offsets, the header padded with spaces to a multiple
of 8), with `model.safetensors.index.json` for sharded ones. The weights are not there: the page
never reads them, and the server's request log lets the tests prove it.

Special files, never listed: `_gated` (the token the repository accepts: without it the server
answers 401, with another 403) and `_alias.json` (files served from elsewhere in tests/fixtures,
for GGUF repositories: `{"name-in-repo.gguf": "gguf/llama-1b-q4_k_m.gguf"}`).

Run from the repository root: `scripts/make-hub-fixtures.py` (Python 3, no packages needed).
"""

import json
import math
import os
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CATALOG = os.path.join(ROOT, "crates/core/src/catalog/models")
OUT = os.path.join(ROOT, "tests/fixtures/hub")

BITS = {"F32": 32, "BF16": 16, "F16": 16, "F8_E4M3": 8, "I32": 32}


def decoder_tensors(cfg, quant_block=None, gptq_group=None):
    """Every tensor of a Llama-style checkpoint (llama, qwen2, qwen3) with HF names:
    (name, dtype, shape). With `quant_block`, linear weights inside the blocks are FP8 with a
    BF16 `weight_scale_inv` per block, as in Qwen's and DeepSeek's FP8 checkpoints. With
    `gptq_group`, they are AutoGPTQ's 4-bit layout: `qweight` (I32, 8 values per int, [in/8, out]),
    `qzeros` (I32, [in/group, out/8]), `scales` (F16, [in/group, out]) and `g_idx` (I32, [in]),
    with the rest in F16."""
    h = cfg["hidden_size"]
    inter = cfg["intermediate_size"]
    heads = cfg["num_attention_heads"]
    kv = cfg.get("num_key_value_heads", heads)
    hd = cfg.get("head_dim") or h // heads
    vocab = cfg["vocab_size"]
    qkv_bias = cfg["model_type"] == "qwen2" or cfg.get("attention_bias", False)
    qk_norm = cfg["model_type"] == "qwen3"
    plain = "F16" if gptq_group else "BF16"
    out = [("model.embed_tokens.weight", plain, [vocab, h])]

    def linear(name, rows, cols):
        if gptq_group:
            g = gptq_group
            out.append((name + ".qweight", "I32", [cols // 8, rows]))
            out.append((name + ".qzeros", "I32", [cols // g, rows // 8]))
            out.append((name + ".scales", "F16", [cols // g, rows]))
            out.append((name + ".g_idx", "I32", [cols]))
        elif quant_block:
            b = quant_block
            out.append((name + ".weight", "F8_E4M3", [rows, cols]))
            out.append((name + ".weight_scale_inv", "BF16", [math.ceil(rows / b), math.ceil(cols / b)]))
        else:
            out.append((name + ".weight", plain, [rows, cols]))

    for i in range(cfg["num_hidden_layers"]):
        p = f"model.layers.{i}."
        out.append((p + "input_layernorm.weight", plain, [h]))
        linear(p + "self_attn.q_proj", heads * hd, h)
        linear(p + "self_attn.k_proj", kv * hd, h)
        linear(p + "self_attn.v_proj", kv * hd, h)
        if qkv_bias:
            out.append((p + "self_attn.q_proj.bias", plain, [heads * hd]))
            out.append((p + "self_attn.k_proj.bias", plain, [kv * hd]))
            out.append((p + "self_attn.v_proj.bias", plain, [kv * hd]))
        if qk_norm:
            out.append((p + "self_attn.q_norm.weight", plain, [hd]))
            out.append((p + "self_attn.k_norm.weight", plain, [hd]))
        linear(p + "self_attn.o_proj", h, heads * hd)
        out.append((p + "post_attention_layernorm.weight", plain, [h]))
        linear(p + "mlp.gate_proj", inter, h)
        linear(p + "mlp.up_proj", inter, h)
        linear(p + "mlp.down_proj", h, inter)
    out.append(("model.norm.weight", plain, [h]))
    if not cfg.get("tie_word_embeddings", False):
        out.append(("lm_head.weight", plain, [vocab, h]))
    return out


def nbytes(dtype, shape):
    n = 1
    for d in shape:
        n *= d
    return n * BITS[dtype] // 8


def header_only(tensors):
    """The bytes of a safetensors file up to (not including) its data, and the data size."""
    header = {"__metadata__": {"format": "pt"}}
    offset = 0
    for name, dtype, shape in sorted(tensors):
        size = nbytes(dtype, shape)
        header[name] = {"dtype": dtype, "shape": shape, "data_offsets": [offset, offset + size]}
        offset += size
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text, offset


def write_repo(org, name, cfg, tensors, shards=1, gated=None, extra_config=None):
    d = os.path.join(OUT, org, name)
    os.makedirs(d, exist_ok=True)
    c = dict(cfg)
    if extra_config:
        c.update(extra_config)
    with open(os.path.join(d, "config.json"), "w") as f:
        json.dump(c, f, indent=2)
        f.write("\n")
    expected = {"tensors": len(tensors), "tensor_bytes": 0, "files": []}
    if shards == 1:
        blob, data = header_only(tensors)
        with open(os.path.join(d, "model.safetensors"), "wb") as f:
            f.write(blob)
        expected["tensor_bytes"] = data
        expected["files"].append({"name": "model.safetensors", "header_bytes": len(blob), "data_bytes": data})
    else:
        # Split by layer ranges, as transformers' save_pretrained does by size.
        groups = [[] for _ in range(shards)]
        layers = cfg["num_hidden_layers"]
        for t in tensors:
            parts = t[0].split(".")
            if "layers" in parts:
                layer = int(parts[parts.index("layers") + 1])
                groups[min(shards - 1, layer * shards // layers)].append(t)
            elif "embed_tokens" in t[0]:
                groups[0].append(t)
            else:
                groups[-1].append(t)
        weight_map = {}
        total = 0
        for k, g in enumerate(groups):
            fname = f"model-{k + 1:05d}-of-{shards:05d}.safetensors"
            blob, data = header_only(g)
            with open(os.path.join(d, fname), "wb") as f:
                f.write(blob)
            for t in g:
                weight_map[t[0]] = fname
            total += data
            expected["files"].append({"name": fname, "header_bytes": len(blob), "data_bytes": data})
        with open(os.path.join(d, "model.safetensors.index.json"), "w") as f:
            json.dump({"metadata": {"total_size": total}, "weight_map": dict(sorted(weight_map.items()))}, f, indent=2)
            f.write("\n")
        expected["tensor_bytes"] = total
    if gated:
        with open(os.path.join(d, "_gated"), "w") as f:
            f.write(gated)
    with open(os.path.join(d, "_expected.json"), "w") as f:
        json.dump(expected, f, indent=2)
        f.write("\n")


def catalog(cid):
    with open(os.path.join(CATALOG, cid + ".json")) as f:
        return json.load(f)


def main():
    qwen05 = catalog("qwen2.5-0.5b")
    write_repo("Qwen", "Qwen2.5-0.5B-Instruct", qwen05, decoder_tensors(qwen05))

    llama1b = catalog("llama-3.2-1b")
    write_repo("meta-llama", "Llama-3.2-1B", llama1b, decoder_tensors(llama1b), gated="hf_fixture_token_0123456789")

    qwen3 = catalog("qwen3-0.6b")
    fp8 = {
        "quantization_config": {
            "activation_scheme": "dynamic",
            "fmt": "e4m3",
            "quant_method": "fp8",
            "weight_block_size": [128, 128],
        }
    }
    write_repo("Qwen", "Qwen3-0.6B-FP8", qwen3, decoder_tensors(qwen3, quant_block=128), shards=2, extra_config=fp8)

    gptq = {
        "quantization_config": {
            "bits": 4,
            "damp_percent": 0.01,
            "desc_act": False,
            "group_size": 128,
            "modules_in_block_to_quantize": None,
            "quant_method": "gptq",
            "static_groups": False,
            "sym": True,
            "true_sequential": True,
        },
        "torch_dtype": "float16",
    }
    write_repo("Qwen", "Qwen2.5-0.5B-Instruct-GPTQ-Int4", qwen05, decoder_tensors(qwen05, gptq_group=128), extra_config=gptq)

    gguf = os.path.join(OUT, "bartowski", "Llama-3.2-1B-Instruct-GGUF")
    os.makedirs(gguf, exist_ok=True)
    with open(os.path.join(gguf, "_alias.json"), "w") as f:
        json.dump({"Llama-3.2-1B-Instruct-Q4_K_M.gguf": "gguf/llama-1b-q4_k_m.gguf"}, f, indent=2)
        f.write("\n")
    with open(os.path.join(gguf, "README.md"), "w") as f:
        f.write("GGUF quantizations of Llama 3.2 1B Instruct (fixture: the file is served from tests/fixtures/gguf).\n")


if __name__ == "__main__":
    main()
