//! Binding a plan's column names to the real columns of the work folder's files (issue 27 §2).
//!
//! The designer writes the columns the instruction names in its words ("supplier", 「取引先」)
//! and leaves the ones it does not name open (`${vars.amount_column}`). Where the files are
//! known, each name is bound to the one column it means there: the same name however spelt
//! (`PO number` is `po_number`), a name that contains the other (`invoice` → `invoice_ref`), or
//! a word of the same meaning in either language (supplier / vendor / 支払先 / 取引先; amount /
//! 金額). An open column is bound by what it is for (`amount_column` → the amount) or, for a
//! condition on a value ("approved"), by the one column whose values hold it. A name that binds
//! to no column, or to more than one, is never guessed: it becomes a question whose choices are
//! the columns there are.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use indexmap::IndexMap;
use planwright_catalog::Catalog;
use planwright_plan::reference::Reference;
use planwright_plan::{Code, Column, ColumnKind, Plan, Root, Template};
use planwright_validate::{validate_plan_with_files, InputFiles, InputTable, NoPlans, Validation};
use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

use crate::notes::DesignNote;
use crate::reading::slots::identifier;
use crate::reading::Language;
use crate::repair::{declare, split_pointer};

/// Words of one meaning, as column names are written in English and Japanese.
const SYNONYMS: &[&[&str]] = &[
    &[
        "vendor",
        "supplier",
        "payee",
        "支払先",
        "仕入先",
        "仕入れ先",
        "業者",
        "取引先",
        "支払先名",
        "仕入先名",
        "取引先名",
        "振込先",
        "送金先",
    ],
    &["customer", "client", "顧客", "得意先", "取引先", "顧客名", "得意先名", "取引先名"],
    &[
        "amount",
        "total",
        "sum",
        "value",
        "price",
        "cost",
        "spend",
        "spent",
        "spending",
        "expenditure",
        "sales",
        "revenue",
        "charge",
        "charges",
        "金額",
        "合計",
        "合計金額",
        "支払額",
        "支払金額",
        "請求額",
        "請求金額",
        "入金額",
        "税込金額",
        "取引金額",
        "売上",
        "売上高",
        "売上金額",
        "支出",
        "費用",
    ],
    &["date", "day", "日付", "年月日", "取引日", "支払日", "計上日"],
    &["month", "year month", "年月", "月", "対象月", "月度"],
    &["sales date", "sale date", "date of sale", "売上日", "販売日", "売上日付"],
    &["order date", "ordered on", "受注日", "注文日", "発注日"],
    &["invoice date", "billing date", "bill date", "請求日", "請求書日付"],
    &["due date", "payment due", "支払期日", "支払期限", "期日", "入金期日"],
    &["payment date", "paid date", "date paid", "入金日", "支払日", "振込日"],
    &["slip number", "voucher", "voucher no", "伝票番号", "伝票No"],
    &["status", "state", "状態", "ステータス", "状況", "承認状況"],
    &["department", "dept", "division", "section", "部門", "部署", "所属"],
    &["invoice", "invoice no", "invoice number", "invoice id", "請求番号", "請求書番号"],
    &["category", "type", "kind", "分類", "カテゴリ", "カテゴリー", "区分", "種別", "科目", "費目"],
    &["employee", "staff", "person", "staff member", "worker", "社員", "従業員", "氏名", "社員名", "申請者"],
    &["description", "memo", "note", "notes", "remarks", "摘要", "備考", "内容", "説明"],
    &["reference", "ref", "参照番号", "管理番号"],
    &["balance", "outstanding balance", "outstanding", "残高", "売掛残高", "未収残高"],
    &["credit limit", "credit line", "与信限度額", "与信枠", "与信額", "限度額"],
    &["customer code", "customer id", "customer no", "顧客コード", "得意先コード", "顧客番号", "得意先番号"],
    &["customer name", "client name", "顧客名", "得意先名"],
    &["vendor name", "supplier name", "payee name", "仕入先名", "支払先名"],
    &["vendor code", "supplier code", "vendor id", "supplier id", "仕入先コード", "支払先コード", "取引先コード"],
    &["employee id", "employee number", "employee no", "staff id", "社員番号", "従業員番号", "社員コード"],
    &["employee name", "staff name", "氏名", "社員名", "従業員名"],
    &["quantity", "qty", "units", "unit", "数量", "個数"],
    &["temperature", "温度"],
    &[
        "expiry",
        "expiry date",
        "expires",
        "expiration",
        "expiration date",
        "not after",
        "valid to",
        "valid until",
        "有効期限",
        "満了日",
        "満期日",
    ],
    &["environment", "env", "環境"],
    &["job title", "position", "役職", "職位"],
    &["policy number", "policy no", "証券番号", "保険証券番号"],
    &["insurer", "insurance company", "保険会社"],
    &["premium", "annual premium", "保険料", "年間保険料"],
    &["line of business", "insurance type", "保険種目", "保険種類"],
    &["budget", "budgeted", "予算", "予算額"],
    &[
        "rep",
        "sales rep",
        "salesperson",
        "representative",
        "owner",
        "assignee",
        "担当者",
        "担当",
        "営業担当",
        "担当者名",
    ],
    &["actual", "actuals", "実績", "実績額"],
    &["unit cost", "cost price", "purchase price", "仕入値", "仕入単価", "仕入価格", "仕入原価", "原価"],
    &["module", "モジュール", "モジュール名"],
    &["component", "コンポーネント", "コンポーネント名"],
    &["feature", "機能", "機能名"],
    &["result", "outcome", "結果", "判定", "テスト結果"],
    &["severity", "重要度", "深刻度"],
    &["priority", "優先度", "優先順位"],
    &["product", "item", "商品", "製品", "品目", "商品名", "製品名", "品名"],
    &["store", "shop", "店舗", "店舗名", "店"],
    &["branch", "支店", "支店名", "営業所"],
    &["region", "area", "地域", "エリア", "地区"],
    &["project", "プロジェクト", "案件"],
];

/// [`SYNONYMS`] as [`fold`] gives them, group by group: folded once, as every column name
/// compared with them is.
static FOLDED_SYNONYMS: LazyLock<Vec<Vec<String>>> =
    LazyLock::new(|| SYNONYMS.iter().map(|group| group.iter().map(|w| fold(w)).collect()).collect());

/// The groups of words of one meaning that hold `folded` (a name as [`fold`] gives it), by index.
fn synonym_groups(folded: &str) -> impl Iterator<Item = usize> + '_ {
    FOLDED_SYNONYMS.iter().enumerate().filter(move |(_, group)| group.iter().any(|w| w == folded)).map(|(i, _)| i)
}

/// Whether two names say the same column: spelt alike (`PO number`, `po_number`) or words of
/// one meaning (budget / 予算).
pub fn same_meaning(a: &str, b: &str) -> bool {
    let (a, b) = (fold(a), fold(b));
    !a.is_empty() && (a == b || synonym_groups(&a).any(|i| FOLDED_SYNONYMS[i].contains(&b)))
}

/// Whether `word` is a word column names are written in (`vendor`, 「部署」, `region`): a thing
/// rows are grouped by, whatever the file calls it.
pub fn names_a_kind_of_column(word: &str) -> bool {
    synonym_groups(&fold(word)).next().is_some()
}

/// A column the engine could not bind: asked, with the columns there are as the choices.
#[derive(Debug, Clone, PartialEq)]
pub struct ColumnQuestion {
    pub var: String,
    /// What the instruction called it, or what it is for.
    pub wanted: String,
    pub columns: Vec<String>,
}

/// What binding did: one line per decision, and the questions left.
#[derive(Debug, Clone, Default)]
pub struct Binding {
    pub notes: Vec<DesignNote>,
    pub questions: Vec<ColumnQuestion>,
    /// The places (JSON pointers) whose value the data gave.
    pub bound: Vec<String>,
    /// Words of the instruction that are values in the data and that the plan uses nowhere.
    pub unused_values: Vec<String>,
    /// Conditions on a value that no row of the data holds, nor any part of it: the words, and
    /// the column.
    pub absent_values: Vec<(String, String)>,
    /// The months (1–12) that every date of a column of the first file read falls in: said of
    /// the rows ("the April POs"), such a month keeps every row.
    pub whole_months: Vec<u32>,
}

/// Binds `plan`'s column names to the columns `files` knows, in a few rounds (a bound column
/// can make the next step's columns known).
pub fn bind_columns(
    plan: &mut Plan,
    catalog: &Catalog,
    files: &dyn InputFiles,
    value_words: &[String],
    left_out_words: &[String],
    mentioned: &[String],
    aliases: &[(String, String)],
) -> Binding {
    let mut binding = Binding::default();
    for _ in 0..4 {
        let validation = validate_plan_with_files(plan, catalog, &NoPlans, files);
        let Ok(mut doc) = serde_json::to_value(&*plan) else { break };
        if header_rows(&mut doc, &validation, &mut binding) {
            // The columns change: check again before binding names to them.
            match serde_json::from_value::<Plan>(doc) {
                Ok(read) => {
                    *plan = read;
                    continue;
                }
                Err(_) => break,
            }
        }
        if filters_before_the_match(&mut doc, &validation)
            | keys_of_no_column(&mut doc, &validation, &mut binding)
            | brought_to_be_shown(&mut doc, &validation)
        {
            match serde_json::from_value::<Plan>(doc) {
                Ok(read) => {
                    *plan = read;
                    continue;
                }
                Err(_) => break,
            }
        }
        let sides = join_side_aliases(&doc, &validation);
        let changed = bind_named(&mut doc, &validation, aliases, &sides, &mut binding)
            | bind_open(&mut doc, &validation, mentioned, &mut binding);
        match serde_json::from_value::<Plan>(doc) {
            Ok(bound) if changed => *plan = bound,
            _ => break,
        }
    }
    // (A file read named by an answered var, `${vars.input_file}`, is that file.)
    let files = &WithPathVars { files, vars: plan.vars.clone() };
    settle_values(plan, files, &mut binding);
    conditions_from_values(plan, catalog, files, value_words, left_out_words, &mut binding);
    left_out_by_filled_columns(plan, catalog, files, left_out_words, &mut binding);
    settle_year(plan, files, &mut binding);
    assume(plan, catalog, files, &mut binding);
    binding.unused_values = unused_values(plan, catalog, files, mentioned);
    binding.whole_months = whole_months(plan, files);
    binding.questions.dedup_by(|a, b| a.var == b.var);
    binding
}

/// Names of the columns of matched tables by their side ("bank amount", "ledger amount" after
/// bank.csv is matched to ledger.csv): each side's column said after a word of its file's name
/// that the other file's name lacks, as the match names it (`amount`, `amount_right` where both
/// have one); and the side's word alone, when the one column of numbers both sides have is
/// what tells them apart ("bank minus ledger").
fn join_side_aliases(doc: &Value, validation: &Validation) -> Vec<(String, String)> {
    let graph = doc.get("graph").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    let mut aliases = Vec::new();
    for node in graph {
        if node.get("block").and_then(Value::as_str) != Some("transforms.join") {
            continue;
        }
        let table = |side: &str| {
            let reference = node.pointer(&format!("/in/{side}"))?.as_str()?.strip_prefix("${")?.strip_suffix('}')?;
            let columns = validation.tables.get(reference)?;
            let file = source_file(graph, reference.split('.').next()?)?;
            Some((file, columns))
        };
        let (Some((left_file, left)), Some((right_file, right))) = (table("left"), table("right")) else { continue };
        let id = node.get("id").and_then(Value::as_str).unwrap_or_default();
        let Some(out) = validation.tables.iter().find(|(t, _)| t.split('.').next() == Some(id)).map(|(_, c)| c) else {
            continue;
        };
        let has = |columns: &[Column], name: &str| columns.iter().any(|c| c.name == name);
        let right_name = |name: &str| {
            let renamed = format!("{name}_right");
            if has(left, name) && has(out, &renamed) {
                renamed
            } else {
                name.to_owned()
            }
        };
        let (left_words, right_words) = (file_words(&left_file), file_words(&right_file));
        let shared_numbers: Vec<&Column> =
            left.iter().filter(|c| c.kind == ColumnKind::Number && has(right, &c.name)).collect();
        let sides = [
            (&left_words, &right_words, left.iter().map(|c| (c.name.clone(), c.name.clone())).collect::<Vec<_>>()),
            (&right_words, &left_words, right.iter().map(|c| (c.name.clone(), right_name(&c.name))).collect()),
        ];
        for (side, (words, other, columns)) in sides.iter().enumerate() {
            for word in words.iter().filter(|w| !other.contains(w)) {
                for (column, named) in columns.iter().filter(|(_, named)| has(out, named)) {
                    aliases.push((format!("{word} {}", column.replace('_', " ")), named.clone()));
                }
                if let [one] = shared_numbers.as_slice() {
                    let named = if side == 0 { one.name.clone() } else { right_name(&one.name) };
                    aliases.push((word.clone(), named));
                }
            }
        }
    }
    aliases
}

/// The file a table comes from: the path a read step reads, through the steps that pass its
/// rows on.
fn source_file<'a>(graph: &'a [Value], id: &'a str) -> Option<String> {
    source_file_through(graph, id, true)
}

/// The file whose rows a table still is: as `source_file`, but none once the rows were totalled
/// on the way (a row of totals per vendor is no invoice of vendor_invoices.csv).
fn file_of_the_rows<'a>(graph: &'a [Value], id: &'a str) -> Option<String> {
    source_file_through(graph, id, false)
}

fn source_file_through<'a>(graph: &'a [Value], id: &'a str, through_totals: bool) -> Option<String> {
    for (_, node) in upstream(graph, id) {
        if let Some(path) = node.pointer("/in/path").and_then(Value::as_str).filter(|p| !p.contains("${")) {
            return Some(path.rsplit(['/', '\\']).next().unwrap_or(path).to_owned());
        }
        if !through_totals && node.get("block").and_then(Value::as_str) == Some("transforms.group_by_agg") {
            return None;
        }
    }
    None
}

/// The step `id` and the steps whose rows it takes, one after another through their `items`
/// (each with its index in the graph).
fn upstream<'a>(graph: &'a [Value], id: &'a str) -> impl Iterator<Item = (usize, &'a Value)> {
    let at = |id: &str| graph.iter().position(|n| n.get("id").and_then(Value::as_str) == Some(id));
    let first = at(id).map(|i| (i, &graph[i]));
    std::iter::successors(first, move |(_, node)| {
        let id = node.pointer("/in/items")?.as_str()?.strip_prefix("${")?.split('.').next()?;
        at(id).map(|i| (i, &graph[i]))
    })
    .take(graph.len())
}

/// The first of `filters` (indices into the graph) whose conditions are left to ask and which
/// keeps rows.
fn first_open_filter_keeping_rows(
    doc: &Value,
    filters: &[(usize, bool)],
    open: &dyn Fn(&Value) -> Option<String>,
) -> Option<usize> {
    filters
        .iter()
        .filter(|(_, leaving_out)| !leaving_out)
        .map(|(i, _)| *i)
        .find(|i| doc.pointer(&format!("/graph/{i}/in/conditions")).and_then(open).is_some())
}

