//! A tournament's history as the pairing rules read it: entrants, rounds of games and
//! byes, the scoring, and what is known before the next round (requested byes).
//!
//! A player is named by their index in [`Tournament::players`], which is their pairing
//! number minus one (the initial order, strongest first as FIDE orders it). Rounds are
//! recorded as the boards and byes the arbiter published; a player a round does not
//! mention was absent (a zero-point bye): not yet entered, withdrawn, or away.
//!
//! [`History`] turns the rounds into one line per player (who they met, with which colour,
//! for how many points), the form the Dutch rules and the tie-breaks are written in.

use std::fmt;

use thiserror::Error;

/// A score in tenths of a point, the resolution of the FIDE TRF (1.0 = 10).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(pub u32);

impl Points {
    /// A whole number of points.
    pub const fn whole(points: u32) -> Self {
        Points(points * 10)
    }
}

impl fmt::Display for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// The points each kind of result is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    /// A win over the board, a forfeit win, a full-point bye.
    pub win: Points,
    /// A draw, a half-point bye.
    pub draw: Points,
    /// A loss over the board.
    pub loss: Points,
    /// A loss by forfeit.
    pub forfeit_loss: Points,
    /// A round missed: absence, withdrawal, not yet entered, a zero-point bye.
    pub zero_point_bye: Points,
    /// The pairing-allocated bye (FIDE: as a win unless the event says otherwise).
    pub pairing_bye: Points,
}

impl Default for Scoring {
    fn default() -> Self {
        Scoring {
            win: Points(10),
            draw: Points(5),
            loss: Points(0),
            forfeit_loss: Points(0),
            zero_point_bye: Points(0),
            pairing_bye: Points(10),
        }
    }
}

/// A colour of the pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    /// Moves first.
    White,
    /// Moves second.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn other(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// One entrant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Shown in standings and written to TRF files.
    pub name: String,
    /// The rating that set the pairing number (0: unrated); tie-breaks may read it.
    pub rating: u16,
    /// The first round (1-based) the player may be paired in: a late entry joins at a
    /// later round and the rounds before count as zero-point byes unless recorded
    /// otherwise.
    pub joins: u32,
    /// Withdrawn players are not paired again; their earlier games stand.
    pub withdrawn: bool,
}

impl Player {
    /// A player present from round 1.
    pub fn new(name: impl Into<String>, rating: u16) -> Self {
        Player {
            name: name.into(),
            rating,
            joins: 1,
            withdrawn: false,
        }
    }
}

/// How a paired game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won over the board.
    WhiteWins,
    /// A draw over the board.
    Draw,
    /// Black won over the board.
    BlackWins,
    /// Black did not play: White wins by forfeit.
    WhiteWinsByForfeit,
    /// White did not play: Black wins by forfeit.
    BlackWinsByForfeit,
    /// Neither played: both lose by forfeit.
    DoubleForfeit,
}

impl GameResult {
    /// Whether the game was played over the board (forfeits were not).
    pub fn played(self) -> bool {
        matches!(
            self,
            GameResult::WhiteWins | GameResult::Draw | GameResult::BlackWins
        )
    }
}

/// A game of a round: who had which colour, and the result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Game {
    /// The player with white.
    pub white: usize,
    /// The player with black.
    pub black: usize,
    /// The result.
    pub result: GameResult,
}

/// The kinds of bye.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ByeKind {
    /// Given by the pairing to the one player left over (worth `Scoring::pairing_bye`).
    PairingAllocated,
    /// Asked for before the round: half a point (as a draw).
    HalfPoint,
    /// Granted by the organiser: the points of a win, not paired.
    FullPoint,
    /// Absent, withdrawn or not yet entered: not paired, `Scoring::zero_point_bye`.
    ZeroPoint,
}

/// A bye of a round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bye {
    /// Who had it.
    pub player: usize,
    /// Which kind.
    pub kind: ByeKind,
}

/// One round as published: its games and its byes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Round {
    /// The games.
    pub games: Vec<Game>,
    /// The byes; players in neither list were absent (zero-point byes).
    pub byes: Vec<Bye>,
}

/// A board of a new round: who takes which colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// The player with white.
    pub white: usize,
    /// The player with black.
    pub black: usize,
}

/// The pairing of a round: its boards, in publication order, and the pairing-allocated
/// bye if the number of players to pair was odd.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RoundPairing {
    /// The boards, board 1 first.
    pub boards: Vec<Board>,
    /// The player given the pairing-allocated bye.
    pub bye: Option<usize>,
}

