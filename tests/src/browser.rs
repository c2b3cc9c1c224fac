//! A real headless Chromium driven over WebDriver (Debian's `chromium` and
//! `chromium-driver`), for the browser client's end-to-end tests.
//!
//! Each [`Browser`] starts its own `chromedriver` on a free loopback port in its own
//! process group, and one Chromium session with a fresh profile directory and every
//! background network feature off (the test machine's network is closed: anything a
//! browser tries to fetch by itself only fails). [`Browser::close`] ends the session;
//! dropping a `Browser` kills the whole process group, so a failed test leaves no
//! browser behind. Missing programs are a failure with a sentence saying what to
//! install, never a silent skip.

use fantoccini::elements::Element;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};
use tokio::process::{Child, Command};

use crate::WAIT;

/// What the tests need installed, as the failure says it.
pub const NEEDS: &str = "the browser tests need Chromium and its WebDriver: \
    apt-get install -y chromium chromium-driver (Debian; the README's set-up line)";

/// How often a condition is looked at again while waiting for it.
const POLL: Duration = Duration::from_millis(50);

/// A desktop window and a phone's.
pub const DESKTOP: (u32, u32) = (1280, 900);
pub const PHONE: (u32, u32) = (360, 740);

/// One headless Chromium under WebDriver.
pub struct Browser {
    /// The WebDriver session.
    client: Option<Client>,
    /// `chromedriver`, leader of the process group Chromium runs in.
    driver: Child,
    /// The fresh profile directory, removed at the end.
    profile: PathBuf,
    /// The game server's page, `https://127.0.0.1:PORT` (the test servers encrypt, as
    /// servers do by default).
    base: String,
}

fn program(names: &[&str]) -> PathBuf {
    for name in names {
        for dir in std::env::var_os("PATH")
            .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
            .unwrap_or_default()
        {
            let path = dir.join(name);
            if path.is_file() {
                return path;
            }
        }
    }
    panic!("{} not found: {NEEDS}", names.join(" or "));
}

/// Awaits one WebDriver command, failing the test if it does not answer within
/// [`WAIT`] and a little more (a browser that stopped answering would otherwise hold
/// the test, and the whole suite, for ever).
async fn within<T>(what: &str, command: impl std::future::Future<Output = T>) -> T {
    match tokio::time::timeout(WAIT + Duration::from_secs(10), command).await {
        Ok(answer) => answer,
        Err(_) => panic!("the browser did not answer {what} within {WAIT:?}"),
    }
}

fn free_port() -> u16 {
    let socket = std::net::TcpListener::bind("127.0.0.1:0").expect("a free loopback port");
    socket
        .local_addr()
        .expect("a bound socket's address")
        .port()
}

impl Browser {
    /// A browser of `size` (width, height in CSS pixels) for the server at `server`.
    pub async fn open(server: SocketAddr, size: (u32, u32)) -> Browser {
        static COUNT: AtomicU32 = AtomicU32::new(0);
        let chromium = program(&["chromium", "chromium-browser", "google-chrome"]);
        let chromedriver = program(&["chromedriver"]);
        let port = free_port();
        let profile = std::env::temp_dir().join(format!(
            "banco-chromium-{}-{}",
            std::process::id(),
            COUNT.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("a profile directory in the temp dir");
        let driver = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .arg("--allowed-ips=127.0.0.1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}; {NEEDS}", chromedriver.display()));
        let args = vec![
            "--headless".to_string(),
            "--no-sandbox".to_string(),
            "--disable-gpu".to_string(),
            "--disable-background-networking".to_string(),
            "--disable-component-update".to_string(),
            "--disable-sync".to_string(),
            "--no-first-run".to_string(),
            "--disable-default-apps".to_string(),
            "--disable-extensions".to_string(),
            "--disable-dev-shm-usage".to_string(),
            "--mute-audio".to_string(),
            "--hide-scrollbars".to_string(),
            // The test server's certificate is self-signed, as every banco server's is:
            // a person accepts it once after comparing its key's fingerprint (the
            // plain-HTTP page and the docs say how); a headless browser is told to.
            "--ignore-certificate-errors".to_string(),
            format!("--user-data-dir={}", profile.display()),
            format!("--window-size={},{}", size.0, size.1),
        ];
        let mut caps = serde_json::Map::new();
        caps.insert("browserName".into(), json!("chrome"));
        caps.insert(
            "goog:chromeOptions".into(),
            json!({ "binary": chromium.display().to_string(), "args": args }),
        );
        let url = format!("http://127.0.0.1:{port}");
        let started = Instant::now();
        let client = loop {
            let mut builder =
                ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new());
            builder.capabilities(caps.clone());
            match within("a new session", builder.connect(&url)).await {
                Ok(client) => break client,
                Err(e) if started.elapsed() > WAIT => {
                    panic!("chromedriver did not start a Chromium session: {e}; {NEEDS}")
                }
                Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
            }
        };
        let browser = Browser {
            client: Some(client),
            driver,
            profile,
            base: format!("https://{server}"),
        };
        browser.resize(size).await;
        browser
    }

