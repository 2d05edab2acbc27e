//! What keeps a customer's file from running script in Parley's origin: the headers media is
//! served with (here and in the sandbox's file route), and the policy of every answer.

use reqwest::header::HeaderMap;
use serde_json::json;

use crate::both_backends;
use crate::helpers::*;
use crate::live::Business;

const CUSTOMER: &str = "447700900321";

/// A page that would read the app's tokens if it ever ran in Parley's origin.
const HOSTILE_PAGE: &[u8] = b"<html><body><script>document.title = localStorage.getItem('accessToken');</script></body></html>";

fn header<'a>(headers: &'a HeaderMap, name: &str) -> &'a str {
    headers
        .get(name)
        .unwrap_or_else(|| panic!("no {name} header in {headers:?}"))
        .to_str()
        .expect("visible header")
}

impl TestApp {
    /// A customer sends a document with these bytes, uploaded to the provider under `mime_type`
    /// as their phone would; answers the sandbox's media id and Parley's media URL.
    async fn customer_document(
        &self,
        biz: &Business,
        bytes: &[u8],
        mime_type: &str,
        filename: &str,
    ) -> (String, String) {
        let media_id = self.provider_file(biz, bytes, mime_type, filename).await;
        let (status, body) = self
            .post(
                "/sandbox/customers/inject",
                json!({"from": CUSTOMER, "name": "Mallory", "message": {"type": "document",
                    "document": {"id": media_id, "mime_type": mime_type, "filename": filename}}}),
                Some(&biz.session.access),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let (_, history) = self
            .get(
                &format!("/api/conversation/{CUSTOMER}"),
                &biz.session.access,
            )
            .await;
        let url = history["messages"][0]["content"]["document"]["media_url"]
            .as_str()
            .unwrap_or_else(|| panic!("a media URL in {history}"))
            .to_string();
        (media_id, url)
    }

    async fn fetch(&self, path: &str, token: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .bearer_auth(token)
            .send()
            .await
            .expect("fetched")
    }
}

both_backends!(
    a_customers_html_document_is_only_ever_downloaded_and_sandboxed,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("htmlvictim").await;
        let (media_id, url) = app
            .customer_document(&biz, HOSTILE_PAGE, "text/html", "invoice.html")
            .await;

        let media = app.fetch(&url, &biz.session.access).await;
        assert_eq!(media.status().as_u16(), 200);
        let headers = media.headers();
        assert_eq!(header(headers, "content-type"), "application/octet-stream");
        assert_eq!(header(headers, "x-content-type-options"), "nosniff");
        assert_eq!(header(headers, "content-security-policy"), "sandbox");
        // Inbound media is kept without its name; the web app names the download itself.
        assert_eq!(header(headers, "content-disposition"), "attachment");
        assert_eq!(media.bytes().await.expect("bytes").as_ref(), HOSTILE_PAGE);

        // The sandbox's copy is customer content on the same origin too.
        let (_, profile) = app
            .get("/identity/users/profile", &biz.session.access)
            .await;
        let provider_token = profile["accessToken"].as_str().expect("token");
        let raw = app
            .fetch(&format!("/sandbox/files/{media_id}"), provider_token)
            .await;
        assert_eq!(raw.status().as_u16(), 200);
        let headers = raw.headers();
        assert_eq!(header(headers, "content-type"), "application/octet-stream");
        assert_eq!(header(headers, "x-content-type-options"), "nosniff");
        assert_eq!(header(headers, "content-security-policy"), "sandbox");
        assert!(header(headers, "content-disposition").starts_with("attachment"));
    }
);

