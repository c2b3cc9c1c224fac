//! Keeping each game's engines off the others' CPUs, as fastchess and cutechess-cli do
//! for concurrent games: an engine that shares a core with another game's engine thinks
//! for half the time it was given, and the match measures the scheduler.
//!
//! A game slot's thread pins itself to one CPU before it starts its players; external
//! engines started from that thread inherit the pin (a child process starts with its
//! parent thread's CPU mask). Slots take one CPU per physical core before any core's
//! hyperthread sibling (read from sysfs). Linux only (`sched_setaffinity`); elsewhere
//! nothing is pinned and the match says so.

/// The CPUs this process may run on, lowest first; `None` where they cannot be read.
pub fn allowed_cpus() -> Option<Vec<usize>> {
    imp::allowed_cpus()
}

/// Pins the calling thread (and the processes it starts from now on) to `cpu`; whether
/// that worked.
pub fn pin_current_thread(cpu: usize) -> bool {
    imp::pin_current_thread(cpu)
}

/// The CPU for each of `slots` game slots, one each, if there are enough CPUs to give
/// every slot its own; `None` (nothing pinned) otherwise. One CPU per physical core comes
/// first (see [`spread`]), so slots share a core through its hyperthreads only when
/// there are more slots than cores.
pub fn plan(slots: usize, cpus: Option<&[usize]>) -> Option<Vec<usize>> {
    let cpus = spread(cpus?, core_of);
    (slots >= 2 && slots <= cpus.len()).then(|| cpus[..slots].to_vec())
}

/// `cpus` reordered so that each physical core's first CPU comes before any core's
/// second (hyperthread siblings last); the order is kept otherwise. `core` names a CPU's
/// physical core, where it is known.
pub fn spread(cpus: &[usize], core: impl Fn(usize) -> Option<(u32, u32)>) -> Vec<usize> {
    let mut seen: Vec<(u32, u32)> = Vec::new();
    let mut ranked: Vec<(usize, usize)> = cpus
        .iter()
        .map(|&cpu| {
            let sibling = core(cpu).map_or(0, |c| {
                let rank = seen.iter().filter(|s| **s == c).count();
                seen.push(c);
                rank
            });
            (sibling, cpu)
        })
        .collect();
    // Stable: within a rank, the system's order.
    ranked.sort_by_key(|(sibling, _)| *sibling);
    ranked.into_iter().map(|(_, cpu)| cpu).collect()
}

/// The physical core of `cpu` (package, core), from Linux's sysfs.
fn core_of(cpu: usize) -> Option<(u32, u32)> {
    let read = |what: &str| -> Option<u32> {
        std::fs::read_to_string(format!("/sys/devices/system/cpu/cpu{cpu}/topology/{what}"))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    Some((read("physical_package_id")?, read("core_id")?))
}

#[cfg(target_os = "linux")]
mod imp {
    use std::mem::size_of;

    use libc::c_ulong;

    /// Bits per word of the kernel's CPU mask.
    const WORD_BITS: usize = c_ulong::BITS as usize;
    /// A CPU mask as the kernel reads it: words of `unsigned long`, CPU `n` at bit
    /// `n % WORD_BITS` of word `n / WORD_BITS` (glibc's `cpu_set_t`, 1024 CPUs).
    type Mask = [c_ulong; 1024 / WORD_BITS];

    pub fn allowed_cpus() -> Option<Vec<usize>> {
        let mut mask: Mask = [0; 1024 / WORD_BITS];
        // SAFETY: pid 0 is the calling thread; the kernel writes at most
        // `size_of::<Mask>()` bytes into `mask`, which is that large and, as an array of
        // `unsigned long`, laid out as a `cpu_set_t` is.
        #[allow(unsafe_code)]
        let rc = unsafe {
            libc::sched_getaffinity(
                0,
                size_of::<Mask>(),
                (&raw mut mask).cast::<libc::cpu_set_t>(),
            )
        };
        if rc != 0 {
            return None;
        }
        let cpus: Vec<usize> = (0..1024)
            .filter(|&cpu| mask[cpu / WORD_BITS] & (1 << (cpu % WORD_BITS)) != 0)
            .collect();
        (!cpus.is_empty()).then_some(cpus)
    }

    pub fn pin_current_thread(cpu: usize) -> bool {
        if cpu >= 1024 {
            return false;
        }
        let mut mask: Mask = [0; 1024 / WORD_BITS];
        mask[cpu / WORD_BITS] |= 1 << (cpu % WORD_BITS);
        // SAFETY: pid 0 is the calling thread; the kernel reads `size_of::<Mask>()` bytes
        // of `mask`, laid out as a `cpu_set_t` (see `Mask`).
        #[allow(unsafe_code)]
        let rc = unsafe {
            libc::sched_setaffinity(
                0,
                size_of::<Mask>(),
                (&raw const mask).cast::<libc::cpu_set_t>(),
            )
        };
        rc == 0
    }
}

#[cfg(not(target_os = "linux"))]
mod imp {
    pub fn allowed_cpus() -> Option<Vec<usize>> {
        None
    }

    pub fn pin_current_thread(_cpu: usize) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_get_a_cpu_each_or_none() {
        let cpus = allowed_cpus().unwrap_or_else(|| vec![0, 1]);
        let n = cpus.len();
        let two = plan(2, Some(&cpus));
        if n >= 2 {
            let two = two.expect("two CPUs for two slots");
            assert!(two[0] != two[1] && two.iter().all(|c| cpus.contains(c)));
        }
        assert_eq!(plan(n + 1, Some(&cpus)), None);
        // One game at a time is left where the system puts it, as before.
        assert_eq!(plan(1, Some(&cpus)), None);
        assert_eq!(plan(2, None), None);
    }

    #[test]
    fn cores_come_before_their_hyperthreads() {
        // Eight CPUs on four cores, siblings numbered as Linux often does (n, n + 4).
        let core = |cpu: usize| Some((0, (cpu % 4) as u32));
        let cpus: Vec<usize> = (0..8).collect();
        assert_eq!(spread(&cpus, core), [0, 1, 2, 3, 4, 5, 6, 7]);
        // Siblings next to each other (2n, 2n + 1).
        let core = |cpu: usize| Some((0, (cpu / 2) as u32));
        assert_eq!(spread(&cpus, core), [0, 2, 4, 6, 1, 3, 5, 7]);
        // Two packages with the same core numbers are different cores.
        let core = |cpu: usize| Some(((cpu / 2) as u32, 0));
        assert_eq!(spread(&[0, 1, 2, 3], core), [0, 2, 1, 3]);
        // Unknown topology: the order given.
        assert_eq!(spread(&[3, 1, 2], |_| None), [3, 1, 2]);
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_thread_pins_itself() {
        let cpus = allowed_cpus().expect("Linux says which CPUs a process may use");
        let last = *cpus.last().unwrap();
        let seen = std::thread::spawn(move || {
            assert!(pin_current_thread(last));
            allowed_cpus()
        })
        .join()
        .unwrap();
        assert_eq!(seen, Some(vec![last]));
        // The pin was the spawned thread's alone.
        assert_eq!(allowed_cpus(), Some(cpus));
    }
}
