//! `headroom`: the command-line front end of Headroom. It parses flags, builds a scenario, calls
//! `headroom-core` and prints the result; it computes nothing itself.
//!
//! Errors print one line on stderr and exit with status 2 (the contract in `spec/cli.md`).

mod args;
mod files;
mod output;

use std::io::Write;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = match args::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_error(e),
    };
    let mut out = std::io::stdout().lock();
    match run(cli, &mut out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            let _ = out.flush();
            eprintln!("error: {msg}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: args::Cli, out: &mut impl Write) -> Result<(), String> {
    let text = match cli.command {
        args::Command::Models(a) => {
            if a.json {
                output::models_json()
            } else {
                output::models_table()
            }
        }
        args::Command::Devices(a) => {
            let kind = a.kind.as_deref().map(args::parse_kind).transpose()?;
            if a.json { output::devices_json(kind) } else { output::devices_table(kind) }
        }
        args::Command::Estimate(a) => {
            let scenario = a.scenario.scenario()?;
            let (estimate, fit) =
                headroom_core::fit::estimate_with_device(&scenario).map_err(|e| e.to_string())?;
            if a.json {
                output::json(&scenario, &estimate, fit.as_ref())
            } else if a.link {
                format!("{}\n", headroom_core::share::encode(&scenario))
            } else {
                output::human(&scenario, &estimate, fit.as_ref())
            }
        }
        args::Command::Fit(a) => {
            let scenario = a.scenario.scenario()?;
            let kind = a.kind.as_deref().map(args::parse_kind).transpose()?;
            let mut fits = headroom_core::fit::fit_all(&scenario).map_err(|e| e.to_string())?;
            if let Some(k) = kind {
                fits.retain(|f| f.kind == k);
            }
            if a.json { output::fits_json(&fits) } else { output::fits_table(&scenario, &fits) }
        }
        args::Command::Recommend(a) => output::recommend(&a)?,
    };
    out.write_all(text.as_bytes()).map_err(|e| format!("cannot write output: {e}"))
}

/// Help and version go to stdout with status 0; usage errors become one line and status 2.
fn clap_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
        let _ = e.print();
        return ExitCode::SUCCESS;
    }
    if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        let _ = e.print();
        return ExitCode::from(2);
    }
    eprintln!("{}", one_line(&e.render().to_string()));
    ExitCode::from(2)
}

/// Keeps clap's first paragraph and its hints (`[possible values: …]`, `tip: …`) on one line.
fn one_line(rendered: &str) -> String {
    let mut lines = rendered.lines().map(str::trim);
    let mut msg = String::new();
    for l in lines.by_ref() {
        if l.is_empty() {
            break;
        }
        if !msg.is_empty() {
            msg.push(' ');
        }
        msg.push_str(l);
    }
    for l in lines {
        if l.starts_with("[possible values") || l.starts_with("tip:") {
            msg.push_str("; ");
            msg.push_str(l);
        }
    }
    if msg.is_empty() {
        msg.push_str("error: invalid arguments");
    }
    msg.push_str(" (see `headroom --help`)");
    msg
}
