//! Terminal play (`polyshogi play`) without a terminal: the app is driven by key presses and
//! drawn on ratatui's `TestBackend`, whose buffer the tests read. Bots search to a fixed depth
//! from a fixed seed, and the tests wait for states (a bot's reply), never for time.

use std::collections::{HashMap, VecDeque};
use std::path::Path;
use std::time::{Duration, Instant};

use polyshogi::mv::Move;
use polyshogi::notation::describe::outcome_text;
use polyshogi::replay::replay;
use polyshogi::variant::Variant;
use polyshogi::Cell;
use polyshogi_cli::play::app::{App, PlaySetup, SeatKind, Tone};
use polyshogi_cli::play::board::Direction;
use polyshogi_cli::play::clocks::TimeControl;
use polyshogi_cli::play::moves::legal_moves;
use polyshogi_cli::play::view::{self, DESTINATION_BG, DESTINATION_MARK};
use polyshogi_engine::Level;
use polyshogi_server::table::EntryKind;
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;

fn new_app(variant: Variant, seats: Vec<SeatKind>, dir: &Path) -> App {
    App::new(PlaySetup {
        variant,
        rules: Vec::new(),
        seats,
        clock: None,
        seed: 17,
        record_path: dir.join("game.psn"),
        player_name: "Tester".to_string(),
    })
    .expect("a new game")
}

fn press(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// Lets every bot to move answer, until a person is to move or the game is over.
fn let_bots_play(app: &mut App) {
    while app.wait_for_bot() {}
}

/// The screen as a 120 × 45 terminal shows it.
fn draw(app: &App) -> Buffer {
    let mut terminal = Terminal::new(TestBackend::new(120, 45)).expect("a test terminal");
    terminal.draw(|frame| view::draw(frame, app)).expect("drawn");
    terminal.backend().buffer().clone()
}

fn screen_text(buffer: &Buffer) -> String {
    let area = buffer.area;
    (0..area.height).map(|y| (0..area.width).map(|x| buffer[(x, y)].symbol()).collect::<String>()).collect::<Vec<_>>().join("\n")
}

fn screen(app: &App) -> String {
    screen_text(&draw(app))
}

/// The runs of neighbouring characters drawn on `bg`: one per highlighted cell.
fn runs_on(buffer: &Buffer, bg: ratatui::style::Color) -> usize {
    let area = buffer.area;
    let mut runs = 0;
    for y in 0..area.height {
        let mut inside = false;
        for x in 0..area.width {
            let on = buffer[(x, y)].bg == bg;
            if on && !inside {
                runs += 1;
            }
            inside = on;
        }
    }
    runs
}

/// Arrow keys that take the cursor to `target`, found by searching the board's own steps.
fn walk_cursor(app: &mut App, target: Cell) {
    let board = app.board().clone();
    let mut came_from: HashMap<Cell, (Cell, Direction)> = HashMap::new();
    let mut queue = VecDeque::from([app.cursor()]);
    while let Some(cell) = queue.pop_front() {
        if cell == target {
            break;
        }
        for direction in [Direction::Up, Direction::Down, Direction::Left, Direction::Right] {
            let next = board.step(cell, direction);
            if next != app.cursor() && !came_from.contains_key(&next) {
                came_from.insert(next, (cell, direction));
                queue.push_back(next);
            }
        }
    }
    let mut path = Vec::new();
    let mut at = target;
    while at != app.cursor() {
        let (before, direction) = came_from[&at];
        path.push(direction);
        at = before;
    }
    for direction in path.into_iter().rev() {
        press(
            app,
            match direction {
                Direction::Up => KeyCode::Up,
                Direction::Down => KeyCode::Down,
                Direction::Left => KeyCode::Left,
                Direction::Right => KeyCode::Right,
            },
        );
    }
    assert_eq!(app.cursor(), target, "the cursor reached its cell");
}

#[test]
fn a_game_against_a_bot_is_played_to_its_end_and_its_record_replays() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(Variant::Sankaku, vec![SeatKind::Human, SeatKind::Bot(Level::Easy)], dir.path());
    // The person's script: ten Soldier moves (`S`, then Tab until a whole move shows), then
    // the Emperor marches up the board (to the highest rank its moves reach, picked by
    // pressing Tab until it shows) whenever it can.
    for turn in 0..300 {
        if app.is_over() {
            break;
        }
        type_text(&mut app, if turn < 10 { "S" } else { "E" });
        let forward = app.candidates().into_iter().max_by_key(|text| text.chars().last()).map(str::to_string);
        match forward {
            Some(text) if turn >= 10 => {
                while app.line() != text {
                    press(&mut app, KeyCode::Tab);
                }
            }
            _ => {
                if app.candidates().is_empty() {
                    press(&mut app, KeyCode::Esc);
                }
                while !app.candidates().contains(&app.line()) {
                    press(&mut app, KeyCode::Tab);
                }
            }
        }
        assert!(!app.line().is_empty(), "Tab offers a move");
        press(&mut app, KeyCode::Enter);
        assert!(app.message().is_none_or(|m| m.tone != Tone::Error), "refused: {:?}", app.message());
        let_bots_play(&mut app);
    }
    assert!(app.is_over(), "the game ended:\n{}\n{}", screen(&app), app.record_text());
    assert!(app.game().plies() > 10, "a game, not an accident of the opening: {}", app.record_text());
    let outcome = app.outcome_text().expect("an outcome");
    let shown = screen(&app);
    assert!(shown.contains("Game over: White wins"), "{shown}");
    // The outcome wraps in the narrow panels: its start and its last word.
    let last_word = outcome.rsplit(' ').next().unwrap();
    assert!(shown.contains(&outcome[..20]) && shown.contains(last_word), "{outcome} on screen:\n{shown}");
    for seat in ["Black", "White", "you", "easy bot"] {
        assert!(shown.contains(seat), "`{seat}` on screen:\n{shown}");
    }
    let last = app.log().iter().rev().find_map(|line| match &line.entry.kind {
        EntryKind::Move { short, .. } => Some(short.clone()),
        _ => None,
    });
    let last = last.expect("moves were played");
    assert!(shown.contains(&last), "the last move {last} in the move list:\n{shown}");
    // The record was written when the game ended, and replays to the same end.
    let path = app.saved_record().expect("the record was saved").to_path_buf();
    assert!(shown.contains("record saved to"), "{shown}");
    let replayed = replay(&std::fs::read_to_string(&path).unwrap()).expect("the record reads");
    assert!(replayed.bad_move.is_none());
    let position = replayed.game.position();
    assert_eq!(position.outcome().map(|o| outcome_text(position, o)), Some(outcome));
    assert_eq!(replayed.game.position_text(), app.game().position_text());
}

