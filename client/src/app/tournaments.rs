//! The Tournaments screen (`t` in the lobby): the list of tournaments, one opened with
//! its pairings, standings (with the tie-breaks) and crosstable, and the form that
//! creates one: name, format and rounds (or minutes) first, then the create-room form
//! for the games' settings.
//!
//! The server's views replace what is shown as they come; keys send one request each.
//! An opened tournament's keys: a player enters, withdraws, asks for a bye (`h`) and goes
//! to their game; the organiser also starts, pairs, pauses or resumes (`P`), adds a round
//! (`+`), sets the chosen board's result (`1`, `0`, `=`), enters the server's bots
//! (`b`), removes the chosen player of the standings (`x`, twice); anyone saves the
//! exports in the current folder (`E`).

use banco_protocol::{
    BoardResult, ByeValue, ClientMsg, ExportFormat, Level, RoomId, TieBreak, TournamentFormat,
    TournamentSettings, TournamentStart, TournamentStatus, TournamentSummary, TournamentView,
};
use crossterm::event::{KeyCode, KeyEvent};

use super::create::{CreateForm, FormAction};
use super::input::TextInput;
use super::{App, Lobby, Screen};
use crate::tr;

/// What the opened tournament shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Pane {
    /// The current round's boards (Enter opens one).
    #[default]
    Pairings,
    /// Standings with the tie-breaks.
    Standings,
    /// Round by round, everyone.
    Crosstable,
}

impl Pane {
    fn next(self) -> Pane {
        match self {
            Pane::Pairings => Pane::Standings,
            Pane::Standings => Pane::Crosstable,
            Pane::Crosstable => Pane::Pairings,
        }
    }
}

/// Which field of the tournament form has the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TourneyField {
    #[default]
    Name,
    Format,
    /// Rounds (Swiss), cycles (round robin: 1 or 2), minutes (arena).
    Length,
    /// Arena: berserk allowed or not. Swiss and round robin: what the bye is worth.
    Extra,
    /// Swiss: what a bye a player asks for is worth.
    RequestedBye,
    /// How long a player may keep a game waiting for their first move.
    Forfeit,
    /// Swiss and round robin: the tie-breaks in order, typed as codes.
    TieBreaks,
    /// When it starts: when the organiser starts it, or in so many minutes.
    Start,
}

/// The start delays offered, in minutes (0: when the organiser starts it).
const START_MINUTES: [u32; 12] = [0, 1, 2, 5, 10, 15, 20, 30, 45, 60, 90, 120];

/// The forfeit waits offered, in seconds (the server takes 1 to 3600).
const FORFEIT_SECS: [u32; 10] = [30, 60, 120, 180, 300, 600, 900, 1200, 1800, 3600];

/// The byes' worths in the order ←/→ steps through them.
const WORTHS: [ByeValue; 3] = [ByeValue::Win, ByeValue::Draw, ByeValue::Nothing];

/// The index after (or before) `at` in a list of `len` choices, stopping at either end.
fn step_in(at: usize, len: usize, up: bool) -> usize {
    if up {
        (at + 1).min(len - 1)
    } else {
        at.saturating_sub(1)
    }
}

/// The worth after (or before) `now` among [`WORTHS`].
fn step_worth(now: ByeValue, up: bool) -> ByeValue {
    let at = WORTHS.iter().position(|w| *w == now).unwrap_or(0);
    WORTHS[if up { (at + 1) % 3 } else { (at + 2) % 3 }]
}

