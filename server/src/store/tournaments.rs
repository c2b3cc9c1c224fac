//! Tournaments in the store, written ahead like games: a tournament is created, its
//! entrants entered, each round's pairing published and each result recorded, every one
//! committed before anyone hears of it. A restart reads them all back ([`load`]) and
//! the tournament carries on from its pairings and results.
//!
//! - `tournaments`: one row per tournament (its settings as JSON, status, rounds).
//! - `tournament_entrants`: one row per entrant, by pairing number.
//! - `tournament_boards`: one row per board of a round (arena: of a wave), its room,
//!   when it was paired (the forfeit counts from it, across restarts) and its result;
//!   `tournament_byes`: the byes.
//! - `tournament_bye_requests`: byes players asked for rounds not yet paired (Swiss).
//!
//! A round's boards are inserted with `INSERT OR IGNORE`: the first pairing of a round
//! stands, so a round is never paired twice, and every write is idempotent like the
//! game log's (a retried batch writes nothing twice).

use rusqlite::{Connection, Transaction, params};

use banco_protocol::{RoomId, TournamentId};

/// An entrant as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredEntrant {
    /// The pairing number, from 1.
    pub number: u32,
    /// As shown.
    pub name: String,
    /// The server's bot of this level (its `Level::name`), if a bot.
    pub bot: Option<String>,
    /// The rating that ordered the numbers.
    pub rating: u16,
    /// Logged in to an account when entering.
    pub account: bool,
    /// The first round the entrant may be paired in.
    pub joins: u32,
    /// Not paired again.
    pub withdrawn: bool,
    /// Removed by the organiser: may not come back (an arena player who withdrew may).
    pub removed: bool,
}

/// A board as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredBoard {
    /// The round (arena: the wave), from 1.
    pub round: u32,
    /// From 1 within the round.
    pub board: u32,
    /// White's pairing number.
    pub white: u32,
    /// Black's pairing number.
    pub black: u32,
    /// Its room, once opened.
    pub room: Option<RoomId>,
    /// The result's stable text (`BoardResult::text`), once known.
    pub result: Option<String>,
    /// The organiser set it.
    pub by_hand: bool,
    /// Arena: white and black went berserk.
    pub berserk: [bool; 2],
    /// When it was paired, Unix milliseconds (0 in rows from before version 16): the
    /// forfeit for not coming counts from it.
    pub paired_ms: u64,
}

/// A bye as kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredBye {
    /// The round.
    pub round: u32,
    /// Who had it.
    pub entrant: u32,
    /// `pairing`, `half`, `full` or `zero`.
    pub kind: String,
}

/// A tournament as read back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredTournament {
    /// Its number.
    pub id: TournamentId,
    /// The account that runs it.
    pub organiser: String,
    /// `TournamentSettings` as JSON.
    pub settings: String,
    /// `TournamentStatus::as_str`.
    pub status: String,
    /// Rounds it has (a Swiss may have had rounds added).
    pub total_rounds: u32,
    /// Unix milliseconds.
    pub created_ms: u64,
    /// Unix milliseconds, once started.
    pub started_ms: Option<u64>,
    /// Arena: when it ends, Unix milliseconds.
    pub ends_ms: Option<u64>,
    /// By pairing number.
    pub entrants: Vec<StoredEntrant>,
    /// Round by round, board by board.
    pub boards: Vec<StoredBoard>,
    /// Round by round.
    pub byes: Vec<StoredBye>,
    /// Byes asked for, as (round, entrant), round by round.
    pub bye_requests: Vec<(u32, u32)>,
}

