//! Challenges: asking one player by name (or anyone at all) for a game whose settings are
//! chosen up front, and the people a challenge can go to.
//!
//! - [`Challenge`]: one challenge as both sides see it: who, to whom, the room's settings.
//! - [`ChallengeEnd`]: how one ended (accepted into a room, declined with a
//!   [`DeclineReason`], cancelled, expired, withdrawn).
//! - [`ChallengePolicy`]: who may challenge a player (everyone, accounts only, nobody).
//! - [`PlayerLine`]: a line of the people list ([`crate::ClientMsg::Players`]).
//!
//! The order: the challenger sends [`crate::ClientMsg::Challenge`] and is answered
//! [`crate::ServerMsg::ChallengeSent`]; the one challenged is sent
//! [`crate::ServerMsg::Challenged`] wherever they are. They answer with
//! [`crate::ClientMsg::AcceptChallenge`] or [`crate::ClientMsg::DeclineChallenge`]; the
//! challenger may [`crate::ClientMsg::CancelChallenge`]. Both sides are told the end in
//! [`crate::ServerMsg::ChallengeEnded`]; an accepted challenge is followed by a
//! [`crate::ServerMsg::Joined`] of the new room, where both are seated.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

use crate::room::{Level, RoomId, RoomSettings};

/// A challenge's number on this server, unique while the server runs: an open
/// challenge's link names it.
pub type ChallengeId = u32;

/// A challenge as sent to the challenger, the one challenged, and (for an open one)
/// everyone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Challenge {
    pub id: ChallengeId,
    /// Who challenges (seat One of the room it makes).
    pub from: String,
    /// The challenger is a bot account (an engine brought with `banco bot`).
    pub from_bot: bool,
    /// Who is challenged; `None` for an open challenge anyone may take.
    pub to: Option<String>,
    /// The room the game is played in, as the challenger chose it: `first` is said from
    /// the challenger's side (`me`: the challenger moves first), `seats` are two people.
    pub settings: RoomSettings,
    /// Milliseconds left before the challenge expires, as of this message.
    pub expires_in_ms: u64,
}

/// Why a challenge was declined: the short list a person picks from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DeclineReason {
    /// "Not now."
    NotNow,
    /// "Another time control, please."
    TimeControl,
    /// "Only rated games."
    RatedOnly,
    /// "Only casual games."
    CasualOnly,
    /// "Not with a bot."
    NoBots,
    /// "I do not play that game, rule or board" (what an engine says of a variant it
    /// cannot play).
    Variant,
}

impl DeclineReason {
    /// Every reason, in the order a person is offered them.
    pub const ALL: [DeclineReason; 6] = [
        DeclineReason::NotNow,
        DeclineReason::TimeControl,
        DeclineReason::RatedOnly,
        DeclineReason::CasualOnly,
        DeclineReason::NoBots,
        DeclineReason::Variant,
    ];

    /// The stable name, as sent and as typed in plain mode (`decline 3 time_control`).
    pub fn as_str(self) -> &'static str {
        match self {
            DeclineReason::NotNow => "not_now",
            DeclineReason::TimeControl => "time_control",
            DeclineReason::RatedOnly => "rated_only",
            DeclineReason::CasualOnly => "casual_only",
            DeclineReason::NoBots => "no_bots",
            DeclineReason::Variant => "variant",
        }
    }
}

impl fmt::Display for DeclineReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for DeclineReason {
    type Err = String;

    /// The stable name, with `-` for `_` and any case (`time-control`).
    fn from_str(s: &str) -> Result<DeclineReason, String> {
        let s = s.trim().to_ascii_lowercase().replace('-', "_");
        DeclineReason::ALL
            .into_iter()
            .find(|r| r.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = DeclineReason::ALL.iter().map(|r| r.as_str()).collect();
                format!("'{s}' is not a reason: say {}", names.join(", "))
            })
    }
}

/// How a challenge ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeEnd {
    /// Taken: both players are seated in room `room` (a `Joined` follows). `by` is who
    /// took it (the one challenged, or anyone for an open challenge).
    Accepted { room: RoomId, by: String },
    /// Refused by `by`, for `reason`.
    Declined { by: String, reason: DeclineReason },
    /// The challenger called it off.
    Cancelled,
    /// Nobody answered in time.
    Expired,
    /// The challenger or the one challenged left the server.
    Withdrawn,
}

/// Who may challenge a player, as the player chose
/// ([`crate::ClientMsg::SetChallenges`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChallengePolicy {
    /// Anyone on the server.
    #[default]
    Everyone,
    /// Logged-in accounts only, no guests.
    Accounts,
    /// Nobody: challenges are turned off.
    Nobody,
}

impl ChallengePolicy {
    pub const ALL: [ChallengePolicy; 3] = [
        ChallengePolicy::Everyone,
        ChallengePolicy::Accounts,
        ChallengePolicy::Nobody,
    ];

    /// The stable name (`everyone`, `accounts`, `nobody`).
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengePolicy::Everyone => "everyone",
            ChallengePolicy::Accounts => "accounts",
            ChallengePolicy::Nobody => "nobody",
        }
    }
}

impl FromStr for ChallengePolicy {
    type Err = String;

    /// The stable name, or `on` (everyone) and `off` (nobody).
    fn from_str(s: &str) -> Result<ChallengePolicy, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "everyone" | "on" | "all" => Ok(ChallengePolicy::Everyone),
            "accounts" | "accounts-only" | "accounts_only" => Ok(ChallengePolicy::Accounts),
            "nobody" | "off" | "none" => Ok(ChallengePolicy::Nobody),
            other => Err(format!(
                "'{other}' is not a choice: say everyone (on), accounts or nobody (off)"
            )),
        }
    }
}

/// A line of the people list: someone on the server now, or one of the server's bots.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct PlayerLine {
    pub name: String,
    /// `Some` for the server's bot of that level (always there, always takes a
    /// challenge it can play).
    pub level: Option<Level>,
    /// Logged in to an account (else a guest, or the server's bot).
    pub account: bool,
    /// A bot account: an engine brought with `banco bot`.
    pub bot: bool,
    /// Seated in a game being played now (a challenge waits until it ends).
    pub playing: bool,
    /// Who may challenge them.
    pub challenges: ChallengePolicy,
}
