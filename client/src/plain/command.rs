//! Reading one line of plain-mode input into a [`Command`].
//!
//! # Format
//! ```text
//! rooms
//! create caro [--size WxH|N] [--rule caro|freestyle|standard|caro-overline]
//!             [--opening none|balanced|swap1|swap2|h8,i9,h10] [--first me|them|random]
//!             [--timer 20s | --clock 5m+3s]
//!             [--bot LEVEL [--vs-bot LEVEL]] [--no-hints]
//!             [--match N [--first-to K]]
//! create xiangqi [--fen FEN] [--first ..] [--timer ..|--clock ..] [--bot ..] [--no-hints]
//!             [--match N [--first-to K]]
//! join ROOM | watch ROOM | leave | quit
//! move X,Y | move h8 | move h2e2
//! say TEXT | undo | draw | newgame | yes | no | cancel | resign | resign match | hint
//! berserk
//! board | help
//! leaderboard [caro|xiangqi] | history [NAME] | replay GAME [--save FILE] | review [GAME]
//! profile [NAME | --bot LEVEL] | login [NAME] | passwd
//! players | challenges [on|off|accounts]
//! challenge NAME [caro|xiangqi] [create's options] [--colour mine|theirs|random]
//!           [--rated|--casual]
//! challenge --open [caro|xiangqi] [options]  | accept ID | decline ID [REASON] | cancel ID
//! tournaments | tournament ID | standings ID
//! tournament create NAME swiss|roundrobin|arena caro|xiangqi [create's options]
//!           [--rounds N] [--double] [--minutes M | --seconds S] [--berserk]
//!           [--bye win|draw|nothing] [--requested-bye draw|win|nothing] [--forfeit 2m]
//!           [--tie-breaks bh-c1,bh,sb,de,win] [--start-in 10m]
//!           [--rated|--casual]
//! tournament join|withdraw|start|pair|pause|resume|round ID
//! tournament bot ID LEVEL|BOT-ACCOUNT | tournament bot-account ID NAME
//! tournament remove ID NAME
//! tournament bye ID [ROUND] | tournament unbye ID [ROUND]
//! result ID ROUND BOARD 1-0|0-1|1/2 | tournament export ID trf|csv|json FILE
//! withdraw ID | start ID | pair ID
//! ```
//! A tournament is rated unless `--casual`; a caro pairing is a two-game mini-match
//! unless `--match` says otherwise.
//! A challenge is rated unless `--casual` (a guest's is casual unless `--rated`).
//! Passwords are never written on a command line: `login` and `passwd` ask for them
//! (without echo at a terminal; piped, as the next lines).
//! Options also take `--opt=value`. Words are case-insensitive; chat text is kept as typed.

use crate::room::opening::checked_stones;
use banco_protocol::{
    BoardResult, ByeValue, ClientMsg, ExportFormat, TieBreak, TournamentFormat, TournamentId,
    TournamentSettings,
};
use banco_protocol::{
    CaroOpening, ChallengeId, ChallengePolicy, DeclineReason, FirstMove, GameId, GameKind,
    GameSettings, Level, MAX_MATCH_GAMES, MatchFormat, RoomId, RoomSettings, Rule, SeatKind,
    TimeControl, parse_duration,
};
use std::time::Duration;

/// One thing the user asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Rooms,
    Create(RoomSettings),
    Join(RoomId),
    Watch(RoomId),
    /// The point or move as typed; read against the room's board when sent.
    Move(String),
    Say(String),
    Undo,
    Draw,
    NewGame,
    Yes,
    No,
    Cancel,
    Resign,
    /// Give up the room's whole match.
    ResignMatch,
    /// Halve one's clock in an arena game, for one more point on a win.
    Berserk,
    Hint,
    /// A swap opening's decision: `swap white|black|two`.
    Swap(banco_protocol::SwapChoice),
    Board,
    Help,
    Leave,
    Quit,
    /// One game's leaderboard.
    Leaderboard(GameKind),
    /// Someone's profile: this client's own with no name; a bot's with `bot`.
    Profile {
        name: Option<String>,
        bot: Option<Level>,
    },
    /// Log in to an account (the password is asked for next): the named one, or the
    /// name in use.
    Login(Option<String>),
    /// Change the logged-in account's password (asked for next).
    Passwd,
    /// Finished games, only this player's if given (a guest's found without the mark,
    /// `x1` for `~x1`, when nobody else has the name).
    History(Option<String>),
    /// One finished game; `save`: also write it to this record file.
    Replay {
        id: GameId,
        save: Option<String>,
    },
    /// The engine's review of a finished game (analysed on the server, or as stored);
    /// without a number, of the game just finished or replayed.
    Review(Option<GameId>),
    /// Challenge a player by name (`None`: an open challenge anyone may take) to a room
    /// of `settings`; `rated` as typed (`--rated`, `--casual`), else decided when sent.
    Challenge {
        to: Option<String>,
        settings: RoomSettings,
        rated: Option<bool>,
    },
    /// Take a challenge sent to us, or an open one.
    AcceptChallenge(ChallengeId),
    /// Refuse a challenge sent to us, saying why ("not now" unless told).
    DeclineChallenge(ChallengeId, DeclineReason),
    /// Call off our own challenge.
    CancelChallenge(ChallengeId),
    /// Who is on the server.
    Players,
    /// The challenges in play (`None`), or who may challenge us from now on.
    Challenges(Option<ChallengePolicy>),
    /// A tournament request, as sent (every `tournament ...` command but export).
    Tournament(banco_protocol::ClientMsg),
    /// Export a tournament and save it to `file`.
    TournamentExport {
        id: banco_protocol::TournamentId,
        format: banco_protocol::ExportFormat,
        file: String,
    },
}

/// A line that is not a command; `message` says what is wrong and what to write.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct CommandError {
    pub message: String,
}

fn err<T>(message: impl Into<String>) -> Result<T, CommandError> {
    Err(CommandError {
        message: message.into(),
    })
}