/// "look up the unit price … I need case no, product name, units and unit price": a column chosen
/// to be shown that the rows lack and the table looked up holds is brought by the lookup too.
fn brought_to_be_shown(doc: &mut Value, validation: &Validation) -> bool {
    let mut changed = false;
    for finding in validation.findings.iter().filter(|f| f.code == Code::UnknownColumn) {
        let Some((node, _)) = finding.path.strip_prefix("/graph/").and_then(|rest| rest.split_once("/in/columns/"))
        else {
            continue;
        };
        let Ok(node) = node.parse::<usize>() else { continue };
        let Some(graph) = doc.get("graph").and_then(Value::as_array) else { return changed };
        if graph.get(node).and_then(|n| n.get("block")).and_then(Value::as_str) != Some("transforms.select_columns") {
            continue;
        }
        let (Some(wanted), Some(here)) =
            (doc.pointer(&finding.path).and_then(Value::as_str), validation.columns_at.get(&finding.path))
        else {
            continue;
        };
        // The lookup the chosen rows come through.
        let Some(id) = graph[node].get("id").and_then(Value::as_str) else { continue };
        let joins = |(_, n): &(usize, &Value)| n.get("block").and_then(Value::as_str) == Some("transforms.join");
        let Some((lookup, _)) = upstream(graph, id).skip(1).find(joins) else { continue };
        let right = graph[lookup].pointer("/in/right").and_then(Value::as_str).and_then(reference_of);
        let Some(right_columns) = right.and_then(|r| validation.tables.get(r)) else { continue };
        if choose(wanted, here).is_some() {
            continue;
        }
        // ("the lens description" of lens_prices.xlsx's `description`: a word of the file's name first.)
        let file =
            right.and_then(|r| source_file(graph, r.split('.').next()?)).map(|f| file_words(&f)).unwrap_or_default();
        let said_with_the_file = wanted
            .split_once(' ')
            .filter(|(first, _)| file.contains(&first.to_lowercase()))
            .and_then(|(_, rest)| choose(rest, right_columns));
        let (column, renamed) = match (choose(wanted, right_columns), said_with_the_file) {
            (Some(column), _) => (column, false),
            (None, Some(column)) => (column, true),
            (None, None) => continue,
        };
        let Some(Value::Array(bring)) = doc.pointer_mut(&format!("/graph/{lookup}/in/bring")) else { continue };
        if !bring.iter().any(|b| b.as_str() == Some(column.as_str())) {
            bring.push(Value::from(column.as_str()));
            changed = true;
        }
        if renamed {
            set(doc, &finding.path, Value::from(column));
            changed = true;
        }
    }
    changed
}

/// 「実行ログ.csv に一度も実施記録がないケース…ログの結果が「スキップ」の行は実施に数えません」: a
/// filter after a match that keeps the rows without a partner, whose columns only the other
/// side has, tests that side's rows before the match (the rows kept have none of its columns).
fn filters_before_the_match(doc: &mut Value, validation: &Validation) -> bool {
    let Some(graph) = doc.get("graph").and_then(Value::as_array) else { return false };
    let id_of = |i: usize| graph[i].get("id").and_then(Value::as_str).unwrap_or_default().to_owned();
    for (f, filter) in graph.iter().enumerate() {
        if filter.get("block").and_then(Value::as_str) != Some("transforms.filter") {
            continue;
        }
        let Some(items) = filter.pointer("/in/items").and_then(Value::as_str) else { continue };
        let Some(j) = graph.iter().position(|n| {
            n.get("block").and_then(Value::as_str) == Some("transforms.join")
                && items.strip_prefix("${").and_then(|r| r.split_once('.')).map(|(id, _)| id)
                    == n.get("id").and_then(Value::as_str)
        }) else {
            continue;
        };
        let other = match graph[j].pointer("/in/strategy").and_then(Value::as_str) {
            Some("left_only") => "right",
            Some("right_only") => "left",
            _ => continue,
        };
        let Some(other_rows) = graph[j].pointer(&format!("/in/{other}")).and_then(Value::as_str).map(str::to_owned)
        else {
            continue;
        };
        let Some(other_columns) = reference_of(&other_rows).and_then(|r| validation.tables.get(r)) else { continue };
        let Some(Value::Array(conditions)) = filter.pointer("/in/conditions") else { continue };
        let all_of_the_other_side = !conditions.is_empty()
            && conditions.iter().enumerate().all(|(c, condition)| {
                let path = format!("/graph/{f}/in/conditions/{c}/field");
                let here = validation.columns_at.get(&path);
                let wanted = condition.get("field").and_then(Value::as_str).and_then(|field| match single_var(field) {
                    Some(var) => doc.pointer(&format!("/vars/{var}")).and_then(Value::as_str).map(str::to_owned),
                    None => Some(field.to_owned()),
                });
                wanted.is_some_and(|w| {
                    here.is_some_and(|cols| choose(&w, cols).is_none()) && choose(&w, other_columns).is_some()
                })
            });
        if !all_of_the_other_side {
            continue;
        }
        let filter_id = id_of(f);
        // The filter's output the later steps read now goes into the match; they read the match's.
        let outputs: Vec<String> = filter
            .get("out")
            .and_then(Value::as_object)
            .map(|out| out.values().filter_map(Value::as_str).map(|name| format!("${{{filter_id}.{name}}}")).collect())
            .unwrap_or_default();
        let Some(used) = outputs.iter().find(|o| graph.iter().any(|n| holds_string(n, o))).cloned() else { continue };
        let matched = items.to_owned();
        let Some(nodes) = doc.get_mut("graph").and_then(Value::as_array_mut) else { return false };
        for (i, node) in nodes.iter_mut().enumerate() {
            if i != f {
                replace_string(node, &used, &matched);
            }
        }
        set(doc, &format!("/graph/{f}/in/items"), Value::from(other_rows));
        set(doc, &format!("/graph/{j}/in/{other}"), Value::from(used));
        if let Some(nodes) = doc.get_mut("graph").and_then(Value::as_array_mut) {
            let moved = nodes.remove(f);
            nodes.insert(j, moved);
        }
        return true;
    }
    false
}

/// "read_log.rows" of "${read_log.rows}".
fn reference_of(text: &str) -> Option<&str> {
    text.strip_prefix("${")?.strip_suffix('}')
}

/// Whether `value` holds the string `text` anywhere.
fn holds_string(value: &Value, text: &str) -> bool {
    match value {
        Value::String(s) => s == text,
        Value::Array(items) => items.iter().any(|v| holds_string(v, text)),
        Value::Object(map) => map.values().any(|v| holds_string(v, text)),
        _ => false,
    }
}

/// Every string `from` in `value` made `to`.
fn replace_string(value: &mut Value, from: &str, to: &str) {
    match value {
        Value::String(s) if s == from => *s = to.to_owned(),
        Value::Array(items) => items.iter_mut().for_each(|v| replace_string(v, from, to)),
        Value::Object(map) => map.values_mut().for_each(|v| replace_string(v, from, to)),
        _ => {}
    }
}

/// 「実行ログ.csv に一度も実施記録がないケース」: the words read as a match's key name no column of
/// either side; the one column both sides have is the key.
fn keys_of_no_column(doc: &mut Value, validation: &Validation, binding: &mut Binding) -> bool {
    let Some(graph) = doc.get("graph").and_then(Value::as_array) else { return false };
    for (j, join) in graph.iter().enumerate() {
        if join.get("block").and_then(Value::as_str) != Some("transforms.join") {
            continue;
        }
        let key = |side: &str| join.pointer(&format!("/in/{side}_key")).and_then(Value::as_str);
        let Some(said) = key("left").filter(|k| Some(*k) == key("right") && single_var(k).is_none()) else {
            continue;
        };
        let columns = |side: &str| {
            join.pointer(&format!("/in/{side}"))
                .and_then(Value::as_str)
                .and_then(reference_of)
                .and_then(|r| validation.tables.get(r))
        };
        let (Some(left), Some(right)) = (columns("left"), columns("right")) else { continue };
        if choose(said, left).is_some() || choose(said, right).is_some() {
            continue;
        }
        let shared: Vec<&Column> = left.iter().filter(|c| right.iter().any(|r| r.name == c.name)).collect();
        let [column] = shared.as_slice() else { continue };
        // (A column each side holds more than once, 「会員番号」 of absences and of make-up
        // bookings, would pair rows no one said to pair: only one that names a row on one side
        // is taken.)
        if !names_a_row_on_one_side(graph, join, &column.name, validation) {
            continue;
        }
        let (said, column) = (said.to_owned(), column.name.clone());
        set(doc, &format!("/graph/{j}/in/left_key"), Value::from(column.as_str()));
        set(doc, &format!("/graph/{j}/in/right_key"), Value::from(column.as_str()));
        binding.bound.extend([format!("/graph/{j}/in/left_key"), format!("/graph/{j}/in/right_key")]);
        binding.notes.push(DesignNote::KeyBothHave { said, column });
        return true;
    }
    false
}

/// Whether `column` holds each of its values once on one side of `join` at least, in the rows
/// of the file read for that side (a side with no rows read is taken to).
fn names_a_row_on_one_side(graph: &[Value], join: &Value, column: &str, validation: &Validation) -> bool {
    let once_on = |side: &str| {
        let Some(id) = join.pointer(&format!("/in/{side}")).and_then(Value::as_str).and_then(reference_of) else {
            return true;
        };
        let id = id.split('.').next().unwrap_or(id);
        let rows = upstream(graph, id)
            .find_map(|(_, node)| node.get("id").and_then(Value::as_str).and_then(|n| validation.input_rows.get(n)));
        let Some(rows) = rows else { return true };
        let mut seen = std::collections::HashSet::new();
        rows.iter()
            .filter_map(|row| row.get(column))
            .filter(|v| !v.is_null() && v.as_str() != Some(""))
            .all(|v| seen.insert(v.to_string()))
    };
    once_on("left") || once_on("right")
}

/// The words of a file's name that may name it: `bank_march.csv` → bank, march.
fn file_words(file: &str) -> Vec<String> {
    let stem = file.rsplit_once('.').map_or(file, |(stem, _)| stem);
    stem.split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().any(char::is_alphabetic))
        .map(str::to_lowercase)
        .collect()
}

/// A word of a clause that keeps rows which is a whole value of exactly one column of the data
/// ("every approved Travel expense": `Travel` of `Category`) is a condition of the first filter
/// that has that column, unless one of its conditions holds that value already; a word said of
/// rows left out ("skip discontinued items") is one of the open filter that leaves rows out,
/// when there is one. A word that is no value is left alone; one that several columns hold is
/// not guessed.
fn conditions_from_values(
    plan: &mut Plan,
    catalog: &Catalog,
    files: &dyn InputFiles,
    words: &[String],
    left_out_words: &[String],
    binding: &mut Binding,
) {
    if words.is_empty() {
        return;
    }
    let validation = validate_plan_with_files(plan, catalog, &NoPlans, files);
    let Ok(mut doc) = serde_json::to_value(&*plan) else { return };
    // (A filter whose conditions were left to ask, "keep only the withdrawals, newest first",
    // takes them from the words too; the question goes when one is found.)
    let open = |conditions: &Value| conditions.as_str().and_then(single_var).filter(|v| v == "filter_conditions");
    let graph_text = serde_json::to_string(&doc["graph"]).unwrap_or_default();
    let leaves_rows_out = |n: &Value| {
        n.get("id").and_then(Value::as_str).is_some_and(|id| graph_text.contains(&format!("${{{id}.left_out}}")))
    };
    let filters: Vec<(usize, bool)> = doc.get("graph").and_then(Value::as_array).map_or_else(Vec::new, |graph| {
        (graph.iter().enumerate())
            .filter(|(_, n)| {
                n.get("block").and_then(Value::as_str) == Some("transforms.filter")
                    && n.pointer("/in/conditions").is_some_and(|c| c.is_array() || open(c).is_some())
            })
            .map(|(i, n)| (i, n.pointer("/in/conditions").and_then(open).is_some() && leaves_rows_out(n)))
            .collect()
    });
    // ("… at or below the reorder point, but skip discontinued items": the words of rows left
    // out go to the open filter that leaves rows out, not to the first, which keeps rows.)
    let open_leaving_out = filters.iter().skip(1).find(|(_, open_leaving_out)| *open_leaving_out).map(|(i, _)| *i);
    let words = match open_leaving_out {
        Some(_) if !left_out_words.is_empty() => left_out_words,
        _ => words,
    };
    // (A filter whose conditions were left to ask, "- severity critical or high" beside a filter
    // read whole, is the one the words of rows kept were said for.)
    let first_open = first_open_filter_keeping_rows(&doc, &filters, &open);
    let Some(index) =
        open_leaving_out.filter(|_| !left_out_words.is_empty()).or(first_open).or(filters.first().map(|(i, _)| *i))
    else {
        return;
    };
    let pointer = format!("/graph/{index}/in/conditions");
    let asked = doc.pointer(&pointer).and_then(open);
    let items = doc.pointer(&format!("/graph/{index}/in/items")).and_then(Value::as_str).map(str::to_owned);
    let columns = match &asked {
        None => validation.columns_at.get(&format!("{pointer}/0/field")),
        Some(_) => items
            .as_deref()
            .and_then(|i| i.strip_prefix("${")?.strip_suffix('}'))
            .and_then(|t| validation.tables.get(t)),
    };
    let Some(columns) = columns else { return };
    // (An open filter that leaves rows out, "disposed assets are to be left out", names them by
    // a value; one that keeps rows may keep them by more than the one word the data holds. A
    // word said beside conditions that leave rows out, "critical and not closed", keeps rows: it
    // is no more of them.)
    let leaves_out = doc.pointer(&format!("/graph/{index}")).is_some_and(leaves_rows_out);
    let values_fit = asked.is_none() || leaves_out;
    if asked.is_some() {
        set(&mut doc, &pointer, Value::Array(Vec::new()));
    }
    // (The words keep rows in a step of their own, before the one that leaves rows out.)
    let kept_apart = leaves_out && asked.is_none();
    // Words said of rows left out (「補充の入金は対象外」) are no conditions of rows kept.
    let leaves_out_here = leaves_out && !kept_apart;
    let words: Vec<String> = words.iter().filter(|w| leaves_out_here || !left_out_words.contains(w)).cloned().collect();
    let words = words.as_slice();
    let pointer = match kept_apart {
        true => match keep_step_before(&mut doc, index) {
            Some(pointer) => pointer,
            None => return,
        },
        false => pointer,
    };
    // Each value of the sampled rows (folded) with the columns holding it, as written there.
    let mut cells: BTreeMap<String, Vec<(String, String)>> = BTreeMap::new();
    for row in validation.input_rows.values().flatten().filter_map(Value::as_object) {
        for (column, value) in row {
            let Some(text) = value.as_str().map(str::trim).filter(|t| !t.is_empty()) else { continue };
            let held = cells.entry(fold(text)).or_default();
            if columns.iter().any(|c| &c.name == column) && !held.iter().any(|(c, _)| c == column) {
                held.push((column.clone(), text.to_owned()));
            }
        }
    }
    let mut tested = tested_columns(plan);
    // Values a filter of the plan compares with already ("not closed"): no more conditions.
    let mut compared: Vec<String> = plan
        .graph
        .iter()
        .filter(|n| n.block.as_deref() == Some("transforms.filter"))
        .filter_map(|n| n.inputs.get("conditions")?.as_array().cloned())
        .flatten()
        .filter_map(|c| c.get("value")?.as_str().map(fold))
        .collect();
    let held: Vec<&(String, String)> = words
        .iter()
        .filter_map(|w| match cells.get(&fold(w)).map(Vec::as_slice) {
            Some([one]) => Some(one),
            _ => None,
        })
        .collect();
    // "severity critical or high": values of one column said as alternatives keep a row that
    // holds either (each alone would keep none, both as conditions none).
    // (Two values said as alternatives are the whole condition, also of a filter left to ask.)
    for word in words.iter().filter(|_| values_fit || asked.is_some()) {
        let Some((first, second)) = word.split_once(" or ") else { continue };
        let one_cell = |part: &str| match cells.get(&fold(part)).map(Vec::as_slice) {
            Some([one]) => Some(one.clone()),
            _ => None,
        };
        let (Some((column, a)), Some((other, b))) = (one_cell(first), one_cell(second)) else { continue };
        if column != other || fold(&a) == fold(&b) || tested.contains(&column) || compared.contains(&fold(&a)) {
            continue;
        }
        let Some(conditions) = doc.pointer_mut(&pointer).and_then(Value::as_array_mut) else { return };
        conditions.push(serde_json::json!({ "field": column, "operator": "in", "value": [a, b] }));
        binding.bound.push(format!("{pointer}/{}", conditions.len() - 1));
        compared.extend([fold(&a), fold(&b)]);
        tested.push(column.clone());
        binding.notes.push(match leaves_out_here {
            true => DesignNote::ValueLeftOut { word: word.clone(), column },
            false => DesignNote::ValueCondition { word: word.clone(), column },
        });
    }
    // ("leave out vacant units and the ones we've already overlocked; only status Occupied":
    // values of one column left out are left out together, whatever value of it is kept.)
    if leaves_out_here && values_fit {
        let mut by_column: Vec<(String, Vec<String>)> = Vec::new();
        for (column, text) in held.iter().filter(|(_, t)| !compared.contains(&fold(t))) {
            match by_column.iter_mut().find(|(c, _)| c == column) {
                Some((_, texts)) if !texts.iter().any(|t| fold(t) == fold(text)) => texts.push(text.clone()),
                Some(_) => {}
                None => by_column.push((column.clone(), vec![text.clone()])),
            }
        }
        for (column, texts) in by_column.into_iter().filter(|(_, texts)| texts.len() >= 2) {
            let Some(conditions) = doc.pointer_mut(&pointer).and_then(Value::as_array_mut) else { return };
            conditions.push(serde_json::json!({ "field": column, "operator": "in", "value": texts }));
            binding.bound.push(format!("{pointer}/{}", conditions.len() - 1));
            binding.notes.extend(
                texts.iter().map(|word| DesignNote::ValueLeftOut { word: word.clone(), column: column.clone() }),
            );
            compared.extend(texts.iter().map(|t| fold(t)));
            tested.push(column);
        }
    }
    for word in words.iter().filter(|w| values_fit && !compared.contains(&fold(w))) {
        // ("the rows that are not Approved": the rows of every other value.)
        let (denied, word) = denial(word);
        let Some([(column, text)]) = cells.get(&fold(word)).map(Vec::as_slice) else { continue };
        // A column whose value the plan keeps already, or that two words name ("only Failed
        // (Passed and Skipped don't)"): another value of it is no condition to add.
        if tested.contains(column) || held.iter().any(|(c, t)| c == column && fold(t) != fold(text)) {
            continue;
        }
        let Some(conditions) = doc.pointer_mut(&pointer).and_then(Value::as_array_mut) else { return };
        let said =
            conditions.iter().any(|c| c.get("value").and_then(Value::as_str).is_some_and(|v| fold(v) == fold(text)));
        if said {
            continue;
        }
        let operator = if denied { "ne" } else { "eq" };
        conditions.push(serde_json::json!({ "field": column, "operator": operator, "value": text }));
        binding.bound.push(format!("{pointer}/{}", conditions.len() - 1));
        let (word, column) = (word.to_owned(), column.clone());
        binding.notes.push(match leaves_out_here != denied {
            true => DesignNote::ValueLeftOut { word, column },
            false => DesignNote::ValueCondition { word, column },
        });
    }
    // 「先月分の出金だけ」, "only the withdrawals": a word that is no value, but names the one
    // column of amounts that some rows leave blank, keeps the rows that have one; "keep the
    // billable time only": one that names a column of yes and no keeps the rows of yes.
    for said in words.iter() {
        let (denied, word) = denial(said);
        if cells.contains_key(&fold(word)) {
            continue;
        }
        let Some(column) = choose(word, columns).filter(|c| !tested.contains(c)) else { continue };
        let (word, field) = (word.to_owned(), column.clone());
        let (condition, note) = if amounts_some_rows_leave_blank(&column, columns, &validation) && !denied {
            (
                serde_json::json!({ "field": column, "operator": "ne", "value": "" }),
                DesignNote::FilledCondition { word, column: field },
            )
        } else if let Some((yes, no)) = yes_and_no_of_a_column(&column, &validation) {
            // ("where nobody checked in", "the non-billable entries": the rows of no.)
            let negated = denied
                || words.iter().any(|w| {
                    w.to_lowercase().strip_suffix(&word.to_lowercase()).is_some_and(|before| NEGATION.is_match(before))
                });
            let (condition, value) = yes_or_no_condition(&column, yes, no, negated);
            (condition, DesignNote::YesCondition { word, column: field, value })
        } else {
            continue;
        };
        let Some(conditions) = doc.pointer_mut(&pointer).and_then(Value::as_array_mut) else { return };
        conditions.push(condition);
        binding.bound.push(format!("{pointer}/{}", conditions.len() - 1));
        binding.notes.push(note);
        tested.push(column);
    }
    let none_added = doc.pointer(&pointer).and_then(Value::as_array).is_none_or(Vec::is_empty);
    if none_added && (kept_apart || asked.is_some()) {
        return;
    }
    if let Some(var) = asked {
        if let Some(vars) = doc.get_mut("vars").and_then(Value::as_object_mut) {
            vars.shift_remove(&var);
        }
    }
    if let Ok(read) = serde_json::from_value::<Plan>(doc) {
        *plan = read;
    }
}

