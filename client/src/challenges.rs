//! Challenges as this client keeps them, for both front ends: those sent to us, ours,
//! the open ones anyone may take, and the people list they are sent from; and the
//! sentences that tell of them (the terminal's popups and status line, plain mode's
//! lines).

use banco_protocol::{
    Challenge, ChallengeEnd, ChallengeId, ChallengePolicy, DeclineReason, FirstMove, PlayerLine,
    ServerMsg,
};

use crate::locale::Locale;
use crate::narrate;
use crate::room::clock::time_control_text;
use crate::tr;

/// The challenges in play for this client, kept current from the server's messages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Challenges {
    /// Sent to us and waiting for our answer, oldest first.
    pub incoming: Vec<Challenge>,
    /// Ours, waiting for an answer (an open one too).
    pub sent: Vec<Challenge>,
    /// Open challenges anyone may take (ours among them), as the server last listed them.
    pub open: Vec<Challenge>,
    /// The people list, as last asked for.
    pub players: Vec<PlayerLine>,
    /// Who may challenge us, as the server last confirmed.
    pub policy: ChallengePolicy,
}

/// What a challenge message changed, for the front end to tell.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Someone challenges us (ring, show it).
    Incoming(Challenge),
    /// Our challenge is out.
    Sent(Challenge),
    /// A challenge we sent, received or took has ended; `was` is it, if we knew it.
    Ended {
        id: ChallengeId,
        end: ChallengeEnd,
        was: Option<Challenge>,
    },
    /// The open challenges, as now listed.
    Open,
    /// The people list came.
    Players,
    /// Who may challenge us, as the server confirmed.
    Policy(ChallengePolicy),
}

impl Challenges {
    /// Takes in a server message; `None` for messages that are not about challenges.
    pub fn apply(&mut self, msg: &ServerMsg) -> Option<Change> {
        match msg {
            ServerMsg::Challenged(ch) => {
                self.incoming.retain(|c| c.id != ch.id);
                self.incoming.push(ch.clone());
                Some(Change::Incoming(ch.clone()))
            }
            ServerMsg::ChallengeSent(ch) => {
                self.sent.retain(|c| c.id != ch.id);
                self.sent.push(ch.clone());
                Some(Change::Sent(ch.clone()))
            }
            ServerMsg::ChallengeEnded { id, end } => {
                let was = self
                    .incoming
                    .iter()
                    .chain(&self.sent)
                    .chain(&self.open)
                    .find(|c| c.id == *id)
                    .cloned();
                self.forget(*id);
                Some(Change::Ended {
                    id: *id,
                    end: end.clone(),
                    was,
                })
            }
            ServerMsg::OpenChallenges(list) => {
                self.open = list.clone();
                Some(Change::Open)
            }
            ServerMsg::Players(list) => {
                self.players = list.clone();
                Some(Change::Players)
            }
            ServerMsg::ChallengesSet(policy) => {
                self.policy = *policy;
                Some(Change::Policy(*policy))
            }
            _ => None,
        }
    }

    /// Drops challenge `id` from every list.
    pub fn forget(&mut self, id: ChallengeId) {
        self.incoming.retain(|c| c.id != id);
        self.sent.retain(|c| c.id != id);
        self.open.retain(|c| c.id != id);
    }

    /// Everything from the last connection: a new one starts with none (the server
    /// voids challenges when their player leaves).
    pub fn clear(&mut self) {
        let policy = self.policy;
        *self = Challenges {
            policy,
            ..Challenges::default()
        };
    }

    /// Open challenges someone else made (ours are in `sent`).
    pub fn others_open<'a>(&'a self, me: &'a str) -> impl Iterator<Item = &'a Challenge> + 'a {
        self.open.iter().filter(move |c| c.from != me)
    }
}

/// A name with its BOT tag when it is a bot account's: `Rapfi BOT`.
pub fn tagged(name: &str, bot: bool, loc: &Locale) -> String {
    if bot {
        format!("{name} {}", tr!(loc, "challenge.bot_tag"))
    } else {
        name.to_string()
    }
}

