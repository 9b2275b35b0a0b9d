//! What the engine says of how it designed a plan, as codes with parameters (issue 27). The
//! command line and `reasoning` say them in the instruction's language ([`DesignNote::text`]);
//! the studio says them in the person's (`ui/src/lib/i18n`, key `design.said.<key>`). Names,
//! columns and a model's own words stay parameters, never translated.

use serde::{Deserialize, Serialize};

use crate::reading::{month_name, Language};

/// One line of a design's reasoning. Serialized as `{"key": "<snake_case>", "params": {…}}` (no
/// `params` for a note without any).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(tag = "key", content = "params", rename_all = "snake_case")]
pub enum DesignNote {
    /// The model's own summary of its design, as it wrote it.
    ModelSummary {
        text: String,
    },
    /// The model's answer could not be used; the offline design stands.
    ModelAnswerUnusable,
    /// Templates whose words fit the instruction (their ids, comma separated).
    TemplatesFit {
        templates: String,
    },
    TemplateComposed {
        template: String,
        nodes: u64,
    },
    TemplateNotComposed {
        template: String,
        detail: String,
    },
    DocumentsAsText,
    ModelStepJudges,
    StepsAfterApproval {
        node: String,
    },
    ApiPerRow,
    StatusPolled {
        times: u64,
    },
    BrowserObjectives,
    /// A sheet with title rows above its header: read from this row.
    HeaderRow {
        node: String,
        row: u64,
    },
    /// A word of the instruction is this column of the data.
    ColumnBound {
        wanted: String,
        column: String,
    },
    /// No single column of the data is this word: asked, with the columns as choices.
    ColumnAsked {
        wanted: String,
    },
    /// A word of the instruction is a value of this column: rows are kept where it holds it.
    ValueCondition {
        word: String,
        column: String,
    },
    /// A word of the instruction names a column of amounts some rows leave blank: rows are kept
    /// where it has one.
    FilledCondition {
        word: String,
        column: String,
    },
    /// A word of the instruction names a column of yes and no: the rows of yes are kept
    /// ("keep the billable time only").
    YesCondition {
        word: String,
        column: String,
        value: String,
    },
    /// A word said of rows left out is a value of a column of the data: the rows that hold it are
    /// left out ("skip discontinued items").
    ValueLeftOut {
        word: String,
        column: String,
    },
    /// A word said of rows left out names a column of amounts some rows leave blank: rows are
    /// left out where it has one (「補充の入金は対象外」).
    FilledLeftOut {
        word: String,
        column: String,
    },
    /// The words of a condition said more than the data's value ("Cancelled POs"): the part
    /// that is the value.
    ValueOfData {
        said: String,
        value: String,
        column: String,
    },
    /// The instruction names no file, and the work folder holds one data file: it is read.
    OnlyDataFile {
        file: String,
    },
    /// Two tables are matched on columns named apart whose values agree.
    KeysByValues {
        left: String,
        right: String,
    },
    /// Tables put one under the other whose columns are one named apart: `file`'s columns
    /// (`columns`: "Order No → order_no, Date → order_date") take the names they have in `first`.
    ColumnsNamedAsFirst {
        file: String,
        first: String,
        columns: String,
    },
    /// A state "paid" said where no column holds it: judged by the amount paid (`paid`) against
    /// the amount (`amount`).
    PaidByTheAmounts {
        paid: String,
        amount: String,
    },
    /// The words read as a match's key name no column; the one column both files have is the key.
    KeyBothHave {
        said: String,
        column: String,
    },
    /// An open var (`amount_column`) is this column of the data.
    VarBound {
        var: String,
        column: String,
    },
    /// The data is not in the work folder: the columns named (comma separated) are asked.
    AssumedColumnsAsked {
        columns: String,
    },
    /// A month said without its year is in the one year the data holds it.
    YearSettled {
        month: u64,
        year: u64,
    },
    /// The data holds the month in several years (comma separated): the year is asked.
    YearAsked {
        month: u64,
        years: String,
    },
    /// Blocks pinned in the studio that the plan does not use (comma separated).
    PinnedUnused {
        blocks: String,
    },
    /// A number of things said (「注文数」) where no column is it and the file read holds those
    /// things one per row: the rows are counted.
    RowsCounted {
        wanted: String,
        file: String,
    },
}

