//! A tournament's board: a room opened for one pairing of a round, its seats kept for
//! the two players by name, its result reported once.
//!
//! - [`BoardLink`]: which tournament, round and board the room plays, and for whom.
//! - Seats: only the player named for a seat may sit in it, however late (a bot's seat
//!   is the bot's from the start); anyone may watch.
//! - Forfeits: a player who has not come to the board by [`BoardLink::absent_due_ms`]
//!   (its pairing time plus the forfeit wait), or has not made their first move
//!   [`BoardLink::forfeit_after`] after their game started, loses the pairing by forfeit (both absent: a double
//!   forfeit). Games of a board are never aborted: a resignation before both sides have
//!   moved counts.
//! - The result (the match's, or the one game's) is written with the game's end in one
//!   transaction, and the tournament is told once it is on disk.

use std::time::Duration;
use tokio::time::Instant;

use banco_protocol::{
    BoardResult, EndReason, ErrorCode, ErrorMsg, MatchEnd, Seat, ServerMsg, TournamentId,
};

use super::{Room, SeatState};
use crate::lobby::RoomNotice;
use crate::store::Entry;
use crate::store::tournaments::TournamentWrite;
use crate::wall_clock::unix_ms;

/// The pairing a room plays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardLink {
    /// The tournament.
    pub tournament: TournamentId,
    /// The round (arena: the wave).
    pub round: u32,
    /// The board within it.
    pub board: u32,
    /// The people each seat is kept for, by seat (`None`: a bot sits there).
    pub names: [Option<String>; 2],
    /// How long a player has to make their first move after a game starts before
    /// losing by forfeit.
    pub forfeit_after: Duration,
    /// When a player who has not come to the board loses it by forfeit, Unix
    /// milliseconds: the board's pairing time (kept on disk) plus the forfeit wait, so
    /// a restart does not start the count again.
    pub absent_due_ms: u64,
    /// An arena that allows berserk: a player may halve their clock before their first
    /// move, for one more point on a win.
    pub berserk: bool,
}

/// A board's result, told to the tournament once on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BoardReport {
    /// The tournament.
    pub tournament: TournamentId,
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// How it ended.
    pub result: BoardResult,
    /// White and black went berserk.
    pub berserk: [bool; 2],
}

/// A room's board, while it plays one.
#[derive(Debug)]
pub(super) struct Board {
    /// Which pairing.
    pub(super) link: BoardLink,
    /// When players who have not come lose by forfeit.
    pub(super) absent_due: Instant,
    /// The result has been reported: the room is an ordinary room from now on.
    pub(super) reported: bool,
    /// By seat: went berserk in this board's game.
    pub(super) berserk: [bool; 2],
}

impl Board {
    pub(super) fn new(link: BoardLink) -> Board {
        let left = link.absent_due_ms.saturating_sub(unix_ms());
        Board {
            absent_due: Instant::now() + Duration::from_millis(left),
            link,
            reported: false,
            berserk: [false; 2],
        }
    }
}

impl Room {
    /// The board this room still plays (not yet reported).
    pub(super) fn open_board(&self) -> Option<&Board> {
        self.board.as_ref().filter(|b| !b.reported)
    }

    /// Whether `name` may sit in `seat` of this room: any free seat in an ordinary room,
    /// only their own in a board's.
    pub(super) fn seat_is_for(&self, seat: Seat, name: &str) -> bool {
        match &self.board {
            Some(b) => b.link.names[seat.index()]
                .as_deref()
                .is_some_and(|n| n.eq_ignore_ascii_case(name)),
            None => true,
        }
    }

    /// When a board's game must have its first move (or its players must have come).
    pub(super) fn board_wake(&self) -> Option<Instant> {
        let b = self.open_board()?;
        let started = self.game.is_some();
        (!started).then_some(b.absent_due)
    }

    /// Players who did not come to the board in time lose it by forfeit.
    pub(super) fn check_absent(&mut self, now: Instant) {
        let Some(b) = self.open_board() else { return };
        if self.game.is_some() || b.absent_due > now {
            return;
        }
        let absent = Seat::BOTH.map(|s| matches!(self.seats[s.index()], SeatState::Free));
        let result = match absent {
            [true, true] => BoardResult::DoubleForfeit,
            [true, false] => BoardResult::BlackWinsByForfeit,
            [false, true] => BoardResult::WhiteWinsByForfeit,
            // Both here and no game: it starts when they sit (nothing to forfeit).
            [false, false] => return,
        };
        tracing::info!(?result, "a player did not come to the board in time");
        self.system_chat(format!(
            "Forfeit ({}): a player did not come to the board in time.",
            result.text()
        ));
        self.report_board(result);
    }

