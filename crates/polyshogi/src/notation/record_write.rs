//! Writing game records: tags, the rule options, moves grouped by round in short text, events
//! as `{…}` comments, answers to proposed alliances, departures (resignations, time-outs,
//! agreed draws), and the result with each seat's place.

use super::describe::{event_text, result_tag};
use super::{departure, move_text};
use crate::game::Game;
use crate::mv::MoveList;
use crate::outcome::{Event, Events};
use crate::rules::Rules;

/// The record of `game`. `tags` are extra tag pairs (players, date, event), written after
/// `[Variant]` in the order given; `start_position` is the position string of a game that did
/// not begin from the variant's start.
pub fn write_record<P: Rules>(game: &Game<P>, tags: &[(String, String)], start_position: Option<&str>) -> String {
    let mut replay = Game::new(game.start().clone());
    let mut body = String::new();
    let mut placings = None;
    let mut previous_seat = None;
    let mut round = 0;
    let mut legal = MoveList::new();
    let mut decisions = game.decisions().iter().peekable();
    let mut departures = game.departures().iter().peekable();
    // What follows `played` moves: the answers to a proposal (each after the events that
    // led to it), then departures.
    let mut write_after = |played: usize, replay: &mut Game<P>, body: &mut String, mut events: Events| {
        while let Some(&&(_, accept)) = decisions.peek().filter(|(after, _)| *after == played) {
            decisions.next();
            write_events(body, replay.position(), &events, &mut placings);
            push_token(body, if accept { "accept" } else { "refuse" });
            events = replay.answer_pending(accept).unwrap_or_default();
        }
        write_events(body, replay.position(), &events, &mut placings);
        while let Some(&&(_, departure)) = departures.peek().filter(|(after, _)| *after == played) {
            departures.next();
            push_token(body, &departure::token(replay.position(), departure));
            let events = replay.depart(departure).unwrap_or_default();
            write_events(body, replay.position(), &events, &mut placings);
        }
    };
    // Answers and departures before the first move (a game that began with a proposal pending).
    write_after(0, &mut replay, &mut body, Events::new());
    for (index, &m) in game.moves().iter().enumerate() {
        let position = replay.position().clone();
        let seat = position.to_move();
        // A round starts whenever the turn comes round again to the same seat or an earlier one.
        if previous_seat.is_none_or(|p| seat <= p) {
            round += 1;
            if !body.is_empty() {
                body.push('\n');
            }
            body.push_str(&format!("{round}."));
        }
        previous_seat = Some(seat);
        replay.legal_moves(&mut legal);
        push_token(&mut body, &move_text::short(&position, &legal, m));
        let events = replay.play_unchecked(m);
        write_after(index + 1, &mut replay, &mut body, events);
    }
    let result = result_tag(replay.position(), placings);
    let mut text = format!("[Variant \"{}\"]\n", replay.position().variant().name());
    for (name, value) in tags {
        text.push_str(&format!("[{name} \"{}\"]\n", escape(value)));
    }
    let options = game.start().non_default_options();
    if !options.is_empty() {
        text.push_str(&format!("[Rules \"{}\"]\n", options.join(";")));
    }
    if let Some(note) = game.start().setup_note() {
        text.push_str(&format!("[SetupNote \"{}\"]\n", escape(note)));
    }
    if let Some(position) = start_position {
        text.push_str(&format!("[Position \"{}\"]\n", escape(position)));
    }
    text.push_str(&format!("[Result \"{result}\"]\n\n"));
    if !body.is_empty() {
        text.push_str(&body);
        text.push('\n');
    }
    text.push_str(&result);
    text.push('\n');
    text
}

/// Appends a token, after a space unless it opens the body.
fn push_token(body: &mut String, token: &str) {
    if !body.is_empty() {
        body.push(' ');
    }
    body.push_str(token);
}

fn write_events<P: Rules>(body: &mut String, pos: &P, events: &[Event], placings: &mut Option<crate::ByPlayer<u8>>) {
    for event in events {
        if let Event::GameOver { placings: p, .. } = event {
            *placings = Some(*p);
        }
        body.push_str(&format!(" {{{}}}", event_text(pos, event)));
    }
}

/// A tag value on one line: quotes, backslashes and line breaks escaped (`\"`, `\\`, `\n`, `\r`).
fn escape(value: &str) -> String {
    value.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n").replace('\r', "\\r")
}
