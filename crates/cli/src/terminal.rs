//! Asking for human input at the terminal, one requirement at a time.

use std::io::{BufRead, Write};

use futures::future::BoxFuture;
use futures::FutureExt;
use planwright_blocks::FieldError;
use planwright_engine::AnswerSource;
use serde_json::{Map, Value};

/// Prompts on stderr and reads answers from stdin.
pub struct TerminalAnswers;

impl AnswerSource for TerminalAnswers {
    fn answer<'a>(
        &'a self,
        node: &'a str,
        request: &'a Value,
        errors: &'a [FieldError],
    ) -> BoxFuture<'a, Option<Value>> {
        let node = node.to_owned();
        let request = request.clone();
        let errors = errors.to_vec();
        // Reading stdin blocks: keep it off the async workers.
        async move { tokio::task::spawn_blocking(move || ask(&node, &request, &errors)).await.ok().flatten() }.boxed()
    }
}

fn ask(node: &str, request: &Value, errors: &[FieldError]) -> Option<Value> {
    let mut err = std::io::stderr();
    for error in errors {
        let _ = writeln!(err, "  ✗ {}: {}", error.field, error.message);
    }
    let _ = writeln!(err, "\n{node} asks: {}", request["message"].as_str().unwrap_or(""));
    let mut answer = Map::new();
    for requirement in request["requirements"].as_array().into_iter().flatten() {
        let id = requirement["id"].as_str().unwrap_or("answer");
        let label = requirement["label"].as_str().unwrap_or(id);
        let kind = requirement["type"].as_str().unwrap_or("text");
        let mut prompt = format!("  {label} ({kind}");
        if let Some(options) = requirement["options"].as_array() {
            let names: Vec<&str> = options.iter().filter_map(Value::as_str).collect();
            prompt.push_str(&format!(": {}", names.join(" / ")));
        }
        if let Some(accept) = requirement["accept"].as_str() {
            prompt.push_str(&format!(", {accept}"));
        }
        if let Some(hint) = requirement["hint"].as_str() {
            prompt.push_str(&format!("; {hint}"));
        }
        prompt.push_str("): ");
        let line = read_line(&prompt)?;
        if !line.is_empty() {
            answer.insert(id.to_owned(), Value::String(line));
        }
    }
    let mode = request["mode"].as_str().unwrap_or("collect");
    if matches!(mode, "confirm" | "mixed") || request["requirements"].as_array().is_none() {
        let line = read_line("  approve? [y/n]: ")?;
        answer.insert("approved".into(), Value::Bool(matches!(line.to_lowercase().as_str(), "y" | "yes" | "はい")));
        let comment = read_line("  comment (optional): ")?;
        if !comment.is_empty() {
            answer.insert("comment".into(), Value::String(comment));
        }
    }
    Some(Value::Object(answer))
}

/// One trimmed line from stdin; `None` at end of input (nobody is there to answer).
fn read_line(prompt: &str) -> Option<String> {
    let mut err = std::io::stderr();
    let _ = write!(err, "{prompt}");
    let _ = err.flush();
    let mut line = String::new();
    match std::io::stdin().lock().read_line(&mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(line.trim().to_owned()),
    }
}
