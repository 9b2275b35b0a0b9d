//! The instruction reader: an instruction in English or Japanese read into a pipeline — where
//! the data comes from, what is done to it in order, and where results go — with the values the
//! text spells out (file names, columns, thresholds, URLs, categories, fields) and nothing
//! invented. What the text leaves open stays `None` and becomes a requirement later.
//!
//! Rule-based and deterministic: the text is cut into clauses (`clauses`), each clause is looked
//! at for the operations its words name (`words`), and each operation reads its own values from
//! its clause (`conditions`, `slots`). Text is lower-cased as ASCII only, so that byte offsets
//! found in one form hold in the other. Credentials are replaced by `{{NAME}}` placeholders before
//! the reader sees the text (`crate::credentials`).

mod aliases;
mod blanks;
mod clauses;
mod conditions;
mod counted;
mod dates;
mod labels;
mod passes;
mod rates;
pub(crate) mod relative;
mod repeats;
pub mod rounding;
mod shaping;
pub mod slots;
mod sort_keys;
mod words;

use std::sync::LazyLock;

use serde::Serialize;
use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

use clauses::Clause;
pub(crate) use conditions::JA_OF_PEOPLE;
pub use conditions::{month_name, MONTH_OF_UNSAID_YEAR};
pub(crate) use dates::{month_number, YEAR_VAR};
use passes::{
    columns_of_totals_after_totals, conditions_after_their_columns, conditions_on_totals, conditions_over_a_difference,
    each_group_left_out, joined_texts_before_totals, months_to_group_by, one_grouping,
    one_order_and_one_duplicate_check, one_row_per_group, rounding_after_totals, row_columns_before_totals,
    rows_kept_before_totals, totals_compared_after_totals, twice_is_the_duplicate_check,
    unkeyed_order_by_the_only_total,
};
pub(crate) use shaping::number;
use words::{Lexicon, EN, JA};
pub(crate) use words::{SHEET_LAYOUT_SAID, TIME_UNITS};

/// The language an instruction is written in; labels and hints of requirements follow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Language {
    En,
    Ja,
}

impl Language {
    /// Japanese when kana and kanji carry the text: an English sentence naming Japanese
    /// columns or files ("the rows where 部門 is 営業") is English. Words holding `.`, `/`, `_`
    /// or `:` (file names, paths, addresses, identifiers) count for neither.
    pub fn of(text: &str) -> Language {
        let japanese = |c: char| matches!(c, '\u{3040}'..='\u{30ff}' | '\u{4e00}'..='\u{9fff}');
        let (mut kana_kanji, mut letters) = (0usize, 0usize);
        for word in text.split_whitespace().filter(|w| !w.contains(['.', '/', '_', ':'])) {
            kana_kanji += word.chars().filter(|c| japanese(*c)).count();
            letters += word.chars().filter(char::is_ascii_alphabetic).count();
        }
        let any = text.chars().any(japanese);
        // A kanji or kana says about as much as four letters of English.
        if any && (kana_kanji * 4 >= letters || letters == 0) {
            Language::Ja
        } else {
            Language::En
        }
    }

    /// `en` or `ja`.
    pub fn code(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Ja => "ja",
        }
    }

    /// The text for this language.
    pub fn pick<'a>(self, en: &'a str, ja: &'a str) -> &'a str {
        match self {
            Language::En => en,
            Language::Ja => ja,
        }
    }
}

/// What an instruction says, as a pipeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Reading {
    pub language: Language,
    pub sources: Vec<Source>,
    /// Operations in the order the text gives them.
    pub steps: Vec<Step>,
    pub outputs: Vec<Output>,
    /// The columns the text asks to keep ("only the columns A, B"), in its order.
    pub columns: Vec<String>,
    /// The tables read are put one after another ("combine january.csv and february.csv"),
    /// not matched on a key.
    pub combine: bool,
    /// With `combine`, the one table read that is not put with the others but matched on a key
    /// after them ("put oct.csv and nov.csv together, look up each account's team in
    /// accounts.csv"): its path.
    pub looked_up: Option<String>,
    /// With `combine`, a column said to tell which table each row came from (「「拠点」列（本社
    /// ／工場）を先頭に付け」, "a dealer column that says North or South depending on which file"):
    /// its name, and what it holds for each table put together, in the order they are read.
    pub source_column: Option<(String, Vec<String>)>,
    /// Clauses that ask for an operation ("add them up by department", 「突き合わせて」) the
    /// reader turned into no step: asked, never dropped.
    pub unplaced: Vec<String>,
    /// Words of the clauses that keep rows, as they are written ("Travel", 「旅費交通費」): a
    /// word that is a value of one column of the data is a condition on it (bound with the
    /// files, `binding::conditions_from_values`).
    pub value_words: Vec<String>,
    /// Those of them said in clauses that leave rows out and say no condition of their own
    /// (「補充の入金は対象外」): no words of rows kept.
    pub left_out_words: Vec<String>,
    /// New names for `columns`, in their order, when the text gives them.
    pub renamed: Vec<String>,
    /// The words of every clause that does not write, that may be values in the data: one
    /// that is and that the plan uses nowhere is asked about (`binding::unused_values`).
    pub mentioned_words: Vec<String>,
    /// Words the text says are a column of the file by another name (`aliases`): the word, the
    /// column.
    pub column_aliases: Vec<(String, String)>,
    /// Sort keys ordered by their values as the text lists them ("severity High > Medium > Low"):
    /// the column, its values in order.
    pub value_orders: Vec<(String, Vec<String>)>,
    /// Whether keys match whatever their case: the text says some were typed in another case
    /// ("a few ids were typed in lowercase", 「大文字小文字を区別せず」).
    pub keys_ignore_case: bool,
    /// Whether codes match whatever zeros lead them: the text says a spreadsheet lost them
    /// (「Excelで先頭の0が消えてしまっている」, "the leading zeros got dropped").
    pub keys_ignore_leading_zeros: bool,
    /// How a month is shown when the text gives an example other than `2026-09` (「月（「2026年
    /// 9月」のような形）」, "months written like 2026/09").
    pub month_form: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    Csv,
    Excel,
    /// PDFs, Word files, text: read as text.
    Documents,
}

/// Where rows or texts come from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Source {
    pub kind: SourceKind,
    /// The file named in the text; `None`: asked for.
    pub path: Option<String>,
    /// What the text calls it (`取引先マスタ`, `the bank statement`), for the question asking for it.
    pub label: Option<String>,
    pub encoding: Option<String>,
    pub sheet: Option<String>,
}

impl Source {
    /// A CSV the text does not name: its path is asked for.
    pub fn asked_csv() -> Source {
        Source { kind: SourceKind::Csv, path: None, label: None, encoding: None, sheet: None }
    }
}

/// One condition on one column; `field: None` when the text compares without naming a column.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Condition {
    pub field: Option<String>,
    /// The catalog's operators: `eq ne gt gte lt lte contains in between`.
    pub operator: &'static str,
    pub value: Value,
    pub value2: Option<Value>,
}

/// One aggregation; `field: None` for a count, or a sum whose column the text does not name.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Aggregation {
    /// `sum count avg min max`.
    pub op: &'static str,
    pub field: Option<String>,
    /// The result column's name, when the text fixes it (a total a later condition names).
    pub name: Option<String>,
    /// The conditions a row meets to be counted or added (「重要度高（重要度が「高」の件数）」);
    /// none: every row of the group.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub when: Vec<Condition>,
}

impl Aggregation {
    /// The result column's name: the one the text fixes, else one made of the operation and
    /// the column (`total_amount`, 「金額合計」, `count`).
    pub fn result_name(&self, language: Language) -> String {
        if let Some(name) = &self.name {
            return name.clone();
        }
        let field = self.field.clone().unwrap_or_default();
        match language {
            Language::En => {
                let op = match self.op {
                    "sum" => "total",
                    "avg" => "average",
                    other => other,
                };
                match slots::identifier(&field) {
                    Some(f) if self.op != "count" => format!("{op}_{f}"),
                    _ => op.to_owned(),
                }
            }
            Language::Ja => {
                let op = match self.op {
                    "sum" => "合計",
                    "count" => "件数",
                    "avg" => "平均",
                    "max" => "最大",
                    _ => "最小",
                };
                if self.op == "count" {
                    op.to_owned()
                } else {
                    format!("{field}{op}")
                }
            }
        }
    }
}

/// One operation of the pipeline.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Step {
    /// Keep the rows that meet every condition (`exclude`: keep the others).
    Filter {
        conditions: Vec<Condition>,
        exclude: bool,
    },
    Aggregate {
        by: Vec<String>,
        aggregations: Vec<Aggregation>,
    },
    /// Match two lists of rows on a key (`None`: asked for); with `unmatched`, the rows
    /// without a partner are what is wanted (from either side with `either_side`); `wanted` is
    /// what the text calls them ("invoices" in "the invoices with no payment").
    Join {
        key: Option<String>,
        unmatched: bool,
        either_side: bool,
        wanted: Option<String>,
        /// The table whose every row is kept, matched or not ("bring the cost center from
        /// staff.csv *into payroll.csv*").
        keep_all_of: Option<String>,
        /// The columns such a lookup brings from the other table; empty: all of them.
        bring: Vec<String>,
        /// The key of each table when they are named apart: (what the text calls the table,
        /// its key column).
        side_keys: Vec<(String, String)>,
    },
    /// Rows that share their key columns (`by`; empty: the whole row) with another: every one
    /// of them listed, or with `remove` one kept per key (the last with `keep_last`).
    Duplicates {
        by: Vec<String>,
        remove: bool,
        keep_last: bool,
    },
    /// One row per key (`by`): the one with the newest value of `order_by` (the oldest without
    /// `newest`) — 「顧客コードごとに更新日が一番新しい行だけ残して」.
    LatestPerKey {
        by: Vec<String>,
        order_by: String,
        newest: bool,
    },
    /// Order the rows by a column (`None`: asked for), largest first with `descending`, then by
    /// the keys of `then` (each a column, and whether largest first); only the first `limit`
    /// rows when the text says how many.
    Sort {
        by: Option<String>,
        descending: bool,
        limit: Option<u64>,
        then: Vec<(String, bool)>,
    },
    /// A new column `name`: `operation` (`difference`, `sum`, `ratio`, `percent`, `product`, `month`,
    /// `year`) of `of`, and of `value` after them when the text gives a number ("10% of Net");
    /// or a rounding (`round`, `round_down`, `round_up`: [`rounding::Direction::operation`]) of `of` to
    /// `value` decimals; or the rank of each row by `of` (`rank`: the largest first;
    /// `rank_ascending`); or the days from the first date to the second counting both
    /// (`days_inclusive`).
    Compute {
        name: String,
        operation: &'static str,
        of: Vec<String>,
        value: Option<f64>,
    },
    /// A new column `name`: arithmetic of more than one sign, written with its columns in brackets
    /// (`[税込金額] * [税率] / (100 + [税率])`, [`planwright_formula`]), which reads the columns `of`.
    Formula {
        name: String,
        formula: String,
        of: Vec<String>,
    },
    /// A new column `name`: the calendar days from the date in column `from` to the date
    /// `until` (`YYYY-MM-DD`) the text says, 「起票日から2026年11月30日までの経過日数」.
    DaysUntil {
        name: String,
        from: String,
        until: String,
    },
    /// A new column `name`: the calendar days from the day `day` (`YYYY-MM-DD`) the text says to
    /// the date in `column`, negative once it has passed (「残り日数（満了日−基準日）」).
    DaysAfter {
        name: String,
        day: String,
        column: String,
    },
    /// The blank cells of `column` given `value` ("where owner is blank write Unassigned").
    FillBlanks {
        column: String,
        value: String,
    },
    /// A new column `name` whose value is the `then` of the first case whose conditions all
    /// hold, else `otherwise` (empty when the text gives none).
    Label {
        name: String,
        cases: Vec<(Vec<Condition>, String)>,
        otherwise: Option<String>,
    },
    /// Put each row or document in one of `categories` (empty: asked for) with a model.
    Classify {
        categories: Vec<String>,
    },
    /// Read named fields out of documents with a model.
    Extract {
        fields: Vec<String>,
    },
    Summarise,
    /// Translate text with a model, into `to` when the text names the language.
    Translate {
        to: Option<String>,
    },
    /// Ask a person for values while the plan runs.
    Ask {
        fields: Vec<String>,
    },
    /// A person approves before the steps after it run.
    Confirm,
    /// Call an HTTP API: once, once per row (`per_item`), or until a condition holds.
    Api {
        url: Option<String>,
        method: &'static str,
        per_item: bool,
        until: Option<Condition>,
    },
    /// Browser steps in plain language, from `start_url`.
    Browser {
        start_url: Option<String>,
        steps: String,
        table_only: bool,
        screenshot: Option<String>,
    },
}

impl Step {
    /// The column the step adds to each row, if it adds one.
    fn added_column(&self) -> Option<&str> {
        match self {
            Step::Compute { name, .. }
            | Step::Formula { name, .. }
            | Step::Label { name, .. }
            | Step::DaysUntil { name, .. }
            | Step::DaysAfter { name, .. } => Some(name),
            _ => None,
        }
    }

    /// A short name of the operation (`filter`, `aggregate` …), for ids and metrics.
    pub fn name(&self) -> &'static str {
        match self {
            Step::Filter { .. } => "filter",
            Step::Aggregate { .. } => "aggregate",
            Step::Join { .. } => "join",
            Step::Duplicates { remove: false, .. } => "duplicates",
            Step::Duplicates { remove: true, .. } => "dedupe",
            Step::LatestPerKey { .. } => "latest",
            Step::Sort { .. } => "sort",
            Step::Compute { .. }
            | Step::Formula { .. }
            | Step::DaysUntil { .. }
            | Step::DaysAfter { .. }
            | Step::FillBlanks { .. } => "compute",
            Step::Label { .. } => "label",
            Step::Classify { .. } => "classify",
            Step::Extract { .. } => "extract",
            Step::Summarise => "summarise",
            Step::Translate { .. } => "translate",
            Step::Ask { .. } => "ask",
            Step::Confirm => "confirm",
            Step::Api { .. } => "api",
            Step::Browser { .. } => "browser",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum OutputFormat {
    Csv,
    Markdown,
    Json,
    Excel,
}

impl OutputFormat {
    pub fn of_extension(extension: &str) -> Option<OutputFormat> {
        Some(match extension {
            "csv" | "tsv" => OutputFormat::Csv,
            "md" | "txt" => OutputFormat::Markdown,
            "json" => OutputFormat::Json,
            "xlsx" | "xlsm" | "xls" => OutputFormat::Excel,
            _ => return None,
        })
    }

    pub fn extension(self) -> &'static str {
        match self {
            OutputFormat::Csv => "csv",
            OutputFormat::Markdown => "md",
            OutputFormat::Json => "json",
            OutputFormat::Excel => "xlsx",
        }
    }
}

/// Where a result goes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Output {
    pub format: OutputFormat,
    pub path: Option<String>,
    /// The rows a filter left out ("write the rest to …").
    pub rest: bool,
}

/// Rows put together by a key: 「取得月ごとにまとめて」「部門別にまとめ」.
static GROUPED_TOGETHER: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"(?:ごと|毎|別|単位)(?:に|で)?まとめ").expect("grouped together"));

/// Where the bracket opens that a list of columns starting at `at` is in, when it follows a
/// file's name (「実働上位5.csv（社員番号・氏名・合計時間）」).
fn listed_after_a_file_name(text: &str, at: usize) -> Option<usize> {
    let before = text.get(..at)?.trim_end();
    let bracket = before.strip_suffix(['（', '('])?;
    ends_with_a_table_file(bracket).then_some(bracket.len())
}

/// Whether `text` ends with the name of a file of rows (`….csv`, `….xlsx`), spaces aside.
fn ends_with_a_table_file(text: &str) -> bool {
    let text = text.trim_end().to_ascii_lowercase();
    [".csv", ".xlsx", ".xls", ".tsv"].iter().any(|e| text.ends_with(e))
}

/// Words that close a list of columns and name none ("…, nothing else").
const NOTHING_ELSE: [&str; 6] = ["nothing else", "nothing more", "no more", "no others", "that's all", "that is all"];
static DASH_ITEM: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new(r"(?m)^[-*]\s+").expect("dash item"));
static PUT_IN_A_FILE: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)\b(?:drop|dump|stick|pop|chuck|throw)\s+(?P<what>it|them|that|this|everything|the results?|the list)\s+(?P<to>in|into|to|on)\b",
    )
    .expect("put in a file")
});
/// 「まとめました」「作成してあります」「出力したファイル」: after a word of writing, what was done
/// already (a file that is there to be read), not what is asked.
static DONE_ALREADY: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"^(?:ました|てあります|てあり|てある|ています|ている|てます|た(?:$|[^いくら]))")
        .expect("done already")
});
/// "in the order they appear in the file", "the order of the file", "in file order": the
/// order the rows already have, said in the words the reader keeps no rows and sorts nothing by.
static ORDER_THEY_HAVE: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)\bthe (?:same )?order (?:(?:they|it|the rows|the lines|the entries)(?:'re| are| is| were| was| came| come| appear| appeared| show up| showed up| sit)(?: (?:in|on) (?:the |this |that |their |its )?(?:original |source |input )?(?:file|input|source|sheet|export|csv|list|spreadsheet|workbook|original)\b| now\b| already\b| originally\b| listed\b| given\b| written\b| entered\b| recorded\b)?|of the (?:original |source |input )?(?:file|input|source|sheet|export|csv|spreadsheet|workbook)\b)|\b(?P<in>in )(?:the )?(?:file|source|input|sheet) order\b",
    )
    .expect("the order they have")
});
/// "(the file is already in time order)", "the rows are already sorted by date": an order the
/// rows have, said of them; no sort asked.
static SORTED_ALREADY: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)\b(?:is|are|comes?|were|was)\s+already\s+(?:sorted|ordered|in\s+(?:[\w-]+\s+){0,3}order)\b(?:\s+(?:by|of)\s+[\w-]+(?:\s+[\w-]+)?)?",
    )
    .expect("sorted already")
});
/// "keep all the columns and the row order as they are": the order the rows have, kept.
static ROW_ORDER_KEPT: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)\b(?P<verb>keep|keeping|leave|leaving|retain|preserve|maintain)(?P<between>(?:\s+[\w']+){0,5}?)\s+(?:the\s+|its\s+|their\s+)?(?:row|rows'|line|record|entry|file|current|existing)\s+order\b(?:\s+as\s+(?:it is|they are|is))?",
    )
    .expect("the row order kept")
});
/// 「ただし現場が…」: the word that opens a proviso, glued to the noun after it.
static PROVISO: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"(?P<word>ただし|但し)(?P<next>[^、,，\s])").expect("proviso"));
/// "… at all - custodian ID, name and department only": columns listed after a dash, then the
/// word that keeps only them (not values after a colon: "status: Approved, Pending and Draft only").
static LISTED_THEN_ONLY: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)(?P<lead>^|\s[-–—]\s+)(?P<list>[a-z][\w ]{0,30}(?:,\s*[a-z][\w ]{0,30})+,?\s+and\s+[a-z][\w]{0,30}(?: [a-z][\w]{0,30})?)\s+only\b",
    )
    .expect("listed then only")
});
/// ", any order is fine": an aside on the order, its own sentence (not an item of a list).
static ANY_ORDER_ASIDE: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)\s*[,;]\s*(?P<aside>(?:in )?any order(?: is (?:fine|ok|okay))?|(?:the )?order (?:doesn't|does not) matter|no particular order)\b",
    )
    .expect("any order aside")
});
/// "in calendar month order", "each calendar year": the period itself.
static CALENDAR_PERIOD: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"(?i)\bcalendar (?P<period>months?|years?|quarters?|weeks?)\b").expect("calendar period")
});
/// 「「拠点」列（本社／工場）を先頭に付け」, "add a dealer column that says North or South
/// depending on which file": a column saying which table each row came from.
static SOURCE_COLUMN_SAID: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)「(?P<ja>[^」]{1,20})」\s*(?:列|欄|項目)?\s*[（(](?P<ja_values>[^）)]{1,60})[）)]\s*を[^。]{0,12}?(?:付け|つけ|追加|加え|入れ|足し)|\b(?:add|with|include|plus) (?:a |an |one )?(?P<en>[a-z_][a-z_ ]{0,20}?) column (?:that says|saying|showing|that shows|with) (?P<en_values>[^,.;]{1,60}?) (?:depending on|according to|based on|for) (?:which|the|each) (?:file|source|sheet|table|export)|\b(?:add|with|include|plus) (?:a |an |one )?(?P<en2>[a-z_][a-z_ ]{0,20}?) column \((?P<en_values2>[^()]{1,60})\)|\b(?:add|with|include|plus) (?:a |an |one )?(?P<en3>[a-z_][a-z_ ]{0,20}?) column (?:that says|saying|showing|that shows) (?P<en_values3>(?-i:[A-Z0-9][A-Za-z0-9-]*)(?:,? (?:or|and|/) (?-i:[A-Z0-9][A-Za-z0-9-]*))+)\b|(?P<ja2>[^\s、。・,（(「」]{1,12})[（(](?P<ja_values2>「[^」]{1,20}」(?:\s*(?:か|または|／|/|・|、)\s*「[^」]{1,20}」)+)[^）)]{0,20}?(?:ファイル|どちら)[^）)]{0,20}[）)]|(?P<ja3>[^\s、。・,（(「」をはがでにとの]{1,12})\s*の?\s*(?:列|欄|項目)\s*[（(](?P<ja_values3>[^）)]{1,60})[）)]\s*を[^。]{0,12}?(?:付け|つけ|追加|加え|入れ|足し)",
    )
    .expect("a column of the source")
});
/// "Put cloud_costs_oct.csv and cloud_costs_nov.csv together": the files read, one after another.
static FILES_PUT_TOGETHER: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)\b(?:put|stick|stack|bring|glue)\s+(?P<files>[^\s,;]+\.(?:csv|tsv|xlsx|xlsm|xls)(?:(?:,\s*|\s+and\s+)[^\s,;]+\.(?:csv|tsv|xlsx|xlsm|xls))+)\s+together\b",
    )
    .expect("files put together")
});
/// "Teams A-Z, then months oldest first": an order said with no verb, opening a sentence.
static ORDER_WITHOUT_A_VERB: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?m)(?P<start>^(?:[-*・]\s*)?|[.;!?]\s+)(?P<column>[A-Za-z][A-Za-z_]*(?: [A-Za-z_]+)?) (?P<way>A-Z|Z-A|A to Z|Z to A|alphabetically)\b",
    )
    .expect("an order with no verb")
});
static ORDER_EXPLAINED: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)\b[a-z]+est(?: [a-z_]+){0,2} \((?P<inner>(?:the )?(?:highest|lowest|largest|smallest|biggest|most|least|longest|shortest|oldest|newest|latest|earliest|fewest)(?: [a-z_]+){1,3})\) first\b",
    )
    .expect("an order explained in brackets")
});
/// "longest overdue first (earliest paid-through date at the top)": the words in brackets say
/// what is sorted by; "at the top" is first.
static ORDER_EXPLAINED_AFTER: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)\b[a-z]+est(?: [a-z_]+){0,2} first \((?P<inner>(?:the )?(?:highest|lowest|largest|smallest|biggest|most|least|longest|shortest|oldest|newest|latest|earliest|fewest)(?: [\w-]+){1,3}) (?:first|at the top|on top)\)",
    )
    .expect("an order explained after it")
});
static WITH_WITHOUT_SHORT: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"(?i)\b(?:(?P<without>w/o)\b|w/ )").expect("w/o"));

/// The instruction's text as the reader compares it: NFKC (full-width letters and digits as
/// ASCII), whitespace runs as one space, and the circled numbers of a list (①②③) ending the
/// item before them, as a `;`.
pub fn normalise(text: &str) -> String {
    let circled = |c: char| matches!(c, '\u{2460}'..='\u{2473}' | '\u{2776}'..='\u{277f}' | '\u{2780}'..='\u{2789}');
    let text: String = text.replace(circled, "; ").nfkc().collect();
    // "Mon 2026-03-09 to Sun 2026-03-15": the day of the week says nothing the date does not.
    let text = WEEKDAY_BEFORE_DATE.replace_all(&text, "$date");
    let text = WEEKDAY_AFTER_DATE.replace_all(&text, "$day");
    // "1 million", "2.5 thousand": the number written out ("50k" is read where numbers are).
    let text = NUMBER_WITH_SCALE.replace_all(&text, |c: &regex::Captures| scaled(&c["n"], &c["scale"]));
    // "drop it in x.csv", "stick them into y.xlsx": said of a file, the words of saving.
    let text = PUT_IN_A_FILE.replace_all(&text, "save $what $to");
    let text = FILES_PUT_TOGETHER.replace_all(&text, "combine $files");
    let text = ORDER_THEY_HAVE.replace_all(&text, "${in}the original order");
    let text = SORTED_ALREADY.replace_all(&text, "is as it is");
    let text = ROW_ORDER_KEPT.replace_all(&text, "${verb}${between} the original order");
    let text = CALENDAR_PERIOD.replace_all(&text, "$period");
    let text = PROVISO.replace_all(&text, "${word}、${next}");
    let text = LISTED_THEN_ONLY.replace_all(&text, "${lead}only ${list}");
    let text = ANY_ORDER_ASIDE.replace_all(&text, ". ${aside}");
    let text = ORDER_WITHOUT_A_VERB.replace_all(&text, |c: &regex::Captures| {
        let column = &c["column"];
        let verb = ["sort", "sorted", "order", "ordered", "list", "listed", "rank", "ranked"];
        let said = column.split(' ').next().is_some_and(|w| verb.contains(&w.to_ascii_lowercase().as_str()));
        if said {
            c[0].to_owned()
        } else {
            format!("{}Sort by {column} {}", &c["start"], &c["way"])
        }
    });
    // "Slowest role (highest average) first": the words in brackets say what is sorted by.
    let text = ORDER_EXPLAINED.replace_all(&text, "$inner first");
    let text = ORDER_EXPLAINED_AFTER.replace_all(&text, "$inner first");
    // "lines w/o a claim", "rows w/ a note": the short forms of a note.
    let text = WITH_WITHOUT_SHORT.replace_all(&text, |c: &regex::Captures| {
        if c.name("without").is_some() { "without" } else { "with " }.to_owned()
    });
    // A line break ends a clause where it ends an item or a sentence ("- keep …", "・列は …");
    // elsewhere it only wraps one.
    let lines: Vec<String> = text
        .lines()
        .map(|line| line.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|line| !line.is_empty())
        .collect();
    const SENTENCE_END: [char; 8] = ['.', '!', '?', ':', '。', '！', '？', '：'];
    // ("certs.xlsx <- inventory.xlsx (sheet Certs)\nskip rows with status Replaced\ncolumns: …":
    // three lines or more and none ending a sentence are notes, one a line.)
    let notes = lines.len() >= 3 && !lines.iter().any(|line| line.ends_with(SENTENCE_END));
    let mut out = String::new();
    let mut after_an_item = false;
    for line in lines {
        if !out.is_empty() {
            // ("3. Give me …\nSave as q.csv": a capitalised line after a list's item starts anew.)
            let after_the_list = after_an_item && line.starts_with(|c: char| c.is_ascii_uppercase());
            let item = notes
                || LIST_ITEM.is_match(&line)
                || LABELLED_LINE.is_match(&line)
                || after_the_list
                || out.ends_with(SENTENCE_END);
            out.push(if item { '\n' } else { ' ' });
        }
        after_an_item = LIST_ITEM.is_match(&line);
        out.push_str(&line);
    }
    out
}

/// "payables over 1M, largest first → over_1m.xlsx", 「… → 結果.csv」: an arrow to a file's name
/// writes the result there, said as a sentence that does.
fn arrows_to_outputs(text: &str, language: Language) -> String {
    static ARROW: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)\s*(?:→|->|=>|⟶|⇒)\s*(?P<file>[^\s,;:()（）「」]+\.(?:csv|tsv|xlsx|xlsm|xls|json|md))\s*(?P<end>[.。!！]|$)")
            .expect("arrow to a file")
    });
    // 「ポイント失効予定.csv ← ポイント明細.csv」 opening the text: the file written, from the one read;
    // so too "excursions_nov.csv from cold_room_log.csv", "q1.xlsx - from guarantees.csv".
    static FROM_ARROW: LazyLock<regex::Regex> = LazyLock::new(|| {
        let file = r"[^\s,;:()（）「」←]+\.(?:csv|tsv|xlsx|xlsm|xls|json|md)";
        let from = r"\s*(?:←|<-|⇐|⟵)|\s+(?:[-–—:]+\s*)?(?:built |made |taken |pulled )?from(?:\s+the)?";
        regex::Regex::new(&format!(r"(?i)^\s*(?P<out>{file})(?:{from})\s*(?P<source>{file})"))
            .expect("arrow from a file")
    });
    let said = match language {
        Language::En => ". Save as $file$end",
        Language::Ja => "。$file に保存$end",
    };
    let text = ARROW.replace_all(text, said);
    let Some(c) = FROM_ARROW.captures(&text) else { return text.into_owned() };
    let (out, source, rest) = (&c["out"], &c["source"], &text[c.get(0).expect("match").end()..]);
    match language {
        Language::En => format!("Read {source}.{rest}\nSave as {out}."),
        Language::Ja => format!("{source} を読む。{rest}\n{out} に保存。"),
    }
}

/// "per country - one row per country with its total", "… Withdrawn - everything else counts": a
/// spaced hyphen inside a line, before the words that start a clause, is a dash between clauses,
/// no minus (a bullet starts a line; "— just a, b and c" lists columns, and stays).
fn dashes_between_clauses(text: &str) -> String {
    static DASH: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)[ \t]+-[ \t]+(?P<w>(?:one|the|a|an|each|every|please|and|then|i|we|it|so|thanks|everything|all|but|no|not|any)\b)")
            .expect("a dash between clauses")
    });
    DASH.replace_all(text, ", $w").into_owned()
}

/// 「差額（請求額－入金額）」: the full-width minus NFKC made a hyphen is a minus again between
/// two Japanese names of two characters or more (a code's hyphen, 「A-001」「2026-01」, and the
/// form 「年-月」 stay).
fn minus_between_japanese_names(text: &str) -> String {
    static HYPHEN: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?P<a>[\p{Han}\p{Katakana}ー]{2})-(?P<b>[\p{Han}\p{Katakana}][\p{Han}\p{Katakana}ー])")
            .expect("hyphen between names")
    });
    // (Same length in bytes is not needed: clauses are split after this.)
    HYPHEN.replace_all(text, "$a−$b").into_owned()
}

