#!/usr/bin/env python3
"""Which checkpoints each runtime can load, read from the runtimes' own source.

Writes crates/core/data/runtime-classes.tsv (by the class a config.json's `architectures` names)
crates/core/data/mlx-model-types.txt (mlx-lm picks its model by `model_type`) and
crates/core/data/transformers-model-types.txt (transformers too, by its auto classes). Not part of
scripts/test: the inputs are source trees fetched once, named on the command line, and the
outputs are committed with the versions they were read from. scripts/llama-cpp-check compares the
llama.cpp column with the llama.cpp bundle scripts/setup unpacks, so a new bundle that adds or
drops a converter fails the check until this is run again.

How each runtime decides (read in its source, the rule this script applies):
- llama.cpp: `convert_hf_to_gguf.py` makes a GGUF only for the classes its converters register
  (`@ModelBase.register("LlamaForCausalLM", ...)` in `conversion/*.py`), picked by the first
  `architectures` entry; llama.cpp loads nothing else.
- Ollama: `ollama create` converts safetensors itself for the classes of `convert/convert.go`'s
  switch on `Architectures[0]`, and runs the GGUFs llama.cpp makes.
- vLLM: `model_executor/models/registry.py` (`_TEXT_GENERATION_MODELS`, `_MULTIMODAL_MODELS`,
  `_SPECULATIVE_DECODING_MODELS`, `_TRANSFORMERS_SUPPORTED_MODELS`); a class of
  `_PREVIOUSLY_SUPPORTED_MODELS` is refused naming the last release that ran it. Other classes go
  to its Transformers backend, which runs only what transformers itself can build.
- SGLang: the `EntryClass` of every module under `srt/models`; other classes go to its
  Transformers backend as in vLLM.
- mlx-lm: `mlx_lm.models.<model_type>` after `MODEL_REMAPPING` (utils.py `_get_classes`); a
  module is a model when it defines `Model` and `ModelArgs`.
- transformers: `AutoModelForCausalLM`, `AutoModelForImageTextToText` and
  `AutoModelForMultimodalLM` pick the class by the config's `model_type` in their mappings
  (`models/auto/modeling_auto.py`, the `MODEL_FOR_*_MAPPING_NAMES` of those three); another
  model type loads only with `trust_remote_code=True` and the repository's own code (`auto_map`).
  vLLM's and SGLang's Transformers backends build what these build.

Usage:
  scripts/runtime-registries.py --check-llama-cpp target/llama-cpp/src   (scripts/llama-cpp-check)
  scripts/runtime-registries.py --transformers-attention DIR VERSION   (transformers-eager-types.txt)
  scripts/runtime-registries.py --llama-cpp target/llama-cpp/src \
      --ollama-convert convert.go --ollama-rev 'v0.33.0-rc2 (fb30760, 2026-08-21)' \
      --vllm DIR --sglang DIR --mlx-lm DIR --transformers DIR
(DIR: a wheel unzipped, e.g. `pip download --no-deps vllm==0.34.0` then `unzip`.)
"""

import argparse
import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def llama_cpp_classes(src: Path) -> set[str]:
    """Classes `@ModelBase.register(...)` names in llama.cpp's converter modules."""
    files = sorted((src / "conversion").glob("*.py"))
    if not files:
        files = [src / "convert_hf_to_gguf.py"]
    names: set[str] = set()
    for f in files:
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ClassDef):
                for d in node.decorator_list:
                    if isinstance(d, ast.Call) and getattr(d.func, "attr", "") == "register":
                        names.update(a.value for a in d.args if isinstance(a, ast.Constant))
    if not names:
        sys.exit(f"no registered converter classes under {src}")
    return names


def ollama_classes(convert_go: Path) -> set[str]:
    """The cases of convert.go's `switch p.Architectures[0]`."""
    text = convert_go.read_text()
    start = text.index("switch p.Architectures[0]")
    end = text.index("default:", start)
    names = set(re.findall(r'"([A-Za-z0-9_]+)"', text[start:end]))
    if not names:
        sys.exit(f"no architecture cases in {convert_go}")
    return names


def dict_keys(tree: ast.Module, name: str) -> dict[str, object]:
    for node in tree.body:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == name for t in targets):
                value = node.value
                if isinstance(value, ast.Dict):
                    out = {}
                    for k, v in zip(value.keys, value.values):
                        if isinstance(k, ast.Constant):
                            out[k.value] = v.value if isinstance(v, ast.Constant) else None
                    return out
    sys.exit(f"registry.py has no dict {name}")


