//! What the report tests share: records of real runs (recorded from `planwright run` against
//! the fixture sites, their paths made placeholders) with their screenshots written again, events
//! made by hand, and a JUnit reader.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use planwright_reports::RunRecord;
use planwright_runs::{Event, EventKind};
use quick_xml::events::{BytesStart, Event as Xml};
use quick_xml::{Reader, XmlVersion};
use serde_json::{json, Value};

/// A recorded run, its record folder in a temporary directory.
pub struct Fixture {
    pub dir: tempfile::TempDir,
    pub events: Vec<Event>,
    pub plan: String,
}

impl Fixture {
    /// `tests/fixtures/<name>.jsonl` and `.yaml`, every screenshot the events name written as a
    /// small PNG except those whose file name is in `missing`.
    pub fn load(name: &str, missing: &[&str]) -> Fixture {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
        let dir = tempfile::tempdir().unwrap();
        let record = dir.path().join("record");
        let text = std::fs::read_to_string(fixtures.join(format!("{name}.jsonl")))
            .unwrap()
            .replace("{{RECORD}}", record.to_str().unwrap())
            .replace("{{WORK}}", dir.path().join("work").to_str().unwrap());
        let events: Vec<Event> = text.lines().map(|line| serde_json::from_str(line).unwrap()).collect();
        for event in &events {
            if let EventKind::Artifact { path, .. } = &event.kind {
                let path = PathBuf::from(path);
                let name = path.file_name().unwrap().to_str().unwrap();
                if path.extension().is_some_and(|e| e == "png") && !missing.contains(&name) {
                    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                    std::fs::write(&path, png(64, 40)).unwrap();
                }
            }
        }
        let plan = std::fs::read_to_string(fixtures.join(format!("{name}.yaml"))).unwrap();
        Fixture { dir, events, plan }
    }

    pub fn record(&self) -> RunRecord {
        RunRecord::from_events(self.plan.clone(), &self.events)
    }
}

/// A PNG of a page-like picture: a header band and lines of text.
pub fn png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, width, height);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header().unwrap();
    let data: Vec<u8> = (0..height)
        .flat_map(|y| {
            (0..width).flat_map(move |x| match (y, x) {
                (0..=7, _) => [36, 41, 47],
                (y, x) if y % 6 == 0 && x > 4 && x < width - 10 => [140, 149, 159],
                _ => [255, 255, 255],
            })
        })
        .collect();
    writer.write_image_data(&data).unwrap();
    writer.finish().unwrap();
    out
}

/// An event of run `r1` from its type and fields.
pub fn event(seq: u64, kind: Value) -> Event {
    let mut value =
        json!({"schema": 4, "run_id": "r1", "seq": seq, "at": format!("2026-11-27T04:44:{:02}.000Z", seq % 60)});
    value.as_object_mut().unwrap().extend(kind.as_object().unwrap().clone());
    serde_json::from_value(value).unwrap()
}

/// A step as an `objective` event carries it.
pub fn step(index: usize, description: &str, step_type: &str, status: &str) -> Value {
    json!({
        "index": index, "description": description, "step_type": step_type, "status": status,
        "execution_plan": [], "parent_index": null, "blocking_reason": null, "completion_evidence": null,
        "attempts": 1, "elapsed_ms": 1200, "model_calls": 0, "input_tokens": 0, "output_tokens": 0,
        "decided_by": "offline", "approach": "as_written", "iteration": 1, "screenshot": null
    })
}

/// An `objective` progress event of node `node`.
pub fn objective(seq: u64, node: &str, change: &str, step: Value, steps: Option<Vec<Value>>) -> Event {
    event(
        seq,
        json!({"type": "progress", "node": node, "progress": {
            "kind": "objective", "change": change, "step": step, "action": null, "steps": steps, "completed": 0, "total": 0
        }}),
    )
}

/// A test case as a JUnit reader sees it.
#[derive(Debug, Default, Clone)]
pub struct Case {
    pub classname: String,
    pub name: String,
    pub failure: Option<(String, String, String)>,
    pub error: Option<(String, String)>,
    pub skipped: Option<String>,
    pub out: String,
    pub properties: HashMap<String, String>,
}

/// The suite's attributes and its test cases, read with quick-xml (which fails on XML that is
/// not well formed).
pub fn junit_cases(xml: &str) -> (HashMap<String, String>, Vec<Case>) {
    let mut reader = Reader::from_str(xml);
    let mut suite = HashMap::new();
    let mut cases: Vec<Case> = Vec::new();
    let mut in_case = false;
    loop {
        let (element, empty) = match reader.read_event().unwrap() {
            Xml::Start(e) => (e.into_owned(), false),
            Xml::Empty(e) => (e.into_owned(), true),
            Xml::End(e) if e.name().as_ref() == "testcase" => {
                in_case = false;
                continue;
            }
            Xml::Eof => break,
            _ => continue,
        };
        let found = attributes(&element);
        let body = |reader: &mut Reader<&[u8]>| {
            if empty {
                String::new()
            } else {
                let raw = reader.read_text(element.name()).unwrap();
                quick_xml::escape::unescape(&raw).unwrap().into_owned()
            }
        };
        match element.name().as_ref() {
            "testsuite" => suite = found,
            "testcase" => {
                cases.push(Case {
                    classname: found["classname"].clone(),
                    name: found["name"].clone(),
                    ..Case::default()
                });
                in_case = !empty;
            }
            "property" if in_case => {
                cases.last_mut().unwrap().properties.insert(found["name"].clone(), found["value"].clone());
            }
            "failure" => {
                let text = body(&mut reader);
                cases.last_mut().unwrap().failure = Some((found["message"].clone(), found["type"].clone(), text));
            }
            "error" => {
                let text = body(&mut reader);
                cases.last_mut().unwrap().error = Some((found["message"].clone(), text));
            }
            "skipped" => cases.last_mut().unwrap().skipped = Some(found["message"].clone()),
            "system-out" => cases.last_mut().unwrap().out = body(&mut reader),
            _ => {}
        }
    }
    (suite, cases)
}

fn attributes(element: &BytesStart) -> HashMap<String, String> {
    element
        .attributes()
        .map(|a| {
            let a = a.unwrap();
            let value = a.normalized_value(XmlVersion::Explicit1_0).unwrap().into_owned();
            (a.key.as_ref().to_owned(), value)
        })
        .collect()
}
