//! 10,000 random and mutated WebSocket messages, from a seat's connection and a spectator's,
//! against a real server: nothing crashes, every message gets exactly one answer, and every
//! change of the game is explained by a message that was legitimately valid.
//!
//! The game has three human seats and no clock, so nothing changes it but its players. First's
//! connection is fuzzed, and the test plays Middle's and Last's moves itself, so that First is
//! to move whenever the fuzzer speaks and his mutated moves can be legal. After each fuzzed
//! message the test reads the answer: an error (refused), or a state that differs from the one
//! it knew (accepted). An accepted message must be one that the protocol says is valid in that
//! state (a legal move of First's, a first resignation, offer or takeback request, ...), and the
//! state must show exactly that change; the spectator's messages must all be refused.

mod common;

use std::time::Duration;

use common::*;
use polyshogi_server::{Rate, ServerConfig};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{json, Value};

const MESSAGES: usize = 10_000;
/// The server's message limit: the fuzzer stays under it, as a longer message ends the
/// connection (tests/limits.rs checks that).
const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// A message to send, and whether it could be valid at all.
struct Fuzzed {
    text: Option<String>,
    binary: Option<Vec<u8>>,
    /// Built to be invalid (a repeated key, a prefix of an object, a nesting, a wrong type, an
    /// unknown type, binary): the server must refuse it, whatever the state.
    must_be_refused: bool,
}

/// What First may validly send, with content: the protocol's every message type.
fn valid_messages(state: &Value, token: &str, rng: &mut StdRng) -> Vec<Value> {
    let legal: Vec<&str> = state["legal_moves"].as_array().unwrap().iter().map(|m| m.as_str().unwrap()).collect();
    let mut messages = vec![
        json!({ "type": "hello", "token": token }),
        json!({ "type": "hello", "token": null }),
        json!({ "type": "offer_draw" }),
        json!({ "type": "decline_draw", "seat": "First" }),
        json!({ "type": "takeback" }),
        json!({ "type": "takeback_answer", "accept": rng.gen::<bool>() }),
        json!({ "type": "alliance", "accept": rng.gen::<bool>() }),
        json!({ "type": "decline_rematch" }),
        json!({ "type": "rematch" }),
    ];
    // Resigning ends the interesting part: rarely.
    if rng.gen_ratio(1, 200) {
        messages.push(json!({ "type": "resign", "seat": "First" }));
    }
    for _ in 0..6 {
        if let Some(m) = legal.get(rng.gen_range(0..legal.len().max(1))) {
            messages.push(json!({ "type": "move", "move": m }));
        }
    }
    messages
}

const ODD_TEXTS: &[&str] =
    &["", " ", "\u{0}", "é", "😀", "\u{202e}", "\u{feff}", "\u{200b}", "ｍｏｖｅ", "P3c‐4d", "\\", "\"", "null", "NaN"];
const ODD_JSON: &[&str] = &[
    "null",
    "true",
    "0",
    "-0",
    "1e999",
    "-1e999",
    "18446744073709551616",
    "123456789012345678901234567890",
    "1.7976931348623157e308",
    "5e-324",
    "[]",
    "{}",
    "\"\"",
    "[null]",
    "{\"\":null}",
    "\"\\ud800\"",
    "\"\\u0000\"",
];

fn random_unicode(rng: &mut StdRng) -> String {
    (0..rng.gen_range(1..8))
        .map(|_| match rng.gen_range(0..4) {
            0 => ODD_TEXTS[rng.gen_range(0..ODD_TEXTS.len())].to_string(),
            1 => char::from_u32(rng.gen_range(0..0x11_0000)).map(String::from).unwrap_or_default(),
            2 => (rng.gen_range(b' '..=b'~') as char).to_string(),
            _ => char::from_u32(rng.gen_range(0x80..0x800)).map(String::from).unwrap_or_default(),
        })
        .collect()
}

