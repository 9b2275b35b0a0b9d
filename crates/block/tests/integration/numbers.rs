//! The one number parser on the cases the studio's form checks too (`numbers.json`, read by
//! `ui/src/lib/run/requirements.test.ts`): both sides read each text to the same number, or to
//! none.

use planwright_block::numbers::parse_number;
use serde_json::Value;

#[test]
fn every_shared_case_reads_as_listed() {
    let cases: Vec<Value> = serde_json::from_str(include_str!("../numbers.json")).unwrap();
    for case in cases {
        let text = case["text"].as_str().unwrap();
        let read = parse_number(text).map(|n| n.value);
        assert_eq!(read, case["value"].as_f64(), "{text:?}");
    }
}
