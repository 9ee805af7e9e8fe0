//! A position as a picture for sharing or printing: a standalone SVG that looks like the web
//! client's board (`polyshogi show --svg`, `GET …/diagram.svg`), hands and seats beside it.
//!
//! `DiagramPosition` is what the rules say of the position, read once (in a game's room, or
//! from a position string); `svg` draws it for a viewer's choices, away from the rules.

mod board;
mod panel;
mod pieces;
mod style;

use std::fmt::Write;
use std::sync::OnceLock;

use polyshogi::layout::BoardLayout;
use polyshogi::notation::describe::outcome_text;
use polyshogi::notation::move_text::{self, MoveTextError};
use polyshogi::player::{Player, PlayerSet};
use polyshogi::rules::{PieceText, Rules};
use polyshogi::variant::{AnyGame, Variant};
use polyshogi::{with_game, Cell, Move, MoveList, Role};

pub use pieces::PieceSet;

use board::Board;
use style::{Escaped, Num};

/// The move that led to the position, to mark: the cells it touched (for an illumination, the
/// king's and those it cleared) in its mover's colour.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct LastMove {
    /// `None` when a move text names no cell that holds a piece now.
    pub mover: Option<Player>,
    pub cells: Vec<Cell>,
    /// The move's text: a game's move in short text, as the move list writes it; a move named
    /// in text as it was given.
    pub text: String,
}

impl LastMove {
    /// `m`, played by the seat to move in `before`.
    fn played<P: Rules>(before: &P, m: Move) -> LastMove {
        let cells = match m {
            Move::Normal { from, to, .. } => vec![from, to],
            Move::Drop { to, .. } => vec![to],
            Move::Illuminate { from, rays } => std::iter::once(from).chain(before.illumination_targets(from, rays)).collect(),
            Move::Pass => Vec::new(),
        };
        let mut legal = MoveList::new();
        before.legal_moves(&mut legal);
        LastMove { mover: Some(before.to_move()), cells, text: move_text::short(before, &legal, m) }
    }

    /// A move written as text, seen in `after`, the position it led to: its mover owns the
    /// piece now on the first cell it names that holds one (where a board move or a drop
    /// arrived, or the illuminating king).
    fn from_text<P: Rules>(after: &P, text: &str) -> Result<LastMove, MoveTextError> {
        let cells = move_text::named_cells(after, text)?;
        let mover = cells.iter().find_map(|&cell| after.piece_text(cell)).map(|piece| piece.player);
        Ok(LastMove { mover, cells, text: text.to_string() })
    }
}

/// What a diagram shows of a position, read from the rules.
#[derive(Clone, Debug)]
pub struct DiagramPosition {
    pub variant: Variant,
    /// `None` once the game is over.
    pub to_move: Option<Player>,
    /// Whose turn it is, or how the game ended, in words.
    pub status: String,
    /// The alliance in force, in words (Sannin shogi).
    pub alliance: Option<String>,
    /// The occupied cells, in layout order.
    pub pieces: Vec<(Cell, PieceText)>,
    /// Each seat's pieces in hand, in seat order: letter and count, the pieces held only.
    pub hands: Vec<(Player, Vec<(char, u8)>)>,
    pub in_check: PlayerSet,
    pub players_in: PlayerSet,
    /// How many moves led here, where that is known (a game's position).
    pub moves_played: Option<usize>,
    pub last_move: Option<LastMove>,
}

impl DiagramPosition {
    /// `game`'s position now; `last_move`, a move text (canonical or short) naming the move
    /// that led to it, is marked.
    pub fn current(game: &AnyGame, last_move: Option<&str>) -> Result<DiagramPosition, MoveTextError> {
        with_game!(game, g => {
            let last = last_move.map(|text| LastMove::from_text(g.position(), text)).transpose()?;
            Ok(DiagramPosition::read(g.position(), None, last))
        })
    }

    /// The position after `game`'s first `plies` moves (and what followed them before the
    /// next), the last of them marked; `None` past the last move.
    pub fn after(game: &AnyGame, plies: usize) -> Option<DiagramPosition> {
        with_game!(game, g => {
            let position = g.position_after(plies)?;
            let last = plies.checked_sub(1).and_then(|before| {
                g.position_after(before).map(|pos| LastMove::played(&pos, g.moves()[before]))
            });
            Some(DiagramPosition::read(&position, Some(plies), last))
        })
    }

