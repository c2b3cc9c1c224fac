//! The lobby's side of tournaments: the directory of tournaments (their handles and list
//! lines), requests routed to them with who asks, and the rooms of their boards opened
//! and their players placed and told.

use std::collections::{BTreeMap, HashMap};

use banco_protocol::{
    ErrorCode, ErrorMsg, RoomId, ServerMsg, TournamentId, TournamentSettings, TournamentSummary,
};

use super::Lobby;
use crate::ClientId;
use crate::room;
use crate::store::tournaments::StoredTournament;
use crate::tournament::{
    self, Asker, Beginning, BoardOpening, TournamentContext, TournamentHandle, TournamentMsg,
    TournamentRequest, record::Record,
};
use crate::wall_clock::unix_ms;

/// What a session asks about tournaments.
#[derive(Debug)]
pub enum TournamentAsk {
    /// Make one.
    Create(Box<TournamentSettings>),
    /// The list.
    List,
    /// Something of tournament `id`.
    Of(TournamentId, TournamentRequest),
}

/// Tournaments one account may have that are not over.
const TOURNAMENTS_PER_ORGANISER: usize = 4;

/// Tournaments the server runs at once (not over); finished ones are kept without limit
/// but cost no task's work.
const TOURNAMENTS_RUNNING: usize = 64;

/// Every tournament on the server.
#[derive(Default)]
pub struct TournamentBook {
    /// Their actors.
    handles: HashMap<TournamentId, TournamentHandle>,
    /// Their list lines, as last told.
    lines: BTreeMap<TournamentId, TournamentSummary>,
    /// The number the next one gets.
    next: TournamentId,
}

impl Lobby {
    fn tournament_context(&self) -> TournamentContext {
        TournamentContext {
            store: self.store.clone(),
            lobby: self.me.clone(),
            shutdown: self.shutdown.clone(),
            grace: self.config.grace,
        }
    }

    /// `name` has come onto the server: every tournament not over is told (it gives
    /// them their board again; an arena pairs them again).
    pub(super) fn tournaments_arrived(&mut self, name: &str) {
        for (id, handle) in &self.tournaments.handles {
            let live = self
                .tournaments
                .lines
                .get(id)
                .is_some_and(|l| l.status != banco_protocol::TournamentStatus::Over);
            if live {
                handle.send(TournamentMsg::Arrived(name.to_string()));
            }
        }
    }

    /// Carries on with the tournaments the store kept.
    pub(super) fn restore_tournaments(&mut self, stored: Vec<StoredTournament>) {
        for s in stored {
            let id = s.id;
            self.tournaments.next = self.tournaments.next.max(id + 1);
            match Record::from_stored(s) {
                Ok(record) => {
                    self.tournaments.lines.insert(id, record.summary());
                    let handle = tournament::spawn(
                        record,
                        Beginning::Restored,
                        self.tournament_context(),
                        &self.tracker,
                    );
                    self.tournaments.handles.insert(id, handle);
                }
                Err(why) => {
                    tracing::error!(id, %why, "a saved tournament cannot be read; it is kept but not run");
                }
            }
        }
    }

    /// `client` asks something about tournaments; answers go to its outbox.
    pub(super) fn tournament(&mut self, client: ClientId, ask: TournamentAsk) {
        let Some(s) = self.sessions.get(&client) else {
            return;
        };
        let asker = Asker {
            client,
            name: s.name.clone(),
            account: s.account,
            outbox: s.outbox.clone(),
        };
        let refuse = |e: ErrorMsg| {
            asker.outbox.send(ServerMsg::Error(e));
        };
        match ask {
            TournamentAsk::List => {
                let list = self.tournaments.lines.values().rev().cloned().collect();
                asker.outbox.send(ServerMsg::Tournaments(list));
            }
            TournamentAsk::Create(settings) => {
                if !asker.account {
                    return refuse(ErrorMsg::new(
                        ErrorCode::NotLoggedIn,
                        "only a registered account can organise a tournament: log in first",
                    ));
                }
                let running: Vec<&TournamentSummary> = self
                    .tournaments
                    .lines
                    .values()
                    .filter(|t| t.status != banco_protocol::TournamentStatus::Over)
                    .collect();
                let mine = running
                    .iter()
                    .filter(|t| t.organiser.eq_ignore_ascii_case(&asker.name))
                    .count();
                if mine >= TOURNAMENTS_PER_ORGANISER || running.len() >= TOURNAMENTS_RUNNING {
                    return refuse(ErrorMsg::new(
                        ErrorCode::Busy,
                        if mine >= TOURNAMENTS_PER_ORGANISER {
                            format!(
                                "you run {mine} tournaments that are not over, as many as one \
                                 organiser may: finish one first"
                            )
                        } else {
                            format!(
                                "this server runs {} tournaments, as many as it allows: try \
                                 again when one is over",
                                running.len()
                            )
                        },
                    ));
                }
                let settings = match tournament::settle(*settings) {
                    Ok(s) => s,
                    Err(e) => return refuse(e),
                };
                let id = self.tournaments.next.max(1);
                self.tournaments.next = id + 1;
                let record = Record::new(id, asker.name.clone(), settings, unix_ms());
                self.tournaments.lines.insert(id, record.summary());
                tracing::info!(id, organiser = %asker.name, "tournament made");
                let handle = tournament::spawn(
                    record,
                    Beginning::Created(asker),
                    self.tournament_context(),
                    &self.tracker,
                );
                self.tournaments.handles.insert(id, handle);
            }
            TournamentAsk::Of(id, request) => match self.tournaments.handles.get(&id) {
                Some(handle) => {
                    if !handle.send(TournamentMsg::Request {
                        asker: asker.clone(),
                        request,
                    }) {
                        refuse(no_such(id));
                    }
                }
                None => refuse(no_such(id)),
            },
        }
    }

