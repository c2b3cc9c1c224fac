//! The page and encryption, in a real headless Chromium: over `https://` the fingerprint
//! the host's QR code carries (`#fp=`) is shown to compare with the certificate; over
//! plain `http://` (a `--no-tls` server) the login form warns that a password would
//! cross the network in the clear; on a server with TLS on, plain `http://` gets the
//! page pointing at `https://`, never the game.

use banco_server::Config;
use banco_server::tls::Tls;
use banco_tests::browser::{Browser, PHONE};
use banco_tests::{TestServer, test_config};

#[tokio::test]
async fn the_qr_code_s_fingerprint_is_shown_and_a_cleartext_login_is_warned() {
    let server = TestServer::start().await;
    let fingerprint = server.fingerprint.expect("TLS is on by default");
    let page = Browser::open(server.addr, PHONE).await;
    page.goto(&format!("/#fp={}", fingerprint.hex())).await;
    page.wait_text("#fingerprint", &fingerprint.to_string())
        .await;
    assert_eq!(
        page.text_of("#cleartext-warning").await,
        "",
        "warned over https"
    );
    // Plain http to the same server: the way to https, not the game's form.
    page.goto_url(&format!("http://{}/", server.addr)).await;
    page.wait_text("#https", &format!("https://{}/", server.addr))
        .await;
    assert_eq!(page.text_of("#connect").await, "");

    let plain = TestServer::with_config(Config {
        tls: Tls::Off,
        ..test_config()
    })
    .await;
    page.goto_url(&format!("http://{}/", plain.addr)).await;
    page.wait_text("#cleartext-warning", "not encrypted").await;
    // The game itself works in the clear, as before TLS.
    page.type_into("#name", "Khách").await;
    page.click("#connect").await;
    page.wait_for("#btn-create").await;
    page.close().await;
    server.stop().await;
    plain.stop().await;
}
