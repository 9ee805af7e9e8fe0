//! docs/API.md against the server: every JSON example is the wire type its marker names and
//! writes back unchanged, every wire type has an example, and what a real server sends has the
//! fields of the documented examples, so that the doc and the server cannot drift apart.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::*;
use polyshogi_server::wire::{self, ClientAction, ServerMessage};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

const API_MD: &str = include_str!("../../../docs/API.md");
const WIRE_RS: &str = include_str!("../src/wire.rs");

/// Checks that a JSON value is exactly one value of a wire type.
type Check = fn(&Value) -> Result<(), String>;

/// Each marker of docs/API.md (`<!-- wire: marker -->` on the line before a JSON block), the
/// wire type its examples document, as wire.rs names it, and the check of an example.
const DOCUMENTS: &[(&str, &str, Check)] = &[
    ("error", "ErrorBody", exactly::<wire::ErrorBody>),
    ("variants", "VariantInfo", exactly::<Vec<wire::VariantInfo>>),
    ("levels", "LevelInfo", exactly::<Vec<wire::LevelInfo>>),
    ("layout", "Layout", exactly::<wire::Layout>),
    ("pieces", "PieceMoves", exactly::<Vec<wire::PieceMoves>>),
    ("new_game", "NewGame", exactly::<wire::NewGame>),
    ("created", "Created", exactly::<wire::Created>),
    ("game_state", "GameState", exactly::<wire::GameState>),
    ("takeback", "TakebackView", exactly::<wire::TakebackView>),
    ("rematch", "RematchView", exactly::<wire::RematchView>),
    ("position", "PositionAt", exactly::<wire::PositionAt>),
    ("server_message", "ServerMessage", exactly::<ServerMessage>),
    ("client_message", "ClientMessage", exactly::<wire::ClientMessage>),
    ("credentials", "Credentials", exactly::<wire::Credentials>),
    ("account", "AccountView", exactly::<wire::AccountView>),
    ("taken_seat", "TakenSeat", exactly::<wire::TakenSeat>),
    ("lobby", "Lobby", exactly::<wire::Lobby>),
    ("lobby_message", "LobbyMessage", exactly::<wire::LobbyMessage>),
    ("game_list", "GameList", exactly::<wire::GameList>),
    ("player", "PlayerProfile", exactly::<wire::PlayerProfile>),
    ("study_request", "StudyRequest", exactly::<wire::StudyRequest>),
    ("study_position", "StudyPosition", exactly::<wire::StudyPosition>),
    ("analysis_request", "AnalysisRequest", exactly::<wire::AnalysisRequest>),
    ("analysis_message", "AnalysisMessage", exactly::<wire::AnalysisMessage>),
    ("review", "Review", exactly::<wire::Review>),
];

/// The wire types met only inside the documented ones.
const PARTS: &[&str] = &[
    "RuleOption",
    "LayoutCell",
    "CellShape",
    "Centre",
    "Clock",
    "Occupant",
    "CreatedSeat",
    "SeatAccess",
    "SeatState",
    "TableView",
    "DrawnPosition",
    "BoardPiece",
    "MoveEntry",
    "GameUpdate",
    "AllianceView",
    "OutcomeView",
    "ClientAction",
    "SeatPlayer",
    "ChatLine",
    "LobbyGame",
    "ListedSeat",
    "FinishedGame",
    "FinishedSeat",
    "PlayerName",
    "VariantRating",
    "RatingPoint",
    "StudyMoves",
    "StudyRecord",
    "AnalysisReport",
    "AnalysisLine",
    "ReviewPly",
];

/// Reads `value` as a `T` and writes it back: a field the type does not know (documented but
/// never sent), a missing one or another spelling makes the two differ.
fn exactly<T: DeserializeOwned + Serialize>(value: &Value) -> Result<(), String> {
    let parsed: T = serde_json::from_value(value.clone()).map_err(|e| format!("does not parse: {e}"))?;
    let written = serde_json::to_value(&parsed).map_err(|e| format!("cannot be written: {e}"))?;
    match difference(value, &written, "") {
        None => Ok(()),
        Some(difference) => Err(format!("reads back differently: {difference}")),
    }
}

