//! `planwright run`, `resume` and `runs` as other tools see them: exit codes, JSON shapes, and a
//! process killed mid-run that resumes without re-running what finished.

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{assert_exit, files_under, planwright_in, said};

use crate::support;

fn planwright(home: &Path, workdir: &Path, args: &[&str]) -> Output {
    planwright_in(home, workdir).args(args).output().unwrap()
}

const ASKS: &str = "apiVersion: planwright/v1\nid: asks\nversion: 1.0.0\ngraph:\n  - id: ask\n    block: ui.interactive_input\n    in:\n      mode: collect\n      message: 入金明細を選んでください\n      requirements:\n        - {id: bank_file, type: file, accept: .csv, required: true}\n        - {id: month, type: text, required: true}\n    out: {collected_data: data}\n  - id: save\n    block: report.write\n    in: {data: \"${ask.data}\", format: json, path: out/answer.json}\n";

#[test]
fn with_no_way_to_ask_the_run_exits_3_naming_every_missing_requirement() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), ASKS).unwrap();
    let output = planwright(home.path(), work.path(), &["run", "plan.yaml"]);
    assert_exit(&output, 3);
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(stdout.contains("`bank_file`") && stdout.contains("`month`"), "{stdout}");
}

#[test]
fn answers_from_a_file_complete_the_run() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), ASKS).unwrap();
    std::fs::write(work.path().join("answers.yaml"), "ask:\n  bank_file: data/bank.csv\n  month: 2026-10\n").unwrap();
    // A file the answer names must exist in the work directory; until it does, the request stays open.
    let missing = planwright(home.path(), work.path(), &["run", "plan.yaml", "--inputs", "answers.yaml"]);
    assert_exit(&missing, 3);
    assert!(String::from_utf8_lossy(&missing.stdout).contains("no file at"));
    std::fs::create_dir(work.path().join("data")).unwrap();
    std::fs::write(work.path().join("data/bank.csv"), "日付,金額\n2026-10-01,1000\n").unwrap();
    let output =
        planwright(home.path(), work.path(), &["run", "plan.yaml", "--inputs", "answers.yaml", "--format", "json"]);
    assert_exit(&output, 0);
    let outcome: Value = serde_json::from_slice(&output.stdout).unwrap();
    assert_eq!(outcome["status"], "succeeded");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("out/answer.json")).unwrap()).unwrap();
    assert_eq!(saved["bank_file"], "data/bank.csv");
}

#[test]
fn vars_keep_their_yaml_type_and_unknown_vars_are_unusable_input() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let plan = "apiVersion: planwright/v1\nid: typed\nversion: 1.0.0\nvars:\n  limit: 1\n  flag: false\n  label: x\ngraph:\n  - id: save\n    block: report.write\n    in: {data: {limit: \"${vars.limit}\", flag: \"${vars.flag}\", label: \"${vars.label}\"}, format: json, path: out/vars.json}\n";
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();
    let output = planwright(
        home.path(),
        work.path(),
        &["run", "plan.yaml", "--var", "limit=1200", "--var", "flag=true", "--var", "label=2026-10"],
    );
    assert_exit(&output, 0);
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("out/vars.json")).unwrap()).unwrap();
    assert_eq!(saved, serde_json::json!({"limit": 1200, "flag": true, "label": "2026-10"}));
    let unknown = planwright(home.path(), work.path(), &["run", "plan.yaml", "--var", "nope=1"]);
    assert_exit(&unknown, 2);
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("`nope`"));
}

