//! The budgets a host sets on the command line, shared by `banco-server` and `banco host`
//! (both flatten [`Limits`] into their arguments), so the two never drift apart.

use crate::Config;
use crate::store::SyncMode;

/// What the server may spend, in bytes and seats, and what a commit survives.
#[derive(Debug, Clone, clap::Args)]
pub struct Limits {
    /// What a commit of a game's moves survives: `normal`, a crash of the server process
    /// (kill -9, a panic); `full`, also a power cut or a crash of the whole machine, at
    /// the price of an fsync per group commit.
    #[arg(long, value_name = "MODE", default_value = "normal")]
    pub sync: SyncMode,
    /// The most the database file may grow to (e.g. 500MB, 2GB); past it games go on,
    /// held in memory, and every player is told they are not being saved. Default: no cap.
    #[arg(long, value_name = "SIZE", value_parser = size)]
    pub db_max_size: Option<u64>,
    /// The most bytes of game records that may wait for the disk; past it moves wait
    /// for their commit (the disk sets the pace) instead of memory growing.
    #[arg(long, value_name = "SIZE", value_parser = size, default_value = "16MiB")]
    pub store_queue: u64,
    /// The most bytes of messages that may wait for one client's socket; a client that
    /// falls further behind is disconnected (told why), never its room slowed.
    #[arg(long, value_name = "SIZE", value_parser = size, default_value = "256KiB")]
    pub outbox: u64,
    /// The most spectators one room admits; one more is told the room is full.
    #[arg(long, value_name = "N", default_value_t = 200)]
    pub spectators: usize,
    /// How many threads search for all bots and hints together. Default: every core but
    /// one (at least one).
    #[arg(long, value_name = "N")]
    pub engine_threads: Option<usize>,
    /// Memory for all the engines' hash tables together (e.g. 256MiB, 1GB): what bots
    /// cost, however many rooms have one.
    #[arg(long, value_name = "SIZE", value_parser = size, default_value = "256MiB")]
    pub engine_memory: u64,
    /// The engine's time per position when it reviews a finished game (e.g. 100ms, 1s):
    /// reviews run only when no bot move or hint needs the engines.
    #[arg(long, value_name = "TIME", value_parser = duration, default_value = "100ms")]
    pub review_budget: std::time::Duration,
    /// The most game reviews under way at once; one more is refused until one ends.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub reviews: usize,
    /// The most connections one machine may have open at once (an IPv6 machine counts
    /// as its /64); one more is told why and closed.
    #[arg(long, value_name = "N", default_value_t = 32)]
    pub connections_per_address: usize,
    /// The most connections open at once. Default: what the open files limit allows
    /// (raised to its hard limit at start), less room for the server's own files.
    #[arg(long, value_name = "N")]
    pub connections: Option<usize>,
    /// The most rooms one machine or account may have open at once, counting rooms whose
    /// maker dropped and holds a seat; one more is refused.
    #[arg(long, value_name = "N", default_value_t = 8)]
    pub rooms_per_player: usize,
    /// The most seats held at once for dropped players of one machine or account; past
    /// it, a player who drops leaves their room instead.
    #[arg(long, value_name = "N", default_value_t = 4)]
    pub held_seats_per_player: usize,
    /// Password checks computed at once (logins, registrations), each in 19 MiB of
    /// memory kept from one to the next; more wait their turn.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub hashing: usize,
    /// A host name players use to reach this server (e.g. banco.example.lan), beside
    /// its addresses, localhost and this machine's name; repeat for several. The page
    /// refuses any other name, so a web page elsewhere cannot reach it through DNS
    /// rebinding.
    #[arg(long = "hostname", value_name = "NAME")]
    pub hostnames: Vec<String>,
}

impl Default for Limits {
    /// What the flags default to (the same as [`Config::default`]).
    fn default() -> Limits {
        let config = Config::default();
        Limits {
            sync: config.store_sync,
            db_max_size: None,
            store_queue: config.store_queue_bytes as u64,
            outbox: config.outbox_bytes as u64,
            spectators: config.max_spectators,
            engine_threads: None,
            engine_memory: config.engine_memory as u64,
            review_budget: config.review_budget,
            reviews: config.max_reviews,
            connections_per_address: config.connections_per_address,
            connections: config.max_connections,
            rooms_per_player: config.rooms_per_player,
            held_seats_per_player: config.held_per_player,
            hashing: config.hashing,
            hostnames: config.hostnames,
        }
    }
}

