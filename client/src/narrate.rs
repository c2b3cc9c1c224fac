//! Sentences about what happens in a room, in the user's language: the terminal
//! client's status line and the plain mode's text lines tell the same story.

use banco_protocol::{
    CaroOpening, EndReason, ErrorCode, GameOver, GameSettings, MatchEnd, MatchFormat, MatchGame,
    MatchResult, MoveRecord, Offer, OfferKind, Role, RoomSummary, Seat, SeatKind,
};

use banco_rules::caro::NotAWin;

use crate::locale::Locale;
use crate::room::Room;
use crate::room::clock::time_control_text;
use crate::tr;

/// A seat's colour or stone: `X`/`O` in caro, Red/Black in xiangqi.
pub fn side(room: &Room, seat: Seat, loc: &Locale) -> String {
    match room.settings.game {
        GameSettings::Caro { .. } => room.stone_letter(seat).to_string(),
        GameSettings::Xiangqi { .. } => {
            let key = match room.color_of(seat) {
                Some(banco_rules::xiangqi::piece::Color::Black) => "side.black",
                _ => "side.red",
            };
            tr!(loc, key).to_string()
        }
    }
}

/// Who sits in a seat: their name (a bot account's with its BOT tag), `Bot (hard)` for
/// the server's bot, or "free seat".
pub fn seat_name(room: &Room, seat: Seat, loc: &Locale) -> String {
    match room.player(seat) {
        Some(s) => match s.bot {
            Some(level) => tr!(loc, "seat.bot", level = level_name(level, loc)),
            None => crate::challenges::tagged(&s.name, s.bot_account, loc),
        },
        None => tr!(loc, "seat.free").to_string(),
    }
}

/// Who sits in `seat` now, for the list of people in the room: a player who left the
/// game still named in its result is not sitting there (`free seat (Pat left)`).
pub fn sitting_name(room: &Room, seat: Seat, loc: &Locale) -> String {
    match room.player(seat) {
        Some(left) if room.departed(seat) => tr!(loc, "seat.free_after", name = left.name),
        _ => seat_name(room, seat, loc),
    }
}

/// A bot level in the user's language.
pub fn level_name(level: banco_protocol::Level, loc: &Locale) -> String {
    tr!(loc, &format!("level.{}", level.name())).to_string()
}

/// `An (X)`.
pub fn seat_label(room: &Room, seat: Seat, loc: &Locale) -> String {
    format!("{} ({})", seat_name(room, seat, loc), side(room, seat, loc))
}

/// `An (X) played h8`.
pub fn moved(room: &Room, record: &MoveRecord, loc: &Locale) -> String {
    let mut point = room.move_text(&record.mv);
    if !record.wxf.is_empty() {
        point = format!("{point} ({})", record.wxf);
    }
    // Caro places a stone ("đánh"); xiangqi moves a piece ("đi").
    let key = match record.mv {
        banco_protocol::Move::Caro(_) => "event.moved",
        banco_protocol::Move::Xiangqi { .. } => "event.moved_piece",
    };
    let mut s = tr!(
        loc,
        key,
        name = seat_name(room, record.by, loc),
        stone = side(room, record.by, loc),
        point = point
    );
    if record.check {
        s.push_str(tr!(loc, "event.check"));
    }
    if let Some(why) = not_a_win(room, record) {
        s = tr!(
            loc,
            "event.moved_no_win",
            moved = s,
            why = not_a_win_text(why, loc)
        );
    }
    s
}

/// Why the caro move `record` (already on the room's board) made five in a row that
/// does not win under the room's rule, if it did: blocked at both ends under the caro
/// rule, or an overline where only exactly five wins. Without this the game would just
/// go on, and the player would not know why.
pub fn not_a_win(room: &Room, record: &MoveRecord) -> Option<NotAWin> {
    let banco_protocol::Move::Caro(p) = record.mv else {
        return None;
    };
    let game = room.game.as_ref()?.board.caro()?;
    banco_rules::caro::rules::why_not_a_win(game.board(), p, game.rule())
}

