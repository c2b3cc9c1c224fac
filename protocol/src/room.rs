//! The vocabulary both sides share: rooms, seats, settings, moves, clocks, offers and
//! endings. Plain data; the server decides what is allowed.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

pub use banco_rules::Level;
pub use banco_rules::caro::{Point, Rule};
pub use banco_rules::time::{TimeControl, TimeError, parse_duration};

/// The name the server's bot at `level` goes by wherever a player's name is recorded
/// ("Bot (hard)"): the history, replays, leaderboards and profiles. No account may take
/// such a name, so a client can tell a bot from a person by it ([`bot_of_name`]) and show
/// it in the reader's language.
pub fn bot_name(level: Level) -> String {
    format!("Bot ({})", level.name())
}

/// The level of the bot named `name` (any case, surrounding spaces ignored), or `None`
/// for a person's name.
pub fn bot_of_name(name: &str) -> Option<Level> {
    let name = name.trim();
    Level::ALL
        .into_iter()
        .find(|&level| bot_name(level).eq_ignore_ascii_case(name))
}

/// A room's number on this server, unique while the server runs.
pub type RoomId = u32;

/// A secret the server hands out in [`crate::Welcome`]; presenting it in a later
/// [`crate::Hello`] reclaims a seat held for a dropped connection.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct ResumeToken(pub [u8; 16]);

impl fmt::Debug for ResumeToken {
    /// Never printed in logs in full.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ResumeToken({:02x}{:02x}..)", self.0[0], self.0[1])
    }
}

/// A long-lived secret that logs in to one account without its password (the browser
/// page's "stay logged in"): handed out in [`crate::Welcome`] when a login asks to be
/// remembered, presented as [`crate::Credentials::Token`]. The server keeps only its hash.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct AccountToken(pub [u8; 32]);

impl fmt::Debug for AccountToken {
    /// Never printed in logs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("AccountToken(<hidden>)")
    }
}

/// Why a caro stone that made five (or more) in a row did not win, told with the move so
/// no player is left wondering.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum NotAWin {
    /// A five blocked by the opponent at both ends, under the caro rule.
    BlockedBothEnds,
    /// Six or more in a row, under a rule where only exactly five wins.
    Overline,
}

/// One of the two playing seats of a room. Seat One is the creator's (unless a bot sits
/// there in a bot-vs-bot room).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    One,
    Two,
}

impl Seat {
    pub const BOTH: [Seat; 2] = [Seat::One, Seat::Two];

    pub fn other(self) -> Seat {
        match self {
            Seat::One => Seat::Two,
            Seat::Two => Seat::One,
        }
    }

    /// 0 for One, 1 for Two: for arrays indexed by seat.
    pub fn index(self) -> usize {
        self as usize
    }
}

/// What someone in a room is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Player(Seat),
    Spectator,
}

/// Which game a room plays, and its variant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum GameSettings {
    Caro {
        width: u8,
        height: u8,
        rule: Rule,
        /// What every game of the room starts from. (Settings stored before openings
        /// existed read as [`CaroOpening::None`].)
        #[serde(default)]
        opening: CaroOpening,
    },
    /// `fen`: start from this position (UCI/UCCI FEN) instead of the usual one.
    Xiangqi { fen: Option<String> },
}

/// What a caro room's games start from.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CaroOpening {
    /// An empty board: X moves first.
    #[default]
    None,
    /// These stones, placed alternately X, O, X, ... before the first move (so after an
    /// odd number of them O moves first). Every game of the room starts from them.
    Stones(Vec<Point>),
    /// The server deals each game (rematches too) a fresh opening from the engine's
    /// list of balanced three-stone openings; O moves first.
    Balanced,
    /// Swap1: the first player (the *proposer*: the seat that would move first) places
    /// three stones, X, O, X; the other (the *responder*) then plays White (O, moving
    /// next) or swaps to Black (X). See [`SwapView`].
    Swap1,
    /// Swap2: as Swap1, but the responder may also place two more stones (O then X) and
    /// leave the colour to the proposer. The Gomocup and RIF order of play.
    Swap2,
}

