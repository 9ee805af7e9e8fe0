//! Text forms: move text, game records and replaying them (position strings come with the
//! formats issue).

pub mod move_text;
pub mod record;
pub mod replay;