/// The rule's reason in words: `a five blocked at both ends does not win under the
/// caro rule`.
pub fn not_a_win_text(why: NotAWin, loc: &Locale) -> String {
    let key = match why {
        NotAWin::BlockedBothEnds(_) => "event.not_a_win_blocked",
        NotAWin::Overline(_) => "event.not_a_win_overline",
    };
    tr!(loc, key).to_string()
}

/// The reason's stable name, for plain mode's JSON.
pub fn not_a_win_word(why: NotAWin) -> &'static str {
    match why {
        NotAWin::BlockedBothEnds(_) => "blocked_both_ends",
        NotAWin::Overline(_) => "overline",
    }
}

/// `Game 2: An (X) against Bình (O); Bình moves first.`
pub fn game_started(room: &Room, loc: &Locale) -> String {
    let Some(game) = &room.game else {
        return String::new();
    };
    let first = game.first;
    if let Some(swap) = game.swap_in_progress() {
        return tr!(
            loc,
            "event.swap_started",
            number = game.number,
            proposer = seat_name(room, swap.proposer, loc),
            responder = seat_name(room, swap.proposer.other(), loc)
        );
    }
    tr!(
        loc,
        "event.game_started",
        number = game.number,
        x = seat_label(room, first, loc),
        o = seat_label(room, first.other(), loc),
        first = seat_name(room, first, loc)
    )
}

/// The headline of a finished game from this client's point of view: `You won!`.
pub fn result_headline(room: &Room, over: &GameOver, loc: &Locale) -> String {
    if let Some(headline) = no_result_headline(over, loc) {
        return headline;
    }
    match (over.winner, room.my_seat()) {
        (None, _) => tr!(loc, "result.draw").to_string(),
        (Some(w), Some(me)) if w == me => tr!(loc, "result.you_won").to_string(),
        (Some(_), Some(_)) => tr!(loc, "result.you_lost").to_string(),
        (Some(w), None) => tr!(loc, "result.won", name = seat_name(room, w, loc)),
    }
}

/// Why the game ended: `five in a row`, `Bình ran out of time`.
pub fn end_reason(room: &Room, over: &GameOver, loc: &Locale) -> String {
    let loser_seat = over.winner.map(Seat::other);
    let key = reason_key(over);
    // "You ran out of time" reads better than one's own name.
    let you = format!("{key}_you");
    if loser_seat.is_some() && loser_seat == room.my_seat() && loc.get(&you) != you {
        return loc.get(&you).to_string();
    }
    let loser = loser_seat
        .map(|s| seat_name(room, s, loc))
        .unwrap_or_default();
    tr!(loc, &key, loser = loser)
}

/// `You won! Five in a row.`
pub fn game_over(room: &Room, over: &GameOver, loc: &Locale) -> String {
    let mut reason = end_reason(room, over, loc);
    if over.reason == EndReason::Five && !over.line.is_empty() {
        let points: Vec<String> = over
            .line
            .iter()
            .map(|p| room.move_text(&banco_protocol::Move::Caro(*p)))
            .collect();
        reason = format!("{reason} ({})", points.join(" "));
    }
    tr!(
        loc,
        "event.game_over",
        headline = result_headline(room, over, loc),
        reason = reason
    )
}

fn offer_key(room: &Room, kind: OfferKind) -> &'static str {
    let over = room.game.as_ref().is_some_and(|g| g.over.is_some());
    match kind {
        OfferKind::Undo => "undo",
        OfferKind::NewGame if over => "rematch",
        OfferKind::NewGame => "newgame",
        OfferKind::Draw => "draw",
    }
}

/// `Bình asks to take back a move.` (or, for one's own offer, that it is waiting).
pub fn offered(room: &Room, offer: &Offer, loc: &Locale) -> String {
    let key = offer_key(room, offer.kind);
    if room.my_seat() == Some(offer.by) {
        tr!(
            loc,
            &format!("offer.mine_{key}"),
            name = seat_name(room, offer.by.other(), loc)
        )
    } else {
        tr!(
            loc,
            &format!("offer.{key}"),
            name = seat_name(room, offer.by, loc)
        )
    }
}

