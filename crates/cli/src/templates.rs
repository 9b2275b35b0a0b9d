//! `planwright templates`: the templates of a designs folder (`templates/<category>/<id>.yaml`),
//! one of them, or all of them checked.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use planwright_designs::{Designs, TemplateFile, TemplateSpec};
use planwright_plan::Localized;
use planwright_plan::{Code, Finding};
use planwright_validate::{validate_template, GraphAnalysis, Validation};
use serde::Serialize;

use crate::commands::{catalog, print, Exit};
use crate::render;
use crate::Format;

#[derive(clap::Subcommand)]
pub enum TemplatesCommand {
    /// Every template with its category, title, imports and exports (the default).
    #[command(after_help = "JSON output: [{id, category, file, title: {en, ja}, imports: [..], exports: [..], \
problem}]; `problem` says why a file does not load.")]
    List(Where),
    /// One template, by id: what it is, what it imports and exports, its nodes and its findings.
    ///
    /// Exit codes: 0 shown, 2 no template has the id (the closest ids are named).
    Show {
        /// The template's id, as `templates list` shows it.
        id: String,
        #[command(flatten)]
        at: Where,
    },
    /// Check every template: it loads, its id is its file's name and unique, its snippet
    /// validates as a plan with its imports bound, its exports are aliases of the snippet.
    ///
    /// Exit codes: 0 every template valid (warnings allowed), 1 a template invalid or
    /// unreadable, 2 the folder or the catalog unreadable.
    #[command(after_help = "JSON output: [{file, id, valid, errors: [finding…], warnings: [finding…]}].")]
    Check {
        #[command(flatten)]
        at: Where,
        /// Use the block specs in this folder instead of the built-in catalog.
        #[arg(long, value_name = "DIR", env = "PLANWRIGHT_BLOCK_SPECS")]
        catalog: Option<PathBuf>,
    },
}

/// Which designs folder, and how to print.
#[derive(clap::Args, Clone)]
pub struct Where {
    /// The designs folder; templates are under its `templates/`.
    #[arg(long, value_name = "DIR", default_value = "designs")]
    designs: PathBuf,
    /// Text for people, or JSON for tools.
    #[arg(long, value_enum, default_value_t)]
    format: Format,
}

impl Default for Where {
    fn default() -> Where {
        Where { designs: PathBuf::from("designs"), format: Format::Text }
    }
}

pub fn run(command: Option<TemplatesCommand>) -> Result<Exit> {
    match command.unwrap_or(TemplatesCommand::List(Where::default())) {
        TemplatesCommand::List(at) => list(&at),
        TemplatesCommand::Show { id, at } => show(&id, &at),
        TemplatesCommand::Check { at, catalog: dir } => check(&at, dir.as_deref()),
    }
}

fn templates(designs: &Path) -> Result<Vec<TemplateFile>> {
    Designs::new(designs).templates().with_context(|| format!("listing the templates of {}", designs.display()))
}

#[derive(Serialize)]
struct Listed<'a> {
    id: Option<&'a str>,
    category: &'a str,
    file: &'a str,
    title: Option<&'a Localized<String>>,
    imports: Vec<&'a str>,
    exports: Vec<&'a str>,
    problem: Option<&'a str>,
}

fn list(at: &Where) -> Result<Exit> {
    let files = templates(&at.designs)?;
    let listed: Vec<Listed> = files
        .iter()
        .map(|f| {
            let spec = f.spec.as_ref().ok();
            Listed {
                id: spec.map(|s| s.id.as_str()),
                category: &f.category,
                file: &f.file,
                title: spec.map(|s| &s.title),
                imports: spec.map(|s| s.imports.keys().map(String::as_str).collect()).unwrap_or_default(),
                exports: spec.map(|s| s.exports.keys().map(String::as_str).collect()).unwrap_or_default(),
                problem: f.spec.as_ref().err().map(String::as_str),
            }
        })
        .collect();
    let text = match at.format {
        Format::Json => render::json(&listed),
        Format::Text => {
            let mut out = String::new();
            for t in &listed {
                match (t.id, t.title, t.problem) {
                    (Some(id), Some(title), _) => {
                        let _ = writeln!(out, "{id:<28} {:<10} {} / {}", t.category, title.en, title.ja);
                        let _ = writeln!(
                            out,
                            "{:<28} {:<10} {} → {}",
                            "",
                            "",
                            none_if_empty(&t.imports),
                            none_if_empty(&t.exports)
                        );
                    }
                    (_, _, problem) => {
                        let _ = writeln!(out, "{}: does not load: {}", t.file, problem.unwrap_or_default());
                    }
                }
            }
            let _ = writeln!(out, "{} templates in {}", listed.len(), at.designs.join("templates").display());
            out
        }
    };
    print(&text)?;
    Ok(Exit::Ok)
}

fn none_if_empty(names: &[&str]) -> String {
    if names.is_empty() {
        "(none)".to_owned()
    } else {
        names.join(", ")
    }
}

