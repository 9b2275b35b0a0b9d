//! Plans as the editor sends them (their text): the catalog, block search, validate, dry-run,
//! the graph view and registration.

use std::collections::BTreeMap;
use std::collections::HashMap;
use std::sync::Arc;

use indexmap::IndexMap;
use planwright_catalog::{Lookup, TypeDecl};
use planwright_designs::{RegisterError, RegisterOutcome};
use planwright_plan::source_map::SourceMap;
use planwright_plan::{edit, load_plan, LoadError, LoadedPlan, Node, NodeRole, Plan};
use planwright_retrieval::{Retriever, SearchOptions, DEFAULT_TOP_K, TOP_K_RANGE};
use planwright_validate::{
    dry_run_validated, validate_loaded_with_files, validate_plan, EdgeKind, GraphAnalysis, Validation,
};
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use crate::error::{ApiError, ApiMessage, ErrorCode};
use crate::types::*;
use crate::{ModelServices, Studio};

impl Studio {
    /// Every block of the catalog, in catalog order.
    pub async fn catalog(&self) -> Result<Vec<BlockInfo>, ApiError> {
        Ok(self.inner.catalog.blocks().map(block_info).collect())
    }

    /// The blocks that fit an instruction: BM25, fused with embeddings when a model serves them.
    pub async fn search_blocks(&self, request: SearchRequest) -> Result<SearchResponse, ApiError> {
        let top_k = request.top_k.unwrap_or(DEFAULT_TOP_K).clamp(*TOP_K_RANGE.start(), *TOP_K_RANGE.end());
        let (retriever, mut warnings) = self.retriever(&self.model_services().await);
        let options = SearchOptions { top_k, pinned: Vec::new() };
        let result = if retriever.has_embeddings() {
            retriever.search(&request.query, &options, &CancellationToken::new()).await
        } else {
            retriever.search_bm25(&request.query, &options)
        }
        .map_err(|e| ApiError::invalid(e.to_string()))?;
        warnings.extend(result.warnings);
        Ok(SearchResponse {
            hits: result
                .hits
                .into_iter()
                .map(|h| SearchHit { id: h.id, score: h.score, category: h.category, why: h.why })
                .collect(),
            method: result.method.name().to_owned(),
            warnings,
        })
    }

