//! Events and outcomes in words, for records (as `{…}` comments) and for people.

use crate::outcome::{AllianceCause, AllianceFormation, DrawReason, Event, Outcome, WinReason};
use crate::player::{ByPlayer, Player, PlayerSet};
use crate::rules::PositionView;

fn names<P: PositionView + ?Sized>(pos: &P, players: PlayerSet) -> String {
    players.iter().map(|p| pos.seat_name(p)).collect::<Vec<_>>().join("+")
}

/// One event in words, e.g. `alliance Middle+Last against First (dual attack: 1a and 3h)`.
pub fn event_text<P: PositionView + ?Sized>(pos: &P, event: &Event) -> String {
    let name = |p: Player| pos.seat_name(p);
    match *event {
        Event::Checkmated { player, by } => format!("{} checkmated by {}", name(player), name(by)),
        Event::Stalemated { player } => format!("{} has no legal action and leaves the game", name(player)),
        Event::Resigned { player } => format!("{} resigns", name(player)),
        Event::TimedOut { player } => format!("{}'s time ran out", name(player)),
        Event::AllianceFormed(f) | Event::AllianceProposed(f) | Event::AllianceRefused(f) => {
            let what = match event {
                Event::AllianceFormed(_) => "alliance",
                Event::AllianceProposed(_) => "alliance proposed",
                _ => "alliance refused",
            };
            format!("{what} {} against {} ({})", names(pos, f.allies), name(f.against), alliance_cause_text(pos, &f))
        }
        Event::AllianceDissolved { allies } => format!("alliance {} dissolved", names(pos, allies)),
        Event::GameOver { outcome, placings } => {
            format!("{}; places: {}", outcome_text(pos, outcome), placings_text(pos, placings))
        }
    }
}

/// Why an alliance formed, e.g. `discovered attack on 6i by Last's rook from 6c` or
/// `dual attack: 3f and 9e` (a mate threat is named `mate`).
fn alliance_cause_text<P: PositionView + ?Sized>(pos: &P, f: &AllianceFormation) -> String {
    // Cell names by their numbers (`7f` before `12k`), not in string order.
    let mut targets: Vec<String> = f.targets.map(|c| pos.cell_name(c)).collect();
    targets.sort_by_key(|name| (name.len(), name.clone()));
    match f.cause {
        AllianceCause::DiscoveredAttack { line, piece } => {
            let promoted = if piece.promoted { "promoted " } else { "" };
            let owner = pos.seat_name(piece.player);
            let on = targets.join(" and ");
            format!("discovered attack on {on} by {owner}'s {promoted}{} from {}", piece.role.name(), pos.cell_name(line))
        }
        AllianceCause::DualAttack { .. } => {
            // A dual attack pairs two threats; a threat of mate has no cell.
            if targets.len() < 2 {
                targets.push("mate".to_string());
            }
            format!("dual attack: {}", targets.join(" and "))
        }
    }
}

/// The outcome in words, as a sentence for players: `Middle wins: his king entered the
/// Pleasure Garden`, `Black wins by checkmate`, `Draw by repetition`.
pub fn outcome_text<P: PositionView + ?Sized>(pos: &P, outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { winner, reason } => {
            let w = pos.seat_name(winner);
            let others: Vec<&str> = pos.seats().iter().filter(|&&p| p != winner).map(|&p| pos.seat_name(p)).collect();
            let others_are = match others.as_slice() {
                [one] => format!("{one} is"),
                _ => format!("{} are", others.join(" and ")),
            };
            match reason {
                WinReason::LastStanding => format!("{w} wins: {others_are} out of the game"),
                WinReason::Garden => format!("{w} wins: his king entered the Pleasure Garden"),
                WinReason::AllyMated => format!("{w} wins: one of the allies against him was mated, so both lose"),
                WinReason::Checkmate => format!("{w} wins by checkmate"),
                WinReason::KingsCollected => format!("{w} wins: he holds all three kings"),
                WinReason::EmperorCaptured => format!("{w} wins: he captured the enemy Emperor"),
                WinReason::NoLegalMove => format!("{w} wins: {others_are} left without a legal move"),
            }
        }
        Outcome::Draw { players, reason } => {
            let how = draw_text(reason);
            // A draw shared by fewer than all seats names who shares it.
            if (players.len() as usize) < pos.seats().len() {
                format!("{how}, between {}", players.iter().map(|p| pos.seat_name(p)).collect::<Vec<_>>().join(" and "))
            } else {
                how.to_string()
            }
        }
    }
}

