//! `/api/openapi.json` describes every route the app registers, and `/api/docs` shows them.
//! The registered routes are read from the route tables' own source, not copied here.

use std::collections::BTreeSet;

use serde_json::Value;

use crate::both_backends;
use crate::helpers::*;

/// The route tables: (mount prefix, source of the function that registers the routes).
const TABLES: [(&str, &str); 2] = [
    ("/api", include_str!("../../src/api/mod.rs")),
    ("/identity", include_str!("../../src/auth/mod.rs")),
];

/// Every `(METHOD, path)` registered with `.route("path", web::method()…)` in the tables.
/// `web::to` (any method) stands for GET; a trailing slash alias counts as its bare path.
fn registered_routes() -> BTreeSet<(String, String)> {
    let mut routes = BTreeSet::new();
    for (prefix, source) in TABLES {
        for call in source.split(".route(").skip(1) {
            let path = call.split('"').nth(1).expect("a route names its path");
            let method = call
                .split("web::")
                .nth(1)
                .and_then(|rest| rest.split('(').next())
                .expect("a route names its method");
            let method = if method == "to" { "get" } else { method };
            let path = format!("{prefix}{path}");
            let path = path.strip_suffix('/').unwrap_or(&path).to_string();
            routes.insert((method.to_uppercase(), path));
        }
    }
    routes
}

/// Every `(METHOD, path)` the document describes.
fn documented_routes(doc: &Value) -> BTreeSet<(String, String)> {
    let paths = doc["paths"].as_object().expect("the document has paths");
    paths
        .iter()
        .flat_map(|(path, item)| {
            let item = item.as_object().expect("a path item is an object");
            item.keys()
                .filter(|key| {
                    ["get", "head", "post", "put", "patch", "delete"].contains(&key.as_str())
                })
                .map(|method| (method.to_uppercase(), path.clone()))
                .collect::<Vec<_>>()
        })
        .collect()
}

both_backends!(
    the_openapi_document_describes_every_registered_route,
    |backend| async move {
        let app = spawn_app(backend).await;
        let response = app
            .client
            .get(app.url("/api/openapi.json"))
            .send()
            .await
            .expect("the document is served");
        assert_eq!(response.status(), 200);
        let doc: Value = response.json().await.expect("the document is JSON");
        assert_eq!(doc["openapi"], "3.1.0");

        let registered = registered_routes();
        assert!(
            registered.len() > 60,
            "the route tables were read: {registered:?}"
        );
        assert_eq!(documented_routes(&doc), registered);

        assert_eq!(
            doc["components"]["securitySchemes"]["bearer"]["scheme"],
            "bearer"
        );
        let error = &doc["components"]["schemas"]["ErrorBody"];
        for field in ["detail", "message", "code"] {
            assert!(
                error["required"]
                    .as_array()
                    .expect("ErrorBody lists its required fields")
                    .iter()
                    .any(|f| f == field),
                "ErrorBody requires {field}"
            );
        }
        let history = &doc["paths"]["/api/conversation/{phone}"]["get"];
        assert_eq!(history["security"][0]["bearer"], serde_json::json!([]));
        assert_eq!(
            history["responses"]["4XX"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/ErrorBody"
        );
        let register = &doc["paths"]["/identity/auth/register"]["post"];
        assert!(
            register.get("security").is_none(),
            "signing up needs no token"
        );
        assert_eq!(
            register["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            "#/components/schemas/RegisterRequest"
        );
    }
);

both_backends!(
    the_docs_page_lists_the_routes_without_script,
    |backend| async move {
        let app = spawn_app(backend).await;
        let response = app
            .client
            .get(app.url("/api/docs"))
            .send()
            .await
            .expect("the page is served");
        assert_eq!(response.status(), 200);
        assert!(
            response.headers()["content-type"]
                .to_str()
                .expect("a text content type")
                .starts_with("text/html")
        );
        let page = response.text().await.expect("the page is text");
        assert!(!page.contains("<script"));
        assert!(page.contains("/api/openapi.json"));
        for (method, path) in registered_routes() {
            assert!(
                page.contains(&format!("<code>{method} {path}</code>")),
                "the page shows {method} {path}"
            );
        }
    }
);

/// The `(METHOD path status)` of every 2xx JSON answer whose schema names no type: a
/// `serde_json::Value` body, which the schema checks say nothing about.
fn untyped_answers(doc: &Value) -> Vec<String> {
    let mut untyped = Vec::new();
    let paths = doc["paths"].as_object().expect("the document has paths");
    for (path, item) in paths {
        let item = item.as_object().expect("a path item is an object");
        for (method, operation) in item {
            let Some(responses) = operation["responses"].as_object() else {
                continue;
            };
            for (status, response) in responses {
                let schema = &response["content"]["application/json"]["schema"];
                let typed = schema.is_null()
                    || schema.get("$ref").is_some()
                    || schema["items"].get("$ref").is_some();
                if status.starts_with('2') && !typed {
                    untyped.push(format!("{} {path} {status}", method.to_uppercase()));
                }
            }
        }
    }
    untyped
}

both_backends!(every_json_answer_names_its_schema, |backend| async move {
    let app = spawn_app(backend).await;
    let doc: Value = app
        .client
        .get(app.url("/api/openapi.json"))
        .send()
        .await
        .expect("the document is served")
        .json()
        .await
        .expect("the document is JSON");
    // The document itself is the one answer whose shape is another standard's.
    assert_eq!(untyped_answers(&doc), ["GET /api/openapi.json 200"]);
    let list = &doc["paths"]["/api/users"]["get"]["responses"]["200"];
    assert_eq!(
        list["content"]["application/json"]["schema"]["$ref"],
        "#/components/schemas/ConversationList"
    );
    let message = &doc["components"]["schemas"]["MessageJson"];
    for field in [
        "message_id",
        "timestamp",
        "status",
        "direction",
        "type",
        "content",
    ] {
        assert!(
            message["properties"].get(field).is_some(),
            "a message has {field}"
        );
    }
});
