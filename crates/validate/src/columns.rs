//! The columns of every table along the plan's edges: what each table step's output has, from
//! what its inputs have, and every column a step names checked against them.
//!
//! A table's columns are known exactly after a step that says them (a group keeps its `by`
//! columns and its aggregates; a join, both sides' columns), from the header of an input file
//! the caller can read ([`InputFiles`]), and from rows written in the plan. Where nothing says
//! them, a name is not reported: the checker never guesses.

use std::collections::{BTreeMap, HashMap};

use indexmap::IndexMap;
use planwright_catalog::{Catalog, Lookup};
use planwright_formula::Formula;
use planwright_plan::reference::{escape_pointer, var_named};
use planwright_plan::suggest::{closest, did_you_mean};
use planwright_plan::{Code, Column, ColumnKind, Finding, Node, NodeRole, Plan, Reference, Root, Template};
use serde_json::Value;

/// The tables of input files, as the caller can read them: the header (and the kinds of its
/// columns, from a sample of rows) of the file a read step names, when it is in the work folder.
pub trait InputFiles {
    /// The columns of the table that `block` (a read block) would read with these inputs, or
    /// `None` when that is not known before the run (no such file yet, a path given at run
    /// time, not a read block).
    fn columns(&self, block: &str, inputs: &IndexMap<String, Value>) -> Option<InputTable>;

    /// Whether the file `block` would read is known not to be there (no such file in the work
    /// folder, or a path given at run time): its columns can only be assumed. A file that is
    /// there but not read before the run (too large) is not missing.
    fn missing(&self, _block: &str, _inputs: &IndexMap<String, Value>) -> bool {
        false
    }

    /// Why `block` would refuse the file it is to read, when the file is there and the block
    /// refuses it as the inputs say to read it (a sheet the workbook lacks), in its own words.
    fn refused(&self, _block: &str, _inputs: &IndexMap<String, Value>) -> Option<String> {
        None
    }

