//! `planwright serve`: the studio in a browser. Prints the address with its token first, then
//! serves until Ctrl+C.

use std::path::PathBuf;

use anyhow::{Context, Result};
use planwright_api::{KeyStore, Studio, StudioConfig};
use planwright_server::Server;

use crate::commands::{print, Exit};

pub fn serve(port: u16, open: bool, workspace: Option<PathBuf>, ui: Option<PathBuf>) -> Result<Exit> {
    let runtime = tokio::runtime::Runtime::new().context("starting the async runtime")?;
    runtime.block_on(async {
        let studio =
            Studio::open(StudioConfig { workspace, key_store: KeyStore::from_env(), ..StudioConfig::default() })
                .map_err(|e| {
                    anyhow::anyhow!("{e}{}", e.hint.as_ref().map(|h| format!(" ({h})")).unwrap_or_default())
                })?;
        let ui = ui.unwrap_or_else(planwright_server::default_ui_dir);
        let server = Server::bind(studio.clone(), port, &ui).await?;
        print(&format!("{}\n", server.url()))?;
        eprintln!("planwright: studio for workspace {} (Ctrl+C stops it)", studio.workspace().display());
        if open {
            open_browser(&server.url());
        }
        server
            .serve(async {
                let _ = tokio::signal::ctrl_c().await;
            })
            .await
            .context("serving the studio")?;
        Ok(Exit::Ok)
    })
}

/// Opens `url` with the desktop's opener; nothing happens where there is none.
fn open_browser(url: &str) {
    let opener = if cfg!(target_os = "macos") { "open" } else { "xdg-open" };
    if let Err(error) = std::process::Command::new(opener).arg(url).stdout(std::process::Stdio::null()).spawn() {
        eprintln!("planwright: could not open a browser ({opener}: {error}); open the address above");
    }
}