/// `Bình declined the undo request.`
pub fn declined(room: &Room, offer: &Offer, loc: &Locale) -> String {
    tr!(
        loc,
        &format!("declined.{}", offer_key(room, offer.kind)),
        name = seat_name(room, offer.by.other(), loc)
    )
}

/// `An withdrew the undo request.`
pub fn withdrawn(room: &Room, offer: &Offer, loc: &Locale) -> String {
    tr!(
        loc,
        &format!("withdrawn.{}", offer_key(room, offer.kind)),
        name = seat_name(room, offer.by, loc)
    )
}

/// `Took back 2 moves.`
pub fn undone(plies: u32, loc: &Locale) -> String {
    if plies == 1 {
        tr!(loc, "event.undone_one").to_string()
    } else {
        tr!(loc, "event.undone_many", plies = plies)
    }
}

/// `You play X in room 3.` / `You are watching room 3.`
pub fn joined(room: &Room, loc: &Locale) -> String {
    match room.you {
        Role::Player(seat) => {
            let mut s = tr!(
                loc,
                "event.joined_player",
                room = room.id,
                stone = side(room, seat, loc)
            );
            if room.seats[seat.other().index()].is_none() {
                s.push(' ');
                s.push_str(tr!(loc, "event.waiting_opponent"));
            }
            s
        }
        Role::Spectator => tr!(loc, "event.joined_spectator", room = room.id),
    }
}

/// Whose turn it is, from this client's point of view.
pub fn turn(room: &Room, loc: &Locale) -> Option<String> {
    if let Some(line) = swap_line(room, loc) {
        return Some(line);
    }
    let seat = room.to_move()?;
    Some(if room.my_turn() {
        tr!(loc, "status.your_turn", stone = side(room, seat, loc))
    } else {
        tr!(
            loc,
            "status.their_turn",
            name = seat_name(room, seat, loc),
            stone = side(room, seat, loc)
        )
    })
}

/// Whose turn it is in a swap opening and what it asks of them: a stone (which one, of
/// which colour) or a decision (the choices, with their keys). `None` outside one.
pub fn swap_line(room: &Room, loc: &Locale) -> Option<String> {
    let swap = room.game.as_ref()?.swap_in_progress()?;
    let seat = swap.to_act?;
    let mine = room.my_seat() == Some(seat);
    let name = seat_name(room, seat, loc);
    if swap.choices.is_empty() {
        let n = swap.stones.len() + 1;
        let stone = if swap.stones.len().is_multiple_of(2) {
            "X"
        } else {
            "O"
        };
        return Some(if mine {
            tr!(loc, "room.swap_your_stone", n = n, stone = stone)
        } else {
            tr!(loc, "room.swap_place", name = name, n = n, stone = stone)
        });
    }
    let choices = swap_choices(&swap.choices, loc);
    Some(if mine {
        tr!(loc, "room.swap_your_decision", choices = choices)
    } else {
        tr!(loc, "room.swap_decide", name = name, choices = choices)
    })
}

