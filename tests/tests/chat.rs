//! Chat in a room: delivered to players and spectators, refused when empty, too long or
//! too fast, and kept for whoever comes in later.

use banco_protocol::{CHAT_HISTORY, ClientMsg, ErrorCode, MAX_CHAT_CHARS, ServerMsg};
use banco_tests::{Client, TestServer, caro, two_players};

async fn next_chat(c: &mut Client) -> (String, String) {
    match c.recv_until(|m| matches!(m, ServerMsg::Chat(_))).await {
        ServerMsg::Chat(line) => {
            assert!(line.at_ms > 0, "a chat line carries its time");
            (line.from, line.text)
        }
        _ => unreachable!(),
    }
}

#[tokio::test]
async fn chat_reaches_players_and_spectators() {
    let server = TestServer::start().await;
    let (mut a, mut b, id) = two_players(&server, caro(15)).await;
    let mut c = server.connect("Chi").await;
    c.watch(id).await;

    a.send(ClientMsg::Chat("  xin chào!  ".into())).await;
    for who in [&mut a, &mut b, &mut c] {
        assert_eq!(next_chat(who).await, ("An".into(), "xin chào!".into()));
    }
    // Spectators chat too; control characters never reach anyone's screen.
    c.send(ClientMsg::Chat("good\nluck\u{1b}[31m".into())).await;
    for who in [&mut a, &mut b, &mut c] {
        assert_eq!(
            next_chat(who).await,
            ("~Chi".into(), "good luck [31m".into())
        );
    }
    server.stop().await;
}

#[tokio::test]
async fn empty_long_and_flooding_lines_are_refused() {
    let server = TestServer::start().await;
    let (mut a, mut b, _) = two_players(&server, caro(15)).await;

    a.send(ClientMsg::Chat(" \n\t ".into())).await;
    a.expect_error(ErrorCode::EmptyChat).await;
    a.send(ClientMsg::Chat("x".repeat(MAX_CHAT_CHARS + 1)))
        .await;
    let e = a.expect_error(ErrorCode::ChatTooLong).await;
    assert!(
        e.message.contains(&MAX_CHAT_CHARS.to_string()),
        "{}",
        e.message
    );
    // The longest allowed line goes through; Bình saw none of the refused ones.
    a.send(ClientMsg::Chat("y".repeat(MAX_CHAT_CHARS))).await;
    assert_eq!(next_chat(&mut b).await.1.len(), MAX_CHAT_CHARS);

    // A flood: some lines pass, then the rest are refused.
    for i in 0..30 {
        a.send(ClientMsg::Chat(format!("spam {i}"))).await;
    }
    let (mut passed, mut refused) = (0, 0);
    a.recv_until(|m| matches!(m, ServerMsg::Chat(l) if l.text.len() == MAX_CHAT_CHARS))
        .await;
    for _ in 0..30 {
        match a.recv().await {
            ServerMsg::Chat(_) => passed += 1,
            ServerMsg::Error(e) if e.code == ErrorCode::ChatTooFast => refused += 1,
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(
        passed >= 1 && refused >= 1,
        "passed {passed}, refused {refused}"
    );
    // Bình only ever sees the lines that passed.
    for _ in 0..passed {
        assert!(next_chat(&mut b).await.1.starts_with("spam"));
    }
    server.stop().await;
}

#[tokio::test]
async fn newcomers_get_the_recent_chat() {
    // A generous allowance: this conversation is long, not fast.
    let config = banco_server::Config {
        chat_burst: 1000,
        ..banco_tests::test_config()
    };
    let server = TestServer::with_config(config).await;
    let mut a = server.connect("An").await;
    let (id, _) = a.create(caro(15)).await;
    // More lines than the history keeps.
    for i in 0..CHAT_HISTORY + 3 {
        a.send(ClientMsg::Chat(format!("line {i}"))).await;
        assert!(matches!(a.recv().await, ServerMsg::Chat(_)));
    }
    let mut c = server.connect("Chi").await;
    let view = c.watch(id).await;
    assert_eq!(view.chat.len(), CHAT_HISTORY);
    assert_eq!(view.chat[0].text, "line 3");
    assert_eq!(
        view.chat[CHAT_HISTORY - 1].text,
        format!("line {}", CHAT_HISTORY + 2)
    );
    assert!(view.chat.iter().all(|l| l.from == "~An"));
    server.stop().await;
}