/// Words before a word that deny it: "nobody checked in", "not billable".
static NEGATION: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"(?i)\b(?:nobody|no one|not|never|no|didn't|did not|hasn't|has not|haven't|wasn't|weren't|isn't|without|non)\s+(?:yet\s+)?$")
        .expect("negation")
});

/// A word said with its own denial ("non-billable", "not billable" of "the rows that are not
/// billable"): whether it is, and the word denied.
fn denial(word: &str) -> (bool, &str) {
    static DENIED: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"(?i)^(?:non[- ]|not\s+)(?P<rest>[a-z].*)$").expect("denied word"));
    match DENIED.captures(word).and_then(|c| c.name("rest")) {
        Some(rest) => (true, &word[rest.start()..]),
        None => (false, word),
    }
}

/// The values meaning yes and no, as written, of a column whose sampled values are only yes and
/// no (`Yes`/`No`, `Y`/`N`, `TRUE`/`FALSE`, 「はい」/「いいえ」, 「有」/「無」, 「あり」/「なし」); yes
/// is there, no when the sample holds one.
fn yes_and_no_of_a_column(column: &str, validation: &Validation) -> Option<(String, Option<String>)> {
    const YES: [&str; 6] = ["yes", "y", "true", "はい", "有", "あり"];
    const NO: [&str; 6] = ["no", "n", "false", "いいえ", "無", "なし"];
    let cells: Vec<String> = validation
        .input_rows
        .values()
        .flatten()
        .filter_map(|row| row.get(column))
        .filter_map(|v| v.as_str().map(str::trim).map(str::to_owned).or_else(|| v.as_bool().map(|b| b.to_string())))
        .filter(|t| !t.is_empty())
        .collect();
    let folded = |t: &String| t.to_lowercase();
    let all_yes_or_no = !cells.is_empty()
        && cells.iter().all(|t| YES.contains(&folded(t).as_str()) || NO.contains(&folded(t).as_str()));
    let yes = all_yes_or_no.then(|| cells.iter().find(|t| YES.contains(&folded(t).as_str())).cloned()).flatten()?;
    Some((yes, cells.iter().find(|t| NO.contains(&folded(t).as_str())).cloned()))
}

/// The condition on a column of yes and no that keeps the rows of yes, or of no when `denied`
/// (not yes, where the sample holds no no), with the value kept as the person reads it.
fn yes_or_no_condition(column: &str, yes: String, no: Option<String>, denied: bool) -> (Value, String) {
    match (denied, no) {
        (true, Some(no)) => (serde_json::json!({ "field": column, "operator": "eq", "value": no }), no),
        (true, None) => (serde_json::json!({ "field": column, "operator": "ne", "value": yes }), format!("≠ {yes}")),
        (false, _) => (serde_json::json!({ "field": column, "operator": "eq", "value": yes }), yes),
    }
}

/// Whether `column` is one of amounts that some rows of the sample leave blank and others fill.
fn amounts_some_rows_leave_blank(column: &str, columns: &[Column], validation: &Validation) -> bool {
    let numbers = columns.iter().any(|c| c.name == column && c.kind == ColumnKind::Number);
    let cells_of = validation.input_rows.values().flatten().filter_map(|row| row.get(column));
    let blank = |v: &&Value| v.is_null() || v.as_str().is_some_and(|t| t.trim().is_empty());
    let (blanks, filled): (Vec<&Value>, Vec<&Value>) = cells_of.partition(blank);
    numbers && !blanks.is_empty() && !filled.is_empty()
}

/// 「補充の入金は対象外」: an open filter that leaves rows out, said with a word naming the one
/// column of amounts some rows leave blank, leaves out the rows that have one.
fn left_out_by_filled_columns(
    plan: &mut Plan,
    catalog: &Catalog,
    files: &dyn InputFiles,
    left_out_words: &[String],
    binding: &mut Binding,
) {
    if left_out_words.is_empty() {
        return;
    }
    let validation = validate_plan_with_files(plan, catalog, &NoPlans, files);
    let Ok(mut doc) = serde_json::to_value(&*plan) else { return };
    let graph = serde_json::to_string(&doc["graph"]).unwrap_or_default();
    let open = plan.graph.iter().position(|n| {
        n.block.as_deref() == Some("transforms.filter")
            && n.inputs.get("conditions").and_then(Value::as_str).and_then(single_var).as_deref()
                == Some("filter_conditions")
            && graph.contains(&format!("${{{}.left_out}}", n.id))
    });
    let Some(index) = open else { return };
    let items = plan.graph[index].inputs.get("items").and_then(Value::as_str).unwrap_or_default();
    let Some(columns) =
        items.strip_prefix("${").and_then(|i| i.strip_suffix('}')).and_then(|t| validation.tables.get(t))
    else {
        return;
    };
    let filled: Vec<(String, String)> = left_out_words
        .iter()
        .filter_map(|word| Some((word.clone(), choose(word, columns)?)))
        .filter(|(_, column)| amounts_some_rows_leave_blank(column, columns, &validation))
        .collect();
    let [(word, column)] = filled.as_slice() else { return };
    let pointer = format!("/graph/{index}/in/conditions");
    set(&mut doc, &pointer, serde_json::json!([{ "field": column, "operator": "ne", "value": "" }]));
    if let Some(vars) = doc.get_mut("vars").and_then(Value::as_object_mut) {
        vars.shift_remove("filter_conditions");
    }
    if let Ok(read) = serde_json::from_value::<Plan>(doc) {
        *plan = read;
        binding.bound.push(format!("{pointer}/0"));
        binding.notes.push(DesignNote::FilledLeftOut { word: word.clone(), column: column.clone() });
    }
}

/// A filter that keeps rows, put before the one at `index` (which leaves rows out) and read by
/// it: where conditions that keep rows go. The pointer of its conditions.
fn keep_step_before(doc: &mut Value, index: usize) -> Option<String> {
    let graph = doc.get_mut("graph")?.as_array_mut()?;
    let node = graph.get(index)?;
    let items = node.pointer("/in/items")?.clone();
    let before = node.get("id")?.as_str()?.to_owned();
    let japanese = node.get("description").and_then(Value::as_str).is_some_and(|d| !d.is_ascii());
    let ids: Vec<&str> = graph.iter().filter_map(|n| n.get("id")?.as_str()).collect();
    let id = (1..100)
        .map(|i| if i == 1 { "keep_rows".to_owned() } else { format!("keep_rows_{i}") })
        .find(|id| !ids.contains(&id.as_str()))?;
    let language = if japanese { Language::Ja } else { Language::En };
    let description = crate::offline::filter_description(language, false);
    graph.insert(
        index,
        serde_json::json!({
            "id": id,
            "description": description,
            "block": "transforms.filter",
            "in": { "items": items, "conditions": [] },
            "out": { "filtered": "kept", "excluded": "left_out" },
        }),
    );
    set(doc, &format!("/graph/{}/in/items", index + 1), Value::from(format!("${{{id}.kept}}")));
    if let Some(layout) = doc.pointer_mut("/ui/layout").and_then(Value::as_array_mut) {
        let at = layout.iter().position(|n| n.as_str() == Some(before.as_str())).unwrap_or(layout.len());
        layout.insert(at, Value::from(id));
    }
    Some(format!("/graph/{index}/in/conditions"))
}

/// A condition's words that say more than the value ("Exclude Cancelled POs": `Cancelled` of
/// `Status`, `POs` the rows) compare with the one part of them the column holds, where every row
/// of the file is known. Words of several that no row holds, nor any part of them, are asked
/// about: such a condition keeps nothing, or leaves nothing out. (One word no row holds may be a
/// state this file happens not to have; it stays.)
fn settle_values(plan: &mut Plan, files: &dyn InputFiles, binding: &mut Binding) {
    // Each column of the files read, with its values when every row is known.
    let mut known: BTreeMap<String, Option<Vec<String>>> = BTreeMap::new();
    for node in &plan.graph {
        let Some(table) = node.block.as_deref().and_then(|block| files.columns(block, &node.inputs)) else { continue };
        for column in &table.columns {
            let values = table.complete.then(|| {
                let cells = table.rows.iter().filter_map(|row| row.get(&column.name)?.as_str().map(str::trim));
                cells.map(str::to_owned).collect::<Vec<_>>()
            });
            let entry = known.entry(column.name.clone()).or_insert_with(|| Some(Vec::new()));
            match (entry.as_mut(), values) {
                (Some(all), Some(values)) => all.extend(values),
                _ => *entry = None,
            }
        }
    }
    let vars = plan.vars.clone();
    for node in plan.graph.iter_mut().filter(|n| n.block.as_deref() == Some("transforms.filter")) {
        let Some(Value::Array(conditions)) = node.inputs.get_mut("conditions") else { continue };
        for condition in conditions {
            if !matches!(condition.get("operator").and_then(Value::as_str), Some("eq" | "ne")) {
                continue;
            }
            let Some(field) = condition.get("field").and_then(Value::as_str) else { continue };
            let Some(column) = column_named(field, &vars) else { continue };
            let Some(Some(values)) = known.get(&column) else { continue };
            let Some(said) = condition.get("value").and_then(Value::as_str).map(str::to_owned) else { continue };
            let holds = |text: &str| values.iter().any(|v| fold(v) == fold(text));
            if !is_plain_literal(&said) || holds(&said) || said.parse::<f64>().is_ok() {
                continue;
            }
            let words: Vec<&str> = said.split_whitespace().collect();
            if words.len() < 2 {
                // "voided" of a column holding `Void`: the one value the word inflects.
                let mut inflected: Vec<&String> = values.iter().filter(|v| inflects(&said, v)).collect();
                inflected.sort_by_key(|v| fold(v));
                inflected.dedup_by(|a, b| fold(a) == fold(b));
                if let [value] = inflected.as_slice() {
                    let value = (*value).clone();
                    condition["value"] = Value::from(value.as_str());
                    binding.notes.push(DesignNote::ValueOfData { said, value, column });
                }
                continue;
            }
            let mut parts: Vec<String> = (1..words.len())
                .flat_map(|n| [words[..n].join(" "), words[n..].join(" ")])
                .filter_map(|part| values.iter().find(|v| fold(v) == fold(&part)).cloned())
                .collect();
            parts.sort();
            parts.dedup();
            match parts.as_slice() {
                [value] => {
                    condition["value"] = Value::from(value.as_str());
                    binding.notes.push(DesignNote::ValueOfData { said, value: value.clone(), column });
                }
                [] => binding.absent_values.push((said, column)),
                _ => {}
            }
        }
    }
    // A count or total of the rows with values no row holds is 0 for every group: the values
    // are not this data's (「合格数」 where the results are OK and NG), and are asked about.
    for node in plan.graph.iter().filter(|n| n.block.as_deref() == Some("transforms.group_by_agg")) {
        let Some(Value::Array(aggregations)) = node.inputs.get("aggregations") else { continue };
        for condition in aggregations.iter().filter_map(|a| a.get("when")?.as_array()).flatten() {
            if !matches!(condition.get("operator").and_then(Value::as_str), Some("eq" | "in")) {
                continue;
            }
            let Some(column) = condition.get("field").and_then(Value::as_str).and_then(|f| column_named(f, &vars))
            else {
                continue;
            };
            let Some(Some(values)) = known.get(&column) else { continue };
            let said: Vec<&str> = match condition.get("value") {
                Some(Value::String(one)) => vec![one.as_str()],
                Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
                _ => continue,
            };
            let words = |text: &&str| is_plain_literal(text) && text.parse::<f64>().is_err();
            let holds = |text: &&str| values.iter().any(|v| fold(v) == fold(text));
            if !said.is_empty() && said.iter().all(words) && !said.iter().any(holds) {
                binding.absent_values.push((said.join(", "), column));
            }
        }
    }
}

