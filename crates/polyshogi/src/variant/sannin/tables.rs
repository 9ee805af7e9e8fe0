//! Sannin shogi as data: each player's frame, every piece's move set, territories, promotion
//! zones, dead cells and the start array (RULES.md §1.1–1.6), built once per option set.

use std::sync::LazyLock;

use crate::cellset::CellSet;
use crate::geometry::{Cell, HexGrid, HexNaming, Hour, HEX127};
use crate::mv::HourSet;
use crate::piece::{Piece, Role};
use crate::piece_store::{code_of, CODES};
use crate::player::{ByPlayer, Player};

/// The screen hour each player calls 12 o'clock: First faces 8, Middle 12, Last 4 (§1.2).
pub const FORWARD: ByPlayer<u8> = ByPlayer([8, 0, 4]);

/// How a kind of piece moves, in its owner's hours: single steps and unlimited ranges.
#[derive(Clone, Copy, Default)]
struct MoveSet {
    steps: &'static [u8],
    ranges: &'static [u8],
}

const ORTHOGONALS: &[u8] = &[1, 3, 5, 7, 9, 11];
const DIAGONALS: &[u8] = &[0, 2, 4, 6, 8, 10];
const ALL_HOURS: &[u8] = &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
const GOLD_STEPS: &[u8] = &[11, 1, 3, 9, 0, 6];
const SILVER_STEPS: &[u8] = &[11, 1, 5, 7, 10, 2];

/// §1.6, by kind (role * 2 + promoted). Gold and knight have no promoted form.
fn move_set(kind: usize, rook_keeps_rear_diagonal: bool) -> MoveSet {
    let role = Role::ALL[kind / 2];
    let promoted = kind % 2 == 1;
    let (steps, ranges): (&'static [u8], &'static [u8]) = match (role, promoted) {
        (Role::King, false) => (ORTHOGONALS, &[]),
        (Role::King, true) => (&[], ALL_HOURS),
        (Role::Rook, false) => (&[], &[11, 1, 3, 9, 6]),
        (Role::Rook, true) if rook_keeps_rear_diagonal => (&[], &[1, 3, 5, 7, 9, 11, 6]),
        (Role::Rook, true) => (&[], ORTHOGONALS),
        (Role::Bishop, false) => (&[], DIAGONALS),
        (Role::Bishop, true) => (ORTHOGONALS, DIAGONALS),
        (Role::Gold, false) => (GOLD_STEPS, &[]),
        (Role::Silver, false) => (SILVER_STEPS, &[]),
        (Role::Silver, true) => (SILVER_STEPS, &[0, 6]),
        (Role::Knight, false) => (&[3, 9, 2, 4, 8, 10], &[]),
        (Role::Lance, false) => (&[], &[11, 1]),
        (Role::Lance, true) => (&[], &[11, 1, 5, 7]),
        (Role::Pawn, false) => (&[11, 1], &[]),
        (Role::Pawn, true) => (GOLD_STEPS, &[]),
        (Role::Gold | Role::Knight, true) => (&[], &[]),
    };
    MoveSet { steps, ranges }
}

/// Whether a role has a promoted form at all.
pub const fn can_ever_promote(role: Role) -> bool {
    !matches!(role, Role::Gold | Role::Knight)
}

/// Middle's start array in its own frame (§1.4); the others are its 120° rotations.
const MIDDLE_START: [(Role, &str); 18] = [
    (Role::Lance, "13m"),
    (Role::Silver, "12m"),
    (Role::Gold, "11m"),
    (Role::King, "10m"),
    (Role::Gold, "9m"),
    (Role::Silver, "8m"),
    (Role::Lance, "7m"),
    (Role::Bishop, "12l"),
    (Role::Rook, "7l"),
    (Role::Pawn, "13k"),
    (Role::Pawn, "12k"),
    (Role::Pawn, "11k"),
    (Role::Pawn, "10k"),
    (Role::Knight, "9k"),
    (Role::Pawn, "8k"),
    (Role::Pawn, "7k"),
    (Role::Pawn, "6k"),
    (Role::Pawn, "5k"),
];

