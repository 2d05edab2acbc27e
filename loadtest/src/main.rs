//! `parley-loadtest SCENARIO --target URL ...`: see `--help`.
#![forbid(unsafe_code)]

use clap::Parser;
use parley_loadtest::cli::Cli;

#[tokio::main]
async fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let report = parley_loadtest::run(&cli).await?;
    print!("{}", report.table());
    Ok(())
}
