//! Quantities, not units: every value is held in its base unit (bytes, parameters, FLOP,
//! seconds) and units only appear in the names of constructors and accessors.
//!
//! GB is 10^9 bytes and GiB is 2^30 bytes; both exist and are always named. A GPU sold as
//! "24 GB" holds 24 GiB, so device capacities are built with [`Bytes::from_gib`].

use core::fmt;
use core::ops::{Add, Div, Mul};

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// 10^9 bytes.
pub const GB: u64 = 1_000_000_000;
/// 2^30 bytes.
pub const GIB: u64 = 1 << 30;
/// 2^20 bytes.
pub const MIB: u64 = 1 << 20;

/// A number of bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(transparent))]
pub struct Bytes(u64);

impl Bytes {
    /// Zero bytes.
    pub const ZERO: Bytes = Bytes(0);

    /// Bytes from a count of bytes.
    pub const fn new(bytes: u64) -> Self {
        Bytes(bytes)
    }

    /// Whether this is no bytes at all.
    pub const fn is_zero(&self) -> bool {
        self.0 == 0
    }

    /// Whole gibibytes (2^30 bytes each); saturates instead of wrapping.
    pub const fn from_gib(gib: u64) -> Self {
        Bytes(gib.saturating_mul(GIB))
    }

    /// Whole mebibytes (2^20 bytes each); saturates instead of wrapping.
    pub const fn from_mib(mib: u64) -> Self {
        Bytes(mib.saturating_mul(MIB))
    }

    /// Fractional gigabytes (10^9 bytes each), rounded to the nearest byte; `None` if negative,
    /// not finite or too large.
    pub fn from_gb_f64(gb: f64) -> Option<Self> {
        crate::ops::round_u64(gb * GB as f64).map(Bytes)
    }

    /// Fractional gibibytes, rounded to the nearest byte; `None` if negative, not finite or too large.
    pub fn from_gib_f64(gib: f64) -> Option<Self> {
        crate::ops::round_u64(gib * GIB as f64).map(Bytes)
    }

    /// The count of bytes.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// In gigabytes (10^9).
    pub fn as_gb(self) -> f64 {
        self.0 as f64 / GB as f64
    }

    /// In gibibytes (2^30).
    pub fn as_gib(self) -> f64 {
        self.0 as f64 / GIB as f64
    }

    /// In mebibytes (2^20).
    pub fn as_mib(self) -> f64 {
        self.0 as f64 / MIB as f64
    }

    /// Sum, or `None` on overflow.
    pub const fn checked_add(self, other: Bytes) -> Option<Bytes> {
        match self.0.checked_add(other.0) {
            Some(v) => Some(Bytes(v)),
            None => None,
        }
    }

    /// Product with a count, or `None` on overflow.
    pub const fn checked_mul(self, n: u64) -> Option<Bytes> {
        match self.0.checked_mul(n) {
            Some(v) => Some(Bytes(v)),
            None => None,
        }
    }

    /// Difference, floored at zero.
    pub const fn saturating_sub(self, other: Bytes) -> Bytes {
        Bytes(self.0.saturating_sub(other.0))
    }

    /// Sum, capped at `u64::MAX`.
    pub const fn saturating_add(self, other: Bytes) -> Bytes {
        Bytes(self.0.saturating_add(other.0))
    }

    /// This size scaled by a non-negative factor and rounded to the nearest byte (saturating).
    pub fn scale(self, factor: f64) -> Bytes {
        Bytes(crate::ops::round_u64(self.0 as f64 * factor).unwrap_or(u64::MAX))
    }
}

impl fmt::Display for Bytes {
    /// Human form in binary units (the unit a runtime's log shows), e.g. `14.96 GiB`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        if b >= GIB {
            write!(f, "{:.2} GiB", self.as_gib())
        } else if b >= MIB {
            write!(f, "{:.1} MiB", self.as_mib())
        } else if b >= 1024 {
            write!(f, "{:.1} KiB", b as f64 / 1024.0)
        } else {
            write!(f, "{b} B")
        }
    }
}

