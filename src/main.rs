//! The `battlemap` binary: the command line, or the battle map window.

fn main() -> std::process::ExitCode {
    battlemap::cli::main()
}
