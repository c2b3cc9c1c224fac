//! Finished games, looked back at: a [`Replay`] steps through one move by move, and
//! [`file`] writes and reads the game record files people save and edit (through the
//! rules crate's one reader and writer, [`banco_rules::record`]).
//!
//! A replay comes from the server ([`Replay::from_record`], after a `Replay` request)
//! or from a file ([`file::parse`]); either way the position at each step is rebuilt by
//! the engine's rules, the same way the room's board copy is.

pub mod file;

use banco_protocol::{
    EndReason, GameId, GameOver, GameRecord, GameSettings, Move, MoveRecord, Point, RecordedGame,
    RecordedSummary, Seat, TimeControl,
};
use banco_rules::caro::Outcome as CaroOutcome;
use banco_rules::xiangqi::piece::Color;

use crate::room::Board;
use crate::room::board::move_text;

/// A finished game (or one written by hand) and the step being looked at.
#[derive(Debug, Clone)]
pub struct Replay {
    /// The server's number for the game; `None` for a game read from a file.
    pub id: Option<GameId>,
    /// Which game, board and rule (or start position).
    pub game: GameSettings,
    /// The time control it was played with, when known.
    pub time: Option<TimeControl>,
    /// Names by seat.
    pub players: [String; 2],
    /// The seat that moved first (X in caro; the start position's side to move in
    /// xiangqi).
    pub first: Seat,
    /// How it ended; `None` for a record that does not say (an unfinished game).
    pub over: Option<GameOver>,
    /// When it ended, in milliseconds since the Unix epoch, when known.
    pub ended_at_ms: Option<u64>,
    /// Xiangqi: the start position's FEN (empty for the usual start). Empty for caro.
    pub start_fen: String,
    /// Caro: the stones the game started from, X first (empty for none). Not moves.
    pub opening: Vec<Point>,
    /// Every move, in order (after the opening).
    pub moves: Vec<MoveRecord>,
    /// Whether the server counted it for ratings; `None` for a game read from a file.
    pub rated: Option<bool>,
    /// The match it was a game of, for the server's games played in one.
    pub in_match: Option<banco_protocol::MatchGame>,
    /// A swap opening, as the server kept it: who placed which stone, who decided what.
    pub swap: Option<banco_protocol::SwapView>,
    /// The position after [`Replay::at`] moves.
    board: Board,
    /// How many moves have been played on `board`.
    at: usize,
    /// Set when a move does not fit the rules' position (a record from a server whose
    /// rules differ): stepping stops before it.
    broken_at: Option<usize>,
}

impl Replay {
    /// A replay of the server's record, at the start position.
    pub fn from_record(record: GameRecord) -> Replay {
        let in_match = record.summary.in_match;
        let swap = record.swap.clone().map(|s| *s);
        Replay {
            in_match,
            swap,
            ..Replay::from_recorded(record.into())
        }
    }

    /// A replay of a recorded game (the server's, or one read from a file), at the start
    /// position.
    pub fn from_recorded(record: RecordedGame) -> Replay {
        let RecordedGame {
            summary,
            start_fen,
            opening,
            moves,
        } = record;
        let RecordedSummary {
            id,
            game,
            time,
            players,
            first,
            over,
            ended_at_ms,
            rated,
        } = summary;
        let mut replay = Replay::new(
            id,
            game,
            time,
            players,
            first,
            over,
            ended_at_ms,
            start_fen,
            opening,
            moves,
        );
        replay.rated = rated;
        replay
    }

    /// The game as a record holds it, for writing a file.
    pub fn to_recorded(&self) -> RecordedGame {
        RecordedGame {
            summary: RecordedSummary {
                id: self.id,
                game: self.game.clone(),
                time: self.time,
                players: self.players.clone(),
                first: self.first,
                over: self.over.clone(),
                ended_at_ms: self.ended_at_ms,
                rated: self.rated,
            },
            start_fen: self.start_fen.clone(),
            opening: self.opening.clone(),
            moves: self.moves.clone(),
        }
    }

