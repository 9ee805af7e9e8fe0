//! Sankaku Shogi evaluation (RULES.md §3): material, the cells each side's pieces reach, and the
//! safety of the Emperor, which the enemy Emperor may take from anywhere on the board unless it
//! is defended.

use polyshogi::cellset::CellSet;
use polyshogi::geometry::{Cell, TriGrid};
use polyshogi::mv::{Move, MoveList};
use polyshogi::player::{Player, PlayerSet};
use polyshogi::variant::sankaku::{opponent, SankakuPosition, SankakuRole};

use super::{utilities, Evaluate, SankakuWeights, Values, Weights};

/// What taking an Emperor is worth to move ordering (it ends the game).
const EMPEROR_VALUE: i32 = 5_000;

pub fn role_value(role: SankakuRole, w: &SankakuWeights) -> i32 {
    // Indexed rather than matched: move ordering asks this of the piece making each capture,
    // of any role, and a jump per role is hard to predict.
    let values = [EMPEROR_VALUE, w.chariot, w.cavalry, w.general, w.soldier];
    values[role.index()]
}

/// The cells that `pieces` hide from `from`: those past each of them along its rays.
fn hidden_from(grid: &TriGrid, from: Cell, pieces: CellSet) -> CellSet {
    pieces.fold(CellSet::EMPTY, |hidden, piece| hidden | grid.beyond(from, piece))
}

/// The cells a Soldier on `from` could capture on: across a side (when the rules let its step
/// capture, `steps`) and two steps straight over an empty cell. The first cell of each such
/// step is a side neighbour, and a piece there hides the two cells past it.
fn soldier_reach(grid: &TriGrid, from: Cell, occupied: CellSet, steps: bool) -> CellSet {
    let sides = grid.sides(from);
    let jumps = grid.second_orthogonal_set(from) - hidden_from(grid, from, sides & occupied);
    if steps {
        jumps | sides
    } else {
        jumps
    }
}

/// The cells a Cavalry on `from` could capture on: its leaps, and the leaps onward from an own
/// piece it lands on.
fn cavalry_reach(grid: &TriGrid, from: Cell, own: CellSet) -> CellSet {
    let leaps = grid.second_orthogonal_set(from);
    let mut map = leaps;
    for relay in leaps & own {
        map |= grid.second_orthogonal_set(relay).without(from);
    }
    map
}

/// The cells a Chariot on `from` could capture on: across a side, and along each ray up to the
/// first piece, running down one enemy Soldier on the way. Found from what the pieces on its
/// lines hide rather than by walking the rays: the first piece of a ray is one that no other
/// hides, and a Soldier run down hides nothing.
fn chariot_reach(grid: &TriGrid, from: Cell, occupied: CellSet, enemy_soldiers: CellSet) -> CellSet {
    let lines = grid.lines(from);
    let pieces = lines & occupied;
    let mut hidden = hidden_from(grid, from, pieces);
    let run_down = (pieces - hidden) & enemy_soldiers;
    if !run_down.is_empty() {
        hidden = hidden_from(grid, from, pieces - run_down);
    }
    grid.sides(from) | (lines - hidden)
}

/// What one seat's pieces attack, and how many of them attack each Emperor.
#[derive(Default)]
struct Reach {
    map: CellSet,
    own_emperor: u32,
    enemy_emperor: u32,
}

