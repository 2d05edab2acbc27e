//! The framework's own refusals (bodies of the wrong type, cut short or too large, overlong
//! URLs) answer in the documented shape `{"detail", "message", "code"}` with the right status.

use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::both_backends;
use crate::helpers::*;

impl TestApp {
    /// Sends `body` as `content_type` to `path`; answers (status, JSON).
    async fn raw(
        &self,
        path: &str,
        content_type: &str,
        body: impl Into<reqwest::Body>,
        token: Option<&str>,
    ) -> (u16, Value) {
        let mut request = self
            .client
            .post(self.url(path))
            .header("Content-Type", content_type)
            .body(body);
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("request sent");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body read");
        let json = serde_json::from_str(&text)
            .unwrap_or_else(|_| panic!("a JSON answer, not {status} {text:?}"));
        (status, json)
    }
}

impl TestApp {
    /// Sends only a request's head (`request_line`, then `headers` lines) over a plain TCP
    /// connection and reads the answer to its end; answers (status, JSON body).
    async fn head_only(&self, request_line: &str, headers: &str) -> (u16, Value) {
        let address = self.address.trim_start_matches("http://");
        let mut socket = tokio::net::TcpStream::connect(address)
            .await
            .expect("connected");
        let head = format!("{request_line} HTTP/1.1\r\nHost: {address}\r\n{headers}\r\n\r\n");
        socket.write_all(head.as_bytes()).await.expect("head sent");
        let mut answer = Vec::new();
        socket.read_to_end(&mut answer).await.expect("answer read");
        let answer = String::from_utf8(answer).expect("text answer");
        let status = answer[9..12].parse().expect("status code");
        let (_, body) = answer.split_once("\r\n\r\n").expect("a body");
        (
            status,
            serde_json::from_str(body).unwrap_or(Value::String(body.into())),
        )
    }
}

/// A refusal in the documented shape with `code`; answers its `detail`.
fn refusal(body: &Value, code: &str) -> String {
    assert_eq!(body["code"], code, "{body}");
    let detail = body["detail"].as_str().expect("detail").to_string();
    assert_eq!(body["message"], detail.as_str(), "{body}");
    detail
}

const LOGIN: &str = "/identity/auth/login";

both_backends!(
    json_routes_refuse_other_types_bad_json_and_big_bodies,
    |backend| async move {
        let app = spawn_app(backend).await;
        let (status, body) = app
            .raw(LOGIN, "text/plain", "emailOrUsername=a", None)
            .await;
        assert_eq!(status, 415, "{body}");
        assert!(refusal(&body, "unsupported_media_type").contains("application/json"));

        let (status, body) = app
            .raw(LOGIN, "application/json", "{\"emailOrUsername\": ", None)
            .await;
        assert_eq!(status, 400, "{body}");
        assert!(refusal(&body, "bad_request").starts_with("Invalid JSON body"));

        let big = format!(
            "{{\"emailOrUsername\": \"{}\"}}",
            "a".repeat(3 * 1024 * 1024)
        );
        let (status, body) = app.raw(LOGIN, "application/json", big, None).await;
        assert_eq!(status, 413, "{body}");
        assert!(refusal(&body, "payload_too_large").contains("2048 KB"));
    }
);

both_backends!(
    multipart_routes_refuse_json_and_broken_or_oversized_forms,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("formfiller").await.access;
        for path in ["/api/send-message", "/api/recipients/parse"] {
            let (status, body) = app
                .raw(path, "application/json", "{\"to\": \"1\"}", Some(&token))
                .await;
            assert_eq!(status, 415, "{path}: {body}");
            let detail = refusal(&body, "unsupported_media_type");
            assert!(detail.contains("multipart/form-data"), "{path}: {detail}");

            let form = "multipart/form-data; boundary=edge";
            let (status, body) = app.raw(path, form, "", Some(&token)).await;
            assert_eq!(status, 400, "{path}: {body}");
            refusal(&body, "bad_request");

            let cut = "--edge\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.csv\"\r\n\r\n1555";
            let (status, body) = app.raw(path, form, cut, Some(&token)).await;
            assert_eq!(status, 400, "{path}: {body}");
            refusal(&body, "bad_request");
        }

        // A typed form's text fields together, and a read form's single text field: each a
        // little over its limit, so the client has sent it all when the refusal comes.
        let form = reqwest::multipart::Form::new()
            .text("to", "15550001111")
            .text("text", "x".repeat(2 * 1024 * 1024));
        let (status, body) = app.post_form("/api/send-message", &token, form).await;
        assert_eq!(status, 413, "{body}");
        assert!(refusal(&body, "payload_too_large").contains("2 MB"));
        let form = reqwest::multipart::Form::new().text("note", "x".repeat(1024 * 1024 + 1));
        let (status, body) = app.post_form("/api/recipients/parse", &token, form).await;
        assert_eq!(status, 413, "{body}");
        assert!(refusal(&body, "payload_too_large").contains("note is too long (at most 1 MB)"));
    }
);

