//! What a plan still needs to know (seed 002 §7, `build_requirements`): each open value as a
//! question in the instruction's language, in the human-input protocol's `Requirement` shape
//! (the same one `ui.interactive_input` asks with), and what answering it fills.
//!
//! The rules: a `${vars.NAME}` with no value → a question of the kind its use needs (a file to
//! read with the extensions its block reads, a URL checked as one, a number, the output schema
//! of a model step as a choice of schema templates); an Excel read without a file → the file and
//! its sheet; a missing required input → a question for that input; secrets → named, never
//! asked for here (their values live in the key store).

use indexmap::IndexMap;
use planwright_catalog::types::Description;
use planwright_catalog::Catalog;
use planwright_plan::{Code, Finding, Node, Plan};
use planwright_runs::{FieldType, Requirement, Validation as AnswerCheck};
use serde::Serialize;
use serde_json::{json, Value};

use crate::reading::Language;

/// What answering a requirement fills.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Target {
    /// A plan var (`vars.NAME`).
    Var { name: String },
    /// One input of one node.
    Input { node: String, field: String },
    /// A secret: named so a person sets it where secrets live; its value is never asked here.
    Secret { name: String },
    /// A part of the job the instruction does not say (`read`, `do` or `write`): the answer is
    /// added to the instruction and the plan designed again.
    Instruction { part: String },
}

/// One open question of a generated plan.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct DesignRequirement {
    #[serde(flatten)]
    pub requirement: Requirement,
    pub target: Target,
}

impl DesignRequirement {
    /// Whether a person answers it in the design chat (secrets are set elsewhere).
    pub fn asked(&self) -> bool {
        !matches!(self.target, Target::Secret { .. })
    }
}

/// The schema templates offered for a model step without an answer format.
pub const SCHEMA_TEMPLATES: [&str; 4] = ["classification", "extraction", "summary", "yes_no"];

/// The output schema a schema template stands for.
pub fn schema_template(name: &str) -> Option<Value> {
    let item = |properties: Value, required: Value| {
        json!({ "type": "object", "required": ["items"], "properties": { "items": { "type": "array", "items": {
            "type": "object", "required": required, "properties": properties } } } })
    };
    Some(match name {
        "classification" => item(
            json!({ "item": { "type": "string" }, "category": { "type": "string" }, "reason": { "type": "string" } }),
            json!(["item", "category", "reason"]),
        ),
        "extraction" => {
            item(json!({ "file": { "type": "string" }, "fields": { "type": "object" } }), json!(["file", "fields"]))
        }
        "summary" => {
            json!({ "type": "object", "required": ["summary"], "properties": { "summary": { "type": "string" } } })
        }
        "yes_no" => item(
            json!({ "item": { "type": "string" }, "answer": { "type": "boolean" }, "reason": { "type": "string" } }),
            json!(["item", "answer", "reason"]),
        ),
        _ => return None,
    })
}

