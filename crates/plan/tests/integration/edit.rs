//! Edits of a plan's text: the change is made where it belongs, in the style around it, and
//! nothing else moves — comments, blank lines, quotes and the flow or block style of the rest.

use planwright_plan::edit::{insert_node, set_input, set_var, EditError};
use planwright_plan::load_plan;
use proptest::prelude::*;
use serde_json::{json, Value};

const PLAN: &str = "\
# yaml-language-server: $schema=../../schemas/plan.schema.json
apiVersion: planwright/v1
id: invoices   # the monthly check
version: 1.0.0
vars:
  month: \"2024-04\"
graph:
  - id: read
    block: file.read_csv
    in:
      path: data/invoices.csv   # exported by the accounting system
      encoding: shift_jis
    out: {rows: rows}

  - id: save
    block: report.write
    in:
      data: ${read.rows}
      format: csv
      path:
";

fn document(text: &str) -> Value {
    load_plan(text).unwrap_or_else(|e| panic!("{e}\n{text}")).document
}

/// Every line of `before` is in `after`, in order: nothing was lost or rewritten.
fn kept(before: &str, after: &str) {
    let mut lines = after.lines();
    for line in before.lines() {
        assert!(lines.any(|l| l == line), "line {line:?} was lost or changed in:\n{after}");
    }
}

#[test]
fn a_node_is_appended_in_the_style_of_the_others() {
    let node =
        json!({"id": "total", "block": "transforms.group_by_agg", "in": {"items": "${read.rows}", "by": ["取引先"]}});
    let edited = insert_node(PLAN, &node).unwrap();
    kept(PLAN, &edited.text);
    assert!(edited.text.contains("\n\n  - id: total\n    block: transforms.group_by_agg\n"), "{}", edited.text);
    assert_eq!(document(&edited.text)["graph"][2], node);
    assert!(edited.text[edited.at..].starts_with("  - id: total"), "the offset of the new item");
}

#[test]
fn a_node_joins_a_flow_graph_and_a_missing_or_empty_one() {
    let node = json!({"id": "b", "block": "report.write"});
    let flow = "apiVersion: planwright/v1\nid: x\nversion: 1.0.0\ngraph: [{id: a, block: file.read_csv}]  # one\n";
    let edited = insert_node(flow, &node).unwrap();
    assert!(
        edited
            .text
            .ends_with("graph: [{id: a, block: file.read_csv}, {\"id\":\"b\",\"block\":\"report.write\"}]  # one\n"),
        "{}",
        edited.text
    );
    let empty = "apiVersion: planwright/v1\nid: x\nversion: 1.0.0\ngraph: []  # none yet\n";
    let edited = insert_node(empty, &node).unwrap();
    assert_eq!(document(&edited.text)["graph"], json!([node]));
    assert!(
        edited.text.contains("graph:\n  - id: b\n    block: report.write\n  # none yet\n"),
        "a block list: {}",
        edited.text
    );
    let none = "apiVersion: planwright/v1\nid: x\nversion: 1.0.0";
    assert_eq!(document(&insert_node(none, &node).unwrap().text)["graph"], json!([node]));
    let null = "apiVersion: planwright/v1\nid: x\nversion: 1.0.0\ngraph:\n";
    assert_eq!(document(&insert_node(null, &node).unwrap().text)["graph"], json!([node]));
}

#[test]
fn an_input_is_replaced_in_place_keeping_its_comment() {
    let edited = set_input(PLAN, "read", "path", &json!("data/2024-05.csv")).unwrap();
    assert!(
        edited.text.contains("      path: data/2024-05.csv   # exported by the accounting system\n"),
        "{}",
        edited.text
    );
    assert_eq!(edited.text.lines().count(), PLAN.lines().count());
    assert_eq!(document(&edited.text)["graph"][0]["in"]["encoding"], "shift_jis");
}

#[test]
fn an_empty_input_is_filled_and_a_missing_one_added() {
    let filled = set_input(PLAN, "save", "path", &json!("out/unpaid.csv")).unwrap();
    assert!(filled.text.contains("      path: out/unpaid.csv\n"), "{}", filled.text);
    let added = set_input(PLAN, "read", "delimiter", &json!(";")).unwrap();
    kept(PLAN, &added.text);
    assert!(
        added.text.contains("      encoding: shift_jis\n      delimiter: ;\n")
            || added.text.contains("      delimiter: ';'\n"),
        "{}",
        added.text
    );
    assert_eq!(document(&added.text)["graph"][0]["in"]["delimiter"], ";");
}

