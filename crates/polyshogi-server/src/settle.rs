//! Settling a finished game: its places, its entry in the archive and, in a rated game, each
//! player's new rating, written once however many server processes hold the game.

use crate::ratings::{rate, Rating};
use crate::store::{RatingUpdate, SeatPlayer, Settled, Settlement, Store, StoreError};

/// How many times ratings are read again when another game of a player ended meanwhile.
const MAX_TRIES: usize = 5;

/// A finished game, as its owner knows it.
pub struct FinishedGame<'a> {
    pub game_id: &'a str,
    pub variant: &'a str,
    pub rated: bool,
    /// Aborted or expired: no result, not in the archive.
    pub aborted: bool,
    pub plies: i64,
    pub finished_ms: i64,
    /// Each seat's place, in seat order (`None`: the game ended without places).
    pub places: Option<Vec<u8>>,
    /// Each seat's account, in seat order.
    pub players: &'a [Option<SeatPlayer>],
}

/// Settles the game; answers each seat's new rating (none in a casual game, or when another
/// process settled it first).
pub async fn settle(store: &dyn Store, game: &FinishedGame<'_>) -> Result<Vec<Option<Rating>>, StoreError> {
    let places: Vec<Option<u8>> = match &game.places {
        Some(places) if !game.aborted => places.iter().map(|&p| Some(p)).collect(),
        _ => vec![None; game.players.len()],
    };
    // Rated results need every seat's account and place: a rated game is made of accounts only.
    let rated: Option<Vec<(&SeatPlayer, u8)>> = if game.rated && !game.aborted {
        game.players.iter().zip(&places).map(|(player, place)| player.as_ref().zip(*place)).collect()
    } else {
        None
    };
    for _ in 0..MAX_TRIES {
        let mut updates = Vec::new();
        if let Some(rated) = &rated {
            let ids: Vec<String> = rated.iter().map(|(p, _)| p.user_id.clone()).collect();
            let before = store.ratings(&ids, game.variant).await?;
            let after = rate(&before.iter().zip(rated).map(|((rating, _), (_, place))| (*rating, *place)).collect::<Vec<_>>());
            updates = rated
                .iter()
                .zip(before.iter().zip(after))
                .map(|((player, _), ((before, games), after))| RatingUpdate {
                    user_id: player.user_id.clone(),
                    before: *before,
                    games_before: *games,
                    after,
                })
                .collect();
        }
        let settlement = Settlement {
            game_id: game.game_id.to_string(),
            variant: game.variant.to_string(),
            finished_ms: game.finished_ms,
            plies: game.plies,
            listed: !game.aborted,
            places: places.clone(),
            ratings: updates.clone(),
        };
        match store.settle_game(&settlement).await? {
            Settled::Done => {
                let mut new = vec![None; game.players.len()];
                let mut updates = updates.into_iter();
                for (seat, player) in game.players.iter().enumerate() {
                    if rated.is_some() && player.is_some() {
                        new[seat] = updates.next().map(|u| u.after);
                    }
                }
                return Ok(new);
            }
            Settled::AlreadySettled => return Ok(vec![None; game.players.len()]),
            Settled::Stale => continue,
        }
    }
    Err(StoreError::Corrupt(format!("game {}: ratings kept changing while it was settled", game.game_id)))
}
