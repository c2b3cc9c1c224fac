//! Record files on the wire: the game a record file holds, in the protocol's words
//! (seats, [`MoveRecord`]s, an instant for its end), and its conversions to and from the
//! rules' [`banco_rules::record::Record`], whose reader and writer are the only ones.
//!
//! A client that carries no rules (the browser page) sends a file's text
//! ([`crate::ClientMsg::ParseRecord`]) and gets the game back
//! ([`crate::ServerMsg::RecordParsed`]), or sends a game
//! ([`crate::ClientMsg::WriteRecord`]) and gets the file's name and text
//! ([`crate::ServerMsg::RecordText`]); a refusal is [`crate::ServerMsg::RecordRefused`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use banco_rules::game::{EndReason as RulesReason, GameSpec, Move as RulesMove, MoveNote, Side};
use banco_rules::record::wall::WallTime;
use banco_rules::record::{Ending, Played, Reason, Record, RecordError};
use banco_rules::xiangqi;

use crate::room::{
    CaroOpening, EndReason, GameId, GameOver, GameRecord, GameSettings, Move, MoveRecord, Point,
    Seat, TimeControl, XqSquare,
};

/// The longest record text a [`crate::ClientMsg::ParseRecord`] may carry: what fits one
/// client message with room for the JSON around it. Every record banco writes fits
/// (a 64x64 board with every point played is about 40 KB); the terminal client reads
/// files up to [`banco_rules::record::MAX_FILE_BYTES`] from disk.
pub const MAX_RECORD_TEXT: usize = crate::MAX_CLIENT_FRAME - 4 * 1024;

/// The furthest a wall clock is from UTC, in minutes (UTC+14, and UTC-12 the other way).
pub const MAX_ZONE_MINUTES: i16 = 14 * 60;

/// A game as a record file holds it. Shaped like [`GameRecord`] (a server's replay is
/// one, and reads as one), with what a file may leave out optional.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RecordedGame {
    /// Who played what, and how it ended, where known.
    pub summary: RecordedSummary,
    /// Xiangqi: the start position's FEN; empty for the usual start and for caro.
    pub start_fen: String,
    /// Caro: the stones the game started from, X first (empty for none). Not moves.
    pub opening: Vec<Point>,
    /// Every move after the opening, in order.
    pub moves: Vec<MoveRecord>,
}

/// The facts about a recorded game, as [`crate::GameSummary`] has them where known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RecordedSummary {
    /// The server's number for the game; `None` for one it never stored.
    #[serde(default)]
    pub id: Option<GameId>,
    /// Which game, board and rule (or start position).
    pub game: GameSettings,
    /// The time control it was played with, when known.
    #[serde(default)]
    pub time: Option<TimeControl>,
    /// Names by seat.
    pub players: [String; 2],
    /// The seat that moved first.
    pub first: Seat,
    /// How it ended; `None` for an unfinished game.
    #[serde(default)]
    pub over: Option<GameOver>,
    /// When it ended, in milliseconds since the Unix epoch, when known.
    #[serde(default)]
    pub ended_at_ms: Option<u64>,
    /// Whether the server counted it for ratings; `None` for a game read from a file.
    #[serde(default)]
    pub rated: Option<bool>,
}

impl From<GameRecord> for RecordedGame {
    fn from(record: GameRecord) -> RecordedGame {
        let s = record.summary;
        RecordedGame {
            summary: RecordedSummary {
                id: Some(s.id),
                game: s.game,
                time: Some(s.time),
                players: s.players,
                first: s.first,
                over: Some(s.over),
                ended_at_ms: Some(s.ended_at_ms),
                rated: Some(s.rated),
            },
            start_fen: record.start_fen,
            opening: record.opening,
            moves: record.moves,
        }
    }
}

/// A fixed time zone, `minutes` east of UTC: how the server reads and writes the
/// `ended:` date for a page, in the zone the page gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Zone(pub i16);

impl Zone {
    /// The instant a wall-clock reading in this zone stands for (ms since the epoch);
    /// `None` before 1970.
    pub fn instant(self, wall: WallTime) -> Option<u64> {
        u64::try_from(wall.0 - i64::from(self.0) * 60_000).ok()
    }

