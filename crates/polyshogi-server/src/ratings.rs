//! Ratings: Weng-Lin (a Bayesian rating made for games of more than two players, through the
//! `skillratings` crate) from a rated game's places, and how a rating is shown to players.
//!
//! Each player is a team of one, ranked by his place: players who share a place (a draw, or
//! two allies mated together) are tied, and allies who eliminated the lone player both rank
//! above him. A rating is kept as Weng-Lin's skill `mu` and uncertainty `sigma`, and shown on
//! the familiar scale of 60 points a unit: a new player is 1500 ± 500.

use serde::Serialize;
use skillratings::weng_lin::{weng_lin_multi_team, WengLinConfig, WengLinRating};
use skillratings::MultiTeamOutcome;

/// A player's rating in one variant.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Rating {
    pub mu: f64,
    pub sigma: f64,
}

/// Points shown per unit of `mu` and `sigma`.
const SHOWN_PER_UNIT: f64 = 60.0;
/// A rating whose shown deviation is above this is provisional (shown with a `?`): it rests on
/// few games. A new player's is 500; about a dozen games bring it below.
const PROVISIONAL_DEVIATION: i64 = 150;

impl Default for Rating {
    /// A new player's rating.
    fn default() -> Self {
        let new = WengLinRating::new();
        Rating { mu: new.rating, sigma: new.uncertainty }
    }
}

impl Rating {
    /// The rating as players see it.
    pub fn shown(self) -> ShownRating {
        let deviation = (self.sigma * SHOWN_PER_UNIT).round() as i64;
        ShownRating {
            rating: (self.mu * SHOWN_PER_UNIT).round() as i64,
            deviation,
            provisional: deviation > PROVISIONAL_DEVIATION,
        }
    }
}

/// A rating in the shown scale, as the API sends it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, serde::Deserialize)]
pub struct ShownRating {
    pub rating: i64,
    pub deviation: i64,
    pub provisional: bool,
}

/// The ratings after a game, from each player's rating before and his place (1 is best; equal
/// places are ties), in the same order.
pub fn rate(players: &[(Rating, u8)]) -> Vec<Rating> {
    let before: Vec<[WengLinRating; 1]> =
        players.iter().map(|(r, _)| [WengLinRating { rating: r.mu, uncertainty: r.sigma }]).collect();
    let teams: Vec<(&[WengLinRating], MultiTeamOutcome)> =
        before.iter().zip(players).map(|(team, (_, place))| (&team[..], MultiTeamOutcome::new(usize::from(*place)))).collect();
    weng_lin_multi_team(&teams, &WengLinConfig::new())
        .into_iter()
        .map(|team| Rating { mu: team[0].rating, sigma: team[0].uncertainty })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn new_players(places: &[u8]) -> Vec<Rating> {
        rate(&places.iter().map(|&p| (Rating::default(), p)).collect::<Vec<_>>())
    }

    #[test]
    fn a_new_player_is_1500_and_provisional() {
        assert_eq!(Rating::default().shown(), ShownRating { rating: 1500, deviation: 500, provisional: true });
    }

    #[test]
    fn the_winner_gains_what_the_loser_loses_and_both_grow_surer() {
        let after = new_players(&[1, 2]);
        assert!(after[0].mu > 25.0 && after[1].mu < 25.0);
        assert!((after[0].mu - 25.0 - (25.0 - after[1].mu)).abs() < 1e-9);
        assert!(after.iter().all(|r| r.sigma < Rating::default().sigma));
    }

    #[test]
    fn a_draw_between_equals_moves_no_one() {
        let after = new_players(&[1, 1]);
        assert!(after.iter().all(|r| (r.mu - 25.0).abs() < 1e-9));
    }

    #[test]
    fn three_places_are_ordered_and_a_shared_place_is_shared() {
        let after = new_players(&[2, 1, 3]);
        assert!(after[1].mu > after[0].mu && after[0].mu > after[2].mu);
        assert!(after[1].mu > 25.0 && after[2].mu < 25.0);
        // Two allies mated together share the last place: they lose alike.
        let after = new_players(&[1, 2, 2]);
        assert!(after[0].mu > 25.0);
        assert!((after[1].mu - after[2].mu).abs() < 1e-9 && after[1].mu < 25.0);
    }

    #[test]
    fn beating_a_stronger_player_gains_more() {
        let strong = Rating { mu: 35.0, sigma: 3.0 };
        let upset = rate(&[(Rating::default(), 1), (strong, 2)]);
        let expected = rate(&[(Rating::default(), 1), (Rating { mu: 15.0, sigma: 3.0 }, 2)]);
        assert!(upset[0].mu - 25.0 > expected[0].mu - 25.0);
    }
}