impl CaroOpening {
    /// Whether games start with a swap opening played by the two players.
    pub fn is_swap(&self) -> bool {
        matches!(self, CaroOpening::Swap1 | CaroOpening::Swap2)
    }
}

impl GameSettings {
    /// Caro on the default 15x15 board under the caro rule, from an empty board.
    pub fn caro_default() -> GameSettings {
        GameSettings::Caro {
            width: 15,
            height: 15,
            rule: Rule::Caro,
            opening: CaroOpening::None,
        }
    }

    /// The game's name: `caro` or `xiangqi`.
    pub fn game_name(&self) -> &'static str {
        match self {
            GameSettings::Caro { .. } => "caro",
            GameSettings::Xiangqi { .. } => "xiangqi",
        }
    }
}

/// Who moves first in a room's first game, as the creator chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FirstMove {
    /// Seat One moves first.
    Me,
    /// Seat Two moves first.
    Them,
    /// The server tosses a coin.
    Random,
}

/// Who sits in a seat when the room is made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SeatKind {
    /// A person: the creator in seat One, whoever joins in seat Two.
    Human,
    /// The server's bot at this level.
    Bot(Level),
}

/// Everything chosen when a room is created.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RoomSettings {
    pub game: GameSettings,
    pub time: TimeControl,
    pub first: FirstMove,
    /// Seat One, then seat Two. A bot in seat One makes the creator a spectator (a
    /// bot-vs-bot room when both are bots).
    pub seats: [SeatKind; 2],
    /// Whether players may ask the server for a hint.
    pub hints: bool,
    /// Play the room's games as a match of this format; `None`: an open-ended series of
    /// rematches. (Settings stored before matches existed read as `None`.)
    #[serde(default)]
    pub match_format: Option<MatchFormat>,
    /// Whether the room's games count for ratings (they do only between two accounts,
    /// both having moved); `false`: casual games, rated for nobody. Settings stored
    /// before this choice existed read as rated.
    #[serde(default = "rated_by_default")]
    pub rated: bool,
}

/// Rooms are rated unless their maker says otherwise.
fn rated_by_default() -> bool {
    true
}

impl Default for RoomSettings {
    /// Caro 15x15, caro rule, no clock, creator first, against a person, hints on, rated.
    fn default() -> RoomSettings {
        RoomSettings {
            game: GameSettings::caro_default(),
            time: TimeControl::Unlimited,
            first: FirstMove::Me,
            seats: [SeatKind::Human, SeatKind::Human],
            hints: true,
            match_format: None,
            rated: true,
        }
    }
}

/// A square on the xiangqi board in ICCS coordinates: `file` 0..=8 is a..i from Red's
/// left, `rank` 0..=9 counts from Red's side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct XqSquare {
    pub file: u8,
    pub rank: u8,
}

/// A move in either game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Move {
    /// A stone on this point.
    Caro(Point),
    /// A piece from one square to another.
    Xiangqi { from: XqSquare, to: XqSquare },
}

/// How much time each seat has, as of the moment the message was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Clocks {
    /// Milliseconds left, by seat. With a per-move timer, the mover's time left for this
    /// move; the other seat shows a full timer.
    pub remaining_ms: [u64; 2],
    /// The seat whose time is running, if any.
    pub running: Option<Seat>,
}

/// Why a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// Caro: a winning line.
    Five,
    /// Caro: the board is full (a draw).
    Draw,
    /// The player to move ran out of time.
    Timeout,
    /// A player left mid-game.
    Quit,
    /// A player's connection dropped and did not come back in time.
    Abandoned,
    Resign,
    Checkmate,
    /// Xiangqi: no legal move while not in check; the stalemated side loses.
    Stalemate,
    PerpetualCheck,
    Repetition,
    SixtyMoves,
    NoMaterial,
    /// Both players agreed to a draw.
    Agreement,
    /// Ended before both players had made a move (a first move that never came): no
    /// result, never rated.
    Aborted,
    /// The players agreed to start a new game before this one ended: no result.
    NewGame,
}

