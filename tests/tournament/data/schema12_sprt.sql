BEGIN TRANSACTION;
CREATE TABLE bot_names (
    name TEXT PRIMARY KEY COLLATE NOCASE,
    author_id INTEGER NOT NULL REFERENCES users(id)
);
INSERT INTO "bot_names" VALUES('anns-bot',1);
CREATE TABLE bot_stats (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    matches INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    score_sum REAL NOT NULL,
    faults INTEGER NOT NULL,
    PRIMARY KEY (game, variant, bot_id)
);
INSERT INTO "bot_stats" VALUES('yahtzee','yahtzee',1,2,0,155.0,0);
INSERT INTO "bot_stats" VALUES('yahtzee','yahtzee',2,2,2,636.0,0);
CREATE TABLE bots (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    version TEXT NOT NULL,
    author TEXT NOT NULL DEFAULT '',
    language TEXT NOT NULL DEFAULT '',
    manifest TEXT,
    address TEXT,
    files_hash TEXT NOT NULL,
    registered_at REAL NOT NULL,
    UNIQUE (name, version)
);
INSERT INTO "bots" VALUES(1,'random','1.0','arena','python','/work/wt/layers/sample_bots/python/random_bot/bot.toml',NULL,'b555a7adef12239439c941700013e1b714aa25fd47fcaf6f49728208b5bb846a',1.79584800732631707188e+09);
INSERT INTO "bots" VALUES(2,'yahtzee-heuristic','1.0','arena','python','/work/wt/layers/sample_bots/python/yahtzee_heuristic/bot.toml',NULL,'897db323736bd54f702cf4b1a06f2aca31cf370d33767e696f11ca586a79f38b',1.79584800733566069602e+09);
INSERT INTO "bots" VALUES(3,'anns-bot','1.0','arena','python','/tmp/layers_gen/out/ladder.db.data/bots/ann/anns-bot/27bbc1c10e686b85ce4bef8a3cbcbfe60b776d0c7fe6bb43f2bf5fcb7186e2f6/bot.toml',NULL,'30c962b7bd4f56d717e7157c32925c9714bdd1211700db032cb53a273ca65d11',1.79584801742189383508e+09);
INSERT INTO "bots" VALUES(4,'anns-bot','2.0','arena','python','/tmp/layers_gen/out/ladder.db.data/bots/ann/anns-bot/b2833789d897802b9fc2531279e34b07ae7df392d41367b7effa35470996aa30/bot.toml',NULL,'05233288e89e3f1ab7646fe01542286575f41f5ad8bf269a2f41a5f48d6dc9f6',1.79584802013712835312e+09);
CREATE TABLE game_stats (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    matches INTEGER NOT NULL,
    last_match_id INTEGER NOT NULL,
    PRIMARY KEY (game, variant)
);
INSERT INTO "game_stats" VALUES('yahtzee','yahtzee',2,2);
CREATE TABLE ladder_entrants (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    state TEXT NOT NULL CHECK (state IN ('active', 'paused', 'removed')),
    reason TEXT NOT NULL DEFAULT '',
    joined_at REAL NOT NULL,
    active_since REAL NOT NULL,
    changed_at REAL NOT NULL,
    matches INTEGER NOT NULL DEFAULT 0,
    last_match_at REAL,
    PRIMARY KEY (tournament_id, bot_id)
);
INSERT INTO "ladder_entrants" VALUES(2,1,'active','',1.79584801356196546552e+09,1.79584801356196546552e+09,1.79584801356196546552e+09,0,NULL);
INSERT INTO "ladder_entrants" VALUES(2,2,'active','',1.79584801356680130962e+09,1.79584801356680130962e+09,1.79584801356680130962e+09,0,NULL);
INSERT INTO "ladder_entrants" VALUES(2,3,'active','',1.7958480174231419563e+09,1.7958480174231419563e+09,1.7958480174231419563e+09,0,NULL);
INSERT INTO "ladder_entrants" VALUES(2,4,'active','',1.79584802013764524455e+09,1.79584802013764524455e+09,1.79584802013764524455e+09,0,NULL);
CREATE TABLE ladder_status (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id),
    pid INTEGER,
    started_at REAL,
    heartbeat REAL,
    in_flight INTEGER NOT NULL DEFAULT 0,
    per_minute REAL NOT NULL DEFAULT 0,
    note TEXT NOT NULL DEFAULT ''
);
INSERT INTO "ladder_status" VALUES(2,NULL,1.0,1.79584802227456116676e+09,0,0.0,'stopped');
CREATE TABLE match_luck (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    estimator TEXT NOT NULL,
    luck TEXT NOT NULL,
    report TEXT NOT NULL,
    PRIMARY KEY (match_id, estimator)
) WITHOUT ROWID
;
CREATE TABLE match_seats (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    score REAL,
    rank INTEGER,
    faults INTEGER,
    forfeited INTEGER,
    PRIMARY KEY (match_id, seat)
) WITHOUT ROWID;
INSERT INTO "match_seats" VALUES(1,0,1,91.0,1,0,0);
INSERT INTO "match_seats" VALUES(1,1,2,368.0,0,0,0);
INSERT INTO "match_seats" VALUES(2,0,2,268.0,0,0,0);
INSERT INTO "match_seats" VALUES(2,1,1,64.0,1,0,0);
CREATE TABLE matches (
    id INTEGER PRIMARY KEY,
    tournament_id INTEGER REFERENCES tournaments(id),
    position INTEGER NOT NULL,
    round INTEGER NOT NULL,
    deal INTEGER NOT NULL,
    rotation INTEGER NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    settings TEXT NOT NULL,
    seed INTEGER NOT NULL,
    num_players INTEGER NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
    termination TEXT,
    reason TEXT,
    scores TEXT,
    ranking TEXT,
    engine_ranking TEXT,
    faults TEXT,
    forfeited TEXT,
    record TEXT,
    duration_s REAL,
    attempts INTEGER NOT NULL DEFAULT 0,
    finished_at REAL,
    UNIQUE (tournament_id, position)
);
INSERT INTO "matches" VALUES(1,1,0,0,0,0,'yahtzee','yahtzee','{}',1942955373,2,'done','normal','totals seat 0 91, seat 1 368','[91.0, 368.0]','[1, 0]',NULL,NULL,'[]',X'41523478F934985E8ED554C94A44410CFCA108D9978FF1A4827350C1E538FF6E651C90518F1E141EDD4D775255498A77614DF94D6FCAB84E84955DB81406B97D7A387BF58C78757FF7F67C78793DDC7C33EF4FCE12DAC9FF013F3CE23FF21FEDA0D1AC9922F5690C7132A5211582F024C1E7247C3E34699293EAF93637509482106F7B5232433E628A14E32063AA7D6F6C88B57D0824265660148231C94D2D6C8B8C90558088BDF1CDE2E5E1130D7FF5AEA615A538E01828C32E433D20F451805BAF44B0764221170F4027C060367857C1BB144A331716B2525C97CAD6D310C1D3C0AE00420F8A000D4998BB503543DF128A98D0A077D5274C5D519943130D0D903F1873A37D5181781BDFDE30F0E4A46DFBB9070BC4887AA3E66A45C9C690631E686EA0B9A9B3ED72B4A9251C55DB87C8BD048AAD1A1E3066590DA54D2EC912A4EE52A8510CD354D74D02073784E4287918544864A1DD957A7D3CBE0370C014F9',1.513,1,1.79584801153721928591e+09);
INSERT INTO "matches" VALUES(2,1,1,0,1,0,'yahtzee','yahtzee','{}',1999951809,2,'done','normal','totals seat 0 268, seat 1 64','[268.0, 64.0]','[0, 1]',NULL,NULL,'[]',X'41523478F934985E8ED554CB4AC5500CFCA108793F3EC6950ABA50C1C7F2FEBB937241AEE2CE8596D29E93934C26C9B417D2D4DFD4A60CAE90E6B950E919E4EAFEEEFDE5E1F5EDE1E62C5B08E7F6F9F19B787F56D61FD0C313FE23FF510E2A9635522D9FC2D02015722A5223490A1A12DC8A55ECAB48486A574E626B9BF583C509C1427AD8F9D86C8C323CF118ACCDF0C2912E841D90BC7864B0EC0A272895694F370EB6C3C85F059BD9E6D4C241C903B7686CDB8C29A2C05DB313446289750E488A60935ECB0FA49B055443377558D18C9B50CF169D5B612650D6B3B879F95935501AC9948562625B13A0A94809BC8593DCDEE8FA041AC018AD8D32A8C4205A91DD99C143D1416307865528A5394A77406026F0413DE8563A9AB4E4B42C17B7511746860AF03D75224383A016E7724186F2ADD8B6F90C92220558E9CDED2E348D094E82C3CCF5E9F40188220DB9',1.058,1,1.7958480132398424149e+09);
CREATE TABLE pair_stats (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    other_id INTEGER NOT NULL REFERENCES bots(id),
    matches INTEGER NOT NULL,
    half_points INTEGER NOT NULL,
    PRIMARY KEY (game, variant, bot_id, other_id)
);
INSERT INTO "pair_stats" VALUES('yahtzee','yahtzee',1,2,2,0);
INSERT INTO "pair_stats" VALUES('yahtzee','yahtzee',2,1,2,4);
CREATE TABLE rating_history (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    PRIMARY KEY (bot_id, match_id)
) WITHOUT ROWID;
INSERT INTO "rating_history" VALUES(1,1,2.06041679800008381562e+01,7.17147558732619572197e+00);
INSERT INTO "rating_history" VALUES(2,1,1.87703709703957350996e+01,6.52341434227206296014e+00);
INSERT INTO "rating_history" VALUES(1,2,2.93958320199991653956e+01,7.17147558732619572197e+00);
INSERT INTO "rating_history" VALUES(2,2,3.12296290296042684526e+01,6.52341434227206296014e+00);
CREATE TABLE rating_priors (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    reason TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (game, variant, bot_id)
);
INSERT INTO "rating_priors" VALUES('yahtzee','yahtzee',4,27.0,7.00000000000000088817e+00,'before the layers');
CREATE TABLE rating_state (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    last_match_id INTEGER NOT NULL,
    rated_count INTEGER NOT NULL,
    PRIMARY KEY (game, variant)
);
INSERT INTO "rating_state" VALUES('yahtzee','yahtzee',2,2);
CREATE TABLE ratings (
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    matches INTEGER NOT NULL,
    PRIMARY KEY (game, variant, bot_id)
);
INSERT INTO "ratings" VALUES('yahtzee','yahtzee',1,1.87703709703957350996e+01,6.52341434227206296014e+00,2);
INSERT INTO "ratings" VALUES('yahtzee','yahtzee',2,3.12296290296042684526e+01,6.52341434227206296014e+00,2);
CREATE TABLE schema_version (version INTEGER NOT NULL);
INSERT INTO "schema_version" VALUES(12);
CREATE TABLE sprt_points (
    run_id INTEGER NOT NULL REFERENCES sprt_runs(id),
    played INTEGER NOT NULL,
    pairs INTEGER NOT NULL,
    llr REAL NOT NULL,
    PRIMARY KEY (run_id, played)
) WITHOUT ROWID
;
INSERT INTO "sprt_points" VALUES(1,2,2,-6.65023553483325202684e-01);
INSERT INTO "sprt_points" VALUES(1,19,19,3.0236527002422644017e+00);
CREATE TABLE sprt_runs (
    id INTEGER PRIMARY KEY,
    submission_id INTEGER NOT NULL UNIQUE REFERENCES submissions(id),
    old_submission_id INTEGER NOT NULL REFERENCES submissions(id),
    new_bot_id INTEGER NOT NULL REFERENCES bots(id),
    old_bot_id INTEGER NOT NULL REFERENCES bots(id),
    config TEXT NOT NULL,
    state TEXT NOT NULL,
    max_pairs INTEGER NOT NULL,
    next_pair INTEGER NOT NULL DEFAULT 0,
    verdict TEXT CHECK (verdict IN ('stronger', 'not stronger', 'undecided', 'refused', 'failed')),
    reason TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL,
    changed_at REAL NOT NULL,
    finished_at REAL
);
INSERT INTO "sprt_runs" VALUES(1,2,1,4,3,'{"game": "yahtzee", "keep_alive": true, "ladder": "dice", "ladder_id": 2, "sandbox": {"limits": {"cpu_seconds": 600, "file_size_mb": 64, "memory_mb": 1024, "open_files": 256, "processes": 128, "tmp_mb": 64}, "mode": "none"}, "settings": {}, "time_control": {"max_faults": 3, "move_timeout": 1.0, "startup_timeout": 10.0, "time_bank": 10.0}, "variant": "yahtzee"}','{"elo0": 0.0, "elo1": 10.0, "alpha": 0.05, "beta": 0.05, "min_pairs": 10, "counts": [0, 0, 3, 2, 14], "pairs": 19, "llr": 3.0236527002422644, "lower": -2.9444389791664403, "upper": 2.9444389791664403, "verdict": "stronger"}',2000,19,'stronger','',1.7958480201387133599e+09,1.79585876147551202772e+09,1.79585876147551202772e+09);
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY,
    author_id INTEGER NOT NULL REFERENCES users(id),
    bot_name TEXT NOT NULL,
    version TEXT NOT NULL,
    content_hash TEXT NOT NULL,
    ladder TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL CHECK (state IN ('received', 'building', 'validating', 'active', 'failed', 'retired')),
    created_at REAL NOT NULL,
    changed_at REAL NOT NULL,
    message TEXT NOT NULL DEFAULT '',
    log_path TEXT NOT NULL DEFAULT '',
    UNIQUE (author_id, bot_name, content_hash)
);
INSERT INTO "submissions" VALUES(1,1,'anns-bot','1.0','27bbc1c10e686b85ce4bef8a3cbcbfe60b776d0c7fe6bb43f2bf5fcb7186e2f6','dice','active',1.79584801358234572412e+09,1.79584801742826938634e+09,'active on ladder dice as anns-bot@1.0 (added)','logs/1.log');
INSERT INTO "submissions" VALUES(2,1,'anns-bot','2.0','b2833789d897802b9fc2531279e34b07ae7df392d41367b7effa35470996aa30','dice','active',1.79584801359098887446e+09,1.79584802013883018494e+09,'active on ladder dice as anns-bot@2.0 (added)','logs/2.log');
CREATE TABLE tournament_bot_stats (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    matches INTEGER NOT NULL,
    wins INTEGER NOT NULL,
    rank_sum INTEGER NOT NULL,
    score_sum REAL NOT NULL,
    faults INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, bot_id)
) WITHOUT ROWID;
INSERT INTO "tournament_bot_stats" VALUES(1,1,2,0,2,155.0,0);
INSERT INTO "tournament_bot_stats" VALUES(1,2,2,2,0,636.0,0);
CREATE TABLE tournament_bots (
    tournament_id INTEGER NOT NULL REFERENCES tournaments(id),
    position INTEGER NOT NULL,
    bot_id INTEGER NOT NULL REFERENCES bots(id),
    PRIMARY KEY (tournament_id, position),
    UNIQUE (tournament_id, bot_id)
);
INSERT INTO "tournament_bots" VALUES(1,0,1);
INSERT INTO "tournament_bots" VALUES(1,1,2);
INSERT INTO "tournament_bots" VALUES(2,0,1);
INSERT INTO "tournament_bots" VALUES(2,1,2);
INSERT INTO "tournament_bots" VALUES(2,2,3);
INSERT INTO "tournament_bots" VALUES(2,3,4);
CREATE TABLE tournament_stats (
    tournament_id INTEGER PRIMARY KEY REFERENCES tournaments(id),
    pending INTEGER NOT NULL,
    done INTEGER NOT NULL,
    failed INTEGER NOT NULL
);
INSERT INTO "tournament_stats" VALUES(1,0,2,0);
INSERT INTO "tournament_stats" VALUES(2,0,0,0);
CREATE TABLE tournaments (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    settings TEXT NOT NULL,
    format TEXT NOT NULL,
    table_size INTEGER NOT NULL,
    rounds INTEGER NOT NULL,
    duplicate INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    time_control TEXT NOT NULL,
    options TEXT NOT NULL,
    status TEXT NOT NULL,
    runner_pid INTEGER,
    created_at REAL NOT NULL,
    finished_at REAL
);
INSERT INTO "tournaments" VALUES(1,'before-layers','yahtzee','yahtzee','{}','free_for_all',2,1,0,11,'{"max_faults": 3, "move_timeout": 1.0, "startup_timeout": 10.0, "time_bank": 10.0}','{"addresses": {}, "format": "free-for-all, tables of 2", "keep_alive": false, "max_tables": 2000, "sandbox": {"limits": {"cpu_seconds": 600, "file_size_mb": 64, "memory_mb": 1024, "open_files": 256, "processes": 128, "tmp_mb": 64}, "mode": "none"}}','finished',NULL,1.79584800733949089043e+09,1.79584801344858217232e+09);
INSERT INTO "tournaments" VALUES(2,'dice','yahtzee','yahtzee','{}','free_for_all',2,0,1,5,'{"max_faults": 3, "move_timeout": 1.0, "startup_timeout": 10.0, "time_bank": 10.0}','{"addresses": {}, "format": "ladder", "keep_alive": true, "kind": "ladder", "sandbox": {"limits": {"cpu_seconds": 600, "file_size_mb": 64, "memory_mb": 1024, "open_files": 256, "processes": 128, "tmp_mb": 64}, "mode": "none"}, "seats": [2, 2]}','created',NULL,1.79584801355983138086e+09,NULL);
CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
    admin INTEGER NOT NULL DEFAULT 0,
    disabled INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    token_id TEXT NOT NULL UNIQUE,
    token_hash TEXT NOT NULL,
    token_created_at REAL NOT NULL
);
INSERT INTO "users" VALUES(1,'ann',0,0,1.79584801356743741038e+09,'dffff798b493','e7e0cf98804b6c68bad690244d106d0b89560a4167d9310ee7aa483741de3edb',1.79584801356743741038e+09);
INSERT INTO "users" VALUES(2,'root',1,0,1.79584801356786632545e+09,'1b1b764c53c6','ec2898a01cfac3b097b0f82ac0885cdbe614a19898967651d753b9a9dbe90a77',1.79584801356786632545e+09);
CREATE TABLE web_sessions (
    id_hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    csrf TEXT NOT NULL,
    created_at REAL NOT NULL,
    expires_at REAL NOT NULL
);
INSERT INTO "web_sessions" VALUES('fdc8e290b56c682d5ee947b16f2f8ec780d23ffaa44bf7bc2075280b77e48cb4',1,'sZ1iQhNTRwc0M-AIF-PgA6heX_w-gfRcbAU4Ud8BdpM',1.79584801356892323495e+09,1.79645281356892323491e+09);
CREATE INDEX matches_by_game ON matches (game, variant, status, id);
CREATE INDEX seats_by_bot ON match_seats (bot_id);
CREATE INDEX matches_by_tournament ON matches (tournament_id, status, id);
CREATE INDEX web_sessions_by_user ON web_sessions (user_id)
;
CREATE INDEX submissions_by_author ON submissions (author_id, id)
;
CREATE INDEX sprt_runs_open ON sprt_runs (id) WHERE verdict IS NULL;
COMMIT;
