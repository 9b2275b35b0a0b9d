//! What a configured model adds to the planning layer and the task loop, each on the tier seed
//! 003 gives it: the creative tier writes the plan and the continuation plans, the fast tier
//! extracts requirements and what is missing, the evaluator reflects, judges satisfaction and
//! analyses failures. Every answer is checked against its schema and merged into the offline
//! counterpart, which stands wherever the answer cannot be used: a model never adds or removes
//! an objective, never picks an approach outside those allowed, and never counts an objective
//! done that the page did not show done.

use planwright_llm::Tier;
use planwright_runs::objective::{ObjectiveProgress, StepStatus};
use planwright_runs::planning::{
    Approach, Complexity, ContinuationContext, MadeBy, RequirementItem, SatisfactionEvaluation, TaskPlan,
};
use serde_json::{json, Value};
use tokio_util::sync::CancellationToken;

use super::offline::{self, PlanInput};
use super::settings::Strategy;
use super::AttemptReport;
use crate::model::{Ask, ModelError, ModelHelp};

/// The objectives as numbered lines, with their state and evidence when `with_state`.
fn objectives_text(progress: &ObjectiveProgress, with_state: bool) -> String {
    progress
        .objectives_only()
        .enumerate()
        .map(|(n, step)| {
            if !with_state {
                return format!("{}. {}", n + 1, step.description);
            }
            let state = match step.status {
                StepStatus::Completed => "done",
                StepStatus::Failed => "failed",
                StepStatus::Skipped => "skipped",
                StepStatus::InProgress => "in progress",
                StepStatus::Pending => "not reached",
            };
            let evidence: String = step.completion_evidence.as_deref().unwrap_or("—").chars().take(200).collect();
            format!("{}. {} [{state}] evidence: {evidence}", n + 1, step.description)
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn strings(value: &Value) -> Vec<String> {
    value.as_array().into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
}

fn string_list(max: usize) -> Value {
    json!({"type": "array", "items": {"type": "string"}, "maxItems": max})
}

fn reflection_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": ["success", "failure", "partial"]},
            "evaluation": {"type": "string"},
            "plan_revision_needed": {"type": "boolean"}
        },
        "required": ["status", "evaluation", "plan_revision_needed"],
        "additionalProperties": false
    })
}