/// The first page of the create form: what kind of tournament; the games' settings come
/// on the second page, the create-room form.
#[derive(Debug, Clone)]
pub struct TourneyForm {
    pub name: TextInput,
    /// 0 Swiss, 1 round robin, 2 arena.
    pub format: usize,
    /// Rounds, cycles or minutes, by format.
    pub length: [u32; 3],
    /// An arena lets players berserk.
    pub berserk: bool,
    /// What the pairing-allocated bye is worth (Swiss and round robin).
    pub bye: ByeValue,
    /// What a bye a player asks for is worth (Swiss).
    pub requested_bye: ByeValue,
    /// Index into the offered forfeit waits.
    pub forfeit: usize,
    /// The tie-breaks in order, as typed (Swiss and round robin).
    pub tie_breaks: TextInput,
    /// Index into the offered start delays (0: when the organiser starts it).
    pub start: usize,
    pub focus: TourneyField,
    /// The second page, once reached.
    pub games: Option<CreateForm>,
}

impl Default for TourneyForm {
    fn default() -> Self {
        TourneyForm {
            name: TextInput::new(banco_protocol::tournament::MAX_TOURNAMENT_NAME_CHARS),
            format: 0,
            length: [5, 1, 30],
            berserk: false,
            bye: ByeValue::Win,
            requested_bye: ByeValue::half(),
            forfeit: FORFEIT_SECS
                .iter()
                .position(|s| *s == TournamentSettings::DEFAULT_FORFEIT_SECS)
                .unwrap_or(0),
            tie_breaks: TextInput::with_text(60, &TieBreak::default_codes()),
            start: 0,
            focus: TourneyField::Name,
            games: None,
        }
    }
}

impl TourneyForm {
    /// The format as chosen.
    pub fn format(&self) -> TournamentFormat {
        match self.format {
            0 => TournamentFormat::Swiss {
                rounds: self.length[0],
            },
            1 => TournamentFormat::RoundRobin {
                double: self.length[1] >= 2,
            },
            _ => TournamentFormat::Arena {
                seconds: self.length[2] * 60,
                berserk: self.berserk,
            },
        }
    }

    /// The minutes until it starts, `0` when the organiser starts it.
    pub fn start_minutes(&self) -> u32 {
        START_MINUTES[self.start.min(START_MINUTES.len() - 1)]
    }

    /// The forfeit wait chosen, in seconds.
    pub fn forfeit_secs(&self) -> u32 {
        FORFEIT_SECS[self.forfeit.min(FORFEIT_SECS.len() - 1)]
    }

    /// The tie-breaks as typed, `None` when a word is not one (an arena has none).
    pub fn tie_breaks(&self) -> Option<Vec<TieBreak>> {
        if self.format == 2 {
            Some(Vec::new())
        } else {
            TieBreak::parse_list(self.tie_breaks.text())
        }
    }

    /// The tournament as the form says, with the games' settings `room`.
    pub fn settings(&self, room: banco_protocol::RoomSettings) -> TournamentSettings {
        let rated = room.rated;
        let mut s = TournamentSettings::new(self.name.text().trim(), self.format(), room);
        s.rated = rated;
        s.bye = self.bye;
        s.requested_bye = self.requested_bye;
        s.forfeit_secs = self.forfeit_secs();
        // The form is not left with tie-breaks it cannot read (Enter checks them).
        if let Some(t) = self.tie_breaks() {
            s.tie_breaks = t;
        }
        let minutes = self.start_minutes();
        if minutes > 0 {
            let at = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_millis() as u64)
                + u64::from(minutes) * 60_000;
            s.start = TournamentStart::At { unix_ms: at };
        }
        s
    }

    /// The fields the chosen format has, in order.
    pub fn fields(&self) -> Vec<TourneyField> {
        let mut f = vec![
            TourneyField::Name,
            TourneyField::Format,
            TourneyField::Length,
            TourneyField::Extra,
        ];
        if self.format == 0 {
            f.push(TourneyField::RequestedBye);
        }
        f.push(TourneyField::Forfeit);
        if self.format != 2 {
            f.push(TourneyField::TieBreaks);
        }
        f.push(TourneyField::Start);
        f
    }

    /// The field under the cursor is typed in, not stepped through.
    pub fn typing(&self) -> bool {
        matches!(self.focus, TourneyField::Name | TourneyField::TieBreaks)
    }

    fn change(&mut self, up: bool) {
        match self.focus {
            TourneyField::Name | TourneyField::TieBreaks => {}
            TourneyField::Format => {
                self.format = if up {
                    (self.format + 1) % 3
                } else {
                    (self.format + 2) % 3
                };
            }
            TourneyField::Length => {
                let (lo, hi) = match self.format {
                    0 => (1, banco_protocol::tournament::MAX_SWISS_ROUNDS),
                    1 => (1, 2),
                    _ => (1, banco_protocol::tournament::MAX_ARENA_SECS / 60),
                };
                let v = &mut self.length[self.format];
                *v = if up {
                    (*v + 1).min(hi)
                } else {
                    v.saturating_sub(1).max(lo)
                };
            }
            TourneyField::Extra if self.format == 2 => self.berserk = !self.berserk,
            TourneyField::Extra => self.bye = step_worth(self.bye, up),
            TourneyField::RequestedBye => self.requested_bye = step_worth(self.requested_bye, up),
            TourneyField::Forfeit => self.forfeit = step_in(self.forfeit, FORFEIT_SECS.len(), up),
            TourneyField::Start => self.start = step_in(self.start, START_MINUTES.len(), up),
        }
    }
}