impl Reach {
    /// The cells `player`'s pieces (the Emperor aside: it reaches everything) could capture on.
    fn of(pos: &SankakuPosition, player: Player) -> Reach {
        let grid = pos.grid();
        let own = pos.pieces_of(player);
        let occupied = pos.occupied();
        let own_emperor = pos.emperor(player).map_or(CellSet::EMPTY, CellSet::from_cell);
        let enemy_emperor = pos.emperor(opponent(player)).map_or(CellSet::EMPTY, CellSet::from_cell);
        let mut reach = Reach::default();
        let mut add = |cells: CellSet| {
            reach.map |= cells;
            reach.own_emperor += u32::from(!(cells & own_emperor).is_empty());
            reach.enemy_emperor += u32::from(!(cells & enemy_emperor).is_empty());
        };
        // A loop per role rather than a match per piece: the role is known in each loop.
        for from in own & pos.role_cells(SankakuRole::General) {
            add(grid.adjacent(from));
        }
        let soldier_steps = pos.rules().soldier_step_captures;
        for from in own & pos.role_cells(SankakuRole::Soldier) {
            add(soldier_reach(grid, from, occupied, soldier_steps));
        }
        for from in own & pos.role_cells(SankakuRole::Cavalry) {
            add(cavalry_reach(grid, from, own));
        }
        let enemy_soldiers = pos.role_cells(SankakuRole::Soldier) - own;
        for from in own & pos.role_cells(SankakuRole::Chariot) {
            add(chariot_reach(grid, from, occupied, enemy_soldiers));
        }
        reach
    }
}

/// The roles with a value on the board (the Emperor is not counted: losing it ends the game).
const VALUED_ROLES: [SankakuRole; 4] = [SankakuRole::Soldier, SankakuRole::Cavalry, SankakuRole::General, SankakuRole::Chariot];

impl Evaluate for SankakuPosition {
    // Moves are made to be told apart (the default `may_give_check`).
    type CheckContext = ();

    fn check_context(&self) {}

    fn evaluate(&self, weights: &Weights) -> Values {
        let w = &weights.sankaku;
        let seats = [Player::First, Player::Second];
        let reach = seats.map(|p| Reach::of(self, p));
        let mover = self.to_move();
        let mut raw = [0; 3];
        for p in seats {
            let own = self.pieces_of(p);
            let defended = reach[p.index()].map;
            let threatened = (own & reach[opponent(p).index()].map) - defended;
            let mut score = defended.count() as i32 * w.control;
            let mut threat = 0;
            for role in VALUED_ROLES {
                let cells = own & self.role_cells(role);
                let value = role_value(role, w);
                score += cells.count() as i32 * value;
                score -= (cells - defended).count() as i32 * (value * w.undefended_pct / 100);
                if !(cells & threatened).is_empty() {
                    threat = threat.max(value);
                }
            }
            if p != mover {
                score -= threat * w.threat_pct / 100;
            }
            if self.emperor(p).is_some() {
                let defenders = reach[p.index()].own_emperor as i32;
                score += defenders.min(4) * w.emperor_defender;
                if defenders == 0 && self.emperor(opponent(p)).is_some() {
                    score -= w.emperor_undefended;
                }
                score -= reach[opponent(p).index()].enemy_emperor as i32 * w.emperor_attacker;
            }
            raw[p.index()] = score;
        }
        utilities(raw, &seats, PlayerSet::of(&seats), PlayerSet::EMPTY, &weights.common)
    }

    fn piece_value(&self, cell: Cell, weights: &Weights) -> i32 {
        self.piece_at(cell).map_or(0, |p| role_value(p.role, &weights.sankaku))
    }

    /// A gain comes only from a capture (with the promotion it brings).
    fn capture_candidates(&self, out: &mut MoveList) {
        self.legal_captures(out);
    }

    /// Run-down victims count, and a Soldier or Cavalry that captures becomes a General. Most
    /// moves capture nothing, so the pieces taken are found from cell sets first; their value
    /// and the promotion are read from the cells of each role rather than piece by piece.
    fn capture_gain(&self, m: Move, weights: &Weights) -> i32 {
        let Move::Normal { from, to, .. } = m else { return 0 };
        let mut captures = self.pieces_of(opponent(self.to_move())) & CellSet::from_cell(to);
        if self.role_cells(SankakuRole::Chariot).contains(from) {
            captures |= self.grid().between(from, to) & self.occupied();
        }
        if captures.is_empty() {
            return 0;
        }
        let w = &weights.sankaku;
        let mut gain = 0;
        for role in SankakuRole::ALL {
            gain += (captures & self.role_cells(role)).count() as i32 * role_value(role, w);
            if role.promotes_on_capture() && self.role_cells(role).contains(from) {
                gain += w.general - role_value(role, w);
            }
        }
        gain
    }
}