pub struct SanninTables {
    pub grid: &'static HexGrid,
    /// Screen hours of single steps, by square code.
    pub step_hours: [HourSet; CODES],
    /// Screen hours of unlimited ranges, by square code.
    pub range_hours: [HourSet; CODES],
    /// Screen hours in which the piece attacks an adjacent (first-on-ray) cell.
    pub near_hours: [HourSet; CODES],
    /// Cells reached by single steps, by square code and cell.
    pub step_targets: Vec<[CellSet; 128]>,
    /// The three rows nearest each player's edge (24 cells).
    pub territory: ByPlayer<CellSet>,
    /// Both opposing territories: where a move may promote (the Garden is separate).
    pub promotion_zone: ByPlayer<CellSet>,
    /// The far gap edge, where a pawn or lance has no move (7 cells).
    pub dead_cells: ByPlayer<CellSet>,
    /// By square code, for the pieces but the king: where a move from or into a cell of the
    /// set may promote (the owner's promotion zone and the Garden); empty for pieces that
    /// cannot promote. The generator reads it without decoding the piece.
    pub promotion_cells_of: [CellSet; CODES],
    /// By square code: `dead_cells` for an unpromoted pawn or lance, empty for the others.
    pub dead_cells_of: [CellSet; CODES],
    pub garden: Cell,
    pub start: Vec<(Cell, Piece)>,
}

static DEFAULT_TABLES: LazyLock<SanninTables> = LazyLock::new(|| SanninTables::new(false));
static REAR_DIAGONAL_TABLES: LazyLock<SanninTables> = LazyLock::new(|| SanninTables::new(true));

