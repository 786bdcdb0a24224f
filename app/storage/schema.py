"""The database's schema, as the list of migrations that builds it: both games' tables.

One SQLite file holds both games (`db.py` says why), so its schema has one version
(`PRAGMA user_version`) and one history: `MIGRATIONS[i]` upgrades version i to i + 1. A
migration is never edited once released: a database written by it exists somewhere.
"""

from __future__ import annotations

MIGRATIONS: list[list[str]] = [
    # 0 -> 1: rooms, their round logs, Devil's Grip games.
    [
        """CREATE TABLE rooms (code TEXT PRIMARY KEY, meta TEXT NOT NULL, round_no INTEGER NOT NULL,
                               initial TEXT, updated REAL NOT NULL)""",
        """CREATE TABLE steps (code TEXT NOT NULL, round_no INTEGER NOT NULL, seq INTEGER NOT NULL,
                               step TEXT NOT NULL, player TEXT, action_id TEXT, v INTEGER,
                               PRIMARY KEY (code, round_no, seq))""",
        """CREATE TABLE grips (id TEXT PRIMARY KEY, token_hash TEXT NOT NULL, game TEXT NOT NULL,
                               updated REAL NOT NULL)""",
    ],
    # 1 -> 2: finished matches kept as history; rooms remember that their match ended.
    [
        """CREATE TABLE matches (id INTEGER PRIMARY KEY AUTOINCREMENT, code TEXT NOT NULL,
                                 finished_at REAL NOT NULL, players TEXT NOT NULL,
                                 rounds TEXT NOT NULL, winners TEXT NOT NULL)""",
        "ALTER TABLE rooms ADD COLUMN finished INTEGER NOT NULL DEFAULT 0",
    ],
    # 2 -> 3: Devil's Grip advice. A game remembers that a hint was used (rule 12 style)
    # and whether it was dealt as certified winnable; every (deal, pass limit) keeps its
    # par; deals tried by the solver keep their winning line (NULL: none found in the
    # budget). Deal numbers are TEXT: they go up to 2**64 - 1, past SQLite's integers.
    [
        "ALTER TABLE grips ADD COLUMN used_hint INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE grips ADD COLUMN winnable INTEGER NOT NULL DEFAULT 0",
        """CREATE TABLE grip_par (number TEXT NOT NULL, passes INTEGER NOT NULL, par INTEGER NOT NULL,
                                  engine TEXT NOT NULL, computed REAL NOT NULL, PRIMARY KEY (number, passes))""",
        """CREATE TABLE grip_solutions (number TEXT PRIMARY KEY, line TEXT, tried REAL NOT NULL,
                                        dealt INTEGER NOT NULL DEFAULT 0)""",
    ],
]
MIGRATIONS.append(
    # 3 -> 4: the Devil's Grip games dealt and not yet played (no action made), which are
    # kept only briefly, are listed apart (a small table; a game leaves it with its first
    # action; games from before count as played); games are found by age through an
    # index, as pruning runs while the server does. (Written to be harmless when run
    # again on a database that has them.)
    [
        "CREATE TABLE IF NOT EXISTS grip_fresh (id TEXT PRIMARY KEY, dealt REAL NOT NULL)",
        "CREATE INDEX IF NOT EXISTS grip_fresh_dealt ON grip_fresh (dealt)",
        "CREATE INDEX IF NOT EXISTS grips_updated ON grips (updated)",
    ]
)
MIGRATIONS.append(
    # 4 -> 5: the applied action ids a room still answers that its current round's log
    # does not hold (the previous round's; after a rematch, the last match's last round),
    # rewritten when a round begins, so that they survive a restart too.
    # `earlier` is 1 for the previous round's ids, 0 for ids still counted as this one's.
    [
        """CREATE TABLE IF NOT EXISTS kept_action_ids (code TEXT NOT NULL, player TEXT NOT NULL,
                                                     action_id TEXT NOT NULL, v INTEGER NOT NULL,
                                                     earlier INTEGER NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS kept_action_ids_code ON kept_action_ids (code)",
    ]
)
MIGRATIONS.append(
    # 5 -> 6: who may see a finished match (docs/security.md, "Who sees which games"): the
    # public list shows it only when its host listed the room; otherwise only the people
    # who played it, who prove it with their seat's token (its hash is kept here).
    # Matches from before are listed for nobody.
    [
        "ALTER TABLE matches ADD COLUMN listed INTEGER NOT NULL DEFAULT 0",
        "ALTER TABLE matches ADD COLUMN seats TEXT NOT NULL DEFAULT '[]'",
        "CREATE INDEX IF NOT EXISTS matches_code ON matches (code)",
    ]
)
MIGRATIONS.append(
    # 6 -> 7: replays and the daily race. Each step keeps when the server received it (seconds
    # after the round's signal; NULL for steps from before), and every finished Demon
    # round keeps its whole record (the room's `steps` are rewritten by the next round),
    # with who played it: the token hashes of its seats decide who may watch it again.
    [
        "ALTER TABLE steps ADD COLUMN at REAL",
        """CREATE TABLE IF NOT EXISTS replays (id TEXT PRIMARY KEY, code TEXT NOT NULL, round_no INTEGER NOT NULL,
                                              finished_at REAL NOT NULL, players TEXT NOT NULL,
                                              watchers TEXT NOT NULL, shared INTEGER NOT NULL DEFAULT 0,
                                              record TEXT NOT NULL)""",
        "CREATE INDEX IF NOT EXISTS replays_code ON replays (code, finished_at)",
        # the daily race: a browser's one counted attempt a day, and how it went
        """CREATE TABLE IF NOT EXISTS daily (day TEXT NOT NULL, player TEXT NOT NULL, name TEXT NOT NULL,
                                            level TEXT NOT NULL, code TEXT NOT NULL, started REAL NOT NULL,
                                            replay_id TEXT, score INTEGER, home INTEGER, reason TEXT,
                                            PRIMARY KEY (day, player))""",
        "CREATE INDEX IF NOT EXISTS daily_code ON daily (code)",
    ]
)
MIGRATIONS.append(
    # 7 -> 8: replays and the daily race's entries are pruned like Devil's Grip games
    # (after DEMON_REPLAY_EXPIRY_DAYS, and the oldest replays past DEMON_REPLAY_MAX_STORED):
    # replays are found by age through an index, as pruning runs while the server plays.
    [
        "CREATE INDEX IF NOT EXISTS replays_finished ON replays (finished_at)",
    ]
)
MIGRATIONS.append(
    # 8 -> 9: a table deals Demon or Nerts; a finished match remembers which (the recent
    # games name it). Matches from before were Demon's.
    [
        "ALTER TABLE matches ADD COLUMN game TEXT NOT NULL DEFAULT 'demon'",
    ]
)
MIGRATIONS.append(
    # 9 -> 10: a kept round remembers that its person let the bots finish it, so its
    # replay says how it ended as the results did ("The bots finished the round for
    # you."), not that the players voted. Rounds from before read as not.
    [
        "ALTER TABLE replays ADD COLUMN bots_finish INTEGER NOT NULL DEFAULT 0",
    ]
)
SCHEMA_VERSION = len(MIGRATIONS)
