//! Accounts as players meet them: registering, logging in, a name nobody else can take,
//! guests marked and unrated, the login throttle, changing a password, and logging in
//! again to take back a held seat.

use banco_protocol::{
    ClientMsg, EndReason, ErrorCode, GUEST_MARK, PasswordChange, ServerMsg, Standing,
};
use banco_tests::{Client, TestServer, caro, exchange};

async fn leaderboard(c: &mut Client) -> Vec<Standing> {
    c.send(ClientMsg::Leaderboard(banco_protocol::GameKind::Caro))
        .await;
    match c
        .recv_until(|m| matches!(m, ServerMsg::Leaderboard { .. }))
        .await
    {
        ServerMsg::Leaderboard {
            standings: list, ..
        } => list,
        _ => unreachable!(),
    }
}

/// Plays a short game in a new room that `a` loses by resigning after both moved.
async fn a_loses_to_b(a: &mut Client, b: &mut Client) -> EndReason {
    let (id, _) = a.create(caro(15)).await;
    b.join(id).await;
    a.game_started().await;
    b.game_started().await;
    exchange(a, b, 7, 7).await;
    exchange(b, a, 8, 8).await;
    a.send(ClientMsg::Resign).await;
    let over = a.game_over().await;
    b.game_over().await;
    a.send(ClientMsg::LeaveRoom).await;
    b.send(ClientMsg::LeaveRoom).await;
    a.recv_until(|m| matches!(m, ServerMsg::Left)).await;
    b.recv_until(|m| matches!(m, ServerMsg::Left)).await;
    over.reason
}

#[tokio::test]
async fn a_registered_name_is_logged_in_to_from_anywhere_in_any_case() {
    let server = TestServer::start().await;
    let an = server.register("An", "mật khẩu của An").await;
    assert_eq!(an.name(), "An");
    an.disconnect();

    let again = server.log_in("an", "mật khẩu của An").await;
    assert_eq!(again.name(), "An", "the account's own spelling");

    let mut twice = server
        .hello("AN", None, Some("another password"), true)
        .await;
    twice.expect_error(ErrorCode::NameTaken).await;
    // A name that only looks like An's (a Cyrillic А) cannot be registered either.
    let mut look_alike = server
        .hello("\u{410}n", None, Some("another password"), true)
        .await;
    let refused = look_alike.expect_error(ErrorCode::NameTaken).await;
    assert!(
        refused.message.contains("looks too much like"),
        "{}",
        refused.message
    );
    let mut short = server.hello("Chi", None, Some("short"), true).await;
    short.expect_error(ErrorCode::BadPassword).await;
    let mut marked = server
        .hello(
            &format!("{GUEST_MARK}Dũng"),
            None,
            Some("long enough"),
            true,
        )
        .await;
    marked.expect_error(ErrorCode::BadName).await;
    server.stop().await;
}

