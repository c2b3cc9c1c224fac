//! Refusals: a stable code for programs and a sentence for people.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why the server refused a request. The names (see [`ErrorCode::as_str`]) are stable:
/// scripts match on them. Whatever was refused changed nothing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    /// Client and server speak different protocol versions.
    VersionMismatch,
    /// The frame was not a valid message.
    Malformed,
    /// A valid message at the wrong moment (a second Hello, a move before Hello, ...).
    Unexpected,
    /// The name is empty, too long or has control characters.
    BadName,
    /// The room settings are out of range (board size, time, FEN, ...).
    BadSettings,
    NoSuchRoom,
    /// No free seat: watch instead.
    RoomFull,
    /// Leave the current room first.
    AlreadyInRoom,
    NotInRoom,
    /// Spectators cannot move, offer or answer.
    NotAPlayer,
    /// No game is running (waiting for a player, or it is over).
    NoGame,
    GameOver,
    NotYourTurn,
    /// The move breaks the game's rules.
    IllegalMove,
    /// Caro: that point already has a stone.
    Occupied,
    /// The move is off the board.
    OutOfBounds,
    EmptyChat,
    ChatTooLong,
    /// Slow down: too many chat lines too fast.
    ChatTooFast,
    /// An offer is already open.
    OfferPending,
    /// There is no open offer of that kind to answer or cancel.
    NoOffer,
    /// You cannot answer your own offer.
    OwnOffer,
    /// Undo before you have moved.
    NothingToUndo,
    /// The room has hints turned off.
    HintsOff,
    /// The server is busy with the previous request of this kind.
    Busy,
    ShuttingDown,
    /// Something went wrong on the server; the request changed nothing.
    Internal,
    /// No finished game with that number is in the server's records.
    NoSuchGame,
    /// Wrong name or password.
    LoginFailed,
    /// The name belongs to an account: log in, or play under another name.
    NameRegistered,
    /// Registering a name that already has an account.
    NameTaken,
    /// Too many failed logins for this name or from this address: wait, then try again.
    TooManyTries,
    /// The password is too short or too long.
    BadPassword,
    /// Only a logged-in account may do that.
    NotLoggedIn,
    /// The room has as many spectators as the server admits.
    SpectatorsFull,
    /// Too many offers too fast, or too soon after the last one was declined: wait.
    OfferTooSoon,
    /// The server's engines are all busy with bot moves and other hints: ask again soon.
    EnginesBusy,
    /// The player already had a hint for this move.
    HintUsed,
    /// No account, record or bot goes by that name.
    NoSuchPlayer,
    /// A newer connection presented this session's resume token and took it (and its
    /// seat) over: another window of the same browser, say. Connect again to take it back.
    TakenOver,
    /// The room plays no match, or its match is already over.
    NoMatch,
    /// The player takes no challenges from you (turned off, or accounts only), or the
    /// challenge cannot be played (a rated game with a guest, a game a bot cannot play).
    ChallengeRefused,
    /// No open challenge has that number (it ended, or was never sent to you).
    NoSuchChallenge,
    /// You already have a challenge out to that player: wait for the answer or cancel it.
    ChallengePending,
    /// Too many challenges out (yours), or waiting for that player.
    TooManyChallenges,
    /// Too soon after that player declined your last challenge: wait.
    ChallengeTooSoon,
    /// The challenge cannot start now: one of the two is playing a game.
    PlayerBusy,
    // --- Tournaments ---
    /// No tournament has that number.
    NoSuchTournament,
    /// Only the tournament's organiser may do that.
    NotOrganiser,
    /// The tournament takes no more entries (it started, or is over).
    EntriesClosed,
    /// You are already entered in that tournament.
    AlreadyEntered,
    /// That player is not entered in the tournament (or has withdrawn).
    NotEntered,
    /// The round is not over: every game needs a result before the next is paired.
    RoundInProgress,
    /// That round has no such board.
    NoSuchBoard,
    /// The tournament is over (or has no round left to pair).
    TournamentOver,
    // --- Connections ---
    /// The connection could not keep up with its messages (more than the server's
    /// per-client budget waited unread), so the server closed it. The last thing sent
    /// before the close, where the connection still takes it; reconnecting resumes.
    FellBehind,
    // --- Tournaments, again ---
    /// The name is a person's (or a guest's), not a bot account: only bot accounts are
    /// entered in a tournament by its organiser; people enter themselves.
    NotABot,
}

