//! Media over HTTP: files sent are checked by content, stored and served to their business
//! only; inbound media is fetched from the provider and kept.

use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::sending::*;

fn file_form(bytes: Vec<u8>, kind: &str, name: &str, client_id: &str) -> reqwest::multipart::Form {
    reqwest::multipart::Form::new()
        .text("to", CUSTOMER)
        .text("message_id", client_id.to_string())
        .text("message_type", kind.to_string())
        .text("caption", "see attached")
        .part(
            "file",
            reqwest::multipart::Part::bytes(bytes).file_name(name.to_string()),
        )
}

fn png() -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n".to_vec();
    bytes.extend_from_slice(&[0u8; 256]);
    bytes
}

both_backends!(
    files_are_checked_by_content_stored_and_served_to_their_business_only,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("filer").await;
        let other = app.business("snooper").await;
        open_window(&app, &biz, CUSTOMER).await;

        let (status, body) = app
            .send_form(
                &biz.session.access,
                file_form(b"%PDF-1.7 fake".to_vec(), "image", "cat.png", "f-1"),
            )
            .await;
        assert_eq!(status, 422, "{body}");
        assert!(
            body["detail"]
                .as_str()
                .expect("d")
                .contains("application/pdf")
        );
        let (status, body) = app
            .send_form(
                &biz.session.access,
                file_form(b"just text".to_vec(), "document", "a.txt", "f-2"),
            )
            .await;
        assert_eq!(status, 415, "{body}");
        let mut huge = b"\xFF\xD8\xFF".to_vec();
        huge.resize(5 * 1024 * 1024 + 10, 0);
        let (status, body) = app
            .send_form(
                &biz.session.access,
                file_form(huge, "image", "big.jpg", "f-3"),
            )
            .await;
        assert_eq!(status, 422);
        assert!(
            body["detail"].as_str().expect("d").contains("limit"),
            "{body}"
        );

        let (status, body) = app
            .send_form(
                &biz.session.access,
                file_form(png(), "image", "cat.png", "f-4"),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let media_url = body["media_url"].as_str().expect("media_url").to_string();
        let provider_saw = app.sandbox_sent(&biz).await;
        assert_eq!(provider_saw.len(), 1);
        assert_eq!(provider_saw[0]["body"]["type"], "image");
        assert!(
            provider_saw[0]["body"]["image"]["id"]
                .as_str()
                .is_some_and(|id| !id.is_empty())
        );
        assert_eq!(provider_saw[0]["body"]["image"]["caption"], "see attached");

        let mine = app
            .client
            .get(app.url(&media_url))
            .bearer_auth(&biz.session.access)
            .send()
            .await
            .expect("get");
        assert_eq!(mine.status().as_u16(), 200);
        assert_eq!(mine.headers()["content-type"], "image/png");
        assert_eq!(mine.bytes().await.expect("bytes").to_vec(), png());
        let ranged = app
            .client
            .get(app.url(&media_url))
            .bearer_auth(&biz.session.access)
            .header("Range", "bytes=0-3")
            .send()
            .await
            .expect("get");
        assert_eq!(ranged.status().as_u16(), 206);
        assert_eq!(
            ranged.bytes().await.expect("bytes").to_vec(),
            b"\x89PNG".to_vec()
        );
        let theirs = app
            .client
            .get(app.url(&media_url))
            .bearer_auth(&other.session.access)
            .send()
            .await
            .expect("get");
        assert_eq!(theirs.status().as_u16(), 404);
        let anonymous = app
            .client
            .get(app.url(&media_url))
            .send()
            .await
            .expect("get");
        assert_eq!(anonymous.status().as_u16(), 401);
    }
);

both_backends!(
    inbound_media_is_fetched_from_the_provider_and_kept,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("receiver").await;
        let other = app.business("outsider").await;
        // The customer's photo, uploaded to the provider as the customer's phone would.
        let media_id = app
            .provider_file(&biz, &png(), "image/png", "photo.png")
            .await;

        let (status, _) = app.post("/sandbox/customers/inject", json!({
        "from": CUSTOMER, "name": "Photographer",
        "message": {"type": "image", "image": {"id": media_id, "mime_type": "image/png", "sha256": "x"}},
    }), Some(&biz.session.access)).await;
        assert_eq!(status, 200);
        let (_, history) = app
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        let url = history["messages"][0]["content"]["image"]["media_url"]
            .as_str()
            .expect("url")
            .to_string();
        let fetched = app
            .client
            .get(app.url(&url))
            .bearer_auth(&biz.session.access)
            .send()
            .await
            .expect("get");
        assert_eq!(fetched.status().as_u16(), 200);
        assert_eq!(fetched.bytes().await.expect("bytes").to_vec(), png());
        let theirs = app
            .client
            .get(app.url(&url))
            .bearer_auth(&other.session.access)
            .send()
            .await
            .expect("get");
        assert_eq!(theirs.status().as_u16(), 404);
    }
);