#[test]
fn in_is_added_to_a_node_without_it_block_or_flow() {
    let block = "apiVersion: planwright/v1\nid: x\nversion: 1.0.0\ngraph:\n  - id: ask\n    block: ui.confirmation\n    out: {approved: ok}\n";
    let edited = set_input(block, "ask", "message", &json!("Send the April payments?")).unwrap();
    assert!(
        edited.text.contains("    out: {approved: ok}\n    in:\n      message: Send the April payments?\n"),
        "{}",
        edited.text
    );
    let flow = "apiVersion: planwright/v1\nid: x\nversion: 1.0.0\ngraph:\n  - {id: ask, block: ui.confirmation}\n";
    let edited = set_input(flow, "ask", "message", &json!("OK?")).unwrap();
    assert_eq!(document(&edited.text)["graph"][0]["in"], json!({"message": "OK?"}));
    let flow_in = "apiVersion: planwright/v1\nid: x\nversion: 1.0.0\ngraph:\n  - {id: w, block: report.write, in: {format: csv}}\n";
    let edited = set_input(flow_in, "w", "data", &json!([{"a": 1}])).unwrap();
    assert_eq!(document(&edited.text)["graph"][0]["in"], json!({"format": "csv", "data": [{"a": 1}]}));
    // A reference has braces: written into a flow mapping, it is quoted.
    let edited = set_input(flow_in, "w", "format", &json!("${read.rows}")).unwrap();
    assert!(edited.text.contains(r#"in: {format: "${read.rows}"}"#), "{}", edited.text);
    assert_eq!(document(&edited.text)["graph"][0]["in"]["format"], "${read.rows}");
}

#[test]
fn values_of_every_kind_read_back_and_nodes_in_loop_bodies_are_found() {
    let looped = "apiVersion: planwright/v1\nid: x\nversion: 1.0.0\ngraph:\n  - id: each\n    foreach: {input: [1, 2]}\n    body:\n      plan:\n        graph:\n          - id: fetch\n            block: external.api.http\n            in:\n              url: https://example.com\n";
    for value in [
        json!("yes"),
        json!("a: b # not a comment"),
        json!("二行\n目"),
        json!(12.5),
        json!(null),
        json!({"k": ["v"]}),
        json!(true),
        json!("${vars.month}"),
    ] {
        let edited = set_input(looped, "each/fetch", "url", &value).unwrap_or_else(|e| panic!("{value}: {e}"));
        assert_eq!(document(&edited.text)["graph"][0]["body"]["plan"]["graph"][0]["in"]["url"], value);
    }
}

#[test]
fn lists_and_mappings_are_written_as_people_write_yaml() {
    let value = json!([{"field": "amount", "operator": "gt", "value": 100}, {"field": "note", "value": "a: b, c"}]);
    let edited = set_input(PLAN, "read", "path", &value).unwrap();
    assert!(
        edited.text.contains(r#"[{field: amount, operator: gt, value: 100}, {field: note, value: "a: b, c"}]"#),
        "{}",
        edited.text
    );
    assert_eq!(document(&edited.text)["graph"][0]["in"]["path"], value);
}

#[test]
fn vars_are_set_and_added() {
    let edited = set_var(PLAN, "month", &json!("2024-05")).unwrap();
    assert!(
        edited.text.contains("  month: 2024-05\n") || edited.text.contains("  month: '2024-05'\n"),
        "{}",
        edited.text
    );
    let added = set_var(PLAN, "threshold", &json!(100)).unwrap();
    assert_eq!(document(&added.text)["vars"], json!({"month": "2024-04", "threshold": 100}));
    let without = "apiVersion: planwright/v1\nid: x\nversion: 1.0.0\ngraph: []\n";
    assert_eq!(document(&set_var(without, "limit", &json!(5)).unwrap().text)["vars"], json!({"limit": 5}));
}

#[test]
fn what_cannot_be_edited_is_said() {
    assert_eq!(set_input(PLAN, "nope", "path", &json!("x")), Err(EditError::NoNode("nope".into())));
    let listed =
        "apiVersion: planwright/v1\nid: x\nversion: 1.0.0\ngraph:\n  - id: a\n    block: x.y\n    in: [1, 2]\n";
    assert_eq!(set_input(listed, "a", "p", &json!(1)), Err(EditError::NotAMapping("in".into())));
    assert!(matches!(insert_node("graph: [", &json!({"id": "a"})), Err(EditError::Unreadable(_))));
    assert!(matches!(set_var("- a list", "x", &json!(1)), Err(EditError::NotAMapping(_))));
}

proptest! {
    /// Any text value is written so that it reads back as itself, or the edit says it could not.
    #[test]
    fn any_text_reads_back_or_the_edit_says_so(value in "\\PC{0,40}") {
        match set_input(PLAN, "read", "path", &json!(value)) {
            Ok(edited) => prop_assert_eq!(&document(&edited.text)["graph"][0]["in"]["path"], &json!(value)),
            Err(error) => prop_assert!(matches!(error, EditError::Failed(_)), "{error}"),
        }
    }

    /// Any list or mapping (keys and texts of any characters, nested) is written so that it reads
    /// back as itself, or the edit says it could not.
    #[test]
    fn any_value_reads_back_or_the_edit_says_so(value in json_value()) {
        match set_input(PLAN, "read", "path", &value) {
            Ok(edited) => prop_assert_eq!(&document(&edited.text)["graph"][0]["in"]["path"], &value),
            Err(error) => prop_assert!(matches!(error, EditError::Failed(_)), "{error}"),
        }
    }

    /// No text makes an edit panic.
    #[test]
    fn any_text_can_be_tried(text in "[a-z:{}\\[\\]\\- \\n#'\"]{0,80}") {
        let _ = insert_node(&text, &json!({"id": "n", "block": "b.c"}));
        let _ = set_input(&text, "a", "x", &json!(1));
        let _ = set_var(&text, "v", &json!("w"));
    }
}

/// JSON values up to three levels deep, with texts and keys of any printable characters.
fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("\\PC{0,8}", inner, 0..4).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}
