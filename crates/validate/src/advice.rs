//! Warnings: things that work but are likely mistakes — credentials written into the plan,
//! declarations nobody uses, policies whose fields contradict each other.

use std::collections::HashSet;

use planwright_plan::reference::{escape_pointer, placeholders, visit_strings};
use planwright_plan::{Code, Finding, Node, OnError, Plan, Policy};
use serde_json::Value;

/// Plan-wide warnings, once every reference has been seen.
pub fn check_plan(
    plan: &Plan,
    used_vars: &HashSet<String>,
    used_secrets: &HashSet<String>,
    findings: &mut Vec<Finding>,
) {
    for (name, value) in &plan.vars {
        let pointer = format!("/vars/{}", escape_pointer(name));
        if !used_vars.contains(name) {
            findings.push(
                Finding::warning(Code::UnusedVar, pointer.clone(), format!("variable `{name}` is never used"))
                    .hint(format!("reference it as `${{vars.{name}}}` or remove it")),
            );
        }
        hardcoded_secrets(name, value, &pointer, findings);
    }
    for (i, name) in plan.secrets.iter().enumerate() {
        if !used_secrets.contains(name) {
            findings.push(
                Finding::warning(Code::UnusedSecret, format!("/secrets/{i}"), format!("secret `{name}` is declared but never used"))
                    .hint(format!("use it as `${{secrets.{name}}}` in a block's inputs or `{{{{{name}}}}}` in browser steps, or remove it")),
            );
        }
    }
    if let Some(policy) = &plan.policy {
        policy_conflicts(policy, "/policy", findings);
    }
    scan_graph(&plan.graph, "", findings);
}

fn scan_graph(graph: &[Node], prefix: &str, findings: &mut Vec<Finding>) {
    for (index, node) in graph.iter().enumerate() {
        let pointer = format!("{prefix}/graph/{index}");
        for (name, value) in &node.inputs {
            hardcoded_secrets(name, value, &format!("{pointer}/in/{}", escape_pointer(name)), findings);
        }
        if let Some(call) = &node.call {
            for (name, value) in &call.inputs {
                hardcoded_secrets(name, value, &format!("{pointer}/call/inputs/{}", escape_pointer(name)), findings);
            }
        }
        scan_graph(node.body_graph(), &format!("{pointer}/body/plan"), findings);
    }
}

/// A literal under a credential-like name (`password`, `api_key`, an `Authorization` header …).
fn hardcoded_secrets(name: &str, value: &Value, pointer: &str, findings: &mut Vec<Finding>) {
    let mut found = Vec::new();
    visit_strings(value, &mut |text, suffix| {
        let key = suffix.rsplit('/').next().filter(|k| !k.is_empty() && k.parse::<usize>().is_err()).unwrap_or(name);
        let literal = !text.trim().is_empty() && !text.contains("${") && placeholders(text).is_empty();
        if literal && looks_like_credential(key) {
            // Keep an HTTP authorization scheme in the suggestion: `Bearer ${secrets.X}`.
            let scheme = ["Bearer ", "Basic ", "Token "].into_iter().find(|s| text.starts_with(s)).unwrap_or("");
            found.push((format!("{pointer}{suffix}"), key.to_owned(), scheme));
        }
    });
    for (at, key, scheme) in found {
        let secret =
            if scheme.is_empty() { key.to_uppercase().replace(['-', ' '], "_") } else { "API_TOKEN".to_owned() };
        findings.push(
            Finding::warning(Code::HardcodedSecret, at, format!("`{key}` holds a literal value that looks like a credential; it would be stored in the plan file and its logs"))
                .hint(format!("declare `secrets: [{secret}]` and write `{scheme}${{secrets.{secret}}}` here; the value is then asked for at run time and never logged")),
        );
    }
}

fn looks_like_credential(key: &str) -> bool {
    let key = key.to_lowercase().replace(['-', '_', ' '], "");
    ["password", "passwd", "pwd", "secret", "token", "apikey", "authorization", "credential", "privatekey"]
        .iter()
        .any(|word| key.contains(word))
}

/// Policy fields a node sets that contradict the policy it ends up with, merged over what it
/// inherits. (A conflict the node only inherits is reported once, where it is set.)
pub fn check_policy(node: &Node, inherited: &Policy, pointer: &str, findings: &mut Vec<Finding>) {
    let Some(own) = &node.policy else { return };
    let merged = own.merged_over(inherited);
    if own.retries.is_some_and(|r| r > 0) && merged.on_error != Some(OnError::Retry) {
        findings.push(
            Finding::warning(
                Code::PolicyConflict,
                format!("{pointer}/policy/retries"),
                "`retries` has no effect unless `on_error` is `retry`",
            )
            .hint("set `on_error: retry`, or remove `retries`"),
        );
    }
    if own.on_error == Some(OnError::Retry) && merged.retries == Some(0) {
        findings.push(
            Finding::warning(
                Code::PolicyConflict,
                format!("{pointer}/policy/on_error"),
                "`on_error: retry` with `retries: 0` never retries",
            )
            .hint("set `retries` to the number of extra attempts"),
        );
    }
    if own.max_concurrency.is_some() && node.foreach.is_none() {
        findings.push(
            Finding::warning(
                Code::PolicyConflict,
                format!("{pointer}/policy/max_concurrency"),
                "`max_concurrency` on a node limits only loops over items",
            )
            .hint("set it on a `foreach` loop, or in the plan's policy"),
        );
    }
}

pub fn policy_conflicts(policy: &Policy, pointer: &str, findings: &mut Vec<Finding>) {
    if policy.retries.is_some_and(|r| r > 0) && policy.on_error != Some(OnError::Retry) {
        findings.push(
            Finding::warning(
                Code::PolicyConflict,
                format!("{pointer}/retries"),
                "`retries` has no effect unless `on_error` is `retry`",
            )
            .hint("set `on_error: retry`, or remove `retries`"),
        );
    }
    if policy.on_error == Some(OnError::Retry) && policy.retries == Some(0) {
        findings.push(
            Finding::warning(
                Code::PolicyConflict,
                format!("{pointer}/on_error"),
                "`on_error: retry` with `retries: 0` never retries",
            )
            .hint("set `retries` to the number of extra attempts"),
        );
    }
}