#[test]
fn runs_list_and_show_give_the_record() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), ASKS).unwrap();
    planwright(home.path(), work.path(), &["run", "plan.yaml"]);
    let list = planwright(home.path(), work.path(), &["runs", "list", "--format", "json"]);
    let runs: Value = serde_json::from_slice(&list.stdout).unwrap();
    let run = &runs[0];
    let keys: Vec<&str> = run.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, ["run_id", "plan_id", "status", "started_at", "finished_at", "counts"]);
    assert_eq!(run["status"], "waiting_for_input");
    let show =
        planwright(home.path(), work.path(), &["runs", "show", run["run_id"].as_str().unwrap(), "--format", "json"]);
    let shown: Value = serde_json::from_slice(&show.stdout).unwrap();
    assert!(shown["events"].as_array().unwrap().iter().any(|e| e["type"] == "input_requested"));
    let log = home.path().join("runs/asks").join(format!("{}.jsonl", run["run_id"].as_str().unwrap()));
    assert_eq!(std::fs::read_to_string(log).unwrap().lines().count(), shown["events"].as_array().unwrap().len());
    // For people, the status in words.
    let text = String::from_utf8_lossy(&planwright(home.path(), work.path(), &["runs", "list"]).stdout).into_owned();
    assert!(text.contains("waiting for input") && !text.contains("waitingforinput"), "{text}");
    let show = planwright(home.path(), work.path(), &["runs", "show", run["run_id"].as_str().unwrap()]);
    let text = String::from_utf8_lossy(&show.stdout).into_owned();
    assert!(text.contains("— waiting for input") && !text.contains("WaitingForInput"), "{text}");
}

/// Runs `planwright` and waits at most `limit` for it; `None` when it was still running (then
/// it is killed).
fn planwright_within(home: &Path, workdir: &Path, args: &[&str], limit: Duration) -> Option<Output> {
    let mut child =
        planwright_in(home, workdir).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let started = Instant::now();
    while started.elapsed() < limit {
        if child.try_wait().unwrap().is_some() {
            return Some(child.wait_with_output().unwrap());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    None
}

/// A pipe never ends (and opening one waits for a writer): reading it is refused at once, and
/// the run's process ends with the run.
#[cfg(unix)]
#[test]
fn a_pipe_is_refused_as_input_and_the_process_exits_with_the_run() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let fifo = std::ffi::CString::new(work.path().join("never.csv").into_os_string().into_encoded_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let plan = "apiVersion: planwright/v1\nid: pipe\nversion: 1.0.0\npolicy: {timeout_ms: 2000}\ngraph:\n  - id: read\n    block: file.read_csv\n    in: {path: never.csv}\n";
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();
    let output = planwright_within(home.path(), work.path(), &["run", "plan.yaml"], Duration::from_secs(60))
        .expect("the process ends with the run");
    assert_exit(&output, 1);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("never.csv") && stderr.contains("not a regular file"), "{stderr}");
}

#[test]
fn a_work_directory_that_does_not_exist_is_created_and_said() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let plan = "apiVersion: planwright/v1\nid: fresh\nversion: 1.0.0\ngraph:\n  - id: save\n    block: report.write\n    in: {data: {ok: true}, format: json, path: out/ok.json}\n";
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();
    let output = planwright(home.path(), work.path(), &["run", "plan.yaml", "--workdir", "new/run"]);
    assert_exit(&output, 0);
    assert!(String::from_utf8_lossy(&output.stderr).contains("created the work directory new/run"));
    assert!(work.path().join("new/run/out/ok.json").is_file());
}

/// A server that accepts connections and, until `answer` is set, never answers them.
fn held_server() -> (TcpListener, String) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    (listener, base)
}

fn answer_all(listener: TcpListener) -> std::sync::Arc<std::sync::atomic::AtomicUsize> {
    let answered = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = answered.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let body = "{\"ok\": true}";
            let _ = write!(stream, "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len());
            counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
    });
    answered
}

/// `planwright run plan.yaml` in `work`, going on while the test watches it.
fn run_in_background(home: &Path, work: &Path) -> std::process::Child {
    planwright_in(home, work).args(["run", "plan.yaml"]).stdout(Stdio::null()).stderr(Stdio::null()).spawn().unwrap()
}

