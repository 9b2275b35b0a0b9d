//! `planwright-studio`: the studio as a desktop app. A Tauri 2 shell that opens the window on
//! the built UI (`ui/dist`) and answers each of its commands with the `planwright_api::Studio`
//! function of the same name. Nothing else lives here.

mod commands;

use std::process::ExitCode;

use planwright_api::{KeyStore, Studio, StudioConfig};
use tauri::webview::PageLoadEvent;
use tauri::Manager;

/// The line printed on standard output each time the window's page has loaded; the desktop
/// smoke test and `scripts/bench-studio` wait for it.
const READY: &str = "planwright-studio: ready";

fn main() -> ExitCode {
    // Each document is read in a child process running this binary, killed at its deadline.
    if let Some(exit) = planwright_documents::host_worker() {
        return exit;
    }
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("PLANWRIGHT_LOG").unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let outcome = tauri::Builder::default()
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .plugin(tauri_plugin_dialog::init())
        .setup(|app| {
            // The workspace and data home as the settings (or PLANWRIGHT_HOME) say.
            let studio = Studio::open(StudioConfig { key_store: KeyStore::from_env(), ..StudioConfig::default() })
                .inspect_err(|e| {
                    eprintln!(
                        "planwright-studio: {e}{}",
                        e.hint.as_ref().map(|h| format!(" ({h})")).unwrap_or_default()
                    );
                })?;
            app.manage(studio);
            Ok(())
        })
        .invoke_handler(commands::handler())
        .on_page_load(|_webview, payload| {
            if payload.event() == PageLoadEvent::Finished {
                println!("{READY} {}", payload.url());
            }
        })
        .run(tauri::tauri_build_context!());
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("planwright-studio: {e}");
            ExitCode::FAILURE
        }
    }
}