    /// The data files (CSV, TSV, workbooks) of the work folder itself, by name, sorted; none
    /// when no folder is known.
    fn data_files(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The columns of an input file, the file's name for findings, and its first rows (for the
/// dry-run, and to tell which column holds a value).
#[derive(Debug, Clone, PartialEq)]
pub struct InputTable {
    pub file: String,
    pub columns: Vec<Column>,
    /// The first rows (up to 200).
    pub rows: Vec<Value>,
    /// Whether `rows` are every row of the file.
    pub complete: bool,
}

/// What following the columns found: the findings, each read step's first rows, and the
/// columns there are at each field that names one.
pub(crate) struct ColumnCheck {
    pub findings: Vec<Finding>,
    pub input_rows: HashMap<String, Vec<Value>>,
    pub columns_at: BTreeMap<String, Vec<Column>>,
    /// `node.alias` → the columns of that table output, where known.
    pub tables: BTreeMap<String, Vec<Column>>,
}

/// No input file is known: a read step's columns come from what the plan says.
pub struct NoFiles;

impl InputFiles for NoFiles {
    fn columns(&self, _block: &str, _inputs: &IndexMap<String, Value>) -> Option<InputTable> {
        None
    }
}

/// What is known of a table at one point of the plan.
#[derive(Debug, Clone)]
struct Table {
    columns: IndexMap<String, ColumnKind>,
    /// Columns an earlier step had and left out, with the step that did.
    dropped: IndexMap<String, String>,
    /// Where the columns come from, in words: "payments.csv", "step `totals`".
    origin: String,
}

impl Table {
    fn kind(&self, column: &str) -> Option<ColumnKind> {
        self.columns.get(column).copied()
    }

    /// The columns as the validation gives them.
    fn listed(&self) -> Vec<Column> {
        self.columns.iter().map(|(name, kind)| Column { name: name.clone(), kind: *kind }).collect()
    }

    fn names(&self) -> String {
        self.columns.keys().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
    }
}

/// Checks the columns every table step of the plan's top-level graph names, in `order` (the
/// nodes' indexes in an order that respects their dependencies).
pub(crate) fn check_columns(plan: &Plan, catalog: &Catalog, order: &[usize], files: &dyn InputFiles) -> ColumnCheck {
    let mut flow = Flow {
        vars: &plan.vars,
        tables: HashMap::new(),
        findings: Vec::new(),
        input_rows: HashMap::new(),
        columns_at: BTreeMap::new(),
    };
    for &index in order {
        let Some(node) = plan.graph.get(index) else { continue };
        let Some(NodeRole::Block(block)) = node.role() else { continue };
        let Lookup::Found(spec) = catalog.lookup(block) else { continue };
        // A name given as `${vars.x}` is the var's default unless the person gives another: a
        // template's default column (支払先) is checked against the real data like a written one.
        let node = Node { inputs: flow.with_defaults(&node.inputs), ..node.clone() };
        flow.node(&spec.id, &node, &format!("/graph/{index}"), files);
    }
    let tables = flow.tables.iter().map(|((node, alias), table)| (format!("{node}.{alias}"), table.listed())).collect();
    ColumnCheck { findings: flow.findings, input_rows: flow.input_rows, columns_at: flow.columns_at, tables }
}

struct Flow<'p> {
    /// The plan's vars, whose defaults name the files a plan reads.
    vars: &'p IndexMap<String, Value>,
    /// (node id, alias) → the table it names.
    tables: HashMap<(String, String), Table>,
    findings: Vec<Finding>,
    /// Read step id → the first rows of its file (up to what [`InputFiles`] gives).
    input_rows: HashMap<String, Vec<Value>>,
    /// Field pointer → the columns there are where it names one.
    columns_at: BTreeMap<String, Vec<Column>>,
}

impl Flow<'_> {
    fn node(&mut self, block: &str, node: &Node, pointer: &str, files: &dyn InputFiles) {
        let input = |name: &str| node.inputs.get(name);
        let at = |field: &str| format!("{pointer}/in/{field}");
        let outputs: Vec<(&str, Table)> = match block {
            "file.read_csv" | "excel.read_data" => match files.columns(block, &node.inputs) {
                Some(read) => {
                    self.input_rows.insert(node.id.clone(), read.rows);
                    vec![(
                        "rows",
                        Table {
                            columns: read.columns.into_iter().map(|c| (c.name, c.kind)).collect(),
                            dropped: IndexMap::new(),
                            origin: read.file,
                        },
                    )]
                }
                None => {
                    if let Some(reason) = files.refused(block, &node.inputs) {
                        self.findings.push(refused_file(node, pointer, &reason));
                    }
                    Vec::new()
                }
            },
            "transforms.filter" => {
                let items = self.table(input("items"));
                if let Some(items) = &items {
                    self.check_conditions(items, input("conditions"), &at("conditions"));
                }
                items.map(|t| vec![("filtered", t.clone()), ("excluded", t)]).unwrap_or_default()
            }
            "transforms.group_by_agg" => {
                let items = self.table(input("items"));
                self.group(&node.id, items.as_ref(), node, pointer).map(|t| vec![("rows", t)]).unwrap_or_default()
            }
            "transforms.join" => {
                let (left, right) = (self.table(input("left")), self.table(input("right")));
                if let Some(left) = &left {
                    self.check_name(left, input("left_key"), &at("left_key"), None);
                }
                if let Some(right) = &right {
                    self.check_name(right, input("right_key"), &at("right_key"), None);
                }
                let strategy = node.inputs.get("strategy").and_then(Value::as_str);
                let looked_in = if strategy == Some("right") { &left } else { &right };
                if let Some(looked_in) = looked_in {
                    self.check_names(looked_in, input("bring"), &at("bring"));
                }
                match (strategy, left, right) {
                    (Some("left_only"), Some(left), _) => vec![("rows", left)],
                    (Some("right_only"), _, Some(right)) => vec![("rows", right)],
                    (Some("left_only" | "right_only"), _, _) => Vec::new(),
                    (_, Some(left), Some(right)) => vec![("rows", joined(&node.id, &left, &right, node))],
                    _ => Vec::new(),
                }
            }
            "transforms.sort" => {
                let items = self.table(input("items"));
                if let (Some(items), Some(Value::Array(keys))) = (&items, input("by")) {
                    for (i, key) in keys.iter().enumerate() {
                        let (name, pointer) = match key {
                            Value::Object(map) => (map.get("column"), format!("{}/{i}/column", at("by"))),
                            _ => (Some(key), format!("{}/{i}", at("by"))),
                        };
                        self.check_name(items, name, &pointer, None);
                    }
                }
                items.map(|t| vec![("rows", t)]).unwrap_or_default()
            }
            "transforms.remove_duplicates" | "transforms.find_duplicates" => {
                let items = self.table(input("items"));
                if let Some(items) = &items {
                    self.check_names(items, input("by"), &at("by"));
                }
                let Some(items) = items else { return };
                if block == "transforms.remove_duplicates" {
                    vec![("rows", items.clone()), ("removed", items)]
                } else {
                    let groups = duplicate_groups(&node.id, &items, input("by"));
                    vec![("rows", items)].into_iter().chain(groups.map(|g| ("groups", g))).collect()
                }
            }
            "transforms.select_columns" => {
                let items = self.table(input("items"));
                self.chosen(&node.id, items.as_ref(), input("columns"), &at("columns"))
                    .map(|t| vec![("rows", t)])
                    .unwrap_or_default()
            }
            "transforms.add_columns" => {
                let items = self.table(input("items"));
                items
                    .map(|items| self.computed(&node.id, items, input("columns"), &at("columns")))
                    .map(|t| vec![("rows", t)])
                    .unwrap_or_default()
            }
            "transforms.append" => match input("tables") {
                Some(Value::Array(tables)) => {
                    let known: Option<Vec<Table>> = tables.iter().map(|t| self.table(Some(t))).collect();
                    let source = input("source_column").and_then(Value::as_str).filter(|c| literal(c));
                    known.map(|tables| vec![("rows", appended(&node.id, &tables, source))]).unwrap_or_default()
                }
                _ => Vec::new(),
            },
            "excel.write" => {
                if let Some(Value::Object(sheets)) = input("sheets") {
                    for (sheet, rows) in sheets {
                        self.check_table(
                            rows,
                            &format!("{}/{}", at("sheets"), escape_pointer(sheet)),
                            "a sheet's rows",
                        );
                    }
                }
                Vec::new()
            }
            "report.write" => {
                if input("format").and_then(Value::as_str) == Some("csv") {
                    if let Some(data) = input("data") {
                        self.check_table(data, &at("data"), "a CSV report's rows");
                    }
                }
                Vec::new()
            }
            _ => Vec::new(),
        };
        for (key, table) in outputs {
            if let Some(alias) = node.out.get(key) {
                self.tables.insert((node.id.clone(), alias.clone()), table);
            }
        }
    }

