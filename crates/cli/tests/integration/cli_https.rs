//! HTTPS through the platform's TLS (OpenSSL here): a run's HTTP block reaches a server whose
//! certificate the platform trusts, and refuses one it does not, saying it was the certificate.
//! The server is OpenSSL's own (`planwright_sites::SelfSignedSite`).
#![cfg(target_os = "linux")]

use planwright_sites::SelfSignedSite;
use serde_json::Value;
use support::{assert_exit, planwright_in, said};

use crate::support;

#[test]
fn https_reaches_a_server_the_platform_trusts_and_refuses_one_it_does_not() {
    let (home, work, certs) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let server = SelfSignedSite::start(certs.path()).unwrap();
    let plan = format!(
        "apiVersion: planwright/v1\nid: secure\nversion: 1.0.0\ngraph:\n  - id: call\n    block: external.api.http\n    in: {{url: \"{}\", timeout_sec: 30}}\n    out: {{status: status, response_text: text}}\n  - id: save\n    block: report.write\n    in: {{data: {{status: \"${{call.status}}\", text: \"${{call.text}}\"}}, format: json, path: out/answer.json}}\n",
        server.url()
    );
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();

    // The test's certificate is trusted as a company's own CA would be: named to OpenSSL.
    let trusted = planwright_in(home.path(), work.path())
        .args(["run", "plan.yaml"])
        .env("SSL_CERT_FILE", server.cert())
        .output()
        .unwrap();
    assert_exit(&trusted, 0);
    let answer: Value =
        serde_json::from_str(&std::fs::read_to_string(work.path().join("out/answer.json")).unwrap()).unwrap();
    assert_eq!(answer["status"], 200, "{answer}");
    // `-www` answers with a page describing the TLS session it served.
    assert!(answer["text"].as_str().is_some_and(|text| text.contains("Ciphers supported in s_server")), "{answer}");

    std::fs::remove_dir_all(work.path().join("out")).unwrap();
    let untrusted = planwright_in(home.path(), work.path())
        .args(["run", "plan.yaml"])
        .env_remove("SSL_CERT_FILE")
        .env_remove("SSL_CERT_DIR")
        .output()
        .unwrap();
    assert_exit(&untrusted, 1);
    let told = said(&untrusted);
    assert!(
        told.contains("could not connect: certificate verify failed (self-signed certificate)"),
        "the refusal names the certificate, in words: {told}"
    );
    assert!(!told.contains("SSL routines"), "without OpenSSL's codes: {told}");
    assert!(!work.path().join("out/answer.json").exists(), "nothing was written from an untrusted server");
}
