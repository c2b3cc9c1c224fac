//! The server's records, from the lobby: the leaderboard, the history of finished games,
//! and the replay of one of them (or of a record file, offline).

use banco_protocol::{ClientMsg, GameId, GameKind, GameRecord, GameSummary, Point, Rule, Standing};
use crossterm::event::{KeyCode, KeyEvent};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::create::{Field, OpeningKind};
use super::input::{Edit, TextInput};
use super::profile::{ProfileScreen, Who};
use super::{App, Effect, Lobby, Screen};
use crate::record::file::SaveError;
use crate::record::{Replay, file};
use crate::room::board::Board;
use crate::room::opening::stones_text;
use crate::tr;

/// The pause between two moves when a replay plays by itself.
pub const AUTOPLAY_EVERY: Duration = Duration::from_millis(900);

/// The leaderboard screen: one game's.
#[derive(Debug, Clone)]
pub struct Leaderboard {
    /// Which game's ratings.
    pub game: GameKind,
    /// Best first; `None` until the server answers.
    pub standings: Option<Vec<Standing>>,
    /// Index of the highlighted line.
    pub selected: usize,
}

impl Leaderboard {
    /// `game`'s leaderboard, before the server's answer.
    pub fn new(game: GameKind) -> Leaderboard {
        Leaderboard {
            game,
            standings: None,
            selected: 0,
        }
    }
}

/// Whose games the history lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HistoryFilter {
    Everyone,
    /// This client's own games.
    Mine,
    /// Someone else's, chosen on the leaderboard.
    Player(String),
}

/// The game the game-over dialog's `v` asked to review: its players by seat (as
/// history records name them) and the history that holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LastGame {
    pub players: [String; 2],
    pub filter: HistoryFilter,
}

/// The history screen.
#[derive(Debug, Clone)]
pub struct History {
    /// Newest first; `None` until the server answers.
    pub games: Option<Vec<GameSummary>>,
    /// Index of the highlighted game.
    pub selected: usize,
    pub filter: HistoryFilter,
    /// The game whose replay was asked for, until it arrives.
    pub opening: Option<GameId>,
    /// Its review was asked for too (`v`): the replay opens following it.
    pub then_review: bool,
    /// Opened by `v` in the game-over dialog: when the list comes, its newest game
    /// between these players (the one just played) opens reviewed.
    pub review_newest: Option<[String; 2]>,
}

/// The replay screen.
#[derive(Debug, Clone)]
pub struct ReplayScreen {
    pub replay: Replay,
    /// Playing by itself: when the next move is due.
    pub autoplay: Option<Instant>,
    /// Black at the bottom (xiangqi).
    pub flipped: bool,
    /// Where Esc goes back to: the history or profile it was opened from. `None` for a
    /// file opened with `banco replay FILE`: Esc leaves the program.
    pub back: Option<ReplayBack>,
    /// The file name being typed, while the save prompt is open.
    pub save: Option<TextInput>,
    /// The engine's review of the game, once asked for (`v`).
    pub review: Option<super::review::ReviewView>,
}

/// The list a replay was opened from.
#[derive(Debug, Clone)]
pub enum ReplayBack {
    History(History),
    Profile(Box<ProfileScreen>),
}

impl ReplayScreen {
    /// A replay at its first move, seen from `me`'s side when `me` played Black.
    pub fn new(replay: Replay, back: Option<ReplayBack>, me: Option<&str>) -> ReplayScreen {
        let flipped = me.is_some_and(|name| {
            banco_protocol::Seat::BOTH.into_iter().any(|s| {
                replay.players[s.index()] == name && replay.side(s) == crate::record::Side::Black
            })
        });
        ReplayScreen {
            replay,
            autoplay: None,
            flipped,
            back,
            save: None,
            review: None,
        }
    }
}

impl App {
    /// This client's name on the server, once connected.
    fn my_name(&self) -> Option<String> {
        self.session.name()
    }

    /// Opens `game`'s leaderboard and asks the server for it.
    pub(super) fn open_leaderboard(&mut self, game: GameKind) {
        self.screen = Screen::Leaderboard(Leaderboard::new(game));
        self.send(ClientMsg::Leaderboard(game));
    }