/// The requirements of `plan` and of the errors `findings` name, in the order the plan uses
/// them.
pub fn build_requirements(
    plan: &Plan,
    findings: &[Finding],
    catalog: &Catalog,
    language: Language,
) -> Vec<DesignRequirement> {
    let mut out: Vec<DesignRequirement> = Vec::new();
    let uses = var_uses(plan, catalog);
    for (name, value) in &plan.vars {
        if !value.is_null() {
            continue;
        }
        let use_ = uses.get(name.as_str());
        let requirement = var_requirement(name, use_, language);
        out.push(DesignRequirement { requirement, target: Target::Var { name: name.clone() } });
        if let Some(VarUse { block, node, field, .. }) = use_ {
            if block == "excel.read_data" && field == "path" && !node_has_input(plan, node, "sheet") {
                out.push(DesignRequirement {
                    requirement: Requirement {
                        id: format!("{node}.sheet"),
                        field: FieldType::Text,
                        label: Some(language.pick("Sheet name", "シート名").into()),
                        description: Some(
                            language
                                .pick(
                                    "The sheet to read; leave empty for the first sheet.",
                                    "読み込むシート。空欄なら先頭のシートを読みます。",
                                )
                                .into(),
                        ),
                        required: false,
                        hint: Some(language.pick("e.g. Sheet1", "例：Sheet1").into()),
                        ..blank()
                    },
                    target: Target::Input { node: node.clone(), field: "sheet".into() },
                });
            }
        }
    }
    for finding in findings.iter().filter(|f| f.code == Code::MissingInput && f.is_error()) {
        let (Some(node), Some(field)) = (&finding.node, &finding.field) else { continue };
        let field = field.trim_start_matches("in.").to_owned();
        let id = format!("{node}.{field}");
        if out.iter().any(|r| r.requirement.id == id) {
            continue;
        }
        let description = block_of(plan, node)
            .and_then(|b| catalog.get(&b))
            .and_then(|spec| spec.inputs.get(&field))
            .and_then(|p| p.description.as_ref())
            .map(|d| describe(d, language));
        out.push(DesignRequirement {
            requirement: Requirement {
                id,
                field: FieldType::Text,
                label: Some(format!("{node}: {field}")),
                description: description.or_else(|| Some(finding.message.clone())),
                required: true,
                hint: finding.hint.clone(),
                ..blank()
            },
            target: Target::Input { node: node.clone(), field },
        });
    }
    for name in &plan.secrets {
        out.push(DesignRequirement {
            requirement: Requirement {
                id: name.clone(),
                field: FieldType::Text,
                label: Some(secret_label(name, language)),
                description: Some(
                    language
                        .pick(
                            "A secret: set its value in the key store (Settings → Secrets) or the environment, never in the plan.",
                            "秘密情報です。値はプランではなく、キーストア（設定 → シークレット）か環境変数に設定してください。",
                        )
                        .into(),
                ),
                required: true,
                ..blank()
            },
            target: Target::Secret { name: name.clone() },
        });
    }
    out
}

fn blank() -> Requirement {
    Requirement {
        id: String::new(),
        field: FieldType::Text,
        label: None,
        description: None,
        options: Vec::new(),
        required: true,
        accept: None,
        hint: None,
        validation: None,
    }
}

/// Where a var is first used as a whole input value.
struct VarUse {
    node: String,
    block: String,
    /// The top-level input, or `conditions.field` / `aggregations.field` / `by` inside one.
    field: String,
    /// The port's description.
    description: Option<Description>,
}

fn var_uses(plan: &Plan, catalog: &Catalog) -> IndexMap<String, VarUse> {
    let mut uses = IndexMap::new();
    let mut visit = |node: &Node| {
        let Some(block) = node.block.as_deref() else { return };
        let spec = catalog.get(block.split('@').next().unwrap_or(block));
        for (field, value) in &node.inputs {
            let mut found: Vec<(String, String)> = Vec::new();
            collect_vars(value, field, &mut found);
            for (var, place) in found {
                uses.entry(var).or_insert_with(|| VarUse {
                    node: node.id.clone(),
                    block: block.to_owned(),
                    description: spec.and_then(|s| s.inputs.get(field)).and_then(|p| p.description.clone()),
                    field: place,
                });
            }
        }
    };
    for node in &plan.graph {
        visit(node);
        node.body_graph().iter().for_each(&mut visit);
    }
    uses
}

