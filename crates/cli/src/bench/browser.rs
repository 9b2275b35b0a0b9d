//! `planwright bench browser`: our driver against playwright-core in the same Chromium, on the
//! same fixture pages, in one run — snapshot time and size, click and fill, cold launch.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

use anyhow::{bail, Context, Result};
use planwright_browser::{
    interactive_in_text, ActOptions, BrowserSession, LaunchOptions, Locator, SnapshotMode, SnapshotOptions,
};
use planwright_sites::FixtureSites;
use serde::{Deserialize, Serialize};

/// What `tools/playwright/bench.mjs` prints.
#[derive(Deserialize)]
struct PlaywrightTimes {
    launch_to_first_snapshot_ms: f64,
    snapshot_ms: HashMap<String, Vec<f64>>,
    snapshot_text: HashMap<String, String>,
    click_ms: Vec<f64>,
    fill_ms: Vec<f64>,
}

/// One measure, ours beside Playwright's.
#[derive(Debug, Serialize)]
pub struct Pair {
    pub ours: f64,
    pub playwright: f64,
    /// ours / playwright.
    pub ratio: f64,
}

impl Pair {
    pub(super) fn new(ours: f64, playwright: f64) -> Pair {
        Pair { ours, playwright, ratio: if playwright > 0.0 { ours / playwright } else { f64::NAN } }
    }
}

#[derive(Debug, Serialize)]
pub struct PageRow {
    pub page: String,
    /// Medians, milliseconds.
    pub ours_full_ms: f64,
    pub ours_interactive_ms: f64,
    pub playwright_ms: f64,
    /// o200k_base tokens: ours in interactive mode, Playwright's full aria snapshot.
    pub ours_tokens: usize,
    pub playwright_tokens: usize,
}

#[derive(Debug, Serialize)]
pub struct ActionRow {
    /// Finding the element, actionability checks and the input events (what Playwright's
    /// `locator.click` / `fill` do), p50 ms.
    pub ours_ms: f64,
    /// Plus letting the page settle and reporting what changed, p50 ms.
    pub ours_with_settle_ms: f64,
    pub playwright_ms: f64,
    /// ours_ms / playwright_ms.
    pub ratio: f64,
}

#[derive(Debug, Serialize)]
pub struct BrowserBench {
    pub chromium: String,
    /// Timed repetitions per measure in each round.
    pub repeat: usize,
    /// Rounds, alternating Playwright and ours; samples are pooled.
    pub rounds: usize,
    pub pages: Vec<PageRow>,
    /// Sums over the pages of the median snapshot times.
    pub snapshot_full_ms: Pair,
    pub snapshot_interactive_ms: Pair,
    /// Ours interactive against Playwright's full snapshot, o200k_base tokens summed over pages.
    pub snapshot_tokens: Pair,
    /// Our estimate (`estimate_tokens`) of our interactive snapshots, summed.
    pub ours_estimated_tokens: usize,
    /// Playwright's interactive elements missing from our interactive snapshots (should be none).
    pub missing_interactive: Vec<String>,
    pub click: ActionRow,
    pub fill: ActionRow,
    pub launch_to_first_snapshot_ms: Pair,
}

pub(super) fn median(values: &[f64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    if sorted.is_empty() {
        return f64::NAN;
    }
    let mid = sorted.len() / 2;
    if sorted.len() % 2 == 1 {
        sorted[mid]
    } else {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    }
}

fn ms_since(start: Instant) -> f64 {
    start.elapsed().as_secs_f64() * 1000.0
}

fn instant(page: &str) -> String {
    format!("{page}?instant=1")
}

pub fn run(repeat: usize, rounds: usize, tools: &Path) -> Result<BrowserBench> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(measure(repeat, rounds, tools))
}

/// Our timings, pooled over rounds.
#[derive(Default)]
struct OurTimes {
    launch_ms: Vec<f64>,
    full_ms: HashMap<String, Vec<f64>>,
    interactive_ms: HashMap<String, Vec<f64>>,
    /// The last interactive snapshot of each page, and its estimated tokens.
    text: HashMap<String, (String, usize)>,
    click_acting: Vec<f64>,
    click_whole: Vec<f64>,
    fill_acting: Vec<f64>,
    fill_whole: Vec<f64>,
}

/// Playwright's timings, pooled over rounds.
#[derive(Default)]
struct TheirTimes {
    launch_ms: Vec<f64>,
    snapshot_ms: HashMap<String, Vec<f64>>,
    text: HashMap<String, String>,
    click_ms: Vec<f64>,
    fill_ms: Vec<f64>,
}