/// Words of the instruction that are whole values of the data ("Travel", 「営業部」) and that
/// the plan uses nowhere: a condition the design lost, asked about rather than dropped.
fn unused_values(plan: &Plan, catalog: &Catalog, files: &dyn InputFiles, mentioned: &[String]) -> Vec<String> {
    if mentioned.is_empty() {
        return Vec::new();
    }
    let validation = validate_plan_with_files(plan, catalog, &NoPlans, files);
    let values = sample_values(&validation);
    let held = |word: &str| values.values().any(|vs| vs.contains(&fold_value(word)));
    let used: Vec<String> =
        crate::understanding::plan_values(plan).iter().filter_map(Value::as_str).map(fold).collect();
    // "our cash ledger (gl_cash_nov.csv)": a word of the name of a file read says which file
    // (not of one written: "the Travel lines … into travel.csv" keeps Travel).
    let paths: Vec<String> = plan
        .graph
        .iter()
        .filter(|n| crate::reads_a_table(n))
        .filter_map(|n| n.inputs.get("path").and_then(Value::as_str))
        .map(str::to_lowercase)
        .collect();
    let named_file = |word: &str| {
        let word = word.to_lowercase();
        paths.iter().any(|path| path.split(|c: char| !c.is_alphanumeric()).any(|part| part == word))
    };
    // 「東京と大阪の売上ファイル（uriage_tokyo.csv と uriage_osaka.csv）」: values that each fill a
    // column of one file read and appear in no other, said of two files or more, say which file
    // is which; they keep no rows. (One such value said alone, "only Tokyo", may: asked.)
    let of_one_file = |word: &str| {
        let folded = fold(word);
        let holds_all = |rows: &Vec<Value>, column: &str| {
            !rows.is_empty()
                && rows.iter().all(|r| r.get(column).and_then(Value::as_str).is_some_and(|v| fold(v) == folded))
        };
        let holds_any = |rows: &Vec<Value>| {
            rows.iter()
                .filter_map(Value::as_object)
                .any(|r| r.values().filter_map(Value::as_str).any(|v| fold(v) == folded))
        };
        let tables: Vec<&Vec<Value>> = validation.input_rows.values().collect();
        tables.len() >= 2
            && tables.iter().enumerate().any(|(i, rows)| {
                let columns: Vec<&String> =
                    rows.first().and_then(Value::as_object).map(|r| r.keys().collect()).unwrap_or_default();
                columns.iter().any(|c| holds_all(rows, c))
                    && tables.iter().enumerate().all(|(j, other)| i == j || !holds_any(other))
            })
    };
    let naming_files: std::collections::HashSet<String> =
        mentioned.iter().filter(|w| of_one_file(w)).map(|w| fold(w)).collect();
    let names_files = |word: &str| naming_files.len() >= 2 && naming_files.contains(&fold(word));
    // Another value of a column whose value the plan keeps is said about it, not lost.
    let tested = tested_columns(plan);
    let left_out = columns_left_out(plan);
    // ("Cancelled lessons don't count … lessons taught": the one value the rows kept still hold.)
    let all_that_is_left = |word: &str| {
        left_out.iter().any(|(column, out)| {
            values.get(column).is_some_and(|vs| {
                vs.contains(&fold_value(word)) && vs.iter().all(|v| *v == fold_value(word) || out.contains(v))
            })
        })
    };
    let of_tested = |word: &str| {
        tested.iter().any(|c| values.get(c).is_some_and(|vs| vs.contains(&fold_value(word)))) || all_that_is_left(word)
    };
    let mut unused: Vec<String> = Vec::new();
    for word in mentioned {
        let folded = fold(word);
        if held(word)
            && !of_tested(word)
            && !named_file(word)
            && !names_files(word)
            && !used.contains(&folded)
            && !unused.iter().any(|u| fold(u) == folded)
        {
            unused.push(word.clone());
        }
    }
    // A longer phrase covers its words ("Sarah Kim" covers "Sarah").
    let phrases = unused.clone();
    unused.retain(|w| !phrases.iter().any(|p| p != w && fold(p).contains(&fold(w))));
    unused
}

/// The columns a filter of `plan` keeps one value (or some values) of: `eq` and `in`
/// conditions, their field written or given by a var's default.
fn tested_columns(plan: &Plan) -> Vec<String> {
    filter_conditions(plan, &["eq", "in"]).map(|(column, _)| column).collect()
}

/// The conditions of the plan's filters whose operator is one of `operators`, each with the
/// column it tests (a var's value for `${vars.x}`).
fn filter_conditions<'a>(plan: &'a Plan, operators: &'a [&str]) -> impl Iterator<Item = (String, &'a Value)> {
    plan.graph
        .iter()
        .filter(|n| n.block.as_deref() == Some("transforms.filter"))
        .filter_map(|node| node.inputs.get("conditions").and_then(Value::as_array))
        .flatten()
        .filter(|c| c.get("operator").and_then(Value::as_str).is_some_and(|o| operators.contains(&o)))
        .filter_map(|c| Some((column_named(c.get("field")?.as_str()?, &plan.vars)?, c)))
}

/// The columns the plan's filters leave values out of (`ne`), each with those values folded.
fn columns_left_out(plan: &Plan) -> Vec<(String, Vec<String>)> {
    let mut columns: Vec<(String, Vec<String>)> = Vec::new();
    for (field, condition) in filter_conditions(plan, &["ne"]) {
        let Some(value) = condition.get("value").and_then(Value::as_str) else { continue };
        match columns.iter_mut().find(|(c, _)| *c == field) {
            Some((_, out)) => out.push(fold_value(value)),
            None => columns.push((field, vec![fold_value(value)])),
        }
    }
    columns
}

/// A month said without its year (a filter from `${vars.year}-04-01`) is settled by the data
/// when every row of the file is known and holds that month in one year only. Otherwise (a
/// longer file, several years, no file) the year is asked: never the latest year guessed.
fn settle_year(plan: &mut Plan, files: &dyn InputFiles, binding: &mut Binding) {
    if !plan.vars.get("year").is_some_and(Value::is_null) {
        return;
    }
    let Ok(mut doc) = serde_json::to_value(&*plan) else { return };
    let nodes: Vec<Value> = doc.get("graph").and_then(Value::as_array).cloned().unwrap_or_default();
    // The column and month of each condition written in the year.
    let mut wanted: Vec<(String, u32)> = Vec::new();
    for node in nodes.iter().filter(|n| n.get("block").and_then(Value::as_str) == Some("transforms.filter")) {
        let conditions = node.pointer("/in/conditions").and_then(Value::as_array).cloned().unwrap_or_default();
        for condition in &conditions {
            // (`${vars.year}-11-01`, the first day of a month said alone, or any day said
            // without its year.)
            let month = condition
                .get("value")
                .and_then(Value::as_str)
                .and_then(|v| v.strip_prefix(crate::reading::YEAR_VAR)?.strip_prefix('-')?.get(..2)?.parse().ok());
            let field = condition.get("field").and_then(Value::as_str).map(|f| match single_var(f) {
                Some(var) => {
                    doc.pointer(&format!("/vars/{var}")).and_then(Value::as_str).unwrap_or_default().to_owned()
                }
                None => f.to_owned(),
            });
            if let (Some(month), Some(field)) = (month, field.filter(|f| !f.is_empty())) {
                wanted.push((field, month));
            }
        }
    }
    let Some((column, month)) = wanted.first().cloned() else { return };
    let mut years = std::collections::BTreeSet::new();
    for node in &nodes {
        let Some(block @ ("file.read_csv" | "excel.read_data")) = node.get("block").and_then(Value::as_str) else {
            continue;
        };
        let Ok(inputs) = serde_json::from_value::<IndexMap<String, Value>>(node.get("in").cloned().unwrap_or_default())
        else {
            continue;
        };
        let Some(table) = files.columns(block, &inputs).filter(|t| t.columns.iter().any(|c| c.name == column)) else {
            continue;
        };
        if !table.complete {
            return;
        }
        years.extend(table.rows.iter().filter_map(|row| year_of_month(row.get(&column)?, month)));
    }
    let [year] = years.iter().copied().collect::<Vec<_>>()[..] else {
        if years.len() > 1 {
            let listed: Vec<String> = years.iter().map(u32::to_string).collect();
            binding.notes.push(DesignNote::YearAsked { month: u64::from(month), years: listed.join(", ") });
        }
        return;
    };
    set(&mut doc, "/vars/year", Value::from(year));
    if let Ok(settled) = serde_json::from_value::<Plan>(doc) {
        *plan = settled;
        binding.bound.push("/vars/year".to_owned());
        binding.notes.push(DesignNote::YearSettled { month: u64::from(month), year: u64::from(year) });
    }
}

/// The months that every date of a date column of the first file read (known whole) falls
/// in: the table the rows are said of ("the October payouts" of the log, not of the receipts
/// it is checked against).
fn whole_months(plan: &Plan, files: &dyn InputFiles) -> Vec<u32> {
    let mut months = Vec::new();
    let first = plan.graph.iter().find_map(|node| node.block.as_deref().and_then(|b| files.columns(b, &node.inputs)));
    if let Some(table) = first.filter(|t| t.complete) {
        for column in &table.columns {
            let cells: Vec<&Value> = table
                .rows
                .iter()
                .filter_map(|row| row.get(&column.name))
                .filter(|v| v.as_str().is_some_and(|t| !t.trim().is_empty()))
                .collect();
            let month_of = |cell: &Value| (1..=12).find(|m| year_of_month(cell, *m).is_some());
            let Some(first) = cells.first().and_then(|c| month_of(c)) else { continue };
            if cells.iter().all(|c| month_of(c) == Some(first)) && !months.contains(&first) {
                months.push(first);
            }
        }
    }
    months
}

/// The year of a date cell (`2026-04-02`, `2026/4/2`) when it is in `month`.
fn year_of_month(cell: &Value, month: u32) -> Option<u32> {
    let text = cell.as_str()?;
    let (year, in_month) = match english_year_and_month(text) {
        Some(said) => said,
        None => {
            let mut parts = text.split(['-', '/']);
            let year: u32 = parts.next()?.trim().parse().ok()?;
            (year, parts.next()?.trim().parse().ok()?)
        }
    };
    ((1900..=2200).contains(&year) && in_month == month).then_some(year)
}

/// "Nov 3, 2026", "3 November 2026": the year and month of a day written with its month's name.
fn english_year_and_month(text: &str) -> Option<(u32, u32)> {
    static NAMED: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"^\s*(?:(?P<m>[A-Za-z]{3,9})\.?\s+\d{1,2},?|\d{1,2}\s+(?P<m2>[A-Za-z]{3,9})\.?)\s+(?P<y>\d{4})\s*$",
        )
        .expect("a day with its month's name")
    });
    let c = NAMED.captures(text)?;
    let month = crate::reading::month_number(c.name("m").or(c.name("m2"))?.as_str())?;
    Some((c["y"].parse().ok()?, month))
}

/// The work folder's files, a read step's `path` given as a var read as the var's value.
struct WithPathVars<'a> {
    files: &'a dyn InputFiles,
    vars: IndexMap<String, Value>,
}

impl WithPathVars<'_> {
    fn resolved(&self, inputs: &IndexMap<String, Value>) -> IndexMap<String, Value> {
        let mut inputs = inputs.clone();
        let var = inputs.get("path").and_then(Value::as_str).and_then(single_var);
        if let Some(value) = var.and_then(|v| self.vars.get(&v)).filter(|v| v.is_string()) {
            inputs.insert("path".to_owned(), value.clone());
        }
        inputs
    }
}

impl InputFiles for WithPathVars<'_> {
    fn columns(&self, block: &str, inputs: &IndexMap<String, Value>) -> Option<InputTable> {
        self.files.columns(block, &self.resolved(inputs))
    }

    fn missing(&self, block: &str, inputs: &IndexMap<String, Value>) -> bool {
        self.files.missing(block, &self.resolved(inputs))
    }

    fn refused(&self, block: &str, inputs: &IndexMap<String, Value>) -> Option<String> {
        self.files.refused(block, &self.resolved(inputs))
    }

    fn data_files(&self) -> Vec<String> {
        self.files.data_files()
    }
}

/// The work folder's files, and an input file that is not there read as a table with no
/// columns: every column named from it is then one the engine assumed.
struct WithAssumed<'a>(&'a dyn InputFiles);

impl InputFiles for WithAssumed<'_> {
    fn columns(&self, block: &str, inputs: &IndexMap<String, Value>) -> Option<InputTable> {
        self.0.columns(block, inputs).or_else(|| {
            let file = inputs.get("path").and_then(Value::as_str).unwrap_or_default().to_owned();
            self.0.missing(block, inputs).then(|| InputTable {
                file,
                columns: Vec::new(),
                rows: Vec::new(),
                complete: false,
            })
        })
    }
}

/// A column the plan names from a file that is not in the work folder (yet) is the engine's
/// assumption: it becomes a question, with the instruction's word as its hint.
fn assume(plan: &mut Plan, catalog: &Catalog, files: &dyn InputFiles, binding: &mut Binding) {
    let validation = validate_plan_with_files(plan, catalog, &NoPlans, &WithAssumed(files));
    let Ok(mut doc) = serde_json::to_value(&*plan) else { return };
    let mut asked = Vec::new();
    for finding in validation.findings.iter().filter(|f| f.code == Code::UnknownColumn) {
        let Some(wanted) = doc.pointer(&finding.path).and_then(Value::as_str).map(str::to_owned) else { continue };
        if single_var(&wanted).is_some() || !is_plain_literal(&wanted) {
            continue;
        }
        let name = new_var(&mut doc, &wanted);
        set(&mut doc, &finding.path, Value::from(format!("${{vars.{name}}}")));
        binding.questions.push(ColumnQuestion { var: name, wanted: wanted.clone(), columns: Vec::new() });
        asked.push(wanted);
    }
    if asked.is_empty() {
        return;
    }
    if let Ok(assumed) = serde_json::from_value::<Plan>(doc) {
        *plan = assumed;
        asked.dedup();
        binding.notes.push(DesignNote::AssumedColumnsAsked { columns: asked.join(", ") });
    }
}

/// A name written out (not a reference to another step or var).
fn is_plain_literal(text: &str) -> bool {
    matches!(Template::parse(text), Ok(Template::Literal(_)))
}

/// A sheet whose first row is a title ("Corporate card statement - March 2026") has no
/// header there: the columns read are the title and `column_2`…. Its header is the first row
/// below whose cells are all text; the read step is told to start there (`header_row`).
fn header_rows(doc: &mut Value, validation: &Validation, binding: &mut Binding) -> bool {
    let mut changed = false;
    let Some(graph) = doc.get("graph").and_then(Value::as_array).cloned() else { return false };
    for (index, node) in graph.iter().enumerate() {
        let (Some(id), Some("excel.read_data")) =
            (node.get("id").and_then(Value::as_str), node.get("block").and_then(Value::as_str))
        else {
            continue;
        };
        let inputs = node.get("in");
        if inputs.is_some_and(|i| i.get("header_row").is_some() || i.get("range").is_some()) {
            continue;
        }
        let Some(row) = validation.input_rows.get(id).and_then(|rows| header_below_titles(rows)) else { continue };
        set(doc, &format!("/graph/{index}/in/header_row"), Value::from(row));
        binding.bound.push(format!("/graph/{index}/in/header_row"));
        binding.notes.push(DesignNote::HeaderRow { node: id.to_owned(), row: row as u64 });
        changed = true;
    }
    changed
}

