//! The create-room form: every option a room has, chosen with the arrow keys (and the
//! xiangqi start position typed as a FEN). The same form makes a challenge: with a
//! [`Target`], it leaves out who plays (the two of you) and the position editor.

use banco_protocol::{
    CaroOpening, FirstMove, GameSettings, Level, MAX_MATCH_GAMES, MatchFormat, RoomSettings, Rule,
    SeatKind, TimeControl,
};
use banco_rules::caro::{MAX_SIDE, MIN_SIDE};
use banco_rules::game::{Game, GameSpec};
use crossterm::event::{KeyCode, KeyEvent};
use std::time::Duration;

use super::input::TextInput;
use crate::room::opening::checked_stones;

/// Which game the room plays.
pub use banco_protocol::GameKind;

/// The longest FEN the form takes (the server takes 200 characters; a full one is
/// under 100).
pub const FEN_MAX: usize = 200;

/// The longest opening the form takes as text: room for a third of the largest board
/// (the most stones an opening may hold), so a whole saved game can be played on.
pub const STONES_MAX: usize = 8192;

/// What a caro room's games start from, before any stones are typed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpeningKind {
    /// An empty board.
    None,
    /// The server deals a balanced three-stone opening to every game.
    Balanced,
    /// The stones typed on the form's next line.
    Stones,
    /// Swap1: the first player places three stones, the other picks a colour.
    Swap1,
    /// Swap2: as Swap1, or the other places two more and the first picks.
    Swap2,
}

/// How time is kept, before the numbers are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeKind {
    None,
    PerMove,
    Clock,
}

/// Whether the room plays matches, before the numbers are chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MatchKind {
    /// No match: rematches as the players like.
    Off,
    /// A match of a number of games, all played.
    Games,
    /// First to a number of wins, in at most a number of games.
    FirstTo,
}

/// Who plays in the room, as the form says it in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Players {
    /// The creator against a person who joins.
    MeAndPerson,
    /// The creator against a bot.
    MeAndBot,
    /// Two bots play; the creator watches.
    Bots,
    /// A bot against a person who joins; the creator watches.
    BotAndPerson,
}

impl Players {
    /// Who sits where: seat one, then seat two (`bots`: the levels a bot in each seat
    /// plays at).
    pub fn seats(self, bots: [Level; 2]) -> [SeatKind; 2] {
        let [one, two] = bots.map(SeatKind::Bot);
        match self {
            Players::MeAndPerson => [SeatKind::Human, SeatKind::Human],
            Players::MeAndBot => [SeatKind::Human, two],
            Players::Bots => [one, two],
            Players::BotAndPerson => [one, SeatKind::Human],
        }
    }

    /// The players of a room made with `seats`, and the bots' levels (easy where a seat
    /// has none).
    pub fn of(seats: [SeatKind; 2]) -> (Players, [Level; 2]) {
        let level = |s: SeatKind| match s {
            SeatKind::Bot(l) => l,
            SeatKind::Human => Level::Easy,
        };
        let players = match seats {
            [SeatKind::Human, SeatKind::Human] => Players::MeAndPerson,
            [SeatKind::Human, SeatKind::Bot(_)] => Players::MeAndBot,
            [SeatKind::Bot(_), SeatKind::Bot(_)] => Players::Bots,
            [SeatKind::Bot(_), SeatKind::Human] => Players::BotAndPerson,
        };
        (players, seats.map(level))
    }
}

/// Whom the form challenges, when it makes a challenge rather than a room.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A player by name (the server's bot too, `Bot (max)`).
    Player(String),
    /// Anyone: an open challenge.
    Anyone,
    /// Every game of a tournament: its pairings' players sit in the seats.
    Tournament,
}

/// One line of the form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Game,
    Width,
    Height,
    Rule,
    /// Caro: none, balanced, or typed stones.
    Opening,
    /// Caro with typed stones: the stones, X first.
    Stones,
    /// Xiangqi: the start position as a FEN; empty for the usual one.
    Fen,
    /// Opens the position editor ("start from a position…").
    Arrange,
    First,
    Time,
    PerMove,
    ClockMinutes,
    Increment,
    /// Who plays: the creator against a person or a bot, or bots while the creator
    /// watches.
    Players,
    /// The level of the bot in seat one (when one sits there).
    BotOne,
    /// The level of the bot in seat two (when one sits there).
    BotTwo,
    /// Whether the games count for ratings.
    Rated,
    Hints,
    /// Whether the room plays matches: off, a number of games, or first to some wins.
    Match,
    /// The match's number of games (its most games, for first to some wins).
    MatchGames,
    /// The wins that win the match, for first to some wins.
    MatchFirstTo,
}

