//! `planwright bench tables`: the ledger plan (read a CSV, keep approved amounts of at least 100,
//! total them per department, write a CSV) run by `planwright run` on generated vendor ledgers,
//! beside the same query in DuckDB (its Python package, installed from PyPI into a private
//! environment by this benchmark): wall time, peak memory, what the run added to the data home,
//! and whether the two sets of totals agree to the cent.

use std::collections::BTreeMap;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use serde::Serialize;

use super::child_usage::wait_with_usage;

/// One side's measurement of one ledger size.
#[derive(Serialize)]
pub struct Measured {
    /// Wall time from start to exit, in seconds.
    pub seconds: f64,
    /// Peak resident memory, in MiB.
    pub peak_mib: f64,
    /// How the process ended: `ok`, `exit N`, or `stopped at the memory limit`.
    pub ended: String,
    /// The line of its error output that says why, when the process did not end well (the first
    /// that starts `failed` or `error`, else the last).
    pub error: Option<String>,
}

/// Both sides on one ledger size.
#[derive(Serialize)]
pub struct TablesRow {
    pub rows: usize,
    pub csv_mib: f64,
    pub planwright: Measured,
    /// What the run added to its (fresh) data home, in MiB.
    pub data_home_mib: f64,
    /// Of the run's time as its record gives it: the blocks' own (the nodes' elapsed times) and
    /// the rest (recording, resolving inputs, scheduling), in seconds.
    pub blocks_seconds: Option<f64>,
    pub engine_seconds: Option<f64>,
    /// DuckDB's side, when DuckDB could be set up.
    pub duckdb: Option<Measured>,
    /// planwright's time over DuckDB's, when both finished.
    pub time_ratio: Option<f64>,
    /// Whether the department totals agree to the cent, and the departments that do not.
    pub totals_agree: Option<bool>,
    pub totals_differ: Vec<String>,
}

#[derive(Serialize)]
pub struct TablesBench {
    pub release_build: bool,
    pub memory_limit_mib: u64,
    pub duckdb_version: Option<String>,
    /// Why DuckDB could not be set up, when it could not.
    pub duckdb_unavailable: Option<String>,
    pub rows: Vec<TablesRow>,
}

/// The plan measured: four nodes, as an accountant's ledger job would be designed.
const PLAN: &str = "apiVersion: planwright/v1
id: ledger-bench
version: 1.0.0
description: Approved amounts of at least 100, totalled per department
graph:
  - id: read
    block: file.read_csv
    in: {path: ledger.csv}
    out: {rows: ledger}
  - id: approved
    block: transforms.filter
    in:
      items: ${read.ledger}
      conditions:
        - {field: status, operator: eq, value: approved}
        - {field: amount, operator: gte, value: 100}
    out: {filtered: approved}
  - id: totals
    block: transforms.group_by_agg
    in:
      items: ${approved.approved}
      by: [department]
      aggregations:
        - {field: amount, op: sum, as: amount}
    out: {rows: totals}
  - id: write
    block: report.write
    in: {data: '${totals.totals}', format: csv, path: totals_planwright.csv}
";

/// The same query for DuckDB, its columns typed as a careful analyst would (amounts DECIMAL).
const DUCKDB_QUERY: &str = "
import sys, duckdb
src, out = sys.argv[1], sys.argv[2]
duckdb.sql(f\"\"\"COPY (SELECT department, sum(amount) AS amount
  FROM read_csv('{src}', header=true, columns={{'date':'DATE','vendor':'VARCHAR','department':'VARCHAR',
    'status':'VARCHAR','amount':'DECIMAL(18,2)','reference':'VARCHAR'}})
  WHERE status = 'approved' AND amount >= 100 GROUP BY department) TO '{out}' (HEADER)\"\"\")
";

