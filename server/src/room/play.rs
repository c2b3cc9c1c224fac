//! Playing: starting a game, moves, the clock running out, the end of a game and its
//! record.

use tokio::time::Instant;

use banco_protocol::{
    EndReason, ErrorCode, ErrorMsg, FirstMove, GameOver, MatchEnd, Move, MoveRecord, NotAWin, Seat,
    ServerMsg,
};
use banco_rules::caro::Point;
use banco_rules::game::{Game, IllegalMove};

use super::clock::GameClock;
use super::moves::to_rules;
use super::settings::deal;
use super::{CurrentGame, Room, SeatState};
use crate::ClientId;
use crate::store::{Entry, Event, GameRecord, LiveGame, LiveSeat, PlayerRef};
use crate::wall_clock::unix_ms;

impl Room {
    /// Starts a game if both seats are filled and none is running: when the second
    /// player sits down (or at once in a room with bots).
    pub(super) fn start_if_seated(&mut self) {
        let seated = self.seats.iter().all(|s| !matches!(s, SeatState::Free));
        if seated && !self.game.as_ref().is_some_and(CurrentGame::running) {
            self.start_game();
        }
    }

    /// Starts the room's next game: the first as the creator chose, every later one with
    /// the first move passing to the other seat; each from a freshly dealt opening in a
    /// room with balanced openings.
    pub(super) fn start_game(&mut self) {
        let now = Instant::now();
        let spec = deal(&self.settings, &self.spec, rand::random());
        let position = match Game::new(&spec) {
            Ok(position) => position,
            Err(e) => {
                // Settings are validated before a room exists; this is a bug, not input.
                tracing::error!(error = %e, "cannot set up the room's game");
                return;
            }
        };
        if self.game.as_ref().is_some_and(CurrentGame::running) {
            // An agreed new game: the one it replaces is kept, with no result.
            self.finish_replaced();
        }
        let number = self.last_number + 1;
        // In a match the colours go by the match's games; else the first move passes to
        // the other seat every game.
        let (first, in_match) = match self.match_game_to_start() {
            Some((first, link)) => (first, Some(link)),
            None => match &self.game {
                Some(last) => (last.first.other(), None),
                None => (self.first_seat(), None),
            },
        };
        // No clock runs until both players have made a move; the first is awaited. A swap
        // opening is on the clock from its first stone: the proposer's time runs at once.
        let swap = match &self.settings.game {
            banco_protocol::GameSettings::Caro { opening, .. } => {
                super::swap::SwapPhase::new(opening, first, &spec)
                    .map(|phase| phase.with_chat_before(self.chat.lines()))
            }
            banco_protocol::GameSettings::Xiangqi { .. } => None,
        };
        let mut clock = GameClock::new(self.settings.time);
        // A tournament's board awaits the first moves in any game, for its forfeit time.
        let first_move_due = match self.open_board() {
            Some(b) => Some(now + b.link.forfeit_after),
            None => clock
                .as_ref()
                .filter(|_| swap.is_none())
                .map(|_| now + self.ctx.config.first_move_wait),
        };
        if let (Some(c), Some(phase)) = (clock.as_mut(), swap.as_ref())
            && let Some(seat) = phase.to_act()
        {
            c.start(seat, now);
        }
        let players = Seat::BOTH.map(|seat| match &self.seats[seat.index()] {
            SeatState::Human(h) => PlayerRef {
                name: h.name.clone(),
                bot: None,
            },
            SeatState::Bot(b) => PlayerRef {
                name: b.name.clone(),
                bot: Some(b.level),
            },
            SeatState::Free => PlayerRef {
                name: String::new(),
                bot: None,
            },
        });
        let m = CurrentGame {
            key: rand::random(),
            in_match,
            number,
            first,
            position,
            moves: Vec::new(),
            clock,
            over: None,
            players,
            started_ms: unix_ms(),
            seq: 0,
            first_move_due,
            swap,
        };
        let view = m.view(now);
        self.game = Some(m);
        self.last_number = number;
        self.log_begin();
        self.generation += 1;
        self.last_move_at = Some(now);
        if let Some(offer) = self.offers.clear() {
            self.broadcast(ServerMsg::Withdrawn(offer));
        }
        tracing::info!(number, ?first, opening = ?self.game.as_ref().map(|m| m.position.opening()), "game started");
        self.broadcast(ServerMsg::GameStarted(view));
        self.announce_match();
    }

    /// Who moves first in the room's first game (or its first match's).
    pub(super) fn first_seat(&self) -> Seat {
        match self.settings.first {
            FirstMove::Me => Seat::One,
            FirstMove::Them => Seat::Two,
            FirstMove::Random if rand::random_bool(0.5) => Seat::One,
            FirstMove::Random => Seat::Two,
        }
    }

