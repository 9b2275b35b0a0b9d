//! The Chromium process a session launches, tied to ours: it dies when this process dies,
//! however it dies (SIGKILL included), and its profile folder is named after us so that the
//! next launch can remove the folders of processes that are gone.

use std::io;
use std::path::Path;
use std::process::{Child, ChildStderr, Command, Stdio};
use std::sync::mpsc;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use tokio::io::{AsyncBufReadExt, AsyncReadExt};
use tokio::sync::oneshot;

use crate::error::BrowserError;

/// What starts every profile folder's name, followed by the owning process's id and a dash.
const PROFILE_PREFIX: &str = "planwright-chromium-";

/// How much of Chromium's standard error is read while looking for its DevTools address.
const STDERR_LIMIT: u64 = 1 << 20;

/// A fresh profile folder in the temporary folder, named after this process, after removing
/// those of processes that are gone (killed before they could remove their own). A folder
/// whose owner still runs — a concurrent run, the studio — is never touched.
pub(crate) fn fresh_profile() -> Result<tempfile::TempDir, BrowserError> {
    let profile = tempfile::Builder::new()
        .prefix(&format!("{PROFILE_PREFIX}{}-", std::process::id()))
        .tempdir()
        .map_err(|e| BrowserError::Launch(format!("cannot create a profile folder: {e}")))?;
    sweep_stale_profiles(profile.path());
    Ok(profile)
}

/// Removes the profile folders, beside `fresh` and owned by the same user, whose process has
/// ended.
#[cfg(unix)]
fn sweep_stale_profiles(fresh: &Path) {
    use std::os::unix::fs::MetadataExt;

    let (Some(folder), Ok(ours)) = (fresh.parent(), std::fs::metadata(fresh)) else { return };
    let Ok(entries) = std::fs::read_dir(folder) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(owner) = name.to_str().and_then(profile_owner) else { continue };
        // A link is not a profile we made (and is never followed); another user's is theirs.
        let Ok(meta) = entry.path().symlink_metadata() else { continue };
        if !meta.is_dir() || meta.uid() != ours.uid() || is_running(owner) {
            continue;
        }
        match std::fs::remove_dir_all(entry.path()) {
            Ok(()) => tracing::debug!(profile = %entry.path().display(), owner, "removed a stale browser profile"),
            Err(e) => {
                tracing::debug!(profile = %entry.path().display(), error = %e, "could not remove a stale browser profile")
            }
        }
    }
}

#[cfg(not(unix))]
fn sweep_stale_profiles(_fresh: &Path) {}

/// The owning process of a profile folder named `planwright-chromium-<pid>-<random>`. Folders
/// named otherwise (an older version's, without the pid) are not ours to judge.
#[cfg(unix)]
fn profile_owner(name: &str) -> Option<u32> {
    let (pid, rest) = name.strip_prefix(PROFILE_PREFIX)?.split_once('-')?;
    let pid = pid.parse::<u32>().ok()?;
    (pid > 0 && !rest.is_empty()).then_some(pid)
}

/// Whether a process with this id exists (a pid taken by another program since counts: its
/// folder is kept until that one ends too).
#[cfg(unix)]
fn is_running(pid: u32) -> bool {
    // A pid past i32 would name a process group to kill(2): no such process exists.
    let Ok(pid) = libc::pid_t::try_from(pid) else { return false };
    // SAFETY: signal 0 only checks that the process exists and may be signalled.
    let answer = unsafe { libc::kill(pid, 0) };
    answer == 0 || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// A Chromium this process started. Dropped, it is killed and reaped.
pub(crate) struct ChromiumProcess {
    child: Option<Child>,
}

impl ChromiumProcess {
    /// Starts `executable` with `args` (which must ask for `--remote-debugging-port`) and
    /// returns it with its DevTools address, read from its standard error within `limit`.
    pub(crate) async fn start(
        executable: &Path,
        args: &[String],
        limit: Duration,
    ) -> Result<(ChromiumProcess, String), BrowserError> {
        let mut command = Command::new(executable);
        command.args(args).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped());
        die_with_us(&mut command);
        let (reply, spawned) = oneshot::channel();
        launcher()?
            .send(Job::Spawn(command, reply))
            .map_err(|_| BrowserError::Launch("the browser launcher thread has ended".to_owned()))?;
        let mut child = spawned
            .await
            .map_err(|_| BrowserError::Launch("the browser launcher thread has ended".to_owned()))?
            .map_err(|e| BrowserError::Launch(format!("cannot start {}: {e}", executable.display())))?;
        let stderr = child.stderr.take();
        // From here on, a failure drops (kills) the process.
        let process = ChromiumProcess { child: Some(child) };
        let Some(stderr) = stderr else {
            return Err(BrowserError::Launch(format!("{} gave no standard error to read", executable.display())));
        };
        match devtools_address(stderr, limit).await {
            Ok(address) => Ok((process, address)),
            Err(why) => Err(BrowserError::Launch(format!("{} {why}", executable.display()))),
        }
    }

    /// Waits up to `grace` for the browser to end (after being asked to close), then kills it.
    pub(crate) async fn wait_or_kill(mut self, grace: Duration) {
        let deadline = Instant::now() + grace;
        while let Some(child) = self.child.as_mut() {
            match child.try_wait() {
                Ok(None) if Instant::now() < deadline => tokio::time::sleep(Duration::from_millis(20)).await,
                Ok(None) => break,
                Ok(Some(_)) | Err(_) => self.child = None,
            }
        }
    }
}