pub fn run(sizes: &[usize], dir: &Path, memory_limit_mib: u64) -> Result<TablesBench> {
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let dir = dir.canonicalize()?;
    let exe = std::env::current_exe().context("finding the planwright executable")?;
    let duckdb = duckdb_python(&dir);
    let duckdb_version = duckdb.as_ref().ok().and_then(|python| {
        let out = Command::new(python).args(["-c", "import duckdb; print(duckdb.__version__)"]).output().ok()?;
        Some(String::from_utf8_lossy(&out.stdout).trim().to_owned())
    });
    std::fs::write(dir.join("ledger_plan.yaml"), PLAN)?;
    let mut rows = Vec::new();
    for &size in sizes {
        let work = dir.join(format!("rows_{size}"));
        let _ = std::fs::remove_dir_all(&work);
        std::fs::create_dir_all(&work)?;
        let csv = work.join("ledger.csv");
        write_ledger(&csv, size)?;
        let csv_mib = mib(std::fs::metadata(&csv)?.len());

        let home = work.join("home");
        let mut ours = Command::new(&exe);
        ours.arg("run")
            .arg(dir.join("ledger_plan.yaml"))
            .arg("--workdir")
            .arg(&work)
            .env("PLANWRIGHT_HOME", &home)
            .stdout(Stdio::null());
        let planwright = measure(ours, memory_limit_mib, &work.join("planwright.err"))?;
        let data_home_mib = mib(folder_size(&home));
        let (blocks_seconds, engine_seconds) = match time_in_blocks(&home) {
            Some((blocks, run)) => (Some(blocks), Some(run - blocks)),
            None => (None, None),
        };

        let duckdb = match &duckdb {
            Ok(python) => {
                let mut theirs = Command::new(python);
                theirs.args(["-c", DUCKDB_QUERY]).arg(&csv).arg(work.join("totals_duckdb.csv")).stdout(Stdio::null());
                Some(measure(theirs, memory_limit_mib, &work.join("duckdb.err"))?)
            }
            Err(_) => None,
        };
        let reference = duckdb.as_ref().filter(|d| d.ended == "ok" && planwright.ended == "ok");
        let both_ok = reference.is_some();
        let time_ratio = reference.map(|d| planwright.seconds / d.seconds);
        let (totals_agree, totals_differ) = if both_ok {
            let differ = differing_totals(&work.join("totals_planwright.csv"), &work.join("totals_duckdb.csv"))?;
            (Some(differ.is_empty()), differ)
        } else {
            (None, Vec::new())
        };
        let _ = std::fs::remove_file(&csv);
        let _ = std::fs::remove_dir_all(&home);
        rows.push(TablesRow {
            rows: size,
            csv_mib,
            planwright,
            data_home_mib,
            blocks_seconds,
            engine_seconds,
            duckdb,
            time_ratio,
            totals_agree,
            totals_differ,
        });
    }
    Ok(TablesBench {
        release_build: !cfg!(debug_assertions),
        memory_limit_mib,
        duckdb_version,
        duckdb_unavailable: duckdb.err(),
        rows,
    })
}

/// A ledger of `rows` rows, the same for the same size: dates over a year, two thousand vendors
/// (a few with Japanese names), eight departments, three statuses, amounts in cents up to 50,000.
fn write_ledger(path: &Path, rows: usize) -> Result<()> {
    const DEPARTMENTS: [&str; 8] = ["Sales", "Finance", "IT", "HR", "Operations", "Legal", "経理部", "営業部"];
    const STATUSES: [&str; 5] = ["approved", "pending", "rejected", "approved", "approved"];
    let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(path)?);
    writeln!(out, "date,vendor,department,status,amount,reference")?;
    let mut seed: u64 = 0x5eed_1ed6e7;
    let mut next = move || {
        // xorshift64*: deterministic and fast; the figures need the same ledger every time.
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        seed.wrapping_mul(0x2545_f491_4f6c_dd1d)
    };
    for i in 0..rows {
        let day = (next() % 365) as i64;
        let date = time::Date::from_calendar_date(2025, time::Month::January, 1)? + time::Duration::days(day);
        let vendor = next() % 2000;
        let vendor = match vendor {
            0 => "株式会社サンプル商事".to_owned(),
            1 => "山田工業株式会社".to_owned(),
            n => format!("Vendor {n:04}"),
        };
        let department = DEPARTMENTS[(next() % 8) as usize];
        let status = STATUSES[(next() % 5) as usize];
        let cents = next() % 5_000_000 + 1;
        writeln!(out, "{date},{vendor},{department},{status},{}.{:02},REF-{i:08}", cents / 100, cents % 100)?;
    }
    out.flush()?;
    Ok(())
}

