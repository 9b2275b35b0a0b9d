//! `planwright generate` as other tools see it: exit codes 0 / 1 / 2, the JSON shape, answers
//! from a file, the plan written to `--out`, the metrics line and `--stats`, and a scripted model
//! through the real client. Runs the real binary.

use crate::support;

use std::path::Path;
use std::process::{Command, Output, Stdio};

use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use serde_json::{json, Value};
use support::{assert_exit, said};

fn shipped() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../designs").display().to_string()
}

/// The binary with its own data home and no model settings from the developer's environment.
fn command(home: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_planwright"));
    command
        .arg("generate")
        .args(args)
        .env("PLANWRIGHT_HOME", home)
        .env_remove("PLANWRIGHT_BLOCK_SPECS")
        .stdin(Stdio::null());
    for (name, _) in std::env::vars() {
        if name.starts_with("OPENAI_") || name.starts_with("AZURE_OPENAI_") || name.starts_with("PLANWRIGHT_LLM") {
            command.env_remove(name);
        }
    }
    command
}

fn generate(home: &Path, args: &[&str]) -> Output {
    let mut all = vec!["--designs", Box::leak(shipped().into_boxed_str())];
    all.extend_from_slice(args);
    command(home, &all).output().expect("planwright runs")
}

fn json(output: &Output) -> Value {
    serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!("{e}: {}\n{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr))
    })
}

const EXPENSES: &str = "Read expenses.csv, keep the approved rows of 100 or more, total the amounts per department and write department_totals.csv";

#[test]
fn a_valid_design_exits_0_with_the_plan_and_its_open_questions_in_json() {
    let home = tempfile::tempdir().unwrap();
    let output = generate(
        home.path(),
        &[
            "--instruction",
            "取引先マスタと請求書一覧を取引先コードで突き合わせ、結果をCSVに出力する",
            "--format",
            "json",
        ],
    );
    assert_exit(&output, 0);
    let result = json(&output);
    for key in [
        "plan",
        "plan_yaml",
        "reasoning",
        "provenance",
        "candidates",
        "templates_used",
        "requirements",
        "findings",
        "attempts",
        "diff",
    ] {
        assert!(result.get(key).is_some(), "no `{key}` in {result}");
    }
    assert_eq!(result["valid"], true);
    let blocks: Vec<&str> =
        result["plan"]["graph"].as_array().unwrap().iter().filter_map(|n| n["block"].as_str()).collect();
    assert!(blocks.contains(&"transforms.join") && blocks.contains(&"report.write"), "{blocks:?}");
    // Open questions are listed, and the plan declares them as vars given at run time.
    let requirements = result["requirements"].as_array().unwrap();
    assert!(!requirements.is_empty());
    for r in requirements.iter().filter(|r| r["target"]["kind"] == "var") {
        let name = r["target"]["name"].as_str().unwrap();
        assert!(result["plan"]["vars"].get(name).is_some(), "{name} is not declared");
    }
    assert!(result["candidates"].as_array().unwrap().iter().any(|c| c["id"] == "transforms.join"));
    // Every generation leaves one metrics line under the data home.
    let lines = std::fs::read_to_string(home.path().join("design/generations.jsonl")).unwrap();
    assert_eq!(lines.lines().count(), 1);
}

