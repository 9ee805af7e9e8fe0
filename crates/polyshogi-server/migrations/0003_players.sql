-- Players (issue 16): accounts and their sessions, open seats and the lobby, rated games and
-- ratings, the archive of finished games, and each game's chat. Portable SQL, as before; the
-- ratings are DOUBLE PRECISION (REAL in SQLite).
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    -- the name in lower case: no two accounts' names differ only in case
    name_key TEXT NOT NULL UNIQUE,
    -- argon2id, as a PHC string (algorithm, parameters, salt and hash)
    password_hash TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);

CREATE TABLE sessions (
    -- SHA-256 of the session cookie, hex; the cookie itself is never stored
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id),
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);

-- A seat's account (null: anonymous, a bot, or open), and its place once the game is over.
-- `kind` may now also be `open`: a seat anyone may take from the lobby.
ALTER TABLE seats ADD COLUMN user_id TEXT REFERENCES users (id);
ALTER TABLE seats ADD COLUMN place BIGINT;
CREATE INDEX seats_user ON seats (user_id);

ALTER TABLE games ADD COLUMN rated BIGINT NOT NULL DEFAULT 0;
-- While a seat is open: when the game expires. Null once every seat is taken (or it ended).
ALTER TABLE games ADD COLUMN open_until_ms BIGINT;
CREATE INDEX games_open ON games (open_until_ms);
-- Written once a finished game is settled (its places, its ratings): when it ended, its moves,
-- and whether the archive shows it (1; aborted and expired games are not shown).
ALTER TABLE games ADD COLUMN settled BIGINT NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN finished_ms BIGINT;
ALTER TABLE games ADD COLUMN plies BIGINT;
ALTER TABLE games ADD COLUMN listed BIGINT NOT NULL DEFAULT 0;
CREATE INDEX games_listed ON games (listed, finished_ms);
CREATE INDEX games_unsettled ON games (finished, settled);

-- Each account's rating per variant (Weng-Lin skill and uncertainty), and `games`, the rated
-- games it counts, which also tells writers whether they read the latest.
CREATE TABLE ratings (
    user_id TEXT NOT NULL REFERENCES users (id),
    variant TEXT NOT NULL,
    mu DOUBLE PRECISION NOT NULL,
    sigma DOUBLE PRECISION NOT NULL,
    games BIGINT NOT NULL,
    PRIMARY KEY (user_id, variant)
);

-- What each rated game did to each of its players' ratings: the rating history.
CREATE TABLE rating_changes (
    game_id TEXT NOT NULL REFERENCES games (id),
    user_id TEXT NOT NULL REFERENCES users (id),
    variant TEXT NOT NULL,
    mu_before DOUBLE PRECISION NOT NULL,
    sigma_before DOUBLE PRECISION NOT NULL,
    mu_after DOUBLE PRECISION NOT NULL,
    sigma_after DOUBLE PRECISION NOT NULL,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_changes_user ON rating_changes (user_id, variant, created_ms);

-- Each game's chat: `players` (the seats) and `spectators`, kept apart.
CREATE TABLE chat (
    id TEXT PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games (id),
    channel TEXT NOT NULL,
    author TEXT NOT NULL,
    -- the writer's seat (players' chat), else null
    seat BIGINT,
    text TEXT NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX chat_game ON chat (game_id, channel, created_ms);