/// The sheet row of the header under title rows, from the rows read with row 1 as the header:
/// `None` when row 1 is the header (most of its cells filled). The header is the first row
/// whose every cell is filled with text that is not a number.
pub(crate) fn header_below_titles(rows: &[Value]) -> Option<usize> {
    let first = rows.first().and_then(Value::as_object)?;
    let generated = first.keys().filter(|k| is_generated_name(k)).count();
    if generated == 0 || generated * 2 < first.len() {
        return None;
    }
    let header = rows.iter().position(|row| {
        row.as_object().is_some_and(|cells| {
            cells.values().all(|v| v.as_str().is_some_and(|t| !t.trim().is_empty() && t.trim().parse::<f64>().is_err()))
        })
    })?;
    // Row 1 was read as the header; data row `header` (0-based) is sheet row header + 2.
    Some(header + 2)
}

/// Whether a column's name is one a read block made for a header cell that was empty.
fn is_generated_name(name: &str) -> bool {
    name.strip_prefix("column_").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Column names the checker found no column for.
/// (`sides` name matched tables' columns by their side: such a column chosen to be shown is
/// shown by the words said, "ledger amount", not as the match names it, `amount_right`.)
fn bind_named(
    doc: &mut Value,
    validation: &Validation,
    aliases: &[(String, String)],
    sides: &[(String, String)],
    binding: &mut Binding,
) -> bool {
    let aliases: Vec<(String, String)> = aliases.iter().chain(sides).cloned().collect();
    let aliases = aliases.as_slice();
    // The side's name as said, or said one letter short (「前年度売上」 of 「前年度 売上高」).
    let side_name = |wanted: &str| -> Option<String> {
        let want = fold(wanted);
        if sides.iter().any(|(word, _)| fold(word) == want) {
            return Some(wanted.to_owned());
        }
        let near: Vec<&String> = sides
            .iter()
            .map(|(word, _)| word)
            .filter(|word| {
                let folded = fold(word);
                folded.starts_with(&want) && folded.chars().count() == want.chars().count() + 1
            })
            .collect();
        match near.as_slice() {
            [one] => Some((*one).clone()),
            _ => None,
        }
    };
    let mut changed = false;
    let mut kept_by_yes = Vec::new();
    for finding in validation.findings.iter().filter(|f| f.code == Code::UnknownColumn) {
        let Some(columns) = validation.columns_at.get(&finding.path) else { continue };
        let Some(raw) = doc.pointer(&finding.path).and_then(Value::as_str).map(str::to_owned) else { continue };
        // A formula names its columns in its text (`[qty] * [unit price]`).
        if finding.path.ends_with("/formula") {
            changed |= bind_formula(doc, &finding.path, &raw, columns, aliases, binding);
            continue;
        }
        // A template's var default (`${vars.payee_column}` = 支払先) is bound where the var is.
        let var = single_var(&raw);
        let wanted = match &var {
            Some(name) => match doc.pointer(&format!("/vars/{name}")).and_then(Value::as_str) {
                Some(default) => default.to_owned(),
                None => continue,
            },
            None => raw.clone(),
        };
        let names: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
        let by_side = side_name(&wanted);
        // A column of a side chosen to be shown keeps the words said as its name.
        let shown_by_side = by_side.is_some() && shown_column(doc, &finding.path);
        let said = by_side.unwrap_or_else(|| wanted.clone());
        // 「弁当注文.csv …部署ごとの注文数」: no column, and the file holds one order per row.
        if choose(&said, columns).is_none() && var.is_none() {
            if let Some((aggregation, file)) = count_of_the_rows_the_file_holds(doc, &finding.path, &wanted) {
                set(doc, &format!("{aggregation}/op"), Value::from("count"));
                if let Some(spec) = doc.pointer_mut(&aggregation).and_then(Value::as_object_mut) {
                    spec.remove("field");
                    spec.entry("as").or_insert_with(|| Value::from(wanted.as_str()));
                }
                binding.bound.push(aggregation);
                binding.notes.push(DesignNote::RowsCounted { wanted: wanted.clone(), file });
                changed = true;
                continue;
            }
        }
        // ("total billable hours per employee": `hours` of the rows of yes in `billable`.)
        let of_the_rows_of_yes = the_amount_of_the_rows_of_yes(doc, &finding.path, &said, columns, validation);
        let chosen = match of_the_rows_of_yes {
            Some(RowsOfYes { column, condition, note, before: Some(node) }) => {
                binding.notes.push(DesignNote::ColumnBound { wanted: wanted.clone(), column: column.clone() });
                kept_by_yes.push((node, condition, note));
                Some(column)
            }
            // (Beside other totals, "total hours and billable hours", the total alone reads them.)
            Some(RowsOfYes { column, condition, note, before: None }) => {
                let when = format!("{}/when", finding.path.trim_end_matches("/field"));
                set(doc, &when, Value::Array(vec![condition]));
                binding.bound.push(format!("{when}/0"));
                binding.notes.push(DesignNote::ColumnBound { wanted: wanted.clone(), column: column.clone() });
                binding.notes.push(note);
                Some(column)
            }
            None => chosen_and_noted(&said, columns, aliases, binding),
        };
        let chosen = chosen.or_else(|| {
            let column = amount_of_the_rows_the_file_holds(doc, &finding.path, &wanted, columns)
                .or_else(|| column_said_with_the_rows_the_file_holds(doc, &finding.path, &wanted, columns))
                .or_else(|| named_and_holding_the_value(doc, &finding.path, &said, columns, validation))
                .or_else(|| key_named_as_the_other_side(doc, &finding.path, columns))
                .or_else(|| id_of_the_thing_repeated(doc, &finding.path, &said, columns))
                .or_else(|| named_after_its_key(&said, columns))
                .or_else(|| time_said_of_a_duration(&said, columns))?;
            // (The note that it is asked becomes the column it is.)
            binding.notes.pop();
            binding.notes.push(DesignNote::ColumnBound { wanted: wanted.clone(), column: column.clone() });
            Some(column)
        });
        // ("which clients used 80% or more": a number compared is no text column's.)
        let chosen = match chosen {
            Some(column) if compares_a_number_with_text(doc, &finding.path, &column, columns) => {
                binding.notes.pop();
                binding.notes.push(DesignNote::ColumnAsked { wanted: wanted.clone() });
                None
            }
            chosen => chosen,
        };
        if let Some(column) = chosen.as_ref().filter(|_| shown_by_side) {
            let shown = var.as_ref().map_or_else(|| column.clone(), |name| format!("${{vars.{name}}}"));
            set(doc, &finding.path, serde_json::json!({ "column": shown, "as": wanted }));
        }
        match (&var, chosen) {
            (Some(name), Some(column)) => {
                set(doc, &format!("/vars/{name}"), Value::from(column.as_str()));
                binding.bound.push(format!("/vars/{name}"));
            }
            (None, Some(column)) => {
                if !shown_by_side {
                    set(doc, &finding.path, Value::from(column.as_str()));
                }
                binding.bound.push(finding.path.clone());
                // A column computed in place (`{as: 平均金額, op: round, of: [平均金額]}`) stays in
                // place: its name follows what it reads.
                if let Some(new_column) = finding.path.strip_suffix("/of/0") {
                    let named = format!("{new_column}/as");
                    if doc.pointer(&named).and_then(Value::as_str) == Some(raw.as_str()) {
                        set(doc, &named, Value::from(column.as_str()));
                    }
                }
            }
            (Some(name), None) => {
                set(doc, &format!("/vars/{name}"), Value::Null);
                binding.questions.push(ColumnQuestion { var: name.clone(), wanted, columns: names });
            }
            (None, None) => {
                let name = new_var(doc, &wanted);
                set(doc, &finding.path, Value::from(format!("${{vars.{name}}}")));
                binding.questions.push(ColumnQuestion { var: name, wanted, columns: names });
            }
        }
        changed = true;
    }
    for (node, condition, note) in kept_by_yes {
        let index = doc.get("graph").and_then(Value::as_array).and_then(|g| g.iter().position(|n| n["id"] == node));
        let Some(pointer) = index.and_then(|index| keep_step_before(doc, index)) else { continue };
        if let Some(conditions) = doc.pointer_mut(&pointer).and_then(Value::as_array_mut) {
            conditions.push(condition);
            binding.bound.push(format!("{pointer}/0"));
            binding.notes.push(note);
        }
    }
    changed
}

/// Whether the condition whose field is at `pointer` compares a number ("80 or more") and
/// `column` holds text.
fn compares_a_number_with_text(doc: &Value, pointer: &str, column: &str, columns: &[Column]) -> bool {
    let Some(condition) = pointer.strip_suffix("/field").and_then(|c| doc.pointer(c)) else { return false };
    let compares =
        matches!(condition.get("operator").and_then(Value::as_str), Some("gt" | "gte" | "lt" | "lte" | "between"));
    compares
        && condition.get("value").is_some_and(Value::is_number)
        && columns.iter().any(|c| c.name == column && c.kind == ColumnKind::Text)
}

/// A total of the rows of yes (or no) of a column of yes and no.
struct RowsOfYes {
    /// The column totalled.
    column: String,
    /// The condition that keeps those rows, and its note.
    condition: Value,
    note: DesignNote,
    /// The grouping's node, when it has that one total: the rows are kept before it. Else the
    /// total alone reads them (its `when`).
    before: Option<Value>,
}

/// A total said of the rows of a column of yes and no ("billable hours", "non-billable hours"
/// of `hours` and `billable`).
fn the_amount_of_the_rows_of_yes(
    doc: &Value,
    pointer: &str,
    said: &str,
    columns: &[Column],
    validation: &Validation,
) -> Option<RowsOfYes> {
    let node = pointer.split("/in/").next()?;
    let aggregations = doc.pointer(&format!("{node}/in/aggregations"))?.as_array()?;
    let a_total = doc.pointer(&format!("{node}/block"))?.as_str()? == "transforms.group_by_agg"
        && pointer.ends_with("/field")
        && !columns.iter().any(|c| fold(&c.name) == fold(said));
    if !a_total {
        return None;
    }
    let one_total = aggregations.iter().filter(|a| a.get("field").is_some()).count() == 1;
    let words: Vec<&str> = said.split_whitespace().collect();
    (1..words.len()).find_map(|at| {
        let (yes_word, amount_word) = (words[..at].join(" "), words[at..].join(" "));
        let (denied, yes_word) = denial(&yes_word);
        let column_totalled = choose(&amount_word, columns)
            .filter(|c| columns.iter().any(|k| &k.name == c && k.kind == ColumnKind::Number))?;
        let column = choose(yes_word, columns)?;
        let (yes, no) = yes_and_no_of_a_column(&column, validation)?;
        let (condition, value) = yes_or_no_condition(&column, yes, no, denied);
        let note = DesignNote::YesCondition { word: yes_word.to_owned(), column, value };
        let before = one_total.then(|| doc.pointer(&format!("{node}/id")).cloned()).flatten();
        Some(RowsOfYes { column: column_totalled, condition, note, before })
    })
}

/// "invoices whose customer is not in customers.csv": one side's key bound (`customer_id`), the
/// other side's, said alike and naming several of its columns, is its column of that name.
/// "the same employee" of `employee_id` and `employee_name`, as a key of duplicates: the thing
/// is its id (one person may be written two ways, never two ids).
fn id_of_the_thing_repeated(doc: &Value, pointer: &str, wanted: &str, columns: &[Column]) -> Option<String> {
    let node = pointer.split("/in/").next()?;
    let block = doc.pointer(&format!("{node}/block"))?.as_str()?;
    if !matches!(block, "transforms.find_duplicates" | "transforms.remove_duplicates") || !pointer.contains("/by/") {
        return None;
    }
    let want = fold(wanted);
    let of_the_thing: Vec<&Column> = columns
        .iter()
        .filter(|c| {
            let words = crate::column_words::name_words(&c.name);
            words.len() == 2 && fold(words[0]) == want
        })
        .collect();
    let ids: Vec<&&Column> = of_the_thing.iter().filter(|c| names_a_key(&c.name)).collect();
    match ids.as_slice() {
        [one] if of_the_thing.len() == 2 => Some(one.name.clone()),
        _ => None,
    }
}

fn key_named_as_the_other_side(doc: &Value, pointer: &str, columns: &[Column]) -> Option<String> {
    let other = (pointer.strip_suffix("/right_key").map(|p| format!("{p}/left_key")))
        .or_else(|| pointer.strip_suffix("/left_key").map(|p| format!("{p}/right_key")))?;
    let other = doc.pointer(&other)?.as_str()?;
    columns.iter().find(|c| c.name == other).map(|c| c.name.clone())
}

/// 「立替金明細.csv … 立替金を社員ごとに合計」: what is totalled is what the file read holds (a word
/// of its name), and the one column of numbers is its amount.
fn amount_of_the_rows_the_file_holds(doc: &Value, pointer: &str, wanted: &str, columns: &[Column]) -> Option<String> {
    let (node, rest) = pointer.strip_prefix("/graph/")?.split_once('/')?;
    let aggregation = rest.strip_prefix("in/aggregations/")?.strip_suffix("/field")?;
    let node = doc.pointer(&format!("/graph/{node}"))?;
    let op = node.pointer(&format!("/in/aggregations/{aggregation}/op")).and_then(Value::as_str)?;
    let items = node.pointer("/in/items")?.as_str()?.strip_prefix("${")?.split('.').next()?;
    let graph = doc.get("graph")?.as_array()?;
    let file = file_of_the_rows(graph, items)?;
    let stem = file.rsplit_once('.').map_or(file.as_str(), |(stem, _)| stem);
    let want = fold(wanted);
    if !matches!(op, "sum" | "avg") || want.chars().count() < 2 || !fold(stem).contains(&want) {
        return None;
    }
    match columns.iter().filter(|c| c.kind == ColumnKind::Number).collect::<Vec<_>>().as_slice() {
        [one] => Some(one.name.clone()),
        _ => None,
    }
}

/// "the average invoice amount" of vendor_invoices.csv: a column said after the name of the rows
/// the file holds (a word of the file's name) is the column said without it, when exactly one
/// column is that.
fn column_said_with_the_rows_the_file_holds(
    doc: &Value,
    pointer: &str,
    wanted: &str,
    columns: &[Column],
) -> Option<String> {
    let (rows, rest) = wanted.trim().split_once(' ')?;
    let node = pointer.strip_prefix("/graph/")?.split('/').next()?;
    let items = doc.pointer(&format!("/graph/{node}/in/items"))?.as_str()?.strip_prefix("${")?.split('.').next()?;
    let file = file_of_the_rows(doc.get("graph")?.as_array()?, items)?;
    let rows = crate::reading::slots::singular(&rows.to_lowercase());
    let named = file_words(&file).iter().any(|w| crate::reading::slots::singular(w) == rows);
    named.then(|| choose(rest, columns)).flatten()
}

/// 「弁当注文.csv …部署ごとの注文数と金額合計」: a total of 「X数」 or 「X件数」 where no column is it and
/// X is a word of the name of the file read (each row one X) is the count of the rows: the
/// aggregation's pointer, and the file.
fn count_of_the_rows_the_file_holds(doc: &Value, pointer: &str, wanted: &str) -> Option<(String, String)> {
    let (node, rest) = pointer.strip_prefix("/graph/")?.split_once('/')?;
    let aggregation = rest.strip_prefix("in/aggregations/")?.strip_suffix("/field")?;
    let node_value = doc.pointer(&format!("/graph/{node}"))?;
    let op = node_value.pointer(&format!("/in/aggregations/{aggregation}/op")).and_then(Value::as_str)?;
    let thing = wanted.strip_suffix("件数").or_else(|| wanted.strip_suffix('数')).filter(|t| t.chars().count() >= 2)?;
    let items = node_value.pointer("/in/items")?.as_str()?.strip_prefix("${")?.split('.').next()?;
    let file = file_of_the_rows(doc.get("graph")?.as_array()?, items)?;
    let stem = file.rsplit_once('.').map_or(file.as_str(), |(stem, _)| stem);
    (op == "sum" && !thing.is_ascii() && fold(stem).contains(&fold(thing)))
        .then(|| (format!("/graph/{node}/in/aggregations/{aggregation}"), file.clone()))
}

/// Whether `pointer` is a column a choice of columns shows (`/graph/5/in/columns/1`).
fn shown_column(doc: &Value, pointer: &str) -> bool {
    let Some((node, rest)) = pointer.strip_prefix("/graph/").and_then(|p| p.split_once('/')) else { return false };
    rest.strip_prefix("in/columns/").is_some_and(|i| i.bytes().all(|b| b.is_ascii_digit()))
        && doc.pointer(&format!("/graph/{node}/block")).and_then(Value::as_str) == Some("transforms.select_columns")
}

/// The one column `wanted` means among `columns` (a word the text says is the file's column by
/// another name is that column), with a note of whether it was bound or is to be asked.
fn chosen_and_noted(
    wanted: &str,
    columns: &[Column],
    aliases: &[(String, String)],
    binding: &mut Binding,
) -> Option<String> {
    let aliased = aliases.iter().find(|(word, _)| fold(word) == fold(wanted)).map(|(_, column)| column);
    let chosen = choose(aliased.map_or(wanted, String::as_str), columns);
    binding.notes.push(match &chosen {
        Some(column) => DesignNote::ColumnBound { wanted: wanted.to_owned(), column: column.clone() },
        None => DesignNote::ColumnAsked { wanted: wanted.to_owned() },
    });
    chosen
}

/// The columns of a formula at `pointer` that are not among `columns`, each bound to the one
/// column it means or made a question (`[${vars.unit_price_column}]`). Whether it changed the plan.
fn bind_formula(
    doc: &mut Value,
    pointer: &str,
    raw: &str,
    columns: &[Column],
    aliases: &[(String, String)],
    binding: &mut Binding,
) -> bool {
    let Ok(formula) = planwright_formula::Formula::parse(raw) else { return false };
    let names: Vec<String> = columns.iter().map(|c| c.name.clone()).collect();
    let mut renamed: Vec<(String, String)> = Vec::new();
    for wanted in formula.columns() {
        if names.iter().any(|n| n == wanted) || wanted.contains("${") {
            continue;
        }
        let to = match chosen_and_noted(wanted, columns, aliases, binding) {
            Some(column) => column,
            None => {
                let name = new_var(doc, wanted);
                binding.questions.push(ColumnQuestion {
                    var: name.clone(),
                    wanted: wanted.to_owned(),
                    columns: names.clone(),
                });
                format!("${{vars.{name}}}")
            }
        };
        renamed.push((wanted.to_owned(), to));
    }
    if renamed.is_empty() {
        return false;
    }
    let bound = formula.renamed(&|name| renamed.iter().find(|(from, _)| from == name).map(|(_, to)| to.clone()));
    set(doc, pointer, Value::from(bound.to_string()));
    binding.bound.push(pointer.to_owned());
    true
}

/// Open column vars (`${vars.amount_column}` with no value) where the columns are known.
fn bind_open(doc: &mut Value, validation: &Validation, said: &[String], binding: &mut Binding) -> bool {
    // Each open var with the columns of every place it names one.
    let mut places: IndexMap<String, Vec<(&String, &Vec<Column>)>> = IndexMap::new();
    for (pointer, columns) in &validation.columns_at {
        let Some(name) = doc.pointer(pointer).and_then(Value::as_str).and_then(single_var) else { continue };
        if doc.pointer(&format!("/vars/{name}")).is_some_and(Value::is_null) {
            places.entry(name).or_default().push((pointer, columns));
        }
    }
    let values = sample_values(validation);
    let mut changed = false;
    for (name, at) in places {
        if binding.questions.iter().any(|q| q.var == name) {
            continue;
        }
        // The same column must be there at every place (a match key on both sides).
        let mut common: Vec<Column> = at[0].1.clone();
        common.retain(|c| at.iter().all(|(_, cols)| cols.iter().any(|o| o.name == c.name)));
        let purpose = purpose_of(&name);
        let by_value = condition_value(doc, at[0].0).and_then(|v| holding(&v, &common, &values));
        let chosen = by_value
            .or_else(|| purpose.as_deref().and_then(|p| choose(p, &common)))
            .or_else(|| {
                // The amount to total or compare: the one column of numbers there is (the date a
                // month is kept by is the one column of dates, which `choose` gives).
                let numbers: Vec<&Column> = common.iter().filter(|c| c.kind == ColumnKind::Number).collect();
                match (purpose.as_deref(), numbers.as_slice()) {
                    (Some("amount"), [one]) => Some(one.name.clone()),
                    _ => None,
                }
            })
            .or_else(|| {
                // A match key: the one column both sides share, or of several the one the text
                // names as written ("which requirement each case covers (req_id)"), or the one
                // named as a key.
                let named: Vec<&String> =
                    common.iter().map(|c| &c.name).filter(|c| said.iter().any(|w| w == *c) && names_a_key(c)).collect();
                // (Of 社員番号 and 氏名 both sides have, the one named as a key: 社員番号.)
                let keys: Vec<&Column> = common.iter().filter(|c| names_a_key(&c.name)).collect();
                match (common.as_slice(), named.as_slice(), keys.as_slice()) {
                    // (An amount both happen to have is the key only when no two columns of
                    // names alike hold the same values: "reference" and "invoice_no" do.)
                    ([one], _, _) if name == "match_key" => {
                        let an_amount = one.kind == ColumnKind::Number && !names_a_key(&one.name);
                        let keyed_by_values = match at.as_slice() {
                            [(_, l), (_, r)] => keys_by_values(l, r, &values).is_some(),
                            _ => false,
                        };
                        (!(an_amount && keyed_by_values)).then(|| one.name.clone())
                    }
                    (_, [one], _) if name == "match_key" => Some((*one).clone()),
                    (_, [], [one]) if name == "match_key" => Some(one.name.clone()),
                    _ => None,
                }
            });
        if let (None, Some([(left, l), (right, r)])) = (&chosen, (name == "match_key").then_some(at.as_slice())) {
            if let Some((left_key, right_key)) = keys_by_values(l, r, &values) {
                set(doc, left, Value::from(left_key.as_str()));
                set(doc, right, Value::from(right_key.as_str()));
                if let Some(vars) = doc.get_mut("vars").and_then(Value::as_object_mut) {
                    vars.shift_remove(&name);
                }
                // The node's words named the key by its var.
                let description = left.rsplitn(3, '/').nth(2).map(|node| format!("{node}/description"));
                if let Some(text) = description.as_deref().and_then(|d| doc.pointer_mut(d)) {
                    if let Some(said) =
                        text.as_str().map(|t| t.replace("${vars.match_key}", &format!("{left_key} / {right_key}")))
                    {
                        *text = Value::from(said);
                    }
                }
                binding.bound.extend([(*left).clone(), (*right).clone()]);
                binding.notes.push(DesignNote::KeysByValues { left: left_key, right: right_key });
                changed = true;
                continue;
            }
        }
        if let Some((paid, amount)) = chosen.is_none().then(|| paid_by_the_amounts(doc, at[0].0, &common)).flatten() {
            if let Some(vars) = doc.get_mut("vars").and_then(Value::as_object_mut) {
                vars.shift_remove(&name);
            }
            binding.bound.push(at[0].0.clone());
            binding.notes.push(DesignNote::PaidByTheAmounts { paid, amount });
            changed = true;
            continue;
        }
        // 「未承認のもの」 of a column 承認 holding 未 and 済: the column and the state's mark.
        let split = match (&chosen, at.as_slice()) {
            (None, [(pointer, _)]) => condition_value(doc, pointer)
                .and_then(|said| state_over_its_column(&said, &common, &values))
                .map(|(column, mark)| (pointer.strip_suffix("/field").map(|c| format!("{c}/value")), column, mark)),
            _ => None,
        };
        let chosen = match split {
            Some((Some(value_at), column, mark)) => {
                set(doc, &value_at, Value::from(mark));
                Some(column)
            }
            _ => chosen,
        };
        match chosen {
            Some(column) => {
                set(doc, &format!("/vars/{name}"), Value::from(column.as_str()));
                binding.bound.push(format!("/vars/{name}"));
                binding.notes.push(DesignNote::VarBound { var: name.clone(), column: column.clone() });
                changed = true;
            }
            None => binding.questions.push(ColumnQuestion {
                var: name.clone(),
                wanted: purpose.unwrap_or(name),
                columns: at[0].1.iter().map(|c| c.name.clone()).collect(),
            }),
        }
    }
    changed
}

/// The one column `wanted` means among `columns`, or `None` (none, or several). A phrase is
/// not a name (「に合計した一覧」): it binds to nothing and is asked.
pub fn choose(wanted: &str, columns: &[Column]) -> Option<String> {
    let want = fold(wanted);
    let japanese = wanted.chars().any(|c| matches!(c, '\u{3040}'..='\u{309f}'));
    if want.is_empty() || japanese && !crate::reading::slots::is_japanese_noun(wanted.trim()) {
        return None;
    }
    let unique = |found: Vec<&Column>| match found.as_slice() {
        [one] => Some(one.name.clone()),
        _ => None,
    };
    let names: Vec<(String, &Column)> = columns.iter().map(|c| (fold(&c.name), c)).collect();
    let exact: Vec<&Column> = names.iter().filter(|(name, _)| *name == want).map(|(_, c)| *c).collect();
    if !exact.is_empty() {
        return unique(exact);
    }
    // 「金額（税抜）」 is 「税抜金額」, 「税抜額」: the words in brackets before the name.
    let bracketed = |name: &str| -> Vec<String> {
        let Some((base, rest)) = name.split_once(['（', '(']) else { return Vec::new() };
        let inner = rest.trim_end_matches(['）', ')']);
        let mut said = vec![fold(&format!("{inner}{base}"))];
        if let Some(short) = base.strip_suffix("金額") {
            said.push(fold(&format!("{inner}{short}額")));
        }
        said
    };
    if let [one] = columns.iter().filter(|c| bracketed(&c.name).contains(&want)).collect::<Vec<_>>().as_slice() {
        return Some(one.name.clone());
    }
    // 「同じ日に」, "on the same day": the one column of dates.
    if matches!(want.as_str(), "日" | "日付" | "date" | "day") {
        if let [one] = columns.iter().filter(|c| c.kind == ColumnKind::Date).collect::<Vec<_>>().as_slice() {
            return Some(one.name.clone());
        }
    }
    // "the ID": the one column of ids (`bug_id`, not `paid`), as "the number" is of numbers.
    if matches!(want.as_str(), "id" | "number" | "code") {
        if let [one] = columns.iter().filter(|c| last_word(&c.name) == want).collect::<Vec<_>>().as_slice() {
            return Some(one.name.clone());
        }
    }
    // 「科目名」 of data with 「勘定科目」: the name of a thing is the one column named as it.
    if let Some(thing) = want.strip_suffix('名').filter(|t| t.chars().count() >= 2 && !t.is_ascii()) {
        let naming: Vec<&Column> = names.iter().filter(|(name, _)| name.ends_with(thing)).map(|(_, c)| *c).collect();
        if let [one] = naming.as_slice() {
            return Some(one.name.clone());
        }
    }
    let long_enough = |t: &str| t.chars().count() >= if t.is_ascii() { 3 } else { 2 };
    // 「入金日のTTM」 is a TTM: a column named in it before its last の is no match (but
    // 「受付日の日数」 is of 受付日, and 「期限の近い」 says 期限).
    const OF_THE_THING: [&str; 10] = ["日数", "件数", "数", "時間", "日", "月", "年", "合計", "平均", "差"];
    let head = want
        .rsplit_once('の')
        .map(|(_, head)| head)
        .filter(|head| !head.is_empty() && !head.chars().any(|c| matches!(c, '\u{3040}'..='\u{309f}')))
        .filter(|head| !OF_THE_THING.iter().any(|m| head.ends_with(m)))
        .unwrap_or(&want);
    let words: Vec<&String> = synonym_groups(&want).flat_map(|i| &FOLDED_SYNONYMS[i]).collect();
    // A column named by a word of the same meaning (取引先名 → 仕入先名), before one containing it
    // (仕入先コード).
    let same: Vec<&Column> = names.iter().filter(|(name, _)| words.contains(&name)).map(|(_, c)| *c).collect();
    if same.len() == 1 {
        return unique(same);
    }
    // A column containing the word ("invoice" → invoice_ref), or one of a word of the same
    // meaning (supplier → vendor): bound only when one column is either. 「金額」 is in
    // 「入金額」, but 「請求額」 is an amount too: asked.
    let candidates: Vec<&Column> = names
        .iter()
        .filter(|(name, column)| {
            let name = name.as_str();
            // Plurals aside: "payment term" is in `terms`.
            let (name_stem, want_stem) = (name.trim_end_matches('s'), want.trim_end_matches('s'));
            // (The word said may be anywhere in a name written as one word, `netamount`; a word
            // of the same meaning only starts one of its words.)
            let contains = long_enough(name) && long_enough(&want) && {
                name.contains(&want)
                    || head.contains(name)
                    || name_stem.contains(want_stem)
                    || head.trim_end_matches('s').contains(name_stem)
            };
            // ("revenue" is no `total_ticket`: a word of totals, said of another measure.)
            let of_another_measure = |w: &str| {
                const TOTALS: [&str; 4] = ["total", "sum", "合計", "小計"];
                const PLAIN: [&str; 9] = ["jpy", "usd", "eur", "yen", "円", "税込", "税抜", "net", "gross"];
                let rest = name.replacen(w, "", 1);
                TOTALS.contains(&w)
                    && !rest.is_empty()
                    && !PLAIN.contains(&rest.as_str())
                    && !words
                        .iter()
                        .any(|o| !TOTALS.contains(&o.as_str()) && !o.is_empty() && rest.contains(o.as_str()))
            };
            let related = contains
                || words
                    .iter()
                    .any(|w| *w == name || long_enough(w) && holds_word(name, column, w) && !of_another_measure(w));
            related && !name_and_code(&want, name)
        })
        .map(|(_, c)| *c)
        .collect();
    // (「金額」 of 「本数合計」 and 「金額合計」: a name holding the word said, before one holding
    // only a word of the same meaning, 合計.)
    // (Not 「請求額」 beside 「入金額」: an amount named otherwise is asked.)
    let literal: Vec<&Column> = candidates.iter().copied().filter(|c| fold(&c.name).contains(&want)).collect();
    let only_a_total = |c: &Column| {
        let rest = ["合計", "小計", "total", "sum"].iter().fold(fold(&c.name), |name, w| name.replace(w, ""));
        !words.iter().any(|w| !w.is_empty() && rest.contains(w.as_str()))
    };
    let others_only_totals = candidates.iter().filter(|c| !literal.contains(c)).all(|c| only_a_total(c));
    if candidates.len() > 1 && literal.len() == 1 && !want.is_ascii() && others_only_totals {
        return unique(literal);
    }
    // ("hours x hourly rate": `hours` is the word said, `hourly_rate` only holds it.)
    let whole: Vec<&Column> = candidates
        .iter()
        .copied()
        .filter(|c| fold(&c.name).trim_end_matches('s') == want.trim_end_matches('s'))
        .collect();
    if candidates.len() > 1 && whole.len() == 1 {
        return unique(whole);
    }
    // ("module owner" of `module` and `owner`: English words name the thing last.)
    let last_said = wanted.contains(' ').then(|| wanted.split_whitespace().next_back().map(fold)).flatten();
    let named_last: Vec<&Column> =
        candidates.iter().copied().filter(|c| last_said.as_ref() == Some(&fold(&c.name))).collect();
    if candidates.len() > 1 && named_last.len() == 1 {
        return unique(named_last);
    }
    // "the most units" of `unit_cost` and `qty_on_hand`: a unit cost is the price of one unit,
    // never a number of them; the quantity is the one left (and with none left, it is asked).
    let priced: Vec<&Column> = candidates
        .iter()
        .copied()
        .filter(|c| {
            let words = crate::column_words::name_words(&c.name);
            COUNTED_UNITS.contains(&want.trim_end_matches('s'))
                && words.len() > 1
                && words[..words.len() - 1].iter().any(|w| fold(w).trim_end_matches('s') == want.trim_end_matches('s'))
                && PRICED_HEADS.contains(&fold(words[words.len() - 1]).as_str())
        })
        .collect();
    if !priced.is_empty() {
        return unique(candidates.into_iter().filter(|c| !priced.contains(c)).collect());
    }
    // "the annual cost" of `annual_cost` and `cost_center`: an amount is a column of numbers.
    let numbers: Vec<&Column> = candidates.iter().copied().filter(|c| c.kind == ColumnKind::Number).collect();
    if candidates.len() > 1 && numbers.len() == 1 && AMOUNT_WORDS.contains(&want.as_str()) {
        return unique(numbers);
    }
    if !candidates.is_empty() {
        return unique(candidates);
    }
    // 「計画時間」 of `planned_min`: Japanese words over an English header, word by word.
    if !wanted.is_ascii() {
        let translated: Vec<&Column> =
            columns.iter().filter(|c| crate::column_words::japanese_names_english(wanted, &c.name)).collect();
        if !translated.is_empty() {
            return unique(translated);
        }
    }
    // "window cleaning spend" of `amount`: money said last, of the one column of money.
    if wanted.split_whitespace().next_back().is_some_and(|w| SPENT_WORDS.contains(&fold(w).as_str())) {
        let of_money: Vec<&Column> = columns
            .iter()
            .filter(|c| {
                c.kind == ColumnKind::Number
                    && crate::column_words::name_words(&c.name).iter().any(|w| AMOUNT_WORDS.contains(&fold(w).as_str()))
            })
            .collect();
        if of_money.len() == 1 {
            return unique(of_money);
        }
    }
    // "accepted offer" of `offer_accepted_on`: every word said is a word of the name, in any order.
    let said: Vec<String> = wanted.split_whitespace().map(fold).filter(|w| long_enough(w)).collect();
    if said.len() < 2 || said.len() != wanted.split_whitespace().count() {
        return None;
    }
    let holding_every_word = columns.iter().filter(|c| {
        let words: Vec<String> = c.name.split(|ch: char| !ch.is_alphanumeric()).map(fold).collect();
        said.iter().all(|w| words.contains(w))
    });
    unique(holding_every_word.collect())
}

/// Words that count things (`units`, `pieces`), and the last words of a name that make it the
/// price of one of them (`unit_cost`, `piece_price`).
const COUNTED_UNITS: &[&str] = &["unit", "piece", "item"];
/// Words said of an amount of money (folded), never of a code or a name.
const AMOUNT_WORDS: &[&str] =
    &["cost", "costs", "price", "amount", "fee", "fees", "total", "value", "金額", "費用", "価格"];
const PRICED_HEADS: &[&str] = &["cost", "price", "rate", "fee", "value"];
/// Words that say money went out or came in ("spend", "charges"), last in a phrase that names
/// what for ("window cleaning spend").
const SPENT_WORDS: &[&str] =
    &["spend", "spending", "spent", "cost", "costs", "charges", "fees", "paid", "payments", "billing"];

/// Whether the column (`folded` its folded name) holds the folded word `word`: anywhere in a
/// Japanese name (支払先 in 支払先名), at the start of one of its words in a Latin one
/// (`invoice_date`, `InvoiceDate`; not `candidate`, which is no date).
fn holds_word(folded: &str, column: &Column, word: &str) -> bool {
    if !word.is_ascii() {
        return folded.contains(word);
    }
    let words = crate::column_words::name_words(&column.name);
    (0..words.len()).any(|i| words[i..].iter().map(|w| fold(w)).collect::<String>().starts_with(word))
}

/// Whether one of two folded names is a thing's name and the other its code (「顧客名」 and
/// 「顧客番号」, `customer_name` and `customer_id`): never the same column. (The thing itself is
/// often its code: 「伝票ごとに」 groups by 伝票番号, "per vendor" by `vendor_id`.)
fn name_and_code(a: &str, b: &str) -> bool {
    let names = |t: &str| ["名", "名称", "氏名", "name"].iter().any(|e| t.ends_with(e));
    let codes = |t: &str| ["番号", "コード", "id", "code", "number", "no", "cd"].iter().any(|e| t.ends_with(e));
    names(a) && codes(b) || codes(a) && names(b)
}

/// The words of a name: lower case, widths folded, the abbreviations of column names spelt out
/// (`txn_date` → transaction, date; `Qty` → quantity), split at spaces, `_`, `-`, `・` and dots.
pub(crate) fn folded_words(text: &str) -> Vec<String> {
    const ABBREVIATIONS: &[(&str, &str)] = &[
        ("txn", "transaction"),
        ("trx", "transaction"),
        ("amt", "amount"),
        ("qty", "quantity"),
        ("dept", "department"),
        ("no", "number"),
        ("num", "number"),
        ("nbr", "number"),
        ("inv", "invoice"),
        ("emp", "employee"),
        ("cust", "customer"),
        ("desc", "description"),
        ("ref", "reference"),
        ("req", "requirement"),
        ("acct", "account"),
        ("ot", "overtime"),
        ("hrs", "hours"),
        ("po", "purchaseorder"),
        ("cc", "costcenter"),
        ("yr", "year"),
        ("mo", "month"),
        ("temp", "temperature"),
        ("pct", "percent"),
        ("avg", "average"),
        // (`reading_at`: the time of the reading.)
        ("at", "time"),
    ];
    plain_words(text)
        .into_iter()
        .map(|w| ABBREVIATIONS.iter().find(|(short, _)| *short == w).map_or(w.clone(), |(_, long)| (*long).to_owned()))
        .collect()
}

/// The words of `text`, lower case, with nothing spelled out.
fn plain_words(text: &str) -> Vec<String> {
    let lower: String = text.nfkc().flat_map(char::to_lowercase).collect();
    lower.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).map(str::to_owned).collect()
}