/// The Tournaments screen.
#[derive(Debug, Clone, Default)]
pub struct TournamentsScreen {
    /// The list as last sent.
    pub list: Vec<TournamentSummary>,
    /// The highlighted line of the list, or board of the opened tournament.
    pub selected: usize,
    /// The tournament opened, as last sent.
    pub open: Option<TournamentView>,
    /// When `open` came: its countdowns (the arena's end, a set start) run from then.
    pub opened_at: Option<std::time::Instant>,
    /// What the opened tournament shows.
    pub pane: Pane,
    /// The create form, while it is open.
    pub form: Option<TourneyForm>,
    /// The player `x` was pressed on once: a second `x` removes them.
    pub confirm_remove: Option<String>,
    /// The name of a bot account to enter (`B`), while it is typed: Enter enters it.
    pub bot_account: Option<TextInput>,
}

impl TournamentsScreen {
    /// The opened tournament's boards of its current round.
    pub fn current_boards(&self) -> Vec<&banco_protocol::BoardView> {
        self.open.as_ref().map_or_else(Vec::new, |v| {
            v.boards
                .iter()
                .filter(|b| b.round == v.summary.round)
                .collect()
        })
    }
}

impl App {
    /// Opens the screen, asking for the list.
    pub(super) fn open_tournaments(&mut self) {
        self.send(ClientMsg::ListTournaments);
        self.screen = Screen::Tournaments(Box::default());
    }

