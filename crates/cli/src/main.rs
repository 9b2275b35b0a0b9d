//! `planwright`: the command line. Parses arguments, calls the library crates, prints, and
//! exits with the documented codes. Nothing else lives here.

mod bench;
mod browsing;
mod cache;
mod commands;
mod doctor;
mod generate;
mod planning;
mod render;
mod reports;
mod retrieval;
mod running;
mod serve;
mod templates;
mod terminal;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

#[derive(Parser)]
#[command(name = "planwright", version, about = "Design, check and run business automations as plans of typed blocks.")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// Where blocks and called plans come from.
#[derive(clap::Args, Clone)]
pub struct Sources {
    /// Folder of registered plans, where `call.plan_id` is looked up.
    #[arg(long, value_name = "DIR", default_value = "designs")]
    designs: PathBuf,
    /// Use the block specs in this folder instead of the catalog built into planwright.
    #[arg(long, value_name = "DIR", env = "PLANWRIGHT_BLOCK_SPECS")]
    catalog: Option<PathBuf>,
    /// Where the plan's input files are (default: the current directory, as for `run`): the
    /// columns its steps name are checked against their headers.
    #[arg(long, value_name = "DIR")]
    workdir: Option<PathBuf>,
}

#[derive(Subcommand)]
enum Command {
    /// Check a plan file against the plan format, the block catalog and the plans it calls.
    ///
    /// Exit codes: 0 valid (warnings allowed), 1 invalid, 2 unreadable or not a plan.
    #[command(
        after_help = "JSON output: {\"valid\": bool, \"errors\": [finding…], \"warnings\": [finding…]}, where a finding is \
{code, severity, node, field, message, hint, candidates, path, line, column}."
    )]
    Validate {
        /// The plan file (YAML).
        file: PathBuf,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        #[command(flatten)]
        sources: Sources,
    },
    /// Validate, then run the plan symbolically on sample values: the order, each node's
    /// resolved inputs (secrets masked) and an estimate of the work.
    ///
    /// Exit codes: 0 valid, 1 invalid, 2 unreadable or not a plan.
    #[command(name = "dry-run")]
    DryRun {
        /// The plan file (YAML).
        file: PathBuf,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        #[command(flatten)]
        sources: Sources,
    },
    /// List the block catalog, or search it (`blocks search "QUERY"`).
    Blocks {
        #[command(subcommand)]
        command: Option<retrieval::BlocksCommand>,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        /// Use the block specs in this folder instead of the built-in catalog.
        #[arg(long, value_name = "DIR", env = "PLANWRIGHT_BLOCK_SPECS")]
        catalog: Option<PathBuf>,
    },
    /// Print the plan JSON Schema (for editors with a YAML language server).
    Schema,
    /// Validate a plan and store it as `<designs>/<plan_id>_<yyyymmddHHMM>.yaml`.
    ///
    /// The file is written atomically and never overwrites another. Exit codes: 0 registered
    /// (or the identical plan was already registered under that name), 1 invalid or refused,
    /// 2 unreadable or not a plan.
    Register {
        /// The plan file (YAML).
        file: PathBuf,
        #[command(flatten)]
        sources: Sources,
    },
    /// Run a plan: validate it, then execute it, showing each node as it goes.
    ///
    /// Exit codes: 0 succeeded, 1 failed or stopped, 2 unusable input (unreadable or invalid
    /// plan, bad --var or --inputs, a report's folder missing or not writable, a report path that
    /// is a link), 3 waiting for human input with no way to ask, 4 succeeded but a report could
    /// not be written.
    Run {
        /// The plan file (YAML).
        file: PathBuf,
        /// A var for this run, `name=value`; the value is read as a YAML scalar (numbers and
        /// booleans keep their type). Repeatable.
        #[arg(long = "var", value_name = "NAME=VALUE")]
        vars: Vec<String>,
        /// Where relative paths in blocks resolve (default: the current directory); blocks may
        /// not leave it.
        #[arg(long, value_name = "DIR")]
        workdir: Option<PathBuf>,
        #[command(flatten)]
        args: running::RunArgs,
    },
    /// Continue an interrupted, stopped, failed or waiting run; finished nodes are not re-run.
    ///
    /// Exit codes as for `run`.
    Resume {
        /// The run: its whole id, or any unique prefix of it.
        run_id: String,
        #[command(flatten)]
        args: running::RunArgs,
    },
    /// Design a plan from an instruction (English or Japanese), reference documents and
    /// templates: offline by rules, or with the configured model in two stages; validated,
    /// dry-run and repaired (up to --max-attempts rounds). Open questions are listed (and, at a
    /// terminal without --answers, asked one by one); the plan declares them as vars given at
    /// run time. Every generation adds a line to the metrics (`--stats` summarises them).
    ///
    /// Exit codes: 0 the plan validates, 1 no valid plan after the repair rounds (the best
    /// attempt is written with its findings), 2 unusable input (an empty or unreadable
    /// instruction, a missing file, an unknown template).
    #[command(after_help = "JSON output (stdout; messages go to stderr): {plan, plan_yaml, out, valid, reasoning, \
