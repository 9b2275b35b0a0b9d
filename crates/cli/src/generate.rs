//! `planwright generate`: an instruction (with documents and templates) to a validated plan
//! through the design engine; `--stats` summarises the generations recorded.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use indexmap::IndexMap;
use planwright_api::{KeyStore, ModelServices};
use planwright_design::metrics::{metrics_file, summarise};
use planwright_design::{
    ApplyMode, DesignEngine, DesignEngineOptions, DesignRequest, GeneratedPlan, MAX_INSTRUCTION_CHARS,
};
use planwright_designs::{Designs, TemplateSpec};
use planwright_llm::{Prompts, Provenance};
use planwright_plan::OnError;
use planwright_retrieval::Retriever;
use planwright_runs::{DataHome, FormRequest, InputRequest};
use serde_json::{json, Value};

use crate::commands::{catalog, print, read_named, read_yaml, Exit};
use crate::render;
use crate::terminal::{plain, say};
use crate::Format;

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ApplyModeArg {
    Compose,
    Hint,
    #[value(name = "llm-only")]
    LlmOnly,
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum OnErrorArg {
    Halt,
    Continue,
    Retry,
}

#[derive(clap::Args)]
pub struct GenerateArgs {
    /// What the automation should do, in English or Japanese; `@FILE` reads it from a file.
    #[arg(long, value_name = "TEXT", required_unless_present = "stats")]
    instruction: Option<String>,
    /// Reference documents (.txt .md .pdf .docx .xlsx); one that cannot be read is a warning.
    #[arg(long, value_name = "FILE[,FILE…]", value_delimiter = ',')]
    docs: Vec<PathBuf>,
    /// The work folder whose input files (CSV, Excel) the plan reads: the plan is checked
    /// against their real columns (default: the current directory).
    #[arg(long, value_name = "DIR", default_value = ".")]
    workdir: PathBuf,
    /// Templates to use, by id (`planwright templates list`).
    #[arg(long, value_name = "ID[,ID…]", value_delimiter = ',')]
    templates: Vec<String>,
    /// compose: insert the templates as they are; hint: examples for a model; llm-only: no templates.
    #[arg(long, value_enum, default_value = "compose")]
    apply_mode: ApplyModeArg,
    /// Blocks a model must be offered whatever the search ranks.
    #[arg(long, value_name = "BLOCK[,BLOCK…]", value_delimiter = ',')]
    pin: Vec<String>,
    /// Answers to requirements asked before: a YAML mapping of requirement id to value.
    #[arg(long, value_name = "FILE")]
    answers: Option<PathBuf>,
    /// Repair rounds after the first attempt (default 2).
    #[arg(long, value_name = "N")]
    max_attempts: Option<u32>,
    /// Write the plan here instead of to standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Text for people, or JSON for tools.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
    /// Summarise the generations recorded (error rate, repair rounds, time) instead.
    #[arg(long)]
    stats: bool,
    /// Candidate blocks per category, 1 to 30 (default 6; 5 to 8 suit most designs).
    #[arg(long, value_name = "K")]
    top_k: Option<usize>,
    /// Characters of the documents given to a model (default 4000).
    #[arg(long, value_name = "N")]
    max_docs_chars: Option<usize>,
    /// Do not gate the steps after a confirmation with `when`.
    #[arg(long)]
    no_suggest_when: bool,
    /// Do not loop per row where the instruction works per item.
    #[arg(long)]
    no_suggest_foreach: bool,
    /// The loop variable's name (default item).
    #[arg(long, value_name = "NAME")]
    foreach_var: Option<String>,
    /// The generated plan's on_error (default halt).
    #[arg(long, value_enum)]
    on_error: Option<OnErrorArg>,
    /// The generated plan's retries (default 0).
    #[arg(long, value_name = "N")]
    retries: Option<u32>,
    /// The generated plan's timeout per node in milliseconds (default 600000).
    #[arg(long, value_name = "MS")]
    timeout_ms: Option<u64>,
    /// The designs folder, whose `templates/` holds the templates.
    #[arg(long, value_name = "DIR", default_value = "designs")]
    designs: PathBuf,
    /// Use the block specs in this folder instead of the built-in catalog.
    #[arg(long, value_name = "DIR", env = "PLANWRIGHT_BLOCK_SPECS")]
    catalog: Option<PathBuf>,
}

/// Input that stops the command before anything is designed: exit 2 with this message.
struct Unusable(String);

pub fn run(args: GenerateArgs) -> Result<Exit> {
    if args.stats {
        return stats(args.format);
    }
    match prepare(&args) {
        Ok(prepared) => generate(&args, prepared),
        Err(Unusable(message)) => {
            say(format_args!("planwright: {message}"));
            Ok(Exit::Unusable)
        }
    }
}

struct Prepared {
    request: DesignRequest,
    library: Vec<TemplateSpec>,
}

fn prepare(args: &GenerateArgs) -> std::result::Result<Prepared, Unusable> {
    let instruction = match args.instruction.as_deref().unwrap_or_default() {
        text if text.starts_with('@') => read_named(
            &format!("--instruction {text}"),
            Path::new(&text[1..]),
            // Four bytes are the most a character takes in UTF-8.
            MAX_INSTRUCTION_CHARS as u64 * 4,
            &format!("an instruction is at most {MAX_INSTRUCTION_CHARS} characters; shorten it"),
        )
        .map_err(Unusable)?,
        text => text.to_owned(),
    };
    if instruction.trim().is_empty() {
        return Err(Unusable("--instruction is empty: say what the automation should do".into()));
    }
    for doc in &args.docs {
        if !doc.is_file() {
            return Err(Unusable(format!("--docs {}: no such file", doc.display())));
        }
    }
    let library = template_library(&args.designs)?;
    let mut templates = Vec::new();
    for id in &args.templates {
        match library.iter().find(|t| &t.id == id) {
            Some(t) => templates.push(t.clone()),
            None => {
                let closest = planwright_plan::suggest::closest(id, library.iter().map(|t| t.id.as_str()));
                let hint =
                    if closest.is_empty() { String::new() } else { format!(" (did you mean {}?)", closest.join(", ")) };
                return Err(Unusable(format!(
                    "--templates: no template `{id}` in {}/templates{hint}",
                    args.designs.display()
                )));
            }
        }
    }
    // Refused now rather than after the design: a device, a pipe, a folder or a link is never
    // replaced by the plan.
    if let Some(out) = &args.out {
        planwright_fs::check_replaceable(out).map_err(|e| Unusable(format!("--out {e}")))?;
    }
    let answers = match &args.answers {
        Some(path) => read_answers(path)?,
        None => IndexMap::new(),
    };
    let mut options = DesignEngineOptions::default();
    if let Some(n) = args.max_attempts {
        options.max_attempts = n;
    }
    if let Some(k) = args.top_k {
        options.topk_per_category = k;
    }
    if let Some(n) = args.max_docs_chars {
        options.max_docs_chars = n;
    }
    options.suggest_when = !args.no_suggest_when;
    options.suggest_foreach = !args.no_suggest_foreach;
    if let Some(name) = &args.foreach_var {
        if !is_var_name(name) {
            return Err(Unusable(format!(
                "--foreach-var {name:?}: use letters, digits and _, starting with a letter or _"
            )));
        }
        options.foreach_var_name = name.clone();
    }
    if let Some(on_error) = args.on_error {
        options.policy.on_error = Some(match on_error {
            OnErrorArg::Halt => OnError::Halt,
            OnErrorArg::Continue => OnError::Continue,
            OnErrorArg::Retry => OnError::Retry,
        });
    }
    if let Some(retries) = args.retries {
        options.policy.retries = Some(retries);
    }
    if let Some(ms) = args.timeout_ms {
        options.policy.timeout_ms = Some(ms.max(1));
    }
    let documents = read_documents(&args.docs);
    let apply_mode = match args.apply_mode {
        ApplyModeArg::Compose => ApplyMode::Compose,
        ApplyModeArg::Hint => ApplyMode::Hint,
        ApplyModeArg::LlmOnly => ApplyMode::LlmOnly,
    };
    Ok(Prepared {
        request: DesignRequest {
            instruction,
            documents,
            templates,
            apply_mode,
            pinned: args.pin.clone(),
            answers,
            options,
        },
        library,
    })
}

fn is_var_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Every template of the designs folder that loads (a folder with none is no error).
fn template_library(designs: &Path) -> std::result::Result<Vec<TemplateSpec>, Unusable> {
    if !designs.join("templates").is_dir() {
        return Ok(Vec::new());
    }
    let files =
        Designs::new(designs).templates().map_err(|e| Unusable(format!("{}/templates: {e}", designs.display())))?;
    Ok(files.into_iter().filter_map(|f| f.spec.ok()).collect())
}

fn read_answers(path: &Path) -> std::result::Result<IndexMap<String, Value>, Unusable> {
    match read_yaml("--answers", path).map_err(Unusable)? {
        Value::Object(map) => Ok(map.into_iter().collect()),
        Value::Null => Ok(IndexMap::new()),
        _ => Err(Unusable(format!(
            "--answers {}: write a mapping of requirement id to value, e.g. `input_file: data.csv`",
            path.display()
        ))),
    }
}

/// The documents' texts, read as the studio reads them; one that cannot be read is a warning
/// naming it.
fn read_documents(paths: &[PathBuf]) -> Vec<(String, String)> {
    planwright_api::read_documents(paths)
        .into_iter()
        .filter_map(|(info, text)| match info.skipped {
            None => Some((info.name, text)),
            Some(why) => {
                say(format_args!("planwright: warning: document left out: {why}"));
                None
            }
        })
        .collect()
}

fn generate(args: &GenerateArgs, mut prepared: Prepared) -> Result<Exit> {
    let catalog = catalog(args.catalog.as_deref())?;
    let home = DataHome::from_env().ok();
    let services = home.as_ref().map(|h| ModelServices::load(h.root(), KeyStore::from_env()));
    if let Some(problem) = services.as_ref().and_then(|s| s.problem()) {
        say(format_args!("planwright: warning: {problem}; designing offline"));
    }
    let (retriever, warnings) = match &services {
        Some(services) => services.retriever(&catalog),
        None => (Retriever::for_catalog(&catalog, None), Vec::new()),
    };
    for warning in warnings {
        say(format_args!("planwright: warning: {warning}"));
    }
    let prompts = Prompts::built_in().context("the built-in prompts")?;
    let files = planwright_api::WorkFolderFiles::new(&args.workdir);
    let trial = planwright_api::WorkFolderTrial::new(&args.workdir, std::sync::Arc::new(catalog.clone()));
    let engine = DesignEngine {
        catalog: &catalog,
        retriever: &retriever,
        library: &prepared.library,
        model: services.as_ref().and_then(|s| s.client()).map(|c| (c, &prompts)),
        metrics: home.as_ref().map(|h| metrics_file(h.root())),
        files: Some(&files),
        trial: Some(&trial),
    };
    let runtime = tokio::runtime::Runtime::new()?;
    let cancel = tokio_util::sync::CancellationToken::new();
    let interactive = args.format == Format::Text
        && args.answers.is_none()
        && std::io::stdin().is_terminal()
        && std::io::stderr().is_terminal();
    let mut generated = match runtime.block_on(engine.generate(&prepared.request, &cancel)) {
        Ok(generated) => generated,
        Err(error) => {
            say(format_args!("planwright: {error}"));
            return Ok(Exit::Unusable);
        }
    };
    // At a terminal, the open questions one by one (each skippable), then the design again
    // with the answers — an answer may change the design, and open new questions.
    let mut asked: Vec<String> = Vec::new();
    if interactive {
        loop {
            let open: Vec<_> = generated
                .requirements
                .iter()
                .filter(|r| r.asked() && !asked.contains(&r.requirement.id))
                .map(|r| r.requirement.clone())
                .collect();
            if open.is_empty() {
                break;
            }
            asked.extend(open.iter().map(|r| r.id.clone()));
            let answers = ask(open);
            if answers.is_empty() {
                break;
            }
            prepared.request.answers.extend(answers);
            generated = match runtime.block_on(engine.generate(&prepared.request, &cancel)) {
                Ok(generated) => generated,
                Err(error) => {
                    say(format_args!("planwright: {error}"));
                    return Ok(Exit::Unusable);
                }
            };
        }
    }
    if generated.refused {
        // No plan: the questions that would make one.
        match args.format {
            Format::Json => {
                let mut value = serde_json::to_value(&generated)?;
                value["plan_yaml"] = Value::Null;
                value["out"] = Value::Null;
                print(&render::json(&value))?;
            }
            Format::Text => eprint!("{}", plain(&summary(&generated, None))),
        }
        return Ok(Exit::Invalid);
    }
    let yaml = generated.to_yaml()?;
    if let Some(out) = &args.out {
        planwright_fs::write_atomically(out, yaml.as_bytes(), planwright_fs::Access::Shared)
            .with_context(|| format!("writing {}", out.display()))?;
    }
    match args.format {
        Format::Json => {
            let mut value = serde_json::to_value(&generated)?;
            value["plan_yaml"] = Value::from(yaml.as_str());
            value["out"] = json!(args.out.as_ref().map(|p| p.display().to_string()));
            print(&render::json(&value))?;
        }
        Format::Text => {
            eprint!("{}", plain(&summary(&generated, args.out.as_deref())));
            if args.out.is_none() {
                print(&yaml)?;
            }
        }
    }
    Ok(if generated.valid { Exit::Ok } else { Exit::Invalid })
}

/// What a person reads on stderr: how it was designed, what is open, what is wrong.
fn summary(generated: &GeneratedPlan, out: Option<&Path>) -> String {
    let mut s = String::new();
    let by = match &generated.provenance {
        Provenance::Offline => "offline".to_owned(),
        Provenance::Model { model, .. } => model.clone(),
    };
    let errors = generated.findings.iter().filter(|f| f.is_error()).count();
    let verdict = if generated.valid { "valid".to_owned() } else { format!("not valid ({errors} error(s))") };
    if generated.refused {
        let _ = writeln!(s, "no plan: the instruction does not say what to read, what to do with it, or what to write");
    } else {
        let _ = writeln!(
            s,
            "plan `{}`: {} nodes, {verdict}, designed {by}, {} attempt(s)",
            generated.plan.id,
            generated.plan.graph.len(),
            generated.attempts.len()
        );
    }
    for line in &generated.reasoning {
        let _ = writeln!(s, "  · {line}");
    }
    for warning in &generated.warnings {
        let _ = writeln!(s, "  ! {warning}");
    }
    for conflict in &generated.conflicts {
        let _ = writeln!(s, "  ! {}: {} — {}", conflict.template, conflict.message, conflict.hint);
    }
    for f in generated.findings.iter().filter(|f| f.is_error() && !generated.refused) {
        let _ = writeln!(s, "  ✗ {} {}: {}", f.code.as_str(), f.node.as_deref().unwrap_or("plan"), f.message);
    }
    let open: Vec<_> = generated.requirements.iter().filter(|r| r.asked()).collect();
    if !open.is_empty() {
        let _ = writeln!(
            s,
            "{}",
            if generated.refused {
                "to answer (--answers, or at a terminal):"
            } else {
                "still to answer (vars given at run time, or --answers):"
            }
        );
        for r in open {
            let label = r.requirement.label.as_deref().unwrap_or(&r.requirement.id);
            let _ = writeln!(s, "  ? {}: {label}", r.requirement.id);
            // Why a refused instruction is asked about (words not placed, nothing written).
            if let Some(why) = r.requirement.description.as_deref().filter(|_| generated.refused) {
                let _ = writeln!(s, "    {why}");
            }
        }
    }
    let secrets: Vec<_> =
        generated.requirements.iter().filter(|r| !r.asked()).map(|r| r.requirement.id.as_str()).collect();
    if !secrets.is_empty() {
        let _ = writeln!(s, "secrets to set in the key store (never in the plan): {}", secrets.join(", "));
    }
    for suggestion in &generated.suggestions {
        let _ = writeln!(s, "  → {suggestion}");
    }
    if let Some(out) = out {
        let _ = writeln!(s, "written to {}", out.display());
    }
    s
}

/// Asks `requirements` at the terminal (each may be left empty); the answers given.
fn ask(requirements: Vec<planwright_runs::Requirement>) -> IndexMap<String, Value> {
    let skippable: Vec<_> = requirements
        .into_iter()
        .map(|mut r| {
            r.required = false;
            r
        })
        .collect();
    let request = InputRequest::Inquire(FormRequest {
        message: "the plan still needs these (Enter skips one)".into(),
        requirements: skippable,
        context: Value::Null,
    });
    let mut errors = Vec::new();
    for _ in 0..3 {
        let Some(answer) = crate::terminal::ask("generate", &request, &errors) else { return IndexMap::new() };
        match planwright_block::validate_answer(&request, &answer) {
            Ok(valid) => return valid.values.into_iter().filter(|(_, v)| !v.is_null()).collect(),
            Err(found) => errors = found,
        }
    }
    IndexMap::new()
}

fn stats(format: Format) -> Result<Exit> {
    let home = DataHome::from_env().context("the data home")?;
    let path = metrics_file(home.root());
    let summary = summarise(&path).with_context(|| format!("reading {}", path.display()))?;
    match format {
        Format::Json => print(&render::json(&summary))?,
        Format::Text => {
            let mut s = String::new();
            let _ = writeln!(s, "{} generation(s) recorded in {}", summary.generations, path.display());
            if summary.generations > 0 {
                let _ = writeln!(
                    s,
                    "  valid plans      {} ({:.1} % without a valid plan)",
                    summary.valid,
                    summary.error_rate * 100.0
                );
                let _ = writeln!(
                    s,
                    "  repair rounds    {:.2} on average; {:.1} % needed one",
                    summary.mean_repair_rounds,
                    summary.repaired_share * 100.0
                );
                let _ = writeln!(s, "  time             p50 {:.1} ms, p95 {:.1} ms", summary.p50_ms, summary.p95_ms);
                let _ = writeln!(
                    s,
                    "  designed         {} offline, {} with a model ({} model calls, {} + {} tokens)",
                    summary.offline,
                    summary.with_model,
                    summary.model_calls,
                    summary.input_tokens,
                    summary.output_tokens
                );
            }
            if summary.unreadable_lines > 0 {
                let _ = writeln!(s, "  {} line(s) could not be read and are left out", summary.unreadable_lines);
            }
            print(&s)?;
        }
    }
    Ok(Exit::Ok)
}