/// 「月 × 職場ごとに」: keys crossed are keys listed (no product); 「職場（職場コードと職場名）ごとに」:
/// a key whose aside names its parts, each starting with the key's name, is those keys.
fn keys_crossed_or_said_in_full(text: &str) -> String {
    const NAME: &str = r"[\p{Han}\p{Katakana}ーA-Za-z0-9_]+";
    static CROSSED: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(&format!(
            r"(?P<a>{NAME})\s*[×✕]\s*(?P<b>{NAME}(?:\s*[（(][^）)]{{1,40}}[）)])?\s*(?:ごと|毎|別))"
        ))
        .expect("keys crossed")
    });
    static IN_FULL: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(&format!(r"(?P<key>{NAME})\s*[（(](?P<parts>[^）)]{{1,40}})[）)]\s*(?P<end>ごと|毎|別)"))
            .expect("a key said in full")
    });
    let text = CROSSED.replace_all(text, "$a・$b");
    IN_FULL
        .replace_all(&text, |c: &regex::Captures| {
            let key = &c["key"];
            // (The key's last name, after 「・」: 「月・職場（…）」.)
            let last = key.rsplit('・').next().unwrap_or(key);
            let parts: Vec<&str> = c["parts"].split(['と', '・', '、']).map(str::trim).collect();
            if parts.len() >= 2 && parts.iter().all(|p| p.starts_with(last) && p.len() > last.len()) {
                format!("{}{}{}", &key[..key.len() - last.len()], parts.join("・"), &c["end"])
            } else {
                c[0].to_owned()
            }
        })
        .into_owned()
}

/// 「列は 申請番号, 氏名, 利用日 で」: a comma of a Japanese text lists as 、 does (not the comma
/// of a number, 50,000).
fn with_japanese_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut previous = None;
    while let Some(c) = chars.next() {
        let in_a_number =
            previous.is_some_and(|p: char| p.is_ascii_digit()) && chars.peek().is_some_and(char::is_ascii_digit);
        if c == ',' && !in_a_number {
            out.push('、');
            while chars.peek() == Some(&' ') {
                chars.next();
            }
        } else {
            out.push(c);
        }
        previous = Some(c);
    }
    out
}

/// Japanese text without the spaces set around a word in ASCII: 「result が FAIL のものを module
/// ごとに」 reads as 「resultがFAILのものをmoduleごとに」. A space inside "In Progress", after a
/// list item's number ("2. 状態") or beside a file's name (「残高 payables.xlsx を」) stays. The
/// spaces around a sign beside a Japanese name go too: 「焼成料 = 点数 × 単価」.
fn without_spaces_around_ascii(text: &str) -> String {
    let japanese = |c: char| matches!(c, '\u{3040}'..='\u{30ff}' | '\u{4e00}'..='\u{9fff}' | '「' | '」' | '『' | '』' | '、' | '。');
    let latin = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let files = slots::file_spans(text);
    let beside_a_file = |at: usize| files.iter().any(|f| f.end == at || f.start == at);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(space) = rest.find(' ') {
        let (before, after) = (&rest[..space], &rest[space..]);
        let spaces = after.len() - after.trim_start_matches(' ').len();
        let (left, right) = (before.chars().next_back(), after[spaces..].chars().next());
        let at = text.len() - rest.len() + space;
        out.push_str(before);
        let mixed = match (left, right) {
            (Some(l), Some(r)) => latin(l) && japanese(r) || japanese(l) && latin(r),
            _ => false,
        };
        if !mixed || beside_a_file(at) || beside_a_file(at + spaces) {
            out.push_str(&after[..spaces]);
        }
        rest = &after[spaces..];
    }
    out.push_str(rest);
    signs_between_japanese_names(&out)
}

/// 「焼成料 = 点数 × 単価」 as 「焼成料=点数×単価」: the spaces around a sign between Japanese names
/// (or a name and a number) go, as a formula is read.
fn signs_between_japanese_names(text: &str) -> String {
    static SPACED_SIGN: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?P<l>[\p{Han}\p{Katakana}\p{Hiragana}ー0-9])[ \t]+(?P<s>[=×÷*/+−])[ \t]+(?P<r>[\p{Han}\p{Katakana}\p{Hiragana}ー0-9])|(?P<l2>[\p{Han}\p{Katakana}ー])[ \t]+-[ \t]+(?P<r2>[\p{Han}\p{Katakana}ー])")
            .expect("a spaced sign")
    });
    let mut text = text.to_owned();
    // (Signs in a row, 「A × B × 100」: each pass joins every other one.)
    for _ in 0..4 {
        let joined = SPACED_SIGN
            .replace_all(&text, |c: &regex::Captures| match c.name("l") {
                Some(l) => format!("{}{}{}", l.as_str(), &c["s"], &c["r"]),
                None => format!("{}-{}", &c["l2"], &c["r2"]),
            })
            .into_owned();
        if joined == text {
            break;
        }
        text = joined;
    }
    text
}

/// A number said with its scale: "1 million", "2.5 billion", "3 thousand".
static NUMBER_WITH_SCALE: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"(?i)\b(?P<n>\d+(?:\.\d+)?)(?P<scale>\s*(?:million|billion|thousand)\b)")
        .expect("number with scale")
});

/// `number` (digits, maybe a point) times the `scale` word's power of ten, written out in digits
/// ("1.25", "million" → "1250000"); the words as said where the digits would not be whole.
fn scaled(number: &str, scale: &str) -> String {
    let scale = scale.trim();
    let zeros = match scale.to_ascii_lowercase().as_str() {
        "billion" => 9,
        "million" => 6,
        _ => 3,
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if fraction.len() > zeros {
        return format!("{number} {scale}");
    }
    let digits = format!("{whole}{fraction}{}", "0".repeat(zeros - fraction.len()));
    let digits = digits.trim_start_matches('0');
    if digits.is_empty() {
        "0".to_owned()
    } else {
        digits.to_owned()
    }
}

/// 「2026/3/9(月)」: the day of the week in brackets after a date.
static WEEKDAY_AFTER_DATE: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"(?P<day>\d)\s*\([月火水木金土日](?:曜日?)?\)").expect("weekday after a date"));
static WEEKDAY_BEFORE_DATE: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"(?i)\b(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)(?:day|sday|nesday|rsday|urday)?\.?,?\s+(?P<date>\d{4}-\d{1,2}-\d{1,2})")
        .expect("weekday")
});

/// A line that starts with its label (「列：…」「並び：…」「保存先：…」, "Columns: …"): an item of its own.
static LABELLED_LINE: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"^[\p{Han}\p{Katakana}ーA-Za-z][\p{Han}\p{Katakana}\p{Hiragana}ーA-Za-z ]{0,11}[:：]")
        .expect("labelled line")
});

/// The start of an item of a list: "- ", "・", "1. ", "(2)".
static LIST_ITEM: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"^(?:[・•\-*]\s*|\d{1,2}[.)]\s|[(]\d{1,2}[)])").expect("list item"));

/// Where `text` names a sheet ("sheet v5.0", 「シート「4月」」): its digits are no figure.
pub(crate) fn sheet_names(text: &str) -> Vec<std::ops::Range<usize>> {
    words::SHEET.find_iter(text).map(|m| m.range()).collect()
}

/// Reads `instruction` (already free of credential values) into a pipeline. Never fails: what
/// it cannot read is simply not in the result.
pub fn read_instruction(instruction: &str) -> Reading {
    let normalised = normalise(instruction);
    let today = relative::stated_day(&normalised);
    let text = relative::months_written_out(&normalised);
    let language = Language::of(&text);
    let text = arrows_to_outputs(&text, language);
    let text = match language {
        Language::Ja => {
            // 「- 列：…」: a dash that starts an item is the item's mark, no minus.
            let text = DASH_ITEM.replace_all(&text, "・");
            let text = with_japanese_commas(&without_spaces_around_ascii(&text));
            let text = keys_crossed_or_said_in_full(&minus_between_japanese_names(&text));
            let text = shaping::definitions_as_formulas(&shaping::averages_of_a_formula(&text));
            words::COUNTED_IN
                .replace_all(&text, |c: &regex::Captures| {
                    let verb = c.name("verb").expect("a verb");
                    let blank = " ".repeat(verb.start() - c.get(0).expect("match").start());
                    format!("{blank}{}{}", verb.as_str(), &c["not"])
                })
                .into_owned()
        }
        Language::En => shaping::formulas_in_brackets(&shaping::formulas_said_as(&dashes_between_clauses(
            &shaping::prices_per_unit_as_formulas(&dates::days_of_one_month_in_full(&text)),
        ))),
    };
    let with_asides = text.clone();
    let text = without_asides_that_keep(&text);
    let value_orders = sort_keys::value_orders(&text, language);
    let text = sort_keys::without_listed_values(&text, &value_orders);
    let filled = blanks::read(&text);
    let text = blanks::without(&text, &filled);
    let lexicon: &Lexicon = match language {
        Language::En => &EN,
        Language::Ja => &JA,
    };
    // ("call them Customer, Order Date and Total": names, which ask for no operation.)
    let clauses = clauses::split(&words::without_new_names(&text, language), language, lexicon);
    let reading = Reading::empty(language);
    let mut reader = Reader {
        text: &text,
        with_asides: &with_asides,
        language,
        lexicon,
        clauses: &clauses,
        value_orders,
        today,
        reading,
    };
    reader.read();
    reader.blanks_filled(filled);
    // ("(private and group lessons together)": values taken alike keep no rows, and no step uses them.)
    let alike: Vec<&str> = words::TAKEN_ALIKE.find_iter(&with_asides).map(|m| m.as_str()).collect();
    reader.reading.mentioned_words.retain(|w| !alike.iter().any(|said| said.contains(w.as_str())));
    reader.reading.column_aliases = aliases::column_aliases(&text);
    reader.reading.keys_ignore_case = words::ANY_CASE.is_match(&text);
    reader.reading.keys_ignore_leading_zeros = words::LEADING_ZEROS_LOST.is_match(&text);
    reader.reading.month_form = month_form(&text);
    reader.reading
}

/// The month shown as an example of how months are written, when it is not `2026-09`.
fn month_form(text: &str) -> Option<String> {
    let c = words::MONTH_FORM.captures(text)?;
    let form: String = c.name("form").or(c.name("form2"))?.as_str().chars().filter(|c| !c.is_whitespace()).collect();
    let plain = form.len() == 7 && form.as_bytes()[4] == b'-';
    (!plain).then_some(form)
}

impl Reading {
    fn empty(language: Language) -> Reading {
        Reading {
            language,
            sources: Vec::new(),
            steps: Vec::new(),
            outputs: Vec::new(),
            columns: Vec::new(),
            combine: false,
            looked_up: None,
            source_column: None,
            unplaced: Vec::new(),
            value_orders: Vec::new(),
            keys_ignore_case: false,
            keys_ignore_leading_zeros: false,
            month_form: None,
            value_words: Vec::new(),
            left_out_words: Vec::new(),
            renamed: Vec::new(),
            mentioned_words: Vec::new(),
            column_aliases: Vec::new(),
        }
    }
}

struct Reader<'a> {
    text: &'a str,
    /// The text before the asides that keep rows were blanked: a count's definition in
    /// brackets (「実行件数（その機能の行数。NGや保留も含む）」) is read whole.
    with_asides: &'a str,
    language: Language,
    lexicon: &'a Lexicon,
    clauses: &'a [Clause],
    /// Sort keys' values in the order listed, read (and blanked in `text`) before the rest.
    value_orders: Vec<sort_keys::ValueOrder>,
    /// The day the text says it is (`YYYY-MM-DD`), which it may count days to.
    today: Option<String>,
    reading: Reading,
}

