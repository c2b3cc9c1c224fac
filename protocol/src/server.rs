//! What the server tells a client: answers to its requests and everything that happens
//! in its room, in the order it happened.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::challenge::{Challenge, ChallengeEnd, ChallengeId, ChallengePolicy, PlayerLine};
use crate::error::ErrorMsg;
use crate::record::RecordedGame;
use crate::review::GameReview;
use crate::room::{
    AccountToken, ChatLine, Clocks, GameId, GameKind, GameOver, GameRecord, GameSummary, GameView,
    Judgement, MatchResult, MatchState, Move, MoveRecord, NotAWin, Offer, PositionFacts, Profile,
    ResumeToken, RoomId, RoomSummary, RoomView, SeatView, Standing, SwapView, Trial,
};
use crate::tournament::{TournamentGame, TournamentId, TournamentSummary, TournamentView};

/// The answer to a good [`crate::Hello`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Welcome {
    pub version: u16,
    /// The name the server gave this player (the asked name, made unique).
    pub name: String,
    /// The server's name for itself, for the client's title bar.
    pub server: String,
    /// Present this in a later Hello to reclaim a held seat.
    pub resume: ResumeToken,
    /// Logged in to the account `name`; `false` for a guest (whose name starts with
    /// [`crate::GUEST_MARK`]).
    #[serde(default)]
    pub account: bool,
    /// Asked for with [`crate::Credentials::Password`]'s `remember`: present it as
    /// [`crate::Credentials::Token`] to log in again without the password.
    #[serde(default)]
    pub account_token: Option<AccountToken>,
    /// The account is a bot account (an engine's, `banco bot`).
    #[serde(default)]
    pub bot: bool,
}

