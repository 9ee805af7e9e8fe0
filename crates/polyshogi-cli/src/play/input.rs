//! Keys as the player's commands. Letters are commands (`r` resign, `q` quit, `?` help) only
//! while the move line is empty: once a move is being typed they are text.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::board::Direction;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Command {
    /// A character of move text (or of an answer to a question).
    Type(char),
    Backspace,
    /// Tab: complete the move text among the legal moves.
    Complete,
    /// Enter: play the typed move, or act on the cursor's cell when nothing is typed.
    Enter,
    /// Space: act on the cursor's cell.
    Select,
    Cursor(Direction),
    /// Esc: clear the line or the selection, or (with nothing to clear) ask to quit.
    Escape,
    Resign,
    Quit,
    /// Ctrl-C: quit at once (the record is still saved).
    Interrupt,
    Help,
}

/// The command of a key press; `typing` says whether the move line holds text.
pub fn command(key: &KeyEvent, typing: bool) -> Option<Command> {
    if key.kind == KeyEventKind::Release {
        return None;
    }
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        return (key.code == KeyCode::Char('c')).then_some(Command::Interrupt);
    }
    Some(match key.code {
        KeyCode::Char(' ') if typing => return None,
        KeyCode::Char(' ') => Command::Select,
        KeyCode::Char('r') if !typing => Command::Resign,
        KeyCode::Char('q') if !typing => Command::Quit,
        KeyCode::Char('?') if !typing => Command::Help,
        KeyCode::Char(c) => Command::Type(c),
        KeyCode::Backspace => Command::Backspace,
        KeyCode::Tab => Command::Complete,
        KeyCode::Enter => Command::Enter,
        KeyCode::Esc => Command::Escape,
        KeyCode::Up => Command::Cursor(Direction::Up),
        KeyCode::Down => Command::Cursor(Direction::Down),
        KeyCode::Left => Command::Cursor(Direction::Left),
        KeyCode::Right => Command::Cursor(Direction::Right),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(code: KeyCode) -> KeyEvent {
        KeyEvent::new(code, KeyModifiers::NONE)
    }

    #[test]
    fn letters_are_commands_only_on_an_empty_line() {
        assert_eq!(command(&key(KeyCode::Char('r')), false), Some(Command::Resign));
        assert_eq!(command(&key(KeyCode::Char('r')), true), Some(Command::Type('r')));
        assert_eq!(command(&key(KeyCode::Char('q')), false), Some(Command::Quit));
        assert_eq!(command(&key(KeyCode::Char('P')), false), Some(Command::Type('P')));
        assert_eq!(command(&KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL), true), Some(Command::Interrupt));
    }
}
