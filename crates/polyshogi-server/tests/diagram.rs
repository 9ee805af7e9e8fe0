//! The pictures of docs/API.md against a real server: a position string's SVG and a game's
//! position after a move, each piece drawn once where the game state has it, seen from the
//! seat asked for; and every bad request refused with its reason.

mod common;

use std::collections::BTreeMap;

use common::*;
use serde_json::Value;

async fn server() -> (TestServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite:{}", dir.path().join("diagram.db").display());
    (TestServer::start(&url).await, dir)
}

/// GET with the query written from `params` (URL-encoded).
async fn get_with(server: &TestServer, path: &str, params: &[(&str, &str)]) -> reqwest::Response {
    let url = reqwest::Url::parse_with_params(&server.url(path), params).expect("a URL");
    reqwest::get(url).await.expect("the server answers")
}

/// The SVG of a `200` answer, checked to be served as one.
async fn svg_of(response: reqwest::Response) -> String {
    let status = response.status();
    let content_type = response.headers()[reqwest::header::CONTENT_TYPE].to_str().unwrap().to_string();
    let body = response.text().await.unwrap();
    assert_eq!(status, 200, "{body}");
    assert_eq!(content_type, "image/svg+xml; charset=utf-8");
    assert!(body.starts_with("<?xml"), "{body}");
    assert_eq!(body.matches("<svg ").count(), 1, "one SVG document");
    assert!(body.trim_end().ends_with("</svg>"), "the document is whole");
    assert!(!body.contains("<script") && !body.contains("href="), "nothing runs or is fetched: {body}");
    body
}

/// The value of `name="…"` in an element's opening tag.
fn attribute<'a>(tag: &'a str, name: &str) -> &'a str {
    let start = tag.find(&format!(" {name}=\"")).unwrap_or_else(|| panic!("no {name} in {tag}")) + name.len() + 3;
    &tag[start..start + tag[start..].find('"').unwrap()]
}

/// The pieces the picture draws on the board: cell → "Seat:Letter" ("Seat:+Letter" promoted),
/// one element each (a cell drawn twice fails).
fn drawn_pieces(svg: &str) -> BTreeMap<String, String> {
    let mut pieces = BTreeMap::new();
    for piece in svg.split(r#"<g class="piece"#).skip(1) {
        let tag = &piece[..piece.find('>').unwrap()];
        let cell = attribute(tag, "data-cell").to_string();
        let drawn = format!("{}:{}", attribute(tag, "data-seat"), attribute(tag, "data-piece"));
        assert!(pieces.insert(cell.clone(), drawn).is_none(), "{cell} drawn twice");
    }
    pieces
}

/// The game state's board in the same form.
fn state_pieces(state: &Value) -> BTreeMap<String, String> {
    state["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let promoted = if p["promoted"] == true { "+" } else { "" };
            (
                p["cell"].as_str().unwrap().to_string(),
                format!("{}:{promoted}{}", p["seat"].as_str().unwrap(), p["letter"].as_str().unwrap()),
            )
        })
        .collect()
}