impl Reader<'_> {
    fn read(&mut self) {
        let lower_text = self.text.to_ascii_lowercase();
        // (「受領書類一覧.csv」「書類番号」: a word for documents in a table's name or its columns
        // reads no documents when every file named, the one written and those read, is a table.)
        let files = slots::file_names(self.text);
        let only_tables = files.len() >= 2 && files.iter().all(slots::FileName::is_table);
        let documents = self.lexicon.documents.is_match(&lower_text) && !only_tables
            || files.iter().any(|f| matches!(f.extension.as_str(), "pdf" | "docx"));
        let urls = slots::urls(self.text);
        let api = self.lexicon.api.is_match(&lower_text)
            || urls.iter().any(|(u, _)| u.contains("/api") || u.contains("://api."));
        // "sort by test_id and then browser", "totals per site": a column so named, no web page.
        let browser_word = self.lexicon.browser.find_iter(&lower_text).any(|m| {
            let previous = lower_text[..m.start()].split_whitespace().next_back().unwrap_or_default();
            // 「画面と件名が同じ行」: a column named in a list, no page; 「画面ID」「画面名」 are
            // columns' names, and 「画面ごとに」「画面別」 group by one.
            let listed = lower_text[m.end()..].starts_with(['と', '・', '、'])
                || lower_text[..m.start()].ends_with(['と', '・']);
            let named = m.as_str() == "画面"
                && lower_text[m.end()..].starts_with(|c: char| c.is_ascii_alphanumeric() || "名番コご別".contains(c));
            // "the pending ones go to chase.csv": rows going to a file, no page visited.
            let to_a_file = m.as_str() == "go to"
                && slots::file_names(&lower_text[m.end()..])
                    .first()
                    .is_some_and(|f| lower_text.get(m.end()..f.at + m.end()).is_some_and(|gap| gap.trim().is_empty()));
            // "before they go to the sponsor": rows going to someone, said of them, no page visited.
            let said_of_the_rows =
                m.as_str() == "go to" && ["they", "it", "which", "that", "these", "those", "ones"].contains(&previous);
            // ("every active site gets a completed visit", "the visit log is visits.csv": with tables
            // named and no address, a site or a visit is a thing the rows are about.)
            let a_thing_of_the_rows = urls.is_empty()
                && files.iter().any(slots::FileName::is_table)
                && matches!(m.as_str(), "site" | "visit" | "page" | "dashboard");
            !(["by", "per", "then", "each"].contains(&previous)
                || to_a_file
                || said_of_the_rows
                || a_thing_of_the_rows
                || self.language == Language::Ja && (listed || named))
        });
        let web = !api && (browser_word || !urls.is_empty());
        let chosen = self.chosen_columns();
        let label = labels::read(self.text, self.language);
        // The words of a label column say its cases, not filters of their own: its clauses are
        // read up to where it starts.
        let clauses: Vec<Option<Clause>> = self
            .clauses
            .iter()
            .map(|clause| match &label {
                Some((span, _)) if span.start < clause.start + clause.text.len() && clause.start < span.end => {
                    (clause.start < span.start).then(|| {
                        let mut before = clause.clone();
                        before.text.truncate(span.start - clause.start);
                        before
                    })
                }
                _ => Some(clause.clone()),
            })
            .collect();
        let mut browser_clauses: Vec<&Clause> = Vec::new();
        let mut steps: Vec<(usize, Step)> = Vec::new();
        // Clauses that ask for an operation: the clause, the number of steps read before it,
        // and the steps its word may name.
        let mut unplaced: Vec<(usize, usize, &[&str])> = Vec::new();
        let mut said_by_the_match: Vec<usize> = Vec::new();
        if let Some((span, step)) = &label {
            steps.push((span.start, step.clone()));
        }
        for (index, whole) in clauses.iter().enumerate() {
            let Some(whole) = whole else { continue };
            // Operations are read with file names blanked: 「部門別平均.xlsx」 asks for no average.
            let mut masked = whole.clone();
            masked.text = slots::without_file_names(&whole.text);
            let overlaps_chosen = chosen
                .as_ref()
                .is_some_and(|(span, _)| masked.start < span.end && span.start < masked.start + masked.text.len());
            // 「…上位5人 → 実働上位5.csv（社員番号・氏名・合計時間、多い順）」: the columns of the file
            // written, said in brackets after its name; the words before them are read as said.
            let bracket = chosen
                .as_ref()
                .filter(|_| overlaps_chosen)
                .and_then(|(span, _)| listed_after_a_file_name(self.text, span.start))
                .filter(|at| *at > masked.start);
            if let Some(at) = bracket {
                masked.text.truncate(at - masked.start);
            }
            let clause = &masked;
            let lower = clause.text.to_ascii_lowercase();
            let l = self.lexicon;
            let choosing_columns = overlaps_chosen && bracket.is_none();
            let output_clause = l.output.is_match(&lower);
            let reads_page = l.table.is_match(&lower) && (l.extract.is_match(&lower) || l.read.is_match(&lower));
            if web && (l.browser.is_match(&lower) || !slots::urls(&clause.text).is_empty() || reads_page) {
                browser_clauses.push(whole);
                continue;
            }
            // Of a clause that writes, the words before it writes: 「営業部の経費のうち…保存」.
            let before_writing = &clause.text[..l.output.find(&lower).map_or(clause.text.len(), |m| m.start())];
            // "(BLOCKED and FAIL count as run)", "Pending ones are fine": values said to be in,
            // which keep no rows and need no step.
            if !words::SAID_TO_COUNT.is_match(&lower) {
                // "(req-012 means REQ-012)": an example of how a value is written keeps no rows.
                let said = words::EXAMPLE_ASIDE.replace_all(before_writing, "");
                let said = words::REQUESTER.replace_all(&said, "");
                self.reading.mentioned_words.extend(slots::value_words(&said, self.language));
            }
            let steps_before = steps.len();
            let reads_a_file = l.read.is_match(&lower) && !slots::file_names(&whole.text).is_empty();
            // (「合計の列名だけ「スコア」に変えて」: a column renamed, the columns' step.)
            let renames = !words::renamed_one_by_one(&whole.text, self.language).is_empty();
            let placed_by_others = choosing_columns || output_clause || reads_a_file || renames;
            // "(Refund, refunded, REFUND all count)", "people on leave still count": to count is
            // to qualify there, no operation.
            let qualifies = |m: &regex::Match| {
                let after = lower[m.end()..].trim_start();
                m.as_str() == "count"
                    && (after.is_empty() || after.starts_with([')', '.', ',', ';']) || after.starts_with("as "))
            };
            // "Before we sign off release 4.2, …": when the work is for, no approval asked.
            let said_of_us = |m: &regex::Match| {
                let words: Vec<&str> =
                    lower_text[..clause.start + m.start()].split_whitespace().rev().take(2).collect();
                matches!(words.as_slice(), ["we" | "i" | "they", ..])
            };
            // (「引越し見積を比較しています」: what the person is doing, said as the background.)
            let being_done = |m: &regex::Match| {
                self.language == Language::Ja && lower[m.end()..].trim_start_matches('し').starts_with("ています")
            };
            if let Some(word) = l
                .operation
                .find(&lower)
                .filter(|m| !placed_by_others && !qualifies(m) && !said_of_us(m) && !being_done(m))
            {
                unplaced.push((index, steps_before, words::steps_of_operation(word.as_str())));
            }
            // "the lines whose Approval is Rejected": a column named Approval asks no one.
            let approval_column = |m: &regex::Match| {
                let (before, after) = (lower[..m.start()].trim_end(), lower[m.end()..].trim_start());
                m.as_str() == "approval"
                    && (["whose", "where", "with", "the"].iter().any(|w| before.ends_with(w))
                        || ["is ", "column", "status", "=", "isn't"].iter().any(|w| after.starts_with(w)))
            };
            // "Traceability check before sign-off": when the work is for, no approval asked.
            let occasion = |m: &regex::Match| {
                let before = lower[..m.start()].trim_end().trim_end_matches(" the").trim_end_matches(" our");
                ["before", "ahead of", "prior to", "in time for"].iter().any(|w| before.ends_with(w))
            };
            // 「まだ承認されていない申請」「承認済」「未承認」: the rows' state, no approval asked.
            // (「承認されたら」「承認された後」 wait for one.)
            let a_state = |m: &regex::Match| {
                let after = &lower[m.end()..];
                let passive = m.as_str().ends_with("され") || after.starts_with("され");
                let after = after.strip_prefix("され").unwrap_or(after);
                let waits = ["たら", "た後", "たあと", "てから"].iter().any(|w| after.starts_with(w));
                passive && !waits && ["てい", "てな", "ず", "た"].iter().any(|w| after.starts_with(w))
                    || ["済", "待ち"].iter().any(|w| after.starts_with(w))
                    || lower[..m.start()].ends_with('未')
            };
            if let Some(m) =
                l.confirm.find(&lower).filter(|m| !approval_column(m) && !said_of_us(m) && !occasion(m) && !a_state(m))
            {
                steps.push((clause.start + m.start(), Step::Confirm));
            } else if let Some(m) = l.ask.find(&lower) {
                steps.push((clause.start + m.start(), Step::Ask { fields: self.asked_fields(clause) }));
            }
            if api && (l.api.is_match(&lower) || !slots::urls(&clause.text).is_empty()) {
                // 「50万円以上の入金を Webhook に1件ずつ通知」: the rows sent are kept first.
                if let Some((at, filter)) = self.filter(clause, false, documents) {
                    if matches!(&filter, Step::Filter { conditions, .. } if !conditions.is_empty()) {
                        steps.push((at.min(clause.start), filter));
                    }
                }
                let previous = index.checked_sub(1).map(|i| &self.clauses[i]);
                steps.push((clause.start + 1, self.api_step(clause, previous)));
                continue;
            }
            // "… and poll it until the status is done": the status of the call before.
            if api && l.poll.is_match(&lower) {
                let url = steps.iter().rev().find_map(|(_, s)| match s {
                    Step::Api { url, .. } => url.clone(),
                    _ => None,
                });
                let until = Some(conditions::until(&clause.text, self.language));
                steps.push((clause.start, Step::Api { url, method: "GET", per_item: false, until }));
                continue;
            }
            // "where Paid doesn't match Invoiced" compares two columns; it matches no tables.
            let compared = conditions::compared_columns(&clause.text, self.language);
            // ("customer name (from customers.csv)": file names are blanked in `lower`.)
            let from_a_file = words::FROM_A_FILE_ASIDE.find(&whole.text);
            // ("add the customer name and region from customers.csv": columns brought are a lookup.)
            // (Said with the file the columns go to: "… from customers.csv to each invoice in
            // invoices.csv".)
            // (「得意先名（得意先.csv）も付けて」 said apart from the file read and the one written.)
            let two_files = slots::file_names(&whole.text).len() > 1
                || self.language == Language::Ja && slots::file_names(self.text).len() > 2;
            let brought = shaping::brought_from_a_file(&whole.text, self.language).filter(|_| two_files);
            let match_said = l.join.find(&lower).filter(|m| !compared.iter().any(|(_, r)| r.contains(&m.start())));
            if let Some(at) = match_said.or(from_a_file).map(|m| m.start()).or(brought) {
                let key = self.join_key(clause);
                // (「入金差異.csv」: a file's name says nothing of the match.)
                // (「登録のない…請求は外して」: the rows without a partner are dropped, not wanted.)
                // (「未入金の請求…得意先名を得意先.csvから付けて」: with columns brought from a file and
                // no word of matching, a state said of the rows picks none unmatched.)
                static STATE_OF_ROWS: LazyLock<regex::Regex> =
                    LazyLock::new(|| regex::Regex::new(r"未(?:入金|提出)の").expect("a state of rows"));
                let said = slots::without_file_names(&lower_text);
                let said = if match_said.is_none() && brought.is_some() {
                    STATE_OF_ROWS.replace_all(&said, "")
                } else {
                    said.into()
                };
                let unmatched = l.unmatched.is_match(&said)
                    && !words::DROPS_UNMATCHED.is_match(self.text)
                    && !words::UNMATCHED_KEPT_TOO.is_match(self.text);
                let either_side = words::EITHER_SIDE.is_match(&lower_text);
                let wanted = unmatched.then(|| self.unmatched_subject()).flatten();
                let keep_all_of = words::keep_all_of(self.text, self.language)
                    .filter(|_| !unmatched && !words::DROPS_UNMATCHED.is_match(self.text));
                let bring = match unmatched {
                    false => shaping::brought_columns(self.text, self.language),
                    true => Vec::new(),
                };
                let side_keys = words::side_keys(self.text, self.language);
                let key = key.filter(|_| side_keys.len() < 2);
                // (A match said on two keys together is asked: one key would pair too many rows.)
                if let Some(said) = words::TWO_KEYS.find(self.text).filter(|_| self.reading.unplaced.is_empty()) {
                    self.reading.unplaced.push(said.as_str().to_owned());
                }
                let join = Step::Join { key, unmatched, either_side, wanted, keep_all_of, bring, side_keys };
                steps.push((clause.start + at, join));
            }
            // Fields read out of documents, or out of a column of free text ("from the comment column").
            // ("credit notes", "delivery notes": the rows themselves, no text to read.)
            let of_things = |m: &regex::Match| {
                let previous = lower[..m.start()].split_whitespace().next_back().unwrap_or_default();
                ["credit", "debit", "delivery", "release", "dispatch", "packing", "promissory"].contains(&previous)
            };
            let reads_text = documents || l.text_column.find_iter(&lower).any(|m| !of_things(&m));
            let mut extracting = false;
            // ("label each month like 2026-01": how a value is written, no categories; 「分類ごとに
            // 件数を数えて」: a column named 分類, a key.)
            let a_column_named = |m: &regex::Match| {
                let after = &lower[m.end()..];
                ["ごと", "別", "毎", "の", "が", "列", "コード", "名", "・", "、", "と"]
                    .iter()
                    .any(|w| after.starts_with(w))
            };
            let classified = l.classify.find_iter(&lower).find(|m| !a_column_named(m));
            if let Some(m) = classified.filter(|_| !words::LABELLED_LIKE.is_match(&lower)) {
                steps.push((clause.start + m.start(), Step::Classify { categories: self.categories(clause) }));
            } else if let Some(m) = l.translate.find(&lower) {
                steps.push((clause.start + m.start(), Step::Translate { to: self.target_language(clause) }));
            } else if let Some(m) =
                l.extract.find(&lower).filter(|_| reads_text && !choosing_columns && !says_contains(clause))
            {
                extracting = true;
                steps.push((
                    clause.start + m.start(),
                    Step::Extract { fields: self.extracted_fields(clause, m.start()) },
                ));
            } else if let Some(m) =
                l.summarise.find(&lower).filter(|_| documents || !output_clause || l.text_column.is_match(&lower))
            {
                steps.push((clause.start + m.start(), Step::Summarise));
            }
            // A list of fields or columns is not a total ("supplier, invoice number and total");
            // an order said after it is a sort ("… and the total amount, biggest total first").
            if extracting || choosing_columns {
                if choosing_columns {
                    // 「取引先を重複なしで1列だけ」: the columns chosen, each combination once.
                    let columns = chosen.as_ref().map(|(_, columns)| columns.clone()).unwrap_or_default();
                    let list_end = chosen.as_ref().map_or(usize::MAX, |(span, _)| span.end);
                    let shaped =
                        shaping::of_clause(&clause.text, self.language).into_iter().filter_map(|(at, s)| match s {
                            // "… and a Shortfall column (Reorder Point minus On Hand)"; 「上位3商品（…）」.
                            Step::Sort { by: Some(_), .. }
                            | Step::Sort { limit: Some(_), .. }
                            | Step::Compute { .. }
                            | Step::Formula { .. } => Some((at, s)),
                            // "… with claim id, employee and amount, largest first": an order said
                            // after the list, of the column the data settles.
                            // (「…の順で」 after a Japanese list orders the columns.)
                            Step::Sort { by: None, .. }
                                if clause.start + at >= list_end && self.language == Language::En =>
                            {
                                Some((at, s))
                            }
                            // 「取引先・請求書番号・金額の3項目がすべて同じ行が2行以上」: the columns
                            // are the duplicates' keys.
                            Step::Duplicates { by, remove, keep_last } => {
                                let by = if by.is_empty() { columns.clone() } else { by };
                                Some((at, Step::Duplicates { by, remove, keep_last }))
                            }
                            _ => None,
                        });
                    steps.extend(shaped.map(|(at, step)| (clause.start + at, step)));
                    // "failed tests from run.csv, slowest first — just test_id, …": the rows the
                    // words before the list keep.
                    let before = chosen.as_ref().and_then(|(span, _)| {
                        let mut before = clause.clone();
                        before.text = clause.text.get(..span.start.checked_sub(clause.start)?)?.to_owned();
                        Some(before)
                    });
                    let said_before = before.as_ref().and_then(|before| self.filter(before, false, documents));
                    let kept =
                        |(_, s): &(usize, Step)| matches!(s, Step::Filter { conditions, .. } if !conditions.is_empty());
                    // ("take only last month's withdrawals, … with columns …": words the data may
                    // hold, of the rows kept.)
                    if let Some(before) = before.as_ref().filter(|_| said_before.as_ref().is_some_and(kept)) {
                        self.reading.value_words.extend(slots::value_words(&before.text, self.language));
                    }
                    // 「2026年7月〜9月に発注した取引先を…1列だけ」: the dates the rows are of.
                    let filter = said_before.filter(kept).or_else(|| {
                        self.filter(clause, output_clause, documents).filter(
                            |(_, s)| matches!(s, Step::Filter { conditions, .. } if !conditions.is_empty() && conditions.iter().all(of_a_period)),
                        )
                    });
                    // Rows are kept before their duplicates go.
                    steps.extend(filter.map(|(_, step)| (clause.start, step)));
                }
                continue;
            }
            if let Some(top) = shaping::top_by_total(&clause.text, self.language) {
                // "Which 3 components have the most bugs still open?": the rows counted are kept first.
                let kept = self.filter(clause, output_clause, documents);
                let kept = kept.filter(|(_, f)| matches!(f, Step::Filter { conditions, .. } if !conditions.is_empty()));
                steps.extend(kept.map(|(_, filter)| (clause.start, filter)));
                steps.extend(top.into_iter().map(|(at, step)| (clause.start + at + 1, step)));
                continue;
            }
            let shaped = shaping::of_clause(&clause.text, self.language);
            // "total = subtotal + sales_tax" computes a column: it neither totals nor keeps rows.
            let mut unformulated = clause.clone();
            unformulated.text = shaping::without_formulas(&clause.text, self.language);
            // "Sort by date", "duplicates by invoice number": a "by" that is not a group, and a
            // "remove" or 「だけ」 that is not a filter unless the clause says conditions.
            let totals = self.lexicon.totals.is_match(&lower);
            // 「仕入先別の買掛金残高 payables.xlsx を読み」 describes the file it reads.
            let describes_source = !totals && l.read.is_match(&lower) && !slots::file_names(&whole.text).is_empty();
            if let Some((at, step)) =
                self.aggregate(&unformulated).filter(|_| (shaped.is_empty() || totals) && !describes_source)
            {
                match step {
                    // ("…, most first, with their total hours and number of lessons": more of the
                    // totals said before, never a total of them.)
                    Step::Aggregate { by, aggregations }
                        if by.is_empty() && conditions::MORE_OF_THE_TOTALS.is_match(&lower) =>
                    {
                        match steps.iter_mut().rev().find_map(|(_, s)| match s {
                            Step::Aggregate { by, aggregations } if !by.is_empty() => Some(aggregations),
                            _ => None,
                        }) {
                            Some(first) => passes::add_totals_said_again(first, aggregations),
                            None => self.reading.unplaced.push(clause.text.trim().to_owned()),
                        }
                    }
                    // ("…, their average score and their high game": a measure said as "high" or
                    // "low", which no total read says, is asked.)
                    Step::Aggregate { aggregations, by } => {
                        static HIGH_OR_LOW: LazyLock<regex::Regex> = LazyLock::new(|| {
                            regex::Regex::new(r"\b(?:their|its|the|each one's)\s+(?:high|low)\s+[a-z]+")
                                .expect("high or low")
                        });
                        let extreme = aggregations.iter().any(|a| matches!(a.op, "max" | "min"));
                        if let Some(said) = HIGH_OR_LOW.find(&lower).filter(|_| !extreme) {
                            self.reading.unplaced.push(clause.text[said.range()].to_owned());
                        }
                        steps.push((at, Step::Aggregate { by, aggregations }));
                    }
                    step => steps.push((at, step)),
                }
            }
            // "the difference between billed and paid": `paid` is a column there, not a status.
            let operands: Vec<String> = shaped
                .iter()
                .flat_map(|(_, s)| match s {
                    Step::Compute { of, .. } | Step::Formula { of, .. } => {
                        of.iter().map(|o| o.to_lowercase()).collect()
                    }
                    _ => Vec::new(),
                })
                .collect();
            let filter = self.filter(&unformulated, output_clause, documents).map(|(at, mut step)| {
                if let Step::Filter { conditions, .. } = &mut step {
                    conditions.retain(|c| {
                        c.field.is_some()
                            || c.operator == conditions::OVER_COLUMN
                            || !c.value.as_str().is_some_and(|v| operands.contains(&v.to_lowercase()))
                    });
                }
                (at, step)
            });
            // ("keep only the withdrawals, newest first": rows kept by words the data may hold,
            // and an order; not 「上位3部署だけ」, the top of an order.)
            let only_sorted = shaped.iter().all(|(_, s)| matches!(s, Step::Sort { limit: None, .. }));
            if let Some((at, step)) = filter.filter(|(_, f)| {
                shaped.is_empty()
                    || only_sorted && words::KEEPS_ONLY.is_match(&lower)
                    || matches!(f, Step::Filter { conditions, .. } if !conditions.is_empty())
            }) {
                let said = words::REQUESTER.replace_all(before_writing, "");
                // (A clause of no condition read whose words compare or deny says more than a
                // value: its rows are asked about, not kept by the one word the data holds.)
                let unread = matches!(&step, Step::Filter { conditions, .. } if conditions.is_empty())
                    && words::MORE_THAN_A_VALUE.is_match(&lower);
                // ("the rows that are not billable": the one word denied is said with its denial,
                // which a column of yes and no, or of that value, can keep.)
                let denied = words::DENIED_STATE.captures(&lower).filter(|c| {
                    let rest = lower.replacen(&c[0], " ", 1);
                    unread && !words::MORE_THAN_A_VALUE.is_match(&rest)
                });
                if let Some(denied) = denied {
                    self.reading.value_words.push(format!("not {}", &denied["word"]));
                } else if !unread {
                    let said_words = slots::value_words(&said, self.language);
                    // (Beside conditions that leave rows out, "critical and not closed", the
                    // words keep rows.)
                    if matches!(&step, Step::Filter { exclude: true, conditions } if conditions.is_empty()) {
                        self.reading.left_out_words.extend(said_words.iter().cloned());
                    }
                    self.reading.value_words.extend(said_words);
                }
                // "Drop any PO line whose vendor code isn't in the master": the match says it,
                // when rows are matched on a key.
                // ("…isn't in that list, keep the transaction anyway": the lookup keeps it.)
                let not_in = words::EN_NOT_IN_KEY.is_match(&lower)
                    || words::JA_NOT_IN_KEY.is_match(&clause.text)
                    || words::KEPT_ANYWAY.is_match(&lower);
                if not_in && matches!(&step, Step::Filter { conditions, .. } if conditions.is_empty()) {
                    said_by_the_match.push(at);
                }
                let steps_said = self.left_out_by_an_aside(step, &lower);
                steps.extend(steps_said.into_iter().flat_map(|s| each_group_left_out(s, &lower)).map(|s| (at, s)));
            }
            steps.extend(shaped.into_iter().map(|(at, step)| (clause.start + at, step)));
        }
        if steps.iter().any(|(_, s)| {
            matches!(s, Step::Join { key: Some(_), unmatched: false, keep_all_of: None, .. })
                || matches!(s, Step::Join { unmatched: false, keep_all_of: Some(_), .. })
        }) {
            steps.retain(|(at, s)| !(s.name() == "filter" && said_by_the_match.contains(at)));
        }
        if !browser_clauses.is_empty() {
            steps.push((browser_clauses[0].start, self.browser_step(&browser_clauses)));
        }
        if !steps.iter().any(|(_, s)| matches!(s, Step::Aggregate { .. })) {
            if let Some((sentence, aggregate)) = self.aggregate_over_a_sentence() {
                steps.push(aggregate);
                unplaced.retain(|(index, _, _)| !sentence.contains(&self.clauses[*index].start));
            }
        }
        self.rows_defined_after(&mut steps);
        let asked = self.unplaced(&unplaced, &steps);
        self.reading.unplaced.extend(asked);
        self.reading.unplaced.extend(self.columns_compared_unread(&steps));
        steps.sort_by_key(|(at, _)| *at);
        let steps = passes::dates_kept_before_their_totals(passes::days_said_again_without_their_year(steps));
        let steps = self.further_sort_keys(steps);
        // (「1等、2等、規格外の順に」: an order with no key is by the values listed.)
        let steps =
            if self.value_orders.is_empty() { unkeyed_order_by_the_only_total(steps, self.language) } else { steps };
        let mut steps = one_order_and_one_duplicate_check(steps);
        // The key of duplicates may be said in another clause: "… twice: same employee, same
        // date, same amount", "(same txn_id). Keep each transaction only once".
        let keys = shaping::same_keys(self.text, self.language);
        for (_, step) in &mut steps {
            if let Step::Duplicates { by, .. } = step {
                // (Keys the asking clause says in full are the check's: "the same receipt" told
                // in a sentence before is no more of them.)
                if by.len() <= 1 && by.len() < keys.len() && by.iter().all(|b| keys.contains(b)) {
                    *by = keys.clone();
                }
            }
        }
        let steps = passes::outside_ranges_apart(steps);
        let steps = months_to_group_by(conditions_after_their_columns(conditions_over_a_difference(steps)));
        let steps = self.conditions_on_groups(steps);
        // A count asked for in the sentence the grouping is said in.
        let counted = |at: usize| {
            let sentences = clauses::sentences(self.text);
            let sentence = sentences.iter().find(|s| s.start <= at && at < s.start + s.text.len());
            sentence.is_some_and(|s| repeats::COUNT_ASKED.is_match(&s.text.to_lowercase()))
        };
        let steps = self.totals_said_before_their_key(steps);
        let steps = self.totals_listed_after_their_key(steps);
        let steps = rows_kept_before_totals(totals_compared_after_totals(one_grouping(steps, counted)));
        let steps = conditions_on_totals(steps, self.text, self.language);
        let output = chosen.as_ref().map_or(&[][..], |(_, columns)| columns.as_slice());
        let steps = joined_texts_before_totals(row_columns_before_totals(rounding_after_totals(steps), output), output);
        let steps = columns_of_totals_after_totals(steps, self.language);
        let steps =
            passes::rows_not_counted_before_the_check(passes::duplicates_removed_before_totals(steps), self.text);
        let steps = twice_is_the_duplicate_check(one_row_per_group(self.what_one_row_per_key_is(steps)));
        self.reading.steps = steps.into_iter().map(|(_, s)| s).collect();
        states_said_in_a_total(&mut self.reading.steps);
        each_filter_once(&mut self.reading.steps);
        self.left_out_said_twice(&lower_text);
        self.orders_by_values();
        // (「伝票日付・勘定科目・金額・摘要の4つが完全に一致する行」: the columns listed, not all.)
        // (「全く同じ内容の行」: the rows' whole content, whatever else is said the same.)
        // (「全項目がまったく同じ行…事業所名が同じでも」: 全 says every column, whatever else is named.)
        let whole_rows_said = keys.iter().any(|k| ["内容", "全", "全項目", "全列", "全部"].contains(&k.as_str()));
        if shaping::WHOLE_ROW_DUPLICATES.is_match(&lower_text) && (keys.len() < 2 || whole_rows_said) {
            for step in &mut self.reading.steps {
                if let Step::Duplicates { by, .. } = step {
                    by.clear();
                }
            }
            // "every column matches another row": the duplicate check's words, no match of tables.
            if self.reading.steps.iter().any(|s| matches!(s, Step::Duplicates { .. })) {
                self.reading.steps.retain(|s| !matches!(s, Step::Join { key: None, .. }));
            }
        }
        self.reading.columns = chosen.map(|(_, columns)| columns).unwrap_or_default();
        // 「取引先・請求書番号・金額の3項目がすべて同じ行…を全部抜き出して」: the keys of the
        // duplicates listed, not the columns written (every row is shown as it is).
        let keys_of_duplicates =
            |s: &Step| matches!(s, Step::Duplicates { by, remove: false, .. } if *by == self.reading.columns);
        if self.reading.steps.iter().any(keys_of_duplicates) {
            self.reading.columns.clear();
        }
        self.columns_with_their_new_names();
        self.one_row_per_key_over_a_sentence();
        self.totals_of_the_one_row_per_key();
        self.latest_per_key();
        self.one_column_of_its_key();
        self.count_repeats();
        self.counts_of_rows_that_meet();
        self.counts_of_a_rate();
        self.sorted_by_the_difference();
        self.top_of_the_groups_said_twice();
        self.top_groups_said_twice();
        self.totals_compared_of_each();
        passes::keys_listed_beside_their_totals(&mut self.reading.steps);
        passes::states_that_name_operands(&mut self.reading.steps);
        passes::totals_said_again_shorter(&mut self.reading.steps);
        passes::empty_groups_left_out(&mut self.reading.steps);
        passes::counts_said_as_rows(&mut self.reading.steps);
        passes::conditions_on_what_was_computed(&mut self.reading.steps);
        self.name_the_total_as_chosen();
        passes::averages_said_as_a_total_over_a_count(&mut self.reading.steps);
        self.sorted_by_a_total_said_of_its_column();
        self.ties_broken_before_the_top_is_cut();
        self.rank_chosen();
        let renamed = words::renamed_columns(self.text, self.language);
        if renamed.len() == self.reading.columns.len() && self.reading.renamed.is_empty() {
            self.reading.renamed = renamed;
        }
        self.rename_one_by_one();
        self.sort_keys_by_their_new_names();
        self.sources_and_outputs(documents);
        self.fields_that_name_the_file();
        self.combine_tables(&lower_text);
        self.column_of_the_source();
        self.one_match_of_two_tables();
        self.columns_compared_in_one_table();
        self.unmatched_without_a_join_word(&lower_text);
        self.rows_another_file_lists_left_out();
        self.states_the_match_says();
        self.words_defined_by_values();
        self.dates_said_to_decide();
        self.months_the_files_are_named_for();
        self.months_said_again_without_their_year();
        self.no_order_wanted();
        self.days_compared_after_their_column();
        self.lookup_before_row_steps();
        self.days_to_the_day_stated();
        self.sort_keys_in_arrows();
        self.totals_named_before_their_key();
        self.month_columns_shown_by_example();
        self.dates_in_the_form_shown();
        self.question_of_an_amount_answered();
        self.another_measure_left_out();
        // (「電話番号ごとに最初の1件（受付番号がいちばん若いもの）」: a duplicate check made by the
        // passes above takes the count said of it too.)
        let steps = std::mem::take(&mut self.reading.steps).into_iter().map(|s| (0, s)).collect();
        self.reading.steps = twice_is_the_duplicate_check(steps).into_iter().map(|(_, s)| s).collect();
    }

    /// "Pull the tenants who haven't paid for November yet? In units.csv that's anyone whose
    /// paid-through date is before 2026-11-01": a clause that says what the rows of the clause
    /// before are keeps them as it says; the words before keep none of their own.
    fn rows_defined_after(&self, steps: &mut Vec<(usize, Step)>) {
        static DEFINES_THE_ROWS: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(
                r"(?i)^\s*(?:in\s+\S+\s+)?(?:that's|that is|that means|which means|this means|i\.e\.,?|meaning)\s+(?:anyone|anybody|everyone|every\s+\w+|any\s+\w+|all\s+(?:the\s+)?\w+|the\s+\w+|those|rows|people)\b",
            )
            .expect("defines the rows")
        });
        let span = |clause: &Clause| clause.start..clause.start + clause.text.len();
        let keeps_rows = |s: &Step| matches!(s, Step::Filter { conditions, .. } if !conditions.is_empty());
        for (i, clause) in self.clauses.iter().enumerate().skip(1) {
            let defining = span(clause);
            let defines = DEFINES_THE_ROWS.is_match(&clause.text)
                && steps.iter().any(|(at, s)| keeps_rows(s) && defining.contains(at));
            if defines {
                let before = span(&self.clauses[i - 1]);
                steps.retain(|(at, s)| !(matches!(s, Step::Filter { .. }) && before.contains(at)));
            }
        }
    }

    /// "How much did each server get in card tips? Leave the cash tips out of it": the words
    /// left out name a sibling of the measure totalled (the same noun, another word before it),
    /// a column not added, no rows.
    fn another_measure_left_out(&mut self) {
        let totalled: Vec<String> = self
            .reading
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Aggregate { aggregations, .. } => Some(aggregations),
                _ => None,
            })
            .flatten()
            .filter_map(|a| a.field.as_deref().map(str::to_ascii_lowercase))
            .collect();
        let sibling = |word: &String| {
            let lower = word.to_ascii_lowercase();
            let Some((first, noun)) = lower.split_once(' ') else { return false };
            !noun.contains(' ')
                && totalled.iter().any(|t| {
                    t.split_once(' ')
                        .is_some_and(|(other, its)| other != first && slots::singular(its) == slots::singular(noun))
                })
        };
        if !self.reading.left_out_words.iter().any(sibling) {
            return;
        }
        let empty_exclusions =
            |s: &Step| matches!(s, Step::Filter { exclude: true, conditions } if conditions.is_empty());
        if self.reading.steps.iter().filter(|s| empty_exclusions(s)).count() != 1 {
            return;
        }
        self.reading.steps.retain(|s| !empty_exclusions(s));
        let left_out = std::mem::take(&mut self.reading.left_out_words);
        self.reading.value_words.retain(|w| !left_out.contains(w));
        self.reading.mentioned_words.retain(|w| !left_out.contains(w));
    }

    /// 「数量合計」's top 3, then 「数量の多い順、同数なら商品コードの若い順」: the order of the top
    /// rows said again right after them, with the ties it breaks, breaks them before the top
    /// is cut (after it, a tie at the cut would keep either row).
    fn ties_broken_before_the_top_is_cut(&mut self) {
        let steps = &mut self.reading.steps;
        let Some(top) = steps
            .iter()
            .position(|s| matches!(s, Step::Sort { by: Some(_), limit: Some(_), then, .. } if then.is_empty()))
        else {
            return;
        };
        let again = match (&steps[top], steps.get(top + 1)) {
            (
                Step::Sort { by: Some(key), descending, .. },
                Some(Step::Sort { by: Some(by), descending: d, limit: None, then }),
            ) => (by == key || key.contains(by.as_str())) && d == descending && !then.is_empty(),
            _ => false,
        };
        if !again {
            return;
        }
        if let Step::Sort { then: ties, .. } = steps.remove(top + 1) {
            if let Step::Sort { then, .. } = &mut steps[top] {
                *then = ties;
            }
        }
    }

    /// 「列は受注番号・出荷日・出荷月（2026-11 のような形）・金額」: a column shown named after a
    /// date's month (出荷月 of 出荷日), with the form of a month as its example, is that date's
    /// month, computed (unless a step computes it already).
    fn month_columns_shown_by_example(&mut self) {
        static SHOWN_AS_A_MONTH: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"(?P<stem>[\p{Han}\p{Katakana}ー]{1,10})月\s*[（(]\s*(?:例[:：]?\s*)?\d{4}[-/]\d{1,2}\s*(?:のような|のように|みたいな|の)?\s*(?:形|形式|書き方|表記)?[^）)]{0,10}[）)]")
                .expect("a month shown by its form")
        });
        if self.language != Language::Ja {
            return;
        }
        for c in SHOWN_AS_A_MONTH.captures_iter(self.with_asides) {
            let name = format!("{}月", &c["stem"]);
            let computed = self.reading.steps.iter().any(|s| s.added_column() == Some(name.as_str()));
            if !computed && self.reading.columns.contains(&name) {
                let date = format!("{}日", &c["stem"]);
                self.reading.steps.push(Step::Compute { name, operation: "month", of: vec![date], value: None });
            }
        }
    }

    /// 「賞味期限は 2027/03/31 の形式で」, "the issue date (as YYYY-MM-DD)": a date column written in
    /// the form its example shows, rewritten in place last (the steps before compare it as a date).
    fn dates_in_the_form_shown(&mut self) {
        static JA_FORM: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"(?P<column>[\p{Han}\p{Katakana}ー]{1,12})は\s*(?:どちらも|いずれも|すべて|全て|とも)?\s*(?:\d{4}(?P<sep>[/\-])\d{1,2}[/\-]\d{1,2}|YYYY(?P<sep2>[/\-])MM[/\-]DD)\s*(?:の\s*(?:形式|形|書式|表記)|で)")
                .expect("a date's form, in Japanese")
        });
        static EN_FORM: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"(?i)(?P<column>[a-z_]\w*(?: [a-z_]\w*){0,2})\s*\(?(?:as|in|formatted as|written as|like)\s+(?:YYYY(?P<sep>[/\-])MM[/\-]DD|\d{4}(?P<sep2>[/\-])\d{2}[/\-]\d{2})\b")
                .expect("a date's form, in English")
        });
        let (form, column_of): (&regex::Regex, fn(&str) -> Option<String>) = match self.language {
            Language::Ja => (&JA_FORM, shaping::ja_column),
            Language::En => (&EN_FORM, |said| shaping::en_column(&said.to_ascii_lowercase())),
        };
        // 「日付はどちらも…」, "dates as YYYY-MM-DD": every date column listed (named as dates are).
        let dates_listed: Vec<String> = self
            .reading
            .columns
            .iter()
            .filter(|c| {
                c.ends_with('日') && !c.ends_with("曜日") || c.ends_with("日付") || c.to_lowercase().contains("date")
            })
            .cloned()
            .collect();
        for c in form.captures_iter(self.with_asides) {
            let Some(column) = column_of(&c["column"]) else { continue };
            let slashes = c.name("sep").or(c.name("sep2")).is_some_and(|s| s.as_str() == "/");
            let operation = if slashes { "date_with_slashes" } else { "date" };
            let columns = match column.as_str() {
                "日付" | "date" | "dates" => dates_listed.clone(),
                _ => vec![column],
            };
            for column in columns {
                self.reading.steps.push(Step::Compute {
                    name: column.clone(),
                    operation,
                    of: vec![column],
                    value: None,
                });
            }
        }
    }

    /// "not closed yet (any status except Closed)": a value said not to be kept, and what leaves
    /// it out, say one thing — the rows that hold it are left out (not those that do not).
    fn left_out_said_twice(&mut self, lower_text: &str) {
        for step in &mut self.reading.steps {
            let Step::Filter { conditions, exclude: true } = step else { continue };
            let excepted = |c: &Condition| {
                let Some(value) = c.value.as_str().map(str::to_lowercase).filter(|v| !v.is_empty()) else {
                    return false;
                };
                c.operator == "ne"
                    && ["except ", "excluding ", "other than ", "apart from ", "but not "]
                        .iter()
                        .any(|w| lower_text.contains(&format!("{w}{value}")))
            };
            if !conditions.is_empty() && conditions.iter().all(excepted) {
                conditions.iter_mut().for_each(|c| c.operator = "eq");
            }
        }
    }

    /// "payables over 1M from payables.csv": the file's own name before a comparison says the
    /// rows, not a column of them; the column compared is the one the data has for it.
    fn fields_that_name_the_file(&mut self) {
        let stems: Vec<String> = self
            .reading
            .sources
            .iter()
            .filter_map(|s| s.path.as_deref())
            .filter_map(|p| std::path::Path::new(p).file_stem()?.to_str().map(str::to_lowercase))
            .collect();
        for step in &mut self.reading.steps {
            let Step::Filter { conditions, .. } = step else { continue };
            for condition in conditions {
                // (「在庫.csv：在庫が発注点を下回っている」: a column compared with another is one.)
                if condition.field.as_ref().is_some_and(|f| stems.contains(&f.to_lowercase()))
                    && !condition.value.is_object()
                {
                    condition.field = None;
                }
            }
        }
    }

    /// "For the October payroll summary: using payroll_october.xlsx", 「11月分の…交通費精算_11月.csv」:
    /// a month a file read is named for says which file, and keeps no rows of it. (「食材発注_11月締め.csv
    /// は…発注日が11月のものだけ」: a month said of a column of the one file read keeps its rows.)
    fn months_the_files_are_named_for(&mut self) {
        let files: Vec<&str> = self.reading.sources.iter().filter_map(|s| s.path.as_deref()).collect();
        let named = |c: &Condition| {
            c.operator == MONTH_OF_UNSAID_YEAR
                && (c.field.is_none() || files.len() > 1)
                && c.value
                    .as_u64()
                    .and_then(|m| u32::try_from(m).ok())
                    .is_some_and(|m| files.iter().any(|f| slots::file_names_month(f, m)))
        };
        // (A filter whose conditions are asked, none said, stays.)
        self.reading.steps.retain_mut(|step| match step {
            Step::Filter { conditions, .. } if conditions.iter().any(named) => {
                conditions.retain(|c| !named(c));
                !conditions.is_empty()
            }
            _ => true,
        });
    }

    /// "Total the amount and count per department", "Count and total amount … per month": totals
    /// of named columns (or a count) said in a clause of their own, right before the grouping of
    /// the same sentence, are more of its totals.
    fn totals_said_before_their_key(&self, mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
        let sentences = clauses::sentences(self.text);
        let sentence_of = |at: usize| sentences.iter().position(|s| s.start <= at && at < s.start + s.text.len());
        let mut i = 0;
        while i + 1 < steps.len() {
            // The grouping next, past the rows kept and the columns added on the way ("Count and
            // total amount of the issued ones (skip Void) per month").
            let next = steps[i + 1..]
                .iter()
                .position(|(_, s)| !matches!(s, Step::Filter { .. } | Step::Compute { .. }))
                .map(|n| i + 1 + n)
                .filter(|&n| matches!(&steps[n].1, Step::Aggregate { by, .. } if !by.is_empty()));
            let carried = match (&steps[i], next.map(|n| &steps[n])) {
                ((at, Step::Aggregate { by, aggregations }), Some((next_at, _)))
                    if by.is_empty()
                        && !aggregations.is_empty()
                        && aggregations.iter().all(|a| (a.field.is_some() || a.op == "count") && a.when.is_empty())
                        && sentence_of(*at) == sentence_of(*next_at) =>
                {
                    aggregations.clone()
                }
                _ => {
                    i += 1;
                    continue;
                }
            };
            let grouping = next.expect("a grouping next") - 1;
            steps.remove(i);
            if let Step::Aggregate { aggregations, .. } = &mut steps[grouping].1 {
                let fresh: Vec<Aggregation> = carried
                    .into_iter()
                    .filter(|t| !aggregations.iter().any(|a| a.op == t.op && a.field == t.field))
                    .collect();
                aggregations.splice(0..0, fresh);
            }
        }
        steps
    }

    /// "One row per supplier with: supplier, number of invoices, total amount, average invoice
    /// amount": a total of a named column said in a clause of its own right after a grouping of
    /// the same sentence is one more of its totals, not a total of the totals (which the words
    /// would say: "overall", "of those totals").
    fn totals_listed_after_their_key(&self, mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
        static OF_ALL: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"(?i)\b(?:overall|grand|across|all (?:the )?(?:groups|of them)|of (?:those|these|the|all) (?:totals|sums|counts|groups))\b|全体|総計|全社")
                .expect("of all")
        });
        let sentences = clauses::sentences(self.text);
        let sentence_of = |at: usize| sentences.iter().find(|s| s.start <= at && at < s.start + s.text.len());
        // The totals of the next step, when it is such a list: totals of named columns, of no key,
        // none a total the grouping names, and in its sentence no word of totals of all.
        let listed = |(at, grouping): &(usize, Step), (next_at, next): &(usize, Step)| -> Option<Vec<Aggregation>> {
            let (Step::Aggregate { by, aggregations: first }, Step::Aggregate { by: none, aggregations }) =
                (grouping, next)
            else {
                return None;
            };
            let sentence = sentence_of(*next_at).filter(|s| sentence_of(*at).is_some_and(|t| t.start == s.start))?;
            let named = |a: &Aggregation| a.field.is_some() && a.when.is_empty();
            let of_a_total = |a: &Aggregation| first.iter().any(|f| f.name.is_some() && f.name == a.field);
            let said = !by.is_empty()
                && none.is_empty()
                && !aggregations.is_empty()
                && aggregations.iter().all(|a| named(a) && !of_a_total(a))
                && !OF_ALL.is_match(&sentence.text);
            said.then(|| aggregations.clone())
        };
        let mut i = 0;
        while i + 1 < steps.len() {
            let Some(more) = listed(&steps[i], &steps[i + 1]) else {
                i += 1;
                continue;
            };
            steps.remove(i + 1);
            if let Step::Aggregate { aggregations, .. } = &mut steps[i].1 {
                for total in more {
                    // (「部門ごとに集計して、金額の合計が…」: the column of a total said without one.)
                    let unnamed = aggregations.iter().position(|a| a.op == total.op && a.field.is_none());
                    let known = aggregations.iter().any(|a| a.op == total.op && a.field == total.field);
                    match unnamed {
                        Some(n) => aggregations[n].field = total.field,
                        None if !known => aggregations.push(total),
                        None => {}
                    }
                }
            }
        }
        steps
    }

    /// 「11月分の経費精算の集計をお願いします。・部署ごとに件数・合計金額…」: totals of every row said
    /// before totals per a key are the same totals named as the job's topic (a total of all
    /// rows would leave the totals per key one row to group).
    fn totals_named_before_their_key(&mut self) {
        let keyed = |s: &Step| matches!(s, Step::Aggregate { by, .. } if !by.is_empty());
        let Some(first_keyed) = self.reading.steps.iter().position(keyed) else { return };
        let mut at = 0;
        self.reading.steps.retain(|s| {
            at += 1;
            !(at <= first_keyed && matches!(s, Step::Aggregate { by, .. } if by.is_empty()))
        });
    }

    /// 「本日2026/12/10時点で期日を過ぎた…。超過日数＝本日−期日」: today less a date column is the
    /// days from that date to the day the text states; and rows said to be past it are those
    /// whose days are more than none (an open filter said right after is that).
    fn days_to_the_day_stated(&mut self) {
        static PAST: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(
                r"(?i)過ぎた|過ぎている|超過|経過した|切れている|切れた|期限切れ|\bpast due\b|\boverdue\b|\bexpired\b",
            )
            .expect("past")
        });
        let Some(today) = self.today.clone() else { return };
        let today_words = ["本日", "今日", "基準日", "today", "today's date"];
        let said_today = |column: &String| today_words.contains(&column.to_lowercase().as_str());
        let Some(at) = self.reading.steps.iter().position(|s| {
            matches!(s, Step::Compute { operation: "difference", of, .. }
                if of.len() == 2 && (said_today(&of[0]) || said_today(&of[1])))
        }) else {
            return;
        };
        let Step::Compute { name, of, .. } = self.reading.steps[at].clone() else { return };
        // 「残り日数（満了日−基準日）」: the days left to a date, negative once past.
        if said_today(&of[1]) && !said_today(&of[0]) {
            self.reading.steps[at] = Step::DaysAfter { name, day: today, column: of[0].clone() };
            return;
        }
        self.reading.steps[at] = Step::DaysUntil { name: name.clone(), from: of[1].clone(), until: today };
        if !PAST.is_match(self.text) {
            return;
        }
        // 「延滞リスト…延滞日数（今日−返却予定日）」: the state is what the days measure, no value of
        // the rows.
        let measured = |c: &Condition| {
            c.field.is_none()
                && c.operator == "eq"
                && c.value.as_str().is_some_and(|v| !v.is_empty() && name.starts_with(v))
        };
        self.reading.steps.retain_mut(|step| match step {
            Step::Filter { conditions, exclude: false } if conditions.iter().any(measured) => {
                conditions.retain(|c| !measured(c));
                !conditions.is_empty()
            }
            _ => true,
        });
        let Some(at) =
            self.reading.steps.iter().position(|s| matches!(s, Step::DaysUntil { name: n, .. } if *n == name))
        else {
            return;
        };
        let past = Condition { field: Some(name), operator: "gt", value: Value::from(0), value2: None };
        match self.reading.steps.get_mut(at + 1) {
            Some(Step::Filter { conditions, exclude: false }) if conditions.is_empty() => conditions.push(past),
            _ => self.reading.steps.insert(at + 1, Step::Filter { conditions: vec![past], exclude: false }),
        }
    }

    /// 「遅延日数＝…、2日以上遅れたものだけ・業者名は 配送業者.csv から…で引く」: a lookup said
    /// after steps of each row is done first, so those steps are of the table looked up from
    /// (for rows that must have a partner, the same rows either way), not of the lookup's list.
    fn lookup_before_row_steps(&mut self) {
        let steps = &mut self.reading.steps;
        let Some(at) = steps.iter().position(|s| {
            matches!(s, Step::Join { unmatched: false, either_side: false, keep_all_of: None, bring, .. } if !bring.is_empty())
        }) else {
            return;
        };
        let row_steps = |s: &Step| {
            matches!(s, Step::Compute { .. } | Step::Formula { .. } | Step::DaysUntil { .. } | Step::Filter { .. })
        };
        if at > 0 && steps[..at].iter().all(row_steps) {
            let join = steps.remove(at);
            steps.insert(0, join);
            return;
        }
        // "total the amounts per region (region is in customers.csv)": a grouping by a column the
        // lookup brings is done after it.
        let Step::Join { bring, .. } = &steps[at] else { return };
        let brought = |column: &String| bring.iter().any(|b| b.eq_ignore_ascii_case(column));
        let totals = steps[..at].iter().position(|s| matches!(s, Step::Aggregate { by, .. } if by.iter().any(brought)));
        if let Some(totals) = totals {
            let join = steps.remove(at);
            steps.insert(totals, join);
        }
    }

    /// 「遅延日数＝配達日−予定日、2日以上遅れたものだけ」: a number of days compared with no
    /// column named, right after a column of days is computed, is that column's.
    fn days_compared_after_their_column(&mut self) {
        let days = |name: &str| {
            let lower = name.to_lowercase();
            name.ends_with("日数") || lower.ends_with("days") || lower.starts_with("days")
        };
        for i in 1..self.reading.steps.len() {
            let name = match &self.reading.steps[i - 1] {
                Step::Compute { name, operation: "difference" | "days_inclusive", .. } if days(name) => name.clone(),
                Step::DaysUntil { name, .. } if days(name) => name.clone(),
                _ => continue,
            };
            if let Step::Filter { conditions, .. } = &mut self.reading.steps[i] {
                for c in conditions.iter_mut().filter(|c| c.field.is_none() && c.value.is_number()) {
                    if matches!(c.operator, "gt" | "gte" | "lt" | "lte") {
                        c.field = Some(name.clone());
                    }
                }
            }
        }
    }

    /// 「並びは社員番号→利用日→Noの順で」: keys in order, each after the one before; 「画面ID順→
    /// 起票日順」 sorts by 画面ID first.
    fn sort_keys_in_arrows(&mut self) {
        for step in &mut self.reading.steps {
            let Step::Sort { by: Some(by), descending, then, .. } = step else { continue };
            if !by.contains('→') || !then.is_empty() {
                continue;
            }
            let key = |k: &str| k.strip_suffix('順').filter(|k| k.chars().count() >= 2).unwrap_or(k).to_owned();
            let keys: Vec<String> = by.split('→').map(|k| key(k.trim())).filter(|k| !k.is_empty()).collect();
            if let [first, rest @ ..] = keys.as_slice() {
                *then = rest.iter().map(|k| (k.clone(), *descending)).collect();
                *by = first.clone();
            }
        }
    }

    /// "any order", 「順不同」: an order said not to matter sorts nothing (a sort by a column said
    /// stays).
    fn no_order_wanted(&mut self) {
        static ANY_ORDER: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"(?i)\b(?:in )?any order\b|\border (?:doesn'?t|does not|don'?t|do not) matter\b|\bno particular order\b|\bunordered\b|順不同|(?:順番|並び順|順序)は(?:問いません|問わない|問わず|任意|自由|どちらでも|何でも)")
                .expect("any order")
        });
        if ANY_ORDER.is_match(self.text) {
            self.reading.steps.retain(|s| !matches!(s, Step::Sort { by: None, limit: None, .. }));
        }
    }

    /// "in March 2026 … the total paid in March": a month said again without its year is the
    /// month already kept, no second filter.
    fn months_said_again_without_their_year(&mut self) {
        let kept_months: Vec<u64> = self
            .reading
            .steps
            .iter()
            .flat_map(|s| match s {
                Step::Filter { conditions, exclude: false } => conditions.as_slice(),
                _ => &[],
            })
            .filter(|c| c.operator == "between")
            .filter_map(|c| {
                let (from, to) = (c.value.as_str()?, c.value2.as_ref()?.as_str()?);
                // (A whole month: the same year and month at both ends.)
                (from.len() == 10 && to.len() == 10 && from[..7] == to[..7] && from.ends_with("-01"))
                    .then(|| from[5..7].parse().ok())
                    .flatten()
            })
            .collect();
        let again = |c: &Condition| {
            c.operator == MONTH_OF_UNSAID_YEAR && c.value.as_u64().is_some_and(|m| kept_months.contains(&m))
        };
        self.reading.steps.retain_mut(|step| match step {
            Step::Filter { conditions, .. } if conditions.iter().any(again) => {
                conditions.retain(|c| !again(c));
                !conditions.is_empty()
            }
            _ => true,
        });
    }

    /// "Use the bill date to decide what's in Q1", 「請求日を基準に」: the column a period said
    /// with no column of its own is compared on.
    fn dates_said_to_decide(&mut self) {
        static EN: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(
                r"(?i)\b(?:use|using|go by|going by|based on)\s+(?:the\s+)?(?P<c>[a-z_]+(?: [a-z_]+)?[ _]date)\b",
            )
            .expect("date said to decide")
        });
        static JA: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(
                r"(?P<c>[\p{Han}\p{Katakana}ー]{1,10}日)(?:を基準に|を基準として|で判定|で判断|で決め|で見て)",
            )
            .expect("date said to decide")
        });
        let pattern = match self.language {
            Language::En => &*EN,
            Language::Ja => &*JA,
        };
        let Some(column) = pattern.captures(self.text).map(|c| c["c"].to_owned()) else { return };
        for step in &mut self.reading.steps {
            if let Step::Filter { conditions, .. } = step {
                for condition in conditions.iter_mut().filter(|c| c.field.is_none() && of_a_period(c)) {
                    condition.field = Some(column.clone());
                }
            }
        }
    }

    /// "How much did the bank charge us in fees each month?", 「いくら払ったか」: a question of an
    /// amount is answered by a total or a computed column. With none read, the question is
    /// asked back, never answered with the rows as they are. (「何件か」 is "some", no question.)
    fn question_of_an_amount_answered(&mut self) {
        static ASKS_AN_AMOUNT: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"(?i)\bhow (?:much|many)\b|いくら|何件(?:[^か]|$)|何円").expect("amount asked")
        });
        let answered = self.reading.steps.iter().any(|s| matches!(s.name(), "aggregate" | "compute"));
        if answered {
            return;
        }
        if let Some(clause) = self.clauses.iter().find(|c| ASKS_AN_AMOUNT.is_match(&c.text)) {
            if !self.reading.unplaced.contains(&clause.text) {
                self.reading.unplaced.push(clause.text.clone());
            }
        }
    }

    /// Blank cells given a value are filled before rows are totalled or checked for duplicates
    /// (a blank owner counted as "Unassigned"), else last.
    fn blanks_filled(&mut self, filled: Vec<blanks::BlankFilled>) {
        let steps = &mut self.reading.steps;
        let at = steps
            .iter()
            .position(|s| matches!(s, Step::Aggregate { .. } | Step::Duplicates { .. } | Step::LatestPerKey { .. }))
            .unwrap_or(steps.len());
        let fills = filled.into_iter().map(|f| Step::FillBlanks { column: f.column, value: f.value });
        steps.splice(at..at, fills);
    }

    /// "Count as open: status Open, In Progress or Reopened": a word the text defines by values
    /// keeps the rows that hold one of them, wherever it is said ("the most bugs still open").
    fn words_defined_by_values(&mut self) {
        if self.language != Language::En {
            return;
        }
        let Some(c) = words::EN_DEFINED_AS.captures(self.text) else { return };
        let word = c.name("word").or(c.name("word2")).map_or("", |w| w.as_str()).trim().to_ascii_lowercase();
        let field = c.name("field").or(c.name("field2")).map(|f| f.as_str().to_owned());
        let values: Vec<String> = c
            .name("values")
            .or(c.name("values2"))
            .map_or("", |v| v.as_str())
            .split([',', '/'])
            .flat_map(|part| part.split(" or "))
            .flat_map(|part| part.split(" and "))
            .map(|v| v.trim().trim_start_matches("or ").trim().to_owned())
            .filter(|v| !v.is_empty())
            .collect();
        if values.len() < 2 {
            return;
        }
        let defined: Vec<Condition> = values
            .iter()
            .map(|v| Condition { field: field.clone(), operator: "eq", value: Value::from(v.as_str()), value2: None })
            .collect();
        // ("Open = status Open, In Progress or Reopened" read as conditions of its own says the
        // definition, not more rows to keep.)
        // (Or as one condition of any of them, the word among them: "open (Open, In Progress or
        // Reopened)".)
        let of_the_definition = |c: &Condition| {
            c.field.as_deref().is_some_and(|f| f.eq_ignore_ascii_case(&word))
                || c.field.is_none() && values.iter().chain([&word]).any(|d| conditions::compares_with(c, d))
        };
        for step in &mut self.reading.steps {
            if let Step::Filter { conditions, exclude: false } = step {
                let said = |c: &Condition| {
                    c.field.is_none() && matches!(c.operator, "eq" | "in") && conditions::compares_with(c, &word)
                };
                if conditions.iter().any(said) {
                    conditions.retain(|c| !said(c) && !of_the_definition(c));
                    conditions.extend(defined.iter().cloned());
                }
            }
        }
        self.reading.steps.retain(|s| !matches!(s, Step::Filter { conditions, .. } if conditions.is_empty()));
        each_filter_once(&mut self.reading.steps);
    }

    /// 「金額の合計が大きい順」, "by total amount": an order by a total said of its column is by
    /// that total, whatever it is named.
    fn sorted_by_a_total_said_of_its_column(&mut self) {
        let language = self.language;
        let totals: Vec<(Vec<String>, String)> = self
            .reading
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Aggregate { aggregations, .. } => Some(aggregations),
                _ => None,
            })
            .flatten()
            .filter_map(|a| {
                let field = a.field.as_deref()?;
                let said: Vec<String> = match a.op {
                    "sum" => vec![
                        format!("{field}の合計"),
                        format!("{field}合計"),
                        format!("合計{field}"),
                        format!("total {field}"),
                        format!("{field} total"),
                        format!("sum of {field}"),
                    ],
                    "avg" => vec![format!("{field}の平均"), format!("平均{field}"), format!("average {field}")],
                    _ => return None,
                };
                Some((said, a.result_name(language)))
            })
            .collect();
        for step in &mut self.reading.steps {
            let Step::Sort { by: Some(by), .. } = step else { continue };
            let said = by.to_lowercase();
            if let Some((_, name)) = totals.iter().find(|(names, _)| names.iter().any(|n| n.to_lowercase() == said)) {
                by.clone_from(name);
            }
        }
    }

    /// "how many Failed runs per module … columns module, failed_runs": the one column chosen
    /// beside the groups is the one total's name; a column chosen that names a count is the
    /// count. A later order by a total follows the name it is given.
    fn name_the_total_as_chosen(&mut self) {
        let language = self.language;
        let columns = &self.reading.columns;
        let Some(at) = self.reading.steps.iter().position(|s| matches!(s, Step::Aggregate { .. })) else { return };
        let (grouping, after) = self.reading.steps.split_at_mut(at + 1);
        let Some(Step::Aggregate { by, aggregations }) = grouping.last_mut() else { return };
        // (「得意先ごとに…列は「得意先名」「件数」」: the key's name is the key.)
        // (「社員ごとに…社員番号」: the key's number or code is the key.)
        let key = |c: &String| by.iter().any(|b| names_key_column(b, c));
        // 「列は 月、合計金額、件数 で」: a column chosen that names a count is the count (added
        // beside the total said, when none is), the one other column the one other total.
        // ("how many stories are Done … Columns team, sprint, done stories": what is counted.)
        static COUNTED: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"(?i)\b(?:how many|number of|count of|count the) (?P<noun>[a-z]{3,}s)\b")
                .expect("counted")
        });
        let counted: Vec<String> = COUNTED.captures_iter(self.text).map(|c| c["noun"].to_ascii_lowercase()).collect();
        let names_what_is_counted = |c: &String| {
            let last = c.rsplit([' ', '_']).next().unwrap_or_default().to_ascii_lowercase();
            counted.contains(&last) && !slots::is_row_noun(&last)
        };
        let names_count = |c: &String| total_named(c) == Some("count") || names_what_is_counted(c);
        // (A column a total is already named, 「重要度高」 counted by its conditions, is that total.)
        let named_already = |c: &String| aggregations.iter().any(|a| a.name.as_ref() == Some(c));
        let (counts, others): (Vec<&String>, Vec<&String>) =
            columns.iter().filter(|c| !key(c) && !names_rank(c) && !named_already(c)).partition(|c| names_count(c));
        // (「得意先ごとに…得意先コード・得意先名」: a key may be chosen as two columns.)
        let keys_chosen = columns.iter().filter(|c| key(c)).count();
        if keys_chosen < by.len()
            || !by.iter().all(|b| columns.iter().any(|c| names_key_column(b, c)))
            || counts.len() > 1
        {
            return;
        }
        // The names given, each with the one it had (a later order by it follows it).
        let mut named: Vec<(String, String)> = Vec::new();
        let mut name = |total: &mut Aggregation, chosen: &String| {
            named.push((total.result_name(language), chosen.clone()));
            total.name = Some(chosen.clone());
        };
        if let [count] = counts.as_slice() {
            let totalled = !aggregations.is_empty();
            match aggregations.iter_mut().find(|a| a.op == "count") {
                Some(counted) if counted.name.is_none() => name(counted, count),
                Some(_) => {}
                None if totalled => aggregations.push(Aggregation {
                    op: "count",
                    field: None,
                    name: Some((*count).clone()),
                    when: Vec::new(),
                }),
                None => return,
            }
        }
        // (A total named by the words that ask for it, 「実働合計」, and not chosen, is named as the
        // column chosen.)
        let unchosen = |a: &Aggregation| a.name.as_ref().is_none_or(|n| !columns.contains(n));
        // 「列は 部門、件数、合計金額、平均金額」: a column chosen that names its kind of total is that
        // total (added beside the others said, of their column).
        let mut others = others;
        if !aggregations.is_empty() && others.len() > 1 {
            let field = aggregations.iter().find_map(|a| a.field.clone());
            others.retain(|other| {
                let Some(op) = total_named(other) else { return true };
                let said = aggregations.iter().any(|a| a.op == op);
                match aggregations.iter_mut().find(|a| a.op == op && unchosen(a)) {
                    Some(total) => name(total, other),
                    None if !said => aggregations.push(Aggregation {
                        op,
                        field: field.clone(),
                        name: Some((*other).clone()),
                        when: Vec::new(),
                    }),
                    None => return true,
                }
                false
            });
        }
        // (「生徒ごとにまとめて…列は 生徒名・学年・提出回数・最高点・最低点」: 「まとめて」 totals nothing of
        // its own beside the totals the columns name, and 学年, no amount, goes with the key.)
        const AMOUNTS: &[&str] = &["額", "金", "数", "量", "高", "時間", "料", "代", "価", "値", "点", "計"];
        let bare = |a: &Aggregation| a.op == "sum" && a.field.is_none() && a.name.is_none();
        if language == Language::Ja
            && aggregations.iter().any(|a| !bare(a))
            && others.iter().all(|o| !AMOUNTS.iter().any(|e| o.ends_with(e)))
        {
            aggregations.retain(|a| !bare(a));
        }
        let mut totals = aggregations.iter_mut().filter(|a| unchosen(a) && (a.op != "count" || counts.is_empty()));
        if let (Some(total), None, [other]) = (totals.next(), totals.next(), others.as_slice()) {
            name(total, other);
        }
        // 「列は 取得月・件数・取得価額合計」: a total of no column said is of the one its name says.
        for total in aggregations.iter_mut().filter(|a| a.field.is_none() && a.op != "count") {
            total.field = total.name.as_deref().and_then(column_a_total_names);
        }
        // 「社員ごとの実働合計の上位5人（社員番号・氏名・合計時間）」: the other columns chosen go with
        // the key, one value per group: the rows are grouped by them all, as chosen.
        let totalled: Vec<&String> = aggregations.iter().filter_map(|a| a.name.as_ref()).collect();
        let added = |c: &String| after.iter().any(|s| s.added_column() == Some(c.as_str()));
        let beside: Vec<&String> = others.iter().copied().filter(|o| !totalled.contains(o) && !added(o)).collect();
        let all_named = aggregations.iter().all(|a| a.name.as_ref().is_some_and(|n| columns.contains(n)));
        let more_keys = !beside.is_empty() || keys_chosen > by.len();
        if all_named && !aggregations.is_empty() && more_keys && beside.iter().all(|o| total_named(o).is_none()) {
            *by = columns.iter().filter(|c| key(c) || beside.contains(c)).cloned().collect();
        }
        for step in after.iter_mut() {
            if let Step::Sort { by: Some(by), .. } = step {
                if let Some((_, chosen)) = named.iter().find(|(had, _)| had == by) {
                    *by = chosen.clone();
                }
            }
        }
        // "…, the average claim (rounded to 2 decimals) and …": a total said apart, of no column
        // and no group, that the grouping now has is that one.
        let ops: Vec<&'static str> = aggregations.iter().map(|a| a.op).collect();
        let had = |s: &Step| {
            matches!(s, Step::Aggregate { by, aggregations } if by.is_empty()
                && aggregations.iter().all(|a| a.field.is_none() && a.name.is_none() && ops.contains(&a.op)))
        };
        let kept: Vec<bool> = after.iter().map(|s| !had(s)).collect();
        let mut kept = std::iter::repeat_n(true, at + 1).chain(kept);
        self.reading.steps.retain(|_| kept.next().unwrap_or(true));
    }

    /// 「重要度高（重要度が「高」の件数）」: a count named as a column, of the rows of each group
    /// that meet its conditions, beside the grouping's other totals.
    fn counts_of_rows_that_meet(&mut self) {
        let Some(Step::Aggregate { aggregations, .. }) =
            self.reading.steps.iter_mut().find(|s| matches!(s, Step::Aggregate { .. }))
        else {
            return;
        };
        for counted::CountOfRows { range, name, when } in counted::counts_of_rows_that_meet(self.text, self.language) {
            match aggregations.iter_mut().find(|a| a.op == "count" && a.name.as_ref() == Some(&name)) {
                Some(count) => count.when = when,
                None => aggregations.push(Aggregation { op: "count", field: None, name: Some(name), when }),
            }
            // The clause that says it asks for this count, not for another step.
            let text = self.text;
            self.reading
                .unplaced
                .retain(|u| text.find(u.as_str()).is_none_or(|at| at + u.len() <= range.start || range.end <= at));
        }
    }

    /// "pass_rate = passed / executed × 100" with each count defined ("the executed tests (every
    /// result except Skipped)"), 「NG率（NG件数÷実施件数×100）」 with 「実施件数（OKとNGの合計）」: the
    /// counts per group and their rate, in place of what the definitions' words were read as
    /// one by one (a filter of OK rows, a count of every row). Only when every count is read
    /// whole and the group is known.
    fn counts_of_a_rate(&mut self) {
        let Some((at, rate_said, operands)) = self.reading.steps.iter().enumerate().find_map(|(i, s)| match s {
            Step::Compute { name, operation: "percent" | "ratio", of, .. } if of.len() == 2 => {
                Some((i, name.clone(), of.clone()))
            }
            _ => None,
        }) else {
            return;
        };
        // The count `name`, of the rows its definition says; `None` when it cannot be read whole.
        let counted = |name: &String| {
            let when = rates::rows_counted(self.with_asides, name, self.language)?;
            Some(Aggregation { op: "count", field: None, name: Some(name.clone()), when })
        };
        let mut counts = Vec::new();
        for name in &operands {
            let Some(count) = counted(name) else { return };
            counts.push(count);
        }
        let names_a_rate = |c: &String| {
            let lower = c.to_lowercase();
            ["率", "rate", "%", "pct", "percent", "ratio"].iter().any(|w| lower.contains(w))
        };
        let rest: Vec<&String> = self.reading.columns.iter().filter(|c| !operands.contains(c)).collect();
        let (keys, rate) = if rest.is_empty() {
            // No columns chosen: the grouping said, the rate as the formula names it.
            let by = self.reading.steps.iter().find_map(|s| match s {
                Step::Aggregate { by, .. } if !by.is_empty() => Some(by.clone()),
                _ => None,
            });
            match by {
                Some(by) if !rate_said.is_empty() => (by, rate_said),
                _ => return,
            }
        } else {
            let rates: Vec<&&String> = rest.iter().filter(|c| names_a_rate(c)).collect();
            let [rate] = rates.as_slice() else { return };
            // The other columns chosen: more counts the text defines, else the keys.
            let mut keys = Vec::new();
            for column in rest.iter().filter(|c| *c != *rate) {
                match counted(column) {
                    Some(count) => counts.push(count),
                    None => keys.push((*column).clone()),
                }
            }
            if keys.is_empty() {
                return;
            }
            (keys, (**rate).clone())
        };
        let count_names: Vec<&String> = counts.iter().filter_map(|c| c.name.as_ref()).collect();
        let operation = if rates::out_of_a_hundred(self.text) { "percent" } else { "ratio" };
        let mut before = Vec::new();
        let mut after = Vec::new();
        for (i, step) in std::mem::take(&mut self.reading.steps).into_iter().enumerate() {
            match step {
                // "Skipped tests don't count at all", a period: rows left out before counting.
                Step::Filter { conditions, exclude } if i < at => {
                    let leaves_out = |c: &Condition| exclude || c.operator == "ne";
                    if conditions.iter().all(|c| leaves_out(c) || of_a_period(c)) {
                        before.push(Step::Filter { conditions, exclude });
                    }
                }
                // A condition on the rate or a count: after them.
                Step::Filter { conditions, exclude } => {
                    let on_them =
                        |c: &Condition| c.field.as_ref().is_some_and(|f| *f == rate || count_names.contains(&f));
                    if conditions.iter().all(on_them) {
                        after.push(Step::Filter { conditions, exclude });
                    }
                }
                Step::Compute { operation: operation @ ("round" | "round_down" | "round_up"), value, .. } if i > at => {
                    after.push(Step::Compute { name: rate.clone(), operation, of: vec![rate.clone()], value });
                }
                Step::Sort { .. } => after.push(step),
                Step::Aggregate { .. } | Step::Compute { .. } => {}
                other if i < at => before.push(other),
                other => after.push(other),
            }
        }
        // ("the passed ones (result Passed — Failed and Blocked were executed …)": the values a
        // definition names beside the ones counted say what it is, no rows to keep.)
        let definitions: Vec<&str> =
            count_names.iter().filter_map(|name| rates::definition(self.with_asides, name, self.language)).collect();
        let defines = |word: &String| definitions.iter().any(|d| d.contains(word.as_str()));
        self.reading.mentioned_words.retain(|w| !defines(w));
        self.reading.value_words.retain(|w| !defines(w));
        before.push(Step::Aggregate { by: keys, aggregations: counts });
        before.push(Step::Compute { name: rate, operation, of: operands, value: None });
        before.extend(after);
        self.reading.steps = before;
    }

    /// "Who were our top 5 customers? … add up the amount per customer, and list the five
    /// biggest totals": the first top N names the groups the later one ranks by their total;
    /// it orders no rows of its own.
    fn top_of_the_groups_said_twice(&mut self) {
        let steps = &self.reading.steps;
        let first = steps.iter().enumerate().find_map(|(i, s)| match s {
            Step::Sort { by: Some(key), limit: Some(n), .. } => Some((i, key.clone(), *n)),
            _ => None,
        });
        let Some((at, key, n)) = first else { return };
        let grouped = steps[at + 1..].iter().position(|s| matches!(s, Step::Aggregate { by, .. } if by.iter().any(|b| names_column(b, &key) || names_column(&key, b))));
        let Some(grouped) = grouped.map(|g| at + 1 + g) else { return };
        let ranked_again =
            steps[grouped + 1..].iter().any(|s| matches!(s, Step::Sort { limit: Some(m), .. } if *m == n));
        if ranked_again {
            self.reading.steps.remove(at);
        }
    }

    /// "the employees whose total amount is more than 40000": a total of each employee, compared
    /// (not each row's amount).
    fn totals_compared_of_each(&mut self) {
        static WHOSE_TOTAL: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(
                r"(?i)\b(?P<entity>[a-z_][\w]*)\s+whose\s+(?P<said>(?:total|combined|overall)\s+(?P<measure>[a-z_][\w]*(?: [a-z_][\w]*)?))\s+(?:is|are|was|were|comes? to|adds? up to)\b",
            )
            .expect("whose total")
        });
        if self.reading.steps.iter().any(|s| matches!(s, Step::Aggregate { .. })) {
            return;
        }
        let Some(c) = WHOSE_TOTAL.captures(self.text) else { return };
        let entity = slots::singular(&c["entity"].to_ascii_lowercase());
        let said = c["said"].to_ascii_lowercase();
        if slots::is_row_noun(&entity) {
            return;
        }
        let compared = |s: &Step| matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|k| k.field.as_deref().is_some_and(|f| f.eq_ignore_ascii_case(&said))));
        let Some(at) = self.reading.steps.iter().position(compared) else { return };
        let total = Aggregation {
            op: "sum",
            field: Some(c["measure"].to_ascii_lowercase()),
            name: Some(said),
            when: Vec::new(),
        };
        self.reading.steps.insert(at, Step::Aggregate { by: vec![entity], aggregations: vec![total] });
    }

    /// "Which three warehouses spent the most …? Add up repair_cost per warehouse …, keep the top
    /// 3": the top groups asked, then said in full; the full one is the one.
    fn top_groups_said_twice(&mut self) {
        let steps = &self.reading.steps;
        let top_of_groups = |i: usize| match (steps.get(i), steps.get(i + 1)) {
            (Some(Step::Aggregate { by, aggregations }), Some(Step::Sort { limit: Some(n), descending, .. })) => {
                Some((by.clone(), aggregations.clone(), *n, *descending))
            }
            _ => None,
        };
        for i in 0..steps.len() {
            let Some((by, totals, n, descending)) = top_of_groups(i) else { continue };
            let Some((later_by, later_totals, m, later_descending)) = top_of_groups(i + 2) else { continue };
            let same_groups = passes::same_groups(&by, &later_by);
            // (The first said no column of its own: "spent the most" is of the amounts.)
            let said_loosely = totals.iter().all(|a| a.op == "sum")
                && later_totals.iter().any(|a| a.op == "sum" && a.field.is_some())
                && totals.iter().all(|a| {
                    a.field
                        .as_deref()
                        .is_none_or(|f| f == "amount" || later_totals.iter().any(|l| l.field.as_deref() == Some(f)))
                });
            if same_groups && n == m && descending == later_descending && said_loosely {
                self.reading.steps.drain(i..i + 2);
                return;
            }
        }
    }

    /// "add a variance column (actual minus budget) … biggest overspend first": an order by a
    /// word for how far one amount passes another is by the one difference computed.
    fn sorted_by_the_difference(&mut self) {
        const BY_HOW_FAR: &[&str] = &[
            "overspend",
            "overspending",
            "overrun",
            "overage",
            "excess",
            "shortfall",
            "gap",
            "超過",
            "超過額",
            "乖離",
        ];
        let differences: Vec<String> = self
            .reading
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Compute { name, operation: "difference", .. } => Some(name.clone()),
                _ => None,
            })
            .collect();
        let [difference] = differences.as_slice() else { return };
        for step in &mut self.reading.steps {
            if let Step::Sort { by: Some(by), .. } = step {
                if BY_HOW_FAR.contains(&by.to_lowercase().as_str()) {
                    by.clone_from(difference);
                }
            }
        }
    }

    /// 「列は 順位（1〜5）、得意先、受注合計 で、合計の大きい順」: a rank column chosen is the rank
    /// of the rows by what they are ordered by, added after the order (1 for the first in it).
    fn rank_chosen(&mut self) {
        let Some(rank) = self.reading.columns.iter().find(|c| names_rank(c)) else { return };
        let steps = &mut self.reading.steps;
        if steps.iter().any(|s| s.added_column() == Some(rank.as_str())) {
            return;
        }
        let Some((at, by, descending)) = steps.iter().enumerate().rev().find_map(|(i, s)| match s {
            Step::Sort { by: Some(by), descending, .. } => Some((i, by.clone(), *descending)),
            _ => None,
        }) else {
            return;
        };
        let operation = if descending { "rank" } else { "rank_ascending" };
        steps.insert(at + 1, Step::Compute { name: rank.clone(), operation, of: vec![by], value: None });
    }

    /// "Test IDs with at least 2 FAIL results … and the number of failures": the rows counted
    /// per key, the keys counted that often kept. The count takes the name of the one column
    /// asked for beside the key.
    fn count_repeats(&mut self) {
        let Some(repeated) = repeats::repeated(self.text, self.language) else { return };
        // The keys with their counts are the result only when the text asks for the count;
        // "list the payments to vendors paid more than once" may want the payments.
        if !repeats::COUNT_ASKED.is_match(&self.text.to_ascii_lowercase()) {
            return;
        }
        let others: Vec<&String> = self.reading.columns.iter().filter(|c| !names_column(&repeated.key, c)).collect();
        let name = match others.as_slice() {
            [one] if self.reading.columns.len() == 2 => (*one).clone(),
            _ => self.language.pick("count", "回数").to_owned(),
        };
        let steps = std::mem::take(&mut self.reading.steps);
        self.reading.steps = repeats::with_counts(steps, &repeated, name);
    }

    /// "which invoices … don't have any payment … list those unpaid invoices": with rows kept
    /// for having no partner, a state of payment or matching said of them, the rows' own name,
    /// and whether a partner is there, are what the match finds, not a column's value.
    fn states_the_match_says(&mut self) {
        const MATCH_STATES: &[&str] = &[
            "paid",
            "unpaid",
            "partly paid",
            "partially paid",
            "outstanding",
            "settled",
            "received",
            "missing",
            "unmatched",
            "matched",
            "open",
            "未入金",
            "入金済",
            "入金済み",
            "未払",
            "未払い",
            "支払済",
            "支払済み",
            "未消込",
            "消込済",
        ];
        let Some(wanted) = self.reading.steps.iter().find_map(|s| match s {
            Step::Join { unmatched: true, wanted, .. } => Some(wanted.clone()),
            _ => None,
        }) else {
            return;
        };
        // 「入金が1件もない請求だけ」「一部でも入金があるものは対象外」: the rows wanted, and the
        // partner's presence, are what the match says too.
        let said_by_the_match = |c: &Condition| {
            let value = c.value.as_str().map(str::to_lowercase);
            let state = value.as_deref().is_some_and(|v| MATCH_STATES.contains(&v));
            let subject = value.is_some() && value == wanted.as_deref().map(str::to_lowercase);
            c.field.is_none() && c.operator == "eq" && (state || subject)
                || c.operator == "ne" && value.as_deref() == Some("")
        };
        self.reading.steps.retain(|s| match s {
            Step::Filter { conditions, .. } => conditions.is_empty() || !conditions.iter().all(said_by_the_match),
            _ => true,
        });
    }

    /// "For each month (…), could you give me how many sales there were and the total?": the
    /// groups in one clause, what to total in the next — read over their sentence (its span, and
    /// the totals).
    fn aggregate_over_a_sentence(&self) -> Option<(std::ops::Range<usize>, (usize, Step))> {
        clauses::sentences(self.text).into_iter().find_map(|sentence| {
            let mut masked = sentence.clone();
            masked.text = slots::without_file_names(&sentence.text);
            match self.aggregate(&masked)? {
                (at, Step::Aggregate { by, aggregations }) if !by.is_empty() && !aggregations.is_empty() => {
                    let span = sentence.start..sentence.start + sentence.text.len();
                    Some((span, (at, Step::Aggregate { by, aggregations })))
                }
                _ => None,
            }
        })
    }

    /// The clauses whose operation word gave no step, with no step in them, naming an operation
    /// no other clause gave ("just vendor + count" names the count read before). `asking` holds
    /// each clause that asks for an operation, the number of steps read before it, and the steps
    /// its word may name.
    /// 「住所か電話番号のどちらかが違う顧客」: rows kept where columns differ. With no step read
    /// that compares columns, the words are asked about rather than dropped.
    fn columns_compared_unread(&self, steps: &[(usize, Step)]) -> Option<String> {
        static DIFFER: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"[^、。\s]{1,30}(?:が|の)(?:違う|違って|異なる|異なって|食い違|一致しない|一致していない|合わない|合っていない)[^、。\s]{0,12}")
                .expect("columns differ")
        });
        if self.language != Language::Ja {
            return None;
        }
        let compares = steps.iter().any(|(_, s)| match s {
            Step::Filter { conditions, .. } => conditions.iter().any(|c| c.value.get("column").is_some()),
            Step::Join { unmatched, either_side, .. } => *unmatched || *either_side,
            // (「部屋番号が違うものは別の住所」「社名の書き方が違っていても」: what a duplicate is.)
            Step::Compute { .. } | Step::Formula { .. } | Step::Duplicates { .. } => true,
            _ => false,
        });
        DIFFER.find(self.text).filter(|_| !compares).map(|m| m.as_str().to_owned())
    }

    fn unplaced(&self, asking: &[(usize, usize, &[&str])], steps: &[(usize, Step)]) -> Vec<String> {
        asking
            .iter()
            .enumerate()
            .filter(|(n, (index, before, names))| {
                let after = asking.get(n + 1).map_or(steps.len(), |(_, b, _)| *b);
                let clause = &self.clauses[*index];
                let range = clause.start..clause.start + clause.text.len();
                after == *before && !steps.iter().any(|(at, step)| range.contains(at) || names.contains(&step.name()))
            })
            .map(|(_, (index, _, _))| self.clauses[*index].text.clone())
            .collect()
    }

    /// "one line per month: the month written like 2026-09, how many donations, and the total
    /// est_value": totals of no group said right after one row per key, with no other grouping,
    /// are that key's totals; no row is removed.
    fn totals_of_the_one_row_per_key(&mut self) {
        let steps = &mut self.reading.steps;
        if steps.iter().any(|s| matches!(s, Step::Aggregate { by, .. } if !by.is_empty())) {
            return;
        }
        let Some(r) =
            steps.iter().position(|s| matches!(s, Step::Duplicates { remove: true, by, .. } if by.len() == 1))
        else {
            return;
        };
        let next = steps[r + 1..].iter().position(|s| !matches!(s, Step::Compute { .. })).map(|n| r + 1 + n);
        let Some(a) = next.filter(|a| matches!(&steps[*a], Step::Aggregate { by, .. } if by.is_empty())) else {
            return;
        };
        let Step::Duplicates { by: key, .. } = steps[r].clone() else { return };
        if let Step::Aggregate { by, .. } = &mut steps[a] {
            *by = key;
        }
        steps.remove(r);
        // (A month is made from the rows' date, as for any grouping by month.)
        let steps = std::mem::take(steps).into_iter().map(|s| (0, s)).collect();
        self.reading.steps = months_to_group_by(steps).into_iter().map(|(_, s)| s).collect();
    }

    /// What "one row per key" is when duplicates are removed: with no total said, the removal,
    /// not a grouping (「社員番号ごとに1行になるように整理」); with totals said and no duplicates,
    /// the totals' rows, not a removal ("One row per month: month, number of failures"). A clause
    /// of a removal that says which row stays (「ファイルの下の方にある行を残して」, "keep the latest
    /// one") says the removal's row, no filter of its own.
    fn what_one_row_per_key_is(&self, mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
        let removes = steps.iter().any(|(_, s)| matches!(s, Step::Duplicates { remove: true, .. }));
        if !removes {
            return steps;
        }
        let lower = self.text.to_ascii_lowercase();
        let clause_of = |at: usize| self.clauses.iter().rposition(|c| c.start <= at);
        if !self.lexicon.totals.is_match(&lower) {
            steps.retain(|(_, s)| !matches!(s, Step::Aggregate { .. }));
        } else if !["重複", "二重", "duplicat", "dedup"].iter().any(|w| lower.contains(w)) {
            // 「取引先ごとに1行になるように金額を合計して」, "One row per month: month, number of
            // failures": the one row per key is the totals'.
            let grouped = passes::grouped_by(&steps);
            let totals_at: Vec<Option<usize>> =
                steps.iter().filter(|(_, s)| s.name() == "aggregate").map(|(at, _)| clause_of(*at)).collect();
            // A key the totals are grouped by; no key, in the clause that totals. ("the same
            // session … (same email) count them once": a key said the same that the totals lack
            // makes copies of rows.)
            let same = shaping::same_keys(self.text, self.language);
            let copies = |by: &[String]| {
                by.iter().any(|b| !grouped.iter().any(|g| same_noun(g, b)) && same.iter().any(|k| same_noun(k, b)))
            };
            let the_totals = |at: usize, by: &[String]| match by.first() {
                Some(b) => grouped.iter().any(|g| same_noun(g, b)) && !copies(by),
                None => totals_at.contains(&clause_of(at)),
            };
            steps.retain(|(at, s)| !matches!(s, Step::Duplicates { remove: true, by, .. } if the_totals(*at, by)));
            return steps;
        }
        let last = match self.language {
            Language::En => &*shaping::EN_KEEP_LAST,
            Language::Ja => &*shaping::JA_KEEP_LAST,
        };
        let row_kept = |at: usize| clause_of(at).filter(|i| last.is_match(&self.clauses[*i].text.to_ascii_lowercase()));
        let says_the_row = steps.iter().any(|(at, s)| {
            matches!(s, Step::Filter { conditions, .. } if conditions.is_empty()) && row_kept(*at).is_some()
        });
        if says_the_row {
            steps.retain(|(at, s)| {
                !(matches!(s, Step::Filter { conditions, .. } if conditions.is_empty()) && row_kept(*at).is_some())
            });
            for (_, step) in &mut steps {
                if let Step::Duplicates { remove: true, keep_last, .. } = step {
                    *keep_last = true;
                }
            }
        }
        steps
    }

    /// Sort keys said after the first ("and then by payment date (oldest first)", 「同じ年の中では
    /// 取得価額の大きい順」) are the last sort's before them; a clause's own reading of such a key
    /// as a sort is that key. A key after no sort makes one by what it is said within (「同じ
    /// case_id の中では更新日順」 sorts by case_id first); a key that still has no sort, or no
    /// column, is asked about.
    fn further_sort_keys(&mut self, mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
        for key in sort_keys::further_keys(self.text, self.language) {
            // ("(same total: by project code)": no total of its own either.)
            let said_in_the_key = |s: &Step| {
                s.name() == "sort"
                    || matches!(s, Step::Aggregate { aggregations, .. } if aggregations.iter().all(|a| a.field.is_none()))
            };
            steps.retain(|(at, s)| !(said_in_the_key(s) && key.range.contains(at)));
            let before = steps.iter().rposition(|(at, s)| s.name() == "sort" && *at < key.range.start);
            let sort = match (before, &key.within) {
                (Some(i), _) => Some(i),
                (None, Some(within)) => {
                    let first =
                        Step::Sort { by: Some(within.clone()), descending: false, limit: None, then: Vec::new() };
                    let at = key.range.start;
                    let i = steps.iter().position(|(offset, _)| *offset > at).unwrap_or(steps.len());
                    steps.insert(i, (at, first));
                    Some(i)
                }
                (None, None) => self.order_of_the_only_total(&steps, key.range.start).map(|(i, first)| {
                    steps.insert(i, (key.range.start, first));
                    i
                }),
            };
            match (sort.map(|i| &mut steps[i].1), key.column) {
                (Some(Step::Sort { then, .. }), Some(column)) => {
                    then.push((column, key.descending));
                    // The clauses the key is said in are placed.
                    let said: Vec<&String> = self
                        .clauses
                        .iter()
                        .filter(|c| c.start < key.range.end && key.range.start < c.start + c.text.len())
                        .map(|c| &c.text)
                        .collect();
                    self.reading.unplaced.retain(|u| !said.contains(&u));
                }
                _ => self.reading.unplaced.push(self.text[key.range].to_owned()),
            }
        }
        steps
    }

    /// "…; most first, ties alphabetical by component": an order said of no column, just before
    /// a further key, is of the one total of the grouping before it ("most payments first" of
    /// a count and a sum: of the count).
    fn order_of_the_only_total(&self, steps: &[(usize, Step)], key_at: usize) -> Option<(usize, Step)> {
        static MOST_FIRST: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"(?i)\b(?P<way>most|fewest|least|largest|smallest|highest|lowest|biggest)(?: [a-z]+)? first\b|(?P<ja>多い|少ない|大きい|小さい)順")
                .expect("most first")
        });
        let mut from = key_at.saturating_sub(40);
        while !self.text.is_char_boundary(from) {
            from -= 1;
        }
        let near = &self.text[from..key_at];
        let said = MOST_FIRST.captures_iter(near).last()?;
        let way = said.name("way").or(said.name("ja"))?.as_str().to_ascii_lowercase();
        let descending = matches!(way.as_str(), "most" | "largest" | "highest" | "biggest" | "多い" | "大きい");
        let (i, total) = steps.iter().enumerate().rev().find_map(|(i, (at, s))| match s {
            Step::Aggregate { aggregations, .. } if *at < key_at => Some((i, aggregations)),
            _ => None,
        })?;
        // "most payments first" of a count and a total: the count.
        let counted = matches!(way.as_str(), "most" | "fewest" | "least" | "多い" | "少ない");
        let only = match total.as_slice() {
            [only] => only,
            several => {
                let mut which = several.iter().filter(|a| (a.op == "count") == counted);
                match (which.next(), which.next()) {
                    (Some(one), None) => one,
                    _ => return None,
                }
            }
        };
        let by = Some(only.result_name(self.language));
        Some((i + 1, Step::Sort { by, descending, limit: None, then: Vec::new() }))
    }

    /// 「重要度は 高→中→低 の順」: a sort key's values in the order listed; the order is the
    /// sort's when no other is said. An order of values said beside a sort by other columns is
    /// asked about, never dropped (sorting the values as they spell is wrong).
    fn orders_by_values(&mut self) {
        // ("critical first, then high; oldest first within each": the values order first, the
        // sort said after orders within each of them.)
        static WITHIN_EACH: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"(?i)\bwithin (?:each|them|those|every one)\b|同じ.{0,8}の中では").expect("within each")
        });
        for order in std::mem::take(&mut self.value_orders) {
            let key = |c: &String| same_noun(c, &order.column);
            let within_each =
                self.with_asides.find(&order.said).is_some_and(|at| WITHIN_EACH.is_match(&self.with_asides[at..]));
            let steps = &mut self.reading.steps;
            let keyed = steps.iter().any(
                |s| matches!(s, Step::Sort { by, then, .. } if by.as_ref().is_some_and(key) || then.iter().any(|(c, _)| key(c))),
            );
            let sorted = steps.iter().any(|s| matches!(s, Step::Sort { .. }));
            let unkeyed = steps.iter().position(|s| matches!(s, Step::Sort { by: None, .. }));
            let first_sort = steps.iter().position(|s| matches!(s, Step::Sort { by: Some(_), limit: None, .. }));
            match (keyed, unkeyed, first_sort) {
                (true, ..) => {}
                (false, Some(at), _) => {
                    if let Step::Sort { by, .. } = &mut steps[at] {
                        *by = Some(order.column.clone());
                    }
                }
                (false, None, _) if !sorted => {
                    let by = Some(order.column.clone());
                    steps.push(Step::Sort { by, descending: false, limit: None, then: Vec::new() });
                }
                (false, None, Some(at)) if within_each => {
                    if let Step::Sort { by: Some(by), descending, then, .. } = &mut steps[at] {
                        let sorted_by = std::mem::replace(by, order.column.clone());
                        then.insert(0, (sorted_by, std::mem::take(descending)));
                    }
                }
                (false, None, _) => {
                    self.reading.unplaced.push(order.said);
                    continue;
                }
            }
            self.reading.value_orders.push((order.column, order.values));
        }
    }

    /// "compare the physical count with the register balance in register.csv and list the
    /// lines that don't agree": with one table read, two of its columns compared, no tables
    /// matched (the match read from "compare" or "don't match" has nothing to match with).
    fn columns_compared_in_one_table(&mut self) {
        let tables = self.reading.sources.iter().filter(|s| s.kind != SourceKind::Documents).count();
        let unkeyed_match = |s: &Step| matches!(s, Step::Join { key: None, side_keys, .. } if side_keys.is_empty());
        let empty_filter = |s: &Step| matches!(s, Step::Filter { conditions, exclude: false } if conditions.is_empty());
        let compared_already = self.reading.steps.iter().any(|s| {
            matches!(s, Step::Filter { conditions, .. } if conditions.iter().any(|c| c.value.get("column").is_some()))
        });
        let said = self.reading.steps.iter().any(|s| unkeyed_match(s) || empty_filter(s));
        let joined = self.reading.steps.iter().any(|s| matches!(s, Step::Join { .. }) && !unkeyed_match(s));
        if tables != 1 || !said || joined || compared_already {
            return;
        }
        let Some(condition) = conditions::columns_compared_in_words(self.text, self.language) else { return };
        self.reading.steps.retain(|s| !unkeyed_match(s));
        match self.reading.steps.iter_mut().find(|s| empty_filter(s)) {
            Some(Step::Filter { conditions, .. }) => conditions.push(condition),
            _ => self.reading.steps.insert(0, Step::Filter { conditions: vec![condition], exclude: false }),
        }
    }

    /// Two tables are matched once: a match said again ("compare the reference … against ref_no
    /// …, exact match only … the bank rows with no match") is the same match, kept where its key
    /// is said, and rows without a partner are wanted if any clause says so.
    fn one_match_of_two_tables(&mut self) {
        let tables = self.reading.sources.iter().filter(|s| s.kind != SourceKind::Documents).count();
        let joins: Vec<usize> =
            (0..self.reading.steps.len()).filter(|i| matches!(self.reading.steps[*i], Step::Join { .. })).collect();
        if tables != 2 || joins.len() < 2 {
            return;
        }
        let keyed =
            |step: &Step| matches!(step, Step::Join { key, side_keys, .. } if key.is_some() || !side_keys.is_empty());
        let kept = joins.iter().copied().find(|i| keyed(&self.reading.steps[*i])).unwrap_or(joins[0]);
        let (mut any_unmatched, mut any_side, mut any_wanted) = (false, false, None);
        for i in &joins {
            if let Step::Join { unmatched, either_side, wanted, .. } = &self.reading.steps[*i] {
                any_unmatched |= *unmatched;
                any_side |= *either_side;
                any_wanted = any_wanted.or(wanted.clone());
            }
        }
        if let Step::Join { unmatched, either_side, wanted, keep_all_of, bring, .. } = &mut self.reading.steps[kept] {
            *unmatched = any_unmatched;
            *either_side = any_side;
            *wanted = wanted.take().or(any_wanted);
            if *unmatched {
                *keep_all_of = None;
                bring.clear();
            }
        }
        let mut index = 0;
        self.reading.steps.retain(|_| {
            index += 1;
            index - 1 == kept || !joins.contains(&(index - 1))
        });
    }

    /// "only 4 columns, renamed: entry_id as Entry, posting_date as Date, …", "cols: po_number,
    /// delivery_date renamed to Due": each column chosen with its new name, or its own.
    fn columns_with_their_new_names(&mut self) {
        let pairs: Vec<(String, Option<String>)> =
            self.reading.columns.iter().map(|c| new_name(c).map_or((c.clone(), None), |(f, t)| (f, Some(t)))).collect();
        if pairs.iter().any(|(_, to)| to.is_some()) {
            self.reading.renamed = pairs.iter().map(|(from, to)| to.clone().unwrap_or_else(|| from.clone())).collect();
            self.reading.columns = pairs.into_iter().map(|(from, _)| from).collect();
        }
    }

    /// 「取引先コードごとに、ファイルの中で最初に出てくる行だけを残して」: said over two clauses, the
    /// first read as a grouping (or a check for duplicates) and the second as a filter of no
    /// condition, it is a removal of duplicates that keeps each key's first (or last) row.
    fn one_row_per_key_over_a_sentence(&mut self) {
        if self.language != Language::Ja {
            return;
        }
        let Some((Step::Duplicates { by, remove, keep_last }, said)) = shaping::japanese_row_per_key(self.text) else {
            return;
        };
        // (「全体で」「全部の中で」: a first of all the rows said too.)
        let first_of_all =
            ["全体で", "全体の中", "全部の中", "すべての中", "全件の中"].iter().any(|w| self.text.contains(w));
        // (「同じ得意先コードの行は…上の方にある1行だけを残して」: a check for duplicates of the key,
        // with the one row read as a top 1.)
        // (「同じ社員が同じ残業日の分を2回…社員番号と残業日が同じ行は…」: the check said in other
        // words is this one.)
        let grouping = self.reading.steps.iter().position(|s| {
            matches!(s, Step::Aggregate { by: grouped, aggregations }
                if grouped == &by && aggregations.iter().all(|a| a.field.is_none()))
                || matches!(s, Step::Duplicates { .. })
        });
        let Some(grouping) = grouping else { return };
        // (「最初の1件（申込日がいちばん早いもの）だけ残して」: the one row read as a top 1 of the
        // grouping's totals, which are no more.)
        let totals_read = matches!(self.reading.steps[grouping], Step::Aggregate { .. });
        self.reading.steps[grouping] = Step::Duplicates { by, remove, keep_last };
        // (「いちばん最初に受け付けた1件」 of a check for duplicates: the one row of each key, not
        // the first of all.)
        let the_one_row_read_as_a_top = |s: &Step| match s {
            Step::Sort { by: None, limit: Some(1), .. } => true,
            Step::Sort { limit: Some(1), then, .. } => (totals_read || !first_of_all) && then.is_empty(),
            _ => false,
        };
        // (「最初の申請だけ残して」: the rows the one kept is of, read as a value kept.)
        let said_of_the_one = |c: &Condition| c.field.is_none() && c.value.as_str().is_some_and(|v| said.contains(v));
        self.reading.steps.retain(|s| {
            !matches!(s, Step::Filter { conditions, .. } if conditions.iter().all(said_of_the_one))
                && !the_one_row_read_as_a_top(s)
        });
    }

    /// 「顧客コードごとに更新日が一番新しい行を1行だけ残して」, "for each test_id only its most recent
    /// run counts (go by run_at)": one row per key chosen by a date. The grouping, the top 1 and
    /// the removal of duplicates the clause's words were also read as are that one step.
    fn latest_per_key(&mut self) {
        let Some(said) = shaping::newest_per_key(self.text, self.language) else { return };
        let (by, order_by, newest) = (vec![said.key], said.date, said.newest);
        let steps = &mut self.reading.steps;
        // ("each customer's most recent order": the words also read as an order of no column.)
        if said.by_the_date {
            if let Some(i) = steps.iter().position(|s| matches!(s, Step::Sort { by: None, limit: None, .. })) {
                steps.remove(i);
            }
        }
        let said_as = |s: &Step| match s {
            Step::Aggregate { by: grouped, .. } => grouped.contains(&by[0]),
            Step::Duplicates { by: keys, remove: true, .. } => keys == &by || keys.is_empty(),
            Step::Sort { limit: Some(1), .. } => true,
            Step::Sort { by: Some(column), limit: None, .. } => same_noun(column, &order_by),
            // (「一番新しい記録だけ」: the rows the one kept is of, read as a value kept.)
            Step::Filter { conditions, .. } => conditions.iter().all(|c| {
                c.field.is_none()
                    && c.value
                        .as_str()
                        .is_some_and(|v| words::JA_ROW_NOUNS.contains(&v) || ["記録", "履歴"].contains(&v))
            }),
            _ => false,
        };
        steps.retain(|s| !said_as(s));
        // The newest row of each key is of the rows of a period said ("October's"), and the
        // other conditions are of those newest rows ("of those, the ones that failed").
        let period = |s: &Step| {
            matches!(s, Step::Filter { conditions, .. }
                if !conditions.is_empty() && conditions.iter().all(of_a_period))
        };
        let at = steps.iter().take_while(|s| period(s)).count();
        steps.insert(at, Step::LatestPerKey { by, order_by, newest });
    }

    /// "give me each Cost Center code once, sorted A to Z, as a single column": the one column
    /// is the key its duplicates are removed by, and an order that names no column sorts it.
    fn one_column_of_its_key(&mut self) {
        let one = crate::understanding::columns_said(self.text).is_some_and(|(_, n)| n == 1);
        let keys: Vec<&Vec<String>> = self
            .reading
            .steps
            .iter()
            .filter_map(|s| match s {
                Step::Duplicates { by, remove: true, .. } => Some(by),
                _ => None,
            })
            .collect();
        let [key] = keys.as_slice() else { return };
        let [key] = key.as_slice() else { return };
        // ("list the unique item names … sorted alphabetically": that column already chosen.)
        let chosen_already = self.reading.columns.as_slice() == [key.clone()];
        if !(one && self.reading.columns.is_empty() || chosen_already) {
            return;
        }
        let key = key.clone();
        // ("the unique item names sorted alphabetically": "names", the key said short.)
        let said_short = |by: &str| key.ends_with(&format!(" {by}"));
        for step in &mut self.reading.steps {
            if let Step::Sort { by, limit: None, .. } = step {
                if by.as_deref().is_none_or(said_short) {
                    *by = Some(key.clone());
                }
            }
        }
        self.reading.columns = vec![key];
    }

    /// Two tables and rows of one that are not in the other (「社員番号が社員一覧.csvに存在しない
    /// 申請」, "claims whose employee is not in staff.csv"): a one-sided join, though no word says
    /// "match".
    fn unmatched_without_a_join_word(&mut self, lower_text: &str) {
        let tables = self.reading.sources.iter().filter(|s| s.kind != SourceKind::Documents).count();
        let joined = self.reading.steps.iter().any(|s| matches!(s, Step::Join { .. }));
        let said = self.lexicon.unmatched.is_match(lower_text)
            && !words::DROPS_UNMATCHED.is_match(self.text)
            && !words::UNMATCHED_KEPT_TOO.is_match(self.text);
        if tables != 2 || joined || self.reading.combine || !said {
            return;
        }
        let key = match self.language {
            Language::En => words::EN_NOT_IN_KEY
                .captures(lower_text)
                .and_then(|c| c.name("k").or(c.name("k2")).map(|k| slots::singular(k.as_str().trim()))),
            Language::Ja => words::JA_NOT_IN_KEY
                .captures(self.text)
                .and_then(|c| {
                    c.name("k").or(c.name("k2")).or(c.name("k3")).or(c.name("k4")).map(|k| k.as_str().to_owned())
                })
                // (「…に載っていないもの」: も of もの is no key.)
                .filter(|k| k != "も" && !words::JA_ROW_NOUNS.contains(&k.as_str())),
        };
        // "test_cases.csv has a req_id column for the requirement each case covers": the one
        // column the text calls so is what the rows match on.
        let called = || {
            let mut called = words::CALLED_A_COLUMN.captures_iter(self.text).map(|c| c["c"].to_owned());
            match (called.next(), called.next()) {
                (Some(one), None) if self.language == Language::En => Some(one),
                _ => None,
            }
        };
        // (No key said: the data's columns settle it, or it is asked.)
        let key = key.or_else(called);
        let wanted = self.unmatched_subject();
        // The rows picked are those without a partner: a filter that says no condition was that.
        self.reading.steps.retain(|s| !matches!(s, Step::Filter { conditions, .. } if conditions.is_empty()));
        self.reading.steps.insert(
            0,
            Step::Join {
                key,
                unmatched: true,
                either_side: false,
                wanted,
                keep_all_of: None,
                bring: Vec::new(),
                side_keys: Vec::new(),
            },
        );
    }

    /// 「送付先リスト.csv から、喪中の取引先（喪中連絡.xlsx）を除いた送付先」, "everyone in staff.csv
    /// except the people listed in leavers.csv": the rows of the first table that the second
    /// lists are left out — those without a partner are kept.
    fn rows_another_file_lists_left_out(&mut self) {
        static LEFT_OUT_BY_A_FILE: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"(?i)(?P<file>[^\s、。,()（）「」]+\.(?:csv|tsv|xlsx|xlsm|xls))[^。.\n]{0,40}?(?:を|は)?(?:除いた|除いて|除く|除外した|除外して|外した|外して)|\b(?:except|excluding|without|leaving out|minus) (?:the |any |those |anyone |everyone )?[a-z ]{0,30}?(?:listed |named |found )?(?:in|on) (?P<file2>[^\s,;()]+\.(?:csv|tsv|xlsx|xlsm|xls))")
                .expect("left out by a file")
        });
        let [_, second] = self.reading.sources.as_slice() else { return };
        let Some(second) = second.path.clone() else { return };
        let said = LEFT_OUT_BY_A_FILE
            .captures_iter(self.text)
            .any(|c| c.name("file").or(c.name("file2")).is_some_and(|f| f.as_str().eq_ignore_ascii_case(&second)));
        if !said {
            return;
        }
        for step in &mut self.reading.steps {
            if let Step::Join { unmatched, either_side, keep_all_of, bring, .. } = step {
                if keep_all_of.is_none() && bring.is_empty() {
                    *unmatched = true;
                    *either_side = false;
                }
            }
        }
        // (The words that leave the rows out said no condition of their own.)
        self.reading
            .steps
            .retain(|s| !matches!(s, Step::Filter { conditions, exclude: true } if conditions.is_empty()));
    }

    /// Whether `lower` says tables are put together ([`Lexicon::append`]); 「突き合わせて」
    /// 「照らし合わせて」 match rows and put none together.
    fn says_put_together(&self, lower: &str) -> bool {
        let said = lower.replace("突き合わせ", "照合").replace("照らし合わせ", "照合");
        self.lexicon.append.is_match(&said)
    }

    /// Two or more tables and words that put them together with no key to match on: the rows
    /// are appended, and a join read from "combine" or "merge" is dropped.
    fn combine_tables(&mut self, lower_text: &str) {
        let tables = self.reading.sources.iter().filter(|s| s.kind != SourceKind::Documents).count();
        // (「売上に得意先の情報をくっつけたい…得意先名と担当営業を持ってくる」: a lookup brings
        // columns, it puts no rows together.)
        let keyed = self.reading.steps.iter().any(|s| {
            matches!(s, Step::Join { key: Some(_), .. } | Step::Join { unmatched: true, .. })
                || matches!(s, Step::Join { bring, side_keys, .. } if !bring.is_empty() || !side_keys.is_empty())
        }) || !shaping::brought_columns(self.text, self.language).is_empty();
        // 「縦に結合」, "stack": one under the other, whatever else looks like a key.
        let stacked = words::STACKED.is_match(lower_text);
        // (「更新未手配.xlsx にまとめてください」: the rows are put into the file written, no tables
        // together.)
        static INTO_THE_FILE: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"\.(?:csv|tsv|xlsx|xlsm|xls|json|md)\s*(?:に|へ)\s*まとめ").expect("into the file")
        });
        let said = INTO_THE_FILE.replace_all(lower_text, "");
        if tables < 2 || !self.says_put_together(&said) {
            return;
        }
        if let Some(looked_up) = self.table_looked_up_after_the_others() {
            // (A match read from the words that put the tables together is that putting together:
            // the lookup is the last match said.)
            let joins = self.reading.steps.iter().filter(|s| matches!(s, Step::Join { .. })).count();
            let mut seen = 0;
            self.reading.steps.retain(|s| {
                seen += usize::from(matches!(s, Step::Join { .. }));
                !matches!(s, Step::Join { .. }) || seen == joins
            });
            self.reading.combine = true;
            self.reading.looked_up = Some(looked_up);
            return;
        }
        // ("add a dealer column that says North or South depending on which file": no lookup.)
        if keyed && !stacked && !SOURCE_COLUMN_SAID.is_match(self.text) {
            return;
        }
        self.reading.steps.retain(|s| !matches!(s, Step::Join { .. }));
        self.reading.combine = true;
    }

    /// A column said to tell which of the tables put together each row came from, with what it
    /// holds for each: each value said is the one table whose file name holds it, or — when no
    /// name does — the tables in the order the values are said.
    fn column_of_the_source(&mut self) {
        if !self.reading.combine {
            return;
        }
        let Some(c) = SOURCE_COLUMN_SAID.captures(self.text) else { return };
        let column = ["ja", "en", "ja2", "en2", "en3", "ja3"]
            .iter()
            .find_map(|name| c.name(name))
            .map_or("", |m| m.as_str())
            .trim()
            .to_owned();
        // (「（「日本交通」か「東京無線」、どちらのファイルの行かで）」: the values are the quoted.)
        let quoted: Option<String> = c.name("ja_values2").map(|m| {
            m.as_str().split('「').filter_map(|q| q.split_once('」')).map(|(v, _)| v).collect::<Vec<_>>().join("/")
        });
        let values: Vec<String> = ["ja_values", "en_values", "en_values2", "en_values3", "ja_values3"]
            .iter()
            .find_map(|name| c.name(name))
            .map(|m| m.as_str().to_owned())
            .or(quoted)
            .unwrap_or_default()
            .split(['／', '/', '・', '、', ','])
            .flat_map(|v| v.split(" or ").flat_map(|v| v.split(" and ")))
            .map(|v| v.trim().trim_start_matches("or ").trim().to_owned())
            .filter(|v| !v.is_empty())
            .collect();
        let tables: Vec<&str> = self
            .reading
            .sources
            .iter()
            .filter(|s| s.kind != SourceKind::Documents && s.path != self.reading.looked_up)
            .map(|s| s.path.as_deref().unwrap_or_default())
            .collect();
        if column.is_empty() || values.len() != tables.len() {
            return;
        }
        let holds = |table: &str, value: &str| table.to_lowercase().contains(&value.to_lowercase());
        let by_name: Option<Vec<String>> = tables
            .iter()
            .map(|t| match values.iter().filter(|v| holds(t, v)).collect::<Vec<_>>().as_slice() {
                [one] => Some((*one).clone()),
                _ => None,
            })
            .collect();
        let distinct = |named: &[String]| named.iter().collect::<std::collections::HashSet<_>>().len() == named.len();
        // ("a Market column saying Riverside or Hilltop": with nothing said of the files, the values
        // must be their names.)
        let files_said = c.name("en3").is_none();
        let sources = match by_name {
            Some(named) if distinct(&named) => named,
            _ if files_said && values.iter().all(|v| !tables.iter().any(|t| holds(t, v))) => values,
            _ => return,
        };
        // (「（本社／工場）」 lists the values; it divides nothing.)
        self.reading.steps.retain(
            |s| !matches!(s, Step::Compute { of, .. } if !of.is_empty() && of.iter().all(|o| sources.contains(o))),
        );
        self.reading.source_column = Some((column, sources));
    }

    /// "Put a.csv and b.csv together, look up each account's team in accounts.csv": with a
    /// match said, the one table named in a clause that looks up or matches, apart from two or
    /// more named where the tables are put together.
    fn table_looked_up_after_the_others(&self) -> Option<String> {
        static LOOKS_UP: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"(?i)\blook(?:s|ed|ing)? (?:\S+ ){0,6}?up\b|\blookup\b|\bmatch(?:ed|ing)? (?:each|every|them|it)\b|突き合わせ|参照して|紐づけ|紐付け")
                .expect("looks up")
        });
        if !self.reading.steps.iter().any(|s| matches!(s, Step::Join { unmatched: false, .. })) {
            return None;
        }
        let tables: Vec<&str> = self
            .reading
            .sources
            .iter()
            .filter(|s| s.kind != SourceKind::Documents)
            .filter_map(|s| s.path.as_deref())
            .collect();
        let named_in = |clause: &Clause| tables.iter().filter(|t| clause.text.contains(**t)).count();
        let put_together =
            self.clauses.iter().any(|c| self.says_put_together(&c.text.to_ascii_lowercase()) && named_in(c) >= 2);
        let looked_in: Vec<&str> = self
            .clauses
            .iter()
            .filter(|c| LOOKS_UP.is_match(&c.text) && !self.says_put_together(&c.text.to_ascii_lowercase()))
            .flat_map(|c| tables.iter().filter(|t| c.text.contains(**t)).copied())
            .collect();
        match looked_in.as_slice() {
            [one] if put_together && tables.len() >= 3 => Some((*one).to_owned()),
            _ => None,
        }
    }

    /// What the rows without a match are called: "invoices" in "the invoices that have no
    /// payment", 「請求書」 in 「入金のない請求書」.
    fn unmatched_subject(&self) -> Option<String> {
        match self.language {
            Language::En => {
                let lower = self.text.to_ascii_lowercase();
                let c = words::EN_UNMATCHED_SUBJECT.captures(&lower)?;
                let subject = c.name("x").or(c.name("y")).or(c.name("z"))?.as_str();
                Some(slots::singular(subject))
            }
            Language::Ja => {
                // 「マスタに社員番号がない申請」 names the rows more surely than 「…のうち」.
                let all: Vec<regex::Captures> = words::JA_UNMATCHED_SUBJECT.captures_iter(self.text).collect();
                let noun =
                    |m: &regex::Match| m.as_str().chars().count() >= 2 && !["もの", "こと"].contains(&m.as_str());
                let named = all
                    .iter()
                    .find_map(|c| c.name("x").filter(noun))
                    .or_else(|| all.iter().find_map(|c| c.name("y")))?;
                // 「登録されていない得意先コードの受注を」: the rows are what the code is of.
                static OF_ROWS: LazyLock<regex::Regex> = LazyLock::new(|| {
                    regex::Regex::new(r"^の(?P<rows>[^、。をがはでと\s「」]{2,12}?)(?:を|が|は|だけ|のみ)")
                        .expect("of rows")
                });
                let rows = OF_ROWS.captures(&self.text[named.end()..]).and_then(|c| c.name("rows"));
                Some(rows.unwrap_or(named).as_str().to_owned())
            }
        }
    }

    /// "Keep only the suppliers whose balance is over 1M, totalled per supplier", 「残高が100万円
    /// を超える仕入先だけを残して、仕入先ごとに合計」: the rows kept are the groups a later total
    /// makes, so the condition applies to each group's total, after it. The total keeps the
    /// column's name so the condition still names it.
    fn conditions_on_groups(&self, mut steps: Vec<(usize, Step)>) -> Vec<(usize, Step)> {
        let mut i = 0;
        while i < steps.len() {
            let subject = match &steps[i].1 {
                Step::Filter { conditions, exclude: false } if conditions.iter().all(|c| c.field.is_some()) => {
                    self.kept_subject(steps[i].0)
                }
                _ => None,
            };
            let group = subject.and_then(|subject| {
                steps.iter().skip(i + 1).position(
                    |(_, s)| matches!(s, Step::Aggregate { by, .. } if by.iter().any(|b| same_noun(b, &subject))),
                )
            });
            let (Some(offset), Step::Filter { conditions, .. }) = (group, &steps[i].1) else {
                i += 1;
                continue;
            };
            let fields: Vec<String> = conditions.iter().filter_map(|c| c.field.clone()).collect();
            let j = i + 1 + offset;
            if let Step::Aggregate { aggregations, .. } = &mut steps[j].1 {
                for field in &fields {
                    match aggregations.iter_mut().find(|a| a.op == "sum" && a.field.as_ref().is_none_or(|f| f == field))
                    {
                        Some(sum) => {
                            sum.field = Some(field.clone());
                            sum.name = Some(field.clone());
                        }
                        None => aggregations.push(Aggregation {
                            op: "sum",
                            field: Some(field.clone()),
                            name: Some(field.clone()),
                            when: Vec::new(),
                        }),
                    }
                }
            }
            let filter = steps.remove(i);
            steps.insert(j, filter);
        }
        steps
    }

    /// What a filter clause at `at` keeps: "the suppliers" in "keep only the suppliers whose
    /// …", 「仕入先」 in 「…仕入先だけを残して」.
    fn kept_subject(&self, at: usize) -> Option<String> {
        let clause = self.clauses.iter().find(|c| c.start <= at && at < c.start + c.text.len().max(1))?;
        match self.language {
            Language::En => {
                let lower = clause.text.to_ascii_lowercase();
                let c = words::EN_KEPT_SUBJECT.captures(&lower)?;
                Some(slots::singular(&c["s"]))
            }
            Language::Ja => {
                let m = words::JA_KEPT_SUBJECT.find(&clause.text)?;
                let noun = slots::japanese_noun_before(&clause.text, m.start())?;
                // 「超える仕入先」: the noun is the run after the verb's kana.
                let start = noun.char_indices().rfind(|(_, c)| matches!(c, '\u{3040}'..='\u{309f}'));
                let noun = start.map_or(noun.as_str(), |(i, c)| &noun[i + c.len_utf8()..]);
                (!noun.is_empty()).then(|| noun.to_owned())
            }
        }
    }

    /// 「未入金のものだけ（一部入金・取消・入金済は対象外です）」: the values said only in an aside
    /// that leaves them out are a filter that leaves their rows out, beside the clause's own.
    fn left_out_by_an_aside(&self, step: Step, lower: &str) -> Vec<Step> {
        let aside: String = PARENTHESES.find_iter(lower).map(|m| m.as_str()).collect();
        let Step::Filter { conditions, exclude: false } = step else { return vec![step] };
        if !self.lexicon.exclude.is_match(&aside) {
            return vec![Step::Filter { conditions, exclude: false }];
        }
        let outside = PARENTHESES.replace_all(lower, "");
        // (A value said not to count is already a condition that leaves it out.)
        let only_aside = |c: &Condition| {
            c.operator == "eq"
                && c.value.as_str().map(str::to_lowercase).is_some_and(|v| aside.contains(&v) && !outside.contains(&v))
        };
        let (left_out, kept): (Vec<Condition>, Vec<Condition>) = conditions.into_iter().partition(only_aside);
        [(kept, false), (left_out, true)]
            .into_iter()
            .filter(|(conditions, _)| !conditions.is_empty())
            .map(|(conditions, exclude)| Step::Filter { conditions, exclude })
            .collect()
    }

    fn filter(&self, clause: &Clause, output_clause: bool, documents: bool) -> Option<(usize, Step)> {
        let lower = clause.text.to_ascii_lowercase();
        // 「出していただけますか」: the だけ of a polite request keeps no rows (same length).
        let request = lower.replace("ただけ", "た・け");
        // "po_lines.csv only has SKUs", "keep the rows in the same order as the file": said of
        // the file or of the order, no rows left out.
        // "; where two are equal, order them by ID": a tie, whose "where" keeps no rows.
        let no_filter_meant = words::NO_FILTER_MEANT.is_match(&request) || words::TIE_SAID.is_match(&request);
        let request = words::NO_FILTER_MEANT.replace_all(&request, |c: &regex::Captures| " ".repeat(c[0].len()));
        let request = words::TIE_SAID.replace_all(&request, |c: &regex::Captures| " ".repeat(c[0].len()));
        // ("- severity critical or high": a column, then values of it as alternatives, alone.)
        static ALTERNATIVES_ALONE: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"^\s*(?:[-*•]\s*)?[a-z_]+(?: [a-z_]+)? [a-z][\w-]* or [a-z][\w-]*\s*[.;]?\s*$")
                .expect("alternatives alone")
        });
        let trigger = self.lexicon.filter.find(&request).or_else(|| ALTERNATIVES_ALONE.find(&request));
        let counts_as = words::COUNTS_AS.find(&lower).is_some_and(|m| {
            let before = lower[..m.start()].trim_end();
            !before.ends_with("n't") && !before.ends_with("not") && !before.ends_with("never")
        });
        if trigger.is_none() && no_filter_meant || counts_as {
            return None;
        }
        let conditions = match self.language {
            Language::En => conditions::english(&clause.text),
            Language::Ja => {
                let mut read = conditions::japanese(&clause.text);
                conditions::japanese_not_yet_done(&clause.text, &mut read);
                read
            }
        };
        // ("inventory.xlsx (the stock count sheet)": an aside that describes totals nothing.)
        let aggregate_words = self.lexicon.aggregate.is_match(&PARENTHESES.replace_all(&lower, ""));
        // A clause that writes a file or totals rows names a filter only with a filter word, or
        // with a comparison ("write the rows over 50000 to large.csv").
        // (A month without its year is a range of dates: 「10月の出荷数量が多い商品トップ3を出して」.)
        let compares = conditions.iter().any(|c| {
            matches!(c.operator, "gt" | "gte" | "lt" | "lte" | "between" | conditions::OUTSIDE | MONTH_OF_UNSAID_YEAR)
        });
        // "count the failed runs per month", 「2026年10月の支払を取引先ごとに合計」: a state, a
        // column's value or dates said of the rows totalled keep them (not "the average Days
        // Open", a column's name).
        // (In a clause that also writes, only conditions that name their column or a range of
        // dates: 「受注日が…の行を得意先ごとに合計して結果.csv に出力」.)
        let states_rows = aggregate_words
            && (!output_clause
                || conditions.iter().all(|c| {
                    c.field.is_some()
                        || c.operator == "between" && is_date(&c.value)
                        || c.operator == MONTH_OF_UNSAID_YEAR
                        || c.value.as_str().is_some_and(|state| said_of_rows_in_japanese(&clause.text, state))
                        // ("Give me the total approved expenses per category …, as t.csv".)
                        || c.value.as_str().is_some_and(|state| state_of_the_rows_totalled(&lower, state))
                }))
            && !conditions.is_empty()
            && conditions.iter().all(|c| {
                is_date(&c.value)
                    // 「交通費精算.csv（7月分）を部署ごとに合計」: a month of the rows totalled.
                    || c.operator == MONTH_OF_UNSAID_YEAR
                    // 「重要度「高」の不具合をモジュールごとに数えて」: a column and its value, or
                    // its values (「ステータスが「未対応」または「対応中」の」).
                    || matches!(c.operator, "eq" | "in") && c.field.as_deref().is_some_and(|f| f.split_whitespace().count() <= 2)
                    // 「伝票ごとに借方と貸方の合計が合ってない」: two columns compared.
                    || c.value.get("column").is_some()
                    || c.field.is_none()
                        && c.operator == "eq"
                        && c.value.as_str().is_some_and(|state| said_of_rows(&clause.text, state))
                    // "how many claims per category are still pending or rejected": states said
                    // of the rows counted.
                    || c.field.is_none() && matches!(c.operator, "eq" | "in") && said_as_a_state(&lower, &c.value)
                    // 「承認済の経費を部署ごとに合計」: a state said of the rows totalled.
                    || c.field.is_none()
                        && c.operator == "eq"
                        && c.value.as_str().is_some_and(|state| said_of_rows_in_japanese(&clause.text, state))
            });
        // 「重要度が「高」の不具合を…5件出して」: a column and its value in quotes keep rows in a
        // clause that writes too.
        let quoted_states = self.language == Language::Ja
            && !conditions.is_empty()
            && conditions.iter().all(|c| {
                c.field.is_some()
                    && matches!(c.operator, "eq" | "ne" | "in")
                    && match &c.value {
                        Value::Array(values) => {
                            values.iter().filter_map(Value::as_str).all(|v| clause.text.contains(&format!("「{v}」")))
                        }
                        value => {
                            value.as_str().is_some_and(|v| !v.is_empty() && clause.text.contains(&format!("「{v}」")))
                        }
                    }
            });
        // "Give me the five biggest paid orders", 「未承認のものを一覧にして」: a state said right
        // before the rows written keeps them.
        let states_written = !conditions.is_empty()
            && conditions.iter().all(|c| {
                c.field.is_none()
                    && c.operator == "eq"
                    && c.value.as_str().is_some_and(|s| match self.language {
                        Language::En => said_of_rows(&clause.text, s),
                        Language::Ja => said_of_rows_in_japanese(&clause.text, s),
                    })
            });
        if conditions.is_empty() && trigger.is_none()
            || trigger.is_none()
                && !states_rows
                && !quoted_states
                && (output_clause && !compares && !states_written || aggregate_words)
        {
            return None;
        }
        if self.keeps_no_rows(clause, &lower, trigger, &conditions, documents) {
            return None;
        }
        // 「未入金のもの（「一部入金」は除く）」: what an aside leaves out, the conditions say.
        // An aside that is the whole clause (「（保留はNGに数えない）」) says its own.
        let outside = PARENTHESES.replace_all(&lower, "");
        let judged = match outside.trim_matches(|c: char| c.is_whitespace() || "。、.,".contains(c)).is_empty() {
            true => lower.as_str(),
            false => &outside,
        };
        // "Cancelled and Closed ones don't count": the states are left out by their conditions.
        let exclude = match self.lexicon.exclude.find(judged) {
            Some(m) if m.as_str().ends_with("count") => !conditions.iter().any(|c| c.operator == "ne"),
            Some(m) => !kept_beside_what_is_left_out(judged, m.start(), &conditions),
            None => false,
        };
        // "a team with nothing done can be left out": what is left out lacks the value, so the
        // rows kept hold it.
        let lacking = |c: &Condition| {
            c.value.as_str().filter(|v| !v.is_empty()).is_some_and(|v| {
                let v = v.to_lowercase();
                ["nothing ", "no ", "none ", "zero "].iter().any(|w| judged.contains(&format!("{w}{v}")))
            })
        };
        let exclude =
            exclude && !(self.language == Language::En && !conditions.is_empty() && conditions.iter().all(lacking));
        let at = clause.start + trigger.map_or(0, |m| m.start());
        Some((at, Step::Filter { conditions, exclude }))
    }

    /// Whether a clause with a filter word keeps no rows after all: it says which columns, which
    /// duplicates, what another clause or step says, or how little to do.
    fn keeps_no_rows(
        &self,
        clause: &Clause,
        lower: &str,
        trigger: Option<regex::Match>,
        conditions: &[Condition],
        documents: bool,
    ) -> bool {
        if conditions.is_empty() && words::KEEPS_ALL.is_match(lower) {
            return true;
        }
        // 「税率の列には 10 か 8 が入っています」: what a column holds, said of all its rows.
        if words::COLUMN_HOLDS.is_match(&clause.text) {
            return true;
        }
        // "(there are two title lines above the header row)": the sheet's layout, which its read
        // finds.
        if words::SHEET_LAYOUT_SAID.is_match(lower) && conditions.iter().all(|c| c.field.is_none()) {
            return true;
        }
        // "just compare the reference codes exactly, ignore amounts and dates": what a match
        // does not compare, no rows left out.
        // ("Ignore the runs marked Aborted", "ignore cancelled orders": rows, by what they are.)
        if conditions.is_empty()
            && trigger.is_some_and(|m| {
                matches!(m.as_str(), "ignore" | "ignoring" | "disregard") && !IGNORED_ROWS.is_match(&lower[m.end()..])
            })
        {
            return true;
        }
        // 「マスタからは取引先名だけ持ってくれば」: the columns a lookup brings, not rows.
        let brings = ["持って", "引っ張", "付けて", "付与", "転記"].iter().any(|w| clause.text.contains(w));
        if brings && conditions.iter().all(|c| c.field.is_none() && c.operator == "eq") {
            return true;
        }
        // "only 4 columns, renamed: …": which columns, not which rows.
        if conditions.is_empty() && (lower.contains("column") || clause.text.contains('列')) {
            return true;
        }
        // 「以下の条件で抽出」, "keep the rows that meet the following": the conditions come after;
        // 「該当する行をすべて抽出」: the rows another step found.
        if conditions.is_empty() && (words::POINTS_AHEAD.is_match(lower) || words::POINTS_BACK.is_match(lower)) {
            return true;
        }
        // 「縦に連結するだけで」: だけ after a verb says how little to do, not which rows.
        let only_doing = trigger.is_some_and(|m| {
            matches!(m.as_str(), "だけ" | "のみ")
                && clause.text[..m.start()].chars().next_back().is_some_and(|c| "るすくぐむぶぬつう".contains(c))
        });
        if conditions.is_empty() && only_doing {
            return true;
        }
        // 「列名は「部署」「交通費合計」にして」, "name the columns Vendor and Total": names, not values;
        // 「社員一覧のほうは「社員No」という列名になっています」: what a file calls a column.
        if words::names_columns(lower) && !conditions.iter().any(|c| c.field.is_some())
            || ["という列名", "という名前", "という見出し"].iter().any(|w| clause.text.contains(w))
        {
            return true;
        }
        // "(keep one copy of each)", "if two rows differ in any column, keep both", "rows that
        // only share some values are not duplicates": which rows are duplicates and which of
        // them stay, said to the duplicate check.
        let of_duplicates = lower.contains("duplicat")
            || clause.text.contains("重複")
            || lower.contains("more than once")
            || shaping::EN_SAME_LIST.is_match(lower);
        if conditions.is_empty() && (of_duplicates || words::KEEPS_OF_DUPLICATES.is_match(lower)) {
            return true;
        }
        // 「以下お願いします」 ("as follows"): a comparison word compares nothing without its number.
        let comparison_only = trigger.is_some_and(|m| {
            matches!(
                m.as_str(),
                "以上"
                    | "以下"
                    | "未満"
                    | "超え"
                    | "超の"
                    | "超過"
                    | "at least"
                    | "at most"
                    | "at or above"
                    | "at or below"
            )
        });
        if conditions.is_empty() && comparison_only && self.lexicon.filter.find_iter(lower).count() == 1 {
            return true;
        }
        // 「今月のものだけ抜き出し」 picks rows; "extract" names fields only from documents.
        conditions.is_empty()
            && (documents && self.lexicon.extract.is_match(lower) || self.lexicon.join.is_match(lower))
    }

    /// "columns: Host, … (Host = common_name) … same day -> host A-Z": a sort key said by a new
    /// name of a column is that column (the rows are sorted before they are renamed).
    fn sort_keys_by_their_new_names(&mut self) {
        if self.reading.renamed.len() != self.reading.columns.len() {
            return;
        }
        let renamed: Vec<(String, String)> = self
            .reading
            .renamed
            .iter()
            .zip(&self.reading.columns)
            .filter(|(new, old)| new != old)
            .map(|(new, old)| (new.clone(), old.clone()))
            .collect();
        let old_name = |key: &mut String| {
            if let Some((_, old)) = renamed.iter().find(|(new, _)| same_noun(new, key)) {
                key.clone_from(old);
            }
        };
        for step in &mut self.reading.steps {
            if let Step::Sort { by, then, .. } = step {
                by.iter_mut().for_each(old_name);
                then.iter_mut().for_each(|(key, _)| old_name(key));
            }
        }
    }

    /// Columns kept under a new name said on its own ("rename Amount to "PO Amount"", 「「金額」
    /// の列名を「税抜金額」に変更」): the list names the column as renamed, the data as it was.
    fn rename_one_by_one(&mut self) {
        let one_by_one = words::renamed_one_by_one(self.text, self.language);
        if one_by_one.is_empty() || !self.reading.renamed.is_empty() {
            return;
        }
        let mut renamed = self.reading.columns.clone();
        for (from, to) in &one_by_one {
            let listed = |name: &str| self.reading.columns.iter().position(|c| c.eq_ignore_ascii_case(name));
            match (listed(to), listed(from)) {
                (Some(i), None) => self.reading.columns[i].clone_from(from),
                (None, Some(i)) => renamed[i].clone_from(to),
                _ => continue,
            }
        }
        if renamed != self.reading.columns {
            self.reading.renamed = renamed;
        }
    }

    /// The columns to keep and where the text lists them: two or more names, none a number or
    /// a comparison (those are conditions of a filter).
    fn chosen_columns(&self) -> Option<(std::ops::Range<usize>, Vec<String>)> {
        let pattern = match self.language {
            Language::En => &*words::EN_COLUMNS,
            Language::Ja => &*words::JA_COLUMNS,
        };
        // 「列は 月（2026-07 のような年-月の形）、合計金額、件数 で」: an aside says more of a column,
        // it is not one (blanked at the same offsets, as is a rename written in one).
        let text = match self.language {
            // "assignee (call it owner)": the column, as its new name (padded to the same length
            // in bytes, so the offsets hold).
            Language::En => {
                let text = words::EN_CALL_IT
                    .replace_all(self.text, |c: &regex::Captures| {
                        let said = format!("as {}", &c["new"]);
                        format!("{said}{}", " ".repeat(c[0].len().saturating_sub(said.len())))
                    })
                    .into_owned();
                // "Give me piece_id, title and artist for just those three": the rows the list is of,
                // no column (blanked to the same length).
                static FOR_THOSE: LazyLock<regex::Regex> = LazyLock::new(|| {
                    regex::Regex::new(
                        r"(?i)\s+for\s+(?:just\s+|only\s+)?(?:those|these|them|each of them)(?:\s+(?:\d+|two|three|four|five|six|seven|eight|nine|ten))?(?:\s+(?:rows?|ones?|items?|lines?|entries|records))?\b",
                    )
                    .expect("for those")
                });
                let text = FOR_THOSE.replace_all(&text, |c: &regex::Captures| " ".repeat(c[0].len())).into_owned();
                // "Give me posting id, …, item and amount, and save it as b.csv": the list ends where
                // the saving starts (a `;` padded to the same length).
                static THEN_SAVED: LazyLock<regex::Regex> = LazyLock::new(|| {
                    regex::Regex::new(
                        r"(?i),\s*and\s+(?:then\s+)?(?:save|write|export|store|put)\s+(?:it|them|this|that|the result|the list|everything)\b",
                    )
                    .expect("then saved")
                });
                let text = THEN_SAVED
                    .replace_all(&text, |c: &regex::Captures| format!(";{}", " ".repeat(c[0].len() - 1)))
                    .into_owned();
                // "… and how many days it has been outstanding since the invoice date": one column,
                // by its name.
                let lower = text.to_ascii_lowercase();
                match shaping::days_since(&lower) {
                    Some(days) if days.name.len() <= days.said.len() && text.is_char_boundary(days.said.start) => {
                        let mut text = text;
                        let padded = format!("{}{}", days.name, " ".repeat(days.said.len() - days.name.len()));
                        text.replace_range(days.said, &padded);
                        text
                    }
                    _ => text,
                }
            }
            Language::Ja => {
                // 「精算額（申請の「金額」列をこの名前に）」: the column, as its new name.
                let renamed = words::JA_RENAMED_FROM.replace_all(self.text, |c: &regex::Captures| {
                    let old = c.name("old").or(c.name("old2")).or(c.name("old3")).map_or("", |m| m.as_str());
                    let said = format!("{old}⇒{}", &c["new"]);
                    // (Padded to the same length in bytes, so the offsets hold.)
                    match c[0].len().checked_sub(said.len()) {
                        Some(rest) => format!("{said}{}", " ".repeat(rest)),
                        None => c[0].to_owned(),
                    }
                });
                // (「→ 実働上位5.csv（社員番号・氏名・合計時間、多い順）」「上位3商品（商品コード・
                // 商品名・数量合計）」: what follows a file's name, or the rows a list shows, in
                // brackets is its columns.)
                static ROWS_SHOWN: LazyLock<regex::Regex> = LazyLock::new(|| {
                    regex::Regex::new(r"(?:上位\s*\d+\s*[\p{Han}\p{Katakana}ー]{0,6}|一覧|リスト)\s*$")
                        .expect("rows shown")
                });
                PARENTHESES
                    .replace_all(&renamed, |c: &regex::Captures| {
                        let before = &renamed[..c.get(0).map_or(0, |m| m.start())];
                        if ends_with_a_table_file(before) || ROWS_SHOWN.is_match(before) {
                            return c[0].to_owned();
                        }
                        // 「拠点（拠点名）」: the column the name said short stands for, in full.
                        let inside = c[0][1..c[0].len() - 1].trim();
                        let said_short = inside
                            .char_indices()
                            .skip(1)
                            .map(|(i, _)| &inside[..i])
                            .filter(|short| before.ends_with(short))
                            .last()
                            .filter(|_| slots::is_japanese_noun(inside));
                        match said_short {
                            Some(short) => {
                                let rest = &inside[short.len()..];
                                format!("{rest}{}", " ".repeat(c[0].len() - rest.len()))
                            }
                            None => " ".repeat(c[0].len()),
                        }
                    })
                    .into_owned()
            }
        };
        // ("Only Must and Should requirements matter. Please give req_id, title, priority in
        // x.xlsx": the first list that names columns.)
        // (Matches may overlap: one that names no columns may have taken the full stop the next
        // starts after, so each is tried from one character past the last one's start.)
        let mut at = 0;
        while let Some(captures) = pattern.captures_at(&text, at) {
            if let Some(found) = self.columns_listed(&captures) {
                return Some(found);
            }
            let start = captures.get(0).map_or(text.len(), |m| m.start());
            at = text[start..].chars().next().map_or(text.len(), |ch| start + ch.len_utf8());
        }
        // "list the unique vendors": the one column, each value once.
        match self.language {
            Language::En => shaping::distinct_listed(&text.to_ascii_lowercase()).map(|(span, key)| (span, vec![key])),
            Language::Ja => None,
        }
    }

    /// The columns one match of the chosen-columns pattern lists, where it lists them.
    fn columns_listed(&self, captures: &regex::Captures) -> Option<(std::ops::Range<usize>, Vec<String>)> {
        static POSSESSIVE: LazyLock<regex::Regex> = LazyLock::new(|| {
            regex::Regex::new(r"(?i)^(?:their|its|his|her|our|my|each|every)\s+(?P<rest>\S)").expect("possessive")
        });
        // 「列は「入金日」「取引先」「入金額」の3つに絞って」: the quoted names, in order.
        if let Some(quoted) = captures.name("list3") {
            let items: Vec<String> = slots::quoted(quoted.as_str()).into_iter().map(|(name, _)| name).collect();
            return (items.len() >= 2).then(|| (quoted.range(), items));
        }
        // 「姓 と 名 を半角スペースでつないで1列に」: two columns made one, none chosen.
        let joined_into_one = ["つな", "繋", "結合", "連結"].iter().any(|w| captures[0].contains(w));
        if captures.name("one2").is_some() && joined_into_one {
            return None;
        }
        let one = captures.name("one").or(captures.name("one2")).or(captures.name("one3"));
        // "list case_id, title and owner, sorted by …": names joined by "and" after a verb.
        let list = [
            "list", "list2", "list4", "list5", "list6", "list7", "list8", "list9", "list10", "list11", "list12",
            "list13", "list14", "list15", "list16", "list17", "list18",
        ]
        .iter()
        .find_map(|g| captures.name(g))
        .or(one)?;
        // "I only need the March orders, and only three columns: the customer, …": the list is
        // what follows the colon after its columns.
        static COLUMNS_SAID: LazyLock<regex::Regex> =
            LazyLock::new(|| regex::Regex::new(r"(?i)\b(?:columns?|fields?)\s*:\s*").expect("columns said"));
        let skip = match self.language {
            Language::En => COLUMNS_SAID.find_iter(list.as_str()).last().map_or(0, |m| m.end()),
            Language::Ja => 0,
        };
        // "Keep just Build, Test Name and Error Message": a sentence of names after its verb.
        let skip = match captures.name("list14") {
            Some(_) => LEADING_VERB.find(&list.as_str()[skip..]).map_or(skip, |m| skip + m.end()),
            None => skip,
        };
        let (list_text, list_start) = (&list.as_str()[skip..], list.start() + skip);
        // (「列はそのまま、元の順番で」: every column as it is, none chosen.)
        if ["そのまま", "元のまま", "全部", "全て", "すべて", "もとのまま"]
            .iter()
            .any(|w| list_text.trim_start().starts_with(w))
        {
            return None;
        }
        // 「…から社員番号・氏名・金額の列だけ」: the list runs from the particle to the column word.
        // 「取引先名と合計金額だけ」: two names joined by と.
        // "… and a Shortfall column (Reorder Point minus On Hand)": an aside says how, it is no item.
        let listed = match self.language {
            Language::Ja if !list_text.contains(['・', '、']) => list_text.replace('と', "、"),
            // 「経過日数（本日−有効期限）」: the aside says how, it is no item.
            Language::Ja if captures.name("list16").is_some() => PARENTHESES.replace_all(list_text, "").into_owned(),
            Language::Ja => list_text.to_owned(),
            // "Vendor (from vendor_name)": the column, as its new name.
            Language::En => {
                // "customer, invoice (taken from Customer and Invoice No)": each from the old name
                // in its place.
                let said = renamed_in_order(list_text).unwrap_or_else(|| list_text.to_owned());
                // "who owns it (the assignee)": the column the aside names, for the words that say
                // what it holds.
                static SAID_OF_A_COLUMN: LazyLock<regex::Regex> = LazyLock::new(|| {
                    regex::Regex::new(r"(?i)\b(?:who|what|which|how|where|when)\b[^,()]{0,40}\((?:the\s+)?(?P<column>[a-z_][\w ]{0,30})\)")
                        .expect("said of a column")
                });
                static FORMULA_WORD: LazyLock<regex::Regex> = LazyLock::new(|| {
                    regex::Regex::new(r"(?i)\b(?:minus|plus|times|divided|less|over)\b").expect("formula word")
                });
                // ("how many to order (par level minus qty)": a formula in the aside names no column.)
                let said = SAID_OF_A_COLUMN
                    .replace_all(&said, |c: &regex::Captures| {
                        if FORMULA_WORD.is_match(&c["column"]) {
                            c[0].to_owned()
                        } else {
                            c["column"].to_owned()
                        }
                    })
                    .into_owned();
                // (Only a name said to be the old one: "from x", `x_y`, or the same word; not
                // "Description (optional)".)
                let renamed = words::RENAMED_FROM.replace_all(&said, |c: &regex::Captures| {
                    let new = c["new"].trim_start_matches("and ").trim_start_matches("or ");
                    let old = &c["old"];
                    if c.name("from").is_none() && !old.contains('_') && !old.eq_ignore_ascii_case(new) {
                        return c[0].to_owned();
                    }
                    let joined = if new.len() < c["new"].len() { "and " } else { "" };
                    format!("{joined}{old} as {new}")
                });
                PARENTHESES.replace_all(&renamed, "").into_owned()
            }
        };
        let items: Vec<String> = slots::list_items(&listed)
            .into_iter()
            .map(|item| {
                // "columns module, failed_runs -> weekly_failures.csv": the arrow ends the list.
                let item = item.split('→').next().unwrap_or(&item).split("->").next().unwrap_or(&item);
                // "one row per vendor with the vendor name": the column is what the row is with.
                let item = item.rsplit_once(" with ").map_or(item, |(_, after)| after.trim_start_matches("the "));
                // "… and priority of the uncovered ones": the rows the columns are of end the list.
                let item = [" of the ", " of those ", " for the ", " of all the "]
                    .iter()
                    .find_map(|of| {
                        let (column, rows) = item.split_once(of)?;
                        let noun = rows.rsplit(' ').next().unwrap_or(rows);
                        (noun == "ones" || slots::is_row_noun(&slots::singular(noun))).then_some(column)
                    })
                    .unwrap_or(item);
                let item = item.rsplit_once("から").map_or(item, |(_, after)| after);
                // 「支給額の3つ」: the count of the list is not part of its last item.
                let item = words::JA_LIST_COUNT.find(item).map_or(item, |m| &item[..m.start()]);
                // (「項目」 alone is a column of that name.)
                // (「テスト項目」 is a column's name: 項目 alone ends none.)
                let item = ["の列", "の項目", "のカラム", "列", "カラム"]
                    .iter()
                    .fold(item, |i, s| i.strip_suffix(s).filter(|rest| !rest.is_empty()).unwrap_or(i));
                // "… and a Shortfall column (Reorder Point minus On Hand)": a column added, named.
                let added = item.strip_prefix("a ").or_else(|| item.strip_prefix("an "));
                let item = added.and_then(|n| n.strip_suffix(" column")).unwrap_or(item);
                // "the Date, Rep and Amount columns": the word for the list ends its last item.
                let item = [" columns", " fields"].iter().find_map(|w| item.strip_suffix(w)).unwrap_or(item);
                // A bullet of the next line ("debit as Amount\n- save as …") ends the item.
                item.trim_end_matches('の')
                    .trim()
                    .trim_end_matches(['-', '*', '•'])
                    .trim()
                    // 「「部門」と「合計金額」の2列」: the names, without their brackets.
                    .trim_matches(['「', '」'])
                    .to_owned()
            })
            // ("the title, the publisher and the annual cost, nothing else": the list is whole.)
            .filter(|item| !item.is_empty() && !NOTHING_ELSE.contains(&item.to_ascii_lowercase().as_str()))
            // "age in days since it was reported": the column of days it names. ("each driver and
            // their total cost": the words that say whose name no column.)
            .map(|item| match self.language {
                Language::En => {
                    let item = POSSESSIVE.replace(&item, "$rest").into_owned();
                    shaping::days_since(&item.to_ascii_lowercase()).map_or(item, |days| days.name)
                }
                Language::Ja => item,
            })
            .collect();
        static QUESTION_NAME: LazyLock<regex::Regex> =
            LazyLock::new(|| regex::Regex::new(r"^how (?:many|much|long) ").expect("question name"));
        let plain = |item: &String| {
            // "posting_date as Date": the column, and its new name.
            let column = new_name(item).map(|(column, _)| column);
            let item = column.as_deref().unwrap_or(item);
            let lower = item.to_ascii_lowercase();
            // 「…を抜き出して、資産番号・…」: a verb before the list is not a column.
            let verb = ["て", "して", "した", "し"].iter().any(|e| item.ends_with(e));
            !verb
                && (!item.chars().any(|c| c.is_ascii_digit() || c == '.') || slots::per_unit_name(item))
                && !lower.starts_with("to ")
                // (A Japanese noun with a filter's word in it, 「超過日数」, is a column's name.)
                && (self.language == Language::Ja || !self.lexicon.filter.is_match(&lower))
                // ("how many to order": a column named by what it answers.)
                && (item.split_whitespace().count() <= 3 || QUESTION_NAME.is_match(&lower) && item.split_whitespace().count() <= 4)
                && (self.language == Language::En || slots::is_japanese_noun(item))
        };
        // "the total amount, biggest total first": an order after the list ends it.
        let mut items = items;
        if let Some(order) = items.iter().position(|item| words::ORDER_AFTER_LIST.is_match(&item.to_ascii_lowercase()))
        {
            items.truncate(order);
        }
        // 「…行だけにして、取引日・摘要・出金額の3列」: the 、 ended a clause before the list (「回転率の
        // 低い順に、品目コード・…の列で」 an order).
        let before_the_list = |item: &String| !plain(item) || ["順に", "順で"].iter().any(|o| item.ends_with(o));
        while items.len() > 2 && before_the_list(&items[0]) {
            items.remove(0);
        }
        // "Output order_id, customer, total to tx.csv" names columns; "give me the bank rows with
        // no match, all their columns, in x.csv" and "two columns, severity and …" say of them,
        // as a sentence of names alone may ("same employee, same date, same amount").
        let says_of_columns = |item: &String| {
            let lower = item.to_ascii_lowercase();
            !QUESTION_NAME.is_match(&lower)
                && (lower.split_whitespace().any(|w| {
                    matches!(
                        w,
                        "the"
                        | "all"
                        | "their"
                        | "its"
                        | "with"
                        | "columns"
                        | "column"
                        | "rows"
                        | "row"
                        | "lines"
                        | "fields"
                        // "same employee, same date, same amount": what duplicates share.
                        | "same"
                        | "save"
                        | "write"
                        | "it"
                        | "them"
                        // "Acme, Globex and Initech are late": a sentence, not names.
                        | "is"
                        | "are"
                        | "was"
                        | "were"
                    ) || crate::reading::number(w).is_some()
                })
                // "…, in month order, and save it as x.csv": what is done, no column ("order
                // number" is one).
                || lower.split_whitespace().last() == Some("order"))
        };
        let after_a_verb =
            ["list4", "list5", "list8", "list9", "list13", "list14"].iter().any(|g| captures.name(g).is_some());
        if after_a_verb && items.iter().any(says_of_columns) {
            return None;
        }
        let named = items.len() >= 2 || one.is_some() && items.len() == 1;
        // The list starts at its first column (the clause before it is not part of it).
        let start = items.first().and_then(|first| list_text.find(first.as_str())).map_or(0, |at| at);
        (named && items.iter().all(plain)).then(|| (list_start + start..list.end(), items))
    }

    /// The language a translation goes into ("into Japanese", 「日本語に」).
    fn target_language(&self, clause: &Clause) -> Option<String> {
        const LANGUAGES: &[(&str, &str)] = &[
            ("japanese", "Japanese"),
            ("english", "English"),
            ("chinese", "Chinese"),
            ("korean", "Korean"),
            ("german", "German"),
            ("french", "French"),
            ("spanish", "Spanish"),
            ("日本語", "日本語"),
            ("英語", "英語"),
            ("中国語", "中国語"),
            ("韓国語", "韓国語"),
        ];
        let lower = clause.text.to_ascii_lowercase();
        let after = self.lexicon.translate.find(&lower).map_or(0, |m| m.start());
        // The language after the verb ("translate … into Japanese") or, in Japanese, before it.
        let (before, rest) = lower.split_at(after);
        let spoken = |text: &str| {
            LANGUAGES.iter().filter_map(|(w, name)| text.rfind(w).map(|i| (i, *name))).max_by_key(|(i, _)| *i)
        };
        match self.language {
            Language::En => {
                LANGUAGES.iter().filter_map(|(w, name)| rest.find(w).map(|i| (i, *name))).min_by_key(|(i, _)| *i)
            }
            Language::Ja => spoken(before),
        }
        .map(|(_, name)| name.to_owned())
    }

    fn aggregate(&self, clause: &Clause) -> Option<(usize, Step)> {
        let (by, aggregations, at) = match self.language {
            Language::En => conditions::english_aggregate(&clause.text, &self.text[..clause.start])?,
            Language::Ja => conditions::japanese_aggregate(&clause.text)?,
        };
        Some((clause.start + at, Step::Aggregate { by, aggregations }))
    }

    fn join_key(&self, clause: &Clause) -> Option<String> {
        match self.language {
            Language::En => {
                let lower = clause.text.to_ascii_lowercase();
                // ("into one list sorted by id": the order's key, not the match's.)
                let ordered = |at: usize| {
                    let previous = lower[..at].split_whitespace().next_back().unwrap_or_default();
                    [
                        "sort", "sorted", "order", "ordered", "rank", "ranked", "arranged", "grouped", "totalled",
                        "totaled",
                    ]
                    .contains(&previous)
                };
                // ("the ones with no W-9 on file (match on vendor id)": the key said with the match.)
                let said = words::EN_MATCH_KEY
                    .find(&lower)
                    .or_else(|| {
                        words::EN_JOIN_KEY
                            .find_iter(&lower)
                            .find(|m| !ordered(m.start()) && !words::ON_NO_KEY.is_match(&lower[m.end()..]))
                    })
                    .and_then(|m| slots::english_phrase_after(&clause.text, m.end()))
                    // ("overdue on 2026-11-20": a day, no key.)
                    .filter(|key| !key.starts_with(|c: char| c.is_ascii_digit()));
                // "(there's a reference column in both)": the column both tables have; "if its
                // case_id shows up in executions.csv": the column looked for in the other.
                said.or_else(|| {
                    let c = words::EN_KEY_IN_BOTH
                        .captures(self.text)
                        .or_else(|| words::EN_KEY_APPEARS_IN.captures(self.text))?;
                    shaping::en_column(&c["key"].to_ascii_lowercase())
                })
            }
            Language::Ja => {
                // 「入金明細に同じ請求番号の入金がないもの」: the key said as what is the same.
                if let Some(c) = words::JA_NOT_IN_KEY.captures(&clause.text) {
                    if let Some(k) = c.name("k3").or(c.name("k4")) {
                        return Some(k.as_str().to_owned());
                    }
                }
                // (「入金消込です」: a です is no particle of a key.)
                // 「照合は請求番号だけで」: the key, said to be the only one.
                // (「配送業者.csv から配送業者コードで引く」: the key after the table's から.)
                let keys = words::JA_JOIN_KEY
                    .find_iter(&clause.text)
                    .filter(|m| !(m.as_str() == "で" && clause.text[m.end()..].starts_with('す')))
                    .filter_map(|m| {
                        let key = slots::japanese_noun_before(&clause.text, m.start())?;
                        let key = key.rsplit("から").next().unwrap_or(&key);
                        let key = key.trim_end_matches("だけ").trim_end_matches("のみ").to_owned();
                        let matches_here =
                            self.lexicon.join.find(&clause.text[m.start()..]).is_some_and(|j| j.start() <= m.len());
                        Some((key, matches_here))
                    })
                    .collect::<Vec<_>>();
                // (「保有のものだけで、…取引先コードで引いて」: the key is the one the match verb follows.)
                let first = keys.first().map(|(key, _)| key.clone());
                keys.into_iter().find(|(key, here)| *here && !key.is_empty()).map(|(key, _)| key).or(first)
            }
        }
    }

    fn categories(&self, clause: &Clause) -> Vec<String> {
        match self.language {
            Language::En => words::EN_CATEGORIES
                .captures(&clause.text)
                .and_then(|c| c.get(1))
                .map(|m| {
                    let list = m.as_str();
                    let end = ["based on", "depending on", "according to", "using", " from ", " by "]
                        .iter()
                        .filter_map(|w| list.find(w))
                        .min()
                        .unwrap_or(list.len());
                    slots::list_items(&list[..end])
                })
                .filter(|items| items.len() > 1)
                .unwrap_or_default(),
            Language::Ja => words::JA_CATEGORIES
                .captures(&clause.text)
                .and_then(|c| c.get(1))
                .map(|m| slots::list_items(m.as_str()))
                .filter(|items| items.len() > 1)
                .unwrap_or_default(),
        }
    }

    fn extracted_fields(&self, clause: &Clause, verb: usize) -> Vec<String> {
        let text = &clause.text;
        let span = match self.language {
            Language::En => {
                // Lists run over clause breaks ("vendor_name, invoice_date and total out of …").
                let after = &self.text[clause.start + verb..];
                let start = after.find(' ').map_or(after.len(), |i| i + 1);
                let lower = after.to_ascii_lowercase();
                let end = [" from ", " out of ", " in each ", " in the ", " of each ", " of every ", ".", ";"]
                    .iter()
                    .filter_map(|w| lower.find(w))
                    .min()
                    .unwrap_or(after.len());
                if start < end {
                    &after[start..end]
                } else {
                    ""
                }
            }
            Language::Ja => {
                let before = &text[..verb];
                let before = before.trim_end_matches(['を', ' ']);
                let start = before.rfind("から").map_or(0, |i| i + "から".len());
                &before[start..]
            }
        };
        // "the important fields", 「必要な項目」 name no field: the answer format is asked for.
        let vague = |f: &str| {
            let lower = f.to_ascii_lowercase();
            ["field", "detail", "information", "info", "data", "value", "項目", "情報", "内容", "データ"]
                .iter()
                .any(|w| lower.contains(w))
        };
        slots::list_items(span)
            .into_iter()
            .filter(|f| !self.lexicon.documents.is_match(&f.to_ascii_lowercase()) && !vague(f))
            .collect()
    }

    fn asked_fields(&self, clause: &Clause) -> Vec<String> {
        match self.language {
            Language::En => {
                let lower = clause.text.to_ascii_lowercase();
                lower
                    .find(" for ")
                    .or_else(|| lower.find(" enter ").map(|i| i + 3))
                    .map(|i| slots::list_items(&clause.text[i + 5..]))
                    .unwrap_or_default()
            }
            Language::Ja => words::JA_ASK_FIELD
                .find(&clause.text)
                .and_then(|m| slots::japanese_noun_before(&clause.text, m.start()))
                .map(|noun| slots::list_items(&noun))
                .unwrap_or_default(),
        }
        .into_iter()
        .map(|f| f.trim_end_matches(['.', '。']).to_owned())
        .filter(|f| !f.is_empty())
        .collect()
    }

    fn api_step(&self, clause: &Clause, previous: Option<&Clause>) -> Step {
        let lower = clause.text.to_ascii_lowercase();
        let url = slots::urls(&clause.text).into_iter().next().map(|(u, _)| u);
        let method = if self.lexicon.send.is_match(&lower) { "POST" } else { "GET" };
        let until = self.lexicon.poll.is_match(&lower).then(|| conditions::until(&clause.text, self.language));
        // "For each supplier in suppliers.xlsx, check … with the API": the clause before says it.
        let per_item = until.is_none()
            && (self.lexicon.per_item.is_match(&lower)
                || previous.is_some_and(|p| self.lexicon.per_item.is_match(&p.text.to_ascii_lowercase())));
        Step::Api { url, method, per_item, until }
    }

    fn browser_step(&self, clauses: &[&Clause]) -> Step {
        let start_url = clauses.iter().find_map(|c| slots::urls(&c.text).into_iter().next()).map(|(u, _)| u);
        let steps: Vec<&str> = clauses.iter().map(|c| c.text.as_str()).collect();
        let all = steps.join(" ").to_ascii_lowercase();
        // Opening a page to read its table or to keep a picture of it needs no objectives; going
        // somewhere within the site ("go to Open Orders") does.
        let moves_within = all.match_indices("go to ").any(|(i, m)| {
            let place = all[i + m.len()..].trim_start_matches("the ");
            !place.starts_with("http") && !place.starts_with("www.")
        });
        let simple = !self.lexicon.interact.is_match(&all) && !moves_within;
        let table_only = simple && self.lexicon.table.is_match(&all);
        let screenshot = simple
            .then(|| {
                let named = slots::file_names(&all).into_iter().find(|f| f.extension == "png").map(|f| f.name);
                named.or_else(|| self.lexicon.screenshot.is_match(&all).then(|| "screenshot.png".to_owned()))
            })
            .flatten();
        Step::Browser { start_url, steps: steps.join("\n"), table_only, screenshot }
    }

    /// Files named for reading become sources, files named for writing outputs; then the kinds
    /// of data and results the text names without a file.
    fn sources_and_outputs(&mut self, documents: bool) {
        let files = slots::file_names(self.text);
        let mut outputs = Vec::new();
        let mut sources = Vec::new();
        // "… Round to whole yen. avg.csv", "… the paid orders in orders.csv (top.csv)": a name
        // left on its own at the end, after other files, is the one asked for when nothing else
        // is written; the file the rows are given "in" before it is read.
        let alone_last = files.last().filter(|last| {
            // (A name read apart from its text may end inside a character: then it is not alone.)
            let on_its_own =
                self.text.get(..last.at).is_some_and(|t| t.trim_end().ends_with(['.', '(', '。', '!', '?']));
            let at_the_end = self
                .text
                .get(last.at + last.name.len()..)
                .is_some_and(|t| t.trim_matches(|c: char| c.is_whitespace() || ".。)!".contains(c)).is_empty());
            files.len() >= 2 && on_its_own && at_the_end
        });
        for (i, file) in files.iter().enumerate() {
            let index = self.clauses.iter().position(|c| c.start <= file.at && file.at < c.start + c.text.len().max(1));
            let Some(index) = index else { continue };
            let clause = &self.clauses[index];
            let offset = file.at - clause.start;
            if file.extension == "png" {
                continue;
            }
            let last_of_several = i > 0 && i + 1 == files.len();
            let previous = index.checked_sub(1).map(|p| &self.clauses[p]);
            let given_in = alone_last.is_some_and(|last| last.at != file.at)
                && self.text.get(..file.at).is_some_and(|t| t.trim_end().to_ascii_lowercase().ends_with(" in"));
            if !given_in && self.is_output(clause, offset, file.name.len(), last_of_several, files.len() == 1)
                || self.names_previous_output(clause, &file.name, previous)
            {
                if let Some(format) = OutputFormat::of_extension(&file.extension) {
                    // The rows written are said before the file ("the rest to x.csv", 「それ以外を
                    // x.csv に」), not in a note after it (「（出金側の返金は対象外です）」).
                    let before = clause.text[..offset].to_ascii_lowercase();
                    let said = self.lexicon.rest.find(&before).map(|m| m.as_str());
                    // (「取消の伝票を除いて、残りを 有効.csv に」, "leave out cancelled ones and write
                    // the rest to valid.csv": what is left once rows are left out is the rows kept,
                    // when it is the one file written.)
                    let left_once_removed = said.is_some_and(|w| ["残り", "the rest", "remaining"].contains(&w))
                        && outputs.is_empty()
                        && self.lexicon.exclude.is_match(&self.text[..file.at].to_ascii_lowercase());
                    let rest = said.is_some() && !left_once_removed;
                    outputs.push(Output { format, path: Some(file.name.clone()), rest });
                }
                continue;
            }
            let kind = match file.extension.as_str() {
                "csv" | "tsv" | "txt" if !documents || file.extension != "txt" => SourceKind::Csv,
                "xlsx" | "xlsm" | "xls" => SourceKind::Excel,
                "pdf" | "docx" | "md" | "txt" => SourceKind::Documents,
                _ => continue,
            };
            // A file said again ("… shows up in executions.csv") is the same table, read once.
            if let Some(said) = sources.iter_mut().find(|s: &&mut Source| s.path.as_deref() == Some(file.name.as_str()))
            {
                said.sheet = said.sheet.take().or_else(|| self.sheet(clause));
                continue;
            }
            sources.push(Source {
                kind,
                path: Some(file.name.clone()),
                label: None,
                encoding: self.encoding(clause),
                sheet: self.sheet(clause),
            });
        }
        for clause in self.clauses {
            let lower = clause.text.to_ascii_lowercase();
            // 「2つのファイルを1つにまとめて」: tables put together, no report written.
            let combines = [
                "1つにまとめ",
                "ひとつにまとめ",
                "一つにまとめ",
                "縦にまとめ",
                "1本にまとめ",
                "一本にまとめ",
                "つのファイルにまとめ",
                "1ファイルにまとめ",
            ]
            .iter()
            .any(|w| lower.contains(w))
                && !lower.contains("レポート")
                && !lower.contains("報告");
            // (「結果を 結果.xlsx にまとめました」 tells what was done; 「出力日時」 is a column.)
            let asks_to_write = match self.language {
                Language::En => self.lexicon.output.is_match(&lower),
                Language::Ja => self.lexicon.output.find_iter(&lower).any(|m| {
                    let after = &lower[m.end()..];
                    !DONE_ALREADY.is_match(after) && !after.starts_with('日')
                }),
            };
            let writes = !combines && (asks_to_write || self.lexicon.output_phrase.is_match(&lower));
            if writes && !outputs.iter().any(|o| self.in_clause(o, clause)) {
                // 「x.xlsx の「4月」シートから…合計してCSVで保存」: a file named before the words that
                // write is read (its extension says no format); one named after them is written.
                let said = self.lexicon.output.find(&lower).or_else(|| self.lexicon.output_phrase.find(&lower));
                let said_at = clause.start + said.map_or(0, |m| m.start());
                let read_end = files
                    .iter()
                    .filter(|f| clause.start <= f.at && f.at < said_at)
                    .map(|f| f.at + f.name.len() - clause.start)
                    .max()
                    .unwrap_or(0);
                let lower = lower.get(read_end..).unwrap_or(&lower);
                let format = if self.lexicon.excel_word.is_match(lower) {
                    Some(OutputFormat::Excel)
                } else if lower.contains("csv") {
                    Some(OutputFormat::Csv)
                } else if lower.contains("json") {
                    Some(OutputFormat::Json)
                // (「取得月ごとにまとめて」 groups the rows; it asks for no report.)
                } else if self.lexicon.report_word.is_match(&GROUPED_TOGETHER.replace_all(lower, "")) {
                    Some(OutputFormat::Markdown)
                } else {
                    None
                };
                if let Some(format) = format {
                    if !files.iter().any(|f| said_at <= f.at && f.at < clause.start + clause.text.len()) {
                        outputs.push(Output { format, path: None, rest: self.lexicon.rest.is_match(lower) });
                    }
                }
            }
        }
        if let Some(last) = alone_last.filter(|_| outputs.is_empty()) {
            let read_last = sources.last().is_some_and(|s| s.path.as_deref() == Some(last.name.as_str()));
            if let (true, Some(format)) = (read_last, OutputFormat::of_extension(&last.extension)) {
                let path = sources.pop().and_then(|s| s.path);
                outputs.push(Output { format, path, rest: false });
            }
        }
        // 「未受講者.csv：研修対象者.csv の社員のうち、受講記録.csv に…」, "velocity.xlsx - for the
        // review deck. From stories.csv, …": with nothing else written, a file that opens the text
        // as its heading, before the files read (two, or one said to be read from), is the one the
        // text asks for.
        let read_from = |file: &slots::FileName| {
            let before = self.text[..file.at].trim_end().to_ascii_lowercase();
            ["from", "using", "read"].iter().any(|w| before.ends_with(&format!(" {w}")) || before == *w)
        };
        if outputs.is_empty() && (sources.len() > 2 || sources.len() == 2 && files.get(1).is_some_and(read_from)) {
            let heading = files.first().filter(|f| {
                let after = self.text[f.at + f.name.len()..].trim_start();
                self.text[..f.at].trim().is_empty()
                    && if sources.len() > 2 {
                        after.starts_with([':', '：'])
                    } else {
                        ["- ", "– ", "— "].iter().any(|d| after.starts_with(d))
                    }
            });
            if let Some(format) = heading.and_then(|f| OutputFormat::of_extension(&f.extension)) {
                let path = sources.remove(0).path;
                outputs.push(Output { format, path, rest: false });
            }
        }
        // "@finops need cloud_spend_by_team.xlsx for the Q4 review. Put a.csv and b.csv
        // together, …": with nothing else written, the one file asked for among those read.
        if outputs.is_empty() && sources.len() >= 2 && self.language == Language::En {
            let wanted: Vec<&slots::FileName> = files
                .iter()
                .filter(|f| {
                    let before = self.text[..f.at].trim_end().to_ascii_lowercase();
                    let after = self.text[f.at + f.name.len()..].trim_start().to_ascii_lowercase();
                    // (Asked for by a purpose or a deadline after it: "… for the Q4 review".)
                    let asked_for = ["for ", "by ", "before ", "please", "asap"].iter().any(|w| after.starts_with(w));
                    asked_for
                        && ["need", "want", "would like", "i'd like", "need a", "want a", "need the", "want the"]
                            .iter()
                            .any(|w| before.ends_with(&format!(" {w}")) || before == *w)
                })
                .collect();
            if let [file] = wanted.as_slice() {
                let path = Some(file.name.clone());
                if let (Some(format), Some(at)) =
                    (OutputFormat::of_extension(&file.extension), sources.iter().position(|s| s.path == path))
                {
                    sources.remove(at);
                    outputs.push(Output { format, path, rest: false });
                }
            }
        }
        if sources.is_empty() {
            sources.extend(self.unnamed_sources(documents));
        }
        self.reading.sources = sources;
        self.reading.outputs = outputs;
    }

    fn in_clause(&self, output: &Output, clause: &Clause) -> bool {
        output.path.as_ref().is_some_and(|p| clause.text.contains(p.as_str()))
    }

    /// Data the text names by kind only ("the bank statement CSV", 「取引先マスタ」).
    fn unnamed_sources(&self, documents: bool) -> Vec<Source> {
        let reading_clauses: Vec<&Clause> = self
            .clauses
            .iter()
            .filter(|c| {
                !self.lexicon.output.is_match(&c.text.to_ascii_lowercase())
                    || self.lexicon.read.is_match(&c.text.to_ascii_lowercase())
            })
            .collect();
        let joined: String = reading_clauses.iter().map(|c| c.text.to_ascii_lowercase()).collect::<Vec<_>>().join(" ");
        let kind = if documents {
            SourceKind::Documents
        } else if self.lexicon.excel_word.is_match(&joined) {
            SourceKind::Excel
        } else {
            SourceKind::Csv
        };
        let wants_rows = self.reading.steps.iter().any(|s| {
            matches!(
                s,
                Step::Filter { .. }
                    | Step::Aggregate { .. }
                    | Step::Join { .. }
                    | Step::Classify { .. }
                    | Step::Duplicates { .. }
                    | Step::Sort { .. }
                    | Step::Compute { .. }
                    | Step::Formula { .. }
                    | Step::Label { .. }
            ) || matches!(s, Step::Api { per_item: true, .. })
        });
        let reads = self.lexicon.read.is_match(&joined) || self.lexicon.csv_word.is_match(&joined);
        let from_browser_or_api =
            self.reading.steps.first().is_some_and(|s| matches!(s, Step::Browser { .. } | Step::Api { .. }));
        if from_browser_or_api && !matches!(self.reading.steps.first(), Some(Step::Api { per_item: true, .. })) {
            return Vec::new();
        }
        if !(wants_rows
            || reads
            || documents && self.reading.steps.iter().any(|s| matches!(s, Step::Extract { .. } | Step::Summarise)))
        {
            return Vec::new();
        }
        let joins = self.reading.steps.iter().any(|s| matches!(s, Step::Join { .. }));
        let labels = if joins { self.join_sides() } else { Vec::new() };
        let count = if joins { 2 } else { 1 };
        (0..count)
            .map(|i| Source {
                kind: if joins && kind == SourceKind::Documents { SourceKind::Csv } else { kind },
                path: None,
                label: labels.get(i).cloned(),
                encoding: self.clauses.iter().find_map(|c| self.encoding(c)),
                sheet: None,
            })
            .collect()
    }

    /// What the text calls the two sides of a match ("invoices" and "payments").
    fn join_sides(&self) -> Vec<String> {
        let pattern = match self.language {
            Language::En => &*words::EN_JOIN_SIDES,
            Language::Ja => &*words::JA_JOIN_SIDES,
        };
        self.clauses
            .iter()
            .find_map(|c| pattern.captures(&c.text))
            .map(|c| {
                [c.name("a"), c.name("b")]
                    .into_iter()
                    .flatten()
                    .map(|m| m.as_str().trim().trim_start_matches("the ").to_owned())
                    .filter(|s| !s.is_empty() && !s.ends_with('ご') && !s.ends_with('こ'))
                    .collect()
            })
            .unwrap_or_default()
    }

    /// A clause that only names a file ("…, ar_summary.csv", 「ファイル名は x.csv で」) after a
    /// clause that writes without naming one: the file is that output.
    fn names_previous_output(&self, clause: &Clause, file: &str, previous: Option<&Clause>) -> bool {
        let rest = clause.text.replace(file, "");
        let rest = rest.trim_matches(|c: char| !c.is_alphanumeric());
        // (「a.csv の補充日から月を出して」: a short clause, but one that does something to the file.)
        let does_something = ["を", "から"].iter().any(|w| rest.contains(w));
        let only_names = rest.split_whitespace().count() <= 2 && rest.chars().count() <= 12 && !does_something;
        let writes = |c: &Clause| {
            let lower = c.text.to_ascii_lowercase();
            (self.lexicon.output.is_match(&lower) || self.lexicon.output_phrase.is_match(&lower))
                && slots::file_names(&c.text).is_empty()
        };
        only_names && previous.is_some_and(writes)
    }

    /// Whether the file at `offset` in `clause` is written. English: the clause starts with a
    /// writing word, or the file follows `to`/`into`/`as` after one, or it is the last of
    /// several files and follows `in`/`into`/`to` ("… the lines with no match in unmatched.csv").
    /// Japanese: a writing word follows the file, after its particle (`集計結果.xlsxに保存`,
    /// `結果.csv として出力`, `x.xlsx にしてください`), or the file is named as the output
    /// (`出力は x.csv で`).
    fn is_output(&self, clause: &Clause, offset: usize, len: usize, last_of_several: bool, only_file: bool) -> bool {
        let lower = clause.text.to_ascii_lowercase();
        // A name read apart from its text (dots trimmed) may end inside a character: nothing
        // after it is read then, rather than a panic.
        let before = lower.get(..offset).unwrap_or_default();
        let after = lower.get((offset + len).min(lower.len())..).unwrap_or_default();
        match self.language {
            Language::En => {
                let before = before.trim_end();
                // ("Give me the count per category in expenses.csv -> c.csv": the rows are in the
                // file right before the arrow, which writes the other.)
                let rest_of_text = self.text.get(clause.start + offset + len..).unwrap_or_default();
                if before.ends_with(" in") && rest_of_text.trim_start().to_ascii_lowercase().starts_with(". save as ") {
                    return false;
                }
                // "Give me the top 5 from invoices.csv as top.csv": a file read from is read.
                // "the rows of bank_statement.csv", "the reference column of ledger.csv": read.
                if [" from", " out of", " of"].iter().any(|w| before.ends_with(w)) || before == "from" {
                    return false;
                }
                // "Some test cases got pasted into test_cases.xlsx twice": how the data came to be
                // in the file it is read from.
                if words::CAME_INTO.is_match(before) {
                    return false;
                }
                // "Match each line of bank.csv to ledger.csv": the other side of a match is read.
                let first_file = slots::file_names(before).first().map(|f| f.at);
                let matched_to = first_file.is_some_and(|at| words::MATCH_VERB.is_match(&before[..at]))
                    && [" to", " with", " against"].iter().any(|p| before.ends_with(p));
                if matched_to {
                    return false;
                }
                let first_words: Vec<&str> = before.split_whitespace().take(3).collect();
                let opens_with_write = first_words
                    .iter()
                    .take_while(|w| {
                        matches!(**w, "then" | "and" | "please" | "finally" | "also") || self.lexicon.output.is_match(w)
                    })
                    .any(|w| self.lexicon.output.is_match(w));
                let lists = before.starts_with("list ") || before.contains(" list ");
                // "List every purchase in purchases.csv …, save it as march.csv": a file after
                // "list … in" with another file after it is read, not written.
                // "Add a Month column to sales.csv, … save it as b.csv": the file a column is
                // added to is read.
                // ("pull the 3 highest bids from a.csv into b.csv", "copy the rows from …": rows
                // moved into the file written, no column.)
                static ROWS_MOVED: LazyLock<regex::Regex> = LazyLock::new(|| {
                    regex::Regex::new(r"\b(?:copy|pull|bring|carry|move|put)\s+(?:[a-z]+\s+){0,3}?(?:\d+|top|all|every|everything|rows?|lines?|records?|entries|ones)\b[^.;]*\bfrom\b")
                        .expect("rows moved")
                });
                let adds_column_to = !only_file
                    && !opens_with_write
                    && words::ADDS_COLUMN_TO.is_match(before)
                    && !ROWS_MOVED.is_match(before)
                    && [" to", " into"].iter().any(|p| before.ends_with(p));
                // "The payment export in x.csv came out with …": an output word that is a noun.
                // ("Make me over.csv: the customers in credit.csv": a verb before another file is
                // that file's, unless "as" names what it writes: "Give me the rows of a.csv … as
                // b.csv".)
                // (A file named in an aside, "(all their columns from new_hires.csv)", is no file
                // the verb before it is of.)
                let in_an_aside =
                    |at: usize| before[..at].rfind('(').is_some_and(|open| !before[open..at].contains(')'));
                let since_a_file =
                    slots::file_names(before).iter().rfind(|f| !in_an_aside(f.at)).map_or(0, |f| f.at + f.name.len());
                // ("look up each store's region in stores.csv": a noun, not the verb that writes.)
                let writes_from = |from: usize| {
                    self.lexicon.output.find_iter(before).any(|m| {
                        let words: Vec<&str> = before[..m.start()].split_whitespace().rev().take(2).collect();
                        let determiners = ["the", "a", "an", "this", "that", "our", "my", "your", "their"];
                        let each = words.first().is_some_and(|w| ["each", "every", "per"].contains(w));
                        m.start() >= from
                            && !before[m.end()..].starts_with("'s")
                            && !each
                            && !words.iter().any(|w| determiners.contains(w))
                    })
                };
                let (writes_before, written_as) =
                    (writes_from(since_a_file), writes_from(0) && before.ends_with(" as"));
                // ("Excel please, as fees.xlsx", "…, oldest first, in overdue.csv": the last file
                // named so is what is written.)
                // ("in an Excel file called totals.xlsx": the file named as the one written.)
                static FILE_CALLED: LazyLock<regex::Regex> = LazyLock::new(|| {
                    regex::Regex::new(
                        r"\b(?:file|excel|workbook|spreadsheet|csv|sheet|output|report)\s+(?:called|named)$",
                    )
                    .expect("a file called")
                });
                let after_preposition = !adds_column_to && [" to", " into"].iter().any(|p| before.ends_with(p))
                    || FILE_CALLED.is_match(before)
                    || (before.ends_with(" as") || before.ends_with(", in")) && last_of_several
                    || [" as", " in"].iter().any(|p| before.ends_with(p))
                        && (writes_before || written_as || lists && (last_of_several || only_file));
                // Not "compare the totals in a.csv with those in b.csv": no other file before it here.
                // ("look up each account's team in accounts.csv": a table looked in is read.)
                static LOOKED_IN: LazyLock<regex::Regex> = LazyLock::new(|| {
                    regex::Regex::new(r"\b(?:look(?:s|ed|ing)? (?:\S+ ){0,6}?up|look(?:s|ed|ing)? for)\b[^.;]*$")
                        .expect("looked in")
                });
                // ("the names in w9_on_file.csv are the legal names": said of what the file holds.)
                static SAID_OF_IT: LazyLock<regex::Regex> = LazyLock::new(|| {
                    regex::Regex::new(r"^\s*(?:are|is|were|was|have|has|don't|doesn't|do not|does not|aren't|isn't|can|may|might|won't|will not)\b")
                        .expect("said of it")
                });
                let last_in = last_of_several
                    && !SAID_OF_IT.is_match(after)
                    && [" in", " into", " to"].iter().any(|p| before.ends_with(p))
                    && !self.lexicon.read.is_match(before)
                    && !(before.ends_with(" in") && LOOKED_IN.is_match(before))
                    && slots::file_names(before).is_empty();
                // "… -> top_customers.csv": an arrow points at what is written.
                let arrow = ["->", "→", "=>"].iter().any(|a| before.ends_with(a));
                // "… (regression_run.csv). … File: pass_rate_by_module.csv": a file labelled last,
                // after another that is read, is the one written.
                let labelled_last = last_of_several && before.ends_with("file:");
                // ("Make me over.csv: the customers in credit.csv": the verb writes the file after it.)
                let written_by_the_opening = opens_with_write && (since_a_file == 0 || before.ends_with(" and"));
                // "… by project code. billable_hours.csv is fine.": the name offered last, after the
                // files read, is the one written.
                static OFFERED: LazyLock<regex::Regex> = LazyLock::new(|| {
                    regex::Regex::new(
                        r"^\s*(?:is|would be|will be)\s+(?:fine|ok|okay|good|great|perfect)\b|^\s*(?:works|will do)\b",
                    )
                    .expect("a name offered")
                });
                let offered = last_of_several && OFFERED.is_match(after);
                // ("…, oldest month first. Excel please, fees_by_month.xlsx": the name after the
                // format asked for, last of several.)
                static FORMAT_ASKED: LazyLock<regex::Regex> = LazyLock::new(|| {
                    regex::Regex::new(r"\b(?:excel|csv|xlsx|spreadsheet|workbook)(?:\s+(?:please|pls|file))?\s*[,:]$")
                        .expect("format asked")
                });
                let after_the_format = last_of_several && FORMAT_ASKED.is_match(before);
                written_by_the_opening
                    || offered
                    || after_the_format
                    || after_preposition
                    || last_in
                    || arrow
                    || labelled_last
                    || words::EN_NAMES_OUTPUT.is_match(before)
            }
            Language::Ja => {
                let before = before.trim_end().trim_end_matches([':', '：']).trim_end();
                // 「… を並べ替え → 予実差額.xlsx」: an arrow points at what is written; 「…、多い順に
                // 商品別.csv」: so does a name left last, after the file read, with nothing after it.
                let last_alone = last_of_several
                    && after.trim_matches(|c: char| c.is_whitespace() || "。.！!".contains(c)).is_empty();
                if ["->", "→", "=>"].iter().any(|a| before.ends_with(a)) || last_alone {
                    return true;
                }
                // 「元ファイルは 不具合一覧.csv、出力は …」: the file read.
                let source_said =
                    ["元ファイル", "元データ", "入力ファイル", "入力データ", "読み込むファイル", "対象ファイル"];
                if source_said.iter().any(|w| before.trim_end_matches(['は', 'が']).trim_end().ends_with(w)) {
                    return false;
                }
                if [
                    "出力は",
                    "出力先は",
                    "保存先は",
                    "ファイル名は",
                    "出力ファイルは",
                    "出力ファイル名は",
                    "保存名は",
                    "保存ファイル名は",
                    "出力",
                    "出力先",
                    "保存先",
                    "ファイル名",
                    "出力ファイル",
                ]
                .iter()
                .any(|w| before.ends_with(w))
                {
                    return true;
                }
                let after = after.trim_start();
                let (particle, after) = [
                    "として",
                    "という名前で",
                    "という名前に",
                    "というファイル名で",
                    "というファイル名に",
                    "に",
                    "へ",
                    "で",
                    "を",
                ]
                .iter()
                .find_map(|p| after.strip_prefix(p).map(|rest| (*p, rest)))
                .unwrap_or(("", after));
                let after = after.trim_start();
                // (「x.xlsx にして」「x.xlsx という名前にしてもらえると」: the file made.)
                let made_into = particle.ends_with('に') && after.starts_with('し');
                // 「stock_check.csv へお願いします」「summary.csv に。」「budget_actual.md にレポートを」.
                // 「売掛金残高.csv に、…から…を追加」 is the file added to: only a sentence's end counts.
                let rest = self.text.get(clause.start + clause.text.len()..).unwrap_or_default().trim_start();
                // (「…zensha.csv で！」 at the end: the clause may keep its own full stop; 「… に（取消は
                // 除く）」 an aside after it.)
                let aside_closed = after
                    .strip_prefix(['（', '('])
                    .and_then(|inside| inside.find(['）', ')']).map(|close| &inside[close..]))
                    .map(|rest| rest.trim_start_matches(['）', ')']));
                let after_ends =
                    aside_closed.unwrap_or(after).trim_start_matches(['。', '.', '!', '?']).trim().is_empty();
                let ends_sentence = after_ends && (rest.is_empty() || rest.starts_with(['。', '.', '!', '?']));
                let asked_for = matches!(particle, "に" | "で" | "へ")
                    && (after.starts_with("お願い") || ends_sentence || after.starts_with(['レ', '報']));
                // (「静的解析の結果を 結果.xlsx にまとめました」: what was done already, the file read.)
                made_into
                    || asked_for
                    || self.lexicon.output.find(after).is_some_and(|m| {
                        after[..m.start()].chars().count() <= 2 && !DONE_ALREADY.is_match(&after[m.end()..])
                    })
            }
        }
    }

    fn encoding(&self, clause: &Clause) -> Option<String> {
        let lower = clause.text.to_ascii_lowercase();
        let all = self.text.to_ascii_lowercase();
        let found = words::ENCODING.find(&lower).or_else(|| words::ENCODING.find(&all))?;
        Some(if found.as_str().contains("932") { "cp932".into() } else { "shift_jis".into() })
    }

    fn sheet(&self, clause: &Clause) -> Option<String> {
        // "the first line of the sheet is a title": a word of the sentence, no sheet's name.
        const NO_NAME: &[&str] = &[
            "is", "are", "was", "has", "have", "with", "and", "or", "the", "a", "of", "in", "on", "for", "to", "that",
        ];
        words::SHEET.captures_iter(&clause.text).find_map(|c| {
            c.name("e")
                .or(c.name("a"))
                .or(c.name("b"))
                .or(c.name("c"))
                .or(c.name("d"))
                .map(|m| m.as_str().trim_matches(['"', '\'', '「', '」']).to_owned())
                .filter(|name| !NO_NAME.contains(&name.to_ascii_lowercase().as_str()))
        })
    }
}

