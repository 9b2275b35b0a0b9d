//! Rule-based repairs from the validator's findings (the offline repair round): a key or block
//! misspelt with exactly one close candidate is renamed, a missing required input becomes an
//! open var, an undefined var or secret is declared, an alias or node misspelt with one
//! candidate is corrected, a duplicate node id gets a suffix. What has no safe rule is left for
//! the person, with its finding.

use planwright_plan::reference::scan_references;
use planwright_plan::{Code, Finding, Plan, Root};
use serde_json::{Map, Value};

/// Applies every rule that fits `findings` to `plan`; returns what was done, one line each.
pub fn repair_offline(plan: &mut Plan, findings: &[Finding]) -> Vec<String> {
    let Ok(mut doc) = serde_json::to_value(&*plan) else { return Vec::new() };
    let mut done = Vec::new();
    for finding in findings.iter().filter(|f| f.is_error()) {
        if let Some(line) = apply(&mut doc, finding) {
            done.push(line);
        }
    }
    if let Ok(repaired) = serde_json::from_value::<Plan>(doc) {
        *plan = repaired;
    }
    done
}

fn apply(doc: &mut Value, f: &Finding) -> Option<String> {
    let one = || (f.candidates.len() == 1).then(|| f.candidates[0].clone());
    match f.code {
        Code::UnknownInput | Code::UnknownOutput | Code::UnknownKey => {
            let candidate = one()?;
            let (parent, key) = split_pointer(&f.path)?;
            let map = doc.pointer_mut(&parent)?.as_object_mut()?;
            if map.contains_key(&candidate) {
                return None;
            }
            let value = map.shift_remove(&key)?;
            map.insert(candidate.clone(), value);
            Some(format!("renamed `{key}` to `{candidate}` at {parent}"))
        }
        Code::UnknownBlock => {
            let candidate = one()?;
            *doc.pointer_mut(&f.path)? = Value::from(candidate.as_str());
            Some(format!("block at {} set to `{candidate}`", f.path))
        }
        Code::MissingInput => {
            let field = f.field.as_deref()?.trim_start_matches("in.").to_owned();
            let node = node_pointer(&f.path)?;
            let id = doc.pointer(&format!("{node}/id"))?.as_str()?.to_owned();
            let var = format!("{id}_{field}").replace('-', "_");
            let node_map = doc.pointer_mut(&node)?.as_object_mut()?;
            let inputs = node_map.entry("in").or_insert_with(|| Value::Object(Map::new())).as_object_mut()?;
            inputs.insert(field.clone(), Value::from(format!("${{vars.{var}}}")));
            declare(doc, "vars", &var);
            Some(format!("`{id}.in.{field}` reads the new var `{var}` (asked for)"))
        }
        Code::UndefinedVar => {
            let names = references_at(doc, &f.path, |r| (r.root == Root::Vars).then(|| r.path[0].clone()));
            let vars = doc.get("vars").and_then(Value::as_object).cloned().unwrap_or_default();
            let missing: Vec<String> = names.into_iter().filter(|n| !vars.contains_key(n)).collect();
            for name in &missing {
                declare(doc, "vars", name);
            }
            (!missing.is_empty()).then(|| format!("declared var(s) {} (asked for)", missing.join(", ")))
        }
        Code::UndeclaredSecret | Code::UndeclaredPlaceholder => {
            let mut names = references_at(doc, &f.path, |r| (r.root == Root::Secrets).then(|| r.path[0].clone()));
            if let Some(text) = doc.pointer(&f.path).and_then(Value::as_str) {
                names.extend(planwright_plan::reference::placeholders(text).into_iter().map(str::to_owned));
            }
            let mut added = Vec::new();
            for name in names {
                let list =
                    doc.as_object_mut()?.entry("secrets").or_insert_with(|| Value::Array(Vec::new())).as_array_mut()?;
                if !list.iter().any(|s| s == &Value::from(name.as_str())) {
                    list.push(Value::from(name.as_str()));
                    added.push(name);
                }
            }
            (!added.is_empty()).then(|| format!("declared secret(s) {}", added.join(", ")))
        }
        Code::UnknownAlias | Code::UnknownNode => {
            let candidate = one()?;
            let text = doc.pointer(&f.path)?.as_str()?.to_owned();
            let wrong = scan_references(&text).flatten().find_map(|r| match (&r.root, f.code) {
                (Root::Node(node), Code::UnknownNode) if *node != candidate => {
                    Some((format!("${{{node}."), format!("${{{candidate}.")))
                }
                (Root::Node(node), Code::UnknownAlias) if r.path.first().is_some_and(|a| *a != candidate) => {
                    Some((format!("${{{node}.{}", r.path[0]), format!("${{{node}.{candidate}")))
                }
                _ => None,
            })?;
            *doc.pointer_mut(&f.path)? = Value::from(text.replace(&wrong.0, &wrong.1));
            Some(format!("`{}` corrected to `{}` at {}", wrong.0, wrong.1, f.path))
        }
        Code::DuplicateNodeId => {
            let pointer = node_pointer(&f.path)?;
            let id = doc.pointer(&format!("{pointer}/id"))?.as_str()?.to_owned();
            let new = format!("{id}_2");
            *doc.pointer_mut(&format!("{pointer}/id"))? = Value::from(new.as_str());
            Some(format!("the second `{id}` renamed to `{new}`"))
        }
        _ => None,
    }
}

/// Declares `name` in `section` (`vars`, `secrets`) with no value, unless it is there.
pub(crate) fn declare(doc: &mut Value, section: &str, name: &str) {
    if let Some(map) = doc.as_object_mut() {
        let vars = map.entry(section).or_insert_with(|| Value::Object(Map::new()));
        if let Some(vars) = vars.as_object_mut() {
            vars.entry(name).or_insert(Value::Null);
        }
    }
}

fn references_at<T>(doc: &Value, pointer: &str, pick: impl Fn(&planwright_plan::Reference) -> Option<T>) -> Vec<T> {
    let mut found = Vec::new();
    let Some(value) = doc.pointer(pointer) else { return found };
    planwright_plan::reference::visit_strings(value, &mut |text, _| {
        found.extend(scan_references(text).flatten().filter_map(|r| pick(&r)));
    });
    found
}

/// `/graph/2/in/items` → (`/graph/2/in`, `items`), with `~1` and `~0` unescaped.
pub(crate) fn split_pointer(pointer: &str) -> Option<(String, String)> {
    let (parent, key) = pointer.rsplit_once('/')?;
    Some((parent.to_owned(), key.replace("~1", "/").replace("~0", "~")))
}

/// The pointer of the node a finding's path is in: `/graph/2`, `/graph/1/body/plan/graph/0`.
fn node_pointer(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split('/').collect();
    let mut end = None;
    let mut i = 1;
    while i + 1 < parts.len() {
        if parts[i] == "graph" && parts[i + 1].parse::<usize>().is_ok() {
            end = Some(i + 2);
        }
        i += 1;
    }
    end.map(|e| parts[..e].join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_pointers_reach_into_loop_bodies() {
        assert_eq!(node_pointer("/graph/2/in/items").as_deref(), Some("/graph/2"));
        assert_eq!(node_pointer("/graph/1/body/plan/graph/0/in").as_deref(), Some("/graph/1/body/plan/graph/0"));
        assert_eq!(node_pointer("/vars/x"), None);
    }
}
