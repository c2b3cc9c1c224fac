//! Chat in a room: who may say what, how fast, and the history newcomers see.

use std::collections::VecDeque;
use std::time::Duration;
use tokio::time::Instant;

use banco_protocol::{CHAT_HISTORY, ChatLine, ErrorCode, ErrorMsg};

use crate::store::Event;
use crate::wall_clock::unix_ms;

/// One person's chat allowance: a token bucket, so a short burst is fine and a flood is
/// refused (`ChatTooFast`) without ever silencing someone for long.
#[derive(Debug, Clone)]
pub struct ChatAllowance {
    /// The most lines that can be saved up.
    burst: f64,
    /// One line comes back per this long.
    refill: Duration,
    /// Lines that may be sent right now (fractions refill over time).
    tokens: f64,
    /// When `tokens` was last brought up to date.
    at: Instant,
}

impl ChatAllowance {
    /// A full allowance of `burst` lines, refilling one per `refill`.
    pub fn new(burst: u32, refill: Duration, now: Instant) -> ChatAllowance {
        let burst = f64::from(burst.max(1));
        ChatAllowance {
            burst,
            refill: refill.max(Duration::from_millis(1)),
            tokens: burst,
            at: now,
        }
    }

    /// Spends one line if the allowance has one at `now`.
    pub fn spend(&mut self, now: Instant) -> Result<(), ErrorMsg> {
        let earned =
            now.saturating_duration_since(self.at).as_secs_f64() / self.refill.as_secs_f64();
        self.tokens = (self.tokens + earned).min(self.burst);
        self.at = now;
        if self.tokens < 1.0 {
            return Err(ErrorMsg::new(
                ErrorCode::ChatTooFast,
                "you are sending messages too fast: wait a moment",
            ));
        }
        self.tokens -= 1.0;
        Ok(())
    }
}

/// The room's last [`CHAT_HISTORY`] lines, oldest first.
#[derive(Debug, Clone, Default)]
pub struct ChatHistory {
    /// Oldest first; never longer than [`CHAT_HISTORY`].
    lines: VecDeque<ChatLine>,
}

impl ChatHistory {
    /// The history as a restarted room had it: the newest [`CHAT_HISTORY`] of `lines`.
    pub fn from_lines(lines: Vec<ChatLine>) -> ChatHistory {
        let mut history = ChatHistory::default();
        for line in lines {
            history.push(line);
        }
        history
    }

    pub fn push(&mut self, line: ChatLine) {
        if self.lines.len() == CHAT_HISTORY {
            self.lines.pop_front();
        }
        self.lines.push_back(line);
    }

    pub fn lines(&self) -> Vec<ChatLine> {
        self.lines.iter().cloned().collect()
    }
}

impl super::Room {
    /// A member says `text` to the room: players and spectators alike.
    pub(super) fn chat(&mut self, client: crate::ClientId, text: &str) -> Result<(), ErrorMsg> {
        let text = crate::names::clean_chat(text)?;
        let Some(member) = self.members.iter_mut().find(|m| m.client == client) else {
            return Ok(());
        };
        member.chat.spend(Instant::now())?;
        let line = ChatLine {
            from: member.name.clone(),
            text,
            at_ms: unix_ms(),
        };
        self.chat.push(line.clone());
        // Like a move, a line is on disk before anyone reads it: a restart brings the
        // room's chat back as everyone saw it. (Between games nothing is logged, but
        // between the games of a match: the next game's start carries the room's chat,
        // and a room with no game or match in progress does not come back.)
        self.log_event(Event::Chat(line.clone()));
        self.log_chat_between_games();
        self.broadcast(banco_protocol::ServerMsg::Chat(line));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BURST: u32 = 6;
    const REFILL: Duration = Duration::from_millis(1500);

    #[test]
    fn a_burst_is_fine_a_flood_is_refused_and_the_allowance_returns() {
        let t0 = Instant::now();
        let mut a = ChatAllowance::new(BURST, REFILL, t0);
        for _ in 0..BURST {
            a.spend(t0).unwrap();
        }
        assert_eq!(a.spend(t0).unwrap_err().code, ErrorCode::ChatTooFast);
        assert_eq!(
            a.spend(t0 + REFILL / 2).unwrap_err().code,
            ErrorCode::ChatTooFast
        );
        a.spend(t0 + REFILL).unwrap();
        assert!(a.spend(t0 + REFILL).is_err());
        // A long silence refills only up to the burst.
        let later = t0 + REFILL * 100;
        for _ in 0..BURST {
            a.spend(later).unwrap();
        }
        assert!(a.spend(later).is_err());
    }

    #[test]
    fn history_keeps_the_newest_lines() {
        let mut h = ChatHistory::default();
        for i in 0..CHAT_HISTORY + 5 {
            h.push(ChatLine {
                from: "An".into(),
                text: i.to_string(),
                at_ms: 0,
            });
        }
        let lines = h.lines();
        assert_eq!(lines.len(), CHAT_HISTORY);
        assert_eq!(lines[0].text, "5");
        assert_eq!(lines[CHAT_HISTORY - 1].text, (CHAT_HISTORY + 4).to_string());
    }
}
