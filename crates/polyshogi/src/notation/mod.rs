//! Text forms: move text and playing it on a game, game records (read and written) with their
//! departure tokens, and events in words. (Replaying a record of any variant is the top-level `replay` module.)

pub(crate) mod board_text;
pub mod departure;
pub mod describe;
pub mod diagram;
pub mod move_text;
pub mod play_text;
pub mod position_error;
pub mod record;
pub mod record_write;