    /// The catalog's retriever for these model services: built once, and again only when the
    /// provider or embedding model changes.
    pub(crate) fn retriever(&self, services: &ModelServices) -> (Arc<Retriever>, Vec<String>) {
        let key = services.retriever_key().map(str::to_owned);
        let mut kept = self.inner.retriever.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, retriever)) = kept.as_ref().filter(|(built_for, _)| *built_for == key) {
            return (Arc::clone(retriever), services.problem_warning().into_iter().collect());
        }
        let (retriever, warnings) = services.retriever(&self.inner.catalog);
        let retriever = Arc::new(retriever);
        // One that could not open its embedding cache is not kept: the next search tries again.
        if retriever.has_embeddings() == key.is_some() {
            *kept = Some((key, Arc::clone(&retriever)));
        }
        (retriever, warnings)
    }

    pub async fn validate(&self, request: PlanText) -> Result<ValidateResponse, ApiError> {
        let _span = tracing::info_span!("validate").entered();
        Ok(match load_plan(&request.text) {
            Err(error) => unreadable(&error),
            Ok(loaded) => {
                let validation = self.check(&loaded);
                ValidateResponse { valid: validation.is_valid(), findings: findings(&validation) }
            }
        })
    }

    pub async fn dry_run(&self, request: PlanText) -> Result<DryRunResponse, ApiError> {
        let _span = tracing::info_span!("dry_run").entered();
        let loaded = match load_plan(&request.text) {
            Err(error) => {
                let ValidateResponse { valid, findings } = unreadable(&error);
                return Ok(DryRunResponse {
                    valid,
                    findings,
                    order: Vec::new(),
                    steps: Vec::new(),
                    estimate: None,
                    columns: Default::default(),
                });
            }
            Ok(loaded) => loaded,
        };
        let validation = self.check(&loaded);
        let Some(plan) = &loaded.plan else {
            return Ok(DryRunResponse {
                valid: false,
                findings: findings(&validation),
                order: Vec::new(),
                steps: Vec::new(),
                estimate: None,
                columns: Default::default(),
            });
        };
        let columns = columns_by_field(plan, &validation);
        let mut run = dry_run_validated(plan, &self.inner.catalog, &self.designs(), validation);
        loaded.annotate(&mut run.validation.findings);
        let valid = run.validation.is_valid();
        let mut order: Vec<Vec<String>> = Vec::new();
        for step in run.steps.iter().filter(|s| s.depth == 0) {
            if order.len() <= step.level {
                order.resize(step.level + 1, Vec::new());
            }
            order[step.level].push(step.id.clone());
        }
        Ok(DryRunResponse {
            valid,
            findings: findings(&run.validation),
            order,
            steps: run.steps,
            estimate: valid.then_some(run.estimate),
            columns,
        })
    }

    /// Validates, then writes the plan into `designs/` as `<plan_id>_<yyyymmddHHMM>.yaml`.
    pub async fn register(&self, request: PlanText) -> Result<RegisterResponse, ApiError> {
        let _span = tracing::info_span!("register").entered();
        let loaded = load_plan(&request.text).map_err(|e| {
            ApiError::invalid(format!("not registered: {e}"))
                .with_hint("fix the plan text, then register again")
                .saying(ApiMessage::PlanUnreadable { detail: e.to_string() })
        })?;
        let validation = self.check(&loaded);
        let plan = match &loaded.plan {
            Some(plan) if validation.is_valid() => plan,
            _ => {
                let errors: Vec<Finding> = validation.errors().map(Finding::from).collect();
                let mut error = ApiError::invalid(format!("not registered: the plan has {} error(s)", errors.len()))
                    .with_hint(summary(&errors))
                    .saying(ApiMessage::NotRegisteredErrors { count: errors.len() as u64 });
                error.findings = errors;
                return Err(error);
            }
        };
        let now = time::OffsetDateTime::now_local().unwrap_or_else(|_| time::OffsetDateTime::now_utc());
        let designs = self.designs();
        let (path, already_registered) = match designs.register(&plan.id, loaded.text(), now) {
            Ok(RegisterOutcome::Written(path)) => (path, false),
            Ok(RegisterOutcome::AlreadyRegistered(path)) => (path, true),
            Err(error @ RegisterError::Conflict { .. }) => {
                let RegisterError::Conflict { path } = &error else { unreachable!("matched as a conflict") };
                let said = ApiMessage::RegistrationNameTaken { path: path.display().to_string() };
                return Err(ApiError::new(ErrorCode::Conflict, error.to_string()).saying(said));
            }
            // The folder or the disk failed us, not the plan.
            Err(error @ RegisterError::Io { .. }) => {
                return Err(ApiError::internal(error.to_string())
                    .with_hint("check that the workspace's designs folder is writable and the disk not full"))
            }
            Err(error) => return Err(ApiError::invalid(error.to_string())),
        };
        tracing::info!(file = %path.display(), already_registered, "registered");
        let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        Ok(RegisterResponse { file, path: path.display().to_string(), already_registered })
    }

    /// Edits the plan's text on its parsed document (`planwright_plan::edit`), keeping the rest
    /// as written; the edited text reads back as a plan with the change made.
    pub async fn edit_plan(&self, request: PlanEditRequest) -> Result<PlanEdited, ApiError> {
        let text = request.text.as_str();
        let (edited, node) = match request.edit {
            PlanEdit::AddBlock { block } => {
                let Lookup::Found(spec) = self.inner.catalog.lookup(&block) else {
                    return Err(ApiError::invalid(format!("the catalog has no block `{block}`"))
                        .with_hint("pick a block from the catalog")
                        .saying(ApiMessage::UnknownBlock { block }));
                };
                let node = block_node(spec, text);
                let id = node["id"].as_str().map(str::to_owned);
                (edit::insert_node(text, &node), id)
            }
            PlanEdit::InsertNode { node } => {
                let id = node.get("id").and_then(Value::as_str).map(str::to_owned);
                (edit::insert_node(text, &node), id)
            }
            PlanEdit::SetInput { node, input, value } => (edit::set_input(text, &node, &input, &value), None),
            PlanEdit::SetVar { name, value } => (edit::set_var(text, &name, &value), None),
        };
        let edited = edited.map_err(|e| {
            ApiError::invalid(e.to_string())
                .with_hint("make the change in the text")
                .saying(ApiMessage::EditRefused { detail: e.to_string() })
        })?;
        let at = edited.text[..edited.at].encode_utf16().count();
        Ok(PlanEdited { text: edited.text, at, node })
    }

    /// The nodes and edges the graph view draws, from as much of the text as parses: references
    /// in inputs, conditions and loop inputs, `after`, loop bodies as children.
    pub async fn plan_graph(&self, request: PlanText) -> Result<PlanGraph, ApiError> {
        let loaded = load_plan(&request.text).map_err(|e| {
            ApiError::invalid(format!("the graph cannot be drawn: {e}"))
                .with_hint("fix the YAML at that line")
                .saying(ApiMessage::PlanUnreadable { detail: e.to_string() })
        })?;
        Ok(graph(&loaded, |plan| validate_plan(plan, &self.inner.catalog, &self.designs()).analysis))
    }

    /// Validates a plan, with the columns of the workspace's input files (the run's work folder).
    fn check(&self, loaded: &LoadedPlan) -> Validation {
        let files = crate::WorkFolderFiles::new(self.workspace());
        validate_loaded_with_files(loaded, &self.inner.catalog, &self.designs(), &files)
    }
}

