//! The offline designer: a [`Reading`] built into a plan from the catalog's blocks, with the
//! selected templates composed in. Every block, input and output key it writes is one the
//! catalog declares (it checks, and leaves out what it cannot place); every value the reading
//! left open becomes a `${vars.NAME}` declared with no value — a requirement — unless an answer
//! gives it. Answers are read here, not patched in afterwards, so an answer that changes the
//! design (an `.xlsx` where a CSV was assumed) changes the blocks.

use indexmap::IndexMap;
use planwright_catalog::Catalog;
use planwright_designs::TemplateSpec;
use planwright_plan::{Body, BodyPlan, Column, Condition as When, Foreach, Node, Plan, Ui, While, API_VERSION};
use planwright_validate::InputFiles;
use serde_json::{json, Map, Value};

use crate::compose::{compose, Composed, Conflict};
use crate::notes::DesignNote;
use crate::options::DesignEngineOptions;
use crate::reading::rounding;
use crate::reading::slots::{self, identifier};
use crate::reading::{
    same_noun, Aggregation, Condition, Language, Output, OutputFormat, Reading, Source, SourceKind, Step,
    MONTH_OF_UNSAID_YEAR, YEAR_VAR,
};

/// What flows from one node to the next.
#[derive(Debug, Clone, PartialEq)]
enum Flow {
    /// A list of rows, and (after a filter) the rows it left out.
    Rows { rows: String, rest: Option<String> },
    /// Extracted document texts.
    Texts(String),
    /// A model's or an API's answer.
    Answer(String),
}

impl Flow {
    fn reference(&self) -> &str {
        match self {
            Flow::Rows { rows, .. } => rows,
            Flow::Texts(r) | Flow::Answer(r) => r,
        }
    }
}

/// The offline designer's plan and what it did.
#[derive(Debug, Clone)]
pub struct Designed {
    pub plan: Plan,
    /// One note per decision, for the person reading the result.
    pub notes: Vec<DesignNote>,
    pub composed: Vec<Composed>,
    pub conflicts: Vec<Conflict>,
}

/// What the offline designer is given besides the reading: the credentials the instruction
/// spelled out (names only), values already given (by requirement id), and the work folder's
/// files where there are some (a condition on a column only one of two tables has filters that
/// table).
pub struct DesignInputs<'a> {
    pub secrets: &'a [String],
    pub answers: &'a IndexMap<String, Value>,
    pub files: Option<&'a (dyn InputFiles + Sync)>,
}

/// Designs a plan for `reading`.
pub fn design(
    reading: &Reading,
    catalog: &Catalog,
    templates: &[TemplateSpec],
    options: &DesignEngineOptions,
    given: DesignInputs<'_>,
) -> Designed {
    let DesignInputs { secrets, answers, files } = given;
    let mut d = Designer {
        plan: Plan {
            api_version: API_VERSION.into(),
            id: plan_id(reading),
            version: "1.0.0".into(),
            description: None,
            secrets: secrets.to_vec(),
            policy: Some(options.policy),
            ..Plan::default()
        },
        catalog,
        options,
        language: reading.language,
        answers,
        files,
        flows: Vec::new(),
        tables: Vec::new(),
        headers: Vec::new(),
        samples: Vec::new(),
        lineage: IndexMap::new(),
        notes: Vec::new(),
        gate: None,
        composed: Vec::new(),
        conflicts: Vec::new(),
        totals: Vec::new(),
        computed: None,
        value_orders: &reading.value_orders,
        keys_ignore_case: reading.keys_ignore_case,
        keys_ignore_leading_zeros: reading.keys_ignore_leading_zeros,
        month_form: reading.month_form.as_deref(),
    };
    d.sources(reading);
    let mut steps = reading.steps.iter().peekable();
    while let Some(step) = steps.next() {
        match steps.peek().and_then(|next| d.rows_ranked_not_totalled(step, next)) {
            Some(ranked) => {
                steps.next();
                d.step(&ranked);
            }
            None => d.step(step),
        }
    }
    for template in templates {
        d.template(template);
    }
    if !reading.columns.is_empty() {
        d.choose_columns(&reading.columns, &reading.renamed);
    }
    for output in &reading.outputs {
        d.output(output);
    }
    d.finish()
}

struct Designer<'a> {
    plan: Plan,
    catalog: &'a Catalog,
    options: &'a DesignEngineOptions,
    language: Language,
    answers: &'a IndexMap<String, Value>,
    files: Option<&'a (dyn InputFiles + Sync)>,
    /// Row streams in the order they appeared; the last is what the next step reads.
    flows: Vec<Flow>,
    /// The tables read, each as the text names it and the rows it gives.
    tables: Vec<(String, String)>,
    /// Each table's columns, where its file is in the work folder.
    headers: Vec<Option<Vec<Column>>>,
    /// Each table's first rows, where its file is in the work folder (else none).
    samples: Vec<Vec<Value>>,
    /// The table (index in `tables`) a row stream holds rows of, for the streams that keep one
    /// table's rows and columns (read, filtered, sorted, a column added).
    lineage: IndexMap<String, usize>,
    notes: Vec<DesignNote>,
    /// The confirmation later steps wait for.
    gate: Option<String>,
    composed: Vec<Composed>,
    conflicts: Vec<Conflict>,
    /// The last grouping's totals: each one's operation and column.
    totals: Vec<(&'static str, String)>,
    /// The number column computed since the last grouping, if any ("税抜金額 × 1.1 で、1円未満は
    /// 切り捨て" rounds it).
    computed: Option<String>,
    /// Sort keys ordered by their values as listed: the column, the values.
    value_orders: &'a [(String, Vec<String>)],
    /// Whether matches ignore the case of keys (the text says some were typed in another).
    keys_ignore_case: bool,
    /// Whether matches ignore the zeros that lead codes (the text says a spreadsheet lost them).
    keys_ignore_leading_zeros: bool,
    /// How a month is written, when the text shows a form other than `2026-09`.
    month_form: Option<&'a str>,
}