#[test]
fn a_resignation_ends_the_game_and_the_record_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(Variant::HexShogi91, vec![SeatKind::Human, SeatKind::Bot(Level::Beginner)], dir.path());
    let first = legal_moves(app.game())[0].short.clone();
    type_text(&mut app, &first);
    press(&mut app, KeyCode::Enter);
    let_bots_play(&mut app);
    assert_eq!(app.game().plies(), 2);
    press(&mut app, KeyCode::Char('r'));
    assert!(screen(&app).contains("Resign as Black? (y/n)"));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.is_over());
    let shown = screen(&app);
    assert!(shown.contains("Game over: White wins"), "{shown}");
    assert!(shown.contains("Black resigns"), "{shown}");
    let record = std::fs::read_to_string(app.saved_record().unwrap()).unwrap();
    assert!(record.contains("resign:Black") && record.contains("[Black \"Tester\"]"), "{record}");
    let replayed = replay(&record).unwrap();
    assert_eq!(replayed.game.position_text(), app.game().position_text());
    // Over: q quits without asking.
    press(&mut app, KeyCode::Char('q'));
    assert!(app.should_quit());
}

#[test]
fn a_bad_move_text_says_why_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(Variant::HexShogi91, vec![SeatKind::Human, SeatKind::Bot(Level::Beginner)], dir.path());
    let before = app.game().position_text();
    for (text, why) in [("P6g-6q", "is not a cell"), ("K-6f", "is not legal"), ("P6g/6f", "expected")] {
        type_text(&mut app, text);
        press(&mut app, KeyCode::Enter);
        let message = app.message().expect("a message");
        assert_eq!(message.tone, Tone::Error);
        assert!(message.text.contains(why), "`{text}`: {}", message.text);
        assert!(screen(&app).contains(&message.text[..message.text.len().min(60)]));
        assert_eq!(app.game().position_text(), before, "`{text}` changed the position");
        assert_eq!(app.game().plies(), 0);
        assert_eq!(app.line(), text, "the text stays to be corrected");
        assert_eq!(app.thinking(), None, "no bot was started");
        press(&mut app, KeyCode::Esc);
        assert_eq!(app.line(), "");
    }
}