/// How a game ended, without names, for counting endings: `checkmate`, `draw by repetition`.
pub fn ending_text(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win { reason, .. } => match reason {
            WinReason::LastStanding => "last player standing",
            WinReason::Garden => "Pleasure Garden",
            WinReason::AllyMated => "ally mated",
            WinReason::Checkmate => "checkmate",
            WinReason::KingsCollected => "three kings held",
            WinReason::EmperorCaptured => "Emperor captured",
            WinReason::NoLegalMove => "no legal move",
        },
        Outcome::Draw { reason, .. } => match reason {
            DrawReason::Stalemate => "draw: no legal move",
            DrawReason::PlyCap => "draw: move limit",
            DrawReason::Repetition => "draw by repetition",
            DrawReason::NoCapture => "draw: no capture",
            DrawReason::AllPassed => "draw: all passed",
            DrawReason::Agreement => "draw by agreement",
        },
    }
}

fn draw_text(reason: DrawReason) -> &'static str {
    match reason {
        DrawReason::Stalemate => "Draw: a player had no legal move",
        DrawReason::PlyCap => "Draw: the move limit was reached",
        DrawReason::Repetition => "Draw by repetition",
        DrawReason::NoCapture => "Draw: too many moves without a capture",
        DrawReason::AllPassed => "Draw: every player had to pass for a whole round",
        DrawReason::Agreement => "Draw by agreement",
    }
}

/// A place in words: `1st`, `2nd`, `3rd`.
pub fn place_text(place: u8) -> String {
    let suffix = match place {
        1 => "st",
        2 => "nd",
        3 => "rd",
        _ => "th",
    };
    format!("{place}{suffix}")
}

/// Places by seat, e.g. `First 2nd, Middle 1st, Last 3rd`.
pub fn placings_text<P: PositionView + ?Sized>(pos: &P, placings: ByPlayer<u8>) -> String {
    pos.seats().iter().map(|&p| format!("{} {}", pos.seat_name(p), place_text(placings[p]))).collect::<Vec<_>>().join(", ")
}

/// The `[Result]` tag value: each seat's place joined by `-` in seat order (`1-2-2`), or `*`.
pub fn result_tag<P: PositionView + ?Sized>(pos: &P, placings: Option<ByPlayer<u8>>) -> String {
    match placings {
        Some(placings) => pos.seats().iter().map(|&p| placings[p].to_string()).collect::<Vec<_>>().join("-"),
        None => "*".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::PlayerSet;
    use crate::variant::{AnyGame, Variant};

    fn words(variant: Variant, outcome: Outcome) -> String {
        let game = AnyGame::new(variant, &[] as &[&str]).unwrap();
        outcome_text(game.position(), outcome)
    }

    #[test]
    fn outcomes_are_sentences_with_seat_names() {
        let win = |winner, reason| Outcome::Win { winner, reason };
        assert_eq!(
            words(Variant::Sannin, win(Player::Third, WinReason::LastStanding)),
            "Last wins: First and Middle are out of the game"
        );
        assert_eq!(
            words(Variant::Sannin, win(Player::Second, WinReason::Garden)),
            "Middle wins: his king entered the Pleasure Garden"
        );
        assert_eq!(words(Variant::HexShogi91, win(Player::First, WinReason::Checkmate)), "Black wins by checkmate");
        assert_eq!(words(Variant::Tphs91, win(Player::Third, WinReason::KingsCollected)), "Gray wins: he holds all three kings");
        assert_eq!(
            words(Variant::Sankaku, win(Player::Second, WinReason::EmperorCaptured)),
            "White wins: he captured the enemy Emperor"
        );
        let all = PlayerSet::of(&[Player::First, Player::Second, Player::Third]);
        assert_eq!(words(Variant::Sannin, Outcome::Draw { players: all, reason: DrawReason::Repetition }), "Draw by repetition");
        let two = PlayerSet::of(&[Player::First, Player::Third]);
        assert_eq!(
            words(Variant::Tphs91, Outcome::Draw { players: two, reason: DrawReason::NoCapture }),
            "Draw: too many moves without a capture, between Black and Gray"
        );
        // No reason leaks its enum name.
        for reason in WinReason::ALL {
            let text = words(Variant::Sannin, win(Player::First, reason));
            assert!(!text.contains(&format!("({reason:?})")) && !text.contains('('), "{text}");
        }
        for reason in DrawReason::ALL {
            let text = words(Variant::Sannin, Outcome::Draw { players: all, reason });
            assert!(!text.contains(&format!("({reason:?})")) && text.starts_with("Draw"), "{text}");
        }
    }

    #[test]
    fn places_are_ordinals() {
        let game = AnyGame::new(Variant::Sannin, &[] as &[&str]).unwrap();
        assert_eq!(placings_text(game.position(), ByPlayer([2, 1, 3])), "First 2nd, Middle 1st, Last 3rd");
    }
}