impl ErrorCode {
    /// Every code, for clients that word each one in their own language.
    pub const ALL: [ErrorCode; 57] = [
        ErrorCode::VersionMismatch,
        ErrorCode::Malformed,
        ErrorCode::Unexpected,
        ErrorCode::BadName,
        ErrorCode::BadSettings,
        ErrorCode::NoSuchRoom,
        ErrorCode::RoomFull,
        ErrorCode::AlreadyInRoom,
        ErrorCode::NotInRoom,
        ErrorCode::NotAPlayer,
        ErrorCode::NoGame,
        ErrorCode::GameOver,
        ErrorCode::NotYourTurn,
        ErrorCode::IllegalMove,
        ErrorCode::Occupied,
        ErrorCode::OutOfBounds,
        ErrorCode::EmptyChat,
        ErrorCode::ChatTooLong,
        ErrorCode::ChatTooFast,
        ErrorCode::OfferPending,
        ErrorCode::NoOffer,
        ErrorCode::OwnOffer,
        ErrorCode::NothingToUndo,
        ErrorCode::HintsOff,
        ErrorCode::Busy,
        ErrorCode::ShuttingDown,
        ErrorCode::Internal,
        ErrorCode::NoSuchGame,
        ErrorCode::LoginFailed,
        ErrorCode::NameRegistered,
        ErrorCode::NameTaken,
        ErrorCode::TooManyTries,
        ErrorCode::BadPassword,
        ErrorCode::NotLoggedIn,
        ErrorCode::SpectatorsFull,
        ErrorCode::OfferTooSoon,
        ErrorCode::EnginesBusy,
        ErrorCode::HintUsed,
        ErrorCode::NoSuchPlayer,
        ErrorCode::TakenOver,
        ErrorCode::NoMatch,
        ErrorCode::ChallengeRefused,
        ErrorCode::NoSuchChallenge,
        ErrorCode::ChallengePending,
        ErrorCode::TooManyChallenges,
        ErrorCode::ChallengeTooSoon,
        ErrorCode::PlayerBusy,
        ErrorCode::NoSuchTournament,
        ErrorCode::NotOrganiser,
        ErrorCode::EntriesClosed,
        ErrorCode::AlreadyEntered,
        ErrorCode::NotEntered,
        ErrorCode::RoundInProgress,
        ErrorCode::NoSuchBoard,
        ErrorCode::TournamentOver,
        ErrorCode::FellBehind,
        ErrorCode::NotABot,
    ];

    /// The stable snake_case name.
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::VersionMismatch => "version_mismatch",
            ErrorCode::Malformed => "malformed",
            ErrorCode::Unexpected => "unexpected",
            ErrorCode::BadName => "bad_name",
            ErrorCode::BadSettings => "bad_settings",
            ErrorCode::NoSuchRoom => "no_such_room",
            ErrorCode::RoomFull => "room_full",
            ErrorCode::AlreadyInRoom => "already_in_room",
            ErrorCode::NotInRoom => "not_in_room",
            ErrorCode::NotAPlayer => "not_a_player",
            ErrorCode::NoGame => "no_game",
            ErrorCode::GameOver => "game_over",
            ErrorCode::NotYourTurn => "not_your_turn",
            ErrorCode::IllegalMove => "illegal_move",
            ErrorCode::Occupied => "occupied",
            ErrorCode::OutOfBounds => "out_of_bounds",
            ErrorCode::EmptyChat => "empty_chat",
            ErrorCode::ChatTooLong => "chat_too_long",
            ErrorCode::ChatTooFast => "chat_too_fast",
            ErrorCode::OfferPending => "offer_pending",
            ErrorCode::NoOffer => "no_offer",
            ErrorCode::OwnOffer => "own_offer",
            ErrorCode::NothingToUndo => "nothing_to_undo",
            ErrorCode::HintsOff => "hints_off",
            ErrorCode::Busy => "busy",
            ErrorCode::ShuttingDown => "shutting_down",
            ErrorCode::Internal => "internal",
            ErrorCode::NoSuchGame => "no_such_game",
            ErrorCode::LoginFailed => "login_failed",
            ErrorCode::NameRegistered => "name_registered",
            ErrorCode::NameTaken => "name_taken",
            ErrorCode::TooManyTries => "too_many_tries",
            ErrorCode::BadPassword => "bad_password",
            ErrorCode::NotLoggedIn => "not_logged_in",
            ErrorCode::SpectatorsFull => "spectators_full",
            ErrorCode::OfferTooSoon => "offer_too_soon",
            ErrorCode::EnginesBusy => "engines_busy",
            ErrorCode::HintUsed => "hint_used",
            ErrorCode::NoSuchPlayer => "no_such_player",
            ErrorCode::TakenOver => "taken_over",
            ErrorCode::NoMatch => "no_match",
            ErrorCode::ChallengeRefused => "challenge_refused",
            ErrorCode::NoSuchChallenge => "no_such_challenge",
            ErrorCode::ChallengePending => "challenge_pending",
            ErrorCode::TooManyChallenges => "too_many_challenges",
            ErrorCode::ChallengeTooSoon => "challenge_too_soon",
            ErrorCode::PlayerBusy => "player_busy",
            ErrorCode::NoSuchTournament => "no_such_tournament",
            ErrorCode::NotOrganiser => "not_organiser",
            ErrorCode::EntriesClosed => "entries_closed",
            ErrorCode::AlreadyEntered => "already_entered",
            ErrorCode::NotEntered => "not_entered",
            ErrorCode::RoundInProgress => "round_in_progress",
            ErrorCode::NoSuchBoard => "no_such_board",
            ErrorCode::TournamentOver => "tournament_over",
            ErrorCode::FellBehind => "fell_behind",
            ErrorCode::NotABot => "not_a_bot",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A refusal as sent on the wire.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ErrorMsg {
    pub code: ErrorCode,
    /// One sentence for a person: what happened and, where useful, what to do.
    pub message: String,
}

impl ErrorMsg {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ErrorMsg {
        ErrorMsg {
            code,
            message: message.into(),
        }
    }
}

impl fmt::Display for ErrorMsg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code)
    }
}
