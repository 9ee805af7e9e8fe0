//! Draws an `App` with ratatui: the board (pieces in their seat's colour, the cursor, the
//! selected piece, its destinations and the last move marked), the game's state, the players
//! with hands and clocks, the move list with events, the move line and its candidates.

use polyshogi::layout::CellShape;
use polyshogi::player::Player;
use polyshogi::rules::PieceText;
use polyshogi::Cell;
use polyshogi_server::table::EntryKind;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};
use ratatui::Frame;

use super::app::{App, Question, Tone};
use super::board::{Row, SLOT};
use super::clocks::clock_text;

/// Each seat's colour, in seat order (the browser client's red, blue and green).
const SEAT_COLOURS: [Color; 3] = [Color::LightRed, Color::LightBlue, Color::LightGreen];
const SELECTED_BG: Color = Color::Blue;
pub const DESTINATION_BG: Color = Color::Indexed(22);
const LAST_MOVE_BG: Color = Color::Indexed(238);
/// What an empty cell the selected piece can reach shows.
pub const DESTINATION_MARK: &str = "*";
/// Characters for a row's end-cell names on either side of the board.
const LABEL: usize = 4;
/// The board's column is never narrower, so that the game panel under it keeps its lines.
const MIN_LEFT_WIDTH: usize = 50;
/// Lines the game panel under the board needs: its status, alliance, cursor and last move
/// lines and its borders.
const GAME_LINES: u16 = 6;
const KEYS: &str = "Tab complete · Enter play · arrows cursor · Space select · r resign · q quit · ? help";

pub fn draw(frame: &mut Frame, app: &App) {
    let [main, bottom] = Layout::vertical([Constraint::Min(0), Constraint::Length(6)]).areas(frame.area());
    let board_width = (app.board().width + 2 * LABEL + 4).max(MIN_LEFT_WIDTH) as u16;
    let [left, right] = Layout::horizontal([Constraint::Length(board_width), Constraint::Min(30)]).areas(main);
    // Rows two lines apart draw hexagons in about their true proportions, when there is room.
    let rows = app.board().rows.len() as u16;
    let spacing = if left.height >= 2 * rows - 1 + 2 + GAME_LINES { 2 } else { 1 };
    let board_height = spacing * (rows - 1) + 1 + 2;
    let [board_area, game_area] = Layout::vertical([Constraint::Length(board_height), Constraint::Min(0)]).areas(left);
    let players_height = 2 * app.seats().len() as u16 + 2;
    let [players_area, moves_area] = Layout::vertical([Constraint::Length(players_height), Constraint::Min(0)]).areas(right);
    draw_board(frame, app, board_area, spacing);
    draw_game(frame, app, game_area);
    draw_players(frame, app, players_area);
    draw_moves(frame, app, moves_area);
    draw_input(frame, app, bottom);
    if app.help_shown() {
        draw_help(frame, frame.area());
    }
}

fn seat_colour(app: &App, seat: Player) -> Color {
    let index = app.seats().iter().position(|&s| s == seat).unwrap_or(0);
    SEAT_COLOURS[index % SEAT_COLOURS.len()]
}

/// A piece as the board shows it: its owner's initial in lower case, `+` if promoted, its
/// letter (`bP`, `m+R`), as `polyshogi show` draws it.
fn piece_token(app: &App, piece: PieceText) -> String {
    let owner = app.seat_name(piece.player).chars().next().unwrap_or('?').to_ascii_lowercase();
    format!("{owner}{}{}", if piece.promoted { "+" } else { "" }, piece.letter)
}

fn draw_board(frame: &mut Frame, app: &App, area: Rect, spacing: u16) {
    let marks = Marks { destinations: app.destinations(), last_move: app.last_move_cells() };
    let mut lines: Vec<Line> = Vec::new();
    for (index, row) in app.board().rows.iter().enumerate() {
        if index > 0 {
            lines.extend((1..spacing).map(|_| Line::from("")));
        }
        lines.push(board_line(app, row, &marks));
    }
    let title = format!(" {} ", app.variant().title());
    frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(title)), area);
}

/// The cells marked on the board besides the cursor and the selected piece.
struct Marks {
    destinations: Vec<Cell>,
    last_move: Vec<Cell>,
}

