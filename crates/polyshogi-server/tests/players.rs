//! Players, open games and ratings through the API, on SQLite and on PostgreSQL: accounts and
//! their errors, an open seat taken twice at once, an unfilled game's expiry, rating updates
//! (two players, three players, a draw, allies losing together and an alliance's win), the
//! archive and players' pages, the chat, and all of it after a restart.

mod common;

use std::time::Duration;

use common::*;
use futures_util::future::join;
use polyshogi_server::{Rate, RoomSettings, ServerConfig};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// A browser's view of the API: its session cookie, once logged in.
struct Browser {
    base: String,
    http: reqwest::Client,
    cookie: Option<String>,
}

impl Browser {
    fn new(server: &TestServer) -> Browser {
        Browser { base: server.url(""), http: reqwest::Client::new(), cookie: None }
    }

    async fn post(&mut self, path: &str, body: &Value) -> (u16, Value) {
        let mut request = self.http.post(format!("{}{path}", self.base)).json(body);
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let response = request.send().await.expect("the server answers");
        if let Some(set) = response.headers().get("set-cookie") {
            let set = set.to_str().expect("a text cookie");
            assert!(set.contains("HttpOnly") && set.contains("SameSite=Lax"), "{set}");
            let pair = set.split(';').next().expect("a name=value pair").to_string();
            self.cookie = if pair.ends_with('=') { None } else { Some(pair) };
        }
        let status = response.status().as_u16();
        (status, response.json().await.expect("JSON"))
    }

    async fn get(&self, path: &str) -> (u16, Value) {
        let mut request = self.http.get(format!("{}{path}", self.base));
        if let Some(cookie) = &self.cookie {
            request = request.header("cookie", cookie);
        }
        let response = request.send().await.expect("the server answers");
        let status = response.status().as_u16();
        (status, response.json().await.expect("JSON"))
    }

    async fn register(&mut self, name: &str) {
        let (status, answer) = self.post("/api/account/register", &json!({ "name": name, "password": "correct horse" })).await;
        assert_eq!(status, 201, "{answer}");
        assert_eq!(answer["name"], name);
    }

    /// Creates a game as this browser (logged in or not).
    async fn create(&mut self, body: Value) -> Value {
        let (status, answer) = self.post("/api/games", &body).await;
        assert_eq!(status, 201, "{answer}");
        answer
    }

    async fn sit(&mut self, id: &str, seat: &str) -> (u16, Value) {
        self.post(&format!("/api/games/{id}/seats/{seat}"), &json!({})).await
    }

    /// Opens the game's WebSocket with this browser's cookie and says hello.
    async fn connect(&self, server: &TestServer, id: &str, token: Option<&str>) -> Client {
        let mut request = format!("ws://{}/api/games/{id}/ws", server.addr).into_client_request().expect("a request");
        if let Some(cookie) = &self.cookie {
            request.headers_mut().insert("cookie", HeaderValue::from_str(cookie).expect("a cookie header"));
        }
        let (ws, _) = tokio_tungstenite::connect_async(request).await.expect("the WebSocket opens");
        let mut client = Client::from_stream(ws);
        client.send(json!({ "type": "hello", "token": token })).await;
        client
    }
}

/// A name no earlier run used (PostgreSQL databases are fresh, but names read better so).
fn name(base: &str) -> String {
    format!("{base}{}", &polyshogi_server::tokens::new_game_id()[..4])
}

fn config(database: &str) -> ServerConfig {
    let mut config = test_config(database);
    config.limits.address_registrations = None;
    config
}