    /// A tournament message: kept for the screen, and told.
    pub(super) fn tournament_msg(&mut self, msg: banco_protocol::ServerMsg) {
        use banco_protocol::ServerMsg;
        let loc = self.loc.clone();
        match msg {
            ServerMsg::Tournaments(list) => {
                if let Screen::Tournaments(ts) = &mut self.screen {
                    ts.list = list;
                    if ts.open.is_none() {
                        ts.selected = ts.selected.min(ts.list.len().saturating_sub(1));
                    }
                }
            }
            ServerMsg::Tournament(view) => {
                if let Screen::Tournaments(ts) = &mut self.screen {
                    if let Some(line) = ts.list.iter_mut().find(|l| l.id == view.summary.id) {
                        *line = view.summary.clone();
                    } else {
                        ts.list.insert(0, view.summary.clone());
                    }
                    let shown = ts.open.as_ref().map(|v| v.summary.id);
                    if shown.is_none_or(|id| id == view.summary.id) {
                        if shown.is_none() {
                            ts.selected = 0;
                        }
                        ts.open = Some(*view);
                        ts.opened_at = Some(self.now);
                    }
                }
            }
            ServerMsg::TournamentGame(game) => {
                self.bell();
                let colour = if game.white {
                    loc.get("tournament.white")
                } else {
                    loc.get("tournament.black")
                };
                let text = tr!(
                    loc,
                    "tournament.game_ready",
                    round = game.round,
                    board = game.board,
                    opponent = game.opponent,
                    room = game.room,
                    colour = colour,
                    secs = game.forfeit_secs
                );
                self.info(text);
            }
            ServerMsg::TournamentOver { id, winners } => {
                let text = tr!(
                    loc,
                    "tournament.over",
                    id = id,
                    winners = winners.join(", ")
                );
                self.info(text);
            }
            ServerMsg::TournamentExport { name, text } => {
                // The server names the file; only its last part is used, in the folder
                // the client runs in.
                let file = std::path::Path::new(&name)
                    .file_name()
                    .map(|f| f.to_string_lossy().into_owned())
                    .filter(|f| !f.starts_with('.'))
                    .unwrap_or_else(|| "tournament-export.txt".into());
                match std::fs::write(&file, text.as_bytes()) {
                    Ok(()) => {
                        let msg = tr!(loc, "tournament.saved", name = file, bytes = text.len());
                        self.info(msg);
                    }
                    Err(e) => {
                        let msg = tr!(loc, "tournament.save_failed", name = file, why = e);
                        self.warn(msg);
                    }
                }
            }
            _ => {}
        }
    }