/// Everything the pairing of a round depends on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tournament {
    /// Entrants in pairing-number order.
    pub players: Vec<Player>,
    /// The rounds played so far, in order.
    pub rounds: Vec<Round>,
    /// How many rounds the event has: the Dutch rules relax the colour rules for top
    /// scorers in the last round.
    pub total_rounds: u32,
    /// What each result is worth.
    pub scoring: Scoring,
    /// The colour pairing number 1 has in round 1 (FIDE: drawn by lot), and from which
    /// the colours of players without a preference follow.
    pub initial_colour: Colour,
    /// Pairs that must never meet (e.g. family members, clubmates by regulation).
    pub forbidden: Vec<(usize, usize)>,
}

impl Tournament {
    /// A tournament of `players` over `total_rounds` rounds with the default scoring,
    /// pairing number 1 taking white in round 1.
    pub fn new(players: Vec<Player>, total_rounds: u32) -> Self {
        Tournament {
            players,
            rounds: Vec::new(),
            total_rounds,
            scoring: Scoring::default(),
            initial_colour: Colour::White,
            forbidden: Vec::new(),
        }
    }
}

/// Why a tournament's history cannot be read.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum HistoryError {
    /// A game or bye names a player who is not entered.
    #[error("round {round} names player {player}, but only {count} players are entered")]
    UnknownPlayer {
        /// The round (1-based).
        round: usize,
        /// The index named.
        player: usize,
        /// How many players there are.
        count: usize,
    },
    /// A player appears twice in one round.
    #[error("round {round} lists player {player} twice")]
    Twice {
        /// The round (1-based).
        round: usize,
        /// The player (1-based pairing number).
        player: usize,
    },
    /// A player is paired against themselves.
    #[error("round {round} pairs player {player} against themselves")]
    SelfPaired {
        /// The round (1-based).
        round: usize,
        /// The player (1-based pairing number).
        player: usize,
    },
}

/// How a player's round went, from their side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// Won (over the board, by forfeit, or by a bye worth a win).
    Win,
    /// Drew, or a half-point bye.
    Draw,
    /// Lost (over the board, by forfeit), or a zero-point bye.
    Loss,
}

/// One player's round, as the rules read it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// The opponent, for a paired game (played or forfeited).
    pub opponent: Option<usize>,
    /// The colour, for a paired game (a forfeited game keeps its colour, which does not
    /// count for colour preferences).
    pub colour: Option<Colour>,
    /// Won, drawn or lost.
    pub outcome: Outcome,
    /// Whether a game was played over the board.
    pub played: bool,
    /// Whether the player took part in this round's pairing: paired (even if the game
    /// was forfeited) or given the pairing-allocated bye.
    pub paired: bool,
}

impl Entry {
    /// A round the player was not paired in.
    pub fn absent(kind: ByeKind) -> Self {
        let outcome = match kind {
            ByeKind::PairingAllocated | ByeKind::FullPoint => Outcome::Win,
            ByeKind::HalfPoint => Outcome::Draw,
            ByeKind::ZeroPoint => Outcome::Loss,
        };
        Entry {
            opponent: None,
            colour: None,
            outcome,
            played: false,
            paired: kind == ByeKind::PairingAllocated,
        }
    }

    /// Whether this is the pairing-allocated bye.
    pub fn is_pairing_bye(&self) -> bool {
        self.paired && self.opponent.is_none()
    }

    /// The points it is worth.
    pub fn points(&self, scoring: &Scoring) -> Points {
        match self.outcome {
            Outcome::Win if self.is_pairing_bye() => scoring.pairing_bye,
            Outcome::Win => scoring.win,
            Outcome::Draw => scoring.draw,
            Outcome::Loss if !self.paired => scoring.zero_point_bye,
            Outcome::Loss if self.played => scoring.loss,
            Outcome::Loss => scoring.forfeit_loss,
        }
    }
}

/// Each player's rounds, in order: `entries[player][round]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History {
    /// One line per player, one entry per round played.
    pub entries: Vec<Vec<Entry>>,
}

