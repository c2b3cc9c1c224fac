//! What the client knows about the room it is in, kept up to date from the server's
//! messages. Shared by the terminal client and the plain mode; no drawing, no I/O.
//!
//! - [`board`]: the client's copy of the position, per game.
//! - [`clock`]: clocks that count down between the server's updates.
//! - [`opening`]: caro opening stones as people type and read them.
//! - [`threats`]: the four warning: points where a player would win at once.

pub mod board;
pub mod clock;
pub mod opening;
pub mod threats;

use banco_protocol::{
    CHAT_HISTORY, CaroOpening, ChatLine, EndReason, GameOver, GameSettings, GameView, MatchState,
    Move, MoveRecord, Offer, Role, RoomId, RoomSettings, RoomView, Seat, SeatView, Series,
    ServerMsg, SwapStage, SwapView,
};
use banco_rules::caro::Stone;
use banco_rules::xiangqi::piece::Color;
use std::time::{Duration, Instant};

pub use board::Board;
pub use clock::LiveClocks;

/// The room as this client sees it.
#[derive(Debug, Clone)]
pub struct Room {
    pub id: RoomId,
    pub settings: RoomSettings,
    /// What this client is here: a player in a seat, or a spectator.
    pub you: Role,
    /// Who sits in each seat; `None` for a free seat.
    pub seats: [Option<SeatView>; 2],
    pub spectators: Vec<String>,
    /// The current or last game; `None` until the first one starts.
    pub game: Option<GameState>,
    /// The open offer, if any.
    pub offer: Option<Offer>,
    /// The most recent chat lines, oldest first.
    pub chat: Vec<ChatLine>,
    /// The engine's suggestion for this client's move, until a move makes it stale.
    pub hint: Option<Move>,
    /// The score between the two players seated now (the server's count when we came in,
    /// then kept up here: each game's end, and 0-0 when a seat is given up; in a match,
    /// the match's score as the server last told it).
    pub series: Series,
    /// Where the room's match stands, as the server last told it (`None` in a room
    /// without matches, and before its first match).
    pub match_state: Option<MatchState>,
    /// When `match_state` was told: its countdown to the next game runs from then.
    pub match_told: Instant,
}

/// One game in the room.
#[derive(Debug, Clone)]
pub struct GameState {
    /// Games played in the room so far, this one included.
    pub number: u32,
    /// The seat that moved first (in caro: X, or O after an odd opening).
    pub first: Seat,
    /// Caro: the stones the game started from, X first (not moves: never undone).
    pub opening: Vec<banco_protocol::Point>,
    /// Every move so far, in order (after the opening).
    pub moves: Vec<MoveRecord>,
    /// The position after those moves.
    pub board: Board,
    /// `None` for games without clocks.
    pub clocks: Option<LiveClocks>,
    pub over: Option<GameOver>,
    /// Set when a server move did not fit the local board: the picture may be wrong.
    pub out_of_step: bool,
    /// Who played this game, kept when they leave so the result can still name them.
    pub players: [Option<SeatView>; 2],
    /// A swap opening: in progress (its stones are on `board` as the opening so far, and
    /// no move is made yet) or decided.
    pub swap: Option<SwapView>,
}

impl GameState {
    fn from_view(
        view: GameView,
        settings: &GameSettings,
        seats: &[Option<SeatView>; 2],
        now: Instant,
    ) -> GameState {
        // While a swap opening is played its stones stand as the opening so far.
        let stones = match &view.swap {
            Some(s) if s.stage != SwapStage::Done => s.stones.as_slice(),
            _ => view.opening.as_slice(),
        };
        let mut board = Board::new(settings, &view.start_fen, stones);
        let mut out_of_step = false;
        for record in &view.moves {
            out_of_step |= board.play(&record.mv).is_err();
        }
        GameState {
            number: view.number,
            first: view.first,
            opening: view.opening,
            moves: view.moves,
            board,
            clocks: view.clocks.map(|c| LiveClocks::new(c, now)),
            over: view.over,
            out_of_step,
            players: seats.clone(),
            swap: view.swap.map(|s| *s),
        }
    }

    /// The swap opening while it is being played (no move may be made yet).
    pub fn swap_in_progress(&self) -> Option<&SwapView> {
        self.swap.as_ref().filter(|s| s.stage != SwapStage::Done)
    }

