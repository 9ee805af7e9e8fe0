//! Game clocks as the command line writes them: `<minutes>+<increment seconds>`, for
//! `polyshogi match --clock` and `polyshogi play --clock`.

use anyhow::{bail, Context, Result};

/// `1+0.5` (minutes + increment seconds) as milliseconds; `10` alone has no increment.
pub fn parse_clock(text: &str) -> Result<(u64, u64)> {
    let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
    let base: f64 = base.trim().parse().with_context(|| format!("`{text}`: expected <minutes>+<seconds>"))?;
    let inc: f64 = inc.trim().parse().with_context(|| format!("`{text}`: expected <minutes>+<seconds>"))?;
    if base <= 0.0 || inc < 0.0 {
        bail!("`{text}`: the clock needs a positive time");
    }
    Ok(((base * 60_000.0) as u64, (inc * 1000.0) as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_minutes_and_increment_seconds() {
        assert_eq!(parse_clock("1+0.5").unwrap(), (60_000, 500));
        assert_eq!(parse_clock("10+5").unwrap(), (600_000, 5_000));
        assert_eq!(parse_clock("3").unwrap(), (180_000, 0));
        assert!(parse_clock("0+5").is_err() && parse_clock("ten").is_err());
    }
}