/// The validator's columns at each field (`/graph/2/in/by/0`), keyed by the node's id instead of
/// its index (`totals/by/0`), as the inspector finds its fields.
fn columns_by_field(plan: &planwright_plan::Plan, validation: &Validation) -> BTreeMap<String, Vec<String>> {
    validation
        .columns_at
        .iter()
        .filter_map(|(pointer, columns)| {
            let rest = pointer.strip_prefix("/graph/")?;
            let (index, field) = rest.split_once("/in/")?;
            let node = plan.graph.get(index.parse::<usize>().ok()?)?;
            Some((format!("{}/{field}", node.id), columns.iter().map(|c| c.name.clone()).collect()))
        })
        .collect()
}

fn findings(validation: &Validation) -> Vec<Finding> {
    validation.findings.iter().map(Finding::from).collect()
}

/// A text that is not YAML or not a plan: one finding, code `unreadable`, at the YAML error.
fn unreadable(error: &LoadError) -> ValidateResponse {
    let (line, column) = match error {
        LoadError::Yaml { line, column, .. } => (Some(*line), Some(*column)),
        _ => (None, None),
    };
    ValidateResponse {
        valid: false,
        findings: vec![Finding {
            code: "unreadable".into(),
            severity: Severity::Error,
            node: None,
            field: None,
            message: error.to_string(),
            hint: Some("fix the text at that place so that it reads as a YAML plan".into()),
            candidates: Vec::new(),
            path: String::new(),
            line,
            column,
        }],
    }
}

/// The first errors, one per line, for a person reading an error message.
fn summary(errors: &[Finding]) -> String {
    let mut lines: Vec<String> = errors
        .iter()
        .take(5)
        .map(|f| match f.line {
            Some(line) => format!("line {line}: {}", f.message),
            None => f.message.clone(),
        })
        .collect();
    if errors.len() > 5 {
        lines.push(format!("… and {} more (validate shows them all)", errors.len() - 5));
    }
    lines.join("\n")
}

fn block_info(spec: &planwright_catalog::BlockSpec) -> BlockInfo {
    let ports = |ports: &IndexMap<String, TypeDecl>| -> Vec<PortInfo> {
        ports.iter().map(|(name, port)| port_info(name, port)).collect()
    };
    BlockInfo {
        id: spec.id.clone(),
        version: spec.version.to_string(),
        category: spec.category.clone(),
        title: Localized { en: spec.title.en.clone(), ja: spec.title.ja.clone() },
        description: Localized { en: spec.description.en.clone(), ja: spec.description.ja.clone() },
        tags: LocalizedList { en: spec.tags.en.clone(), ja: spec.tags.ja.clone() },
        inputs: ports(&spec.inputs),
        outputs: ports(&spec.outputs),
        resource: spec.resource.and_then(|r| serde_json::to_value(r).ok()).and_then(|v| v.as_str().map(str::to_owned)),
    }
}

/// A port's description in both languages (written `{en, ja}`, or in English alone and then
/// shown as it is in both); empty when it has none.
pub(crate) fn localized(port: &TypeDecl) -> Localized {
    match port.description.as_ref().and_then(|d| serde_json::to_value(d).ok()) {
        Some(Value::String(en)) => Localized { en: en.clone(), ja: en },
        Some(Value::Object(both)) => {
            let text = |lang: &str| both.get(lang).and_then(Value::as_str).unwrap_or_default().to_owned();
            Localized { en: text("en"), ja: text("ja") }
        }
        _ => Localized { en: String::new(), ja: String::new() },
    }
}

fn port_info(name: &str, port: &TypeDecl) -> PortInfo {
    PortInfo {
        name: name.to_owned(),
        ty: port.ty().to_string(),
        required: port.required,
        default: port.default.clone(),
        description: localized(port),
        options: port.allowed.clone(),
        fields: port
            .items
            .as_deref()
            .unwrap_or(port)
            .properties
            .iter()
            .flatten()
            .map(|(name, field)| port_info(name, field))
            .collect(),
    }
}