    pub(super) fn tournaments_key(&mut self, key: KeyEvent) {
        let me = self.session.name().unwrap_or_default();
        let Screen::Tournaments(ts) = &mut self.screen else {
            return;
        };
        if let Some(form) = &mut ts.form {
            if let Some(games) = &mut form.games {
                match games.key(key) {
                    FormAction::Create(room) => {
                        let s = form.settings(room);
                        ts.form = None;
                        self.send(ClientMsg::CreateTournament(Box::new(s)));
                    }
                    FormAction::Cancel => form.games = None,
                    FormAction::None | FormAction::Arrange => {}
                    FormAction::BadSize => {
                        let msg = tr!(self.loc, "create.bad_size").to_string();
                        self.warn(msg);
                    }
                    FormAction::BadFen(why) => {
                        let msg = tr!(self.loc, "create.bad_fen", why = why);
                        self.warn(msg);
                    }
                    FormAction::BadOpening(why) => {
                        let msg = tr!(self.loc, "create.bad_opening", why = why);
                        self.warn(msg);
                    }
                    FormAction::BadMatch => {
                        let msg = tr!(self.loc, "create.bad_match").to_string();
                        self.warn(msg);
                    }
                }
                return;
            }
            let fields = form.fields();
            let at = fields.iter().position(|f| *f == form.focus).unwrap_or(0);
            match key.code {
                KeyCode::Esc => ts.form = None,
                KeyCode::Tab | KeyCode::Down => form.focus = fields[(at + 1) % fields.len()],
                KeyCode::BackTab | KeyCode::Up => {
                    form.focus = fields[(at + fields.len() - 1) % fields.len()];
                }
                KeyCode::Enter => {
                    if form.name.text().trim().is_empty() {
                        form.focus = TourneyField::Name;
                        let msg = tr!(self.loc, "tournament.name_needed").to_string();
                        self.warn(msg);
                    } else if form.tie_breaks().is_none() {
                        form.focus = TourneyField::TieBreaks;
                        let codes: Vec<&str> = TieBreak::ALL.iter().map(|t| t.code()).collect();
                        let msg = tr!(
                            self.loc,
                            "tournament.bad_tiebreaks",
                            codes = codes.join(" ")
                        );
                        self.warn(msg);
                    } else {
                        // The games: the create form as last used, people in both seats.
                        form.games =
                            Some(CreateForm::tournament_games(self.settings.create.as_ref()));
                    }
                }
                KeyCode::Left if !form.typing() => form.change(false),
                KeyCode::Right if !form.typing() => form.change(true),
                KeyCode::Char(' ') if !form.typing() => form.change(true),
                _ if form.focus == TourneyField::Name => {
                    form.name.edit(key);
                }
                _ if form.focus == TourneyField::TieBreaks => {
                    form.tie_breaks.edit(key);
                }
                _ => {}
            }
            return;
        }
        if let (Some(field), Some(view)) = (&mut ts.bot_account, &ts.open) {
            let id = view.summary.id;
            match key.code {
                KeyCode::Esc => ts.bot_account = None,
                KeyCode::Enter => {
                    let name = field.text().trim().to_string();
                    if !name.is_empty() {
                        ts.bot_account = None;
                        self.send(ClientMsg::EnterBotAccount { id, name });
                    }
                }
                _ => {
                    if field.edit(key) == super::input::Edit::Full {
                        let msg = tr!(self.loc, "tournament.bot_account_full").to_string();
                        self.warn(msg);
                    }
                }
            }
            return;
        }
        if let Some(view) = &ts.open {
            let id = view.summary.id;
            let boards: Vec<(Option<RoomId>, bool)> = ts
                .current_boards()
                .iter()
                .map(|b| {
                    let mine = [b.white, b.black]
                        .iter()
                        .any(|n| view.name_of(*n).eq_ignore_ascii_case(&me));
                    (b.room.filter(|_| b.result.is_none()), mine)
                })
                .collect();
            let my_room = boards
                .iter()
                .find(|(r, mine)| *mine && r.is_some())
                .and_then(|b| b.0);
            let chosen_board = (ts.pane == Pane::Pairings)
                .then(|| {
                    ts.current_boards()
                        .get(ts.selected)
                        .map(|b| (b.round, b.board))
                })
                .flatten();
            let chosen_player = (ts.pane == Pane::Standings)
                .then(|| view.standings.get(ts.selected))
                .flatten()
                .map(|l| view.name_of(l.entrant).to_string());
            let lines = match ts.pane {
                Pane::Pairings => boards.len(),
                Pane::Standings => view.standings.len(),
                Pane::Crosstable => 0,
            };
            let me_number = view
                .entrants
                .iter()
                .find(|e| e.name.eq_ignore_ascii_case(&me))
                .map(|e| e.number);
            let next_round = view.summary.round + 1;
            let bye_asked = view
                .bye_requests
                .iter()
                .any(|r| Some(r.entrant) == me_number && r.round == next_round);
            let status = view.summary.status;
            let arena = matches!(view.summary.format, TournamentFormat::Arena { .. });
            let next_bot = Level::ALL
                .into_iter()
                .find(|l| !view.entrants.iter().any(|e| e.bot == Some(*l)));
            let confirm = ts.confirm_remove.take();
            match key.code {
                KeyCode::Up | KeyCode::Char('k') => ts.selected = ts.selected.saturating_sub(1),
                KeyCode::Down | KeyCode::Char('j') => {
                    ts.selected = (ts.selected + 1).min(lines.saturating_sub(1));
                }
                KeyCode::Tab => {
                    ts.pane = ts.pane.next();
                    ts.selected = 0;
                }
                KeyCode::Char('h') => self.send(ClientMsg::RequestBye {
                    id,
                    round: bye_asked.then_some(next_round),
                    cancel: bye_asked,
                }),
                KeyCode::Char('P') => self.send(ClientMsg::PauseTournament {
                    id,
                    paused: status != TournamentStatus::Paused,
                }),
                KeyCode::Char('+') => self.send(ClientMsg::AddRound(id)),
                KeyCode::Char(c @ ('1' | '0' | '=')) => match chosen_board {
                    Some((round, board)) => {
                        let result = match c {
                            '1' => BoardResult::WhiteWins,
                            '0' => BoardResult::BlackWins,
                            _ => BoardResult::Draw,
                        };
                        self.send(ClientMsg::SetResult {
                            id,
                            round,
                            board,
                            result,
                        });
                    }
                    None => {
                        let msg = tr!(self.loc, "tournament.result_what").to_string();
                        self.warn(msg);
                    }
                },
                KeyCode::Char('b') => match next_bot {
                    Some(level) => self.send(ClientMsg::AddTournamentBot { id, level }),
                    None => {
                        let msg = tr!(self.loc, "tournament.bots_all").to_string();
                        self.warn(msg);
                    }
                },
                // A bot account (`banco bot`) by its name, typed on the notice line.
                KeyCode::Char('B') => {
                    ts.bot_account = Some(TextInput::new(banco_protocol::MAX_NAME_CHARS));
                }
                KeyCode::Char('x') => match chosen_player {
                    Some(name) if confirm.as_deref() == Some(name.as_str()) => {
                        self.send(ClientMsg::RemoveEntrant { id, name });
                    }
                    Some(name) => {
                        let msg = tr!(self.loc, "tournament.confirm_remove", name = name);
                        ts.confirm_remove = Some(name);
                        self.warn(msg);
                    }
                    None => {
                        let msg = tr!(self.loc, "tournament.remove_what").to_string();
                        self.warn(msg);
                    }
                },
                KeyCode::Char('E') => {
                    let formats: &[ExportFormat] = if arena {
                        &[ExportFormat::Csv, ExportFormat::Json]
                    } else {
                        &[ExportFormat::Trf, ExportFormat::Csv, ExportFormat::Json]
                    };
                    for &format in formats {
                        self.send(ClientMsg::ExportTournament { id, format });
                    }
                }
                KeyCode::Enter => {
                    if let Some((Some(room), mine)) = boards.get(ts.selected).copied() {
                        self.send(if mine {
                            ClientMsg::JoinRoom(room)
                        } else {
                            ClientMsg::WatchRoom(room)
                        });
                    }
                }
                KeyCode::Char('g') => {
                    if let Some(room) = my_room {
                        self.send(ClientMsg::JoinRoom(room));
                    } else {
                        let msg = tr!(self.loc, "tournament.no_game").to_string();
                        self.info(msg);
                    }
                }
                KeyCode::Char('J') | KeyCode::Char('e') => self.send(ClientMsg::JoinTournament(id)),
                KeyCode::Char('w') => self.send(ClientMsg::WithdrawTournament(id)),
                KeyCode::Char('s') => self.send(ClientMsg::StartTournament(id)),
                KeyCode::Char('p') => self.send(ClientMsg::PairRound(id)),
                KeyCode::Char('r') | KeyCode::F(5) => self.send(ClientMsg::ShowTournament(id)),
                KeyCode::Char('?') => self.help = true,
                KeyCode::Esc | KeyCode::Char('q') => {
                    ts.open = None;
                    ts.selected = 0;
                    ts.pane = Pane::Pairings;
                    self.send(ClientMsg::ListTournaments);
                }
                _ => {}
            }
            return;
        }
        let count = ts.list.len();
        let chosen = ts.list.get(ts.selected).map(|t| t.id);
        match key.code {
            KeyCode::Up | KeyCode::Char('k') => ts.selected = ts.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => {
                ts.selected = (ts.selected + 1).min(count.saturating_sub(1));
            }
            KeyCode::Enter => {
                if let Some(id) = chosen {
                    self.send(ClientMsg::ShowTournament(id));
                }
            }
            KeyCode::Char('e') => {
                if let Some(id) = chosen {
                    self.send(ClientMsg::JoinTournament(id));
                }
            }
            KeyCode::Char('c') | KeyCode::Char('n') => ts.form = Some(TourneyForm::default()),
            KeyCode::Char('r') | KeyCode::F(5) => self.send(ClientMsg::ListTournaments),
            KeyCode::Char('?') => self.help = true,
            KeyCode::Esc | KeyCode::Char('q') => {
                self.screen = Screen::Lobby(Lobby::default());
                self.send(ClientMsg::ListRooms);
            }
            _ => {}
        }
    }
}