/// Whether a clause keeps rows whose text contains a word (「摘要に「返金」を含む行」): that picks
/// rows out of a text column, it extracts no fields.
fn says_contains(clause: &Clause) -> bool {
    let conditions = match Language::of(&clause.text) {
        Language::En => conditions::english(&clause.text),
        Language::Ja => conditions::japanese(&clause.text),
    };
    conditions.iter().any(|c| c.operator == "contains")
}

/// Whether `state` is said in lower case right before a plural or a word for rows ("failed
/// runs", "approved expenses").
/// 「状態が「保有」のものだけで、割引済・裏書譲渡は除いて」: the values kept only are said before the
/// part of the clause that leaves others out, which names none of them, so they are kept.
fn kept_beside_what_is_left_out(judged: &str, left_out_at: usize, conditions: &[Condition]) -> bool {
    static ONLY: LazyLock<regex::Regex> = LazyLock::new(|| regex::Regex::new(r"だけ|のみ|\bonly\b").expect("only"));
    let part_start = judged[..left_out_at].rfind(['、', '。', ',', ';']).unwrap_or(0);
    let (before, left_out) = judged.split_at(part_start);
    let values = |c: &Condition| match &c.value {
        Value::Array(values) => values.iter().filter_map(Value::as_str).map(str::to_lowercase).collect(),
        value => value.as_str().map(str::to_lowercase).into_iter().collect::<Vec<_>>(),
    };
    !conditions.is_empty()
        && ONLY.is_match(before)
        && conditions.iter().all(|c| {
            // (A period is said in words of its own: the part that leaves out says no date.)
            if of_a_period(c) {
                return !left_out.contains(|ch: char| ch.is_ascii_digit() || ('０'..='９').contains(&ch));
            }
            let values = values(c);
            !values.is_empty()
                && values.iter().all(|v| !v.is_empty() && before.contains(v.as_str()) && !left_out.contains(v.as_str()))
        })
}