    /// Whose turn it is, while the game runs.
    pub fn to_move(&self) -> Option<Seat> {
        if self.over.is_some() {
            return None;
        }
        if let Some(swap) = self.swap_in_progress() {
            return swap.to_act;
        }
        Some(self.mover_after(self.moves.len()))
    }

    /// The seat that makes ply `n + 1` (after `n` moves).
    fn mover_after(&self, n: usize) -> Seat {
        if n.is_multiple_of(2) {
            self.first
        } else {
            self.first.other()
        }
    }

    /// The last move played.
    pub fn last_move(&self) -> Option<&MoveRecord> {
        self.moves.last()
    }

    /// Whether `seat` has a move on the board (undo is only possible after one).
    pub fn has_moved(&self, seat: Seat) -> bool {
        self.moves.iter().any(|m| m.by == seat)
    }
}

impl Room {
    /// The room as the server described it on entry.
    pub fn from_view(view: RoomView, now: Instant) -> Room {
        let game = view
            .game
            .map(|g| GameState::from_view(g, &view.settings.game, &view.seats, now));
        Room {
            id: view.id,
            settings: view.settings,
            you: view.you,
            seats: view.seats,
            spectators: view.spectators,
            game,
            offer: view.offer,
            chat: view.chat,
            hint: None,
            series: view.series,
            match_state: view.match_state,
            match_told: now,
        }
    }

    /// Takes in one message from the server. Messages that are not about the room
    /// (lobby lists, errors) change nothing.
    pub fn apply(&mut self, msg: &ServerMsg, now: Instant) {
        match msg {
            ServerMsg::People { seats, came, left } => {
                if seats.iter().any(Option::is_none) {
                    // A seat given up: the next pairing starts its own score.
                    self.series = Series::default();
                }
                self.seats = seats.clone();
                self.spectators.retain(|name| !left.contains(name));
                for name in came {
                    if !self.spectators.contains(name) {
                        self.spectators.push(name.clone());
                    }
                }
                if let Some(game) = &mut self.game {
                    // Someone sitting down mid-game plays it; someone leaving stays on
                    // record as its player.
                    for (kept, now) in game.players.iter_mut().zip(seats) {
                        if now.is_some() {
                            kept.clone_from(now);
                        }
                    }
                }
            }
            ServerMsg::GameStarted(view) => {
                self.game = Some(GameState::from_view(
                    view.clone(),
                    &self.settings.game,
                    &self.seats,
                    now,
                ));
                self.offer = None;
                self.hint = None;
            }
            ServerMsg::Swap(view) => {
                if let Some(game) = &mut self.game {
                    game.board = Board::new(&self.settings.game, "", &view.stones);
                    game.swap = Some((**view).clone());
                    // Whoever acts next: their clock runs (the server's next `Clock`
                    // or `GameStarted` says exactly).
                }
                self.hint = None;
            }
            ServerMsg::Moved { record, clocks, .. } => {
                if let Some(game) = &mut self.game {
                    game.out_of_step |= game.board.play(&record.mv).is_err();
                    game.moves.push(record.clone());
                    if let Some(c) = clocks {
                        game.clocks = Some(LiveClocks::new(*c, now));
                    }
                }
                self.hint = None;
            }
            ServerMsg::Chat(line) => {
                self.chat.push(line.clone());
                if self.chat.len() > CHAT_HISTORY * 2 {
                    self.chat.drain(..self.chat.len() - CHAT_HISTORY);
                }
            }
            ServerMsg::Offered(offer) => self.offer = Some(*offer),
            ServerMsg::Declined(_) | ServerMsg::Withdrawn(_) => self.offer = None,
            ServerMsg::Undone { plies, clocks } => {
                if let Some(game) = &mut self.game {
                    for _ in 0..*plies {
                        if game.moves.pop().is_some() {
                            game.board.undo();
                        }
                    }
                    game.over = None;
                    if let Some(c) = clocks {
                        game.clocks = Some(LiveClocks::new(*c, now));
                    }
                }
                self.offer = None;
                self.hint = None;
            }
            ServerMsg::Clock(c) => {
                if let Some(game) = &mut self.game {
                    game.clocks = Some(LiveClocks::new(*c, now));
                }
            }
            ServerMsg::GameOver(over) => {
                if let Some(game) = &mut self.game {
                    // An aborted game is no game of the series (the server counts it
                    // so too): nobody won it, and it was no draw.
                    if game.over.is_none() && over.reason != EndReason::Aborted {
                        self.series.count(over.winner);
                    }
                    game.over = Some(over.clone());
                    game.clocks = game.clocks.map(|c| c.stopped(now));
                }
                self.offer = None;
                self.hint = None;
            }
            ServerMsg::Hint(mv) => self.hint = Some(*mv),
            ServerMsg::Match(state) => {
                self.series = state.score;
                self.match_state = Some(*state);
                self.match_told = now;
            }
            ServerMsg::MatchOver(result) => {
                self.series = result.score;
                if let Some(m) = &mut self.match_state {
                    m.score = result.score;
                    m.leader = result.score.leader();
                    m.next_game_in_ms = None;
                    m.result = Some(*result);
                }
                self.match_told = now;
            }
            ServerMsg::Welcome(_)
            | ServerMsg::Rooms(_)
            | ServerMsg::RoomsChanged { .. }
            | ServerMsg::RoomCreated(_)
            | ServerMsg::Joined(_)
            | ServerMsg::Left
            | ServerMsg::Error(_) => {}
            // Records (leaderboard, history, replays) are not about the room.
            ServerMsg::Leaderboard { .. }
            | ServerMsg::Profile(_)
            | ServerMsg::History(_)
            | ServerMsg::Replay(_)
            | ServerMsg::Ping(_)
            | ServerMsg::PasswordChanged
            | ServerMsg::LoggedOut
            | ServerMsg::ReviewProgress { .. }
            | ServerMsg::Review(_)
            | ServerMsg::Storage(_) => {}
            // The rules run here; the server's facts are for the browser page.
            // What a client without the rules asks for (the browser page); this one has them.
            ServerMsg::Facts(_)
            | ServerMsg::Judged(_)
            | ServerMsg::Tried(_)
            | ServerMsg::RecordParsed(_)
            | ServerMsg::RecordText { .. }
            | ServerMsg::RecordRefused { .. } => {}
            ServerMsg::ChallengeSent(_)
            | ServerMsg::Challenged(_)
            | ServerMsg::ChallengeEnded { .. }
            | ServerMsg::OpenChallenges(_)
            | ServerMsg::Players(_)
            | ServerMsg::ChallengesSet(_)
            | ServerMsg::Tournaments(_)
            | ServerMsg::Tournament(_)
            | ServerMsg::TournamentGame(_)
            | ServerMsg::TournamentOver { .. }
            | ServerMsg::TournamentExport { .. } => {}
        }
    }

