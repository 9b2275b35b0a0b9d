//! The tests' HTTP client: one per test process, not one per request. Making a client loads the
//! system's certificates (OpenSSL 3: about 80 ms of CPU), which a test of three hundred requests
//! spent most of its time on. No pooled connections, so that no request is sent on a connection
//! a server (or another test's runtime) has already dropped.

use std::sync::OnceLock;

pub fn client() -> &'static reqwest::Client {
    static CLIENT: OnceLock<reqwest::Client> = OnceLock::new();
    CLIENT.get_or_init(|| reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap())
}

/// `GET url`, as `reqwest::get` but through [`client`].
pub async fn get(url: impl reqwest::IntoUrl) -> reqwest::Result<reqwest::Response> {
    client().get(url).send().await
}
