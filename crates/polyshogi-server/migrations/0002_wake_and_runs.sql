-- When the server must have a game running without anyone asking for it, so that start-up need
-- not load every unfinished game: the wall-clock time (ms) a clock falls, a first move is
-- overdue, or a bot is to move. Null: nothing happens in the game by itself.
ALTER TABLE games ADD COLUMN wake_ms BIGINT;

CREATE INDEX games_wake ON games (wake_ms);

-- Each run of a server process: when it started and when it was last known alive. The gaps
-- between runs are downtime, which no clock is charged for.
CREATE TABLE server_runs (
    id TEXT PRIMARY KEY,
    started_ms BIGINT NOT NULL,
    alive_ms BIGINT NOT NULL
);