def vllm_classes(src: Path) -> tuple[set[str], dict[str, str], str]:
    registry = src / "vllm/model_executor/models/registry.py"
    tree = ast.parse(registry.read_text())
    runs: set[str] = set()
    for name in (
        "_TEXT_GENERATION_MODELS",
        "_MULTIMODAL_MODELS",
        "_SPECULATIVE_DECODING_MODELS",
        "_TRANSFORMERS_SUPPORTED_MODELS",
    ):
        runs.update(dict_keys(tree, name))
    removed = {k: str(v) for k, v in dict_keys(tree, "_PREVIOUSLY_SUPPORTED_MODELS").items()}
    version = re.search(r"__version__\s*=\s*(?:version\s*=\s*)?['\"]([^'\"]+)", (src / "vllm/_version.py").read_text())
    return runs, removed, version.group(1) if version else "?"


def sglang_classes(src: Path) -> set[str]:
    names: set[str] = set()
    for f in sorted((src / "sglang/srt/models").glob("*.py")):
        tree = ast.parse(f.read_text())
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                for a in node.names:
                    aliases[a.asname or a.name] = a.name
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "EntryClass" for t in node.targets
            ):
                v = node.value
                items = v.elts if isinstance(v, (ast.List, ast.Tuple)) else [v]
                for it in items:
                    if isinstance(it, ast.Name):
                        names.add(aliases.get(it.id, it.id))
    if not names:
        sys.exit(f"no EntryClass under {src}")
    return names


def mlx_model_types(src: Path) -> set[str]:
    models = src / "mlx_lm/models"
    types: set[str] = set()
    for f in sorted(models.glob("*.py")):
        tree = ast.parse(f.read_text())
        classes = {n.name for n in tree.body if isinstance(n, ast.ClassDef)}
        if {"Model", "ModelArgs"} <= classes:
            types.add(f.stem)
    utils = ast.parse((src / "mlx_lm/utils.py").read_text())
    for key, target in dict_keys(utils, "MODEL_REMAPPING").items():
        if target in types:
            types.add(key)
    if not types:
        sys.exit(f"no models under {models}")
    return types


def transformers_model_types(src: Path) -> set[str]:
    """The model types transformers' text-generating auto classes map to a class of its own."""
    types = set(transformers_mapped_classes(src))
    if len(types) < 100:
        sys.exit(f"only {len(types)} model types in {src}'s modeling_auto.py: its layout changed")
    return types


def vllm_config_types(src: Path) -> set[str]:
    """The model types vLLM reads with a config class of its own (`transformers_utils/config.py`
    `_CONFIG_REGISTRY`): such a config may name, or be mapped to, a class vLLM implements."""
    tree = ast.parse((src / "vllm/transformers_utils/config.py").read_text())
    types: set[str] = set()
    for node in tree.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (node.targets[0] if isinstance(node, ast.Assign) else None)
        if not (isinstance(target, ast.Name) and target.id == "_CONFIG_REGISTRY" and isinstance(node.value, ast.Call)):
            continue
        for kw in node.value.keywords:
            if kw.arg is not None:
                types.add(kw.arg)
            elif isinstance(kw.value, ast.Dict):
                types.update(k.value for k in kw.value.keys if isinstance(k, ast.Constant))
    if len(types) < 20:
        sys.exit(f"only {len(types)} config types in {src}'s transformers_utils/config.py: its layout changed")
    return types


def sglang_config_types(src: Path) -> set[str]:
    """The model types SGLang reads with a config class of its own: every `model_type` a class of
    `srt/configs/*.py` declares (its `_CONFIG_REGISTRY` registers them; DeepSeek V4.1's rewrites
    the checkpoint's class to one SGLang implements)."""
    types: set[str] = set()
    for f in sorted((src / "sglang/srt/configs").glob("*.py")):
        for node in ast.walk(ast.parse(f.read_text())):
            if not isinstance(node, ast.ClassDef):
                continue
            for stmt in node.body:
                if (
                    isinstance(stmt, ast.Assign)
                    and isinstance(stmt.targets[0], ast.Name)
                    and stmt.targets[0].id == "model_type"
                    and isinstance(stmt.value, ast.Constant)
                    and isinstance(stmt.value.value, str)
                ):
                    types.add(stmt.value.value)
    if len(types) < 20:
        sys.exit(f"only {len(types)} config types under {src}/sglang/srt/configs: unzip the whole wheel")
    return types


