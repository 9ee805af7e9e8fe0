//! Events and outcomes in words, for records (as `{…}` comments) and for people.

use crate::outcome::{AllianceCause, Event, Outcome};
use crate::player::{ByPlayer, Player, PlayerSet};
use crate::rules::Rules;

fn names<P: Rules>(pos: &P, players: PlayerSet) -> String {
    players.iter().map(|p| pos.seat_name(p)).collect::<Vec<_>>().join("+")
}

/// One event in words, e.g. `alliance Middle+Last against First (dual attack on 3h, 1a)`.
pub fn event_text<P: Rules>(pos: &P, event: &Event) -> String {
    let name = |p: Player| pos.seat_name(p);
    match *event {
        Event::Checkmated { player, by } => format!("{} checkmated by {}", name(player), name(by)),
        Event::Stalemated { player } => format!("{} has no legal action and leaves the game", name(player)),
        Event::Resigned { player } => format!("{} resigns", name(player)),
        Event::AllianceFormed(f) | Event::AllianceProposed(f) | Event::AllianceRefused(f) => {
            let what = match event {
                Event::AllianceFormed(_) => "alliance",
                Event::AllianceProposed(_) => "alliance proposed",
                _ => "alliance refused",
            };
            let cause = match f.cause {
                AllianceCause::DiscoveredAttack => "discovered attack",
                AllianceCause::DualAttack => "dual attack",
            };
            let mut targets: Vec<String> = f.targets.map(|c| pos.cell_name(c)).collect();
            targets.sort();
            let on = if targets.is_empty() { "mate".to_string() } else { targets.join(", ") };
            format!("{what} {} against {} ({cause} on {on})", names(pos, f.allies), name(f.against))
        }
        Event::AllianceDissolved { allies } => format!("alliance {} dissolved", names(pos, allies)),
        Event::GameOver { outcome, placings } => {
            format!("{}; placings {}", outcome_text(pos, outcome), placings_text(pos, placings))
        }
    }
}

/// The outcome in words, e.g. `Middle wins (Garden)`.
pub fn outcome_text<P: Rules>(pos: &P, outcome: Outcome) -> String {
    match outcome {
        Outcome::Win { winner, reason } => format!("{} wins ({reason:?})", pos.seat_name(winner)),
        Outcome::Draw { players, reason } => format!("draw among {} ({reason:?})", names(pos, players)),
    }
}

/// Places by seat, e.g. `First 2, Middle 1, Last 3`.
pub fn placings_text<P: Rules>(pos: &P, placings: ByPlayer<u8>) -> String {
    pos.seats().iter().map(|&p| format!("{} {}", pos.seat_name(p), placings[p])).collect::<Vec<_>>().join(", ")
}

/// The `[Result]` tag value: each seat's place joined by `-` in seat order (`1-2-2`), or `*`.
pub fn result_tag<P: Rules>(pos: &P, placings: Option<ByPlayer<u8>>) -> String {
    match placings {
        Some(placings) => pos.seats().iter().map(|&p| placings[p].to_string()).collect::<Vec<_>>().join("-"),
        None => "*".to_string(),
    }
}
