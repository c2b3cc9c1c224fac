//! Tournaments: club nights of Swiss, round robin and arena events, as clients see them.
//!
//! - [`TournamentSettings`]: what the organiser chooses: name, [`TournamentFormat`], the
//!   room every pairing is played in, rated or not, [`TournamentStart`], the bye's worth,
//!   the forfeit wait and the [`TieBreak`] order.
//! - [`TournamentSummary`]: a line of the list ([`crate::ClientMsg::ListTournaments`]).
//! - [`TournamentView`]: all of one event: entrants, every board and bye with its
//!   result and room, standings with tie-breaks in order, and the crosstable.
//! - [`BoardResult`]: how a pairing ended (over the board, by forfeit, set by hand).
//!
//! The order: a registered account sends [`crate::ClientMsg::CreateTournament`] and is
//! answered [`crate::ServerMsg::Tournament`]. People join with
//! [`crate::ClientMsg::JoinTournament`] (guests only in unrated events), the organiser
//! may enter the server's bots ([`crate::ClientMsg::AddTournamentBot`]) and starts it
//! ([`crate::ClientMsg::StartTournament`]). Each paired round opens a room per board
//! with both players' seats kept for them; each player is told
//! [`crate::ServerMsg::TournamentGame`] (and placed in the room when they are free).
//! Everyone entered, the organiser and whoever asked for the view get a fresh
//! [`crate::ServerMsg::Tournament`] whenever it changes, and
//! [`crate::ServerMsg::TournamentOver`] at the end.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;

use crate::room::{GameKind, Level, MatchFormat, RoomId, RoomSettings};

/// A tournament's number on this server (kept across restarts).
pub type TournamentId = u32;

/// Longest tournament name, in characters.
pub const MAX_TOURNAMENT_NAME_CHARS: usize = 48;

/// The most entrants one tournament takes.
pub const MAX_ENTRANTS: usize = 200;

/// The most rounds a Swiss may have.
pub const MAX_SWISS_ROUNDS: u32 = 20;

/// The longest arena, in seconds (a long club night).
pub const MAX_ARENA_SECS: u32 = 6 * 60 * 60;

/// How the pairings are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentFormat {
    /// The FIDE Dutch system over `rounds` rounds (the organiser may add rounds).
    Swiss { rounds: u32 },
    /// Everyone meets everyone by the FIDE Berger tables; `double`: twice, once with
    /// each colour.
    RoundRobin { double: bool },
    /// For `seconds`, a player who finishes is paired again at once with a free player
    /// of a close score: 2 points a win, 1 a draw, doubled on a streak of two wins or
    /// more; `berserk`: a player may halve their clock for one more point on a win.
    Arena { seconds: u32, berserk: bool },
}

impl TournamentFormat {
    /// The stable name (`swiss`, `round_robin`, `arena`).
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentFormat::Swiss { .. } => "swiss",
            TournamentFormat::RoundRobin { .. } => "round_robin",
            TournamentFormat::Arena { .. } => "arena",
        }
    }
}

impl fmt::Display for TournamentFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TournamentFormat::Swiss { rounds } => write!(f, "Swiss, {rounds} rounds"),
            TournamentFormat::RoundRobin { double: false } => f.write_str("round robin"),
            TournamentFormat::RoundRobin { double: true } => f.write_str("double round robin"),
            TournamentFormat::Arena { seconds, berserk } => {
                if seconds % 60 == 0 {
                    write!(f, "arena, {} min", seconds / 60)?;
                } else {
                    write!(f, "arena, {seconds} s")?;
                }
                if *berserk {
                    f.write_str(", berserk")?;
                }
                Ok(())
            }
        }
    }
}

/// When the tournament starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStart {
    /// When the organiser says ([`crate::ClientMsg::StartTournament`]).
    Manual,
    /// At this time (Unix milliseconds), or when the organiser says before.
    At { unix_ms: u64 },
}

/// What the pairing-allocated bye (the one player left over in a round of an odd
/// number) is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ByeValue {
    /// A win's point (FIDE's default).
    #[default]
    Win,
    /// Half a point.
    Draw,
    /// Nothing.
    Nothing,
}

impl ByeValue {
    /// Half a point: what a bye asked for before a round is worth unless the organiser
    /// says otherwise (FIDE C.04: its value is announced by the organiser).
    pub fn half() -> ByeValue {
        ByeValue::Draw
    }

    /// In tenths of a point.
    pub fn tenths(self) -> u32 {
        match self {
            ByeValue::Win => 10,
            ByeValue::Draw => 5,
            ByeValue::Nothing => 0,
        }
    }
}