    /// Opens the history with `filter` and asks the server for it.
    pub(super) fn open_history(&mut self, filter: HistoryFilter) {
        let player = match &filter {
            HistoryFilter::Everyone => None,
            HistoryFilter::Mine => self.my_name(),
            HistoryFilter::Player(name) => Some(name.clone()),
        };
        self.screen = Screen::History(History {
            games: None,
            selected: 0,
            filter,
            opening: None,
            then_review: false,
            review_newest: None,
        });
        self.send(ClientMsg::History { player });
    }

    /// Shows a replay with nothing to go back to: `banco replay FILE`.
    /// Opens `replay` with nowhere to go back to: Esc leaves the program offline, or goes
    /// to the lobby when connected.
    pub fn open_offline_replay(&mut self, replay: Replay) {
        self.screen = Screen::Replay(Box::new(ReplayScreen::new(replay, None, None)));
    }

    pub(super) fn back_to_lobby(&mut self) {
        self.screen = Screen::Lobby(Lobby::default());
        self.send(ClientMsg::ListRooms);
    }

    pub(super) fn leaderboard_key(&mut self, key: KeyEvent) {
        let Screen::Leaderboard(board) = &mut self.screen else {
            return;
        };
        match board.key(key) {
            RecordsKey::Nothing => {}
            RecordsKey::Profile(who) => {
                let back = board.clone();
                self.open_profile(who, Some(back));
            }
            other => self.records_key(other),
        }
    }

    pub(super) fn history_key(&mut self, key: KeyEvent) {
        let Screen::History(history) = &mut self.screen else {
            return;
        };
        match history.key(key) {
            RecordsKey::Replay(id) => {
                history.opening = Some(id);
                self.send(ClientMsg::Replay(id));
            }
            other => self.records_key(other),
        }
    }

    /// What a key on a records screen asked that reaches past the screen.
    fn records_key(&mut self, key: RecordsKey) {
        match key {
            RecordsKey::Nothing | RecordsKey::Profile(_) | RecordsKey::Replay(_) => {}
            RecordsKey::Challenge(who) => self.challenge_who(&who.name, who.bot),
            RecordsKey::Leaderboard(game) => self.open_leaderboard(game),
            RecordsKey::History(filter) => self.open_history(filter),
            RecordsKey::Reviewed(id) => super::review::open_reviewed(self, id),
            RecordsKey::NothingToOpen => {
                let msg = tr!(self.loc, "history.nothing_to_open").to_string();
                self.warn(msg);
            }
            RecordsKey::Help => self.help = true,
            RecordsKey::Lobby => self.back_to_lobby(),
        }
    }

    pub(super) fn replay_key(&mut self, key: KeyEvent) {
        let now = self.now;
        let Screen::Replay(rs) = &mut self.screen else {
            return;
        };
        match rs.key(key, now) {
            ReplayKey::Nothing => {}
            ReplayKey::Save { name, text } => {
                let path = self.record_path(&name);
                self.effects.push(Effect::SaveRecord { path, text });
            }
            ReplayKey::Review => self.ask_review(),
            ReplayKey::PlayOn => self.play_from_here(),
            ReplayKey::Help => self.help = true,
            ReplayKey::Leave => self.leave_replay(),
        }
    }

    /// `c` in a replay: a new room starting from the position shown (the create form
    /// opens in the lobby with it filled in), to play on or try another line. Xiangqi
    /// starts from the position's FEN, caro from its stones as the room's opening.
    fn play_from_here(&mut self) {
        let Screen::Replay(rs) = &self.screen else {
            return;
        };
        let start = match rs.replay.board() {
            Board::Xiangqi(g) => Some(PlayOn::Xiangqi(g.fen())),
            Board::Caro(g) => Some(PlayOn::Caro {
                width: g.board().width(),
                height: g.board().height(),
                rule: g.rule(),
                stones: g.opening().iter().chain(g.moves()).copied().collect(),
            }),
            Board::Unsupported => None,
        };
        let refusal = match (&start, &self.session.welcome) {
            (None, _) => Some("replay.unreadable_position"),
            (Some(_), None) => Some("replay.offline_no_rooms"),
            _ => None,
        };
        let Some(start) = start.filter(|_| refusal.is_none()) else {
            let msg = tr!(self.loc, refusal.unwrap_or("replay.unreadable_position")).to_string();
            return self.warn(msg);
        };
        let mut form = super::screen_keys::remembered_form(&self.settings);
        match start {
            PlayOn::Xiangqi(fen) => {
                form.set_game(GameKind::Xiangqi);
                form.fen = TextInput::with_text(super::create::FEN_MAX, &fen);
            }
            PlayOn::Caro {
                width,
                height,
                rule,
                stones,
            } => {
                form.set_game(GameKind::Caro);
                form.width = width;
                form.height = height;
                form.rule = rule;
                // From this position, not from a dealt opening.
                form.opening = OpeningKind::None;
                if !stones.is_empty() {
                    let text = stones_text(&stones, width, height);
                    form.opening = OpeningKind::Stones;
                    form.stones = TextInput::with_text(super::create::STONES_MAX, &text);
                }
            }
        }
        form.focus = Field::First;
        self.back_to_lobby();
        if let Screen::Lobby(lobby) = &mut self.screen {
            lobby.create = Some(form);
        }
    }

