//! Departures in records: `resign:<seat>`, `timeout:<seat>` and `draw`, tokens that stand
//! between the moves like the answers `accept` and `refuse`.

use crate::game::Departure;
use crate::rules::Rules;

/// The record token of `departure`, e.g. `resign:Middle`.
pub fn token<P: Rules>(pos: &P, departure: Departure) -> String {
    match departure {
        Departure::Resigned(player) => format!("resign:{}", pos.seat_name(player)),
        Departure::TimeOut(player) => format!("timeout:{}", pos.seat_name(player)),
        Departure::AgreedDraw => "draw".to_string(),
    }
}

/// Reads a departure token: `None` when `text` is not one (a move, say), an error when it
/// names no seat of the variant.
pub fn parse<P: Rules>(pos: &P, text: &str) -> Option<Result<Departure, String>> {
    if text == "draw" {
        return Some(Ok(Departure::AgreedDraw));
    }
    let (kind, seat) = text.split_once(':')?;
    let make: fn(_) -> Departure = match kind {
        "resign" => Departure::Resigned,
        "timeout" => Departure::TimeOut,
        _ => return None,
    };
    let seats = pos.seats();
    Some(match seats.iter().find(|&&p| pos.seat_name(p) == seat) {
        Some(&player) => Ok(make(player)),
        None => {
            let names: Vec<&str> = seats.iter().map(|&p| pos.seat_name(p)).collect();
            Err(format!("`{seat}` is not a seat of this game (seats: {})", names.join(", ")))
        }
    })
}
