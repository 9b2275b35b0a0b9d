//! The contract with the catalog: each data block, run on its spec's first example (with the
//! files it names created), returns exactly the declared outputs, every one admitted by its
//! declared type and holding every declared property; where the example's outputs do not depend
//! on document contents, they are what the block returns.

use crate::data_common;

use data_common::{sjis, Harness, DATA_BLOCKS};
use planwright_catalog::{BlockSpec, Catalog, Type};
use rust_xlsxwriter::{ExcelDateTime, Format, Workbook};
use serde_json::{Map, Value};

/// Every declared property is there, all the way down.
fn assert_complete(ty: &Type, value: &Value, at: &str) {
    match (ty, value) {
        (Type::Object(Some(props)), Value::Object(map)) => {
            for (key, t) in props {
                let inner = map.get(key).unwrap_or_else(|| panic!("{at}: declared property `{key}` is missing"));
                assert_complete(t, inner, &format!("{at}.{key}"));
            }
        }
        (Type::Array(items), Value::Array(values)) => {
            for (i, v) in values.iter().enumerate() {
                assert_complete(items, v, &format!("{at}.{i}"));
            }
        }
        _ => {}
    }
}

/// The files an example's inputs name, made to match its outputs.
fn prepare(h: &Harness, spec: &BlockSpec, inputs: &Map<String, Value>) {
    let out = &spec.examples[0].out;
    match spec.id.as_str() {
        "file.read_csv" => {
            let columns: Vec<String> =
                out["summary"]["columns"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
            let mut text = columns.join(",") + "\r\n";
            for row in out["rows"].as_array().unwrap() {
                let cells: Vec<String> = columns
                    .iter()
                    .map(|c| match &row[c] {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    })
                    .collect();
                text += &(cells.join(",") + "\r\n");
            }
            assert_eq!(inputs["encoding"], "cp932");
            h.write(inputs["path"].as_str().unwrap(), sjis(&text));
        }
        "file.extract_texts" => {
            for path in inputs["paths"].as_array().unwrap() {
                h.write(path.as_str().unwrap(), b"%PDF-1.7\n");
            }
        }
        "excel.read_data" => {
            let columns: Vec<&str> =
                out["summary"]["columns"].as_array().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
            let range = excel_top_left(inputs["range"].as_str().unwrap());
            let mut workbook = Workbook::new();
            let date = Format::new().set_num_format("yyyy/m/d");
            let sheet = workbook.add_worksheet();
            sheet.set_name(inputs["sheet"].as_str().unwrap()).unwrap();
            sheet.write_string(0, 0, "請求一覧").unwrap();
            let (top, left) = range;
            for (c, column) in columns.iter().enumerate() {
                sheet.write_string(top, left + c as u16, *column).unwrap();
            }
            for (r, row) in out["rows"].as_array().unwrap().iter().enumerate() {
                for (c, column) in columns.iter().enumerate() {
                    let (row_n, col_n) = (top + 1 + r as u32, left + c as u16);
                    match &row[*column] {
                        Value::Number(n) => {
                            sheet.write_number(row_n, col_n, n.as_f64().unwrap()).unwrap();
                        }
                        Value::String(s) if ExcelDateTime::parse_from_str(s).is_ok() && s.len() == 10 => {
                            let when = ExcelDateTime::parse_from_str(s).unwrap();
                            sheet.write_datetime_with_format(row_n, col_n, &when, &date).unwrap();
                        }
                        Value::String(s) => {
                            sheet.write_string(row_n, col_n, s).unwrap();
                        }
                        other => panic!("unexpected example cell {other}"),
                    }
                }
            }
            let path = h.path(inputs["path"].as_str().unwrap());
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            workbook.save(&path).unwrap();
        }
        _ => {}
    }
}

/// `A3:F200` → (row 2, column 0).
fn excel_top_left(range: &str) -> (u32, u16) {
    let start = range.split(':').next().unwrap();
    let letters: String = start.chars().take_while(char::is_ascii_alphabetic).collect();
    let row: u32 = start[letters.len()..].parse().unwrap();
    let col = letters.bytes().fold(0u16, |acc, b| acc * 26 + u16::from(b - b'A' + 1)) - 1;
    (row - 1, col)
}

#[test]
fn every_data_block_is_in_the_registry_once() {
    let blocks = planwright_blocks::builtin();
    for id in DATA_BLOCKS {
        assert_eq!(blocks.iter().filter(|b| b.id() == id).count(), 1, "{id}");
    }
}

#[tokio::test]
async fn outputs_on_the_spec_examples_have_the_declared_types() {
    let catalog = Catalog::bundled().expect("the bundled catalog loads");
    for id in DATA_BLOCKS {
        let spec = catalog.get(id).unwrap_or_else(|| panic!("{id} is not in the catalog"));
        let example = spec.examples.first().unwrap_or_else(|| panic!("{id} has no example"));
        let mut inputs: Map<String, Value> = example.inputs.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
        // Defaults applied, as the engine does.
        for (name, port) in &spec.inputs {
            if let (false, Some(default)) = (inputs.contains_key(name), &port.default) {
                inputs.insert(name.clone(), default.clone());
            }
        }
        let h = Harness::new();
        prepare(&h, spec, &inputs);
        let outputs = h.ok(id, Value::Object(inputs)).await;

        let declared: Vec<&String> = spec.outputs.keys().collect();
        let produced: Vec<&String> = outputs.keys().collect();
        let mut a = declared.clone();
        let mut b = produced.clone();
        a.sort();
        b.sort();
        assert_eq!(a, b, "{id}: produced outputs differ from the declared ones");
        for (key, port) in &spec.outputs {
            let value = &outputs[key];
            assert!(port.ty().admits(value), "{id}: output `{key}` = {value} is not a {}", port.ty());
            assert_complete(port.ty(), value, &format!("{id}.{key}"));
        }
        if id != "file.extract_texts" {
            for (key, expected) in &example.out {
                assert_eq!(&outputs[key], expected, "{id}: output `{key}` differs from the spec's example");
            }
        } else {
            // The example's PDFs are stand-ins (`%PDF-1.7` and nothing after it): each file has an
            // entry and a note in summary.skipped.
            assert_eq!(outputs["texts"].as_array().unwrap().len(), 2);
            assert_eq!(outputs["summary"]["skipped"].as_array().unwrap().len(), 2);
        }
    }
}