    /// A replay at the start position; checks every move against the rules once.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        id: Option<GameId>,
        game: GameSettings,
        time: Option<TimeControl>,
        players: [String; 2],
        first: Seat,
        over: Option<GameOver>,
        ended_at_ms: Option<u64>,
        start_fen: String,
        opening: Vec<Point>,
        moves: Vec<MoveRecord>,
    ) -> Replay {
        let mut board = Board::new(&game, &start_fen, &opening);
        let mut broken_at = None;
        for (i, m) in moves.iter().enumerate() {
            if board.play(&m.mv).is_err() {
                broken_at = Some(i);
                break;
            }
        }
        let played = broken_at.unwrap_or(moves.len());
        for _ in 0..played {
            board.undo();
        }
        Replay {
            id,
            game,
            time,
            players,
            first,
            over,
            ended_at_ms,
            start_fen,
            opening,
            moves,
            rated: None,
            in_match: None,
            swap: None,
            board,
            at: 0,
            broken_at,
        }
    }

    /// Moves played on the board shown.
    pub fn at(&self) -> usize {
        self.at
    }

    /// The last step that can be shown: every move, or up to a move that does not fit.
    pub fn last_step(&self) -> usize {
        self.broken_at.unwrap_or(self.moves.len())
    }

    /// The move that does not fit the rules, if any (0-based).
    pub fn broken_at(&self) -> Option<usize> {
        self.broken_at
    }

    /// The position after [`Replay::at`] moves.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// Whether the board shows the end of the game.
    pub fn at_end(&self) -> bool {
        self.at == self.last_step()
    }

    /// One move forward; `false` at the end.
    pub fn forward(&mut self) -> bool {
        if self.at >= self.last_step() {
            return false;
        }
        // The moves were checked in `new`, so this cannot fail; if it did, stop here.
        if self.board.play(&self.moves[self.at].mv).is_err() {
            self.broken_at = Some(self.at);
            return false;
        }
        self.at += 1;
        true
    }

    /// One move back; `false` at the start.
    pub fn back(&mut self) -> bool {
        if self.at == 0 {
            return false;
        }
        self.board.undo();
        self.at -= 1;
        true
    }

    /// Jumps to the position after `n` moves (clamped to what can be shown).
    pub fn go_to(&mut self, n: usize) {
        let n = n.min(self.last_step());
        while self.at > n && self.back() {}
        while self.at < n && self.forward() {}
    }

    /// The seat that made move `i` (0-based).
    pub fn mover(&self, i: usize) -> Seat {
        if i.is_multiple_of(2) {
            self.first
        } else {
            self.first.other()
        }
    }

    /// A seat's side in the game's own words: `X`/`O`, or the xiangqi colour.
    pub fn side(&self, seat: Seat) -> Side {
        match self.game {
            GameSettings::Caro { .. } => {
                // The first mover plays the stone to move after the opening.
                let first = self
                    .board
                    .caro()
                    .map_or(banco_rules::caro::Stone::X, |g| g.first_stone());
                let stone = if seat == self.first {
                    first
                } else {
                    first.opponent()
                };
                match stone {
                    banco_rules::caro::Stone::X => Side::X,
                    banco_rules::caro::Stone::O => Side::O,
                }
            }
            GameSettings::Xiangqi { .. } => {
                let first = self.board.first_color().unwrap_or(Color::Red);
                let color = if seat == self.first { first } else { !first };
                match color {
                    Color::Red => Side::Red,
                    Color::Black => Side::Black,
                }
            }
        }
    }

    /// The seat that plays `side`, if it is one of this game's sides.
    pub fn seat_of(&self, side: Side) -> Option<Seat> {
        Seat::BOTH.into_iter().find(|s| self.side(*s) == side)
    }

    /// How a move reads: `h8` / `7,7` in caro, `h2e2` in xiangqi.
    pub fn move_text(&self, mv: &Move) -> String {
        move_text(mv, &self.game)
    }

    /// The winning line, shown once the board reaches the end.
    pub fn winning_line(&self) -> &[banco_protocol::Point] {
        match &self.over {
            Some(o) if self.at_end() => &o.line,
            _ => &[],
        }
    }
}

