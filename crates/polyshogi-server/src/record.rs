//! The record of a live game as text (the PSN of docs/FORMATS.md), written from the server's
//! log, which also knows resignations, flags and agreed draws.

use polyshogi::player::Player;
use polyshogi::{with_game, Rules};

use crate::table::{EntryKind, LogEntry, Table};

/// The record: `[Variant]`, the extra `tags`, `[Rules]`, `[Result]`, then the moves by round
/// in short text, events as `{…}` comments and answers to proposed alliances as
/// `accept`/`refuse`, as `polyshogi::notation::record_write` writes them.
pub fn write_record(table: &Table, log: &[LogEntry], tags: &[(String, String)], placings: Option<Vec<u8>>) -> String {
    let mut body = String::new();
    let mut previous_seat: Option<Player> = None;
    let mut round = 0;
    for entry in log {
        match &entry.kind {
            EntryKind::Move { short, .. } => {
                // A round starts whenever the turn comes round again to the same seat or an
                // earlier one.
                if previous_seat.is_none_or(|p| entry.seat <= p) {
                    round += 1;
                    if !body.is_empty() {
                        body.push('\n');
                    }
                    body.push_str(&format!("{round}."));
                }
                previous_seat = Some(entry.seat);
                body.push(' ');
                body.push_str(short);
            }
            EntryKind::Decision { accept } => body.push_str(if *accept { " accept" } else { " refuse" }),
            EntryKind::Resign | EntryKind::Flag | EntryKind::Draw => {}
        }
        for event in &entry.events {
            if !body.is_empty() {
                body.push(' ');
            }
            body.push_str(&format!("{{{}}}", event.replace('}', ")")));
        }
    }
    let result = match placings {
        Some(places) => places.iter().map(u8::to_string).collect::<Vec<_>>().join("-"),
        None => "*".to_string(),
    };
    let game = table.game();
    let mut text = format!("[Variant \"{}\"]\n", game.variant().name());
    for (name, value) in tags {
        text.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    let options = with_game!(game, g => g.start().non_default_options());
    if !options.is_empty() {
        text.push_str(&format!("[Rules \"{}\"]\n", options.join(";")));
    }
    text.push_str(&format!("[Result \"{result}\"]\n\n"));
    if !body.is_empty() {
        text.push_str(&body);
        text.push('\n');
    }
    text.push_str(&result);
    text.push('\n');
    text
}

fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `YYYY.MM.DD` of a Unix time in ms (UTC), for the `[Date]` tag.
pub fn date_tag(unix_ms: i64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let days = unix_ms.div_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::Action;
    use polyshogi::notation::record_write;
    use polyshogi::variant::Variant;

    #[test]
    fn dates_are_civil_dates() {
        assert_eq!(date_tag(0), "1970.01.01");
        assert_eq!(date_tag(951_782_400_000), "2000.02.29");
        assert_eq!(date_tag(1_767_225_600_000), "2026.01.01");
    }

    #[test]
    fn without_resignations_the_record_is_the_library_record() {
        let rules = vec!["compulsory=off".to_string()];
        let mut table = Table::new(Variant::Sannin, &rules).unwrap();
        let mut log = Vec::new();
        for text in ["P3c-4d", "P10k-10j", "P11g-10g", "S-2d", "S-9l"] {
            let seat = table.to_move().unwrap();
            log.extend(table.apply(seat, &Action::Move(text.into())).unwrap().entries);
        }
        let ours = write_record(&table, &log, &[], None);
        let theirs = with_game!(table.game(), g => record_write::write_record(g, &[], None));
        assert_eq!(ours, theirs);
    }
}