/// A number of model parameters (weights).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(transparent))]
pub struct Params(u64);

impl Params {
    /// No parameters.
    pub const ZERO: Params = Params(0);

    /// Parameters from a count.
    pub const fn new(count: u64) -> Self {
        Params(count)
    }

    /// The count.
    pub const fn get(self) -> u64 {
        self.0
    }

    /// In billions (10^9), the "B" of model names.
    pub fn as_billions(self) -> f64 {
        self.0 as f64 / 1e9
    }

    /// Sum, or `None` on overflow.
    pub const fn checked_add(self, other: Params) -> Option<Params> {
        match self.0.checked_add(other.0) {
            Some(v) => Some(Params(v)),
            None => None,
        }
    }

    /// Product with a count, or `None` on overflow.
    pub const fn checked_mul(self, n: u64) -> Option<Params> {
        match self.0.checked_mul(n) {
            Some(v) => Some(Params(v)),
            None => None,
        }
    }
}

impl fmt::Display for Params {
    /// Short form as in model names: `8.03B`, `124M`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0 as f64;
        // Each threshold sits where the smaller unit would round up to 1000 (999.6M is `1.00B`).
        if n >= 999.995e9 {
            write!(f, "{:.2}T", n / 1e12)
        } else if n >= 999.5e6 {
            write!(f, "{:.2}B", n / 1e9)
        } else if n >= 999.5e3 {
            write!(f, "{:.0}M", n / 1e6)
        } else if n >= 1e3 {
            write!(f, "{:.0}K", n / 1e3)
        } else {
            write!(f, "{}", self.0)
        }
    }
}

/// Storage cost of one weight, in bits, including any per-block scales.
#[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(transparent))]
pub struct BitsPerWeight(f64);

impl BitsPerWeight {
    /// Bits per weight from a float.
    pub const fn new(bits: f64) -> Self {
        BitsPerWeight(bits)
    }

    /// The bits.
    pub const fn get(self) -> f64 {
        self.0
    }

    /// Bytes per weight.
    pub fn bytes_per_weight(self) -> f64 {
        self.0 / 8.0
    }
}

impl Mul<BitsPerWeight> for Params {
    type Output = Option<Bytes>;

    /// Bytes of `self` weights at `bpw`, rounded up to a whole byte; `None` if too large.
    fn mul(self, bpw: BitsPerWeight) -> Option<Bytes> {
        crate::ops::ceil_u64(self.0 as f64 * bpw.0 / 8.0).map(Bytes)
    }
}

