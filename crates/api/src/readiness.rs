//! The check before a run: everything a run needs — values for its vars, its secrets, the input
//! files it reads, a model for the steps that need one, a browser for browser steps — looked at
//! in one go, so that a person sees what is missing before anything starts, not a failure 30 s
//! into the run. `start_run` refuses a run whose check finds a problem; the studio also holds
//! the values of plan secrets (`set_secret`), as it holds the model keys.

use std::path::{Component, Path, PathBuf};

use planwright_catalog::{Catalog, Resource, TypeDecl};
use planwright_llm::Secret;
use planwright_plan::{load_plan, Node, Plan, Root, Template};
use serde_json::{Map, Value};

use crate::error::{ApiError, ApiMessage};
use crate::keys::{self, RunSecrets};
use crate::plans::localized;
use crate::types::*;
use crate::Studio;

impl Studio {
    /// What the run `request` describes needs, and what of it is missing. Blocking work (the
    /// keyring, the file system) runs off the async runtime.
    pub async fn check_run(&self, request: StartRunRequest) -> Result<RunReadiness, ApiError> {
        let (plan_text, _) = self.plan_of(&request.plan).await?;
        let services = self.model_services().await;
        let studio = self.clone();
        tokio::task::spawn_blocking(move || {
            let needs = RunNeeds::read(&studio, &plan_text, &request.vars)?;
            Ok(needs.readiness(&studio, &services))
        })
        .await
        .map_err(|e| ApiError::internal(format!("checking the run stopped: {e}")))?
    }

    /// Stores the value of the plan secret `name` (the OS keyring, else the key file readable by
    /// the user alone). The value is never shown back: the answer says only where it went.
    pub async fn set_secret(&self, name: String, request: SecretValue) -> Result<SecretStatus, ApiError> {
        check_secret_name(&name)?;
        if request.value.is_empty() {
            return Err(ApiError::invalid(format!("the value of secret `{name}` is empty"))
                .with_hint("type the value, or forget the secret to remove a stored one")
                .saying(ApiMessage::SecretValueEmpty { name: name.clone() }));
        }
        let studio = self.clone();
        tokio::task::spawn_blocking(move || {
            let place =
                keys::store_secret(studio.data_home(), studio.inner.key_store, &name, &Secret::new(request.value))?;
            tracing::info!(secret = %name, ?place, "secret stored");
            Ok(SecretStatus { name, place: Some(place) })
        })
        .await
        .map_err(|e| ApiError::internal(format!("storing the secret stopped: {e}")))?
    }

    /// Forgets the stored value of the plan secret `name`; one the environment sets stays.
    pub async fn forget_secret(&self, name: String) -> Result<SecretStatus, ApiError> {
        check_secret_name(&name)?;
        let studio = self.clone();
        tokio::task::spawn_blocking(move || {
            keys::forget_secret(studio.data_home(), studio.inner.key_store, &name)?;
            let place =
                RunSecrets::load(studio.data_home(), studio.inner.key_store, std::slice::from_ref(&name)).place(&name);
            Ok(SecretStatus { name, place })
        })
        .await
        .map_err(|e| ApiError::internal(format!("forgetting the secret stopped: {e}")))?
    }

    /// The secrets a run of this plan gets: the environment's, then the stored ones. Blocking.
    pub(crate) fn run_secrets(&self, names: &[String]) -> RunSecrets {
        RunSecrets::load(self.data_home(), self.inner.key_store, names)
    }
}

/// A secret's name as plans write it (letters, digits and `_`, not starting with a digit, as
/// `planwright_plan::SECRET_NAME_PATTERN` says): anything else cannot be one of a plan's
/// secrets, and could name other entries of the keyring.
fn check_secret_name(name: &str) -> Result<(), ApiError> {
    let valid = !name.is_empty()
        && name.len() <= 64
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    if valid {
        Ok(())
    } else {
        Err(ApiError::invalid(format!("`{name}` is not a secret name"))
            .with_hint("secret names are letters, digits and _, as the plan's `secrets` list has them")
            .saying(ApiMessage::NotASecretName { name: name.to_owned() }))
    }
}

/// What one plan needs from the world before it runs.
struct RunNeeds {
    plan: Plan,
    /// Each var with the value the run would use.
    vars: Vec<(String, Value, Value)>,
    workspace: PathBuf,
}

