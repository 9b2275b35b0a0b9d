//! Isolation: the worker process (this test binary re-executed with `__extract-worker`, as the
//! planwright binary re-executes itself), the deadline that kills it, the thread fallback, and
//! cancellation.

// The helpers the merged integration tests use; this test has a `main` of its own (no harness).
#[path = "integration/common/mod.rs"]
mod common;

use std::process::ExitCode;
use std::time::{Duration, Instant};

use common::*;
use planwright_documents::{
    extract_file, use_worker_command, worker_main, Cancelled, Isolation, Limits, Outcome, Source, WorkerCommand,
    WORKER_ARG,
};

fn main() -> ExitCode {
    if std::env::args().nth(1).as_deref() == Some(WORKER_ARG) {
        return worker_main();
    }
    let tests: &[(&str, fn())] = &[
        ("a_worker_reads_what_a_thread_reads", a_worker_reads_what_a_thread_reads),
        ("the_deadline_kills_the_worker", the_deadline_kills_the_worker),
        ("the_deadline_abandons_the_thread", the_deadline_abandons_the_thread),
        ("cancelling_kills_the_worker", cancelling_kills_the_worker),
        ("a_crashed_worker_is_a_warning", a_crashed_worker_is_a_warning),
        ("a_worker_that_cannot_start_falls_back_to_a_thread", a_worker_that_cannot_start_falls_back_to_a_thread),
        // Last: the registration is for the whole process.
        ("auto_uses_the_registered_worker", auto_uses_the_registered_worker),
    ];
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The values of `--format terse` and the like are not filters.
    let filter: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| !a.starts_with('-') && (*i == 0 || !args[i - 1].starts_with("--format")))
        .map(|(_, a)| a)
        .collect();
    if std::env::args().any(|a| a == "--list") {
        // Nextest lists with `--list --format terse`, and the ignored tests with `--ignored`
        // added: there are none.
        if std::env::args().any(|a| a == "--ignored") {
            return ExitCode::SUCCESS;
        }
        for (name, _) in tests {
            println!("{name}: test");
        }
        return ExitCode::SUCCESS;
    }
    let mut failed = 0;
    for (name, test) in tests {
        if !filter.is_empty() && !filter.iter().any(|f| name.contains(f.as_str())) {
            continue;
        }
        let result = std::panic::catch_unwind(test);
        println!("test {name} ... {}", if result.is_ok() { "ok" } else { "FAILED" });
        failed += usize::from(result.is_err());
    }
    if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

fn worker() -> Isolation {
    Isolation::Worker(WorkerCommand::current_exe([WORKER_ARG]).unwrap())
}

fn source(folder: &Folder, name: &str, bytes: &[u8]) -> Source {
    Source { name: name.into(), path: folder.write(name, bytes) }
}

fn skip_message(outcome: Outcome) -> String {
    match outcome {
        Outcome::Skipped(skip) => skip.message(),
        Outcome::Read(doc) => panic!("read: {doc:?}"),
    }
}

fn a_worker_reads_what_a_thread_reads() {
    let f = Folder::new();
    let limits = Limits::default();
    for (name, bytes) in [
        ("statement.pdf", numbered_pdf(3)),
        ("契約書.docx", docx("社外秘", &["第1条"], &[&["品名", "金額"]], &[])),
        ("book.xlsx", xlsx(&[("S", grid(3, 3))])),
        ("blob.bin", garbage(100)),
    ] {
        let source = source(&f, name, &bytes);
        let in_worker = extract_file(&source, &limits, &worker(), &|| false).unwrap();
        let in_thread = extract_file(&source, &limits, &Isolation::Thread, &|| false).unwrap();
        assert_eq!(in_worker, in_thread, "{name}");
    }
}

fn the_deadline_kills_the_worker() {
    let f = Folder::new();
    let source = source(&f, "long.pdf", &numbered_pdf(100));
    let limits = Limits { max_pages: 100, deadline: Duration::from_millis(1), ..Limits::default() };
    let started = Instant::now();
    let message = skip_message(extract_file(&source, &limits, &worker(), &|| false).unwrap());
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    assert_eq!(
        message,
        "long.pdf: took longer than 0.001 s to read and was stopped, skipped; the file may be damaged or unusually \
         complex; print it to PDF again or split it"
    );
}

fn the_deadline_abandons_the_thread() {
    let f = Folder::new();
    let source = source(&f, "long.pdf", &numbered_pdf(100));
    let limits = Limits { max_pages: 100, deadline: Duration::from_millis(1), ..Limits::default() };
    let started = Instant::now();
    let message = skip_message(extract_file(&source, &limits, &Isolation::Thread, &|| false).unwrap());
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
    assert!(message.starts_with("long.pdf: took longer than 0.001 s to read and was abandoned, skipped"), "{message}");
}

fn cancelling_kills_the_worker() {
    let f = Folder::new();
    let source = source(&f, "long.pdf", &numbered_pdf(100));
    let limits = Limits { max_pages: 100, ..Limits::default() };
    let started = Instant::now();
    let cancel_after = |d: Duration| move || started.elapsed() > d;
    let result = extract_file(&source, &limits, &worker(), &cancel_after(Duration::from_millis(2)));
    assert_eq!(result, Err(Cancelled));
    assert_eq!(extract_file(&source, &limits, &Isolation::Thread, &|| true), Err(Cancelled));
}

fn a_crashed_worker_is_a_warning() {
    let f = Folder::new();
    let source = source(&f, "a.pdf", &numbered_pdf(1));
    let killed = Isolation::Worker(WorkerCommand::new("/bin/sh", ["-c", "cat >/dev/null; kill -9 $$"]));
    assert_eq!(
        skip_message(extract_file(&source, &Limits::default(), &killed, &|| false).unwrap()),
        "a.pdf: could not be read (the reader ran out of memory or crashed: signal 9), skipped; open it and save or \
         print it to PDF again, or split it"
    );
    let garbled = Isolation::Worker(WorkerCommand::new("/bin/sh", ["-c", "cat >/dev/null; echo '{not json'"]));
    let message = skip_message(extract_file(&source, &Limits::default(), &garbled, &|| false).unwrap());
    assert!(message.contains("crashed: exit code 0"), "{message}");
}

fn a_worker_that_cannot_start_falls_back_to_a_thread() {
    let f = Folder::new();
    let source = source(&f, "note.txt", "請求書を確認する".as_bytes());
    let missing = Isolation::Worker(WorkerCommand::new("/nonexistent/planwright", [WORKER_ARG]));
    let Outcome::Read(doc) = extract_file(&source, &Limits::default(), &missing, &|| false).unwrap() else { panic!() };
    assert_eq!(doc.text, "請求書を確認する");
}

fn auto_uses_the_registered_worker() {
    let f = Folder::new();
    let source = source(&f, "a.txt", b"text");
    let Outcome::Read(_) = extract_file(&source, &Limits::default(), &Isolation::Auto, &|| false).unwrap() else {
        panic!("without a registered worker, a thread reads it")
    };
    assert!(use_worker_command(WorkerCommand::new("/bin/sh", ["-c", "cat >/dev/null; exit 7"])));
    assert!(!use_worker_command(WorkerCommand::current_exe([WORKER_ARG]).unwrap()), "the first registration stays");
    let message = skip_message(extract_file(&source, &Limits::default(), &Isolation::Auto, &|| false).unwrap());
    assert!(message.contains("crashed: exit code 7"), "{message}");
}
