//! The record of a live game as text (the PSN of docs/FORMATS.md): the library's record of the
//! table's game, whose history holds the resignations, time-outs and agreed draws too.

use polyshogi::notation::record_write;
use polyshogi::with_game;

use crate::table::Table;

/// The record: `[Variant]`, the extra `tags`, `[Rules]`, `[Result]`, then the moves by round.
pub fn write_record(table: &Table, tags: &[(String, String)]) -> String {
    with_game!(table.game(), g => record_write::write_record(g, tags, None))
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

    #[test]
    fn dates_are_civil_dates() {
        assert_eq!(date_tag(0), "1970.01.01");
        assert_eq!(date_tag(951_782_400_000), "2000.02.29");
        assert_eq!(date_tag(1_767_225_600_000), "2026.01.01");
    }
}
