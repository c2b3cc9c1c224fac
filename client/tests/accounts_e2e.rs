//! End to end: accounts in line mode, the real `banco` binary against a real server on
//! 127.0.0.1 port 0: `login` from a guest session, `passwd`, the per-game leaderboard;
//! the passwords come as piped lines and never show in the output.

mod support;

use support::{Player, Server};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_logs_in_changes_the_password_and_asks_for_records() {
    let server = Server::start().await;
    // An's account, then An leaves (a second login would be refused while it lives).
    let mut an = Player::register(&server, "An", "--json").await;
    assert_eq!(an.event("welcome").await["account"], true);
    assert!(an.finish().await.success());

    let mut guest = Player::join(&server, "Kim", "--json").await;
    let welcome = guest.event("welcome").await;
    assert_eq!(
        (welcome["name"].as_str(), welcome["account"].as_bool()),
        (Some("~Kim"), Some(false))
    );
    // A password on the command line is refused, and nothing is sent.
    guest.send("login An password of An").await;
    assert_eq!(guest.event("error").await["code"], "bad_command");
    // A wrong password: refused with the reason, the guest session goes on.
    guest.send("login An").await;
    guest.send("not the password").await;
    let refused = guest.event("error").await;
    assert_eq!(refused["code"], "login_failed", "{refused}");
    guest.send("login An").await;
    guest.send("password of An").await;
    let welcome = guest.event("welcome").await;
    assert_eq!(
        (welcome["name"].as_str(), welcome["account"].as_bool()),
        (Some("An"), Some(true))
    );

    // passwd: the two new ones differ, refused here; then changed.
    guest.send("passwd").await;
    for line in ["password of An", "opensesame 42", "opensesame 24"] {
        guest.send(line).await;
    }
    assert_eq!(guest.event("error").await["code"], "passwords_differ");
    guest.send("passwd").await;
    for line in ["password of An", "opensesame 42", "opensesame 42"] {
        guest.send(line).await;
    }
    guest.event("password_changed").await;

    guest.send("leaderboard xiangqi").await;
    assert_eq!(guest.event("leaderboard").await["game"], "xiangqi");
    // Nothing printed carries a password.
    let printed = serde_json::to_string(&guest.seen).unwrap();
    assert!(
        !printed.contains("password of An") && !printed.contains("opensesame"),
        "{printed}"
    );
    assert!(guest.finish().await.success());

    // The new password is the one that logs in now.
    let mut back = Player::join(&server, "Lan", "--json").await;
    back.event("welcome").await;
    back.send("login An").await;
    back.send("password of An").await;
    assert_eq!(back.event("error").await["code"], "login_failed");
    back.send("login An").await;
    back.send("opensesame 42").await;
    assert_eq!(back.event("welcome").await["account"], true);
    assert!(back.finish().await.success());
    server.stop().await;
}
