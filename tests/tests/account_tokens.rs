//! Account tokens, the browser's "stay logged in", against the real server: a login that
//! asks to be remembered is handed one, which logs in to that account alone without the
//! password, takes the held seat back, and stops working once logged out, once the
//! password changes (but for the changer's own), and never stands for a guest's token.

use banco_protocol::{
    AccountToken, ClientMsg, Credentials, ErrorCode, Hello, PROTOCOL_VERSION, PasswordChange,
    ResumeToken, ServerMsg,
};
use banco_tests::{Client, TestServer, caro};

const PASSWORD: &str = "xanh-lá-cây-8";

async fn hello(
    server: &TestServer,
    name: &str,
    resume: Option<ResumeToken>,
    account: Option<Credentials>,
) -> Client {
    let mut c = server.client().await;
    c.send(ClientMsg::Hello(Hello {
        version: PROTOCOL_VERSION,
        name: name.into(),
        resume,
        account,
    }))
    .await;
    c
}

/// Logs in to `name` with the password, asking to be remembered: the token handed out.
/// An earlier connection of the account that was just dropped may not be noticed yet:
/// then it tries again.
async fn remembered(server: &TestServer, name: &str, register: bool) -> (Client, AccountToken) {
    for _ in 0..100 {
        let mut c = hello(
            server,
            name,
            None,
            Some(Credentials::Password {
                password: PASSWORD.into(),
                register,
                remember: true,
                bot: false,
            }),
        )
        .await;
        match c.recv_any().await {
            ServerMsg::Welcome(welcome) => {
                assert!(welcome.account);
                let token = welcome
                    .account_token
                    .expect("a remembered login is handed a token");
                c.welcome = Some(welcome);
                c.rooms().await;
                return (c, token);
            }
            ServerMsg::Error(e) if e.code == ErrorCode::NameTaken => {
                tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            }
            other => panic!("no Welcome: {other:?}"),
        }
    }
    panic!("the earlier connection of {name} was never noticed gone")
}

#[tokio::test]
async fn a_token_logs_in_to_its_account_alone_until_logged_out() {
    let server = TestServer::start().await;
    let (mut mai, token) = remembered(&server, "Mai", true).await;

    // A login that does not ask is handed none.
    let mut plain = server.hello("Lan", None, Some(PASSWORD), true).await;
    assert_eq!(plain.welcome().await.account_token, None);
    plain.disconnect();

    // Mai plays, drops, and comes back with the token alone: her account, her seat.
    let (room, _) = mai.create(caro(15)).await;
    let mut binh = server.connect("Bình").await;
    binh.join(room).await;
    mai.game_started().await;
    binh.game_started().await;
    mai.play(7, 7).await;
    binh.saw(7, 7).await;
    let seat_token = mai.token();
    mai.disconnect();
    let mut back = hello(
        &server,
        "Mai",
        Some(seat_token),
        Some(Credentials::Token(token)),
    )
    .await;
    let welcome = back.welcome().await;
    assert!(welcome.account && welcome.name == "Mai", "{welcome:?}");
    assert_eq!(welcome.account_token, None, "a token login keeps its token");
    let view = back.joined().await;
    assert_eq!(view.id, room, "the held seat comes back");

    // The token is for Mai only: not for Lan, whatever name is asked.
    let mut other = hello(&server, "Lan", None, Some(Credentials::Token(token))).await;
    let refused = other.expect_error(ErrorCode::LoginFailed).await;
    assert!(
        refused.message.contains("saved login is for Mai, not Lan"),
        "{}",
        refused.message
    );

    // Logging out revokes it: refused from then on, with a sentence saying what to do.
    back.send(ClientMsg::LogOut).await;
    back.recv_until(|m| matches!(m, ServerMsg::LoggedOut)).await;
    back.disconnect();
    let mut again = hello(&server, "Mai", None, Some(Credentials::Token(token))).await;
    let refused = again.expect_error(ErrorCode::LoginFailed).await;
    assert!(
        refused
            .message
            .contains("the saved login for Mai has ended")
            && refused.message.contains("log in with the password"),
        "{}",
        refused.message
    );
    server.stop().await;
}

#[tokio::test]
async fn a_guest_s_token_never_logs_in_as_the_account() {
    let server = TestServer::start().await;
    let (mai, _token) = remembered(&server, "Mai", true).await;
    mai.disconnect();
    let guest = server.connect("Khách").await;
    let guest_token = guest.token();
    guest.disconnect();

    // The guest's resume token under the account's name: the account's name is not a
    // guest's to take.
    let mut c = hello(&server, "Mai", Some(guest_token), None).await;
    let refused = c.expect_error(ErrorCode::NameRegistered).await;
    assert!(
        refused.message.contains("Mai is a registered name"),
        "{}",
        refused.message
    );

    // Its bytes as an account token (the rest made up): no account has it.
    let mut bytes = [0u8; 32];
    bytes[..16].copy_from_slice(&guest_token.0);
    let mut c = hello(
        &server,
        "Mai",
        Some(guest_token),
        Some(Credentials::Token(AccountToken(bytes))),
    )
    .await;
    c.expect_error(ErrorCode::LoginFailed).await;
    server.stop().await;
}

#[tokio::test]
async fn a_password_change_revokes_every_other_token() {
    let server = TestServer::start().await;
    let (first, old) = remembered(&server, "Mai", true).await;
    first.disconnect();
    let (mut changer, kept) = remembered(&server, "Mai", false).await;
    changer
        .send(ClientMsg::ChangePassword(PasswordChange {
            old: PASSWORD.into(),
            new: "mật-khẩu-mới-9".into(),
        }))
        .await;
    changer
        .recv_until(|m| matches!(m, ServerMsg::PasswordChanged))
        .await;
    changer.disconnect();

    let mut stale = hello(&server, "Mai", None, Some(Credentials::Token(old))).await;
    stale.expect_error(ErrorCode::LoginFailed).await;
    let mut own = hello(&server, "Mai", None, Some(Credentials::Token(kept))).await;
    assert!(own.welcome().await.account, "the changer stays logged in");
    server.stop().await;
}
