//! A game's move list as the game state shows it, kept up to date action by action (rather
//! than rebuilt on each change), and what changed in it since the last update was sent.

use crate::table::{EntryKind, LogEntry, Table};
use crate::wire::MoveEntry;

#[derive(Clone, Debug, Default)]
pub struct MoveLog {
    moves: Vec<MoveEntry>,
    /// The events before the first move.
    opening: Vec<String>,
    /// The first entry changed (or removed) since `take_changes`.
    changed_from: usize,
}

impl MoveLog {
    /// Adds what an action did. A move is an entry of its own; what else happens (answers,
    /// resignations, flags, draws) is told among the events of the move before it (before the
    /// first move: among the opening events), and a takeback first removes the moves it undid.
    pub fn record(&mut self, entries: Vec<LogEntry>, table: &Table) {
        for entry in entries {
            match entry.kind {
                EntryKind::Move { canonical, short } => {
                    self.changed(self.moves.len());
                    self.moves.push(MoveEntry {
                        ply: self.moves.len() + 1,
                        seat: table.seat_name(entry.seat).to_string(),
                        canonical,
                        short,
                        events: entry.events,
                    });
                }
                kind => {
                    if let EntryKind::Takeback { to_plies } = kind {
                        self.moves.truncate(to_plies);
                        self.changed(to_plies);
                    }
                    match self.moves.last_mut() {
                        None => self.opening.extend(entry.events),
                        Some(_) if entry.events.is_empty() => {}
                        Some(last) => {
                            last.events.extend(entry.events);
                            self.changed(self.moves.len() - 1);
                        }
                    }
                }
            }
        }
    }

    pub fn moves(&self) -> &[MoveEntry] {
        &self.moves
    }

    pub fn opening_events(&self) -> &[String] {
        &self.opening
    }

    /// The moves changed since the last call, from which index on; they count as sent after.
    pub fn take_changes(&mut self) -> (usize, &[MoveEntry]) {
        let from = self.changed_from.min(self.moves.len());
        self.changed_from = self.moves.len();
        (from, &self.moves[from..])
    }

    fn changed(&mut self, index: usize) {
        self.changed_from = self.changed_from.min(index);
    }
}