impl EndReason {
    /// Every reason, for readers that match names back and for tests.
    pub const ALL: [EndReason; 15] = [
        EndReason::Five,
        EndReason::Draw,
        EndReason::Timeout,
        EndReason::Quit,
        EndReason::Abandoned,
        EndReason::Resign,
        EndReason::Checkmate,
        EndReason::Stalemate,
        EndReason::PerpetualCheck,
        EndReason::Repetition,
        EndReason::SixtyMoves,
        EndReason::NoMaterial,
        EndReason::Agreement,
        EndReason::Aborted,
        EndReason::NewGame,
    ];

    /// The stable name used in JSON and logs.
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Five => "five",
            EndReason::Draw => "draw",
            EndReason::Timeout => "timeout",
            EndReason::Quit => "quit",
            EndReason::Abandoned => "abandoned",
            EndReason::Resign => "resign",
            EndReason::Checkmate => "checkmate",
            EndReason::Stalemate => "stalemate",
            EndReason::PerpetualCheck => "perpetual_check",
            EndReason::Repetition => "repetition",
            EndReason::SixtyMoves => "sixty_moves",
            EndReason::NoMaterial => "no_material",
            EndReason::Agreement => "agreement",
            EndReason::Aborted => "aborted",
            EndReason::NewGame => "new_game",
        }
    }
}

impl From<banco_rules::game::EndReason> for EndReason {
    fn from(r: banco_rules::game::EndReason) -> EndReason {
        use banco_rules::game::EndReason as E;
        match r {
            E::Five => EndReason::Five,
            E::BoardFull => EndReason::Draw,
            E::Checkmate => EndReason::Checkmate,
            E::Stalemate => EndReason::Stalemate,
            E::PerpetualCheck => EndReason::PerpetualCheck,
            E::Repetition => EndReason::Repetition,
            E::SixtyMoves => EndReason::SixtyMoves,
            E::NoMaterial => EndReason::NoMaterial,
        }
    }
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GameOver {
    /// `None` for a draw.
    pub winner: Option<Seat>,
    pub reason: EndReason,
    /// Caro: the winning line's points, for highlighting. Empty otherwise.
    pub line: Vec<Point>,
}

/// What can be offered to the other player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OfferKind {
    /// Take back moves to the asker's turn.
    Undo,
    /// Start a new game (a rematch once the game is over).
    NewGame,
    /// End the game as a draw.
    Draw,
}

impl OfferKind {
    pub fn as_str(self) -> &'static str {
        match self {
            OfferKind::Undo => "undo",
            OfferKind::NewGame => "newgame",
            OfferKind::Draw => "draw",
        }
    }
}

/// An open offer: what, and from which seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Offer {
    pub kind: OfferKind,
    pub by: Seat,
}

/// One played move, as the server records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MoveRecord {
    pub mv: Move,
    pub by: Seat,
    /// Xiangqi: the move in WXF notation (`C2.5`). Empty for caro.
    pub wxf: String,
    /// Xiangqi: the move gives check.
    pub check: bool,
}

/// Who sits in a seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SeatView {
    pub name: String,
    /// `Some` for the server's bot.
    pub bot: Option<Level>,
    /// `false` while a dropped player's seat is held for them.
    pub connected: bool,
    /// A bot account's seat: an engine brought with `banco bot`, shown with a BOT tag.
    #[serde(default)]
    pub bot_account: bool,
}

/// The state of the room's current (or last) game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GameView {
    /// Games played in this room so far, this one included (1 for the first).
    pub number: u32,
    /// The seat to move at the start: in caro the one to move after the opening stones
    /// (it plays X after an even opening or none, O after an odd one); in xiangqi the one
    /// playing the start position's side to move.
    pub first: Seat,
    /// Xiangqi: the start position's FEN. Empty for caro.
    pub start_fen: String,
    /// Caro: the stones this game started from, X first and alternating (for a room
    /// with balanced openings, the one dealt to this game). Empty for xiangqi and for a
    /// caro game from an empty board. Not moves: `moves` starts after them.
    pub opening: Vec<Point>,
    pub moves: Vec<MoveRecord>,
    /// `None` when the room plays without clocks.
    pub clocks: Option<Clocks>,
    /// Set once the game has ended.
    pub over: Option<GameOver>,
    /// A room with a swap opening: the opening phase, in progress (no moves yet; its
    /// stones are not yet in `opening`) or decided (its stones are then `opening`, and
    /// `first` is the seat that took White).
    #[serde(default)]
    pub swap: Option<Box<SwapView>>,
}

