//! The OS keyring for real: a private D-Bus session bus with gnome-keyring's Secret Service
//! (installed by `./scripts/test`), the studio storing a key there, and `planwright doctor`
//! calling the model with it.

use crate::support;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use planwright_api::{DataHome, KeyPlace, KeyStore, ProviderChoice, SetKeyRequest, Studio, StudioConfig};
use planwright_llm_replay::{Match, ReplayServer, Reply, Script};
use support::assert_exit;

const CANARY: &str = "sk-keyring-canary-7a8b";
const LOCKED_CANARY: &str = "sk-while-locked-canary-9c0d";
const LOGIN: &str = "/org/freedesktop/secrets/collection/login";
/// A session bus without service directories: nothing is started on demand.
const BUS_CONFIG: &str = r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"#;

/// A session bus and a Secret Service on it, both stopped on drop.
struct SecretService {
    address: String,
    bus: Child,
    keyring: Child,
}

impl SecretService {
    fn start(dir: &Path) -> SecretService {
        // A session bus that starts no service by itself: a call to the Secret Service while
        // ours restarts would otherwise start the machine's own gnome-keyring (its files, its
        // locked login keyring) in its place.
        let config = dir.join("bus.conf");
        std::fs::write(&config, BUS_CONFIG).unwrap();
        let mut bus = Command::new("dbus-daemon")
            .arg(format!("--config-file={}", config.display()))
            .args(["--nofork", "--print-address=1"])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("dbus-daemon runs (./scripts/test installs it)");
        let mut address = String::new();
        BufReader::new(bus.stdout.take().unwrap()).read_line(&mut address).unwrap();
        let address = address.trim().to_owned();
        for folder in ["keyring-data", "keyring-runtime"] {
            std::fs::create_dir_all(dir.join(folder)).unwrap();
        }
        // The login keyring is created with this password and unlocked, as a desktop login does.
        let keyring = unlock(keyring_daemon(dir, &address).arg("--foreground"));
        let service = SecretService { address, bus, keyring };
        let started = Instant::now();
        while !service.has_secrets() {
            assert!(started.elapsed() < Duration::from_secs(20), "no Secret Service on the bus within 20 s");
            std::thread::sleep(Duration::from_millis(50));
        }
        service
    }

    fn has_secrets(&self) -> bool {
        self.call(
            &["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner"],
            &["string:org.freedesktop.secrets"],
        )
        .contains("boolean true")
    }