/// The run log under `runs` (a plan's folder of the data home) once it records `node` started.
fn started_node(runs: &Path, node: &str) -> std::path::PathBuf {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "the run never reached `{node}`");
        let started = std::fs::read_dir(runs).ok().and_then(|dir| {
            dir.flatten().map(|e| e.path()).find(|p| p.extension().is_some_and(|x| x == "jsonl")).filter(|p| {
                std::fs::read_to_string(p)
                    .is_ok_and(|t| t.contains("\"node_started\"") && t.contains(&format!("\"{node}\"")))
            })
        });
        if let Some(log) = started {
            return log;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn ctrl_c_stops_a_run_waiting_in_a_block_and_the_process_exits_with_it() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (_listener, base) = held_server();
    let plan = format!(
        "apiVersion: planwright/v1\nid: interrupted\nversion: 1.0.0\nvars:\n  base: {base}\ngraph:\n  - id: hang\n    block: external.api.http\n    in: {{url: \"${{vars.base}}/slow\", timeout_sec: 600}}\n"
    );
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();
    let mut child = run_in_background(home.path(), work.path());
    started_node(&home.path().join("runs/interrupted"), "hang");
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) }, 0);
    // The server still holds the request: the process must not wait for it (or for its 600 s).
    let deadline = Instant::now() + Duration::from_secs(30);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("the process lived on after Ctrl+C stopped its run");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(!status.success());
    let list = planwright(home.path(), work.path(), &["runs", "list", "--format", "json"]);
    let runs: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(runs[0]["status"], "stopped", "{runs}");
}

#[test]
fn a_killed_run_resumes_without_rerunning_finished_nodes() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (listener, base) = held_server();
    let plan = format!(
        "apiVersion: planwright/v1\nid: killed\nversion: 1.0.0\nvars:\n  base: {base}\ngraph:\n  - id: first\n    block: report.write\n    in: {{data: {{step: 1}}, format: json, path: out/first.json}}\n  - id: hang\n    block: external.api.http\n    after: [first]\n    in: {{url: \"${{vars.base}}/slow\", timeout_sec: 600}}\n    out: {{status: status}}\n  - id: last\n    block: report.write\n    in: {{data: {{status: \"${{hang.status}}\"}}, format: json, path: out/last.json}}\n"
    );
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();
    let mut child = run_in_background(home.path(), work.path());
    // Wait until `first` has finished and `hang` has started, then kill the process outright.
    let log = started_node(&home.path().join("runs/killed"), "hang");
    child.kill().unwrap();
    child.wait().unwrap();
    let run_id = log.file_stem().unwrap().to_string_lossy().into_owned();
    let first_written = std::fs::metadata(work.path().join("out/first.json")).unwrap().modified().unwrap();

    let list = planwright(home.path(), work.path(), &["runs", "list", "--format", "json"]);
    let runs: Value = serde_json::from_slice(&list.stdout).unwrap();
    assert_eq!(runs[0]["status"], "interrupted");

    let answered = answer_all(listener);
    let resumed = planwright(home.path(), work.path(), &["resume", &run_id]);
    assert_exit(&resumed, 0);
    assert!(answered.load(std::sync::atomic::Ordering::SeqCst) >= 1);
    let events: Vec<Value> =
        std::fs::read_to_string(&log).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let starts = |node: &str| events.iter().filter(|e| e["type"] == "node_started" && e["node"] == node).count();
    assert_eq!(starts("first"), 1, "`first` finished before the kill and was not run again");
    assert_eq!(starts("hang"), 2, "`hang` was in flight and ran again");
    assert_eq!(std::fs::metadata(work.path().join("out/first.json")).unwrap().modified().unwrap(), first_written);
    let last: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("out/last.json")).unwrap()).unwrap();
    assert_eq!(last["status"], 200);
    let seqs: Vec<u64> = events.iter().map(|e| e["seq"].as_u64().unwrap()).collect();
    assert_eq!(seqs, (1..=seqs.len() as u64).collect::<Vec<_>>());
}

#[test]
fn in_a_terminal_the_run_asks_and_continues() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), ASKS).unwrap();
    std::fs::create_dir(work.path().join("data")).unwrap();
    std::fs::write(work.path().join("data/bank.csv"), "日付,金額\n").unwrap();
    // `script` gives planwright a real pseudo-terminal; the answers are typed into it.
    let mut child = Command::new("script")
        .args(["-qec", &format!("{} run plan.yaml", env!("CARGO_BIN_EXE_planwright")), "/dev/null"])
        .current_dir(work.path())
        .env("PLANWRIGHT_HOME", home.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("`script` (util-linux) runs");
    child.stdin.take().unwrap().write_all("data/bank.csv\n2026-10\n".as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let screen = String::from_utf8_lossy(&output.stdout);
    assert_exit(&output, 0);
    assert!(screen.contains("bank_file (file, .csv)"), "{screen}");
    let saved: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("out/answer.json")).unwrap()).unwrap();
    assert_eq!(saved["month"], "2026-10");
}

