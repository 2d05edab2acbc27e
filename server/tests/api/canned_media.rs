//! Canned replies with a file over HTTP: a multipart create or edit keeps the file under the
//! chat attachment rules, the reply names it, and `GET /api/media/{id}` serves it to the
//! business only.

use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;

const PATH: &str = "/api/canned-replies";
/// The first bytes of a PNG: enough for the type to be read from the content.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR-not-a-real-picture";
const PDF: &[u8] = b"%PDF-1.4\n% a price list\n";

fn form(fields: &[(&str, &str)], file: Option<(&str, &[u8])>) -> Form {
    let mut form = Form::new();
    for (name, value) in fields {
        form = form.text(name.to_string(), value.to_string());
    }
    if let Some((name, bytes)) = file {
        form = form.part(
            "file",
            Part::bytes(bytes.to_vec()).file_name(name.to_string()),
        );
    }
    form
}

async fn edit(app: &TestApp, token: &str, id: &str, form: Form) -> (u16, Value) {
    let path = format!("{PATH}/{id}");
    app.call_form(reqwest::Method::PATCH, &path, token, form)
        .await
}

/// (status, bytes) of `GET /api/media/{id}` with `token`.
async fn download(app: &TestApp, token: &str, id: &str) -> (u16, Vec<u8>) {
    let response = app
        .client
        .get(app.url(&format!("/api/media/{id}")))
        .bearer_auth(token)
        .send()
        .await
        .expect("media fetched");
    let status = response.status().as_u16();
    (status, response.bytes().await.expect("body read").to_vec())
}

both_backends!(
    a_canned_reply_carries_a_file_that_only_its_business_can_fetch,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cannedmedia").await;
        let fields = [("shortcut", "menu"), ("text", "Our menu, {{name}}")];
        let (status, made) = app
            .post_form(PATH, &owner.access, form(&fields, Some(("menu.png", PNG))))
            .await;
        assert_eq!(status, 201, "{made}");
        assert_eq!(made["text"], "Our menu, {{name}}");
        let media = &made["media"];
        assert_eq!(media["mime_type"], "image/png", "{made}");
        assert_eq!(media["filename"], "menu.png");
        assert_eq!(media["size"], PNG.len());
        let media_id = media["id"].as_str().expect("media id");

        let (_, listed) = app.get(PATH, &owner.access).await;
        assert_eq!(listed["canned_replies"][0]["media"], *media);

        assert_eq!(
            download(&app, &owner.access, media_id).await,
            (200, PNG.to_vec())
        );
        let stranger = app.register("cannedstranger").await;
        let (status, _) = download(&app, &stranger.access, media_id).await;
        assert_eq!(status, 404, "another business never gets the file");

        let (status, plain) = app
            .post(
                PATH,
                json!({"shortcut": "hi", "text": "Hello"}),
                Some(&owner.access),
            )
            .await;
        assert_eq!(status, 201, "{plain}");
        assert_eq!(plain["media"], Value::Null, "JSON still makes a text reply");
    }
);

both_backends!(
    an_edit_replaces_keeps_or_removes_the_file_and_sent_files_stay,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cannededit").await;
        let fields = [("shortcut", "prices"), ("text", "Our prices")];
        let (_, made) = app
            .post_form(PATH, &owner.access, form(&fields, Some(("a.png", PNG))))
            .await;
        let id = made["id"].as_str().expect("id");
        let first = made["media"]["id"].as_str().expect("media id").to_string();

        let (status, replaced) = edit(
            &app,
            &owner.access,
            id,
            form(&[], Some(("prices.pdf", PDF))),
        )
        .await;
        assert_eq!(status, 200, "{replaced}");
        assert_eq!(replaced["media"]["mime_type"], "application/pdf");
        assert_eq!(replaced["media"]["filename"], "prices.pdf");
        assert_eq!(
            replaced["text"], "Our prices",
            "a field left out keeps its value"
        );
        assert_ne!(replaced["media"]["id"], first.as_str());
        let (status, _) = download(&app, &owner.access, &first).await;
        assert_eq!(
            status, 200,
            "a replaced file stays for messages that showed it"
        );

        let path = format!("{PATH}/{id}");
        let (status, kept) = app
            .call(
                reqwest::Method::PATCH,
                &path,
                Some(json!({"text": "New prices"})),
                Some(&owner.access),
            )
            .await;
        assert_eq!(status, 200, "{kept}");
        assert_eq!(
            kept["media"], replaced["media"],
            "a text edit keeps the file"
        );

        let (status, both) = edit(
            &app,
            &owner.access,
            id,
            form(&[("remove_media", "true")], Some(("b.png", PNG))),
        )
        .await;
        assert_eq!(status, 422, "{both}");

        let (status, removed) = edit(
            &app,
            &owner.access,
            id,
            form(&[("remove_media", "true")], None),
        )
        .await;
        assert_eq!(status, 200, "{removed}");
        assert_eq!(removed["media"], Value::Null);
        assert_eq!(removed["text"], "New prices");

        let second = replaced["media"]["id"].as_str().expect("media id");
        let (status, _) = app
            .call(reqwest::Method::DELETE, &path, None, Some(&owner.access))
            .await;
        assert_eq!(status, 204);
        assert_eq!(
            download(&app, &owner.access, second).await,
            (200, PDF.to_vec())
        );
    }
);