    /// Tournament `id` exported (the HTTP download): the tournament answers `reply`.
    pub(super) fn export_tournament(
        &mut self,
        id: TournamentId,
        format: banco_protocol::ExportFormat,
        reply: tokio::sync::oneshot::Sender<Result<(String, String), ErrorMsg>>,
    ) {
        match self.tournaments.handles.get(&id) {
            Some(handle) => {
                // A tournament gone drops the reply: the download says the server is busy.
                handle.send(TournamentMsg::Export { format, reply });
            }
            None => {
                let _ = reply.send(Err(no_such(id)));
            }
        }
    }

    /// A tournament's list line changed.
    pub(super) fn tournament_changed(&mut self, summary: TournamentSummary) {
        self.tournaments.lines.insert(summary.id, summary);
    }

    /// A board's result (on disk), for its tournament.
    pub(super) fn board_over(&mut self, report: room::BoardReport) {
        if let Some(handle) = self.tournaments.handles.get(&report.tournament) {
            handle.send(TournamentMsg::BoardOver(report));
        }
    }

    /// Opens (or finds again) the rooms of `boards`; places each person who is free in
    /// their room and tells them. The rooms' numbers, by board (`None`: not opened).
    pub(super) fn open_boards(&mut self, boards: Vec<BoardOpening>) -> Vec<Option<RoomId>> {
        boards
            .into_iter()
            .map(|opening| self.open_board(opening))
            .collect()
    }

    fn open_board(&mut self, opening: BoardOpening) -> Option<RoomId> {
        let BoardOpening {
            link,
            settings,
            was,
            notices,
        } = opening;
        // After a restart: the room it was played in, if it is there with its players.
        let key = (link.tournament, link.round, link.board);
        let kept = was.and_then(|id| {
            // Not a room another board holds (numbers start again after a restart).
            if !self.rooms.free_for(id, key) {
                return None;
            }
            let handle = self.rooms.get(id)?.clone();
            let line = self.list.lines().find(|l| l.id == id)?;
            let same = link
                .names
                .iter()
                .zip(line.players.iter())
                .all(|(want, has)| match (want, has) {
                    (Some(w), Some(h)) => w.eq_ignore_ascii_case(h),
                    (None, _) => true,
                    (Some(_), None) => true,
                });
            (same && handle.adopt(link.clone())).then_some(handle)
        });
        let handle = match kept {
            Some(handle) => handle,
            None => {
                let spec = match room::settings::validate(&settings) {
                    Ok(spec) => spec,
                    Err(e) => {
                        tracing::error!(error = %e, "a board's settings cannot be played");
                        return None;
                    }
                };
                if self.rooms.len() >= self.config.max_rooms {
                    tracing::error!("no room left for a tournament's board");
                    return None;
                }
                let id = self.rooms.free_number();
                let ctx = self.room_context();
                let handle =
                    room::spawn_board(id, settings, spec, link.clone(), ctx, &self.tracker);
                self.rooms.open(id, handle.clone(), None);
                handle
            }
        };
        let room = handle.id();
        self.rooms.claim_for_board(room, key);
        for (name, notice) in link.names.iter().zip(notices) {
            let (Some(name), Some(mut notice)) = (name, notice) else {
                continue;
            };
            notice.room = room;
            let free = !self.playing(name);
            if let Some((client, s)) = self.named(name) {
                s.outbox.send(ServerMsg::TournamentGame(notice));
                if free && s.room != Some(room) {
                    s.place.place(handle.clone());
                    if let Some(s) = self.sessions.get_mut(&client) {
                        s.room = Some(room);
                    }
                }
            }
        }
        Some(room)
    }
}

fn no_such(id: TournamentId) -> ErrorMsg {
    ErrorMsg::new(
        ErrorCode::NoSuchTournament,
        format!("there is no tournament {id}: see the list of tournaments"),
    )
}