#[test]
fn a_waiting_run_resumes_with_answers_and_reports_junit() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), ASKS).unwrap();
    let waiting = planwright(home.path(), work.path(), &["run", "plan.yaml", "--format", "json"]);
    assert_exit(&waiting, 3);
    let run_id = serde_json::from_slice::<Value>(&waiting.stdout).unwrap()["run_id"].as_str().unwrap().to_owned();
    std::fs::create_dir(work.path().join("data")).unwrap();
    std::fs::write(work.path().join("data/bank.csv"), "日付,金額\n").unwrap();
    std::fs::write(work.path().join("answers.yaml"), "ask: {bank_file: data/bank.csv, month: 2026-10}\n").unwrap();
    let resumed =
        planwright(home.path(), work.path(), &["resume", &run_id, "--inputs", "answers.yaml", "--report", "junit.xml"]);
    assert_exit(&resumed, 0);
    let junit = std::fs::read_to_string(work.path().join("junit.xml")).unwrap();
    assert!(junit.contains("<testsuite name=\"asks\""), "{junit}");
    assert_eq!(junit.matches("<testcase ").count(), 2, "a test case per node: {junit}");
    assert!(!junit.contains("<failure"), "{junit}");
}

#[test]
fn a_failed_node_is_a_junit_failure() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let plan = "apiVersion: planwright/v1\nid: fails\nversion: 1.0.0\ngraph:\n  - id: read\n    block: file.read_csv\n    policy: {on_error: continue}\n    in: {path: missing.csv}\n    out: {rows: rows}\n  - id: save\n    block: report.write\n    in: {data: {rows: \"${read.rows}\"}, format: json, path: out/x.json}\n";
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();
    let output = planwright(home.path(), work.path(), &["run", "plan.yaml", "--report", "junit.xml"]);
    assert_eq!(output.status.code(), Some(1), "a continued failure fails the run: {}", said(&output));
    let junit = std::fs::read_to_string(work.path().join("junit.xml")).unwrap();
    assert!(junit.contains("failures=\"1\""), "{junit}");
    assert!(
        junit.contains("<testcase classname=\"fails\" name=\"read\"") && junit.contains("<failure message="),
        "{junit}"
    );
}

#[test]
fn a_secret_value_reaches_the_server_but_no_output_record_or_report() {
    const CANARY: &str = "canary-93c1-never-printed";
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (listener, base) = held_server();
    answer_all(listener);
    let plan = format!(
        "apiVersion: planwright/v1\nid: secretive\nversion: 1.0.0\nvars:\n  base: {base}\nsecrets: [API_TOKEN]\ngraph:\n  - id: call\n    block: external.api.http\n    in: {{url: \"${{vars.base}}/x\", headers: {{Authorization: \"Bearer ${{secrets.API_TOKEN}}\"}}}}\n    out: {{status: status}}\n  - id: fail\n    block: external.api.http\n    after: [call]\n    in: {{url: \"ftp://${{secrets.API_TOKEN}}@example.com/\"}}\n"
    );
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();
    let output = planwright_in(home.path(), work.path())
        .args(["run", "plan.yaml", "--report", "junit.xml"])
        .env("PLANWRIGHT_SECRET_API_TOKEN", CANARY)
        .env("PLANWRIGHT_LOG", "trace")
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "the second node fails (not an http URL): {}", said(&output));
    let mut seen = format!("{}{}", String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    seen.push_str(&std::fs::read_to_string(work.path().join("junit.xml")).unwrap());
    for file in files_under(home.path()) {
        seen.push_str(&String::from_utf8_lossy(&std::fs::read(&file).unwrap()));
    }
    assert!(!seen.contains(CANARY), "the secret leaked");
    assert!(seen.contains("***"), "the failure message is there, masked");
}