impl DesignNote {
    /// The note in `language`.
    pub fn text(&self, language: Language) -> String {
        let ja = language == Language::Ja;
        let month = |m: &u64| if ja { format!("{m}月") } else { month_name(*m as u32).to_owned() };
        match self {
            DesignNote::ModelSummary { text } => text.clone(),
            DesignNote::ModelAnswerUnusable => language
                .pick(
                    "The model's answer was unusable; this is the offline design.",
                    "モデルの回答が使えなかったため、オフラインの設計を使いました。",
                )
                .to_owned(),
            DesignNote::TemplatesFit { templates } if ja => format!("指示に合うテンプレート：{templates}。"),
            DesignNote::TemplatesFit { templates } => format!("Templates that fit the instruction: {templates}."),
            DesignNote::TemplateComposed { template, nodes } if ja => {
                format!("テンプレート `{template}` を組み込みました（{nodes} ステップ）。")
            }
            DesignNote::TemplateComposed { template, nodes } => {
                format!("Template `{template}` is composed in ({nodes} steps).")
            }
            DesignNote::TemplateNotComposed { template, detail } if ja => {
                format!("テンプレート `{template}` は組み込めませんでした：{detail}")
            }
            DesignNote::TemplateNotComposed { template, detail } => {
                format!("Template `{template}` was not composed: {detail}")
            }
            DesignNote::DocumentsAsText => language
                .pick(
                    "The documents are read as text (file.extract_texts).",
                    "書類はテキストとして読み込みます（file.extract_texts）。",
                )
                .to_owned(),
            DesignNote::ModelStepJudges => language
                .pick(
                    "A model step (ai.process_llm) does the judgement; it needs a model when the plan runs.",
                    "判断はモデルのステップ（ai.process_llm）が行います。実行時にモデルの設定が必要です。",
                )
                .to_owned(),
            DesignNote::StepsAfterApproval { node } if ja => {
                format!("`{node}` の後の処理は承認されたときだけ実行します（when）。")
            }
            DesignNote::StepsAfterApproval { node } => {
                format!("The steps after `{node}` run only when it is approved (when).")
            }
            DesignNote::ApiPerRow => language
                .pick("The API is called once per row (foreach).", "API は1行ずつ呼び出します（foreach）。")
                .to_owned(),
            DesignNote::StatusPolled { times } if ja => format!("状態はループ（while）で最大{times}回確認します。"),
            DesignNote::StatusPolled { times } => {
                format!("The status is checked in a loop (while), at most {times} times.")
            }
            DesignNote::BrowserObjectives => language
                .pick(
                    "The browser steps run objective by objective (browser.run_objectives).",
                    "ブラウザーの操作は目的ごとに実行します（browser.run_objectives）。",
                )
                .to_owned(),
            DesignNote::HeaderRow { node, row } if ja => {
                format!("{node}: シートの見出しの上にタイトル行があるため、{row}行目を見出しとして読みます。")
            }
            DesignNote::HeaderRow { node, row } => {
                format!("`{node}`: the sheet has title rows above its header; the header is row {row}.")
            }
            DesignNote::ColumnBound { wanted, column } if ja => format!("「{wanted}」はデータの列「{column}」です。"),
            DesignNote::ColumnBound { wanted, column } => format!("\"{wanted}\" is the column `{column}` in the data."),
            DesignNote::ColumnAsked { wanted } if ja => {
                format!("「{wanted}」に当たる列がデータで1つに決まらないため、列の一覧から選んでもらいます。")
            }
            DesignNote::ColumnAsked { wanted } => {
                format!("No single column of the data is \"{wanted}\": asked, with the columns as choices.")
            }
            DesignNote::ValueCondition { word, column } if ja => {
                format!("「{word}」はデータの列「{column}」の値なので、その行だけを残します。")
            }
            DesignNote::ValueCondition { word, column } => {
                format!("\"{word}\" is a value of the column `{column}`: the rows that hold it are kept.")
            }
            DesignNote::ValueLeftOut { word, column } if ja => {
                format!("「{word}」はデータの列「{column}」の値なので、その行を除きます。")
            }
            DesignNote::ValueLeftOut { word, column } => {
                format!("\"{word}\" is a value of the column `{column}`: the rows that hold it are left out.")
            }
            DesignNote::FilledCondition { word, column } if ja => {
                format!("「{word}」はデータの列「{column}」のことなので、その列に値がある行だけを残します。")
            }
            DesignNote::FilledCondition { word, column } => {
                format!("\"{word}\" is the column `{column}`, which some rows leave blank: the rows that have one are kept.")
            }
            DesignNote::YesCondition { word, column, value } if ja => {
                format!("「{word}」はデータの列「{column}」（値は「{value}」か否か）のことなので、「{value}」の行だけを残します。")
            }
            DesignNote::YesCondition { word, column, value } => {
                format!("\"{word}\" is the column `{column}`, of yes and no: the rows of `{value}` are kept.")
            }
            DesignNote::FilledLeftOut { word, column } if ja => {
                format!("「{word}」はデータの列「{column}」のことなので、その列に値がある行を除きます。")
            }
            DesignNote::FilledLeftOut { word, column } => {
                format!("\"{word}\" is the column `{column}`, which some rows leave blank: the rows that have one are left out.")
            }
            DesignNote::ValueOfData { said, value, column } if ja => {
                format!("「{said}」のうち、データの列「{column}」の値は「{value}」なので、それで比べます。")
            }
            DesignNote::ValueOfData { said, value, column } => {
                format!("Of \"{said}\", the column `{column}` holds \"{value}\": the condition compares with that.")
            }
            DesignNote::OnlyDataFile { file } if ja => {
                format!(
                    "指示にファイル名がなく、作業フォルダーのデータファイルは「{file}」だけなので、それを読み込みます。"
                )
            }
            DesignNote::OnlyDataFile { file } => {
                format!("The instruction names no file and `{file}` is the work folder's one data file: it is the file read.")
            }
            DesignNote::ColumnsNamedAsFirst { file, first, columns } if ja => {
                format!("{file} の列は {first} の列と名前が違うだけなので、{first} の列名にそろえます（{columns}）。")
            }
            DesignNote::ColumnsNamedAsFirst { file, first, columns } => {
                format!(
                    "The columns of {file} are those of {first} named apart; they take {first}'s names ({columns})."
                )
            }
            DesignNote::PaidByTheAmounts { paid, amount } if ja => {
                format!(
                    "支払済かどうかは、データに状態の列がないため「{paid}」が「{amount}」以上かどうかで判断します。"
                )
            }
            DesignNote::PaidByTheAmounts { paid, amount } => {
                format!("No column says whether a row is paid: it is paid when `{paid}` is at least `{amount}`.")
            }
            DesignNote::KeysByValues { left, right } if ja => {
                format!("2つの表は「{left}」と「{right}」で突き合わせます（名前が近く、値が一致する列です）。")
            }
            DesignNote::KeysByValues { left, right } => {
                format!(
                    "The tables are matched on `{left}` and `{right}`: their names are alike and their values agree."
                )
            }
            DesignNote::KeyBothHave { said, column } if ja => {
                format!("「{said}」はどちらのファイルの列でもないため、両方にある列「{column}」で突き合わせます。")
            }
            DesignNote::KeyBothHave { said, column } => {
                format!(
                    "\"{said}\" is a column of neither file: the rows are matched on `{column}`, the column both have."
                )
            }
            DesignNote::VarBound { var, column } if ja => format!("{var} はデータの列「{column}」です。"),
            DesignNote::VarBound { var, column } => format!("`{var}` is the column `{column}` in the data."),
            DesignNote::AssumedColumnsAsked { columns } if ja => {
                format!("データが作業フォルダーにまだないため、列（{columns}）は推測せずに確認します。")
            }
            DesignNote::AssumedColumnsAsked { columns } => {
                format!(
                    "The data is not in the work folder yet, so the columns {columns} are asked rather than assumed."
                )
            }
            DesignNote::YearSettled { month: m, year } if ja => {
                format!("{}は{year}年{}です（データにある{}はこの年だけです）。", month(m), month(m), month(m))
            }
            DesignNote::YearSettled { month: m, year } => {
                format!("{} is {} {year}, the only {} in the data.", month(m), month(m), month(m))
            }
            DesignNote::YearAsked { month: m, years } if ja => {
                format!("データには{years}年の{}があるため、年を確認します。", month(m))
            }
            DesignNote::YearAsked { month: m, years } => {
                format!("The data has {} in {years}: the year is asked.", month(m))
            }
            DesignNote::PinnedUnused { blocks } if ja => {
                format!("固定したが使っていないブロック：{blocks}（必要な手順を指示文に書いてください）。")
            }
            DesignNote::PinnedUnused { blocks } => {
                format!("Pinned but not used: {blocks} — describe the step that needs it in the instruction.")
            }
            DesignNote::RowsCounted { wanted, file } if ja => {
                format!("「{wanted}」はデータの列にないため、{file} の行の数として数えます。")
            }
            DesignNote::RowsCounted { wanted, file } => {
                format!("No column is \"{wanted}\": the rows of {file} are counted.")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_are_said_in_either_language_with_their_parameters_kept() {
        let note = DesignNote::ColumnBound { wanted: "supplier".into(), column: "vendor".into() };
        assert_eq!(note.text(Language::En), "\"supplier\" is the column `vendor` in the data.");
        assert_eq!(note.text(Language::Ja), "「supplier」はデータの列「vendor」です。");
        let year = DesignNote::YearSettled { month: 4, year: 2026 };
        assert_eq!(year.text(Language::En), "April is April 2026, the only April in the data.");
        assert_eq!(year.text(Language::Ja), "4月は2026年4月です（データにある4月はこの年だけです）。");
        assert_eq!(
            serde_json::to_value(&year).unwrap(),
            serde_json::json!({"key": "year_settled", "params": {"month": 4, "year": 2026}})
        );
        assert_eq!(serde_json::to_value(DesignNote::ApiPerRow).unwrap(), serde_json::json!({"key": "api_per_row"}));
    }
}