#[cfg(test)]
mod tests {
    use polyshogi::geometry::TriDirection;
    use polyshogi::variant::sankaku::SankakuRules;
    use polyshogi::Rules;

    use super::*;
    use crate::test_games::along_a_random_game;

    /// The reaches found from hidden cells are the ones found by walking each ray from the
    /// piece, in positions along random games under both Soldier rules.
    #[test]
    fn soldier_and_chariot_reaches_match_a_walk_along_the_rays() {
        let walked_soldier = |pos: &SankakuPosition, from: Cell| {
            let grid = pos.grid();
            let mut map = if pos.rules().soldier_step_captures { grid.sides(from) } else { CellSet::EMPTY };
            for s in grid.second_orthogonals(from) {
                if !pos.occupied().contains(s.via) {
                    map.insert(s.target);
                }
            }
            map
        };
        let walked_chariot = |pos: &SankakuPosition, from: Cell, enemy_soldiers: CellSet| {
            let grid = pos.grid();
            let mut map = grid.sides(from);
            for dir in TriDirection::ALL {
                let mut passed_soldier = false;
                for &cell in grid.ray(from, dir) {
                    map.insert(cell);
                    if pos.occupied().contains(cell) {
                        if enemy_soldiers.contains(cell) && !passed_soldier {
                            passed_soldier = true;
                            continue;
                        }
                        break;
                    }
                }
            }
            map
        };
        let mut checked = 0;
        for seed in 1..=12 {
            let steps = seed % 2 == 1;
            let rules = SankakuRules { soldier_step_captures: steps, ..SankakuRules::default() };
            along_a_random_game(SankakuPosition::start(rules), seed, 300, |pos| {
                let grid = pos.grid();
                // Every cell, as if a Soldier or a Chariot of either side stood there.
                for from in grid.cells() {
                    assert_eq!(soldier_reach(grid, from, pos.occupied(), steps), walked_soldier(pos, from));
                    for player in [Player::First, Player::Second] {
                        let enemy_soldiers = pos.role_cells(SankakuRole::Soldier) - pos.pieces_of(player);
                        let found = chariot_reach(grid, from, pos.occupied(), enemy_soldiers);
                        assert_eq!(found, walked_chariot(pos, from, enemy_soldiers), "{}", grid.name(from));
                    }
                }
                checked += 1;
            });
        }
        assert!(checked > 100, "only {checked} positions");
    }

    #[test]
    fn each_role_is_worth_its_own_weight() {
        let w = Weights::hand_set().sankaku;
        assert_eq!(role_value(SankakuRole::Emperor, &w), EMPEROR_VALUE);
        assert_eq!(role_value(SankakuRole::Chariot, &w), w.chariot);
        assert_eq!(role_value(SankakuRole::Cavalry, &w), w.cavalry);
        assert_eq!(role_value(SankakuRole::General, &w), w.general);
        assert_eq!(role_value(SankakuRole::Soldier, &w), w.soldier);
    }