/// The form's choices.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreateForm {
    /// The line the arrow keys change.
    pub focus: Field,
    pub game: GameKind,
    /// Board columns, MIN_SIDE..=MAX_SIDE.
    pub width: u8,
    /// Board rows.
    pub height: u8,
    pub rule: Rule,
    /// Caro: what every game of the room starts from.
    pub opening: OpeningKind,
    /// Caro: the opening stones typed, when `opening` is [`OpeningKind::Stones`].
    pub stones: TextInput,
    /// Xiangqi: the start position typed (empty: the usual start).
    pub fen: TextInput,
    pub first: FirstMove,
    pub time: TimeKind,
    /// Seconds per move, for the per-move timer.
    pub per_move_secs: u32,
    /// Minutes on each clock at the start.
    pub clock_minutes: u32,
    /// Seconds added to a clock per move made.
    pub increment_secs: u32,
    /// Who plays.
    pub players: Players,
    /// The level of a bot in seat one and in seat two, kept while `players` has no bot
    /// there so stepping through the choices does not forget them.
    pub bots: [Level; 2],
    pub hints: bool,
    /// Whether the room plays matches.
    pub match_kind: MatchKind,
    /// The match's games (its most games, for first to some wins).
    pub match_games: u32,
    /// The wins that win a first-to match.
    pub match_first_to: u32,
    /// Whether the games count for ratings (between accounts).
    pub rated: bool,
    /// Whom this form challenges; `None`: it makes a room.
    pub target: Option<Target>,
    /// Whether the next digit typed starts a new number (true right after focusing a
    /// number field) or extends the one shown.
    fresh_digits: bool,
}

/// What a key did to the form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FormAction {
    None,
    Cancel,
    Create(RoomSettings),
    /// Enter with a board side out of range: nothing is sent.
    BadSize,
    /// Enter with a start position the rules refuse: nothing is sent; says why.
    BadFen(String),
    /// Enter with opening stones the rules refuse: nothing is sent; says why.
    BadOpening(String),
    /// Enter with a first-to match of fewer games than wins: nothing is sent.
    BadMatch,
    /// Open the position editor.
    Arrange,
}

/// The rules in the order the form offers them (caro first: the Vietnamese default).
const RULES: [Rule; 5] = Rule::ALL;
const GAMES: [GameKind; 2] = [GameKind::Caro, GameKind::Xiangqi];
const OPENINGS: [OpeningKind; 5] = [
    OpeningKind::None,
    OpeningKind::Balanced,
    OpeningKind::Stones,
    OpeningKind::Swap1,
    OpeningKind::Swap2,
];
const FIRSTS: [FirstMove; 3] = [FirstMove::Me, FirstMove::Them, FirstMove::Random];
const TIMES: [TimeKind; 3] = [TimeKind::None, TimeKind::PerMove, TimeKind::Clock];
const PLAYERS: [Players; 4] = [
    Players::MeAndPerson,
    Players::MeAndBot,
    Players::Bots,
    Players::BotAndPerson,
];
const MATCHES: [MatchKind; 3] = [MatchKind::Off, MatchKind::Games, MatchKind::FirstTo];

impl Default for CreateForm {
    /// Caro, 15x15 caro rule, me first, the classic 20 s per move, against a person.
    fn default() -> CreateForm {
        CreateForm {
            focus: Field::Game,
            game: GameKind::Caro,
            width: 15,
            height: 15,
            rule: Rule::Caro,
            opening: OpeningKind::None,
            stones: TextInput::new(STONES_MAX),
            fen: TextInput::new(FEN_MAX),
            first: FirstMove::Me,
            time: TimeKind::PerMove,
            per_move_secs: 20,
            clock_minutes: 5,
            increment_secs: 3,
            players: Players::MeAndPerson,
            bots: [Level::Easy; 2],
            hints: true,
            // A two-game mini-match (one game with each colour), or international
            // gomoku's first to 5 of at most 9, once chosen.
            match_kind: MatchKind::Off,
            match_games: 2,
            match_first_to: 5,
            rated: true,
            target: None,
            fresh_digits: true,
        }
    }
}

/// The next or previous item of `list` after `current`, wrapping.
fn cycle<T: PartialEq + Copy>(list: &[T], current: T, forward: bool) -> T {
    let i = list.iter().position(|x| *x == current).unwrap_or(0);
    let n = list.len();
    list[if forward {
        (i + 1) % n
    } else {
        (i + n - 1) % n
    }]
}

