//! The parts of the `polyshogi` command that tests use directly: the load tool.
//! The command itself (argument parsing, the other subcommands) is `main.rs`.

pub mod load;
