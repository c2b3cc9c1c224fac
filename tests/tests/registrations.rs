//! Registrations are throttled per address: a burst, then one per wait; a refusal says
//! so in a sentence, registers nothing, and leaves logging in and guests alone.

use std::time::Duration;

use banco_protocol::{ErrorCode, ServerMsg};
use banco_server::Config;
use banco_tests::{TestServer, test_config};

#[tokio::test]
async fn an_address_registers_its_burst_then_is_told_to_wait() {
    let server = TestServer::with_config(Config {
        registration_burst: 3,
        registration_refill: Duration::from_secs(3600),
        ..test_config()
    })
    .await;
    for n in 0..3 {
        server
            .register(&format!("Player {n}"), "a good password")
            .await;
    }
    let mut refused = server
        .hello("Player 3", None, Some("a good password"), true)
        .await;
    let e = refused.expect_error(ErrorCode::TooManyTries).await;
    assert!(
        e.message
            .contains("too many accounts were registered from your address")
            && e.message.contains("wait"),
        "{e:?}"
    );
    // Nothing was registered: the name is free to a guest, and logging in still works.
    let mut guest = server.hello("Player 3", None, None, false).await;
    match guest.recv_any().await {
        ServerMsg::Welcome(w) => assert_eq!(w.name, "~Player 3"),
        other => panic!("expected Welcome, got {other:?}"),
    }
    server.log_in("Player 1", "a good password").await;
    server.stop().await;
}
