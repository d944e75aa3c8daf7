//! Readers of model files: Hugging Face `config.json` (more formats join as they land). Bytes in,
//! facts out, never panicking on hostile input.

pub mod hf;
