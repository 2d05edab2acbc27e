//! Recipient files for bulk sends: csv and xlsx made here, the committed xls fixture, refusals,
//! a 100,000-row file, and the sample download.

use std::path::PathBuf;

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;

/// Uploads `bytes` as part `file` named `name`; answers (status, JSON).
async fn parse(app: &TestApp, token: &str, bytes: Vec<u8>, name: &str) -> (u16, Value) {
    let form = reqwest::multipart::Form::new().part(
        "file",
        reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()),
    );
    app.post_form("/api/recipients/parse", token, form).await
}

/// A committed xls fixture (testdata/recipients/make_xls.py).
fn xls_named(name: &str) -> Vec<u8> {
    let fixture = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../testdata/recipients");
    std::fs::read(fixture.join(name)).expect("xls fixture")
}

fn xls_fixture() -> Vec<u8> {
    xls_named("recipients.xls")
}

fn xlsx_with_phone_number_header() -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(0, 0, "Name").expect("cell");
    sheet.write_string(0, 1, "PHONENUMBER").expect("cell");
    sheet.write_string(1, 0, "Numeric").expect("cell");
    sheet.write_number(1, 1, 201001234567.0).expect("cell");
    sheet.write_string(2, 0, "Text").expect("cell");
    sheet.write_string(2, 1, " 966501234567").expect("cell");
    sheet.write_string(3, 0, "Dashes").expect("cell");
    sheet.write_string(3, 1, "1-555-123").expect("cell");
    sheet.write_string(4, 0, "Repeat").expect("cell");
    sheet.write_number(4, 1, 201001234567.0).expect("cell");
    book.save_to_buffer().expect("xlsx written")
}

both_backends!(
    csv_xlsx_and_xls_files_give_their_numbers_and_skipped_rows,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("bulk").await.access;

        let csv = "PhoneNumber,Name\n 201001234567 ,A\n+201001234567,B\n\n201001234567,C\n15551234567,D\n";
        let (status, body) = parse(&app, &token, csv.into(), "list.csv").await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(
            body,
            json!({
                "fileName": "list.csv",
                "count": 2,
                "numbers": ["201001234567", "15551234567"],
                "variables": {},
                "skipped": {
                    "count": 2, "invalid_number": 0, "duplicate": 2, "missing_variable": 0,
                    "rows": [
                        {"row": 3, "value": "+201001234567", "reason": "duplicate"},
                        {"row": 4, "value": "201001234567", "reason": "duplicate"},
                    ],
                    "csv": "row,value,reason,variable\n3,+201001234567,duplicate,\n\
                            4,201001234567,duplicate,\n",
                },
            })
        );

        let (status, body) = parse(&app, &token, xlsx_with_phone_number_header(), "l.xlsx").await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["numbers"], json!(["201001234567", "966501234567"]));
        assert_eq!(
            body["skipped"]["rows"],
            json!([
                {"row": 4, "value": "1-555-123", "reason": "invalid_number"},
                {"row": 5, "value": "201001234567", "reason": "duplicate"},
            ])
        );

        // The same first sheet beside a second spanning a whole BIFF8 sheet, which is not read.
        for name in ["recipients.xls", "two-sheets.xls"] {
            let (status, body) = parse(&app, &token, xls_named(name), name).await;
            assert_eq!(status, 200, "{name}: {body}");
            // `+15551234567` is a number as typed.
            assert_eq!(
                body["numbers"],
                json!(["201001234567", "966501234567", "15551234567", "15551230000"])
            );
            assert_eq!(
                body["skipped"]["rows"],
                json!([{"row": 5, "value": "201001234567", "reason": "duplicate"}])
            );
        }
    }
);

both_backends!(
    other_types_and_files_without_numbers_are_refused,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("refused").await.access;
        let (status, body) = parse(&app, &token, b"15551234567".to_vec(), "list.txt").await;
        assert_eq!(status, 415);
        assert_eq!(body["detail"], "Unsupported file type");
        let (status, body) = parse(
            &app,
            &token,
            b"PhoneNumber\nnone\n+1 555\n".to_vec(),
            "bad.csv",
        )
        .await;
        assert_eq!(status, 422);
        assert_eq!(body["detail"], "No valid numbers found in bad.csv");
        let (status, body) = parse(&app, &token, b"not a workbook".to_vec(), "book.xlsx").await;
        assert_eq!(status, 422);
        assert_eq!(body["detail"], "Failed to parse Excel file");
        let mut huge = b"PhoneNumber\n".to_vec();
        huge.resize(33 * 1024 * 1024, b'1');
        let (status, body) = parse(&app, &token, huge, "huge.csv").await;
        assert_eq!(status, 422);
        assert_eq!(body["detail"], "The recipient file must be at most 32 MB");
        let form = reqwest::multipart::Form::new().text("file", "x");
        let response = app
            .client
            .post(app.url("/api/recipients/parse"))
            .multipart(form)
            .send()
            .await
            .expect("sent");
        assert_eq!(response.status().as_u16(), 401);
    }
);