#[tokio::test]
async fn a_name_that_looks_like_an_account_cannot_be_registered() {
    let server = TestServer::start().await;
    server
        .register("Alice", "mật khẩu của Alice")
        .await
        .disconnect();
    // A Cyrillic A, and a capital i for the l: the same name to the eye.
    for pose in ["\u{0410}lice", "AIice"] {
        let mut c = server
            .hello(pose, None, Some("another password"), true)
            .await;
        let e = c.expect_error(ErrorCode::NameTaken).await;
        assert!(
            e.message.contains("looks too much like the account Alice"),
            "{}",
            e.message
        );
        assert!(!e.message.contains("  "), "one sentence: {}", e.message);
    }
    // The account itself is untouched and a different name still registers.
    server
        .log_in("alice", "mật khẩu của Alice")
        .await
        .disconnect();
    assert_eq!(
        server
            .register("Alicia", "mật khẩu của Alicia")
            .await
            .name(),
        "Alicia"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_registered_name_is_refused_to_a_guest_and_guests_are_marked() {
    let server = TestServer::start().await;
    let _an = server.register("An", "mật khẩu của An").await;
    let mut guest = server.hello("an", None, None, false).await;
    let refused = guest.expect_error(ErrorCode::NameRegistered).await;
    assert!(refused.message.contains("log in"), "{}", refused.message);
    // Not even with the mark typed by hand.
    let mut sneaky = server.hello("~An", None, None, false).await;
    sneaky.expect_error(ErrorCode::NameRegistered).await;

    let chi = server.connect("Chi").await;
    assert_eq!(chi.name(), "~Chi");
    assert!(!chi.welcome.as_ref().unwrap().account);
    server.stop().await;
}

#[tokio::test]
async fn wrong_passwords_are_refused_then_throttled() {
    let server = TestServer::start().await;
    server.register("An", "mật khẩu của An").await.disconnect();
    // The free tries, and the one that starts the wait.
    for _ in 0..=banco_server::accounts::throttle::FREE_TRIES {
        let mut c = server
            .hello("An", None, Some("not the password"), false)
            .await;
        let e = c.expect_error(ErrorCode::LoginFailed).await;
        assert!(!e.message.contains("mật khẩu"), "{}", e.message);
    }
    // Even the right password waits now, from this machine.
    let mut c = server
        .hello("An", None, Some("mật khẩu của An"), false)
        .await;
    let e = c.expect_error(ErrorCode::TooManyTries).await;
    assert!(e.message.contains("wait"), "{}", e.message);
    // A name without an account is refused the same way as a wrong password.
    let mut c = server
        .hello("Nobody", None, Some("any password"), false)
        .await;
    c.expect_error(ErrorCode::LoginFailed).await;
    server.stop().await;
}

#[tokio::test]
async fn a_password_is_changed_with_the_old_one() {
    let server = TestServer::start().await;
    let mut an = server.register("An", "the first password").await;
    an.send(ClientMsg::ChangePassword(PasswordChange {
        old: "not the first".into(),
        new: "the second password".into(),
    }))
    .await;
    an.expect_error(ErrorCode::LoginFailed).await;
    an.send(ClientMsg::ChangePassword(PasswordChange {
        old: "the first password".into(),
        new: "the second password".into(),
    }))
    .await;
    an.recv_until(|m| matches!(m, ServerMsg::PasswordChanged))
        .await;
    an.disconnect();
    let mut old = server
        .hello("An", None, Some("the first password"), false)
        .await;
    old.expect_error(ErrorCode::LoginFailed).await;
    server.log_in("An", "the second password").await;

    let mut guest = server.connect("Chi").await;
    guest
        .send(ClientMsg::ChangePassword(PasswordChange {
            old: "x".into(),
            new: "the second password".into(),
        }))
        .await;
    guest.expect_error(ErrorCode::NotLoggedIn).await;
    server.stop().await;
}

#[tokio::test]
async fn games_with_a_guest_are_unrated_and_accounts_are_rated() {
    let server = TestServer::start().await;
    let mut an = server.register("An", "mật khẩu của An").await;
    let mut chi = server.connect("Chi").await;
    assert_eq!(a_loses_to_b(&mut chi, &mut an).await, EndReason::Resign);
    assert!(
        leaderboard(&mut an).await.is_empty(),
        "a game with a guest moves no rating"
    );
    let mut binh = server.register("Bình", "mật khẩu của Bình").await;
    a_loses_to_b(&mut binh, &mut an).await;
    let board = leaderboard(&mut an).await;
    let names: Vec<&str> = board.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["An", "Bình"], "{board:?}");
    assert_eq!(board[0].games, 1, "the guest's game did not count");
    server.stop().await;
}

#[tokio::test]
async fn logging_in_again_takes_back_the_held_seat_without_the_token() {
    let server = TestServer::start().await;
    let mut an = server.register("An", "mật khẩu của An").await;
    let mut binh = server.register("Bình", "mật khẩu của Bình").await;
    let (id, _) = an.create(caro(15)).await;
    binh.join(id).await;
    an.game_started().await;
    binh.game_started().await;
    exchange(&mut an, &mut binh, 7, 7).await;
    an.disconnect();
    binh.recv_until(|m| matches!(m, ServerMsg::People { seats, .. } if seats[0].as_ref().is_some_and(|s| !s.connected)))
        .await;

    // A restarted client with no token on disk: logging in is enough.
    let mut back = server
        .hello("An", None, Some("mật khẩu của An"), false)
        .await;
    let welcome = back.welcome().await;
    assert_eq!(welcome.name, "An");
    let view = back.joined().await;
    assert_eq!(view.id, id);
    assert_eq!(view.game.map(|g| g.moves.len()), Some(1));

    server.stop().await;
}

#[tokio::test]
async fn a_second_login_is_refused_while_the_first_is_connected() {
    let server = TestServer::start().await;
    let first = server.register("An", "mật khẩu của An").await;
    let mut second = server
        .hello("An", None, Some("mật khẩu của An"), false)
        .await;
    let e = second.expect_error(ErrorCode::NameTaken).await;
    assert!(e.message.contains("another connection"), "{}", e.message);
    // Its own token takes the session over (a client whose link was cut, dialling again).
    let token = first.token();
    let mut again = server
        .hello("An", Some(token), Some("mật khẩu của An"), false)
        .await;
    assert_eq!(again.welcome().await.name, "An");
    server.stop().await;
}
