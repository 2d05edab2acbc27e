//! The template rules: any definition, and each shared case with one value changed, is judged
//! without a panic.

use std::path::PathBuf;

use parley_server::templates::rules::check_template;
use proptest::prelude::*;
use serde_json::Value;

use crate::strategies::{json, mutated};

/// The templates of `testdata/template-rules.json`, valid and not.
fn shared_templates() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/template-rules.json");
    let text = std::fs::read_to_string(&path).expect("testdata/template-rules.json is readable");
    let file: Value = serde_json::from_str(&text).expect("template-rules.json is JSON");
    let cases = file["cases"].as_array().expect("cases");
    cases.iter().map(|case| case["template"].clone()).collect()
}

fn a_mutated_shared_template() -> impl Strategy<Value = Value> {
    prop::sample::select(shared_templates()).prop_flat_map(mutated)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn any_definition_is_judged_without_a_panic(template in json()) {
        let _ = check_template(&template, None);
    }

    #[test]
    fn a_shared_case_with_one_value_changed_is_judged_without_a_panic(
        template in a_mutated_shared_template(),
    ) {
        let _ = check_template(&template, None);
    }
}