    /// Whether a match is being played here (begun and not over).
    pub fn in_match(&self) -> bool {
        self.match_state.is_some_and(|m| m.result.is_none())
    }

    /// Between two games of a match: how long until the next starts by itself, at `now`.
    pub fn next_game_in(&self, now: Instant) -> Option<Duration> {
        let ms = self
            .match_state
            .filter(|_| !self.playing())?
            .next_game_in_ms?;
        Some(
            Duration::from_millis(ms)
                .saturating_sub(now.saturating_duration_since(self.match_told)),
        )
    }

    /// This client's seat, if it plays.
    pub fn my_seat(&self) -> Option<Seat> {
        match self.you {
            Role::Player(seat) => Some(seat),
            Role::Spectator => None,
        }
    }

    /// Whether the game runs (started and not over).
    pub fn playing(&self) -> bool {
        self.game.as_ref().is_some_and(|g| g.over.is_none())
    }

    /// The players of the room's game by seat, named as the server records them (a
    /// bot's name is `Bot (level)`; an empty seat's is empty): how the history lists it.
    pub fn recorded_players(&self) -> [String; 2] {
        let seats = self.game.as_ref().map_or(&self.seats, |g| &g.players);
        seats
            .clone()
            .map(|s| s.map_or_else(String::new, |s| s.name))
    }

    /// Whose history holds the room's game: this client's when it plays, else a
    /// person's who does (`None`: everyone's, when both seats are bots).
    pub fn history_holding_game(&self, me: &str) -> Option<String> {
        if self.my_seat().is_some() {
            return Some(me.to_string());
        }
        let seats = self.game.as_ref().map_or(&self.seats, |g| &g.players);
        seats
            .iter()
            .flatten()
            .find(|s| s.bot.is_none())
            .map(|s| s.name.clone())
    }

    /// Whether giving the running game up now (resigning, leaving, quitting) aborts it
    /// instead of losing it: before both players have moved the server ends it with no
    /// result, unrated, as lichess does.
    pub fn giving_up_aborts(&self) -> bool {
        self.game
            .as_ref()
            .filter(|g| g.over.is_none())
            .is_some_and(|g| !Seat::BOTH.into_iter().all(|s| g.has_moved(s)))
    }