/// One write of a tournament's.
#[derive(Debug, Clone)]
pub enum TournamentWrite {
    /// Made (or its settings and status as they stand now).
    Created {
        /// Its number.
        id: TournamentId,
        /// The account that runs it.
        organiser: String,
        /// Settings as JSON.
        settings: String,
        /// Unix milliseconds.
        created_ms: u64,
    },
    /// Its status, rounds and times as they stand.
    Status {
        /// Its number.
        id: TournamentId,
        /// `TournamentStatus::as_str`.
        status: String,
        /// Rounds it has.
        total_rounds: u32,
        /// Unix milliseconds, once started.
        started_ms: Option<u64>,
        /// Arena: when it ends.
        ends_ms: Option<u64>,
    },
    /// An entrant entered, withdrawn or renumbered (the row is replaced).
    Entrant {
        /// The tournament.
        id: TournamentId,
        /// The entrant.
        entrant: StoredEntrant,
    },
    /// Every entrant as numbered at the start (the rows are replaced), and the byes
    /// asked for before it under the new numbers.
    Entrants {
        /// The tournament.
        id: TournamentId,
        /// By pairing number.
        entrants: Vec<StoredEntrant>,
        /// (round, entrant) by the new numbers.
        bye_requests: Vec<(u32, u32)>,
    },
    /// A round (arena: a wave) paired: its boards and byes. The first write of a round
    /// stands; the byes asked for it are spent.
    Paired {
        /// The tournament.
        id: TournamentId,
        /// The round.
        round: u32,
        /// Its boards.
        boards: Vec<StoredBoard>,
        /// Its byes.
        byes: Vec<StoredBye>,
    },
    /// A board's room opened.
    Room {
        /// The tournament.
        id: TournamentId,
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// The room.
        room: RoomId,
    },
    /// A board's result: played out (written by its room with the game's end, in one
    /// transaction), a forfeit, or set by hand.
    Result {
        /// The tournament.
        id: TournamentId,
        /// The round.
        round: u32,
        /// The board.
        board: u32,
        /// `BoardResult::text`.
        result: String,
        /// Set by the organiser.
        by_hand: bool,
        /// Arena: who went berserk (a result by hand leaves it as it was).
        berserk: Option<[bool; 2]>,
    },
    /// A bye asked for a round not yet paired, or the request taken back.
    ByeRequest {
        /// The tournament.
        id: TournamentId,
        /// The round it is for.
        round: u32,
        /// Who asked.
        entrant: u32,
        /// `false`: taken back.
        wanted: bool,
    },
}

impl TournamentWrite {
    /// Roughly its size in memory while it waits for the disk.
    pub fn size(&self) -> usize {
        match self {
            TournamentWrite::Created { settings, .. } => 256 + settings.len(),
            TournamentWrite::Entrants { entrants, .. } => 128 * (1 + entrants.len()),
            TournamentWrite::Paired { boards, byes, .. } => 64 * (1 + boards.len() + byes.len()),
            _ => 128,
        }
    }