/// A value of the data for comparing, its words joined and nothing spelled out: the value `No`
/// is not the word "number", as the column `lot_no` is.
fn fold_value(text: &str) -> String {
    plain_words(text).concat()
}

/// A name for comparing: its [`folded_words`] joined (`txn_date` → transactiondate).
fn fold(text: &str) -> String {
    folded_words(text).concat()
}

/// Whether `word` is `value` inflected ("voided" of `Void`, "approved" of `Approve`, "closes" of
/// `Closed`): the two end in -s, -es, -d, -ed, -ing or nothing added to one stem.
fn inflects(word: &str, value: &str) -> bool {
    let (word, value) = (fold(word), fold(value));
    // Each stem a word may have ("void" of "voided", "voi" of "void"); a silent e is none of it
    // ("approv" of "approve" and "approved").
    let stems = |w: &str| -> Vec<String> {
        let mut stems = vec![w.to_owned()];
        stems.extend(["ing", "ed", "es", "d", "s"].iter().filter_map(|end| w.strip_suffix(end)).map(str::to_owned));
        let silent: Vec<String> = stems.iter().filter_map(|s| s.strip_suffix('e')).map(str::to_owned).collect();
        stems.extend(silent);
        stems.retain(|s| s.chars().count() >= 3);
        stems
    };
    let of_value = stems(&value);
    word != value && word.is_ascii() && value.is_ascii() && stems(&word).iter().any(|s| of_value.contains(s))
}