/// One row: the name of its first cell, the cells in their slots, the name of its last cell.
fn board_line(app: &App, row: &Row, marks: &Marks) -> Line<'static> {
    let position = app.game().position();
    let mut spans = vec![Span::raw(format!("{:>width$} ", row.first_name, width = LABEL - 1))];
    let mut at = 0;
    for slot in &row.cells {
        spans.push(Span::raw(" ".repeat(slot.column.saturating_sub(at))));
        let cell = slot.cell;
        let reachable = marks.destinations.contains(&cell);
        let (token, mut style) = match position.piece_text(cell) {
            Some(piece) => {
                (piece_token(app, piece), Style::new().fg(seat_colour(app, piece.player)).add_modifier(Modifier::BOLD))
            }
            None if reachable => (DESTINATION_MARK.to_string(), Style::new().fg(Color::LightGreen).add_modifier(Modifier::BOLD)),
            None => (empty_token(app, cell, slot.shape).to_string(), Style::new().fg(Color::DarkGray)),
        };
        if app.selected() == Some(cell) {
            style = style.bg(SELECTED_BG);
        } else if reachable {
            style = style.bg(DESTINATION_BG);
        } else if marks.last_move.contains(&cell) {
            style = style.bg(LAST_MOVE_BG);
        }
        let before = (SLOT - token.len()) / 2;
        let after = SLOT - token.len() - before;
        if app.cursor() == cell {
            // The cursor takes the whole slot, so that it shows on an empty cell too.
            let text = format!("{}{token}{}", " ".repeat(before), " ".repeat(after));
            spans.push(Span::styled(text, style.add_modifier(Modifier::REVERSED)));
        } else {
            spans.push(Span::raw(" ".repeat(before)));
            spans.push(Span::styled(token, style));
            spans.push(Span::raw(" ".repeat(after)));
        }
        at = slot.column + SLOT;
    }
    spans.push(Span::raw(" ".repeat(app.board().width.saturating_sub(at))));
    spans.push(Span::raw(format!(" {}", row.last_name)));
    Line::from(spans)
}

/// An empty cell: `.`, or `^`/`v` for the triangles pointing up and down, `o` for a marked
/// cell (the Pleasure Garden).
fn empty_token(app: &App, cell: Cell, shape: CellShape) -> &'static str {
    match shape {
        _ if app.board().marked.contains(&cell) => "o",
        CellShape::TriangleUp => "^",
        CellShape::TriangleDown => "v",
        CellShape::Hexagon => ".",
    }
}

fn draw_game(frame: &mut Frame, app: &App, area: Rect) {
    let position = app.game().position();
    let mut lines = vec![status_line(app)];
    if let Some(alliance) = position.alliance().filter(|_| !app.is_over()) {
        let allies: Vec<&str> = alliance.allies.iter().map(|p| app.seat_name(p)).collect();
        lines.push(Line::from(format!("Alliance: {} against {}", allies.join("+"), app.seat_name(alliance.against))));
    }
    let cursor = app.cursor();
    let on_it = position.piece_text(cursor).map(|p| format!(" ({})", piece_token(app, p))).unwrap_or_default();
    let mut where_line = format!("Cursor: {}{on_it}", position.cell_name(cursor));
    if let Some(selected) = app.selected() {
        where_line.push_str(&format!("   Selected: {}", position.cell_name(selected)));
    }
    lines.push(Line::from(where_line));
    if let Some(line) = app.log().iter().rev().find(|line| line.ply.is_some()) {
        if let (Some(ply), EntryKind::Move { short, .. }) = (line.ply, &line.entry.kind) {
            lines.push(Line::from(format!("Last move: {ply}. {} {short}", app.seat_name(line.entry.seat))));
        }
    }
    if let Some(note) = app.variant().setup_note() {
        lines.push(Line::from(Span::styled(format!("Note: {note}"), Style::new().fg(Color::DarkGray))));
    }
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }).block(Block::bordered().title(" Game ")), area);
}

/// Whose turn it is, who is thinking, or how the game ended.
fn status_line(app: &App) -> Line<'static> {
    if let Some(outcome) = app.outcome_text() {
        return Line::from(Span::styled(
            format!("Game over: {outcome}"),
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        ));
    }
    if let Some(seat) = app.alliance_question() {
        return Line::from(Span::styled(
            format!("{}: accept the proposed alliance? (y/n)", app.seat_name(seat)),
            Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        ));
    }
    let position = app.game().position();
    if position.decision_pending() {
        return Line::from("Waiting for the answer to the proposed alliance");
    }
    let seat = position.to_move();
    let text = match app.thinking() {
        Some(bot) => format!("{} ({}) is thinking…", app.seat_name(bot), app.player_text(bot)),
        None => format!("{} to move ({})", app.seat_name(seat), app.player_text(seat)),
    };
    Line::from(Span::styled(text, Style::new().add_modifier(Modifier::BOLD)))
}