fn show(id: &str, at: &Where) -> Result<Exit> {
    let files = templates(&at.designs)?;
    let Some((file, spec)) = files.iter().find_map(|f| f.spec.as_ref().ok().filter(|s| s.id == id).map(|s| (f, s)))
    else {
        let ids = files.iter().filter_map(|f| f.spec.as_ref().ok()).map(|s| s.id.as_str());
        let closest = planwright_plan::suggest::closest(id, ids);
        crate::terminal::say(format_args!(
            "planwright: no template `{id}` in {}{}",
            at.designs.join("templates").display(),
            if closest.is_empty() { String::new() } else { format!("; did you mean {}?", closest.join(", ")) }
        ));
        return Ok(Exit::Unusable);
    };
    let validation = checked(file, spec, &files, &catalog(None)?);
    let text = match at.format {
        Format::Json => {
            #[derive(Serialize)]
            struct Shown<'a> {
                file: &'a str,
                category: &'a str,
                template: &'a TemplateSpec,
                #[serde(flatten)]
                validation: render::ValidationReport<'a>,
            }
            render::json(&Shown {
                file: &file.file,
                category: &file.category,
                template: spec,
                validation: render::validation_report(&validation),
            })
        }
        Format::Text => {
            let mut out =
                format!("{} ({}, {})\n{}\n{}\n\n", spec.id, file.category, file.file, spec.title.en, spec.title.ja);
            let _ = writeln!(out, "{}\n{}\n", spec.description.en, spec.description.ja);
            for (heading, ports) in [("imports", &spec.imports), ("exports", &spec.exports)] {
                let _ = writeln!(out, "{heading}:");
                for (name, port) in ports {
                    let _ = writeln!(
                        out,
                        "  {name}: {} — {} / {}",
                        port.type_name, port.description.en, port.description.ja
                    );
                }
            }
            if !spec.secrets.is_empty() {
                let _ = writeln!(out, "secrets: {}", spec.secrets.join(", "));
            }
            let _ = writeln!(out, "nodes: {}\n", spec.node_ids().join(", "));
            out.push_str(&render::validation_text(&file.file, &validation));
            out
        }
    };
    print(&text)?;
    Ok(Exit::Ok)
}

fn check(at: &Where, catalog_dir: Option<&Path>) -> Result<Exit> {
    let files = templates(&at.designs)?;
    let catalog = catalog(catalog_dir)?;
    let results: Vec<(&TemplateFile, Validation)> = files
        .iter()
        .map(|f| {
            let validation = match &f.spec {
                Ok(spec) => checked(f, spec, &files, &catalog),
                Err(problem) => Validation {
                    findings: vec![Finding::error(
                        Code::InvalidValue,
                        "",
                        format!("the template does not load: {problem}"),
                    )],
                    analysis: GraphAnalysis::default(),
                    input_rows: Default::default(),
                    columns_at: Default::default(),
                    tables: Default::default(),
                },
            };
            (f, validation)
        })
        .collect();
    let valid = results.iter().all(|(_, v)| v.is_valid());
    let text = match at.format {
        Format::Json => {
            #[derive(Serialize)]
            struct Checked<'a> {
                file: &'a str,
                id: Option<&'a str>,
                #[serde(flatten)]
                validation: render::ValidationReport<'a>,
            }
            render::json(
                &results
                    .iter()
                    .map(|(f, v)| Checked {
                        file: &f.file,
                        id: f.spec.as_ref().ok().map(|s| s.id.as_str()),
                        validation: render::validation_report(v),
                    })
                    .collect::<Vec<_>>(),
            )
        }
        Format::Text => {
            let mut out: String = results.iter().map(|(f, v)| render::validation_text(&f.file, v)).collect();
            let invalid = results.iter().filter(|(_, v)| !v.is_valid()).count();
            let _ = writeln!(out, "{} templates, {invalid} invalid", results.len());
            out
        }
    };
    print(&text)?;
    Ok(if valid { Exit::Ok } else { Exit::Invalid })
}

/// A template's findings, with what only the folder can tell: its id is its file's name and no
/// other template's.
fn checked(
    file: &TemplateFile,
    spec: &TemplateSpec,
    all: &[TemplateFile],
    catalog: &planwright_catalog::Catalog,
) -> Validation {
    let mut findings = validate_template(spec, catalog);
    let stem = file.file.rsplit('/').next().and_then(|n| n.rsplit_once('.')).map_or("", |(stem, _)| stem);
    if stem != spec.id {
        findings.push(
            Finding::error(Code::InvalidValue, "/id", format!("the id `{}` is not the file's name `{stem}`", spec.id))
                .hint(format!("rename the file to {}.yaml or set `id: {stem}`", spec.id)),
        );
    }
    if all.iter().filter(|f| f.spec.as_ref().is_ok_and(|other| other.id == spec.id)).count() > 1 {
        findings.push(Finding::error(
            Code::InvalidValue,
            "/id",
            format!("another template also has the id `{}`", spec.id),
        ));
    }
    if file.category.is_empty() {
        findings.push(
            Finding::warning(Code::InvalidValue, "", "the template is not in a category folder")
                .hint("move it to templates/<category>/"),
        );
    }
    findings.sort_by_key(|f| !f.is_error());
    Validation {
        findings,
        analysis: GraphAnalysis::default(),
        input_rows: Default::default(),
        columns_at: Default::default(),
        tables: Default::default(),
    }
}