impl SanninTables {
    /// The tables for an option set (only `promoted_rook_keeps_rear_diagonal` changes them).
    pub fn get(rook_keeps_rear_diagonal: bool) -> &'static SanninTables {
        if rook_keeps_rear_diagonal {
            &REAR_DIAGONAL_TABLES
        } else {
            &DEFAULT_TABLES
        }
    }

    fn new(rook_keeps_rear_diagonal: bool) -> SanninTables {
        let grid: &'static HexGrid = &HEX127;
        let mut step_hours = [HourSet::EMPTY; CODES];
        let mut range_hours = [HourSet::EMPTY; CODES];
        let mut near_hours = [HourSet::EMPTY; CODES];
        let mut step_targets = vec![[CellSet::EMPTY; 128]; CODES];
        for player in Player::ALL {
            for kind in 0..16 {
                let code = 1 + player.index() * 16 + kind;
                let set = move_set(kind, rook_keeps_rear_diagonal);
                let screen = |h: &u8| Hour::new(*h).turned(FORWARD[player]);
                for hour in set.steps.iter().map(screen) {
                    step_hours[code].insert(hour);
                    near_hours[code].insert(hour);
                }
                for hour in set.ranges.iter().map(screen) {
                    range_hours[code].insert(hour);
                    near_hours[code].insert(hour);
                }
                for cell in grid.cells() {
                    step_targets[code][cell.usize()] = step_hours[code].iter().filter_map(|h| grid.step(cell, h)).collect();
                }
            }
        }
        // A player's home edge lies opposite his forward hour.
        let territory = ByPlayer::new(|p| grid.band(Hour::new(FORWARD[p]).opposite(), 3));
        let promotion_zone = ByPlayer::new(|p| {
            let [a, b] = p.others3();
            territory[a] | territory[b]
        });
        let dead_cells = ByPlayer::new(|p| grid.band(Hour::new(FORWARD[p]), 1));
        let mut promotion_cells_of = [CellSet::EMPTY; CODES];
        let mut dead_cells_of = [CellSet::EMPTY; CODES];
        for player in Player::ALL {
            for role in Role::ALL.into_iter().filter(|&role| role != Role::King && can_ever_promote(role)) {
                let code = code_of(Piece { player, role, promoted: false }) as usize;
                promotion_cells_of[code] = promotion_zone[player].with(grid.centre());
                if matches!(role, Role::Pawn | Role::Lance) {
                    dead_cells_of[code] = dead_cells[player];
                }
            }
        }

        let middle_start =
            MIDDLE_START.map(|(role, name)| (role, HexNaming::Sannin.parse(grid, name).expect("start cells are on the board")));
        let mut start = Vec::new();
        for player in Player::ALL {
            for &(role, middle_cell) in &middle_start {
                let cell = match player {
                    Player::First => grid.rotated_ccw120(middle_cell),
                    Player::Second => middle_cell,
                    Player::Third => grid.rotated_cw120(middle_cell),
                };
                start.push((cell, Piece { player, role, promoted: false }));
            }
        }
        SanninTables {
            grid,
            step_hours,
            range_hours,
            near_hours,
            step_targets,
            territory,
            promotion_zone,
            dead_cells,
            promotion_cells_of,
            dead_cells_of,
            garden: grid.centre(),
            start,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(cell: Cell) -> String {
        HexNaming::Sannin.name(&HEX127, cell)
    }

    fn names(set: CellSet) -> Vec<String> {
        let mut v: Vec<String> = set.map(name).collect();
        v.sort();
        v
    }

    #[test]
    fn start_array_matches_the_full_table_of_rules_1_4() {
        let t = SanninTables::get(false);
        let find = |player: Player, role: Role| -> Vec<String> {
            let mut v: Vec<String> =
                t.start.iter().filter(|(_, p)| p.player == player && p.role == role).map(|&(c, _)| name(c)).collect();
            v.sort();
            v
        };
        assert_eq!(find(Player::First, Role::King), ["1d"]);
        assert_eq!(find(Player::First, Role::Rook), ["2b"]);
        assert_eq!(find(Player::First, Role::Bishop), ["2g"]);
        assert_eq!(find(Player::First, Role::Knight), ["3e"]);
        assert_eq!(find(Player::Third, Role::King), ["10d"]);
        assert_eq!(find(Player::Third, Role::Rook), ["12g"]);
        assert_eq!(find(Player::Third, Role::Bishop), ["7b"]);
        assert_eq!(find(Player::Third, Role::Gold), ["11e", "9c"]);
        assert_eq!(find(Player::Third, Role::Pawn), ["10f", "11g", "12h", "13i", "5a", "6b", "7c", "8d"]);
        assert_eq!(find(Player::First, Role::Pawn), ["3a", "3b", "3c", "3d", "3f", "3g", "3h", "3i"]);
        assert_eq!(t.start.len(), 54);
    }

    #[test]
    fn territories_and_dead_cells_match_rules_1_1_and_1_7() {
        let t = SanninTables::get(false);
        assert_eq!(t.territory[Player::Second].count(), 24);
        assert!(names(t.territory[Player::First]).contains(&"3i".to_string()));
        assert!(t.territory[Player::Third].contains(HexNaming::Sannin.parse(&HEX127, "13i").unwrap()));
        assert_eq!(names(t.dead_cells[Player::Second]), ["1a", "2a", "3a", "4a", "5a", "6a", "7a"]);
        assert_eq!(names(t.dead_cells[Player::First]), ["13g", "13h", "13i", "13j", "13k", "13l", "13m"]);
        assert_eq!(names(t.dead_cells[Player::Third]), ["1g", "2h", "3i", "4j", "5k", "6l", "7m"]);
        // The one dead cell of each player outside both enemy territories (§1.8).
        for (player, cell) in [(Player::Second, "4a"), (Player::First, "13j"), (Player::Third, "4j")] {
            let outside = t.dead_cells[player] - t.promotion_zone[player];
            assert_eq!(names(outside), [cell]);
        }
    }
}