    /// A step's inputs with each `${vars.x}` (at any depth) replaced by the var's default: the
    /// file it reads, the column it names, unless the person gives another at run time.
    fn with_defaults(&self, inputs: &IndexMap<String, Value>) -> IndexMap<String, Value> {
        inputs.iter().map(|(name, value)| (name.clone(), self.defaulted(value))).collect()
    }

    fn defaulted(&self, value: &Value) -> Value {
        match value {
            Value::String(text) => match var_named(text) {
                Some(var) => self.vars.get(&var).filter(|v| !v.is_null()).cloned().unwrap_or_else(|| value.clone()),
                None => value.clone(),
            },
            Value::Array(items) => Value::Array(items.iter().map(|v| self.defaulted(v)).collect()),
            Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), self.defaulted(v))).collect()),
            other => other.clone(),
        }
    }

    /// The table a value names: another step's table output (`${read.rows}`) or rows written in
    /// the plan. `None` when its columns are not known.
    fn table(&self, value: Option<&Value>) -> Option<Table> {
        match value? {
            Value::String(text) => match Template::parse(text).ok()? {
                Template::Single(Reference { root: Root::Node(id), path }) if path.len() == 1 => {
                    self.tables.get(&(id, path[0].clone())).cloned()
                }
                _ => None,
            },
            Value::Array(rows) if !rows.is_empty() && rows.iter().all(Value::is_object) => {
                let mut columns = IndexMap::new();
                for row in rows.iter().filter_map(Value::as_object) {
                    for (name, value) in row {
                        let kind = kind_of(value);
                        let known = columns.entry(name.clone()).or_insert(kind);
                        if *known != kind {
                            *known = ColumnKind::Unknown;
                        }
                    }
                }
                Some(Table { columns, dropped: IndexMap::new(), origin: "the table written in the plan".to_owned() })
            }
            _ => None,
        }
    }

    /// A value that must be a table: text (a file name, a sentence) is reported.
    fn check_table(&mut self, value: &Value, pointer: &str, what: &str) {
        let text = match value {
            Value::String(text) => match Template::parse(text) {
                Ok(Template::Single(_)) => return,
                _ => text,
            },
            _ => return,
        };
        self.findings.push(
            Finding::error(
                Code::NotATable,
                pointer.to_owned(),
                format!("{what} must be a table, but this is the text \"{text}\""),
            )
            .hint("give another step's rows, e.g. `${read.rows}`; a file name belongs in `path`"),
        );
    }

    /// The `field` and value of each filter condition against the rows' columns.
    fn check_conditions(&mut self, items: &Table, conditions: Option<&Value>, pointer: &str) {
        let Some(Value::Array(conditions)) = conditions else { return };
        for (i, condition) in conditions.iter().enumerate() {
            let operator = condition.get("operator").and_then(Value::as_str).unwrap_or_default();
            let ordered = matches!(operator, "gt" | "gte" | "lt" | "lte" | "between");
            let need = match condition.get("value") {
                Some(Value::Number(_)) if ordered => Some(ColumnKind::Number),
                Some(Value::String(text)) if ordered && text.trim().parse::<f64>().is_ok() => Some(ColumnKind::Number),
                _ => None,
            };
            let need = need.map(|kind| (kind, format!("`{operator}` compares numbers")));
            self.check_name(items, condition.get("field"), &format!("{pointer}/{i}/field"), need);
            if condition.get("column").is_some() {
                self.check_name(items, condition.get("column"), &format!("{pointer}/{i}/column"), None);
            }
        }
    }

    /// A group's output: its `by` columns and one column per aggregation, known whether or not
    /// the rows' columns are (then the names it takes from them are not checked). `None` when a
    /// name is given at run time (`${vars.by}`).
    fn group(&mut self, id: &str, items: Option<&Table>, node: &Node, pointer: &str) -> Option<Table> {
        let written = |value: Option<&Value>| match value {
            None => true,
            Some(Value::String(text)) => literal(text),
            Some(_) => false,
        };
        let Some(Value::Array(by)) = node.inputs.get("by") else { return None };
        let Some(Value::Array(aggregations)) = node.inputs.get("aggregations") else { return None };
        if let Some(items) = items {
            for i in 0..by.len() {
                self.record(items, &format!("{pointer}/in/by/{i}"));
            }
            for i in 0..aggregations.len() {
                self.record(items, &format!("{pointer}/in/aggregations/{i}/field"));
            }
        }
        // A column to total given at run time still gives a column of the name `as` says.
        let fixed = by.iter().all(|b| written(Some(b)))
            && aggregations.iter().all(|a| {
                a.is_object()
                    && written(a.get("op"))
                    && written(a.get("as"))
                    && (a.get("as").is_some() || written(a.get("field")))
            });
        if !fixed {
            return None;
        }
        let mut columns = IndexMap::new();
        for (i, column) in by.iter().enumerate() {
            let name = column.as_str().unwrap_or_default();
            let kind =
                items.and_then(|items| self.check_name(items, Some(column), &format!("{pointer}/in/by/{i}"), None));
            columns.insert(name.to_owned(), kind.unwrap_or(ColumnKind::Unknown));
        }
        for (i, aggregation) in aggregations.iter().enumerate() {
            let op = aggregation.get("op").and_then(Value::as_str).unwrap_or_default();
            let field = aggregation.get("field").and_then(Value::as_str);
            let need = matches!(op, "sum" | "avg").then(|| (ColumnKind::Number, format!("`{op}` adds numbers")));
            let at = format!("{pointer}/in/aggregations/{i}");
            let kind = match (aggregation.get("field"), items) {
                (Some(field), Some(items)) => self.check_name(items, Some(field), &format!("{at}/field"), need),
                _ => None,
            };
            if let Some(items) = items {
                self.check_conditions(items, aggregation.get("when"), &format!("{at}/when"));
            }
            let kind = match op {
                "sum" | "avg" | "count" => ColumnKind::Number,
                _ => kind.unwrap_or(ColumnKind::Unknown),
            };
            // As `transforms.group_by_agg` names them.
            let name = match (aggregation.get("as").and_then(Value::as_str).filter(|a| !a.trim().is_empty()), field) {
                (Some(name), _) => name.to_owned(),
                (None, Some(field)) => format!("{field}_{op}"),
                (None, None) => "count".to_owned(),
            };
            if columns.contains_key(&name) {
                // `transforms.group_by_agg` refuses two result columns of one name.
                let what = if by.iter().any(|b| b.as_str() == Some(name.as_str())) {
                    "a `by` column"
                } else {
                    "another aggregation's"
                };
                self.findings.push(
                    Finding::error(
                        Code::InvalidValue,
                        format!("{pointer}/in/aggregations/{i}/as"),
                        format!("the result column `{name}` is also {what}: the step's result would have two columns of that name"),
                    )
                    .hint("give the aggregation another name with `as`"),
                );
            }
            columns.insert(name, kind);
        }
        let mut dropped = items.map(|items| items.dropped.clone()).unwrap_or_default();
        for name in items.iter().flat_map(|items| items.columns.keys()).filter(|name| !columns.contains_key(*name)) {
            dropped.insert(name.clone(), id.to_owned());
        }
        Some(Table { columns, dropped, origin: format!("step `{id}`") })
    }

    /// The columns of `table` are the choices at `pointer`.
    fn record(&mut self, table: &Table, pointer: &str) {
        self.columns_at.insert(pointer.to_owned(), table.listed());
    }

    /// Each name of a list of column names (`by: [vendor, amount]`).
    fn check_names(&mut self, table: &Table, names: Option<&Value>, pointer: &str) {
        match names {
            Some(Value::Array(names)) => {
                for (i, name) in names.iter().enumerate() {
                    self.check_name(table, Some(name), &format!("{pointer}/{i}"), None);
                }
            }
            one => {
                self.check_name(table, one, pointer, None);
            }
        }
    }

    /// `transforms.select_columns`' output: the chosen columns, renamed, in their order; the
    /// others are left out by this step. `None` when a name is given at run time.
    fn chosen(&mut self, id: &str, items: Option<&Table>, columns: Option<&Value>, pointer: &str) -> Option<Table> {
        let Some(Value::Array(columns)) = columns else { return None };
        let mut kept = IndexMap::new();
        for (i, column) in columns.iter().enumerate() {
            let (source, name, at) = match column {
                Value::Object(map) => {
                    let source = map.get("column");
                    let name = map.get("as").and_then(Value::as_str).filter(|a| !a.trim().is_empty());
                    (source, name.or(source.and_then(Value::as_str)), format!("{pointer}/{i}/column"))
                }
                other => (Some(other), other.as_str(), format!("{pointer}/{i}")),
            };
            if let Some(items) = items {
                self.record(items, &at);
            }
            let name = name.filter(|n| literal(n))?;
            let kind = items.and_then(|items| self.check_name(items, source, &at, None));
            if kept.contains_key(name) {
                // `transforms.select_columns` refuses two result columns of one name.
                self.findings.push(
                    Finding::error(
                        Code::InvalidValue,
                        format!("{pointer}/{i}"),
                        format!("two columns of the result are named `{name}`"),
                    )
                    .hint("give one of them another name with `as`"),
                );
            }
            kept.insert(name.to_owned(), kind.unwrap_or(ColumnKind::Unknown));
        }
        let mut dropped = items.map(|items| items.dropped.clone()).unwrap_or_default();
        for name in items.iter().flat_map(|items| items.columns.keys()).filter(|name| !kept.contains_key(*name)) {
            dropped.insert(name.clone(), id.to_owned());
        }
        Some(Table { columns: kept, dropped, origin: format!("step `{id}`") })
    }

    /// `transforms.add_columns`' output: the rows' columns and each new one; the columns each
    /// reads are checked, numbers where it computes with them.
    fn computed(&mut self, id: &str, items: Table, columns: Option<&Value>, pointer: &str) -> Table {
        let mut table = Table { origin: format!("step `{id}`"), ..items };
        let Some(Value::Array(columns)) = columns else { return table };
        for (i, column) in columns.iter().enumerate() {
            let op = column.get("op").and_then(Value::as_str).unwrap_or_default();
            if op == "formula" {
                self.check_formula(&table, column.get("formula"), &format!("{pointer}/{i}/formula"));
            }
            let arithmetic = matches!(op, "difference" | "sum" | "product" | "ratio" | "percent" | "round" | "rank");
            let need = arithmetic.then(|| (ColumnKind::Number, format!("`{op}` computes with numbers")));
            // A difference of two dates (or of a date and a day written) counts the days between
            // them, of two clock times the minutes.
            let need = need
                .filter(|_| op != "difference" || !of_dates_or_times(&table, column.get("of"), column.get("value")));
            match column.get("of") {
                Some(Value::Array(of)) => {
                    for (j, name) in of.iter().enumerate() {
                        self.check_name(&table, Some(name), &format!("{pointer}/{i}/of/{j}"), need.clone());
                    }
                }
                one => {
                    self.check_name(&table, one, &format!("{pointer}/{i}/of"), need);
                }
            }
            if let Some(Value::Array(cases)) = column.get("cases") {
                for (c, case) in cases.iter().enumerate() {
                    self.check_conditions(&table, case.get("when"), &format!("{pointer}/{i}/cases/{c}/when"));
                }
            }
            let kind = match op {
                "difference" | "sum" | "product" | "ratio" | "percent" | "round" | "rank" | "days" | "year"
                | "formula" => ColumnKind::Number,
                "equal" | "greater" | "less" => ColumnKind::Boolean,
                "month" | "join" => ColumnKind::Text,
                "date" => ColumnKind::Date,
                "label" => label_kind(column),
                // A blank cell filled keeps its column's kind when the value is of it.
                "fill" => fill_kind(&table, column),
                _ => ColumnKind::Unknown,
            };
            if let Some(name) = column.get("as").and_then(Value::as_str).filter(|n| literal(n)) {
                table.columns.insert(name.to_owned(), kind);
            }
        }
        table
    }

    /// Checks a `formula` column's arithmetic: that it reads, and that each column in it is a
    /// column of numbers of `table` (one filled in by a var, `[${vars.x}]`, is known at run time).
    fn check_formula(&mut self, table: &Table, formula: Option<&Value>, pointer: &str) {
        let Some(text) = formula.and_then(Value::as_str).filter(|t| literal(t)) else { return };
        match Formula::parse(text) {
            Ok(formula) => {
                let need = || Some((ColumnKind::Number, "a formula computes with numbers".to_owned()));
                for name in formula.columns() {
                    self.check_name(table, Some(&Value::from(name)), pointer, need());
                }
            }
            Err(e) => self.findings.push(
                Finding::error(
                    Code::InvalidValue,
                    pointer.to_owned(),
                    format!("the formula {text:?} does not read: {e}"),
                )
                .hint("write each column in brackets, e.g. [数量] * [単価] / (1 + [税率])"),
            ),
        }
    }

    /// Checks that `value` names a column of `table`, and that the column is of the kind `need`
    /// says (with why). Returns the column's kind when it names one.
    fn check_name(
        &mut self,
        table: &Table,
        value: Option<&Value>,
        pointer: &str,
        need: Option<(ColumnKind, String)>,
    ) -> Option<ColumnKind> {
        self.record(table, pointer);
        let name = value?.as_str()?;
        if !literal(name) {
            return None;
        }
        let Some(kind) = table.kind(name) else {
            self.findings.push(unknown_column(table, name, pointer));
            return None;
        };
        if let Some((need, why)) = need {
            if kind != need && kind != ColumnKind::Unknown {
                self.findings.push(
                    Finding::error(
                        Code::ColumnKindMismatch,
                        pointer.to_owned(),
                        format!("{why}, but `{name}` holds {} in {}", kind.as_str(), table.origin),
                    )
                    .hint(format!(
                        "choose a {} column: {}",
                        need.as_str(),
                        columns_of(table, need)
                    )),
                );
            }
        }
        Some(kind)
    }
}