impl ModelHelp {
    /// Seed 001's plan (creative tier), merged into the offline one: the model's understanding
    /// of the goal, its reasoning (with `chain_of_thought`), dependencies, complexities and
    /// criteria; the objectives are the person's, and the first execution plan is the step
    /// reader's (the actions are decided when the objective is reached).
    pub(crate) async fn plan_task(
        &self,
        input: &PlanInput<'_>,
        offline: &TaskPlan,
        strategy: Strategy,
        cancel: &CancellationToken,
    ) -> Result<TaskPlan, ModelError> {
        let ids: Vec<String> = offline.task_decomposition.subtasks.iter().map(|s| s.id.clone()).collect();
        let schema = json!({
            "type": "object",
            "properties": {
                "main_objective": {"type": "string"},
                "constraints": string_list(20),
                "reasoning": {"type": "string"},
                "subtasks": {
                    "type": "array",
                    "maxItems": ids.len(),
                    "items": {
                        "type": "object",
                        "properties": {
                            "id": {"type": "string", "enum": ids},
                            "dependencies": {"type": "array", "items": {"type": "string", "enum": ids}},
                            "complexity": {"type": "string", "enum": ["low", "medium", "high"]},
                            "success_criterion": {"type": "string"}
                        },
                        "required": ["id", "dependencies", "complexity", "success_criterion"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["main_objective", "constraints", "reasoning", "subtasks"],
            "additionalProperties": false
        });
        let placeholders: Vec<String> = input.placeholders.iter().map(|p| format!("{{{{{p}}}}}")).collect();
        let reasoning = match strategy {
            Strategy::ChainOfThought => "Think step by step in `reasoning` first.",
            Strategy::Direct => "Leave `reasoning` empty.",
        };
        let values = [
            ("objectives", objectives_text(input.progress, false)),
            ("start_url", input.start_url.to_owned()),
            ("placeholders", if placeholders.is_empty() { "none".to_owned() } else { placeholders.join(", ") }),
            ("reasoning", reasoning.to_owned()),
        ];
        let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let ask = Ask { prompt: "planning_plan", tier: Tier::Creative, max_tokens: 1500, name: "task_plan", schema };
        let answer = self.ask(ask, &values, cancel).await?;
        let mut plan = offline.clone();
        if let Some(main) = answer["main_objective"].as_str().filter(|m| !m.trim().is_empty()) {
            plan.goal_understanding.main_objective = main.to_owned();
            plan.goal_understanding.main_objective_said = None;
        }
        // The constraints the runner keeps anyway stay; the model's come after them.
        for constraint in strings(&answer["constraints"]) {
            if !plan.goal_understanding.constraints.contains(&constraint) {
                plan.goal_understanding.constraints.push(constraint);
            }
        }
        if strategy == Strategy::ChainOfThought {
            if let Some(reasoning) = answer["reasoning"].as_str().filter(|r| !r.trim().is_empty()) {
                plan.task_decomposition.reasoning = reasoning.to_owned();
            }
        }
        for given in answer["subtasks"].as_array().into_iter().flatten() {
            let Some(subtask) = plan.task_decomposition.subtasks.iter_mut().find(|s| given["id"] == s.id.as_str())
            else {
                continue;
            };
            let position = ids.iter().position(|id| *id == subtask.id).unwrap_or(0);
            // Only earlier objectives can be needed first: the steps run in order.
            subtask.dependencies = strings(&given["dependencies"])
                .into_iter()
                .filter(|d| ids.iter().position(|id| id == d).is_some_and(|p| p < position))
                .collect();
            subtask.complexity = match given["complexity"].as_str() {
                Some("low") => Complexity::Low,
                Some("high") => Complexity::High,
                _ => Complexity::Medium,
            };
            if let Some(criterion) = given["success_criterion"].as_str().filter(|c| !c.trim().is_empty()) {
                subtask.success_criterion = criterion.to_owned();
                subtask.success_criterion_said.clear();
            }
        }
        // The success criteria are the subtasks' own, as the model gave them.
        plan.goal_understanding.success_criteria =
            plan.task_decomposition.subtasks.iter().map(|s| format!("{}: {}", s.id, s.success_criterion)).collect();
        plan.made_by = MadeBy::Model;
        Ok(plan)
    }

    /// Seed 003's requirement extraction (fast tier): what the person asked for, each with a
    /// priority and the objective that carries it.
    pub(crate) async fn extract_requirements(
        &self,
        progress: &ObjectiveProgress,
        cancel: &CancellationToken,
    ) -> Result<Vec<RequirementItem>, ModelError> {
        let count = progress.total_objectives();
        let schema = json!({
            "type": "object",
            "properties": {
                "requirements": {
                    "type": "array",
                    "maxItems": 20,
                    "items": {
                        "type": "object",
                        "properties": {
                            "requirement": {"type": "string"},
                            "priority": {"type": "integer", "minimum": 1, "maximum": 3},
                            "objective": {"type": ["integer", "null"], "minimum": 1, "maximum": count.max(1)}
                        },
                        "required": ["requirement", "priority", "objective"],
                        "additionalProperties": false
                    }
                }
            },
            "required": ["requirements"],
            "additionalProperties": false
        });
        let text = objectives_text(progress, false);
        let ask =
            Ask { prompt: "planning_requirements", tier: Tier::Fast, max_tokens: 1000, name: "requirements", schema };
        let answer = self.ask(ask, &[("objectives", &text)], cancel).await?;
        let items: Vec<RequirementItem> = answer["requirements"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| {
                let requirement = r["requirement"].as_str()?.trim().to_owned();
                (!requirement.is_empty()).then(|| RequirementItem {
                    requirement,
                    satisfaction_level: 0.0,
                    evidence: Vec::new(),
                    priority: r["priority"].as_u64().map_or(2, |p| p.clamp(1, 3) as u8),
                    objective: r["objective"].as_u64().map(|n| n as usize).filter(|n| (1..=count).contains(n)),
                })
            })
            .collect();
        if items.is_empty() {
            return Err(ModelError { message: "the requirements came back empty".into(), retriable: true });
        }
        Ok(offline::distinct(items))
    }

    /// Seed 003's satisfaction (evaluator tier). The offline evaluation bounds it: an objective
    /// the page did not show done is never counted done, whatever the model says.
    pub(crate) async fn evaluate_satisfaction(
        &self,
        progress: &ObjectiveProgress,
        requirements: &[RequirementItem],
        offline: &SatisfactionEvaluation,
        threshold: f64,
        cancel: &CancellationToken,
    ) -> Result<SatisfactionEvaluation, ModelError> {
        let count = requirements.len();
        let schema = json!({
            "type": "object",
            "properties": {
                "overall_score": {"type": "number", "minimum": 0, "maximum": 1},
                "scores": {
                    "type": "array",
                    "minItems": count,
                    "maxItems": count,
                    "items": {"type": "number", "minimum": 0, "maximum": 1}
                },
                "missing_aspects": string_list(20),
                "quality_assessment": {"type": "string"},
                "completion_recommendation": {"type": "boolean"}
            },
            "required": ["overall_score", "scores", "missing_aspects", "quality_assessment", "completion_recommendation"],
            "additionalProperties": false
        });
        // Each requirement with the evidence of its objective: one list, nothing said twice.
        let listed: Vec<String> = requirements
            .iter()
            .enumerate()
            .map(|(n, r)| {
                let evidence = r
                    .objective
                    .and_then(|n| progress.objective_numbered(n))
                    .and_then(|s| s.completion_evidence.as_deref())
                    .unwrap_or("—");
                let evidence: String = evidence.chars().take(200).collect();
                format!("{}. [priority {}] {} — evidence: {evidence}", n + 1, r.priority, r.requirement)
            })
            .collect();
        let ask = Ask {
            prompt: "planning_satisfaction",
            tier: Tier::Evaluator,
            max_tokens: 600,
            name: "satisfaction",
            schema,
        };
        let answer = self.ask(ask, &[("requirements", &listed.join("\n"))], cancel).await?;
        let mut evaluation = offline.clone();
        let scores = answer["scores"].as_array().cloned().unwrap_or_default();
        for (requirement, score) in requirements.iter().zip(&scores) {
            let (Some(value), Some(offline_score)) =
                (score.as_f64(), evaluation.requirement_scores.get_mut(&requirement.requirement))
            else {
                continue;
            };
            // The page's evidence bounds the score: the model may find less, never more.
            let bound = bound_for(requirements, progress, &requirement.requirement, *offline_score);
            *offline_score = value.clamp(0.0, 1.0).min(bound);
        }
        let overall = answer["overall_score"].as_f64().unwrap_or(offline.overall_score).clamp(0.0, 1.0);
        evaluation.overall_score = (overall.min(offline.overall_score) * 1000.0).round() / 1000.0;
        evaluation.missing_aspects = {
            let mut missing = offline.missing_aspects.clone();
            missing.extend(
                strings(&answer["missing_aspects"]).into_iter().filter(|m| !offline.missing_aspects.contains(m)),
            );
            missing
        };
        if let Some(quality) = answer["quality_assessment"].as_str().filter(|q| !q.trim().is_empty()) {
            evaluation.quality_assessment = quality.to_owned();
            evaluation.quality_assessment_said = None;
        }
        let high_met = requirements
            .iter()
            .filter(|r| r.priority == 1)
            .all(|r| evaluation.requirement_scores.get(&r.requirement).is_none_or(|score| *score >= threshold));
        evaluation.completion_recommendation = answer["completion_recommendation"].as_bool().unwrap_or(false)
            && offline.completion_recommendation
            && evaluation.overall_score >= threshold
            && high_met;
        evaluation.made_by = MadeBy::Model;
        Ok(evaluation)
    }

    /// Seed 001's reflection on a failed attempt (evaluator tier): the evaluation in words and
    /// whether the plan needs revising (only ever to `next`, the approach the runner allows).
    pub(crate) async fn reflect(
        &self,
        progress: &ObjectiveProgress,
        report: &AttemptReport,
        next: Option<Approach>,
        recent: &[String],
        cancel: &CancellationToken,
    ) -> Result<(String, bool), ModelError> {
        let objective =
            progress.objective_steps.get(report.objective).map(|s| s.description.clone()).unwrap_or_default();
        let what = format!(
            "Objective {} ({objective}), attempt {} ({}), failed: {}",
            progress.objective_number(report.objective),
            report.attempt,
            report.approach.describe(),
            report.reason
        );
        let offered = next.map_or_else(|| "none is left".to_owned(), |a| a.describe().to_owned());
        let values = [
            ("trigger", "a failed attempt"),
            ("progress", &progress.progress_summary()),
            ("what", &what),
            ("actions", &recent.join("\n")),
            ("revision", &offered),
        ];
        let ask = Ask {
            prompt: "planning_reflect",
            tier: Tier::Evaluator,
            max_tokens: 500,
            name: "reflection",
            schema: reflection_schema(),
        };
        let answer = self.ask(ask, &values, cancel).await?;
        let evaluation = answer["evaluation"].as_str().unwrap_or_default().trim().to_owned();
        if evaluation.is_empty() {
            return Err(ModelError { message: "the reflection came back empty".into(), retriable: true });
        }
        Ok((evaluation, answer["plan_revision_needed"].as_bool().unwrap_or(false)))
    }

    /// The look back every N actions (evaluator tier), asked only when the offline look found
    /// something wrong.
    pub(crate) async fn reflect_interval(
        &self,
        progress: &ObjectiveProgress,
        recent: &[String],
        cancel: &CancellationToken,
    ) -> Result<String, ModelError> {
        let values = [
            ("trigger", "the last actions"),
            ("progress", &progress.progress_summary()),
            ("what", "the objective in progress, after the actions below"),
            ("actions", &recent.join("\n")),
            ("revision", "decided by the runner"),
        ];
        let ask = Ask {
            prompt: "planning_reflect",
            tier: Tier::Evaluator,
            max_tokens: 400,
            name: "reflection",
            schema: reflection_schema(),
        };
        let answer = self.ask(ask, &values, cancel).await?;
        answer["evaluation"]
            .as_str()
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| ModelError { message: "the reflection came back empty".into(), retriable: true })
    }

    /// Seed 003's missing information (fast tier) and the continuation plan's choice (creative
    /// tier): what is still missing and what was learned, then which of the allowed approaches
    /// the next pass takes on the objective that failed.
    pub(crate) async fn plan_continuation(
        &self,
        progress: &ObjectiveProgress,
        context: &ContinuationContext,
        allowed: &[Approach],
        cancel: &CancellationToken,
    ) -> Result<(Vec<String>, Approach, String), ModelError> {
        let missing_schema = json!({
            "type": "object",
            "properties": {"missing": string_list(10), "constraints": string_list(10)},
            "required": ["missing", "constraints"],
            "additionalProperties": false
        });
        let state = objectives_text(progress, true);
        let tried = context.failed_approaches.join("\n");
        let values = [("request", progress.original_input.as_str()), ("objectives", &state), ("tried", &tried)];
        let ask = Ask {
            prompt: "planning_missing",
            tier: Tier::Fast,
            max_tokens: 600,
            name: "missing_information",
            schema: missing_schema,
        };
        let missing = self.ask(ask, &values, cancel).await?;
        let constraints = strings(&missing["constraints"]);
        let names: Vec<&str> = allowed.iter().map(|a| a.name()).collect();
        let listed: Vec<String> = allowed.iter().map(|a| format!("- {}: {}", a.name(), a.describe())).collect();
        let schema = json!({
            "type": "object",
            "properties": {"reasoning": {"type": "string"}, "approach": {"type": "string", "enum": names}},
            "required": ["reasoning", "approach"],
            "additionalProperties": false
        });
        let missing_text = strings(&missing["missing"]).join("\n");
        let values = [
            ("request", progress.original_input.as_str()),
            ("objectives", &state),
            ("tried", &tried),
            ("missing", &missing_text),
            ("approaches", &listed.join("\n")),
        ];
        let ask =
            Ask { prompt: "planning_continue", tier: Tier::Creative, max_tokens: 600, name: "continuation", schema };
        let answer = self.ask(ask, &values, cancel).await?;
        let approach =
            answer["approach"].as_str().and_then(|id| allowed.iter().copied().find(|a| a.name() == id)).ok_or_else(
                || ModelError { message: "the continuation named no allowed approach".into(), retriable: true },
            )?;
        Ok((constraints, approach, answer["reasoning"].as_str().unwrap_or_default().to_owned()))
    }

    /// The technical analysis the person asked for (evaluator tier): a diagnosis in Markdown.
    pub(crate) async fn analyse_failure(&self, facts: &str, cancel: &CancellationToken) -> Result<String, ModelError> {
        let schema = json!({
            "type": "object",
            "properties": {"diagnosis": {"type": "string"}, "likely_causes": string_list(8), "suggestions": string_list(8)},
            "required": ["diagnosis", "likely_causes", "suggestions"],
            "additionalProperties": false
        });
        let ask =
            Ask { prompt: "planning_analysis", tier: Tier::Evaluator, max_tokens: 1200, name: "analysis", schema };
        let answer = self.ask(ask, &[("facts", facts)], cancel).await?;
        let mut text = answer["diagnosis"].as_str().unwrap_or_default().trim().to_owned();
        for (title, key) in [("Likely causes", "likely_causes"), ("Suggestions", "suggestions")] {
            let items = strings(&answer[key]);
            if !items.is_empty() {
                text.push_str(&format!("\n\n### {title}\n"));
                for item in items {
                    text.push_str(&format!("- {item}\n"));
                }
            }
        }
        if text.trim().is_empty() {
            return Err(ModelError { message: "the analysis came back empty".into(), retriable: true });
        }
        Ok(text)
    }
}

/// The most a requirement may score: what the offline evaluation gave an objective the page
/// did not show done; 1 for one it did.
fn bound_for(requirements: &[RequirementItem], progress: &ObjectiveProgress, name: &str, offline: f64) -> f64 {
    let objective = requirements.iter().find(|r| r.requirement == name).and_then(|r| r.objective);
    match objective.and_then(|n| progress.objective_numbered(n)) {
        Some(step) if step.status == StepStatus::Completed => 1.0,
        Some(_) => offline,
        None => 1.0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::ObjectiveTransitions;

    #[test]
    fn objectives_are_listed_with_their_state_for_the_evaluator() {
        let mut progress = ObjectiveProgress::begin("x", ["Open Statements".to_owned(), "Download October".to_owned()]);
        progress.start_current().unwrap();
        progress.complete_current("now at statements.html").unwrap();
        assert_eq!(
            objectives_text(&progress, true),
            "1. Open Statements [done] evidence: now at statements.html\n2. Download October [not reached] evidence: —"
        );
    }
}