/// Runs a process to its end, stopping it if its resident memory passes the limit (the machine
/// must survive the measurement): wall time, peak memory and how it ended. Its error output goes
/// to `errors` (a file: a pipe nobody reads could stop it).
fn measure(mut command: Command, memory_limit_mib: u64, errors: &Path) -> Result<Measured> {
    command.stderr(Stdio::from(std::fs::File::create(errors)?));
    let start = Instant::now();
    let child = command.spawn().context("starting a measured process")?;
    let over_limit = Arc::new(AtomicBool::new(false));
    let watcher = watch_memory(&child, memory_limit_mib, over_limit.clone());
    let mut child = child;
    let (code, max_rss_kib) = wait_with_usage(&mut child)?;
    let seconds = start.elapsed().as_secs_f64();
    watcher.stop();
    let ended = if over_limit.load(Ordering::SeqCst) {
        format!("stopped at the {memory_limit_mib} MiB limit")
    } else if code == 0 {
        "ok".to_owned()
    } else {
        format!("exit {code}")
    };
    let error = (ended != "ok").then(|| std::fs::read_to_string(errors).ok()).flatten().and_then(|text| {
        let mut lines = text.lines().filter(|l| !l.trim().is_empty());
        let failure = lines.clone().find(|l| l.starts_with("failed") || l.starts_with("error"));
        failure.or_else(|| lines.next_back()).map(|l| l.chars().take(200).collect())
    });
    Ok(Measured { seconds, peak_mib: max_rss_kib as f64 / 1024.0, ended, error })
}

