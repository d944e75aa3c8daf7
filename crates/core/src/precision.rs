//! Number formats for weights, and what each costs per parameter.
//!
//! The seed guide's table (`../shared/seed/hardware-guide.fr.txt`) is the starting point:
//! fp32 4 bytes, fp16 and bf16 2, int8 1, int4 0.5 bytes per parameter.

use crate::error::{Error, Result};
use crate::units::BitsPerWeight;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// How weights are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(rename_all = "lowercase"))]
#[non_exhaustive]
pub enum WeightFormat {
    /// IEEE single precision, 32 bits.
    F32,
    /// IEEE half precision, 16 bits.
    F16,
    /// bfloat16, 16 bits.
    Bf16,
    /// Generic 8-bit integer weights (the seed's "INT8").
    Int8,
    /// Generic 4-bit integer weights (the seed's "INT4").
    Int4,
}

/// Every format, in the order menus list them.
pub const ALL_FORMATS: &[WeightFormat] =
    &[WeightFormat::F32, WeightFormat::F16, WeightFormat::Bf16, WeightFormat::Int8, WeightFormat::Int4];

impl WeightFormat {
    /// The short id used by the CLI and the link (`fp16`, `q4_k_m`…).
    pub const fn id(self) -> &'static str {
        match self {
            WeightFormat::F32 => "fp32",
            WeightFormat::F16 => "fp16",
            WeightFormat::Bf16 => "bf16",
            WeightFormat::Int8 => "int8",
            WeightFormat::Int4 => "int4",
        }
    }

    /// The name people use (`FP16`, `Q4_K_M`…).
    pub const fn label(self) -> &'static str {
        match self {
            WeightFormat::F32 => "FP32",
            WeightFormat::F16 => "FP16",
            WeightFormat::Bf16 => "BF16",
            WeightFormat::Int8 => "INT8",
            WeightFormat::Int4 => "INT4",
        }
    }

    /// Bits per weight when every weight of a bare parameter count is stored this way.
    pub const fn bits_per_weight(self) -> BitsPerWeight {
        BitsPerWeight::new(match self {
            WeightFormat::F32 => 32.0,
            WeightFormat::F16 | WeightFormat::Bf16 => 16.0,
            WeightFormat::Int8 => 8.0,
            WeightFormat::Int4 => 4.0,
        })
    }

    /// Parses an id, case-insensitively, with the common spellings (`float16`, `half`, `f16`).
    ///
    /// # Errors
    /// [`Error::Invalid`] on `weights` naming the accepted values.
    ///
    /// # Example
    /// ```
    /// use headroom_core::precision::WeightFormat;
    /// assert_eq!(WeightFormat::parse("FP16"), Ok(WeightFormat::F16));
    /// assert!(WeightFormat::parse("fp12").is_err());
    /// ```
    pub fn parse(s: &str) -> Result<Self> {
        let t = s.trim();
        let lower = alloc::string::String::from(t).to_ascii_lowercase();
        let f = match lower.as_str() {
            "fp32" | "f32" | "float32" | "float" => WeightFormat::F32,
            "fp16" | "f16" | "float16" | "half" => WeightFormat::F16,
            "bf16" | "bfloat16" => WeightFormat::Bf16,
            "int8" | "i8" => WeightFormat::Int8,
            "int4" | "i4" => WeightFormat::Int4,
            _ => {
                return Err(Error::invalid(
                    "weights",
                    alloc::format!("`{t}` is not a known format; accepted: fp32, fp16, bf16, int8, int4"),
                ));
            }
        };
        Ok(f)
    }
}

/// One row of the seed guide's table: storage per billion parameters at a precision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeedRow {
    /// The format.
    pub format: WeightFormat,
    /// Gigabytes (10^9 bytes) per billion parameters, i.e. bytes per parameter.
    pub gb_per_billion: f64,
}

/// The seed guide's table of storage per billion parameters (fp32 4, fp16 2, bf16 2, int8 1,
/// int4 0.5), which the calculator shows with the chosen row highlighted.
pub const SEED_TABLE: [SeedRow; 5] = [
    SeedRow { format: WeightFormat::F32, gb_per_billion: 4.0 },
    SeedRow { format: WeightFormat::F16, gb_per_billion: 2.0 },
    SeedRow { format: WeightFormat::Bf16, gb_per_billion: 2.0 },
    SeedRow { format: WeightFormat::Int8, gb_per_billion: 1.0 },
    SeedRow { format: WeightFormat::Int4, gb_per_billion: 0.5 },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seed_table_matches_bits_per_weight() {
        for row in SEED_TABLE {
            assert_eq!(row.format.bits_per_weight().bytes_per_weight(), row.gb_per_billion);
        }
    }

    #[test]
    fn ids_round_trip() {
        for f in ALL_FORMATS {
            assert_eq!(WeightFormat::parse(f.id()), Ok(*f));
            assert_eq!(WeightFormat::parse(f.label()), Ok(*f));
        }
    }
}
