//! Registering plans on real folders: names, exact bytes, never overwriting, hostile ids,
//! no temporary files left behind.

use crate::common;

use std::fs;
use std::path::Path;
use std::sync::{Arc, Barrier};

use common::{listing, plan_text, write};
use planwright_designs::{Designs, RegisterError, RegisterOutcome, Resolution};
use time::macros::datetime;
use time::OffsetDateTime;

const NOW: OffsetDateTime = datetime!(2026-11-22 14:30:59 UTC);

/// A plan with comments and odd spacing, which must survive byte for byte.
fn commented(id: &str) -> String {
    format!("# Finds duplicate invoices.\napiVersion: planwright/v1   # format\nid: {id}\nversion: 1.0.0\n\ngraph:\n  - id: a\n    block: transforms.pick  # keep\n")
}

fn no_temp_files(dir: &Path) {
    let left: Vec<String> = listing(dir).into_iter().filter(|n| !n.ends_with(".yaml")).collect();
    assert!(left.is_empty(), "left behind in {}: {left:?}", dir.display());
}

#[test]
fn register_writes_the_exact_bytes_under_the_right_name() {
    let tmp = tempfile::tempdir().unwrap();
    let designs = Designs::new(tmp.path());
    let text = commented("invoice_dupes");

    let outcome = designs.register("invoice_dupes", &text, NOW).unwrap();
    let path = tmp.path().join("invoice_dupes_202611221430.yaml");
    assert_eq!(outcome, RegisterOutcome::Written(path.clone()));
    assert_eq!(fs::read(&path).unwrap(), text.as_bytes());
    assert_eq!(listing(tmp.path()), ["invoice_dupes_202611221430.yaml"]);

    let Resolution::Found { plan, path: found } = designs.resolve("invoice_dupes") else { panic!("not found") };
    assert_eq!((plan.id.as_str(), found), ("invoice_dupes", path));
}

#[test]
fn the_stamp_is_now_in_its_own_offset() {
    let tmp = tempfile::tempdir().unwrap();
    let designs = Designs::new(tmp.path());
    let outcome = designs.register("p", &plan_text("p", "1.0.0"), datetime!(2027-01-01 00:05 +01:00)).unwrap();
    assert_eq!(outcome, RegisterOutcome::Written(tmp.path().join("p_202701010005.yaml")));
    let outcome = designs.register("p", &plan_text("p", "1.0.1"), datetime!(0999-03-04 05:06 UTC)).unwrap();
    assert_eq!(outcome, RegisterOutcome::Written(tmp.path().join("p_099903040506.yaml")));
}

#[test]
fn identical_re_register_is_already_registered() {
    let tmp = tempfile::tempdir().unwrap();
    let designs = Designs::new(tmp.path());
    let text = commented("p");
    let RegisterOutcome::Written(path) = designs.register("p", &text, NOW).unwrap() else { panic!("not written") };
    let before = fs::metadata(&path).unwrap().modified().unwrap();

    assert_eq!(designs.register("p", &text, NOW).unwrap(), RegisterOutcome::AlreadyRegistered(path.clone()));
    assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), before, "not rewritten");
    assert_eq!(listing(tmp.path()), ["p_202611221430.yaml"]);
}

#[test]
fn unchanged_text_in_a_later_minute_names_the_newest_registration() {
    let tmp = tempfile::tempdir().unwrap();
    let designs = Designs::new(tmp.path());
    let first = commented("p");
    let RegisterOutcome::Written(first_path) = designs.register("p", &first, NOW).unwrap() else { panic!() };
    let hour = time::Duration::hours(1);
    assert_eq!(designs.register("p", &first, NOW + hour).unwrap(), RegisterOutcome::AlreadyRegistered(first_path));

    // Only the newest counts: going back to older text is a new registration.
    let second = plan_text("p", "1.0.1");
    let RegisterOutcome::Written(second_path) = designs.register("p", &second, NOW + hour).unwrap() else { panic!() };
    assert_eq!(
        designs.register("p", &second, NOW + hour * 2).unwrap(),
        RegisterOutcome::AlreadyRegistered(second_path)
    );
    let back = designs.register("p", &first, NOW + hour * 3).unwrap();
    assert_eq!(back, RegisterOutcome::Written(tmp.path().join("p_202611221730.yaml")));
    assert_eq!(listing(tmp.path()).len(), 3);
}

