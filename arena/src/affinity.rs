//! Keeping each game's engines off the others' CPUs, as fastchess and cutechess-cli do
//! for concurrent games: an engine that shares a core with another game's engine thinks
//! for half the time it was given, and the match measures the scheduler.
//!
//! A game slot's thread pins itself to one CPU before it starts its players; external
//! engines started from that thread inherit the pin (a child process starts with its
//! parent thread's CPU mask). Linux only (`sched_setaffinity`); elsewhere nothing is
//! pinned and the match says so.

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
/// every slot its own; `None` (nothing pinned) otherwise.
pub fn plan(slots: usize, cpus: Option<&[usize]>) -> Option<Vec<usize>> {
    let cpus = cpus?;
    (slots >= 2 && slots <= cpus.len()).then(|| cpus[..slots].to_vec())
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
        let cpus = [0, 2, 5];
        assert_eq!(plan(2, Some(&cpus)), Some(vec![0, 2]));
        assert_eq!(plan(3, Some(&cpus)), Some(vec![0, 2, 5]));
        assert_eq!(plan(4, Some(&cpus)), None);
        // One game at a time is left where the system puts it, as before.
        assert_eq!(plan(1, Some(&cpus)), None);
        assert_eq!(plan(2, None), None);
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