/// A message from the server.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum ServerMsg {
    Welcome(Welcome),
    /// The lobby's rooms.
    Rooms(Vec<RoomSummary>),
    /// Your room was made; a [`ServerMsg::Joined`] follows.
    RoomCreated(RoomId),
    /// You are in a room; here is all of it.
    Joined(Box<RoomView>),
    /// You left the room and are back in the lobby.
    Left,
    /// Who sits where or watches changed: the seats as they are now, and the
    /// spectators who came and left since the last such message (the whole list came in
    /// [`ServerMsg::Joined`]), so a crowd's comings and goings cost each member a few
    /// bytes, not the crowd's size.
    People {
        seats: [Option<SeatView>; 2],
        came: Vec<String>,
        left: Vec<String>,
    },
    /// A new game began in your room.
    GameStarted(GameView),
    /// A move was played; `ply` counts from 1.
    Moved {
        record: MoveRecord,
        ply: u32,
        clocks: Option<Clocks>,
        /// Caro: why the move made five (or more) in a row and still did not win.
        #[serde(default)]
        not_a_win: Option<NotAWin>,
    },
    Chat(ChatLine),
    /// A player made an offer; the other should answer it.
    Offered(Offer),
    /// The offer was refused by the other player.
    Declined(Offer),
    /// The offer is gone unanswered: withdrawn, or made moot by a move or the game's end.
    Withdrawn(Offer),
    /// Moves were taken back.
    Undone {
        plies: u32,
        clocks: Option<Clocks>,
    },
    /// The clocks as they stand (sent when they start, stop or jump).
    Clock(Clocks),
    GameOver(GameOver),
    /// Where the room's match stands, sent when it changes: a match begins, one of its
    /// games ends without deciding it (with the wait before the next), the next begins.
    Match(MatchState),
    /// The room's match is over: its winner (or none: drawn), its score and why. The
    /// [`ServerMsg::GameOver`] of a game that decided it comes first.
    MatchOver(MatchResult),
    /// The engine's suggestion for you.
    Hint(Move),
    Error(ErrorMsg),
    /// The best-rated players at `game`, best first: settled ratings only (provisional
    /// ones are not ranked).
    Leaderboard {
        game: GameKind,
        standings: Vec<Standing>,
    },
    /// Finished games, newest first.
    History(Vec<GameSummary>),
    /// A finished game to replay.
    Replay(Box<GameRecord>),
    /// What the rules say about the room's position, as asked by [`crate::ClientMsg::Facts`].
    Facts(Box<PositionFacts>),
    /// The heartbeat: answer with [`crate::ClientMsg::Pong`] and the same number. The
    /// server sends one every few seconds, so a client that hears nothing for
    /// [`crate::HEARTBEAT_TIMEOUT_SECS`] knows the connection is dead.
    Ping(u32),
    /// Whether the server is keeping what is played: sent to everyone when it changes, and
    /// after `Welcome` while games are not being saved.
    Storage(Storage),
    /// The account's password was changed, as asked by
    /// [`crate::ClientMsg::ChangePassword`].
    PasswordChanged,
    /// What changed in the lobby's room list since the last push (the whole list came in
    /// [`ServerMsg::Rooms`], on entering the lobby or asking): rooms opened or changed,
    /// and rooms closed. Apply with [`crate::apply_room_changes`].
    RoomsChanged {
        changed: Vec<RoomSummary>,
        closed: Vec<RoomId>,
    },
    /// Someone's record, as asked by [`crate::ClientMsg::Profile`].
    Profile(Box<Profile>),
    /// The rules' judgement of an arrangement, as asked by [`crate::ClientMsg::Judge`].
    Judged(Box<Judgement>),
    /// A review asked for with [`crate::ClientMsg::Review`] is under way: `done` of
    /// `total` plies analysed.
    ReviewProgress {
        game: GameId,
        done: u32,
        total: u32,
    },
    /// The finished review of a game.
    Review(Box<GameReview>),
    /// The game a record file's text holds, as asked by [`crate::ClientMsg::ParseRecord`].
    RecordParsed(Box<RecordedGame>),
    /// A game as a record file: a name to save it under and its text, as asked by
    /// [`crate::ClientMsg::WriteRecord`].
    RecordText {
        name: String,
        text: String,
    },
    /// A record that could not be read or written: the line at fault (1-based; 0 when
    /// it is the record as a whole) and what is wrong, in a sentence.
    RecordRefused {
        line: u32,
        message: String,
    },
    /// The rules' answer to [`crate::ClientMsg::Trial`].
    Tried(Box<Trial>),
    /// The login was ended, as asked by [`crate::ClientMsg::LogOut`]: its account token
    /// logs nobody in any more.
    LoggedOut,
    /// Your challenge is out, as asked by [`crate::ClientMsg::Challenge`]: its number
    /// (an open challenge's link names it) and when it expires.
    ChallengeSent(Challenge),
    /// Someone challenges you: answer with [`crate::ClientMsg::AcceptChallenge`] or
    /// [`crate::ClientMsg::DeclineChallenge`]. Sent wherever you are (lobby or room).
    Challenged(Challenge),
    /// A challenge you sent, or one sent to you or taken by you, has ended.
    ChallengeEnded {
        id: ChallengeId,
        end: ChallengeEnd,
    },
    /// The open challenges anyone may take, as they are now: sent after `Welcome` when
    /// there are some, and to everyone whenever the list changes.
    OpenChallenges(Vec<Challenge>),
    /// Who is on the server, as asked by [`crate::ClientMsg::Players`]: people by name,
    /// then the server's bots.
    Players(Vec<PlayerLine>),
    /// Who may challenge you now, as set by [`crate::ClientMsg::SetChallenges`].
    ChallengesSet(ChallengePolicy),
    // --- Tournaments (see [`crate::tournament`]) ---
    /// The tournaments on this server, newest first.
    Tournaments(Vec<TournamentSummary>),
    /// All of one tournament as it is now: sent when asked, and again to its entrants,
    /// its organiser and whoever asked for it whenever it changes.
    Tournament(Box<TournamentView>),
    /// Your game of a tournament is ready in a room: go there (you are placed there at
    /// once if you are not playing elsewhere).
    TournamentGame(TournamentGame),
    /// The tournament is over: its final standings came in the last
    /// [`ServerMsg::Tournament`]; `winners` are the names in first place.
    TournamentOver {
        id: TournamentId,
        winners: Vec<String>,
    },
    /// A tournament exported as asked by [`crate::ClientMsg::ExportTournament`]: a file
    /// name to save it under and its text.
    TournamentExport {
        name: String,
        text: String,
    },
    /// Your room's swap opening moved on: a stone placed or a decision taken. Once
    /// decided, a [`ServerMsg::GameStarted`] follows with the stones as the game's
    /// opening and the colours as chosen.
    Swap(Box<SwapView>),
}

/// Whether games reach the server's disk.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Storage {
    /// Everything played is saved before anyone is told of it.
    Saving,
    /// The disk refuses writes: games go on and are kept in memory, and are written as
    /// soon as the disk takes them again. `reason` says why, in a sentence.
    NotSaving { reason: String },
}