impl Drop for ChromiumProcess {
    fn drop(&mut self) {
        let Some(mut child) = self.child.take() else { return };
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        let _ = child.kill();
        // Reaped off this thread: dropping happens on the async runtime.
        match launcher() {
            Ok(launcher) => {
                if let Err(mpsc::SendError(Job::Reap(mut child))) = launcher.send(Job::Reap(child)) {
                    let _ = child.wait();
                }
            }
            Err(_) => {
                let _ = child.wait();
            }
        }
    }
}

/// The DevTools address Chromium prints on its standard error (`DevTools listening on
/// ws://…/devtools/browser/…`); else why not, with the last 2000 characters it said.
async fn devtools_address(stderr: ChildStderr, limit: Duration) -> Result<String, String> {
    let stderr = tokio::process::ChildStderr::from_std(stderr).map_err(|e| e.to_string())?;
    let mut reader = tokio::io::BufReader::new(stderr.take(STDERR_LIMIT));
    let mut said = Vec::new();
    let read = async {
        loop {
            let start = said.len();
            match reader.read_until(b'\n', &mut said).await {
                Ok(0) | Err(_) => return None,
                Ok(_) => {}
            }
            let line = String::from_utf8_lossy(&said[start..]);
            if let Some((_, address)) = line.rsplit_once("listening on ") {
                let address = address.trim();
                if address.starts_with("ws") && address.contains("/devtools/browser/") {
                    return Some(address.to_owned());
                }
            }
        }
    };
    let why = match tokio::time::timeout(limit, read).await {
        Ok(Some(address)) => return Ok(address),
        Ok(None) => "ended before it was ready".to_owned(),
        Err(_) => format!("did not say its DevTools address within {} s", limit.as_secs()),
    };
    let text = String::from_utf8_lossy(&said);
    let tail = text.char_indices().rev().nth(1999).map_or(0, |(i, _)| i);
    Err(format!("{why}; it said: {:?}", text[tail..].trim()))
}

/// Work for the launcher thread.
enum Job {
    Spawn(Command, oneshot::Sender<io::Result<Child>>),
    Reap(Child),
}

/// The thread every Chromium is started from. The kernel's parent-death signal fires when the
/// *thread* that forked the child ends, not the process: a runtime's worker or blocking thread
/// can end while the session lives on, so the fork happens on this thread, which lives as long
/// as the process.
fn launcher() -> Result<&'static mpsc::Sender<Job>, BrowserError> {
    static LAUNCHER: OnceLock<Result<mpsc::Sender<Job>, String>> = OnceLock::new();
    let launcher = LAUNCHER.get_or_init(|| {
        let (sender, jobs) = mpsc::channel();
        std::thread::Builder::new()
            .name("chromium-launcher".to_owned())
            .spawn(move || {
                for job in jobs {
                    match job {
                        Job::Spawn(mut command, reply) => {
                            let _ = reply.send(command.spawn());
                        }
                        Job::Reap(mut child) => {
                            let _ = child.wait();
                        }
                    }
                }
            })
            .map(|_| sender)
            .map_err(|e| e.to_string())
    });
    launcher.as_ref().map_err(|e| BrowserError::Launch(format!("cannot start the browser launcher thread: {e}")))
}

/// Asks the kernel to kill the child when its parent — the launcher thread, living as long as
/// this process — ends, so a killed run leaves no browser behind.
#[cfg(target_os = "linux")]
fn die_with_us(command: &mut Command) {
    use std::os::unix::process::CommandExt;

    let parent = libc::pid_t::try_from(std::process::id()).unwrap_or(0);
    // SAFETY: prctl and getppid are async-signal-safe and allocate nothing.
    unsafe {
        command.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0 {
                return Err(io::Error::last_os_error());
            }
            // This process may have ended between the fork and the prctl: the signal is then
            // never sent, so the child goes now.
            if libc::getppid() != parent {
                return Err(io::Error::from_raw_os_error(libc::ESRCH));
            }
            Ok(())
        });
    }
}

/// Elsewhere the kernel offers no such tie; the session kills its browser when it ends.
#[cfg(not(target_os = "linux"))]
fn die_with_us(_command: &mut Command) {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_folder_names_its_owner_after_the_prefix() {
        assert_eq!(profile_owner("planwright-chromium-4242-Ab12cD"), Some(4242));
        assert_eq!(profile_owner("planwright-chromium-Ab12cD"), None, "an older version's name");
        assert_eq!(profile_owner("planwright-chromium-0-Ab12cD"), None);
        assert_eq!(profile_owner("planwright-chromium-4242-"), None);
        assert_eq!(profile_owner("other-4242-Ab12cD"), None);
    }
}