/// The choices of a swap decision with their keys: `W: play White (O), B: ...`.
pub fn swap_choices(choices: &[banco_protocol::SwapChoice], loc: &Locale) -> String {
    choices
        .iter()
        .map(|c| match c {
            banco_protocol::SwapChoice::White => tr!(loc, "room.swap_choice_white"),
            banco_protocol::SwapChoice::Black => tr!(loc, "room.swap_choice_black"),
            banco_protocol::SwapChoice::PlaceTwo => tr!(loc, "room.swap_choice_two"),
        })
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a swap decision just taken says: `Ann takes White (O)`.
pub fn swap_decided(
    room: &Room,
    by: Seat,
    choice: banco_protocol::SwapChoice,
    loc: &Locale,
) -> String {
    let name = seat_name(room, by, loc);
    match choice {
        banco_protocol::SwapChoice::White => {
            tr!(loc, "room.swap_decided", name = name, colour = "White (O)").to_string()
        }
        banco_protocol::SwapChoice::Black => {
            tr!(loc, "room.swap_decided", name = name, colour = "Black (X)").to_string()
        }
        banco_protocol::SwapChoice::PlaceTwo => tr!(loc, "room.swap_two", name = name).to_string(),
    }
}

/// A swap opening as it was played, for replays: `An h8, An i9, An h10, Bình: two, Bình
/// j9, Bình g9, An: black` (the players by seat).
pub fn swap_steps(
    swap: &banco_protocol::SwapView,
    players: &[String; 2],
    width: u8,
    height: u8,
) -> String {
    swap.steps
        .iter()
        .map(|step| match *step {
            banco_protocol::SwapStep::Stone { by, point } => format!(
                "{} {}",
                players[by.index()],
                crate::room::board::caro_point_text(point, width, height)
            ),
            banco_protocol::SwapStep::Decided { by, choice } => {
                format!("{}: {}", players[by.index()], choice.word())
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The board and rule of a room in a few words: `15x15 caro`.
pub fn game_line(settings: &GameSettings, loc: &Locale) -> String {
    match settings {
        GameSettings::Caro {
            width,
            height,
            rule,
            opening,
        } => {
            let line = tr!(
                loc,
                "room.caro_line",
                size = format!("{width}x{height}"),
                rule = tr!(loc, &format!("rule.{}", rule.name()))
            );
            match opening {
                CaroOpening::None => line,
                CaroOpening::Balanced => {
                    format!("{line}, {}", tr!(loc, "room.opening_balanced"))
                }
                CaroOpening::Swap1 => format!("{line}, {}", tr!(loc, "room.opening_swap1")),
                CaroOpening::Swap2 => format!("{line}, {}", tr!(loc, "room.opening_swap2")),
                CaroOpening::Stones(stones) => format!(
                    "{line}, {}",
                    tr!(loc, "room.opening_given", count = stones.len())
                ),
            }
        }
        GameSettings::Xiangqi { fen: None } => tr!(loc, "room.xiangqi_line").to_string(),
        GameSettings::Xiangqi { fen: Some(_) } => tr!(loc, "room.xiangqi_fen_line").to_string(),
    }
}

/// A room list line's player column: `An vs Bot (hard)`, `An vs —`.
pub fn summary_players(summary: &RoomSummary, loc: &Locale) -> String {
    let name = |i: usize| match (&summary.players[i], summary.settings.seats[i]) {
        (_, SeatKind::Bot(level)) => tr!(loc, "seat.bot", level = level_name(level, loc)),
        (Some(n), _) => crate::challenges::tagged(n, summary.bot_accounts[i], loc),
        (None, _) => "—".to_string(),
    };
    tr!(loc, "room.versus", one = name(0), two = name(1))
}

/// A room list line's time column.
pub fn summary_time(summary: &RoomSummary, loc: &Locale) -> String {
    time_text(&summary.settings.time, loc)
}

/// A time control as the lists show it ("5m+3s", "20s/move", "no clock").
pub fn time_text(time: &banco_protocol::TimeControl, loc: &Locale) -> String {
    match time {
        banco_protocol::TimeControl::Unlimited => tr!(loc, "time.none").to_string(),
        tc => time_control_text(tc),
    }
}

/// A tournament's format in the reader's words ("Swiss, 5 rounds", "Round robin
/// (double)", "Arena, 45 min, berserk"), as the page's `formatText` says it (with the
/// room form's short minutes, for a terminal's column).
pub fn tournament_format(f: &banco_protocol::TournamentFormat, loc: &Locale) -> String {
    use banco_protocol::TournamentFormat;
    match *f {
        TournamentFormat::Swiss { rounds } => format!(
            "{}, {}",
            tr!(loc, "tournament.swiss"),
            tr!(loc, "tournament.rounds", n = rounds)
        ),
        TournamentFormat::RoundRobin { double: false } => {
            tr!(loc, "tournament.round_robin").to_string()
        }
        TournamentFormat::RoundRobin { double: true } => format!(
            "{} ({})",
            tr!(loc, "tournament.round_robin"),
            tr!(loc, "tournament.double")
        ),
        TournamentFormat::Arena { seconds, berserk } => {
            let length = if seconds % 60 == 0 {
                tr!(loc, "create.minutes", n = seconds / 60).to_string()
            } else {
                format!("{seconds} s")
            };
            let mut line = format!("{}, {length}", tr!(loc, "tournament.arena"));
            if berserk {
                line.push_str(&format!(", {}", tr!(loc, "keys.berserk_short")));
            }
            line
        }
    }
}

/// A tournament's terms a player should know before entering, in a line: the forfeit
/// wait and what byes are worth ("First move within 2 min · bye 1 · asked-for bye ½").
pub fn tournament_terms(s: &banco_protocol::TournamentSettings, loc: &Locale) -> String {
    let wait = match s.forfeit_secs {
        n if n % 60 == 0 => tr!(loc, "tournament.terms_min", n = n / 60),
        n => tr!(loc, "tournament.terms_secs", n = n),
    };
    let worth = |w: banco_protocol::ByeValue| match w {
        banco_protocol::ByeValue::Win => "1",
        banco_protocol::ByeValue::Draw => "½",
        banco_protocol::ByeValue::Nothing => "0",
    };
    let mut parts = vec![wait.to_string()];
    if !matches!(s.format, banco_protocol::TournamentFormat::Arena { .. }) {
        parts.push(tr!(loc, "tournament.terms_bye", worth = worth(s.bye)).to_string());
    }
    if matches!(s.format, banco_protocol::TournamentFormat::Swiss { .. }) {
        parts.push(
            tr!(
                loc,
                "tournament.terms_requested",
                worth = worth(s.requested_bye)
            )
            .to_string(),
        );
    }
    parts.join(" · ")
}

/// A room's status word.
pub fn summary_status(summary: &RoomSummary, loc: &Locale) -> String {
    let key = match summary.status {
        banco_protocol::RoomStatus::Waiting => "status_word.waiting",
        banco_protocol::RoomStatus::Playing => "status_word.playing",
        banco_protocol::RoomStatus::Finished => "status_word.finished",
    };
    tr!(loc, key).to_string()
}

/// Each leaderboard line's place, by the rule the server's profiles give theirs: a
/// settled rating's place is 1 + the settled ratings above it as shown, so equal ones
/// share a place; a provisional rating (`1500?`) has none yet. The list comes settled
/// first, best first, so every rating above a line is listed before it.
pub fn places(standings: &[banco_protocol::Standing]) -> Vec<Option<u32>> {
    let settled: Vec<i32> = standings
        .iter()
        .filter(|s| !s.rating.provisional)
        .map(|s| s.rating.rating)
        .collect();
    standings
        .iter()
        .map(|s| {
            let above = settled.iter().filter(|r| **r > s.rating.rating).count();
            (!s.rating.provisional).then(|| above as u32 + 1)
        })
        .collect()
}

/// A recorded player's name as the reader sees it: a person's as it is, the server's bot
/// ("Bot (hard)" in the record) in the reader's language, like its seat in a room.
pub fn shown_name(name: &str, loc: &Locale) -> String {
    match banco_protocol::bot_of_name(name) {
        Some(level) => tr!(loc, "seat.bot", level = level_name(level, loc)),
        None => name.to_string(),
    }
}

/// The headline of a recorded game, by the players' names: `Bình won.`, `Draw.`, or
/// that it never finished.
pub fn record_headline(over: Option<&GameOver>, players: &[String; 2], loc: &Locale) -> String {
    if let Some(headline) = over.and_then(|o| no_result_headline(o, loc)) {
        return headline;
    }
    match over {
        None => tr!(loc, "replay.unfinished").to_string(),
        Some(GameOver { winner: None, .. }) => tr!(loc, "result.draw").to_string(),
        Some(GameOver {
            winner: Some(w), ..
        }) => tr!(
            loc,
            "result.won",
            name = shown_name(&players[w.index()], loc)
        ),
    }
}

/// Why a recorded game ended, naming the loser: `Bình ran out of time`.
pub fn record_reason(over: &GameOver, players: &[String; 2], loc: &Locale) -> String {
    let loser = over
        .winner
        .map(|w| shown_name(&players[w.other().index()], loc))
        .unwrap_or_default();
    tr!(loc, &reason_key(over), loser = loser)
}

/// The headline of a game that ended with no result, if this one did: aborted before
/// both players moved, replaced by a new game, or left by both players. Such a game is
/// neither a win nor a draw, and is never worded as one.
pub fn no_result_headline(over: &GameOver, loc: &Locale) -> Option<String> {
    let key = match over.reason {
        EndReason::Aborted => "result.aborted",
        EndReason::NewGame => "result.no_result",
        EndReason::Abandoned if over.winner.is_none() => "result.no_result",
        _ => return None,
    };
    Some(tr!(loc, key).to_string())
}

/// The locale key of the sentence saying why `over` ended.
fn reason_key(over: &GameOver) -> String {
    match over.reason {
        // After "Game aborted": the reason in brackets.
        EndReason::Aborted => "reason.aborted_why".to_string(),
        // Nobody to name as the one who left.
        EndReason::Abandoned if over.winner.is_none() => "reason.abandoned_both".to_string(),
        reason => format!("reason.{}", reason.as_str()),
    }
}

/// A match format in words: `first to 5 (of 9)`, `2 games`.
pub fn match_format(format: &MatchFormat, loc: &Locale) -> String {
    match format.first_to {
        Some(k) => tr!(loc, "match.format_first_to", k = k, n = format.games),
        None if format.games == 1 => tr!(loc, "match.format_one").to_string(),
        None => tr!(loc, "match.format_games", n = format.games),
    }
}

/// Where the room's match stands: `Match: first to 5 (of 9) — An 3, Bình 2` (with the
/// draws when there are some); `None` in a room without a match.
pub fn match_line(room: &Room, loc: &Locale) -> Option<String> {
    let Some(m) = room.match_state.as_ref() else {
        // Before its first match begins: the format alone.
        let format = room.settings.match_format?;
        return Some(tr!(
            loc,
            "match.line_waiting",
            format = match_format(&format, loc)
        ));
    };
    let [a, b] = m.score.wins;
    let format = match_format(&m.format, loc);
    let (one, two) = (
        seat_name(room, Seat::One, loc),
        seat_name(room, Seat::Two, loc),
    );
    Some(match m.score.draws {
        0 => tr!(
            loc,
            "match.line",
            format = format,
            one = one,
            a = a,
            two = two,
            b = b
        ),
        draws => tr!(
            loc,
            "match.line_draws",
            format = format,
            one = one,
            a = a,
            two = two,
            b = b,
            draws = draws
        ),
    })
}

/// A match's result from this client's point of view: `You won the match 3–1!`, `An
/// wins the match 3–1.`, `The match is drawn 1–1.`
pub fn match_headline(room: &Room, result: &MatchResult, loc: &Locale) -> String {
    let wins = result.score.wins;
    match (result.winner, room.my_seat()) {
        (None, _) if result.reason == MatchEnd::Decided => {
            tr!(loc, "match.drawn", a = wins[0], b = wins[1])
        }
        (None, _) => tr!(loc, "match.no_winner").to_string(),
        (Some(w), me) => {
            let (a, b) = (wins[w.index()], wins[w.other().index()]);
            // Resigned, left or abandoned: the score need not favour the winner, so it is
            // said as where it stood, not as the margin of a win.
            let early = if result.reason == MatchEnd::Decided {
                ""
            } else {
                "_early"
            };
            match me {
                Some(me) if me == w => tr!(loc, &format!("match.you_won{early}"), a = a, b = b),
                Some(_) => tr!(loc, &format!("match.you_lost{early}"), a = b, b = a),
                None => tr!(
                    loc,
                    &format!("match.won{early}"),
                    name = seat_name(room, w, loc),
                    a = a,
                    b = b
                ),
            }
        }
    }
}

/// Why a match ended, when it was not played out: `Bình resigned the match.`
pub fn match_reason(room: &Room, result: &MatchResult, loc: &Locale) -> Option<String> {
    if result.reason == MatchEnd::Decided {
        return None;
    }
    let key = format!("match.reason_{}", result.reason.as_str());
    let loser = result.winner.map(Seat::other);
    let you = format!("{key}_you");
    if loser.is_some() && loser == room.my_seat() {
        return Some(loc.get(&you).to_string());
    }
    loser.map(|l| tr!(loc, &key, loser = seat_name(room, l, loc)))
}

/// The match's result in a sentence or two: headline, then why.
pub fn match_over(room: &Room, result: &MatchResult, loc: &Locale) -> String {
    let headline = match_headline(room, result, loc);
    match match_reason(room, result, loc) {
        Some(why) => format!("{headline} {why}"),
        None => headline,
    }
}

/// Between two games of a match: when the next starts. `None` while a game runs or once
/// the match is over.
pub fn match_next(room: &Room, now: std::time::Instant, loc: &Locale) -> Option<String> {
    let m = room.match_state.filter(|m| m.result.is_none())?;
    if room.playing() || m.game == 0 {
        return None;
    }
    Some(match room.next_game_in(now) {
        Some(left) => tr!(
            loc,
            "match.next_in",
            secs = left.as_secs_f64().ceil() as u64
        ),
        None => tr!(loc, "match.next_agree").to_string(),
    })
}

/// A stored game's match, for the history and replays: `game 3 of match #12` and, once
/// the match is over, its result by the players' names.
pub fn match_of_game(m: &MatchGame, players: &[String; 2], loc: &Locale) -> String {
    let place = tr!(loc, "match.in_history", game = m.game, id = m.id);
    let result = match m.result {
        None => tr!(loc, "match.running_short").to_string(),
        Some(r) => match r.winner {
            Some(w) => tr!(
                loc,
                "match.result_short",
                name = shown_name(&players[w.index()], loc),
                a = r.score.wins[w.index()],
                b = r.score.wins[w.other().index()]
            ),
            None if r.reason == MatchEnd::Decided => tr!(
                loc,
                "match.result_drawn_short",
                a = r.score.wins[0],
                b = r.score.wins[1]
            ),
            None => tr!(loc, "match.result_none_short").to_string(),
        },
    };
    format!("{place} ({result})")
}

/// When a game ended, in local time: `2025-05-01 19:42`.
pub fn ended_at(ms: u64) -> String {
    use chrono::{Local, TimeZone};
    match Local.timestamp_millis_opt(ms as i64) {
        chrono::LocalResult::Single(t) | chrono::LocalResult::Ambiguous(t, _) => {
            t.format("%Y-%m-%d %H:%M").to_string()
        }
        chrono::LocalResult::None => "?".to_string(),
    }
}

/// A server refusal in the reader's language. The server words its refusals in English,
/// often with details (which stone, which setting); English readers get that sentence,
/// others the code's sentence in their language, with the server's details added where
/// they say what to change.
pub fn server_error(e: &banco_protocol::ErrorMsg, loc: &Locale) -> String {
    if loc.code() == "en" {
        return e.message.clone();
    }
    let own = loc
        .get(&format!("server_error.{}", e.code.as_str()))
        .to_string();
    let detailed = matches!(
        e.code,
        ErrorCode::BadSettings
            | ErrorCode::IllegalMove
            | ErrorCode::BadName
            | ErrorCode::ChatTooLong
    );
    if detailed && !e.message.is_empty() {
        format!("{own} ({})", e.message)
    } else {
        own
    }
}

#[cfg(test)]
mod server_error_tests {
    use super::*;
    use banco_protocol::ErrorMsg;

    #[test]
    fn refusals_are_worded_in_the_readers_language() {
        let en = Locale::english();
        let vi = Locale::load("vi", None).unwrap();
        let taken = ErrorMsg::new(ErrorCode::Occupied, "7,7 is already taken");
        assert_eq!(server_error(&taken, &en), "7,7 is already taken");
        assert_eq!(server_error(&taken, &vi), "Ô đó đã có quân.");
        // Where the details say what to change, they come along.
        let bad = ErrorMsg::new(ErrorCode::BadSettings, "board width must be 5..=64");
        assert_eq!(
            server_error(&bad, &vi),
            "Không dùng được các thiết lập phòng đó. (board width must be 5..=64)"
        );
        // A chat line refused as too long names the limit, in every language.
        let long = ErrorMsg::new(
            ErrorCode::ChatTooLong,
            "a chat line can be at most 300 characters, this one has 320",
        );
        assert!(server_error(&long, &vi).contains("300"));
        // Every code has its own sentence in Vietnamese.
        for code in ErrorCode::ALL {
            let key = format!("server_error.{}", code.as_str());
            assert_ne!(vi.get(&key), en.get(&key), "{key}");
        }
    }
}

#[cfg(test)]
mod recorded_name_tests {
    use super::*;
    use banco_protocol::{EndReason, Seat};

    #[test]
    fn a_recorded_bot_is_named_in_the_readers_language() {
        let en = Locale::english();
        let vi = Locale::load("vi", None).unwrap();
        assert_eq!(shown_name("Bot (hard)", &vi), "Máy (khó)");
        assert_eq!(shown_name("Bot (hard)", &en), "Bot (hard)");
        assert_eq!(shown_name("Bình", &vi), "Bình");
        // A person whose name only starts like a bot's keeps it.
        assert_eq!(shown_name("Bot (hard) 2", &vi), "Bot (hard) 2");
        let players = ["Bình".to_string(), "Bot (max)".to_string()];
        let over = GameOver {
            winner: Some(Seat::Two),
            reason: EndReason::Five,
            line: Vec::new(),
        };
        assert!(record_headline(Some(&over), &players, &vi).contains("Máy (tối đa)"));
    }
}

#[cfg(test)]
mod place_tests {
    use super::*;

    #[test]
    fn places_are_for_settled_ratings_and_ties_share_one() {
        let s = |rating, provisional| banco_protocol::Standing {
            bot_account: false,
            name: String::new(),
            bot: None,
            rating: banco_protocol::Rating {
                rating,
                deviation: if provisional { 200 } else { 60 },
                provisional,
            },
            games: 10,
            wins: 5,
            losses: 5,
            draws: 0,
        };
        // As the server sends them: settled first, best first, then provisional ones
        // (whose ratings may be higher).
        let list = [
            s(1700, false),
            s(1700, false),
            s(1650, false),
            s(1800, true),
            s(1500, true),
        ];
        assert_eq!(
            places(&list),
            [Some(1), Some(1), Some(3), None, None],
            "the profile would say #1, #1, #3, not ranked yet, not ranked yet"
        );
    }
}

#[cfg(test)]
mod tournament_format_tests {
    use super::*;
    use banco_protocol::TournamentFormat;

    #[test]
    fn a_tournament_format_is_said_in_the_readers_language() {
        let en = Locale::english();
        let vi = Locale::load("vi", None).unwrap();
        let swiss = TournamentFormat::Swiss { rounds: 3 };
        assert_eq!(tournament_format(&swiss, &en), "Swiss, 3 rounds");
        assert_eq!(tournament_format(&swiss, &vi), "Thụy Sĩ, 3 vòng");
        let double = TournamentFormat::RoundRobin { double: true };
        assert_eq!(tournament_format(&double, &en), "Round robin (double)");
        assert_eq!(tournament_format(&double, &vi), "Vòng tròn (hai lượt)");
        let arena = TournamentFormat::Arena {
            seconds: 2700,
            berserk: true,
        };
        assert_eq!(tournament_format(&arena, &en), "Arena, 45 min, berserk");
        let odd = TournamentFormat::Arena {
            seconds: 90,
            berserk: false,
        };
        assert_eq!(tournament_format(&odd, &vi), "Arena, 90 s");
    }
}
