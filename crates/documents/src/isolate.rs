//! Each file is extracted apart from the caller: pdf-extract, docx-rs and calamine panic or
//! hang on some files. A panic is caught ([`crate::extract`]); a hang cannot be interrupted
//! inside a process, so the host program registers a worker command — itself, re-executed
//! with a hidden subcommand that calls [`worker_main`] — and each file is read in a child
//! process that is killed at the deadline. Without a registered worker (library tests, other
//! hosts) a detached thread reads the file and is abandoned at the deadline.

use std::ffi::OsString;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, ExitStatus, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::extract::extract_path;
use crate::limits::Limits;
use crate::outcome::{Outcome, Unreadable};

/// How often a wait looks at the deadline and the cancellation.
const POLL: Duration = Duration::from_millis(5);
/// How long a thread wait blocks before it looks at the cancellation again.
const WAIT_SLICE: Duration = Duration::from_millis(20);
/// The extraction thread's stack: parsers recurse over nested XML and PDF objects, and a
/// stack overflow would abort the whole program.
const THREAD_STACK: usize = 32 * 1024 * 1024;

/// The extraction was cancelled by the caller.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("document extraction was cancelled")]
pub struct Cancelled;

/// A program that, run with these arguments, calls [`worker_main`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerCommand {
    pub program: PathBuf,
    pub args: Vec<OsString>,
}

impl WorkerCommand {
    pub fn new(program: impl Into<PathBuf>, args: impl IntoIterator<Item = impl Into<OsString>>) -> Self {
        WorkerCommand { program: program.into(), args: args.into_iter().map(Into::into).collect() }
    }

    /// The running executable with these arguments: the usual registration.
    pub fn current_exe(args: impl IntoIterator<Item = impl Into<OsString>>) -> std::io::Result<Self> {
        Ok(WorkerCommand::new(std::env::current_exe()?, args))
    }
}

static WORKER: OnceLock<WorkerCommand> = OnceLock::new();

/// The hidden first argument that makes a host binary the extraction worker.
pub const WORKER_ARG: &str = "__extract-worker";

/// What a host binary (`planwright`, the desktop studio) does first in `main`: when it was
/// started as the worker ([`WORKER_ARG`]), run the worker and give its exit code to return;
/// otherwise register itself as the worker for [`Isolation::Auto`] and return `None`.
pub fn host_worker() -> Option<ExitCode> {
    if std::env::args_os().nth(1).is_some_and(|arg| arg == WORKER_ARG) {
        return Some(worker_main());
    }
    if let Ok(worker) = WorkerCommand::current_exe([WORKER_ARG]) {
        use_worker_command(worker);
    }
    None
}

/// Registers the worker command for [`Isolation::Auto`], once, at the host's start. Returns
/// false when one was registered already (the first stays).
pub fn use_worker_command(command: WorkerCommand) -> bool {
    WORKER.set(command).is_ok()
}

/// Where a file is extracted.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Isolation {
    /// The registered worker command if there is one, else a thread.
    #[default]
    Auto,
    /// A detached thread, abandoned at the deadline (it cannot be stopped).
    Thread,
    /// A child process running this command, killed at the deadline.
    Worker(WorkerCommand),
}

/// The request a worker reads on its standard input.
#[derive(Serialize, Deserialize)]
struct Request {
    name: String,
    path: PathBuf,
    limits: Limits,
}

/// Extracts one file as `isolation` says, within `limits.deadline`.
pub(crate) fn run(
    name: &str,
    path: &Path,
    limits: &Limits,
    isolation: &Isolation,
    cancelled: &dyn Fn() -> bool,
) -> Result<Outcome, Cancelled> {
    let worker = match isolation {
        Isolation::Auto => WORKER.get(),
        Isolation::Thread => None,
        Isolation::Worker(command) => Some(command),
    };
    match worker {
        Some(command) => match in_worker(command, name, path, limits, cancelled) {
            Err(WorkerFailed::Spawn(e)) => {
                tracing::warn!(file = name, error = %e, "cannot start the extraction worker; reading in a thread");
                in_thread(name, path, limits, cancelled)
            }
            Err(WorkerFailed::Cancelled) => Err(Cancelled),
            Ok(outcome) => Ok(outcome),
        },
        None => in_thread(name, path, limits, cancelled),
    }
}

fn too_slow(name: &str, limits: &Limits, stopped: &str) -> Outcome {
    Outcome::Skipped(
        Unreadable::new(format!("took longer than {} s to read and was {stopped}", limits.deadline.as_secs_f64()))
            .hint("the file may be damaged or unusually complex; print it to PDF again or split it")
            .named(name),
    )
}

