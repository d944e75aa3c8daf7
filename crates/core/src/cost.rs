//! What it costs: cloud rent per hour and per run, dollars per million tokens served, ownership
//! (purchase + energy with a cooling factor + upkeep) and the buy-versus-rent break-even.

use crate::catalog::device::{Device, DeviceKind};
use crate::estimate::Estimate;
use crate::speed::Speed;

#[cfg(feature = "serde")]
use serde::{Deserialize, Serialize};

/// The user's cost assumptions.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct CostSettings {
    /// Electricity price, USD per kWh.
    pub usd_per_kwh: f64,
    /// Hours per day the machine works (for monthly figures and the break-even).
    pub hours_per_day: f64,
    /// Cooling and power-delivery overhead on top of the device's power (a PUE: 1.0 at home,
    /// about 1.4 in a data centre).
    pub cooling_factor: f64,
    /// Upkeep per year as a share of the purchase price (repairs, replacement parts, admin).
    pub upkeep_per_year: f64,
}

impl Default for CostSettings {
    fn default() -> Self {
        CostSettings { usd_per_kwh: 0.15, hours_per_day: 8.0, cooling_factor: 1.0, upkeep_per_year: 0.05 }
    }
}

impl CostSettings {
    /// Checks the numbers.
    ///
    /// # Errors
    /// [`crate::Error::Invalid`] naming the field.
    pub fn validate(&self) -> crate::Result<()> {
        let ok = |v: f64, lo: f64, hi: f64| v.is_finite() && (lo..=hi).contains(&v);
        if !ok(self.usd_per_kwh, 0.0, 10.0) {
            return Err(crate::Error::invalid(
                "kwh",
                "electricity price must be between 0 and 10 USD per kWh",
            ));
        }
        if !ok(self.hours_per_day, 0.0, 24.0) {
            return Err(crate::Error::invalid("hours", "hours per day must be between 0 and 24"));
        }
        if !ok(self.cooling_factor, 1.0, 3.0) {
            return Err(crate::Error::invalid("cooling", "the cooling factor (PUE) must be between 1 and 3"));
        }
        if !ok(self.upkeep_per_year, 0.0, 1.0) {
            return Err(crate::Error::invalid(
                "upkeep",
                "upkeep must be between 0 and 1 of the price per year",
            ));
        }
        Ok(())
    }
}

/// Costs of a scenario on a device. `None` where a price is not known.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(Serialize, Deserialize))]
pub struct Cost {
    /// Cloud rent per hour (cloud instances).
    pub usd_per_hour: Option<f64>,
    /// Purchase price of the configuration (owned devices).
    pub purchase_usd: Option<f64>,
    /// Power drawn under load, watts (all accelerators plus the host's share).
    pub watts: Option<f64>,
    /// Energy cost per hour of use (owned devices).
    pub energy_usd_per_hour: Option<f64>,
    /// Running cost per month of ownership: energy at `hours_per_day` plus upkeep.
    pub own_usd_per_month: Option<f64>,
    /// Serving cost: USD per million generated tokens at the scenario's concurrency.
    pub usd_per_million_tokens: Option<f64>,
    /// The training run's cost (rent, or energy for owned devices).
    pub training_run_usd: Option<f64>,
    /// Months after which buying beats renting the cheapest cloud instance that fits.
    pub break_even_months: Option<f64>,
    /// The cloud price the break-even compares against.
    pub rent_reference_usd_per_hour: Option<f64>,
}

/// Power of the whole configuration under load: the accelerators' board power, plus 150 W for
/// the host of a discrete GPU (CPU, memory, fans); a Mac, laptop or CPU machine's figure is
/// already the system's.
pub fn watts(device: &Device, gpus: u64) -> Option<f64> {
    if device.tdp_w <= 0.0 {
        return None;
    }
    Some(match device.kind {
        DeviceKind::Gpu | DeviceKind::Cloud => device.tdp_w * gpus.max(1) as f64 + 150.0,
        _ => device.tdp_w,
    })
}

/// Costs of an estimate on a device: rent or energy per hour, per million tokens at the
/// aggregate speed, per training run, and per month of ownership.
pub fn cost(device: &Device, gpus: u64, e: &Estimate, speed: &Speed, s: &CostSettings) -> Cost {
    let cloud = device.kind == DeviceKind::Cloud && device.usd_per_hour > 0.0;
    // Several cards of a single-card row are bought (and draw power) together.
    let cards = if device.count <= 1 { gpus.max(1) as f64 } else { 1.0 };
    let purchase = (!cloud && device.price_usd > 0.0).then_some(device.price_usd * cards);
    let w = watts(device, if device.count <= 1 { gpus } else { u64::from(device.count) });
    let energy = w.map(|w| w / 1000.0 * s.usd_per_kwh * s.cooling_factor);
    // A scenario across more GPUs than one instance has (data-parallel training over nodes)
    // rents as many instances as it spans.
    let instances = if cloud { gpus.max(1).div_ceil(u64::from(device.count.max(1))) } else { 1 };
    let rent = device.usd_per_hour * instances as f64;
    let per_hour = if cloud { Some(rent) } else { energy };
    let own_month = match (purchase, energy) {
        (Some(p), Some(en)) => Some(en * s.hours_per_day * 30.44 + p * s.upkeep_per_year / 12.0),
        (None, Some(en)) if !cloud => Some(en * s.hours_per_day * 30.44),
        _ => None,
    };
    let per_million = match (per_hour, speed.aggregate_tokens_per_s) {
        (Some(h), tps) if tps > 0.0 => Some(h / (tps * 3600.0) * 1e6),
        _ => None,
    };
    let training_run = match (per_hour, speed.training_s) {
        (Some(h), Some(t)) => Some(h * t / 3600.0),
        _ => None,
    };
    let _ = e;
    Cost {
        usd_per_hour: cloud.then_some(rent),
        purchase_usd: purchase,
        watts: w,
        energy_usd_per_hour: if cloud { None } else { energy },
        own_usd_per_month: own_month,
        usd_per_million_tokens: per_million,
        training_run_usd: training_run,
        break_even_months: None,
        rent_reference_usd_per_hour: None,
    }
}

/// Months until buying costs less than renting at `rent_per_hour` for the same hours of use:
/// `purchase / (monthly rent − monthly running cost)`; `None` when renting stays cheaper.
pub fn break_even_months(c: &Cost, rent_per_hour: f64, s: &CostSettings) -> Option<f64> {
    let purchase = c.purchase_usd?;
    let running_month = c.own_usd_per_month.unwrap_or(0.0);
    let rent_month = rent_per_hour * s.hours_per_day * 30.44;
    let saving = rent_month - running_month;
    (saving > 0.0).then(|| purchase / saving)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn break_even_is_purchase_over_monthly_saving() {
        let c = Cost { purchase_usd: Some(2000.0), own_usd_per_month: Some(50.0), ..Cost::default() };
        let s = CostSettings::default();
        // 1 $/h × 8 h × 30.44 days = 243.52 $/month rent; saving 193.52 $/month.
        let m = break_even_months(&c, 1.0, &s).unwrap();
        assert!((m - 2000.0 / 193.52).abs() < 1e-9);
        assert_eq!(break_even_months(&c, 0.1, &s), None);
    }
}