/// One chat line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ChatLine {
    pub from: String,
    pub text: String,
    /// When the server received it, in milliseconds since the Unix epoch.
    pub at_ms: u64,
}

/// Whether a room's game is waiting for a player, being played, or finished.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum RoomStatus {
    Waiting,
    Playing,
    Finished,
}

/// Applies a [`crate::ServerMsg::RoomsChanged`] to a room list kept in room-number order:
/// closed rooms go first, then changed ones replace their line or come in at their place.
pub fn apply_room_changes(list: &mut Vec<RoomSummary>, changed: &[RoomSummary], closed: &[RoomId]) {
    list.retain(|r| !closed.contains(&r.id));
    for room in changed {
        match list.binary_search_by_key(&room.id, |r| r.id) {
            Ok(i) => list[i] = room.clone(),
            Err(i) => list.insert(i, room.clone()),
        }
    }
}

/// A line of the lobby's room list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RoomSummary {
    pub id: RoomId,
    pub settings: RoomSettings,
    /// Names by seat; `None` for a free seat.
    pub players: [Option<String>; 2],
    /// By seat: a bot account sits there (an engine, shown with a BOT tag).
    #[serde(default)]
    pub bot_accounts: [bool; 2],
    pub spectators: u32,
    pub status: RoomStatus,
}

/// Everything about a room, sent to whoever enters it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RoomView {
    pub id: RoomId,
    pub settings: RoomSettings,
    /// What the receiver is in this room.
    pub you: Role,
    pub seats: [Option<SeatView>; 2],
    pub spectators: Vec<String>,
    /// `None` until the first game starts.
    pub game: Option<GameView>,
    pub offer: Option<Offer>,
    /// The most recent lines, oldest first, at most [`crate::CHAT_HISTORY`].
    pub chat: Vec<ChatLine>,
    /// The score of the games finished since the two players sat down together (in a
    /// room that plays matches, since the current match began: the series is the match).
    pub series: Series,
    /// Where the room's match stands; `None` in a room without a match format, and
    /// before its first match begins.
    pub match_state: Option<MatchState>,
}

/// A rematch series: the games the room's two current players have finished against each
/// other, counted from when the second of them sat down. It starts again at 0-0 whenever
/// a seat is given up (a player leaves, or does not come back in time).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Series {
    /// Games won, by seat.
    pub wins: [u32; 2],
    pub draws: u32,
}

impl Series {
    /// Counts a finished game (`None`: a draw).
    pub fn count(&mut self, winner: Option<Seat>) {
        match winner {
            Some(seat) => self.wins[seat.index()] += 1,
            None => self.draws += 1,
        }
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins[0] + self.wins[1] + self.draws
    }

    /// The seat that has won more games; `None` when level.
    pub fn leader(&self) -> Option<Seat> {
        let [one, two] = self.wins;
        match one.cmp(&two) {
            std::cmp::Ordering::Greater => Some(Seat::One),
            std::cmp::Ordering::Less => Some(Seat::Two),
            std::cmp::Ordering::Equal => None,
        }
    }
}

/// The most games a match may have.
pub const MAX_MATCH_GAMES: u32 = 99;

/// A room's games played as one match (as international gomoku is played: first to win
/// 5 of at most 9 games). The colours alternate game by game; a game with no result (an
/// aborted one, or one the players agreed to replace) is played again and not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct MatchFormat {
    /// The most games the match has: once this many have a result, the match is over
    /// (won by whoever won more of them, drawn when level).
    pub games: u32,
    /// The match is won as soon as a player has won this many games (`5` of at most
    /// `9`); `None`: every one of `games` is played (a two-game mini-match, one game with
    /// each colour, is `games: 2, first_to: None`).
    pub first_to: Option<u32>,
}

impl MatchFormat {
    /// A two-game mini-match: one game with each colour.
    pub const MINI: MatchFormat = MatchFormat {
        games: 2,
        first_to: None,
    };

