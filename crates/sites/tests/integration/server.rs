//! The site server over real HTTP: pages, placeholders, the event log, the API and refusals.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use planwright_sites::FixtureSites;

use crate::http;
use reqwest::StatusCode;
use serde_json::{json, Value};

/// Served, but left out of `pages()`: they only work embedded or reached from another page.
const FRAGMENTS: &[&str] = &[
    "checkout/card.html",
    "checkout/done.html",
    "cookie-frame.html",
    "objectives/ledgerly/contact-form.html",
    "opened.html",
    "welcome.html",
];

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../assets/sites")
}

fn html_files(dir: &Path, prefix: &str, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let name = entry.file_name().into_string().unwrap();
        if entry.file_type().unwrap().is_dir() {
            html_files(&entry.path(), &format!("{prefix}{name}/"), out);
        } else if name.ends_with(".html") {
            out.push(format!("{prefix}{name}"));
        }
    }
}

async fn post(url: String, body: impl Into<reqwest::Body>) -> reqwest::Response {
    http::client().post(url).body(body).send().await.unwrap()
}

#[test]
fn pages_are_every_html_file_but_the_fragments() {
    let mut on_disk = Vec::new();
    html_files(&assets(), "", &mut on_disk);
    for fragment in FRAGMENTS {
        assert!(on_disk.iter().any(|path| path == fragment), "fragment {fragment} is not in assets/sites");
    }
    // The hostile pages (`trust/`) are driven by the trust-boundary tests, not compared on.
    on_disk.retain(|path| {
        !FRAGMENTS.contains(&path.as_str()) && !path.contains("/fragments/") && !path.starts_with("trust/")
    });
    on_disk.sort();
    assert_eq!(FixtureSites::pages(), on_disk);
    assert!(FixtureSites::pages().contains(&"checkout/cart.html"));
}