/// A seat's side in a game, in the game's own words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    X,
    O,
    Red,
    Black,
}

impl Side {
    /// The word used in record files and JSON: `x`, `o`, `red`, `black`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::X => "x",
            Side::O => "o",
            Side::Red => "red",
            Side::Black => "black",
        }
    }
}

/// The ending the rules see after every move of a caro game, if the last move ended it:
/// a five (with its line) or a full board.
pub fn caro_ending(board: &Board, first: Seat) -> Option<GameOver> {
    let game = board.caro()?;
    let last = game.outcome()?;
    Some(match last {
        CaroOutcome::Win { winner, line } => GameOver {
            winner: Some(if winner == game.first_stone() {
                first
            } else {
                first.other()
            }),
            reason: EndReason::Five,
            line: line.points().collect(),
        },
        CaroOutcome::Draw => GameOver {
            winner: None,
            reason: EndReason::Draw,
            line: Vec::new(),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::{Point, Rule};

    fn caro_move(x: u8, y: u8, by: Seat) -> MoveRecord {
        MoveRecord {
            mv: Move::Caro(Point::new(x, y)),
            by,
            wxf: String::new(),
            check: false,
        }
    }

    #[test]
    fn steps_forward_and_back_and_shows_the_line_only_at_the_end() {
        let game = GameSettings::Caro {
            width: 9,
            height: 9,
            rule: Rule::Freestyle,
            opening: banco_protocol::CaroOpening::None,
        };
        let mut moves = Vec::new();
        for i in 0..5u8 {
            moves.push(caro_move(i, 0, Seat::Two));
            if i < 4 {
                moves.push(caro_move(i, 1, Seat::One));
            }
        }
        let over = GameOver {
            winner: Some(Seat::Two),
            reason: EndReason::Five,
            line: (0..5).map(|x| Point::new(x, 0)).collect(),
        };
        let mut r = Replay::new(
            Some(3),
            game,
            None,
            ["An".into(), "Bình".into()],
            Seat::Two,
            Some(over),
            None,
            String::new(),
            Vec::new(),
            moves,
        );
        assert_eq!((r.at(), r.last_step(), r.broken_at()), (0, 9, None));
        assert!(r.winning_line().is_empty());
        assert!(!r.back());
        assert!(r.forward());
        assert_eq!(r.board().caro().unwrap().moves().len(), 1);
        r.go_to(100);
        assert!(r.at_end());
        assert_eq!(r.winning_line().len(), 5);
        assert!(!r.forward());
        assert_eq!(
            caro_ending(r.board(), r.first).unwrap().winner,
            Some(Seat::Two)
        );
        r.go_to(4);
        assert_eq!(r.board().caro().unwrap().moves().len(), 4);
        assert_eq!(r.side(Seat::Two), Side::X);
        assert_eq!(r.mover(0), Seat::Two);
        assert_eq!(r.seat_of(Side::O), Some(Seat::One));
    }

    #[test]
    fn a_move_that_does_not_fit_stops_the_replay_before_it() {
        let game = GameSettings::Caro {
            width: 9,
            height: 9,
            rule: Rule::Caro,
            opening: banco_protocol::CaroOpening::None,
        };
        let moves = vec![
            caro_move(4, 4, Seat::One),
            caro_move(4, 4, Seat::Two),
            caro_move(5, 5, Seat::One),
        ];
        let mut r = Replay::new(
            None,
            game,
            None,
            ["A".into(), "B".into()],
            Seat::One,
            None,
            None,
            String::new(),
            Vec::new(),
            moves,
        );
        assert_eq!(r.broken_at(), Some(1));
        r.go_to(3);
        assert_eq!(r.at(), 1);
    }
}
