//! The host names the page and its WebSocket answer to, against DNS rebinding.
//!
//! A web page elsewhere (`http://evil.example`) can point its own name at this server's
//! LAN address once its visitor has loaded it; the visitor's browser then sends the
//! page's requests here, as same-origin requests of `evil.example`. What gives it away
//! is the `Host` header: it names `evil.example`. So a request is answered only when its
//! `Host` names this server:
//!
//! - an address of this machine (looked up when asked, so a new DHCP lease needs no
//!   restart), a loopback address, `localhost` or a name under `.localhost`;
//! - this machine's host name, alone or under `.local` (mDNS) or `.lan`/`.home.arpa`;
//! - a name the host gave with `--hostname` (any case; a trailing dot ignored).
//!
//! A request without `Host` (HTTP/1.0, a program) is not from a browser page and is let
//! through, as the WebSocket's Origin check does.

use std::net::IpAddr;

/// The suffixes under which this machine's host name may be reached on a LAN.
const LOCAL_SUFFIXES: [&str; 4] = ["", ".local", ".lan", ".home.arpa"];

/// Whether a request whose `Host` header is `host` (None: no header) is for this
/// server; `names` are the `--hostname` names.
pub fn allowed(host: Option<&str>, names: &[String]) -> bool {
    let Some(host) = host else {
        return true;
    };
    let Some(name) = without_port(host) else {
        return false;
    };
    let name = name.trim_end_matches('.').to_ascii_lowercase();
    if let Ok(ip) = name.parse::<IpAddr>() {
        return ip.is_loopback() || ip.to_canonical().is_loopback() || is_own_address(ip);
    }
    if name == "localhost" || name.ends_with(".localhost") {
        return true;
    }
    if names
        .iter()
        .any(|n| n.trim_end_matches('.').eq_ignore_ascii_case(&name))
    {
        return true;
    }
    let own = crate::config::host_name().to_ascii_lowercase();
    LOCAL_SUFFIXES
        .iter()
        .any(|suffix| name.strip_suffix(suffix) == Some(own.as_str()))
}

/// The sentence a refused request gets.
pub fn refusal(host: &str) -> String {
    let name = without_port(host).unwrap_or(host);
    format!(
        "this banco server does not answer to the name {name}: open it by its address (as \
         `banco host` shows it) or by this machine's name. If {name} is a name you gave \
         it, start the server with --hostname {name} (a page reaching it under a name it \
         does not know may be a DNS rebinding attack)"
    )
}

/// The host of a `Host` header: `name`, `name:port`, `[v6]` or `[v6]:port`; `None` if
/// it is none of these.
fn without_port(host: &str) -> Option<&str> {
    if let Some(rest) = host.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        return (after.is_empty() || after.strip_prefix(':').is_some_and(is_port))
            .then_some(inside);
    }
    match host.rsplit_once(':') {
        Some((name, port)) if is_port(port) && !name.contains(':') => Some(name),
        Some(_) => None,
        None => Some(host),
    }
    .filter(|name| !name.is_empty())
}

fn is_port(text: &str) -> bool {
    !text.is_empty() && text.len() <= 5 && text.bytes().all(|b| b.is_ascii_digit())
}

/// Whether `ip` is an address of one of this machine's interfaces now.
fn is_own_address(ip: IpAddr) -> bool {
    let ip = ip.to_canonical();
    match if_addrs::get_if_addrs() {
        Ok(interfaces) => interfaces.iter().any(|i| i.ip() == ip),
        Err(e) => {
            tracing::debug!(error = %e, "cannot list the network interfaces");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_machine_s_names_are_answered_and_others_refused() {
        let none: [String; 0] = [];
        for ok in [
            "127.0.0.1:7373",
            "127.0.0.2",
            "[::1]:7373",
            "localhost:7373",
            "LOCALHOST",
            "app.localhost",
        ] {
            assert!(allowed(Some(ok), &none), "{ok}");
        }
        for bad in [
            "evil.example",
            "evil.example:7373",
            "192.0.2.44:7373",
            "",
            ":7373",
            "localhost:99999999",
            "[::1",
            "a:b:c",
        ] {
            assert!(!allowed(Some(bad), &none), "{bad}");
        }
        assert!(allowed(None, &none), "no Host: not a browser");
        let given = ["banco.example.lan".to_string()];
        assert!(allowed(Some("Banco.Example.LAN.:7373"), &given));
        assert!(!allowed(Some("banco.example.lan.evil.example"), &given));
        let own = crate::config::host_name();
        assert!(allowed(Some(&format!("{own}.local:7373")), &none), "{own}");
    }

    #[test]
    fn this_machine_s_own_addresses_are_answered() {
        if let Some(iface) = if_addrs::get_if_addrs()
            .unwrap_or_default()
            .into_iter()
            .find(|i| !i.is_loopback())
        {
            let host = match iface.ip() {
                IpAddr::V4(v4) => format!("{v4}:7373"),
                IpAddr::V6(v6) => format!("[{v6}]:7373"),
            };
            assert!(allowed(Some(&host), &[]), "{host}");
        }
    }

    #[test]
    fn the_refusal_says_what_to_do() {
        let text = refusal("evil.example:7373");
        assert!(text.contains("--hostname evil.example "), "{text}");
        assert!(text.contains("DNS rebinding"), "{text}");
    }
}
