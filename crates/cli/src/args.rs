//! Flags of the `headroom` command, as `spec/cli.md` names them.

use clap::{Args, Parser, Subcommand};
use headroom_core::Error;
use headroom_core::precision::WeightFormat;
use headroom_core::scenario::{ModelSource, Scenario, parse_params};

/// How much memory, disk, speed and money a language model needs — term by term.
#[derive(Parser, Debug)]
#[command(name = "headroom", version, about, propagate_version = true)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Estimate memory and disk for a model and a workload.
    Estimate(EstimateArgs),
}

#[derive(Args, Debug)]
pub struct EstimateArgs {
    /// A bare parameter count (7e9, 7B, 500M): the seed guide's rule-of-thumb mode.
    #[arg(long, value_name = "N")]
    pub params: String,

    /// Weight format: fp32 fp16 bf16 int8 int4.
    #[arg(long, value_name = "DTYPE")]
    pub weights: Option<String>,

    /// Print one JSON object (sizes in bytes).
    #[arg(long, conflicts_with = "link")]
    pub json: bool,

    /// Print the share link's query for this scenario.
    #[arg(long)]
    pub link: bool,
}

impl EstimateArgs {
    /// The scenario these flags describe.
    pub fn scenario(&self) -> Result<Scenario, Error> {
        let params = parse_params(&self.params)?;
        let weights = self.weights.as_deref().map(WeightFormat::parse).transpose()?;
        Ok(Scenario { model: ModelSource::Params(params), weights })
    }
}