both_backends!(a_100000_row_csv_parses_completely, |backend| async move {
    let app = spawn_app(backend).await;
    let token = app.register("bigfile").await.access;
    let mut csv = String::from("PhoneNumber\n");
    for i in 0..100_000u64 {
        match i % 1000 {
            // One in a thousand is not a number, one in a thousand repeats the first.
            7 => csv.push_str("n/a\n"),
            8 => csv.push_str("201000000000\n"),
            _ => csv.push_str(&format!("2010{i:08}\n")),
        }
    }
    let started = std::time::Instant::now();
    let (status, body) = parse(&app, &token, csv.into_bytes(), "big.csv").await;
    eprintln!(
        "100,000-row csv parsed over HTTP in {:?}",
        started.elapsed()
    );
    assert_eq!(status, 200);
    let numbers = body["numbers"].as_array().expect("numbers");
    assert_eq!(numbers.len(), 99_800);
    assert_eq!(body["count"], 99_800);
    assert_eq!(numbers[0], "201000000000");
    assert_eq!(numbers[99_799], "201000099999");
    assert_eq!(body["skipped"]["invalid_number"], 100);
    assert_eq!(body["skipped"]["duplicate"], 100);
    // Row 1 is the header: the number i sits on row i + 2.
    assert_eq!(
        body["skipped"]["rows"][0],
        json!({"row": 9, "value": "n/a", "reason": "invalid_number"})
    );
});

both_backends!(
    the_sample_file_downloads_as_an_attachment,
    |backend| async move {
        let app = spawn_app(backend).await;
        let response = app
            .client
            .get(app.url("/api/recipients/sample"))
            .send()
            .await
            .expect("sent");
        assert_eq!(response.status().as_u16(), 200);
        let disposition = response.headers()["content-disposition"]
            .to_str()
            .expect("ascii")
            .to_string();
        assert!(disposition.starts_with("attachment"), "{disposition}");
        assert!(
            disposition.contains("sample_phone_numbers.csv"),
            "{disposition}"
        );
        let text = response.text().await.expect("body");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0], "PhoneNumber");
        assert!(
            lines[1..]
                .iter()
                .all(|l| l.bytes().all(|b| b.is_ascii_digit()))
        );
    }
);

both_backends!(
    a_damaged_xls_whose_dimensions_end_before_they_start_is_refused,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("damaged").await.access;
        let mut xls = xls_fixture();
        // The Dimensions record (0x0200, 14 bytes): first row 5, rows end before row 1.
        let at = xls
            .windows(4)
            .position(|w| w == [0x00, 0x02, 0x0E, 0x00])
            .expect("a Dimensions record");
        xls[at + 4..at + 12].copy_from_slice(&[5, 0, 0, 0, 1, 0, 0, 0]);
        let (status, body) = parse(&app, &token, xls, "damaged.xls").await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["detail"], "Failed to parse Excel file");
    }
);

both_backends!(
    an_xls_whose_cells_span_a_vast_grid_is_refused,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("vast").await.access;
        let mut xls = xls_fixture();
        // A LabelSst cell record (0x00FD, 10 bytes) of row 4 moved to row 65,536, column 256:
        // with the cells of row 1, a grid of 16.7 million cells.
        let at = xls
            .windows(6)
            .position(|w| w == [0xFD, 0x00, 0x0A, 0x00, 0x03, 0x00])
            .expect("a cell of row 4");
        xls[at + 4..at + 8].copy_from_slice(&[0xFF, 0xFF, 0xFF, 0x00]);
        let (status, body) = parse(&app, &token, xls, "vast.xls").await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(
            body["detail"],
            "The recipient file's sheets span more than 5000000 cells"
        );
    }
);