/// Whether `state` is said of the rows right before them: 「承認済の経費を」「未払いの請求が」
/// 「未承認のものを」.
fn said_of_rows_in_japanese(clause: &str, state: &str) -> bool {
    static OF_ROWS: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"^の(?:[\p{Han}\p{Katakana}ー]{1,8}|もの)(?:を|が|は|の|だけ|のみ|について)")
            .expect("of rows")
    });
    // (「NG件数」: the count of the rows of a code.)
    let code_counted = |after: &str| state.bytes().all(|b| b.is_ascii_uppercase()) && after.starts_with("件数");
    clause.match_indices(state).any(|(at, _)| {
        let after = &clause[at + state.len()..];
        OF_ROWS.is_match(after) || code_counted(after)
    })
}

/// 「社員ごとの承認済金額の合計」「支払済額の合計」, "the total approved amount per month": a total of
/// a measure said with the state of the rows it is of (…済, a state word) totals the measure of the
/// rows in that state, kept first. (「未払額」「未収金額」 are what is left to pay or collect, often
/// a column of their own: not read so. Where the data has an `approved_amount` column, the measure
/// alone is then asked about.)
fn states_said_in_a_total(steps: &mut Vec<Step>) {
    static STATE_AND_MEASURE: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"^(?P<state>[\p{Han}]{1,4}済み?)(?P<measure>金額|額|件数|数量|時間|日数|点数)$|^(?P<en_state>[a-z]+) (?P<en_measure>amount|amounts|total|value|cost|costs|hours|spend|spending|sales|revenue)$")
            .expect("state and measure")
    });
    let mut at = 0;
    while at < steps.len() {
        let mut kept = Vec::new();
        if let Step::Aggregate { aggregations, .. } = &mut steps[at] {
            for aggregation in aggregations.iter_mut() {
                let Some(c) = aggregation.field.as_deref().and_then(|f| STATE_AND_MEASURE.captures(f)) else {
                    continue;
                };
                let (state, measure) = match (c.name("state"), c.name("measure")) {
                    (Some(state), Some(measure)) => (state.as_str().to_owned(), measure.as_str().to_owned()),
                    _ if conditions::is_state_word(&c["en_state"]) => {
                        (c["en_state"].to_owned(), c["en_measure"].to_owned())
                    }
                    _ => continue,
                };
                let measure = if measure == "額" { "金額".to_owned() } else { measure };
                aggregation.field = Some(measure);
                kept.push(Condition { field: None, operator: "eq", value: Value::from(state), value2: None });
            }
        }
        if !kept.is_empty() {
            steps.insert(at, Step::Filter { conditions: kept, exclude: false });
            at += 1;
        }
        at += 1;
    }
}