/// The first place where two values differ, and how.
fn difference(given: &Value, written: &Value, place: &str) -> Option<String> {
    match (given, written) {
        (Value::Object(given), Value::Object(written)) => {
            let keys: BTreeSet<&String> = given.keys().chain(written.keys()).collect();
            keys.into_iter().find_map(|key| {
                let inner = format!("{place}.{key}");
                match (given.get(key), written.get(key)) {
                    (Some(g), Some(w)) => difference(g, w, &inner),
                    (Some(_), None) => Some(format!("`{inner}` is lost")),
                    (None, _) => Some(format!("`{inner}` is added")),
                }
            })
        }
        (Value::Array(given), Value::Array(written)) if given.len() == written.len() => {
            given.iter().zip(written).enumerate().find_map(|(i, (g, w))| difference(g, w, &format!("{place}[{i}]")))
        }
        _ => (given != written).then(|| format!("`{place}` {given} becomes {written}")),
    }
}

/// A JSON example of docs/API.md.
struct Example {
    marker: String,
    /// The line of its opening fence.
    line: usize,
    json: Value,
}

/// Every ```json block of docs/API.md with the marker on the line before it.
fn examples() -> Vec<Example> {
    let lines: Vec<&str> = API_MD.lines().collect();
    let mut examples = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim() != "```json" {
            i += 1;
            continue;
        }
        let line = i + 1;
        let marker = i
            .checked_sub(1)
            .and_then(|before| lines[before].trim().strip_prefix("<!-- wire:"))
            .and_then(|rest| rest.strip_suffix("-->"))
            .map(|name| name.trim().to_string())
            .unwrap_or_else(|| panic!("docs/API.md:{line}: a JSON block without `<!-- wire: … -->` on the line before"));
        let end = (i + 1..lines.len())
            .find(|&j| lines[j].trim() == "```")
            .unwrap_or_else(|| panic!("docs/API.md:{line}: the JSON block is not closed"));
        let text = lines[i + 1..end].join("\n");
        let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("docs/API.md:{line}: not JSON: {e}"));
        examples.push(Example { marker, line, json });
        i = end + 1;
    }
    examples
}

fn check_of(marker: &str) -> Option<Check> {
    DOCUMENTS.iter().find(|(m, _, _)| *m == marker).map(|(_, _, check)| *check)
}

#[test]
fn every_example_is_exactly_the_wire_type_it_documents() {
    let examples = examples();
    assert!(examples.len() >= DOCUMENTS.len(), "only {} examples", examples.len());
    let failures: Vec<String> = examples
        .iter()
        .filter_map(|example| {
            let check = check_of(&example.marker).unwrap_or_else(|| {
                panic!("docs/API.md:{}: unknown marker `{}` (known: {:?})", example.line, example.marker, markers())
            });
            check(&example.json).err().map(|e| format!("docs/API.md:{} ({}): {e}", example.line, example.marker))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn markers() -> Vec<&'static str> {
    DOCUMENTS.iter().map(|(m, _, _)| *m).collect()
}

/// The `type` of a server message. The match stops compiling when a message is added: add it
/// to `SERVER_TYPES` and give it an example.
fn server_type(message: &ServerMessage) -> &'static str {
    match message {
        ServerMessage::State { .. } => "state",
        ServerMessage::Update { .. } => "update",
        ServerMessage::Error { .. } => "error",
        ServerMessage::Chat { .. } => "chat",
    }
}

const SERVER_TYPES: [&str; 4] = ["state", "update", "error", "chat"];

/// The `type` of a client message; like `server_type`.
fn client_type(action: &ClientAction) -> &'static str {
    match action {
        ClientAction::Hello { .. } => "hello",
        ClientAction::Move { .. } => "move",
        ClientAction::Resign => "resign",
        ClientAction::OfferDraw => "offer_draw",
        ClientAction::DeclineDraw => "decline_draw",
        ClientAction::Takeback => "takeback",
        ClientAction::TakebackAnswer { .. } => "takeback_answer",
        ClientAction::Alliance { .. } => "alliance",
        ClientAction::Rematch => "rematch",
        ClientAction::DeclineRematch => "decline_rematch",
        ClientAction::Chat { .. } => "chat",
    }
}

const CLIENT_TYPES: [&str; 11] = [
    "chat",
    "hello",
    "move",
    "resign",
    "offer_draw",
    "decline_draw",
    "takeback",
    "takeback_answer",
    "alliance",
    "rematch",
    "decline_rematch",
];