impl CreateForm {
    /// The form as last used (`last`, from the settings file): every choice but a
    /// typed start position (a FEN, opening stones), which belongs to one game.
    pub fn remembering(last: &RoomSettings) -> CreateForm {
        let mut form = CreateForm::default();
        match &last.game {
            GameSettings::Caro {
                width,
                height,
                rule,
                opening,
            } => {
                form.set_game(GameKind::Caro);
                form.width = (*width).clamp(MIN_SIDE, MAX_SIDE);
                form.height = (*height).clamp(MIN_SIDE, MAX_SIDE);
                form.rule = *rule;
                form.opening = match opening {
                    CaroOpening::Balanced => OpeningKind::Balanced,
                    CaroOpening::Swap1 => OpeningKind::Swap1,
                    CaroOpening::Swap2 => OpeningKind::Swap2,
                    CaroOpening::None | CaroOpening::Stones(_) => form.opening,
                };
            }
            GameSettings::Xiangqi { .. } => form.set_game(GameKind::Xiangqi),
        }
        form.first = last.first;
        let secs = |millis: u64| u32::try_from(millis / 1000).unwrap_or(u32::MAX);
        match last.time {
            TimeControl::Unlimited => form.time = TimeKind::None,
            TimeControl::PerMove { millis } => {
                form.time = TimeKind::PerMove;
                form.per_move_secs = secs(millis);
            }
            TimeControl::Clock {
                initial_millis,
                increment_millis,
            } => {
                form.time = TimeKind::Clock;
                form.clock_minutes = secs(initial_millis) / 60;
                form.increment_secs = secs(increment_millis);
            }
        }
        (form.players, form.bots) = Players::of(last.seats);
        form.hints = last.hints;
        if let Some(m) = last.match_format {
            form.match_games = m.games;
            match m.first_to {
                Some(k) => {
                    form.match_kind = MatchKind::FirstTo;
                    form.match_first_to = k;
                }
                None => form.match_kind = MatchKind::Games,
            }
        }
        form.rated = last.rated;
        form.clamp();
        form
    }

    /// What the settings file keeps of this form for next time: its settings without a
    /// typed start position.
    pub fn to_remember(&self) -> RoomSettings {
        let mut settings = self.settings();
        match &mut settings.game {
            GameSettings::Caro { opening, .. } => {
                if matches!(opening, CaroOpening::Stones(_)) {
                    *opening = CaroOpening::None;
                }
            }
            GameSettings::Xiangqi { fen } => *fen = None,
        }
        settings
    }

    /// The lines shown, in order: the time numbers only for the chosen kind of time.
    pub fn fields(&self) -> Vec<Field> {
        let mut f = vec![Field::Game];
        match self.game {
            GameKind::Caro => {
                f.extend([Field::Width, Field::Height, Field::Rule, Field::Opening]);
                if self.opening == OpeningKind::Stones {
                    f.push(Field::Stones);
                }
            }
            GameKind::Xiangqi => f.push(Field::Fen),
        }
        if self.target.is_none() {
            f.push(Field::Arrange);
        }
        // A tournament's pairings decide who moves first.
        if self.target != Some(Target::Tournament) {
            f.push(Field::First);
        }
        f.push(Field::Time);
        match self.time {
            TimeKind::None => {}
            TimeKind::PerMove => f.push(Field::PerMove),
            TimeKind::Clock => f.extend([Field::ClockMinutes, Field::Increment]),
        }
        // A challenge is between the two of you.
        if self.target.is_none() {
            f.push(Field::Players);
            match self.players {
                Players::MeAndPerson => {}
                Players::MeAndBot => f.push(Field::BotTwo),
                Players::Bots => f.extend([Field::BotOne, Field::BotTwo]),
                Players::BotAndPerson => f.push(Field::BotOne),
            }
        }
        f.extend([Field::Rated, Field::Hints, Field::Match]);
        match self.match_kind {
            MatchKind::Off => {}
            MatchKind::Games => f.push(Field::MatchGames),
            MatchKind::FirstTo => f.extend([Field::MatchFirstTo, Field::MatchGames]),
        }
        f
    }

    /// The match format chosen, if any.
    pub fn match_format(&self) -> Option<MatchFormat> {
        let games = self.match_games;
        match self.match_kind {
            MatchKind::Off => None,
            MatchKind::Games => Some(MatchFormat {
                games,
                first_to: None,
            }),
            MatchKind::FirstTo => Some(MatchFormat {
                games,
                first_to: Some(self.match_first_to),
            }),
        }
    }