/// The column a condition's field names: written out, or given by a var's value.
pub(crate) fn column_named(field: &str, vars: &IndexMap<String, Value>) -> Option<String> {
    match single_var(field) {
        Some(var) => vars.get(&var).and_then(Value::as_str).map(str::to_owned),
        None => Some(field.to_owned()),
    }
}

/// `x` when `text` is exactly `${vars.x}`.
fn single_var(text: &str) -> Option<String> {
    match Template::parse(text) {
        Ok(Template::Single(Reference { root: Root::Vars, path })) if path.len() == 1 => Some(path[0].clone()),
        _ => None,
    }
}

/// Whether a column's name is a key's: an id, a number, a code (`req_id`, `Invoice No`, 「取引先コード」;
/// not `paid`).
fn names_a_key(column: &str) -> bool {
    matches!(last_word(column).as_str(), "id" | "number" | "code" | "key")
        || ["番号", "コード"].iter().any(|k| column.ends_with(k))
}

/// The last word of a column's name, folded (`Invoice No` → number, `bug_id` → id).
fn last_word(name: &str) -> String {
    fold(name.rsplit(|c: char| !c.is_alphanumeric()).find(|w| !w.is_empty()).unwrap_or_default())
}

/// "mentor name" among `mentor_id` and `full_name` (the mentors looked up by their id): the
/// thing said first is the one a key column is named for, and the one column named for what is
/// said last (alone or with a plain word before it: `name`, `full_name`) is that thing's. Any
/// other word in that column's name (`customer_name`) may be of another thing: not chosen.
fn named_after_its_key(wanted: &str, columns: &[Column]) -> Option<String> {
    const PLAIN: [&str; 6] = ["full", "display", "legal", "official", "registered", "preferred"];
    let words = folded_words(wanted);
    let [thing, what] = words.as_slice() else { return None };
    let keyed = columns.iter().any(|c| names_a_key(&c.name) && folded_words(&c.name).first() == Some(thing));
    let named: Vec<&Column> = columns
        .iter()
        .filter(|c| match folded_words(&c.name).as_slice() {
            [only] => only == what,
            [plain, last] => last == what && PLAIN.contains(&plain.as_str()),
            _ => false,
        })
        .collect();
    match named.as_slice() {
        [one] if keyed => Some(one.name.clone()),
        _ => None,
    }
}

/// "the average flight time" of a log with `minutes`: a time said of each row is the one
/// column of numbers named for a unit of time.
fn time_said_of_a_duration(wanted: &str, columns: &[Column]) -> Option<String> {
    const UNITS: [&str; 9] = ["minutes", "minute", "mins", "min", "hours", "hour", "hrs", "seconds", "duration"];
    let words = folded_words(wanted);
    if !matches!(words.last().map(String::as_str), Some("time" | "duration" | "length")) {
        return None;
    }
    let timed: Vec<&Column> = columns
        .iter()
        .filter(|c| c.kind == ColumnKind::Number && folded_words(&c.name).iter().any(|w| UNITS.contains(&w.as_str())))
        .collect();
    match timed.as_slice() {
        [one] => Some(one.name.clone()),
        _ => None,
    }
}

/// What an open column is for, from its var's name: `amount_column` → amount.
fn purpose_of(var: &str) -> Option<String> {
    let stem = var.strip_suffix("_column")?;
    Some(match stem {
        "sort" => "amount".to_owned(),
        "text" => "description".to_owned(),
        "duplicate" | "partner" => return None,
        other => other.replace('_', " "),
    })
}

/// "the invoices not fully paid", "unpaid ones" of data with no state column but the amount and
/// the amount paid: the condition at `field` (a state "paid" kept or left out) becomes the amount
/// paid compared with the amount (at least it: paid; less: not). The two columns, when it did.
fn paid_by_the_amounts(doc: &mut Value, field: &str, columns: &[Column]) -> Option<(String, String)> {
    let condition = field.strip_suffix("/field")?;
    let (Some(state), Some(operator)) = (
        condition_value(doc, field).map(|v| fold(&v)),
        doc.pointer(&format!("{condition}/operator")).and_then(Value::as_str).map(str::to_owned),
    ) else {
        return None;
    };
    let paid = match (state.as_str(), operator.as_str()) {
        ("paid" | "fullypaid" | "settled", "eq") | ("unpaid" | "outstanding" | "open", "ne") => true,
        ("paid" | "fullypaid" | "settled", "ne") | ("unpaid" | "outstanding" | "open", "eq") => false,
        _ => return None,
    };
    let numbers: Vec<&Column> = columns.iter().filter(|c| c.kind == ColumnKind::Number).collect();
    let one = |fits: &dyn Fn(&[String]) -> bool| -> Option<String> {
        match numbers.iter().filter(|c| fits(&folded_words(&c.name))).collect::<Vec<_>>().as_slice() {
            [one] => Some(one.name.clone()),
            _ => None,
        }
    };
    let paid_column = one(&|words| words.iter().any(|w| w == "paid"));
    let amount_column = one(&|words| {
        !words.iter().any(|w| w == "paid")
            && words.last().is_some_and(|w| matches!(w.as_str(), "amount" | "total" | "billed" | "invoiced" | "due"))
    });
    let (paid_column, amount_column) = (paid_column?, amount_column?);
    let compared = serde_json::json!({
        "field": paid_column,
        "operator": if paid { "gte" } else { "lt" },
        "column": amount_column,
    });
    *doc.pointer_mut(condition)? = compared;
    Some((paid_column, amount_column))
}

/// The value the filter condition whose field is at `pointer` compares with: its text, or the
/// first of the texts it is one of.
fn condition_value(doc: &Value, pointer: &str) -> Option<String> {
    let condition = pointer.strip_suffix("/field")?;
    let value = doc.pointer(&format!("{condition}/value"))?;
    value.as_str().or_else(|| value.as_array()?.first()?.as_str()).map(str::to_owned)
}

/// "the tests failed in run R2" of `run_id` and `run_date`: of the columns named with the word
/// said, the one that holds the value the condition compares with.
fn named_and_holding_the_value(
    doc: &Value,
    pointer: &str,
    said: &str,
    columns: &[Column],
    validation: &Validation,
) -> Option<String> {
    let value = condition_value(doc, pointer)?;
    let named: Vec<Column> = columns.iter().filter(|c| holds_word(&fold(&c.name), c, &fold(said))).cloned().collect();
    holding(&value, &named, &sample_values(validation))
}

/// The key of two tables whose columns are named apart: the one pair of text columns whose
/// names hold one another (`voucher` and `voucher_ref`) and whose first rows share a value; else
/// the one pair, whatever their names (`Currency` and `Code`), whose values are mostly the same
/// (half of the fewer distinct values, two at least, in both).
fn keys_by_values(
    left: &[Column],
    right: &[Column],
    values: &BTreeMap<String, Vec<String>>,
) -> Option<(String, String)> {
    let related = |a: &str, b: &str| {
        let (a, b) = (fold(a), fold(b));
        !a.is_empty() && !b.is_empty() && (a.contains(&b) || b.contains(&a)) || same_meaning(&a, &b)
    };
    let distinct = |column: &str| -> std::collections::BTreeSet<&String> {
        values.get(column).into_iter().flatten().filter(|v| !v.is_empty()).collect()
    };
    let shared = |a: &str, b: &str| distinct(a).intersection(&distinct(b)).count();
    let mostly_shared = |a: &str, b: &str| {
        let fewer = distinct(a).len().min(distinct(b).len());
        fewer >= 2 && shared(a, b) * 2 >= fewer
    };
    let text_pairs: Vec<(&str, &str)> = left
        .iter()
        .filter(|l| l.kind == ColumnKind::Text)
        .flat_map(|l| {
            right.iter().filter(|r| r.kind == ColumnKind::Text).map(move |r| (l.name.as_str(), r.name.as_str()))
        })
        .collect();
    let named: Vec<&(&str, &str)> = text_pairs.iter().filter(|(l, r)| related(l, r) && shared(l, r) > 0).collect();
    let pairs = match named.is_empty() {
        false => named,
        true => text_pairs.iter().filter(|(l, r)| mostly_shared(l, r)).collect(),
    };
    match pairs.as_slice() {
        [(l, r)] => Some(((*l).to_owned(), (*r).to_owned())),
        _ => None,
    }
}