#[test]
fn different_text_in_the_same_minute_is_refused_and_the_old_file_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let designs = Designs::new(tmp.path());
    let first = commented("p");
    designs.register("p", &first, NOW).unwrap();
    let path = tmp.path().join("p_202611221430.yaml");

    for second in [plan_text("p", "1.0.1"), format!("{first}\n"), first[..first.len() - 1].to_owned(), String::new()] {
        let error = designs.register("p", &second, NOW).unwrap_err();
        assert!(matches!(&error, RegisterError::Conflict { path: p } if *p == path), "{error:?}");
        let message = error.to_string();
        assert!(message.contains(&path.display().to_string()), "{message}");
        assert!(message.contains("a different plan") && message.contains("in a minute"), "{message}");
        assert_eq!(fs::read(&path).unwrap(), first.as_bytes());
    }
    assert_eq!(listing(tmp.path()), ["p_202611221430.yaml"]);

    // A minute later the name is free.
    let later = designs.register("p", &plan_text("p", "1.0.1"), NOW + time::Duration::minutes(1)).unwrap();
    assert_eq!(later, RegisterOutcome::Written(tmp.path().join("p_202611221431.yaml")));
    let Resolution::Found { plan, .. } = designs.resolve("p") else { panic!("not found") };
    assert_eq!(plan.version, "1.0.1");
}

#[test]
fn hostile_ids_are_refused_and_nothing_is_written_anywhere() {
    let tmp = tempfile::tempdir().unwrap();
    let parent = tmp.path();
    let marker = format!("planwright-hostile-{}", std::process::id());
    let absolute = format!("{}/{marker}", parent.display());
    let long = "x".repeat(65);
    let escape_to_tmp = format!("../../../../../../../../../../..{}/{marker}", std::env::temp_dir().display());
    let hostile: Vec<&str> = vec![
        "../x",
        "..",
        ".",
        "a/b",
        "a\\b",
        "/etc/x",
        &absolute,
        &escape_to_tmp,
        "",
        &long,
        "Upper",
        "a\0b",
        "\0",
        "-a",
        "_a",
        "a b",
        "a.b",
        "é",
        "x/../../y",
        "a\n",
        "a@1.0.0",
    ];

    // With the designs folder missing (it must not be created) and present (it must stay empty).
    for existing in [false, true] {
        let designs_dir = parent.join("designs");
        if existing {
            fs::create_dir(&designs_dir).unwrap();
        }
        let designs = Designs::new(&designs_dir);
        for id in &hostile {
            let error = designs.register(id, &plan_text("x", "1.0.0"), NOW).unwrap_err();
            assert!(matches!(error, RegisterError::InvalidId { .. }), "{id:?}: {error:?}");
            let message = error.to_string();
            assert!(message.contains(&designs_dir.display().to_string()) && message.contains("plan id"), "{message}");
            assert!(!message.contains('\0'), "the id is escaped in the message");
        }
        let expected: Vec<String> = if existing { vec!["designs".into()] } else { vec![] };
        assert_eq!(listing(parent), expected);
        assert_eq!(listing(&designs_dir), Vec::<String>::new());
    }
    let in_tmp: Vec<String> = listing(&std::env::temp_dir()).into_iter().filter(|n| n.contains(&marker)).collect();
    assert_eq!(in_tmp, Vec::<String>::new());
    assert!(!Path::new("/etc/x_202611221430.yaml").exists());
}

#[test]
fn the_longest_id_is_fine() {
    let tmp = tempfile::tempdir().unwrap();
    let id = "a".repeat(64);
    let outcome = Designs::new(tmp.path()).register(&id, &plan_text(&id, "1.0.0"), NOW).unwrap();
    assert_eq!(outcome, RegisterOutcome::Written(tmp.path().join(format!("{id}_202611221430.yaml"))));
}

#[test]
fn a_missing_designs_folder_is_created() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("a").join("b").join("designs");
    let outcome = Designs::new(&dir).register("p", &plan_text("p", "1.0.0"), NOW).unwrap();
    assert_eq!(outcome, RegisterOutcome::Written(dir.join("p_202611221430.yaml")));
    assert_eq!(listing(&dir), ["p_202611221430.yaml"]);
}

#[test]
fn a_designs_path_that_is_a_file_is_an_io_error() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("designs");
    fs::write(&dir, "not a folder").unwrap();
    let error = Designs::new(&dir).register("p", &plan_text("p", "1.0.0"), NOW).unwrap_err();
    assert!(matches!(error, RegisterError::Io { .. }), "{error:?}");
    assert!(error.to_string().contains(&dir.display().to_string()), "{error}");
    assert_eq!(listing(tmp.path()), ["designs"]);
    assert_eq!(fs::read_to_string(&dir).unwrap(), "not a folder");
}

