//! HTTPS through the platform's TLS (OpenSSL here): a run's HTTP block reaches a server whose
//! certificate the platform trusts, and refuses one it does not, saying it was the certificate.
//! The server is OpenSSL's own (`openssl s_server`), with a certificate made for the test.
#![cfg(target_os = "linux")]

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;
use support::{assert_exit, planwright_in, said};

use crate::support;

/// `openssl s_server -www` on a port of its own, with a self-signed certificate for 127.0.0.1.
struct TlsServer {
    child: Child,
    port: u16,
    cert: PathBuf,
}

impl TlsServer {
    fn start(dir: &Path) -> TlsServer {
        let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
        let made = Command::new("openssl")
            .args(["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1"])
            .args(["-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout"])
            .arg(&key)
            .arg("-out")
            .arg(&cert)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .expect("the openssl command (scripts/ensure-tools installs it)");
        assert!(made.success(), "openssl req made no certificate");
        let port = TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let child = Command::new("openssl")
            .args(["s_server", "-www", "-quiet", "-accept", &format!("127.0.0.1:{port}"), "-cert"])
            .arg(&cert)
            .arg("-key")
            .arg(&key)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let server = TlsServer { child, port, cert };
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "openssl s_server never listened on {port}");
            std::thread::sleep(Duration::from_millis(50));
        }
        server
    }
}

impl Drop for TlsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn https_reaches_a_server_the_platform_trusts_and_refuses_one_it_does_not() {
    let (home, work, certs) =
        (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let server = TlsServer::start(certs.path());
    let plan = format!(
        "apiVersion: planwright/v1\nid: secure\nversion: 1.0.0\ngraph:\n  - id: call\n    block: external.api.http\n    in: {{url: \"https://127.0.0.1:{}/\", timeout_sec: 30}}\n    out: {{status: status, response_text: text}}\n  - id: save\n    block: report.write\n    in: {{data: {{status: \"${{call.status}}\", text: \"${{call.text}}\"}}, format: json, path: out/answer.json}}\n",
        server.port
    );
    std::fs::write(work.path().join("plan.yaml"), plan).unwrap();

    // The test's certificate is trusted as a company's own CA would be: named to OpenSSL.
    let trusted = planwright_in(home.path(), work.path())
        .args(["run", "plan.yaml"])
        .env("SSL_CERT_FILE", &server.cert)
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
