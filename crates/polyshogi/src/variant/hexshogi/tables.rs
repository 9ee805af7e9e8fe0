//! The Hex Shogi 91 games as data: each player's frame, one piece table for both games,
//! promotion zones, last ranks and the start arrays (RULES.md §2.1–2.8), built once per game.

use std::sync::LazyLock;

use super::rules::HexVariant;
use crate::cellset::CellSet;
use crate::geometry::{Cell, HexGrid, HexNaming, Hour, HEX91};
use crate::mv::HourSet;
use crate::piece::{Piece, Role};
use crate::piece_store::{code_of, piece_of, CODES};
use crate::player::{ByPlayer, Player};

/// The screen hour each player calls 12 o'clock (§2.2). Two players: Black faces 12, White 6
/// (the third entry is unused). Three players: Black 12, White 4, Gray 8.
pub const FORWARD_HEXSHOGI91: ByPlayer<u8> = ByPlayer([0, 6, 0]);
pub const FORWARD_TPHS91: ByPlayer<u8> = ByPlayer([0, 4, 8]);

/// How a kind of piece moves, in its owner's hours: single steps, unlimited ranges, and
/// leaps (each leap the sum of its hours' steps, jumping whatever lies between).
#[derive(Clone, Copy)]
struct MoveSet {
    steps: &'static [u8],
    ranges: &'static [u8],
    leaps: &'static [[u8; 2]],
}

const ORTHOGONALS: &[u8] = &[1, 3, 5, 7, 9, 11];
const DIAGONALS: &[u8] = &[0, 2, 4, 6, 8, 10];
const ALL_HOURS: &[u8] = &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
/// The six orthogonals and the three forward diagonals.
const GOLD_STEPS: &[u8] = &[1, 3, 5, 7, 9, 11, 10, 0, 2];
/// The six diagonals and the two forward orthogonals.
const SILVER_STEPS: &[u8] = &[0, 2, 4, 6, 8, 10, 11, 1];
/// One orthogonal-forward step, then a diagonal step 30° to either side of it: the four
/// cells two steps along 11 or 1 and then one turned 60° (Black: (−1,−2), (1,−3), (2,−3),
/// (3,−2)).
const KNIGHT_LEAPS: &[[u8; 2]] = &[[11, 10], [11, 0], [1, 0], [1, 2]];

/// §2.3, by kind (role * 2 + promoted). Every promoted minor piece moves as a gold; king
/// and gold have no promoted form.
const fn move_set(kind: usize) -> MoveSet {
    let none: &[u8] = &[];
    let (steps, ranges, leaps): (&'static [u8], &'static [u8], &'static [[u8; 2]]) = match kind {
        0 => (ALL_HOURS, none, &[]),                 // king
        2 => (none, ORTHOGONALS, &[]),               // rook
        3 => (DIAGONALS, ORTHOGONALS, &[]),          // dragon king: rook + diagonal steps
        4 => (none, DIAGONALS, &[]),                 // bishop
        5 => (ORTHOGONALS, DIAGONALS, &[]),          // dragon horse: bishop + orthogonal steps
        6 => (GOLD_STEPS, none, &[]),                // gold
        8 => (SILVER_STEPS, none, &[]),              // silver
        10 => (none, none, KNIGHT_LEAPS),            // knight
        12 => (none, &[11, 1], &[]),                 // lance
        14 => (&[11, 1], none, &[]),                 // pawn
        9 | 11 | 13 | 15 => (GOLD_STEPS, none, &[]), // promoted silver, knight, lance, pawn
        _ => (none, none, &[]),                      // promoted king or gold: never exists
    };
    MoveSet { steps, ranges, leaps }
}

/// Whether a role has a promoted form at all.
pub const fn can_ever_promote(role: Role) -> bool {
    !matches!(role, Role::King | Role::Gold)
}

/// The two-player start of §2.6, as the published diagram (and the Game Courier preset) has
/// it. The armies are not each other's half-turn: both rooks stand on the screen's left.
const HEXSHOGI91_START: [(Player, Role, &str); 40] = {
    use Player::{First as B, Second as W};
    use Role::*;
    [
        (B, Lance, "6k"),
        (B, Knight, "5k"),
        (B, Gold, "4k"),
        (B, Gold, "3k"),
        (B, Knight, "2k"),
        (B, Lance, "1k"),
        (B, Rook, "6j"),
        (B, Silver, "5j"),
        (B, King, "4j"),
        (B, Silver, "3j"),
        (B, Bishop, "2j"),
        (B, Pawn, "1h"),
        (B, Pawn, "2h"),
        (B, Pawn, "3h"),
        (B, Pawn, "4h"),
        (B, Pawn, "5h"),
        (B, Pawn, "6h"),
        (B, Pawn, "7h"),
        (B, Pawn, "8h"),
        (B, Pawn, "9h"),
        (W, Lance, "11a"),
        (W, Knight, "10a"),
        (W, Gold, "9a"),
        (W, Gold, "8a"),
        (W, Knight, "7a"),
        (W, Lance, "6a"),
        (W, Rook, "10b"),
        (W, Silver, "9b"),
        (W, King, "8b"),
        (W, Silver, "7b"),
        (W, Bishop, "6b"),
        (W, Pawn, "3d"),
        (W, Pawn, "4d"),
        (W, Pawn, "5d"),
        (W, Pawn, "6d"),
        (W, Pawn, "7d"),
        (W, Pawn, "8d"),
        (W, Pawn, "9d"),
        (W, Pawn, "10d"),
        (W, Pawn, "11d"),
    ]
};