    /// The player to move has not made their first move in time: they lose the pairing
    /// by forfeit (their match too).
    pub(super) fn forfeit_first_move(&mut self, seat: Seat) {
        let result = match seat {
            Seat::One => BoardResult::BlackWinsByForfeit,
            Seat::Two => BoardResult::WhiteWinsByForfeit,
        };
        tracing::info!(?seat, "no first move in time: forfeit");
        self.system_chat(format!(
            "Forfeit ({}): no first move in time.",
            result.text()
        ));
        self.report_board(result);
        let winner = Some(seat.other());
        if self.live_match().is_some() {
            self.lose_match(seat, winner, EndReason::Timeout, MatchEnd::Abandoned);
        } else {
            self.finish(winner, EndReason::Timeout, Vec::new());
        }
    }

    /// The result of a board's single game (a room without a match format).
    pub(super) fn report_game(&mut self, winner: Option<Seat>) {
        if self.settings.match_format.is_none() {
            self.report_board(result_of(winner));
        }
    }

    /// The result of a board's match.
    pub(super) fn report_match(&mut self, winner: Option<Seat>) {
        self.report_board(result_of(winner));
    }

    /// Records the board's result (once): written with this event's log, told to the
    /// tournament after the commit.
    fn report_board(&mut self, result: BoardResult) {
        let Some(b) = self.board.as_mut().filter(|b| !b.reported) else {
            return;
        };
        b.reported = true;
        let link = b.link.clone();
        let berserk = b.berserk;
        self.write(Entry::Tournament(Box::new(TournamentWrite::Result {
            id: link.tournament,
            round: link.round,
            board: link.board,
            result: result.text().to_string(),
            by_hand: false,
            berserk: Some(berserk),
        })));
        self.after_commit.push(RoomNotice::Board(BoardReport {
            tournament: link.tournament,
            round: link.round,
            board: link.board,
            result,
            berserk,
        }));
    }

    /// A player goes berserk: in an arena that allows it, with a game clock, before
    /// their first move of the board's game, their clock is halved.
    pub(super) fn berserk(&mut self, client: crate::ClientId) -> Result<(), ErrorMsg> {
        let refuse = |m: &str| Err(ErrorMsg::new(ErrorCode::BadSettings, m));
        let Some(seat) = self.seat_of(client) else {
            return refuse("only a player of this board can go berserk");
        };
        if !self.open_board().is_some_and(|b| b.link.berserk) {
            return refuse("berserk is only for the games of an arena that allows it");
        }
        if self.board.as_ref().is_some_and(|b| b.berserk[seat.index()]) {
            return refuse("you have already gone berserk in this game");
        }
        let now = Instant::now();
        let Some(game) = self.game.as_mut().filter(|g| g.running()) else {
            return refuse("berserk is for a game being played: wait for it to start");
        };
        if game.moves.iter().any(|m| m.by == seat) {
            return refuse("berserk is only before your first move");
        }
        let Some(clock) = game.clock.as_mut() else {
            return refuse("berserk halves a game clock: this game has none");
        };
        if !clock.halve(seat) {
            return refuse("berserk halves a game clock, not a timer per move");
        }
        let clocks = clock.snapshot(now);
        if let Some(b) = self.board.as_mut() {
            b.berserk[seat.index()] = true;
        }
        let name = self
            .member(client)
            .map(|m| m.name.clone())
            .unwrap_or_default();
        tracing::info!(?seat, "berserk");
        self.broadcast(ServerMsg::Clock(clocks));
        self.system_chat(format!(
            "{name} goes berserk: half the clock, one more point on a win."
        ));
        Ok(())
    }

    /// A line from the tournament's arbiter in the room's chat (not stored).
    fn system_chat(&mut self, text: String) {
        self.broadcast(ServerMsg::Chat(banco_protocol::ChatLine {
            from: "Arbiter".into(),
            text,
            at_ms: unix_ms(),
        }));
    }
}

/// A board's result from the seat that won (`None`: drawn).
fn result_of(winner: Option<Seat>) -> BoardResult {
    match winner {
        Some(Seat::One) => BoardResult::WhiteWins,
        Some(Seat::Two) => BoardResult::BlackWins,
        None => BoardResult::Draw,
    }
}
