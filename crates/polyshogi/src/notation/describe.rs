//! Events and outcomes in words, for records (as `{…}` comments) and for people.

use crate::outcome::{AllianceCause, AllianceFormation, Event, Outcome};
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
            format!("{}; placings {}", outcome_text(pos, outcome), placings_text(pos, placings))
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

/// The outcome in words, e.g. `Middle wins (Garden)`.
pub fn outcome_text<P: PositionView + ?Sized>(pos: &P, outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { winner, reason } => format!("{} wins ({reason:?})", pos.seat_name(winner)),
        Outcome::Draw { players, reason } => format!("draw among {} ({reason:?})", names(pos, players)),
    }
}

/// Places by seat, e.g. `First 2, Middle 1, Last 3`.
pub fn placings_text<P: PositionView + ?Sized>(pos: &P, placings: ByPlayer<u8>) -> String {
    pos.seats().iter().map(|&p| format!("{} {}", pos.seat_name(p), placings[p])).collect::<Vec<_>>().join(", ")
}

/// The `[Result]` tag value: each seat's place joined by `-` in seat order (`1-2-2`), or `*`.
pub fn result_tag<P: PositionView + ?Sized>(pos: &P, placings: Option<ByPlayer<u8>>) -> String {
    match placings {
        Some(placings) => pos.seats().iter().map(|&p| placings[p].to_string()).collect::<Vec<_>>().join("-"),
        None => "*".to_string(),
    }
}