fn mutate(valid: &Value, rng: &mut StdRng) -> Fuzzed {
    let text = valid.to_string();
    let fuzzed = |text: String, must_be_refused: bool| Fuzzed { text: Some(text), binary: None, must_be_refused };
    match rng.gen_range(0..12) {
        0 => fuzzed(text, false),
        // Bit flips; what is no longer UTF-8 goes as a binary frame or with replacement characters.
        1 => {
            let mut bytes = text.into_bytes();
            for _ in 0..rng.gen_range(1..4) {
                let at = rng.gen_range(0..bytes.len());
                bytes[at] ^= 1 << rng.gen_range(0..8);
            }
            match String::from_utf8(bytes) {
                Ok(text) => fuzzed(text, false),
                Err(e) if rng.gen() => Fuzzed { text: None, binary: Some(e.into_bytes()), must_be_refused: true },
                Err(e) => fuzzed(String::from_utf8_lossy(e.as_bytes()).into_owned(), false),
            }
        }
        // A strict prefix of an object is never JSON.
        2 => {
            let cut = rng.gen_range(0..text.len());
            let cut = (0..=cut).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
            fuzzed(text[..cut].to_string(), true)
        }
        // A wrong type where the message needs its field.
        3 => {
            let mut message = valid.clone();
            let field = match message["type"].as_str() {
                Some("move") => "move",
                Some("alliance") | Some("takeback_answer") => "accept",
                _ => "type",
            };
            let wrong: Value = serde_json::from_str(ODD_JSON[rng.gen_range(0..ODD_JSON.len())]).unwrap_or(Value::Null);
            let wrong = match (field, &wrong) {
                // A string is the right type for these: make it a number.
                ("move" | "type", Value::String(_)) => json!(rng.gen::<i64>()),
                _ => wrong,
            };
            // Only `true` and `false` are right for "accept".
            let must_be_refused = !(field == "accept" && wrong.is_boolean());
            message[field] = wrong;
            fuzzed(message.to_string(), must_be_refused)
        }
        // Huge and odd numbers, spliced in as raw text.
        4 => {
            let number = ODD_JSON[rng.gen_range(0..7)];
            let at = text.rfind('}').unwrap();
            fuzzed(format!("{},\"n{}\":{number}}}", &text[..at], rng.gen::<u8>()), false)
        }
        // Unicode in the values and in new keys.
        5 => {
            let mut message = valid.clone();
            let object = message.as_object_mut().unwrap();
            if let Some((_, value)) = object.iter_mut().find(|(key, value)| *key != "type" && value.is_string()) {
                let mut changed = value.as_str().unwrap().to_string();
                let at = (0..=rng.gen_range(0..=changed.len())).rev().find(|&i| changed.is_char_boundary(i)).unwrap();
                changed.insert_str(at, &random_unicode(rng));
                *value = Value::String(changed);
            }
            object.insert(random_unicode(rng), json!(random_unicode(rng)));
            fuzzed(message.to_string(), false)
        }
        // Deep nesting, in an array or under a key.
        6 => {
            let depth = rng.gen_range(1..400);
            if rng.gen() {
                fuzzed(format!("{}{text}{}", "[".repeat(depth), "]".repeat(depth)), true)
            } else {
                let at = text.rfind('}').unwrap();
                let nested = format!("{}1{}", "{\"a\":".repeat(depth), "}".repeat(depth));
                // Deeper than the reader goes (128 levels) is refused; shallower is an extra field.
                fuzzed(format!("{},\"deep\":{nested}}}", &text[..at]), depth > 130)
            }
        }
        // A repeated key.
        7 => {
            let at = text.rfind('}').unwrap();
            let repeated = ["type", "move", "seat", "token", "accept"][rng.gen_range(0..5)];
            let (key, value) = match valid.get(repeated) {
                Some(value) => (repeated, value),
                None => ("type", &valid["type"]),
            };
            fuzzed(format!("{},\"{key}\":{value}}}", &text[..at]), true)
        }
        // An unknown type.
        8 => {
            let mut message = valid.clone();
            let suffix = Some(random_unicode(rng)).filter(|s| !s.is_empty()).unwrap_or_else(|| "s".into());
            message["type"] = json!(format!("{}{suffix}", message["type"].as_str().unwrap_or("")));
            fuzzed(message.to_string(), true)
        }
        // Another seat named.
        9 => {
            let mut message = valid.clone();
            message["seat"] = json!(["Middle", "Last", "first", "", "Gray"][rng.gen_range(0..5)]);
            // The seat's connection has said hello already, so even a hello is refused.
            fuzzed(message.to_string(), true)
        }
        // Random bytes as a binary frame, or random text.
        10 => {
            if rng.gen() {
                let bytes = (0..rng.gen_range(0..64)).map(|_| rng.gen()).collect();
                Fuzzed { text: None, binary: Some(bytes), must_be_refused: true }
            } else {
                fuzzed(random_unicode(rng), false)
            }
        }
        // A long string value, under the message limit.
        _ => {
            let mut message = valid.clone();
            message["padding"] = json!("x".repeat(rng.gen_range(0..MAX_MESSAGE_BYTES - 200)));
            fuzzed(message.to_string(), false)
        }
    }
}