    fn c(&self) -> &Client {
        self.client
            .as_ref()
            .expect("the session is open until close")
    }

    /// Makes the page's viewport exactly `size` (the window is bigger by its frame).
    pub async fn resize(&self, (width, height): (u32, u32)) {
        within("resize", self.c().set_window_size(width, height))
            .await
            .expect("resize");
        let inner: Value = within(
            "read the viewport",
            self.c()
                .execute("return [window.innerWidth, window.innerHeight]", vec![]),
        )
        .await
        .expect("read the viewport");
        let (iw, ih) = (
            inner[0].as_u64().unwrap_or(0),
            inner[1].as_u64().unwrap_or(0),
        );
        let w = width + (width - iw as u32);
        let h = height + (height - ih as u32);
        within("resize", self.c().set_window_size(w, h))
            .await
            .expect("resize");
    }

    /// Opens the server's page at `path`.
    pub async fn goto(&self, path: &str) {
        let url = format!("{}{path}", self.base);
        within("open the page", self.c().goto(&url))
            .await
            .expect("open the page");
    }

    /// Opens `url` as it is (another server's page, `http://` on a `--no-tls` one).
    pub async fn goto_url(&self, url: &str) {
        within("open the page", self.c().goto(url))
            .await
            .expect("open the page");
    }

    /// Opens the page and connects as `name`, landing in the lobby.
    pub async fn enter(&self, name: &str) {
        self.goto("/").await;
        self.type_into("#name", name).await;
        self.click("#connect").await;
        self.wait_for("#btn-create").await;
    }

    /// Opens a new window of the same browser (same profile: its localStorage is
    /// shared) and makes it the one commands go to; returns the window it came from.
    pub async fn new_window(&self) -> fantoccini::wd::WindowHandle {
        let from = within("the window", self.c().window())
            .await
            .expect("the current window");
        let opened = within("a new window", self.c().new_window(false))
            .await
            .expect("a new window");
        within(
            "switching windows",
            self.c().switch_to_window(opened.handle),
        )
        .await
        .expect("switch to the new window");
        from
    }

    /// The window commands go to.
    pub async fn window(&self) -> fantoccini::wd::WindowHandle {
        within("the window", self.c().window())
            .await
            .expect("the current window")
    }

    /// Makes `window` the one commands go to.
    pub async fn switch_to(&self, window: fantoccini::wd::WindowHandle) {
        within("switching windows", self.c().switch_to_window(window))
            .await
            .expect("switch windows");
    }

    /// Reloads the page.
    pub async fn reload(&self) {
        within("reload", self.c().refresh()).await.expect("reload");
    }

