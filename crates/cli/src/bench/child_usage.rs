//! A measured child process's end: its exit code and peak resident memory.

#[cfg(not(unix))]
use anyhow::Context;
use anyhow::Result;

/// Waits for a child and returns its exit code and peak resident memory, which only `wait4`
/// reports per child.
#[cfg(unix)]
pub fn wait_with_usage(child: &mut std::process::Child) -> Result<(i32, i64)> {
    let mut status = 0;
    // SAFETY: rusage is plain data that wait4 fills in; the pid is our own child's.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    if waited < 0 {
        anyhow::bail!("waiting for a measured process: {}", std::io::Error::last_os_error());
    }
    let code = if libc::WIFEXITED(status) { libc::WEXITSTATUS(status) } else { -libc::WTERMSIG(status) };
    Ok((code, usage.ru_maxrss))
}

/// Elsewhere a child's peak memory is not measured (0): the benchmark's figures come from Linux.
#[cfg(not(unix))]
pub fn wait_with_usage(child: &mut std::process::Child) -> Result<(i32, i64)> {
    let status = child.wait().context("waiting for a measured process")?;
    Ok((status.code().unwrap_or(-1), 0))
}