/// The graph of a plan document as far as it reads (`LoadedPlan::readable_plan`), loops'
/// bodies included, each node named by its path; kinds from the nodes' roles and edges from the
/// validator's analysis — the dependencies the engine runs by.
fn graph(loaded: &LoadedPlan, analysis_of: impl FnOnce(&Plan) -> GraphAnalysis) -> PlanGraph {
    let mut out = PlanGraph { nodes: Vec::new(), edges: Vec::new() };
    let Some(plan) = loaded.readable_plan() else { return out };
    let analysis = analysis_of(&plan);
    let lines = node_lines(loaded);
    let mut pending: Vec<(&[Node], &GraphAnalysis, Option<String>)> = vec![(&plan.graph, &analysis, None)];
    while let Some((nodes, analysis, parent)) = pending.pop() {
        let prefix = parent.as_ref().map_or(String::new(), |p| format!("{p}/"));
        let path = |index: usize| format!("{prefix}{}", nodes[index].id);
        for (index, node) in nodes.iter().enumerate() {
            let id = path(index);
            let kind = match node.role() {
                Some(NodeRole::Loop) => GraphNodeKind::Loop,
                Some(NodeRole::Subflow) => GraphNodeKind::Call,
                Some(NodeRole::Block(_)) | None => GraphNodeKind::Block,
            };
            out.nodes.push(GraphNode {
                id: id.clone(),
                block: node.block.clone(),
                kind,
                parent: parent.clone(),
                line: lines.get(&id).copied(),
            });
            if let Some(body) = analysis.bodies.get(&index) {
                pending.push((node.body_graph(), body, Some(id)));
            }
        }
        // A node reading its own outputs is a cycle the findings report; it is not drawn.
        for edge in analysis.edges.iter().filter(|e| e.from != e.to) {
            let kind = match edge.kind {
                EdgeKind::Data => GraphEdgeKind::Data,
                EdgeKind::After => GraphEdgeKind::After,
                // The order browser steps take on the one browser is not drawn.
                EdgeKind::Browser => continue,
            };
            out.edges.push(GraphEdge { from: path(edge.from), to: path(edge.to), kind });
        }
    }
    out
}

/// A new node for `spec` in the plan `text`: an id and aliases not used yet in it, the required
/// inputs with their defaults (else empty, for the person to fill), every output bound.
fn block_node(spec: &planwright_catalog::BlockSpec, text: &str) -> Value {
    let document = load_plan(text).map(|loaded| loaded.document).unwrap_or(Value::Null);
    let mut ids = Vec::new();
    let mut aliases = Vec::new();
    let mut graphs = vec![document.get("graph")];
    while let Some(Some(Value::Array(nodes))) = graphs.pop() {
        for node in nodes {
            ids.extend(node.get("id").and_then(Value::as_str).map(str::to_owned));
            if let Some(Value::Object(out)) = node.get("out") {
                aliases.extend(out.values().filter_map(Value::as_str).map(str::to_owned));
            }
            graphs.push(node.pointer("/body/plan/graph"));
        }
    }
    let unused = |base: &str, taken: &mut Vec<String>| {
        let name = std::iter::once(base.to_owned())
            .chain((2..).map(|n| format!("{base}_{n}")))
            .find(|name| !taken.contains(name))
            .unwrap_or_default();
        taken.push(name.clone());
        name
    };
    let base =
        spec.id.rsplit('.').next().unwrap_or("step").replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_");
    let mut node = serde_json::Map::new();
    node.insert("id".into(), Value::String(unused(&base, &mut ids)));
    node.insert("block".into(), Value::String(spec.id.clone()));
    let inputs: serde_json::Map<String, Value> = spec
        .inputs
        .iter()
        .filter(|(_, port)| port.required)
        .map(|(name, port)| (name.clone(), port.default.clone().unwrap_or(Value::Null)))
        .collect();
    if !inputs.is_empty() {
        node.insert("in".into(), Value::Object(inputs));
    }
    let outputs: serde_json::Map<String, Value> =
        spec.outputs.keys().map(|key| (key.clone(), Value::String(unused(key, &mut aliases)))).collect();
    if !outputs.is_empty() {
        node.insert("out".into(), Value::Object(outputs));
    }
    Value::Object(node)
}

/// The line of each node of the document, by its path.
fn node_lines(loaded: &LoadedPlan) -> HashMap<String, u32> {
    let map = SourceMap::build(loaded.text());
    let mut lines = HashMap::new();
    let mut pending = vec![(loaded.document.get("graph"), "/graph".to_owned(), String::new())];
    while let Some((Some(Value::Array(nodes)), pointer, prefix)) = pending.pop() {
        for (index, node) in nodes.iter().enumerate() {
            let Some(id) = node.get("id").and_then(Value::as_str) else { continue };
            let at = format!("{pointer}/{index}");
            if let Some(position) = map.locate(&at) {
                lines.insert(format!("{prefix}{id}"), position.line);
            }
            pending.push((node.pointer("/body/plan/graph"), format!("{at}/body/plan/graph"), format!("{prefix}{id}/")));
        }
    }
    lines
}
