//! The built web app: hashed assets cached for good and sent precompressed, the rest revalidated.

use reqwest::header::HeaderMap;

use crate::both_backends;
use crate::helpers::{TestApp, spawn_with, test_settings};

const SCRIPT: &str = "assets/index-Bk84wwd5.js";
const PLAIN: &[u8] = b"console.log('parley')";
const BROTLI: &[u8] = b"brotli copy";
const GZIP: &[u8] = b"gzip copy";

/// Parley serving a small build: index.html, the service worker, one script with both
/// precompressed copies and one stylesheet without any.
async fn spawn_with_build(backend: crate::helpers::Backend) -> TestApp {
    let (mut settings, dir) = test_settings(backend).await;
    let web = dir.path().join("web");
    std::fs::create_dir_all(web.join("assets")).expect("web dir");
    std::fs::create_dir_all(web.join(".vite")).expect("manifest dir");
    let files: [(&str, &[u8]); 7] = [
        ("index.html", b"<!doctype html><title>Parley</title>"),
        ("sw.js", b"self.skipWaiting()"),
        (".vite/manifest.json", b"{}"),
        (SCRIPT, PLAIN),
        ("assets/index-Bk84wwd5.js.br", BROTLI),
        ("assets/index-Bk84wwd5.js.gz", GZIP),
        ("assets/index-BKj4s9oc.css", b"body{margin:0}"),
    ];
    for (path, bytes) in files {
        std::fs::write(web.join(path), bytes).expect("build file");
    }
    settings.server.web_dir = web;
    spawn_with(settings, dir).await
}

/// GET `path` with this `Accept-Encoding` (none when None): status, headers, body bytes.
async fn get(app: &TestApp, path: &str, accept: Option<&str>) -> (u16, HeaderMap, Vec<u8>) {
    let mut request = app.client.get(app.url(path));
    if let Some(accept) = accept {
        request = request.header("accept-encoding", accept);
    }
    let response = request.send().await.expect("get");
    let status = response.status().as_u16();
    let headers = response.headers().clone();
    let body = response.bytes().await.expect("body").to_vec();
    (status, headers, body)
}

fn header<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get(name)
        .map(|value| value.to_str().expect("visible header"))
}

both_backends!(
    a_hashed_asset_is_cached_for_a_year_in_the_best_encoding_the_browser_accepts,
    |backend| async move {
        let app = spawn_with_build(backend).await;
        let path = format!("/{SCRIPT}");
        let cases: [(Option<&str>, Option<&str>, &[u8]); 8] = [
            (Some("gzip, deflate, br, zstd"), Some("br"), BROTLI),
            (Some("gzip"), Some("gzip"), GZIP),
            (Some("br;q=0, gzip;q=0.5"), Some("gzip"), GZIP),
            (Some("gzip;q=1.0, br;q=0.5"), Some("gzip"), GZIP),
            (Some("gzip;q=0.8, *;q=0.9"), Some("br"), BROTLI),
            (Some("*"), Some("br"), BROTLI),
            (Some("identity"), None, PLAIN),
            (None, None, PLAIN),
        ];
        for (accept, encoding, body) in cases {
            let (status, headers, bytes) = get(&app, &path, accept).await;
            assert_eq!(status, 200, "{accept:?}");
            assert_eq!(header(&headers, "content-encoding"), encoding, "{accept:?}");
            assert_eq!(bytes, body, "{accept:?}");
            assert_eq!(
                header(&headers, "content-type"),
                Some("text/javascript"),
                "{accept:?}"
            );
            assert_eq!(
                header(&headers, "cache-control"),
                Some("public, max-age=31536000, immutable"),
                "{accept:?}"
            );
            assert_eq!(
                header(&headers, "vary"),
                Some("accept-encoding"),
                "{accept:?}"
            );
            assert_eq!(header(&headers, "content-disposition"), None, "{accept:?}");
        }
    }
);