    /// A player asks to play `mv`.
    pub(super) fn play_request(&mut self, client: ClientId, mv: Move) -> Result<(), ErrorMsg> {
        let Some(seat) = self.seat_of(client) else {
            return Err(ErrorMsg::new(
                ErrorCode::NotAPlayer,
                "spectators cannot move: watch, or join a free seat",
            ));
        };
        let Some(m) = self.game.as_ref() else {
            return Err(ErrorMsg::new(
                ErrorCode::NoGame,
                "the game has not started: wait for an opponent",
            ));
        };
        if !m.running() {
            return Err(ErrorMsg::new(
                ErrorCode::GameOver,
                "the game is over: offer a rematch to play again",
            ));
        }
        if m.in_swap() {
            let Move::Caro(p) = mv else {
                return Err(ErrorMsg::new(
                    ErrorCode::IllegalMove,
                    "this room plays caro, and that is a xiangqi move",
                ));
            };
            return self.swap_stone(seat, p);
        }
        if m.to_move() != seat {
            return Err(ErrorMsg::new(
                ErrorCode::NotYourTurn,
                "it is your opponent's turn",
            ));
        }
        self.apply_move(seat, mv)
    }

    /// Plays `mv` for `seat`, whose turn it is, and tells everyone; ends the game if the
    /// move did. A refused move changes nothing.
    pub(super) fn apply_move(&mut self, seat: Seat, mv: Move) -> Result<(), ErrorMsg> {
        let game = self.settings.game.game_name();
        let sent = match mv {
            Move::Caro(_) => "caro",
            Move::Xiangqi { .. } => "xiangqi",
        };
        if game != sent {
            return Err(ErrorMsg::new(
                ErrorCode::IllegalMove,
                format!("this room plays {game}, and that is a {sent} move"),
            ));
        }
        let Some(rules_move) = to_rules(mv) else {
            return Err(ErrorMsg::new(
                ErrorCode::OutOfBounds,
                "that square is off the xiangqi board",
            ));
        };
        let now = Instant::now();
        let Some(m) = self.game.as_mut() else {
            return Err(ErrorMsg::new(ErrorCode::NoGame, "no game is running"));
        };
        let ending = m.position.play(rules_move).map_err(refusal)?;
        // A five the rule does not count: said with the move, so nobody is left wondering.
        let not_a_win = match (&m.position, mv) {
            (Game::Caro(g), Move::Caro(p)) if ending.is_none() => {
                banco_rules::caro::rules::why_not_a_win(g.board(), p, g.rule()).map(|why| match why
                {
                    banco_rules::caro::NotAWin::BlockedBothEnds(_) => NotAWin::BlockedBothEnds,
                    banco_rules::caro::NotAWin::Overline(_) => NotAWin::Overline,
                })
            }
            _ => None,
        };
        let note = m
            .position
            .note(m.position.plies().saturating_sub(1))
            .unwrap_or_default();
        let record = MoveRecord {
            mv,
            by: seat,
            wxf: note.wxf,
            check: note.check,
        };
        m.moves.push(record.clone());
        let wait = self.ctx.config.first_move_wait;
        let opened = m.moves.len() >= 2;
        let to_move = m.to_move();
        if let Some(c) = m.clock.as_mut() {
            if ending.is_some() {
                c.stop(now);
            } else if c.running().is_some() {
                c.moved(now);
            } else if opened {
                // Both players have moved once: the clocks start.
                c.start(to_move, now);
            }
            m.first_move_due = (!opened && ending.is_none()).then_some(now + wait);
        }
        let ply = u32::try_from(m.moves.len()).unwrap_or(u32::MAX);
        let clocks = m.clock.as_ref().map(|c| c.snapshot(now));
        let ending = ending.map(|end| (end.winner.map(|side| m.seat(side)), end));
        let event = Event::Move {
            mv,
            clocks: clocks.map(|c| c.remaining_ms),
        };
        self.log_event(event);
        self.generation += 1;
        self.last_move_at = Some(now);
        self.broadcast(ServerMsg::Moved {
            record,
            ply,
            clocks,
            not_a_win,
        });
        if let Some(offer) = self.offers.clear() {
            self.broadcast(ServerMsg::Withdrawn(offer));
        }
        if let Some((winner, end)) = ending {
            self.finish(winner, end.reason.into(), end.line);
        }
        Ok(())
    }