    /// Writes it inside `tx`.
    pub(super) fn write(&self, tx: &Transaction<'_>) -> rusqlite::Result<()> {
        match self {
            TournamentWrite::Created {
                id,
                organiser,
                settings,
                created_ms,
            } => {
                tx.execute(
                    "INSERT INTO tournaments (id, organiser, settings, status, total_rounds,
                        created_at)
                     VALUES (?1, ?2, ?3, 'entries', 0, ?4)
                     ON CONFLICT (id) DO UPDATE SET settings = excluded.settings",
                    params![id, organiser, settings, *created_ms as i64],
                )?;
            }
            TournamentWrite::Status {
                id,
                status,
                total_rounds,
                started_ms,
                ends_ms,
            } => {
                tx.execute(
                    "UPDATE tournaments SET status = ?2, total_rounds = ?3, started_at = ?4,
                        ends_at = ?5 WHERE id = ?1",
                    params![
                        id,
                        status,
                        total_rounds,
                        started_ms.map(|t| t as i64),
                        ends_ms.map(|t| t as i64)
                    ],
                )?;
            }
            TournamentWrite::Entrant { id, entrant } => {
                put_entrant(tx, *id, entrant)?;
                if entrant.withdrawn {
                    // A player who withdrew asks for no more byes.
                    tx.execute(
                        "DELETE FROM tournament_bye_requests
                         WHERE tournament = ?1 AND entrant = ?2",
                        params![id, entrant.number],
                    )?;
                }
            }
            TournamentWrite::Entrants {
                id,
                entrants,
                bye_requests,
            } => {
                tx.execute(
                    "DELETE FROM tournament_entrants WHERE tournament = ?1",
                    params![id],
                )?;
                for e in entrants {
                    put_entrant(tx, *id, e)?;
                }
                tx.execute(
                    "DELETE FROM tournament_bye_requests WHERE tournament = ?1",
                    params![id],
                )?;
                for (round, entrant) in bye_requests {
                    tx.execute(
                        "INSERT OR IGNORE INTO tournament_bye_requests (tournament, round,
                            entrant) VALUES (?1, ?2, ?3)",
                        params![id, round, entrant],
                    )?;
                }
            }
            TournamentWrite::Paired {
                id,
                round,
                boards,
                byes,
            } => {
                for b in boards {
                    tx.execute(
                        "INSERT OR IGNORE INTO tournament_boards (tournament, round, board,
                            white, black, room, result, by_hand, paired_at)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
                        params![
                            id,
                            b.round,
                            b.board,
                            b.white,
                            b.black,
                            b.room,
                            b.result,
                            b.by_hand,
                            b.paired_ms as i64
                        ],
                    )?;
                }
                tx.execute(
                    "DELETE FROM tournament_bye_requests WHERE tournament = ?1 AND round <= ?2",
                    params![id, round],
                )?;
                for y in byes {
                    tx.execute(
                        "INSERT OR IGNORE INTO tournament_byes (tournament, round, entrant, kind)
                         VALUES (?1, ?2, ?3, ?4)",
                        params![id, y.round, y.entrant, y.kind],
                    )?;
                }
            }
            TournamentWrite::Room {
                id,
                round,
                board,
                room,
            } => {
                tx.execute(
                    "UPDATE tournament_boards SET room = ?4
                     WHERE tournament = ?1 AND round = ?2 AND board = ?3",
                    params![id, round, board, room],
                )?;
            }
            TournamentWrite::Result {
                id,
                round,
                board,
                result,
                by_hand,
                berserk,
            } => {
                // A result played out never replaces one set by hand; a hand overrides all.
                tx.execute(
                    "UPDATE tournament_boards SET result = ?4, by_hand = ?5
                     WHERE tournament = ?1 AND round = ?2 AND board = ?3
                       AND (?5 OR result IS NULL)",
                    params![id, round, board, result, by_hand],
                )?;
                if let Some([white, black]) = berserk {
                    tx.execute(
                        "UPDATE tournament_boards SET berserk_white = ?4, berserk_black = ?5
                         WHERE tournament = ?1 AND round = ?2 AND board = ?3",
                        params![id, round, board, white, black],
                    )?;
                }
            }
            TournamentWrite::ByeRequest {
                id,
                round,
                entrant,
                wanted,
            } => {
                if *wanted {
                    // Not for a round already paired (a request racing its pairing).
                    tx.execute(
                        "INSERT OR IGNORE INTO tournament_bye_requests (tournament, round,
                            entrant)
                         SELECT ?1, ?2, ?3
                         WHERE NOT EXISTS (SELECT 1 FROM tournament_boards
                                 WHERE tournament = ?1 AND round >= ?2)
                           AND NOT EXISTS (SELECT 1 FROM tournament_byes
                                 WHERE tournament = ?1 AND round >= ?2)",
                        params![id, round, entrant],
                    )?;
                } else {
                    tx.execute(
                        "DELETE FROM tournament_bye_requests
                         WHERE tournament = ?1 AND round = ?2 AND entrant = ?3",
                        params![id, round, entrant],
                    )?;
                }
            }
        }
        Ok(())
    }
}

fn put_entrant(tx: &Transaction<'_>, id: TournamentId, e: &StoredEntrant) -> rusqlite::Result<()> {
    tx.execute(
        "INSERT OR REPLACE INTO tournament_entrants (tournament, number, name, bot, rating,
            account, joins, withdrawn, removed)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
        params![
            id,
            e.number,
            e.name,
            e.bot,
            e.rating,
            e.account,
            e.joins,
            e.withdrawn,
            e.removed
        ],
    )?;
    Ok(())
}