    /// The settings this form describes.
    pub fn settings(&self) -> RoomSettings {
        let time = match self.time {
            TimeKind::None => TimeControl::Unlimited,
            TimeKind::PerMove => {
                TimeControl::per_move(Duration::from_secs(u64::from(self.per_move_secs)))
            }
            TimeKind::Clock => TimeControl::clock(
                Duration::from_secs(u64::from(self.clock_minutes) * 60),
                Duration::from_secs(u64::from(self.increment_secs)),
            ),
        };
        let game = match self.game {
            GameKind::Caro => GameSettings::Caro {
                width: self.width,
                height: self.height,
                rule: self.rule,
                // Enter checks the stones first (see `opening_ok`).
                opening: match self.opening {
                    OpeningKind::None => CaroOpening::None,
                    OpeningKind::Balanced => CaroOpening::Balanced,
                    OpeningKind::Swap1 => CaroOpening::Swap1,
                    OpeningKind::Swap2 => CaroOpening::Swap2,
                    OpeningKind::Stones => {
                        CaroOpening::Stones(self.opening_ok().unwrap_or_default())
                    }
                },
            },
            GameKind::Xiangqi => {
                let fen = self.fen.text().trim();
                GameSettings::Xiangqi {
                    fen: (!fen.is_empty()).then(|| fen.to_string()),
                }
            }
        };
        RoomSettings {
            game,
            time,
            first: self.first,
            seats: match self.target {
                Some(_) => [SeatKind::Human, SeatKind::Human],
                None => self.players.seats(self.bots),
            },
            hints: self.hints,
            match_format: self.match_format(),
            rated: self.rated,
        }
    }

    /// The games' page of the tournament form, from `last` (the room form's remembered
    /// settings): people in both seats, and, as the page starts it, a caro pairing a
    /// two-game mini-match (one game with each colour), a xiangqi pairing one game.
    pub fn tournament_games(last: Option<&RoomSettings>) -> CreateForm {
        let mut form = last.map_or_else(CreateForm::default, CreateForm::remembering);
        form.target = Some(Target::Tournament);
        if form.game == GameKind::Caro {
            form.match_kind = MatchKind::Games;
            form.match_games = 2;
        } else {
            form.match_kind = MatchKind::Off;
        }
        form
    }

    /// The form for challenging `target`, with the choices of `last` (a room form's
    /// remembered settings): people both, rated unless `guest`.
    pub fn challenging(target: Target, last: Option<&RoomSettings>, guest: bool) -> CreateForm {
        let mut form = last.map_or_else(CreateForm::default, CreateForm::remembering);
        form.target = Some(target);
        if guest {
            form.rated = false;
        }
        form
    }

    pub fn key(&mut self, key: KeyEvent) -> FormAction {
        let fields = self.fields();
        let at = fields.iter().position(|f| *f == self.focus).unwrap_or(0);
        let typing = matches!(self.focus, Field::Fen | Field::Stones);
        match key.code {
            KeyCode::Esc => return FormAction::Cancel,
            KeyCode::Enter | KeyCode::Char(' ') | KeyCode::Right
                if self.focus == Field::Arrange =>
            {
                return FormAction::Arrange;
            }
            KeyCode::Enter if self.game == GameKind::Caro && !self.size_ok() => {
                return FormAction::BadSize;
            }
            KeyCode::Enter if !self.match_ok() => {
                self.focus = Field::MatchFirstTo;
                return FormAction::BadMatch;
            }
            KeyCode::Enter => {
                if let Err(why) = self.fen_ok() {
                    self.focus = Field::Fen;
                    return FormAction::BadFen(why);
                }
                if self.game == GameKind::Caro
                    && self.opening == OpeningKind::Stones
                    && let Err(why) = self.opening_ok()
                {
                    self.focus = Field::Stones;
                    return FormAction::BadOpening(why);
                }
                return FormAction::Create(self.settings());
            }
            KeyCode::Up | KeyCode::BackTab => self.step_focus(&fields, at, false),
            KeyCode::Down | KeyCode::Tab => self.step_focus(&fields, at, true),
            // The FEN and stones lines take letters, digits and the cursor keys as text.
            _ if typing => {
                if self.focus == Field::Fen {
                    self.fen.edit(key);
                } else {
                    self.stones.edit(key);
                }
            }
            KeyCode::Char('k') => self.step_focus(&fields, at, false),
            KeyCode::Char('j') => self.step_focus(&fields, at, true),
            KeyCode::Left | KeyCode::Char('h') => self.change(false),
            KeyCode::Right | KeyCode::Char('l') | KeyCode::Char(' ') => self.change(true),
            KeyCode::Char(c) if c.is_ascii_digit() => self.digit(c as u32 - '0' as u32),
            KeyCode::Backspace => {
                if let Some(v) = self.number_mut() {
                    *v /= 10;
                    self.fresh_digits = false;
                }
                self.clamp();
            }
            _ => {}
        }
        FormAction::None
    }

    fn step_focus(&mut self, fields: &[Field], at: usize, forward: bool) {
        let n = fields.len();
        self.focus = fields[if forward {
            (at + 1) % n
        } else {
            (at + n - 1) % n
        }];
        self.fresh_digits = true;
    }

    /// Switches the game, with that game's usual time: the classic 20 s a move for
    /// caro, a clock of 10 minutes plus 5 s a move for xiangqi.
    pub fn set_game(&mut self, game: GameKind) {
        self.game = game;
        (self.time, self.clock_minutes, self.increment_secs) = match game {
            GameKind::Caro => (TimeKind::PerMove, 5, 3),
            GameKind::Xiangqi => (TimeKind::Clock, 10, 5),
        };
    }

