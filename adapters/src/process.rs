//! An external engine's process, as both adapters (Gomocup for caro, UCI for xiangqi) run
//! it: started with `sh -c COMMAND`, commands written to its stdin one line at a time, and
//! its stdout read by a thread into a channel so that every wait has a timeout. Dropping it
//! asks the engine to leave with its protocol's word, waits a moment, then kills it.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};

/// How long a process asked to leave gets before it is killed.
const LEAVE_TIME: Duration = Duration::from_millis(500);

/// A running engine process.
pub struct EngineProcess {
    /// The process, to wait for or kill.
    child: Child,
    /// Where commands go.
    stdin: ChildStdin,
    /// Lines the engine printed, in order; disconnected when it exits.
    lines: Receiver<String>,
    /// The command that asks the engine to leave (`END`, `quit`).
    leave: &'static str,
}

impl EngineProcess {
    /// Starts `command` under `sh -c`; `leave` is the line that asks it to exit.
    pub fn spawn(command: &str, leave: &'static str) -> Result<EngineProcess> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start '{command}'"))?;
        let stdin = child.stdin.take().context("the engine has no stdin")?;
        let stdout = child.stdout.take().context("the engine has no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(EngineProcess {
            child,
            stdin,
            lines,
            leave,
        })
    }

    /// Writes one command line.
    pub fn send(&mut self, line: &str) -> Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .context("the engine stopped reading its input")
    }

    /// The next line the engine prints, waiting at most until `deadline`.
    pub fn next_line(&mut self, deadline: Instant) -> Result<String> {
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => bail!("no answer in time"),
            Err(RecvTimeoutError::Disconnected) => bail!("the engine exited"),
        }
    }

    /// Whether the process has exited (waiting a moment for one whose output just
    /// closed): an engine that crashed, as against one that said something wrong.
    pub fn exited(&mut self) -> bool {
        let deadline = Instant::now() + Duration::from_millis(200);
        loop {
            if !matches!(self.child.try_wait(), Ok(None)) {
                return true;
            }
            if Instant::now() >= deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Reads lines until `done` accepts one (returned) or `timeout` passes.
    pub fn read_until(
        &mut self,
        timeout: Duration,
        mut done: impl FnMut(&str) -> bool,
    ) -> Result<String> {
        let deadline = Instant::now() + timeout;
        loop {
            let line = self.next_line(deadline)?;
            if done(&line) {
                return Ok(line);
            }
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        let _ = self.send(self.leave);
        let deadline = Instant::now() + LEAVE_TIME;
        while Instant::now() < deadline {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_and_reports_exit_and_silence() {
        let mut p = EngineProcess::spawn("read x; echo got $x; read y", "bye").unwrap();
        p.send("hello").unwrap();
        let line = p
            .read_until(Duration::from_secs(10), |l| l.starts_with("got"))
            .unwrap();
        assert_eq!(line, "got hello");
        // Nothing more comes until the second line: a short wait runs out.
        let err = p.next_line(Instant::now() + Duration::from_millis(50));
        assert!(err.unwrap_err().to_string().contains("in time"));
        p.send("done").unwrap();
        let err = p.next_line(Instant::now() + Duration::from_secs(10));
        assert!(err.unwrap_err().to_string().contains("exited"));
    }
}