/// The answer to one message on `client`: `Err(error)` if refused, `Ok(new game)` if a state or
/// update that makes the game differ from `known` came instead. Those that leave it as `known`
/// are late broadcasts.
async fn answer(client: &mut Client, known: &Value, sent: &str) -> Result<Value, String> {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let Some(message) = client.next_before(deadline).await else {
            panic!("no answer to {sent}\nin the state {known}");
        };
        match message["type"].as_str() {
            Some("error") => return Err(message["message"].as_str().unwrap().to_string()),
            Some("state" | "update") if steady(client.game()) == steady(known) => continue,
            Some("state" | "update") => return Ok(client.game().clone()),
            _ => panic!("unexpected message {message}"),
        }
    }
}

/// Reads `client`'s messages until it has seen `target` (states come coalesced, so some are
/// skipped).
async fn catch_up(client: &mut Client, target: &Value) {
    client.until_state("the latest state", |state| steady(state) == steady(target)).await;
}

/// Why a message that `before` accepted, turning it into `after`, was legitimately valid;
/// panics if it was not.
fn check_accepted(text: &str, before: &Value, after: &Value) {
    let message: Value = serde_json::from_str(text).unwrap_or_else(|e| panic!("accepted non-JSON ({e}): {text:?}"));
    let seat = message.get("seat");
    assert!(seat.is_none() || seat == Some(&json!("First")) || seat == Some(&Value::Null), "accepted for another seat: {text}");
    let first_active = |state: &Value| seat_entry(state, "First")["active"] == true;
    match message["type"].as_str() {
        Some("move") => {
            let sent = message["move"].as_str().unwrap_or_else(|| panic!("accepted a move without text: {text}"));
            assert_eq!(before["to_move"], "First", "a move accepted out of turn: {text}");
            let (before_moves, after_moves) = (moves(before), moves(after));
            assert_eq!(after_moves.len(), before_moves.len() + 1, "{text}");
            assert_eq!(after_moves[..before_moves.len()], before_moves[..], "{text}");
            let played = after["moves"].as_array().unwrap().last().unwrap();
            let legal: Vec<&Value> = before["legal_moves"].as_array().unwrap().iter().collect();
            assert!(legal.contains(&&played["move"]), "an illegal move was played for {text}: {played}");
            assert!(
                [&played["move"], &played["short"]].iter().any(|t| t.as_str() == Some(sent.trim())),
                "the move played, {played}, is not the one sent: {text}"
            );
        }
        Some("resign") => assert!(first_active(before) && !first_active(after), "{text}"),
        Some("offer_draw") => {
            assert!(!before["draw_offered_by"].as_array().unwrap().contains(&json!("First")), "{text}");
            assert!(
                after["draw_offered_by"].as_array().unwrap().contains(&json!("First")) || !after["outcome"].is_null(),
                "{text}"
            );
        }
        Some("takeback") => {
            assert!(before["takeback"].is_null() && after["takeback"]["by"] == "First", "{text}: {}", after["takeback"]);
        }
        // A rematch asked for or declined is stored after the game's end: no move is made.
        Some("rematch") => {
            assert!(!before["outcome"].is_null(), "{text}");
            assert!(!before["rematch"]["offered_by"].as_array().unwrap().contains(&json!("First")), "asked twice: {text}");
            assert!(after["rematch"]["offered_by"].as_array().unwrap().contains(&json!("First")), "{text}");
            assert_eq!(moves(after), moves(before), "{text}");
        }
        Some("decline_rematch") => {
            assert!(!before["rematch"]["offered_by"].as_array().unwrap().is_empty(), "{text}");
            assert_eq!(after["rematch"]["offered_by"], json!([]), "{text}");
            assert_eq!(moves(after), moves(before), "{text}");
        }
        _ => panic!("accepted a message that is never valid for First here: {text}\nbefore: {before}\nafter: {after}"),
    }
    assert!(after["version"].as_u64() > before["version"].as_u64(), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn random_and_mutated_messages_change_nothing_they_should_not() {
    let dir = tempfile::tempdir().unwrap();
    let mut config: ServerConfig = test_config(&format!("sqlite:{}", dir.path().join("fuzz.db").display()));
    config.limits.seat_messages = Rate::per_second(1_000_000);
    // The players the test moves for listen only when they move: they would not answer pings.
    config.limits.idle_timeout = Duration::from_secs(3600);
    let server = TestServer::start_config(config).await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap();
    let first_token = token(&created, 0);
    // The players the test moves for, then the fuzzed seat, then the fuzzed spectator.
    let mut others = [server.connect(id, Some(&token(&created, 1))).await, server.connect(id, Some(&token(&created, 2))).await];
    let mut seat = server.connect(id, Some(&first_token)).await;
    let mut spectator = server.connect(id, None).await;
    let mut known = server.state(id).await;
    for client in [&mut seat, &mut spectator] {
        catch_up(client, &known).await;
    }

    let mut rng = StdRng::seed_from_u64(0x5eed_0015);
    let (mut accepted, mut refused, mut driven) = (0, 0, 0);
    for n in 0..MESSAGES {
        let from_seat = rng.gen_ratio(7, 10);
        let valid = valid_messages(&known, &first_token, &mut rng);
        let fuzzed = mutate(&valid[rng.gen_range(0..valid.len())], &mut rng);
        let client = if from_seat { &mut seat } else { &mut spectator };
        match (&fuzzed.text, &fuzzed.binary) {
            (Some(text), _) => client.send_text(text).await,
            (None, Some(bytes)) => client.send_binary(bytes).await,
            (None, None) => unreachable!(),
        }
        let shown = fuzzed.text.clone().unwrap_or_else(|| format!("binary {:?}", fuzzed.binary));
        match answer(client, &known, &shown).await {
            Err(error) => {
                assert_ne!(error, "slow down", "message {n}");
                refused += 1;
            }
            Ok(after) => {
                assert!(from_seat, "message {n} from the spectator changed the game: {shown}\nnow: {after}");
                assert!(!fuzzed.must_be_refused, "message {n} was accepted: {shown}");
                check_accepted(fuzzed.text.as_deref().unwrap(), &known, &after);
                accepted += 1;
                known = after;
                // Middle and Last answer with legal moves until First is to move again.
                let driven_before = driven;
                while known["outcome"].is_null() && known["to_move"] != "First" {
                    let mover = if known["to_move"] == "Middle" { 0 } else { 1 };
                    let legal = known["legal_moves"].as_array().unwrap();
                    let chosen = legal[rng.gen_range(0..legal.len())].clone();
                    others[mover].send(json!({ "type": "move", "move": chosen })).await;
                    let version = known["version"].as_u64().unwrap();
                    known = others[mover].until_state("the move", |s| s["version"].as_u64().unwrap() > version).await;
                    driven += 1;
                }
                // The seat has seen the state its message made; the others' moves it has not.
                if driven > driven_before {
                    catch_up(&mut seat, &known).await;
                }
                catch_up(&mut spectator, &known).await;
            }
        }
    }
    // Nothing else changed the game, and what the server keeps is what the test saw.
    assert_eq!(steady(&server.state(id).await), steady(&known));
    assert_eq!(server.get("/health").await.status(), 200);
    for client in [&mut seat, &mut spectator] {
        client.send(json!({ "type": "hello", "token": null })).await;
        assert_eq!(answer(client, &known, "a second hello").await, Err("this connection has said hello already".to_string()));
    }
    assert_eq!(accepted + refused, MESSAGES);
    assert!(accepted > 0 && driven > 0, "accepted {accepted}, driven {driven}: the fuzzer never got past the first move");
}