fn in_thread(name: &str, path: &Path, limits: &Limits, cancelled: &dyn Fn() -> bool) -> Result<Outcome, Cancelled> {
    let (tx, rx) = mpsc::channel();
    let (owned_name, owned_path, owned_limits) = (name.to_string(), path.to_path_buf(), limits.clone());
    let spawned =
        std::thread::Builder::new().name("planwright-extract".into()).stack_size(THREAD_STACK).spawn(move || {
            // The receiver is gone when the wait gave up; the result is dropped then.
            let _ = tx.send(extract_path(&owned_name, &owned_path, &owned_limits));
        });
    if let Err(e) = spawned {
        return Ok(Outcome::Skipped(
            Unreadable::new(format!("could not be read (no thread to read it: {e})")).named(name),
        ));
    }
    let deadline = Instant::now() + limits.deadline;
    loop {
        if cancelled() {
            return Err(Cancelled);
        }
        let now = Instant::now();
        if now >= deadline {
            tracing::warn!(file = name, "extraction passed its deadline; its thread is abandoned");
            return Ok(too_slow(name, limits, "abandoned"));
        }
        match rx.recv_timeout(WAIT_SLICE.min(deadline - now)) {
            Ok(outcome) => return Ok(outcome),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                return Ok(Outcome::Skipped(
                    Unreadable::new("could not be read (the reader failed)")
                        .hint("open it and save or print it to PDF again")
                        .named(name),
                ))
            }
        }
    }
}

enum WorkerFailed {
    Spawn(std::io::Error),
    Cancelled,
}

fn in_worker(
    command: &WorkerCommand,
    name: &str,
    path: &Path,
    limits: &Limits,
    cancelled: &dyn Fn() -> bool,
) -> Result<Outcome, WorkerFailed> {
    let request = Request { name: name.to_string(), path: path.to_path_buf(), limits: limits.clone() };
    let request = serde_json::to_vec(&request).map_err(|e| WorkerFailed::Spawn(e.into()))?;
    let mut child = Command::new(&command.program)
        .args(&command.args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(WorkerFailed::Spawn)?;
    let started = Instant::now();
    if let Some(mut stdin) = child.stdin.take() {
        // A worker that died at once closes the pipe; its exit status tells what happened.
        let _ = stdin.write_all(&request);
    }
    // Read the answer while waiting, so that a long one never blocks the worker on a full pipe.
    let Some(mut stdout) = child.stdout.take() else {
        let _ = child.kill();
        let _ = child.wait();
        return Err(WorkerFailed::Spawn(std::io::Error::other("the worker's output is not piped")));
    };
    let reader = std::thread::spawn(move || {
        let mut answer = Vec::new();
        let _ = stdout.read_to_end(&mut answer);
        answer
    });
    let status = loop {
        if cancelled() {
            let _ = child.kill();
            let _ = child.wait();
            return Err(WorkerFailed::Cancelled);
        }
        if started.elapsed() >= limits.deadline {
            let _ = child.kill();
            let _ = child.wait();
            tracing::warn!(file = name, "extraction worker passed its deadline and was killed");
            return Ok(too_slow(name, limits, "stopped"));
        }
        match child.try_wait() {
            Ok(Some(status)) => break status,
            Ok(None) => std::thread::sleep(POLL),
            Err(e) => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(WorkerFailed::Spawn(e));
            }
        }
    };
    let answer = reader.join().unwrap_or_default();
    let parsed = answer
        .split(|&b| b == b'\n')
        .rev()
        .find(|line| !line.iter().all(u8::is_ascii_whitespace))
        .and_then(|line| serde_json::from_slice::<Outcome>(line).ok());
    Ok(parsed.unwrap_or_else(|| crashed(name, status)))
}

fn crashed(name: &str, status: ExitStatus) -> Outcome {
    let how = match status.code() {
        Some(code) => format!("exit code {code}"),
        None => signal(status),
    };
    Outcome::Skipped(
        Unreadable::new(format!("could not be read (the reader ran out of memory or crashed: {how})"))
            .hint("open it and save or print it to PDF again, or split it")
            .named(name),
    )
}

#[cfg(unix)]
fn signal(status: ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    status.signal().map_or_else(|| "killed".into(), |s| format!("signal {s}"))
}

#[cfg(not(unix))]
fn signal(_status: ExitStatus) -> String {
    "killed".into()
}

/// The worker: reads a request (JSON: name, path, limits) on standard input, extracts the file,
/// and writes the outcome as one line of JSON on standard output. The host calls this when it
/// is run with its hidden worker subcommand.
pub fn worker_main() -> ExitCode {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().read_to_end(&mut input) {
        eprintln!("planwright extract worker: cannot read the request: {e}");
        return ExitCode::from(2);
    }
    let request: Request = match serde_json::from_slice(&input) {
        Ok(request) => request,
        Err(e) => {
            eprintln!("planwright extract worker: the request is not valid: {e}");
            return ExitCode::from(2);
        }
    };
    limit_memory(request.limits.worker_memory_bytes);
    let outcome = extract_path(&request.name, &request.path, &request.limits);
    let Ok(line) = serde_json::to_string(&outcome) else { return ExitCode::from(3) };
    let mut stdout = std::io::stdout().lock();
    if writeln!(stdout, "{line}").and_then(|()| stdout.flush()).is_err() {
        return ExitCode::from(3);
    }
    ExitCode::SUCCESS
}

/// Caps the worker's address space, so that a decompression bomb the zip check cannot see
/// (a PDF stream) ends this process with an allocation failure instead of the machine
/// swapping.
#[cfg(unix)]
fn limit_memory(bytes: u64) {
    let limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
    // SAFETY: setrlimit reads a fully initialised struct and changes only this process.
    let _ = unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) };
}

#[cfg(not(unix))]
fn limit_memory(_bytes: u64) {}
