//! A game's chat: what a line may hold, how fast one writer may write, and the feed a
//! connection reads. The game's owner (`room`) keeps each channel's latest lines.

use std::num::NonZeroU32;
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use tokio::sync::broadcast;

use crate::store::ChatChannel;
use crate::wire;

/// The most characters in one line.
pub const MAX_CHAT_CHARS: usize = 140;
/// How many of a channel's latest lines a connection is sent when it opens.
pub const CHAT_HISTORY: usize = 50;

/// What a connection reads of one channel: the `chat` message of its latest lines, then each
/// new line's.
pub struct ChatFeed {
    pub history: Utf8Bytes,
    pub lines: broadcast::Receiver<Utf8Bytes>,
}

/// One line a second per writer and channel, three at once: a conversation, not a flood.
pub struct ChatLimits {
    writers: DefaultKeyedRateLimiter<(ChatChannel, String)>,
}

impl ChatLimits {
    pub fn new() -> ChatLimits {
        let quota =
            Quota::with_period(Duration::from_secs(1)).expect("not zero").allow_burst(NonZeroU32::new(3).expect("not zero"));
        ChatLimits { writers: RateLimiter::keyed(quota) }
    }

    pub fn allow(&self, channel: ChatChannel, author: &str) -> bool {
        self.writers.check_key(&(channel, author.to_string())).is_ok()
    }
}

impl Default for ChatLimits {
    fn default() -> Self {
        ChatLimits::new()
    }
}

/// The line as stored: trimmed, 1 to 140 characters, no control character.
pub fn checked_text(text: &str) -> Result<String, String> {
    let text = text.trim();
    if text.is_empty() {
        return Err("a chat line needs some text".into());
    }
    if text.chars().count() > MAX_CHAT_CHARS {
        return Err(format!("a chat line is at most {MAX_CHAT_CHARS} characters"));
    }
    if text.chars().any(char::is_control) {
        return Err("a chat line is one line of text, without control characters".into());
    }
    Ok(text.to_string())
}

/// The `chat` message carrying `lines`.
pub fn message(lines: Vec<wire::ChatLine>) -> Utf8Bytes {
    let message = wire::ServerMessage::Chat { lines };
    // The wire types have only text keys, so writing them cannot fail.
    Utf8Bytes::from(serde_json::to_string(&message).expect("a chat message is JSON"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_trimmed_and_limited() {
        assert_eq!(checked_text("  good game "), Ok("good game".to_string()));
        assert!(checked_text("   ").is_err());
        assert!(checked_text(&"é".repeat(MAX_CHAT_CHARS)).is_ok());
        assert!(checked_text(&"é".repeat(MAX_CHAT_CHARS + 1)).is_err());
        assert!(checked_text("two\nlines").is_err());
    }

    #[test]
    fn a_writer_may_write_three_at_once_then_waits() {
        let limits = ChatLimits::new();
        for _ in 0..3 {
            assert!(limits.allow(ChatChannel::Players, "alice"));
        }
        assert!(!limits.allow(ChatChannel::Players, "alice"));
        // Another writer, or the same name in the other channel, has a budget of its own.
        assert!(limits.allow(ChatChannel::Players, "bob"));
        assert!(limits.allow(ChatChannel::Spectators, "alice"));
    }
}