/// Creates the tables (schema version 14).
pub(super) fn create_tables(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS tournaments (
             id           INTEGER PRIMARY KEY,
             -- the account that made and runs it
             organiser    TEXT NOT NULL,
             -- TournamentSettings as JSON
             settings     TEXT NOT NULL,
             -- 'entries', 'running', 'paused' or 'over'
             status       TEXT NOT NULL,
             -- the rounds it has (a Swiss may have rounds added; 0 for an arena)
             total_rounds INTEGER NOT NULL,
             created_at   INTEGER NOT NULL,
             started_at   INTEGER,
             -- an arena's end
             ends_at      INTEGER
         );
         CREATE TABLE IF NOT EXISTS tournament_entrants (
             tournament INTEGER NOT NULL REFERENCES tournaments(id),
             -- the pairing number, from 1
             number     INTEGER NOT NULL,
             name       TEXT NOT NULL,
             -- the server's bot's level name, NULL for a person
             bot        TEXT,
             rating     INTEGER NOT NULL,
             account    INTEGER NOT NULL,
             -- the first round the entrant may be paired in
             joins      INTEGER NOT NULL,
             withdrawn  INTEGER NOT NULL,
             PRIMARY KEY (tournament, number)
         );
         CREATE TABLE IF NOT EXISTS tournament_boards (
             tournament INTEGER NOT NULL REFERENCES tournaments(id),
             -- the round (an arena's wave), from 1
             round      INTEGER NOT NULL,
             board      INTEGER NOT NULL,
             white      INTEGER NOT NULL,
             black      INTEGER NOT NULL,
             -- the room it is played in, once opened
             room       INTEGER,
             -- '1-0', '1/2-1/2', '0-1', '+--', '--+', '---'; NULL while played
             result     TEXT,
             -- 1: set by the organiser
             by_hand    INTEGER NOT NULL DEFAULT 0,
             -- arena: 1 when white / black went berserk
             berserk_white INTEGER NOT NULL DEFAULT 0,
             berserk_black INTEGER NOT NULL DEFAULT 0,
             PRIMARY KEY (tournament, round, board)
         );
         CREATE TABLE IF NOT EXISTS tournament_byes (
             tournament INTEGER NOT NULL REFERENCES tournaments(id),
             round      INTEGER NOT NULL,
             entrant    INTEGER NOT NULL,
             -- 'pairing', 'half', 'full' or 'zero'
             kind       TEXT NOT NULL,
             PRIMARY KEY (tournament, round, entrant)
         );",
    )
}

/// Schema version 16: when each board was paired (the forfeit counts from it across
/// restarts), entrants removed by the organiser (an arena player who withdrew may come
/// back, a removed one may not), and the byes players ask for before a round.
pub(super) fn add_version_16(tx: &Transaction<'_>) -> rusqlite::Result<()> {
    if !super::schema::has_column(tx, "tournament_boards", "paired_at")? {
        // Unix milliseconds when the board was paired; 0 in rows from before version 16
        tx.execute_batch(
            "ALTER TABLE tournament_boards ADD COLUMN paired_at INTEGER NOT NULL DEFAULT 0",
        )?;
    }
    if !super::schema::has_column(tx, "tournament_entrants", "removed")? {
        // 1: removed by the organiser (may not enter again)
        tx.execute_batch(
            "ALTER TABLE tournament_entrants ADD COLUMN removed INTEGER NOT NULL DEFAULT 0",
        )?;
    }
    tx.execute_batch(
        "CREATE TABLE IF NOT EXISTS tournament_bye_requests (
             tournament INTEGER NOT NULL REFERENCES tournaments(id),
             -- the round the bye is asked for (not yet paired)
             round      INTEGER NOT NULL,
             -- who asked, by pairing number
             entrant    INTEGER NOT NULL,
             PRIMARY KEY (tournament, round, entrant)
         );",
    )
}