/// A people-list line's name: the server's bot in the reader's words, a bot account
/// tagged, a guest as marked.
pub fn player_name(p: &PlayerLine, loc: &Locale) -> String {
    match p.level {
        Some(level) => tr!(loc, "seat.bot", level = narrate::level_name(level, loc)),
        None => tagged(&p.name, p.bot, loc),
    }
}

/// What a challenge plays, in a few words: `15x15 freestyle, 5m+3s, rated`.
pub fn terms(ch: &Challenge, loc: &Locale) -> String {
    let time = match ch.settings.time {
        banco_protocol::TimeControl::Unlimited => tr!(loc, "time.none").to_string(),
        tc => time_control_text(&tc),
    };
    let rated = if ch.settings.rated {
        tr!(loc, "challenge.rated")
    } else {
        tr!(loc, "challenge.casual")
    };
    let game = narrate::game_line(&ch.settings.game, loc);
    match &ch.settings.match_format {
        // A match is part of what is asked: "a match, first to 2 (of 3)".
        Some(format) => format!(
            "{game}, {time}, {rated}, {}",
            tr!(
                loc,
                "challenge.as_match",
                format = narrate::match_format(format, loc)
            )
        ),
        None => format!("{game}, {time}, {rated}"),
    }
}

/// Who moves first, said to `me`: `you move first`, `An moves first`, `a coin decides`.
pub fn first_text(ch: &Challenge, me: &str, loc: &Locale) -> String {
    let other = match &ch.to {
        Some(to) => to.clone(),
        None => tr!(loc, "challenge.taker").to_string(),
    };
    let (first, mine) = match ch.settings.first {
        FirstMove::Random => return tr!(loc, "challenge.first_random").to_string(),
        FirstMove::Me => (ch.from.clone(), ch.from == me),
        FirstMove::Them => (other.clone(), ch.from != me),
    };
    if mine {
        tr!(loc, "challenge.first_you").to_string()
    } else {
        tr!(loc, "challenge.first_them", name = first)
    }
}

/// `An challenges you: 15x15 freestyle, 5m+3s, rated; An moves first.`
pub fn incoming_text(ch: &Challenge, me: &str, loc: &Locale) -> String {
    tr!(
        loc,
        "challenge.incoming",
        name = tagged(&ch.from, ch.from_bot, loc),
        terms = terms(ch, loc),
        first = first_text(ch, me, loc),
        id = ch.id
    )
}

/// `Challenge 3 sent to Bình: ...` / `Open challenge 4 made: ...`.
pub fn sent_text(ch: &Challenge, loc: &Locale) -> String {
    match &ch.to {
        Some(to) => tr!(
            loc,
            "challenge.sent",
            id = ch.id,
            name = to,
            terms = terms(ch, loc)
        ),
        None => tr!(
            loc,
            "challenge.sent_open",
            id = ch.id,
            terms = terms(ch, loc)
        ),
    }
}

/// An open challenge as a list line: `#4 An: 15x15 freestyle, 5m+3s, casual`.
pub fn open_line(ch: &Challenge, loc: &Locale) -> String {
    format!(
        "#{} {}: {}",
        ch.id,
        tagged(&ch.from, ch.from_bot, loc),
        terms(ch, loc)
    )
}

/// A decline reason in words: "not now".
pub fn reason_text(reason: DeclineReason, loc: &Locale) -> String {
    tr!(loc, &format!("challenge.reason_{}", reason.as_str())).to_string()
}

/// How a challenge ended, said to `me`.
pub fn ended_text(
    id: ChallengeId,
    end: &ChallengeEnd,
    was: Option<&Challenge>,
    me: &str,
    loc: &Locale,
) -> String {
    let mine = was.is_none_or(|c| c.from == me);
    let other = was
        .map(|c| {
            if c.from == me {
                c.to.clone()
                    .unwrap_or_else(|| tr!(loc, "challenge.taker").to_string())
            } else {
                c.from.clone()
            }
        })
        .unwrap_or_default();
    match end {
        ChallengeEnd::Accepted { room, by } if by == me => {
            tr!(loc, "challenge.you_accepted", id = id, room = room)
        }
        ChallengeEnd::Accepted { room, by } => {
            tr!(loc, "challenge.accepted", id = id, name = by, room = room)
        }
        ChallengeEnd::Declined { by, reason } if by == me => tr!(
            loc,
            "challenge.you_declined",
            id = id,
            reason = reason_text(*reason, loc)
        ),
        ChallengeEnd::Declined { by, reason } => tr!(
            loc,
            "challenge.declined",
            id = id,
            name = by,
            reason = reason_text(*reason, loc)
        ),
        ChallengeEnd::Cancelled if mine => tr!(loc, "challenge.you_cancelled", id = id),
        ChallengeEnd::Cancelled => tr!(loc, "challenge.cancelled", id = id, name = other),
        ChallengeEnd::Expired => tr!(loc, "challenge.expired", id = id),
        ChallengeEnd::Withdrawn => tr!(loc, "challenge.withdrawn", id = id, name = other),
    }
}