async fn measure(repeat: usize, rounds: usize, tools: &Path) -> Result<BrowserBench> {
    if !tools.join("node_modules/playwright-core").is_dir() {
        bail!("playwright-core is not installed in {}: run `npm ci --prefix {}`", tools.display(), tools.display());
    }
    let sites = FixtureSites::start().await.context("starting the fixture sites")?;
    let pages = FixtureSites::pages();
    // Rounds alternate Playwright and ours, and the samples are pooled, so a slow spell of the
    // machine weighs on both sides rather than on whichever ran then.
    let (mut ours, mut theirs) = (OurTimes::default(), TheirTimes::default());
    for _ in 0..rounds {
        playwright_round(&sites, &pages, repeat, tools, &mut theirs).await?;
        our_round(&sites, &pages, repeat, &mut ours).await?;
    }

    let tokenizer = tiktoken_rs::o200k_base().context("loading the o200k_base tokenizer")?;
    let count = |text: &str| tokenizer.encode_ordinary(text).len();
    let mut rows = Vec::new();
    let mut missing = Vec::new();
    let mut estimated = 0;
    for page in &pages {
        let (our_text, our_tokens) = &ours.text[*page];
        let their_text = theirs.text.get(*page).with_context(|| format!("bench.mjs has no snapshot of {page}"))?;
        let mut our_elements = interactive_in_text(our_text, true);
        for element in interactive_in_text(their_text, false) {
            match our_elements.iter().position(|e| *e == element) {
                Some(i) => {
                    our_elements.swap_remove(i);
                }
                None => missing.push(format!("{page}: {} {:?}", element.0, element.1)),
            }
        }
        estimated += our_tokens;
        rows.push(PageRow {
            page: (*page).to_owned(),
            ours_full_ms: median(&ours.full_ms[*page]),
            ours_interactive_ms: median(&ours.interactive_ms[*page]),
            playwright_ms: median(theirs.snapshot_ms.get(*page).map(Vec::as_slice).unwrap_or_default()),
            ours_tokens: count(our_text),
            playwright_tokens: count(their_text),
        });
    }

    let sum = |f: fn(&PageRow) -> f64| rows.iter().map(f).sum::<f64>();
    let tokens = |f: fn(&PageRow) -> usize| rows.iter().map(f).sum::<usize>() as f64;
    Ok(BrowserBench {
        chromium: chromium_version(),
        repeat,
        rounds,
        snapshot_full_ms: Pair::new(sum(|r| r.ours_full_ms), sum(|r| r.playwright_ms)),
        snapshot_interactive_ms: Pair::new(sum(|r| r.ours_interactive_ms), sum(|r| r.playwright_ms)),
        snapshot_tokens: Pair::new(tokens(|r| r.ours_tokens), tokens(|r| r.playwright_tokens)),
        ours_estimated_tokens: estimated,
        missing_interactive: missing,
        click: action_row(&ours.click_acting, &ours.click_whole, &theirs.click_ms),
        fill: action_row(&ours.fill_acting, &ours.fill_whole, &theirs.fill_ms),
        launch_to_first_snapshot_ms: Pair::new(median(&ours.launch_ms), median(&theirs.launch_ms)),
        pages: rows,
    })
}

/// One run of `tools/playwright/bench.mjs`.
async fn playwright_round(
    sites: &FixtureSites,
    pages: &[&str],
    repeat: usize,
    tools: &Path,
    into: &mut TheirTimes,
) -> Result<()> {
    let script = tools.join("bench.mjs");
    let base = sites.url("");
    let page_list = pages.join(",");
    let output = tokio::task::spawn_blocking(move || {
        Command::new("node")
            .arg(script)
            .args(["--base", &base, "--repeat", &repeat.to_string(), "--pages", &page_list])
            .output()
    })
    .await?
    .context("running node (install Node.js 20 or newer)")?;
    if !output.status.success() {
        bail!("bench.mjs failed: {}", String::from_utf8_lossy(&output.stderr));
    }
    let round: PlaywrightTimes = serde_json::from_slice(&output.stdout).context("reading bench.mjs output")?;
    into.launch_ms.push(round.launch_to_first_snapshot_ms);
    for (page, times) in round.snapshot_ms {
        into.snapshot_ms.entry(page).or_default().extend(times);
    }
    into.text = round.snapshot_text;
    into.click_ms.extend(round.click_ms);
    into.fill_ms.extend(round.fill_ms);
    Ok(())
}

