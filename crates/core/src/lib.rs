//! # headroom-core
//!
//! The estimation core of Headroom: given a model and a workload, how much memory each device
//! needs, term by term, how big the download is, which hardware fits, how fast it runs and what it
//! costs.
//!
//! `#![no_std]` with `alloc`: no I/O, no clock, no JavaScript, no panics on any input. Bytes and
//! plain data go in ([`scenario::Scenario`]); an [`estimate::Estimate`] comes out. The web page and
//! the `headroom` command line are thin front ends over this crate.
//!
//! Conventions that decide numbers (see `docs/FORMULAS.md`): arithmetic in bytes and parameters
//! as `u64` with overflow reported as an error; GB = 10^9 bytes and GiB = 2^30 bytes, always named.

#![no_std]
#![deny(missing_docs)]

extern crate alloc;

pub mod breakdown;
pub mod catalog;
pub mod comm;
pub mod command;
pub mod cost;
pub mod error;
pub mod estimate;
pub mod fit;
pub mod flags;
pub mod hardware;
pub mod import;
pub mod inference;
pub mod json;
pub mod llama_cpp;
pub mod loads;
pub mod measured;
pub mod model;
pub mod number;
pub mod ollama;
pub mod ops;
pub mod pattern;
pub mod precision;
pub mod quant;
pub mod scenario;
pub mod sglang;
pub mod share;
pub mod sort;
pub mod speed;
pub mod tensor;
pub mod tensors;
pub mod text;
pub mod training;
pub mod units;
pub mod vllm;

pub use error::{Error, Result};
pub use estimate::{Estimate, estimate};
pub use scenario::Scenario;