#[test]
fn tab_lists_and_completes_the_legal_moves_that_start_with_the_text() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(Variant::HexShogi91, vec![SeatKind::Human, SeatKind::Bot(Level::Beginner)], dir.path());
    type_text(&mut app, "N");
    let knights: Vec<String> = app.candidates().iter().map(|s| s.to_string()).collect();
    assert!(knights.len() >= 2 && knights.iter().all(|m| m.starts_with('N')), "{knights:?}");
    let shown = screen(&app);
    assert!(shown.contains(&format!("moves: {}", knights.join(" "))), "{shown}");
    // The first Tab fills in what the candidates share; the next ones show each in turn.
    press(&mut app, KeyCode::Tab);
    let shared = app.line().to_string();
    assert!(knights.iter().all(|m| m.starts_with(&shared)) && shared.starts_with('N'));
    let mut seen = Vec::new();
    for _ in 0..knights.len() {
        press(&mut app, KeyCode::Tab);
        seen.push(app.line().to_string());
    }
    assert_eq!(seen, knights, "Tab goes through every candidate");
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.game().plies(), 1);
    assert!(screen(&app).contains(&knights[knights.len() - 1]));
    // A prefix no legal move has is answered, and one candidate fills the whole line.
    let_bots_play(&mut app);
    type_text(&mut app, "Q");
    press(&mut app, KeyCode::Tab);
    assert!(app.message().unwrap().text.contains("no legal move starts with `Q`"));
    press(&mut app, KeyCode::Esc);
    let only = legal_moves(app.game()).remove(0);
    type_text(&mut app, &only.canonical);
    press(&mut app, KeyCode::Tab);
    assert!(app.line() == only.canonical || app.line() == only.short, "{}", app.line());
}

#[test]
fn the_cursor_selects_a_piece_marks_its_destinations_and_plays_a_move() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(
        Variant::Sannin,
        vec![SeatKind::Human, SeatKind::Bot(Level::Beginner), SeatKind::Bot(Level::Beginner)],
        dir.path(),
    );
    // A piece with several moves: its destinations are marked.
    let legal = legal_moves(app.game());
    let piece = legal
        .iter()
        .filter_map(|m| m.from())
        .max_by_key(|&from| legal.iter().filter(|m| m.from() == Some(from)).count())
        .unwrap();
    walk_cursor(&mut app, piece);
    press(&mut app, KeyCode::Char(' '));
    assert_eq!(app.selected(), Some(piece));
    let destinations = app.destinations();
    assert!(destinations.len() >= 2, "{destinations:?}");
    let buffer = draw(&app);
    assert_eq!(runs_on(&buffer, DESTINATION_BG), destinations.len(), "one highlight per destination");
    let marks = screen_text(&buffer).matches(DESTINATION_MARK).count();
    let empty = destinations.iter().filter(|&&c| app.game().position().piece_text(c).is_none()).count();
    assert!(marks >= empty, "every empty destination is marked `{DESTINATION_MARK}`");
    // Enter on a destination plays the move; the bots answer.
    let target = destinations[0];
    walk_cursor(&mut app, target);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.game().plies(), 1, "{:?}", app.message());
    assert_eq!(app.selected(), None);
    let_bots_play(&mut app);
    assert_eq!(app.game().plies(), 3, "both bots answered");
    assert!(app.human_to_move().is_some());
    // Enter on an empty cell with nothing to drop says so.
    let empty =
        app.board().rows.iter().flat_map(|r| &r.cells).map(|s| s.cell).find(|&c| {
            app.game().position().piece_text(c).is_none() && !legal_moves(app.game()).iter().any(|m| m.to() == Some(c))
        });
    walk_cursor(&mut app, empty.unwrap());
    press(&mut app, KeyCode::Enter);
    assert!(app.message().unwrap().text.contains("nothing to move"), "{:?}", app.message());
}

#[test]
fn a_proposed_alliance_is_put_to_the_allies_who_answer_with_y_or_n() {
    // Three people at one keyboard under compulsory=confirm, playing the first legal move of a
    // seeded shuffle until a move proposes an alliance.
    let dir = tempfile::tempdir().unwrap();
    for seed in 0..200u64 {
        let mut app = App::new(PlaySetup {
            variant: Variant::Sannin,
            rules: vec!["compulsory=confirm".to_string()],
            seats: vec![SeatKind::Human; 3],
            clock: None,
            seed,
            record_path: dir.path().join("alliance.psn"),
            player_name: "Tester".to_string(),
        })
        .unwrap();
        let mut rng = polyshogi::splitmix::SplitMix::new(seed);
        for _ in 0..120 {
            if app.is_over() || app.alliance_question().is_some() {
                break;
            }
            let legal = legal_moves(app.game());
            let pick = legal[rng.below(legal.len())].canonical.clone();
            type_text(&mut app, &pick);
            press(&mut app, KeyCode::Enter);
        }
        let Some(first) = app.alliance_question() else { continue };
        let shown = screen(&app);
        assert!(shown.contains(&format!("{}: accept the proposed alliance? (y/n)", app.seat_name(first))), "{shown}");
        assert!(shown.contains("alliance proposed"), "the proposal is in the move list:\n{shown}");
        let plies = app.game().plies();
        // A move is refused while the allies have not answered.
        type_text(&mut app, "P");
        assert_eq!(app.line(), "", "typing waits for the answer");
        press(&mut app, KeyCode::Char('y'));
        if let Some(second) = app.alliance_question() {
            assert_ne!(second, first);
            press(&mut app, KeyCode::Char('y'));
        }
        assert!(app.alliance_question().is_none());
        assert!(app.game().position().alliance().is_some(), "both allies accepted");
        assert_eq!(app.game().plies(), plies, "answers are not moves");
        assert!(app.record_text().contains("accept"));
        return;
    }
    panic!("no alliance was proposed in 200 random games");
}