provenance: {by: offline|model, provider?, model?}, candidates: [{id, score, category, why, pinned}], templates_used, \
requirements: [{id, type, label, description, options, required, accept, hint, validation, target: {kind: var|input|secret, …}}], \
findings: [finding…], attempts: [{number, by, errors, repairs, diff}], diff: [{node, change, fields}], conflicts, \
warnings, suggestions, language, metrics}.")]
    Generate(Box<generate::GenerateArgs>),
    /// The templates of a designs folder (`templates/<category>/<id>.yaml`): list them (the
    /// default), show one, or check them all.
    Templates {
        #[command(subcommand)]
        command: Option<templates::TemplatesCommand>,
    },
    /// The run record: list runs, or show one.
    #[command(subcommand)]
    Runs(RunsCommand),
    /// The objective runner's action cache (`objectives.db` in the data home): the actions that
    /// reached each objective, replayed on the next run with no model call.
    #[command(subcommand)]
    Cache(CacheCommand),
    /// Open a web page in headless Chromium and print its accessibility snapshot, as the
    /// browser steps show it to a model.
    Snapshot {
        /// The address of the page to open.
        url: String,
        #[arg(long, value_enum, default_value_t)]
        /// Only what can be acted on (interactive), or the whole page (full).
        mode: browsing::Mode,
        /// Cut the snapshot at about this many tokens (a marker says what was left out).
        #[arg(long, value_name = "TOKENS")]
        budget: Option<usize>,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Serve the fixture web sites (assets/sites) on two loopback origins, for trying browser
    /// steps by hand; every action on them is listed at /__state.
    Sites {
        /// The port of the first origin.
        #[arg(long, default_value_t = 8700)]
        port: u16,
        /// The second origin, which serves the cross-origin payment iframe.
        #[arg(long, default_value_t = 8701)]
        other_port: u16,
    },
    /// Measure planwright's own speed; see docs/benchmarks.md.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// Check what runs need: the browser, the data home and the workspace, then the configured
    /// model server with one tiny call per tier (and one embedding), saying what works and what
    /// to fix.
    ///
    /// Exit codes: 0 everything works (no model configured counts as working: offline), 1
    /// something fails.
    #[command(
        after_help = "JSON output: {ok, offline, provider, settings_file, problem, checks: [{part, model, ok, answered_by, \
latency_ms, problem, fix}], system: [{part, ok, detail, fix}]}."
    )]
    Doctor {
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Serve the studio to a browser on 127.0.0.1. The first line printed is the address to
    /// open, with this start's access token.
    Serve {
        /// 0 picks a free port.
        #[arg(long, default_value_t = 0)]
        port: u16,
        /// Open the address in the default browser.
        #[arg(long)]
        open: bool,
        /// The workspace folder (designs/, drafts/); default: the one in Settings, else ~/Planwright.
        #[arg(long, value_name = "DIR")]
        workspace: Option<PathBuf>,
        /// The built UI (default: ui/dist in the repository planwright was built from).
        #[arg(long, value_name = "DIR")]
        ui: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum RunsCommand {
    /// Every recorded run, newest first. JSON: [{run_id, plan_id, status, started_at, finished_at, counts}].
    List {
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// One run: its summary, every event and (as text) each browser objective node's planning
    /// history; with --report or --allure-results, also the reports of the run from its record.
    ///
    /// Exit codes: 0 shown, 2 no such run or a report refused before anything is written, 4 a
    /// report could not be written.
    Show {
        /// The run: its whole id, or any unique prefix of it.
        run_id: String,
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
        #[command(flatten)]
        reports: reports::ReportArgs,
    },
}

#[derive(Subcommand)]
enum CacheCommand {
    /// Every cached entry: its id, objective, page, actions with their locators, and when it was
    /// kept and last replayed. JSON: {"file": PATH, "objectives": N, "entries": [{"id",
    /// "objective", "page", "placeholders", "actions": [{"action", "tool", "locator"}],
    /// "replays", "updated_at", "used_at"}]}.
    Show {
        /// Text for people, or JSON for tools.
        #[arg(long, value_enum, default_value_t)]
        format: Format,
    },
    /// Forget cached actions — all of them, one entry, or one site's: the next runs decide again
    /// (offline, or with the model).
    Clear {
        /// Only the entry of this id (as `cache show` lists it).
        #[arg(long, value_name = "ID", conflicts_with = "site")]
        entry: Option<String>,
        /// Only the entries of this site (`http://host:port`, or any address on it).
        #[arg(long, value_name = "ADDRESS")]
        site: Option<String>,
    },
}

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
    let cli = Cli::parse();
    let outcome = match cli.command {
        Command::Validate { file, format, sources } => commands::validate(&file, format, &sources),
        Command::DryRun { file, format, sources } => commands::dry_run(&file, format, &sources),
        Command::Blocks { command: Some(command), .. } => retrieval::run(command),
        Command::Blocks { command: None, format, catalog } => commands::blocks(format, catalog.as_deref()),
        Command::Templates { command } => templates::run(command),
        Command::Generate(args) => generate::run(*args),
        Command::Schema => commands::schema(),
        Command::Register { file, sources } => commands::register(&file, &sources),
        Command::Run { file, vars, workdir, args } => running::run(&file, &vars, workdir.as_deref(), &args),
        Command::Resume { run_id, args } => running::resume(&run_id, &args),
        Command::Runs(RunsCommand::List { format }) => running::list(format),
        Command::Runs(RunsCommand::Show { run_id, format, reports }) => running::show(&run_id, format, &reports),
        Command::Cache(CacheCommand::Show { format }) => cache::show(format),
        Command::Cache(CacheCommand::Clear { entry: Some(id), .. }) => cache::clear(cache::Forget::Entry(id)),
        Command::Cache(CacheCommand::Clear { site: Some(site), .. }) => cache::clear(cache::Forget::Site(site)),
        Command::Cache(CacheCommand::Clear { .. }) => cache::clear(cache::Forget::All),
        Command::Snapshot { url, mode, budget, format } => browsing::snapshot(&url, mode, budget, format),
        Command::Sites { port, other_port } => browsing::sites(port, other_port),
        Command::Bench(command) => bench::run(command),
        Command::Doctor { format } => doctor::doctor(format),
        Command::Serve { port, open, workspace, ui } => serve::serve(port, open, workspace, ui),
    };
    match outcome {
        Ok(code) => code.into(),
        Err(error) => {
            terminal::say(format_args!("planwright: {error:#}"));
            commands::Exit::Unusable.into()
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    /// Every command and every argument says what it is in `--help`.
    #[test]
    fn every_command_and_argument_has_help_text() {
        fn walk(command: &clap::Command, path: &str, missing: &mut Vec<String>) {
            for arg in command.get_arguments() {
                let id = arg.get_id().as_str();
                if id != "help" && id != "version" && arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{path} <{id}>"));
                }
            }
            for sub in command.get_subcommands() {
                let path = format!("{path} {}", sub.get_name());
                if sub.get_about().is_none() {
                    missing.push(path.clone());
                }
                walk(sub, &path, missing);
            }
        }
        let mut missing = Vec::new();
        walk(&Cli::command(), "planwright", &mut missing);
        assert!(missing.is_empty(), "without help text: {missing:#?}");
    }
}