/// Reads one line. `Ok(None)` for a blank line or a `#` comment.
pub fn parse(line: &str) -> Result<Option<Command>, CommandError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let (word, rest) = line
        .split_once(char::is_whitespace)
        .map_or((line, ""), |(w, r)| (w, r.trim()));
    let word = word.to_ascii_lowercase();
    let no_args = |c: Command| {
        if rest.is_empty() {
            Ok(Some(c))
        } else {
            err(format!("'{word}' takes nothing after it"))
        }
    };
    match word.as_str() {
        "rooms" | "list" => no_args(Command::Rooms),
        "create" | "new" => parse_create(rest).map(|s| Some(Command::Create(s))),
        "join" => room_id(rest, &word).map(|id| Some(Command::Join(id))),
        "watch" | "spectate" => room_id(rest, &word).map(|id| Some(Command::Watch(id))),
        "move" | "m" | "play" => {
            if rest.is_empty() || rest.split_whitespace().count() > 1 {
                err("write the point to play, like: move 7,7 or move h8")
            } else {
                Ok(Some(Command::Move(rest.to_string())))
            }
        }
        "say" | "chat" => {
            if rest.is_empty() {
                err("write what to say, like: say good game")
            } else {
                Ok(Some(Command::Say(rest.to_string())))
            }
        }
        "undo" => no_args(Command::Undo),
        "draw" => no_args(Command::Draw),
        "newgame" | "rematch" => no_args(Command::NewGame),
        "accept" | "take" if !rest.is_empty() => {
            challenge_id(rest, &word).map(|id| Some(Command::AcceptChallenge(id)))
        }
        "decline" | "refuse" if !rest.is_empty() => {
            let (id, reason) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let id = challenge_id(id, &word)?;
            let reason = match reason.trim() {
                "" => DeclineReason::NotNow,
                why => why.parse().or_else(|e: String| err(e))?,
            };
            Ok(Some(Command::DeclineChallenge(id, reason)))
        }
        "withdraw" if !rest.is_empty() => tournament_id(rest, "withdraw")
            .map(|id| Some(Command::Tournament(ClientMsg::WithdrawTournament(id)))),
        "cancel" if !rest.is_empty() => {
            challenge_id(rest, &word).map(|id| Some(Command::CancelChallenge(id)))
        }
        "yes" | "y" | "accept" => no_args(Command::Yes),
        "no" | "n" | "decline" => no_args(Command::No),
        "cancel" | "withdraw" => no_args(Command::Cancel),
        "resign" if rest.eq_ignore_ascii_case("match") => Ok(Some(Command::ResignMatch)),
        "berserk" => no_args(Command::Berserk),
        "challenge" | "ask" => parse_challenge(rest).map(Some),
        "players" | "people" | "who" => no_args(Command::Players),
        "challenges" => match rest {
            "" => Ok(Some(Command::Challenges(None))),
            policy => policy
                .parse()
                .map(|p| Some(Command::Challenges(Some(p))))
                .or_else(|e: String| err(e)),
        },
        "tournaments" => no_args(Command::Tournament(ClientMsg::ListTournaments)),
        "tournament" | "t" => parse_tournament(rest).map(Some),
        "standings" => tournament_id(rest, "standings")
            .map(|id| Some(Command::Tournament(ClientMsg::ShowTournament(id)))),
        "start" => tournament_id(rest, "start")
            .map(|id| Some(Command::Tournament(ClientMsg::StartTournament(id)))),
        "pair" => tournament_id(rest, "pair")
            .map(|id| Some(Command::Tournament(ClientMsg::PairRound(id)))),
        "result" => parse_result(rest).map(Some),
        "resign" => no_args(Command::Resign),
        "hint" => no_args(Command::Hint),
        "swap" => rest
            .parse()
            .map(|c| Some(Command::Swap(c)))
            .or_else(|e: String| err(e)),
        "board" => no_args(Command::Board),
        "help" | "?" => Ok(Some(Command::Help)),
        "leave" => no_args(Command::Leave),
        "leaderboard" | "ratings" | "top" => match rest {
            "" => Ok(Some(Command::Leaderboard(GameKind::Caro))),
            game => game
                .parse()
                .map(|g| Some(Command::Leaderboard(g)))
                .or_else(|e: String| err(e)),
        },
        "profile" | "info" | "me" => parse_profile(rest).map(Some),
        "login" => match rest.split_whitespace().count() {
            0 => Ok(Some(Command::Login(None))),
            1 => Ok(Some(Command::Login(Some(rest.to_string())))),
            _ => err(
                "write login, or login NAME: the password is never written on the command line, it is asked for next",
            ),
        },
        "passwd" | "password" => {
            if rest.is_empty() {
                Ok(Some(Command::Passwd))
            } else {
                err(
                    "write passwd alone: the passwords are never written on the command line, they are asked for next",
                )
            }
        }
        "history" | "games" => Ok(Some(Command::History(
            (!rest.is_empty()).then(|| rest.to_string()),
        ))),
        "replay" => parse_replay(rest).map(Some),
        "review" | "analyse" | "analyze" if rest.is_empty() => Ok(Some(Command::Review(None))),
        "review" | "analyse" | "analyze" => match rest.trim_start_matches('#').parse::<GameId>() {
            Ok(id) => Ok(Some(Command::Review(Some(id)))),
            Err(_) => err(
                "write the game's number, like: review 12 (or review alone for the game just played or replayed)",
            ),
        },
        "quit" | "exit" => no_args(Command::Quit),
        _ => err(format!("unknown command '{word}': type help for the list")),
    }
}

fn tournament_id(rest: &str, word: &str) -> Result<TournamentId, CommandError> {
    let t = rest.trim().trim_start_matches('#');
    match t.parse::<TournamentId>() {
        Ok(id) if !t.is_empty() => Ok(id),
        _ => err(format!(
            "write the tournament's number, like: {word} 3 (tournaments lists them)"
        )),
    }
}

/// `result ID ROUND BOARD 1-0|0-1|1/2`.
fn parse_result(rest: &str) -> Result<Command, CommandError> {
    let usage = "write the tournament, round, board and result, like: result 3 2 1 1-0 (or 0-1, 1/2, +-, -+, --)";
    let words: Vec<&str> = rest.split_whitespace().collect();
    let [id, round, board, result] = words[..] else {
        return err(usage);
    };
    let number = |w: &str| w.trim_start_matches('#').parse::<u32>().ok();
    let (Some(id), Some(round), Some(board), Some(result)) = (
        number(id),
        number(round),
        number(board),
        BoardResult::parse(result),
    ) else {
        return err(usage);
    };
    Ok(Command::Tournament(ClientMsg::SetResult {
        id,
        round,
        board,
        result,
    }))
}

