//! Evaluation weights as data: named integer fields per game with their hand-set values,
//! readable and writable as `group.name=value` text so that a tuner (or `setoption name Weight`)
//! can change them without touching code. The weights the engines play with are the hand-set
//! ones with each variant's tuned file (`weights/<variant>.txt`, written by `polyshogi tune`)
//! laid over them. Each game's group also holds the search's shallow pruning settings
//! (`Pruning`), which the evaluation does not read.

use std::fmt::Write as _;
use std::sync::OnceLock;

use polyshogi::variant::Variant;

/// Declares a weight struct: every field an `i32` with its default, plus `KEYS`, `set`, `get`.
macro_rules! weights {
    ($(#[$meta:meta])* $name:ident { $($(#[$fmeta:meta])* $field:ident = $default:expr,)* }) => {
        $(#[$meta])*
        #[derive(Clone, Copy, PartialEq, Eq, Debug)]
        pub struct $name {
            $($(#[$fmeta])* pub $field: i32,)*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $default,)* }
            }
        }

        impl $name {
            pub const KEYS: &'static [&'static str] = &[$(stringify!($field)),*];

            /// Sets one weight by name; false for an unknown name.
            pub fn set(&mut self, key: &str, value: i32) -> bool {
                match key {
                    $(stringify!($field) => { self.$field = value; true })*
                    _ => false,
                }
            }

            pub fn get(&self, key: &str) -> Option<i32> {
                match key {
                    $(stringify!($field) => Some(self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

weights!(
    /// Weights every game shares.
    CommonWeights {
        /// Three seats: what each survivor gains when a third seat leaves the game.
        survivor_bonus = 1500,
        /// For the seat to move.
        tempo = 10,
    }
);

weights!(
    /// Sannin shogi (RULES.md §1): material, hands, king safety, the Pleasure Garden.
    SanninWeights {
        pawn = 100,
        lance = 300,
        knight = 300,
        silver = 450,
        gold = 520,
        bishop = 800,
        rook = 900,
        pro_pawn = 480,
        pro_lance = 500,
        pro_silver = 600,
        pro_bishop = 1100,
        pro_rook = 1050,
        /// A promoted king: ranges in twelve directions and illuminates.
        pro_king = 1000,
        /// A piece in hand, in percent of its value on the board.
        hand_pct = 105,
        /// Per own piece next to the king (its twelve neighbours).
        king_defender = 14,
        /// Per other seat's piece within two steps of the king.
        king_attacker = 22,
        /// Per cell next to the king that another seat attacks.
        king_zone_attacked = 9,
        /// Per empty cell next to the king, per piece in the other seats' hands (0 as set by
        /// hand).
        drop_near = 0,
        in_check = 60,
        /// Per step the king stands nearer the Garden than six steps (only with the Garden right).
        garden_step = 3,
        /// A king that could enter the Garden (and win) on its next move, the Garden unguarded
        /// (a quarter of it when guarded).
        garden_next = 600,
        /// An unused castling right.
        castle_right = 20,
        /// Per cell the seat's pieces attack, as Hex Shogi 91's `control` (0 as set by hand).
        control = 0,
        /// Percent of the most valuable piece of a seat not to move that a seat moving before
        /// it attacks and its owner does not defend, taken off that seat (a threat the
        /// quiescence search may not see).
        threat_pct = 30,
        /// Being allied: two kings to guard (either mated loses both), no promotion, no Garden,
        /// and a partner who may not play well.
        allied = 3000,
        /// Search, not evaluation: a node near the leaves whose static value beats beta by this
        /// much a ply of depth left is cut without a search (reverse futility pruning); 0 off.
        futility_margin = 150,
        /// Search, not evaluation: near the leaves, quiet moves past this many plus the depth
        /// left squared are not searched (late move pruning); 0 off.
        late_move_base = 3,
        /// Search, not evaluation: how far late quiet moves are reduced, in hundredths of
        /// ln(depth left) · ln(move number) plies (at least one; searched again at full depth
        /// when they beat alpha); 0 for the fixed schedule: one ply, two from the twelfth move
        /// with five plies or more left.
        late_move_reduction = 0,
    }
);

weights!(
    /// Hex Shogi 91 (group `hex`) and Three Player Hex Shogi 91 (group `hex3`), RULES.md §2.
    HexWeights {
        pawn = 100,
        lance = 300,
        knight = 330,
        silver = 470,
        gold = 520,
        bishop = 700,
        rook = 900,
        pro_pawn = 500,
        pro_lance = 500,
        pro_knight = 500,
        pro_silver = 510,
        pro_bishop = 1000,
        pro_rook = 1200,
        /// Three players: each king a seat holds (on the board or in hand); all three win.
        king_held = 1200,
        /// Three players: holding two kings, on top of `king_held`.
        two_kings = 1500,
        hand_pct = 110,
        king_defender = 14,
        king_attacker = 22,
        king_zone_attacked = 9,
        /// Hex Shogi 91: the side to move is in check. Three players: per king of a seat not to
        /// move that a seat moving before it attacks, guarded or not.
        in_check = 50,
        /// Per cell the seat's pieces attack: room to move and cells held (docs/STRENGTH.md,
        /// "Board control and a fit that gains"; 0 for three players, where it was not shown to
        /// help).
        control = 4,
        /// As Sannin's `threat_pct`.
        threat_pct = 30,
        /// As Sannin's `futility_margin` (docs/STRENGTH.md, "Hex Shogi 91 with the same
        /// pruning"; 0 for three players, not measured there yet).
        futility_margin = 150,
        /// As Sannin's `late_move_base` (as `futility_margin`).
        late_move_base = 3,
        /// As Sannin's `late_move_reduction`.
        late_move_reduction = 0,
    }
);

weights!(
    /// Sankaku Shogi (RULES.md §3): material, Emperor safety and board control.
    SankakuWeights {
        soldier = 100,
        cavalry = 330,
        chariot = 520,
        general = 420,
        /// Per own piece that defends the Emperor's cell.
        emperor_defender = 40,
        /// An Emperor nobody defends, while the enemy Emperor can jump anywhere.
        emperor_undefended = 400,
        /// Per enemy piece attacking the Emperor's cell.
        emperor_attacker = 30,
        /// Percent of each undefended piece's value: the enemy Emperor can take it anywhere.
        undefended_pct = 12,
        /// Per cell the side's pieces (the Emperor aside) could capture on, as Hex Shogi 91's
        /// `control` (0 as set by hand).
        control = 0,
        /// Percent of the value of the side's most valuable piece that an enemy piece attacks
        /// and none of its own defends, counted against the side that has just moved (the
        /// other may take it now), as Hex Shogi 91's `threat_pct` (0 as set by hand).
        threat_pct = 0,
        /// As Sannin's `futility_margin` (0: Sannin's settings showed no gain here,
        /// docs/STRENGTH.md, "Sankaku with the same pruning").
        futility_margin = 0,
        /// As Sannin's `late_move_base` (0, as `futility_margin`).
        late_move_base = 0,
        /// As Sannin's `late_move_reduction`.
        late_move_reduction = 0,
    }
);

/// The weights of Three Player Hex Shogi 91's king collection, in the group layout it shares
/// with Hex Shogi 91.
const KING_COLLECTION: [&str; 2] = ["king_held", "two_kings"];

/// The search parameters of every group (`Weights::pruning`), kept with the weights so that
/// `setoption name Weight` reaches them, but read by the search, not the evaluation.
const SEARCH_PARAMETERS: [&str; 3] = ["futility_margin", "late_move_base", "late_move_reduction"];

/// The alpha-beta search's shallow pruning and reductions in one game (its group's
/// `futility_margin`, `late_move_base` and `late_move_reduction`), 0 for off or, for the
/// reduction, the fixed schedule. Sannin and Hex Shogi 91 prune, where matches showed a gain;
/// in Sankaku and Three Player Hex Shogi 91 the same settings showed none.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Pruning {
    pub futility_margin: i32,
    pub late_move_base: i32,
    pub late_move_reduction: i32,
}

/// Every game's weights.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weights {
    pub common: CommonWeights,
    pub sannin: SanninWeights,
    /// Hex Shogi 91.
    pub hex: HexWeights,
    /// Three Player Hex Shogi 91: the same terms, weighed apart, since holding kings decides it.
    pub hex3: HexWeights,
    pub sankaku: SankakuWeights,
}

/// The tuned weights of each variant, as `polyshogi tune` wrote them.
const TUNED: [(&str, &str); 4] = [
    ("weights/sannin.txt", include_str!("../../weights/sannin.txt")),
    ("weights/hexshogi91.txt", include_str!("../../weights/hexshogi91.txt")),
    ("weights/tphs91.txt", include_str!("../../weights/tphs91.txt")),
    ("weights/sankaku.txt", include_str!("../../weights/sankaku.txt")),
];

/// The weights the engines play with: the hand-set ones with every tuned file laid over them.
impl Default for Weights {
    fn default() -> Self {
        static TUNED_WEIGHTS: OnceLock<Weights> = OnceLock::new();
        *TUNED_WEIGHTS.get_or_init(|| {
            let mut weights = Weights::hand_set();
            for (file, text) in TUNED {
                weights.apply_text(text).unwrap_or_else(|e| panic!("{file}: {e}"));
            }
            weights
        })
    }
}

impl Weights {
    /// The shallow pruning and reductions of the alpha-beta search in `variant`.
    pub fn pruning(&self, variant: Variant) -> Pruning {
        let (futility_margin, late_move_base, late_move_reduction) = match variant {
            Variant::Sannin => (self.sannin.futility_margin, self.sannin.late_move_base, self.sannin.late_move_reduction),
            Variant::HexShogi91 => (self.hex.futility_margin, self.hex.late_move_base, self.hex.late_move_reduction),
            Variant::Tphs91 => (self.hex3.futility_margin, self.hex3.late_move_base, self.hex3.late_move_reduction),
            Variant::Sankaku => (self.sankaku.futility_margin, self.sankaku.late_move_base, self.sankaku.late_move_reduction),
        };
        Pruning { futility_margin, late_move_base, late_move_reduction }
    }

    /// The weights as set by hand, before any tuning.
    pub fn hand_set() -> Weights {
        Weights {
            common: CommonWeights::default(),
            sannin: SanninWeights::default(),
            hex: HexWeights::default(),
            // The three-player game had no term for an attacked king (`in_check`) before the
            // twenty-eighth session's matches (docs/STRENGTH.md), nor board control; its search
            // does not prune near the leaves, where Hex Shogi 91's settings showed no gain
            // ("Three Player Hex Shogi 91 with the same pruning").
            hex3: HexWeights { control: 0, in_check: 0, futility_margin: 0, late_move_base: 0, ..HexWeights::default() },
            sankaku: SankakuWeights::default(),
        }
    }

    /// The group holding a variant's own weights.
    pub fn group_of(variant: Variant) -> &'static str {
        match variant {
            Variant::Sannin => "sannin",
            Variant::HexShogi91 => "hex",
            Variant::Tphs91 => "hex3",
            Variant::Sankaku => "sankaku",
        }
    }

    /// The names of a group's weights (empty for an unknown group).
    pub fn keys(group: &str) -> &'static [&'static str] {
        match group {
            "common" => CommonWeights::KEYS,
            "sannin" => SanninWeights::KEYS,
            "hex" | "hex3" => HexWeights::KEYS,
            "sankaku" => SankakuWeights::KEYS,
            _ => &[],
        }
    }

    /// The weights of a variant's group that its evaluation reads: all of them but, in Hex
    /// Shogi 91, those of the king collection, which its group shares with the three-player game,
    /// and the search parameters. A tuner offered a weight outside these would spend its
    /// games on noise.
    pub fn keys_of(variant: Variant) -> impl Iterator<Item = &'static str> {
        let unread: &[&str] = match variant {
            Variant::HexShogi91 => &KING_COLLECTION,
            _ => &[],
        };
        Weights::keys(Weights::group_of(variant))
            .iter()
            .copied()
            .filter(move |key| !unread.contains(key) && !SEARCH_PARAMETERS.contains(key))
    }

    /// One weight by group and name.
    pub fn get(&self, group: &str, key: &str) -> Option<i32> {
        match group {
            "common" => self.common.get(key),
            "sannin" => self.sannin.get(key),
            "hex" => self.hex.get(key),
            "hex3" => self.hex3.get(key),
            "sankaku" => self.sankaku.get(key),
            _ => None,
        }
    }

    /// Sets one weight from `group.name=value` (groups: common, sannin, hex, hex3, sankaku).
    pub fn set(&mut self, text: &str) -> Result<(), String> {
        let (key, value) = text.split_once('=').ok_or_else(|| format!("`{text}`: expected group.name=value"))?;
        let value: i32 = value.trim().parse().map_err(|_| format!("`{text}`: the value is not a whole number"))?;
        let (group, name) = key.trim().split_once('.').ok_or_else(|| format!("`{key}`: expected group.name"))?;
        let known = match group {
            "common" => self.common.set(name, value),
            "sannin" => self.sannin.set(name, value),
            "hex" => self.hex.set(name, value),
            "hex3" => self.hex3.set(name, value),
            "sankaku" => self.sankaku.set(name, value),
            _ => return Err(format!("unknown weight group `{group}` (common, sannin, hex, hex3, sankaku)")),
        };
        if known {
            Ok(())
        } else {
            Err(format!("unknown weight `{key}`"))
        }
    }

    /// Sets every `group.name=value` line of a weights file; blank lines and `#` comments are
    /// skipped. On an error nothing is changed.
    pub fn apply_text(&mut self, text: &str) -> Result<(), String> {
        let mut changed = *self;
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            changed.set(line).map_err(|e| format!("line {}: {e}", number + 1))?;
        }
        *self = changed;
        Ok(())
    }

    /// A group's weights as `group.name=value`, one per line: what `set` reads back.
    pub fn group_text(&self, group: &str) -> String {
        let mut text = String::new();
        for key in Weights::keys(group) {
            let _ = writeln!(text, "{group}.{key}={}", self.get(group, key).expect("a declared key"));
        }
        text
    }

    /// Every weight as `group.name=value`, one per line.
    pub fn to_text(&self) -> String {
        ["common", "sannin", "hex", "hex3", "sankaku"].into_iter().map(|group| self.group_text(group)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip_through_text() {
        let mut weights = Weights::default();
        weights.set("sannin.pawn=120").unwrap();
        weights.set("common.tempo=0").unwrap();
        let mut reread = Weights::default();
        for line in weights.to_text().lines() {
            reread.set(line).unwrap();
        }
        assert_eq!(reread, weights);
        assert!(weights.set("sannin.queen=9").is_err());
        assert!(weights.set("chess.pawn=1").is_err());
        assert!(weights.set("sannin.pawn=x").is_err());
    }

    #[test]
    fn a_weights_file_is_applied_whole_or_not_at_all() {
        let mut weights = Weights::hand_set();
        weights.apply_text("# tuned\n\nhex3.pawn=90\nsankaku.soldier=110\n").unwrap();
        assert_eq!((weights.hex3.pawn, weights.hex.pawn, weights.sankaku.soldier), (90, 100, 110));
        let before = weights;
        let error = weights.apply_text("hex.pawn=80\nhex.queen=1\n").unwrap_err();
        assert!(error.starts_with("line 2:"), "{error}");
        assert_eq!(weights, before);
    }

    #[test]
    fn each_tuned_file_sets_only_its_own_variants_weights() {
        for ((file, text), variant) in TUNED.into_iter().zip(Variant::ALL) {
            assert!(file.ends_with(&format!("/{}.txt", variant.name())), "{file} is not {}'s", variant.name());
            let group = Weights::group_of(variant);
            let mut weights = Weights::hand_set();
            weights.apply_text(text).unwrap_or_else(|e| panic!("{file}: {e}"));
            for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
                assert!(line.starts_with(&format!("{group}.")), "{file}: `{line}` is not in group {group}");
            }
        }
    }
}
