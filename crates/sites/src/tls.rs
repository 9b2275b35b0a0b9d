//! A web server on HTTPS whose certificate nothing trusts unless told: OpenSSL's own
//! (`openssl s_server -www`), with a certificate made for it. The tests of HTTPS (the HTTP block,
//! the browser) use it to check that a certificate is checked.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `openssl s_server -www` on 127.0.0.1, on a port of its own; it answers every request with a
/// page describing the TLS session. Stopped when dropped.
pub struct SelfSignedSite {
    child: Child,
    port: u16,
    cert: PathBuf,
}

impl SelfSignedSite {
    /// Makes a self-signed certificate for 127.0.0.1 in `dir` and starts the server with it.
    /// Needs the `openssl` command (scripts/ensure-tools installs it).
    pub fn start(dir: &Path) -> Result<SelfSignedSite, String> {
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
            .map_err(|e| format!("cannot run openssl (apt-get install openssl): {e}"))?;
        if !made.success() {
            return Err("openssl req made no certificate".to_owned());
        }
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map_err(|e| e.to_string())?.port();
        let child = Command::new("openssl")
            .args(["s_server", "-www", "-quiet", "-accept", &format!("127.0.0.1:{port}"), "-cert"])
            .arg(&cert)
            .arg("-key")
            .arg(&key)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start openssl s_server: {e}"))?;
        let site = SelfSignedSite { child, port, cert };
        let deadline = Instant::now() + Duration::from_secs(20);
        while TcpStream::connect(("127.0.0.1", port)).is_err() {
            if Instant::now() >= deadline {
                return Err(format!("openssl s_server never listened on {port}"));
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Ok(site)
    }

    /// `https://127.0.0.1:PORT/`.
    pub fn url(&self) -> String {
        format!("https://127.0.0.1:{}/", self.port)
    }

    /// The certificate (PEM), to trust it where a test means to (`SSL_CERT_FILE`).
    pub fn cert(&self) -> &Path {
        &self.cert
    }
}

impl Drop for SelfSignedSite {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
