-- Game reviews (issue 17): every position of a finished game evaluated by the engine, stored
-- once as the JSON the API gives, so that a review is shown again without searching again.
CREATE TABLE reviews (
    game_id TEXT PRIMARY KEY REFERENCES games (id),
    created_ms BIGINT NOT NULL,
    review TEXT NOT NULL
);