/// A filter said twice keeps its rows once ("how many defects are still open … Open = status
/// Open, In Progress or Reopened": the state said, then defined).
fn each_filter_once(steps: &mut Vec<Step>) {
    let mut filters: Vec<Step> = Vec::new();
    steps.retain(|s| match s {
        Step::Filter { conditions, .. } if !conditions.is_empty() && filters.contains(s) => false,
        Step::Filter { .. } => {
            filters.push(s.clone());
            true
        }
        _ => true,
    });
}

fn said_of_rows(clause: &str, state: &str) -> bool {
    let words: Vec<String> = clause
        .split_whitespace()
        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()).to_ascii_lowercase())
        .collect();
    // ("the approved October 2026 claims": a period may stand between the state and the rows.)
    let of_a_period = |w: &String| {
        month_number(w).is_some()
            || w.len() == 4 && w.starts_with("20")
            || matches!(w.as_str(), "q1" | "q2" | "q3" | "q4")
    };
    words.iter().enumerate().any(|(i, word)| {
        let next = words[i + 1..].iter().find(|w| !of_a_period(w));
        word.eq_ignore_ascii_case(state)
            && next.is_some_and(|next| slots::is_row_noun(next) || next.len() > 3 && next.ends_with('s'))
    })
}

/// Whether `state` is said between a total and the rows it is of ("the total approved
/// expenses", "the average approved expense"; lower-cased text).
fn state_of_the_rows_totalled(lower: &str, state: &str) -> bool {
    let state = state.to_lowercase();
    lower.match_indices(&format!(" {state} ")).any(|(at, said)| {
        let before = lower[..at].trim_end();
        let rows = lower[at + said.len()..].split(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or_default();
        ["total", "average", "sum", "mean", "count", "number"].iter().any(|w| before.ends_with(w))
            && (slots::is_row_noun(rows) || slots::is_row_noun(&slots::singular(rows)))
    })
}

/// Whether the first of `values` is said of the rows after "are", "is", "still" ("that are pending
/// or rejected", "which is still open"; lower-cased text).
fn said_as_a_state(lower: &str, values: &Value) -> bool {
    static COPULA: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"\b(?:are|is|were|was|remain|remains|still|currently)\s+(?:still\s+|currently\s+|now\s+)?(?P<state>[a-z][a-z-]*)")
            .expect("copula")
    });
    let first = match values {
        Value::Array(values) => values.first().and_then(Value::as_str),
        value => value.as_str(),
    };
    first.is_some_and(|first| COPULA.captures_iter(lower).any(|c| c["state"].eq_ignore_ascii_case(first)))
}

