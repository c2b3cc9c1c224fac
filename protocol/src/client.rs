//! What a client may send. One variant per intent; the server answers each with the
//! resulting events or an [`crate::ErrorMsg`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::challenge::{ChallengeId, ChallengePolicy, DeclineReason};
use crate::record::RecordedGame;
use crate::room::{
    Arrangement, GameId, GameKind, Level, Move, OfferKind, ResumeToken, RoomId, RoomSettings,
};

/// The first message of every session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Hello {
    /// Must equal the server's [`crate::PROTOCOL_VERSION`]. Kept the first field so a
    /// server can read it even from a client of another version.
    pub version: u16,
    /// How others see this player (the server may add a suffix to make it unique).
    pub name: String,
    /// From an earlier session's [`crate::Welcome`]: take back a seat held after a drop.
    pub resume: Option<ResumeToken>,
    /// Log in to (or register) the account `name`; `None` plays as a guest, under a
    /// marked name (`~name`) and unrated. Absent in JSON from pages that predate accounts.
    #[serde(default)]
    pub account: Option<Credentials>,
}

/// A password for the account named in [`Hello`]. Its `Debug` hides the password, so it
/// can never reach a log by way of a message dump.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Credentials {
    pub password: String,
    /// Make the account (the name must be free) instead of logging in to it.
    pub register: bool,
    /// A bot account: an engine's (`banco bot`), marked BOT wherever its name is shown.
    /// Registering makes the account a bot's for good; a login must say the same as the
    /// account is (a person's account is not an engine's, nor the other way round).
    #[serde(default)]
    pub bot: bool,
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Credentials")
            .field("password", &"<hidden>")
            .field("register", &self.register)
            .field("bot", &self.bot)
            .finish()
    }
}

/// A client's request.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ClientMsg {
    Hello(Hello),
    /// Answered by [`crate::ServerMsg::Rooms`].
    ListRooms,
    /// Make a room and sit in it (or watch it, if seat One is a bot).
    CreateRoom(RoomSettings),
    /// Take the free seat.
    JoinRoom(RoomId),
    /// Come in as a spectator.
    WatchRoom(RoomId),
    /// Go back to the lobby. Mid-game, a player who leaves loses (reason `quit`).
    LeaveRoom,
    Move(Move),
    Chat(String),
    /// Offer undo, a new game (a rematch after the game) or a draw.
    Offer(OfferKind),
    /// Answer the other player's open offer of this kind.
    Answer {
        kind: OfferKind,
        accept: bool,
    },
    /// Withdraw one's own open offer.
    Withdraw(OfferKind),
    /// Give up the game; you stay in the room.
    Resign,
    /// Ask the server's engine for a move for you.
    Hint,
    /// The best-rated players at one game. Answered by [`crate::ServerMsg::Leaderboard`].
    Leaderboard(GameKind),
    /// Recently finished games, newest first; only `player`'s if given. Answered by
    /// [`crate::ServerMsg::History`].
    History {
        player: Option<String>,
    },
    /// One finished game, move by move, for replay. Answered by [`crate::ServerMsg::Replay`].
    Replay(GameId),
    /// The answer to [`crate::ServerMsg::Ping`], with its number: the heartbeat that tells
    /// the server this client is still there.
    Pong(u32),
    /// What the rules say about the room's position now (legal moves, check, the four
    /// warning's threats), for a client that does not carry the rules itself: the browser
    /// page. Answered by [`crate::ServerMsg::Facts`]; any member of a room may ask.
    Facts,
    /// Replace the logged-in account's password. Answered by
    /// [`crate::ServerMsg::PasswordChanged`] or an error.
    ChangePassword(PasswordChange),
    /// Someone's record ("My info" when it is one's own name): a person by name, or the
    /// server's bot of a level (`name` is then ignored). Answered by
    /// [`crate::ServerMsg::Profile`] or [`crate::ErrorCode::NoSuchPlayer`].
    Profile {
        name: String,
        bot: Option<Level>,
    },
    /// Judge a board arranged by hand: answered by [`crate::ServerMsg::Judged`] with the
    /// rules' reasons it cannot be played, if any, and the game to create from it.
    Judge(Box<Arrangement>),
    /// Have the server's engine review a finished game. Answered by
    /// [`crate::ServerMsg::ReviewProgress`] as it goes and [`crate::ServerMsg::Review`] at
    /// the end (at once if the game was reviewed before). One review at a time per
    /// client; it stops if the client leaves.
    Review(GameId),
    /// Read a record file's text (at most [`crate::MAX_RECORD_TEXT`] bytes) with the
    /// server's rules, for a client that does not carry them (the browser page): the one
    /// parser is the rules crate's. `zone_minutes`: the reader's offset from UTC (east
    /// positive), in which the file's `ended:` date is read. Answered by
    /// [`crate::ServerMsg::RecordParsed`] or [`crate::ServerMsg::RecordRefused`].
    ParseRecord {
        text: String,
        zone_minutes: i16,
    },
    /// Write a game as a record file, after checking it with the rules. Answered by
    /// [`crate::ServerMsg::RecordText`] or [`crate::ServerMsg::RecordRefused`].
    WriteRecord {
        record: Box<RecordedGame>,
        zone_minutes: i16,
    },
    /// Try moves (draft mode) on a private copy of the room's position: the server plays
    /// them with the rules and says which stand, how each reads, and what the rules say
    /// after them. Nothing is played in the room. At most [`crate::MAX_TRIAL_MOVES`].
    /// Answered by [`crate::ServerMsg::Tried`]; any member of a room may ask.
    Trial(Vec<Move>),
    /// Challenge the player called `to` (one on the server now, or the server's bot by
    /// its name, `Bot (max)`) to a game in a new room of `settings`; `to: None` makes an
    /// open challenge anyone may take (shown in the lobby, with a link). `settings.first`
    /// is said from the challenger's side; both seats are people's. Answered by
    /// [`crate::ServerMsg::ChallengeSent`] or an error; a bot's answer follows at once.
    Challenge {
        to: Option<String>,
        settings: RoomSettings,
    },
    /// Take a challenge sent to you, or an open one: both players are seated in a new
    /// room ([`crate::ServerMsg::ChallengeEnded`], then [`crate::ServerMsg::Joined`]).
    AcceptChallenge(ChallengeId),
    /// Refuse a challenge sent to you, saying why.
    DeclineChallenge {
        id: ChallengeId,
        reason: DeclineReason,
    },
    /// Call off one's own challenge.
    CancelChallenge(ChallengeId),
    /// Who may challenge you from now on (everyone when never said). Answered by
    /// [`crate::ServerMsg::ChallengesSet`].
    SetChallenges(ChallengePolicy),
    /// Who is on the server, to challenge. Answered by [`crate::ServerMsg::Players`].
    Players,
}

/// The old password (proof it is the owner at the keyboard) and the new one. `Debug`
/// hides both.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PasswordChange {
    pub old: String,
    pub new: String,
}

impl std::fmt::Debug for PasswordChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("PasswordChange { <hidden> }")
    }
}
