//! Contact import from a file: `POST /api/contacts/import` with a multipart `file` holding a
//! vCard or CSV file adds and renames contacts as the JSON import does, skipping (and counting)
//! entries without a valid name and number.

use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;

const PATH: &str = "/api/contacts/import";

/// Cards as phones export them: 3.0 with a group, types and a folded name; 4.0 with `tel:` URIs.
const VCARDS: &str = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Haddad;Layla;;;\r\nFN:Layla\r\n  Haddad\r\n\
item1.TEL;type=CELL;type=pref:+971 50 123 4567\r\nitem1.X-ABLabel:mobile\r\nEND:VCARD\r\n\
BEGIN:VCARD\r\nVERSION:4.0\r\nFN:Ana Souza\r\nTEL;VALUE=uri;TYPE=\"voice,cell\":tel:+55-11-98765-4321\r\n\
TEL;TYPE=work:+1 (650) 555-0100\r\nEND:VCARD\r\n\
BEGIN:VCARD\r\nVERSION:3.0\r\nFN:No Number\r\nEMAIL:none@example.com\r\nEND:VCARD\r\n\
BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Too Short\r\nTEL:12\r\nEND:VCARD\r\n";

/// A multipart form whose `file` part is `bytes` named `name`.
pub(crate) fn file(name: &str, mime: &str, bytes: &[u8]) -> Form {
    Form::new().part(
        "file",
        Part::bytes(bytes.to_vec())
            .file_name(name.to_string())
            .mime_str(mime)
            .expect("mime"),
    )
}

pub(crate) async fn import(app: &TestApp, token: &str, form: Form) -> (u16, Value) {
    app.post_form(PATH, token, form).await
}

/// The business's contacts as (phone, name), sorted by phone.
pub(crate) async fn contacts(app: &TestApp, token: &str) -> Vec<(String, String)> {
    let (status, list) = app.get("/api/users?limit=100", token).await;
    assert_eq!(status, 200, "{list}");
    let mut all: Vec<(String, String)> = list["data"]["users"]
        .as_array()
        .expect("users")
        .iter()
        .map(|u| {
            (
                u["phone_number"].as_str().expect("phone").to_string(),
                u["name"].as_str().expect("name").to_string(),
            )
        })
        .collect();
    all.sort();
    all
}

both_backends!(
    a_vcard_file_adds_every_number_of_every_card_and_skips_the_rest,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("vcardimport").await.access;
        let (status, counts) = import(
            &app,
            &token,
            file("contacts.vcf", "text/vcard", VCARDS.as_bytes()),
        )
        .await;
        assert_eq!(status, 200, "{counts}");
        assert_eq!(
            counts,
            json!({"added": 3, "updated": 0, "unchanged": 0, "skipped": 2})
        );
        assert_eq!(
            contacts(&app, &token).await,
            [
                ("16505550100".to_string(), "Ana Souza".to_string()),
                ("5511987654321".to_string(), "Ana Souza".to_string()),
                ("971501234567".to_string(), "Layla Haddad".to_string()),
            ]
        );
        // The same file again changes nothing.
        let (_, again) = import(
            &app,
            &token,
            file("contacts.vcf", "text/vcard", VCARDS.as_bytes()),
        )
        .await;
        assert_eq!(
            again,
            json!({"added": 0, "updated": 0, "unchanged": 3, "skipped": 2})
        );
    }
);

both_backends!(a_csv_file_is_read_by_its_header_row, |backend| async move {
    let app = spawn_app(backend).await;
    let token = app.register("csvimport").await.access;
    let (_, _) = app
        .post(
            "/api/contacts/add",
            json!({"name": "Old Name", "phone_number": "4915199999999"}),
            Some(&token),
        )
        .await;
    let csv = "Name,Email,Phone Number\n\"Doe, Jane\",jane@example.com,+49 151 99999999\n\
                   Omar,,+20 100 123 4567\nNobody,,not a number\n,,16505550123\n";
    let (status, counts) =
        import(&app, &token, file("people.csv", "text/csv", csv.as_bytes())).await;
    assert_eq!(status, 200, "{counts}");
    assert_eq!(
        counts,
        json!({"added": 1, "updated": 1, "unchanged": 0, "skipped": 2})
    );
    assert_eq!(
        contacts(&app, &token).await,
        [
            ("201001234567".to_string(), "Omar".to_string()),
            ("4915199999999".to_string(), "Doe, Jane".to_string()),
        ]
    );
});

both_backends!(
    a_file_that_is_not_a_contact_list_is_refused,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("badimport").await.access;
        let cases = [
            (
                file("notes.txt", "text/plain", b"hello"),
                "file must be a vCard (.vcf) or CSV",
            ),
            (
                file("cards.vcf", "text/vcard", b"name,phone\nA,1\n"),
                "file is not a vCard file",
            ),
            (
                file("list.csv", "text/csv", b"who,what\nA,B\n"),
                "file needs a header row",
            ),
            (
                file("list.csv", "text/csv", b"PK\x03\x04\x00\x00"),
                "file is not text",
            ),
            (Form::new().text("note", "no file"), "file is required"),
        ];
        for (form, expected) in cases {
            let (status, body) = import(&app, &token, form).await;
            assert_eq!(status, 422, "{body}");
            assert_eq!(body["code"], "validation_failed");
            let detail = body["detail"].as_str().expect("detail");
            assert!(detail.starts_with(expected), "{detail}");
        }
        let mut big = b"name,phone\n".to_vec();
        big.resize(5 * 1024 * 1024 + 1, b'1');
        let (status, body) = import(&app, &token, file("big.csv", "text/csv", &big)).await;
        assert_eq!(status, 413, "{body}");
        assert_eq!(body["code"], "payload_too_large");
        let (status, _) = app
            .post_form(
                PATH,
                "not-a-token",
                file("a.csv", "text/csv", b"name,phone\n"),
            )
            .await;
        assert_eq!(status, 401);
    }
);