/// Whether a condition keeps the rows of a period: a date, or a month of a year not said.
pub(crate) fn of_a_period(c: &Condition) -> bool {
    is_date(&c.value) || c.operator == MONTH_OF_UNSAID_YEAR
}

/// Whether a condition's value is a date as the reader writes one (`2026-10-31`, or
/// `${vars.year}-10-31` when the year is not said).
fn is_date(value: &Value) -> bool {
    value.as_str().is_some_and(|t| match t.strip_prefix(YEAR_VAR) {
        Some(month_and_day) => month_and_day.len() == 6 && month_and_day.starts_with('-'),
        None => t.len() == 10 && t.as_bytes()[4] == b'-',
    })
}

/// "customer, invoice, balance (taken from Customer, Invoice No and Balance Due)" as "Customer as
/// customer, Invoice No as invoice, Balance Due as balance", when the old names are as many.
fn renamed_in_order(list: &str) -> Option<String> {
    let c = words::OLD_NAMES_AFTER.captures(list)?;
    let split = |text: &str| -> Vec<String> {
        slots::list_items(text).into_iter().map(|item| item.trim().to_owned()).filter(|item| !item.is_empty()).collect()
    };
    let new = split(&list[..c.get(0)?.start()]);
    let old = split(&c["olds"]);
    (new.len() >= 2 && new.len() == old.len())
        .then(|| old.iter().zip(&new).map(|(old, new)| format!("{old} as {new}")).collect::<Vec<_>>().join(", "))
}