    /// Whose turn it is, while a game runs.
    pub fn to_move(&self) -> Option<Seat> {
        self.game.as_ref().and_then(GameState::to_move)
    }

    /// Whether this client is to move now.
    pub fn my_turn(&self) -> bool {
        self.my_seat().is_some() && self.to_move() == self.my_seat()
    }

    /// The name shown for a seat: the player's name, or `None` when free.
    pub fn seat_name(&self, seat: Seat) -> Option<&str> {
        self.player(seat).map(|s| s.name.as_str())
    }

    /// Who sits in a seat, or who played the current game from it and has left.
    pub fn player(&self, seat: Seat) -> Option<&SeatView> {
        self.seats[seat.index()].as_ref().or_else(|| {
            self.game
                .as_ref()
                .and_then(|g| g.players[seat.index()].as_ref())
        })
    }

    /// Whether the player of the current game has left the seat.
    pub fn departed(&self, seat: Seat) -> bool {
        self.seats[seat.index()].is_none() && self.player(seat).is_some()
    }

    /// Whether `seat` plays the first stone (X) in the current game; seat One before
    /// any game.
    pub fn moves_first(&self, seat: Seat) -> bool {
        self.game.as_ref().map_or(Seat::One, |g| g.first) == seat
    }

    /// Xiangqi: the colour a seat plays (the first mover plays the start position's side
    /// to move, Red unless a FEN says otherwise).
    pub fn color_of(&self, seat: Seat) -> Option<Color> {
        let first = match &self.game {
            Some(g) => g.board.first_color()?,
            None => match self.settings.game {
                GameSettings::Xiangqi { .. } => Color::Red,
                GameSettings::Caro { .. } => return None,
            },
        };
        Some(if self.moves_first(seat) {
            first
        } else {
            !first
        })
    }

    /// Whether this client sees the board from Black's side (it plays Black).
    pub fn flipped(&self) -> bool {
        self.my_seat().and_then(|s| self.color_of(s)) == Some(Color::Black)
    }

    /// The stone a seat plays in caro: the first mover plays the stone to move after
    /// the opening (X without one, O after three opening stones).
    pub fn caro_stone(&self, seat: Seat) -> Stone {
        let first = match self.game.as_ref().and_then(|g| g.board.caro()) {
            Some(g) => g.first_stone(),
            // Before the first game: what the room's opening will leave to move (the
            // balanced openings are all three stones).
            None => match &self.settings.game {
                GameSettings::Caro {
                    opening: CaroOpening::Balanced,
                    ..
                } => Stone::O,
                GameSettings::Caro {
                    opening: CaroOpening::Stones(stones),
                    ..
                } if !stones.len().is_multiple_of(2) => Stone::O,
                _ => Stone::X,
            },
        };
        if self.moves_first(seat) {
            first
        } else {
            first.opponent()
        }
    }

    /// The stone letter a seat plays in caro (see [`Room::caro_stone`]).
    pub fn stone_letter(&self, seat: Seat) -> char {
        // In a swap opening the colours are not decided yet.
        if self
            .game
            .as_ref()
            .is_some_and(|g| g.swap_in_progress().is_some())
        {
            return '?';
        }
        match self.caro_stone(seat) {
            Stone::X => 'X',
            Stone::O => 'O',
        }
    }

    /// The open offer made by the other player, which this client should answer.
    pub fn offer_to_me(&self) -> Option<Offer> {
        let mine = self.my_seat()?;
        self.offer.filter(|o| o.by != mine)
    }

    /// This client's own open offer.
    pub fn my_offer(&self) -> Option<Offer> {
        let mine = self.my_seat()?;
        self.offer.filter(|o| o.by == mine)
    }