/// The Three Player Hex Shogi 91 start, **reconstructed** (RULES.md §2.8): Duniho's diagram
/// could not be obtained. Written in Black's frame (Black's own view is the screen's);
/// White's army is this list turned 120° clockwise, Gray's 120° counter-clockwise. Replace
/// this one list when the designer's array is found.
pub const TPHS91_START_OWN_FRAME: [(Role, &str); 18] = {
    use Role::*;
    [
        (Knight, "1k"),
        (Lance, "2k"),
        (Gold, "3k"),
        (Gold, "4k"),
        (Lance, "5k"),
        (Knight, "6k"),
        (Bishop, "2j"),
        (Silver, "3j"),
        (King, "4j"),
        (Silver, "5j"),
        (Rook, "6j"),
        (Pawn, "2i"),
        (Pawn, "3i"),
        (Pawn, "4i"),
        (Pawn, "5i"),
        (Pawn, "6i"),
        (Pawn, "7i"),
        (Pawn, "8i"),
    ]
};

pub struct HexShogiTables {
    pub variant: HexVariant,
    pub grid: &'static HexGrid,
    /// Each seat's 12 o'clock as a screen hour.
    pub forward: ByPlayer<u8>,
    pub seats: &'static [Player],
    /// Cells reached by single steps and leaps, by cell code and cell.
    pub step_targets: Vec<[CellSet; 128]>,
    /// Screen hours of unlimited ranges, by cell code.
    pub range_hours: [HourSet; CODES],
    /// Screen hours in which the piece attacks the first cell of the ray (steps and ranges).
    pub near_hours: [HourSet; CODES],
    /// The cells from which a player's unpromoted knight attacks a cell.
    pub knight_sources: ByPlayer<[CellSet; 128]>,
    /// The cells from which a player's unpromoted pawn attacks a cell.
    pub pawn_sources: ByPlayer<[CellSet; 128]>,
    /// Two players: the opponent's four first ranks (30 cells); three: the three far ranks
    /// of one's own frame (21 cells).
    pub promotion_zone: ByPlayer<CellSet>,
    /// Where a piece may not be dropped (pawn and lance: the last rank; knight: the last two)
    /// and where such a piece must promote on arrival, by player and role.
    pub dead_cells: ByPlayer<[CellSet; 8]>,
    /// `promotion_zone` and `dead_cells` by cell code, so that move generation reads them
    /// without decoding the piece: the owner's zone for a piece that may promote, and no cell
    /// for one that never does (promoted, king or gold).
    pub promotion_zone_of: [CellSet; CODES],
    pub dead_cells_of: [CellSet; CODES],
    /// The most moves a piece of each cell code has from each cell (those it has on an empty
    /// board, promotions counted): the envelope of the random-move sampler.
    pub move_bounds: Vec<[u8; 128]>,
    pub start: Vec<(Cell, Piece)>,
    /// One army of the start array, counted by role.
    pub army: [u8; 8],
}

static HEXSHOGI91_TABLES: LazyLock<HexShogiTables> = LazyLock::new(|| HexShogiTables::new(HexVariant::HexShogi91));
static TPHS91_TABLES: LazyLock<HexShogiTables> = LazyLock::new(|| HexShogiTables::new(HexVariant::Tphs91));