fn draw_players(frame: &mut Frame, app: &App, area: Rect) {
    let position = app.game().position();
    let mut lines = Vec::new();
    for &seat in app.seats() {
        let to_move = !app.is_over() && position.to_move() == seat;
        let mut first = vec![
            Span::raw(if to_move { "▶ " } else { "  " }),
            Span::styled(
                format!("{:<7}", app.seat_name(seat)),
                Style::new().fg(seat_colour(app, seat)).add_modifier(Modifier::BOLD),
            ),
            Span::raw(format!("{:<14}", app.player_text(seat))),
        ];
        if let Some(left) = app.clock_left(seat) {
            first.push(Span::styled(format!("{:>8}", clock_text(left)), Style::new().add_modifier(Modifier::BOLD)));
        }
        if !app.is_in(seat) {
            first.push(Span::styled("  out", Style::new().fg(Color::DarkGray)));
        } else if app.in_check(seat) {
            first.push(Span::styled("  in check", Style::new().fg(Color::LightRed).add_modifier(Modifier::BOLD)));
        }
        lines.push(Line::from(first));
        lines.push(Line::from(format!("    hand: {}", app.hand_text(seat))));
    }
    frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(" Players ")), area);
}

fn draw_moves(frame: &mut Frame, app: &App, area: Rect) {
    let width = area.width.saturating_sub(2) as usize;
    let mut lines: Vec<Line> = Vec::new();
    for line in app.log() {
        let seat = line.entry.seat;
        let name = Span::styled(format!("{:<7}", app.seat_name(seat)), Style::new().fg(seat_colour(app, seat)));
        let what = match &line.entry.kind {
            EntryKind::Move { short, .. } => Some(short.clone()),
            EntryKind::Decision { accept } => Some(if *accept { "accepts".to_string() } else { "refuses".to_string() }),
            _ => None,
        };
        if let Some(what) = what {
            let number = line.ply.map(|ply| format!("{ply:>4}. ")).unwrap_or_else(|| "      ".to_string());
            lines.push(Line::from(vec![Span::raw(number), name, Span::raw(what)]));
        }
        for event in &line.entry.events {
            for part in wrap(event, width.saturating_sub(EVENT_INDENT).max(10)) {
                lines.push(Line::from(Span::styled(format!("{:EVENT_INDENT$}{part}", ""), Style::new().fg(Color::Yellow))));
            }
        }
    }
    // The newest lines, as many as fit.
    let room = area.height.saturating_sub(2) as usize;
    let shown = lines.split_off(lines.len().saturating_sub(room));
    frame.render_widget(Paragraph::new(shown).block(Block::bordered().title(" Moves ")), area);
}

/// Where events start under their move in the move list.
const EVENT_INDENT: usize = 6;

/// `text` in lines of at most `width` characters, broken at spaces (a longer word stays whole).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = String::new();
    for word in text.split(' ') {
        if !current.is_empty() && current.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push(' ');
        }
        current.push_str(word);
    }
    lines.push(current);
    lines
}

fn draw_input(frame: &mut Frame, app: &App, area: Rect) {
    let [line_area, question_area, candidates_area, keys_area] =
        Layout::vertical([Constraint::Length(3), Constraint::Length(1), Constraint::Length(1), Constraint::Length(1)])
            .areas(area);
    let title = match app.human_to_move() {
        Some(seat) => format!(" Your move ({}) ", app.seat_name(seat)),
        None => " Move ".to_string(),
    };
    let text = format!("> {}", app.line());
    frame.render_widget(Paragraph::new(text.clone()).block(Block::bordered().title(title)), line_area);
    if app.question().is_none() && !app.help_shown() && !app.should_quit() {
        let x = line_area.x + 1 + text.chars().count() as u16;
        frame.set_cursor_position((x.min(line_area.right().saturating_sub(2)), line_area.y + 1));
    }
    let question = app.question().map(|q| question_text(app, q));
    let (text, style) = match (question, app.message()) {
        (Some(question), _) => (question, Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD)),
        (None, Some(message)) => {
            let colour = if message.tone == Tone::Error { Color::LightRed } else { Color::LightCyan };
            (message.text.clone(), Style::new().fg(colour))
        }
        (None, None) => (String::new(), Style::new()),
    };
    frame.render_widget(Paragraph::new(Span::styled(text, style)), question_area);
    frame.render_widget(Paragraph::new(candidates_text(app, candidates_area.width as usize)), candidates_area);
    frame.render_widget(Paragraph::new(Span::styled(KEYS, Style::new().fg(Color::DarkGray))), keys_area);
}

