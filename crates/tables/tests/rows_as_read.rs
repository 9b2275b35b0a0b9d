//! Property: whatever CSV text, the table's rows are the rows the cell rule gives — each cell a
//! plain number or its text, the header's names made unique, blank rows skipped, short rows
//! padded with empty text and long rows given `column_N` columns — however its columns are
//! stored.

use planwright_tables::{plain_number, read_csv, unique_names, CsvFormat};
use proptest::prelude::*;
use serde_json::{Map, Value};

/// The rows of `records` by the cell rule, written plainly (the specification, not the reader).
fn expected(records: &[Vec<String>], has_header: bool) -> Vec<Value> {
    let records: Vec<&Vec<String>> = records.iter().filter(|r| !r.iter().all(|c| c.trim().is_empty())).collect();
    let (mut names, body) = match (has_header, records.split_first()) {
        (true, Some((header, body))) => (unique_names(header.iter().map(|c| c.trim().to_owned())), body.to_vec()),
        (true, None) => (Vec::new(), Vec::new()),
        (false, _) => (Vec::new(), records),
    };
    for record in &body {
        while names.len() < record.len() {
            let taken = names.clone();
            let mut name = format!("column_{}", names.len() + 1);
            let mut n = 2;
            while taken.contains(&name) {
                name = format!("column_{}_{n}", names.len() + 1);
                n += 1;
            }
            names.push(name);
        }
    }
    body.iter()
        .map(|record| {
            let mut row = Map::new();
            for (i, name) in names.iter().enumerate() {
                let cell = record.get(i).map_or("", String::as_str);
                row.insert(name.clone(), plain_number(cell).unwrap_or_else(|| Value::String(cell.to_owned())));
            }
            Value::Object(row)
        })
        .collect()
}

fn cell() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(" ".to_owned()),
        (-99_999i64..99_999).prop_map(|n| n.to_string()),
        (-99_999i64..99_999, 0u32..4).prop_map(|(n, s)| format!(
            "{}.{:0>w$}",
            n / 100,
            n.unsigned_abs() % 100,
            w = s as usize
        )),
        Just("-0.00".to_owned()),
        Just("007".to_owned()),
        Just("1,200".to_owned()),
        Just("1234567890123456".to_owned()),
        (2000i32..2030, 1u32..13, 1u32..32).prop_map(|(y, m, d)| format!("{y}-{m:02}-{d:02}")),
        Just("2024-02-29".to_owned()),
        Just("2026-4-1".to_owned()),
        Just("2026/04/01".to_owned()),
        Just("株式会社サンプル".to_owned()),
        Just("say \"hi\", twice".to_owned()),
        "[a-z ]{0,6}",
    ]
}

fn csv_text(records: &[Vec<String>]) -> String {
    let mut writer = csv::WriterBuilder::new().flexible(true).from_writer(Vec::new());
    for record in records {
        // One empty field would be written as an empty line, which is a blank row either way.
        writer.write_record(record).unwrap();
    }
    String::from_utf8(writer.into_inner().unwrap()).unwrap()
}

proptest! {
    #[test]
    fn rows_are_the_cell_rule_whatever_the_storage(
        records in prop::collection::vec(prop::collection::vec(cell(), 1..5), 0..12),
        has_header in any::<bool>(),
    ) {
        let text = csv_text(&records);
        let table = read_csv(text.as_bytes(), CsvFormat { delimiter: b',', has_header }, &|| false).unwrap();
        prop_assert_eq!(table.rows(), expected(&records, has_header));
    }
}
