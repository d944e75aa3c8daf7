//! The model catalog table. Each config is the model's Hugging Face `config.json` as published.

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
        config: include_str!("models/llama-2-7b.json"),
    },
    ModelEntry {
        id: "llama-3.1-8b",
        aliases: &["llama-3.1-8b-instruct", "meta-llama-3.1-8b"],
        name: "Llama 3.1 8B",
        hf_repo: "meta-llama/Llama-3.1-8B",
        released: "2024-07",
        source: src!(
            "../shared/validation/configs/llama-3.1-8b.json (Hugging Face config.json as published)"
        ),
        config: include_str!("models/llama-3.1-8b.json"),
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
        config: include_str!("models/mistral-7b-v0.1.json"),
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
        config: include_str!("models/mixtral-8x7b.json"),
    },
    ModelEntry {
        id: "qwen2.5-7b",
        aliases: &["qwen2.5-7b-instruct"],
        name: "Qwen2.5 7B",
        hf_repo: "Qwen/Qwen2.5-7B",
        released: "2024-09",
        source: src!("../shared/validation/configs/qwen2.5-7b.json (Hugging Face config.json as published)"),
        config: include_str!("models/qwen2.5-7b.json"),
    },
    ModelEntry {
        id: "qwen3-8b",
        aliases: &[],
        name: "Qwen3 8B",
        hf_repo: "Qwen/Qwen3-8B",
        released: "2025-04",
        source: src!("../shared/validation/configs/qwen3-8b.json (Hugging Face config.json as published)"),
        config: include_str!("models/qwen3-8b.json"),
    },
    ModelEntry {
        id: "gemma-2-2b",
        aliases: &["gemma-2-2b-it"],
        name: "Gemma 2 2B",
        hf_repo: "google/gemma-2-2b",
        released: "2024-07",
        source: src!("../shared/validation/configs/gemma-2-2b.json (Hugging Face config.json as published)"),
        config: include_str!("models/gemma-2-2b.json"),
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
        config: include_str!("models/phi-3-mini-4k.json"),
    },
    ModelEntry {
        id: "deepseek-v3",
        aliases: &["deepseek-v3-0324"],
        name: "DeepSeek-V3",
        hf_repo: "deepseek-ai/DeepSeek-V3",
        released: "2024-12",
        source: src!("../shared/validation/configs/deepseek-v3.json (Hugging Face config.json as published)"),
        config: include_str!("models/deepseek-v3.json"),
    },
    ModelEntry {
        id: "gpt2",
        aliases: &["gpt2-small", "gpt-2"],
        name: "GPT-2 (124M)",
        hf_repo: "openai-community/gpt2",
        released: "2019-02",
        source: src!("../shared/validation/configs/gpt2.json (Hugging Face config.json as published)"),
        config: include_str!("models/gpt2.json"),
    },
];