#[tokio::test]
async fn a_portal_address_with_a_token_in_its_path_serves_the_page_after_the_token() {
    let sites = FixtureSites::start().await.unwrap();
    let page = http::get(sites.url("/trust/t/tok-123/form.html")).await.unwrap();
    assert_eq!(page.status(), StatusCode::OK);
    assert!(page.text().await.unwrap().contains("<h1>Feedback</h1>"));
    let missing = http::get(sites.url("/trust/t/tok-123/nothing.html")).await.unwrap();
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn every_page_is_served_as_html_without_caching() {
    let sites = FixtureSites::start().await.unwrap();
    let paths = FixtureSites::pages().into_iter().chain(FRAGMENTS.iter().copied());
    for path in paths {
        for url in [sites.url(path), sites.other_url(path)] {
            let response = http::get(&url).await.unwrap();
            assert_eq!(response.status(), StatusCode::OK, "{url}");
            let headers = response.headers();
            assert_eq!(headers["content-type"], "text/html; charset=utf-8", "{url}");
            assert_eq!(headers["cache-control"], "no-store", "{url}");
            let body = response.text().await.unwrap();
            assert!(body.starts_with("<!doctype html>"), "{url}");
            assert!(!body.contains("__OTHER_ORIGIN__") && !body.contains("__MAIN_ORIGIN__"), "{url}");
        }
    }
    let root = http::get(sites.url("/")).await.unwrap().text().await.unwrap();
    assert!(root.contains("<h1>Fixture sites</h1>"));
    for (path, content_type) in
        [("record.js", "text/javascript; charset=utf-8"), ("site.css", "text/css; charset=utf-8")]
    {
        let response = http::get(sites.url(path)).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(response.headers()["content-type"], content_type);
    }
}

#[tokio::test]
async fn origin_placeholders_become_the_origins() {
    let sites = FixtureSites::start().await.unwrap();
    assert_ne!(sites.url(""), sites.other_url(""));
    let payment = http::get(sites.url("checkout/payment.html")).await.unwrap().text().await.unwrap();
    let card_url = sites.other_url("checkout/card.html");
    assert!(payment.contains(&format!("src=\"{card_url}\"")), "{payment}");
    let main_base = sites.url("").trim_end_matches('/').to_owned();
    let card = http::get(&card_url).await.unwrap().text().await.unwrap();
    assert!(card.contains(&format!("'{main_base}'")), "the card frame answers the main origin only");
}

#[tokio::test]
async fn records_round_trip_through_the_state_and_reset_clears_them() {
    let sites = FixtureSites::start().await.unwrap();
    let record = json!({"page": "login.html", "action": "login", "detail": {"username": "ada", "password_length": 9}});
    assert_eq!(post(sites.url("__record"), record.to_string()).await.status(), StatusCode::NO_CONTENT);
    // The other origin writes to the same log, tagged as such; `detail` may be left out.
    let beacon = json!({"page": "checkout/card.html", "action": "payment"});
    assert_eq!(post(sites.other_url("/__record"), beacon.to_string()).await.status(), StatusCode::NO_CONTENT);

    for url in [sites.url("__state"), sites.other_url("__state")] {
        let response = http::get(url).await.unwrap();
        assert_eq!(response.headers()["cache-control"], "no-store");
        let state: Value = response.json().await.unwrap();
        assert_eq!(state, sites.state());
    }
    let events = sites.state()["events"].as_array().unwrap().clone();
    assert_eq!(events.len(), 2);
    assert_eq!(events[0]["origin"], "main");
    assert_eq!(events[0]["page"], "login.html");
    assert_eq!(events[0]["detail"], json!({"username": "ada", "password_length": 9}));
    assert!(events[0]["at_ms"].is_u64());
    assert_eq!(events[1]["origin"], "other");
    assert_eq!(events[1]["detail"], json!({}));
    assert!(events[1]["at_ms"].as_u64() >= events[0]["at_ms"].as_u64());

    assert_eq!(sites.events("payment"), vec![events[1].clone()]);
    assert!(sites.events("nothing").is_empty());

    assert_eq!(post(sites.other_url("__reset"), "").await.status(), StatusCode::NO_CONTENT);
    assert_eq!(sites.state(), json!({"events": []}));
    post(sites.url("__record"), record.to_string()).await;
    sites.reset();
    assert!(sites.events("login").is_empty());
}

#[tokio::test]
async fn bad_records_are_refused_with_a_message() {
    let sites = FixtureSites::start().await.unwrap();
    let url = sites.url("__record");
    let big_detail = json!({"page": "x", "action": "y", "detail": "z".repeat(70 * 1024)}).to_string();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("not JSON", b"{page".to_vec()),
        ("not an object", b"[1, 2]".to_vec()),
        ("no action", br#"{"page": "a.html"}"#.to_vec()),
        ("empty action", br#"{"page": "a.html", "action": " "}"#.to_vec()),
        ("unknown field", br#"{"page": "a.html", "action": "x", "extra": 1}"#.to_vec()),
        ("over 64 KiB", big_detail.into_bytes()),
        ("far over 64 KiB", vec![b' '; 900 * 1024]),
    ];
    for (case, body) in cases {
        let response = post(url.clone(), body).await;
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "{case}");
        let answer: Value = response.json().await.unwrap();
        assert!(answer["error"].as_str().is_some_and(|message| !message.is_empty()), "{case}: {answer}");
    }
    assert_eq!(sites.state(), json!({"events": []}));

    // Bodies beyond what is drained may be cut off mid-send, but the server carries on.
    let _ = http::client().post(&url).body(vec![b' '; 8 * 1024 * 1024]).send().await;
    let ok = json!({"page": "a.html", "action": "still_serving"}).to_string();
    assert_eq!(post(url, ok).await.status(), StatusCode::NO_CONTENT);
}

#[tokio::test]
async fn unknown_paths_get_a_404_page() {
    let sites = FixtureSites::start().await.unwrap();
    for path in ["nope.html", "checkout/", "api/nope", "../Cargo.toml", "assets/sites/login.html"] {
        let response = http::get(sites.url(path)).await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        assert_eq!(response.headers()["content-type"], "text/html; charset=utf-8");
        assert!(response.text().await.unwrap().contains("Page not found"));
    }
    let response = post(sites.url("login.html"), "x").await;
    assert_eq!(response.status(), StatusCode::METHOD_NOT_ALLOWED);
}

#[tokio::test]
async fn invoices_come_a_page_at_a_time_after_a_delay() {
    let sites = FixtureSites::start().await.unwrap();
    let started = Instant::now();
    let response = http::get(sites.url("api/invoices?page=2")).await.unwrap();
    assert!(started.elapsed() >= Duration::from_millis(300), "the server waits before answering");
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let page: Value = response.json().await.unwrap();
    assert_eq!(page["page"], 2);
    assert_eq!(page["pages"], 3);
    let rows = page["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 8);
    assert_eq!(rows[0]["invoice"], "INV-1009");
    for row in rows {
        for column in ["invoice", "customer", "amount", "status"] {
            assert!(row[column].as_str().is_some_and(|cell| !cell.is_empty()), "{row}");
        }
        assert!(row["amount"].as_str().unwrap().starts_with('$'));
    }

    // The same rows on every call, and the first page by default.
    let again: Value = http::get(sites.url("api/invoices?page=2&instant=1")).await.unwrap().json().await.unwrap();
    assert_eq!(again, page);
    let first: Value = http::get(sites.url("api/invoices?instant=1")).await.unwrap().json().await.unwrap();
    assert_eq!(first["rows"][0]["invoice"], "INV-1001");

    for bad in ["0", "4", "two", "-1", "99999999999999999999"] {
        let response = http::get(sites.url(&format!("api/invoices?page={bad}&instant=1"))).await.unwrap();
        assert_eq!(response.status(), StatusCode::BAD_REQUEST, "page={bad}");
        let answer: Value = response.json().await.unwrap();
        assert!(answer["error"].as_str().unwrap().contains("page"));
    }
}

#[tokio::test]
async fn suggestions_match_the_query() {
    let sites = FixtureSites::start().await.unwrap();
    let answer: Value = http::get(sites.url("api/suggest?q=Keyb")).await.unwrap().json().await.unwrap();
    assert_eq!(answer["query"], "Keyb");
    assert_eq!(answer["suggestions"], json!(["Wireless keyboard", "Mechanical keyboard"]));
    let none: Value = http::get(sites.url("api/suggest?q=&instant=1")).await.unwrap().json().await.unwrap();
    assert_eq!(none["suggestions"], json!([]));
    let long = "a".repeat(101);
    let response = http::get(sites.url(&format!("api/suggest?q={long}&instant=1"))).await.unwrap();
    assert_eq!(response.status(), StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn downloads_are_attachments_and_recorded() {
    let sites = FixtureSites::start().await.unwrap();
    let response = http::get(sites.url("downloads/statement-2026-10.csv")).await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let headers = response.headers();
    assert_eq!(headers["content-type"], "text/csv; charset=utf-8");
    assert_eq!(headers["content-disposition"], "attachment; filename=\"statement-2026-10.csv\"");
    assert_eq!(headers["cache-control"], "no-store");
    let body = response.text().await.unwrap();
    assert!(body.starts_with("Date,Reference,Description,Charges,Payments,Balance\r\n"), "{body}");
    assert!(body.contains("Closing balance"));

    // Recorded by the server when fetched: no page has to report it.
    let events = sites.events("download");
    assert_eq!(events.len(), 1);
    assert_eq!(events[0]["origin"], "main");
    assert_eq!(events[0]["page"], "downloads/statement-2026-10.csv");
    assert_eq!(events[0]["detail"], json!({"file": "statement-2026-10.csv"}));

    // The Japanese statement keeps its text as it is (UTF-8, no placeholder replacement needed).
    let japanese = http::get(sites.other_url("downloads/torihiki-2024-04.csv")).await.unwrap();
    assert_eq!(japanese.headers()["content-disposition"], "attachment; filename=\"torihiki-2024-04.csv\"");
    assert!(japanese.text().await.unwrap().starts_with("取引日,伝票番号,品名,数量,単価,金額"));
    let other = sites.events("download");
    assert_eq!(other.len(), 2);
    assert_eq!(other[1]["origin"], "other");
    assert_eq!(other[1]["detail"], json!({"file": "torihiki-2024-04.csv"}));

    // HEAD answers the same headers and records nothing.
    let head = http::client().head(sites.url("downloads/statement-2026-09.csv")).send().await.unwrap();
    assert_eq!(head.status(), StatusCode::OK);
    assert_eq!(head.headers()["content-disposition"], "attachment; filename=\"statement-2026-09.csv\"");
    assert_eq!(sites.events("download").len(), 2);

    // Unknown names, other folders and tricks are 404s, and are not recorded.
    for path in [
        "downloads/nope.csv",
        "downloads/..%2Flogin.html",
        "downloads/statement-2026-10.csv%00",
        "downloads/",
        "downloads/a/b.csv",
        "downloads/.statement-2026-10.csv",
    ] {
        let response = http::get(sites.url(path)).await.unwrap();
        assert_eq!(response.status(), StatusCode::NOT_FOUND, "{path}");
        assert!(response.text().await.unwrap().contains("Page not found"), "{path}");
    }
    assert_eq!(sites.events("download").len(), 2);
}

#[tokio::test]
async fn dropping_the_sites_stops_serving() {
    let sites = FixtureSites::start().await.unwrap();
    let url = sites.url("index.html");
    let other_url = sites.other_url("index.html");
    assert!(http::get(&url).await.unwrap().status().is_success());
    drop(sites);
    // Aborting takes effect when the runtime next polls the tasks.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let main_down = http::client().get(&url).send().await.is_err();
        let other_down = http::client().get(&other_url).send().await.is_err();
        if main_down && other_down {
            break;
        }
        assert!(Instant::now() < deadline, "still serving after drop");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test]
async fn start_on_uses_the_given_ports() {
    let probe = FixtureSites::start().await.unwrap();
    let port = |url: String| url.trim_start_matches("http://127.0.0.1:").trim_end_matches('/').parse::<u16>().unwrap();
    let (main_port, other_port) = (port(probe.url("")), port(probe.other_url("")));
    drop(probe);
    // The ports were just free; rebinding them right away works on loopback (SO_REUSEADDR).
    let deadline = Instant::now() + Duration::from_secs(5);
    let sites = loop {
        match FixtureSites::start_on(main_port, other_port).await {
            Ok(sites) => break sites,
            Err(err) if Instant::now() < deadline => {
                let _ = err;
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            Err(err) => panic!("could not rebind: {err}"),
        }
    };
    assert_eq!(sites.url("login.html"), format!("http://127.0.0.1:{main_port}/login.html"));
    assert_eq!(sites.other_url("/x"), format!("http://127.0.0.1:{other_port}/x"));
    assert!(FixtureSites::start_on(main_port, 0).await.is_err(), "a port in use is an error");
}