    /// Whether the format can be played; `Err` says why not, in a sentence.
    pub fn check(&self) -> Result<(), String> {
        if !(1..=MAX_MATCH_GAMES).contains(&self.games) {
            return Err(format!(
                "a match has 1 to {MAX_MATCH_GAMES} games, not {}",
                self.games
            ));
        }
        if let Some(k) = self.first_to
            && !(1..=self.games).contains(&k)
        {
            return Err(format!(
                "first to {k} cannot be played in at most {} games: choose 1 to {}",
                self.games, self.games
            ));
        }
        Ok(())
    }

    /// Whether a match of this format with `score` is over: a player has won
    /// [`MatchFormat::first_to`] games, or [`MatchFormat::games`] games have a result.
    /// Its winner is then [`Series::leader`] (`None`: drawn).
    pub fn decided(&self, score: &Series) -> bool {
        let reached = self
            .first_to
            .is_some_and(|k| score.wins.iter().any(|&w| w >= k));
        reached || score.games() >= self.games
    }

    /// The seat that moves first in the match game after `score`'s: the match's first
    /// game's first mover in its odd games, the other seat in its even ones, so each
    /// player has the first move (in caro a large edge) as often as the other, give or
    /// take one.
    pub fn first_mover(opener: Seat, score: &Series) -> Seat {
        if score.games().is_multiple_of(2) {
            opener
        } else {
            opener.other()
        }
    }
}

impl fmt::Display for MatchFormat {
    /// `first to 5 of 9`, `2 games`: the format as the book and the logs say it.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.first_to {
            Some(k) => write!(f, "first to {k} of {}", self.games),
            None if self.games == 1 => f.write_str("1 game"),
            None => write!(f, "{} games", self.games),
        }
    }
}

/// Where a room's match stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MatchState {
    pub format: MatchFormat,
    /// The room's matches so far, this one included (1 for its first: the players may
    /// start another once one is over).
    pub number: u32,
    /// The match's games with a result: wins by seat, and draws.
    pub score: Series,
    /// The seat that has won more of them; `None` when level.
    pub leader: Option<Seat>,
    /// The match game being played, or the last one played, from 1 (0 before its first
    /// game). A game with no result is played again under the same number.
    pub game: u32,
    /// Between two of its games: the next starts by itself in this many milliseconds (as
    /// of the moment the message was sent), or at once when both players are ready (a
    /// new-game offer accepted). `None` while a game runs, once the match is over, and
    /// after a game with no result (then the players start the next by agreeing).
    pub next_game_in_ms: Option<u64>,
    /// Set once the match is over.
    pub result: Option<MatchResult>,
}

/// How a match ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MatchResult {
    /// `None`: drawn (an even number of games, the score level).
    pub winner: Option<Seat>,
    /// The final score: wins by seat, and draws.
    pub score: Series,
    pub reason: MatchEnd,
}

/// Why a match ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MatchEnd {
    /// Played out: a player won the games needed, or every game was played.
    Decided,
    /// A player resigned the match as a whole.
    Resign,
    /// A player left the room mid-match.
    Quit,
    /// A player's connection dropped and did not come back in time.
    Abandoned,
}

impl MatchEnd {
    pub const ALL: [MatchEnd; 4] = [
        MatchEnd::Decided,
        MatchEnd::Resign,
        MatchEnd::Quit,
        MatchEnd::Abandoned,
    ];

    /// The stable name used in JSON, logs and the store.
    pub fn as_str(self) -> &'static str {
        match self {
            MatchEnd::Decided => "decided",
            MatchEnd::Resign => "resign",
            MatchEnd::Quit => "quit",
            MatchEnd::Abandoned => "abandoned",
        }
    }

    /// The reason named `name` (see [`MatchEnd::as_str`]).
    pub fn from_name(name: &str) -> Option<MatchEnd> {
        MatchEnd::ALL.into_iter().find(|r| r.as_str() == name)
    }
}

/// A match's number in the server's store.
pub type MatchId = u64;

/// A finished game's place in a match, as the history and replays show it ("game 3 of
/// match #12").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MatchGame {
    /// The match's number in the server's records.
    pub id: MatchId,
    /// Which game of the match it was, from 1 (a game with no result and the one that
    /// replayed it share a number).
    pub game: u32,
    pub format: MatchFormat,
    /// How the match ended; `None` while it is still being played (or was never
    /// finished: the server stopped with only bots in it).
    pub result: Option<MatchResult>,
}