def check_llama_cpp(src: Path) -> None:
    """Fails when the llama.cpp column differs from the converter of the bundle at `src`."""
    listed = set()
    for line in (ROOT / "crates/core/data/runtime-classes.tsv").read_text().splitlines():
        if line.startswith("#") or line.startswith("class\t") or not line:
            continue
        cols = line.split("\t")
        if cols[1] == "y":
            listed.add(cols[0])
    bundle = llama_cpp_classes(src)
    if listed != bundle:
        sys.exit(
            "crates/core/data/runtime-classes.tsv's llama.cpp column differs from the bundled converter: "
            f"missing {sorted(bundle - listed)}, extra {sorted(listed - bundle)}; run scripts/runtime-registries.py again"
        )
    print(f"llama.cpp converter classes: the table's {len(listed)} equal the bundle's")


def transformers_mapped_classes(src: Path) -> dict[str, set[str]]:
    """Each model type of transformers' text-generating auto classes, with the classes they map it to."""
    tree = ast.parse((src / "transformers/models/auto/modeling_auto.py").read_text())
    wanted = (
        "MODEL_FOR_CAUSAL_LM_MAPPING_NAMES",
        "MODEL_FOR_IMAGE_TEXT_TO_TEXT_MAPPING_NAMES",
        "MODEL_FOR_MULTIMODAL_LM_MAPPING_NAMES",
    )
    out: dict[str, set[str]] = {}
    for node in tree.body:
        if not (isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name)):
            continue
        if node.targets[0].id not in wanted or not isinstance(node.value, ast.Call):
            continue
        for arg in node.value.args:
            if isinstance(arg, ast.List):
                for elt in arg.elts:
                    if isinstance(elt, ast.Tuple) and all(isinstance(e, ast.Constant) for e in elt.elts[:2]):
                        out.setdefault(elt.elts[0].value, set()).add(elt.elts[1].value)
    return out