    /// A move's capture gain is what the two sides' material on the board changes by when it
    /// is played: the pieces taken, run down included, and a capturing piece's promotion.
    #[test]
    fn capture_gain_is_the_material_a_move_wins() {
        let weights = Weights::hand_set();
        let material = |pos: &SankakuPosition, player| pos.pieces_of(player).map(|c| pos.piece_value(c, &weights)).sum::<i32>();
        let mut moves = MoveList::new();
        let mut captures = 0;
        for seed in 1..=8 {
            along_a_random_game(SankakuPosition::start(SankakuRules::default()), seed, 300, |pos| {
                let (mover, other) = (pos.to_move(), opponent(pos.to_move()));
                pos.legal_moves(&mut moves);
                for &m in moves.iter() {
                    let mut after = pos.clone();
                    after.play_unchecked(m);
                    let won = material(pos, other) - material(&after, other) + material(&after, mover) - material(pos, mover);
                    assert_eq!(pos.capture_gain(m, &weights), won, "{m:?}");
                    captures += usize::from(won != 0);
                }
            });
        }
        assert!(captures > 100, "only {captures} captures");
    }

    /// Each cell a side's pieces could capture on is worth `control` to it, and the same
    /// against the other side.
    #[test]
    fn control_counts_the_cells_each_side_reaches() {
        let start = SankakuPosition::start(SankakuRules::default());
        let mut moves = MoveList::new();
        start.legal_moves(&mut moves);
        // A move after which the two sides reach different numbers of cells.
        let (pos, lead) = moves
            .iter()
            .map(|&m: &Move| {
                let mut pos = start.clone();
                pos.play_unchecked(m);
                let lead = Reach::of(&pos, Player::First).map.count() as i32 - Reach::of(&pos, Player::Second).map.count() as i32;
                (pos, lead)
            })
            .find(|&(_, lead)| lead != 0)
            .expect("some first move changes how many cells the first side reaches");
        let without = Weights::hand_set();
        let mut with = without;
        with.sankaku.control = 5;
        let gain = pos.evaluate(&with)[Player::First.index()] - pos.evaluate(&without)[Player::First.index()];
        assert_eq!(gain, 5 * lead);
    }

    /// The side that has just moved loses `threat_pct` of its piece that an enemy piece
    /// attacks and nothing of its own defends; a defended piece under attack costs nothing.
    #[test]
    fn threat_counts_an_undefended_attacked_piece_of_the_side_that_moved() {
        use polyshogi::variant::sankaku::{SankakuPiece, SankakuSetup};
        let grid = SankakuPosition::start(SankakuRules::default()).grid();
        let cell = |name: &str| grid.parse(name).unwrap();
        let piece = |player, role| SankakuPiece { player, role };
        // White's General on d4 stands alone; Black's on a neighbour is defended by another
        // Black General that White's does not reach.
        let (white_general, black_general) = (cell("d4"), grid.adjacent(cell("d4")).into_iter().next().unwrap());
        let defender =
            (grid.adjacent(black_general) - grid.adjacent(white_general)).without(white_general).into_iter().next().unwrap();
        // The Emperors reach nothing in the evaluation's maps: any free cells will do.
        let mut free =
            (grid.all() - CellSet::from_cell(white_general) - CellSet::from_cell(black_general)).without(defender).into_iter();
        let (black_emperor, white_emperor) = (free.next().unwrap(), free.next().unwrap());
        let pieces = vec![
            (white_general, piece(Player::Second, SankakuRole::General)),
            (white_emperor, piece(Player::Second, SankakuRole::Emperor)),
            (black_general, piece(Player::First, SankakuRole::General)),
            (defender, piece(Player::First, SankakuRole::General)),
            (black_emperor, piece(Player::First, SankakuRole::Emperor)),
        ];
        let without = Weights::hand_set();
        let mut with = without;
        with.sankaku.threat_pct = 50;
        let black_gain = |to_move| {
            let pos =
                SankakuPosition::from_setup(SankakuSetup { pieces: pieces.clone(), to_move }, SankakuRules::default()).unwrap();
            pos.evaluate(&with)[Player::First.index()] - pos.evaluate(&without)[Player::First.index()]
        };
        // Black to move may take White's General: White, who has just moved, loses half of it.
        assert_eq!(black_gain(Player::First), without.sankaku.general / 2);
        // White to move attacks Black's General, which is defended.
        assert_eq!(black_gain(Player::Second), 0);
    }
}