    fn read<P: Rules>(pos: &P, moves_played: Option<usize>, last_move: Option<LastMove>) -> DiagramPosition {
        let variant = pos.variant();
        let pieces = layout(variant).cells.iter().filter_map(|c| pos.piece_text(c.cell).map(|piece| (c.cell, piece))).collect();
        // Every role: a Three Player Hex Shogi 91 player may hold a captured king.
        let hands = pos
            .seats()
            .iter()
            .map(|&seat| {
                let held = Role::ALL.iter().map(|&role| (role.letter(), pos.in_hand(seat, role))).filter(|&(_, n)| n > 0);
                (seat, held.collect())
            })
            .collect();
        let players_in = pos.players_in();
        let mut in_check = PlayerSet::EMPTY;
        for &seat in pos.seats() {
            if players_in.contains(seat) && pos.in_check(seat) {
                in_check.insert(seat);
            }
        }
        let outcome = pos.outcome();
        let names = |set: PlayerSet| set.iter().map(|p| pos.seat_name(p)).collect::<Vec<_>>().join(" and ");
        DiagramPosition {
            variant,
            to_move: outcome.is_none().then(|| pos.to_move()),
            status: match outcome {
                Some(outcome) => outcome_text(pos, outcome),
                None => format!("{} to move", pos.seat_name(pos.to_move())),
            },
            alliance: pos
                .alliance()
                .filter(|_| outcome.is_none())
                .map(|a| format!("{} allied against {}", names(a.allies), pos.seat_name(a.against))),
            pieces,
            hands,
            in_check,
            players_in,
            moves_played,
            last_move,
        }
    }
}

/// How the viewer wants the picture.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DiagramOptions {
    /// The seat whose army sits at the bottom, its glyphs upright.
    pub bottom: Player,
    /// Cell names on the empty cells.
    pub coordinates: bool,
    pub pieces: PieceSet,
}

impl DiagramOptions {
    /// Seen from `bottom`, with cell names, in letters: the client's defaults.
    pub fn new(bottom: Player) -> DiagramOptions {
        DiagramOptions { bottom, coordinates: true, pieces: PieceSet::Letters }
    }
}

/// The seat of `variant` named `name` (in any case), or a message naming its seats.
pub fn seat_by_name(variant: Variant, name: &str) -> Result<Player, String> {
    crate::lobby::seat_named(variant, name).ok_or_else(|| {
        let seats: Vec<&str> = variant.seats().iter().map(|&p| variant.seat_name(p)).collect();
        format!("`{name}` is not a seat of {} (seats: {})", variant.title(), seats.join(", "))
    })
}

/// The board of each variant, built once: it does not depend on the rule options.
pub fn layout(variant: Variant) -> &'static BoardLayout {
    static LAYOUTS: OnceLock<Vec<BoardLayout>> = OnceLock::new();
    let layouts = LAYOUTS.get_or_init(|| {
        Variant::ALL
            .iter()
            .map(|&v| AnyGame::new(v, &[] as &[&str]).expect("every variant starts under its default rules").layout())
            .collect()
    });
    let index = Variant::ALL.iter().position(|&v| v == variant).expect("Variant::ALL holds every variant");
    &layouts[index]
}

/// The picture's natural width in pixels (where it is shown without a size of its own, and
/// what a PNG is made from): about this wide, a small board drawn larger than a big one, but a
/// layout unit (a hexagon's radius) never under 30 pixels nor over 48.
const NATURAL_WIDTH: f64 = 1000.0;
const PIXELS_PER_UNIT: (f64, f64) = (30.0, 48.0);
const MARGIN: f64 = 0.6;
/// The title and the status line above the board.
const HEADER: f64 = 2.5;
const TITLE_SIZE: f64 = 0.85;
const STATUS_SIZE: f64 = 0.55;
/// Between the board and the seats beside it.
const GAP: f64 = 0.8;