    /// How a move reads in this room (`h8`, `27,3`, `h2e2`).
    pub fn move_text(&self, mv: &Move) -> String {
        board::move_text(mv, &self.settings.game)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{caro_room_view as caro_view, moved};
    use banco_protocol::{OfferKind, Point};

    #[test]
    fn moves_undo_and_game_over_keep_board_and_turn_in_step() {
        let now = Instant::now();
        let mut room = Room::from_view(caro_view(Role::Player(Seat::One)), now);
        assert!(room.my_turn());
        room.apply(&moved(7, 7, Seat::One, 1), now);
        room.apply(&moved(8, 8, Seat::Two, 2), now);
        assert!(room.my_turn());
        assert_eq!(
            room.game
                .as_ref()
                .unwrap()
                .board
                .caro()
                .unwrap()
                .moves()
                .len(),
            2
        );
        room.apply(
            &ServerMsg::Offered(Offer {
                kind: OfferKind::Undo,
                by: Seat::One,
            }),
            now,
        );
        assert!(room.my_offer().is_some() && room.offer_to_me().is_none());
        room.apply(
            &ServerMsg::Undone {
                plies: 2,
                clocks: None,
            },
            now,
        );
        assert_eq!(room.offer, None);
        assert!(room.game.as_ref().unwrap().moves.is_empty());
        assert!(room.my_turn());
        room.apply(
            &ServerMsg::GameOver(GameOver {
                winner: Some(Seat::Two),
                reason: EndReason::Timeout,
                line: vec![],
            }),
            now,
        );
        assert!(!room.playing());
        assert_eq!(room.to_move(), None);
        let clocks = room.game.as_ref().unwrap().clocks.unwrap();
        assert_eq!(clocks.clocks.running, None);

        // The game counts once in the series, however often its end is heard; a seat
        // given up starts the score again.
        let over = ServerMsg::GameOver(GameOver {
            winner: Some(Seat::Two),
            reason: EndReason::Timeout,
            line: vec![],
        });
        room.apply(&over, now);
        assert_eq!(room.series.wins, [0, 1]);
        // A game aborted before both players moved is not counted at all.
        room.apply(
            &ServerMsg::GameStarted(GameView {
                number: 2,
                ..caro_view(Role::Player(Seat::One))
                    .game
                    .expect("the view has a game")
            }),
            now,
        );
        room.apply(
            &ServerMsg::GameOver(GameOver {
                winner: None,
                reason: EndReason::Aborted,
                line: vec![],
            }),
            now,
        );
        assert_eq!((room.series.wins, room.series.draws), ([0, 1], 0));
        room.apply(
            &ServerMsg::People {
                seats: [room.seats[0].clone(), None],
                came: vec!["Minh".into(), "Lan".into()],
                left: vec![],
            },
            now,
        );
        assert_eq!(room.series, Series::default());
        room.apply(
            &ServerMsg::People {
                seats: [room.seats[0].clone(), None],
                came: vec!["Lan".into()],
                left: vec!["Minh".into()],
            },
            now,
        );
        assert_eq!(
            room.spectators,
            ["Lan"],
            "deltas add and remove, never twice"
        );
    }

    #[test]
    fn before_the_first_game_the_opening_decides_who_plays_o() {
        let now = Instant::now();
        for (opening, first) in [
            (CaroOpening::None, 'X'),
            (CaroOpening::Balanced, 'O'),
            (CaroOpening::Stones(vec![Point::new(1, 1)]), 'O'),
            (
                CaroOpening::Stones(vec![Point::new(1, 1), Point::new(2, 2)]),
                'X',
            ),
        ] {
            let mut view = caro_view(Role::Player(Seat::One));
            view.game = None;
            view.settings.game = GameSettings::Caro {
                width: 15,
                height: 15,
                rule: banco_protocol::Rule::Caro,
                opening,
            };
            let room = Room::from_view(view, now);
            assert_eq!(room.stone_letter(Seat::One), first);
            assert_ne!(room.stone_letter(Seat::Two), first);
        }
    }

    #[test]
    fn a_joined_snapshot_replays_its_moves() {
        let now = Instant::now();
        let mut view = caro_view(Role::Spectator);
        let game = view.game.as_mut().unwrap();
        game.first = Seat::Two;
        for (i, (x, y)) in [(1, 1), (2, 2), (3, 3)].into_iter().enumerate() {
            game.moves.push(MoveRecord {
                mv: Move::Caro(Point::new(x, y)),
                by: if i % 2 == 0 { Seat::Two } else { Seat::One },
                wxf: String::new(),
                check: false,
            });
        }
        let room = Room::from_view(view, now);
        assert_eq!(room.to_move(), Some(Seat::One));
        assert!(!room.my_turn());
        assert_eq!(room.stone_letter(Seat::Two), 'X');
        let g = room.game.as_ref().unwrap();
        assert!(!g.out_of_step);
        assert_eq!(
            g.board.caro().unwrap().board().stone_at(Point::new(2, 2)),
            Some(banco_rules::caro::Stone::O)
        );
    }
}