    /// Whether the xiangqi start position is one a game can start from (the server
    /// checks again); `Err` says why not.
    pub fn fen_ok(&self) -> Result<(), String> {
        let fen = self.fen.text().trim();
        if self.game != GameKind::Xiangqi || fen.is_empty() {
            return Ok(());
        }
        Game::new(&GameSpec::Xiangqi {
            fen: Some(fen.to_string()),
        })
        .map(|_| ())
        .map_err(|e| e.to_string())
    }

    /// The typed opening stones, when they are ones a game can start from on this
    /// board under this rule (the server checks again); `Err` says why not.
    pub fn opening_ok(&self) -> Result<Vec<banco_protocol::Point>, String> {
        checked_stones(self.stones.text(), self.width, self.height, self.rule)
    }

    /// The focused number, as a u32 to edit.
    fn number_mut(&mut self) -> Option<&mut u32> {
        match self.focus {
            Field::PerMove => Some(&mut self.per_move_secs),
            Field::ClockMinutes => Some(&mut self.clock_minutes),
            Field::Increment => Some(&mut self.increment_secs),
            Field::MatchGames => Some(&mut self.match_games),
            Field::MatchFirstTo => Some(&mut self.match_first_to),
            _ => None,
        }
    }

    fn digit(&mut self, d: u32) {
        let fresh = self.fresh_digits;
        self.fresh_digits = false;
        let side = |v: u8| -> u8 {
            let next = if fresh { d } else { u32::from(v) * 10 + d };
            // Past the largest side, the digit starts a new number.
            if next > u32::from(MAX_SIDE) {
                d as u8
            } else {
                next as u8
            }
        };
        match self.focus {
            Field::Width => self.width = side(self.width),
            Field::Height => self.height = side(self.height),
            _ => {
                if let Some(v) = self.number_mut() {
                    let next = if fresh { d } else { *v * 10 + d };
                    *v = if next > 9_999 { d } else { next };
                }
            }
        }
    }

    /// Keeps numbers in range (a board side typed as "2" waits for its second digit,
    /// so sides are only clamped when the form is submitted or stepped).
    fn clamp(&mut self) {
        self.per_move_secs = self.per_move_secs.clamp(1, 3_600);
        self.clock_minutes = self.clock_minutes.clamp(1, 600);
        self.increment_secs = self.increment_secs.min(600);
        self.match_games = self.match_games.clamp(1, MAX_MATCH_GAMES);
        self.match_first_to = self.match_first_to.clamp(1, MAX_MATCH_GAMES);
    }

    /// Whether the match can be played: first to K needs at least K games (the form
    /// shows it, Enter refuses it).
    pub fn match_ok(&self) -> bool {
        self.match_kind != MatchKind::FirstTo || self.match_first_to <= self.match_games
    }

    /// Whether the board sides are in range (the form shows it, Enter refuses it).
    pub fn size_ok(&self) -> bool {
        (MIN_SIDE..=MAX_SIDE).contains(&self.width) && (MIN_SIDE..=MAX_SIDE).contains(&self.height)
    }