/// A refusal: its status, and a JSON error containing `words`.
async fn assert_refused(response: reqwest::Response, status: u16, words: &str) {
    assert_eq!(response.status().as_u16(), status);
    let body: Value = response.json().await.expect("a JSON error");
    let error = body["error"].as_str().unwrap_or_else(|| panic!("no error in {body}"));
    assert!(error.contains(words), "`{error}` does not say `{words}`");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_s_positions_and_a_position_string_are_drawn_as_the_state_has_them() {
    let (server, _dir) = server().await;
    let created = server.create(new_game(&["human", "human", "human"], None)).await;
    let id = created["id"].as_str().unwrap();
    let start = server.state(id).await;
    let mut first = server.connect(id, Some(&token(&created, 0))).await;
    let state = first.until_state("First's turn", |s| s["to_move"] == "First").await;
    let played = play_some_move(&mut first, &state, 0).await;
    let after = first.until_state("the first move", |s| moves(s).len() == 1).await;

    // The start, and the position after the first move with that move marked, from First's side.
    let at_start = svg_of(server.get(&format!("/api/games/{id}/positions/0/diagram.svg")).await).await;
    assert_eq!(drawn_pieces(&at_start), state_pieces(&start));
    assert_eq!(drawn_pieces(&at_start).len(), 54, "Sannin's three armies of 18");
    assert!(at_start.contains(r#"data-view-seat="First""#) && at_start.contains("Start · First to move"));
    let after_move = svg_of(server.get(&format!("/api/games/{id}/positions/1/diagram.svg")).await).await;
    assert_eq!(drawn_pieces(&after_move), state_pieces(&after));
    assert_eq!(after_move.matches(r#"class="last-move""#).count(), 2, "the move's two cells are marked");
    assert!(after_move.contains(&format!("After move 1 (First {})", after["moves"][0]["short"].as_str().unwrap())), "{played}");
    assert_eq!(after_move.matches(r#"<g class="seat""#).count(), 3, "every seat beside the board");
    assert_eq!(after_move.matches("no pieces in hand").count(), 3);

    // From Middle's side, in kanji, without cell names: the same pieces, turned.
    let middle = svg_of(
        get_with(
            &server,
            &format!("/api/games/{id}/positions/1/diagram.svg"),
            &[("seat", "middle"), ("pieces", "kanji"), ("coordinates", "off")],
        )
        .await,
    )
    .await;
    assert!(middle.contains(r#"data-view-seat="Middle""#));
    assert_eq!(drawn_pieces(&middle), drawn_pieces(&after_move));
    assert!(middle.contains(">歩<") && !middle.contains(r#"class="coordinate""#));
    assert!(after_move.contains(r#"class="coordinate""#), "cell names are on by default");

    // The same position as a position string, its last move named in text.
    let position = after["position"].as_str().unwrap();
    let from_text = svg_of(get_with(&server, "/api/diagram.svg", &[("position", position), ("last", &played)]).await).await;
    assert_eq!(drawn_pieces(&from_text), state_pieces(&after));
    assert_eq!(from_text.matches(r#"class="last-move""#).count(), 2);
    assert!(from_text.contains(&format!("After First {played} · Middle to move")));
    let plain = svg_of(get_with(&server, "/api/diagram.svg", &[("position", position), ("seat", "Last")]).await).await;
    assert!(plain.contains(r#"data-view-seat="Last""#) && !plain.contains("last-move"));

    // Past the end, not a number, no such game.
    assert_refused(server.get(&format!("/api/games/{id}/positions/2/diagram.svg")).await, 404, "fewer than 2 moves").await;
    assert_refused(server.get(&format!("/api/games/{id}/positions/one/diagram.svg")).await, 400, "not a move number").await;
    assert_refused(server.get("/api/games/nosuchgame/positions/0/diagram.svg").await, 404, "no game").await;
    let nobody = get_with(&server, &format!("/api/games/{id}/positions/0/diagram.svg"), &[("seat", "Black")]).await;
    assert_refused(nobody, 400, "seat: `Black` is not a seat of Sannin shogi (seats: First, Middle, Last)").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_bad_picture_request_is_refused_with_its_reason() {
    let (server, _dir) = server().await;
    let start = "hexshogi91 wLwNwGwGwNwL/1wRwSwKwSwB1/8/wPwPwPwPwPwPwPwPwP/10/11/10/bPbPbPbPbPbPbPbPbP/8/1bRbSbKbSbB1/bLbNbGbGbNbL B B:-/W:- ply=0;nocapture=0;passes=0";
    let good = svg_of(get_with(&server, "/api/diagram.svg", &[("position", start), ("seat", "White")]).await).await;
    assert_eq!(drawn_pieces(&good).len(), 40, "two armies of 20");

    // The query's parameters, the status and words of the refusal.
    type Refusal<'a> = (&'a [(&'a str, &'a str)], u16, &'a str);
    let refusals: [Refusal; 8] = [
        (&[], 400, "position: missing"),
        (&[("position", "chess rnbqkbnr/pppppppp")], 400, "position: unknown variant"),
        (&[("position", "hexshogi91 wLwNwGwGwNwL B B:-/W:-")], 400, "position, column 12:"),
        (&[("position", start), ("seat", "Gray")], 400, "seat: `Gray` is not a seat of Hex Shogi 91 (seats: Black, White)"),
        (&[("position", start), ("last", "P9h-9z")], 400, "last:"),
        (&[("position", start), ("pieces", "runes")], 400, "pieces: `runes` is not a piece set"),
        (&[("position", start), ("coordinates", "maybe")], 400, "coordinates: `maybe` is neither on nor off"),
        (&[("position", &"x".repeat(3000))], 414, "a diagram's may be 2000 at most"),
    ];
    for (params, status, words) in refusals {
        assert_refused(get_with(&server, "/api/diagram.svg", params).await, status, words).await;
    }
}