    /// Back to the history the replay came from, or out of the program offline.
    fn leave_replay(&mut self) {
        let Screen::Replay(rs) = &mut self.screen else {
            return;
        };
        match rs.back.take() {
            Some(ReplayBack::History(mut history)) => {
                history.opening = None;
                self.screen = Screen::History(history);
            }
            Some(ReplayBack::Profile(mut profile)) => {
                profile.opening = None;
                self.screen = Screen::Profile(profile);
            }
            None if self.session.welcome.is_some() => self.back_to_lobby(),
            None => self.effects.push(Effect::Quit),
        }
    }

    /// Time passed: a replay playing by itself takes its next step.
    pub(super) fn replay_tick(&mut self) {
        if let Screen::Replay(rs) = &mut self.screen {
            rs.tick(self.now);
        }
    }

    /// Where a record saved under `name` goes: a bare name (or a relative path) into the
    /// games folder, a full path (or `~/...`) where it says.
    pub fn record_path(&self, name: &str) -> PathBuf {
        let typed = crate::settings::expand_home(std::path::Path::new(name));
        match &self.games_dir {
            Some(dir) if typed.is_relative() => dir.join(typed),
            _ => typed,
        }
    }

    /// The answer to a save of `path`: where the file went, or why it did not (then
    /// the prompt opens again with the name, to change it).
    pub fn record_saved(&mut self, path: &std::path::Path, result: Result<PathBuf, SaveError>) {
        // Offered again as typed: the name alone when it went to the games folder.
        let shown = self
            .games_dir
            .as_deref()
            .and_then(|dir| path.strip_prefix(dir).ok())
            .unwrap_or(path)
            .display()
            .to_string();
        let why = match result {
            Ok(full) => {
                let msg = tr!(self.loc, "replay.saved", path = full.display());
                return self.info(msg);
            }
            Err(SaveError::Exists(_)) => tr!(self.loc, "replay.save_exists", path = shown),
            Err(SaveError::Write { message, .. }) => {
                tr!(self.loc, "replay.save_failed", path = shown, why = message)
            }
        };
        if let Screen::Replay(rs) = &mut self.screen {
            rs.save = Some(TextInput::with_text(200, &shown));
        }
        self.warn(why);
    }

    pub(super) fn got_leaderboard(&mut self, game: GameKind, list: Vec<Standing>) {
        // An answer for the other game (the reader switched meanwhile) is stale.
        if let Screen::Leaderboard(board) = &mut self.screen
            && board.game == game
        {
            board.selected = board.selected.min(list.len().saturating_sub(1));
            board.standings = Some(list);
        }
    }

    pub(super) fn got_history(&mut self, list: Vec<GameSummary>) {
        if let Screen::History(history) = &mut self.screen {
            history.selected = history.selected.min(list.len().saturating_sub(1));
            history.games = Some(list);
            if history.review_newest.is_some() {
                self.open_newest_reviewed();
            }
        }
    }

    pub(super) fn got_replay(&mut self, record: GameRecord) {
        let me = self.my_name();
        let mut reviewed = false;
        let back = match &self.screen {
            Screen::History(history) => {
                reviewed = history.then_review;
                let mut back = history.clone();
                back.opening = None;
                back.then_review = false;
                ReplayBack::History(back)
            }
            Screen::Profile(profile) if profile.opening.is_some() => {
                let mut back = profile.clone();
                back.opening = None;
                ReplayBack::Profile(back)
            }
            _ => return,
        };
        let replay = Replay::from_record(record);
        let mut screen = ReplayScreen::new(replay, Some(back), me.as_deref());
        if reviewed {
            screen.review = Some(super::review::ReviewView::Asked);
        }
        self.screen = Screen::Replay(Box::new(screen));
    }