/// Matches someone finished, by result.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct MatchTally {
    pub won: u32,
    pub lost: u32,
    pub drawn: u32,
}

/// What the rules say about a room's position, for a client that does not carry the rules
/// (the browser page asks for it after every change instead of re-implementing them).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PositionFacts {
    /// The room's game number ([`GameView::number`]) this is about.
    pub game: u32,
    /// Plies played in that game when this was worked out: an answer about a position
    /// the client has already moved past is dropped.
    pub ply: u32,
    /// Xiangqi: every legal move of the side to move (none once the game is over). Empty
    /// for caro, where every empty point is legal.
    pub legal: Vec<Move>,
    /// Xiangqi: the side to move is in check.
    pub check: bool,
    /// Caro, by seat: the empty points where that seat's player would make five with
    /// their next stone (the four warning's "answer now").
    pub fives: [Vec<Point>; 2],
    /// Caro, by seat: the empty points that stop one of that seat's open threes (the four
    /// warning's "answer soon"), fives left out.
    pub three_stops: [Vec<Point>; 2],
    /// Renju: the points forbidden to Black (X) now, with why, when Black is to move
    /// (empty otherwise): clients draw them (×) for the player to move.
    #[serde(default)]
    pub forbidden: Vec<ForbiddenPoint>,
}

/// A point Black may not play under renju, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ForbiddenPoint {
    pub point: Point,
    pub foul: Foul,
}

/// Why a point is forbidden to Black under renju.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Foul {
    /// Six or more in a row.
    Overline,
    /// Two fours at once.
    DoubleFour,
    /// Two threes at once.
    DoubleThree,
}

impl Foul {
    /// The rules' reason as the wire names it.
    pub fn of(foul: banco_rules::caro::renju::Foul) -> Foul {
        use banco_rules::caro::renju::Foul as F;
        match foul {
            F::Overline => Foul::Overline,
            F::DoubleFour => Foul::DoubleFour,
            F::DoubleThree => Foul::DoubleThree,
        }
    }

    /// How players say it: "double three".
    pub fn name(self) -> &'static str {
        match self {
            Foul::Overline => "overline",
            Foul::DoubleFour => "double four",
            Foul::DoubleThree => "double three",
        }
    }
}

/// The most trial moves a [`crate::ClientMsg::Trial`] may carry.
pub const MAX_TRIAL_MOVES: usize = 1024;

/// Trial moves (draft mode) played on a copy of a room's position, as the rules see them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Trial {
    /// The trial moves asked for, so an answer about a line since changed is dropped.
    pub asked: Vec<Move>,
    /// The room's game number ([`GameView::number`]) the moves were tried in: an answer
    /// about another game is dropped.
    pub game: u32,
    /// The plies played in that game when the moves were tried on it: an answer about a
    /// position the game has moved past is dropped.
    pub ply: u32,
    /// The trial moves that stand, in order, as the rules record them (WXF and check for
    /// xiangqi): the first of `asked`, up to the first the rules refuse.
    pub moves: Vec<MoveRecord>,
    /// Why the rules refuse the first trial move that does not stand (the one after
    /// `moves`); `None` when they all stand.
    pub refused: Option<String>,
    /// What the rules say after the moves that stand: the side to move's legal moves
    /// (xiangqi), check, the four warning's threats (caro).
    pub facts: PositionFacts,
    /// How the moves that stand end the game by the rules, if they do (a five in draft).
    pub over: Option<GameOver>,
}

/// A board being arranged by hand in a position editor (the browser page's: the terminal
/// client carries the rules and judges its own), for the server to judge with the rules.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Arrangement {
    /// Stones of each side anywhere on a board of this size and rule.
    Caro {
        width: u8,
        height: u8,
        rule: Rule,
        x: Vec<Point>,
        o: Vec<Point>,
    },
    /// Pieces by their FEN letters (`R` a red chariot, `k` the black general) on any
    /// points, and the side to move.
    Xiangqi {
        pieces: Vec<(XqSquare, char)>,
        red_to_move: bool,
    },
}

