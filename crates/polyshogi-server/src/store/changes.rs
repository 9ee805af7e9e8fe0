//! What the server processes sharing one PostgreSQL tell each other, through PostgreSQL itself:
//! `NOTIFY` on one channel, heard by a `LISTEN`ing connection in each process. A notification is
//! the sender's instance name on its first line and one change per line after it.
//!
//! Each process's listening connection carries its instance name as its `application_name`, so
//! that the processes serving a database are those `pg_stat_activity` shows: a killed process's
//! connection closes, and it leaves the list at once.

use sqlx::postgres::PgListener;
use tokio::sync::mpsc;
use tracing::warn;

/// The channel every process listens on.
pub(super) const CHANNEL: &str = "polyshogi_changes";
/// What begins the `application_name` of a listening connection; the instance name follows.
pub(super) const APPLICATION_PREFIX: &str = "polyshogi-";
/// PostgreSQL refuses payloads of 8,000 bytes or more.
const MAX_PAYLOAD: usize = 7_000;
/// How long the listener waits before trying again after PostgreSQL could not be reached.
const RECONNECT_PAUSE: std::time::Duration = std::time::Duration::from_secs(1);

/// A change made by another server process.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Change {
    /// An action of a game was stored, at `seq`; the game must wake at `wake_ms` after it.
    Stored { game_id: String, seq: i64, wake_ms: Option<i64> },
    /// How many connections process `instance` holds to each seat of a game, by seat index.
    Presence { game_id: String, instance: String, connected: Vec<u32> },
    /// Process `instance` has just loaded a game and asks who is connected to it.
    AskPresence { game_id: String, instance: String },
    /// A line was written in a game's chat (stored, with id `line_id`).
    Chat { game_id: String, line_id: String },
    /// The listening connection was lost for a while: changes may have been missed.
    Missed,
}

/// The notification payloads that carry `changes` from `instance`, each short enough for
/// PostgreSQL.
pub(super) fn encode(instance: &str, changes: &[Change]) -> Vec<String> {
    let mut payloads = Vec::new();
    let mut payload = String::new();
    for change in changes {
        let line = match change {
            Change::Stored { game_id, seq, wake_ms } => {
                format!("stored {game_id} {seq} {}", wake_ms.map_or("-".to_string(), |w| w.to_string()))
            }
            Change::Presence { game_id, connected, .. } => {
                let counts: Vec<String> = connected.iter().map(u32::to_string).collect();
                format!("presence {game_id} {}", counts.join(","))
            }
            Change::AskPresence { game_id, .. } => format!("ask_presence {game_id}"),
            Change::Chat { game_id, line_id } => format!("chat {game_id} {line_id}"),
            Change::Missed => continue,
        };
        if !payload.is_empty() && payload.len() + line.len() + 1 > MAX_PAYLOAD {
            payloads.push(std::mem::take(&mut payload));
        }
        if payload.is_empty() {
            payload.push_str(instance);
        }
        payload.push('\n');
        payload.push_str(&line);
    }
    if !payload.is_empty() {
        payloads.push(payload);
    }
    payloads
}

/// The changes a payload carries, unless `me` sent it; lines that cannot be read are skipped.
pub(super) fn decode(payload: &str, me: &str) -> Vec<Change> {
    let mut lines = payload.lines();
    let Some(sender) = lines.next().filter(|sender| *sender != me) else { return Vec::new() };
    lines.filter_map(|line| decode_line(line, sender)).collect()
}

fn decode_line(line: &str, sender: &str) -> Option<Change> {
    let words: Vec<&str> = line.split(' ').collect();
    match words.as_slice() {
        ["stored", game_id, seq, wake_ms] => Some(Change::Stored {
            game_id: game_id.to_string(),
            seq: seq.parse().ok()?,
            wake_ms: if *wake_ms == "-" { None } else { Some(wake_ms.parse().ok()?) },
        }),
        ["presence", game_id, counts] => Some(Change::Presence {
            game_id: game_id.to_string(),
            instance: sender.to_string(),
            connected: counts.split(',').map(str::parse).collect::<Result<_, _>>().ok()?,
        }),
        ["chat", game_id, line_id] => Some(Change::Chat { game_id: game_id.to_string(), line_id: line_id.to_string() }),
        ["ask_presence", game_id] => Some(Change::AskPresence { game_id: game_id.to_string(), instance: sender.to_string() }),
        _ => None,
    }
}

/// Opens the listening connection of process `instance` to `url` (PostgreSQL).
pub(super) async fn connect_listener(url: &str, instance: &str) -> Result<PgListener, sqlx::Error> {
    let separator = if url.contains('?') { '&' } else { '?' };
    let mut listener = PgListener::connect(&format!("{url}{separator}application_name={APPLICATION_PREFIX}{instance}")).await?;
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

/// Passes on every change the other processes announce, until the receiver is dropped. The
/// listener connects again by itself after a loss, which is passed on as `Missed`.
pub(super) async fn listen(mut listener: PgListener, instance: String, changes: mpsc::UnboundedSender<Change>) {
    loop {
        let received = tokio::select! {
            // The server stopped: the connection closes, and the other processes see it gone.
            _ = changes.closed() => return,
            received = listener.try_recv() => received,
        };
        let heard = match received {
            Ok(Some(notification)) => decode(notification.payload(), &instance),
            Ok(None) => vec![Change::Missed],
            Err(e) => {
                warn!("cannot hear the other server processes: {e}");
                tokio::time::sleep(RECONNECT_PAUSE).await;
                vec![Change::Missed]
            }
        };
        for change in heard {
            if changes.send(change).is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_pass_through_payloads_and_a_process_skips_its_own() {
        let changes = vec![
            Change::Stored { game_id: "g1".into(), seq: 7, wake_ms: Some(1_700_000_000_123) },
            Change::Stored { game_id: "g2".into(), seq: 0, wake_ms: None },
            Change::Presence { game_id: "g1".into(), instance: "a".into(), connected: vec![1, 0, 2] },
            Change::AskPresence { game_id: "g3".into(), instance: "a".into() },
        ];
        let payloads = encode("a", &changes);
        assert_eq!(payloads.len(), 1);
        assert_eq!(decode(&payloads[0], "b"), changes);
        assert!(decode(&payloads[0], "a").is_empty());
    }

    #[test]
    fn many_changes_are_split_into_payloads_postgres_accepts() {
        let changes: Vec<Change> =
            (0..2_000).map(|seq| Change::Stored { game_id: format!("game{seq:08}"), seq, wake_ms: None }).collect();
        let payloads = encode("a", &changes);
        assert!(payloads.len() > 1);
        assert!(payloads.iter().all(|p| p.len() < MAX_PAYLOAD));
        let heard: Vec<Change> = payloads.iter().flat_map(|p| decode(p, "b")).collect();
        assert_eq!(heard, changes);
    }

    #[test]
    fn unreadable_lines_are_skipped() {
        let heard = decode("a\nstored g1 x -\nnonsense\nstored g2 3 -", "b");
        assert_eq!(heard, vec![Change::Stored { game_id: "g2".into(), seq: 3, wake_ms: None }]);
    }
}
