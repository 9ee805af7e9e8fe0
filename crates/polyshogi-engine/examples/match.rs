//! `polyshogi match` without the rest of the command-line tool (which also builds the server):
//! `cargo run --release -p polyshogi-engine --example match -- <same arguments>`.

#[path = "../../polyshogi-cli/src/match_cmd.rs"]
mod match_cmd;

use clap::Parser;

#[derive(Parser)]
#[command(name = "match")]
struct Cli {
    #[command(flatten)]
    args: match_cmd::MatchArgs,
}

fn main() -> anyhow::Result<()> {
    match_cmd::run(Cli::parse().args)
}