#[test]
fn every_wire_type_and_message_has_an_example() {
    let examples = examples();
    for marker in markers() {
        assert!(examples.iter().any(|e| e.marker == marker), "docs/API.md has no `{marker}` example");
    }
    let defined: BTreeSet<&str> = WIRE_RS
        .lines()
        .filter_map(|line| line.strip_prefix("pub struct ").or_else(|| line.strip_prefix("pub enum ")))
        .filter_map(|rest| rest.split([' ', '{', '<', '(']).next())
        .collect();
    let documented: BTreeSet<&str> = DOCUMENTS.iter().map(|(_, name, _)| *name).filter(|n| !n.is_empty()).collect();
    for name in &defined {
        assert!(
            documented.contains(name) || PARTS.contains(name),
            "wire::{name} is neither documented by an example nor listed among the parts of one"
        );
    }
    for name in documented.iter().chain(PARTS) {
        assert!(defined.contains(name), "wire::{name} is listed here but not defined in wire.rs");
    }

    let of = |marker: &'static str| examples.iter().filter(move |e| e.marker == marker).map(|e| e.json.clone());
    let server: BTreeSet<&str> =
        of("server_message").map(|v| server_type(&serde_json::from_value(v).expect("a server message"))).collect();
    assert_eq!(server, BTreeSet::from(SERVER_TYPES), "server messages with an example");
    let client: BTreeSet<&str> = of("client_message")
        .map(|v| client_type(&serde_json::from_value::<wire::ClientMessage>(v).expect("a client message").action))
        .collect();
    assert_eq!(client, BTreeSet::from(CLIENT_TYPES), "client messages with an example");
}

#[test]
fn a_field_the_wire_type_lacks_fails_the_check() {
    // The checks of this file are only as good as this: a documented field the server never
    // sends, or a renamed one, must not pass.
    let error = json!({ "error": "no game `x`" });
    assert!(exactly::<wire::ErrorBody>(&error).is_ok());
    assert!(exactly::<wire::ErrorBody>(&json!({ "error": "x", "code": 404 })).is_err());
    assert!(exactly::<wire::ErrorBody>(&json!({ "message": "x" })).is_err());
    let mv = json!({ "type": "move", "move": "P3c-4d" });
    assert!(exactly::<wire::ClientMessage>(&mv).is_ok());
    assert!(exactly::<wire::ClientMessage>(&json!({ "type": "move", "move": "P3c-4d", "promote": true })).is_err());
}

/// The keys of the objects in `value` by place: `` for the top, `seats[]` for the entries of
/// a list (merged), `outcome` for a member. Objects keyed by data (seat names, piece letters)
/// have the one key `*` when they are not empty, and are not looked into.
fn keys_by_place(value: &Value, place: &str, keys: &mut BTreeMap<String, BTreeSet<String>>) {
    match value {
        Value::Object(object) if keyed_by_data(place) => {
            keys.entry(place.to_string()).or_default().extend((!object.is_empty()).then(|| "*".to_string()));
        }
        Value::Object(object) => {
            keys.entry(place.to_string()).or_default().extend(object.keys().cloned());
            for (key, member) in object {
                let inner = if place.is_empty() { key.clone() } else { format!("{place}.{key}") };
                keys_by_place(member, &inner, keys);
            }
        }
        Value::Array(items) => items.iter().for_each(|item| keys_by_place(item, &format!("{place}[]"), keys)),
        _ => {}
    }
}

fn keyed_by_data(place: &str) -> bool {
    matches!(place.rsplit('.').next(), Some("hands" | "placings" | "pieces"))
}

