//! The `battlemap` binary: the command line, or the battle map window.

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match battlemap::cli::parse(&args) {
        battlemap::cli::Command::Run(run) => ExitCode::from(run()),
        battlemap::cli::Command::OpenMap(options) => battlemap::app::run(options),
    }
}