/// A tie-break (FIDE C.07), in the order the organiser ranks them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// Buchholz: the sum of the opponents' scores.
    Buchholz,
    /// Buchholz less its least significant value.
    BuchholzCut1,
    /// Sonneborn-Berger: opponents' scores weighted by the points scored against them.
    SonnebornBerger,
    /// Points among the tied players, when they all met.
    DirectEncounter,
    /// Rounds won, with or without playing.
    Wins,
    /// Games won over the board.
    GamesWon,
}

impl TieBreak {
    /// Every tie-break.
    pub const ALL: [TieBreak; 6] = [
        TieBreak::Buchholz,
        TieBreak::BuchholzCut1,
        TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter,
        TieBreak::Wins,
        TieBreak::GamesWon,
    ];

    /// The order unless the organiser says otherwise: Buchholz cut-1, Buchholz,
    /// Sonneborn-Berger, direct encounter, wins.
    pub const DEFAULT_ORDER: [TieBreak; 5] = [
        TieBreak::BuchholzCut1,
        TieBreak::Buchholz,
        TieBreak::SonnebornBerger,
        TieBreak::DirectEncounter,
        TieBreak::Wins,
    ];

    /// The FIDE abbreviation, as column headings show it (`BH-C1`).
    pub fn code(self) -> &'static str {
        match self {
            TieBreak::Buchholz => "BH",
            TieBreak::BuchholzCut1 => "BH-C1",
            TieBreak::SonnebornBerger => "SB",
            TieBreak::DirectEncounter => "DE",
            TieBreak::Wins => "WIN",
            TieBreak::GamesWon => "WON",
        }
    }

    /// The default order as an organiser would type it: `BH-C1 BH SB DE WIN`.
    pub fn default_codes() -> String {
        let codes: Vec<&str> = Self::DEFAULT_ORDER.iter().map(|t| t.code()).collect();
        codes.join(" ")
    }

    /// Reads a list of tie-breaks, each as [`TieBreak::parse`] reads it, apart by
    /// commas or spaces (`bh-c1,bh sb`); `None` when a word is not a tie-break. Naming
    /// one twice is for the server to refuse, which says which.
    pub fn parse_list(text: &str) -> Option<Vec<TieBreak>> {
        text.split(|c: char| c == ',' || c.is_whitespace())
            .filter(|w| !w.is_empty())
            .map(TieBreak::parse)
            .collect()
    }

    /// Reads an abbreviation or a snake_case name, any case.
    pub fn parse(text: &str) -> Option<TieBreak> {
        let t = text.trim().to_ascii_lowercase().replace('_', "-");
        TieBreak::ALL.into_iter().find(|b| {
            b.code().to_ascii_lowercase() == t
                || match b {
                    TieBreak::Buchholz => t == "buchholz",
                    TieBreak::BuchholzCut1 => t == "buchholz-cut1" || t == "bh-c1",
                    TieBreak::SonnebornBerger => t == "sonneborn-berger",
                    TieBreak::DirectEncounter => t == "direct-encounter",
                    TieBreak::Wins => t == "wins",
                    TieBreak::GamesWon => t == "games-won",
                }
        })
    }
}

/// Everything the organiser chooses when creating a tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentSettings {
    /// Shown in the list and on standings.
    pub name: String,
    pub format: TournamentFormat,
    /// The room each pairing is played in: the game, rule and board, time control,
    /// hints and match format (a caro pairing is by default a two-game mini-match,
    /// [`MatchFormat::MINI`], a xiangqi pairing one game). Its seats, first move and
    /// rated flag are the tournament's to set.
    pub room: RoomSettings,
    /// Whether the games count for ratings (accounts only then: no guests).
    pub rated: bool,
    pub start: TournamentStart,
    /// What the pairing-allocated bye is worth (Swiss and round robin).
    #[serde(default)]
    pub bye: ByeValue,
    /// What a bye a player asks for before a round is worth (Swiss;
    /// [`crate::ClientMsg::RequestBye`]): half a point unless the organiser says
    /// otherwise.
    #[serde(default = "ByeValue::half")]
    pub requested_bye: ByeValue,
    /// A player who has not made their first move this many seconds after their game
    /// starts (or who has not come to the board by then) loses it by forfeit.
    pub forfeit_secs: u32,
    /// The tie-breaks, in order (Swiss and round robin).
    pub tie_breaks: Vec<TieBreak>,
}

impl TournamentSettings {
    /// The wait before a forfeit unless the organiser says otherwise, in seconds.
    pub const DEFAULT_FORFEIT_SECS: u32 = 120;

