#!/usr/bin/env python3
"""Writes the config.json that `transformers` itself produces for each model_type with its class
defaults (`AutoConfig.for_model(model_type).to_dict()`), into
tests/fixtures/configs/transformers-defaults/. These are real configs of the families whose
published checkpoints' config.json could not be found here; tests/fixtures/reference-counts.json
holds transformers' own parameter counts for them (scripts/reference-counts.py --merge ...).

Run by hand, never by the tests (pinned versions: scripts/reference-requirements.txt):

    /work/refenv/bin/python scripts/transformers-default-configs.py

HunYuan's default rope parameters do not build (a `None ** float` in its rotary init): the
hunyuan_v1_* files (and hunyuan_vl's text_config) set rope_parameters to {"rope_type": "dynamic", "alpha": 1000.0, "factor": 1.0,
"rope_theta": 10000.0} and head_dim to 128, which changes no parameter count; DBRX's default
lacks the attn_config.rope_theta its model code reads (set to 10000.0).
"""
import json
import warnings
from pathlib import Path

import transformers
from transformers import AutoConfig

warnings.filterwarnings("ignore")
OUT = Path(__file__).resolve().parent.parent / "tests/fixtures/configs/transformers-defaults"
FAMILIES = [
    "nemotron_h", "falcon_h1", "granitemoehybrid", "jamba", "bamba", "lfm2", "mamba", "mamba2",
    "qwen3_next", "qwen3_5_text", "qwen3_5_moe_text", "deepseek_v32", "gemma3n_text", "gemma4_text",
    "llama4_text", "glm4_moe", "minimax_m2", "ernie4_5", "ernie4_5_moe", "hunyuan_v1_dense",
    "hunyuan_v1_moe", "smollm3", "olmo3", "phi", "gpt_bigcode", "gpt_neox", "falcon", "mpt",
    "stablelm", "bloom", "opt", "cohere", "cohere2", "glm", "glm4", "olmoe", "dbrx", "starcoder2",
    "exaone4", "seed_oss", "olmo2", "granite", "qwen3_moe", "mixtral", "gpt_oss", "deepseek_v3",
    "deepseek_v2", "gemma3_text", "gemma2", "phi3", "qwen2_moe",
    # Read as known families, as an inferred one, or refused (tests/tests/reference_counts.rs).
    "qwen3_vl_moe_text", "falcon_mamba", "olmo", "helium", "exaone", "apertus", "arcee", "bitnet",
    "aria_text", "longcat_flash", "kimi_linear", "glm4_moe_lite", "zamba2", "gemma", "llama",
    "mistral", "qwen2", "qwen3",
    # Multimodal: their vision and audio encoders (import/encoders.rs) against transformers' build.
    "internvl", "gemma3n", "gemma4", "phi4_multimodal", "llava", "mllama", "idefics3",
    # GLM-4.1V / GLM-4.6V-Flash (glm4v), GLM-4.5V / GLM-4.6V (glm4v_moe), Qwen3-Omni's thinker,
    # talker and code2wav (qwen3_omni_moe), Qwen2.5-Omni's thinker, talker and token2wav
    # (qwen2_5_omni): their published config.json was not found here.
    "glm4v", "glm4v_moe", "qwen3_omni_moe", "qwen2_5_omni",
    # 2026 MoE families served by vLLM (Step-3.5-Flash, MiMo-V2-Flash, Arcee Trinity, LFM2-MoE,
    # MiniMax-M1/Text-01).
    "step3p5", "mimo_v2_flash", "afmoe", "lfm2_moe", "minimax",
    # GLM-5's DeepSeek-sparse-attention MoE; K-EXAONE's MoE.
    "glm_moe_dsa", "exaone_moe", "laguna",
    # Ling 3 (Ling-3.0-flash: Kimi Delta Attention, MLA, MoE), served by vLLM's bailing_moe_v3.
    "bailing_hybrid",
    # Small vision-language models vLLM's recipes serve (PaddleOCR-VL, LFM2.5-VL, GLM-OCR): their
    # towers are most of their weights.
    "paddleocr_vl", "lfm2_vl", "glm_ocr", "minicpmv4_6", "hunyuan_vl",
    "nemotron_h_omni", "lighton_ocr", "llava_next", "llava_onevision",
    # Thinking Machines' Inkling (vLLM's recipes: Inkling), its text model.
    "inkling_text",
    # Apertus 1.5's language model; Cohere's MoE.
    "apertus1p5_text", "cohere2_moe", "lfm3",
    # Mistral Large 4 (MLA without a query latent, DSA indexers, NoPE layers, shared latents) and
    # its Pixtral tower.
    "mistral_large4",
    # OLMo Hybrid (Gated DeltaNet and OLMo's attention); Gemma 4's unified text model.
    "olmo_hybrid", "gemma4_unified_text",
    # LongCat-Flash; Molmo 2 (its language model read, its tower said).
    "longcat_flash", "molmo2",
    # HunYuan V4 (DSA with shared indexers, sinks, static hyper-connections); GLM-5-Next (Kimi
    # Delta Attention, rope-free MLA with pooled indexer keys, hyper-connections).
    "hy_v4", "glm5_next",
    # Step-3.7-Flash and MiniMax-M3 with their vision models.
    "step3p7", "minimax_m3_vl",
    # ERNIE 4.5 VL (vLLM's recipes): text and vision expert sets in each MoE layer, its ViT and
    # resampler.
    "ernie4_5_vl_moe",
    # Meta's Muse Glimmer (sandwich norms, gated attention, its ViT, adapter and projection);
    # GLM-GA, MiniCPM-V 4.7, MiniCPM-OCR and Cosmos 3 Omni, whose towers are an earlier model's.
    "muse_glimmer", "glmga", "minicpmv4_7", "minicpm_ocr", "cosmos3_omni",
    # Meta's Muse Spark Open (816B-A42B: pooled experts, residual gates, its vision and audio
    # models).
    "muse_spark",
    # Baidu's Unlimited-OCR (vLLM's recipes): DeepSeek-V2's MoE with plain attention; its
    # DeepEncoder (SAM ViT-B into CLIP-L) counted.
    "unlimited_ocr",
    # HunYuan V4 VL: HunYuan V4's language model and a HunyuanOCR-style tower.
    "hy_v4_vl",
    # Ministral 3 and Mistral Small 4's text models (vLLM's recipes).
    "ministral3", "mistral4",
    # Read as known families through the generic reading, exact: Meta's CWM, InternLM3,
    # IQuest-Coder, Granite MoE with shared experts.
    "cwm", "internlm3", "iquestcoder", "granitemoeshared",
    # Families Headroom does not know but reads as inferred through the generic MoE and latent
    # attention keys (tests/tests/reference_counts.rs holds them to 0.5%).
    "axk1", "beam", "flex_olmo", "flint", "granitemoe", "kolibri1", "mellum", "phimoe",
    "sarvam_mla", "sarvam_moe", "solar_open", "youtu", "minicpm3", "hy_v3",
    # NVIDIA's Dory (vLLM's registry): a looped nGPT, its recurrent layers run twice. Zyphra's
    # ZAYA (vLLM's registry): compressed convolutional attention, an MLP router.
    "dory", "zaya",
    # Thinking Machines' Inkling 2 (Inkling-2-Small's shape at the class defaults; transformers
    # only: vLLM 0.34 does not list it), with its vision model.
    "inkling2",
    # Inkling-2-Mini: Inkling 2's layers with a core of them run in three passes.
    "inkling2_loop",
    # IBM's Granite with sliding layers and sinks (llama.cpp, vLLM and SGLang serve both).
    "granite_swa", "granitemoe_swa",
    # Sapient's HRM-Text (vLLM, SGLang and llama.cpp serve it): two stacks run in nested cycles,
    # a cache layer for each layer's run.
    "hrm_text",
]
HUNYUAN_ROPE = {"rope_theta": 10000.0, "rope_type": "dynamic", "alpha": 1000.0, "factor": 1.0}


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    for family in FAMILIES:
        d = AutoConfig.for_model(family).to_dict()
        d["model_type"] = family
        if family.startswith("hunyuan_v1"):
            d["rope_parameters"] = HUNYUAN_ROPE
            d["head_dim"] = 128
        if family == "hunyuan_vl":
            # HunyuanOCR's text model: the same rope parameters that build.
            d["text_config"]["rope_parameters"] = HUNYUAN_ROPE
            d["text_config"]["head_dim"] = 128
        if family == "gemma4":
            # Gemma4Config() has neither a vision nor an audio config: the class defaults of both
            # (the E2B/E4B towers) stand in for the published ones.
            from transformers.models.gemma4.configuration_gemma4 import (
                Gemma4AudioConfig, Gemma4Config, Gemma4VisionConfig)
            d = Gemma4Config(audio_config=Gemma4AudioConfig().to_dict(),
                             vision_config=Gemma4VisionConfig().to_dict()).to_dict()
            d["model_type"] = family
        if family == "qwen3_omni_moe":
            # Qwen3OmniMoeConfig() names no class, and no Auto class maps it: the class the
            # published checkpoints name.
            d["architectures"] = ["Qwen3OmniMoeForConditionalGeneration"]
            # Its default talker does not build in transformers 5.24.0 (the talker's text config
            # lacks the shared_expert_intermediate_size its MoE reads): the thinker alone, which
            # is what vLLM serves.
            d["enable_audio_output"] = False
        if family == "qwen2_5_omni":
            # Qwen2_5OmniConfig() names no class: the one transformers 5.24.0 maps it to (the
            # published checkpoints name Qwen2_5OmniModel, which it no longer has). Its thinker
            # alone is the reference here (the language model and encoders, what vLLM serves);
            # the talker and token2wav, counted apart as Headroom's speech output, are checked
            # against transformers' own counts in the core's unit tests.
            d["architectures"] = ["Qwen2_5OmniForConditionalGeneration"]
            d["enable_audio_output"] = False
        if family == "lfm2_moe":
            # Lfm2MoeConfig() leaves layer_types None, and its model cannot build without them:
            # nine attention layers among the 32, in LFM2's manner, stand in.
            full = (2, 6, 10, 14, 18, 21, 24, 27, 30)
            d["layer_types"] = ["full_attention" if i in full else "conv" for i in range(d["num_hidden_layers"])]
        if family == "dbrx":
            # transformers 5.24.0's DBRX reads attn_config.rope_theta, absent from its default.
            d["attn_config"]["rope_theta"] = 10000.0
        with open(OUT / f"{family}.json", "w") as f:
            json.dump(d, f, indent=1, sort_keys=True, default=str)
    print(f"{len(FAMILIES)} configs from transformers {transformers.__version__} -> {OUT}")


if __name__ == "__main__":
    main()
