//! `planwright serve`: the first line is the address with this start's token, and the server
//! refuses requests without it.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_prints_the_address_with_its_token_and_refuses_requests_without_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = Command::new(env!("CARGO_BIN_EXE_planwright"))
        .args(["serve", "--port", "0", "--workspace"])
        .arg(dir.path().join("workspace"))
        .env("PLANWRIGHT_HOME", dir.path().join("home"))
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.trim().to_owned();
    let (base, token) = url.split_once("/?token=").expect("an address with a token");
    assert!(base.starts_with("http://127.0.0.1:") && token.len() >= 32, "{url}");

    let http = reqwest::Client::new();
    let refused = http.get(format!("{base}/api/catalog")).send().await.unwrap();
    let allowed = http.get(format!("{base}/api/catalog")).bearer_auth(token).send().await.unwrap();
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(refused.status(), 401);
    assert_eq!(allowed.status(), 200);
    assert!(dir.path().join("workspace/designs/monthly_expense_approval.yaml").is_file(), "the workspace is seeded");
}