/// Every value of every column in the input files' first rows, folded as a value ([`fold_value`]).
fn sample_values(validation: &Validation) -> BTreeMap<String, Vec<String>> {
    let mut values: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for row in validation.input_rows.values().flatten().filter_map(Value::as_object) {
        for (column, value) in row {
            if let Some(text) = value.as_str() {
                values.entry(column.clone()).or_default().push(fold_value(text));
            }
        }
    }
    values
}

/// The one column among `columns` whose values hold `value` ("approved" in `status`).
fn holding(value: &str, columns: &[Column], values: &BTreeMap<String, Vec<String>>) -> Option<String> {
    let want = fold_value(value);
    let found: Vec<&Column> =
        columns.iter().filter(|c| values.get(&c.name).is_some_and(|vs| vs.contains(&want))).collect();
    match found.as_slice() {
        [one] => Some(one.name.clone()),
        _ => None,
    }
}

/// A state said as a column's name and its mark (「未承認」「承認済み」) that no column holds whole:
/// the column so named (`承認`) and the mark as its values write it (`未`, `済`).
fn state_over_its_column(
    said: &str,
    columns: &[Column],
    values: &BTreeMap<String, Vec<String>>,
) -> Option<(String, String)> {
    if holding(said, columns, values).is_some() {
        return None;
    }
    let (name, marks): (&str, &[&str]) = if let Some(name) = said.strip_prefix('未') {
        (name, &["未", "未済"])
    } else {
        let name = said.strip_suffix("済み").or_else(|| said.strip_suffix('済'))?;
        (name, &["済", "済み", "完了"])
    };
    let column = columns.iter().find(|c| !name.is_empty() && fold(&c.name) == fold(name))?;
    let held = values.get(&column.name)?;
    let mark = marks.iter().find(|m| held.contains(&fold_value(m)))?;
    Some((column.name.clone(), (*mark).to_owned()))
}

/// A new var for the column the text calls `wanted`, unused so far.
fn new_var(doc: &mut Value, wanted: &str) -> String {
    // A Japanese word is named by its meaning in English (「金額」 → amount_column).
    let meaning = || synonym_groups(&fold(wanted)).next().and_then(|i| identifier(SYNONYMS[i][0]));
    let base = identifier(wanted).or_else(meaning).map_or_else(|| "column".to_owned(), |id| format!("{id}_column"));
    let taken = |name: &str| doc.pointer(&format!("/vars/{name}")).is_some();
    let mut name = base.clone();
    let mut n = 2;
    while taken(&name) {
        name = format!("{base}_{n}");
        n += 1;
    }
    declare(doc, "vars", &name);
    name
}

/// Sets the value at `pointer`, creating the `vars` map when it is missing.
fn set(doc: &mut Value, pointer: &str, value: Value) {
    let Some((parent, key)) = split_pointer(pointer) else { return };
    if parent == "/vars" {
        declare(doc, "vars", &key);
    }
    match doc.pointer_mut(&parent) {
        Some(Value::Object(map)) => {
            map.insert(key, value);
        }
        Some(Value::Array(items)) => {
            if let Some(slot) = key.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                *slot = value;
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn columns(names: &[&str]) -> Vec<Column> {
        names.iter().map(|n| Column { name: (*n).to_owned(), kind: ColumnKind::Text }).collect()
    }

    #[test]
    fn the_year_of_a_month_is_read_from_the_days_the_data_writes() {
        for day in ["2026-11-03", "2026/11/3", "Nov 3, 2026", "3 November 2026", "Sept. 30, 2026"] {
            let month = if day.starts_with("Sept") { 9 } else { 11 };
            assert_eq!(year_of_month(&Value::from(day), month), Some(2026), "{day}");
        }
        assert_eq!(year_of_month(&Value::from("Nov 3, 2026"), 10), None);
        assert_eq!(year_of_month(&Value::from("Nov 3"), 11), None);
    }

    #[test]
    fn a_number_compared_binds_no_text_column() {
        let mut log = columns(&["client"]);
        log.push(Column { name: "hours".to_owned(), kind: ColumnKind::Number });
        let doc = serde_json::json!({"graph": [{"in": {"conditions": [
            {"field": "clients used", "operator": "gte", "value": 80},
            {"field": "client", "operator": "eq", "value": "Acme"},
        ]}}]});
        assert!(compares_a_number_with_text(&doc, "/graph/0/in/conditions/0/field", "client", &log));
        assert!(!compares_a_number_with_text(&doc, "/graph/0/in/conditions/0/field", "hours", &log));
        assert!(!compares_a_number_with_text(&doc, "/graph/0/in/conditions/1/field", "client", &log));
    }

    #[test]
    fn a_word_binds_to_the_one_column_it_means_in_either_language() {
        let payments = columns(&["date", "vendor", "amount", "reference"]);
        assert_eq!(choose("supplier", &payments).as_deref(), Some("vendor"));
        assert_eq!(choose("支払先", &payments).as_deref(), Some("vendor"));
        assert_eq!(choose("金額", &payments).as_deref(), Some("amount"));
        assert_eq!(choose("Amount", &payments).as_deref(), Some("amount"));
        let orders = columns(&["po_number", "vendor", "order_date", "amount"]);
        assert_eq!(choose("PO number", &orders).as_deref(), Some("po_number"));
        assert_eq!(choose("purchase order number", &orders).as_deref(), Some("po_number"));
        let bank = columns(&["txn_date", "post_date", "payee", "amount", "txn_id"]);
        assert_eq!(choose("transaction date", &bank).as_deref(), Some("txn_date"));
        let ja = columns(&["支払日", "支払先", "金額", "摘要"]);
        assert_eq!(choose("取引先", &ja).as_deref(), Some("支払先"));
        let invoices = columns(&["invoice_ref", "customer", "total"]);
        assert_eq!(choose("invoice", &invoices).as_deref(), Some("invoice_ref"));
        assert_eq!(choose("vendor", &ja).as_deref(), Some("支払先"));
        // A date column by what its date is of, across the languages.
        let mixed = columns(&["伝票番号", "売上日", "Customer", "Amount"]);
        assert_eq!(choose("sales date", &mixed).as_deref(), Some("売上日"));
        assert_eq!(choose("order date", &columns(&["受注番号", "受注日", "得意先"])).as_deref(), Some("受注日"));
        // 「科目名」 is the column the thing is named in (「勘定科目」), not its code.
        let ledger = columns(&["勘定科目コード", "勘定科目", "金額"]);
        assert_eq!(choose("科目名", &ledger).as_deref(), Some("勘定科目"));
        assert_eq!(choose("科目名", &columns(&["勘定科目", "補助科目"])), None, "two things named: asked");
    }

    #[test]
    fn short_forms_of_column_names_are_spelt_out() {
        let log = columns(&["reading_at", "room", "sensor_id", "temp_c"]);
        assert_eq!(choose("temperature", &log).as_deref(), Some("temp_c"));
        assert_eq!(choose("温度", &log).as_deref(), Some("temp_c"));
        assert_eq!(choose("reading time", &log).as_deref(), Some("reading_at"));
        assert_eq!(choose("average score", &columns(&["candidate", "avg_score"])).as_deref(), Some("avg_score"));
    }

    #[test]
    fn words_said_in_another_order_bind_and_a_synonym_binds_only_at_the_start_of_a_word() {
        let applicants = columns(&["candidate", "role", "applied_on", "offer_accepted_on", "days"]);
        assert_eq!(choose("accepted offer", &applicants).as_deref(), Some("offer_accepted_on"));
        // `candidate` ends in the letters of "date", and is no date: "day" is the column `days`.
        assert_eq!(choose("day", &applicants).as_deref(), Some("days"));
        assert_eq!(choose("day", &columns(&["InvoiceDate", "candidate"])).as_deref(), Some("InvoiceDate"));
        assert_eq!(choose("amount", &columns(&["netamount", "customer"])).as_deref(), Some("netamount"));
        assert_eq!(choose("accepted offer", &columns(&["offer_accepted_on", "offer_accepted_by"])), None, "two: asked");
        assert_eq!(choose("offer sent", &applicants), None, "a word of no column");
    }

    #[test]
    fn japanese_words_bind_an_english_header_word_by_word() {
        let log = columns(&["date", "machine_id", "line", "planned_min", "run_min", "stop_reason"]);
        assert_eq!(choose("設備ID", &log).as_deref(), Some("machine_id"));
        assert_eq!(choose("設備", &log).as_deref(), Some("machine_id"));
        assert_eq!(choose("計画時間", &log).as_deref(), Some("planned_min"));
        assert_eq!(choose("稼働時間", &log).as_deref(), Some("run_min"));
        assert_eq!(choose("ライン", &log).as_deref(), Some("line"));
        assert_eq!(choose("時間", &log), None, "two columns of minutes: asked");
    }

    #[test]
    fn a_thing_s_name_is_the_name_column_beside_the_key_named_for_it() {
        let pairs = columns(&["pair_id", "mentee", "mentor_id", "full_name", "team"]);
        assert_eq!(named_after_its_key("mentor name", &pairs).as_deref(), Some("full_name"));
        assert_eq!(named_after_its_key("coach name", &pairs), None, "no key of a coach");
        let other = columns(&["vendor_id", "customer_name", "amount"]);
        assert_eq!(named_after_its_key("vendor name", &other), None, "the name of another thing");
    }

    #[test]
    fn a_name_never_binds_to_a_code_of_the_same_thing() {
        assert_eq!(choose("顧客名", &columns(&["顧客番号", "金額", "結果"])), None);
        assert_eq!(choose("customer name", &columns(&["customer_id", "amount"])), None);
        assert_eq!(choose("顧客名", &columns(&["顧客番号", "顧客名称"])).as_deref(), Some("顧客名称"));
    }

    #[test]
    fn a_time_said_of_each_row_is_the_one_column_named_for_a_unit_of_time() {
        let log = vec![
            Column { name: "pilot".into(), kind: ColumnKind::Text },
            Column { name: "minutes".into(), kind: ColumnKind::Number },
        ];
        assert_eq!(time_said_of_a_duration("flight time", &log).as_deref(), Some("minutes"));
        assert_eq!(time_said_of_a_duration("flight cost", &log), None);
        let two = vec![
            Column { name: "taxi_minutes".into(), kind: ColumnKind::Number },
            Column { name: "air_minutes".into(), kind: ColumnKind::Number },
        ];
        assert_eq!(time_said_of_a_duration("flight time", &two), None, "two: asked");
    }

    #[test]
    fn a_purchase_price_said_in_other_words_binds() {
        let stock = columns(&["商品コード", "品名", "在庫本数", "仕入単価"]);
        assert_eq!(choose("仕入値", &stock).as_deref(), Some("仕入単価"));
    }

    #[test]
    fn a_word_of_totals_said_of_another_measure_binds_nothing() {
        let totals = columns(&["production", "total_ticket"]);
        assert_eq!(choose("revenue", &totals), None, "the total of tickets is no revenue");
        assert_eq!(choose("revenue", &columns(&["production", "total_amount"])).as_deref(), Some("total_amount"));
        assert_eq!(choose("revenue", &columns(&["production", "total"])).as_deref(), Some("total"));
    }

    #[test]
    fn english_words_naming_two_columns_name_the_last() {
        assert_eq!(choose("module owner", &columns(&["module", "owner"])).as_deref(), Some("owner"));
        assert_eq!(choose("region manager", &columns(&["region", "manager", "phone"])).as_deref(), Some("manager"));
        // (One column said alone is not chosen over another by the order of the words.)
        assert_eq!(choose("module owner", &columns(&["module_code", "owner_name"])), None);
    }

    #[test]
    fn a_number_of_units_is_never_the_price_of_one() {
        let stock = columns(&["item", "qty_on_hand", "unit_cost"]);
        assert_eq!(choose("units", &stock).as_deref(), Some("qty_on_hand"));
        assert_eq!(choose("unit cost", &stock).as_deref(), Some("unit_cost"));
        assert_eq!(choose("units", &columns(&["item", "unit_cost"])), None, "a cost is never the units");
    }

    #[test]
    fn a_word_is_the_column_of_that_name_before_one_that_holds_it() {
        assert_eq!(choose("hour", &columns(&["booking_id", "hours", "hourly_rate"])).as_deref(), Some("hours"));
        assert_eq!(choose("金額", &columns(&["月", "本数合計", "金額合計"])).as_deref(), Some("金額合計"));
        assert_eq!(choose("年月", &columns(&["月", "本数合計", "金額合計"])).as_deref(), Some("月"));
    }

    #[test]
    fn an_amount_is_the_one_column_of_numbers_that_could_be_it() {
        let mut periodicals = columns(&["title", "annual_cost", "cost_center"]);
        periodicals[1].kind = ColumnKind::Number;
        assert_eq!(choose("cost", &periodicals).as_deref(), Some("annual_cost"));
        assert_eq!(choose("center", &periodicals).as_deref(), Some("cost_center"));
        // Money said last, after what it was for: the one column of money.
        let mut invoices = columns(&["invoice_no", "building", "amount"]);
        invoices[2].kind = ColumnKind::Number;
        assert_eq!(choose("window cleaning spend", &invoices).as_deref(), Some("amount"));
        assert_eq!(choose("window cleaning", &invoices), None);
    }

    #[test]
    fn a_word_is_a_value_inflected_only_by_an_ending_added() {
        assert!(inflects("voided", "Void"));
        assert!(inflects("approved", "Approve"));
        assert!(inflects("Closes", "Closed"));
        assert!(!inflects("void", "Void"), "the same word is no inflection");
        assert!(!inflects("open", "Opened by"));
        assert!(!inflects("red", "Re"), "a stem of two letters is no stem");
        assert!(!inflects("取消済", "取消"));
    }

    #[test]
    fn a_word_that_could_be_two_columns_or_none_is_not_bound() {
        let two = columns(&["billed_amount", "paid_amount", "customer"]);
        assert_eq!(choose("amount", &two), None, "two amounts: asked");
        let deposits = columns(&["日付", "支払先", "請求額", "入金額"]);
        assert_eq!(choose("金額", &deposits), None, "「入金額」 holds 「金額」, but 「請求額」 is an amount too");
        assert_eq!(choose("region", &two), None);
        assert_eq!(choose("", &two), None);
        let totals = columns(&["仕入先", "合計"]);
        assert_eq!(choose("に合計した一覧", &totals), None, "a phrase is asked, not bound");
        // "the ID" is the column whose last word is id, not one that ends in the letters.
        assert_eq!(choose("ID", &columns(&["bug_id", "amount_paid"])).as_deref(), Some("bug_id"));
        assert_eq!(choose("ID", &columns(&["amount_paid", "title"])), None);
        assert!(names_a_key("Invoice No") && names_a_key("req_id") && names_a_key("取引先コード"));
        assert!(!names_a_key("paid") && !names_a_key("title"));
        // 「出荷日の単価」 is a price, not the date it is of; 「受付日の日数」 counts from 受付日.
        let shipments = columns(&["伝票番号", "出荷日", "数量"]);
        assert_eq!(choose("出荷日の単価", &shipments), None);
        assert_eq!(choose("出荷日の日数", &shipments).as_deref(), Some("出荷日"));
    }

    #[test]
    fn a_column_named_with_brackets_is_its_words_in_either_order_and_english_names_japanese_headers() {
        let ja = columns(&["申請番号", "金額（税抜）", "状態"]);
        assert_eq!(choose("税抜額", &ja).as_deref(), Some("金額（税抜）"));
        assert_eq!(choose("税抜金額", &ja).as_deref(), Some("金額（税抜）"));
        let credit = columns(&["顧客コード", "顧客名", "与信限度額", "売掛残高"]);
        assert_eq!(choose("credit limit", &credit).as_deref(), Some("与信限度額"));
        assert_eq!(choose("customer code", &credit).as_deref(), Some("顧客コード"));
        assert_eq!(choose("outstanding balance", &credit).as_deref(), Some("売掛残高"));
        let brought = columns(&["po_number", "vendor_id", "amount", "vendor_name"]);
        assert_eq!(choose("supplier name", &brought).as_deref(), Some("vendor_name"));
    }
}
