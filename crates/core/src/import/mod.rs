//! Readers of model files: Hugging Face `config.json`, safetensors headers and indexes, and GGUF
//! headers. Bytes in, facts out, never panicking on hostile input and never allocating by a size
//! a file claims.

pub mod gguf;
pub mod hf;
pub mod hub;
pub mod safetensors;