/// Whether `of` names two columns that both hold dates, or both clock times.
fn of_dates_or_times(table: &Table, of: Option<&Value>, value: Option<&Value>) -> bool {
    let Some(Value::Array(of)) = of else { return false };
    let kinds: Vec<Option<ColumnKind>> = of.iter().map(|name| name.as_str().and_then(|n| table.kind(n))).collect();
    // (A date less a day written in the step: `value` is a date, 2027-02-01, or a reference to one.)
    let a_day = value.and_then(Value::as_str).map(str::trim).is_some_and(|v| {
        v.starts_with("${")
            || v.len() >= 8 && v.contains(['-', '/']) && v.chars().all(|c| c.is_ascii_digit() || c == '-' || c == '/')
    });
    match kinds.as_slice() {
        [Some(a), Some(b)] => a == b && matches!(a, ColumnKind::Date | ColumnKind::Time),
        [Some(ColumnKind::Date)] => a_day,
        _ => false,
    }
}

/// The kind of a `label` column: text when every value it gives is text (or left empty),
/// numbers when every one is a number.
fn label_kind(column: &Value) -> ColumnKind {
    let cases = column.get("cases").and_then(Value::as_array).into_iter().flatten();
    let given: Vec<&Value> =
        cases.filter_map(|case| case.get("then")).chain(column.get("else")).filter(|v| !v.is_null()).collect();
    if !given.is_empty() && given.iter().all(|v| v.is_string()) {
        ColumnKind::Text
    } else if !given.is_empty() && given.iter().all(|v| v.is_number()) {
        ColumnKind::Number
    } else {
        ColumnKind::Unknown
    }
}