impl Designer<'_> {
    fn note(&mut self, note: DesignNote) {
        self.notes.push(note);
    }

    fn unique_id(&self, base: &str) -> String {
        let base = identifier(base).unwrap_or_else(|| "step".into());
        if !self.plan.graph.iter().any(|n| n.id == base) {
            return base;
        }
        (2..).map(|n| format!("{base}_{n}")).find(|id| !self.plan.graph.iter().any(|n| &n.id == id)).expect("a free id")
    }

    /// A var for a value the instruction left open: the answer when there is one, else no value
    /// (asked for). Returns the reference to use.
    fn open_var(&mut self, name: &str) -> Value {
        self.default_var(name, Value::Null)
    }

    /// A var with a default the person can change.
    fn default_var(&mut self, name: &str, default: Value) -> Value {
        let value = self.answers.get(name).cloned().unwrap_or(default);
        self.plan.vars.entry(name.to_owned()).or_insert(value);
        Value::from(format!("${{vars.{name}}}"))
    }

    /// Adds a block node, keeping only the inputs and outputs its spec declares.
    fn add(
        &mut self,
        base: &str,
        block: &str,
        description: String,
        inputs: Value,
        out: &[(&str, &str)],
    ) -> Option<String> {
        let spec = self.catalog.get(block)?;
        let id = self.unique_id(base);
        let inputs: IndexMap<String, Value> = match inputs {
            Value::Object(map) => {
                map.into_iter().filter(|(k, v)| spec.inputs.contains_key(k) && !v.is_null()).collect()
            }
            _ => IndexMap::new(),
        };
        let out = out
            .iter()
            .filter(|(key, _)| spec.outputs.contains_key(*key))
            .map(|(k, a)| ((*k).to_owned(), (*a).to_owned()))
            .collect();
        let when = self.gated();
        self.plan.graph.push(Node {
            id: id.clone(),
            description: Some(description),
            block: Some(block.to_owned()),
            inputs,
            out,
            when,
            ..Node::default()
        });
        Some(id)
    }

    /// The `when` of a node after a confirmation: it runs only when approved.
    fn gated(&self) -> Option<When> {
        self.gate.as_ref().map(|gate| When { expr: format!("${{{gate}.approved}} == true") })
    }

    fn rows(&self) -> Option<(String, Option<String>)> {
        self.flows.iter().rev().find_map(|f| match f {
            Flow::Rows { rows, rest } => Some((rows.clone(), rest.clone())),
            _ => None,
        })
    }

    fn current(&self) -> Option<&Flow> {
        self.flows.last()
    }

    // --- sources -------------------------------------------------------------------------------

    fn sources(&mut self, reading: &Reading) {
        let documents: Vec<&Source> = reading.sources.iter().filter(|s| s.kind == SourceKind::Documents).collect();
        if !documents.is_empty() {
            self.documents_source(&documents);
        }
        let tables: Vec<&Source> = reading.sources.iter().filter(|s| s.kind != SourceKind::Documents).collect();
        let joined = tables.len() > 1 && !reading.combine;
        // A table looked up after the others are put together is read after them, so the match
        // takes the rows put together as its first side.
        let (looked_up, tables): (Vec<&Source>, Vec<&Source>) =
            tables.into_iter().partition(|s| reading.looked_up.is_some() && s.path == reading.looked_up);
        for (index, source) in tables.into_iter().enumerate() {
            self.table_source(source, index, joined);
        }
        if reading.combine && self.tables.len() > 1 {
            self.append(reading.source_column.as_ref());
        }
        for source in looked_up {
            self.table_source(source, self.tables.len(), false);
        }
    }

    /// Every table read, one after another; with the column that says which each row came from.
    /// A table whose columns are the first's named apart is given the first's names before.
    fn append(&mut self, source_column: Option<&(String, Vec<String>)>) {
        let mut tables: Vec<Value> = self.tables.iter().map(|(_, rows)| Value::from(rows.as_str())).collect();
        for (table, rows) in tables.iter_mut().enumerate().skip(1) {
            if let Some(renamed) = self.named_as_the_first(table) {
                *rows = Value::from(renamed);
            }
        }
        let names: Vec<String> = self.tables.iter().map(|(name, _)| name.clone()).collect();
        let description = match self.language {
            Language::En => format!("Put the rows of {} one after another", names.join(" and ")),
            Language::Ja => format!("{} の行をつなげる", names.join("・")),
        };
        let mut inputs = json!({ "tables": tables });
        if let Some((column, sources)) = source_column.filter(|(_, sources)| sources.len() == self.tables.len()) {
            inputs["source_column"] = Value::from(column.as_str());
            inputs["sources"] = json!(sources);
        }
        if let Some(id) = self.add("all_rows", "transforms.append", description, inputs, &[("rows", "rows")]) {
            self.flows.push(Flow::Rows { rows: format!("${{{id}.rows}}"), rest: None });
        }
    }

    /// The rows of table `table` under the first table's names, where its columns are the first's
    /// named apart (by the work folder's files): every column kept, in its order.
    fn named_as_the_first(&mut self, table: usize) -> Option<String> {
        let (Some(Some(first)), Some(Some(own))) = (self.headers.first(), self.headers.get(table)) else {
            return None;
        };
        let renamed = crate::column_alignment::same_columns_named_apart(first, own);
        if renamed.is_empty() {
            return None;
        }
        let chosen: Vec<Value> = own
            .iter()
            .map(|c| match renamed.iter().find(|(from, _)| from == &c.name) {
                Some((from, to)) => json!({ "column": from, "as": to }),
                None => Value::from(c.name.as_str()),
            })
            .collect();
        let (name, rows) = self.tables[table].clone();
        let first_name = self.tables[0].0.clone();
        let said: Vec<String> = renamed.iter().map(|(from, to)| format!("{from} → {to}")).collect();
        let description = match self.language {
            Language::En => format!("Give the columns of {name} the names they have in {first_name}"),
            Language::Ja => format!("{name} の列名を {first_name} の列名にそろえる"),
        };
        let inputs = json!({ "items": rows, "columns": chosen });
        let id = self.add("same_names", "transforms.select_columns", description, inputs, &[("rows", "rows")])?;
        self.note(DesignNote::ColumnsNamedAsFirst { file: name, first: first_name, columns: said.join(", ") });
        Some(format!("${{{id}.rows}}"))
    }

    fn documents_source(&mut self, sources: &[&Source]) {
        let named: Vec<Value> = sources.iter().filter_map(|s| s.path.clone()).map(Value::from).collect();
        let paths = if named.is_empty() { self.open_var("documents") } else { Value::Array(named) };
        let description = self.language.pick("Read the documents' text", "書類のテキストを読み込む").to_owned();
        if let Some(id) = self.add(
            "read_documents",
            "file.extract_texts",
            description,
            json!({ "paths": paths }),
            &[("texts", "texts")],
        ) {
            self.note(DesignNote::DocumentsAsText);
            self.flows.push(Flow::Texts(format!("${{{id}.texts}}")));
        }
    }

    fn table_source(&mut self, source: &Source, index: usize, joined: bool) {
        let role = match (joined, index) {
            (false, _) => crate::INPUT_FILE.to_owned(),
            (true, 0) => "left_file".to_owned(),
            (true, 1) => "right_file".to_owned(),
            (true, n) => format!("input_file_{}", n + 1),
        };
        let path = match &source.path {
            Some(path) => Value::from(path.as_str()),
            None => self.open_var(&role),
        };
        // An answer naming a workbook where a CSV was assumed (or the reverse) picks the block.
        let answered = self.plan.vars.get(&role).and_then(Value::as_str).map(str::to_lowercase);
        let excel = match answered.as_deref() {
            Some(p) if p.ends_with(".xlsx") || p.ends_with(".xlsm") || p.ends_with(".xls") => true,
            Some(p) if p.ends_with(".csv") || p.ends_with(".tsv") || p.ends_with(".txt") => false,
            _ => source.kind == SourceKind::Excel,
        };
        let stem = source
            .path
            .as_deref()
            .and_then(file_stem_id)
            .or_else(|| source.label.as_deref().and_then(identifier))
            .unwrap_or_else(|| {
                if joined {
                    ["left", "right"].get(index).copied().unwrap_or("input").to_owned()
                } else {
                    "input".into()
                }
            });
        let shown = source
            .path
            .clone()
            .or_else(|| source.label.clone())
            .unwrap_or_else(|| self.language.pick("the input file", "入力ファイル").to_owned());
        let mut inputs = json!({ "path": path });
        let block = if excel {
            if let Some(sheet) = &source.sheet {
                inputs["sheet"] = Value::from(sheet.as_str());
            }
            "excel.read_data"
        } else {
            if let Some(encoding) = &source.encoding {
                inputs["encoding"] = Value::from(encoding.as_str());
            }
            "file.read_csv"
        };
        let description = match self.language {
            Language::En => format!("Read {shown}"),
            // A space after a file name (`expenses.csv を`), none after a Japanese word (`入力ファイルを`).
            Language::Ja if shown.ends_with(|c: char| c.is_ascii()) => format!("{shown} を読み込む"),
            Language::Ja => format!("{shown}を読み込む"),
        };
        let read = |inputs: &Value| {
            let inputs: IndexMap<String, Value> = object(inputs.clone());
            self.files.and_then(|files| files.columns(block, &inputs))
        };
        let mut header = read(&inputs);
        // A sheet with title rows above its header is read from its header.
        let titled =
            header.as_ref().filter(|_| excel).and_then(|table| crate::binding::header_below_titles(&table.rows));
        if let Some(row) = titled {
            inputs["header_row"] = Value::from(row);
            header = read(&inputs);
        }
        let (header, sample) = header.map_or((None, Vec::new()), |table| (Some(table.columns), table.rows));
        if let Some(id) = self.add(&format!("read_{stem}"), block, description, inputs, &[("rows", "rows")]) {
            if let Some(row) = titled {
                self.note(DesignNote::HeaderRow { node: id.clone(), row: row as u64 });
            }
            let rows = format!("${{{id}.rows}}");
            self.lineage.insert(rows.clone(), self.tables.len());
            self.flows.push(Flow::Rows { rows: rows.clone(), rest: None });
            self.tables.push((shown, rows));
            self.headers.push(header);
            self.samples.push(sample);
        }
    }

    /// The rows a step works on; a source asked for when there are none yet.
    fn rows_or_source(&mut self) -> String {
        if let Some((rows, _)) = self.rows() {
            return rows;
        }
        self.table_source(&Source::asked_csv(), 0, false);
        self.rows().map(|(rows, _)| rows).unwrap_or_default()
    }

    /// The name of the table whose rows `rows` are (read, or filtered, sorted or added to since).
    fn table_name(&self, rows: &str) -> Option<String> {
        self.lineage.get(rows).and_then(|&t| self.tables.get(t)).map(|(name, _)| name.clone())
    }

    /// The two row streams a match takes: the latest of each of the last two tables (a table
    /// filtered since it was read is matched as filtered), in the order the tables were read.
    fn two_latest_tables(&self) -> Option<(String, String)> {
        let mut latest: Vec<(usize, String)> = Vec::new();
        let mut seen: Vec<usize> = Vec::new();
        for (at, flow) in self.flows.iter().enumerate().rev() {
            let Flow::Rows { rows, .. } = flow else { continue };
            let first = match self.table_derived_from(rows) {
                Some(table) if seen.contains(table) => continue,
                Some(&table) => {
                    seen.push(table);
                    let read = &self.tables[table].1;
                    self.flows.iter().position(|f| f.reference() == read).unwrap_or(at)
                }
                None => at,
            };
            latest.push((first, rows.clone()));
            if latest.len() == 2 {
                break;
            }
        }
        latest.sort();
        match <[(usize, String); 2]>::try_from(latest) {
            Ok([(_, left), (_, right)]) => Some((left, right)),
            Err(_) => None,
        }
    }

    /// The table (index in `tables`) `rows` come from: its own, or the one a step made them from
    /// (the totals per vendor of the payments are not a second table to match them with).
    fn table_derived_from<'r>(&'r self, mut rows: &'r str) -> Option<&'r usize> {
        for _ in 0..=self.plan.graph.len() {
            if let Some(table) = self.lineage.get(rows) {
                return Some(table);
            }
            let node = rows.strip_prefix("${")?.split('.').next()?;
            let node = self.plan.graph.iter().find(|n| n.id == node)?;
            rows = node.inputs.get("items")?.as_str()?;
        }
        None
    }

    /// With two or more tables read and not matched yet, a step on columns only one of them has
    /// (by the work folder's files) works on that table's rows.
    fn rows_holding(&self, fields: &[&str]) -> Option<String> {
        if fields.is_empty() {
            return None;
        }
        self.rows_of_the_one_table(|columns, _| {
            fields.iter().all(|field| crate::binding::choose(field, columns).is_some())
        })
    }

    /// With two or more tables read and not matched yet, the rows of the one table whose first
    /// rows hold every value ("every failed test in results.csv … the owner from owners.csv").
    fn rows_holding_values(&self, values: &[&str]) -> Option<String> {
        if values.is_empty() {
            return None;
        }
        let holds = |rows: &[Value], value: &str| {
            rows.iter()
                .filter_map(Value::as_object)
                .any(|row| row.values().filter_map(Value::as_str).any(|cell| cell.trim().eq_ignore_ascii_case(value)))
        };
        self.rows_of_the_one_table(|_, rows| values.iter().all(|value| holds(rows, value)))
    }

    /// With two or more tables read and not matched yet, the rows of the one table that has a
    /// column named for a date (`date`, `expense_date`, 「利用日」): a period said of no column is
    /// of those rows, not of a table whose only date is when it was filed (`scanned_on`).
    fn rows_named_for_dates(&self) -> Option<String> {
        let named = |c: &Column| c.name.to_ascii_lowercase().contains("date") || c.name.ends_with('日');
        self.rows_of_the_one_table(|columns, _| columns.iter().any(named))
    }

    /// With two or more tables read (every header known) and not matched yet, the latest rows of
    /// the one table whose columns (and first rows) `holds`; `None` when none or several do.
    fn rows_of_the_one_table(&self, holds: impl Fn(&[Column], &[Value]) -> bool) -> Option<String> {
        if self.tables.len() < 2 || !self.headers.iter().all(Option::is_some) {
            return None;
        }
        let (current, _) = self.rows()?;
        self.lineage.get(&current)?;
        let holding: Vec<usize> = (0..self.tables.len())
            .filter(|&t| holds(self.headers[t].as_deref().unwrap_or_default(), &self.samples[t]))
            .collect();
        let [table] = holding[..] else { return None };
        self.flows.iter().rev().find_map(|f| match f {
            Flow::Rows { rows, .. } if self.lineage.get(rows) == Some(&table) => Some(rows.clone()),
            _ => None,
        })
    }

    /// Rows `derived` hold the same table's rows as `from` (filtered, sorted, a column added).
    fn same_table(&mut self, from: &str, derived: &[&str]) {
        if let Some(&table) = self.lineage.get(from) {
            for rows in derived {
                self.lineage.insert((*rows).to_owned(), table);
            }
        }
    }

    /// "Which three works have the highest insured_value?" reads as the totals per work,
    /// ranked. Where the rows' columns are known, the measure is one of them and no column is
    /// the thing ranked (nor is it a word columns are named with, like `vendor`), the rows are
    /// the things: the top rows by the measure.
    fn rows_ranked_not_totalled(&self, step: &Step, next: &Step) -> Option<Step> {
        let (Step::Aggregate { by, aggregations }, Step::Sort { by: Some(sorted), descending: true, limit, then }) =
            (step, next)
        else {
            return None;
        };
        let ([thing], [Aggregation { op: "sum", field: Some(measure), name: Some(total), when }]) =
            (by.as_slice(), aggregations.as_slice())
        else {
            return None;
        };
        if total != sorted || limit.is_none() || !when.is_empty() || !then.is_empty() {
            return None;
        }
        let (rows, _) = self.rows()?;
        let columns = self.table_derived_from(&rows).and_then(|&t| self.headers.get(t)?.as_deref())?;
        let measure = crate::binding::choose(measure, columns)?;
        let a_column = crate::binding::choose(thing, columns).is_some()
            || thing.split_whitespace().any(crate::binding::names_a_kind_of_column);
        (!a_column).then(|| Step::Sort { by: Some(measure), descending: true, limit: *limit, then: Vec::new() })
    }

    // --- steps ---------------------------------------------------------------------------------

    fn step(&mut self, step: &Step) {
        match step {
            // 「取消・入金済は対象外」 with no column named: the values may be of one column or of
            // several (the data settles which), so each leaves its rows out on its own; so with
            // one column named for some of them (「状態が「取消」と「申請中」のもの」).
            Step::Filter { conditions, exclude: true }
                if conditions.len() > 1 && several_values_left_out(conditions) =>
            {
                for condition in conditions {
                    self.filter(std::slice::from_ref(condition), true);
                }
            }
            Step::Filter { conditions, exclude } => self.filter(conditions, *exclude),
            Step::Aggregate { by, aggregations } => self.aggregate(by, aggregations),
            Step::Join { key, unmatched, either_side, wanted, keep_all_of, bring, side_keys } => {
                let lookup = Lookup { keep_all_of: keep_all_of.as_deref(), bring, side_keys };
                self.join(key.as_deref(), *unmatched, *either_side, wanted.as_deref(), lookup)
            }
            Step::Duplicates { by, remove, keep_last } => self.duplicates(by, *remove, *keep_last),
            // In order of the date, the last row of each key is its newest.
            Step::LatestPerKey { by, order_by, newest } => {
                self.sort(Some(order_by), false, None, &[]);
                self.duplicates(by, true, *newest);
            }
            Step::Sort { by, descending, limit, then } => self.sort(by.as_deref(), *descending, *limit, then),
            Step::Compute { name, operation, of, value } => self.compute(name, operation, of, *value),
            Step::Formula { name, formula, .. } => self.formula(name, formula),
            Step::DaysUntil { name, from, until } => self.days_until(name, from, until),
            Step::DaysAfter { name, day, column } => self.days_after(name, day, column),
            Step::FillBlanks { column, value } => self.fill_blanks(column, value),
            Step::Label { name, cases, otherwise } => self.label(name, cases, otherwise.as_deref()),
            Step::Classify { categories } => self.classify(categories),
            Step::Extract { fields } => self.extract(fields),
            Step::Summarise => self.summarise(),
            Step::Translate { to } => self.translate(to.as_deref()),
            Step::Ask { fields } => self.ask(fields),
            Step::Confirm => self.confirm(),
            Step::Api { url, method, per_item, until } => self.api(url.as_deref(), method, *per_item, until.as_ref()),
            Step::Browser { start_url, steps, table_only, screenshot } => {
                self.browser(start_url.as_deref(), steps, *table_only, screenshot.as_deref())
            }
        }
    }

    /// A month said without its year (or months running on, 「10月・11月」): from its first day to
    /// the next month's, in the year `${vars.year}` (December: to its last day). Other conditions
    /// as they are.
    fn month_of_a_year(&mut self, condition: &Condition) -> Vec<Condition> {
        // ("from Nov 2 through Nov 8": days of the year asked.)
        let in_the_year = |v: &Value| v.as_str().is_some_and(|v| v.starts_with(YEAR_VAR));
        if in_the_year(&condition.value) || condition.value2.as_ref().is_some_and(in_the_year) {
            self.open_var("year");
        }
        let month = condition.value.as_u64().filter(|_| condition.operator == MONTH_OF_UNSAID_YEAR);
        let Some(month) = month else { return vec![condition.clone()] };
        let last = condition.value2.as_ref().and_then(Value::as_u64).filter(|last| *last > month).unwrap_or(month);
        self.open_var("year");
        let day = |month: u64, day: u32| Value::from(format!("{YEAR_VAR}-{month:02}-{day:02}"));
        let end = if last == 12 { ("lte", day(12, 31)) } else { ("lt", day(last + 1, 1)) };
        let field = condition.field.clone();
        vec![
            Condition { field: field.clone(), operator: "gte", value: day(month, 1), value2: None },
            Condition { field, operator: end.0, value: end.1, value2: None },
        ]
    }

    fn column(&mut self, field: &Option<String>, open: &str) -> Value {
        match field {
            Some(field) => Value::from(field.as_str()),
            None => self.open_var(open),
        }
    }

    fn filter(&mut self, conditions: &[Condition], exclude: bool) {
        let mut fields: Vec<&str> = conditions.iter().filter_map(|c| c.field.as_deref()).collect();
        // "the October expense lines in expenses.xlsx … in cost_centers.csv": a period with no
        // column said is of the table that has dates.
        let period = conditions.iter().any(|c| c.field.is_none() && crate::reading::of_a_period(c));
        if period {
            fields.push("date");
        }
        // 「1万円以上の経費」 beside 社員.csv: an amount compared with no column said is of the
        // table that has one.
        let amount = conditions.iter().any(|c| {
            c.field.is_none() && matches!(c.operator, "gt" | "gte" | "lt" | "lte" | "between") && c.value.is_number()
        });
        if amount && !period {
            fields.push("amount");
        }
        let rows = period
            .then(|| self.rows_named_for_dates())
            .flatten()
            .or_else(|| self.rows_holding(&fields))
            .or_else(|| {
                let values: Vec<&str> = conditions
                    .iter()
                    .filter(|c| c.field.is_none() && matches!(c.operator, "eq" | "ne"))
                    .filter_map(|c| c.value.as_str())
                    .collect();
                self.rows_holding_values(&values)
            })
            .unwrap_or_else(|| self.rows_or_source());
        let conditions: Vec<Condition> = conditions.iter().flat_map(|c| self.month_of_a_year(c)).collect();
        let conditions = one_of_several_values(conditions);
        let conditions: Value = if conditions.is_empty() {
            self.open_var("filter_conditions")
        } else {
            Value::Array(conditions.iter().map(|c| self.condition(c)).collect())
        };
        let description = filter_description(self.language, exclude).to_owned();
        let id = self.add(
            "filter_rows",
            "transforms.filter",
            description,
            json!({ "items": rows, "conditions": conditions }),
            &[("filtered", "kept"), ("excluded", "left_out")],
        );
        if let Some(id) = id {
            let (kept, left) = (format!("${{{id}.kept}}"), format!("${{{id}.left_out}}"));
            self.same_table(&rows, &[&kept, &left]);
            let (rows, rest) = if exclude { (left, kept) } else { (kept, left) };
            self.flows.push(Flow::Rows { rows, rest: Some(rest) });
        }
    }

    /// One condition as the filter block takes it; a column the text does not name is open,
    /// by what it is for.
    fn condition(&mut self, c: &Condition) -> Value {
        let open = match c.operator {
            _ if crate::reading::of_a_period(c) => "date_column",
            "eq" | "ne" if c.value.is_string() => "status_column",
            "in" => "status_column",
            "contains" => "text_column",
            _ => "amount_column",
        };
        let mut condition = Map::new();
        condition.insert("field".into(), self.column(&c.field, open));
        condition.insert("operator".into(), Value::from(c.operator));
        // Two columns of a row compared: the other is named, not a value.
        match c.value.get("column").and_then(Value::as_str) {
            Some(other) => condition.insert("column".into(), Value::from(other)),
            None => condition.insert("value".into(), c.value.clone()),
        };
        if let Some(v2) = &c.value2 {
            condition.insert("value2".into(), v2.clone());
        }
        Value::Object(condition)
    }

    fn aggregate(&mut self, by: &[String], aggregations: &[Aggregation]) {
        let rows = self.rows_or_source();
        self.totals.clear();
        self.computed = None;
        let list: Vec<Value> = aggregations
            .iter()
            .map(|a| {
                let field = match (&a.field, a.op) {
                    (None, "count") => None,
                    (field, _) => Some(self.column(field, "amount_column")),
                };
                let name = a.result_name(self.language);
                self.totals.push((a.op, name.clone()));
                let mut agg = Map::new();
                if let Some(field) = field {
                    agg.insert("field".into(), field);
                }
                agg.insert("op".into(), Value::from(a.op));
                agg.insert("as".into(), Value::from(name));
                if !a.when.is_empty() {
                    let when: Vec<Condition> = a.when.iter().flat_map(|c| self.month_of_a_year(c)).collect();
                    agg.insert("when".into(), when.iter().map(|c| self.condition(c)).collect());
                }
                Value::Object(agg)
            })
            .collect();
        let base =
            by.first().and_then(|b| identifier(b)).map_or_else(|| "totals".to_owned(), |b| format!("totals_by_{b}"));
        let description = match self.language {
            Language::En if by.is_empty() => "Total the rows".to_owned(),
            Language::En => format!("Total per {}", by.join(" and ")),
            Language::Ja if by.is_empty() => "全体を集計する".to_owned(),
            Language::Ja => format!("{}ごとに集計する", by.join("・")),
        };
        let by: Vec<Value> = by.iter().map(|b| Value::from(b.as_str())).collect();
        if let Some(id) = self.add(
            &base,
            "transforms.group_by_agg",
            description,
            json!({ "items": rows, "by": by, "aggregations": list }),
            &[("rows", "totals")],
        ) {
            self.flows.push(Flow::Rows { rows: format!("${{{id}.totals}}"), rest: None });
        }
    }

    fn join(&mut self, key: Option<&str>, unmatched: bool, either_side: bool, wanted: Option<&str>, lookup: Lookup) {
        let (left, right) = match self.two_latest_tables() {
            Some(pair) => pair,
            // One list (or none, then asked for) and the other side asked for.
            None => {
                let left = self.rows_or_source();
                self.table_source(&Source::asked_csv(), 1, true);
                (left, self.rows().map(|(r, _)| r).unwrap_or_default())
            }
        };
        // "the total per manager (managers are in employees.csv) from expenses.csv": the table
        // the columns are brought from is the one looked up, whichever was read first.
        // (A column both tables have is the key, brought from neither.)
        let columns = |rows: &str| self.table_derived_from(rows).and_then(|&t| self.headers.get(t)?.as_deref());
        let holds = |rows: &str, other: &str| {
            let other = columns(other).unwrap_or_default();
            columns(rows).is_some_and(|columns| {
                lookup.bring.iter().all(|field| {
                    crate::binding::choose(field, columns).is_some_and(|c| !other.iter().any(|o| o.name == c))
                })
            })
        };
        let (left, right) = if !lookup.bring.is_empty() && holds(&left, &right) && !holds(&right, &left) {
            (right, left)
        } else {
            (left, right)
        };
        // The rows without a partner are the side the text names ("the invoices with no
        // payment"), else the first table read.
        let (left_name, right_name) = (self.table_name(&left), self.table_name(&right));
        let named = |name: &Option<String>, w: &str| name.as_deref().is_some_and(|name| names_the_same(name, w));
        // Keys named per table ("the receipt's Invoice Ref … the ledger's Invoice Number").
        let key_of = |name: &Option<String>| {
            let mut found = lookup.side_keys.iter().filter(|(side, _)| named(name, side));
            match (found.next(), found.next()) {
                (Some((_, key)), None) => Some(key.clone()),
                _ => None,
            }
        };
        // (One side's key named, "… appears in the po_ref column of invoices.csv": the key
        // said is the other side's.)
        let side_keys = match (key_of(&left_name), key_of(&right_name), key) {
            (Some(l), Some(r), None) => Some((Value::from(l), Value::from(r))),
            (Some(l), None, Some(k)) => Some((Value::from(l), Value::from(k))),
            (None, Some(r), Some(k)) => Some((Value::from(k), Value::from(r))),
            _ => None,
        };
        let key = match key {
            Some(key) => Value::from(key),
            None if side_keys.is_some() => Value::Null,
            None => self.open_var("match_key"),
        };
        let (left_key, right_key) = side_keys.unwrap_or_else(|| (key.clone(), key.clone()));
        let right_wanted = wanted.is_some_and(|w| named(&right_name, w) && !named(&left_name, w));
        // A lookup into a table keeps all its rows; one without a partner gets empty cells.
        let file = |name: &Option<String>, t: &str| name.as_deref().is_some_and(|name| name.eq_ignore_ascii_case(t));
        let kept = lookup.keep_all_of.map(|t| match (file(&left_name, t), file(&right_name, t)) {
            (false, false) => (named(&left_name, t), named(&right_name, t)),
            by_file => by_file,
        });
        let strategy = match (unmatched, either_side, right_wanted) {
            (false, _, _) if kept == Some((true, false)) => "left",
            (false, _, _) if kept == Some((false, true)) => "right",
            (false, _, _) => "inner",
            (true, false, false) => "left_only",
            (true, false, true) => "right_only",
            (true, true, _) => "outer",
        };
        let shown = left_key.as_str().unwrap_or(self.language.pick("the key", "キー")).to_owned();
        let description = match (self.language, strategy) {
            (Language::En, "left_only" | "right_only") => format!("Keep the rows with no match on {shown}"),
            (Language::En, _) => format!("Match the rows on {shown}"),
            (Language::Ja, "left_only" | "right_only") => format!("{shown}で突き合わせ、相手のない行を残す"),
            (Language::Ja, _) => format!("{shown}で突き合わせる"),
        };
        let mut inputs =
            json!({ "left": left, "right": right, "left_key": left_key, "right_key": right_key, "strategy": strategy });
        if matches!(strategy, "inner" | "left" | "right") && !lookup.bring.is_empty() {
            inputs["bring"] = json!(lookup.bring);
        }
        if self.keys_ignore_case {
            inputs["ignore_case"] = Value::Bool(true);
        }
        if self.keys_ignore_leading_zeros {
            inputs["ignore_leading_zeros"] = Value::Bool(true);
        }
        let Some(id) = self.add("match_rows", "transforms.join", description, inputs, &[("rows", "matched")]) else {
            return;
        };
        self.flows.push(Flow::Rows { rows: format!("${{{id}.matched}}"), rest: None });
        if either_side {
            // A row without a partner has no value in the other side's columns.
            let column = self.open_var("partner_column");
            let description =
                self.language.pick("Keep the rows without a match", "突き合わなかった行を残す").to_owned();
            let conditions = json!([{ "field": column, "operator": "eq", "value": null }]);
            let inputs = json!({ "items": format!("${{{id}.matched}}"), "conditions": conditions });
            if let Some(f) = self.add(
                "unmatched_rows",
                "transforms.filter",
                description,
                inputs,
                &[("filtered", "unmatched"), ("excluded", "matched_rows")],
            ) {
                self.flows.push(Flow::Rows {
                    rows: format!("${{{f}.unmatched}}"),
                    rest: Some(format!("${{{f}.matched_rows}}")),
                });
            }
        }
    }

    fn duplicates(&mut self, by: &[String], remove: bool, keep_last: bool) {
        let rows = self.rows_or_source();
        let by: Value = match (by.is_empty(), remove) {
            // Removing duplicates of whole rows needs no key; finding them needs one.
            (true, true) => Value::Null,
            (true, false) => self.open_var("duplicate_column"),
            (false, _) => Value::Array(by.iter().map(|b| Value::from(b.as_str())).collect()),
        };
        let shown = by.as_array().map(|b| b.iter().filter_map(Value::as_str).collect::<Vec<_>>());
        let mut inputs = json!({ "items": rows });
        if !by.is_null() {
            inputs["by"] = by.clone();
        }
        // ("same email but sometimes typed with different capitals": one key whatever its case.)
        if self.keys_ignore_case && !by.is_null() {
            inputs["ignore_case"] = Value::Bool(true);
        }
        let (block, base, out) = if remove {
            if keep_last {
                inputs["keep"] = Value::from("last");
            }
            ("transforms.remove_duplicates", "remove_duplicates", [("rows", "unique"), ("removed", "removed")])
        } else {
            ("transforms.find_duplicates", "find_duplicates", [("rows", "duplicates"), ("groups", "groups")])
        };
        let description = match (self.language, remove, &shown) {
            (Language::En, true, Some(by)) => format!("Keep one row per {}", by.join(" and ")),
            (Language::En, true, None) => "Remove duplicate rows".to_owned(),
            (Language::En, false, Some(by)) => format!("List every row whose {} another row shares", by.join(" and ")),
            (Language::En, false, None) => "List the duplicate rows".to_owned(),
            (Language::Ja, true, Some(by)) => format!("{}ごとに1行だけ残す", by.join("・")),
            (Language::Ja, true, None) => "重複した行を除く".to_owned(),
            (Language::Ja, false, Some(by)) => format!("{}が同じ行をすべて並べる", by.join("・")),
            (Language::Ja, false, None) => "重複している行を並べる".to_owned(),
        };
        let from = inputs["items"].as_str().unwrap_or_default().to_owned();
        if let Some(id) = self.add(base, block, description, inputs, &out) {
            let (rows, rest) = (format!("${{{id}.{}}}", out[0].1), format!("${{{id}.{}}}", out[1].1));
            self.same_table(&from, &[&rows, &rest]);
            self.flows.push(Flow::Rows { rows, rest: Some(rest) });
        }
    }

    fn sort(&mut self, by: Option<&str>, descending: bool, limit: Option<u64>, then: &[(String, bool)]) {
        let rows = self.rows_holding(by.as_slice()).unwrap_or_else(|| self.rows_or_source());
        let column = match by {
            Some(by) => Value::from(by),
            None => self.open_var("sort_column"),
        };
        let key = |column: &Value, descending: bool| {
            let mut key = json!({ "column": column, "order": if descending { "desc" } else { "asc" } });
            let listed = self.value_orders.iter().find(|(c, _)| column.as_str().is_some_and(|k| same_noun(k, c)));
            if let Some((_, values)) = listed {
                key["values"] = json!(values);
            }
            key
        };
        let keys: Vec<Value> = std::iter::once(key(&column, descending))
            .chain(then.iter().map(|(column, descending)| key(&Value::from(column.as_str()), *descending)))
            .collect();
        let mut inputs = json!({ "items": rows, "by": keys });
        if let Some(limit) = limit {
            inputs["limit"] = Value::from(limit);
        }
        let first = by.unwrap_or(self.language.pick("the column asked for", "指定の列"));
        let shown = std::iter::once(first).chain(then.iter().map(|(c, _)| c.as_str())).collect::<Vec<_>>();
        let shown = shown.join(self.language.pick(", then ", "、次に"));
        let description = match (self.language, limit, descending) {
            (Language::En, Some(n), true) => format!("Keep the {n} rows with the largest {shown}"),
            (Language::En, Some(n), false) => format!("Keep the {n} rows with the smallest {shown}"),
            (Language::En, None, true) => format!("Sort by {shown}, largest first"),
            (Language::En, None, false) => format!("Sort by {shown}"),
            (Language::Ja, Some(n), true) => format!("{shown}の大きい順に{n}行を残す"),
            (Language::Ja, Some(n), false) => format!("{shown}の小さい順に{n}行を残す"),
            (Language::Ja, None, true) => format!("{shown}の大きい順に並べる"),
            (Language::Ja, None, false) => format!("{shown}の順に並べる"),
        };
        let base = if limit.is_some() { "top_rows" } else { "sort_rows" };
        if let Some(id) = self.add(base, "transforms.sort", description, inputs, &[("rows", "sorted")]) {
            let sorted = format!("${{{id}.sorted}}");
            self.same_table(&rows, &[&sorted]);
            self.flows.push(Flow::Rows { rows: sorted, rest: None });
        }
    }

    fn compute(&mut self, name: &str, op: &str, of: &[String], value: Option<f64>) {
        if let Some(direction) = rounding::Direction::of_operation(op) {
            return self.round(of.first().map(String::as_str), value.unwrap_or(0.0) as u64, direction);
        }
        if matches!(op, "difference" | "sum" | "product" | "ratio" | "percent") {
            self.computed = Some(name.to_owned());
        }
        let rows = self.rows_or_source();
        let operands: Vec<String> = of.iter().cloned().chain(value.map(|v| v.to_string())).collect();
        let description = match self.language {
            Language::En => format!("Add the column {name} ({op} of {})", operands.join(", ")),
            Language::Ja => format!("列「{name}」を追加する（{}）", operands.join("・")),
        };
        let mut column = match op {
            "rank_ascending" => json!({ "as": name, "op": "rank", "of": of, "order": "ascending" }),
            "days_inclusive" => json!({ "as": name, "op": "days", "of": of, "inclusive": true }),
            "date_with_slashes" => json!({ "as": name, "op": "date", "of": of, "separator": "/" }),
            // 「2026年9月」 shown: the month written so.
            "month" if self.month_form.is_some() => json!({ "as": name, "op": op, "of": of, "form": self.month_form }),
            _ => json!({ "as": name, "op": op, "of": of }),
        };
        if let Some(value) = value {
            column["value"] = crate::reading::slots::number_value(value);
        }
        self.add_columns_step(rows, "add_column", description, vec![column]);
    }

    /// A column computed by a formula of more than one sign.
    fn formula(&mut self, name: &str, formula: &str) {
        self.computed = Some(name.to_owned());
        let rows = self.rows_or_source();
        let description = match self.language {
            Language::En => format!("Add the column {name} = {formula}"),
            Language::Ja => format!("列「{name}」を追加する（{formula}）"),
        };
        let column = json!({ "as": name, "op": "formula", "formula": formula });
        self.add_columns_step(rows, "add_column", description, vec![column]);
    }

    /// The days from each row's date to a date the text says.
    fn days_until(&mut self, name: &str, from: &str, until: &str) {
        let rows = self.rows_or_source();
        let description = match self.language {
            Language::En => format!("Add the column {name} (days from {from} to {until})"),
            Language::Ja => format!("列「{name}」を追加する（{from}から{until}までの日数）"),
        };
        let column = json!({ "as": name, "op": "days", "of": [from], "value": until });
        self.add_columns_step(rows, "add_column", description, vec![column]);
    }

    /// The days from `day` to the date in `column` (a date less the day: `difference`).
    fn days_after(&mut self, name: &str, day: &str, column: &str) {
        let rows = self.rows_or_source();
        let description = match self.language {
            Language::En => format!("Add the column {name} (days from {day} to {column})"),
            Language::Ja => format!("列「{name}」を追加する（{day}から{column}までの日数）"),
        };
        let added = json!({ "as": name, "op": "difference", "of": [column], "value": day });
        self.add_columns_step(rows, "add_column", description, vec![added]);
    }

    /// The blank cells of `column` given `value`, in place.
    fn fill_blanks(&mut self, column: &str, value: &str) {
        let rows = self.rows_or_source();
        let description = match self.language {
            Language::En => format!("Write {value} where {column} is blank"),
            Language::Ja => format!("{column}が空欄の行に「{value}」と入れる"),
        };
        let filled = json!({ "as": column, "op": "fill", "of": [column], "value": value });
        self.add_columns_step(rows, "fill_blanks", description, vec![filled]);
    }

    /// A `transforms.add_columns` step adding `columns` to `rows`; the next step reads its rows.
    fn add_columns_step(&mut self, rows: String, base: &str, description: String, columns: Vec<Value>) {
        let inputs = json!({ "items": rows, "columns": columns });
        if let Some(id) = self.add(base, "transforms.add_columns", description, inputs, &[("rows", "rows")]) {
            let added = format!("${{{id}.rows}}");
            self.same_table(&rows, &[&added]);
            self.flows.push(Flow::Rows { rows: added, rest: None });
        }
    }

    /// Numbers rounded in place to `decimals`, the way the text says: the column it names, or the
    /// totals it means ("the averages": the last grouping's averages; nothing named: the column
    /// computed since, else the grouping's sums and averages).
    fn round(&mut self, target: Option<&str>, decimals: u64, direction: rounding::Direction) {
        let wanted = target.map(|t| slots::singular(&t.to_lowercase()));
        // The totals meant, by their operation; `None`: a column the text names.
        // 「平均金額（1円未満は四捨五入）」 after totals named 平均: the average, by its kind.
        let named_total = |words: &[&str]| {
            !self.totals.is_empty()
                && wanted.as_deref().is_some_and(|w| words.iter().any(|k| w.starts_with(k) || w.ends_with(k)))
                && !self.totals.iter().any(|(_, n)| Some(n.to_lowercase()) == wanted)
        };
        let totals: Option<&[&str]> = match wanted.as_deref() {
            Some("average" | "avg" | "mean" | "平均") => Some(&["avg"]),
            Some("total" | "sum" | "合計") => Some(&["sum"]),
            Some(_) if named_total(&["average", "平均"]) => Some(&["avg"]),
            Some(_) if named_total(&["total", "合計"]) => Some(&["sum"]),
            Some(_) => None,
            None => Some(&["avg", "sum"]),
        };
        let columns: Vec<String> = match (totals, target) {
            (Some(_), None) if self.computed.is_some() => self.computed.iter().cloned().collect(),
            (Some(ops), _) => self.totals.iter().filter(|(op, _)| ops.contains(op)).map(|(_, n)| n.clone()).collect(),
            (None, Some(column)) => vec![column.to_owned()],
            (None, None) => Vec::new(),
        };
        let rows = self.rows_or_source();
        let columns = match columns.is_empty() {
            true => vec![self.open_var("round_column")],
            false => columns.into_iter().map(Value::from).collect(),
        };
        let columns: Vec<Value> = columns
            .iter()
            .map(|c| {
                let mut column = json!({ "as": c, "op": "round", "of": [c], "decimals": decimals });
                if direction != rounding::Direction::Nearest {
                    column["rounding"] = Value::from(direction.block_value());
                }
                column
            })
            .collect();
        let description = match (self.language, direction) {
            (Language::En, rounding::Direction::Nearest) => format!("Round to {decimals} decimal(s)"),
            (Language::En, rounding::Direction::Down) => format!("Round down to {decimals} decimal(s)"),
            (Language::En, rounding::Direction::Up) => format!("Round up to {decimals} decimal(s)"),
            (Language::Ja, rounding::Direction::Nearest) => format!("小数点以下{decimals}桁に四捨五入する"),
            (Language::Ja, rounding::Direction::Down) => format!("小数点以下{decimals}桁に切り捨てる"),
            (Language::Ja, rounding::Direction::Up) => format!("小数点以下{decimals}桁に切り上げる"),
        };
        self.add_columns_step(rows, "round", description, columns);
    }

    /// A column whose value is the first case's that holds ("Overdue when the due date is before
    /// …, Open otherwise").
    fn label(&mut self, name: &str, cases: &[(Vec<Condition>, String)], otherwise: Option<&str>) {
        let rows = self.rows_or_source();
        let cases: Vec<Value> = cases
            .iter()
            .map(|(when, then)| {
                let when: Vec<Condition> = when.iter().flat_map(|c| self.month_of_a_year(c)).collect();
                let when: Vec<Value> = when.iter().map(|c| self.condition(c)).collect();
                json!({ "when": when, "then": then })
            })
            .collect();
        let description = match self.language {
            Language::En => format!("Add the column {name} by conditions"),
            Language::Ja => format!("条件で列「{name}」を追加する"),
        };
        let mut column = json!({ "as": name, "op": "label", "cases": cases });
        if let Some(otherwise) = otherwise {
            column["else"] = Value::from(otherwise);
        }
        self.add_columns_step(rows, "add_label", description, vec![column]);
    }

    /// Only the columns the text lists, in its order, under the new names it gives.
    fn choose_columns(&mut self, columns: &[String], renamed: &[String]) {
        let Some((rows, rest)) = self.rows() else { return };
        let description = match self.language {
            Language::En => format!("Keep only the columns {}", columns.join(", ")),
            Language::Ja => format!("{} の列だけにする", columns.join("・")),
        };
        let chosen: Vec<Value> = match renamed.len() == columns.len() {
            true => columns.iter().zip(renamed).map(|(c, name)| json!({ "column": c, "as": name })).collect(),
            false => columns.iter().map(|c| Value::from(c.as_str())).collect(),
        };
        let inputs = json!({ "items": rows, "columns": chosen });
        if let Some(id) =
            self.add("choose_columns", "transforms.select_columns", description, inputs, &[("rows", "chosen")])
        {
            self.flows.push(Flow::Rows { rows: format!("${{{id}.chosen}}"), rest });
        }
    }

    /// What a model step reads: the current rows, texts or answer under a name saying what it is.
    fn evidence(&mut self) -> Value {
        match self.current().cloned() {
            Some(Flow::Texts(texts)) => json!({ "documents": texts }),
            Some(Flow::Answer(answer)) => json!({ "data": answer }),
            Some(Flow::Rows { rows, .. }) => json!({ "rows": rows }),
            None => json!({ "rows": self.rows_or_source() }),
        }
    }

    fn model_step(&mut self, base: &str, description: String, instruction: Value, schema: Value) {
        let evidence = self.evidence();
        let inputs = json!({ "evidence_data": evidence, "instruction": instruction, "output_schema": schema });
        if let Some(id) = self.add(base, "ai.process_llm", description, inputs, &[("results", "answer")]) {
            self.note(DesignNote::ModelStepJudges);
            self.flows.push(Flow::Rows { rows: format!("${{{id}.answer.items}}"), rest: None });
        }
    }

    fn classify(&mut self, categories: &[String]) {
        let (choices, category) = if categories.is_empty() {
            let open = self.open_var("categories");
            (open, json!({ "type": "string" }))
        } else {
            (Value::from(categories.join(", ")), json!({ "type": "string", "enum": categories }))
        };
        let instruction = match self.language {
            Language::En => format!(
                "Put each item in exactly one of these categories: {}. Give a short reason.",
                text_or_ref(&choices)
            ),
            Language::Ja => format!(
                "各項目を次のカテゴリのいずれか1つに分類し、短い理由を添えてください：{}",
                text_or_ref(&choices)
            ),
        };
        let schema = json!({
            "type": "object",
            "required": ["items"],
            "properties": { "items": { "type": "array", "items": {
                "type": "object",
                "required": ["item", "category", "reason"],
                "properties": { "item": { "type": "string" }, "category": category, "reason": { "type": "string" } }
            } } }
        });
        let description = self.language.pick("Classify each item with a model", "モデルで各項目を分類する").to_owned();
        self.model_step("classify", description, Value::from(instruction), schema);
    }

    fn extract(&mut self, fields: &[String]) {
        if self.current().is_none() {
            self.documents_source(&[]);
        }
        let description = self
            .language
            .pick("Read the fields out of each document with a model", "モデルで各書類から項目を読み取る")
            .to_owned();
        if fields.is_empty() {
            // The answer is the name of a schema template; the schema itself goes in the node.
            let chosen = self
                .answers
                .get("output_schema")
                .and_then(Value::as_str)
                .and_then(crate::requirements::schema_template);
            let schema = chosen.unwrap_or_else(|| self.open_var("output_schema"));
            let instruction = self
                .language
                .pick("Read the requested fields out of each document.", "各書類から必要な項目を読み取ってください。");
            self.model_step("extract_fields", description, Value::from(instruction), schema);
            return;
        }
        let properties: Map<String, Value> = std::iter::once(("file".to_owned(), json!({ "type": "string" })))
            .chain(fields.iter().map(|f| (f.clone(), json!({ "type": "string" }))))
            .collect();
        let mut required = vec![Value::from("file")];
        required.extend(fields.iter().map(|f| Value::from(f.as_str())));
        let schema = json!({
            "type": "object",
            "required": ["items"],
            "properties": { "items": { "type": "array", "items": { "type": "object", "required": required, "properties": properties } } }
        });
        let instruction = match self.language {
            Language::En => format!(
                "For each document, read: {}. Leave a field empty when the document does not show it.",
                fields.join(", ")
            ),
            Language::Ja => format!(
                "各書類から次の項目を読み取ってください：{}。書類に無い項目は空欄にしてください。",
                fields.join("、")
            ),
        };
        self.model_step("extract_fields", description, Value::from(instruction), schema);
    }

    fn summarise(&mut self) {
        let schema =
            json!({ "type": "object", "required": ["summary"], "properties": { "summary": { "type": "string" } } });
        let instruction =
            self.language.pick("Summarise the data in a few sentences.", "内容を数文で要約してください。");
        let description = self.language.pick("Summarise with a model", "モデルで要約する").to_owned();
        let evidence = self.evidence();
        let inputs = json!({ "evidence_data": evidence, "instruction": instruction, "output_schema": schema });
        if let Some(id) = self.add("summarise", "ai.process_llm", description, inputs, &[("results", "summary")]) {
            self.flows.push(Flow::Answer(format!("${{{id}.summary}}")));
        }
    }

    fn translate(&mut self, to: Option<&str>) {
        let target = match to {
            Some(language) => Value::from(language),
            None => self.open_var("target_language"),
        };
        let instruction = match self.language {
            Language::En => format!(
                "Translate the text of each item into {}. Keep names, numbers and codes as they are.",
                text_or_ref(&target)
            ),
            Language::Ja => format!(
                "各項目の文章を{}に翻訳してください。名前・数値・コードはそのまま残してください。",
                text_or_ref(&target)
            ),
        };
        let schema = json!({
            "type": "object",
            "required": ["items"],
            "properties": { "items": { "type": "array", "items": {
                "type": "object",
                "required": ["item", "translation"],
                "properties": { "item": { "type": "string" }, "translation": { "type": "string" } }
            } } }
        });
        let description = self.language.pick("Translate with a model", "モデルで翻訳する").to_owned();
        self.model_step("translate", description, Value::from(instruction), schema);
    }

    fn ask(&mut self, fields: &[String]) {
        let fields: Vec<String> =
            if fields.is_empty() { vec![self.language.pick("value", "入力値").to_owned()] } else { fields.to_vec() };
        let requirements: Vec<Value> = fields
            .iter()
            .enumerate()
            .map(|(i, f)| json!({ "id": identifier(f).unwrap_or_else(|| format!("value_{}", i + 1)), "type": "text", "label": f, "required": true }))
            .collect();
        let message = match self.language {
            Language::En => format!("Please enter: {}", fields.join(", ")),
            Language::Ja => format!("次の項目を入力してください：{}", fields.join("、")),
        };
        let description = self.language.pick("Ask a person for the values", "担当者に入力してもらう").to_owned();
        self.add(
            "ask_person",
            "ui.interactive_input",
            description,
            json!({ "mode": "collect", "message": message, "requirements": requirements }),
            &[("collected_data", "answers")],
        );
    }

    fn confirm(&mut self) {
        let subject = self.current().map(|f| f.reference().to_owned());
        let message = match (self.language, &subject) {
            (Language::En, Some(r)) => format!("Please review before continuing: {r}"),
            (Language::En, None) => "Please approve before continuing.".to_owned(),
            (Language::Ja, Some(r)) => format!("続行する前に内容を確認して承認してください：{r}"),
            (Language::Ja, None) => "続行する前に承認してください。".to_owned(),
        };
        let description =
            self.language.pick("A person approves before the next steps", "次の処理の前に担当者が承認する").to_owned();
        let gate = self.gate.take();
        let id = self.add(
            "confirm",
            "ui.confirmation",
            description,
            json!({ "message": message }),
            &[("approved", "approved")],
        );
        self.gate = gate;
        if let (Some(id), true) = (id, self.options.suggest_when) {
            self.note(DesignNote::StepsAfterApproval { node: id.clone() });
            self.gate = Some(id);
        }
    }

    fn api(&mut self, url: Option<&str>, method: &str, per_item: bool, until: Option<&Condition>) {
        let url = match url {
            Some(u) => Value::from(u),
            None => self.open_var("api_url"),
        };
        let mut request = json!({ "method": method, "url": url });
        if self.plan.secrets.iter().any(|s| s == crate::credentials::TOKEN) {
            request["headers"] =
                json!({ "Authorization": format!("Bearer ${{secrets.{}}}", crate::credentials::TOKEN) });
        }
        if method == "POST" {
            if let Some(flow) = self.current() {
                request["body"] = Value::from(flow.reference());
            }
        }
        if let Some(until) = until {
            return self.poll(request, until);
        }
        if per_item && self.options.suggest_foreach {
            return self.api_per_item(request);
        }
        let description = match self.language {
            Language::En => format!("Call the API ({method})"),
            Language::Ja => format!("API を呼び出す（{method}）"),
        };
        if let Some(id) = self.add(
            "call_api",
            "external.api.http",
            description,
            request,
            &[("response_json", "response"), ("status", "status")],
        ) {
            self.flows.push(Flow::Answer(format!("${{{id}.response}}")));
        }
    }

    fn api_per_item(&mut self, mut request: Value) {
        let rows = self.rows_or_source();
        let item = self.options.foreach_var_name.clone();
        if let Some(url) = request["url"].as_str() {
            request["url"] = Value::from(url_with_item(url, &item));
        }
        if request["method"] == "POST" {
            request["body"] = Value::from(format!("${{vars.{item}}}"));
        }
        let inner = Node {
            id: "call".into(),
            block: Some("external.api.http".into()),
            description: Some(self.language.pick("Call the API for one item", "1件分の API を呼び出す").into()),
            inputs: object(request),
            out: IndexMap::from([("response_json".to_owned(), "response".to_owned())]),
            ..Node::default()
        };
        let id = self.unique_id("call_api_per_item");
        let when = self.gated();
        self.plan.graph.push(Node {
            id: id.clone(),
            description: Some(self.language.pick("Call the API once per row", "1行ずつ API を呼び出す").into()),
            foreach: Some(Foreach { input: Value::from(rows), item_var: item, index_var: None, max_concurrency: None }),
            body: Some(Body { plan: BodyPlan { description: None, policy: None, graph: vec![inner] } }),
            out: IndexMap::from([("collect".to_owned(), "responses".to_owned())]),
            when,
            ..Node::default()
        });
        self.note(DesignNote::ApiPerRow);
        self.flows.push(Flow::Rows { rows: format!("${{{id}.responses}}"), rest: None });
    }

    fn poll(&mut self, request: Value, until: &Condition) {
        let field = until.field.as_deref().and_then(identifier).unwrap_or_else(|| "status".into());
        let value = until.value.as_str().unwrap_or("done").replace('\'', "");
        let inner = Node {
            id: "check".into(),
            block: Some("external.api.http".into()),
            description: Some(self.language.pick("Ask for the status once", "状態を1回確認する").into()),
            inputs: object(request),
            out: IndexMap::from([("response_json".to_owned(), "response".to_owned())]),
            ..Node::default()
        };
        let id = self.unique_id("wait_until_done");
        let when = self.gated();
        self.plan.graph.push(Node {
            id: id.clone(),
            description: Some(match self.language {
                Language::En => format!("Check until {field} is {value}"),
                Language::Ja => format!("{field} が {value} になるまで確認する"),
            }),
            while_: Some(While {
                condition: When { expr: format!("${{check.response.{field}}} != '{value}'") },
                max_iterations: 60,
            }),
            body: Some(Body { plan: BodyPlan { description: None, policy: None, graph: vec![inner] } }),
            out: IndexMap::from([("collect".to_owned(), "checks".to_owned())]),
            when,
            ..Node::default()
        });
        self.note(DesignNote::StatusPolled { times: 60 });
        self.flows.push(Flow::Answer(format!("${{{id}.checks}}")));
    }

    fn browser(&mut self, start_url: Option<&str>, steps: &str, table_only: bool, screenshot: Option<&str>) {
        let url = match start_url {
            Some(u) => Value::from(u),
            None => self.open_var("start_url"),
        };
        if table_only || screenshot.is_some() {
            let description = self.language.pick("Open the page", "ページを開く").to_owned();
            self.add("open_page", "browser.navigate", description, json!({ "url": url }), &[("url", "page_url")]);
            if table_only {
                let description = self.language.pick("Read the table on the page", "ページの表を読み取る").to_owned();
                if let Some(id) =
                    self.add("read_table", "browser.extract_table", description, json!({}), &[("rows", "rows")])
                {
                    self.flows.push(Flow::Rows { rows: format!("${{{id}.rows}}"), rest: None });
                }
            }
        } else {
            let description = self.language.pick("Carry out the browser steps", "ブラウザの操作を行う").to_owned();
            let inputs = json!({ "start_url": url, "steps": steps });
            if let Some(id) = self.add(
                "browser_steps",
                "browser.run_objectives",
                description,
                inputs,
                &[("report", "report"), ("passed", "passed"), ("extracted", "extracted")],
            ) {
                self.note(DesignNote::BrowserObjectives);
                self.flows.push(Flow::Answer(format!("${{{id}.report}}")));
            }
        }
        if let Some(path) = screenshot {
            let description = self.language.pick("Save a screenshot", "スクリーンショットを保存する").to_owned();
            self.add(
                "screenshot",
                "browser.screenshot",
                description,
                json!({ "path": path, "full_page": true }),
                &[("path", "screenshot")],
            );
        }
    }

    fn template(&mut self, template: &TemplateSpec) {
        let mut bindings = IndexMap::new();
        if let Some((rows, _)) = self.rows() {
            // The first list the template imports reads the current rows.
            if let Some((name, _)) = template.imports.iter().find(|(_, p)| p.type_name == "array") {
                bindings.insert(name.clone(), rows);
            }
        }
        match compose(&mut self.plan, template, &bindings) {
            Ok(composed) => {
                if let Some(when) = self.gated() {
                    for node in
                        self.plan.graph.iter_mut().filter(|n| composed.node_ids.contains(&n.id) && n.when.is_none())
                    {
                        node.when = Some(when.clone());
                    }
                }
                if let Some(export) = composed.exports.values().next() {
                    self.flows.push(Flow::Rows { rows: export.clone(), rest: None });
                }
                self.note(DesignNote::TemplateComposed {
                    template: composed.template.clone(),
                    nodes: composed.node_ids.len() as u64,
                });
                self.conflicts.extend(composed.conflicts.iter().cloned());
                self.composed.push(composed);
            }
            Err(e) => {
                self.note(DesignNote::TemplateNotComposed { template: template.id.clone(), detail: e.to_string() })
            }
        }
    }

    // --- outputs -------------------------------------------------------------------------------

    fn output(&mut self, output: &Output) {
        let data = match (output.rest, self.rows(), self.current()) {
            (true, Some((_, Some(rest))), _) => rest,
            (_, _, Some(flow)) => flow.reference().to_owned(),
            (_, Some((rows, _)), None) => rows,
            (_, None, None) => self.rows_or_source(),
        };
        let default_name = match self.language {
            Language::En => "result",
            Language::Ja => "結果",
        };
        let path = match &output.path {
            Some(p) => Value::from(p.as_str()),
            None => {
                let var = if self.plan.vars.contains_key("output_file") {
                    format!("output_file_{}", self.plan.graph.len())
                } else {
                    "output_file".into()
                };
                self.default_var(&var, Value::from(format!("{default_name}.{}", output.format.extension())))
            }
        };
        let stem = output.path.as_deref().and_then(file_stem_id).unwrap_or_else(|| "result".into());
        let shown = output.path.clone().unwrap_or_else(|| output.format.extension().to_uppercase());
        let description = match self.language {
            Language::En => format!("Write {shown}"),
            Language::Ja => format!("{shown} に書き出す"),
        };
        if output.format == OutputFormat::Excel {
            let sheet = self.language.pick("Results", "結果");
            self.add(
                &format!("write_{stem}"),
                "excel.write",
                description,
                json!({ "path": path, "sheets": { sheet: data } }),
                &[("path", "written")],
            );
            return;
        }
        let format = match output.format {
            OutputFormat::Csv => "csv",
            OutputFormat::Json => "json",
            _ => "markdown",
        };
        let mut inputs = json!({ "data": data, "format": format, "path": path });
        if format == "markdown" {
            inputs["title"] = Value::from(self.language.pick("Results", "結果"));
        }
        self.add(&format!("write_{stem}"), "report.write", description, inputs, &[("path", "written")]);
    }

    fn finish(mut self) -> Designed {
        // Graph order: composed templates' own layouts are in it already, in place.
        let layout: Vec<String> = self.plan.graph.iter().map(|n| n.id.clone()).collect();
        self.plan.ui = (!layout.is_empty()).then_some(Ui { layout });
        Designed { plan: self.plan, notes: self.notes, composed: self.composed, conflicts: self.conflicts }
    }
}

