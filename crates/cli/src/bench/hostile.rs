//! `planwright bench hostile`: hostile plan files, each checked by a fresh `planwright validate`
//! process, with its exit code, wall time and peak memory.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde::Serialize;

use super::child_usage::wait_with_usage;

/// One hostile file and how `planwright validate` fared on it.
#[derive(Debug, Serialize)]
pub struct HostileRow {
    pub name: &'static str,
    pub bytes: usize,
    pub exit_code: i32,
    pub millis: f64,
    pub max_rss_kib: i64,
    /// The first line `validate` printed on stderr.
    pub message: String,
}

/// The hostile files: (name, content).
pub fn hostile_files() -> Vec<(&'static str, Vec<u8>)> {
    let mut alias_bomb = String::from("apiVersion: planwright/v1\nid: bomb\nversion: 1.0.0\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        alias_bomb.push_str(&format!("a{i}: &a{i} [{}]\n", vec![format!("*a{}", i - 1); 10].join(", ")));
    }
    alias_bomb.push_str("graph: *a9\n");
    let deep_flow = format!("apiVersion: planwright/v1\ngraph: {}{}\n", "[".repeat(20_000), "]".repeat(20_000));
    // Compact nested sequences: `- - - x` nests on one line.
    let deep_block = format!("apiVersion: planwright/v1\ngraph:\n  {}x\n", "- ".repeat(20_000));
    let huge_string = format!(
        "apiVersion: planwright/v1\nid: big\nversion: 1.0.0\ndescription: \"{}\"\ngraph: []\n",
        "x".repeat(30 << 20)
    );
    let long_string = format!(
        "apiVersion: planwright/v1\nid: long\nversion: 1.0.0\ngraph:\n  - id: a\n    block: transforms.pick\n    in:\n      source: \"{}\"\n      path: x\n",
        "y".repeat(12 << 20)
    );
    // xorshift: the same garbage on every run.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let garbage: Vec<u8> = (0..1 << 20)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    let mut wide = String::from("apiVersion: planwright/v1\nid: wide\nversion: 1.0.0\nvars:\n");
    for i in 0..200_000 {
        wide.push_str(&format!("  v{i}: {i}\n"));
    }
    wide.push_str("graph:\n  - id: first\n    block: transforms.pick\n    in: {source: {total: 1}, path: total}\n");
    let contents = vec![
        alias_bomb.into_bytes(),
        deep_flow.into_bytes(),
        deep_block.into_bytes(),
        huge_string.into_bytes(),
        long_string.into_bytes(),
        garbage,
        wide.into_bytes(),
    ];
    HOSTILE_NAMES.into_iter().zip(contents).collect()
}

const HOSTILE_NAMES: [&str; 7] = [
    "alias bomb (10^9 expansions)",
    "20,000 levels of flow nesting",
    "20,000 levels of block nesting",
    "30 MB string",
    "12 MB string in an input",
    "1 MB of binary garbage",
    "200,000 vars",
];

/// Writes the hostile files to `dir`, returning (name, size, path) of each.
pub fn write_hostile(dir: &Path) -> Result<Vec<(&'static str, usize, PathBuf)>> {
    std::fs::create_dir_all(dir)?;
    let mut files = Vec::new();
    for (i, (name, content)) in hostile_files().into_iter().enumerate() {
        let file = dir.join(format!("hostile_{i}.yaml"));
        std::fs::write(&file, &content).with_context(|| format!("writing {}", file.display()))?;
        files.push((name, content.len(), file));
    }
    Ok(files)
}

/// Runs `exe validate` on each hostile file in `dir`.
///
/// The files are written by a separate `exe bench hostile --write-only` process: Linux carries
/// a parent's peak memory into the peak its children report (through vfork and exec), so this
/// process must never hold the large files itself.
pub fn run_hostile(exe: &Path, dir: &Path) -> Result<Vec<HostileRow>> {
    let status = Command::new(exe).args(["bench", "hostile", "--write-only", "--dir"]).arg(dir).status()?;
    anyhow::ensure!(status.success(), "writing the hostile files failed");
    let sizes: Vec<(&'static str, usize)> = hostile_names_and_sizes(dir)?;
    let mut rows = Vec::new();
    for (i, (name, bytes)) in sizes.into_iter().enumerate() {
        let file = dir.join(format!("hostile_{i}.yaml"));
        let start = Instant::now();
        let mut child = Command::new(exe)
            .arg("validate")
            .arg(&file)
            .arg("--format")
            .arg("json")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("starting {}", exe.display()))?;
        let (exit_code, max_rss_kib) = wait_with_usage(&mut child)?;
        let millis = start.elapsed().as_secs_f64() * 1e3;
        let mut stderr = String::new();
        if let Some(mut pipe) = child.stderr {
            use std::io::Read;
            let _ = pipe.read_to_string(&mut stderr);
        }
        let message = stderr.lines().next().unwrap_or_default().chars().take(160).collect();
        rows.push(HostileRow { name, bytes, exit_code, millis, max_rss_kib, message });
        let _ = std::fs::remove_file(&file);
    }
    Ok(rows)
}

fn hostile_names_and_sizes(dir: &Path) -> Result<Vec<(&'static str, usize)>> {
    HOSTILE_NAMES
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let file = dir.join(format!("hostile_{i}.yaml"));
            let bytes = std::fs::metadata(&file).with_context(|| format!("{} was not written", file.display()))?.len();
            Ok((*name, bytes as usize))
        })
        .collect()
}

/// How long the slowest hostile file took.
pub fn slowest(rows: &[HostileRow]) -> Duration {
    Duration::from_secs_f64(rows.iter().map(|r| r.millis).fold(0.0, f64::max) / 1e3)
}