    /// Ends the game by timeout if the player to move has run out at `now`, or aborts it
    /// if a first move was awaited in vain.
    pub(super) fn check_flag(&mut self, now: Instant) {
        let unopened = self
            .game
            .as_ref()
            .filter(|m| m.running())
            .and_then(|m| m.first_move_due)
            .is_some_and(|due| due <= now);
        if unopened && self.open_board().is_some() {
            let seat = self.game.as_ref().map(CurrentGame::to_move);
            if let Some(seat) = seat {
                self.forfeit_first_move(seat);
            }
            return;
        }
        if unopened {
            tracing::info!("no first move in time; the game is aborted");
            self.finish(None, EndReason::Aborted, Vec::new());
            return;
        }
        let flagged = self
            .game
            .as_ref()
            .filter(|m| m.running())
            .and_then(|m| m.clock.as_ref())
            .and_then(|c| c.flagged(now));
        if let Some(seat) = flagged {
            tracing::info!(?seat, "out of time");
            self.finish(Some(seat.other()), EndReason::Timeout, Vec::new());
        }
    }

    /// Ends the running game and tells everyone: the open offer goes, the clocks stop,
    /// searches are dropped, and the game is recorded. In a match, the game's result
    /// decides the match or a break before the next game begins.
    pub(super) fn finish(&mut self, winner: Option<Seat>, reason: EndReason, line: Vec<Point>) {
        self.finish_then(winner, reason, line, None);
    }

    /// [`Room::finish`], with the match ending as `match_end` says (its winner and why:
    /// a player resigned it, left, or did not come back) whatever the game's result.
    pub(super) fn finish_then(
        &mut self,
        winner: Option<Seat>,
        reason: EndReason,
        line: Vec<Point>,
        match_end: Option<(Option<Seat>, MatchEnd)>,
    ) {
        let now = Instant::now();
        let Some(m) = self.game.as_mut().filter(|m| m.running()) else {
            return;
        };
        if let Some(c) = m.clock.as_mut() {
            c.stop(now);
        }
        // A game given up before both sides have moved (a resignation, a player leaving
        // or running out of time on the first move, a draw agreed at once) is aborted, as
        // lichess does: no result, unrated, a loss for nobody. A result the rules give
        // on the board (a five from an opening) stands.
        // In a swap opening a stone or a decision counts as a move, and time runs from the
        // first stone: a flag falling in the opening loses like any other.
        let moved = |seat: Seat| {
            m.moves.iter().any(|r| r.by == seat) || m.swap.as_ref().is_some_and(|s| s.acted(seat))
        };
        let swap_timeout = m.swap.is_some() && reason == EndReason::Timeout;
        let given_up = !swap_timeout
            && matches!(
                reason,
                EndReason::Resign
                    | EndReason::Quit
                    | EndReason::Abandoned
                    | EndReason::Timeout
                    | EndReason::Agreement
            );
        // A tournament's games are never aborted: a resignation before moving counts.
        let board = self.board.is_some();
        let (winner, reason) = if given_up && !board && !(moved(Seat::One) && moved(Seat::Two)) {
            (None, EndReason::Aborted)
        } else {
            (winner, reason)
        };
        let over = GameOver {
            winner,
            reason,
            line,
        };
        m.over = Some(over.clone());
        let clocks = m.clock.as_ref().map(|c| c.snapshot(now));
        // An aborted game is no game in the series' score either.
        if reason != EndReason::Aborted {
            self.series.count(winner);
        }
        self.generation += 1;
        // Recorded before anyone hears of the end, so a player who asks for the history
        // as soon as they see it finds the game there.
        self.record();
        if let Some(offer) = self.offers.clear() {
            self.broadcast(ServerMsg::Withdrawn(offer));
        }
        tracing::info!(?winner, reason = reason.as_str(), "game over");
        self.broadcast(ServerMsg::GameOver(over));
        if let Some(clocks) = clocks {
            self.broadcast(ServerMsg::Clock(clocks));
        }
        self.cancel_searches();
        if reason != EndReason::Aborted {
            self.report_game(winner);
        }
        match match_end {
            Some((winner, why)) => self.end_match(winner, why),
            None => self.match_game_over(reason != EndReason::Aborted),
        }
    }

    /// The running game gives way to an agreed new game: it is kept with no result and
    /// unrated (reason `new_game`); the new game's start tells everyone.
    fn finish_replaced(&mut self) {
        let now = Instant::now();
        let Some(m) = self.game.as_mut().filter(|m| m.running()) else {
            return;
        };
        if let Some(c) = m.clock.as_mut() {
            c.stop(now);
        }
        m.over = Some(GameOver {
            winner: None,
            reason: EndReason::NewGame,
            line: Vec::new(),
        });
        self.record();
    }