/// A thread that reads the child's resident memory ten times a second and kills it past the limit.
struct MemoryWatcher {
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl MemoryWatcher {
    fn stop(mut self) {
        self.done.store(true, Ordering::SeqCst);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn watch_memory(child: &Child, limit_mib: u64, over_limit: Arc<AtomicBool>) -> MemoryWatcher {
    let pid = child.id();
    let done = Arc::new(AtomicBool::new(false));
    let stop = done.clone();
    let thread = std::thread::spawn(move || {
        let status = PathBuf::from(format!("/proc/{pid}/status"));
        while !stop.load(Ordering::SeqCst) {
            let rss_kib = std::fs::read_to_string(&status).ok().and_then(|s| {
                let line = s.lines().find(|l| l.starts_with("VmRSS:"))?.to_owned();
                line.split_whitespace().nth(1)?.parse::<u64>().ok()
            });
            if rss_kib.is_some_and(|kib| kib / 1024 > limit_mib) {
                over_limit.store(true, Ordering::SeqCst);
                kill(pid);
                return;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    });
    MemoryWatcher { done, thread: Some(thread) }
}

#[cfg(unix)]
fn kill(pid: u32) {
    // SAFETY: kill only sends a signal; the pid is our child's, not yet waited for.
    unsafe { libc::kill(pid as libc::pid_t, libc::SIGKILL) };
}

/// Elsewhere there is no /proc to read, so the limit is never reached.
#[cfg(not(unix))]
fn kill(_pid: u32) {}

/// The Python that has DuckDB: a private environment under the benchmark's folder, made and
/// filled from PyPI the first time.
fn duckdb_python(dir: &Path) -> Result<PathBuf, String> {
    let venv = dir.join("duckdb-venv");
    let python = venv.join("bin").join("python");
    let has_duckdb =
        |p: &Path| Command::new(p).args(["-c", "import duckdb"]).output().is_ok_and(|o| o.status.success());
    if has_duckdb(&python) {
        return Ok(python);
    }
    let made = Command::new("python3").args(["-m", "venv"]).arg(&venv).output();
    if !made.as_ref().is_ok_and(|o| o.status.success()) {
        return Err("python3 -m venv failed (install python3-venv)".to_owned());
    }
    let installed = Command::new(venv.join("bin").join("pip")).args(["install", "--quiet", "duckdb"]).output();
    match installed {
        Ok(o) if o.status.success() && has_duckdb(&python) => Ok(python),
        Ok(o) => Err(format!("pip install duckdb failed: {}", String::from_utf8_lossy(&o.stderr).trim())),
        Err(e) => Err(format!("pip install duckdb failed: {e}")),
    }
}

/// The departments whose totals differ between the two CSV files (a BOM and the number's form
/// aside: 1200.50 and 1200.5 are the same amount).
fn differing_totals(ours: &Path, theirs: &Path) -> Result<Vec<String>> {
    let (ours, theirs) = (totals(ours)?, totals(theirs)?);
    let departments: std::collections::BTreeSet<&String> = ours.keys().chain(theirs.keys()).collect();
    Ok(departments
        .into_iter()
        .filter(|d| ours.get(*d) != theirs.get(*d))
        .map(|d| {
            let shown = |t: &BTreeMap<String, String>| t.get(d).cloned().unwrap_or_else(|| "missing".to_owned());
            format!("{d}: {} against {}", shown(&ours), shown(&theirs))
        })
        .collect())
}

/// Department → total in cents as written, from a two-column CSV (department, amount).
fn totals(path: &Path) -> Result<BTreeMap<String, String>> {
    let text = std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let text = text.trim_start_matches('\u{feff}');
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let mut totals = BTreeMap::new();
    for record in reader.records() {
        let record = record?;
        let (Some(department), Some(amount)) = (record.get(0), record.get(1)) else { continue };
        totals.insert(department.to_owned(), in_cents(amount));
    }
    Ok(totals)
}

/// An amount written as digits with an optional fraction, as whole cents ("1200.5" → "120050");
/// anything else as written (a float's rounding shows as a difference).
fn in_cents(amount: &str) -> String {
    let amount = amount.trim();
    let (whole, fraction) = amount.split_once('.').unwrap_or((amount, ""));
    if whole.is_empty()
        || fraction.len() > 2
        || !(whole.bytes().all(|b| b.is_ascii_digit()) && fraction.bytes().all(|b| b.is_ascii_digit()))
    {
        return amount.to_owned();
    }
    format!("{}{fraction:0<2}", whole.trim_start_matches('0'))
}

/// The seconds the run's nodes took and the seconds the whole run took, from the run's log
/// (`runs/<plan>/<run>.jsonl` in the data home): `node_finished` and `run_finished` events.
fn time_in_blocks(home: &Path) -> Option<(f64, f64)> {
    let plans = std::fs::read_dir(home.join("runs")).ok()?;
    // The run's log, not the folder of its nodes' records beside it.
    let log = plans
        .flatten()
        .filter_map(|plan| std::fs::read_dir(plan.path()).ok())
        .flatten()
        .flatten()
        .find(|entry| entry.path().extension().is_some_and(|ext| ext == "jsonl"))?;
    let text = std::fs::read_to_string(log.path()).ok()?;
    let (mut nodes_ms, mut run_ms) = (0u64, None);
    for event in text.lines().filter_map(|line| serde_json::from_str::<serde_json::Value>(line).ok()) {
        let elapsed = event["elapsed_ms"].as_u64();
        match event["type"].as_str() {
            Some("node_finished") => nodes_ms += elapsed.unwrap_or(0),
            Some("run_finished") => run_ms = elapsed,
            _ => {}
        }
    }
    Some((nodes_ms as f64 / 1e3, run_ms? as f64 / 1e3))
}

fn folder_size(dir: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    entries
        .flatten()
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => folder_size(&e.path()),
            Ok(_) => e.metadata().map_or(0, |m| m.len()),
            Err(_) => 0,
        })
        .sum()
}

fn mib(bytes: u64) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

pub fn render(bench: &TablesBench) -> String {
    let mut out = format!(
        "release build: {}; memory limit {} MiB; DuckDB {}\n",
        if bench.release_build { "yes" } else { "NO (debug build: the figures mean nothing)" },
        bench.memory_limit_mib,
        bench.duckdb_version.as_deref().unwrap_or("not available")
    );
    out.push_str(
        "      rows  csv MiB | planwright s  (blocks + engine)  peak MiB  home MiB  ended | DuckDB s  peak MiB | time ratio  totals\n",
    );
    for r in &bench.rows {
        let (duck_s, duck_peak) = match &r.duckdb {
            Some(d) if d.ended == "ok" => (format!("{:.2}", d.seconds), format!("{:.0}", d.peak_mib)),
            Some(d) => (d.ended.clone(), String::new()),
            None => ("—".to_owned(), String::new()),
        };
        let split = match (r.blocks_seconds, r.engine_seconds) {
            (Some(blocks), Some(engine)) => format!("({blocks:.2} + {engine:.2})"),
            _ => String::new(),
        };
        out.push_str(&format!(
            "{:>10} {:>8.1} | {:>12.2} {:>17} {:>9.0} {:>9.1}  {} | {:>8} {:>9} | {:>10} {}\n",
            r.rows,
            r.csv_mib,
            r.planwright.seconds,
            split,
            r.planwright.peak_mib,
            r.data_home_mib,
            r.planwright.ended,
            duck_s,
            duck_peak,
            r.time_ratio.map_or("—".to_owned(), |t| format!("{t:.1}×")),
            match r.totals_agree {
                Some(true) => "agree to the cent".to_owned(),
                Some(false) => format!("DIFFER: {}", r.totals_differ.join("; ")),
                None => "—".to_owned(),
            }
        ));
    }
    for r in &bench.rows {
        let sides = [("planwright", Some(&r.planwright)), ("DuckDB", r.duckdb.as_ref())];
        for (side, measured) in sides {
            if let Some(error) = measured.and_then(|m| m.error.as_deref()) {
                out.push_str(&format!("{} rows, {side}: {error}\n", r.rows));
            }
        }
    }
    if let Some(why) = &bench.duckdb_unavailable {
        out.push_str(&format!("DuckDB not measured: {why}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{differing_totals, in_cents, time_in_blocks};

    #[test]
    fn amounts_compare_in_cents_whatever_their_form() {
        assert_eq!(in_cents("1200.5"), "120050");
        assert_eq!(in_cents("1200.50"), "120050");
        assert_eq!(in_cents("1200"), "120000");
        assert_eq!(in_cents("1200.499999"), "1200.499999");
    }

    #[test]
    fn totals_differ_only_where_the_amounts_do() {
        let dir = tempfile::tempdir().unwrap();
        let (ours, theirs) = (dir.path().join("ours.csv"), dir.path().join("theirs.csv"));
        std::fs::write(&ours, "\u{feff}department,amount\nSales,1200.5\n経理部,10.01\nIT,5\n").unwrap();
        std::fs::write(&theirs, "department,amount\nSales,1200.50\n経理部,10.02\nHR,5.00\n").unwrap();
        assert_eq!(
            differing_totals(&ours, &theirs).unwrap(),
            ["HR: missing against 500", "IT: 500 against missing", "経理部: 1001 against 1002"]
        );
    }

    #[test]
    fn the_blocks_time_is_the_nodes_elapsed_times_from_the_runs_log() {
        let home = tempfile::tempdir().unwrap();
        let plan = home.path().join("runs").join("ledger-bench");
        std::fs::create_dir_all(&plan).unwrap();
        let log = [
            r#"{"type":"node_finished","node":"read","elapsed_ms":1400}"#,
            r#"{"type":"node_started","node":"approved","attempt":1}"#,
            r#"{"type":"node_finished","node":"approved","elapsed_ms":600}"#,
            r#"{"type":"run_finished","status":"succeeded","elapsed_ms":5000}"#,
        ];
        std::fs::write(plan.join("run.jsonl"), log.join("\n")).unwrap();
        std::fs::create_dir_all(plan.join("run").join("read")).unwrap();
        assert_eq!(time_in_blocks(home.path()), Some((2.0, 5.0)));
        assert_eq!(time_in_blocks(&home.path().join("nothing")), None);
    }
}