/// A `fill` column's kind: its column's, when the value it writes in a blank cell is of that kind.
fn fill_kind(table: &Table, column: &Value) -> ColumnKind {
    let of = column.get("of").and_then(|of| of.as_array().and_then(|of| of.first()).or(Some(of)));
    let read = of.and_then(Value::as_str).and_then(|name| table.columns.get(name)).copied();
    match (read, column.get("value")) {
        (Some(ColumnKind::Number), Some(Value::Number(_))) => ColumnKind::Number,
        (Some(ColumnKind::Text), Some(Value::String(_))) => ColumnKind::Text,
        _ => ColumnKind::Unknown,
    }
}

fn unknown_column(table: &Table, name: &str, pointer: &str) -> Finding {
    let candidates = closest(name, table.columns.keys().map(String::as_str));
    let message = match table.dropped.get(name) {
        Some(step) => format!(
            "there is no column `{name}` here: step `{step}` left it out, and its table has {}{}",
            table.names(),
            did_you_mean(&candidates)
        ),
        None => format!("{} has no column `{name}`{}", table.origin, did_you_mean(&candidates)),
    };
    let hint = match table.dropped.get(name) {
        Some(step) => format!("use a column step `{step}` keeps, or read `{name}` before step `{step}`"),
        None => format!("the columns are {}", table.names()),
    };
    let candidates = if candidates.is_empty() { table.columns.keys().cloned().collect() } else { candidates };
    Finding::error(Code::UnknownColumn, pointer.to_owned(), message).hint(hint).candidates(candidates)
}