/// The picture: a standalone SVG document (fonts named, nothing fetched).
pub fn svg(position: &DiagramPosition, options: &DiagramOptions) -> String {
    let mut out = String::new();
    write_svg(&mut out, position, options).expect("writing to a String does not fail");
    out
}

fn write_svg(out: &mut String, position: &DiagramPosition, options: &DiagramOptions) -> std::fmt::Result {
    let variant = position.variant;
    let board = Board::new(layout(variant), board::seat_index(variant.seats(), options.bottom));
    let status = status_line(position);
    let panel_left = MARGIN + board.width() + GAP;
    // The status line may be longer than the board and seats are wide (an outcome in words):
    // the picture widens rather than clip it. A character is taken as 0.56 of its font size.
    let text_width = status.chars().count() as f64 * STATUS_SIZE * 0.56;
    let width = (panel_left + panel::PANEL_WIDTH + MARGIN).max(2.0 * MARGIN + text_width);
    let height = HEADER + board.height().max(panel::height(position) + 0.2) + MARGIN;
    let title = format!("{} — {}", variant.title(), position.status);
    let pixels_per_unit = (NATURAL_WIDTH / width).clamp(PIXELS_PER_UNIT.0, PIXELS_PER_UNIT.1);

    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" role="img" data-variant="{}" data-view-seat="{}">"#,
        Num(width * pixels_per_unit),
        Num(height * pixels_per_unit),
        Num(width),
        Num(height),
        variant.name(),
        variant.seat_name(options.bottom)
    )?;
    write!(out, "<title>{}</title><style>{}</style>", Escaped(&title), style::STYLE_SHEET)?;
    // The glow under a king in check (lishogi's, as the client draws it).
    out.push_str(r#"<defs><radialGradient id="diagram-check-glow">"#);
    for (offset, colour, opacity) in
        [("0", "#ff0000", "1"), ("0.45", "#e70000", "0.95"), ("0.85", "#b00000", "0.35"), ("1", "#9e0000", "0")]
    {
        write!(out, r#"<stop offset="{offset}" stop-color="{colour}" stop-opacity="{opacity}"/>"#)?;
    }
    out.push_str("</radialGradient></defs>");
    write!(out, r#"<rect width="{}" height="{}" fill="{}"/>"#, Num(width), Num(height), style::BACKGROUND)?;
    write!(
        out,
        r#"<text class="title" x="{MARGIN}" y="{}" font-size="{TITLE_SIZE}" font-weight="700" fill="{}">{}</text>"#,
        Num(MARGIN + TITLE_SIZE),
        style::INK,
        Escaped(variant.title())
    )?;
    write!(
        out,
        r#"<text class="status" x="{MARGIN}" y="{}" font-size="{STATUS_SIZE}" fill="{}">{}</text>"#,
        Num(MARGIN + TITLE_SIZE + 0.85),
        style::MUTED,
        Escaped(&status)
    )?;
    board.write(out, (MARGIN, HEADER), position, options)?;
    panel::write(out, (panel_left, HEADER + 0.2), position, options)?;
    out.push_str("</svg>\n");
    Ok(())
}

/// The line under the title: which move led here, whose turn it is (or how the game ended),
/// the alliance in force.
fn status_line(position: &DiagramPosition) -> String {
    let variant = position.variant;
    let last_move = position.last_move.as_ref().map(|last| match last.mover {
        Some(mover) => format!("{} {}", variant.seat_name(mover), last.text),
        None => last.text.clone(),
    });
    let after = match (position.moves_played, last_move) {
        (Some(0), _) => Some("Start".to_string()),
        (Some(n), Some(last)) => Some(format!("After move {n} ({last})")),
        (Some(n), None) => Some(format!("After move {n}")),
        (None, Some(last)) => Some(format!("After {last}")),
        (None, None) => None,
    };
    after.into_iter().chain([position.status.clone()]).chain(position.alliance.clone()).collect::<Vec<_>>().join(" · ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(svg: &str, needle: &str) -> usize {
        svg.matches(needle).count()
    }

    #[test]
    fn every_piece_on_the_board_is_drawn_once_in_every_variant_and_view() {
        for variant in Variant::ALL {
            let game = AnyGame::new(variant, &[] as &[&str]).unwrap();
            let position = DiagramPosition::current(&game, None).unwrap();
            for &bottom in variant.seats() {
                let svg = svg(&position, &DiagramOptions::new(bottom));
                assert!(svg.starts_with("<?xml") && svg.trim_end().ends_with("</svg>"), "{variant:?}");
                assert_eq!(count(&svg, r#"<g class="piece"#), position.pieces.len(), "{variant:?}");
                assert_eq!(count(&svg, r#"<polygon class="cell""#), layout(variant).cells.len(), "{variant:?}");
                assert!(svg.contains(&format!(r#"data-view-seat="{}""#, variant.seat_name(bottom))));
                assert!(svg.contains(&format!(
                    "<title>{} — {} to move</title>",
                    variant.title(),
                    variant.seat_name(variant.seats()[0])
                )));
            }
        }
    }

    #[test]
    fn the_bottom_seat_s_pieces_stand_upright() {
        // Sannin: First's pieces point up as First sees the board, and Middle's as Middle does.
        let game = AnyGame::new(Variant::Sannin, &[] as &[&str]).unwrap();
        let position = DiagramPosition::current(&game, None).unwrap();
        for (bottom, name) in [(Player::First, "First"), (Player::Second, "Middle")] {
            let svg = svg(&position, &DiagramOptions::new(bottom));
            let opening_tags = svg.split(r#"<g class="piece""#).skip(1).map(|piece| &piece[..piece.find('>').unwrap()]);
            let mut own = opening_tags.filter(|tag| tag.contains(&format!(r#"data-seat="{name}""#))).peekable();
            assert!(own.peek().is_some());
            let upright = own.all(|tag| tag.contains("rotate(0)"));
            assert!(upright, "{name}'s pieces are upright when {name} sits at the bottom");
        }
    }

    #[test]
    fn the_last_move_and_the_hands_are_shown() {
        let mut game = AnyGame::new(Variant::HexShogi91, &[] as &[&str]).unwrap();
        let position = DiagramPosition::after(&game, 0).unwrap();
        assert_eq!(position.last_move, None);
        let moves = with_game!(&mut game, g => {
            let mut legal = polyshogi::MoveList::new();
            g.legal_moves(&mut legal);
            let m = legal[0];
            let text = move_text::canonical(g.position(), m);
            g.play(m).unwrap();
            (m, text)
        });
        let after = DiagramPosition::after(&game, 1).unwrap();
        let marked = after.last_move.clone().expect("the first move is marked");
        assert_eq!(marked.mover, Some(Player::First));
        assert!(matches!(moves.0, Move::Normal { from, to, .. } if marked.cells == [from, to]));
        // The same move named in text marks the same cells, in the same colour.
        let named = DiagramPosition::current(&game, Some(&moves.1)).unwrap().last_move.unwrap();
        assert_eq!((named.mover, &named.cells), (marked.mover, &marked.cells));
        let picture = svg(&after, &DiagramOptions::new(Player::First));
        assert_eq!(count(&picture, r#"class="last-move""#), 2);
        assert_eq!(count(&picture, "no pieces in hand"), 2);
        assert!(picture.contains(&format!("After move 1 (Black {}) · White to move", marked.text)), "{picture}");

        // Black took two pawns and a gold, White a rook.
        let with_hands = AnyGame::from_position_text::<&str>(
            "hexshogi91 wLwN1wGwNwL/1wRwSwKwSwB1/8/2wPwPwPwPwPwPwP/10/11/10/bPbPbPbPbPbPbPbPbP/8/2bSbKbSbB1/bLbNbGbGbNbL W \
             B:2PG/W:R ply=10;nocapture=0;passes=0",
            &[],
        )
        .unwrap();
        let picture = svg(&DiagramPosition::current(&with_hands, None).unwrap(), &DiagramOptions::new(Player::Second));
        assert_eq!(count(&picture, r#"<g class="hand-piece"#), 3);
        assert!(picture.contains(r#"data-seat="Black" data-piece="P" data-count="2""#) && picture.contains("×2"));
        assert!(DiagramPosition::current(&with_hands, Some("P9z-9y")).is_err());
    }
}