    /// Runs `script` (a function body; `arguments` are `args`) and returns its value.
    pub async fn js(&self, script: &str, args: Vec<Value>) -> Value {
        within("a script", self.c().execute(script, args))
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Runs `script` (a function body whose last argument is the callback it must call
    /// with its result) and returns what it passed back.
    pub async fn js_async(&self, script: &str, args: Vec<Value>) -> Value {
        within("a script", self.c().execute_async(script, args))
            .await
            .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Waits until the JavaScript expression `expr` is true; `what` says what was awaited.
    pub async fn wait_js(&self, what: &str, expr: &str, args: Vec<Value>) {
        let script = format!("return !!({expr});");
        let started = Instant::now();
        loop {
            if self.js(&script, args.clone()).await == json!(true) {
                return;
            }
            if started.elapsed() > WAIT {
                let notice = self.text_of("#notice").await;
                let shot = std::env::temp_dir()
                    .join(format!("banco-browser-failure-{}.png", std::process::id()));
                if let Ok(png) = within("a screenshot", self.c().screenshot()).await {
                    let _ = std::fs::write(&shot, png);
                }
                panic!(
                    "waited in vain for {what} (notice: {notice:?}; the page is in {})",
                    shot.display()
                );
            }
            tokio::time::sleep(POLL).await;
        }
    }

    /// Waits for an element matching `css`.
    pub async fn wait_for(&self, css: &str) -> Element {
        let wait = self.c().wait().at_most(WAIT).for_element(Locator::Css(css));
        within(&format!("{css} to appear"), wait)
            .await
            .unwrap_or_else(|e| panic!("no {css} on the page: {e}"))
    }

    /// Waits until the text of `css` contains `text`.
    pub async fn wait_text(&self, css: &str, text: &str) {
        self.wait_js(
            &format!("{css} to say {text:?}"),
            "(document.querySelector(arguments[0]) || {}).textContent?.includes(arguments[1])",
            vec![json!(css), json!(text)],
        )
        .await;
    }

    /// The text of the first element matching `css` ("" if there is none).
    pub async fn text_of(&self, css: &str) -> String {
        self.js(
            "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';",
            vec![json!(css)],
        )
        .await
        .as_str()
        .unwrap_or_default()
        .to_string()
    }

    /// Clicks the element matching `css`, as a person would (it must be visible and
    /// enabled).
    pub async fn click(&self, css: &str) {
        self.wait_js(
            &format!("{css} to be there and enabled"),
            "(e => e && !e.disabled)(document.querySelector(arguments[0]))",
            vec![json!(css)],
        )
        .await;
        // The page may redraw between finding and clicking (a room list that updates
        // by itself): find it again then.
        let mut tries = 0;
        loop {
            let element = self.wait_for(css).await;
            match within(&format!("a click on {css}"), element.click()).await {
                Ok(()) => return,
                Err(e) if tries < 20 && e.to_string().contains("stale") => {
                    tries += 1;
                    tokio::time::sleep(POLL).await;
                }
                Err(e) => panic!("cannot click {css}: {e}"),
            }
        }
    }

    /// Types `text` into the field matching `css` (after clearing it).
    pub async fn type_into(&self, css: &str, text: &str) {
        let element = self.wait_for(css).await;
        within("clearing a field", element.clear())
            .await
            .expect("clear a field");
        within("typing", element.send_keys(text))
            .await
            .expect("type");
    }

    /// Picks `value` in the `<select>` matching `css`.
    pub async fn select(&self, css: &str, value: &str) {
        self.wait_for(css).await;
        self.js(
            "const s = document.querySelector(arguments[0]); s.value = arguments[1]; \
             s.dispatchEvent(new Event('change', {bubbles: true}));",
            vec![json!(css), json!(value)],
        )
        .await;
    }

    /// Writes a screenshot of the viewport to `path` (PNG).
    pub async fn screenshot(&self, path: &Path) {
        let png = within("a screenshot", self.c().screenshot())
            .await
            .expect("a screenshot");
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("a folder for screenshots");
        }
        std::fs::write(path, png).expect("write the screenshot");
    }

    /// Ends the session and chromedriver.
    pub async fn close(mut self) {
        if let Some(client) = self.client.take() {
            let _ = tokio::time::timeout(WAIT, client.close()).await;
        }
        self.kill_group();
        let _ = self.driver.wait().await;
    }

    /// Kills chromedriver's process group (Chromium runs in it), while chromedriver is
    /// still ours and unreaped, so the group id is surely its.
    fn kill_group(&self) {
        if let Some(pid) = self.driver.id() {
            let _ = std::process::Command::new("kill")
                .args(["-KILL", "--", &format!("-{pid}")])
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status();
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // Whatever state a failed test left them in.
        self.kill_group();
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}
