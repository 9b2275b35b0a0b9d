//! Asking for human input at the terminal, one requirement at a time.

use std::io::{BufRead, Write};

use futures::future::BoxFuture;
use futures::FutureExt;
use planwright_block::FieldError;
use planwright_engine::AnswerSource;
use planwright_runs::InputRequest;
use serde_json::{Map, Value};

/// Prompts on stderr and reads answers from stdin.
pub struct TerminalAnswers;

impl AnswerSource for TerminalAnswers {
    fn answer<'a>(
        &'a self,
        node: &'a str,
        request: &'a InputRequest,
        errors: &'a [FieldError],
    ) -> BoxFuture<'a, Option<Value>> {
        let node = node.to_owned();
        let request = request.clone();
        let errors = errors.to_vec();
        // Reading stdin blocks: keep it off the async workers.
        async move { tokio::task::spawn_blocking(move || ask(&node, &request, &errors)).await.ok().flatten() }.boxed()
    }
}

pub(crate) fn ask(node: &str, request: &InputRequest, errors: &[FieldError]) -> Option<Value> {
    let mut err = std::io::stderr();
    for error in errors {
        let _ = writeln!(err, "  ✗ {}: {}", error.field, error.message);
    }
    let _ = writeln!(err, "\n{node} asks: {}", request.message());
    let mut answer = Map::new();
    for requirement in request.requirements() {
        let mut prompt =
            format!("  {} ({}", requirement.label.as_deref().unwrap_or(&requirement.id), requirement.field.name());
        if !requirement.options.is_empty() {
            prompt.push_str(&format!(": {}", requirement.options.join(" / ")));
        }
        if let Some(accept) = &requirement.accept {
            prompt.push_str(&format!(", {accept}"));
        }
        if let Some(hint) = &requirement.hint {
            prompt.push_str(&format!("; {hint}"));
        }
        prompt.push_str("): ");
        let line = read_line(&prompt)?;
        if !line.is_empty() {
            answer.insert(requirement.id.clone(), Value::String(line));
        }
    }
    match request {
        InputRequest::Confirm(_) | InputRequest::Mixed(_) => {
            let approve = match request {
                InputRequest::Confirm(confirm) => confirm.options.approve_label.as_deref().unwrap_or("approve"),
                _ => "approve",
            };
            // Anything but yes is a rejection: the safe answer is the default here.
            let line = read_line(&format!("  {approve}? [y/N]: "))?;
            answer.insert("approved".into(), Value::Bool(matches!(line.to_lowercase().as_str(), "y" | "yes" | "はい")));
            let comment = read_line("  comment (optional): ")?;
            if !comment.is_empty() {
                answer.insert("comment".into(), Value::String(comment));
            }
        }
        InputRequest::Inquire(_) if request.requirements().is_empty() => {
            answer.insert("response".into(), Value::String(read_line("  answer: ")?));
        }
        _ => {}
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
