//! The commands: each loads what it needs, calls the library, and prints.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::{Context, Result};
use planwright_catalog::Catalog;
use planwright_designs::{Designs, RegisterOutcome};
use planwright_plan::load::MAX_PLAN_BYTES;
use planwright_plan::{load_plan_file, LoadedPlan};
use planwright_validate::{dry_run_validated, validate_loaded_with_files, Validation};

use crate::render;
use crate::{Format, Sources};

/// The exit codes other tools rely on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exit {
    Ok = 0,
    Invalid = 1,
    Unusable = 2,
    /// A run waits for human input and there is no way to ask.
    Waiting = 3,
    /// The run succeeded (or the record was shown) but a report asked for could not be written.
    ReportUnwritten = 4,
}

impl From<Exit> for ExitCode {
    fn from(exit: Exit) -> ExitCode {
        ExitCode::from(exit as u8)
    }
}

pub fn catalog(dir: Option<&Path>) -> Result<Catalog> {
    match dir {
        Some(dir) => Catalog::load_dir(dir).with_context(|| format!("block catalog {}", dir.display())),
        None => Catalog::bundled().context("the built-in block catalog"),
    }
}

/// The plans `call` can name: registered ones, then `<id>.yaml` beside the plan itself.
fn designs(sources: &Sources, file: &Path) -> Designs {
    let beside = file.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Designs::new(&sources.designs).with_fallback_dir(beside)
}

/// Reads and loads a plan file; `Err(Exit)` after saying on stderr why it is unusable.
fn load(file: &Path) -> std::result::Result<LoadedPlan, Exit> {
    load_plan_file(file).map_err(|error| {
        crate::terminal::say(format_args!("planwright: {}: {error}", file.display()));
        Exit::Unusable
    })
}

fn check(
    file: &Path,
    sources: &Sources,
) -> Result<std::result::Result<(LoadedPlan, Validation, Catalog, Designs), Exit>> {
    let catalog = catalog(sources.catalog.as_deref())?;
    let loaded = match load(file) {
        Ok(loaded) => loaded,
        Err(exit) => return Ok(Err(exit)),
    };
    let designs = designs(sources, file);
    let workdir = match &sources.workdir {
        Some(dir) => dir.clone(),
        None => std::env::current_dir().context("the current directory")?,
    };
    let files = planwright_api::WorkFolderFiles::new(workdir);
    let validation = validate_loaded_with_files(&loaded, &catalog, &designs, &files);
    Ok(Ok((loaded, validation, catalog, designs)))
}

fn exit_for(validation: &Validation) -> Exit {
    if validation.is_valid() {
        Exit::Ok
    } else {
        Exit::Invalid
    }
}

pub fn validate(file: &Path, format: Format, sources: &Sources) -> Result<Exit> {
    let (_, validation, _, _) = match check(file, sources)? {
        Ok(checked) => checked,
        Err(exit) => return Ok(exit),
    };
    let output = match format {
        Format::Json => render::json(&render::validation_report(&validation)),
        Format::Text => render::validation_text(&file.display().to_string(), &validation),
    };
    print(&output)?;
    Ok(exit_for(&validation))
}

pub fn dry_run(file: &Path, format: Format, sources: &Sources) -> Result<Exit> {
    let (loaded, validation, catalog, designs) = match check(file, sources)? {
        Ok(checked) => checked,
        Err(exit) => return Ok(exit),
    };
    let Some(plan) = &loaded.plan else {
        let output = match format {
            Format::Json => render::json(&render::validation_report(&validation)),
            Format::Text => render::validation_text(&file.display().to_string(), &validation),
        };
        print(&output)?;
        return Ok(Exit::Invalid);
    };
    let mut run = dry_run_validated(plan, &catalog, &designs, validation);
    loaded.annotate(&mut run.validation.findings);
    let output = match format {
        Format::Json => render::json(&render::dry_run_report(&run)),
        Format::Text => render::dry_run_text(&file.display().to_string(), plan, &run),
    };
    print(&output)?;
    Ok(exit_for(&run.validation))
}

pub fn blocks(format: Format, dir: Option<&Path>) -> Result<Exit> {
    let catalog = catalog(dir)?;
    let output = match format {
        Format::Json => render::json(&catalog.blocks().collect::<Vec<_>>()),
        Format::Text => render::blocks_text(&catalog),
    };
    print(&output)?;
    Ok(Exit::Ok)
}

pub fn schema() -> Result<Exit> {
    print(&planwright_plan::schema::plan_schema_text())?;
    Ok(Exit::Ok)
}

pub fn register(file: &Path, sources: &Sources) -> Result<Exit> {
    let (loaded, validation, _, designs) = match check(file, sources)? {
        Ok(checked) => checked,
        Err(exit) => return Ok(exit),
    };
    let (Some(plan), true) = (&loaded.plan, validation.is_valid()) else {
        eprint!("{}", crate::terminal::plain(&render::validation_text(&file.display().to_string(), &validation)));
        eprintln!("planwright: not registered: fix the errors above first");
        return Ok(Exit::Invalid);
    };
    let now = time::OffsetDateTime::now_local().unwrap_or_else(|_| time::OffsetDateTime::now_utc());
    match designs.register(&plan.id, loaded.text(), now) {
        Ok(RegisterOutcome::Written(path)) => print(&format!("registered {}\n", path.display()))?,
        Ok(RegisterOutcome::AlreadyRegistered(path)) => print(&format!("already registered as {}\n", path.display()))?,
        Err(error) => {
            crate::terminal::say(format_args!("planwright: not registered: {error}"));
            return Ok(Exit::Invalid);
        }
    }
    Ok(Exit::Ok)
}

/// The text of a file a person named, shown in messages as `shown` (the option and the path as
/// given): a regular file only (a pipe or a device is refused unopened), at most `limit` bytes
/// — `fix` says what to do about a longer one — and UTF-8; else why not, naming it.
pub fn read_named(shown: &str, path: &Path, limit: u64, fix: &str) -> std::result::Result<String, String> {
    let bytes = planwright_fs::read_limited(path, limit).map_err(|e| match e.kind() {
        std::io::ErrorKind::FileTooLarge => format!("{shown}: {e}, the most read here: {fix}"),
        _ => format!("{shown}: cannot read the file: {e}"),
    })?;
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "{shown}: the file is not UTF-8 text (invalid byte at offset {}); save it as UTF-8",
            e.utf8_error().valid_up_to()
        )
    })
}

/// A YAML file a person named with `option` (answers), read and parsed within a plan file's
/// limits: its size, and nesting refused before the parser sees it.
pub fn read_yaml(option: &str, path: &Path) -> std::result::Result<serde_json::Value, String> {
    let shown = format!("{option} {}", path.display());
    let text = read_named(&shown, path, MAX_PLAN_BYTES as u64, "split it")?;
    planwright_plan::load::parse_document(&text).map_err(|e| format!("{shown}: {e}"))
}

/// Writes to stdout made [`plain`](crate::terminal::plain) — JSON and YAML already escape
/// escape characters, so there it takes out at most a raw C1 control or DEL; a closed pipe
/// (`planwright blocks | head`) is not an error.
pub fn print(text: &str) -> Result<()> {
    let mut stdout = std::io::stdout().lock();
    match stdout.write_all(crate::terminal::plain(text).as_bytes()).and_then(|()| stdout.flush()) {
        Err(error) if error.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other.context("writing to standard output"),
    }
}
