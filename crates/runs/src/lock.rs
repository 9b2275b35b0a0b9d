//! The liveness lock of a run: `runs/<plan_id>/<run_id>.lock`, held exclusively (advisory `flock`
//! on Unix, `LockFileEx` on Windows) by the run's recorder for as long as it lives. The operating
//! system releases it when the process ends, however it ends, so a free lock on a run without
//! `RunFinished` means the run was interrupted.
//!
//! The trait methods are called by path (`FileExt::try_lock(&file)`) because `std::fs::File` has
//! inherent methods of the same names from Rust 1.89 on.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;
use std::thread;
use std::time::{Duration, Instant};

use fs4::{FileExt, TryLockError};

use crate::StoreError;

/// How long taking a run's lock is retried: long enough to ride over another process's short
/// shared probe (`is_held`), short enough that a live recorder is reported at once.
const ACQUIRE_PATIENCE: Duration = Duration::from_millis(500);

/// A held run lock; dropping it (or ending the process) releases it.
#[derive(Debug)]
pub(crate) struct RunLock {
    _file: File,
}

impl RunLock {
    /// Takes the lock at `path` (creating the file), writing this process's id into it.
    pub(crate) fn acquire(path: &Path, run_id: &str) -> Result<RunLock, StoreError> {
        let file = planwright_fs::private_file()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(StoreError::io("open the run lock", path))?;
        let deadline = Instant::now() + ACQUIRE_PATIENCE;
        loop {
            match FileExt::try_lock(&file) {
                Ok(()) => break,
                Err(TryLockError::WouldBlock) if Instant::now() < deadline => thread::sleep(Duration::from_millis(10)),
                Err(TryLockError::WouldBlock) => {
                    return Err(StoreError::Active {
                        run_id: run_id.to_string(),
                        lock: path.to_path_buf(),
                        pid: read_pid(path),
                    })
                }
                Err(TryLockError::Error(source)) => {
                    return Err(StoreError::Io { action: "lock", path: path.to_path_buf(), source })
                }
            }
        }
        // The holder's process id, for the message another process shows (best effort).
        let write_pid = |mut file: &File| -> io::Result<()> {
            file.set_len(0)?;
            file.write_all(std::process::id().to_string().as_bytes())
        };
        if let Err(error) = write_pid(&file) {
            tracing::debug!(path = %path.display(), %error, "cannot write the process id into the run lock");
        }
        Ok(RunLock { _file: file })
    }
}

/// Whether a recorder (in this or another process) holds the lock at `path`. A missing file or an
/// error counts as not held.
pub(crate) fn is_held(path: &Path) -> bool {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return false,
        Err(error) => {
            tracing::warn!(path = %path.display(), %error, "cannot open the run lock; taking the run as not running");
            return false;
        }
    };
    match FileExt::try_lock_shared(&file) {
        // Closing the file right after releases the probe's shared lock.
        Ok(()) => false,
        Err(TryLockError::WouldBlock) => true,
        Err(TryLockError::Error(error)) => {
            tracing::warn!(path = %path.display(), %error, "cannot probe the run lock; taking the run as not running");
            false
        }
    }
}

fn read_pid(path: &Path) -> Option<u32> {
    std::fs::read_to_string(path).ok()?.trim().parse().ok()
}
