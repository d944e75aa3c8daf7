//! The hardware catalog: every row with its source and date, kept as data in
//! `data/devices.tsv` (one device per line; see its header) and compiled by `build.rs` into the
//! table below. Numbers are per accelerator; 0.0 means not found (never a guess).

use super::device::{Device, DeviceKind, links};

include!(concat!(env!("OUT_DIR"), "/devices.rs"));