/// `tournament ...`.
fn parse_tournament(rest: &str) -> Result<Command, CommandError> {
    let (sub, args) = rest
        .split_once(char::is_whitespace)
        .map_or((rest, ""), |(w, r)| (w, r.trim()));
    let sub = sub.to_ascii_lowercase();
    let id = |word: &str| tournament_id(args, word);
    let msg = match sub.as_str() {
        "" | "list" => ClientMsg::ListTournaments,
        "create" | "new" => return parse_tournament_create(args),
        "join" | "enter" => ClientMsg::JoinTournament(id("tournament join")?),
        "withdraw" => ClientMsg::WithdrawTournament(id("tournament withdraw")?),
        "show" | "standings" => ClientMsg::ShowTournament(id("tournament standings")?),
        "start" => ClientMsg::StartTournament(id("tournament start")?),
        "pair" => ClientMsg::PairRound(id("tournament pair")?),
        "pause" => ClientMsg::PauseTournament {
            id: id("tournament pause")?,
            paused: true,
        },
        "resume" => ClientMsg::PauseTournament {
            id: id("tournament resume")?,
            paused: false,
        },
        "round" | "add-round" => ClientMsg::AddRound(id("tournament round")?),
        // The server's bot by its level, or a bot account (`banco bot`) by its name.
        "bot" | "bot-account" => {
            let (t, who) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
            let who = who.trim();
            if who.is_empty() {
                return err(
                    "write the tournament and the server bot's level or a bot account's name, like: tournament bot 3 easy (or tournament bot 3 Rapfi)",
                );
            }
            let id = tournament_id(t, &format!("tournament {sub}"))?;
            match who.parse::<Level>() {
                Ok(level) if sub == "bot" => ClientMsg::AddTournamentBot { id, level },
                _ => ClientMsg::EnterBotAccount {
                    id,
                    name: who.to_string(),
                },
            }
        }
        "remove" => {
            let (t, name) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
            if name.trim().is_empty() {
                return err("write the tournament and the player, like: tournament remove 3 Bình");
            }
            ClientMsg::RemoveEntrant {
                id: tournament_id(t, "tournament remove")?,
                name: name.trim().to_string(),
            }
        }
        "result" => return parse_result(args),
        "bye" | "unbye" => {
            let (t, round) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
            let round = match round.trim() {
                "" => None,
                r => Some(r.parse::<u32>().map_err(|_| CommandError {
                    message: format!(
                        "write the tournament and, if not the next, the round, like: tournament {sub} 3 (or tournament {sub} 3 4)"
                    ),
                })?),
            };
            ClientMsg::RequestBye {
                id: tournament_id(t, "tournament bye")?,
                round,
                cancel: sub == "unbye",
            }
        }
        "export" => {
            let words: Vec<&str> = args.split_whitespace().collect();
            let usage = "write the tournament, the format and the file, like: tournament export 3 trf club.trf (or csv, json)";
            if words.len() < 3 {
                return err(usage);
            }
            let format = match words[1].to_ascii_lowercase().as_str() {
                "trf" => ExportFormat::Trf,
                "csv" => ExportFormat::Csv,
                "json" => ExportFormat::Json,
                _ => return err(usage),
            };
            return Ok(Command::TournamentExport {
                id: tournament_id(words[0], "tournament export")?,
                format,
                file: words[2..].join(" "),
            });
        }
        number
            if number
                .trim_start_matches('#')
                .parse::<TournamentId>()
                .is_ok()
                && args.is_empty() =>
        {
            ClientMsg::ShowTournament(tournament_id(number, "tournament")?)
        }
        other => {
            return err(format!(
                "unknown tournament command '{other}': write tournament create, join, withdraw, start, pair, pause, resume, round, bot, remove, result, bye, unbye, export or standings"
            ));
        }
    };
    Ok(Command::Tournament(msg))
}

/// `tournament create NAME FORMAT GAME [options]`: the name runs up to the format.
fn parse_tournament_create(rest: &str) -> Result<Command, CommandError> {
    let usage = "write the name, the format and the game, like: tournament create Club night swiss caro --rounds 5 (or roundrobin, arena --minutes 30)";
    let words: Vec<&str> = rest.split_whitespace().collect();
    let format_at = words.iter().position(|w| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "swiss" | "roundrobin" | "round-robin" | "rr" | "arena"
        )
    });
    let Some(at) = format_at.filter(|&at| at > 0) else {
        return err(usage);
    };
    let name = words[..at].join(" ");
    let kind = words[at].to_ascii_lowercase();
    // The tournament's own options come out; the rest are the room's, as create has them.
    let mut room_words: Vec<&str> = Vec::new();
    let mut rounds: Option<u32> = None;
    let mut seconds: Option<u32> = None;
    let (mut double, mut berserk) = (false, false);
    let mut bye = ByeValue::Win;
    let mut requested_bye = ByeValue::half();
    let mut forfeit: Option<u32> = None;
    let mut tie_breaks: Option<Vec<TieBreak>> = None;
    let mut start_in: Option<Duration> = None;
    let mut rest_words = words[at + 1..].iter().copied();
    while let Some(w) = rest_words.next() {
        let (name, inline) = match w.split_once('=') {
            Some((n, v)) => (n.to_ascii_lowercase(), Some(v.to_string())),
            None => (w.to_ascii_lowercase(), None),
        };
        let mut value = |what: &str| -> Result<String, CommandError> {
            inline
                .clone()
                .or_else(|| rest_words.next().map(str::to_string))
                .ok_or_else(|| CommandError {
                    message: format!("{what} needs a value"),
                })
        };
        let count = |v: String, what: &str| -> Result<u32, CommandError> {
            v.parse::<u32>().map_err(|_| CommandError {
                message: format!("{what} takes a whole number, not '{v}'"),
            })
        };
        match name.as_str() {
            "--rounds" => rounds = Some(count(value("--rounds")?, "--rounds")?),
            "--minutes" => {
                seconds = Some(count(value("--minutes")?, "--minutes")?.saturating_mul(60))
            }
            "--seconds" => seconds = Some(count(value("--seconds")?, "--seconds")?),
            "--double" => double = true,
            "--berserk" => berserk = true,
            "--bye" | "--requested-bye" => {
                let worth = match value(&name)?.to_ascii_lowercase().as_str() {
                    "win" | "1" => ByeValue::Win,
                    "draw" | "half" | "1/2" => ByeValue::Draw,
                    "nothing" | "0" | "none" => ByeValue::Nothing,
                    other => {
                        return err(format!("{name} is win, draw or nothing, not '{other}'"));
                    }
                };
                if name == "--bye" {
                    bye = worth;
                } else {
                    requested_bye = worth;
                }
            }
            "--forfeit" => {
                let v = value("--forfeit")?;
                let d = parse_duration(&v).map_err(|e| CommandError {
                    message: format!("--forfeit: {e}"),
                })?;
                forfeit = Some(u32::try_from(d.as_secs()).unwrap_or(u32::MAX));
            }
            "--start-in" => {
                let v = value("--start-in")?;
                start_in = Some(parse_duration(&v).map_err(|e| CommandError {
                    message: format!("--start-in: {e}"),
                })?);
            }
            "--tie-breaks" | "--tiebreaks" => {
                let v = value("--tie-breaks")?;
                let list = TieBreak::parse_list(&v);
                tie_breaks = Some(list.ok_or_else(|| CommandError {
                    message: format!(
                        "--tie-breaks takes a list like bh-c1,bh,sb,de,win,won, not '{v}'"
                    ),
                })?);
            }
            _ => room_words.push(w),
        }
    }
    let format = match kind.as_str() {
        "swiss" => TournamentFormat::Swiss {
            rounds: rounds.unwrap_or(5),
        },
        "arena" => TournamentFormat::Arena {
            seconds: seconds.unwrap_or(30 * 60),
            berserk,
        },
        _ => TournamentFormat::RoundRobin { double },
    };
    let (room, rated) = parse_room(&room_words.join(" "), "tournament create ... swiss")?;
    if room.seats != [SeatKind::Human, SeatKind::Human] {
        return err(
            "a tournament's seats are its players': leave out --bot (enter bots with tournament bot ID LEVEL)",
        );
    }
    let mut settings = TournamentSettings::new(name, format, room);
    settings.rated = rated.unwrap_or(true);
    settings.room.rated = settings.rated;
    settings.bye = bye;
    settings.requested_bye = requested_bye;
    if let Some(f) = forfeit {
        settings.forfeit_secs = f;
    }
    if let Some(t) = tie_breaks {
        settings.tie_breaks = t;
    }
    if let Some(wait) = start_in {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap_or_default();
        let at = now.saturating_add(wait).as_millis();
        settings.start = banco_protocol::TournamentStart::At {
            unix_ms: u64::try_from(at).unwrap_or(u64::MAX),
        };
    }
    Ok(Command::Tournament(ClientMsg::CreateTournament(Box::new(
        settings,
    ))))
}