fn collect_vars(value: &Value, place: &str, found: &mut Vec<(String, String)>) {
    match value {
        Value::String(s) => {
            for reference in planwright_plan::reference::scan_references(s).flatten() {
                if reference.root == planwright_plan::Root::Vars {
                    found.push((reference.path[0].clone(), place.to_owned()));
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| collect_vars(v, place, found)),
        Value::Object(map) => {
            for (key, v) in map {
                let inner = if place.contains('.') { place.to_owned() } else { format!("{place}.{key}") };
                collect_vars(v, &inner, found);
            }
        }
        _ => {}
    }
}

fn node_has_input(plan: &Plan, node: &str, input: &str) -> bool {
    plan.graph.iter().any(|n| n.id == node && n.inputs.contains_key(input))
}

fn block_of(plan: &Plan, node: &str) -> Option<String> {
    let (top, inner) = match node.split_once('/') {
        Some((top, inner)) => (top, Some(inner)),
        None => (node, None),
    };
    let top = plan.graph.iter().find(|n| n.id == top)?;
    match inner {
        Some(inner) => top.body_graph().iter().find(|n| n.id == inner)?.block.clone(),
        None => top.block.clone(),
    }
}

fn describe(description: &Description, language: Language) -> String {
    match (description, language) {
        (Description::Localized { ja, .. }, Language::Ja) => ja.clone(),
        (d, _) => d.en().to_owned(),
    }
}

fn secret_label(name: &str, language: Language) -> String {
    let what = match (name, language) {
        (crate::credentials::PASSWORD, Language::En) => "the login password",
        (crate::credentials::PASSWORD, Language::Ja) => "ログインのパスワード",
        (crate::credentials::USER, Language::En) => "the login user name",
        (crate::credentials::USER, Language::Ja) => "ログインのユーザー名",
        (crate::credentials::TOKEN, Language::En) => "the API token",
        (crate::credentials::TOKEN, Language::Ja) => "API トークン",
        _ => name,
    };
    format!("{name} ({what})")
}

/// The question for an open var, by what its name and its use say it is.
fn var_requirement(name: &str, use_: Option<&VarUse>, language: Language) -> Requirement {
    let l = |en: &str, ja: &str| Some(language.pick(en, ja).to_owned());
    let mut r = Requirement { id: name.to_owned(), ..blank() };
    let block = use_.map_or("", |u| u.block.as_str());
    let field = use_.map_or("", |u| u.field.as_str());
    match (block, field) {
        ("file.read_csv", "path") => {
            r.field = FieldType::File;
            r.accept = Some(".csv,.tsv,.txt".into());
            r.label = l("The CSV file to read", "読み込む CSV ファイル");
            r.hint = l("e.g. data/expenses.csv", "例：経理/入金データ.csv");
        }
        ("excel.read_data", "path") => {
            r.field = FieldType::File;
            r.accept = Some(".xlsx,.xlsm,.xls".into());
            r.label = l("The Excel file to read", "読み込む Excel ファイル");
            r.hint = l("e.g. invoices.xlsx", "例：請求書一覧.xlsx");
        }
        ("file.extract_texts", _) => {
            r.field = FieldType::File;
            r.accept = Some(".pdf,.docx,.xlsx,.txt,.md".into());
            r.label = l("The documents to read (one or more)", "読み込む書類（1つ以上）");
            r.hint = l("e.g. invoices/april.pdf", "例：請求書/4月.pdf");
        }
        ("ai.process_llm", "output_schema") => {
            r.field = FieldType::Enum;
            r.options = crate::requirements::SCHEMA_TEMPLATES.iter().map(|s| (*s).to_owned()).collect();
            r.label = l("What the model should answer with", "モデルの回答の形");
            r.description = l(
                "classification: a category per item; extraction: fields per document; summary: a text; yes_no: a yes or no per item.",
                "classification：項目ごとのカテゴリ、extraction：書類ごとの項目、summary：要約文、yes_no：項目ごとの可否。",
            );
        }
        (_, "url" | "start_url") => {
            r.label = match block {
                "external.api.http" => l("The API's address", "API のアドレス"),
                _ => l("The address of the page to start from", "開始するページのアドレス"),
            };
            r.validation = Some(AnswerCheck { regex: Some(r"^https?://\S+$".into()) });
            r.hint = l("e.g. https://portal.example.com/login", "例：https://portal.example.com/login");
        }
        // A var named for its role says what it is; the input it sits in (`categories` inside a
        // model step's instruction) would describe something else.
        _ => match known_label(name, language) {
            Some(label) => r.label = Some(label),
            None => {
                r.label = Some(label_of(name, language));
                r.description = use_.and_then(|u| u.description.as_ref()).map(|d| describe(d, language));
            }
        },
    }
    if r.label.is_none() {
        r.label = Some(label_of(name, language));
    }
    if name == "year" {
        r.hint = l("e.g. 2026", "例：2026");
        r.validation = Some(AnswerCheck { regex: Some(r"^\d{4}$".into()) });
    }
    if matches!(name, "amount_column" | "status_column" | "text_column" | "match_key") {
        r.hint = match (name, language) {
            ("amount_column", Language::En) => Some("e.g. amount".into()),
            ("amount_column", Language::Ja) => Some("例：金額".into()),
            ("status_column", Language::En) => Some("e.g. status".into()),
            ("status_column", Language::Ja) => Some("例：ステータス".into()),
            ("match_key", Language::En) => Some("e.g. invoice_no".into()),
            ("match_key", Language::Ja) => Some("例：取引先コード".into()),
            _ => None,
        };
    }
    r
}

/// A label for a var: what its role says, else its name in words.
fn label_of(name: &str, language: Language) -> String {
    known_label(name, language).unwrap_or_else(|| name.replace('_', " "))
}

/// The label of a var the designer names by role.
fn known_label(name: &str, language: Language) -> Option<String> {
    let known = match name {
        "amount_column" => Some(("The column holding the amounts", "金額の列名")),
        "status_column" => Some(("The column holding the status", "ステータスの列名")),
        "text_column" => Some(("The column holding the text to search", "検索する文字列の列名")),
        "match_key" => Some(("The column both lists are matched on", "突き合わせに使う列名（キー）")),
        "partner_column" => Some((
            "A column only the second list has (empty on a row without a match)",
            "2つ目の一覧にだけある列名（突き合わなかった行では空になります）",
        )),
        "filter_conditions" => {
            Some(("The conditions rows must meet (column, operator, value)", "行を残す条件（列名・比較・値）"))
        }
        "categories" => {
            Some(("The categories to choose from, separated by commas", "分類先のカテゴリ（カンマ区切り）"))
        }
        "left_file" => Some(("The first file to match", "突き合わせる1つ目のファイル")),
        "right_file" => Some(("The second file to match", "突き合わせる2つ目のファイル")),
        "input_file" => Some(("The file to read", "読み込むファイル")),
        "year" => Some(("The year of the month to keep", "対象の月の年（西暦）")),
        "api_url" => Some(("The API's address", "API のアドレス")),
        "start_url" => Some(("The address of the page to start from", "開始するページのアドレス")),
        _ => None,
    };
    known.map(|(en, ja)| language.pick(en, ja).to_owned())
}

/// A column the engine could not bind is asked with the columns there are as its choices.
pub fn offer_columns(
    requirements: &mut [DesignRequirement],
    questions: &[crate::binding::ColumnQuestion],
    language: Language,
) {
    for question in questions {
        let asked = requirements.iter_mut().find(|r| r.target == Target::Var { name: question.var.clone() });
        let Some(asked) = asked else { continue };
        let r = &mut asked.requirement;
        r.required = true;
        r.label = Some(match language {
            Language::En => format!("Which column is \"{}\"?", question.wanted),
            Language::Ja => format!("「{}」はどの列ですか？", question.wanted),
        });
        if question.columns.is_empty() {
            // The file is not there yet: the word the instruction used is only a hint.
            r.field = FieldType::Text;
            r.hint = Some(question.wanted.clone());
            r.description = Some(
                language
                    .pick(
                        "The data is not in the work folder yet: give the column's name as the file has it, or add the file and generate again.",
                        "データが作業フォルダーにまだありません。ファイルにある列名を入力するか、ファイルを追加してからもう一度生成してください。",
                    )
                    .to_owned(),
            );
            continue;
        }
        r.field = FieldType::Select;
        r.options = question.columns.clone();
        r.description = Some(
            language
                .pick(
                    "The data has no column of that name, or more than one that could be it.",
                    "データにその名前の列がないか、当てはまりそうな列が複数あります。",
                )
                .to_owned(),
        );
    }
}