/// The most pieces or stones an [`Arrangement`] may list: a full 64x64 caro board.
pub const MAX_ARRANGED: usize = 64 * 64;

/// What the rules say of an [`Arrangement`], as asked by [`crate::ClientMsg::Judge`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Judgement {
    /// The arrangement judged, so an answer about a board since changed is dropped.
    pub arrangement: Arrangement,
    /// Every reason a game cannot start from it, in the server's words; empty when one
    /// can.
    pub flaws: Vec<Flaw>,
    /// When it has no flaws: the game to create a room with (caro: the opening's stones
    /// laid alternately from X; xiangqi: the FEN).
    pub game: Option<GameSettings>,
}

/// One reason an arrangement cannot be played, and where on the board (none when it
/// concerns the whole board, such as a missing general).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Flaw {
    pub reason: String,
    /// Caro points concerned.
    pub points: Vec<Point>,
    /// Xiangqi points concerned.
    pub squares: Vec<XqSquare>,
}

/// A finished game's number in the server's store.
pub type GameId = u64;

/// The two games, for what is counted per game: ratings, leaderboards, profiles. Every
/// caro rule and board size counts as caro.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum GameKind {
    Caro,
    Xiangqi,
}

impl GameKind {
    pub const ALL: [GameKind; 2] = [GameKind::Caro, GameKind::Xiangqi];

    /// The kind of game `settings` describe.
    pub fn of(settings: &GameSettings) -> GameKind {
        match settings {
            GameSettings::Caro { .. } => GameKind::Caro,
            GameSettings::Xiangqi { .. } => GameKind::Xiangqi,
        }
    }

    /// The stable name (`caro`, `xiangqi`), as stored and as typed in commands.
    pub fn as_str(self) -> &'static str {
        match self {
            GameKind::Caro => "caro",
            GameKind::Xiangqi => "xiangqi",
        }
    }
}

impl fmt::Display for GameKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for GameKind {
    type Err = String;

    fn from_str(s: &str) -> Result<GameKind, String> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| format!("'{s}' is not a game: say caro or xiangqi"))
    }
}

/// A rating as shown: Glicko-2's rating and its deviation, both rounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Rating {
    pub rating: i32,
    /// Glicko-2's rating deviation: how uncertain the rating still is.
    pub deviation: u16,
    /// Too uncertain to rank yet (few games, or none for a long time): shown `1500?`.
    pub provisional: bool,
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.rating)?;
        if self.provisional {
            f.write_str("?")?;
        }
        Ok(())
    }
}

/// A player's line on a game's leaderboard.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Standing {
    pub name: String,
    /// `Some` for the server's bots, which are rated like everyone else (per level).
    pub bot: Option<Level>,
    /// A bot account (an engine brought with `banco bot`), rated in its own right.
    #[serde(default)]
    pub bot_account: bool,
    pub rating: Rating,
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// Someone's record: who they are and how they play each game, as the profile screen
/// ("My info") shows it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Profile {
    pub name: String,
    /// `Some` for the server's bots.
    pub bot: Option<Level>,
    /// A bot account (an engine brought with `banco bot`).
    #[serde(default)]
    pub bot_account: bool,
    /// When the account was registered (ms since the Unix epoch); `None` for bots and
    /// for a name nobody has registered (a record from before accounts).
    pub registered_at_ms: Option<u64>,
    /// When the name first played here (ms since the Unix epoch).
    pub first_seen_ms: u64,
    /// One per game kind, in [`GameKind::ALL`]'s order, played or not.
    pub games: Vec<KindRecord>,
    /// The newest games (either kind, any result, rated or not), newest first.
    pub recent: Vec<GameSummary>,
}

/// How someone plays one game kind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct KindRecord {
    pub game: GameKind,
    pub rating: Rating,
    /// Place on that game's leaderboard (from 1); `None` while provisional or unrated.
    pub rank: Option<u32>,
    /// Rated games.
    pub games: u32,
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
    /// The rated win against the highest-rated opponent.
    pub best_win: Option<BestWin>,
    /// The rating after each rated game, oldest first (the newest few hundred): what the
    /// rating chart draws.
    pub history: Vec<RatingPoint>,
    /// Matches of this game finished (rated or not): won, lost, drawn.
    pub matches: MatchTally,
}

