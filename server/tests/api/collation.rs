//! Lists that come by name come in the same order on both backends, also on a Postgres database
//! whose collation follows a language's rules (as `initdb` makes it from the machine's locale,
//! and the official image's `en_US.utf8`): by code point, case aside, as on SQLite.

use serde_json::{Value, json};

use crate::helpers::*;

/// The app on `backend`; on Postgres in a database that orders text as American English does.
pub async fn spawn_in_english(backend: Backend) -> TestApp {
    let (mut settings, data_dir) = test_settings(Backend::Sqlite).await;
    if matches!(backend, Backend::Postgres) {
        settings.database.url = english_database().await;
    }
    spawn_with(settings, data_dir).await
}

/// A fresh Postgres database that orders text as American English does (ICU `en-US`).
async fn english_database() -> String {
    use sqlx::Connection;
    let base = std::env::var("PARLEY_TEST_DATABASE_URL").expect("PARLEY_TEST_DATABASE_URL");
    let name = format!("parley_test_{}", uuid::Uuid::new_v4().simple());
    let mut conn = sqlx::PgConnection::connect(&base).await.expect("Postgres");
    let create = format!(
        "CREATE DATABASE {name} TEMPLATE template0 LOCALE_PROVIDER icu ICU_LOCALE 'en-US' \
         LOCALE 'C.UTF-8'"
    );
    sqlx::query(sqlx::AssertSqlSafe(create))
        .execute(&mut conn)
        .await
        .expect("an en-US database");
    let mut url = url::Url::parse(&base).expect("a URL");
    url.set_path(&name);
    url.to_string()
}

/// The `key` of each item of `list` in `body`.
fn keys(body: &Value, list: &str, key: &str) -> Vec<String> {
    body[list]
        .as_array()
        .expect("a list")
        .iter()
        .map(|item| item[key].as_str().expect("a name").to_string())
        .collect()
}

async fn names_come_in_code_point_order(backend: Backend) {
    let app = spawn_in_english(backend).await;
    let owner = app.register("collation_owner").await;
    let token = &owner.access;
    let names = ["zebra", "Éclair", "ab", "Ac", "a-b"];
    for name in names {
        app.label(token, name, "#D93F0B").await;
        let reply = json!({"shortcut": name, "text": "Hello"});
        let (status, body) = app.post("/api/canned-replies", reply, Some(token)).await;
        assert_eq!(status, 201, "{body}");
    }
    // Code point order of the names in lower case: "-" before letters, "é" after "z".
    let (status, body) = app.get("/api/labels", token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        keys(&body, "labels", "name"),
        ["a-b", "ab", "Ac", "zebra", "Éclair"]
    );
    let (status, body) = app.get("/api/canned-replies", token).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        keys(&body, "canned_replies", "shortcut"),
        ["a-b", "ab", "Ac", "zebra", "Éclair"]
    );
}

mod labels_and_canned_replies_come_in_code_point_order {
    use super::*;

    #[actix_web::test]
    async fn sqlite() {
        names_come_in_code_point_order(Backend::Sqlite).await;
    }

    #[actix_web::test]
    async fn postgres_with_an_english_collation() {
        names_come_in_code_point_order(Backend::Postgres).await;
    }
}
