//! Turning a finding's JSON pointer into what people read: the node (`loop/inner` inside loop
//! bodies), the field (`in.items`, `ui.layout[2]`) and the line and column in the file.

use serde_json::Value;

use crate::finding::Finding;
use crate::source_map::SourceMap;

/// Fills in node, field, line and column where a finding does not set them itself.
pub fn annotate(document: &Value, map: &SourceMap, findings: &mut [Finding]) {
    for finding in findings {
        let (node, field) = describe_pointer(document, &finding.path);
        if finding.node.is_none() {
            finding.node = node;
        }
        if finding.field.is_none() {
            finding.field = field;
        }
        if finding.line.is_none() {
            if let Some(position) = map.locate(&finding.path) {
                finding.line = Some(position.line);
                finding.column = Some(position.column);
            }
        }
    }
}

/// The node path and the field a JSON pointer leads to.
pub fn describe_pointer(document: &Value, pointer: &str) -> (Option<String>, Option<String>) {
    let segments: Vec<String> = pointer.split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect();
    let mut nodes: Vec<String> = Vec::new();
    let mut scope = document;
    let mut i = 0;
    loop {
        // `graph/<n>` enters a node; `body/plan/graph/<n>` enters a node of a loop body.
        let enter = match segments.get(i..) {
            Some([g, n, ..]) if g == "graph" => n.parse::<usize>().ok().map(|n| (2, n)),
            Some([b, p, g, n, ..]) if !nodes.is_empty() && b == "body" && p == "plan" && g == "graph" => {
                scope = scope.get("body").and_then(|b| b.get("plan")).unwrap_or(&Value::Null);
                n.parse::<usize>().ok().map(|n| (4, n))
            }
            _ => None,
        };
        let Some((step, index)) = enter else { break };
        let node = scope.get("graph").and_then(|g| g.get(index)).unwrap_or(&Value::Null);
        nodes.push(match node.get("id").and_then(Value::as_str) {
            Some(id) if !id.is_empty() => id.to_owned(),
            _ => format!("graph[{index}]"),
        });
        scope = node;
        i += step;
    }
    let mut field = String::new();
    for segment in segments.iter().skip(i) {
        if segment.parse::<usize>().is_ok() && !field.is_empty() {
            field.push_str(&format!("[{segment}]"));
        } else {
            if !field.is_empty() {
                field.push('.');
            }
            field.push_str(segment);
        }
    }
    ((!nodes.is_empty()).then(|| nodes.join("/")), (!field.is_empty()).then_some(field))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn doc() -> Value {
        json!({"graph": [
            {"id": "read"},
            {"id": "loop", "body": {"plan": {"graph": [{"id": "inner"}, {}]}}}
        ]})
    }

    fn describe(pointer: &str) -> (Option<String>, Option<String>) {
        describe_pointer(&doc(), pointer)
    }

    #[test]
    fn nodes_and_fields() {
        assert_eq!(describe("/graph/0/in/items"), (Some("read".into()), Some("in.items".into())));
        assert_eq!(describe("/graph/0"), (Some("read".into()), None));
        assert_eq!(describe("/graph/1/foreach/input"), (Some("loop".into()), Some("foreach.input".into())));
        assert_eq!(describe("/graph/0/after/2"), (Some("read".into()), Some("after[2]".into())));
    }

    #[test]
    fn loop_bodies_join_node_ids() {
        assert_eq!(describe("/graph/1/body/plan/graph/0/in/x"), (Some("loop/inner".into()), Some("in.x".into())));
        assert_eq!(describe("/graph/1/body/plan/graph/1/block"), (Some("loop/graph[1]".into()), Some("block".into())));
        assert_eq!(describe("/graph/1/body/plan/polcy"), (Some("loop".into()), Some("body.plan.polcy".into())));
    }

    #[test]
    fn plan_level_fields() {
        assert_eq!(describe("/ui/layout/2"), (None, Some("ui.layout[2]".into())));
        assert_eq!(describe(""), (None, None));
        assert_eq!(describe("/graph/9/id"), (Some("graph[9]".into()), Some("id".into())));
    }
}
