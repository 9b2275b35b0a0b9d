//! A run's Chromium lives no longer than the run's process: `planwright run` killed with SIGKILL
//! while its browser is up takes the whole browser (main process, zygotes, renderers) with it,
//! and the next run removes the profile folder the killed one could not.

use crate::support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use planwright_sites::FixtureSites;
use support::assert_exit;

/// A process as /proc shows it.
struct Process {
    pid: u32,
    parent: u32,
    command_line: String,
}

fn processes() -> Vec<Process> {
    let Ok(entries) = std::fs::read_dir("/proc") else { return Vec::new() };
    entries
        .filter_map(|entry| entry.ok()?.file_name().to_str()?.parse::<u32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // `pid (name) state ppid …`: the name may hold spaces and parentheses.
            let mut after_name = stat.get(stat.rfind(')')? + 2..)?.split(' ');
            let state = after_name.next()?;
            let parent = after_name.next()?.parse().ok()?;
            let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            // A zombie has ended; only its exit status is left for its parent to collect.
            (state != "Z").then(|| Process {
                pid,
                parent,
                command_line: String::from_utf8_lossy(&raw).replace('\0', " "),
            })
        })
        .collect()
}

/// The Chromium `run` started (its direct child holding a profile), with its profile folder
/// and every process under it, once its page has a renderer.
fn browser_tree(run: u32) -> Option<(PathBuf, Vec<u32>)> {
    let all = processes();
    let browser = all.iter().find(|p| p.parent == run && p.command_line.contains("--user-data-dir="))?;
    let profile = browser.command_line.split(' ').find_map(|arg| arg.strip_prefix("--user-data-dir="))?;
    let mut tree = vec![browser.pid];
    let mut i = 0;
    while i < tree.len() {
        let parent = tree[i];
        tree.extend(all.iter().filter(|p| p.parent == parent).map(|p| p.pid));
        i += 1;
    }
    let has_renderer = all.iter().any(|p| tree.contains(&p.pid) && p.command_line.contains("--type=renderer"));
    has_renderer.then(|| (PathBuf::from(profile), tree))
}

/// Of `pids`, those still running Chromium on `profile` (a reused pid runs something else).
fn still_running(pids: &[u32], profile: &Path) -> Vec<u32> {
    let profile = profile.to_string_lossy();
    processes()
        .into_iter()
        .filter(|p| pids.contains(&p.pid) && p.command_line.contains(profile.as_ref()))
        .map(|p| p.pid)
        .collect()
}

fn planwright_run(home: &Path, temp: &Path, plan: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_planwright"));
    command
        .arg("run")
        .arg(plan)
        .current_dir(home)
        .env("PLANWRIGHT_HOME", home)
        // The profile folders are made here, away from other runs on this machine.
        .env("TMPDIR", temp)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

fn profiles_in(temp: &Path) -> Vec<PathBuf> {
    std::fs::read_dir(temp)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("planwright-chromium-"))
        .collect()
}

fn kill(mut run: Child) {
    run.kill().unwrap();
    run.wait().unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_killed_with_sigkill_takes_its_chromium_along_and_the_next_run_removes_its_profile() {
    let sites = FixtureSites::start().await.unwrap();
    let (home, temp) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let page = sites.url("login.html");
    // The click waits for an element the page never shows, again and again: the browser is up
    // for minutes unless the run ends.
    let lingering = home.path().join("lingering.yaml");
    std::fs::write(
        &lingering,
        format!(
            "apiVersion: planwright/v1\nid: lingering\nversion: 1.0.0\ngraph:\n  - id: open\n    block: \
             browser.navigate\n    in: {{url: \"{page}\"}}\n  - id: wait\n    block: browser.click\n    after: [open]\n    \
             in:\n      locator: {{test_id: never-on-this-page}}\n    policy: {{on_error: retry, retries: 9, \
             retry_backoff_ms: 10000}}\n"
        ),
    )
    .unwrap();

    let run = planwright_run(home.path(), temp.path(), &lingering).spawn().unwrap();
    let pid = run.id();
    let started = Instant::now();
    let (profile, tree) = loop {
        if let Some(found) = browser_tree(pid) {
            break found;
        }
        if started.elapsed() > Duration::from_secs(120) {
            kill(run);
            panic!("the run's Chromium did not come up within 120 s");
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    kill(run);

    let killed = Instant::now();
    let mut left = still_running(&tree, &profile);
    while !left.is_empty() && killed.elapsed() < Duration::from_secs(10) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        left = still_running(&tree, &profile);
    }
    for &orphan in &left {
        // The test's own leftovers only: processes of the browser this test's run started.
        let _ = Command::new("kill").args(["-9", &orphan.to_string()]).status();
    }
    assert!(left.is_empty(), "Chromium processes {left:?} outlived the killed run by 10 s");
    assert_eq!(profiles_in(temp.path()), vec![profile.clone()], "the killed run could not remove its profile");

    let quick = home.path().join("quick.yaml");
    std::fs::write(
        &quick,
        format!(
            "apiVersion: planwright/v1\nid: quick\nversion: 1.0.0\ngraph:\n  - id: open\n    block: browser.navigate\n    \
             in: {{url: \"{page}\"}}\n"
        ),
    )
    .unwrap();
    let mut next = planwright_run(home.path(), temp.path(), &quick);
    next.stderr(Stdio::piped());
    // Off the async runtime: the sites serve from it meanwhile.
    let next = tokio::task::spawn_blocking(move || next.output().unwrap()).await.unwrap();
    assert_exit(&next, 0);
    assert!(!profile.exists(), "the next run left the killed run's profile {}", profile.display());
    assert!(profiles_in(temp.path()).is_empty(), "{:?}", profiles_in(temp.path()));
}