/// Every tournament, over ones too (their standings and exports stay available).
pub fn load(conn: &Connection) -> rusqlite::Result<Vec<StoredTournament>> {
    let mut out: Vec<StoredTournament> = conn
        .prepare(
            "SELECT id, organiser, settings, status, total_rounds, created_at, started_at,
                ends_at FROM tournaments ORDER BY id",
        )?
        .query_map([], |r| {
            Ok(StoredTournament {
                id: r.get(0)?,
                organiser: r.get(1)?,
                settings: r.get(2)?,
                status: r.get(3)?,
                total_rounds: r.get(4)?,
                created_ms: r.get::<_, i64>(5)? as u64,
                started_ms: r.get::<_, Option<i64>>(6)?.map(|t| t as u64),
                ends_ms: r.get::<_, Option<i64>>(7)?.map(|t| t as u64),
                entrants: Vec::new(),
                boards: Vec::new(),
                byes: Vec::new(),
                bye_requests: Vec::new(),
            })
        })?
        .collect::<Result<_, _>>()?;
    for t in &mut out {
        t.entrants = conn
            .prepare(
                "SELECT number, name, bot, rating, account, joins, withdrawn, removed
                 FROM tournament_entrants WHERE tournament = ?1 ORDER BY number",
            )?
            .query_map([t.id], |r| {
                Ok(StoredEntrant {
                    number: r.get(0)?,
                    name: r.get(1)?,
                    bot: r.get(2)?,
                    rating: r.get(3)?,
                    account: r.get(4)?,
                    joins: r.get(5)?,
                    withdrawn: r.get(6)?,
                    removed: r.get(7)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        t.boards = conn
            .prepare(
                "SELECT round, board, white, black, room, result, by_hand, berserk_white,
                    berserk_black, paired_at
                 FROM tournament_boards WHERE tournament = ?1 ORDER BY round, board",
            )?
            .query_map([t.id], |r| {
                Ok(StoredBoard {
                    round: r.get(0)?,
                    board: r.get(1)?,
                    white: r.get(2)?,
                    black: r.get(3)?,
                    room: r.get(4)?,
                    result: r.get(5)?,
                    by_hand: r.get(6)?,
                    berserk: [r.get(7)?, r.get(8)?],
                    paired_ms: u64::try_from(r.get::<_, i64>(9)?).unwrap_or(0),
                })
            })?
            .collect::<Result<_, _>>()?;
        t.byes = conn
            .prepare(
                "SELECT round, entrant, kind FROM tournament_byes WHERE tournament = ?1
                 ORDER BY round, entrant",
            )?
            .query_map([t.id], |r| {
                Ok(StoredBye {
                    round: r.get(0)?,
                    entrant: r.get(1)?,
                    kind: r.get(2)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        t.bye_requests = conn
            .prepare(
                "SELECT round, entrant FROM tournament_bye_requests WHERE tournament = ?1
                 ORDER BY round, entrant",
            )?
            .query_map([t.id], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open() -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        super::super::schema::create(&mut conn).unwrap();
        conn
    }

    fn write(conn: &mut Connection, w: &[TournamentWrite]) {
        let tx = conn.transaction().unwrap();
        for w in w {
            w.write(&tx).unwrap();
        }
        tx.commit().unwrap();
    }

    #[test]
    fn a_round_is_paired_once_and_a_hand_result_is_not_overwritten() {
        let mut conn = open();
        let board = |white, black| StoredBoard {
            round: 1,
            board: 1,
            white,
            black,
            room: None,
            result: None,
            by_hand: false,
            berserk: [false; 2],
            paired_ms: 1_700_000_000_000,
        };
        write(
            &mut conn,
            &[
                TournamentWrite::Created {
                    id: 1,
                    organiser: "An".into(),
                    settings: "{}".into(),
                    created_ms: 5,
                },
                TournamentWrite::Paired {
                    id: 1,
                    round: 1,
                    boards: vec![board(1, 2)],
                    byes: vec![],
                },
                // A second pairing of the same round does not replace the first.
                TournamentWrite::Paired {
                    id: 1,
                    round: 1,
                    boards: vec![board(2, 1)],
                    byes: vec![],
                },
                TournamentWrite::Result {
                    id: 1,
                    round: 1,
                    board: 1,
                    result: "1/2-1/2".into(),
                    by_hand: true,
                    berserk: None,
                },
                TournamentWrite::Result {
                    id: 1,
                    round: 1,
                    board: 1,
                    result: "1-0".into(),
                    by_hand: false,
                    berserk: Some([true, false]),
                },
            ],
        );
        let t = &load(&conn).unwrap()[0];
        assert_eq!((t.boards[0].white, t.boards[0].black), (1, 2));
        assert_eq!(t.boards[0].result.as_deref(), Some("1/2-1/2"));
        assert!(t.boards[0].by_hand);
        assert_eq!(t.boards[0].berserk, [true, false]);
        assert_eq!(
            t.boards[0].paired_ms, 1_700_000_000_000,
            "kept across restarts"
        );
    }

    #[test]
    fn a_bye_request_is_kept_taken_back_and_spent_by_its_round() {
        let mut conn = open();
        let ask = |round, entrant, wanted| TournamentWrite::ByeRequest {
            id: 1,
            round,
            entrant,
            wanted,
        };
        write(
            &mut conn,
            &[
                TournamentWrite::Created {
                    id: 1,
                    organiser: "An".into(),
                    settings: "{}".into(),
                    created_ms: 5,
                },
                ask(1, 3, true),
                ask(2, 3, true),
                ask(2, 4, true),
                ask(2, 4, false),
            ],
        );
        assert_eq!(load(&conn).unwrap()[0].bye_requests, vec![(1, 3), (2, 3)]);
        write(
            &mut conn,
            &[
                TournamentWrite::Paired {
                    id: 1,
                    round: 1,
                    boards: vec![],
                    byes: vec![StoredBye {
                        round: 1,
                        entrant: 3,
                        kind: "half".into(),
                    }],
                },
                // Too late for round 1: it is paired.
                ask(1, 4, true),
            ],
        );
        let t = &load(&conn).unwrap()[0];
        assert_eq!(t.bye_requests, vec![(2, 3)]);
        assert_eq!(t.byes[0].kind, "half");
    }
}