impl HexShogiTables {
    pub fn get(variant: HexVariant) -> &'static HexShogiTables {
        match variant {
            HexVariant::HexShogi91 => &HEXSHOGI91_TABLES,
            HexVariant::Tphs91 => &TPHS91_TABLES,
        }
    }

    fn new(variant: HexVariant) -> HexShogiTables {
        let grid: &'static HexGrid = &HEX91;
        let (forward, seats, zone_depth): (ByPlayer<u8>, &'static [Player], i8) = match variant {
            HexVariant::HexShogi91 => (FORWARD_HEXSHOGI91, &Player::ALL[..2], 4),
            HexVariant::Tphs91 => (FORWARD_TPHS91, &Player::ALL, 3),
        };
        let mut step_hours = [HourSet::EMPTY; CODES];
        let mut range_hours = [HourSet::EMPTY; CODES];
        let mut near_hours = [HourSet::EMPTY; CODES];
        let mut step_targets = vec![[CellSet::EMPTY; 128]; CODES];
        for &player in seats {
            let screen = |h: u8| Hour::new(h).turned(forward[player]);
            for kind in 0..16 {
                let code = 1 + player.index() * 16 + kind;
                let set = move_set(kind);
                for hour in set.steps.iter().map(|&h| screen(h)) {
                    step_hours[code].insert(hour);
                    near_hours[code].insert(hour);
                }
                for hour in set.ranges.iter().map(|&h| screen(h)) {
                    range_hours[code].insert(hour);
                    near_hours[code].insert(hour);
                }
                for cell in grid.cells() {
                    let steps = step_hours[code].iter().filter_map(|h| grid.step(cell, h));
                    let leaps = set.leaps.iter().filter_map(|leap| grid.leap(cell, &leap.map(screen)));
                    step_targets[code][cell.usize()] = steps.chain(leaps).collect();
                }
            }
        }
        let sources = |role: Role| {
            ByPlayer::new(|player| {
                let code = code_of(Piece { player, role, promoted: false }) as usize;
                let mut sources = [CellSet::EMPTY; 128];
                if seats.contains(&player) {
                    for from in grid.cells() {
                        for to in step_targets[code][from.usize()] {
                            sources[to.usize()].insert(from);
                        }
                    }
                }
                sources
            })
        };
        let knight_sources = sources(Role::Knight);
        let pawn_sources = sources(Role::Pawn);
        // A player's far ranks lie toward the board edge his 12 o'clock points at.
        let band = |player: Player, depth: i8| grid.band(Hour::new(forward[player]), depth);
        let promotion_zone = ByPlayer::new(|p| band(p, zone_depth));
        let dead_cells = ByPlayer::new(|p| {
            let mut dead = [CellSet::EMPTY; 8];
            dead[Role::Pawn.index()] = band(p, 1);
            dead[Role::Lance.index()] = band(p, 1);
            dead[Role::Knight.index()] = band(p, 2);
            dead
        });
        let mut promotion_zone_of = [CellSet::EMPTY; CODES];
        let mut dead_cells_of = [CellSet::EMPTY; CODES];
        for code in 1..CODES {
            let piece = piece_of(code as u8).expect("every code below CODES is a piece");
            if !piece.promoted && can_ever_promote(piece.role) {
                promotion_zone_of[code] = promotion_zone[piece.player];
                dead_cells_of[code] = dead_cells[piece.player][piece.role.index()];
            }
        }

        let mut move_bounds = vec![[0u8; 128]; CODES];
        for code in 1..CODES {
            for from in grid.cells() {
                let reach = grid.piece_reach(from, step_targets[code][from.usize()], range_hours[code], CellSet::EMPTY);
                let (promoted, plain) = promotion_split(promotion_zone_of[code], dead_cells_of[code], from, reach);
                move_bounds[code][from.usize()] = (promoted.count() + plain.count()) as u8;
            }
        }

        let cell = |name: &str| HexNaming::HexShogi91.parse(grid, name).expect("start cells are on the board");
        let start: Vec<(Cell, Piece)> = match variant {
            HexVariant::HexShogi91 => HEXSHOGI91_START
                .iter()
                .map(|&(player, role, name)| (cell(name), Piece { player, role, promoted: false }))
                .collect(),
            HexVariant::Tphs91 => Player::ALL
                .into_iter()
                .flat_map(|player| {
                    TPHS91_START_OWN_FRAME.iter().map(move |&(role, name)| {
                        // Each frame is Black's turned by its forward hour: 4 hours = 120°.
                        let mut c = cell(name);
                        for _ in 0..forward[player] / 4 {
                            c = grid.rotated_cw120(c);
                        }
                        (c, Piece { player, role, promoted: false })
                    })
                })
                .collect(),
        };
        let mut army = [0u8; 8];
        for (_, piece) in start.iter().filter(|(_, p)| p.player == Player::First) {
            army[piece.role.index()] += 1;
        }
        HexShogiTables {
            variant,
            grid,
            forward,
            seats,
            step_targets,
            range_hours,
            near_hours,
            knight_sources,
            pawn_sources,
            promotion_zone,
            dead_cells,
            promotion_zone_of,
            dead_cells_of,
            move_bounds,
            start,
            army,
        }
    }

    /// The moves of a piece of cell code `code` on `from` to `targets`: the targets it may
    /// reach promoted, and those it may reach unpromoted (§2.4).
    #[inline]
    pub fn promotion_split(&self, code: usize, from: Cell, targets: CellSet) -> (CellSet, CellSet) {
        promotion_split(self.promotion_zone_of[code], self.dead_cells_of[code], from, targets)
    }

    /// Whether the piece on `from`, moving to `to`, may (or must) promote: `(plain, promoted)`
    /// say which versions of the move exist (§2.4).
    #[inline]
    pub fn promotion_choices(&self, piece: Piece, from: Cell, to: Cell) -> (bool, bool) {
        if piece.promoted || !can_ever_promote(piece.role) {
            return (true, false);
        }
        let zone = self.promotion_zone[piece.player];
        let may = zone.contains(from) || zone.contains(to);
        // Every dead cell lies inside the zone, so a forced promotion is always allowed.
        let must = self.dead_cells[piece.player][piece.role.index()].contains(to);
        (!must, may)
    }
}