/// "posting_date as Date", "delivery_date renamed to Due": a column and its new name.
fn new_name(item: &str) -> Option<(String, String)> {
    // (「金額⇒精算額」: a Japanese rename read from an aside, `chosen_columns`.)
    [" renamed to ", " renamed as ", " as ", "⇒"]
        .iter()
        .find_map(|w| item.split_once(w))
        .map(|(from, to)| (from.trim().to_owned(), to.trim().to_owned()))
        .filter(|(from, to)| !from.is_empty() && !to.is_empty())
}

/// The words of an aside that say rows stay.
const KEEP_WORDS: &str = r"(?:は|も)(?:含め|含む|含んで|対象に?し|対象で|残し|残す|残して|そのまま)|\b(?:stays?|remains?|is kept|are kept|is included|are included|counts?|is fine|are fine)\b";

/// What "ignore" is said of when it names rows: "the runs marked Aborted", "cancelled orders",
/// "the beta channel" (a value, then the kind of thing it is).
static IGNORED_ROWS: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"^\s*(?:all\s+|any\s+)?(?:the\s+)?(?:(?:[\w-]+\s+){0,2}(?:marked|flagged|labell?ed|tagged)\b|[a-z][\w-]*\s+(?:rows|lines|records|entries|ones|runs|orders|items|transactions|invoices|payments|tickets|tests|bookings|claims|jobs|cases|requests|shipments|deliveries|accounts)\b|[a-z][\w.-]*\s+(?:channel|environment|env|platform|stage|tier|plan|branch|build|region|category|type)\s*(?:[.;!]|$))",
    )
    .expect("ignored rows")
});

/// An aside that says rows stay: 「（「申請中」は含めてOKです）」 (its brackets as NFKC leaves them),
/// "(Pending ones stay)". Beside a condition that leaves rows out it keeps none more and leaves
/// none out.
static ASIDE_THAT_KEEPS: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(&format!(r"(?i)\([^()]*(?:{KEEP_WORDS})[^()]*\)")).expect("aside that keeps"));

/// A part of an aside that says rows stay.
static ASIDE_KEEP_WORDS: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(&format!("(?i){KEEP_WORDS}")).expect("aside keep words"));

/// `text` with the asides that keep rows blanked (a negated one, "(Void doesn't count)", stays).
/// Of an aside of two parts, only the part that keeps rows is blanked: "(a part payment counts
/// as paid, and ignore voided invoices)" still leaves the voided out.
fn without_asides_that_keep(text: &str) -> String {
    ASIDE_THAT_KEEPS
        .replace_all(text, |c: &regex::Captures| {
            let aside = &c[0];
            let parts: Vec<&str> = ASIDE_PART.split(aside).collect();
            if parts.len() < 2 {
                return blank_if_it_keeps(aside);
            }
            let mut kept = String::with_capacity(aside.len());
            let mut at = 0;
            for separator in ASIDE_PART.find_iter(aside) {
                kept.push_str(&blank_if_it_keeps(&aside[at..separator.start()]));
                kept.push_str(separator.as_str());
                at = separator.end();
            }
            kept.push_str(&blank_if_it_keeps(&aside[at..]));
            kept
        })
        .into_owned()
}

/// Where an aside's second part starts: ", and", ";".
static ASIDE_PART: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"(?i),\s*and\s+|;\s*|、").expect("aside part"));

/// A part of an aside, blanked when it says rows stay and is not negated.
fn blank_if_it_keeps(part: &str) -> String {
    let lower = part.to_ascii_lowercase();
    let keeps = ASIDE_KEEP_WORDS.is_match(part);
    let negated = ["n't", " not ", " no ", "ない", "ません", "除"].iter().any(|n| lower.contains(n));
    // "(if two have the same count, the bigger total first)": a count named, no rows kept.
    let count_named = ["the count", "same count", "a count", "its count", "their count", "by count"]
        .iter()
        .any(|n| lower.contains(n));
    // "(physical count minus register balance)": a formula of a column called a count.
    let formula = [" minus ", " plus ", " times ", " divided by ", " - ", " / ", " x ", "×", "÷", "−"]
        .iter()
        .any(|sign| lower.contains(sign));
    if keeps && !negated && !count_named && !formula {
        " ".repeat(part.len())
    } else {
        part.to_owned()
    }
}

/// The verb a sentence of column names may start with: "Keep just", "Show only the".
static LEADING_VERB: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(
        r"(?i)^(?:please\s+)?(?:(?:keep|list|show|give me|include|output|return|pull|export)\s+(?:(?:just|only)\s+)?|(?:just|only)\s+)(?:the\s+)?",
    )
    .expect("leading verb")
});

/// An aside in brackets: "(Partially Paid and Void don't count)", 「（「一部入金」は除く）」.
pub(super) static PARENTHESES: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"\([^()]*\)|（[^（）]*）").expect("parentheses"));

/// The kind of total a column's name says: 「件数」 and "number of runs" a count, 「平均金額」 and
/// "avg_duration" an average, 「合計金額」 and "total_paid" a sum, "max_amount" a maximum.
fn total_named(column: &str) -> Option<&'static str> {
    let lower = column.to_ascii_lowercase();
    let words: Vec<&str> = lower.split([' ', '_']).collect();
    // A count's Japanese word ends the name (「NG件数」); "number" alone is an id ("invoice number").
    let count = ["件数", "回数", "人数"].iter().any(|w| column.ends_with(w))
        || words.contains(&"count")
        || lower.starts_with("number of");
    if count {
        return Some("count");
    }
    let has = |en: &[&str], ja: &[&str]| words.iter().any(|w| en.contains(w)) || ja.iter().any(|j| column.contains(j));
    [
        ("avg", &["average", "avg", "mean"][..], &["平均"][..]),
        ("sum", &["total", "sum"][..], &["合計", "総額", "小計"][..]),
        ("max", &["max", "maximum", "highest", "largest"][..], &["最大", "最高"][..]),
        ("min", &["min", "minimum", "lowest", "smallest"][..], &["最小", "最低"][..]),
    ]
    .into_iter()
    .find(|(_, en, ja)| has(en, ja))
    .map(|(op, _, _)| op)
}

/// The column a total's name says it is of: 「取得価額合計」 → 取得価額, "total_amount" → amount.
fn column_a_total_names(name: &str) -> Option<String> {
    const SAID: [&str; 10] =
        ["合計", "総額", "平均", "total_", "total ", "_total", " total", "sum_", "average_", "avg_"];
    let rest = SAID.iter().find_map(|w| {
        let lower = name.to_lowercase();
        let at = lower.find(w)?;
        Some(format!("{}{}", &name[..at], &name[at + w.len()..]))
    })?;
    let rest = rest.trim().trim_matches('_').trim_end_matches('の');
    // (Only a name of an amount: 「受注合計」 "total_paid" say what is totalled, not its column.)
    const AMOUNTS: [&str; 20] = [
        "額", "金", "数", "量", "高", "時間", "料", "代", "価", "値", "amount", "cost", "price", "hours", "quantity",
        "qty", "value", "fee", "sales", "revenue",
    ];
    let amount = AMOUNTS.iter().any(|a| rest.to_lowercase().ends_with(a));
    (amount && rest.chars().count() >= 2).then(|| rest.to_owned())
}

/// Whether a column's name is a rank's: "rank", 「順位」.
fn names_rank(column: &str) -> bool {
    matches!(column.trim().to_lowercase().as_str(), "rank" | "ranking" | "順位" | "ランク" | "ランキング")
}

/// Whether two nouns name the same thing: "suppliers" and "supplier", 「仕入先」 and 「仕入先」.
pub(crate) fn same_noun(a: &str, b: &str) -> bool {
    let fold = |t: &str| slots::singular(t.trim()).to_lowercase();
    fold(a) == fold(b)
}

/// Whether words of the text (`test id`) name a column as written (`Test_ID`).
fn names_column(words: &str, column: &str) -> bool {
    same_noun(&column.to_lowercase().replace('_', " "), &words.to_lowercase())
}

/// Whether a column chosen is a key's, the words for it said (`employee` → `employee_id`;
/// 「得意先」 → 「得意先名」「得意先コード」).
fn names_key_column(key: &str, column: &str) -> bool {
    const SUFFIXES: [&str; 12] =
        ["名", "番号", "コード", "ID", "No", "CD", " id", "_id", " name", "_name", " code", "_code"];
    names_column(key, column)
        || SUFFIXES.iter().any(|s| {
            let lower = column.to_lowercase();
            lower.strip_suffix(&s.to_lowercase()).is_some_and(|k| {
                // (「勘定科目ごと」 and 「科目コード」: the key said short, its last word.)
                let short = k.chars().count() >= 2 && !k.is_ascii() && key.ends_with(k);
                !k.is_empty() && (names_column(key, k.trim()) || short)
            })
        })
}

#[cfg(test)]
mod tests;
