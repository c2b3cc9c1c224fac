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
    /// The organiser enters the bot account `name` in tournament `id`: the lobby finds
    /// its session (the bot must be connected and take challenges: its consent) and
    /// hands it to the tournament.
    EnterBotAccount {
        /// The tournament.
        id: TournamentId,
        /// The bot account's name.
        name: String,
    },
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
        self.tell_live_tournaments(|| TournamentMsg::Arrived(name.to_string()));
    }

    /// `name`'s last session has left the server: every tournament not over is told (it
    /// shows them away).
    pub(super) fn tournaments_left(&mut self, name: &str) {
        self.tell_live_tournaments(|| TournamentMsg::Left(name.to_string()));
    }

    fn tell_live_tournaments(&self, msg: impl Fn() -> TournamentMsg) {
        for (id, handle) in &self.tournaments.handles {
            let live = self
                .tournaments
                .lines
                .get(id)
                .is_some_and(|l| l.status != banco_protocol::TournamentStatus::Over);
            if live {
                handle.send(msg());
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
            TournamentAsk::EnterBotAccount { id, name } => {
                let Some(handle) = self.tournaments.handles.get(&id) else {
                    return refuse(no_such(id));
                };
                let organiser = self
                    .tournaments
                    .lines
                    .get(&id)
                    .is_some_and(|l| l.organiser.eq_ignore_ascii_case(&asker.name));
                if !organiser || !asker.account {
                    return refuse(tournament::not_organiser(id));
                }
                let bot = match self.bot_to_enter(&name) {
                    Ok(bot) => bot,
                    Err(e) => return refuse(e),
                };
                if !handle.send(TournamentMsg::Request {
                    asker: asker.clone(),
                    request: TournamentRequest::EnterBotAccount(bot),
                }) {
                    refuse(no_such(id));
                }
            }
        }
    }

    /// The session of the bot account `name`, as an entrant the organiser may enter:
    /// connected, a bot account (a person is never entered by someone else), taking
    /// challenges (its consent to be entered).
    fn bot_to_enter(&self, name: &str) -> Result<Asker, ErrorMsg> {
        let name = name.trim();
        if name.is_empty() {
            return Err(ErrorMsg::new(
                ErrorCode::BadName,
                "say which bot account to enter",
            ));
        }
        let Some((client, s)) = self.named(name) else {
            return Err(ErrorMsg::new(
                ErrorCode::NoSuchPlayer,
                format!(
                    "no bot account called {name} is connected: a bot account is entered \
                     while its `banco bot` is connected (people enter tournaments \
                     themselves)"
                ),
            ));
        };
        if !s.bot || !s.account {
            return Err(ErrorMsg::new(
                ErrorCode::NotABot,
                format!(
                    "{} is a person, not a bot account: people enter tournaments themselves, \
                     and are never entered by someone else",
                    s.name
                ),
            ));
        }
        if s.policy == banco_protocol::ChallengePolicy::Nobody {
            return Err(ErrorMsg::new(
                ErrorCode::ChallengeRefused,
                format!(
                    "{} takes no challenges, and so no entries: its engine's owner turns \
                     challenges on to let organisers enter it",
                    s.name
                ),
            ));
        }
        Ok(Asker {
            client,
            name: s.name.clone(),
            account: true,
            outbox: s.outbox.clone(),
        })
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

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use banco_protocol::{ChallengePolicy, Level, RoomSettings, TournamentFormat, TournamentView};
    use tokio_util::sync::CancellationToken;
    use tokio_util::task::TaskTracker;

    use super::*;
    use crate::admission::AddressKey;
    use crate::config::Config;
    use crate::connection::{Outbox, TestInbox};
    use crate::lobby::{Arrival, LobbyHandle, Restored, spawn};

    /// A session in the lobby: its number and what it is sent.
    async fn arrive(
        lobby: &LobbyHandle,
        name: &str,
        account: bool,
        bot: bool,
    ) -> (ClientId, TestInbox) {
        let (outbox, rx) = Outbox::for_test(1 << 20);
        let arrival = Arrival {
            name: name.into(),
            account,
            bot,
            returning: false,
            resume: None,
            address: AddressKey::V4(std::net::Ipv4Addr::LOCALHOST),
            account_token: None,
        };
        let entered = lobby
            .enter(
                arrival,
                outbox,
                CancellationToken::new(),
                crate::lobby::Placements::default(),
            )
            .await
            .unwrap()
            .unwrap();
        (entered.client, rx)
    }

    /// The next error or tournament view sent to `rx` (others passed over), waiting
    /// for the actors to answer.
    async fn answer(rx: &mut TestInbox) -> Result<Box<TournamentView>, ErrorMsg> {
        for _ in 0..500 {
            while let Some(msg) = rx.try_recv() {
                match msg {
                    ServerMsg::Error(e) => return Err(e),
                    ServerMsg::Tournament(view) => return Ok(view),
                    _ => {}
                }
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        panic!("no answer");
    }

    fn entrants(view: &TournamentView) -> Vec<String> {
        view.entrants.iter().map(|e| e.name.clone()).collect()
    }

    #[tokio::test]
    async fn an_organiser_enters_a_connected_bot_account_and_no_one_else() {
        let store = crate::store::Store::open(&crate::StoreLocation::Memory).unwrap();
        let tracker = TaskTracker::new();
        let shutdown = CancellationToken::new();
        let config = Arc::new(Config {
            discovery: None,
            ..Config::default()
        });
        let lobby = spawn(
            config,
            store.handle(),
            Restored::default(),
            crate::engines::EnginePool::start(1, 1 << 20).unwrap(),
            &tracker,
            shutdown.clone(),
        );
        let (org, mut org_rx) = arrive(&lobby, "Org", true, false).await;
        let (binh, mut binh_rx) = arrive(&lobby, "Bình", true, false).await;
        let (_, mut engine_rx) = arrive(&lobby, "Engine", true, true).await;
        let (quiet, _quiet_rx) = arrive(&lobby, "Quiet", true, true).await;
        let (_, _guest_rx) = arrive(&lobby, "~g1", false, false).await;
        lobby.set_challenges(quiet, ChallengePolicy::Nobody).await;
        let swiss = TournamentSettings::new(
            "Club Swiss",
            TournamentFormat::Swiss { rounds: 3 },
            RoomSettings::default(),
        );
        lobby
            .tournament(org, TournamentAsk::Create(Box::new(swiss)))
            .await
            .unwrap();
        let view = answer(&mut org_rx).await.unwrap();
        let id = view.summary.id;
        let enter = |name: &str| TournamentAsk::EnterBotAccount {
            id,
            name: name.into(),
        };

        // Only the organiser.
        lobby.tournament(binh, enter("Engine")).await.unwrap();
        let e = answer(&mut binh_rx).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::NotOrganiser, "{e:?}");
        // A person, an account or a guest, is never entered by someone else.
        for person in ["Bình", "g1"] {
            lobby.tournament(org, enter(person)).await.unwrap();
            let e = answer(&mut org_rx).await.unwrap_err();
            assert_eq!(e.code, ErrorCode::NotABot, "{e:?}");
            assert!(e.message.contains("never entered by someone else"), "{e:?}");
        }
        // A bot account not connected, or one taking no challenges, has not consented.
        lobby.tournament(org, enter("Absent")).await.unwrap();
        let e = answer(&mut org_rx).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::NoSuchPlayer, "{e:?}");
        lobby.tournament(org, enter("Quiet")).await.unwrap();
        let e = answer(&mut org_rx).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::ChallengeRefused, "{e:?}");
        // No such tournament.
        let other = TournamentAsk::EnterBotAccount {
            id: id + 40,
            name: "Engine".into(),
        };
        lobby.tournament(org, other).await.unwrap();
        let e = answer(&mut org_rx).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::NoSuchTournament, "{e:?}");
        assert!(
            answer_now(&mut engine_rx).is_none(),
            "the bot heard nothing yet"
        );

        // Entered (any case): the organiser and the bot are both sent the view.
        lobby.tournament(org, enter("engine")).await.unwrap();
        let view = answer(&mut org_rx).await.unwrap();
        assert_eq!(entrants(&view), ["Engine"]);
        let told = answer(&mut engine_rx).await.unwrap();
        assert_eq!(told.summary.id, id);
        assert_eq!(entrants(&told), ["Engine"]);
        // Not twice.
        lobby.tournament(org, enter("Engine")).await.unwrap();
        let e = answer(&mut org_rx).await.unwrap_err();
        assert_eq!(e.code, ErrorCode::AlreadyEntered, "{e:?}");

        // A round robin that has started takes no one more.
        let rr = TournamentSettings::new(
            "Club round robin",
            TournamentFormat::RoundRobin { double: false },
            RoomSettings::default(),
        );
        lobby
            .tournament(org, TournamentAsk::Create(Box::new(rr)))
            .await
            .unwrap();
        let rr = answer(&mut org_rx).await.unwrap().summary.id;
        for level in [Level::Easy, Level::Medium] {
            let add = TournamentAsk::Of(rr, TournamentRequest::AddBot(level));
            lobby.tournament(org, add).await.unwrap();
            answer(&mut org_rx).await.unwrap();
        }
        let start = TournamentAsk::Of(rr, TournamentRequest::Start);
        lobby.tournament(org, start).await.unwrap();
        answer(&mut org_rx).await.unwrap();
        let late = TournamentAsk::EnterBotAccount {
            id: rr,
            name: "Engine".into(),
        };
        lobby.tournament(org, late).await.unwrap();
        let e = loop {
            // Views of the round robin starting may come first.
            if let Err(e) = answer(&mut org_rx).await {
                break e;
            }
        };
        assert_eq!(e.code, ErrorCode::EntriesClosed, "{e:?}");
        assert!(e.message.contains("started"), "{e:?}");

        shutdown.cancel();
        tracker.close();
        tracker.wait().await;
        store.close();
    }

    /// A view or error already sent to `rx`, without waiting.
    fn answer_now(rx: &mut TestInbox) -> Option<ServerMsg> {
        std::iter::from_fn(|| rx.try_recv())
            .find(|m| matches!(m, ServerMsg::Error(_) | ServerMsg::Tournament(_)))
    }
}