    /// What a wall clock in this zone read at `ms` since the epoch.
    pub fn wall(self, ms: u64) -> WallTime {
        WallTime(i64::try_from(ms).unwrap_or(i64::MAX / 2) + i64::from(self.0) * 60_000)
    }
}

fn whole(message: impl Into<String>) -> RecordError {
    RecordError {
        line: 0,
        message: message.into(),
    }
}

fn side_of(first: Seat, seat: Seat) -> Side {
    if seat == first {
        Side::First
    } else {
        Side::Second
    }
}

impl RecordedGame {
    /// The rules' record of this game, its moves and notes as given (see
    /// [`Record::check`] to check them). `wall` reads its end on the writer's wall clock.
    pub fn to_record(&self, wall: impl Fn(u64) -> WallTime) -> Result<Record, RecordError> {
        let s = &self.summary;
        let game = match &s.game {
            GameSettings::Caro {
                width,
                height,
                rule,
                ..
            } => GameSpec::Caro {
                width: *width,
                height: *height,
                rule: *rule,
                opening: self.opening.clone(),
            },
            GameSettings::Xiangqi { fen } => {
                let fen = Some(self.start_fen.clone())
                    .filter(|f| !f.is_empty())
                    .or_else(|| fen.clone())
                    .filter(|f| {
                        xiangqi::Game::from_fen(f).map_or(true, |g| !g.is_standard_start())
                    });
                GameSpec::Xiangqi { fen }
            }
        };
        let other = s.first.other();
        let moves = self
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                rules_move(m.mv)
                    .map(|mv| Played {
                        mv,
                        note: MoveNote {
                            wxf: m.wxf.clone(),
                            check: m.check,
                        },
                    })
                    .ok_or_else(|| whole(format!("move {} is off the board", i + 1)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let ending = s.over.as_ref().map(|o| Ending {
            winner: o.winner.map(|w| side_of(s.first, w)),
            reason: o.reason.into(),
            line: o.line.clone(),
        });
        Ok(Record {
            game,
            time: s.time,
            players: [
                s.players[s.first.index()].clone(),
                s.players[other.index()].clone(),
            ],
            ending,
            ended: s.ended_at_ms.map(wall),
            id: s.id,
            moves,
        })
    }

    /// The game a record holds, seat One the first mover. `instant` turns the writer's
    /// wall-clock end into an instant (`None` when it cannot).
    pub fn from_record(record: Record, instant: impl Fn(WallTime) -> Option<u64>) -> RecordedGame {
        let (game, start_fen, opening) = match record.game {
            GameSpec::Caro {
                width,
                height,
                rule,
                opening,
            } => (
                GameSettings::Caro {
                    width,
                    height,
                    rule,
                    opening: if opening.is_empty() {
                        CaroOpening::None
                    } else {
                        CaroOpening::Stones(opening.clone())
                    },
                },
                String::new(),
                opening,
            ),
            GameSpec::Xiangqi { fen } => (
                GameSettings::Xiangqi { fen: fen.clone() },
                fen.unwrap_or_default(),
                Vec::new(),
            ),
        };
        let seat = |side: Side| match side {
            Side::First => Seat::One,
            Side::Second => Seat::Two,
        };
        let moves = record
            .moves
            .into_iter()
            .enumerate()
            .map(|(i, p)| MoveRecord {
                mv: wire_move(p.mv),
                by: if i % 2 == 0 { Seat::One } else { Seat::Two },
                wxf: p.note.wxf,
                check: p.note.check,
            })
            .collect();
        RecordedGame {
            summary: RecordedSummary {
                id: record.id,
                game,
                time: record.time,
                players: record.players,
                first: Seat::One,
                over: record.ending.map(|e| GameOver {
                    winner: e.winner.map(seat),
                    reason: e.reason.into(),
                    line: e.line,
                }),
                ended_at_ms: record.ended.and_then(instant),
                rated: None,
            },
            start_fen,
            opening,
            moves,
        }
    }
}

/// The rules' move for a wire move; `None` for a xiangqi square off the board.
pub fn rules_move(mv: Move) -> Option<RulesMove> {
    Some(match mv {
        Move::Caro(p) => RulesMove::Caro(p),
        Move::Xiangqi { from, to } => RulesMove::Xiangqi(xiangqi::Move::new(
            xiangqi::Square::new(from.file, from.rank)?,
            xiangqi::Square::new(to.file, to.rank)?,
        )),
    })
}

/// The wire's move for a rules move.
pub fn wire_move(mv: RulesMove) -> Move {
    match mv {
        RulesMove::Caro(p) => Move::Caro(p),
        RulesMove::Xiangqi(m) => Move::Xiangqi {
            from: XqSquare {
                file: m.from().file(),
                rank: m.from().rank(),
            },
            to: XqSquare {
                file: m.to().file(),
                rank: m.to().rank(),
            },
        },
    }
}

impl From<EndReason> for Reason {
    fn from(r: EndReason) -> Reason {
        match r {
            EndReason::Five => Reason::Rules(RulesReason::Five),
            EndReason::Draw => Reason::Rules(RulesReason::BoardFull),
            EndReason::Checkmate => Reason::Rules(RulesReason::Checkmate),
            EndReason::Stalemate => Reason::Rules(RulesReason::Stalemate),
            EndReason::PerpetualCheck => Reason::Rules(RulesReason::PerpetualCheck),
            EndReason::Repetition => Reason::Rules(RulesReason::Repetition),
            EndReason::SixtyMoves => Reason::Rules(RulesReason::SixtyMoves),
            EndReason::NoMaterial => Reason::Rules(RulesReason::NoMaterial),
            EndReason::Timeout => Reason::Timeout,
            EndReason::Quit => Reason::Quit,
            EndReason::Abandoned => Reason::Abandoned,
            EndReason::Resign => Reason::Resign,
            EndReason::Agreement => Reason::Agreement,
            EndReason::Aborted => Reason::Aborted,
            EndReason::NewGame => Reason::NewGame,
        }
    }
}

impl From<Reason> for EndReason {
    fn from(r: Reason) -> EndReason {
        match r {
            Reason::Rules(r) => r.into(),
            Reason::Timeout => EndReason::Timeout,
            Reason::Quit => EndReason::Quit,
            Reason::Abandoned => EndReason::Abandoned,
            Reason::Resign => EndReason::Resign,
            Reason::Agreement => EndReason::Agreement,
            Reason::Aborted => EndReason::Aborted,
            Reason::NewGame => EndReason::NewGame,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_rules::record::{parse, write};

    #[test]
    fn every_end_reason_is_the_same_word_in_files_and_json() {
        for r in EndReason::ALL {
            let file: Reason = r.into();
            assert_eq!(file.word(), r.as_str());
            assert_eq!(EndReason::from(file), r);
        }
    }

    #[test]
    fn a_record_crosses_to_the_wire_and_back() {
        let text = "game: xiangqi\nred: An\nblack: Bình\nresult: black\nreason: resign\n\
                    ended: 2025-05-01 19:42\n\n1. h2e2 h9g7\n";
        let record = parse(text).unwrap();
        let zone = Zone(7 * 60);
        let game = RecordedGame::from_record(record.clone(), |w| zone.instant(w));
        assert_eq!(game.summary.players, ["An".to_string(), "Bình".to_string()]);
        assert_eq!(game.summary.over.as_ref().unwrap().winner, Some(Seat::Two));
        assert_eq!(game.moves[1].wxf, "H8+7");
        // 19:42 at UTC+7 is 12:42 UTC.
        assert_eq!(game.summary.ended_at_ms, Some(1_746_103_320_000));
        let back = game.to_record(|ms| zone.wall(ms)).unwrap().check().unwrap();
        assert_eq!(back, record);
        assert_eq!(write(&back), write(&record));
        // JSON: a server's GameRecord reads as a RecordedGame.
        let json = serde_json::to_string(&game).unwrap();
        let again: RecordedGame = serde_json::from_str(&json).unwrap();
        assert_eq!(again, game);
    }
}
