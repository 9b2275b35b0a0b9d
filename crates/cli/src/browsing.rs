//! `planwright snapshot` and `planwright sites`: see a page as a model is shown it, and serve the
//! fixture sites for trying things by hand.

use anyhow::{Context, Result};
use clap::ValueEnum;
use planwright_browser::{ActOptions, BrowserSession, LaunchOptions, SnapshotMode, SnapshotOptions};
use planwright_sites::FixtureSites;

use crate::commands::{print, Exit};
use crate::render;
use crate::Format;

#[derive(Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum Mode {
    /// What a person acts on, with its headings and landmarks.
    #[default]
    Interactive,
    /// Everything the accessibility tree exposes.
    Full,
}

/// Opens `url` in headless Chromium and prints its accessibility snapshot.
pub fn snapshot(url: &str, mode: Mode, token_budget: Option<usize>, format: Format) -> Result<Exit> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    let snapshot = runtime.block_on(async {
        let session = BrowserSession::launch(LaunchOptions::default()).await?;
        let taken = async {
            session.navigate(url, &ActOptions::default()).await?;
            let mode = match mode {
                Mode::Interactive => SnapshotMode::Interactive,
                Mode::Full => SnapshotMode::Full,
            };
            session.snapshot(&SnapshotOptions { mode, token_budget, ..Default::default() }).await
        }
        .await;
        session.close().await;
        taken
    })?;
    let output = match format {
        Format::Json => render::json(&snapshot),
        Format::Text => {
            format!("{}\n# {} · about {} tokens\n", snapshot.text.trim_end(), snapshot.url, snapshot.tokens)
        }
    };
    print(&output)?;
    Ok(Exit::Ok)
}

/// Serves the fixture sites until interrupted; prints their addresses first.
pub fn sites(port: u16, other_port: u16) -> Result<Exit> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let sites = FixtureSites::start_on(port, other_port).await.context("starting the fixture sites")?;
        print(&format!(
            "{}\nthe second origin (for the payment iframe): {}\nwhat was done: {}\npress Ctrl+C to stop\n",
            sites.url("index.html"),
            sites.other_url(""),
            sites.url("__state")
        ))?;
        tokio::signal::ctrl_c().await.context("waiting for Ctrl+C")?;
        Ok(Exit::Ok)
    })
}