/// A policy in words: "everyone", "accounts only", "nobody".
pub fn policy_text(policy: ChallengePolicy, loc: &Locale) -> String {
    tr!(loc, &format!("challenge.policy_{}", policy.as_str())).to_string()
}

/// The address of an open challenge's page: the server's page with `#challenge=ID`
/// (and the key's fingerprint, as the lobby's QR code carries it).
pub fn link(page: &str, id: ChallengeId) -> String {
    match page.split_once('#') {
        Some((base, rest)) => format!("{base}#challenge={id}&{rest}"),
        None => format!("{page}#challenge={id}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use banco_protocol::{RoomSettings, TimeControl};
    use std::time::Duration;

    fn ch(id: ChallengeId, from: &str, to: Option<&str>) -> Challenge {
        Challenge {
            id,
            from: from.into(),
            from_bot: false,
            to: to.map(String::from),
            settings: RoomSettings {
                time: TimeControl::clock(Duration::from_secs(300), Duration::from_secs(3)),
                ..RoomSettings::default()
            },
            expires_in_ms: 1000,
        }
    }

    #[test]
    fn the_lists_follow_the_server() {
        let loc = Locale::english();
        let mut c = Challenges::default();
        c.apply(&ServerMsg::Challenged(ch(1, "An", Some("Bình"))));
        c.apply(&ServerMsg::ChallengeSent(ch(2, "Bình", None)));
        c.apply(&ServerMsg::OpenChallenges(vec![
            ch(2, "Bình", None),
            ch(3, "Chi", None),
        ]));
        assert_eq!(c.others_open("Bình").count(), 1);
        let Some(Change::Ended { was, end, .. }) = c.apply(&ServerMsg::ChallengeEnded {
            id: 1,
            end: ChallengeEnd::Declined {
                by: "Bình".into(),
                reason: DeclineReason::TimeControl,
            },
        }) else {
            panic!("an end");
        };
        assert!(c.incoming.is_empty());
        let text = ended_text(1, &end, was.as_ref(), "Bình", &loc);
        assert!(text.contains("another time control"), "{text}");
        let text = ended_text(1, &end, was.as_ref(), "An", &loc);
        assert!(text.contains("Bình declined"), "{text}");
        c.clear();
        assert!(c.sent.is_empty() && c.open.is_empty());
    }

    #[test]
    fn a_challenge_reads_as_what_it_plays_and_who_starts() {
        let loc = Locale::english();
        let mut challenge = ch(7, "An", Some("Bình"));
        let text = incoming_text(&challenge, "Bình", &loc);
        assert!(text.contains("An challenges you"), "{text}");
        assert!(text.contains("5m+3s"), "{text}");
        assert!(text.contains("An moves first"), "{text}");
        challenge.settings.first = FirstMove::Them;
        assert!(incoming_text(&challenge, "Bình", &loc).contains("you move first"));
        assert!(!text.contains("match"), "{text}");
        challenge.settings.match_format = Some(banco_protocol::MatchFormat {
            games: 3,
            first_to: Some(2),
        });
        let text = incoming_text(&challenge, "Bình", &loc);
        assert!(text.contains("a match, first to 2 (of 3)"), "{text}");
        challenge.from_bot = true;
        assert!(incoming_text(&challenge, "Bình", &loc).contains("An BOT"));
        assert_eq!(
            link("https://10.0.0.2:7373/#fp=ab", 4),
            "https://10.0.0.2:7373/#challenge=4&fp=ab"
        );
        assert_eq!(link("http://h:7373/", 4), "http://h:7373/#challenge=4");
    }
}