    fn change(&mut self, up: bool) {
        let step = |v: u32, by: u32| {
            if up {
                v.saturating_add(by)
            } else {
                v.saturating_sub(by)
            }
        };
        let side = |v: u8| -> u8 {
            let v = if up {
                v.saturating_add(1)
            } else {
                v.saturating_sub(1)
            };
            v.clamp(MIN_SIDE, MAX_SIDE)
        };
        self.fresh_digits = true;
        match self.focus {
            Field::Game => self.set_game(cycle(&GAMES, self.game, up)),
            Field::Fen | Field::Arrange => {}
            Field::Width => self.width = side(self.width),
            Field::Height => self.height = side(self.height),
            Field::Rule => self.rule = cycle(&RULES, self.rule, up),
            Field::Opening => self.opening = cycle(&OPENINGS, self.opening, up),
            Field::Stones => {}
            Field::First => self.first = cycle(&FIRSTS, self.first, up),
            Field::Time => self.time = cycle(&TIMES, self.time, up),
            Field::PerMove => self.per_move_secs = step(self.per_move_secs, 5),
            Field::ClockMinutes => self.clock_minutes = step(self.clock_minutes, 1),
            Field::Increment => self.increment_secs = step(self.increment_secs, 1),
            Field::Players => self.players = cycle(&PLAYERS, self.players, up),
            Field::BotOne => self.bots[0] = cycle(&Level::ALL, self.bots[0], up),
            Field::BotTwo => self.bots[1] = cycle(&Level::ALL, self.bots[1], up),
            Field::Hints => self.hints = !self.hints,
            Field::Match => {
                self.match_kind = cycle(&MATCHES, self.match_kind, up);
                // Each kind starts from its usual numbers: a two-game mini-match, first
                // to 5 of at most 9.
                (self.match_games, self.match_first_to) = match self.match_kind {
                    MatchKind::FirstTo => (9, 5),
                    _ => (2, self.match_first_to),
                };
            }
            Field::MatchGames => self.match_games = step(self.match_games, 1),
            Field::MatchFirstTo => {
                self.match_first_to = step(self.match_first_to, 1);
                // Stepped past the games there are: room for K wins against K - 1, as
                // first to 5 of 9 has.
                if self.match_first_to > self.match_games {
                    self.match_games = (2 * self.match_first_to).saturating_sub(1);
                }
            }
            Field::Rated => self.rated = !self.rated,
        }
        self.clamp();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyModifiers;

    fn press(form: &mut CreateForm, codes: &[KeyCode]) -> FormAction {
        let mut last = FormAction::None;
        for c in codes {
            last = form.key(KeyEvent::new(*c, KeyModifiers::NONE));
        }
        last
    }

    #[test]
    fn every_option_can_be_chosen() {
        let mut f = CreateForm {
            focus: Field::Width,
            ..CreateForm::default()
        };
        use KeyCode::*;
        // Width 20 typed, height 15 -> 16 with the arrow.
        press(&mut f, &[Char('2'), Char('0'), Down, Right]);
        assert_eq!((f.width, f.height), (20, 16));
        // Rule: caro -> freestyle; opening stays none, past "arrange"; first: me -> random
        // (backwards).
        press(&mut f, &[Down, Right, Down, Down, Down, Left]);
        assert_eq!(f.rule, Rule::Freestyle);
        assert_eq!(f.first, FirstMove::Random);
        // Time: per move -> clock, 10 minutes + 5 s.
        press(
            &mut f,
            &[Down, Right, Down, Char('1'), Char('0'), Down, Char('5')],
        );
        // Who plays: me against a bot, the hard one (easy, casual, medium, advanced, hard);
        // rated stays; hints off.
        press(
            &mut f,
            &[
                Down, Right, Down, Right, Right, Right, Right, Down, Down, Right,
            ],
        );
        let FormAction::Create(s) = press(&mut f, &[Enter]) else {
            panic!("Enter must create");
        };
        assert_eq!(
            s.game,
            GameSettings::Caro {
                width: 20,
                height: 16,
                rule: Rule::Freestyle,
                opening: CaroOpening::None,
            }
        );
        assert_eq!(s.first, FirstMove::Random);
        assert_eq!(
            s.time,
            TimeControl::clock(Duration::from_secs(600), Duration::from_secs(5))
        );
        assert_eq!(s.seats, [SeatKind::Human, SeatKind::Bot(Level::Hard)]);
        assert!(!s.hints);
        assert_eq!(press(&mut f, &[Esc]), FormAction::Cancel);

        // Two bots: the creator watches; the first at the strongest level.
        let mut f = CreateForm {
            focus: Field::Players,
            ..CreateForm::default()
        };
        press(&mut f, &[Right, Right]);
        assert_eq!(f.players, Players::Bots);
        assert_eq!(
            f.fields()[f.fields().len() - 6..],
            [
                Field::Players,
                Field::BotOne,
                Field::BotTwo,
                Field::Rated,
                Field::Hints,
                Field::Match
            ]
        );
        press(&mut f, &[Down, Left]);
        let FormAction::Create(s) = press(&mut f, &[Enter]) else {
            panic!("Enter must create");
        };
        assert_eq!(
            s.seats,
            [SeatKind::Bot(Level::Max), SeatKind::Bot(Level::Easy)]
        );
    }

    #[test]
    fn the_last_choices_come_back_without_a_typed_position() {
        use KeyCode::*;
        let mut f = CreateForm {
            focus: Field::Width,
            ..CreateForm::default()
        };
        // 19 wide, balanced opening, no clock, me against the medium bot, hints off.
        press(&mut f, &[Char('1'), Char('9'), Down, Down, Down, Right]);
        f.time = TimeKind::None;
        f.players = Players::MeAndBot;
        f.bots = [Level::Easy, Level::Medium];
        f.hints = false;
        let kept = f.to_remember();
        let back = CreateForm::remembering(&kept);
        assert_eq!(back.settings(), f.settings());
        assert_eq!(back.players, Players::MeAndBot);
        assert_eq!(back.bots[1], Level::Medium);
        assert_eq!(back.focus, Field::Game, "the form opens at its top");
        // A typed position is one game's: not kept.
        f.opening = OpeningKind::Stones;
        f.stones = TextInput::with_text(STONES_MAX, "h8");
        let back = CreateForm::remembering(&f.to_remember());
        assert_eq!(back.opening, OpeningKind::None);
        assert!(back.stones.is_empty());
        let mut x = CreateForm::default();
        x.set_game(GameKind::Xiangqi);
        x.fen = TextInput::with_text(FEN_MAX, "3k5/9/9/9/9/9/9/9/4A4/4K2R1 w - - 0 1");
        x.per_move_secs = 45;
        x.time = TimeKind::PerMove;
        let back = CreateForm::remembering(&x.to_remember());
        assert_eq!(back.game, GameKind::Xiangqi);
        assert!(back.fen.is_empty());
        assert_eq!((back.time, back.per_move_secs), (TimeKind::PerMove, 45));
    }

    #[test]
    fn a_match_is_chosen_as_a_number_of_games_or_first_to_some_wins() {
        use KeyCode::*;
        let mut f = CreateForm {
            focus: Field::Match,
            ..CreateForm::default()
        };
        assert_eq!(f.settings().match_format, None, "no match unless chosen");
        // A number of games: two by default (one with each colour), then four.
        press(&mut f, &[Right]);
        assert_eq!(f.fields().last(), Some(&Field::MatchGames));
        assert_eq!(f.settings().match_format, Some(MatchFormat::MINI));
        press(&mut f, &[Down, Char('4')]);
        assert_eq!(
            f.settings().match_format,
            Some(MatchFormat {
                games: 4,
                first_to: None
            })
        );
        // First to some wins: first to 5 of at most 9 by default; first to 2 of 3 typed.
        press(&mut f, &[Up, Right]);
        assert_eq!(
            f.fields()[f.fields().len() - 3..],
            [Field::Match, Field::MatchFirstTo, Field::MatchGames]
        );
        assert_eq!(
            f.settings().match_format,
            Some(MatchFormat {
                games: 9,
                first_to: Some(5)
            })
        );
        press(&mut f, &[Down, Char('2'), Down, Char('3')]);
        let FormAction::Create(s) = press(&mut f, &[Enter]) else {
            panic!("Enter must create");
        };
        assert_eq!(
            s.match_format,
            Some(MatchFormat {
                games: 3,
                first_to: Some(2)
            })
        );
        // More wins than games: shown wrong and refused, the cursor on the wins.
        press(&mut f, &[Up, Char('4')]);
        assert!(!f.match_ok());
        assert_eq!(press(&mut f, &[Down, Enter]), FormAction::BadMatch);
        assert_eq!(f.focus, Field::MatchFirstTo);
        // Stepping the wins past the games makes room for them: first to 5 of 9.
        f.match_first_to = 4;
        f.match_games = 4;
        press(&mut f, &[Right]);
        assert_eq!((f.match_first_to, f.match_games), (5, 9));
        // Remembered for next time.
        let back = CreateForm::remembering(&f.to_remember());
        assert_eq!(back.match_kind, MatchKind::FirstTo);
        assert_eq!(back.match_format(), f.match_format());
        // Off again: no match, its lines gone.
        f.focus = Field::Match;
        press(&mut f, &[Right]);
        assert_eq!(f.match_kind, MatchKind::Off);
        assert_eq!(f.fields().last(), Some(&Field::Match));
        assert_eq!(f.settings().match_format, None);
    }

    #[test]
    fn a_challenge_form_leaves_out_who_plays() {
        use KeyCode::*;
        let mut f = CreateForm::challenging(Target::Player("Bình".into()), None, true);
        assert!(!f.rated, "a guest's challenge is casual");
        let fields = f.fields();
        assert!(!fields.contains(&Field::Players) && !fields.contains(&Field::Arrange));
        assert_eq!(
            fields[fields.len() - 3..],
            [Field::Rated, Field::Hints, Field::Match]
        );
        f.players = Players::MeAndBot;
        f.focus = Field::Rated;
        press(&mut f, &[Right]);
        let FormAction::Create(s) = press(&mut f, &[Enter]) else {
            panic!("Enter must send");
        };
        assert!(s.rated);
        assert_eq!(s.seats, [SeatKind::Human, SeatKind::Human]);
    }

    #[test]
    fn sides_stay_in_range_and_fields_follow_the_time_kind() {
        let mut f = CreateForm {
            focus: Field::Width,
            ..CreateForm::default()
        };
        use KeyCode::*;
        press(&mut f, &[Char('9'), Char('9')]);
        assert_eq!(f.width, 9, "a side past 64 restarts from the digit");
        for _ in 0..10 {
            press(&mut f, &[Left]);
        }
        assert_eq!(f.width, MIN_SIDE);
        press(&mut f, &[Char('3')]);
        assert!(!f.size_ok());
        assert_eq!(press(&mut f, &[Enter]), FormAction::BadSize);
        assert!(f.fields().contains(&Field::PerMove));
        f.time = TimeKind::None;
        assert!(!f.fields().contains(&Field::PerMove));
        assert!(!f.fields().contains(&Field::ClockMinutes));
    }

    #[test]
    fn a_xiangqi_room_takes_a_start_position() {
        use KeyCode::*;
        let mut f = CreateForm::default();
        press(&mut f, &[Right]);
        assert_eq!(f.game, GameKind::Xiangqi);
        assert_eq!(
            f.fields(),
            [
                Field::Game,
                Field::Fen,
                Field::Arrange,
                Field::First,
                Field::Time,
                Field::ClockMinutes,
                Field::Increment,
                Field::Players,
                Field::Rated,
                Field::Hints,
                Field::Match
            ]
        );
        // The usual start, on a 10 minute clock with 5 s a move.
        let FormAction::Create(s) = press(&mut f, &[Enter]) else {
            panic!("Enter must create");
        };
        assert_eq!(s.game, GameSettings::Xiangqi { fen: None });
        assert_eq!(
            s.time,
            TimeControl::clock(Duration::from_secs(600), Duration::from_secs(5))
        );
        // On the FEN line, letters and digits are text (h, j, k, l too).
        press(&mut f, &[Down]);
        let fen = "3k5/9/9/9/9/9/9/9/4A4/4K2R1 w - - 0 1";
        for c in fen.chars() {
            f.key(KeyEvent::new(Char(c), KeyModifiers::NONE));
        }
        assert_eq!(f.focus, Field::Fen);
        assert_eq!(f.fen.text(), fen);
        let FormAction::Create(s) = press(&mut f, &[Enter]) else {
            panic!("Enter must create");
        };
        assert_eq!(
            s.game,
            GameSettings::Xiangqi {
                fen: Some(fen.into())
            }
        );
        // A position the rules refuse is not sent, and the form says why.
        f.fen = TextInput::with_text(FEN_MAX, "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1");
        press(&mut f, &[Up]);
        match press(&mut f, &[Enter]) {
            FormAction::BadFen(why) => assert!(why.contains("face"), "{why}"),
            other => panic!("refusal expected, got {other:?}"),
        }
        assert_eq!(f.focus, Field::Fen);
        // Back to caro: its fields and its classic timer; the FEN is not sent.
        press(&mut f, &[Up, Left]);
        assert_eq!(f.game, GameKind::Caro);
        assert_eq!(f.time, TimeKind::PerMove);
        let FormAction::Create(s) = press(&mut f, &[Enter]) else {
            panic!("Enter must create");
        };
        assert_eq!(s.game, GameSettings::caro_default());
    }

    #[test]
    fn a_caro_room_starts_from_a_balanced_opening_or_typed_stones() {
        use KeyCode::*;
        let mut f = CreateForm {
            focus: Field::Opening,
            ..CreateForm::default()
        };
        assert!(!f.fields().contains(&Field::Stones));
        press(&mut f, &[Right]);
        assert_eq!(f.opening, OpeningKind::Balanced);
        let FormAction::Create(s) = press(&mut f, &[Enter]) else {
            panic!("Enter must create");
        };
        assert!(matches!(
            s.game,
            GameSettings::Caro {
                opening: CaroOpening::Balanced,
                ..
            }
        ));
        // Typed stones: a line of its own, taking letters as text (h, j, k, l too).
        press(&mut f, &[Right]);
        assert_eq!(f.opening, OpeningKind::Stones);
        assert_eq!(f.fields()[5], Field::Stones);
        press(&mut f, &[Down]);
        for c in "h8,j9 h10".chars() {
            f.key(KeyEvent::new(Char(c), KeyModifiers::NONE));
        }
        assert_eq!(f.stones.text(), "h8,j9 h10");
        let FormAction::Create(s) = press(&mut f, &[Enter]) else {
            panic!("Enter must create");
        };
        let p = banco_protocol::Point::new;
        assert_eq!(
            s.game,
            GameSettings::Caro {
                width: 15,
                height: 15,
                rule: Rule::Caro,
                opening: CaroOpening::Stones(vec![p(7, 7), p(9, 6), p(7, 5)]),
            }
        );
        // Stones the rules refuse are not sent; the form says why and goes to them.
        f.stones = TextInput::with_text(STONES_MAX, "h8 h8");
        f.focus = Field::Game;
        match press(&mut f, &[Enter]) {
            FormAction::BadOpening(why) => assert!(why.contains("already holds"), "{why}"),
            other => panic!("refusal expected, got {other:?}"),
        }
        assert_eq!(f.focus, Field::Stones);
        // Back to none (past balanced): the stones line goes away and nothing is sent
        // of it.
        press(&mut f, &[Up, Left, Left]);
        assert_eq!(f.opening, OpeningKind::None);
        assert!(!f.fields().contains(&Field::Stones));
        let FormAction::Create(s) = press(&mut f, &[Enter]) else {
            panic!("Enter must create");
        };
        assert_eq!(s.game, GameSettings::caro_default());
    }
}
