//! What a client may send. One variant per intent; the server answers each with the
//! resulting events or an [`crate::ErrorMsg`].

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::challenge::{ChallengeId, ChallengePolicy, DeclineReason};
use crate::record::RecordedGame;
use crate::room::{
    AccountToken, Arrangement, GameId, GameKind, Level, Move, OfferKind, ResumeToken, RoomId,
    RoomSettings, SwapChoice,
};
use crate::tournament::{BoardResult, TournamentId, TournamentSettings};

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

/// How a client proves it is the account named in [`Hello`]. Its `Debug` hides the
/// password and the token, so neither can reach a log by way of a message dump.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Credentials {
    /// The account's password.
    Password {
        password: String,
        /// Make the account (the name must be free) instead of logging in to it.
        register: bool,
        /// Also hand out an [`AccountToken`] in [`crate::Welcome`], so this client can log
        /// in again without the password (the browser page's "stay logged in").
        #[serde(default)]
        remember: bool,
        /// A bot account: an engine's (`banco bot`), marked BOT wherever its name is
        /// shown. Registering makes the account a bot's for good; a login must say the
        /// same as the account is (a person's account is not an engine's, nor the other
        /// way round).
        #[serde(default)]
        bot: bool,
    },
    /// An [`AccountToken`] an earlier [`crate::Welcome`] handed out: logs in to the account
    /// it was made for, and only that one, until it is revoked
    /// ([`ClientMsg::LogOut`], a password change) or goes unused for
    /// [`crate::ACCOUNT_TOKEN_DAYS`] days.
    Token(AccountToken),
}

impl Credentials {
    /// Log in to the account with `password` (or register it).
    pub fn password(password: impl Into<String>, register: bool) -> Credentials {
        Credentials::Password {
            password: password.into(),
            register,
            remember: false,
            bot: false,
        }
    }

    /// The same proof as a login: how a client logs in again after a drop (a
    /// registration is a login by then, and a token is asked for once).
    pub fn as_login(self) -> Credentials {
        match self {
            Credentials::Password { password, bot, .. } => Credentials::Password {
                password,
                register: false,
                remember: false,
                bot,
            },
            token => token,
        }
    }

    /// Whether these make a new account.
    pub fn registers(&self) -> bool {
        matches!(self, Credentials::Password { register: true, .. })
    }
}

impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::Password {
                register,
                remember,
                bot,
                ..
            } => f
                .debug_struct("Password")
                .field("password", &"<hidden>")
                .field("register", register)
                .field("remember", remember)
                .field("bot", bot)
                .finish(),
            Credentials::Token(_) => f.write_str("Token(<hidden>)"),
        }
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
    /// Give up the room's match as a whole: the other player wins it (and the game in
    /// progress, if any). Refused with [`crate::ErrorCode::NoMatch`] where no match is
    /// being played.
    ResignMatch,
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
    /// End this login for good: the [`AccountToken`] it logged in with or was handed is
    /// revoked, so it logs nobody in again. Answered by [`crate::ServerMsg::LoggedOut`]
    /// (a guest's too: it has nothing to revoke); the client then closes the connection.
    LogOut,
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
    // --- Tournaments (see [`crate::tournament`]) ---
    /// Make a tournament (a logged-in account only), which takes entries until it
    /// starts. Answered by [`crate::ServerMsg::Tournament`].
    CreateTournament(Box<TournamentSettings>),
    /// The tournaments on this server. Answered by [`crate::ServerMsg::Tournaments`].
    ListTournaments,
    /// Enter a tournament (before it starts; a Swiss takes late entries until its last
    /// round is paired). Guests enter unrated tournaments only.
    JoinTournament(TournamentId),
    /// Leave a tournament: not paired again (a game being played goes on).
    WithdrawTournament(TournamentId),
    /// All of one tournament, and its changes from now on. Answered by
    /// [`crate::ServerMsg::Tournament`].
    ShowTournament(TournamentId),
    /// The organiser starts the tournament: the first round is paired (arena: the clock
    /// starts and everyone is paired).
    StartTournament(TournamentId),
    /// The organiser pairs the next round (Swiss, round robin) once every game of the
    /// last one has a result.
    PairRound(TournamentId),
    /// The organiser pauses (`true`) or resumes the tournament: nothing new is paired
    /// while paused.
    PauseTournament {
        id: TournamentId,
        paused: bool,
    },
    /// The organiser adds a round to a Swiss.
    AddRound(TournamentId),
    /// The organiser enters the server's bot of `level` (before the start).
    AddTournamentBot {
        id: TournamentId,
        level: crate::room::Level,
    },
    /// The organiser enters the bot account `name` (an external engine connected by
    /// `banco bot`), on the same terms as a player entering. The bot must be connected
    /// and take challenges (its challenge policy is not `nobody`): that is its consent.
    /// It is sent the tournament's view, plays its pairings like any entrant, and may
    /// withdraw. A person is never entered by someone else.
    EnterBotAccount {
        id: TournamentId,
        name: String,
    },
    /// The organiser removes a player (withdrawn: not paired again).
    RemoveEntrant {
        id: TournamentId,
        name: String,
    },
    /// The organiser sets (or corrects) the result of board `board` of round `round`
    /// by hand; it is recorded as such.
    SetResult {
        id: TournamentId,
        round: u32,
        board: u32,
        result: BoardResult,
    },
    /// A Swiss or round robin as a FIDE TRF file, or the standings as CSV or the
    /// whole tournament as JSON. Answered by [`crate::ServerMsg::TournamentExport`].
    ExportTournament {
        id: TournamentId,
        format: crate::tournament::ExportFormat,
    },
    /// A swap opening's decision, when it is yours ([`crate::SwapView::choices`]). Its
    /// stones are ordinary [`ClientMsg::Move`]s.
    Swap(SwapChoice),
    /// In an arena game whose tournament allows it, before your first move: halve your
    /// own clock (a game clock only) for one more point if you win the game. Everyone
    /// in the room is sent the clocks; refused with [`crate::ErrorCode::BadSettings`]
    /// where it cannot be done.
    Berserk,
    /// Ask for a bye in round `round` of Swiss `id` (`None`: the next round to be
    /// paired), before it is paired: you are not paired in it and score what the
    /// organiser set (`TournamentSettings::requested_bye`, half a point unless said
    /// otherwise); `cancel: true` takes the request back. Answered by a fresh
    /// [`crate::ServerMsg::Tournament`] (its `bye_requests`).
    RequestBye {
        id: TournamentId,
        round: Option<u32>,
        cancel: bool,
    },
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