#[test]
fn answers_from_a_file_fill_the_plan_and_the_plan_is_written_to_out() {
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let answers = work.path().join("answers.yaml");
    std::fs::write(&answers, "input_file: staff_expenses.csv\n").unwrap();
    let out = work.path().join("plan.yaml");
    let output = generate(
        home.path(),
        &[
            "--instruction",
            "Keep the approved rows and total the amounts per department into totals.csv",
            "--answers",
            answers.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert_exit(&output, 0);
    let result = json(&output);
    assert_eq!(result["plan"]["vars"]["input_file"], "staff_expenses.csv");
    assert!(
        !result["requirements"].as_array().unwrap().iter().any(|r| r["id"] == "input_file"),
        "an answered question is not asked again"
    );
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("staff_expenses.csv"));
    let check = Command::new(env!("CARGO_BIN_EXE_planwright"))
        .args(["validate", out.to_str().unwrap()])
        .env("PLANWRIGHT_HOME", home.path())
        .output()
        .unwrap();
    assert!(check.status.success(), "the written plan validates: {}", said(&check));
}

#[test]
fn unusable_input_exits_2_with_a_message_naming_it() {
    let home = tempfile::tempdir().unwrap();
    let cases: [(&[&str], &str); 4] = [
        (&["--instruction", "   "], "--instruction is empty"),
        (&["--instruction", "Read a.csv", "--docs", "/nonexistent/notes.pdf"], "--docs /nonexistent/notes.pdf"),
        (&["--instruction", "Read a.csv", "--templates", "bank_reconcilation"], "did you mean bank_reconciliation"),
        (&["--instruction", "@/nonexistent/instruction.txt"], "cannot read the file"),
    ];
    for (args, message) in cases {
        let output = generate(home.path(), args);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", said(&output));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(output.stdout.is_empty(), "{args:?}: nothing on stdout");
    }
    let answers = home.path().join("answers.yaml");
    std::fs::write(&answers, "- just a list\n").unwrap();
    let output = generate(home.path(), &["--instruction", EXPENSES, "--answers", answers.to_str().unwrap()]);
    assert_exit(&output, 2);
    assert!(String::from_utf8_lossy(&output.stderr).contains("mapping of requirement id"));
}

#[test]
fn an_unreadable_document_is_a_warning_naming_it() {
    let home = tempfile::tempdir().unwrap();
    let broken = home.path().join("broken.pdf");
    std::fs::write(&broken, b"%PDF-1.7 this is not a pdf").unwrap();
    let output =
        generate(home.path(), &["--instruction", EXPENSES, "--docs", broken.to_str().unwrap(), "--format", "json"]);
    assert_exit(&output, 0);
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("broken.pdf"),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn stats_summarise_the_generations_of_the_data_home() {
    let home = tempfile::tempdir().unwrap();
    for instruction in [EXPENSES, "請求書一覧.xlsx の金額が10万円以上の行だけ残して結果.xlsx に保存"]
    {
        assert_eq!(generate(home.path(), &["--instruction", instruction, "--format", "json"]).status.code(), Some(0));
    }
    let output = command(home.path(), &["--stats", "--format", "json"]).output().unwrap();
    assert_exit(&output, 0);
    let stats = json(&output);
    assert_eq!(stats["generations"], 2, "{stats}");
    assert_eq!(stats["offline"], 2);
    let text = command(home.path(), &["--stats"]).output().unwrap();
    assert!(String::from_utf8_lossy(&text.stdout).contains("generations"));
}

/// A scripted model whose wiring never validates: after the repair rounds the best attempt is
/// written with its findings and the command exits 1.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_valid_plan_after_the_repair_rounds_exits_1_with_the_best_attempt() {
    let skeleton = json!({ "summary": "read and write", "steps": [
        { "id": "read", "block": "file.read_csv", "purpose": "read", "repeat": "once" },
        { "id": "write", "block": "report.write", "purpose": "write", "repeat": "once" } ],
        "needs_person": false, "open_questions": [] });
    let broken = json!({ "id": "broken", "description": "", "vars": [], "graph": [
        { "id": "read", "block": "file.read_csv", "in": { "path": "expenses.csv" }, "out": { "rows": "rows" } },
        { "id": "write", "block": "report.write", "in": { "data": "${nowhere.rows}", "format": "csv", "path": "out.csv" }, "out": {} } ] });
    let server = ReplayServer::start(
        Script::new()
            .always(Match::user_contains("Candidate blocks:"), Reply::json(&skeleton))
            .always(Match::chat(), Reply::json(&broken)),
    )
    .await;
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    let out = work.path().join("best.yaml");
    let mut command = command(
        home.path(),
        &[
            "--designs",
            &shipped(),
            "--instruction",
            "Read expenses.csv and write out.csv",
            "--max-attempts",
            "1",
            "--out",
            out.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    command.env("OPENAI_API_KEY", "sk-test").env("OPENAI_BASE_URL", server.base_url());
    let output = tokio::task::spawn_blocking(move || command.output().unwrap()).await.unwrap();
    assert_exit(&output, 1);
    let result = json(&output);
    assert_eq!(result["valid"], false);
    assert!(
        result["findings"].as_array().unwrap().iter().any(|f| f["code"] == "unknown_node"),
        "{}",
        result["findings"]
    );
    assert_eq!(result["attempts"].as_array().unwrap().len(), 2, "the design and one repair round");
    assert!(std::fs::read_to_string(&out).unwrap().contains("nowhere.rows"), "the best attempt is written");
    assert_eq!(server.requests().len(), 3, "skeleton, wiring, one repair");
}

/// A model's plan goes through the same checks as the offline one: its column words are bound
/// to the work folder's file (`supplier` is the file's `vendor`), and an instruction that says no
/// job is refused before any model call.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_models_plan_is_bound_to_the_files_columns_and_a_vague_instruction_is_refused_without_it() {
    let skeleton = json!({ "summary": "total per supplier", "steps": [
        { "id": "read", "block": "file.read_csv", "purpose": "read", "repeat": "once" },
        { "id": "totals", "block": "transforms.group_by_agg", "purpose": "total", "repeat": "once" },
        { "id": "write", "block": "report.write", "purpose": "write", "repeat": "once" } ],
        "needs_person": false, "open_questions": [] });
    let wired = json!({ "id": "supplier_totals", "description": "", "vars": [], "graph": [
        { "id": "read", "block": "file.read_csv", "in": { "path": "payments.csv" }, "out": { "rows": "rows" } },
        { "id": "totals", "block": "transforms.group_by_agg", "in": { "items": "${read.rows}", "by": ["supplier"],
          "aggregations": [{ "field": "amount", "op": "sum", "as": "total" }] }, "out": { "rows": "totals" } },
        { "id": "write", "block": "report.write", "in": { "data": "${totals.totals}", "format": "csv", "path": "supplier_totals.csv" }, "out": {} } ] });
    let server = ReplayServer::start(
        Script::new()
            .always(Match::user_contains("Candidate blocks:"), Reply::json(&skeleton))
            .always(Match::chat(), Reply::json(&wired)),
    )
    .await;
    let home = tempfile::tempdir().unwrap();
    let work = tempfile::tempdir().unwrap();
    std::fs::write(work.path().join("payments.csv"), "date,vendor,amount\n2026-03-02,Acme,1200\n").unwrap();
    let generate = |instruction: &str| {
        let mut command = command(
            home.path(),
            &[
                "--designs",
                &shipped(),
                "--instruction",
                instruction,
                "--workdir",
                work.path().to_str().unwrap(),
                "--format",
                "json",
            ],
        );
        command.env("OPENAI_API_KEY", "sk-test").env("OPENAI_BASE_URL", server.base_url());
        command
    };
    let mut designed = generate("Read payments.csv, total the amount per supplier and write supplier_totals.csv");
    let output = tokio::task::spawn_blocking(move || designed.output().unwrap()).await.unwrap();
    assert_exit(&output, 0);
    let result = json(&output);
    assert_eq!(result["attempts"][0]["by"], "model");
    assert_eq!(result["plan"]["graph"][1]["in"]["by"], json!(["vendor"]), "{}", result["plan_yaml"]);
    let calls = server.requests().len();

    let mut vague = generate("do the monthly thing");
    let output = tokio::task::spawn_blocking(move || vague.output().unwrap()).await.unwrap();
    assert_exit(&output, 1);
    assert_eq!(json(&output)["refused"], true);
    assert_eq!(server.requests().len(), calls, "no model call for an instruction that says no job");
}

/// `planwright generate ARGS`, killed and failed after a minute: what is refused must be refused
/// at once, and a regression must fail here rather than hang.
fn generate_within_a_minute(home: &Path, args: &[&str]) -> Output {
    let mut child = command(home, args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("generate {args:?} was still running after a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn mkfifo(path: &Path) {
    let name = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o600) }, 0);
}

/// A device or a pipe never ends (and opening a pipe waits for a writer); a file over the limit
/// is read only as far as the limit: each is refused at once, naming the option and the fix.
#[test]
fn instruction_and_answers_files_that_never_end_or_are_too_large_exit_2_at_once() {
    let home = tempfile::tempdir().unwrap();
    let pipe = home.path().join("instruction.txt");
    mkfifo(&pipe);
    let pipe = pipe.to_str().unwrap();
    let large = home.path().join("large.txt");
    std::fs::write(&large, "Read a.csv and write b.csv. ".repeat(3000)).unwrap();
    let large = large.to_str().unwrap();
    let (at_pipe, at_large) = (format!("@{pipe}"), format!("@{large}"));
    // /dev/zero last: read whole, it would take all the memory there is before the minute is out.
    let cases: [(&[&str], String); 4] = [
        (&["--instruction", &at_pipe], format!("--instruction @{pipe}: cannot read the file: it is a pipe")),
        (
            &["--instruction", EXPENSES, "--answers", pipe],
            format!("--answers {pipe}: cannot read the file: it is a pipe, not a regular file"),
        ),
        (
            &["--instruction", &at_large],
            format!(
                "--instruction @{large}: it is larger than 80000 bytes, the most read here: an instruction is at most \
                 20000 characters; shorten it"
            ),
        ),
        (
            &["--instruction", "@/dev/zero"],
            "--instruction @/dev/zero: cannot read the file: it is a device, not a regular file, and might never end"
                .into(),
        ),
    ];
    for (args, message) in cases {
        let output = generate_within_a_minute(home.path(), args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", said(&output));
        assert!(stderr.contains(&message), "{args:?}: {stderr}");
    }
}

/// 200 KB of nested brackets took the YAML parser 42 s (it is quadratic in depth): the plan
/// files' nesting guard refuses them before the parser sees them.
#[test]
fn deeply_nested_answers_are_refused_before_the_parser() {
    let home = tempfile::tempdir().unwrap();
    let answers = home.path().join("answers.yaml");
    std::fs::write(&answers, format!("input_file: {}", "[".repeat(200_000))).unwrap();
    let answers = answers.to_str().unwrap();
    let output = generate_within_a_minute(home.path(), &["--instruction", EXPENSES, "--answers", answers]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_exit(&output, 2);
    assert!(
        stderr.contains(&format!(
            "--answers {answers}: YAML error at line 1, column 141: nesting deeper than 128 levels"
        )),
        "{stderr}"
    );
}

/// The plan is written by renaming over `--out`: a device (`/dev/full`, as root), a pipe or a
/// link there would be replaced. Each is refused before designing, and stays what it was.
#[test]
fn out_that_is_not_a_regular_file_is_refused_and_left_as_it_was() {
    use std::os::unix::fs::FileTypeExt;
    let home = tempfile::tempdir().unwrap();
    let pipe = home.path().join("plan.yaml");
    mkfifo(&pipe);
    let kept = home.path().join("kept.yaml");
    std::fs::write(&kept, "kept\n").unwrap();
    let link = home.path().join("link.yaml");
    std::os::unix::fs::symlink(&kept, &link).unwrap();
    // The pipe and the link first: were they replaced, the device would be too, so it is not tried.
    for (out, kind) in
        [(pipe.as_path(), "a pipe"), (link.as_path(), "a symbolic link"), (Path::new("/dev/full"), "a device")]
    {
        let out_text = out.to_str().unwrap();
        let output = generate_within_a_minute(home.path(), &["--instruction", EXPENSES, "--out", out_text]);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{out_text}: {}", said(&output));
        assert!(
            stderr.contains(&format!("--out {out_text} is {kind}, not a regular file, and is never replaced")),
            "{stderr}"
        );
        let file_type = std::fs::symlink_metadata(out).unwrap().file_type();
        match kind {
            "a pipe" => assert!(file_type.is_fifo(), "the pipe is still a pipe"),
            "a symbolic link" => assert!(file_type.is_symlink(), "the link is still a link"),
            _ => assert!(file_type.is_char_device(), "/dev/full is still a device"),
        }
    }
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), "kept\n", "nothing written through the link");
}
