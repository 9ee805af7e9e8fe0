-- Games, their seats and every action taken in them, in order. Portable SQL: the same text
-- runs on SQLite and PostgreSQL (TEXT and BIGINT only; booleans are 0/1).
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    variant TEXT NOT NULL,
    -- the rule options as given at creation, `key=value` joined by newlines
    rules TEXT NOT NULL,
    -- a position string when the game did not start from the variant's start (unused so far)
    start_position TEXT,
    clock_initial_ms BIGINT,
    clock_increment_ms BIGINT,
    created_ms BIGINT NOT NULL,
    finished BIGINT NOT NULL DEFAULT 0,
    -- the outcome in words once finished
    result TEXT
);

CREATE INDEX games_finished ON games (finished);

CREATE TABLE seats (
    game_id TEXT NOT NULL REFERENCES games (id),
    seat BIGINT NOT NULL,
    kind TEXT NOT NULL,
    level TEXT,
    -- SHA-256 of the seat token, hex; the token itself is never stored
    token_hash TEXT,
    PRIMARY KEY (game_id, seat)
);

CREATE TABLE actions (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    seat BIGINT NOT NULL,
    -- move | answer | resign | flag | offer_draw
    kind TEXT NOT NULL,
    -- the canonical move text, or `accept`/`refuse`, or empty
    detail TEXT NOT NULL,
    -- each seat's remaining clock after the action, in ms, comma separated (null: no clock)
    clocks TEXT,
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
