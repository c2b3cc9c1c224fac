//! The terminal client's leaderboard, "My info", change-password and log-out screens end
//! to end: the client's `App` (keys, no terminal) over a real connection to a real
//! server: what it sends is sent, what the server says is handed to it.

use banco_client::app::{App, Effect, Screen};
use banco_client::locale::Locale;
use banco_client::settings::Settings;
use banco_client::theme::Theme;
use banco_protocol::{Credentials, GameKind, ServerMsg};
use banco_tests::{Client, TestServer};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

/// The app and its connection.
struct Ui {
    app: App,
    client: Client,
    /// Effects other than sends, in order, for the test to look at.
    effects: Vec<Effect>,
}

impl Ui {
    async fn flush(&mut self) {
        for effect in self.app.take_effects() {
            match effect {
                Effect::Send(msg) => self.client.send(msg).await,
                other => self.effects.push(other),
            }
        }
    }

    async fn keys(&mut self, codes: &[KeyCode]) {
        for code in codes {
            self.app.key(KeyEvent::new(*code, KeyModifiers::NONE));
        }
        self.flush().await;
    }

    async fn typ(&mut self, text: &str) {
        let codes: Vec<KeyCode> = text.chars().map(KeyCode::Char).collect();
        self.keys(&codes).await;
    }

    /// Hands the server's messages to the app until one matches `pred`.
    async fn until(&mut self, mut pred: impl FnMut(&ServerMsg) -> bool) -> ServerMsg {
        loop {
            let msg = self.client.recv().await;
            self.app.server(msg.clone());
            self.flush().await;
            if pred(&msg) {
                return msg;
            }
        }
    }
}

#[tokio::test]
async fn an_account_reads_the_leaderboards_and_its_info_changes_its_password_and_logs_out() {
    let server = TestServer::start().await;
    let client = server.register("Lan", "lan's old password").await;
    let welcome = client.welcome.clone().expect("welcomed");
    let mut app = App::new(
        Locale::english(),
        Theme::classic(),
        Settings::default(),
        None,
        "Lan".into(),
        std::time::Instant::now(),
    );
    app.resize(100, 32);
    // As the connect screen leaves it after logging in.
    app.session.account = Some(Credentials {
        password: "lan's old password".into(),
        register: false,
        bot: false,
    });
    app.connected(welcome, server.addr.to_string());
    let mut ui = Ui {
        app,
        client,
        effects: Vec::new(),
    };
    ui.flush().await;

    // The leaderboard of each game, asked for by its kind and answered for it.
    ui.keys(&[KeyCode::Char('l')]).await;
    let answer = ui
        .until(|m| matches!(m, ServerMsg::Leaderboard { .. }))
        .await;
    assert!(matches!(
        answer,
        ServerMsg::Leaderboard {
            game: GameKind::Caro,
            ..
        }
    ));
    ui.keys(&[KeyCode::Tab]).await;
    ui.until(|m| matches!(m, ServerMsg::Leaderboard { .. }))
        .await;
    assert!(matches!(&ui.app.screen, Screen::Leaderboard(b)
        if b.game == GameKind::Xiangqi && b.standings.is_some()));

    // My info: the answer (or the refusal) ends the wait.
    ui.keys(&[KeyCode::Esc, KeyCode::Char('i')]).await;
    ui.until(|m| matches!(m, ServerMsg::Profile(_) | ServerMsg::Error(_)))
        .await;
    assert!(matches!(&ui.app.screen, Screen::Profile(ps) if ps.mine && !ps.loading()));

    // A wrong current password: said on the form, nothing changed.
    ui.keys(&[KeyCode::Char('p')]).await;
    ui.typ("not my password").await;
    ui.keys(&[KeyCode::Tab]).await;
    ui.typ("lan's new password").await;
    ui.keys(&[KeyCode::Tab]).await;
    ui.typ("lan's new password").await;
    ui.keys(&[KeyCode::Enter]).await;
    ui.until(|m| matches!(m, ServerMsg::Error(_))).await;
    let Screen::Password(form) = &ui.app.screen else {
        panic!("the form stays open");
    };
    assert_eq!(
        form.error.as_deref(),
        Some("That is not your current password: type it again.")
    );
    // The right one: changed, and the one kept for reconnecting follows.
    ui.typ("lan's old password").await;
    ui.keys(&[KeyCode::Enter]).await;
    ui.until(|m| matches!(m, ServerMsg::PasswordChanged)).await;
    assert!(matches!(ui.app.screen, Screen::Profile(_)));
    assert_eq!(
        ui.app.session.account.as_ref().map(|c| c.password.as_str()),
        Some("lan's new password")
    );

    // Log out: the connection is to close, the connect screen comes back.
    ui.keys(&[KeyCode::Char('o')]).await;
    assert!(ui.effects.contains(&Effect::Disconnect), "{:?}", ui.effects);
    assert!(matches!(ui.app.screen, Screen::Connect(_)));
    ui.client.disconnect();
    // The new password logs in; the old one no more.
    server
        .log_in("Lan", "lan's new password")
        .await
        .disconnect();
    let mut old = server
        .hello("Lan", None, Some("lan's old password"), false)
        .await;
    old.expect_error(banco_protocol::ErrorCode::LoginFailed)
        .await;
    server.stop().await;
}