impl RunNeeds {
    fn read(studio: &Studio, plan_text: &str, given: &Map<String, Value>) -> Result<RunNeeds, ApiError> {
        let loaded = load_plan(plan_text).map_err(|e| {
            ApiError::invalid(format!("the plan cannot be read: {e}"))
                .saying(ApiMessage::PlanUnreadable { detail: e.to_string() })
        })?;
        let plan = loaded.plan.ok_or_else(|| {
            ApiError::invalid("the text is not a plan")
                .with_hint("open the plan in Design and fix what validation shows")
                .saying(ApiMessage::NotAPlan)
        })?;
        let vars = plan
            .vars
            .iter()
            .map(|(name, default)| {
                let value = given.get(name).cloned().unwrap_or_else(|| default.clone());
                (name.clone(), default.clone(), value)
            })
            .collect();
        Ok(RunNeeds { plan, vars, workspace: studio.workspace() })
    }

    fn readiness(&self, studio: &Studio, services: &crate::ModelServices) -> RunReadiness {
        let catalog = &studio.inner.catalog;
        let mut problems = Vec::new();
        let vars: Vec<RunVar> =
            self.vars.iter().map(|(name, default, value)| self.var(catalog, name, default, value)).collect();
        for var in vars.iter().filter(|v| v.missing) {
            problems.push(ReadinessProblem::new(
                ReadinessCode::VarMissing,
                &var.name,
                format!("var `{}` has no value", var.name),
            ));
        }
        let secrets = studio.run_secrets(&self.plan.secrets);
        let secrets: Vec<SecretStatus> = self
            .plan
            .secrets
            .iter()
            .map(|name| SecretStatus { name: name.clone(), place: secrets.place(name) })
            .collect();
        for secret in secrets.iter().filter(|s| s.place.is_none()) {
            problems.push(ReadinessProblem::new(
                ReadinessCode::SecretMissing,
                &secret.name,
                format!("secret `{}` has no value", secret.name),
            ));
        }
        let files = self.input_files(catalog);
        for file in files.iter().filter(|f| !f.present) {
            problems.push(ReadinessProblem::new(
                ReadinessCode::FileMissing,
                &file.path,
                format!("`{}` reads {}, which is not in the work folder", file.node, file.path),
            ));
        }
        let uses = |test: &dyn Fn(&planwright_catalog::BlockSpec) -> bool| {
            block_nodes(&self.plan.graph).filter_map(|(_, block)| catalog.get(block)).any(test)
        };
        let model = uses(&|spec| spec.work.model_calls > 0).then(|| model_check(services));
        // For the model and the browser, the subject is what is wrong with them.
        if let Some(detail) = model.as_ref().filter(|c| !c.ok).and_then(|c| c.detail.clone()) {
            problems.push(ReadinessProblem::new(ReadinessCode::ModelMissing, &detail, detail.clone()));
        }
        let browser = uses(&|spec| spec.resource == Some(Resource::Browser)).then(|| browser_check(studio.data_home()));
        if let Some(detail) = browser.as_ref().filter(|c| !c.ok).and_then(|c| c.detail.clone()) {
            problems.push(ReadinessProblem::new(ReadinessCode::BrowserMissing, &detail, detail.clone()));
        }
        RunReadiness {
            ready: problems.is_empty(),
            plan_id: self.plan.id.clone(),
            work_folder: self.workspace.display().to_string(),
            vars,
            secrets,
            files,
            model,
            browser,
            problems,
        }
    }

    /// The var as the check shows it: typed and described by the first input it fills whole.
    fn var(&self, catalog: &Catalog, name: &str, default: &Value, value: &Value) -> RunVar {
        let port = block_nodes(&self.plan.graph).find_map(|(node, block)| {
            let spec = catalog.get(block)?;
            node.inputs
                .iter()
                .find(|(_, v)| whole_var(v).as_deref() == Some(name))
                .and_then(|(input, _)| spec.inputs.get(input))
        });
        let ty = match port {
            Some(port) => port.ty().to_string(),
            None => json_type(default).to_owned(),
        };
        let missing = value.is_null() || (default.is_null() && value.as_str().is_some_and(|s| s.trim().is_empty()));
        RunVar {
            name: name.to_owned(),
            value: value.clone(),
            default: default.clone(),
            file: port.is_some_and(|p| p.ty().to_string() == "file" || p.reads_file),
            description: port.and_then(description),
            ty,
            missing,
        }
    }