fn challenge_id(rest: &str, word: &str) -> Result<ChallengeId, CommandError> {
    let t = rest.trim().trim_start_matches('#');
    match t.parse::<ChallengeId>() {
        Ok(id) if !t.is_empty() => Ok(id),
        _ => err(format!(
            "write the challenge's number, like: {word} 3 (challenges lists them)"
        )),
    }
}

/// `challenge NAME [GAME] [options]` or `challenge --open [GAME] [options]`: the name
/// runs up to the game or the first option, so `challenge Bot (max) caro` works.
fn parse_challenge(rest: &str) -> Result<Command, CommandError> {
    let usage = "write whom to challenge and the game, like: challenge Bình caro --clock 5m+3s \
                 (or challenge --open caro for anyone)";
    let words: Vec<&str> = rest.split_whitespace().collect();
    let is_game = |w: &str| {
        matches!(
            w.to_ascii_lowercase().as_str(),
            "caro" | "gomoku" | "xiangqi"
        )
    };
    let (to, rest_words) = if words
        .first()
        .is_some_and(|w| w.eq_ignore_ascii_case("--open"))
    {
        (None, &words[1..])
    } else {
        let end = words
            .iter()
            .position(|w| is_game(w) || w.starts_with("--"))
            .unwrap_or(words.len());
        if end == 0 {
            return err(usage);
        }
        (Some(words[..end].join(" ")), &words[end..])
    };
    let mut room = rest_words.to_vec();
    if room.first().is_none_or(|w| !is_game(w)) {
        room.insert(0, "caro");
    }
    let (settings, rated) = parse_room(&room.join(" "), "challenge")?;
    if settings.seats != [SeatKind::Human, SeatKind::Human] {
        return err(
            "a challenge is between two people: leave out --bot (to play the server's bot, \
             challenge it by name: challenge Bot (max) caro)",
        );
    }
    Ok(Command::Challenge {
        to,
        settings,
        rated,
    })
}

fn room_id(rest: &str, word: &str) -> Result<RoomId, CommandError> {
    let t = rest.trim().trim_start_matches('#');
    match t.parse::<RoomId>() {
        Ok(id) if !t.is_empty() => Ok(id),
        _ => err(format!("write the room number, like: {word} 3")),
    }
}

/// `profile [NAME | --bot LEVEL]`.
fn parse_profile(rest: &str) -> Result<Command, CommandError> {
    let words: Vec<&str> = rest.split_whitespace().collect();
    match words.as_slice() {
        [] => Ok(Command::Profile {
            name: None,
            bot: None,
        }),
        ["--bot", level] => Ok(Command::Profile {
            name: None,
            bot: Some(parse_level(level)?),
        }),
        [name] if !name.starts_with("--") => Ok(Command::Profile {
            name: Some(name.to_string()),
            bot: None,
        }),
        _ => err("write profile, profile NAME, or profile --bot LEVEL"),
    }
}

/// `replay GAME [--save FILE]`.
fn parse_replay(rest: &str) -> Result<Command, CommandError> {
    let mut words = rest.split_whitespace();
    let usage = "write the game's number, like: replay 12 (or replay 12 --save game.txt)";
    let id = match words
        .next()
        .map(|w| w.trim_start_matches('#').parse::<GameId>())
    {
        Some(Ok(id)) => id,
        _ => return err(usage),
    };
    let save = match (words.next(), words.next(), words.next()) {
        (None, _, _) => None,
        (Some("--save"), Some(file), None) => Some(file.to_string()),
        (Some(w), _, _) if w.starts_with("--save=") => match w.split_once('=') {
            Some((_, f)) if !f.is_empty() => Some(f.to_string()),
            _ => return err(usage),
        },
        _ => return err(usage),
    };
    Ok(Command::Replay { id, save })
}

/// `create GAME [options]`.
fn parse_create(rest: &str) -> Result<RoomSettings, CommandError> {
    let (mut settings, rated) = parse_room(rest, "create")?;
    settings.rated = rated.unwrap_or(true);
    Ok(settings)
}

