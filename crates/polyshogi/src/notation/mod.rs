//! Text forms: move text, and (later) position strings and game records.

pub mod move_text;