impl History {
    /// Reads the rounds of `t` into per-player lines.
    pub fn of(t: &Tournament) -> Result<History, HistoryError> {
        let count = t.players.len();
        let mut entries = vec![Vec::with_capacity(t.rounds.len()); count];
        for (r, round) in t.rounds.iter().enumerate() {
            let mut seen: Vec<Option<Entry>> = vec![None; count];
            let mut put = |player: usize, entry: Entry| -> Result<(), HistoryError> {
                let slot = seen.get_mut(player).ok_or(HistoryError::UnknownPlayer {
                    round: r + 1,
                    player,
                    count,
                })?;
                if slot.is_some() {
                    return Err(HistoryError::Twice {
                        round: r + 1,
                        player: player.saturating_add(1),
                    });
                }
                *slot = Some(entry);
                Ok(())
            };
            for game in &round.games {
                if game.white == game.black {
                    return Err(HistoryError::SelfPaired {
                        round: r + 1,
                        player: game.white.saturating_add(1),
                    });
                }
                let (white, black) = match game.result {
                    GameResult::WhiteWins | GameResult::WhiteWinsByForfeit => {
                        (Outcome::Win, Outcome::Loss)
                    }
                    GameResult::Draw => (Outcome::Draw, Outcome::Draw),
                    GameResult::BlackWins | GameResult::BlackWinsByForfeit => {
                        (Outcome::Loss, Outcome::Win)
                    }
                    GameResult::DoubleForfeit => (Outcome::Loss, Outcome::Loss),
                };
                let played = game.result.played();
                put(
                    game.white,
                    Entry {
                        opponent: Some(game.black),
                        colour: Some(Colour::White),
                        outcome: white,
                        played,
                        paired: true,
                    },
                )?;
                put(
                    game.black,
                    Entry {
                        opponent: Some(game.white),
                        colour: Some(Colour::Black),
                        outcome: black,
                        played,
                        paired: true,
                    },
                )?;
            }
            for bye in &round.byes {
                put(bye.player, Entry::absent(bye.kind))?;
            }
            for (player, entry) in seen.into_iter().enumerate() {
                entries[player].push(entry.unwrap_or(Entry::absent(ByeKind::ZeroPoint)));
            }
        }
        Ok(History { entries })
    }

    /// A player's total score.
    pub fn score(&self, player: usize, scoring: &Scoring) -> Points {
        self.score_before(player, self.rounds(), scoring)
    }

    /// A player's score after the first `rounds` rounds.
    pub fn score_before(&self, player: usize, rounds: usize, scoring: &Scoring) -> Points {
        Points(
            self.entries[player][..rounds]
                .iter()
                .map(|e| e.points(scoring).0)
                .sum(),
        )
    }

    /// How many rounds are recorded.
    pub fn rounds(&self) -> usize {
        self.entries.first().map_or(0, Vec::len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn byes_and_absences_are_scored_by_kind() {
        let mut t = Tournament::new((0..5).map(|i| Player::new(format!("p{i}"), 0)).collect(), 3);
        t.rounds.push(Round {
            games: vec![
                Game {
                    white: 0,
                    black: 1,
                    result: GameResult::WhiteWins,
                },
                Game {
                    white: 2,
                    black: 3,
                    result: GameResult::BlackWinsByForfeit,
                },
            ],
            byes: vec![Bye {
                player: 4,
                kind: ByeKind::PairingAllocated,
            }],
        });
        t.rounds.push(Round {
            games: vec![Game {
                white: 1,
                black: 0,
                result: GameResult::Draw,
            }],
            byes: vec![Bye {
                player: 2,
                kind: ByeKind::HalfPoint,
            }],
        });
        let h = History::of(&t).expect("valid history");
        let s = &t.scoring;
        let scores: Vec<u32> = (0..5).map(|p| h.score(p, s).0).collect();
        assert_eq!(scores, vec![15, 5, 5, 10, 10]);
        assert!(h.entries[4][0].is_pairing_bye());
        assert!(!h.entries[3][0].played && h.entries[3][0].paired);
        assert!(!h.entries[3][1].paired, "unmentioned players were absent");
        assert_eq!(h.score_before(0, 1, s), Points(10));
    }

    #[test]
    fn a_player_twice_in_a_round_is_refused() {
        let mut t = Tournament::new((0..3).map(|i| Player::new(format!("p{i}"), 0)).collect(), 3);
        t.rounds.push(Round {
            games: vec![Game {
                white: 0,
                black: 1,
                result: GameResult::Draw,
            }],
            byes: vec![Bye {
                player: 1,
                kind: ByeKind::HalfPoint,
            }],
        });
        assert_eq!(
            History::of(&t),
            Err(HistoryError::Twice {
                round: 1,
                player: 2
            })
        );
        t.rounds[0].byes[0].player = 7;
        assert!(matches!(
            History::of(&t),
            Err(HistoryError::UnknownPlayer { player: 7, .. })
        ));
    }
}
