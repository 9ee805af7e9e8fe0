//! A game's two chats, the players' and the spectators': each line stored, then sent to the
//! channel's connections; the latest lines kept for those who join.

use polyshogi::player::Player;
use tokio::sync::broadcast;
use tracing::{error, warn};

use super::{now_ms, Room, SeatKind, UPDATES_KEPT};
use crate::chat::{ChatFeed, CHAT_HISTORY};
use crate::store::{ChatChannel, ChatLine};
use crate::tokens::new_game_id;
use crate::wire;

impl Room {
    /// Opens a connection's chat: the channel's latest lines (read once from storage), and a
    /// receiver of the lines after them.
    pub(super) async fn chat_join(&mut self, channel: ChatChannel) -> ChatFeed {
        if !self.chat_history.contains_key(&channel) {
            let lines = match self.store.chat_lines(&self.setup.id, channel, CHAT_HISTORY as i64).await {
                Ok(lines) => lines,
                Err(e) => {
                    warn!(game = %self.setup.id, "could not read the chat: {e}");
                    Vec::new()
                }
            };
            self.chat_history.insert(channel, lines.into());
        }
        let lines: Vec<wire::ChatLine> = self.chat_history[&channel].iter().map(|line| self.chat_view(line)).collect();
        let feed = self.chat_feeds.entry(channel).or_insert_with(|| broadcast::channel(UPDATES_KEPT).0);
        ChatFeed { history: crate::chat::message(lines), lines: feed.subscribe() }
    }

    /// Writes a chat line: stored, then sent to the channel's connections.
    pub(super) async fn chat(&mut self, seat: Option<Player>, account: Option<String>, text: String) -> Result<(), String> {
        let (channel, author) = match seat {
            Some(seat) => {
                let author = match &self.setup.seats[seat.index()] {
                    SeatKind::Human { player: Some(player), .. } => player.name.clone(),
                    _ => self.table.seat_name(seat).to_string(),
                };
                (ChatChannel::Players, author)
            }
            None => (ChatChannel::Spectators, account.ok_or("log in to chat as a spectator")?),
        };
        let text = crate::chat::checked_text(&text)?;
        if !self.chat_limits.allow(channel, &author) {
            return Err("slow down: one chat line a second".to_string());
        }
        let line = ChatLine { id: new_game_id(), channel, author, seat: seat.map(Player::index), text, created_ms: now_ms() };
        if let Err(e) = self.store.add_chat(&self.setup.id, &line).await {
            error!(game = %self.setup.id, "could not store a chat line: {e}");
            return Err("the server could not store your line; please try again".to_string());
        }
        self.add_chat_line(line);
        Ok(())
    }

    /// Keeps a new chat line among the latest, and sends it to its channel's connections.
    pub(super) fn add_chat_line(&mut self, line: ChatLine) {
        let view = self.chat_view(&line);
        if let Some(history) = self.chat_history.get_mut(&line.channel) {
            if history.iter().any(|l| l.id == line.id) {
                return;
            }
            history.push_back(line.clone());
            if history.len() > CHAT_HISTORY {
                history.pop_front();
            }
        }
        if let Some(feed) = self.chat_feeds.get(&line.channel) {
            let _ = feed.send(crate::chat::message(vec![view]));
        }
    }

    fn chat_view(&self, line: &ChatLine) -> wire::ChatLine {
        wire::ChatLine {
            channel: line.channel.name().to_string(),
            author: line.author.clone(),
            seat: line.seat.and_then(Player::from_index).map(|s| self.table.seat_name(s).to_string()),
            text: line.text.clone(),
            ms: line.created_ms,
        }
    }
}
