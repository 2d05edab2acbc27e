//! Media share links: `POST /api/media/{id}/share` signs a link that opens one file of the
//! business without a login until it expires; any change to it, or its age, closes it.

use reqwest::multipart::{Form, Part};
use serde_json::Value;

use crate::both_backends;
use crate::helpers::*;

/// The first bytes of a PNG: enough for the type to be read from the content.
const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR-a-shared-picture";

/// A file of `token`'s business (kept with a canned reply); answers its media id.
async fn stored_file(app: &TestApp, token: &str) -> String {
    let form = Form::new()
        .text("shortcut", "photo")
        .text("text", "Our shop")
        .part("file", Part::bytes(PNG.to_vec()).file_name("shop.png"));
    let (status, made) = app.post_form("/api/canned-replies", token, form).await;
    assert_eq!(status, 201, "{made}");
    made["media"]["id"].as_str().expect("media id").to_string()
}

async fn share(app: &TestApp, token: &str, id: &str) -> (u16, Value) {
    app.post(&format!("/api/media/{id}/share"), Value::Null, Some(token))
        .await
}

/// (status, body) of a GET of `path` without any login.
async fn open(app: &TestApp, path: &str) -> (u16, Vec<u8>) {
    let response = app
        .client
        .get(app.url(path))
        .send()
        .await
        .expect("link opened");
    let status = response.status().as_u16();
    (status, response.bytes().await.expect("body").to_vec())
}

/// Checks a refusal is the 403 JSON error.
async fn refused(app: &TestApp, path: &str) {
    let (status, body) = open(app, path).await;
    assert_eq!(status, 403, "{path}");
    let body: Value = serde_json::from_slice(&body).expect("a JSON error");
    assert_eq!(body["code"], "forbidden");
    assert_eq!(body["detail"], body["message"]);
}

/// `url` with one character of its `name` parameter (or of the id, for "id") changed.
fn altered(url: &str, name: &str) -> String {
    let flip = |c: char| match c {
        '0' => '1',
        '1' => '0',
        'a' => 'b',
        _ => 'a',
    };
    let (path, query) = url.split_once('?').expect("a query");
    if name == "id" {
        let mut chars: Vec<char> = path.chars().collect();
        let last = chars.len() - 1;
        chars[last] = flip(chars[last]);
        return format!("{}?{query}", chars.into_iter().collect::<String>());
    }
    let params: Vec<String> = query
        .split('&')
        .map(|pair| {
            let (key, value) = pair.split_once('=').expect("key=value");
            if key != name {
                return pair.to_string();
            }
            let mut chars: Vec<char> = value.chars().collect();
            chars[0] = flip(chars[0]);
            format!("{key}={}", chars.into_iter().collect::<String>())
        })
        .collect();
    format!("{path}?{}", params.join("&"))
}

both_backends!(
    a_share_link_opens_its_file_without_a_login_and_refuses_any_change,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("sharer").await;
        let id = stored_file(&app, &owner.access).await;

        let (status, link) = share(&app, &owner.access, &id).await;
        assert_eq!(status, 200, "{link}");
        let url = link["url"].as_str().expect("url");
        assert!(url.starts_with(&format!("/api/media/{id}?exp=")), "{url}");
        assert!(url.contains("&sig="), "{url}");
        let expires =
            chrono::DateTime::parse_from_rfc3339(link["expires_at"].as_str().expect("expires_at"))
                .expect("RFC 3339");
        let ahead = expires.timestamp() - chrono::Utc::now().timestamp();
        assert!(
            (7 * 86_400 - 60..=7 * 86_400).contains(&ahead),
            "7 days: {ahead} s"
        );

        assert_eq!(open(&app, url).await, (200, PNG.to_vec()));
        for part in ["sig", "exp", "id"] {
            refused(&app, &altered(url, part)).await;
        }
        refused(&app, &format!("/api/media/{id}?exp=99999999999&sig=")).await;
        // A signature in capitals, or a parameter given twice, is a changed link too.
        let (path, query) = url.split_once('?').expect("a query");
        let (exp, sig) = query.split_once("&sig=").expect("exp, then sig");
        for changed in [
            format!("{path}?{exp}&sig={}", sig.to_uppercase()),
            format!("{path}?{exp}&sig={sig}&sig={sig}"),
            format!("{path}?{exp}&{exp}&sig={sig}"),
            format!("{path}?sig={sig}"),
            format!("{path}?{exp}"),
        ] {
            refused(&app, &changed).await;
        }
        let head = app.client.head(app.url(url)).send().await.expect("HEAD");
        assert_eq!(head.status().as_u16(), 200);
        assert_eq!(head.bytes().await.expect("body").len(), 0);
        // Without a signature the file still needs a login.
        let (status, _) = open(&app, &format!("/api/media/{id}")).await;
        assert_eq!(status, 401);
    }
);

both_backends!(another_business_cannot_share_a_file, |backend| async move {
    let app = spawn_app(backend).await;
    let owner = app.register("fileowner").await;
    let stranger = app.register("filestranger").await;
    let id = stored_file(&app, &owner.access).await;
    let (status, body) = share(&app, &stranger.access, &id).await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["code"], "not_found");
    let (status, _) = share(&app, "not-a-token", &id).await;
    assert_eq!(status, 401);
    // An id no file can have is not looked up, at home or at the provider.
    for odd in ["a%2Fb", "a%20b", "wamid.HBgL"] {
        let (status, body) = share(&app, &owner.access, odd).await;
        assert_eq!(status, 404, "{odd}: {body}");
        assert_eq!(body["message"], "Media not found", "{odd}");
    }
});

both_backends!(an_expired_link_is_refused, |backend| async move {
    let (mut settings, dir) = test_settings(backend).await;
    // Links that expire the second they are issued.
    settings.media.share_link_ttl_secs = 0;
    let app = spawn_with(settings, dir).await;
    let owner = app.register("expirer").await;
    let id = stored_file(&app, &owner.access).await;
    let (status, link) = share(&app, &owner.access, &id).await;
    assert_eq!(status, 200, "{link}");
    refused(&app, link["url"].as_str().expect("url")).await;
});
