//! The Texel tuner (`polyshogi_engine::tune`) recovers weights it is shown: positions from
//! random Sankaku games are labelled with the scores an evaluation with known ("true") weights
//! predicts, and tuning from the hand-set weights must find those weights again.

use polyshogi::mv::MoveList;
use polyshogi::splitmix::SplitMix;
use polyshogi::variant::sankaku::{SankakuPosition, SankakuRules};
use polyshogi::{Game, Rules};
use polyshogi_engine::tune::{fit_scale, loss, tune, Sample};
use polyshogi_engine::{Evaluate, Weights};

/// Positions of random games where both seats are still in, with the mover's material often
/// ahead or behind.
fn random_positions(games: usize, seed: u64) -> Vec<SankakuPosition> {
    let mut rng = SplitMix::new(seed);
    let mut moves = MoveList::new();
    let mut positions = Vec::new();
    for _ in 0..games {
        let mut game = Game::new(SankakuPosition::start(SankakuRules::default()));
        while game.position().outcome().is_none() && game.moves().len() < 120 {
            game.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            game.play_unchecked(moves[rng.below(moves.len())]);
            if game.position().outcome().is_none() {
                positions.push(game.position().clone());
            }
        }
    }
    positions
}

/// Each position labelled with the shares `weights` predict under `scale`.
fn labelled(positions: &[SankakuPosition], weights: &Weights, scale: f64) -> Vec<Sample<SankakuPosition>> {
    positions
        .iter()
        .map(|pos| {
            let values = pos.evaluate(weights);
            let seats = pos.seats();
            let odds: Vec<f64> = seats.iter().map(|p| (scale * f64::from(values[p.index()])).exp()).collect();
            let sum: f64 = odds.iter().sum();
            let mut points = [0.0; 3];
            for (p, odd) in seats.iter().zip(&odds) {
                points[p.index()] = odd / sum;
            }
            Sample { position: pos.clone(), points }
        })
        .collect()
}

#[test]
fn tuning_finds_the_weights_that_labelled_the_positions() {
    let positions = random_positions(150, 7);
    assert!(positions.len() > 1_000, "only {} positions", positions.len());
    let hand = Weights::hand_set();
    let mut truth = hand;
    truth.set("sankaku.cavalry=600").unwrap();
    truth.set("sankaku.general=250").unwrap();
    let true_scale = 0.004;
    let samples = labelled(&positions, &truth, true_scale);

    // Under the true weights the labels are met best at the scale that made them.
    let scale = fit_scale(&samples, &truth);
    assert!((scale / true_scale - 1.0).abs() < 0.05, "fitted scale {scale}, true {true_scale}");

    let (training, held_out) = samples.split_at(samples.len() * 9 / 10);
    let start_loss = loss(training, &hand, scale);
    let tuned = tune(training, held_out, hand, "sankaku", &["cavalry", "general"], scale, &mut |_| {});
    assert!(tuned.loss < start_loss / 10.0, "loss {start_loss} → {}", tuned.loss);
    assert!(tuned.held_out < loss(held_out, &hand, scale) / 10.0, "held-out loss {}", tuned.held_out);
    let tuned = tuned.weights;
    assert!((tuned.sankaku.cavalry - 600).abs() <= 10, "cavalry tuned to {}", tuned.sankaku.cavalry);
    assert!((tuned.sankaku.general - 250).abs() <= 10, "general tuned to {}", tuned.sankaku.general);
    // Only the weights named were tuned.
    assert_eq!(tuned.sankaku.chariot, hand.sankaku.chariot);
    assert_eq!((tuned.common, tuned.hex, tuned.sannin), (hand.common, hand.hex, hand.sannin));
}

#[test]
fn a_weight_stays_within_half_and_double_its_start() {
    let positions = random_positions(60, 11);
    let hand = Weights::hand_set();
    // Labels made with a negative cavalry and a huge general: the best fit is out of bounds.
    let mut truth = hand;
    truth.set("sankaku.cavalry=-300").unwrap();
    truth.set("sankaku.general=2000").unwrap();
    let samples = labelled(&positions, &truth, 0.004);
    let tuned = tune(&samples, &samples, hand, "sankaku", &["cavalry", "general"], 0.004, &mut |_| {}).weights;
    assert_eq!(tuned.sankaku.cavalry, (hand.sankaku.cavalry + 1) / 2);
    // The general goes up as far as the bound allows, or nearly: with the cavalry held at its
    // bound, the best general need not be at its own.
    let general = tuned.sankaku.general;
    assert!(general <= 2 * hand.sankaku.general && general > 3 * hand.sankaku.general / 2, "general tuned to {general}");
}