macro_rules! float_quantity {
    ($(#[$doc:meta])* $name:ident, $unit:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default, PartialEq, PartialOrd)]
        #[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(transparent))]
        pub struct $name(f64);

        impl $name {
            /// Zero.
            pub const ZERO: $name = $name(0.0);

            #[doc = concat!("From a value in ", $unit, ".")]
            pub const fn new(value: f64) -> Self {
                $name(value)
            }

            #[doc = concat!("The value in ", $unit, ".")]
            pub const fn get(self) -> f64 {
                self.0
            }
        }

        impl Add for $name {
            type Output = $name;
            fn add(self, other: $name) -> $name {
                $name(self.0 + other.0)
            }
        }

        impl Mul<f64> for $name {
            type Output = $name;
            fn mul(self, k: f64) -> $name {
                $name(self.0 * k)
            }
        }
    };
}

float_quantity!(
    /// Floating-point operations (a count, not a rate).
    Flops, "FLOP"
);
float_quantity!(
    /// Floating-point operations per second.
    FlopsPerSec, "FLOP/s"
);
float_quantity!(
    /// Bytes per second of memory or link bandwidth.
    BytesPerSec, "bytes per second"
);
float_quantity!(
    /// A duration.
    Seconds, "seconds"
);
float_quantity!(
    /// Tokens per second.
    TokensPerSec, "tokens per second"
);

impl FlopsPerSec {
    /// From TFLOP/s (10^12).
    pub fn from_tflops(t: f64) -> Self {
        FlopsPerSec(t * 1e12)
    }
    /// In TFLOP/s.
    pub fn as_tflops(self) -> f64 {
        self.0 / 1e12
    }
}

impl BytesPerSec {
    /// From GB/s (10^9 bytes per second), the unit of memory datasheets.
    pub fn from_gb_per_s(gbs: f64) -> Self {
        BytesPerSec(gbs * 1e9)
    }
    /// In GB/s.
    pub fn as_gb_per_s(self) -> f64 {
        self.0 / 1e9
    }
}

impl Seconds {
    /// In hours.
    pub fn as_hours(self) -> f64 {
        self.0 / 3600.0
    }
    /// From hours.
    pub fn from_hours(h: f64) -> Self {
        Seconds(h * 3600.0)
    }
}

impl Div<BytesPerSec> for Bytes {
    type Output = Seconds;
    /// Time to move these bytes at that bandwidth.
    fn div(self, bw: BytesPerSec) -> Seconds {
        Seconds(self.0 as f64 / bw.0)
    }
}

impl Div<FlopsPerSec> for Flops {
    type Output = Seconds;
    /// Time to do this work at that rate.
    fn div(self, rate: FlopsPerSec) -> Seconds {
        Seconds(self.0 / rate.0)
    }
}

/// A number of tokens.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize), serde(transparent))]
pub struct Tokens(u64);

impl Tokens {
    /// From a count.
    pub const fn new(n: u64) -> Self {
        Tokens(n)
    }
    /// The count.
    pub const fn get(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn gb_and_gib_are_different_units() {
        let b = Bytes::from_gib(24);
        assert_eq!(b.get(), 25_769_803_776);
        assert!((b.as_gb() - 25.769_803_776).abs() < 1e-12);
        assert_eq!(b.as_gib(), 24.0);
        assert_eq!(Bytes::from_gb_f64(14.0), Some(Bytes::new(14_000_000_000)));
    }

    #[test]
    fn params_times_bits_is_bytes_rounded_up() {
        assert_eq!(Params::new(7_000_000_000) * BitsPerWeight::new(16.0), Some(Bytes::new(14_000_000_000)));
        assert_eq!(Params::new(3) * BitsPerWeight::new(4.0), Some(Bytes::new(2)));
        assert_eq!(Params::new(u64::MAX) * BitsPerWeight::new(32.0), None);
    }

    #[test]
    fn checked_arithmetic_reports_overflow() {
        assert_eq!(Bytes::new(u64::MAX).checked_add(Bytes::new(1)), None);
        assert_eq!(Bytes::new(u64::MAX / 2 + 1).checked_mul(2), None);
        assert_eq!(Bytes::new(5).saturating_sub(Bytes::new(9)), Bytes::ZERO);
    }

    #[test]
    fn display_names_the_binary_unit() {
        assert_eq!(Bytes::new(14_000_000_000).to_string(), "13.04 GiB");
        assert_eq!(Bytes::from_mib(512).to_string(), "512.0 MiB");
        assert_eq!(Params::new(8_030_261_248).to_string(), "8.03B");
        assert_eq!(Params::new(124_439_808).to_string(), "124M");
        assert_eq!(Params::new(999_885_952).to_string(), "1.00B");
        assert_eq!(Params::new(999_600).to_string(), "1M");
        assert_eq!(Params::new(999_996_000_000).to_string(), "1.00T");
    }

    #[test]
    fn rates_divide_into_seconds() {
        let t = Bytes::new(1_000_000_000) / BytesPerSec::from_gb_per_s(100.0);
        assert!((t.get() - 0.01).abs() < 1e-15);
        let t = Flops::new(2e12) / FlopsPerSec::from_tflops(1.0);
        assert!((t.get() - 2.0).abs() < 1e-12);
    }
}