#[test]
fn bad_inputs_files_and_vars_are_unusable_input_with_a_reason() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), ASKS).unwrap();
    std::fs::write(work.path().join("list.yaml"), "- not\n- a map\n").unwrap();
    std::fs::write(work.path().join("broken.yaml"), "ask: {bank_file: [\n").unwrap();
    std::fs::write(work.path().join("binary.yaml"), [0xff_u8, 0xfe, 0x00]).unwrap();
    for inputs in ["list.yaml", "broken.yaml", "binary.yaml", "missing.yaml"] {
        let output = planwright(home.path(), work.path(), &["run", "plan.yaml", "--inputs", inputs]);
        assert_eq!(output.status.code(), Some(2), "{inputs}: {}", said(&output));
        assert!(String::from_utf8_lossy(&output.stderr).contains(&format!("--inputs {inputs}")), "{inputs}");
    }
    let output = planwright(home.path(), work.path(), &["run", "plan.yaml", "--var", "month"]);
    assert_exit(&output, 2);
    assert!(String::from_utf8_lossy(&output.stderr).contains("name=value"));
}

/// The QA example never invites a wrong sign-off: when its test cases fail, no blank evidence is
/// saved, and the sign-off shows how many passed and failed with "retest" as the first choice.
#[test]
fn the_qa_example_shows_failures_and_offers_retest_first() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../designs/examples/qa_expense_app_regression.yaml");
    let example = example.to_str().unwrap();
    // The example's secrets, wrong ones: a run without them would not start. (nextest runs each
    // test in its own process, so the child alone sees them.)
    std::env::set_var("PLANWRIGHT_SECRET_QA_USER", "qa-nobody");
    std::env::set_var("PLANWRIGHT_SECRET_QA_PASSWORD", "not-the-password");
    let output =
        planwright_within(home.path(), work.path(), &["run", example, "--format", "json"], Duration::from_secs(240))
            .expect("the run ends");
    assert_exit(&output, 3);
    let outcome: Value = serde_json::from_slice(&output.stdout).unwrap();
    let show = planwright(
        home.path(),
        work.path(),
        &["runs", "show", outcome["run_id"].as_str().unwrap(), "--format", "json"],
    );
    let shown: Value = serde_json::from_slice(&show.stdout).unwrap();
    let events = shown["events"].as_array().unwrap();
    let asked = events.iter().find(|e| e["type"] == "input_requested").expect("the sign-off is asked");
    assert_eq!(asked["node"], "qa_signoff");
    let message = asked["request"]["message"].as_str().unwrap();
    assert!(message.contains("4 件中 0 件合格、4 件不合格"), "{message}");
    assert_eq!(asked["request"]["options"]["default"], "reject");
    let results: Vec<&Value> = asked["request"]["context"].as_array().unwrap().iter().map(|row| &row["結果"]).collect();
    assert_eq!(results, ["不合格"; 4], "each case's result, in words");
    // No case was done (the staging server is not reachable here), so no evidence was written.
    let pngs: Vec<_> =
        files_under(work.path()).into_iter().filter(|p| p.extension().is_some_and(|e| e == "png")).collect();
    assert!(pngs.is_empty(), "{pngs:?}");
}

#[test]
fn every_missing_secret_is_named_before_any_node_and_a_stored_one_is_used() {
    const CANARY: &str = "canary-stored-5d0e";
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let (listener, base) = held_server();
    answer_all(listener);
    let plan = format!(
        "apiVersion: planwright/v1\nid: two_secrets\nversion: 1.0.0\nvars:\n  base: {base}\nsecrets: [API_TOKEN, API_USER]\ngraph:\n  - id: call\n    block: external.api.http\n    in: {{url: \"${{vars.base}}/x\", headers: {{Authorization: \"Bearer ${{secrets.API_TOKEN}}\", X-User: \"${{secrets.API_USER}}\"}}}}\n    out: {{status: status}}\n"
    );
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();
    let run = |extra: &[(&str, &str)]| {
        let mut command = planwright_in(home.path(), work.path());
        command
            .args(["run", "plan.yaml"])
            .env("PLANWRIGHT_KEYRING", "off")
            .env_remove("PLANWRIGHT_SECRET_API_TOKEN")
            .env_remove("PLANWRIGHT_SECRET_API_USER");
        for (name, value) in extra {
            command.env(name, value);
        }
        command.output().unwrap()
    };
    let missing = run(&[]);
    assert_exit(&missing, 2);
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert!(stderr.contains("`API_TOKEN`, `API_USER` have no value"), "{stderr}");
    let list = planwright(home.path(), work.path(), &["runs", "list", "--format", "json"]);
    assert_eq!(String::from_utf8_lossy(&list.stdout).trim(), "[]", "no run was started");

    // A value stored by the studio (the key file here), and one from the environment.
    std::fs::write(home.path().join("keys.yaml"), format!("PLANWRIGHT_SECRET_API_TOKEN: {CANARY}\n")).unwrap();
    let done = run(&[("PLANWRIGHT_SECRET_API_USER", "tk-suzuki")]);
    assert_exit(&done, 0);
    let mut seen = format!("{}{}", String::from_utf8_lossy(&done.stdout), String::from_utf8_lossy(&done.stderr));
    for file in files_under(home.path()).into_iter().filter(|f| !f.ends_with("keys.yaml")) {
        seen.push_str(&String::from_utf8_lossy(&std::fs::read(&file).unwrap()));
    }
    assert!(!seen.contains(CANARY), "the stored secret leaked");
}