/// `https://api/x/{id}` → `https://api/x/${vars.item.id}`; `:id` and `<id>` likewise.
fn url_with_item(url: &str, item: &str) -> String {
    static PLACEHOLDER: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\{([^{}\s/.$]{1,40})\}|<([^<>\s/.$]{1,40})>|/:([A-Za-z_][A-Za-z0-9_]*)")
            .expect("placeholder")
    });
    PLACEHOLDER
        .replace_all(url, |c: &regex::Captures| {
            if let Some(name) = c.get(3) {
                format!("/${{vars.{item}.{}}}", name.as_str())
            } else {
                let name = c.get(1).or(c.get(2)).map_or("", |m| m.as_str());
                format!("${{vars.{item}.{name}}}")
            }
        })
        .into_owned()
}

/// Whether a table's name (`open_invoices.xlsx`, 「請求データ」) names what `word` does
/// ("invoice", 「請求書」): one contains the other, or they share a stem of two characters or more.
fn names_the_same(name: &str, word: &str) -> bool {
    let fold = |t: &str| {
        let stem = t.rsplit_once('.').map_or(t, |(stem, _)| stem).to_lowercase();
        stem.chars().filter(|c| c.is_alphanumeric()).collect::<String>()
    };
    let (name, word) = (fold(name), fold(&slots::singular(word)));
    if name.is_empty() || word.is_empty() {
        return false;
    }
    let head: String = word.chars().take(2).collect();
    name.contains(&word) || word.contains(&name) || !word.is_ascii() && name.contains(&head)
}