/// A win worth remembering.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BestWin {
    /// The game, for replay.
    pub game: GameId,
    pub opponent: String,
    /// The opponent's rating before that game.
    pub opponent_rating: i32,
    pub ended_at_ms: u64,
}

/// One point of a rating chart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct RatingPoint {
    pub at_ms: u64,
    pub rating: i32,
    pub deviation: u16,
}

/// A finished game, as the history lists it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GameSummary {
    pub id: GameId,
    pub game: GameSettings,
    pub time: TimeControl,
    /// Names by seat.
    pub players: [String; 2],
    /// The seat to move at the start (see [`GameView::first`]).
    pub first: Seat,
    pub over: GameOver,
    /// Moves played (a caro opening's stones are not moves).
    pub plies: u32,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_at_ms: u64,
    /// Whether it counted for ratings (between accounts, both sides moved, not farmed).
    pub rated: bool,
    /// The match it was a game of, if any.
    pub in_match: Option<MatchGame>,
}

/// A finished game, move by move.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GameRecord {
    pub summary: GameSummary,
    /// Xiangqi: the start position's FEN. Empty for caro.
    pub start_fen: String,
    /// Caro: the stones the game started from (see [`GameView::opening`]).
    pub opening: Vec<Point>,
    pub moves: Vec<MoveRecord>,
    /// A game with a swap opening: how its opening was played (who placed which stone,
    /// who decided what). `None` otherwise, and for games stored before it was kept.
    #[serde(default)]
    pub swap: Option<Box<SwapView>>,
}

/// Where a swap opening stands ([`CaroOpening::Swap1`], [`CaroOpening::Swap2`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SwapStage {
    /// The proposer places stones (X, O, X) until three stand.
    Propose,
    /// The responder decides: White, Black or (Swap2) two more stones.
    Answer,
    /// The responder places two more stones, O then X.
    Extend,
    /// The proposer picks a colour.
    Choose,
    /// Decided: the game is on.
    Done,
}

/// A decision in a swap opening.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SwapChoice {
    /// Play White (O): the decider moves next.
    White,
    /// Play Black (X): the other player takes White and moves next.
    Black,
    /// Swap2's third answer: place two more stones (O then X), and the proposer chooses.
    PlaceTwo,
}

impl SwapChoice {
    /// The word commands use: `white`, `black`, `two`.
    pub fn word(self) -> &'static str {
        match self {
            SwapChoice::White => "white",
            SwapChoice::Black => "black",
            SwapChoice::PlaceTwo => "two",
        }
    }
}

impl FromStr for SwapChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<SwapChoice, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "white" | "w" | "o" => Ok(SwapChoice::White),
            "black" | "b" | "x" => Ok(SwapChoice::Black),
            "two" | "2" | "place-two" | "place_two" => Ok(SwapChoice::PlaceTwo),
            other => Err(format!(
                "'{other}' is no swap decision: say white, black or two"
            )),
        }
    }
}

/// One thing done in a swap opening, in order: a stone placed or a decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SwapStep {
    /// `by` placed the next stone (X, O, X, O, X in turn) on `point`.
    Stone { by: Seat, point: Point },
    /// `by` decided.
    Decided { by: Seat, choice: SwapChoice },
}

/// A swap opening as everyone in the room sees it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct SwapView {
    /// Swap1 or Swap2 ([`CaroOpening::Swap1`] or [`CaroOpening::Swap2`]).
    pub kind: CaroOpening,
    /// The seat that places the first three stones (and chooses after two more).
    pub proposer: Seat,
    /// Where it stands.
    pub stage: SwapStage,
    /// Whose turn it is in the opening (their clock runs); `None` once decided.
    pub to_act: Option<Seat>,
    /// The decisions `to_act` may take now; empty while a stone is due.
    pub choices: Vec<SwapChoice>,
    /// The stones placed so far, X first and alternating.
    pub stones: Vec<Point>,
    /// Everything done so far, in order: the opening phase's record.
    pub steps: Vec<SwapStep>,
    /// Once decided: the seat playing X (Black).
    pub x_seat: Option<Seat>,
}