/// What a server (a page, a model) says reaches the terminal without the escape sequences that
/// would retitle the window or clear the screen: live, and from the record with `runs show`.
#[test]
fn escape_sequences_in_what_a_server_says_never_reach_the_terminal() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let body = "\x1b]0;pwned\x07\x1b[2JHeading boom\x1b[31m \u{9b}1;1Hend";
            let _ = write!(stream, "HTTP/1.1 500 Internal Server Error\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{body}", body.len());
        }
    });
    let plan = format!(
        "apiVersion: planwright/v1\nid: hostile_page\nversion: 1.0.0\nvars:\n  base: {base}\ngraph:\n  - id: call\n    block: external.api.http\n    in: {{url: \"${{vars.base}}/x\"}}\n"
    );
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();
    let run = planwright(home.path(), work.path(), &["run", "plan.yaml", "--format", "text"]);
    assert_exit(&run, 1);
    let list = planwright(home.path(), work.path(), &["runs", "list", "--format", "json"]);
    let run_id = serde_json::from_slice::<Value>(&list.stdout).unwrap()[0]["run_id"].as_str().unwrap().to_owned();
    let show = planwright(home.path(), work.path(), &["runs", "show", &run_id]);
    assert_exit(&show, 0);
    // The outcome's line names the failed node; the node's own line quotes the server.
    for (what, bytes, quotes) in [
        ("the live run", &run.stderr, true),
        ("the run's outcome", &run.stdout, false),
        ("runs show", &show.stdout, true),
    ] {
        let text = String::from_utf8_lossy(bytes);
        assert!(
            !text.contains(['\x1b', '\x07', '\u{9b}']) && !text.contains("pwned"),
            "{what} holds a control character: {text:?}"
        );
        assert!(!quotes || text.contains("Heading boom end"), "{what} keeps the words: {text}");
    }
}

/// `--inputs` and the plan file are read as the plan files are: a pipe is refused unopened and
/// deep nesting before the YAML parser (200 KB of brackets took it 42 s).
#[cfg(unix)]
#[test]
fn inputs_and_plans_that_are_pipes_or_deeply_nested_are_refused_at_once() {
    let (home, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    std::fs::write(work.path().join("plan.yaml"), ASKS).unwrap();
    std::fs::write(work.path().join("deep.yaml"), format!("ask: {}", "[".repeat(200_000))).unwrap();
    for name in ["pipe.yaml", "never.yaml"] {
        let path = std::ffi::CString::new(work.path().join(name).into_os_string().into_encoded_bytes()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(path.as_ptr(), 0o600) }, 0);
    }
    let cases: [(&[&str], &str); 3] = [
        (
            &["run", "plan.yaml", "--inputs", "deep.yaml"],
            "--inputs deep.yaml: YAML error at line 1, column 134: nesting deeper than 128 levels",
        ),
        (&["run", "plan.yaml", "--inputs", "pipe.yaml"], "--inputs pipe.yaml: cannot read the file: it is a pipe"),
        (&["run", "never.yaml"], "never.yaml: cannot read the file: it is a pipe, not a regular file"),
    ];
    for (args, message) in cases {
        let output = planwright_within(home.path(), work.path(), args, Duration::from_secs(60))
            .unwrap_or_else(|| panic!("{args:?} was still running after a minute"));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {}", said(&output));
        assert!(stderr.contains(message), "{args:?}: {stderr}");
    }
    assert!(!home.path().join("runs.db").exists(), "nothing ran");
}