/// The same measures on our driver, from a cold launch.
async fn our_round(sites: &FixtureSites, pages: &[&str], repeat: usize, into: &mut OurTimes) -> Result<()> {
    let start = Instant::now();
    let session = BrowserSession::launch(LaunchOptions::default()).await?;
    let options = ActOptions::default();
    session.navigate(&sites.url(&instant(pages[0])), &options).await?;
    let full = SnapshotOptions { mode: SnapshotMode::Full, ..Default::default() };
    session.snapshot(&full).await?;
    into.launch_ms.push(ms_since(start));

    let interactive = SnapshotOptions::default();
    for page in pages {
        session.navigate(&sites.url(&instant(page)), &options).await?;
        for _ in 0..repeat {
            let start = Instant::now();
            session.snapshot(&full).await?;
            into.full_ms.entry((*page).to_owned()).or_default().push(ms_since(start));
            let start = Instant::now();
            session.snapshot(&interactive).await?;
            into.interactive_ms.entry((*page).to_owned()).or_default().push(ms_since(start));
        }
        let snapshot = session.snapshot(&interactive).await?;
        into.text.insert((*page).to_owned(), (snapshot.text, snapshot.tokens));
    }

    session.navigate(&sites.url(&instant("products.html")), &options).await?;
    let buy_now = Locator::Role { role: "button".into(), name: Some("Buy now".into()), exact: false };
    for _ in 0..repeat {
        let report = session.click(&buy_now, &options).await?;
        into.click_acting.push(report.timing.wait_ms + report.timing.act_ms);
        into.click_whole.push(report.timing.total_ms);
    }
    session.navigate(&sites.url(&instant("login.html")), &options).await?;
    let username = Locator::Role { role: "textbox".into(), name: Some("Username".into()), exact: false };
    for _ in 0..repeat {
        let report = session.fill(&username, "ada", &options).await?;
        into.fill_acting.push(report.timing.wait_ms + report.timing.act_ms);
        into.fill_whole.push(report.timing.total_ms);
    }
    session.close().await;
    Ok(())
}

fn action_row(acting: &[f64], whole: &[f64], playwright: &[f64]) -> ActionRow {
    let ours = median(acting);
    let theirs = median(playwright);
    ActionRow { ours_ms: ours, ours_with_settle_ms: median(whole), playwright_ms: theirs, ratio: ours / theirs }
}

fn chromium_version() -> String {
    let Ok(path) = planwright_browser::find_chromium() else { return "unknown".into() };
    Command::new(path)
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".into())
}

/// The text table of `planwright bench browser`.
pub fn render(bench: &BrowserBench) -> String {
    let mut out = format!(
        "{} · {} rounds × {} repeats, alternating · medians in ms\n\n",
        bench.chromium, bench.rounds, bench.repeat
    );
    out.push_str(
        "page                          ours full  ours interactive  playwright  tokens ours  tokens playwright\n",
    );
    for r in &bench.pages {
        out.push_str(&format!(
            "{:<28} {:>10.2} {:>17.2} {:>11.2} {:>12} {:>18}\n",
            r.page, r.ours_full_ms, r.ours_interactive_ms, r.playwright_ms, r.ours_tokens, r.playwright_tokens
        ));
    }
    let pair = |name: &str, p: &Pair| format!("{name:<44} {:>10.2} {:>11.2} {:>7.2}\n", p.ours, p.playwright, p.ratio);
    out.push_str("\nmeasure                                            ours  playwright   ratio\n");
    out.push_str(&pair("snapshot, full (sum of medians, ms)", &bench.snapshot_full_ms));
    out.push_str(&pair("snapshot, interactive (sum of medians, ms)", &bench.snapshot_interactive_ms));
    out.push_str(&pair("snapshot tokens, ours interactive (o200k)", &bench.snapshot_tokens));
    let action = |name: &str, a: &ActionRow| {
        format!(
            "{name:<44} {:>10.2} {:>11.2} {:>7.2}   (with settle and change report: {:.2})\n",
            a.ours_ms, a.playwright_ms, a.ratio, a.ours_with_settle_ms
        )
    };
    out.push_str(&action("click p50 (ms)", &bench.click));
    out.push_str(&action("fill p50 (ms)", &bench.fill));
    out.push_str(&pair("cold launch to first snapshot (ms)", &bench.launch_to_first_snapshot_ms));
    out.push_str(&format!(
        "our token estimate {} vs o200k {}; Playwright's interactive elements missing from ours: {}\n",
        bench.ours_estimated_tokens,
        bench.snapshot_tokens.ours,
        if bench.missing_interactive.is_empty() { "none".to_owned() } else { bench.missing_interactive.join(", ") }
    ));
    out
}