fn question_text(app: &App, question: &Question) -> String {
    let position = app.game().position();
    match question {
        Question::Quit if app.is_over() => "Quit? (y/n)".to_string(),
        Question::Quit => "Quit the unfinished game? Its record will be saved. (y/n)".to_string(),
        Question::Resign(seat) => format!("Resign as {}? (y/n)", app.seat_name(*seat)),
        Question::Promotion { from, to } => format!(
            "Promote on the move {} to {}? (y promote, n do not, Esc cancel)",
            position.cell_name(*from),
            position.cell_name(*to)
        ),
        Question::Drop { to, letters } => {
            let letters: Vec<String> = letters.iter().map(char::to_string).collect();
            format!("Drop which piece on {}? {} (its letter, Esc cancel)", position.cell_name(*to), letters.join(" "))
        }
    }
}

/// The candidate moves on one line, as many as fit, then how many more there are; the one
/// the move line holds stands out.
fn candidates_text(app: &App, width: usize) -> Line<'static> {
    let candidates = app.candidates();
    if candidates.is_empty() || app.human_to_move().is_none() {
        return Line::from("");
    }
    let plain = Style::new().fg(Color::Cyan);
    let mut spans = vec![Span::styled("moves:", plain)];
    let mut used = "moves:".len();
    for (shown, &candidate) in candidates.iter().enumerate() {
        let more = format!(" … {} more", candidates.len() - shown);
        if used + 1 + candidate.chars().count() + more.len() > width && shown + 1 < candidates.len() {
            spans.push(Span::styled(more, plain));
            break;
        }
        let style = if candidate == app.line() { plain.add_modifier(Modifier::REVERSED) } else { plain };
        spans.push(Span::raw(" "));
        spans.push(Span::styled(candidate.to_string(), style));
        used += 1 + candidate.chars().count();
    }
    Line::from(spans)
}

fn draw_help(frame: &mut Frame, area: Rect) {
    let text = [
        "Type a move in short or canonical text (P-4d, P3c-4d, R-7g+, P*5e, +K!5e,9i, pass)",
        "and press Enter. Tab completes it among the legal moves; Tab again shows the next one.",
        "",
        "Arrow keys move the cursor. Enter or Space on one of your pieces selects it and marks",
        "where it can go (* on an empty cell); Enter or Space there plays the move. On an empty",
        "cell with nothing selected it offers the pieces of your hand to drop.",
        "",
        "r resign    q or Esc quit (the record is saved)    Ctrl-C quit at once    ? this help",
        "y / n answer a question (promotion, an alliance proposed to you, quitting)",
        "",
        "Board: pieces are their owner's initial in lower case, + if promoted, and their letter;",
        ". an empty hexagon, ^ v empty triangles, o the Pleasure Garden.",
        "",
        "Any key closes this help.",
    ];
    let width = (text.iter().map(|l| l.chars().count()).max().unwrap_or(0) + 4) as u16;
    let height = text.len() as u16 + 2;
    let popup = area.centered(Constraint::Length(width.min(area.width)), Constraint::Length(height.min(area.height)));
    frame.render_widget(Clear, popup);
    let lines: Vec<Line> = text.iter().map(|l| Line::from(*l)).collect();
    frame.render_widget(Paragraph::new(lines).block(Block::bordered().title(" Help ")), popup);
}

#[cfg(test)]
mod tests {
    use super::wrap;

    #[test]
    fn long_events_wrap_at_spaces() {
        assert_eq!(wrap("Last wins: First and Middle are out", 16), vec!["Last wins: First", "and Middle are", "out"]);
        assert_eq!(wrap("short", 16), vec!["short"]);
    }
}