#[test]
fn a_fallen_clock_loses_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = App::new(PlaySetup {
        variant: Variant::HexShogi91,
        rules: Vec::new(),
        seats: vec![SeatKind::Human, SeatKind::Bot(Level::Beginner)],
        clock: Some(TimeControl { base: Duration::from_secs(60), increment: Duration::from_secs(2) }),
        seed: 3,
        record_path: dir.path().join("flag.psn"),
        player_name: "Tester".to_string(),
    })
    .unwrap();
    assert!(screen(&app).contains("1:00") || screen(&app).contains("0:59"), "{}", screen(&app));
    assert!(!app.flag_if_due(Instant::now()));
    assert!(app.flag_if_due(Instant::now() + Duration::from_secs(61)));
    assert!(app.is_over());
    let shown = screen(&app);
    assert!(shown.contains("Black's time ran out") && shown.contains("Game over: White wins"), "{shown}");
    assert!(std::fs::read_to_string(app.saved_record().unwrap()).unwrap().contains("timeout:Black"));
}

#[test]
fn the_cursor_asks_which_piece_to_drop_and_whether_to_promote() {
    // Two people at one keyboard play a seeded shuffle of legal moves until a drop and a
    // choice of promotion have each been played with the cursor.
    let dir = tempfile::tempdir().unwrap();
    let mut app = new_app(Variant::HexShogi91, vec![SeatKind::Human, SeatKind::Human], dir.path());
    let mut rng = polyshogi::splitmix::SplitMix::new(5);
    let (mut dropped, mut promoted) = (false, false);
    for _ in 0..400 {
        if app.is_over() || (dropped && promoted) {
            break;
        }
        let legal = legal_moves(app.game());
        let drop = legal.iter().find(|m| matches!(m.mv, Move::Drop { .. }));
        let promotion = legal.iter().find(|m| {
            matches!(m.mv, Move::Normal { promote: true, .. })
                && legal.iter().any(|o| o.from() == m.from() && o.to() == m.to() && o.mv != m.mv)
        });
        let plies = app.game().plies();
        if let (Some(m), false) = (drop, dropped) {
            let Move::Drop { role, to } = m.mv else { unreachable!() };
            walk_cursor(&mut app, to);
            press(&mut app, KeyCode::Enter);
            let asked = screen(&app);
            assert!(asked.contains("Drop which piece on"), "{asked}");
            press(&mut app, KeyCode::Char(role.letter().to_ascii_lowercase()));
            assert_eq!(app.game().plies(), plies + 1);
            assert!(app
                .log()
                .last()
                .is_some_and(|l| matches!(&l.entry.kind, EntryKind::Move { canonical, .. } if canonical.contains('*'))));
            dropped = true;
        } else if let (Some(m), false) = (promotion, promoted) {
            let (from, to) = (m.from().unwrap(), m.to().unwrap());
            walk_cursor(&mut app, from);
            press(&mut app, KeyCode::Enter);
            walk_cursor(&mut app, to);
            press(&mut app, KeyCode::Enter);
            assert!(screen(&app).contains("Promote on the move"), "{}", screen(&app));
            press(&mut app, KeyCode::Char('y'));
            assert_eq!(app.game().plies(), plies + 1);
            assert!(app
                .log()
                .last()
                .is_some_and(|l| matches!(&l.entry.kind, EntryKind::Move { canonical, .. } if canonical.ends_with('+'))));
            promoted = true;
        } else {
            type_text(&mut app, &legal[rng.below(legal.len())].canonical);
            press(&mut app, KeyCode::Enter);
        }
        assert_eq!(app.game().plies(), plies + 1, "{:?}", app.message());
    }
    assert!(dropped && promoted, "the shuffle reached a drop ({dropped}) and a promotion ({promoted})");
}