/// The columns of `table` of `kind`, in words.
fn columns_of(table: &Table, kind: ColumnKind) -> String {
    let names: Vec<String> =
        table.columns.iter().filter(|(_, k)| **k == kind).map(|(name, _)| format!("`{name}`")).collect();
    if names.is_empty() {
        "none here".to_owned()
    } else {
        names.join(", ")
    }
}

/// A join's output: the left columns, then the right ones; a right column whose name the left
/// has becomes `<name>_right`, and the right key is left out when it has the left key's name
/// (as `transforms.join` writes its rows).
fn joined(id: &str, left: &Table, right: &Table, node: &Node) -> Table {
    let key = |name: &str| node.inputs.get(name).and_then(Value::as_str).unwrap_or_default().to_owned();
    let (left_key, right_key) = (key("left_key"), key("right_key"));
    let looked_in_left = node.inputs.get("strategy").and_then(Value::as_str) == Some("right");
    let looked_in = if looked_in_left { left } else { right };
    // A name to bring that is not there is its own finding; the columns after it are not
    // narrowed by a list that cannot be right yet.
    let bring: Option<Vec<&str>> = match node.inputs.get("bring") {
        Some(Value::Array(names)) => Some(names.iter().filter_map(Value::as_str).collect()),
        _ => None,
    }
    .filter(|names: &Vec<&str>| names.iter().all(|n| looked_in.columns.contains_key(*n)));
    let brought = |name: &str, key: &str| bring.as_ref().is_none_or(|b| b.contains(&name) || name == key);
    let mut columns = left.columns.clone();
    if looked_in_left {
        columns.retain(|name, _| brought(name, &left_key));
    }
    for (name, kind) in &right.columns {
        if *name == right_key && right_key == left_key || !looked_in_left && !brought(name, "") {
            continue;
        }
        // As the block names a clash: `_right`, then `_right_2`, … until the name is free.
        let mut free = name.clone();
        let mut n = 1;
        while columns.contains_key(&free) {
            free = if n == 1 { format!("{name}_right") } else { format!("{name}_right_{n}") };
            n += 1;
        }
        columns.insert(free, *kind);
    }
    let mut dropped = left.dropped.clone();
    dropped.extend(right.dropped.clone());
    Table { columns, dropped, origin: format!("step `{id}`") }
}