    /// Every file an input marked `reads_file` names, literally or through a var, and whether it
    /// is there. Paths made at run time (another node's output) are the run's own business.
    fn input_files(&self, catalog: &Catalog) -> Vec<InputFile> {
        let mut files = Vec::new();
        for (node, block) in block_nodes(&self.plan.graph) {
            let Some(spec) = catalog.get(block) else { continue };
            for input in spec.inputs.iter().filter(|(_, p)| p.reads_file).map(|(input, _)| input) {
                let Some(value) = node.inputs.get(input) else { continue };
                let paths: Vec<&Value> = match self.resolved(value) {
                    Some(Value::Array(items)) => items.iter().collect(),
                    Some(other) => vec![other],
                    None => continue,
                };
                for path in paths.into_iter().filter_map(|p| p.as_str()).filter(|p| !p.contains("${")) {
                    // Steps may not read outside the work folder: such a path is never "there".
                    let inside =
                        Path::new(path).components().all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
                    files.push(InputFile {
                        node: node.id.clone(),
                        input: input.clone(),
                        path: path.to_owned(),
                        present: inside && self.workspace.join(path).is_file(),
                        var: whole_var(value),
                        meant: Vec::new(),
                    });
                }
            }
        }
        if files.iter().any(|f| !f.present) {
            let (there, _) = crate::work_folder::work_files(&self.workspace);
            for file in files.iter_mut().filter(|f| !f.present) {
                file.meant = crate::work_folder::meant(&file.path, &there);
            }
        }
        files
    }

    /// A literal value, or the value of the var it names whole; `None` for anything else.
    fn resolved<'a>(&'a self, value: &'a Value) -> Option<&'a Value> {
        match whole_var(value) {
            Some(name) => self.vars.iter().find(|(n, ..)| *n == name).map(|(.., v)| v),
            None if value.as_str().is_some_and(|s| s.contains("${")) => None,
            None => Some(value),
        }
    }
}

/// The plan's nodes with a block, loop bodies included, with the block's id (a pinned version
/// dropped).
fn block_nodes(graph: &[Node]) -> Box<dyn Iterator<Item = (&Node, &str)> + '_> {
    Box::new(graph.iter().flat_map(|node| {
        let own = node.block.as_deref().map(|b| (node, b.split('@').next().unwrap_or(b)));
        let body = node.body.iter().flat_map(|body| block_nodes(&body.plan.graph));
        own.into_iter().chain(body)
    }))
}

/// `name` when `value` is exactly `${vars.name}`.
fn whole_var(value: &Value) -> Option<String> {
    match Template::parse(value.as_str()?).ok()? {
        Template::Single(mut reference) if reference.root == Root::Vars && reference.path.len() == 1 => {
            reference.path.pop()
        }
        _ => None,
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
        _ => "string",
    }
}

fn description(port: &TypeDecl) -> Option<Localized> {
    let text = localized(port);
    (!text.en.is_empty()).then_some(text)
}

fn model_check(services: &crate::ModelServices) -> NeedCheck {
    match (services.client(), services.problem()) {
        (Some(_), None) => NeedCheck { ok: true, detail: None },
        (_, Some(problem)) => NeedCheck { ok: false, detail: Some(problem.to_owned()) },
        (None, None) => {
            NeedCheck { ok: false, detail: Some("no language model is configured; set one up in Settings".into()) }
        }
    }
}

/// The browser a run would launch: the one set in Settings, `$CHROME`, or Debian's Chromium; a
/// browser to attach to (`PLANWRIGHT_BROWSER_WS`) is taken as there.
fn browser_check(data_home: &Path) -> NeedCheck {
    match browser_path(data_home) {
        Ok(_) => NeedCheck { ok: true, detail: None },
        Err(detail) => NeedCheck { ok: false, detail: Some(detail) },
    }
}

/// Where the browser runs use is (see [`browser_check`]), or why there is none.
pub(crate) fn browser_path(data_home: &Path) -> Result<String, String> {
    if let Some(address) = std::env::var("PLANWRIGHT_BROWSER_WS").ok().filter(|v| !v.trim().is_empty()) {
        return Ok(format!("the running browser at {address}"));
    }
    match crate::settings::read_studio_file(data_home).ok().and_then(|f| f.browser_path) {
        Some(path) if Path::new(&path).is_file() => Ok(path),
        Some(path) => Err(format!("the browser set in Settings, {path}, is not there")),
        None => planwright_browser::find_chromium().map(|p| p.display().to_string()).map_err(|e| e.to_string()),
    }
}