both_backends!(
    a_webhook_over_its_limit_and_an_overlong_url_are_refused,
    |backend| async move {
        let app = spawn_app(backend).await;
        // The server answers on the announced length, without reading a body it will refuse.
        let (status, body) = app
            .head_only(
                "POST /webhook",
                "Content-Length: 17825792\r\nContent-Type: application/json",
            )
            .await;
        assert_eq!(status, 413, "{body}");
        assert!(refusal(&body, "payload_too_large").contains("16 MB"));

        let token = app.register("longurl").await.access;
        let path = format!("/api/users?search_query={}", "a".repeat(9000));
        let (status, body) = app.get(&path, &token).await;
        assert_eq!(status, 414, "{body}");
        assert!(refusal(&body, "uri_too_long").contains("8192"));
        // Just under the limit is served.
        let path = format!("/api/users?search_query={}", "a".repeat(8000));
        let (status, body) = app.get(&path, &token).await;
        assert_eq!(status, 200, "{body}");
    }
);

both_backends!(
    a_known_path_asked_with_another_method_is_a_405_naming_the_methods_it_takes,
    |backend| async move {
        let app = spawn_app(backend).await;
        for (method, path, allow) in [
            ("POST", "/api/health", "GET, HEAD"),
            ("DELETE", "/api/users", "GET, HEAD"),
            ("GET", "/api/labels/any-id", "PATCH, DELETE"),
            ("PUT", "/identity/auth/login", "POST"),
            ("PUT", "/webhook", "GET, HEAD, POST"),
            ("POST", "/metrics", "GET, HEAD"),
        ] {
            let verb = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
            let response = app
                .client
                .request(verb, app.url(path))
                .send()
                .await
                .expect("answered");
            assert_eq!(response.status().as_u16(), 405, "{method} {path}");
            let allowed = response.headers().get("allow").expect("an Allow header");
            assert_eq!(allowed.to_str().expect("text"), allow, "{method} {path}");
            let body: Value = response.json().await.expect("a JSON refusal");
            assert!(
                refusal(&body, "method_not_allowed").contains(allow),
                "{body}"
            );
        }
        let (status, body) = app
            .call(reqwest::Method::POST, "/api/labels/any-id/more", None, None)
            .await;
        assert_eq!(status, 404, "{body}");
        refusal(&body, "not_found");
    }
);

both_backends!(
    a_head_request_is_answered_wherever_get_is_without_a_body,
    |backend| async move {
        let app = spawn_app(backend).await;
        let token = app.register("headfirst").await.access;
        let signed_in = format!("Authorization: Bearer {token}\r\nConnection: close");
        for path in [
            "/api/config",
            "/api/users",
            "/identity/users/profile",
            "/api/recipients/sample",
        ] {
            let (status, body) = app.head_only(&format!("HEAD {path}"), &signed_in).await;
            assert_eq!(status, 200, "HEAD {path}: {body}");
            assert_eq!(body, Value::String(String::new()), "HEAD {path}");
        }
        // A stream's HEAD ends with its head: no events are waited for.
        let stream = format!("HEAD /api/events/stream/notifications/all?token={token}");
        let (status, body) = app.head_only(&stream, "Connection: close").await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body, Value::String(String::new()));
        // As GET would be: refused without a token, and still without a body.
        let (status, body) = app.head_only("HEAD /api/config", "Connection: close").await;
        assert_eq!(status, 401, "{body}");
        assert_eq!(body, Value::String(String::new()));
    }
);