def transformers_eager_types(src: Path) -> set[str]:
    """The model types whose transformers class has no SDPA attention (`_supports_sdpa = False` on
    the class or the nearest base defined beside it): without an explicit `attn_implementation`,
    transformers builds them with eager attention, which keeps each layer's score matrix."""
    eager: set[str] = set()
    for model_type, classes in transformers_mapped_classes(src).items():
        module = model_type.replace("-", "_")
        path = src / f"transformers/models/{module}/modeling_{module}.py"
        if not path.exists():
            continue
        tree = ast.parse(path.read_text())
        defs = {n.name: n for n in tree.body if isinstance(n, ast.ClassDef)}

        def sdpa(name: str, seen: set[str]) -> bool | None:
            node = defs.get(name)
            if node is None or name in seen:
                return None
            seen.add(name)
            for st in node.body:
                if isinstance(st, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "_supports_sdpa" for t in st.targets):
                    if isinstance(st.value, ast.Constant):
                        return bool(st.value.value)
            for b in node.bases:
                if isinstance(b, ast.Name):
                    found = sdpa(b.id, seen)
                    if found is not None:
                        return found
            return None

        if any(sdpa(c, set()) is False for c in classes):
            eager.add(model_type)
    return eager


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--check-llama-cpp":
        check_llama_cpp(Path(sys.argv[2]))
        return
    if len(sys.argv) == 4 and sys.argv[1] == "--transformers-attention":
        src, version = Path(sys.argv[2]), sys.argv[3]
        eager = transformers_eager_types(src)
        head = f"""# The `model_type`s whose transformers {version} class has no SDPA attention (`_supports_sdpa =
# False` on the class its auto mappings name, or on the nearest base beside it): loaded without an
# `attn_implementation`, transformers builds them with eager attention, which keeps every layer's
# score matrix for the backward pass. Written by scripts/runtime-registries.py
# --transformers-attention DIR VERSION.
"""
        (ROOT / "crates/core/data/transformers-eager-types.txt").write_text(head + "\n".join(sorted(eager)) + "\n")
        print(f"transformers {version}: {len(eager)} model types build eager attention by default")
        return
    p = argparse.ArgumentParser()
    p.add_argument("--llama-cpp", type=Path, required=True)
    p.add_argument("--llama-cpp-rev", required=True)
    p.add_argument("--ollama-convert", type=Path, required=True)
    p.add_argument("--ollama-rev", required=True)
    p.add_argument("--vllm", type=Path, required=True)
    p.add_argument("--sglang", type=Path, required=True)
    p.add_argument("--sglang-version", required=True)
    p.add_argument("--mlx-lm", type=Path, required=True)
    p.add_argument("--mlx-lm-version", required=True)
    p.add_argument("--transformers", type=Path, required=True)
    p.add_argument("--transformers-version", required=True)
    a = p.parse_args()

    llama = llama_cpp_classes(a.llama_cpp)
    ollama = ollama_classes(a.ollama_convert)
    vllm, removed, vllm_version = vllm_classes(a.vllm)
    sglang = sglang_classes(a.sglang)
    mlx = mlx_model_types(a.mlx_lm)
    hf = transformers_model_types(a.transformers)
    vllm_configs = vllm_config_types(a.vllm)
    sglang_configs = sglang_config_types(a.sglang)

    rows = []
    for c in sorted(llama | ollama | vllm | set(removed) | sglang):
        v = "y" if c in vllm else (removed.get(c, "-"))
        rows.append(
            f"{c}\t{'y' if c in llama else '-'}\t{'y' if c in ollama else '-'}\t{v}\t{'y' if c in sglang else '-'}"
        )
    head = f"""# Which checkpoint classes (a config.json's first `architectures` entry) each runtime loads,
# read from the runtimes' source by scripts/runtime-registries.py (see it for each rule):
#   llama.cpp {a.llama_cpp_rev}: the classes its converters register (conversion/*.py)
#   Ollama {a.ollama_rev}: convert/convert.go's architecture switch (it also runs llama.cpp's GGUFs)
#   vLLM {vllm_version}: model_executor/models/registry.py; a version is the last release that ran a
#     class vLLM now refuses (_PREVIOUSLY_SUPPORTED_MODELS)
#   SGLang {a.sglang_version}: the EntryClass of each srt/models module
# A class no column lists may still run in vLLM or SGLang through their Transformers backends.
# y: loads; -: not in that runtime's list.
class\tllama.cpp\tollama\tvllm\tsglang
"""
    (ROOT / "crates/core/data/runtime-classes.tsv").write_text(head + "\n".join(rows) + "\n")
    mhead = f"""# The `model_type`s mlx-lm {a.mlx_lm_version} loads: its mlx_lm/models modules that define Model and
# ModelArgs, and MODEL_REMAPPING's keys onto them (utils.py _get_classes). Written by
# scripts/runtime-registries.py.
"""
    (ROOT / "crates/core/data/mlx-model-types.txt").write_text(mhead + "\n".join(sorted(mlx)) + "\n")
    thead = f"""# The `model_type`s transformers {a.transformers_version} builds with a class of its own through
# AutoModelForCausalLM, AutoModelForImageTextToText or AutoModelForMultimodalLM
# (models/auto/modeling_auto.py); any other needs trust_remote_code=True and the repository's
# code. Written by scripts/runtime-registries.py.
"""
    (ROOT / "crates/core/data/transformers-model-types.txt").write_text(thead + "\n".join(sorted(hf)) + "\n")
    chead = """# The `model_type`s vLLM {v} and SGLang {g} read with a config class of their own (vLLM's
# transformers_utils/config.py _CONFIG_REGISTRY; the model_type of each class in SGLang's
# srt/configs): such a config may map the checkpoint's class to one the runtime implements, so a
# class neither lists is a doubt there, not a refusal. Written by scripts/runtime-registries.py.
# model_type<TAB>vllm<TAB>sglang (y: has its own config; -: not)
""".format(v=vllm_version, g=a.sglang_version)
    crow = [f"{t}\t{'y' if t in vllm_configs else '-'}\t{'y' if t in sglang_configs else '-'}" for t in sorted(vllm_configs | sglang_configs)]
    (ROOT / "crates/core/data/runtime-config-types.tsv").write_text(chead + "\n".join(crow) + "\n")
    print(
        f"config types: vLLM {len(vllm_configs)}, SGLang {len(sglang_configs)}; "
        f"transformers {len(hf)} model types; "
        f"{len(rows)} classes (llama.cpp {len(llama)}, Ollama {len(ollama)}, vLLM {len(vllm)} + {len(removed)} removed, SGLang {len(sglang)}); mlx-lm {len(mlx)} model types"
    )


if __name__ == "__main__":
    main()
