//! The parts of the `polyshogi` command that tests use directly: the load tool, terminal play
//! and clock text. The command itself (argument parsing, the other subcommands) is `main.rs`.

pub mod load;
pub mod play;
pub mod time_control;