    /// A refusal while a records screen waits: stop waiting (the notice says why).
    pub(super) fn records_refused(&mut self) {
        match &mut self.screen {
            Screen::Leaderboard(b) if b.standings.is_none() => b.standings = Some(Vec::new()),
            Screen::History(h) => {
                h.opening = None;
                h.then_review = false;
                h.review_newest = None;
                if h.games.is_none() {
                    h.games = Some(Vec::new());
                }
            }
            _ => {}
        }
    }
}

/// What a key on a records screen (the leaderboard, the history) asks of the app,
/// beyond moving the highlight.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordsKey {
    Nothing,
    Leaderboard(GameKind),
    History(HistoryFilter),
    /// Someone's profile, from the leaderboard.
    Profile(Who),
    /// A game's replay, from the history (not already being opened).
    Replay(GameId),
    /// A game's replay with its review.
    Reviewed(GameId),
    /// Enter on an empty history.
    NothingToOpen,
    /// Challenge this player (`a` on the leaderboard).
    Challenge(Who),
    Help,
    Lobby,
}

impl Leaderboard {
    /// A key on the leaderboard.
    pub fn key(&mut self, key: KeyEvent) -> RecordsKey {
        let count = self.standings.as_ref().map_or(0, Vec::len);
        if step_selection(&mut self.selected, count, key.code) {
            return RecordsKey::Nothing;
        }
        let chosen = self
            .standings
            .as_ref()
            .and_then(|s| s.get(self.selected))
            .map(|s| Who {
                name: s.name.clone(),
                bot: s.bot,
            });
        match key.code {
            KeyCode::Enter => chosen.map_or(RecordsKey::Nothing, RecordsKey::Profile),
            KeyCode::Char('a') => chosen.map_or(RecordsKey::Nothing, RecordsKey::Challenge),
            KeyCode::Char('g') => chosen.map_or(RecordsKey::Nothing, |who| {
                RecordsKey::History(HistoryFilter::Player(who.name))
            }),
            KeyCode::Tab | KeyCode::BackTab | KeyCode::Left | KeyCode::Right => {
                RecordsKey::Leaderboard(super::profile::other_game(self.game))
            }
            KeyCode::Char('c') => RecordsKey::Leaderboard(GameKind::Caro),
            KeyCode::Char('x') => RecordsKey::Leaderboard(GameKind::Xiangqi),
            KeyCode::Char('r') | KeyCode::F(5) => RecordsKey::Leaderboard(self.game),
            KeyCode::Char('h') => RecordsKey::History(HistoryFilter::Everyone),
            KeyCode::Char('?') => RecordsKey::Help,
            KeyCode::Esc | KeyCode::Char('q') => RecordsKey::Lobby,
            _ => RecordsKey::Nothing,
        }
    }
}

impl History {
    /// The highlighted game's id, once the list has come.
    pub fn selected_game(&self) -> Option<GameId> {
        self.games
            .as_ref()
            .and_then(|g| g.get(self.selected))
            .map(|g| g.id)
    }

    /// A key on the history.
    pub fn key(&mut self, key: KeyEvent) -> RecordsKey {
        let count = self.games.as_ref().map_or(0, Vec::len);
        if step_selection(&mut self.selected, count, key.code) {
            return RecordsKey::Nothing;
        }
        match key.code {
            KeyCode::Enter => match self.selected_game() {
                Some(id) if self.opening.is_none() => RecordsKey::Replay(id),
                Some(_) => RecordsKey::Nothing,
                None => RecordsKey::NothingToOpen,
            },
            KeyCode::Char('v') => self
                .selected_game()
                .map_or(RecordsKey::Nothing, RecordsKey::Reviewed),
            KeyCode::Tab | KeyCode::Char('m') | KeyCode::Char('a') => {
                RecordsKey::History(match self.filter {
                    HistoryFilter::Mine => HistoryFilter::Everyone,
                    HistoryFilter::Everyone | HistoryFilter::Player(_) => HistoryFilter::Mine,
                })
            }
            KeyCode::Char('r') | KeyCode::F(5) => RecordsKey::History(self.filter.clone()),
            KeyCode::Char('l') => RecordsKey::Leaderboard(GameKind::Caro),
            KeyCode::Char('?') => RecordsKey::Help,
            KeyCode::Esc | KeyCode::Char('q') => RecordsKey::Lobby,
            _ => RecordsKey::Nothing,
        }
    }
}