/// `HexShogiTables::promotion_split` from the piece's zone and dead cells: a piece that cannot
/// promote has an empty zone and no dead cells, and gets only its plain moves without a branch
/// of its own. Every dead cell lies inside the zone, so the forced promotion is always offered.
#[inline]
fn promotion_split(zone: CellSet, dead: CellSet, from: Cell, targets: CellSet) -> (CellSet, CellSet) {
    let promoted = if zone.contains(from) { targets } else { targets & zone };
    (promoted, targets - dead)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(cell: Cell) -> String {
        HexNaming::HexShogi91.name(&HEX91, cell)
    }

    fn names(set: CellSet) -> Vec<String> {
        let mut v: Vec<String> = set.map(name).collect();
        v.sort();
        v
    }

    fn cell(name: &str) -> Cell {
        HexNaming::HexShogi91.parse(&HEX91, name).unwrap()
    }

    #[test]
    fn tphs91_start_matches_the_table_of_rules_2_8() {
        let t = HexShogiTables::get(HexVariant::Tphs91);
        let army = |player: Player| -> Vec<String> {
            let mut v: Vec<String> = t
                .start
                .iter()
                .filter(|(_, p)| p.player == player)
                .map(|&(c, p)| format!("{}{}", p.role.letter(), name(c)))
                .collect();
            v.sort();
            v
        };
        let expected = |text: &str| -> Vec<String> {
            let mut v: Vec<String> = text.split_whitespace().map(str::to_string).collect();
            v.sort();
            v
        };
        assert_eq!(
            army(Player::Second),
            expected("N11a L11b G11c G11d L11e N11f R10b S10c K10d S10e B10f P9a P9b P9c P9d P9e P9f P9g")
        );
        assert_eq!(army(Player::Third), expected("N6a L5b G4c G3d L2e N1f B6b S5c K4d S3e R2f P7b P6c P5d P4e P3f P2g P1h"));
        assert_eq!(t.start.len(), 54);
        assert_eq!(t.army, [1, 1, 1, 2, 2, 2, 2, 7]);
    }

    #[test]
    fn zones_and_last_ranks_match_rules_2_4_and_2_7() {
        let two = HexShogiTables::get(HexVariant::HexShogi91);
        assert_eq!(two.promotion_zone[Player::First].count(), 30);
        assert!(two.promotion_zone[Player::First].contains(cell("3d")));
        assert!(two.promotion_zone[Player::Second].contains(cell("1h")));
        assert_eq!(names(two.dead_cells[Player::Second][Role::Pawn.index()]), ["1k", "2k", "3k", "4k", "5k", "6k"]);
        let three = HexShogiTables::get(HexVariant::Tphs91);
        for p in Player::ALL {
            assert_eq!(three.promotion_zone[p].count(), 21);
        }
        assert_eq!(names(three.dead_cells[Player::Second][Role::Lance.index()]), ["1f", "1g", "1h", "1i", "1j", "1k"]);
        assert_eq!(names(three.dead_cells[Player::Third][Role::Pawn.index()]), ["10g", "11f", "6k", "7j", "8i", "9h"]);
        assert_eq!(three.dead_cells[Player::First][Role::Knight.index()].count(), 13);
        for p in Player::ALL {
            for role in Role::ALL {
                assert!((three.dead_cells[p][role.index()] - three.promotion_zone[p]).is_empty());
            }
        }
    }

    #[test]
    fn black_knight_on_the_centre_leaps_to_the_four_cells_of_rules_2_3() {
        let t = HexShogiTables::get(HexVariant::HexShogi91);
        let code = code_of(Piece { player: Player::First, role: Role::Knight, promoted: false }) as usize;
        assert_eq!(names(t.step_targets[code][cell("6f").usize()]), ["5d", "7c", "8c", "9d"]);
        assert!(t.knight_sources[Player::First][cell("5d").usize()].contains(cell("6f")));
    }
}