    /// Logs the current game's end. Its record, ratings and leaving the live set are one
    /// transaction. Games without a result (aborted, replaced, both players gone) count
    /// for nobody's rating.
    fn record(&mut self) {
        let Some(m) = self.game.as_ref() else { return };
        let Some(over) = &m.over else { return };
        let unrated = !self.settings.rated
            || matches!(over.reason, EndReason::Aborted | EndReason::NewGame)
            || (over.reason == EndReason::Abandoned && over.winner.is_none());
        let (winner, reason, rated, line) = (
            over.winner,
            over.reason.as_str().to_string(),
            !unrated,
            over.line.clone(),
        );
        let record = GameRecord {
            key: m.key,
            room: self.id,
            number: m.number,
            settings: self.settings.clone(),
            players: m.players.clone(),
            first: m.first,
            opening: m.position.opening().to_vec(),
            moves: m.moves.iter().map(|r| r.mv).collect(),
            winner,
            line,
            reason,
            rated,
            started_ms: m.started_ms,
            ended_ms: unix_ms(),
            in_match: m.in_match,
            swap: m.swap.as_ref().map(super::swap::SwapPhase::view),
        };
        self.write(Entry::End(Box::new(record)));
    }
}

impl Room {
    /// Logs the start of the game just set up: its room, settings, seats and opening.
    pub(super) fn log_begin(&mut self) {
        let chat = self.chat.lines();
        self.log_begin_with(chat);
    }

    /// [`Room::log_begin`] with the chat as it stood when the game began: a swap
    /// opening, once decided, writes its game's row again with the stones and colours,
    /// and what was said since is already logged as the game's events.
    pub(super) fn log_begin_with(&mut self, chat: Vec<banco_protocol::ChatLine>) {
        let Some(m) = self.game.as_ref() else { return };
        let live = LiveGame {
            key: m.key,
            room: self.id,
            settings: self.settings.clone(),
            seats: self.live_seats(),
            number: m.number,
            first: m.first,
            opening: m.position.opening().to_vec(),
            moves: Vec::new(),
            clocks: None,
            series: self.series,
            chat,
            started_ms: m.started_ms,
            next_seq: 0,
            in_match: m.in_match,
        };
        self.write(Entry::Begin(Box::new(live)));
    }

    /// The seats as the store keeps them for a restart (resume tokens as hashes).
    pub(super) fn live_seats(&self) -> [LiveSeat; 2] {
        let seat = |s: &SeatState| match s {
            SeatState::Human(h) => LiveSeat::Human {
                name: h.name.clone(),
                token: h.token,
            },
            SeatState::Bot(b) => LiveSeat::Bot(b.level),
            // Games start with both seats taken; a free one is recorded as nobody's.
            SeatState::Free => LiveSeat::Human {
                name: String::new(),
                token: crate::token::TokenHash([0; 32]),
            },
        };
        [seat(&self.seats[0]), seat(&self.seats[1])]
    }

    /// Logs `event` as the running game's next.
    pub(super) fn log_event(&mut self, event: Event) {
        let Some(m) = self.game.as_mut().filter(|m| m.running()) else {
            return;
        };
        let seq = m.seq;
        m.seq += 1;
        let game = m.key;
        self.write(Entry::Event { game, seq, event });
    }

    /// Logs the clocks of a running game as they stand now (the server is stopping).
    pub(super) fn log_pause(&mut self) {
        let clocks = self
            .game
            .as_ref()
            .filter(|m| m.running())
            .and_then(|m| m.clock.as_ref())
            .map(|c| c.snapshot(Instant::now()).remaining_ms);
        if let Some(clocks) = clocks {
            self.log_event(Event::Clocks(clocks));
        }
    }
}

/// The wire's refusal for a move the rules refuse.
fn refusal(e: IllegalMove) -> ErrorMsg {
    use banco_rules::{caro, xiangqi};
    let code = match &e {
        IllegalMove::Caro(caro::MoveError::OutOfBounds { .. }) => ErrorCode::OutOfBounds,
        IllegalMove::Caro(caro::MoveError::Occupied(_)) => ErrorCode::Occupied,
        IllegalMove::Caro(caro::MoveError::GameOver)
        | IllegalMove::Xiangqi(xiangqi::MoveError::GameOver) => ErrorCode::GameOver,
        IllegalMove::Caro(caro::MoveError::Forbidden { .. }) => ErrorCode::IllegalMove,
        IllegalMove::Xiangqi(_) => ErrorCode::IllegalMove,
        IllegalMove::WrongGame => ErrorCode::IllegalMove,
    };
    let message = match &e {
        IllegalMove::WrongGame => "that move belongs to another game than this room's".to_string(),
        other => other.to_string(),
    };
    ErrorMsg::new(code, message)
}