    /// The daemon restarted, reading the keyring files and unlocking the login keyring, as
    /// logging in again does. Under load a new daemon now and then never answers on the bus: it
    /// is started again, three times at most.
    fn unlock_login_keyring(&mut self, dir: &Path) {
        let mut last = String::new();
        for _ in 0..3 {
            self.restart_keyring(dir);
            let started = Instant::now();
            while started.elapsed() < Duration::from_secs(15) {
                last = self.call(
                    &["--dest=org.freedesktop.secrets", LOGIN, "org.freedesktop.DBus.Properties.Get"],
                    &["string:org.freedesktop.Secret.Collection", "string:Locked"],
                );
                if last.contains("boolean false") {
                    return;
                }
                if matches!(self.keyring.try_wait(), Ok(Some(_))) {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        panic!("the login keyring is still locked after three starts of its daemon: {last}");
    }

    /// The daemon stopped cleanly (it removes its control socket), gone from the bus, and
    /// started again with the login password.
    fn restart_keyring(&mut self, dir: &Path) {
        let _ = Command::new("kill").arg(self.keyring.id().to_string()).status();
        let _ = self.keyring.wait();
        let started = Instant::now();
        while self.has_secrets() {
            assert!(started.elapsed() < Duration::from_secs(20), "the stopped daemon is still on the bus");
            std::thread::sleep(Duration::from_millis(50));
        }
        self.keyring = unlock(keyring_daemon(dir, &self.address).arg("--foreground"));
    }

    fn lock_login_keyring(&self) {
        let locked = self.call(
            &["--dest=org.freedesktop.secrets", "/org/freedesktop/secrets", "org.freedesktop.Secret.Service.Lock"],
            &[&format!("array:objpath:{LOGIN}")],
        );
        assert!(locked.contains(&format!("object path \"{LOGIN}\"")), "the login keyring did not lock: {locked}");
    }

    /// `dbus-send` on this bus; its reply, or the error it printed.
    fn call(&self, target: &[&str], arguments: &[&str]) -> String {
        let reply = Command::new("dbus-send")
            .args(["--session", "--print-reply"])
            .args(target)
            .args(arguments)
            .env("DBUS_SESSION_BUS_ADDRESS", &self.address)
            .output()
            .expect("dbus-send runs");
        format!("{}{}", String::from_utf8_lossy(&reply.stdout), String::from_utf8_lossy(&reply.stderr))
    }
}

/// gnome-keyring's secrets component on the bus at `address`, keeping its files under `dir`.
fn keyring_daemon(dir: &Path, address: &str) -> Command {
    let mut command = Command::new("gnome-keyring-daemon");
    command
        .args(["--components=secrets", "--unlock"])
        .env("DBUS_SESSION_BUS_ADDRESS", address)
        .env("XDG_DATA_HOME", dir.join("keyring-data"))
        .env("XDG_RUNTIME_DIR", dir.join("keyring-runtime"))
        .env("HOME", dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// Starts `command` with the login password on its stdin (`--unlock` reads it until it closes).
fn unlock(command: &mut Command) -> Child {
    let mut child =
        command.stdin(Stdio::piped()).spawn().expect("gnome-keyring-daemon runs (./scripts/test installs it)");
    child.stdin.take().unwrap().write_all(b"login password").unwrap();
    child
}

impl Drop for SecretService {
    fn drop(&mut self) {
        for child in [&mut self.keyring, &mut self.bus] {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
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
    assert_exit(&output, 0);
    assert!(!String::from_utf8_lossy(&output.stdout).contains(CANARY));
    server.requests()[before..].iter().map(|r| r.header("authorization").unwrap_or_default().to_owned()).collect()
}

/// One test, so one process: the keyring library binds to the session bus once per process.
#[test]
fn keys_go_to_the_keyring_and_to_the_private_file_while_it_is_locked() {
    let home = tempfile::tempdir().unwrap();
    let mut service = SecretService::start(home.path());
    // Before any thread starts: the keyring library connects to the bus this names.
    std::env::set_var("DBUS_SESSION_BUS_ADDRESS", &service.address);
    for var in ["PLANWRIGHT_KEYRING", "OPENAI_API_KEY"] {
        std::env::remove_var(var);
    }
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let server = runtime.block_on(ReplayServer::start(Script::new().always(Match::chat(), Reply::text("ok"))));
    let studio = Studio::open(StudioConfig {
        workspace: Some(home.path().join("workspace")),
        data_home: Some(DataHome::at(home.path().join("data"))),
        key_store: KeyStore::Auto,
    })
    .unwrap();
    let set_key = |key: &str| {
        runtime
            .block_on(studio.set_api_key(SetKeyRequest { provider: ProviderChoice::Openai, key: key.into() }))
            .unwrap()
    };
    let key_file = home.path().join("data/keys.yaml");
    let address = service.address.clone();
    let bus = [("DBUS_SESSION_BUS_ADDRESS", address.as_str())];

    let status = set_key(CANARY);
    assert_eq!(status.place, Some(KeyPlace::Keyring));
    assert_eq!(status.hint.as_deref(), Some("sk-…7a8b"));
    assert!(!key_file.exists(), "a key in the keyring is not also written to the file");
    assert_eq!(runtime.block_on(studio.get_settings()).unwrap().models.key.place, Some(KeyPlace::Keyring));
    assert_eq!(doctor_bearers(home.path(), &server, &bus), vec![format!("Bearer {CANARY}"); 3]);
    let keyring_off = [bus[0], ("PLANWRIGHT_KEYRING", "off")];
    assert_eq!(doctor_bearers(home.path(), &server, &keyring_off), vec![String::new(); 3], "PLANWRIGHT_KEYRING=off");

    // Locked (a screen lock, a remote session): storing would need a prompt nobody answers.
    service.lock_login_keyring();
    let status = set_key(LOCKED_CANARY);
    assert_eq!(status.place, Some(KeyPlace::File));
    assert!(std::fs::read_to_string(&key_file).unwrap().contains(LOCKED_CANARY));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&key_file).unwrap().permissions().mode() & 0o777, 0o600);
    }
    assert_eq!(runtime.block_on(studio.get_settings()).unwrap().models.key.place, Some(KeyPlace::File));
    assert_eq!(doctor_bearers(home.path(), &server, &bus), vec![format!("Bearer {LOCKED_CANARY}"); 3]);

    // Unlocked again, the keyring still holds the older key: the newer one, in the file, is used.
    service.unlock_login_keyring(home.path());
    assert_eq!(doctor_bearers(home.path(), &server, &bus), vec![format!("Bearer {LOCKED_CANARY}"); 3]);
}