both_backends!(
    a_pdf_is_shown_inline_under_its_own_name,
    |backend| async move {
        let app = spawn_app(backend).await;
        let biz = app.business("pdfsender").await;
        let (status, body) = app
            .post(
                "/sandbox/customers/inject",
                json!({"from": CUSTOMER, "name": "Reader", "text": "The menu, please"}),
                Some(&biz.session.access),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let form = reqwest::multipart::Form::new()
            .text("to", CUSTOMER)
            .text("message_type", "document")
            .part(
                "file",
                reqwest::multipart::Part::bytes(b"%PDF-1.4 menu".to_vec()).file_name("قائمة.pdf"),
            );
        let (status, sent) = app
            .post_form("/api/send-message", &biz.session.access, form)
            .await;
        assert_eq!(status, 200, "{sent}");
        let url = sent["media_url"].as_str().expect("media url");
        let media = app.fetch(url, &biz.session.access).await;
        assert_eq!(media.status().as_u16(), 200);
        let headers = media.headers();
        assert_eq!(header(headers, "content-type"), "application/pdf");
        assert_eq!(header(headers, "content-security-policy"), "sandbox");
        assert_eq!(header(headers, "x-content-type-options"), "nosniff");
        assert_eq!(
            header(headers, "content-disposition"),
            "inline; filename=\"_____.pdf\"; filename*=UTF-8''%D9%82%D8%A7%D8%A6%D9%85%D8%A9.pdf"
        );
    }
);

/// The policy headers every answer carries.
fn assert_app_policy(headers: &HeaderMap) {
    let policy = header(headers, "content-security-policy");
    for directive in [
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ] {
        assert!(policy.contains(directive), "{directive} in {policy}");
    }
    assert!(!policy.contains("unsafe-eval"), "{policy}");
    assert_eq!(
        header(headers, "referrer-policy"),
        "strict-origin-when-cross-origin"
    );
    assert_eq!(
        header(headers, "permissions-policy"),
        "microphone=(self), camera=(), geolocation=()"
    );
    assert_eq!(header(headers, "x-content-type-options"), "nosniff");
}

both_backends!(
    the_web_app_and_the_api_answer_with_a_strict_policy,
    |backend| async move {
        let (mut settings, dir) = test_settings(backend).await;
        let web = dir.path().join("web");
        std::fs::create_dir_all(web.join("assets")).expect("web dir");
        std::fs::write(
            web.join("index.html"),
            "<!doctype html><title>Parley</title>",
        )
        .expect("index");
        std::fs::write(web.join("assets/app.js"), "console.log(1)").expect("script");
        settings.server.web_dir = web;
        let app = spawn_with(settings, dir).await;
        let biz = app.business("policyowner").await;
        for path in ["/", "/whatsapp", "/assets/app.js", "/api/health"] {
            let response = app.client.get(app.url(path)).send().await.expect("get");
            assert_eq!(response.status().as_u16(), 200, "{path}");
            assert_app_policy(response.headers());
            // Served over plain http: no HSTS.
            assert!(
                response
                    .headers()
                    .get("strict-transport-security")
                    .is_none(),
                "{path}"
            );
        }
        let refused = app.fetch("/api/users", "not-a-token").await;
        assert_eq!(refused.status().as_u16(), 401);
        assert_app_policy(refused.headers());
        let listed = app.fetch("/api/users", &biz.session.access).await;
        assert_eq!(listed.status().as_u16(), 200);
        assert_app_policy(listed.headers());
    }
);

both_backends!(
    a_server_published_over_https_asks_browsers_to_keep_to_https,
    |backend| async move {
        let (mut settings, dir) = test_settings(backend).await;
        settings.server.public_url = "https://inbox.example.com".into();
        let app = spawn_with(settings, dir).await;
        let response = app
            .client
            .get(app.url("/api/health"))
            .send()
            .await
            .expect("get");
        assert_eq!(
            header(response.headers(), "strict-transport-security"),
            "max-age=31536000"
        );
        let policy = header(response.headers(), "content-security-policy");
        assert!(
            policy.contains("connect-src 'self' blob: wss://inbox.example.com"),
            "{policy}"
        );
    }
);