/// What a lookup keeps: every row of one table, and the columns it brings from the other.
struct Lookup<'a> {
    keep_all_of: Option<&'a str>,
    bring: &'a [String],
    side_keys: &'a [(String, String)],
}

/// Texts left out, of no column or of one column named: each leaves its rows out (two
/// equalities of one column never both hold). Texts of two columns ("the Cancelled orders from
/// Tokyo") are rows that are both.
/// What a filter step does, in the plan's language.
pub(crate) fn filter_description(language: Language, exclude: bool) -> &'static str {
    match (language, exclude) {
        (Language::En, false) => "Keep the rows that meet the conditions",
        (Language::En, true) => "Leave out the rows that meet the conditions",
        (Language::Ja, false) => "条件に合う行を残す",
        (Language::Ja, true) => "条件に合う行を除く",
    }
}

fn several_values_left_out(conditions: &[Condition]) -> bool {
    let texts = conditions.iter().all(|c| c.operator == "eq" && c.value.is_string());
    let mut named = conditions.iter().filter_map(|c| c.field.as_deref());
    let first = named.next();
    texts && named.all(|f| Some(f) == first)
}

/// Values of one named column said together ("status Open or Reopened") are one condition, the
/// column one of them: every condition must hold, and a column cannot equal two texts at once —
/// so kept, the rows would be none, and left out, none would be.
fn one_of_several_values(conditions: Vec<Condition>) -> Vec<Condition> {
    let mut out: Vec<Condition> = Vec::with_capacity(conditions.len());
    for c in conditions {
        let text_equal = |c: &Condition| c.operator == "eq" && c.value.is_string() && c.value2.is_none();
        let same =
            out.iter_mut().find(|o| (text_equal(o) || o.operator == "in") && o.field.is_some() && o.field == c.field);
        match same {
            Some(o) if text_equal(&c) => {
                let first = std::mem::take(&mut o.value);
                let mut values = match first {
                    Value::Array(values) => values,
                    one => vec![one],
                };
                values.push(c.value);
                o.value = Value::Array(values);
                o.operator = "in";
            }
            _ => out.push(c),
        }
    }
    out
}

/// `reports/department_totals.csv` → `department_totals`, for node and plan ids.
fn file_stem_id(path: &str) -> Option<String> {
    let file = path.rsplit('/').next()?;
    identifier(file.rsplit_once('.')?.0)
}

fn object(value: Value) -> IndexMap<String, Value> {
    match value {
        Value::Object(map) => map.into_iter().collect(),
        _ => IndexMap::new(),
    }
}

fn text_or_ref(value: &Value) -> String {
    value.as_str().unwrap_or_default().to_owned()
}

/// A plan id from what the instruction writes, else from what it does.
fn plan_id(reading: &Reading) -> String {
    let from_output = reading.outputs.iter().filter_map(|o| o.path.as_deref()).find_map(file_stem_id);
    let id = from_output.unwrap_or_else(|| {
        let ops: Vec<&str> = reading.steps.iter().map(Step::name).take(3).collect();
        if ops.is_empty() {
            "generated_plan".into()
        } else {
            ops.join("_")
        }
    });
    id.chars().take(64).collect()
}
