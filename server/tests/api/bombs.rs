//! Recipient files built to exhaust the server: a small xlsx that unpacks to hundreds of MB, a
//! sheet naming one far cell, too many rows, a cell too long. Each is refused, or read, without
//! unpacking more than the bound.

use std::io::{Cursor, Write};

use serde_json::Value;

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

/// A 422 in the documented shape whose text names `limit`.
fn assert_refused(status: u16, body: &Value, limit: &str) {
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["code"], "validation_failed", "{body}");
    let detail = body["detail"].as_str().expect("detail");
    assert!(detail.contains(limit), "{detail} names {limit}");
    assert_eq!(body["message"], body["detail"]);
}

/// A real workbook whose shared strings are swapped for one string of `size` bytes of `a`,
/// deflated: 200 MB pack into a few hundred KB.
fn xlsx_with_a_cell_of(size: usize) -> Vec<u8> {
    let mut book = rust_xlsxwriter::Workbook::new();
    let sheet = book.add_worksheet();
    sheet.write_string(0, 0, "PhoneNumber").expect("cell");
    sheet.write_number(1, 0, 201001234567.0).expect("cell");
    let plain = book.save_to_buffer().expect("xlsx written");

    let mut source = zip::ZipArchive::new(Cursor::new(plain)).expect("xlsx is a zip");
    let mut out = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for index in 0..source.len() {
        let part = source.by_index_raw(index).expect("part");
        if part.name().expect("name") != "xl/sharedStrings.xml" {
            out.raw_copy_file(part).expect("copied");
            continue;
        }
        drop(part);
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .large_file(size > u32::MAX as usize);
        out.start_file("xl/sharedStrings.xml", options)
            .expect("part");
        out.write_all(
            b"<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\
              <sst xmlns=\"http://schemas.openxmlformats.org/spreadsheetml/2006/main\" \
              count=\"1\" uniqueCount=\"1\"><si><t>",
        )
        .expect("written");
        let chunk = vec![b'a'; 1024 * 1024];
        let mut left = size;
        while left > 0 {
            let n = left.min(chunk.len());
            out.write_all(&chunk[..n]).expect("written");
            left -= n;
        }
        out.write_all(b"</t></si></sst>").expect("written");
    }
    out.finish().expect("finished").into_inner()
}

both_backends!(
    an_xlsx_that_unpacks_to_200_mb_is_refused_before_it_is_unpacked,
    |backend| async move {
        // Built first: a connection left idle while it is built may be closed under the request.
        let bomb = xlsx_with_a_cell_of(200 * 1024 * 1024);
        assert!(bomb.len() < 2 * 1024 * 1024, "{} bytes", bomb.len());
        let app = spawn_app(backend).await;
        let token = app.register("bomb").await.access;

        let (status, body) = parse(&app, &token, bomb, "list.xlsx").await;
        assert_refused(status, &body, "unpacks to more than 50 MB");
    }
);

both_backends!(
    an_xlsx_cell_over_4096_characters_is_refused_with_its_row,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("bomb").await.access;

        let (status, body) = parse(&app, &token, xlsx_with_a_cell_of(5_000), "l.xlsx").await;
        assert_refused(status, &body, "Row 1 has a cell over 4096 characters");
        // A cell far over the bound is refused while the file is unpacked, before a parser
        // holds it.
        let huge = xlsx_with_a_cell_of(4 * 1024 * 1024);
        let (status, body) = parse(&app, &token, huge, "h.xlsx").await;
        assert_refused(
            status,
            &body,
            "The recipient file has a cell over 4096 characters",
        );
    }
);

both_backends!(
    a_sheet_naming_one_far_cell_is_read_without_a_grid_to_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("bomb").await.access;
        let mut book = rust_xlsxwriter::Workbook::new();
        let sheet = book.add_worksheet();
        sheet.write_string(0, 0, "PhoneNumber").expect("cell");
        sheet.write_number(1, 0, 201001234567.0).expect("cell");
        // As a dense grid, A1:XFD1048576 is 17 billion cells.
        sheet.write_string(1_048_575, 16_383, "far").expect("cell");
        let bytes = book.save_to_buffer().expect("xlsx written");

        let (status, body) = parse(&app, &token, bytes, "far.xlsx").await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["numbers"], serde_json::json!(["201001234567"]));
    }
);

both_backends!(
    a_csv_over_100000_rows_or_with_a_long_cell_is_refused,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("bomb").await.access;

        let mut rows = String::from("PhoneNumber\n");
        for i in 0..100_001u64 {
            rows.push_str(&format!("{}\n", 200_000_000_000 + i));
        }
        let (status, body) = parse(&app, &token, rows.into_bytes(), "many.csv").await;
        assert_refused(status, &body, "more than 100000 rows");

        let long = format!(
            "PhoneNumber,Note\n201001234567,ok\n15551234567,{}\n",
            "x".repeat(4_097)
        );
        let (status, body) = parse(&app, &token, long.into_bytes(), "long.csv").await;
        assert_refused(status, &body, "Row 3 has a cell over 4096 characters");
    }
);

both_backends!(
    a_compressed_request_body_is_refused_unread,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("bomb").await.access;
        // The gzip header of a body: never inflated, whatever follows.
        let gzip = vec![0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0xff];
        for path in ["/api/recipients/parse", "/webhook"] {
            let response = app
                .client
                .post(app.url(path))
                .bearer_auth(&token)
                .header("Content-Type", "application/json")
                .header("Content-Encoding", "gzip")
                .body(gzip.clone())
                .send()
                .await
                .expect("sent");
            let status = response.status().as_u16();
            let body: Value = response.json().await.expect("JSON");
            assert_eq!(status, 415, "{path}: {body}");
            assert_eq!(body["code"], "unsupported_media_type", "{body}");
            assert!(
                body["detail"]
                    .as_str()
                    .expect("detail")
                    .contains("Compressed"),
                "{body}"
            );
        }
    }
);
