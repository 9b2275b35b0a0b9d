//! The OS keyring for real: a private D-Bus session bus with gnome-keyring's Secret Service
//! (installed by `./scripts/test`), the studio storing a key there, and `planwright doctor`
//! calling the model with it.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use planwright_api::{DataHome, KeyPlace, KeyStore, ProviderChoice, SetKeyRequest, Studio, StudioConfig};
use planwright_llm_replay::{Match, ReplayServer, Reply, Script};

const CANARY: &str = "sk-keyring-canary-7a8b";

/// A session bus and a Secret Service on it, both stopped on drop.
struct SecretService {
    address: String,
    bus: Child,
    keyring: Child,
}

impl SecretService {
    /// `login_password`: the login keyring is created and unlocked with it, as a desktop login
    /// does; `None`: there is no login keyring, so storing needs a prompt nobody can answer.
    fn start(dir: &Path, login_password: Option<&str>) -> SecretService {
        let mut bus = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("dbus-daemon runs (./scripts/test installs it)");
        let mut address = String::new();
        BufReader::new(bus.stdout.take().unwrap()).read_line(&mut address).unwrap();
        let address = address.trim().to_owned();
        let data = dir.join("keyring-data");
        let runtime = dir.join("keyring-runtime");
        for folder in [&data, &runtime] {
            std::fs::create_dir_all(folder).unwrap();
        }
        // `--unlock` reads the login keyring's password on stdin until it closes.
        let mut keyring = Command::new("gnome-keyring-daemon")
            .args(["--foreground", "--components=secrets", "--unlock"])
            .env("DBUS_SESSION_BUS_ADDRESS", &address)
            .env("XDG_DATA_HOME", &data)
            .env("XDG_RUNTIME_DIR", &runtime)
            .env("HOME", dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("gnome-keyring-daemon runs (./scripts/test installs it)");
        keyring.stdin.take().unwrap().write_all(login_password.unwrap_or_default().as_bytes()).unwrap();
        let service = SecretService { address, bus, keyring };
        let started = Instant::now();
        while !service.has_secrets() {
            assert!(started.elapsed() < Duration::from_secs(20), "no Secret Service on the bus within 20 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        service
    }

    fn has_secrets(&self) -> bool {
        let reply = Command::new("dbus-send")
            .args(["--session", "--dest=org.freedesktop.DBus", "--print-reply", "/org/freedesktop/DBus"])
            .args(["org.freedesktop.DBus.NameHasOwner", "string:org.freedesktop.secrets"])
            .env("DBUS_SESSION_BUS_ADDRESS", &self.address)
            .output()
            .expect("dbus-send runs");
        String::from_utf8_lossy(&reply.stdout).contains("boolean true")
    }
}

impl Drop for SecretService {
    fn drop(&mut self) {
        for child in [&mut self.keyring, &mut self.bus] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

fn open_studio(home: &Path) -> Studio {
    Studio::open(StudioConfig {
        workspace: Some(home.join("workspace")),
        data_home: Some(DataHome::at(home.join("data"))),
        key_store: KeyStore::Auto,
    })
    .unwrap()
}

fn doctor_bearers(home: &Path, server: &ReplayServer, vars: &[(&str, &str)]) -> Vec<String> {
    let before = server.requests().len();
    let output = Command::new(env!("CARGO_BIN_EXE_planwright"))
        .args(["doctor", "--format", "json"])
        .env_clear()
        .current_dir(home)
        .env("PLANWRIGHT_HOME", home.join("data"))
        .env("OPENAI_BASE_URL", server.base_url())
        .envs(vars.iter().copied())
        .output()
        .expect("planwright runs");
    assert_eq!(output.status.code(), Some(0), "{}", String::from_utf8_lossy(&output.stderr));
    assert!(!String::from_utf8_lossy(&output.stdout).contains(CANARY));
    server.requests()[before..].iter().map(|r| r.header("authorization").unwrap_or_default().to_owned()).collect()
}

#[test]
fn a_key_set_in_the_studio_goes_to_the_keyring_and_serves_the_command_line() {
    let home = tempfile::tempdir().unwrap();
    let service = SecretService::start(home.path(), Some("login password"));
    // Before any thread starts: the keyring library connects to the bus this names.
    std::env::set_var("DBUS_SESSION_BUS_ADDRESS", &service.address);
    std::env::remove_var("PLANWRIGHT_KEYRING");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime.block_on(ReplayServer::start(Script::new().always(Match::chat(), Reply::text("ok"))));
    let studio = open_studio(home.path());

    let status = runtime
        .block_on(studio.set_api_key(SetKeyRequest { provider: ProviderChoice::Openai, key: CANARY.into() }))
        .unwrap();
    assert_eq!(status.place, Some(KeyPlace::Keyring));
    assert_eq!(status.hint.as_deref(), Some("sk-…7a8b"));
    assert!(!home.path().join("data/keys.yaml").exists(), "a key in the keyring is not also written to the file");
    let settings = runtime.block_on(studio.get_settings()).unwrap();
    assert_eq!(settings.models.key.place, Some(KeyPlace::Keyring));

    let bus = [("DBUS_SESSION_BUS_ADDRESS", service.address.as_str())];
    assert_eq!(doctor_bearers(home.path(), &server, &bus), vec![format!("Bearer {CANARY}"); 3]);
    let keyring_off = [bus[0], ("PLANWRIGHT_KEYRING", "off")];
    assert_eq!(doctor_bearers(home.path(), &server, &keyring_off), vec![String::new(); 3], "PLANWRIGHT_KEYRING=off");
}

#[test]
fn a_keyring_that_cannot_store_leaves_the_key_in_the_private_file() {
    let home = tempfile::tempdir().unwrap();
    let service = SecretService::start(home.path(), None);
    std::env::set_var("DBUS_SESSION_BUS_ADDRESS", &service.address);
    std::env::remove_var("PLANWRIGHT_KEYRING");
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let studio = open_studio(home.path());
    let status = runtime
        .block_on(studio.set_api_key(SetKeyRequest { provider: ProviderChoice::Openai, key: CANARY.into() }))
        .unwrap();
    assert_eq!(status.place, Some(KeyPlace::File));
    let file = home.path().join("data/keys.yaml");
    assert!(std::fs::read_to_string(&file).unwrap().contains(CANARY));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&file).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let settings = runtime.block_on(studio.get_settings()).unwrap();
    assert_eq!(settings.models.key.place, Some(KeyPlace::File));
}