    /// A tournament of `format` at `room`'s game, with the usual choices: a caro pairing
    /// a two-game mini-match, xiangqi one game; rated, manual start, bye worth a win,
    /// two minutes to the forfeit, the default tie-break order.
    pub fn new(name: impl Into<String>, format: TournamentFormat, room: RoomSettings) -> Self {
        let mut room = room;
        if room.match_format.is_none() && GameKind::of(&room.game) == GameKind::Caro {
            room.match_format = Some(MatchFormat::MINI);
        }
        TournamentSettings {
            name: name.into(),
            format,
            rated: room.rated,
            room,
            start: TournamentStart::Manual,
            bye: ByeValue::Win,
            requested_bye: ByeValue::half(),
            forfeit_secs: Self::DEFAULT_FORFEIT_SECS,
            tie_breaks: TieBreak::DEFAULT_ORDER.to_vec(),
        }
    }
}

/// Where a tournament stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Taking entries, not started.
    Entries,
    /// Being played.
    Running,
    /// Paused by the organiser: no new round (or arena pairing) until resumed; games
    /// already paired go on.
    Paused,
    /// Over: the standings are final.
    Over,
}

impl TournamentStatus {
    /// The stable name.
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Entries => "entries",
            TournamentStatus::Running => "running",
            TournamentStatus::Paused => "paused",
            TournamentStatus::Over => "over",
        }
    }
}

/// A line of the tournament list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentSummary {
    pub id: TournamentId,
    pub name: String,
    pub format: TournamentFormat,
    pub game: GameKind,
    /// The time control of its games, for the list (as [`TournamentSettings::room`] has it).
    pub time: crate::TimeControl,
    /// The account that made it and runs it.
    pub organiser: String,
    pub status: TournamentStatus,
    /// Entrants, withdrawn ones included.
    pub entrants: u32,
    /// The rounds paired so far (arena: waves of pairings).
    pub round: u32,
    /// The rounds it has (0 for an arena).
    pub rounds: u32,
    pub rated: bool,
}

/// One entrant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Entrant {
    /// The pairing number, from 1 (entry order at the start: strongest first).
    pub number: u32,
    pub name: String,
    /// The server's bot of this level, entered by the organiser.
    pub bot: Option<Level>,
    /// The rating that ordered the pairing numbers (0: unrated).
    pub rating: u16,
    /// Withdrawn or removed: not paired again; earlier games stand.
    pub withdrawn: bool,
    /// Not connected to the server now (the server's bots never are away): an arena
    /// passes over them, a board of theirs waits for them until its forfeit time.
    #[serde(default)]
    pub away: bool,
}

/// How a pairing ended, white's (seat One's) side first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BoardResult {
    WhiteWins,
    Draw,
    BlackWins,
    /// Black did not play (did not come or did not move in time).
    WhiteWinsByForfeit,
    /// White did not play.
    BlackWinsByForfeit,
    /// Neither played.
    DoubleForfeit,
}

impl BoardResult {
    /// As scoresheets write it: `1-0`, `1/2-1/2`, `0-1`, `+--`, `--+`, `---`.
    pub fn text(self) -> &'static str {
        match self {
            BoardResult::WhiteWins => "1-0",
            BoardResult::Draw => "1/2-1/2",
            BoardResult::BlackWins => "0-1",
            BoardResult::WhiteWinsByForfeit => "+--",
            BoardResult::BlackWinsByForfeit => "--+",
            BoardResult::DoubleForfeit => "---",
        }
    }

    /// Reads `1-0`, `0-1`, `1/2`, `1/2-1/2`, `=`, `+-`, `-+`, `--` (and the forms of
    /// [`BoardResult::text`]).
    pub fn parse(text: &str) -> Option<BoardResult> {
        match text.trim() {
            "1-0" => Some(BoardResult::WhiteWins),
            "0-1" => Some(BoardResult::BlackWins),
            "1/2" | "1/2-1/2" | "=" | "½" | "½-½" => Some(BoardResult::Draw),
            "+-" | "+--" => Some(BoardResult::WhiteWinsByForfeit),
            "-+" | "--+" => Some(BoardResult::BlackWinsByForfeit),
            "--" | "---" => Some(BoardResult::DoubleForfeit),
            _ => None,
        }
    }
}

/// A board of a round (or of an arena's wave).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct BoardView {
    /// The round (arena: the wave), from 1.
    pub round: u32,
    /// The board, from 1 within its round.
    pub board: u32,
    /// White's (seat One's, who moves first) entrant number.
    pub white: u32,
    /// Black's entrant number.
    pub black: u32,
    /// The room it is played in, while it is open (spectators may watch).
    pub room: Option<RoomId>,
    /// `None` while it is being played.
    pub result: Option<BoardResult>,
    /// The result was set by the organiser, not played out.
    pub by_hand: bool,
    /// Arena: white and black went berserk (half their clock, one more point on a
    /// win).
    #[serde(default)]
    pub berserk: [bool; 2],
}