/// A room's settings as `create` and `challenge` take them (`word` is which), and
/// `--rated` or `--casual` if given.
fn parse_room(rest: &str, word: &str) -> Result<(RoomSettings, Option<bool>), CommandError> {
    let mut words = rest.split_whitespace();
    let game = words.next().map(str::to_ascii_lowercase);
    let mut options: Vec<(String, Option<String>)> = Vec::new();
    let mut pending: Vec<&str> = words.collect();
    pending.reverse();
    while let Some(w) = pending.pop() {
        let Some(opt) = w.strip_prefix("--") else {
            return err(format!(
                "'{w}' is not an option: options start with --, like --size 15"
            ));
        };
        let (name, value) = match opt.split_once('=') {
            Some((n, v)) => (n.to_ascii_lowercase(), Some(v.to_string())),
            None => {
                let n = opt.to_ascii_lowercase();
                let takes_value = !matches!(n.as_str(), "no-hints" | "hints" | "rated" | "casual");
                let v = if n == "fen" || n == "opening" {
                    // A FEN has spaces, and opening stones may: it runs to the next
                    // option.
                    let mut parts = Vec::new();
                    while let Some(p) = pending.pop() {
                        if p.starts_with("--") {
                            pending.push(p);
                            break;
                        }
                        parts.push(p);
                    }
                    (!parts.is_empty()).then(|| parts.join(" "))
                } else if takes_value {
                    match pending.pop() {
                        Some(v) if v.starts_with("--") => {
                            pending.push(v);
                            None
                        }
                        v => v.map(str::to_string),
                    }
                } else {
                    None
                };
                (n, v)
            }
        };
        if options.iter().any(|(n, _)| *n == name) {
            return err(format!("--{name} is given twice"));
        }
        options.push((name, value));
    }
    let mut settings = RoomSettings::default();
    let value = |name: &str, v: &Option<String>| -> Result<String, CommandError> {
        v.clone().ok_or_else(|| CommandError {
            message: format!("--{name} needs a value"),
        })
    };
    let is_caro = match game.as_deref() {
        Some("caro") | Some("gomoku") => true,
        Some("xiangqi") => {
            settings.game = GameSettings::Xiangqi { fen: None };
            false
        }
        Some(other) => {
            return err(format!(
                "unknown game '{other}': write {word} caro or {word} xiangqi"
            ));
        }
        None => return err(format!("write which game: {word} caro [options]")),
    };
    let mut rated = None;
    let (mut width, mut height, mut rule) = (15u8, 15u8, Rule::Caro);
    let mut bot = None;
    let mut vs_bot = None;
    let mut time_given = None;
    let mut opening = None;
    let (mut match_games, mut first_to) = (None, None);
    for (name, v) in &options {
        match name.as_str() {
            "size" if is_caro => (width, height) = parse_size(&value(name, v)?)?,
            "rule" if is_caro => {
                rule = value(name, v)?.parse().map_err(
                    |e: banco_rules::caro::rules::UnknownRule| CommandError {
                        message: e.to_string(),
                    },
                )?
            }
            "opening" if is_caro => opening = Some(value(name, v)?),
            "fen" if !is_caro => {
                settings.game = GameSettings::Xiangqi {
                    fen: Some(value(name, v)?.trim_matches('"').to_string()),
                };
            }
            "first" | "colour" | "color" => {
                settings.first = match value(name, v)?.to_ascii_lowercase().as_str() {
                    "me" | "mine" => FirstMove::Me,
                    "them" | "opponent" | "theirs" => FirstMove::Them,
                    "random" => FirstMove::Random,
                    other => {
                        return err(format!(
                            "--{name} is me (mine), them (theirs) or random, not '{other}'"
                        ));
                    }
                }
            }
            "rated" | "casual" => {
                if rated.is_some() {
                    return err("choose one of --rated and --casual");
                }
                rated = Some(name == "rated");
            }
            "timer" | "clock" => {
                if let Some(prev) = time_given {
                    return err(format!("choose one of --{prev} and --{name}"));
                }
                time_given = Some(name.clone());
                settings.time = parse_time(name, &value(name, v)?)?;
            }
            "bot" => bot = Some(parse_level(&value(name, v)?)?),
            "vs-bot" => vs_bot = Some(parse_level(&value(name, v)?)?),
            "no-hints" => settings.hints = false,
            "hints" => settings.hints = true,
            "match" => match_games = Some(parse_count(name, &value(name, v)?)?),
            "first-to" => first_to = Some(parse_count(name, &value(name, v)?)?),
            other => {
                let game = if is_caro { "caro" } else { "xiangqi" };
                return err(format!(
                    "--{other} is not an option of {word} {game}: type help"
                ));
            }
        }
    }
    if is_caro {
        let opening = match opening.as_deref().map(str::trim) {
            None => CaroOpening::None,
            Some(t) if t.eq_ignore_ascii_case("none") => CaroOpening::None,
            Some(t) if t.eq_ignore_ascii_case("balanced") => CaroOpening::Balanced,
            Some(t) if t.eq_ignore_ascii_case("swap1") => CaroOpening::Swap1,
            Some(t) if t.eq_ignore_ascii_case("swap2") => CaroOpening::Swap2,
            Some(t) => CaroOpening::Stones(checked_stones(t, width, height, rule).map_err(
                |e| CommandError {
                    message: format!(
                        "--opening is none, balanced, swap1, swap2 or the stones (X first, like h8,i9,h10): {e}"
                    ),
                },
            )?),
        };
        settings.game = GameSettings::Caro {
            width,
            height,
            rule,
            opening,
        };
    }
    settings.seats = match (bot, vs_bot) {
        (None, None) => [SeatKind::Human, SeatKind::Human],
        (Some(b), None) => [SeatKind::Human, SeatKind::Bot(b)],
        (Some(b), Some(v)) => [SeatKind::Bot(b), SeatKind::Bot(v)],
        (None, Some(_)) => return err("--vs-bot needs --bot too: --bot hard --vs-bot easy"),
    };
    settings.match_format = match (match_games, first_to) {
        (None, None) => None,
        // First to K alone: in at most 2K - 1 games, as first to 5 of 9.
        (None, Some(k)) => Some(MatchFormat {
            games: (2 * k).saturating_sub(1).min(MAX_MATCH_GAMES),
            first_to: Some(k),
        }),
        (Some(games), first_to) => Some(MatchFormat { games, first_to }),
    };
    if let Some(format) = settings.match_format {
        format.check().map_err(|message| CommandError { message })?;
    }
    Ok((settings, rated))
}

/// A count of games for `--match` or `--first-to`.
fn parse_count(option: &str, text: &str) -> Result<u32, CommandError> {
    text.trim().parse::<u32>().map_err(|_| CommandError {
        message: format!("--{option} takes a number of games, like --{option} 5, not '{text}'"),
    })
}

/// `15`, `15x20`, `20X15`.
pub fn parse_size(text: &str) -> Result<(u8, u8), CommandError> {
    banco_rules::caro::notation::parse_size(text).map_err(|message| CommandError { message })
}