impl Limits {
    /// Writes these limits into `config`.
    pub fn apply(&self, config: &mut Config) {
        config.store_sync = self.sync;
        config.store_max_bytes = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(
            self.db_max_size.unwrap_or(0),
        ));
        config.store_queue_bytes = usize::try_from(self.store_queue).unwrap_or(usize::MAX);
        config.outbox_bytes = usize::try_from(self.outbox).unwrap_or(usize::MAX);
        config.max_spectators = self.spectators;
        config.engine_threads = self
            .engine_threads
            .unwrap_or_else(crate::engines::default_threads);
        config.engine_memory = usize::try_from(self.engine_memory).unwrap_or(usize::MAX);
        config.review_budget = self.review_budget;
        config.max_reviews = self.reviews.max(1);
        config.connections_per_address = self.connections_per_address.max(1);
        config.max_connections = self.connections.map(|n| n.max(1));
        config.rooms_per_player = self.rooms_per_player.max(1);
        config.held_per_player = self.held_seats_per_player;
        config.hashing = self.hashing.max(1);
        config.hostnames.clone_from(&self.hostnames);
    }
}

/// A time like `100ms`, `2s` or `1.5s` (a bare number is milliseconds), from 1 ms to a
/// minute.
pub fn duration(text: &str) -> Result<std::time::Duration, String> {
    let t = text.trim().to_ascii_lowercase();
    let (number, factor) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1000.0)
    } else {
        (t.as_str(), 1.0)
    };
    let millis = number
        .trim()
        .parse::<f64>()
        .map(|n| n * factor)
        .map_err(|_| format!("'{text}' is not a time like 100ms or 2s"))?;
    if !(1.0..=60_000.0).contains(&millis) {
        return Err(format!("'{text}' is out of range: give 1ms to 60s"));
    }
    Ok(std::time::Duration::from_micros((millis * 1000.0) as u64))
}

/// A size in bytes: a number with an optional unit, `k`/`KB` (1000), `KiB` (1024), `MB`,
/// `MiB`, `GB`, `GiB`; case is ignored and `B` may be left out (`64m`, `2G`).
pub fn size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let number: f64 = number
        .parse()
        .map_err(|_| format!("'{text}' is not a size like 64MB or 512KiB"))?;
    let unit = unit.trim().to_ascii_lowercase();
    let unit = unit.strip_suffix('b').unwrap_or(&unit);
    let factor: u64 = match unit {
        "" => 1,
        "k" => 1_000,
        "ki" => 1 << 10,
        "m" => 1_000_000,
        "mi" => 1 << 20,
        "g" => 1_000_000_000,
        "gi" => 1 << 30,
        _ => {
            return Err(format!(
                "'{text}' has a unit I do not know (use KB, MB, GB, KiB, MiB or GiB)"
            ));
        }
    };
    let bytes = number * factor as f64;
    if !bytes.is_finite() || bytes < 1.0 || bytes > u64::MAX as f64 {
        return Err(format!("'{text}' is not a size this machine can hold"));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(size("512"), Ok(512));
        assert_eq!(size("64KiB"), Ok(64 << 10));
        assert_eq!(size("16MiB"), Ok(16 << 20));
        assert_eq!(size("500MB"), Ok(500_000_000));
        assert_eq!(size("2g"), Ok(2_000_000_000));
        assert_eq!(size(" 1.5 GiB "), Ok(3 << 29));
        assert!(size("lots").unwrap_err().contains("64MB"));
        assert!(size("5 parsecs").unwrap_err().contains("unit"));
        assert!(size("0").is_err());
    }

    #[test]
    fn times_read_as_people_write_them() {
        use std::time::Duration;
        assert_eq!(duration("100ms"), Ok(Duration::from_millis(100)));
        assert_eq!(duration("2s"), Ok(Duration::from_secs(2)));
        assert_eq!(duration("1.5s"), Ok(Duration::from_millis(1500)));
        assert_eq!(duration("250"), Ok(Duration::from_millis(250)));
        assert!(duration("soon").unwrap_err().contains("100ms"));
        assert!(duration("0ms").is_err());
        assert!(duration("5m").is_err());
    }

    #[test]
    fn the_defaults_match_the_config_defaults() {
        use clap::Parser;
        #[derive(Parser)]
        struct Flags {
            #[command(flatten)]
            limits: Limits,
        }
        let flags = Flags::parse_from(["banco"]);
        assert_eq!(
            format!("{:?}", flags.limits),
            format!("{:?}", Limits::default())
        );
        let mut config = Config::default();
        let before = (
            config.store_queue_bytes,
            config.outbox_bytes,
            config.max_spectators,
            config.engine_threads,
            config.engine_memory,
            config.connections_per_address,
            config.rooms_per_player,
            config.held_per_player,
            config.hashing,
        );
        flags.limits.apply(&mut config);
        assert_eq!(
            (
                config.store_queue_bytes,
                config.outbox_bytes,
                config.max_spectators,
                config.engine_threads,
                config.engine_memory,
                config.connections_per_address,
                config.rooms_per_player,
                config.held_per_player,
                config.hashing,
            ),
            before
        );
        assert_eq!(
            config
                .store_max_bytes
                .load(std::sync::atomic::Ordering::Relaxed),
            0
        );
    }
}
