#!/usr/bin/env python3
"""Headroom against the real llama.cpp: model, KV and compute buffers, context by context.

    check.py --driver DRIVER --headroom HEADROOM --work DIR [--report FILE] [--only NAME]

For each architecture in models.py, writes its GGUF (real shapes, sparse zero data), asks the
real llama.cpp (DRIVER, linked against node-llama-cpp's prebuilt CPU library) what it allocates
for a grid of context settings, asks `headroom estimate --json` the same question with the
matching flags, and compares:

- KV cache and recurrent state: exact (llama.cpp's `context` bytes);
- weights: within 1% (llama.cpp's `model` bytes, all buffers);
- compute buffer: within 5% where Headroom says it rebuilt the graph node for node
  (`llama_cpp.graph_exact`), else within its stated band.

Prints one line per context and exits 1 if any comparison fails. `gguf` comes from the llama.cpp
release under test (its gguf-py, on PYTHONPATH); numpy from the environment.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import models  # noqa: E402

# Settings of the grid: llama.cpp's names; each is also given to Headroom as flags.
BASE = {"n_ctx": 4096, "n_seq": 1, "n_batch": 2048, "n_ubatch": 512, "fa": 1,
        "type_k": "f16", "type_v": "f16", "swa_full": 0, "unified": 0}
GRID = [
    {},
    {"n_ctx": 5000},
    {"n_ctx": 16384},
    {"fa": 0},
    {"fa": 0, "n_ctx": 8192},
    {"n_ubatch": 256},
    {"n_ubatch": 1024, "n_batch": 1024},
    {"n_batch": 256},
    {"type_k": "q8_0", "type_v": "q8_0"},
    {"type_k": "q8_0", "type_v": "f16"},
    {"type_k": "q4_0", "type_v": "q4_0", "n_ctx": 8192},
    {"n_seq": 4, "n_ctx": 16384},
    {"n_seq": 4, "n_ctx": 16384, "unified": 1},
    {"swa_full": 1, "n_ctx": 16384},
    {"n_ctx": 512, "n_ubatch": 512},
    {"fa": 0, "type_k": "q8_0", "type_v": "q8_0"},
]


def settings_line(s: dict) -> str:
    return " ".join(f"{k}={v}" for k, v in s.items())


def headroom_flags(gguf: Path, s: dict) -> list[str]:
    ctx_per_seq = s["n_ctx"] // s["n_seq"]
    kv = {"f16": "fp16", "q8_0": "q8_0", "q4_0": "q4_0", "f32": "fp32"}
    flags = ["estimate", "--gguf", str(gguf), "--runtime", "llama.cpp", "--json",
             "--context", str(ctx_per_seq), "--batch", str(s["n_seq"]),
             "--ubatch", str(s["n_ubatch"]), "--batch-tokens", str(s["n_batch"]),
             "--kv", kv[s["type_k"]], "--kv-v", kv[s["type_v"]]]
    if not s["fa"]:
        flags.append("--no-flash-attention")
    if s["swa_full"]:
        flags.append("--swa-full")
    if s["unified"]:
        flags.append("--kv-unified")
    return flags


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--headroom", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--report")
    ap.add_argument("--only", help="check only the models whose name contains this")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    rows, failures = [], 0
    for spec in models.specs():
        if args.only and args.only not in spec.name:
            continue
        path = models.write(spec, work)
        grid = [dict(BASE, **g) for g in GRID]
        run = subprocess.run([args.driver, str(path)], input="\n".join(settings_line(s) for s in grid) + "\n",
                             capture_output=True, text=True, timeout=600)
        if run.returncode != 0:
            print(f"{spec.name}: llama.cpp failed: {run.stderr[-2000:]}", file=sys.stderr)
            return 1
        answers = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
        # CPU repacking: what llama.cpp puts in CPU_REPACK (the first context's buffers) against
        # Headroom's repack of a run with every layer on the CPU (-ngl 0).
        first = next((a for a in answers if "buffers" in a), None)
        if first is not None:
            real_repack = first["buffers"].get("CPU_REPACK", {}).get("model", 0)
            est = subprocess.run([args.headroom] + headroom_flags(path, grid[0]) + ["--gpu-layers", "0"],
                                 capture_output=True, text=True)
            ours_repack = (json.loads(est.stdout).get("llama_cpp") or {}).get("repacked_bytes", -1) if est.returncode == 0 else -1
            ok = ours_repack == real_repack
            failures += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {spec.name:20s} CPU repack {real_repack:>12} {'=' if ok else '≠ ' + str(ours_repack)}")
        for s, real in zip(grid, answers):
            if "error" in real:
                # llama.cpp refuses this context: Headroom must refuse it too, with a message.
                est = subprocess.run([args.headroom] + headroom_flags(path, s), capture_output=True, text=True)
                ok = est.returncode == 2 and est.stderr.strip() != ""
                failures += not ok
                rows.append({"model": spec.name, "arch": spec.arch, "source": spec.source, "settings": s,
                             "llama_cpp": {"refused": True}, "headroom": {"refused": est.returncode == 2}, "ok": ok})
                print(f"{'ok  ' if ok else 'FAIL'} {spec.name:20s} {settings_line(s):95s} "
                      f"both refuse: {est.stderr.strip()[:90] if ok else 'Headroom estimated it'}")
                continue
            bufs = real["buffers"].values()
            model_b = sum(b["model"] for b in bufs)
            kv_b = sum(b["context"] for b in bufs)
            compute_b = sum(b["compute"] for b in bufs)
            est = subprocess.run([args.headroom] + headroom_flags(path, s), capture_output=True, text=True)
            if est.returncode != 0:
                print(f"{spec.name:22s} {settings_line(s)}: headroom failed: {est.stderr.strip()}")
                failures += 1
                continue
            e = json.loads(est.stdout)
            lc = e.get("llama_cpp") or {}
            # llama.cpp's "context" is the KV cache and the recurrent state together.
            ours = {"weights": e["weights_total"], "kv": lc.get("context_bytes", -1), "compute": lc.get("compute_bytes", 0)}
            exact = bool(lc.get("graph_exact"))
            act = next((t for t in e["breakdown"] if t["term"] == "activations"), None)
            ok_kv = ours["kv"] == kv_b
            ok_w = abs(ours["weights"] - model_b) <= 0.01 * model_b
            ratio = ours["compute"] / compute_b if compute_b else float("inf")
            if exact:
                ok_c = abs(ratio - 1) <= 0.05
            else:
                ok_c = act is not None and act["low"] <= compute_b <= act["high"]
            ok = ok_kv and ok_w and ok_c
            failures += not ok
            rows.append({"model": spec.name, "arch": spec.arch, "source": spec.source, "settings": s,
                         "llama_cpp": {"model": model_b, "kv": kv_b, "compute": compute_b},
                         "headroom": ours, "graph_exact": exact, "ok": ok})
            print(f"{'ok  ' if ok else 'FAIL'} {spec.name:20s} {settings_line(s):95s} "
                  f"kv {'=' if ok_kv else '≠'} {kv_b:>11} {'' if ok_kv else ours['kv']:>11} "
                  f"weights {ours['weights'] / model_b:6.4f} "
                  f"compute {compute_b / 2**20:8.2f} MiB × {ratio:6.4f}{'' if exact else ' (stand-in, in band)' if ok_c else ' (stand-in, OUT of band)'}")
    n = len(rows)
    sized = [r for r in rows if "refused" not in r["llama_cpp"]]
    print(f"\n{n - failures}/{n} contexts agree with llama.cpp ({n - len(sized)} refused by llama.cpp; of the "
          f"{len(sized)} others: KV exact {sum(r['headroom']['kv'] == r['llama_cpp']['kv'] for r in sized)}, "
          f"weights within 1% {sum(abs(r['headroom']['weights'] / r['llama_cpp']['model'] - 1) <= 0.01 for r in sized)}, "
          f"compute within 5% {sum(abs(r['headroom']['compute'] / r['llama_cpp']['compute'] - 1) <= 0.05 for r in sized if r['llama_cpp']['compute'])}, "
          f"compute within 4 KiB {sum(abs(r['headroom']['compute'] - r['llama_cpp']['compute']) <= 4096 for r in sized)})")
    if args.report:
        Path(args.report).write_text(json.dumps(rows, indent=1) + "\n")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