#[test]
fn a_folder_in_the_way_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir(tmp.path().join("p_202611221430.yaml")).unwrap();
    let error = Designs::new(tmp.path()).register("p", &plan_text("p", "1.0.0"), NOW).unwrap_err();
    assert!(matches!(error, RegisterError::NotAFile { kind: "a folder", .. }), "{error:?}");
    assert_eq!(listing(tmp.path()), ["p_202611221430.yaml"]);
    assert_eq!(listing(&tmp.path().join("p_202611221430.yaml")), Vec::<String>::new());
}

#[cfg(unix)]
#[test]
fn a_link_in_the_way_is_refused_and_its_target_untouched() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("designs");
    let target = tmp.path().join("target.yaml");
    let text = plan_text("p", "1.0.0");
    write(tmp.path(), "target.yaml", "precious\n");
    fs::create_dir(&dir).unwrap();
    std::os::unix::fs::symlink(&target, dir.join("p_202611221430.yaml")).unwrap();
    std::os::unix::fs::symlink(tmp.path().join("nowhere.yaml"), dir.join("q_202611221430.yaml")).unwrap();
    let designs = Designs::new(&dir);

    let error = designs.register("p", &text, NOW).unwrap_err();
    assert!(matches!(error, RegisterError::NotAFile { kind: "a symbolic link", .. }), "{error:?}");
    // Even when the link points at identical text.
    fs::write(&target, &text).unwrap();
    assert!(matches!(designs.register("p", &text, NOW), Err(RegisterError::NotAFile { .. })));
    // A dangling link is not followed into creating its target.
    assert!(matches!(designs.register("q", &plan_text("q", "1.0.0"), NOW), Err(RegisterError::NotAFile { .. })));
    assert!(!tmp.path().join("nowhere.yaml").exists());
    assert_eq!(fs::read_to_string(&target).unwrap(), text);
    assert_eq!(listing(&dir), ["p_202611221430.yaml", "q_202611221430.yaml"]);
}

#[test]
fn no_temp_files_are_left_on_any_path() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let designs = Designs::new(dir);
    let text = plan_text("p", "1.0.0");
    designs.register("p", &text, NOW).unwrap();
    designs.register("p", &text, NOW).unwrap();
    designs.register("p", &plan_text("p", "2.0.0"), NOW).unwrap_err();
    designs.register("../p", &text, NOW).unwrap_err();
    fs::create_dir(dir.join("q_202611221430.yaml")).unwrap();
    designs.register("q", &text, NOW).unwrap_err();
    fs::remove_dir(dir.join("q_202611221430.yaml")).unwrap();
    no_temp_files(dir);
    assert_eq!(listing(dir), ["p_202611221430.yaml"]);
}

#[test]
fn racing_registrations_write_once() {
    let tmp = tempfile::tempdir().unwrap();
    let designs = Arc::new(Designs::new(tmp.path()));
    let threads = 8;

    // The same text from every thread: one writes, the others find it registered.
    let barrier = Arc::new(Barrier::new(threads));
    let outcomes: Vec<_> = (0..threads)
        .map(|_| {
            let (designs, barrier) = (Arc::clone(&designs), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                designs.register("same", &plan_text("same", "1.0.0"), NOW)
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap().unwrap())
        .collect();
    let written = outcomes.iter().filter(|o| matches!(o, RegisterOutcome::Written(_))).count();
    assert_eq!(written, 1, "{outcomes:?}");

    // Different texts: one writes, the others are refused, and the file is the winner's.
    let barrier = Arc::new(Barrier::new(threads));
    let results: Vec<_> = (0..threads)
        .map(|i| {
            let (designs, barrier) = (Arc::clone(&designs), Arc::clone(&barrier));
            std::thread::spawn(move || {
                barrier.wait();
                let text = plan_text("diff", &format!("1.0.{i}"));
                (text.clone(), designs.register("diff", &text, NOW))
            })
        })
        .collect::<Vec<_>>()
        .into_iter()
        .map(|t| t.join().unwrap())
        .collect();
    let winners: Vec<&String> =
        results.iter().filter(|(_, r)| matches!(r, Ok(RegisterOutcome::Written(_)))).map(|(t, _)| t).collect();
    assert_eq!(winners.len(), 1);
    assert!(results
        .iter()
        .all(|(_, r)| matches!(r, Ok(RegisterOutcome::Written(_)) | Err(RegisterError::Conflict { .. }))));
    assert_eq!(&fs::read_to_string(tmp.path().join("diff_202611221430.yaml")).unwrap(), winners[0]);

    no_temp_files(tmp.path());
    assert_eq!(listing(tmp.path()), ["diff_202611221430.yaml", "same_202611221430.yaml"]);
}
