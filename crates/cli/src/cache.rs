//! `planwright cache show|clear`: the objective runner's action cache, entry by entry.

use anyhow::Result;
use planwright_objectives::cache::CacheEntry;
use planwright_objectives::ActionCache;
use planwright_runs::DataHome;
use serde_json::json;

use crate::commands::{print, Exit};
use crate::Format;

/// What `cache clear` forgets.
pub enum Forget {
    All,
    Entry(String),
    Site(String),
}

fn open() -> Result<(ActionCache, std::path::PathBuf)> {
    let home = DataHome::from_env()?;
    let path = home.root().join(planwright_objectives::CACHE_FILE);
    Ok((ActionCache::open(&path)?, path))
}

/// `planwright cache show`: every entry — its objective, page, actions with their locators, and
/// when it was kept and last used.
pub fn show(format: Format) -> Result<Exit> {
    let (cache, path) = open()?;
    let entries = cache.entries()?;
    match format {
        Format::Json => print(&crate::render::json(&json!({
            "file": path.display().to_string(),
            "objectives": entries.len(),
            "entries": entries.iter().map(entry_json).collect::<Vec<_>>(),
        })))?,
        Format::Text => print(&entries_text(&entries, &path))?,
    }
    Ok(Exit::Ok)
}

/// `planwright cache clear`: everything, one entry, or one site's entries.
pub fn clear(what: Forget) -> Result<Exit> {
    let (cache, _) = open()?;
    let said = match what {
        Forget::All => format!("forgot the cached actions of {} objective(s)\n", cache.clear()?),
        Forget::Entry(id) => match cache.forget_entry(&id)? {
            0 => anyhow::bail!("no cached entry has the id {id}: `planwright cache show` lists them"),
            _ => format!("forgot the cached actions of entry {id}\n"),
        },
        Forget::Site(site) => {
            format!("forgot the cached actions of {} objective(s) on {site}\n", cache.forget_site(&site)?)
        }
    };
    print(&said)?;
    Ok(Exit::Ok)
}

fn entry_json(entry: &CacheEntry) -> serde_json::Value {
    json!({
        "id": entry.id,
        "objective": entry.objective,
        "page": entry.page,
        "placeholders": entry.placeholders,
        "actions": entry.ops.iter().enumerate().map(|(at, op)| json!({
            "action": op.describe(),
            "tool": op.tool(),
            "locator": op.locator().map(ToString::to_string),
            "effectful": entry.effectful.contains(&at),
        })).collect::<Vec<_>>(),
        "replays": entry.replays,
        "updated_at": entry.updated_at,
        "used_at": entry.used_at,
    })
}

fn entries_text(entries: &[CacheEntry], path: &std::path::Path) -> String {
    let mut text = format!("{} objective(s) with cached actions in {}\n", entries.len(), path.display());
    for entry in entries {
        let used = match &entry.used_at {
            Some(at) => format!("replayed {} time(s), last {at}", entry.replays),
            None => "never replayed".to_owned(),
        };
        text.push_str(&format!(
            "\n{}  {}\n    page: {}\n    kept {}; {used}\n",
            entry.id, entry.objective, entry.page, entry.updated_at
        ));
        for (at, op) in entry.ops.iter().enumerate() {
            let once = if entry.effectful.contains(&at) { "  (changes something: done once a run)" } else { "" };
            text.push_str(&format!("    - {}{once}\n", op.describe()));
        }
    }
    text
}