both_backends!(
    an_asset_without_precompressed_copies_is_sent_as_built,
    |backend| async move {
        let app = spawn_with_build(backend).await;
        let (status, headers, bytes) = get(&app, "/assets/index-BKj4s9oc.css", Some("br")).await;
        assert_eq!(status, 200);
        assert_eq!(header(&headers, "content-encoding"), None);
        assert_eq!(bytes, b"body{margin:0}");
        assert_eq!(
            header(&headers, "cache-control"),
            Some("public, max-age=31536000, immutable")
        );
    }
);

both_backends!(
    the_page_and_the_service_worker_are_checked_with_the_server_on_every_use,
    |backend| async move {
        let app = spawn_with_build(backend).await;
        for path in ["/", "/index.html", "/whatsapp", "/sw.js"] {
            let (status, headers, _) = get(&app, path, Some("br, gzip")).await;
            assert_eq!(status, 200, "{path}");
            assert_eq!(
                header(&headers, "cache-control"),
                Some("no-cache"),
                "{path}"
            );
            assert!(header(&headers, "etag").is_some(), "{path}");
        }
        let (_, _, page) = get(&app, "/whatsapp", None).await;
        assert_eq!(page, b"<!doctype html><title>Parley</title>");
    }
);

both_backends!(
    a_missing_asset_is_not_answered_with_the_page,
    |backend| async move {
        let app = spawn_with_build(backend).await;
        let (status, headers, body) = get(&app, "/assets/index-OldBuild1.js", None).await;
        assert_eq!(status, 404);
        assert_eq!(header(&headers, "content-type"), Some("application/json"));
        let error: serde_json::Value = serde_json::from_slice(&body).expect("json");
        assert_eq!(error["code"], "not_found");
        // Hidden files and files outside the build are never read.
        std::fs::write(app.data_dir.path().join("outside.txt"), "private").expect("file");
        for path in [
            "/.vite/manifest.json",
            "/%2e%2e/outside.txt",
            "/%2E%2E%2Foutside.txt",
        ] {
            let (status, _, body) = get(&app, path, None).await;
            assert_eq!(status, 404, "{path}");
            let error: serde_json::Value = serde_json::from_slice(&body).expect("json");
            assert_eq!(error["code"], "not_found", "{path}");
        }
    }
);

both_backends!(
    a_missing_file_asked_for_by_name_is_not_answered_with_the_page,
    |backend| async move {
        let app = spawn_with_build(backend).await;
        for path in [
            "/favicon.ico",
            "/icons/missing-192.png",
            "/manifest.json",
            "/robots.txt",
        ] {
            let (status, headers, _) = get(&app, path, None).await;
            assert_eq!(status, 404, "{path}");
            assert_eq!(
                header(&headers, "content-type"),
                Some("application/json"),
                "{path}"
            );
        }
        // Client routes load the page, a BSUID's dot and all.
        for path in [
            "/chat",
            "/whatsapp/US.13491208655302741918",
            "/settings/labels",
        ] {
            let (status, _, body) = get(&app, path, None).await;
            assert_eq!(status, 200, "{path}");
            assert_eq!(body, b"<!doctype html><title>Parley</title>", "{path}");
        }
    }
);

both_backends!(
    a_method_a_path_does_not_take_is_refused_in_the_documented_shape,
    |backend| async move {
        let app = spawn_with_build(backend).await;
        for (method, path) in [
            ("POST", "/"),
            ("DELETE", "/assets/index-Bk84wwd5.js"),
            ("PATCH", "/whatsapp"),
        ] {
            let method = reqwest::Method::from_bytes(method.as_bytes()).expect("a method");
            let response = app
                .client
                .request(method.clone(), app.url(path))
                .send()
                .await
                .expect("answered");
            assert_eq!(response.status().as_u16(), 404, "{method} {path}");
            let body: serde_json::Value = response.json().await.expect("a JSON refusal");
            let text = format!("No route for {method} {path}");
            assert_eq!(
                body,
                serde_json::json!({"detail": text, "message": text, "code": "not_found"})
            );
        }
    }
);