/// The rated game of `variant` created by `players[0]` with every other seat open, and each
/// other player seated in turn; answers the game's id and each player's seat token.
async fn rated_game(variant: &str, players: &mut [&mut Browser], rules: &[&str]) -> (String, Vec<String>) {
    let seats: Vec<Value> =
        (0..players.len()).map(|i| if i == 0 { json!({ "kind": "me" }) } else { json!({ "kind": "open" }) }).collect();
    let created = players[0].create(json!({ "variant": variant, "rules": rules, "seats": seats, "rated": true })).await;
    let id = created["id"].as_str().expect("an id").to_string();
    let mut tokens = vec![created["seats"][0]["token"].as_str().expect("the creator's token").to_string()];
    for (index, player) in players.iter_mut().enumerate().skip(1) {
        let seat = created["seats"][index]["seat"].as_str().expect("a seat name").to_string();
        assert_eq!(created["seats"][index]["kind"], "open");
        let (status, taken) = player.sit(&id, &seat).await;
        assert_eq!(status, 200, "{taken}");
        tokens.push(taken["token"].as_str().expect("a token").to_string());
    }
    (id, tokens)
}

async fn rating(browser: &Browser, player: &str, variant: &str) -> (i64, i64) {
    let (status, profile) = browser.get(&format!("/api/players/{player}")).await;
    assert_eq!(status, 200, "{profile}");
    let entry = profile["ratings"].as_array().expect("ratings").iter().find(|r| r["variant"] == variant).cloned();
    let entry = entry.unwrap_or_else(|| panic!("{player} has no {variant} rating: {profile}"));
    (entry["rating"].as_i64().expect("a rating"), entry["deviation"].as_i64().expect("a deviation"))
}

/// Resigns for a seat and waits until the game shows it out.
async fn resign(server: &TestServer, browser: &Browser, id: &str, token: &str, seat: &str) {
    let mut client = browser.connect(server, id, Some(token)).await;
    client.until_state("the game", |_| true).await;
    client.send(json!({ "type": "resign" })).await;
    client.until_game(&format!("{seat} out"), |s| seat_entry(s, seat)["active"] == false || !s["outcome"].is_null()).await;
    client.close().await;
}

/// Plays one move for a seat, once it is its turn, and waits until the game shows it.
async fn play(server: &TestServer, browser: &Browser, id: &str, token: &str, seat: &str) {
    let mut client = browser.connect(server, id, Some(token)).await;
    let state = client.until_state(&format!("{seat}'s turn"), |s| s["to_move"] == seat).await;
    let played = moves(&state).len();
    play_some_move(&mut client, &state, 0).await;
    client.until_state("the move", |s| moves(s).len() > played).await;
    client.close().await;
}

