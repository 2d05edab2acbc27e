//! The template rules against the shared cases of `testdata/template-rules.json`: directly, and
//! through `POST /api/create-template` on both backends.

use std::path::PathBuf;

use parley_server::media::{FileKind, sniff};
use parley_server::templates::media::HeaderFile;
use parley_server::templates::rules::check_template;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;

fn cases() -> Vec<Value> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/template-rules.json");
    let text = std::fs::read_to_string(&path).expect("testdata/template-rules.json is readable");
    let file: Value = serde_json::from_str(&text).expect("template-rules.json is JSON");
    assert!(
        file["about"].is_array(),
        "the file documents itself under \"about\""
    );
    file["cases"].as_array().expect("cases").clone()
}

fn header_file(case: &Value) -> Option<HeaderFile> {
    serde_json::from_value(case["file"].clone()).expect("file is null or {kind, size}")
}

/// Bytes that sniff as `kind`, `size` long.
fn file_bytes(kind: FileKind, size: usize) -> Vec<u8> {
    let magic: &[u8] = match kind {
        FileKind::Png => b"\x89PNG\r\n\x1a\n",
        FileKind::Jpeg => b"\xFF\xD8\xFF\xE0",
        FileKind::Gif => b"GIF89a",
        FileKind::Mp4 => b"\0\0\0\x18ftypmp42",
        FileKind::ThreeGp => b"\0\0\0\x18ftyp3gp4",
        FileKind::Pdf => b"%PDF-1.7\n",
        FileKind::Ole => b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1",
        FileKind::Zip => b"PK\x03\x04",
        _ => b"plain text",
    };
    let mut bytes = magic.to_vec();
    bytes.resize(size.max(magic.len()), b'.');
    assert_eq!(sniff(&bytes), kind, "test bytes for {kind:?}");
    bytes
}

fn expected(case: &Value) -> Option<(String, String)> {
    let expect = &case["expect"];
    (!expect.is_null()).then(|| {
        (
            expect["rule"].as_str().expect("rule").to_string(),
            expect["message"].as_str().expect("message").to_string(),
        )
    })
}

#[test]
fn every_shared_case_gives_its_expected_result() {
    let cases = cases();
    assert!(cases.len() >= 60, "the file holds every rule's cases");
    let mut wrong = Vec::new();
    for case in &cases {
        let got = check_template(&case["template"], header_file(case).as_ref())
            .err()
            .map(|f| (f.rule.to_string(), f.message));
        if got != expected(case) {
            wrong.push(format!(
                "{}: expected {:?}, got {got:?}",
                case["description"],
                expected(case)
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_rule_has_a_failing_case_and_valid_cases_exist() {
    let cases = cases();
    let rules: std::collections::HashSet<String> = cases
        .iter()
        .filter_map(expected)
        .map(|(rule, _)| rule)
        .collect();
    for rule in [
        "name_required",
        "name_format",
        "name_length",
        "category_required",
        "language_required",
        "body_required",
        "body_length",
        "header_file_required",
        "header_file_type",
        "header_file_size",
        "header_example",
        "header_length",
        "header_variable_count",
        "header_variable_name",
        "body_example",
        "empty_placeholder",
        "button_limits",
        "button_text_required",
        "button_text_length",
        "url_required",
        "url_example",
        "url_invalid",
        "phone_required",
        "phone_invalid",
        "copy_code_required",
        "copy_code_length",
        "footer_length",
    ] {
        assert!(rules.contains(rule), "no failing case for {rule}");
    }
    assert!(cases.iter().filter(|c| c["expect"].is_null()).count() >= 5);
}

/// Posts `template` (and a header file) to `/api/create-template`.
async fn submit(
    app: &TestApp,
    token: &str,
    template: &Value,
    file: Option<(Vec<u8>, &str)>,
) -> (u16, Value) {
    let mut form = reqwest::multipart::Form::new().text("template", template.to_string());
    if let Some((bytes, name)) = file {
        form = form.part(
            "file",
            reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()),
        );
    }
    app.post_form("/api/create-template", token, form).await
}

/// Largest header file the HTTP leg uploads; the direct test covers the 16 and 100 MB cases.
const HTTP_FILE_MAX: u64 = 6 * 1024 * 1024;

both_backends!(
    create_template_enforces_the_shared_rules_over_http,
    |backend| async move {
        let app = spawn_app(backend).await;
        let session = app.register("templater").await;
        let mut checked = 0;
        for case in cases() {
            let file = header_file(&case);
            if file.is_some_and(|f| f.size > HTTP_FILE_MAX) {
                continue;
            }
            let upload = file.map(|f| (file_bytes(f.kind, f.size as usize), "header.bin"));
            // Valid cases reach the provider, which refuses a second template of the same name.
            let mut template = case["template"].clone();
            if expected(&case).is_none() {
                template["name"] = json!(format!("valid_case_{checked}"));
            }
            let (status, body) = submit(&app, &session.access, &template, upload).await;
            match expected(&case) {
                Some((_, message)) => {
                    assert_eq!(status, 422, "{}: {body}", case["description"]);
                    assert_eq!(
                        body,
                        json!({"detail": message, "message": message, "code": "validation_failed"}),
                        "{}",
                        case["description"]
                    );
                }
                None => {
                    assert_eq!(status, 200, "{}: {body}", case["description"]);
                    assert_eq!(
                        body["result"]["status"], "PENDING",
                        "{}",
                        case["description"]
                    );
                }
            }
            checked += 1;
        }
        assert!(checked >= 60);
    }
);

both_backends!(
    the_header_file_type_is_read_from_its_bytes_not_its_name,
    |backend| async move {
        let app = spawn_app(backend).await;
        let session = app.register("sniffer").await;
        let template = json!({
            "name": "promo", "language": "en_US", "category": "MARKETING",
            "components": [
                {"type": "HEADER", "format": "IMAGE", "example": {"header_handle": ["h"]}},
                {"type": "BODY", "text": "Hello"}
            ]
        });
        let gif_named_png = (file_bytes(FileKind::Gif, 64), "photo.png");
        let (status, body) = submit(&app, &session.access, &template, Some(gif_named_png)).await;
        assert_eq!(status, 422);
        assert_eq!(
            body["detail"],
            "The header image must be a PNG or JPEG file."
        );
        let png_named_txt = (file_bytes(FileKind::Png, 64), "notes.txt");
        let (status, body) = submit(&app, &session.access, &template, Some(png_named_txt)).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["result"]["status"], "PENDING");
    }
);

both_backends!(
    create_template_refuses_a_missing_or_broken_template_part_and_strangers,
    |backend| async move {
        let app = spawn_app(backend).await;
        let session = app.register("broken").await;
        let form = reqwest::multipart::Form::new().text("template", "{not json");
        let (status, _) = app
            .post_form("/api/create-template", &session.access, form)
            .await;
        assert_eq!(status, 422);
        let form = reqwest::multipart::Form::new().text("template", "{}");
        let response = app
            .client
            .post(app.url("/api/create-template"))
            .multipart(form)
            .send()
            .await
            .expect("sent");
        assert_eq!(response.status().as_u16(), 401);
    }
);