both_backends!(
    a_file_the_cloud_api_refuses_is_refused_as_a_chat_attachment_is,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cannedbadfile").await;
        let fields = [("shortcut", "notes"), ("text", "See the notes")];
        let (status, body) = app
            .post_form(
                PATH,
                &owner.access,
                form(&fields, Some(("notes.txt", b"plain text notes"))),
            )
            .await;
        assert_eq!(status, 415, "{body}");
        assert_eq!(body["code"], "unsupported_media_type");

        let mut big = b"\xFF\xD8\xFF\xE0".to_vec();
        big.resize(5 * 1024 * 1024 + 1, 0);
        let (status, body) = app
            .post_form(PATH, &owner.access, form(&fields, Some(("big.jpg", &big))))
            .await;
        assert_eq!(status, 422, "{body}");
        assert_eq!(body["code"], "validation_failed");
        // An empty file the owner chose is refused, not saved as a reply without it.
        let (status, body) = app
            .post_form(PATH, &owner.access, form(&fields, Some(("menu.png", b""))))
            .await;
        assert_eq!(
            (status, &body["detail"]),
            (422, &json!("The file is empty"))
        );

        let (_, listed) = app.get(PATH, &owner.access).await;
        assert_eq!(listed["canned_replies"], json!([]), "nothing was saved");
    }
);

both_backends!(
    the_text_of_a_canned_reply_with_a_file_is_held_to_a_caption_s_length_when_saved,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cannedcaption").await;
        let long = "x".repeat(1025);
        let fields = [("shortcut", "long"), ("text", long.as_str())];
        let (status, body) = app
            .post_form(PATH, &owner.access, form(&fields, Some(("a.png", PNG))))
            .await;
        assert_eq!(status, 422, "{body}");
        assert!(
            body["detail"]
                .as_str()
                .expect("detail")
                .starts_with("text ")
        );
        // Without a file the text may be a whole message long.
        let (status, made) = app
            .post_form(PATH, &owner.access, form(&fields, None))
            .await;
        assert_eq!(status, 201, "{made}");
        let id = made["id"].as_str().expect("id");
        let (status, body) = edit(&app, &owner.access, id, form(&[], Some(("a.png", PNG)))).await;
        assert_eq!(status, 422, "a file for the long text: {body}");

        let fields = [("shortcut", "short"), ("text", "Our menu")];
        let (_, made) = app
            .post_form(PATH, &owner.access, form(&fields, Some(("a.png", PNG))))
            .await;
        let id = made["id"].as_str().expect("id");
        let (status, body) = edit(&app, &owner.access, id, form(&[("text", &long)], None)).await;
        assert_eq!(status, 422, "a long text for the kept file: {body}");
        let both = form(&[("text", &long), ("remove_media", "true")], None);
        let (status, body) = edit(&app, &owner.access, id, both).await;
        assert_eq!(status, 200, "the long text once the file is gone: {body}");
    }
);

both_backends!(
    a_file_named_only_in_rfc_5987_form_is_kept_under_that_name,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cannedext").await;
        let mut body =
            b"--edge\r\nContent-Disposition: form-data; name=\"shortcut\"\r\n\r\nmenu\r\n\
            --edge\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\nOur menu\r\n\
            --edge\r\nContent-Disposition: form-data; name=\"file\"; \
            filename*=UTF-8''men%C3%BC.png\r\nContent-Type: image/png\r\n\r\n"
                .to_vec();
        body.extend_from_slice(PNG);
        body.extend_from_slice(b"\r\n--edge--\r\n");
        let response = app
            .client
            .post(app.url(PATH))
            .bearer_auth(&owner.access)
            .header("Content-Type", "multipart/form-data; boundary=edge")
            .body(body)
            .send()
            .await
            .expect("sent");
        assert_eq!(response.status().as_u16(), 201);
        let made: Value = response.json().await.expect("the reply");
        assert_eq!(made["media"]["filename"], "menü.png", "{made}");
    }
);
