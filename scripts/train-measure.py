#!/usr/bin/env python3
"""Measured training steps, for checking Headroom's training memory against reality.

Runs real optimizer steps with PyTorch, transformers, peft and bitsandbytes (versions pinned in
scripts/train-requirements.txt; not part of scripts/test) on architectures built from the
catalog's real config.json files with random weights, and records each run's peak memory.

How the peak is measured (CPU):
  * allocator: PyTorch's profiler with `profile_memory=True` reports every allocation and free of
    the CPU allocator with its running "Total Allocated" (bytes live since the profiler started).
    The profiler starts after the model is built, so the peak is the bytes live at that moment
    (every parameter and buffer storage, counted once) plus the largest "Total Allocated" seen
    during the measured steps. This is what `torch.cuda.max_memory_allocated` measures on a GPU.
  * process: the resident set's high-water mark (VmHWM, reset through /proc/self/clear_refs just
    before the steps) minus the resident set at that moment, plus the same live bytes. It also
    sees the allocator's caching, libraries' scratch buffers and page granularity, and is
    recorded for comparison only.
With a CUDA GPU (`--device cuda`) the peak is torch.cuda.max_memory_allocated over the steps, and
the rows are written with the GPU's name, apart from the CPU rows.

Two steps are run: the first creates the optimizer states, the second is the steady state; the
peak is the larger of the two.

  /work/refenv/bin/python scripts/train-measure.py --out tests/fixtures/training/measured-cpu.json
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import torch

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "crates/core/src/catalog/models"

# HRM-Text's class-default config, shortened to 2 layers a stack.
HRM_CONFIG = "tests/fixtures/configs/transformers-defaults/hrm_text.json"
HRM_SHORT = {"num_layers_per_stack": 2, "num_hidden_layers": 16}

# Each case: what is trained and how. `layers` shortens the stack so a step fits this machine's
# time (the layer shapes, vocabulary and embeddings stay the real ones).
CASES = [
    # Full fine-tuning.
    dict(model="smollm2-135m", mode="full", precision="amp", seq=512, batch=2, ckpt=False),
    dict(model="smollm2-135m", mode="full", precision="amp", seq=512, batch=2, ckpt=True),
    dict(model="smollm2-135m", mode="full", precision="pure-bf16", seq=512, batch=2, ckpt=False),
    dict(model="smollm2-135m", mode="full", precision="fp32", seq=256, batch=2, ckpt=False),
    dict(model="smollm2-135m", mode="full", precision="pure-bf16", optimizer="sgd", seq=512, batch=2, ckpt=False),
    dict(model="qwen2.5-0.5b", layers=8, mode="full", precision="pure-bf16", seq=512, batch=1, ckpt=False),
    dict(model="qwen2.5-0.5b", layers=8, mode="full", precision="amp", seq=512, batch=1, ckpt=True),
    # LoRA on a 16-bit base.
    dict(model="smollm2-360m", mode="lora", base="bf16", rank=16, targets="q,v", dropout=0.05, seq=512, batch=2, ckpt=False),
    dict(model="smollm2-360m", mode="lora", base="bf16", rank=16, targets="all-linear", dropout=0.05, seq=512, batch=2, ckpt=False),
    dict(model="smollm2-360m", mode="lora", base="bf16", rank=16, targets="all-linear", dropout=0.0, seq=512, batch=2, ckpt=False),
    dict(model="smollm2-360m", mode="lora", base="bf16", rank=16, targets="all-linear", dropout=0.05, seq=512, batch=2, ckpt=True),
    dict(model="qwen2.5-0.5b", layers=8, mode="lora", base="bf16", rank=16, targets="all-linear", dropout=0.05, seq=1024, batch=1, ckpt=True),
    dict(model="qwen3-0.6b", layers=8, mode="lora", base="bf16", rank=8, targets="q,k,v,o", dropout=0.1, seq=512, batch=2, ckpt=False),
    dict(model="llama-3.2-1b", layers=4, mode="lora", base="bf16", rank=16, targets="all-linear", dropout=0.05, seq=512, batch=1, ckpt=True),
    # LoRA on an FP32 base under bf16 autocast (Trainer's bf16=True on a model loaded in FP32).
    dict(model="smollm2-360m", mode="lora", base="fp32-amp", rank=16, targets="all-linear", dropout=0.05, seq=512, batch=2, ckpt=False),
    dict(model="smollm2-360m", mode="lora", base="fp32-amp", rank=16, targets="all-linear", dropout=0.05, seq=512, batch=2, ckpt=True),
    # QLoRA: bitsandbytes NF4 with double quantization, peft's prepare_model_for_kbit_training.
    dict(model="smollm2-360m", mode="qlora", rank=16, targets="all-linear", dropout=0.05, seq=512, batch=2, ckpt=True),
    dict(model="smollm2-360m", mode="qlora", rank=16, targets="all-linear", dropout=0.05, seq=512, batch=2, ckpt=False),
    dict(model="qwen2.5-0.5b", layers=8, mode="qlora", rank=16, targets="all-linear", dropout=0.05, seq=512, batch=1, ckpt=True),
    # Gradient accumulation (gradients persist beside the next micro-batch's activations), the
    # optimizer stepped in the backward pass (PyTorch's post-accumulate-grad hooks, as torchtune's
    # optimizer_in_bwd), BF16 adapters (peft's autocast_adapter_dtype=False), DoRA.
    dict(model="smollm2-135m", mode="full", precision="pure-bf16", accum=2, seq=512, batch=2, ckpt=False),
    dict(model="smollm2-135m", mode="full", precision="pure-bf16", oib=True, seq=512, batch=2, ckpt=False),
    dict(model="smollm2-360m", mode="lora", base="bf16", adapters="bf16", rank=16, targets="all-linear", dropout=0.05, seq=512, batch=2, ckpt=False),
    dict(model="smollm2-360m", mode="lora", base="bf16", dora=True, rank=16, targets="all-linear", dropout=0.0, seq=512, batch=2, ckpt=False),
    dict(model="smollm2-360m", mode="lora", base="bf16", dora=True, rank=16, targets="q,v", dropout=0.05, seq=512, batch=2, ckpt=True),
    # A mixture of experts (OLMoE's real layer shapes, two layers).
    dict(model="olmoe-1b-7b", layers=2, mode="full", precision="pure-bf16", seq=512, batch=1, ckpt=False),
    dict(model="olmoe-1b-7b", layers=2, mode="lora", base="bf16", rank=16, targets="q,v", dropout=0.05, seq=512, batch=2, ckpt=False),
    # LoRA on the head (tied and untied) and on the embeddings.
    dict(model="smollm2-360m", mode="lora", base="bf16", rank=16, targets="q,v,lm_head", dropout=0.05, seq=512, batch=2, ckpt=True),
    dict(model="smollm2-360m", mode="lora", base="bf16", rank=16, targets="q,v,embed", dropout=0.0, seq=512, batch=2, ckpt=True),
    dict(model="pythia-160m", mode="lora", base="bf16", rank=16, targets="qkv,lm_head", dropout=0.05, seq=512, batch=2, ckpt=False,
         peft=["query_key_value", "lm_head"]),
    # Fused projections (Phi-3's qkv_proj and gate_up_proj); sliding windows, q/k norms and a
    # 262k vocabulary (Gemma 3).
    dict(model="phi-3-mini-4k", layers=2, mode="lora", base="bf16", rank=16, targets="all-linear", dropout=0.05, seq=512, batch=2, ckpt=False),
    dict(model="gemma-3-1b", layers=4, mode="lora", base="bf16", rank=16, targets="all-linear", dropout=0.05, seq=512, batch=1, ckpt=False),
    # Looped stacks (HRM-Text-1B's widths, 2 layers a stack: 16 runs, of which the early low
    # ones run without gradients and keep nothing; in FP32: this CPU's BF16 products are far too
    # slow for a 1.4B model), and the same with every run keeping its activations; at 2,048
    # tokens the activations set the peak (during the second step's backward pass).
    *[dict(model=model, config=HRM_CONFIG, overrides={**HRM_SHORT, **extra}, mode="full", precision="fp32",
           seq=seq, batch=1, ckpt=False)
      for seq in (512, 2048)
      for model, extra in (("hrm-text-1b", {}), ("hrm-text-1b-all-grad", {"L_bp_cycles": [3, 3]}))],
]

PEFT_TARGETS = {
    "q": "q_proj", "k": "k_proj", "v": "v_proj", "o": "o_proj",
    "gate": "gate_proj", "up": "up_proj", "down": "down_proj",
    "lm_head": "lm_head", "embed": "embed_tokens",
}


def case_id(c: dict) -> str:
    parts = [c["model"]]
    if c.get("layers"):
        parts.append(f"{c['layers']}l")
    parts.append(c["mode"])
    for k in ("precision", "base", "optimizer"):
        if c.get(k):
            parts.append(str(c[k]))
    for k in ("adapters", "dora", "oib", "accum"):
        if c.get(k):
            parts.append(f"{k}={c[k]}")
    if c["mode"] != "full":
        parts.append(f"r{c['rank']}-{c['targets']}-do{c['dropout']}")
    parts.append(f"s{c['seq']}b{c['batch']}")
    parts.append("ckpt" if c["ckpt"] else "nockpt")
    return "/".join(parts)


def config_of(c: dict) -> dict:
    # A catalog model's config, or (`config`) one of the repository's fixtures with `overrides`.
    cfg = json.loads(((ROOT / c["config"]) if c.get("config") else (CATALOG / f"{c['model']}.json")).read_text())
    cfg.update(c.get("overrides", {}))
    if c.get("layers"):
        key = "n_layer" if "n_layer" in cfg else "num_hidden_layers"
        cfg[key] = c["layers"]
        # Per-layer lists shorten with the stack.
        if isinstance(cfg.get("layer_types"), list):
            cfg["layer_types"] = cfg["layer_types"][: c["layers"]]
        if "max_window_layers" in cfg:
            cfg["max_window_layers"] = min(cfg["max_window_layers"], c["layers"])
    return cfg


def vm(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


def live_bytes(model, extra=()) -> int:
    seen = set()
    total = 0
    tensors = list(model.parameters()) + list(model.buffers()) + list(extra)
    for t in tensors:
        s = t.untyped_storage()
        key = s.data_ptr()
        if key in seen or s.nbytes() == 0:
            continue
        seen.add(key)
        total += s.nbytes()
    return total


def build(c: dict, device: str):
    import transformers
    from transformers import AutoConfig, AutoModelForCausalLM

    cfg_dict = config_of(c)
    model_type = cfg_dict["model_type"]
    cfg = AutoConfig.for_model(model_type, **{k: v for k, v in cfg_dict.items() if k != "model_type"})
    cfg.use_cache = False
    torch.manual_seed(0)
    mode = c["mode"]
    if mode == "qlora":
        from transformers import BitsAndBytesConfig
        from peft import prepare_model_for_kbit_training

        tmp = tempfile.mkdtemp(prefix="headroom-qlora-")
        m = AutoModelForCausalLM.from_config(cfg, dtype=torch.bfloat16, attn_implementation="sdpa")
        m.save_pretrained(tmp)
        del m
        gc.collect()
        q = BitsAndBytesConfig(
            load_in_4bit=True,
            bnb_4bit_quant_type="nf4",
            bnb_4bit_use_double_quant=True,
            bnb_4bit_compute_dtype=torch.bfloat16,
        )
        model = AutoModelForCausalLM.from_pretrained(
            tmp, quantization_config=q, dtype=torch.bfloat16, device_map=device,
            attn_implementation="sdpa",
        )
        model.config.use_cache = False
        model = prepare_model_for_kbit_training(model, use_gradient_checkpointing=c["ckpt"])
    else:
        dtype = torch.bfloat16
        if (mode == "full" and c["precision"] in ("amp", "fp32")) or c.get("base") == "fp32-amp":
            dtype = torch.float32
        model = AutoModelForCausalLM.from_config(cfg, dtype=dtype, attn_implementation="sdpa").to(device)
        if c["ckpt"]:
            model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    if mode in ("lora", "qlora"):
        from peft import LoraConfig, get_peft_model

        targets = c["targets"]
        tm = "all-linear" if targets == "all-linear" else (
            c.get("peft") or [PEFT_TARGETS[t] for t in targets.split(",")])
        lc = LoraConfig(r=c["rank"], lora_alpha=2 * c["rank"], lora_dropout=c["dropout"],
                        target_modules=tm, task_type="CAUSAL_LM", use_dora=bool(c.get("dora")))
        model = get_peft_model(model, lc, autocast_adapter_dtype=c.get("adapters", "fp32") == "fp32")
        if c["ckpt"] and mode == "lora":
            model.enable_input_require_grads()
    model.train()
    return model, transformers.__version__


def optimizer_of(c: dict, params):
    name = c.get("optimizer", "adamw")
    if name == "adamw":
        # The Trainer's default since torch 2.8 (`adamw_torch_fused`): no step temporaries.
        return torch.optim.AdamW(params, lr=1e-5, fused=True)
    if name == "sgd":
        return torch.optim.SGD(params, lr=1e-5)
    raise SystemExit(f"unknown optimizer {name}")


def autocast_of(c: dict, device: str):
    amp = (c["mode"] == "full" and c["precision"] == "amp") or c.get("base") == "fp32-amp"
    if amp or c["mode"] == "qlora":
        return torch.autocast(device_type=device, dtype=torch.bfloat16)
    return torch.autocast(device_type=device, enabled=False)


def run_case(c: dict, device: str) -> dict:
    from torch.profiler import ProfilerActivity, profile

    model, tf_version = build(c, device)
    params = [p for p in model.parameters() if p.requires_grad]
    if c.get("oib"):
        # One optimizer per parameter, stepped as soon as its gradient is accumulated.
        per_param = {p: optimizer_of(c, [p]) for p in params}

        def hook(p):
            per_param[p].step()
            per_param[p].zero_grad(set_to_none=True)

        for p in params:
            p.register_post_accumulate_grad_hook(hook)
        opt = None
    else:
        opt = optimizer_of(c, params)
    vocab = model.config.get_text_config().vocab_size
    g = torch.Generator().manual_seed(1)
    ids = torch.randint(0, vocab, (c["batch"], c["seq"]), generator=g).to(device)
    trainable = sum(p.numel() for p in params)
    total_params = sum(p.numel() for p in model.parameters())
    gc.collect()
    before = live_bytes(model, [ids])
    rss0 = vm("VmRSS")
    steps = []

    def step():
        # As Trainer's training_step: the outputs (and their logits) are dropped before backward.
        for _ in range(c.get("accum", 1)):
            with autocast_of(c, device):
                loss = model(input_ids=ids, labels=ids).loss
            loss.backward()
            del loss
        if opt is not None:
            opt.step()
            opt.zero_grad(set_to_none=True)

    t0 = time.time()
    if device == "cuda":
        torch.cuda.synchronize()
        torch.cuda.reset_peak_memory_stats()
        base_cuda = torch.cuda.memory_allocated()
        for _ in range(2):
            step()
            torch.cuda.synchronize()
            steps.append(torch.cuda.max_memory_allocated())
        peak = max(steps)
        rss_peak = None
        del base_cuda
    else:
        Path("/proc/self/clear_refs").write_text("5")
        with profile(activities=[ProfilerActivity.CPU], profile_memory=True) as prof:
            for _ in range(2):
                step()
        hwm = vm("VmHWM")
        trace = Path(tempfile.mkstemp(suffix=".json")[1])
        prof.export_chrome_trace(str(trace))
        events = json.loads(trace.read_text())["traceEvents"]
        trace.unlink()
        allocated = [e["args"]["Total Allocated"] for e in events
                     if e.get("name") == "[memory]" and e["args"].get("Device Type", 0) == 0]
        peak = before + max(allocated, default=0)
        rss_peak = before + max(0, hwm - rss0)
    seconds = time.time() - t0
    row = dict(
        id=case_id(c),
        settings=c,
        params_total=total_params,
        trainable_params=trainable,
        live_before_step=before,
        peak_allocated=peak,
        peak_rss=rss_peak,
        seconds=round(seconds, 1),
        transformers=tf_version,
    )
    del model, opt
    gc.collect()
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out")
    ap.add_argument("--case", help=argparse.SUPPRESS)
    ap.add_argument("--only", help="substring of the case ids to run")
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--threads", type=int, default=0)
    args = ap.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    if args.case:
        print(json.dumps(run_case(json.loads(args.case), args.device)))
        return
    import peft
    import transformers
    try:
        import bitsandbytes
        bnb = bitsandbytes.__version__
    except Exception:  # noqa: BLE001 - optional for the non-QLoRA rows
        bnb = None
    out = Path(args.out)
    rows = []
    if out.exists():
        rows = json.loads(out.read_text()).get("runs", [])
    done = {r["id"] for r in rows}
    for c in CASES:
        cid = case_id(c)
        if args.only and args.only not in cid:
            continue
        if cid in done:
            continue
        print(f"… {cid}", file=sys.stderr, flush=True)
        # One process per case: the profiler's running total is per process.
        cmd = [sys.executable, __file__, "--case", json.dumps(c), "--device", args.device]
        if args.threads:
            cmd += ["--threads", str(args.threads)]
        res = subprocess.run(cmd, capture_output=True, text=True)
        if res.returncode != 0:
            print(res.stderr[-3000:], file=sys.stderr)
            raise SystemExit(f"case {cid} failed")
        row = json.loads(res.stdout.strip().splitlines()[-1])
        print(f"  peak {row['peak_allocated'] / 2**20:.1f} MiB (rss {row['peak_rss'] and row['peak_rss'] / 2**20:.1f}) "
              f"in {row['seconds']} s", file=sys.stderr, flush=True)
        rows = [r for r in rows if r["id"] != cid] + [row]
        doc = dict(
            what="Peak memory of real training steps (two optimizer steps), by scripts/train-measure.py",
            device=("cuda: " + torch.cuda.get_device_name()) if args.device == "cuda" else "cpu",
            measured=time.strftime("%Y-%m-%d"),
            versions=dict(python=platform.python_version(), torch=torch.__version__,
                          transformers=transformers.__version__, peft=peft.__version__,
                          bitsandbytes=bnb),
            method=("allocator: profiler Total Allocated peak + live bytes before the steps"
                    if args.device == "cpu" else "torch.cuda.max_memory_allocated"),
            runs=rows,
        )
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
