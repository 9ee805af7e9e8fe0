//! Seat tokens and game ids: random secrets handed out once, of which only a hash is kept.

use rand::distributions::Alphanumeric;
use rand::{Rng, RngCore};
use sha2::{Digest, Sha256};

/// A new seat token: 32 random bytes from the operating system, as 64 hex digits.
pub fn new_token() -> String {
    let mut bytes = [0u8; 32];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    hex(&bytes)
}

/// What is stored of a token: its SHA-256, as hex.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// A new game id: 10 lowercase letters and digits.
pub fn new_game_id() -> String {
    rand::thread_rng().sample_iter(&Alphanumeric).take(10).map(|b| (b as char).to_ascii_lowercase()).collect()
}

/// Whether a text could be a game id (checked before any database look-up).
pub fn is_game_id(text: &str) -> bool {
    !text.is_empty() && text.len() <= 32 && text.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_and_hashed() {
        let (a, b) = (new_token(), new_token());
        assert_ne!(a, b);
        assert_eq!(a.len(), 64);
        assert_eq!(hash_token(&a), hash_token(&a));
        assert_ne!(hash_token(&a), a);
        assert!(is_game_id(&new_game_id()));
        assert!(!is_game_id("../etc"));
    }
}
