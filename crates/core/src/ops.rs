//! Floating-point functions through `libm`, so that the core builds without `std` and gives the
//! same results on every target (the browser and the command line agree to the last digit).
//!
//! `clippy.toml` forbids the inherent `f64` methods elsewhere in the workspace.

/// Smallest integer not less than `x`.
#[inline]
pub fn ceil(x: f64) -> f64 {
    libm::ceil(x)
}

/// Largest integer not greater than `x`.
#[inline]
pub fn floor(x: f64) -> f64 {
    libm::floor(x)
}

/// Nearest integer, halves away from zero.
#[inline]
pub fn round(x: f64) -> f64 {
    libm::round(x)
}

/// Square root.
#[inline]
pub fn sqrt(x: f64) -> f64 {
    libm::sqrt(x)
}

/// `x` raised to the power `y`.
#[inline]
pub fn powf(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// Natural logarithm.
#[inline]
pub fn ln(x: f64) -> f64 {
    libm::log(x)
}

/// Base-2 logarithm.
#[inline]
pub fn log2(x: f64) -> f64 {
    libm::log2(x)
}

/// Base-10 logarithm.
#[inline]
pub fn log10(x: f64) -> f64 {
    libm::log10(x)
}

/// e raised to `x`.
#[inline]
pub fn exp(x: f64) -> f64 {
    libm::exp(x)
}

/// Absolute value.
#[inline]
pub fn abs(x: f64) -> f64 {
    libm::fabs(x)
}

/// Converts a non-negative finite float to `u64`, rounding up; `None` when it does not fit.
#[inline]
pub fn ceil_u64(x: f64) -> Option<u64> {
    if !x.is_finite() || x < 0.0 {
        return None;
    }
    let c = ceil(x);
    // 2^64 is exactly representable; anything at or above it does not fit.
    if c >= 18_446_744_073_709_551_616.0 { None } else { Some(c as u64) }
}

/// Converts a non-negative finite float to `u64`, rounding to nearest; `None` when it does not fit.
#[inline]
pub fn round_u64(x: f64) -> Option<u64> {
    if !x.is_finite() || x < 0.0 {
        return None;
    }
    let r = round(x);
    if r >= 18_446_744_073_709_551_616.0 { None } else { Some(r as u64) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conversions_refuse_what_does_not_fit() {
        assert_eq!(ceil_u64(1.2), Some(2));
        assert_eq!(round_u64(1.5), Some(2));
        assert_eq!(ceil_u64(-1.0), None);
        assert_eq!(ceil_u64(f64::NAN), None);
        assert_eq!(ceil_u64(f64::INFINITY), None);
        assert_eq!(ceil_u64(1e30), None);
        assert_eq!(round_u64(18_446_744_073_709_551_616.0), None);
    }
}