/// What a key on the replay screen asks of the app, beyond stepping through the game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplayKey {
    Nothing,
    /// Write the record `text` to a new file named `name` (in the games folder when
    /// the name is bare).
    Save {
        name: String,
        text: String,
    },
    /// Ask for the engine's review.
    Review,
    /// A new room from the position shown.
    PlayOn,
    Help,
    /// Back where the replay came from.
    Leave,
}

impl ReplayScreen {
    /// A key on the replay, at `now` (autoplay counts from it).
    pub fn key(&mut self, key: KeyEvent, now: Instant) -> ReplayKey {
        if let Some(input) = &mut self.save {
            match key.code {
                KeyCode::Esc => self.save = None,
                KeyCode::Enter => {
                    let name = input.text().trim().to_string();
                    if name.is_empty() {
                        return ReplayKey::Nothing;
                    }
                    let text = file::write(&self.replay);
                    self.save = None;
                    return ReplayKey::Save { name, text };
                }
                _ => {
                    if input.edit(key) == Edit::Ignored && key.code == KeyCode::Char('?') {
                        return ReplayKey::Help;
                    }
                }
            }
            return ReplayKey::Nothing;
        }
        let r = &mut self.replay;
        match key.code {
            KeyCode::Right | KeyCode::Char('l') => {
                self.autoplay = None;
                r.forward();
            }
            KeyCode::Left | KeyCode::Char('h') => {
                self.autoplay = None;
                r.back();
            }
            KeyCode::Home | KeyCode::Char('g') => {
                self.autoplay = None;
                r.go_to(0);
            }
            KeyCode::End | KeyCode::Char('G') => {
                self.autoplay = None;
                r.go_to(usize::MAX);
            }
            KeyCode::PageDown | KeyCode::Down | KeyCode::Char('j') => {
                let step = if key.code == KeyCode::PageDown { 10 } else { 2 };
                r.go_to(r.at() + step);
            }
            KeyCode::PageUp | KeyCode::Up | KeyCode::Char('k') => {
                let step = if key.code == KeyCode::PageUp { 10 } else { 2 };
                r.go_to(r.at().saturating_sub(step));
            }
            KeyCode::Char(' ') | KeyCode::Char('p') => {
                self.autoplay = match self.autoplay {
                    Some(_) => None,
                    None => {
                        // From the end, a replay plays again from the start.
                        if r.at_end() {
                            r.go_to(0);
                        }
                        Some(now + AUTOPLAY_EVERY)
                    }
                };
            }
            KeyCode::Char('f') => self.flipped = !self.flipped,
            KeyCode::Char('v') => return ReplayKey::Review,
            KeyCode::Char('c') => return ReplayKey::PlayOn,
            KeyCode::Char('s') => {
                let name = file::default_name(&self.replay);
                self.save = Some(TextInput::with_text(200, &name));
            }
            KeyCode::Char('?') => return ReplayKey::Help,
            KeyCode::Esc | KeyCode::Char('q') => return ReplayKey::Leave,
            _ => {}
        }
        ReplayKey::Nothing
    }

    /// Time passed: playing by itself, the replay takes its next step when due.
    pub fn tick(&mut self, now: Instant) {
        let Some(due) = self.autoplay else { return };
        if now < due {
            return;
        }
        if self.replay.forward() && !self.replay.at_end() {
            self.autoplay = Some(now + AUTOPLAY_EVERY);
        } else {
            self.autoplay = None;
        }
    }
}

/// Up/down/Home/End/PgUp/PgDn on a list of `count`; `true` if the key was one of them.
pub(super) fn step_selection(selected: &mut usize, count: usize, code: KeyCode) -> bool {
    let last = count.saturating_sub(1);
    *selected = match code {
        KeyCode::Up | KeyCode::Char('k') => selected.saturating_sub(1),
        KeyCode::Down | KeyCode::Char('j') => (*selected + 1).min(last),
        KeyCode::PageUp => selected.saturating_sub(10),
        KeyCode::PageDown => (*selected + 10).min(last),
        KeyCode::Home => 0,
        KeyCode::End => last,
        _ => return false,
    };
    true
}

/// Where `c` in a replay starts a new room from.
enum PlayOn {
    Xiangqi(String),
    Caro {
        width: u8,
        height: u8,
        rule: Rule,
        /// Every stone on the board in the order played, X first.
        stones: Vec<Point>,
    },
}
