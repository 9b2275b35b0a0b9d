//! Where each value of a generated plan came from (issue 27 §4): the person's words, the data in
//! the work folder, an answer, or a default the engine chose. A person reads it to see what was
//! assumed; `planwright generate --format json` gives it as `origins`.

use indexmap::IndexMap;
use planwright_plan::reference::escape_pointer;
use planwright_plan::Plan;
use serde::Serialize;
use serde_json::Value;

use crate::reading::{normalise, slots};

/// Where one value came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Origin {
    /// The instruction says it ("payments.csv", "100", "vendor").
    Words,
    /// The work folder's files gave it (a column the words were bound to, a header row).
    Data,
    /// The person answered it.
    Answer,
    /// The engine chose it: a block's default, a name it made, an output file it named.
    Default,
}

/// One value of the plan and where it came from.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ValueOrigin {
    /// JSON pointer into the plan: `/graph/1/in/by/0`, `/vars/amount_column`.
    pub path: String,
    pub value: Value,
    pub from: Origin,
}

/// The origin of every written value of `plan`'s vars and top-level node inputs (references to
/// other steps are wiring, not values, and are left out).
pub fn origins(
    plan: &Plan,
    instruction: &str,
    bound: &[String],
    answers: &IndexMap<String, Value>,
) -> Vec<ValueOrigin> {
    let text = normalise(instruction).to_lowercase();
    let numbers: Vec<f64> = slots::numbers(instruction).iter().map(|n| n.value).collect();
    let said = |value: &Value| match value {
        Value::String(s) => {
            let s = normalise(s).to_lowercase();
            !s.is_empty() && text.contains(&s)
        }
        Value::Number(n) => n.as_f64().is_some_and(|v| numbers.iter().any(|x| (x - v).abs() < 1e-9)),
        _ => false,
    };
    let mut out = Vec::new();
    for (name, value) in plan.vars.iter().filter(|(_, v)| !v.is_null()) {
        let path = format!("/vars/{}", escape_pointer(name));
        let from = if answers.contains_key(name) {
            Origin::Answer
        } else if bound.contains(&path) {
            Origin::Data
        } else if said(value) {
            Origin::Words
        } else {
            Origin::Default
        };
        out.push(ValueOrigin { path, value: value.clone(), from });
    }
    for (index, node) in plan.graph.iter().enumerate() {
        for (field, value) in &node.inputs {
            let answered = answers.contains_key(&format!("{}.{field}", node.id));
            let path = format!("/graph/{index}/in/{}", escape_pointer(field));
            leaves(value, &path, &mut |path, leaf| {
                let from = if answered {
                    Origin::Answer
                } else if bound.iter().any(|b| b == path) {
                    Origin::Data
                } else if said(leaf) {
                    Origin::Words
                } else {
                    Origin::Default
                };
                out.push(ValueOrigin { path: path.to_owned(), value: leaf.clone(), from });
            });
        }
    }
    out
}

/// Each scalar under `value` with its pointer; text holding a reference (`${…}`) is wiring.
fn leaves(value: &Value, path: &str, each: &mut dyn FnMut(&str, &Value)) {
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                leaves(item, &format!("{path}/{i}"), each);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                leaves(item, &format!("{path}/{}", escape_pointer(key)), each);
            }
        }
        Value::String(s) if s.contains("${") => {}
        Value::Null => {}
        scalar => each(path, scalar),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_value_says_whether_the_words_the_data_an_answer_or_a_default_gave_it() {
        let plan: Plan = serde_json::from_value(json!({
            "apiVersion": "planwright/v1", "id": "p", "version": "1.0.0",
            "vars": {"amount_column": "paid_amount", "output_file": "result.csv", "input_file": "payments.csv"},
            "graph": [
                {"id": "read", "block": "file.read_csv", "in": {"path": "${vars.input_file}"}, "out": {"rows": "rows"}},
                {"id": "keep", "block": "transforms.filter", "in": {"items": "${read.rows}", "conditions": [
                    {"field": "${vars.amount_column}", "operator": "gt", "value": 100}]}, "out": {"filtered": "kept"}},
                {"id": "write", "block": "report.write", "in": {"data": "${keep.kept}", "format": "csv", "path": "${vars.output_file}"}, "out": {"path": "p"}}
            ]
        }))
        .unwrap();
        let answers = IndexMap::from([("input_file".to_owned(), json!("payments.csv"))]);
        let found =
            origins(&plan, "Keep the rows over 100 and write them", &["/vars/amount_column".to_owned()], &answers);
        let from = |path: &str| found.iter().find(|o| o.path == path).map(|o| o.from);
        assert_eq!(from("/vars/amount_column"), Some(Origin::Data));
        assert_eq!(from("/vars/input_file"), Some(Origin::Answer));
        assert_eq!(from("/vars/output_file"), Some(Origin::Default));
        assert_eq!(from("/graph/1/in/conditions/0/value"), Some(Origin::Words));
        assert_eq!(from("/graph/1/in/conditions/0/operator"), Some(Origin::Default));
        assert_eq!(from("/graph/0/in/path"), None, "a reference is wiring, not a value");
    }
}