/// `--timer 20s` (per move) or `--clock 5m+3s` (game clock; `5m` means no increment).
fn parse_time(option: &str, text: &str) -> Result<TimeControl, CommandError> {
    let bad = |e: banco_protocol::TimeError| CommandError {
        message: e.to_string(),
    };
    let positive = |d: Duration| {
        if d.is_zero() {
            err(format!("--{option} must be more than zero"))
        } else {
            Ok(d)
        }
    };
    if option == "timer" {
        let d = positive(parse_duration(text.trim_end_matches("/move")).map_err(bad)?)?;
        return Ok(TimeControl::per_move(d));
    }
    let (base, inc) = match text.split_once('+') {
        Some((b, i)) => (
            parse_duration(b).map_err(bad)?,
            parse_duration(i).map_err(bad)?,
        ),
        None => (parse_duration(text).map_err(bad)?, Duration::ZERO),
    };
    Ok(TimeControl::clock(positive(base)?, inc))
}

fn parse_level(text: &str) -> Result<Level, CommandError> {
    text.parse()
        .map_err(|e: banco_rules::UnknownLevel| CommandError {
            message: e.to_string(),
        })
}

/// The commands, and the locale key of what each does, for `help`.
pub const HELP: &[(&str, &str)] = &[
    ("rooms", "plain.help_rooms"),
    (
        "create caro [--size WxH|N] [--rule caro|freestyle|standard|caro-overline|renju] [--opening none|balanced|swap1|swap2|h8,i9,h10] [--first me|them|random] [--timer 20s | --clock 5m+3s] [--bot LEVEL [--vs-bot LEVEL]] [--no-hints] [--match N [--first-to K]]",
        "plain.help_create",
    ),
    (
        "create ... --match N [--first-to K]",
        "plain.help_create_match",
    ),
    ("join ROOM", "plain.help_join"),
    ("watch ROOM", "plain.help_watch"),
    (
        "create xiangqi [--clock 10m+5s | --timer 60s] [--first me|them|random] [--bot LEVEL [--vs-bot LEVEL]] [--fen FEN] [--no-hints] [--match N [--first-to K]]",
        "plain.help_create_xiangqi",
    ),
    ("move X,Y | move h8 | move h2e2", "plain.help_move"),
    ("say TEXT", "plain.help_say"),
    ("undo", "plain.help_undo"),
    ("newgame", "plain.help_newgame"),
    ("draw", "plain.help_draw"),
    ("yes | no", "plain.help_answer"),
    ("cancel", "plain.help_cancel"),
    ("resign", "plain.help_resign"),
    ("resign match", "plain.help_resign_match"),
    ("berserk", "plain.help_berserk"),
    ("hint", "plain.help_hint"),
    ("swap white|black|two", "plain.help_swap"),
    ("board", "plain.help_board"),
    ("leaderboard [caro|xiangqi]", "plain.help_leaderboard"),
    ("profile [NAME | --bot LEVEL]", "plain.help_profile"),
    ("login [NAME]", "plain.help_login"),
    ("passwd", "plain.help_passwd"),
    ("history [NAME]", "plain.help_history"),
    ("replay GAME [--save FILE]", "plain.help_replay"),
    ("review [GAME]", "plain.help_review"),
    ("players", "plain.help_players"),
    (
        "challenge NAME [caro|xiangqi] [create's options] [--colour mine|theirs|random] [--rated|--casual]",
        "plain.help_challenge",
    ),
    (
        "challenge --open [caro|xiangqi] [options]",
        "plain.help_challenge_open",
    ),
    (
        "accept ID | decline ID [REASON] | cancel ID",
        "plain.help_challenge_answer",
    ),
    ("challenges [on|off|accounts]", "plain.help_challenges"),
    ("tournaments", "plain.help_tournaments"),
    (
        "tournament create NAME swiss|roundrobin|arena caro|xiangqi [create's options] [--rounds N] [--double] [--minutes M] [--berserk] [--bye win|draw|nothing] [--requested-bye draw|win|nothing] [--forfeit 2m] [--tie-breaks bh-c1,bh,sb,de,win] [--start-in 10m] [--rated|--casual]",
        "plain.help_tournament_create",
    ),
    (
        "tournament join|withdraw|start|pair|pause|resume|round ID",
        "plain.help_tournament_actions",
    ),
    (
        "tournament bot ID LEVEL|BOT-ACCOUNT | tournament bot-account ID NAME | tournament remove ID NAME",
        "plain.help_tournament_entrants",
    ),
    (
        "tournament bye ID [ROUND] | tournament unbye ID [ROUND]",
        "plain.help_tournament_bye",
    ),
    ("standings ID | tournament ID", "plain.help_standings"),
    ("result ID ROUND BOARD 1-0|0-1|1/2", "plain.help_result"),
    (
        "tournament export ID trf|csv|json FILE",
        "plain.help_tournament_export",
    ),
    ("leave", "plain.help_leave"),
    ("quit", "plain.help_quit"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn create(line: &str) -> RoomSettings {
        match parse(line) {
            Ok(Some(Command::Create(s))) => s,
            other => panic!("{line:?} gave {other:?}"),
        }
    }

    fn refused(line: &str) -> String {
        match parse(line) {
            Err(e) => e.message,
            other => panic!("{line:?} was accepted as {other:?}"),
        }
    }

    #[test]
    fn tournament_commands_read_into_their_messages() {
        let t = |line: &str| match parse(line) {
            Ok(Some(Command::Tournament(m))) => m,
            other => panic!("{line:?} gave {other:?}"),
        };
        let ClientMsg::CreateTournament(s) =
            t("tournament create Club night swiss caro --size 9 --rounds 3 --casual")
        else {
            panic!("a create")
        };
        assert_eq!(s.name, "Club night");
        assert_eq!(s.format, TournamentFormat::Swiss { rounds: 3 });
        assert!(!s.rated);
        assert_eq!(s.room.match_format, Some(MatchFormat::MINI));
        let ClientMsg::CreateTournament(s) =
            t("tournament create Blitz arena xiangqi --minutes 20 --berserk --clock 3m+2s")
        else {
            panic!("a create")
        };
        assert_eq!(
            s.format,
            TournamentFormat::Arena {
                seconds: 1200,
                berserk: true
            }
        );
        assert_eq!(s.room.match_format, None);
        let ClientMsg::CreateTournament(s) =
            t("tournament create Later roundrobin caro --double --start-in 10m --bye draw")
        else {
            panic!("a create")
        };
        assert_eq!(s.format, TournamentFormat::RoundRobin { double: true });
        assert!(matches!(
            s.start,
            banco_protocol::TournamentStart::At { .. }
        ));
        assert_eq!(s.bye, ByeValue::Draw);
        assert_eq!(s.requested_bye, ByeValue::Draw, "half a point unless said");
        let ClientMsg::CreateTournament(s) =
            t("tournament create Open swiss caro --rounds 5 --requested-bye nothing")
        else {
            panic!("a create")
        };
        assert_eq!(s.requested_bye, ByeValue::Nothing);
        assert_eq!(
            t("tournament bye 4"),
            ClientMsg::RequestBye {
                id: 4,
                round: None,
                cancel: false
            }
        );
        assert_eq!(
            t("tournament unbye 4 3"),
            ClientMsg::RequestBye {
                id: 4,
                round: Some(3),
                cancel: true
            }
        );
        assert!(refused("tournament bye 4 next").contains("tournament bye 3"));
        assert_eq!(t("tournaments"), ClientMsg::ListTournaments);
        assert_eq!(t("tournament join 4"), ClientMsg::JoinTournament(4));
        assert_eq!(t("withdraw 4"), ClientMsg::WithdrawTournament(4));
        assert_eq!(t("start 4"), ClientMsg::StartTournament(4));
        assert_eq!(t("pair 4"), ClientMsg::PairRound(4));
        assert_eq!(t("standings 4"), ClientMsg::ShowTournament(4));
        assert_eq!(
            t("result 4 2 1 1/2"),
            ClientMsg::SetResult {
                id: 4,
                round: 2,
                board: 1,
                result: BoardResult::Draw
            }
        );
        assert_eq!(
            t("tournament bot 4 hard"),
            ClientMsg::AddTournamentBot {
                id: 4,
                level: Level::Hard
            }
        );
        // A bot account by its name; `bot-account` for one named like a level.
        assert_eq!(
            t("tournament bot 4 Rapfi 2"),
            ClientMsg::EnterBotAccount {
                id: 4,
                name: "Rapfi 2".into()
            }
        );
        assert_eq!(
            t("tournament bot-account 4 Hard"),
            ClientMsg::EnterBotAccount {
                id: 4,
                name: "Hard".into()
            }
        );
        assert!(parse("tournament bot 4").is_err());
        assert!(matches!(
            parse("tournament export 4 trf club.trf"),
            Ok(Some(Command::TournamentExport {
                id: 4,
                format: ExportFormat::Trf,
                ..
            }))
        ));
        assert!(refused("result 4 2 1 2-0").contains("result"));
        assert!(refused("tournament create swiss caro").contains("name"));
        assert!(refused("tournament create X swiss caro --bot easy").contains("bot"));
    }

    #[test]
    fn create_takes_a_match_of_n_games_or_first_to_k() {
        let format = |line: &str| create(line).match_format;
        assert_eq!(format("create caro"), None);
        assert_eq!(
            format("create caro --match 9 --first-to 5"),
            Some(MatchFormat {
                games: 9,
                first_to: Some(5)
            })
        );
        assert_eq!(format("create xiangqi --match=2"), Some(MatchFormat::MINI));
        assert_eq!(
            format("create caro --first-to 3 --bot easy"),
            Some(MatchFormat {
                games: 5,
                first_to: Some(3)
            }),
            "first to K alone: in at most 2K - 1 games"
        );
        assert!(refused("create caro --match 0").contains("1 to 99 games"));
        assert!(refused("create caro --match 3 --first-to 4").contains("first to 4"));
        assert!(refused("create caro --match lots").contains("number of games"));
        assert!(refused("create caro --match").contains("needs a value"));
        assert_eq!(parse("resign match"), Ok(Some(Command::ResignMatch)));
        assert_eq!(parse("RESIGN Match"), Ok(Some(Command::ResignMatch)));
        assert!(parse("resign the game").is_err());
    }

    #[test]
    fn simple_commands() {
        assert_eq!(parse("rooms"), Ok(Some(Command::Rooms)));
        assert_eq!(parse("  JOIN 3 "), Ok(Some(Command::Join(3))));
        assert_eq!(parse("join #12"), Ok(Some(Command::Join(12))));
        assert_eq!(parse("watch 4"), Ok(Some(Command::Watch(4))));
        assert_eq!(parse("move 7,7"), Ok(Some(Command::Move("7,7".into()))));
        assert_eq!(parse("move h8"), Ok(Some(Command::Move("h8".into()))));
        assert_eq!(
            parse("say  Chào bạn,  good luck "),
            Ok(Some(Command::Say("Chào bạn,  good luck".into())))
        );
        for (line, c) in [
            ("undo", Command::Undo),
            ("yes", Command::Yes),
            ("no", Command::No),
            ("cancel", Command::Cancel),
            ("newgame", Command::NewGame),
            ("resign", Command::Resign),
            ("draw", Command::Draw),
            ("hint", Command::Hint),
            ("leave", Command::Leave),
            ("quit", Command::Quit),
            ("help", Command::Help),
            ("board", Command::Board),
        ] {
            assert_eq!(parse(line), Ok(Some(c)), "{line}");
        }
        assert_eq!(
            parse("leaderboard"),
            Ok(Some(Command::Leaderboard(GameKind::Caro)))
        );
        assert_eq!(
            parse("leaderboard XiangQi"),
            Ok(Some(Command::Leaderboard(GameKind::Xiangqi)))
        );
        assert!(parse("leaderboard chess").is_err());
        assert_eq!(
            parse("profile"),
            Ok(Some(Command::Profile {
                name: None,
                bot: None
            }))
        );
        assert_eq!(
            parse("profile Bình"),
            Ok(Some(Command::Profile {
                name: Some("Bình".into()),
                bot: None
            }))
        );
        assert_eq!(
            parse("profile --bot HARD"),
            Ok(Some(Command::Profile {
                name: None,
                bot: Some(Level::Hard)
            }))
        );
        assert!(parse("profile --bot great").is_err());
        assert_eq!(parse("login"), Ok(Some(Command::Login(None))));
        assert_eq!(
            parse("login An"),
            Ok(Some(Command::Login(Some("An".into()))))
        );
        assert_eq!(parse("passwd"), Ok(Some(Command::Passwd)));
        // A password typed on the line is refused, and says how instead.
        let e = parse("login An hunter22").unwrap_err();
        assert!(e.message.contains("never written"), "{}", e.message);
        assert!(parse("passwd old new").is_err());
        assert_eq!(parse("history"), Ok(Some(Command::History(None))));
        assert_eq!(
            parse("history Bình Minh"),
            Ok(Some(Command::History(Some("Bình Minh".into()))))
        );
        assert_eq!(
            parse("replay #12"),
            Ok(Some(Command::Replay { id: 12, save: None }))
        );
        assert_eq!(
            parse("replay 12 --save a game.txt"),
            Err(CommandError {
                message: "write the game's number, like: replay 12 (or replay 12 --save game.txt)"
                    .into()
            })
        );
        assert_eq!(
            parse("replay 3 --save=g.txt"),
            Ok(Some(Command::Replay {
                id: 3,
                save: Some("g.txt".into())
            }))
        );
        assert!(parse("replay").is_err() && parse("replay x").is_err());
        assert_eq!(parse("review #12"), Ok(Some(Command::Review(Some(12)))));
        assert_eq!(parse("review"), Ok(Some(Command::Review(None))));
        assert!(parse("review twelve").is_err());
        assert_eq!(parse(""), Ok(None));
        assert_eq!(parse("   # a comment"), Ok(None));
    }

    #[test]
    fn bad_lines_say_what_to_write() {
        assert!(refused("dance").contains("unknown command 'dance'"));
        assert!(refused("join").contains("room number"));
        assert!(refused("join x").contains("room number"));
        assert!(refused("move").contains("move 7,7"));
        assert!(refused("move 7, 7").contains("move 7,7"));
        assert!(refused("say").contains("say good game"));
        assert!(refused("undo now").contains("takes nothing"));
        assert!(refused("create").contains("which game"));
        assert!(refused("create chess").contains("unknown game"));
        assert!(refused("create caro --size 4").contains("5 to 64"));
        assert!(refused("create caro --size 65x20").contains("5 to 64"));
        assert!(refused("create caro --size big").contains("not a board size"));
        assert!(refused("create caro --size").contains("needs a value"));
        assert!(refused("create caro --rule gomoku-pro").contains("unknown rule"));
        assert_eq!(
            parse("swap white"),
            Ok(Some(Command::Swap(banco_protocol::SwapChoice::White)))
        );
        assert_eq!(
            parse("swap two"),
            Ok(Some(Command::Swap(banco_protocol::SwapChoice::PlaceTwo)))
        );
        assert!(parse("swap grey").is_err());
        assert!(refused("create caro --first who").contains("me (mine), them (theirs) or random"));
        assert!(refused("create caro --timer 20s --clock 5m+3s").contains("choose one"));
        assert!(refused("create caro --timer 0s").contains("more than zero"));
        assert!(refused("create caro --timer soon").contains("not a time"));
        assert!(refused("create caro --bot genius").contains("unknown level"));
        assert!(refused("create caro --vs-bot easy").contains("needs --bot"));
        assert!(refused("create caro --colour red").contains("not 'red'"));
        assert!(refused("create caro 15").contains("not an option"));
        assert!(refused("create caro --size 15 --size 19").contains("twice"));
        assert!(refused("create caro --opening").contains("needs a value"));
        assert!(refused("create caro --opening h8,z9").contains("opening stone 2"));
        assert!(refused("create caro --opening h8 h8").contains("already holds"));
        assert!(refused("create caro --size 9 --opening j1").contains("off the 9x9 board"));
        assert!(refused("create xiangqi --opening balanced").contains("not an option"));
    }

    #[test]
    fn create_caro_takes_an_opening() {
        let opening = |line: &str| match create(line).game {
            GameSettings::Caro { opening, .. } => opening,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            opening("create caro --opening balanced"),
            CaroOpening::Balanced
        );
        assert_eq!(opening("create caro --opening=None"), CaroOpening::None);
        assert_eq!(
            opening("create caro --rule renju --opening swap2"),
            CaroOpening::Swap2
        );
        assert_eq!(opening("create caro --opening Swap1"), CaroOpening::Swap1);
        assert!(matches!(
            create("create caro --rule renju").game,
            GameSettings::Caro {
                rule: banco_protocol::Rule::Renju,
                ..
            }
        ));
        let p = banco_protocol::Point::new;
        let stones = CaroOpening::Stones(vec![p(7, 7), p(8, 6), p(7, 5)]);
        assert_eq!(
            opening("create caro --opening h8,i9,h10 --bot easy"),
            stones
        );
        assert_eq!(
            opening("create caro --opening 7,7 8,6 7,5 --first them"),
            stones
        );
        // Points are read on the board given, wherever --size comes.
        let wide = opening("create caro --opening 30,2 --size 40x20");
        assert_eq!(wide, CaroOpening::Stones(vec![p(30, 2)]));
    }

    #[test]
    fn create_reads_every_option() {
        assert_eq!(create("create caro"), RoomSettings::default());
        let s = create(
            "create caro --size 20x15 --rule freestyle --first random --clock 5m+3s --bot hard",
        );
        assert_eq!(
            s.game,
            GameSettings::Caro {
                width: 20,
                height: 15,
                rule: Rule::Freestyle,
                opening: CaroOpening::None,
            }
        );
        assert_eq!(s.first, FirstMove::Random);
        assert_eq!(
            s.time,
            TimeControl::clock(Duration::from_secs(300), Duration::from_secs(3))
        );
        assert_eq!(s.seats, [SeatKind::Human, SeatKind::Bot(Level::Hard)]);
        assert!(s.hints);

        let s = create("create caro --size=19 --rule=standard --timer=20s --first them --no-hints");
        assert_eq!(
            s.game,
            GameSettings::Caro {
                width: 19,
                height: 19,
                rule: Rule::Standard,
                opening: CaroOpening::None,
            }
        );
        assert_eq!(s.time, TimeControl::PerMove { millis: 20_000 });
        assert_eq!(s.first, FirstMove::Them);
        assert!(!s.hints);

        let s = create("create caro --clock 10m --bot max --vs-bot easy");
        assert_eq!(
            s.time,
            TimeControl::clock(Duration::from_secs(600), Duration::ZERO)
        );
        assert_eq!(
            s.seats,
            [SeatKind::Bot(Level::Max), SeatKind::Bot(Level::Easy)]
        );

        let s = create("create xiangqi --clock 10m+5s --bot medium");
        assert_eq!(s.game, GameSettings::Xiangqi { fen: None });
        assert_eq!(s.seats, [SeatKind::Human, SeatKind::Bot(Level::Medium)]);
        let s = create("create xiangqi --fen 4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1 --first them");
        assert_eq!(
            s.game,
            GameSettings::Xiangqi {
                fen: Some("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1".into())
            }
        );
        assert_eq!(s.first, FirstMove::Them);
    }
}