/// Waits until the archive shows the game settled (its places written).
async fn wait_settled(browser: &Browser, player: &str, id: &str) -> Value {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let (_, list) = browser.get(&format!("/api/games?player={player}")).await;
        if let Some(game) = list["games"].as_array().expect("games").iter().find(|g| g["id"] == id) {
            return game.clone();
        }
        assert!(tokio::time::Instant::now() < deadline, "game {id} never reached {player}'s archive: {list}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

async fn accounts_suite(database: &str) {
    let mut config = config(database);
    config.limits.name_logins = Some(Rate { burst: 2, every: Duration::from_secs(3600) });
    let server = TestServer::start_config(config).await;
    let mut alice = Browser::new(&server);
    let alice_name = name("Alice");
    assert_eq!(alice.get("/api/account").await.1["name"], Value::Null);
    alice.register(&alice_name).await;
    assert_eq!(alice.get("/api/account").await.1["name"], alice_name.as_str());

    // Names are unique whatever their case; bad names and passwords are named.
    let mut other = Browser::new(&server);
    let (status, answer) =
        other.post("/api/account/register", &json!({ "name": alice_name.to_uppercase(), "password": "whatever1" })).await;
    assert_eq!(
        (status, answer["error"].as_str().unwrap()),
        (409, format!("the name `{}` is taken", alice_name.to_uppercase()).as_str())
    );
    let (status, answer) = other.post("/api/account/register", &json!({ "name": "x y", "password": "whatever1" })).await;
    assert_eq!(status, 400);
    assert!(answer["error"].as_str().unwrap().starts_with("name:"), "{answer}");
    let (status, answer) = other.post("/api/account/register", &json!({ "name": name("Bob"), "password": "short" })).await;
    assert_eq!(status, 400);
    assert!(answer["error"].as_str().unwrap().starts_with("password:"), "{answer}");
    assert!(other.cookie.is_none(), "a refused registration logs nobody in");

    // Logging in: a wrong password and an unknown name get the same answer.
    let (status, answer) = other.post("/api/account/login", &json!({ "name": alice_name, "password": "wrong horse" })).await;
    assert_eq!((status, answer["error"].as_str().unwrap()), (401, "wrong name or password"));
    let (status, answer) = other.post("/api/account/login", &json!({ "name": "nobody", "password": "correct horse" })).await;
    assert_eq!((status, answer["error"].as_str().unwrap()), (401, "wrong name or password"));
    let (status, answer) =
        other.post("/api/account/login", &json!({ "name": alice_name.to_lowercase(), "password": "correct horse" })).await;
    assert_eq!((status, &answer["name"]), (200, &json!(alice_name)));
    assert_eq!(other.get("/api/account").await.1["name"], alice_name.as_str());

    // Logging out ends that session only.
    let (status, _) = other.post("/api/account/logout", &json!({})).await;
    assert_eq!(status, 200);
    assert!(other.cookie.is_none());
    assert_eq!(alice.get("/api/account").await.1["name"], alice_name.as_str());

    // Two attempts on the name used up its budget (2 here): the next waits, right or wrong.
    let (status, answer) = other.post("/api/account/login", &json!({ "name": alice_name, "password": "correct horse" })).await;
    assert_eq!(status, 429, "{answer}");
    assert!(answer["error"].as_str().unwrap().starts_with("too many login attempts"), "{answer}");

    // A rated game needs an account, and only accounts sit in it.
    let mut anonymous = Browser::new(&server);
    let rated = json!({ "variant": "hexshogi91", "seats": [{ "kind": "me" }, { "kind": "open" }], "rated": true });
    let (status, answer) = anonymous.post("/api/games", &rated).await;
    assert_eq!((status, answer["error"].as_str().unwrap()), (401, "log in to create a rated game"));
    let with_bot =
        json!({ "variant": "hexshogi91", "seats": [{ "kind": "me" }, { "kind": "bot", "level": "beginner" }], "rated": true });
    let (status, answer) = alice.post("/api/games", &with_bot).await;
    assert_eq!(status, 400);
    assert!(answer["error"].as_str().unwrap().starts_with("rated:"), "{answer}");
    let created = alice.create(rated).await;
    let id = created["id"].as_str().unwrap();
    let (status, answer) = anonymous.sit(id, "White").await;
    assert_eq!((status, answer["error"].as_str().unwrap()), (401, "log in to sit in a rated game"));
    let (status, answer) = alice.sit(id, "White").await;
    assert_eq!((status, answer["error"].as_str().unwrap()), (409, "you already sit in this game"));
    let (status, _) = alice.sit(id, "Purple").await;
    assert_eq!(status, 404);
    // The creator's seat is his account's; the open one waits, and so does the game.
    let state = server.state(id).await;
    assert_eq!(seat_entry(&state, "Black")["player"]["name"], alice_name.as_str());
    assert_eq!(seat_entry(&state, "Black")["player"]["rating"], 1500);
    assert_eq!(seat_entry(&state, "White")["kind"], "open");
    assert!(state["open_until_ms"].is_i64() && state["rated"] == true);
    let mut black = alice.connect(&server, id, Some(created["seats"][0]["token"].as_str().unwrap())).await;
    let state = black.until_state("the game", |_| true).await;
    assert_eq!(state["legal_moves"], json!([]), "nobody moves while a seat is open");
    black.send(json!({ "type": "move", "move": "P1c-1d" })).await;
    assert_eq!(black.next_error().await, "the game starts when every seat is taken");
}

async fn seats_suite(database: &str) {
    let settings = RoomSettings { open_time: Duration::from_secs(2), ..RoomSettings::default() };
    let mut config = config(database);
    config.rooms = settings;
    let server = TestServer::start_config(config).await;

    // Two take the one open seat at once: exactly one sits.
    let mut creator = Browser::new(&server);
    let created = creator.create(json!({ "variant": "sankaku", "seats": [{ "kind": "me" }, { "kind": "open" }] })).await;
    let id = created["id"].as_str().unwrap().to_string();
    let lobby = server.get_json("/api/lobby?variant=sankaku").await;
    assert!(lobby["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()), "{lobby}");
    let (mut first, mut second) = (Browser::new(&server), Browser::new(&server));
    let ((a, answer_a), (b, answer_b)) = join(first.sit(&id, "White"), second.sit(&id, "white")).await;
    let mut statuses = [a, b];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{answer_a} {answer_b}");
    let refused = if a == 409 { &answer_a } else { &answer_b };
    assert_eq!(refused["error"], "the seat White is taken");
    let taken = if a == 200 { &answer_a } else { &answer_b };
    let link = taken["link"].as_str().unwrap();
    assert!(link.starts_with(&format!("/play/{id}#seat=White&token=")), "{link}");
    // The game has started: it left the lobby, and the seat's token opens it.
    let state = server.state(&id).await;
    assert!(state["open_until_ms"].is_null() && state["outcome"].is_null(), "{state}");
    let lobby = server.get_json("/api/lobby").await;
    assert!(!lobby["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()), "{lobby}");
    let mut white = server.connect(&id, Some(taken["token"].as_str().unwrap())).await;
    assert_eq!(white.until_state("White's state", |_| true).await["you"], "White");

    // An unfilled game expires: it ends without result, and its seat can no longer be taken.
    let created = creator.create(json!({ "variant": "sannin", "seats": [{ "kind": "me" }, { "kind": "open" }, { "kind": "bot", "level": "beginner" }] })).await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut lobby_watcher = Client::open_url(&format!("ws://{}/api/lobby/ws", server.addr)).await;
    let listed = lobby_watcher.next().await;
    assert_eq!(listed["type"], "lobby");
    assert!(listed["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()), "{listed}");
    let expired = server.wait_state(&id, "the expiry", |s| !s["outcome"].is_null()).await;
    assert!(expired["outcome"]["text"].as_str().unwrap().starts_with("Expired"), "{expired}");
    assert_eq!(expired["outcome"]["aborted"], true);
    assert!(expired["moves"].as_array().unwrap().is_empty() && expired["open_until_ms"].is_null());
    let (status, answer) = first.sit(&id, "Middle").await;
    assert_eq!((status, answer["error"].as_str().unwrap()), (410, "the game has expired"));
    // The live lobby dropped it.
    loop {
        let message = lobby_watcher.next().await;
        if !message["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()) {
            break;
        }
    }
    // Nobody's game: expired games stay out of the archive.
    let list = server.get_json("/api/games").await;
    assert!(!list["games"].as_array().unwrap().iter().any(|g| g["id"] == id.as_str()), "{list}");
}

async fn ratings_suite(database: &str) {
    let server = TestServer::start_config(config(database)).await;
    let (a, b, c) = (name("ann"), name("ben"), name("cat"));
    let mut ann = Browser::new(&server);
    let mut ben = Browser::new(&server);
    let mut cat = Browser::new(&server);
    ann.register(&a).await;
    ben.register(&b).await;
    cat.register(&c).await;

    // Two players: White resigns, Black wins.
    let (id, tokens) = rated_game("hexshogi91", &mut [&mut ann, &mut ben], &[]).await;
    resign(&server, &ben, &id, &tokens[1], "White").await;
    let game = wait_settled(&ann, &a, &id).await;
    assert_eq!(game["seats"][0]["place"], 1);
    assert_eq!(game["seats"][1]["place"], 2);
    assert_eq!(game["seats"][0]["rating_before"], 1500);
    let (ann_hex, ann_dev) = rating(&ann, &a, "hexshogi91").await;
    let (ben_hex, _) = rating(&ann, &b, "hexshogi91").await;
    assert!(ann_hex > 1500 && ben_hex < 1500, "{ann_hex} {ben_hex}");
    assert_eq!(game["seats"][0]["rating_after"], ann_hex);
    assert!(ann_dev < 500, "a game makes the rating surer: {ann_dev}");
    // The table shows the new ratings.
    let state = server.state(&id).await;
    assert_eq!(seat_entry(&state, "Black")["player"]["rating"], ann_hex);

    // A draw between the two: the lower-rated one gains, the higher-rated one loses.
    let (id, tokens) = rated_game("hexshogi91", &mut [&mut ann, &mut ben], &[]).await;
    let mut black = ann.connect(&server, &id, Some(&tokens[0])).await;
    let mut white = ben.connect(&server, &id, Some(&tokens[1])).await;
    black.until_state("the game", |_| true).await;
    white.until_state("the game", |_| true).await;
    black.send(json!({ "type": "offer_draw" })).await;
    white.until_state("Black's offer", |s| !s["draw_offered_by"].as_array().unwrap().is_empty()).await;
    white.send(json!({ "type": "offer_draw" })).await;
    white.until_state("the draw", |s| !s["outcome"].is_null()).await;
    let game = wait_settled(&ann, &a, &id).await;
    assert_eq!((game["seats"][0]["place"].clone(), game["seats"][1]["place"].clone()), (json!(1), json!(1)));
    let (ann_after, _) = rating(&ann, &a, "hexshogi91").await;
    let (ben_after, _) = rating(&ann, &b, "hexshogi91").await;
    assert!(ann_after < ann_hex && ben_after > ben_hex, "draw: {ann_hex}->{ann_after}, {ben_hex}->{ben_after}");

    // Three players: Last resigns, First moves and resigns: Middle first, First second (he
    // lasted a move longer), Last third.
    let (id, tokens) = rated_game("sannin", &mut [&mut ann, &mut ben, &mut cat], &["compulsory=off"]).await;
    resign(&server, &cat, &id, &tokens[2], "Last").await;
    play(&server, &ann, &id, &tokens[0], "First").await;
    resign(&server, &ann, &id, &tokens[0], "First").await;
    let game = wait_settled(&ann, &a, &id).await;
    let places: Vec<i64> = game["seats"].as_array().unwrap().iter().map(|s| s["place"].as_i64().unwrap()).collect();
    assert_eq!(places, [2, 1, 3]);
    let (ann_s, _) = rating(&ann, &a, "sannin").await;
    let (ben_s, _) = rating(&ann, &b, "sannin").await;
    let (cat_s, _) = rating(&ann, &c, "sannin").await;
    assert!(ben_s > 1500 && cat_s < 1500 && ben_s > ann_s && ann_s > cat_s, "{ann_s} {ben_s} {cat_s}");
    // Ratings are per variant: Hex Shogi 91's stayed.
    assert_eq!(rating(&ann, &a, "hexshogi91").await.0, ann_after);

    // Allies lose together: Middle and Last are allied before the game, and Middle resigns.
    let (id, tokens) = rated_game("sannin", &mut [&mut ann, &mut ben, &mut cat], &["alliance=ML"]).await;
    resign(&server, &ben, &id, &tokens[1], "Middle").await;
    let game = wait_settled(&ann, &a, &id).await;
    let places: Vec<i64> = game["seats"].as_array().unwrap().iter().map(|s| s["place"].as_i64().unwrap()).collect();
    assert_eq!(places, [1, 2, 2], "both allies share the last place: {game}");
    let change = |seat: usize| {
        game["seats"][seat]["rating_after"].as_i64().unwrap() - game["seats"][seat]["rating_before"].as_i64().unwrap()
    };
    assert!(change(0) > 0 && change(1) < 0 && change(2) < 0, "{game}");

    // An alliance's win: the lone First resigns, then the former allies play on (Middle
    // moves) until Last resigns. Both allies finish above First, and First loses most.
    let (id, tokens) = rated_game("sannin", &mut [&mut ann, &mut ben, &mut cat], &["alliance=ML"]).await;
    resign(&server, &ann, &id, &tokens[0], "First").await;
    let state = server.state(&id).await;
    assert!(state["outcome"].is_null(), "the allies play on: {state}");
    play(&server, &ben, &id, &tokens[1], "Middle").await;
    resign(&server, &cat, &id, &tokens[2], "Last").await;
    let game = wait_settled(&ann, &a, &id).await;
    let places: Vec<i64> = game["seats"].as_array().unwrap().iter().map(|s| s["place"].as_i64().unwrap()).collect();
    assert_eq!(places, [3, 1, 2], "{game}");
    let change = |seat: usize| {
        game["seats"][seat]["rating_after"].as_i64().unwrap() - game["seats"][seat]["rating_before"].as_i64().unwrap()
    };
    assert!(change(0) < 0 && change(1) > 0 && change(0) < change(2), "{game}");

    // Each player's page has his history, one point per rated game of the variant.
    let (_, profile) = ann.get(&format!("/api/players/{a}")).await;
    let sannin = profile["ratings"].as_array().unwrap().iter().find(|r| r["variant"] == "sannin").unwrap().clone();
    assert_eq!(sannin["games"], 3);
    assert_eq!(sannin["history"].as_array().unwrap().len(), 3);
    assert_eq!(sannin["history"][2]["game"], id.as_str());
    let (status, _) = ann.get("/api/players/nobody-here").await;
    assert_eq!(status, 404);

    // The archive: by player and variant, newest first, paged.
    let (_, list) = ann.get(&format!("/api/games?player={b}&variant=sannin")).await;
    let ids: Vec<&str> = list["games"].as_array().unwrap().iter().map(|g| g["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 3);
    assert_eq!(ids[0], id);
    assert_eq!(list["more"], false);
    let (status, answer) = ann.get("/api/games?page=0").await;
    assert_eq!(status, 400, "{answer}");
    let (status, answer) = ann.get("/api/games?variant=chess").await;
    assert_eq!(status, 400, "{answer}");

    // Everything is still there after a restart: sessions, ratings, the archive.
    let database = database.to_string();
    server.kill();
    let server = TestServer::start_config(config(&database)).await;
    let mut ann = Browser { base: server.url(""), ..ann };
    assert_eq!(ann.get("/api/account").await.1["name"], a.as_str());
    assert_eq!(rating(&ann, &b, "sannin").await.0, ben_s_after(&game));
    let (_, list) = ann.get(&format!("/api/games?player={c}")).await;
    assert_eq!(list["games"].as_array().unwrap().len(), 3);
    // An open game survives too, and its seat can be taken after the restart.
    let created = ann.create(json!({ "variant": "hexshogi91", "seats": [{ "kind": "me" }, { "kind": "open" }] })).await;
    let id = created["id"].as_str().unwrap().to_string();
    server.kill();
    let server = TestServer::start_config(config(&database)).await;
    let lobby = server.get_json("/api/lobby").await;
    let listed = lobby["games"].as_array().unwrap().iter().find(|g| g["id"] == id.as_str()).expect("still open").clone();
    assert_eq!(listed["seats"][0]["player"]["name"], a.as_str());
    let mut ben = Browser { base: server.url(""), ..ben };
    assert_eq!(ben.sit(&id, "White").await.0, 200);
}

/// Ben's rating after the last game, as the archive said.
fn ben_s_after(game: &Value) -> i64 {
    game["seats"][1]["rating_after"].as_i64().expect("a rated seat")
}

async fn chat_suite(database: &str) {
    let server = TestServer::start_config(config(database)).await;
    let mut dan = Browser::new(&server);
    let dan_name = name("dan");
    dan.register(&dan_name).await;
    let created = dan.create(json!({ "variant": "hexshogi91", "seats": [{ "kind": "me" }, { "kind": "human" }] })).await;
    let id = created["id"].as_str().unwrap().to_string();
    let (black_token, white_token) = (token(&created, 0), token(&created, 1));
    let mut black = dan.connect(&server, &id, Some(&black_token)).await;
    let mut white = server.connect(&id, Some(&white_token)).await;
    let anonymous = Browser::new(&server);
    let mut watcher = anonymous.connect(&server, &id, None).await;
    let mut eve = Browser::new(&server);
    let eve_name = name("eve");
    eve.register(&eve_name).await;
    let mut fan = eve.connect(&server, &id, None).await;
    for client in [&mut black, &mut white, &mut watcher, &mut fan] {
        client.until_chat("the chat's history", |_| true).await;
        client.until_game("the state", |_| true).await;
    }

    // The seats' chat: signed with the account's name, or the seat's.
    black.send(json!({ "type": "chat", "text": "  good luck  " })).await;
    let lines = white.until_chat("Black's line", |lines| !lines.is_empty()).await;
    assert_eq!(lines[0]["author"], dan_name.as_str());
    assert_eq!(
        (lines[0]["seat"].clone(), lines[0]["text"].clone(), lines[0]["channel"].clone()),
        (json!("Black"), json!("good luck"), json!("players"))
    );
    white.send(json!({ "type": "chat", "text": "you too" })).await;
    black.until_chat("White's line", |lines| lines.iter().any(|l| l["author"] == "White" && l["text"] == "you too")).await;

    // Spectators: only with an account, and apart from the players.
    watcher.send(json!({ "type": "chat", "text": "hello" })).await;
    assert_eq!(watcher.error_after_states().await, "log in to chat as a spectator");
    fan.send(json!({ "type": "chat", "text": "go Black" })).await;
    let lines = watcher.until_chat("the fan's line", |lines| !lines.is_empty()).await;
    assert_eq!((lines[0]["author"].clone(), lines[0]["seat"].clone()), (json!(eve_name), Value::Null));
    assert!(lines.iter().all(|l| l["channel"] == "spectators"), "spectators see only their chat: {lines:?}");

    // Limits: length, text, and speed.
    black.send(json!({ "type": "chat", "text": "x".repeat(141) })).await;
    assert_eq!(black.error_after_states().await, "a chat line is at most 140 characters");
    black.send(json!({ "type": "chat", "text": "   " })).await;
    assert_eq!(black.error_after_states().await, "a chat line needs some text");
    let mut refused = false;
    for i in 0..6 {
        black.send(json!({ "type": "chat", "text": format!("line {i}") })).await;
    }
    for _ in 0..6 {
        match black.next_before(tokio::time::Instant::now() + PATIENCE).await {
            Some(message) if message["type"] == "error" => {
                assert_eq!(message["message"], "slow down: one chat line a second");
                refused = true;
            }
            Some(_) => {}
            None => break,
        }
        if refused {
            break;
        }
    }
    assert!(refused, "six lines at once are more than a writer may send");

    // A restart keeps the chat: a new connection gets the latest lines.
    let database = database.to_string();
    server.kill();
    let server = TestServer::start_config(config(&database)).await;
    let mut white = server.connect(&id, Some(&white_token)).await;
    let lines = white.until_chat("the stored chat", |lines| lines.iter().any(|l| l["text"] == "good luck")).await;
    assert!(lines.iter().all(|l| l["channel"] == "players"));
    let dan = Browser { base: server.url(""), ..dan };
    let mut fan_again = dan.connect(&server, &id, None).await;
    let lines = fan_again.until_chat("the spectators' stored chat", |lines| !lines.is_empty()).await;
    assert_eq!(lines[0]["text"], "go Black");
}

macro_rules! on_both_databases {
    ($suite:ident, $sqlite:ident, $postgres:ident) => {
        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $sqlite() {
            let dir = tempfile::tempdir().expect("a temporary directory");
            $suite(&format!("sqlite:{}", dir.path().join("players.db").display())).await;
        }

        #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
        async fn $postgres() {
            if let Some((url, own)) = postgres_url(stringify!($suite)).await {
                $suite(&url).await;
                drop_database(own).await;
            }
        }
    };
}

on_both_databases!(accounts_suite, accounts_on_sqlite, accounts_on_postgres);
on_both_databases!(seats_suite, open_seats_on_sqlite, open_seats_on_postgres);
on_both_databases!(ratings_suite, ratings_on_sqlite, ratings_on_postgres);
on_both_databases!(chat_suite, chat_on_sqlite, chat_on_postgres);