/// A round's bye.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ByeView {
    pub round: u32,
    pub entrant: u32,
    /// Points it is worth, in tenths.
    pub points: u32,
}

/// A bye a player has asked for, for a round not yet paired (Swiss).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ByeRequestView {
    /// The round it is for.
    pub round: u32,
    /// Who asked.
    pub entrant: u32,
}

/// A line of the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct StandingLine {
    /// Place, from 1; players equal on score and every tie-break share it.
    pub rank: u32,
    pub entrant: u32,
    /// Score in tenths of a point (Swiss, round robin); arena points times ten.
    pub points: u32,
    /// The tie-break values in the view's `tie_breaks` order, in hundredths.
    pub tie_breaks: Vec<i64>,
    /// Arena: on a streak of two wins or more (the next win counts double).
    #[serde(default)]
    pub on_fire: bool,
}

/// One cell of the crosstable: what an entrant did in one round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CrossCell {
    /// The opponent's entrant number (none for a bye or an absence).
    pub opponent: Option<u32>,
    /// Played with white (`Some(true)`), black, or neither.
    pub white: Option<bool>,
    /// Points scored, in tenths; `None` while the game is being played.
    pub points: Option<u32>,
    /// Played over the board (not a forfeit, bye or absence).
    pub played: bool,
}

/// An entrant's line of the crosstable, one cell per round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CrossRow {
    pub entrant: u32,
    pub cells: Vec<CrossCell>,
}

/// All of one tournament.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentView {
    pub summary: TournamentSummary,
    pub settings: TournamentSettings,
    pub entrants: Vec<Entrant>,
    /// Every board of every round, round by round, board by board.
    pub boards: Vec<BoardView>,
    pub byes: Vec<ByeView>,
    /// Byes asked for rounds not yet paired (Swiss), round by round; each is worth
    /// `settings.requested_bye` once its round is paired.
    #[serde(default)]
    pub bye_requests: Vec<ByeRequestView>,
    /// The tie-breaks the standings carry, in order (empty for an arena).
    pub tie_breaks: Vec<TieBreak>,
    /// Best first.
    pub standings: Vec<StandingLine>,
    /// By entrant number (Swiss and round robin).
    pub crosstable: Vec<CrossRow>,
    /// Arena: milliseconds left, as of this message; `None` before the start or after.
    pub ends_in_ms: Option<u64>,
    /// Starts by itself in this many milliseconds (a set start time).
    pub starts_in_ms: Option<u64>,
}

impl TournamentView {
    /// The entrant with number `number`.
    pub fn entrant(&self, number: u32) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.number == number)
    }

    /// The entrant's name, or `?` for a number not entered.
    pub fn name_of(&self, number: u32) -> &str {
        self.entrant(number).map_or("?", |e| e.name.as_str())
    }
}

/// A player's pairing, as told to them when its room is ready.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct TournamentGame {
    pub tournament: TournamentId,
    pub round: u32,
    pub board: u32,
    /// The room to play in: go in with [`crate::ClientMsg::JoinRoom`] (a player who is
    /// free is placed there at once).
    pub room: RoomId,
    pub opponent: String,
    /// You play white (seat One, first to move in the first game).
    pub white: bool,
    /// You lose by forfeit unless you have made your first move within this many
    /// seconds.
    pub forfeit_secs: u32,
}

/// What a tournament is exported as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ExportFormat {
    /// A FIDE Tournament Report File (as bbpPairings reads it): Swiss and round robin.
    Trf,
    /// The standings as CSV: rank, name, points, the tie-breaks.
    Csv,
    /// The whole [`TournamentView`] as JSON.
    Json,
}

impl ExportFormat {
    /// The file name's ending.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Trf => "trf",
            ExportFormat::Csv => "csv",
            ExportFormat::Json => "json",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_of_tie_breaks_reads_codes_and_names_apart_by_commas_or_spaces() {
        assert_eq!(
            TieBreak::parse_list("bh-c1, SB games_won"),
            Some(vec![
                TieBreak::BuchholzCut1,
                TieBreak::SonnebornBerger,
                TieBreak::GamesWon
            ])
        );
        assert_eq!(
            TieBreak::parse_list(&TieBreak::default_codes()),
            Some(TieBreak::DEFAULT_ORDER.to_vec())
        );
        assert_eq!(TieBreak::parse_list("  "), Some(vec![]));
        assert_eq!(TieBreak::parse_list("BH median"), None);
    }
}