/// Whether a name is written out in the plan (not `${vars.x}`, known only at run time).
fn literal(name: &str) -> bool {
    matches!(Template::parse(name), Ok(Template::Literal(_)))
}

/// `transforms.find_duplicates`' `groups`: the key columns and `count` (`duplicate_count` when
/// a key column is called `count`, as the block names it).
fn duplicate_groups(id: &str, items: &Table, by: Option<&Value>) -> Option<Table> {
    let Some(Value::Array(by)) = by else { return None };
    let mut columns = IndexMap::new();
    for name in by {
        let name = name.as_str().filter(|n| literal(n))?;
        columns.insert(name.to_owned(), items.kind(name).unwrap_or(ColumnKind::Unknown));
    }
    let count = if columns.contains_key("count") { "duplicate_count" } else { "count" };
    columns.insert(count.to_owned(), ColumnKind::Number);
    Some(Table { columns, dropped: IndexMap::new(), origin: format!("step `{id}`'s groups") })
}

/// `transforms.append`'s output: the column saying which table a row came from, when named,
/// then every column any table has, in first-seen order; a column whose kind differs between
/// tables is of no one kind.
fn appended(id: &str, tables: &[Table], source: Option<&str>) -> Table {
    let mut columns: IndexMap<String, ColumnKind> = IndexMap::new();
    if let Some(source) = source {
        columns.insert(source.to_owned(), ColumnKind::Text);
    }
    for table in tables {
        for (name, kind) in &table.columns {
            let known = columns.entry(name.clone()).or_insert(*kind);
            if *known != *kind {
                *known = ColumnKind::Unknown;
            }
        }
    }
    Table { columns, dropped: IndexMap::new(), origin: format!("step `{id}`") }
}

/// The kind of one value written in the plan. A text may still be an amount or a date ("1,200",
/// "2024-04-01"), which the blocks read as such, so it says nothing here.
fn kind_of(value: &Value) -> ColumnKind {
    match value {
        Value::Number(_) => ColumnKind::Number,
        Value::Bool(_) => ColumnKind::Boolean,
        _ => ColumnKind::Unknown,
    }
}

/// A finding at the input a read block's words name (`` `sheet`: … has no sheet "is" ``), or at
/// its `path`.
fn refused_file(node: &Node, pointer: &str, reason: &str) -> Finding {
    let field = reason
        .strip_prefix('`')
        .and_then(|rest| rest.split_once('`'))
        .map(|(field, _)| field)
        .filter(|field| node.inputs.contains_key(*field))
        .unwrap_or("path");
    Finding::error(Code::InvalidValue, format!("{pointer}/in/{field}"), reason.to_owned())
        .hint("change the input so the file can be read as it is, or fix the file")
}