/// Checks what the server sent against the examples of `marker` (of the same `type`, for
/// messages): exactly one value of the wire type, and wherever it sends a non-empty object,
/// the keys the examples show there.
fn assert_documented(marker: &str, sent: &Value) {
    let check = check_of(marker).expect("a known marker");
    check(sent).unwrap_or_else(|e| panic!("the server's {marker} is not its wire type: {e}"));
    let mut documented = BTreeMap::new();
    for example in examples().iter().filter(|e| e.marker == marker && e.json.get("type") == sent.get("type")) {
        keys_by_place(&example.json, "", &mut documented);
    }
    let mut keys = BTreeMap::new();
    keys_by_place(sent, "", &mut keys);
    for (place, keys) in keys.iter().filter(|(_, keys)| !keys.is_empty()) {
        assert_eq!(documented.get(place), Some(keys), "the server's {marker} has other keys at `{place}` than docs/API.md shows");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_sends_what_the_doc_shows() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let server = TestServer::start(&format!("sqlite:{}", dir.path().join("doc.db").display())).await;
    assert_documented("variants", &server.get_json("/api/variants").await);
    assert_documented("levels", &server.get_json("/api/levels").await);
    assert_documented("layout", &server.get_json("/api/variants/sannin/layout").await);
    assert_documented("pieces", &server.get_json("/api/variants/hexshogi91/pieces").await);

    let (status, error) = server.post_json("/api/games", &json!({ "variant": "chess", "seats": [] })).await;
    assert_eq!(status, 400);
    assert_documented("error", &error);

    // The game of the doc's examples: a human, a bot and a human, with a clock.
    let created = server.create(new_game(&["human", "beginner", "human"], Some((600_000, 5_000)))).await;
    assert_documented("created", &created);
    let id = created["id"].as_str().expect("an id").to_string();

    let mut first = server.connect(&id, Some(&token(&created, 0))).await;
    let message = first.next().await;
    assert_documented("server_message", &message);
    first.send(json!({ "type": "move", "move": "P3c-4d" })).await;
    let mut last = server.connect(&id, Some(&token(&created, 2))).await;
    let state = last.until_state("Last's turn", |s| s["to_move"] == "Last").await;
    last.send(json!({ "type": "move", "move": "garbled" })).await;
    assert_documented("server_message", &last.next().await);
    play_some_move(&mut last, &state, 0).await;
    last.until_state("Last's move", |s| moves(s).len() == 3).await;

    assert_documented("game_state", &server.state(&id).await);
    assert_documented("position", &server.get_json(&format!("/api/games/{id}/positions/1")).await);

    last.send(json!({ "type": "resign" })).await;
    first.until_state("Last's resignation", |s| seat_entry(s, "Last")["active"] == false).await;
    first.send(json!({ "type": "resign" })).await;
    let over = loop {
        let message = first.next().await;
        if !message["game"]["outcome"].is_null() {
            break message;
        }
    };
    assert_documented("server_message", &over);
}

/// Posts `body` with the session `cookie`; answers the status, the body and the cookie set.
async fn post_as(server: &TestServer, cookie: Option<&str>, path: &str, body: &Value) -> (u16, Value, Option<String>) {
    let mut request = reqwest::Client::new().post(server.url(path)).json(body);
    if let Some(cookie) = cookie {
        request = request.header("cookie", cookie);
    }
    let response = request.send().await.expect("the server answers");
    let set =
        response.headers().get("set-cookie").map(|v| v.to_str().expect("text").split(';').next().expect("a pair").to_string());
    (response.status().as_u16(), response.json().await.expect("JSON"), set)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_server_sends_what_the_doc_shows_of_players() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let server = TestServer::start(&format!("sqlite:{}", dir.path().join("doc.db").display())).await;
    let (status, account, cookie) =
        post_as(&server, None, "/api/account/register", &json!({ "name": "alice", "password": "correct horse" })).await;
    assert_eq!(status, 201);
    assert_documented("account", &account);
    let alice = cookie.expect("a session cookie");
    let (_, _, bob) =
        post_as(&server, None, "/api/account/register", &json!({ "name": "bob", "password": "correct horse" })).await;
    let bob = bob.expect("a session cookie");

    let rated = json!({ "variant": "hexshogi91", "seats": [{ "kind": "me" }, { "kind": "open" }], "rated": true });
    let (status, created, _) = post_as(&server, Some(&alice), "/api/games", &rated).await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().expect("an id").to_string();
    assert_documented("lobby", &server.get_json("/api/lobby").await);
    let mut watching = Client::open_url(&format!("ws://{}/api/lobby/ws", server.addr)).await;
    assert_documented("lobby_message", &watching.next().await);

    let (status, taken, _) = post_as(&server, Some(&bob), &format!("/api/games/{id}/seats/White"), &json!({})).await;
    assert_eq!(status, 200, "{taken}");
    assert_documented("taken_seat", &taken);
    let mut white = server.connect(&id, taken["token"].as_str()).await;
    white.until_state("the game", |_| true).await;
    white.send(json!({ "type": "chat", "text": "good luck" })).await;
    white.until_chat("the line", |lines| !lines.is_empty()).await;
    white.send(json!({ "type": "resign" })).await;
    white.until_state("the end", |s| !s["outcome"].is_null()).await;

    let list = loop {
        let list = server.get_json("/api/games").await;
        if !list["games"].as_array().expect("games").is_empty() {
            break list;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_documented("game_list", &list);
    assert_documented("player", &server.get_json("/api/players/alice").await);

    // The chat message, as a connection opening now gets it.
    let mut reader = server.connect(&id, taken["token"].as_str()).await;
    let lines = reader.until_chat("the stored line", |lines| !lines.is_empty()).await;
    assert_documented("server_message", &json!({ "type": "chat", "lines": lines }));
}
