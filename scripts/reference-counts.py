#!/usr/bin/env python3
"""Reference parameter counts from real PyTorch + Hugging Face transformers (+ peft), written to
tests/fixtures/reference-counts.json for the Rust tests to compare against. It is run by hand,
never by the test suite or CI: its output is committed as a fixture.

Pinned versions (scripts/reference-requirements.txt; Python 3.11):
    torch==2.15.0  transformers==5.24.0  peft==0.21.2  accelerate==1.16.0  safetensors==0.8.0
    huggingface_hub==2.4.0  tokenizers==0.23.3  numpy==2.4.6
    timm==1.0.31  torchvision==0.29.2  pillow==13.0.0  (Gemma 3n's timm vision tower)
(transformers 5.25.0 exists but requires kernels>=0.19.1, which PyPI does not serve yet.)

Set up once (outside the repository; plain PyPI torch, about 5.7 GB with its CUDA wheels):

    python3.11 -m venv /work/refenv
    /work/refenv/bin/pip install -r scripts/reference-requirements.txt

Run from anywhere (offline is fine: nothing is downloaded, no weights are read):

    /work/refenv/bin/python scripts/reference-counts.py            # every default config
    /work/refenv/bin/python scripts/reference-counts.py a.json ... # only these; --merge keeps
                                                                   # the fixture's other entries

Default inputs: every *.json in tests/fixtures/configs/, tests/fixtures/validation/configs/ and
crates/core/src/catalog/models/, subfolders included (configs/transformers-defaults/). Output
keys are the config paths relative to the repository root, plus "_versions"; keys sorted, indent
1, so a rerun with the same versions is byte-identical. Each entry also carries "versions"
(torch, transformers, peft), model_type, class and class_chosen_by. A full run (about 150
configs) takes about 4 minutes on 2 cores; each model builds in 1-5 s.

Each config is read with Python's json (Infinity/NaN allowed), turned into its transformers config
class (CONFIG_MAPPING[model_type].from_dict; trust_remote_code is impossible offline, so a
model_type transformers does not know is recorded as {"error": ...}; when its architectures[0] is
a class transformers has, as Kimi K2's DeepseekV3ForCausalLM, "via_architectures" beside the
error gives the figures with that class's config), and the model is built on
the meta device in bfloat16 (`with torch.device("meta")`: no memory is allocated, a 671B model
builds in seconds). The class is `architectures[0]` when transformers has it for this config
class, else AutoModelForCausalLM, else AutoModelForImageTextToText, else AutoModel. A config with
a text sub-config (multimodal) also gets a "text_only" entry: the same figures for
AutoModelForCausalLM built from config.get_text_config(). transformers 5's strict config
fields reject an int where a float is declared (MPT's attn_config.clip_qkv: 6); such a value is
retried as a float and listed in "config_fixups".

Figures per model (each computed separately; a failure is recorded as {"error": ...} in its place):
  params_total        numel summed over the unique tensors of model.state_dict(keep_vars=True),
                      i.e. what a checkpoint stores: persistent buffers included (DeepSeek's
                      e_score_correction_bias), tied weights once (deduplicated by the identity of
                      the Parameter object, since data_ptr means nothing on meta)
  params_parameters   sum of p.numel() over model.parameters() (which also deduplicates ties)
  buffers_persistent  numel of the state_dict entries that are buffers, not parameters
  tied                {alias key: key it aliases} for state_dict keys sharing a tensor
  params_embedding    model.get_input_embeddings().weight.numel()
  params_embedding_all  numel over every unique nn.Embedding weight (GPT-2's wpe, Gemma 3n's
                      per-layer embeddings, vision position embeddings ...)
  submodules          params_total split over the model's children and the children of a wrapper
                      child (depth 2: model.layers, model.language_model, model.visual, lm_head;
                      depth 3 below a grandchild named `model`: thinker.model.visual);
                      a tied tensor counts for the first key state_dict lists it under, so the
                      children of one parent sum to its total
  layers              for every nn.ModuleList not nested inside another one: the state_dict numel
                      of each element, run-length encoded as [[count, numel], ...] in order;
                      layers_main names the list holding the most parameters (the decoder stack)
  lora_r8_all_linear  trainable parameters after peft get_peft_model(LoraConfig(r=8,
                      target_modules="all-linear")) on the meta model; lora_method says how it
                      was computed, lora_r8_all_linear_targets what peft did with "all-linear":
                      the leaf names of the modules it wrapped and its target_parameters.
                      peft skips the output layer and wraps nn.Linear and GPT-2's Conv1D. On
                      some MoE families (transformers 5 fuses the experts into 3D tensors: seen
                      for Mixtral, DeepSeek V2/V3/V3.2, Qwen3-MoE, Qwen3-Next, OLMoE) peft 0.21
                      also targets the expert tensors and the router weight (target_parameters:
                      gate_up_proj at rank 2r, down_proj at r, per expert) and then wraps no
                      nn.Linear named gate_proj/up_proj/down_proj (DeepSeek's shared experts and
                      dense layers); on others (GPT-OSS, Qwen1.5-MoE, Qwen3.5-MoE, Nemotron-H) it
                      leaves the experts alone. So for MoE models this figure is what peft does,
                      not a per-linear sum. When peft fails on a model the direct sum (below) is
                      used and lora_method says so; when peft refuses Mamba modules under
                      "all-linear" (Nemotron-H's out_proj, conv1d), lora_r8_all_linear_peft_
                      excluding gives its figure with those excluded, as a user would have to
  lora_r8_all_linear_direct  r*(in+out) summed over every nn.Linear/Conv1D except the output layer
                      (fused expert tensors are not nn.Linear and are not in it), as a cross-check
  lora_r16_qv         trainable parameters with r=16, target_modules=["q_proj", "v_proj"] (null
                      when no module is named so; in a multimodal model the vision tower's q_proj
                      and v_proj match too: see text_only)
  lora_r16_qkv_fused  direct r*(in+out) over fused attention input projections (c_attn, qkv_proj,
                      query_key_value, Wqkv), r=16 (null when there are none); this is
                      reference.jsonl's lora_r16_attn for GPT-2 and lora_r16_qkv_fused for Phi-3

--check-validation prints params_total (and the other shared figures) against
tests/fixtures/validation/reference.jsonl for the validation configs in the output.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import sys
import time
import traceback
import warnings
from pathlib import Path

if os.environ.get("PYTHONHASHSEED") != "0":
    # set iteration order shows in some error messages (peft's "Incompatible modules: {...}"):
    # a fixed hash seed keeps reruns byte-identical
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "fixtures" / "reference-counts.json"
DEFAULT_DIRS = [
    ROOT / "tests" / "fixtures" / "configs",
    ROOT / "tests" / "fixtures" / "validation" / "configs",
    ROOT / "crates" / "core" / "src" / "catalog" / "models",
]
FUSED_QKV = ("c_attn", "qkv_proj", "query_key_value", "Wqkv")
PER_ENTRY = ("torch", "transformers", "peft")

try:
    import peft
    import torch
    import transformers
    from torch import nn
    from transformers.models.auto.configuration_auto import CONFIG_MAPPING
except ImportError as e:  # pragma: no cover - setup hint
    sys.exit(f"{e}\nrun with the reference venv's python; see this script's header")

transformers.logging.set_verbosity_error()
warnings.filterwarnings("ignore")  # peft/transformers notices about meta, Conv1D, deprecations
try:
    from transformers.pytorch_utils import Conv1D
except ImportError:  # pragma: no cover
    Conv1D = ()


def err(e: BaseException) -> dict:
    msg = re.sub(r" at 0x[0-9a-fA-F]+", "", f"{type(e).__name__}: {e}")  # no addresses
    return {"error": " ".join(msg.split())[:600]}


def versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": sys.version.split()[0]}
    for name in ("torch", "transformers", "peft", "accelerate", "timm", "huggingface_hub"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    return out


# ---------------------------------------------------------------------------------------------
# building


class UnknownModelType(KeyError):
    pass


def from_dict_fixing_ints(cls, raw: dict, fixups: list[str]):
    """cls.from_dict(raw); transformers 5's strict config fields reject an int where a float is
    declared (MPT's clip_qkv: 6), which from_pretrained would reject as well: such a field is
    retried as a float and the change listed in fixups."""
    raw = json.loads(json.dumps(raw))  # a deep copy (nested sub-configs are fixed in place)

    def fix(d: dict, field: str, where: str) -> bool:
        done = False
        for k, v in d.items():
            if k == field and type(v) is int:
                fixups.append(f"{where}{k}: {v} -> {float(v)}")
                d[k] = float(v)
                done = True
            elif isinstance(v, dict):
                done |= fix(v, field, f"{where}{k}.")
        return done

    for _ in range(20):
        try:
            return cls.from_dict(json.loads(json.dumps(raw)))
        except Exception as e:
            m = re.search(r"Validation error for field '([^']+)'", str(e))
            if m and "expected float, got int" in str(e) and fix(raw, m.group(1), ""):
                continue
            raise
    raise RuntimeError("too many config fixups")


def load_config(raw: dict, fixups: list[str]):
    mt = raw.get("model_type")
    if not mt:
        raise ValueError("config has no model_type")
    try:
        cls = CONFIG_MAPPING[mt]
    except KeyError:
        raise UnknownModelType(
            f"model_type {mt!r} is not known to transformers {transformers.__version__} "
            "(would need trust_remote_code, impossible offline)"
        ) from None
    return from_dict_fixing_ints(cls, raw, fixups)


def pick_class(config, raw: dict):
    """(class, how it was chosen)."""
    for arch in raw.get("architectures") or []:
        cls = getattr(transformers, arch, None)
        if cls is not None and isinstance(config, getattr(cls, "config_class", ()) or ()):
            return cls, "architectures[0]"
        break
    for auto in ("AutoModelForCausalLM", "AutoModelForImageTextToText", "AutoModel"):
        mapping = getattr(transformers, auto)._model_mapping
        try:
            return mapping[type(config)], auto
        except KeyError:
            continue
    raise KeyError(f"no model class for {type(config).__name__}")


def build(cls, config):
    with torch.device("meta"):
        if hasattr(cls, "from_config"):  # an Auto class
            return cls.from_config(config, dtype=torch.bfloat16)
        return cls._from_config(config, dtype=torch.bfloat16)


# ---------------------------------------------------------------------------------------------
# counting


def unique_state(module: nn.Module):
    """state_dict(keep_vars=True) items with aliases removed, plus {alias: first key}."""
    seen: dict[int, str] = {}
    items = []
    tied = {}
    for key, t in module.state_dict(keep_vars=True).items():
        if id(t) in seen:
            tied[key] = seen[id(t)]
            continue
        seen[id(t)] = key
        items.append((key, t))
    return items, tied


def rle(values):
    out: list[list[int]] = []
    for v in values:
        if out and out[-1][1] == v:
            out[-1][0] += 1
        else:
            out.append([1, v])
    return out


def top_modulelists(model: nn.Module):
    lists = []
    for name, mod in model.named_modules():
        if not isinstance(mod, nn.ModuleList) or len(mod) == 0:
            continue
        if any(name.startswith(p + ".") for p, _ in lists):
            continue
        lists.append((name, mod))
    return lists


def counts(model: nn.Module) -> dict:
    r: dict = {"class": type(model).__name__}
    items, tied = unique_state(model)
    param_ids = {id(p) for p in model.parameters()}
    r["params_total"] = sum(t.numel() for _, t in items)
    r["params_parameters"] = sum(p.numel() for p in model.parameters())
    r["buffers_persistent"] = sum(t.numel() for _, t in items if id(t) not in param_ids)
    r["tied"] = dict(sorted(tied.items()))
    r["state_dict_tensors"] = len(items)

    try:
        r["params_embedding"] = model.get_input_embeddings().weight.numel()
    except Exception as e:
        r["params_embedding"] = err(e)
    emb = {}
    for m in model.modules():
        if isinstance(m, nn.Embedding):
            emb[id(m.weight)] = m.weight.numel()
    r["params_embedding_all"] = sum(emb.values())

    # submodules: first-key attribution, depth 1, and depth 2 below a child whose own
    # children hold all its tensors (a wrapper such as `model`)
    def prefix_sum(prefix: str) -> int:
        return sum(t.numel() for k, t in items if k.startswith(prefix + "."))

    subs = {}
    for name, child in model.named_children():
        total = prefix_sum(name)
        subs[name] = total
        grandchildren = list(child.named_children())
        if grandchildren:
            # A wrapper's own tensors beside its children (LLaVA-NeXT's `model.image_newline`).
            for k, t in items:
                if k.count(".") == 1 and k.startswith(name + "."):
                    subs[k] = t.numel()
            for gname, grandchild in grandchildren:
                subs[f"{name}.{gname}"] = prefix_sum(f"{name}.{gname}")
                # A model inside a model (Qwen3-Omni's thinker.model, talker.model): its
                # children too.
                if gname == "model":
                    for ggname, _ in grandchild.named_children():
                        key = f"{name}.{gname}.{ggname}"
                        subs[key] = prefix_sum(key)
    own = sum(t.numel() for k, t in items if "." not in k)
    if own:
        subs["(own)"] = own
    r["submodules"] = dict(sorted(subs.items()))

    layers = {}
    best = None
    for name, ml in top_modulelists(model):
        per = []
        for elem in ml:
            its, _ = unique_state(elem)
            per.append(sum(t.numel() for _, t in its))
        total = sum(per)
        if total == 0:
            continue
        layers[name] = rle(per)
        if best is None or total > best[1]:
            best = (name, total)
    r["layers"] = dict(sorted(layers.items()))
    r["layers_main"] = best[0] if best else None
    return r


def output_module_names(model: nn.Module) -> set[str]:
    names = set()
    try:
        out = model.get_output_embeddings()
    except Exception:
        out = None
    for name, m in model.named_modules():
        if out is not None and m is out:
            names.add(name)
        if name.split(".")[-1] in ("lm_head", "output", "embed_out"):
            names.add(name)
    return names


def linear_dims(m: nn.Module):
    if isinstance(m, nn.Linear):
        return m.in_features, m.out_features
    if Conv1D and isinstance(m, Conv1D):
        w = m.weight  # Conv1D stores (in, out)
        return w.shape[0], w.shape[1]
    return None


def lora_direct(model: nn.Module, r: int, names=None) -> int | None:
    skip = output_module_names(model)
    total = 0
    found = False
    for name, m in model.named_modules():
        dims = linear_dims(m)
        if dims is None or name in skip:
            continue
        if names is not None and name.split(".")[-1] not in names:
            continue
        found = True
        total += r * (dims[0] + dims[1])
    return total if found else None


def lora_peft(make_model, r: int, targets, exclude=None) -> tuple[int, dict]:
    model = make_model()
    cfg = peft.LoraConfig(
        r=r, lora_alpha=2 * r, target_modules=targets, lora_dropout=0.0, exclude_modules=exclude
    )
    with torch.device("meta"):
        pm = peft.get_peft_model(model, cfg)
    trainable, _ = pm.get_nb_trainable_parameters()
    resolved = pm.peft_config["default"]
    # the leaf names of the modules peft actually wrapped (target_modules as resolved may be
    # full paths, and does not reflect exclude_modules), and the parameters it targeted
    from peft.tuners.lora import LoraLayer

    what = {
        "wrapped_modules": sorted(
            {n.split(".")[-1] for n, m in pm.named_modules() if isinstance(m, LoraLayer)}
        ),
        "target_parameters": sorted(getattr(resolved, "target_parameters", None) or []),
    }
    del pm, model
    gc.collect()
    return int(trainable), what


def lora_figures(model: nn.Module, make_model) -> dict:
    r: dict = {}
    try:
        r["lora_r8_all_linear_direct"] = lora_direct(model, 8)
    except Exception as e:
        r["lora_r8_all_linear_direct"] = err(e)
    try:
        r["lora_r8_all_linear"], r["lora_r8_all_linear_targets"] = lora_peft(
            make_model, 8, "all-linear"
        )
        r["lora_method"] = f"peft {peft.__version__} get_peft_model on meta"
    except Exception as e:
        r["lora_r8_all_linear"] = r["lora_r8_all_linear_direct"]
        r["lora_method"] = "direct r*(in+out) over nn.Linear/Conv1D except the output layer"
        r["lora_peft_error"] = err(e)["error"]
        # peft refuses Mamba mixers' out_proj/conv1d under "all-linear" (Nemotron-H, Jamba ...):
        # what it gives once they are excluded, as a user would have to, is given beside
        m = re.search(r"Incompatible modules: \{([^}]*)\}", str(e))
        if m:
            names = sorted(x.strip().strip("'\"") for x in m.group(1).split(","))
            try:
                value, what = lora_peft(make_model, 8, "all-linear", exclude=names)
                r["lora_r8_all_linear_peft_excluding"] = {"exclude_modules": names, "value": value}
                r["lora_r8_all_linear_targets"] = what
            except Exception as e2:
                r["lora_r8_all_linear_peft_excluding"] = err(e2)
    leaf_names = {n.split(".")[-1] for n, _ in model.named_modules()}
    if {"q_proj", "v_proj"} & leaf_names:
        try:
            r["lora_r16_qv"], _ = lora_peft(make_model, 16, ["q_proj", "v_proj"])
        except Exception as e:
            d = lora_direct(model, 16, {"q_proj", "v_proj"})
            r["lora_r16_qv"] = d
            r["lora_r16_qv_peft_error"] = err(e)["error"]
    else:
        r["lora_r16_qv"] = None
    try:
        r["lora_r16_qkv_fused"] = lora_direct(model, 16, set(FUSED_QKV))
    except Exception as e:
        r["lora_r16_qkv_fused"] = err(e)
    return r


def measure(make_model) -> dict:
    model = make_model()
    try:
        r = counts(model)
    except Exception as e:
        r = {"class": type(model).__name__, "counts": err(e)}
    r.update(lora_figures(model, make_model))
    del model
    gc.collect()
    return r


def measure_config(config, raw: dict, entry: dict) -> None:
    cls, how = pick_class(config, raw)
    entry["class_chosen_by"] = how
    entry.update(measure(lambda: build(cls, config)))
    text = config.get_text_config()
    if text is not config:
        entry["text_config_model_type"] = getattr(text, "model_type", None)
        try:
            tcls = transformers.AutoModelForCausalLM._model_mapping[type(text)]
            entry["text_only"] = measure(lambda: build(tcls, text))
        except Exception as e:
            entry["text_only"] = err(e)


def run_one(path: Path) -> dict:
    raw = json.loads(path.read_text())
    if not isinstance(raw, dict):
        raise ValueError("not a JSON object")
    entry: dict = {"model_type": raw.get("model_type")}
    fixups: list[str] = []
    try:
        config = load_config(raw, fixups)
    except UnknownModelType as e:
        # The family is unknown, so the entry is an error; but when architectures[0] names a
        # class transformers has (Kimi K2: DeepseekV3ForCausalLM), its figures with that class's
        # config are given beside the error, as what the checkpoint would be if it is that.
        entry = err(e)
        arch = (raw.get("architectures") or [None])[0]
        cls = getattr(transformers, arch, None) if isinstance(arch, str) else None
        if cls is not None and getattr(cls, "config_class", None) is not None:
            via: dict = {"model_type": cls.config_class.model_type}
            try:
                body = {k: v for k, v in raw.items() if k not in ("model_type", "auto_map")}
                measure_config(from_dict_fixing_ints(cls.config_class, body, fixups), raw, via)
            except Exception as e2:
                via.update(err(e2))
            if fixups:
                via["config_fixups"] = fixups
            entry["via_architectures"] = via
        return entry
    if fixups:
        entry["config_fixups"] = fixups
    measure_config(config, raw, entry)
    return entry


# ---------------------------------------------------------------------------------------------


def check_validation(results: dict) -> int:
    """Prints the output's figures against validation/reference.jsonl; returns mismatches."""
    ref_path = ROOT / "tests" / "fixtures" / "validation" / "reference.jsonl"
    aliases = {"lora_r16_attn": "lora_r16_qkv_fused"}
    bad = 0
    print(f"{'model':24} {'figure':20} {'reference':>14} {'here':>14}")
    for line in ref_path.read_text().splitlines():
        ref = json.loads(line)
        key = f"tests/fixtures/validation/configs/{ref['model']}.json"
        got = results.get(key)
        if got is None:
            continue
        for fig, want in ref.items():
            if fig in ("model", "kv_bytes_bf16", "params_active"):
                continue
            have = got.get(aliases.get(fig, fig))
            note = "ok" if have == want else "DIFF"
            if fig == "params_total" and have != want:
                if got.get("params_parameters") == want:
                    extra = got["buffers_persistent"]
                    note = f"DIFF: reference = params_parameters (+{extra} buffer numel here)"
            bad += note != "ok"
            print(f"{ref['model']:24} {fig:20} {want!s:>14} {have!s:>14}  {note}")
    return bad


def rel(p: Path) -> str:
    p = p.resolve()
    try:
        return p.relative_to(ROOT).as_posix()
    except ValueError:
        return p.as_posix()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("configs", nargs="*", type=Path)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--merge", action="store_true", help="keep the output's other entries")
    ap.add_argument("--debug", action="store_true", help="print tracebacks")
    ap.add_argument("--check-validation", action="store_true", help="compare with reference.jsonl")
    args = ap.parse_args()

    paths = args.configs or sorted(p for d in DEFAULT_DIRS if d.is_dir() for p in d.rglob("*.json"))
    results: dict = {}
    if args.merge and args.out.exists():
        results = json.loads(args.out.read_text())
    t_all = time.time()
    for p in sorted(set(paths), key=rel):
        t0 = time.time()
        try:
            entry = run_one(p)
        except Exception as e:
            entry = err(e)
            if args.debug:
                traceback.print_exc()
        # per entry too, so that a --merge'd file still says what produced each entry
        entry["versions"] = {k: v for k, v in versions().items() if k in PER_ENTRY}
        results[rel(p)] = entry
        total = entry.get("params_total", entry.get("error", "?"))
        print(f"{time.time() - t0:6.1f}s  {rel(p)}  {total}", file=sys.stderr, flush=True)
    results["_versions"] = versions()
    text = json.dumps(results, indent=1, sort_keys=True, allow_nan=True) + "\n"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(text)
    print(f"{len(paths)} configs in {time.time() - t_all:.1f}s -> {rel(args.out)}", file=sys.stderr)
    if args.check_validation:
        check_validation(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
