//! `spawn_app()`: the real application on a random port, on a fresh SQLite file or a fresh
//! Postgres database, with request helpers.

use std::path::PathBuf;

use parley_server::app::Application;
use parley_server::config::Settings;
use serde_json::{Value, json};

/// The database a test runs on.
#[derive(Clone, Copy, Debug)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub struct TestApp {
    pub address: String,
    pub client: reqwest::Client,
    pub settings: Settings,
    /// Dropped with the test, taking the SQLite file and secrets with it.
    pub data_dir: tempfile::TempDir,
}

/// Runs one test body on both backends; each gets its own `#[actix_web::test]`.
#[macro_export]
macro_rules! both_backends {
    ($name:ident, $body:expr) => {
        mod $name {
            use super::*;
            #[actix_web::test]
            async fn sqlite() {
                let body = $body;
                body($crate::helpers::Backend::Sqlite).await;
            }
            #[actix_web::test]
            async fn postgres() {
                let body = $body;
                body($crate::helpers::Backend::Postgres).await;
            }
        }
    };
}

/// A fresh Postgres database on the server named by `PARLEY_TEST_DATABASE_URL`.
async fn fresh_postgres_database() -> String {
    use sqlx::Connection;
    let base = std::env::var("PARLEY_TEST_DATABASE_URL").expect(
        "PARLEY_TEST_DATABASE_URL must name a Postgres server for the Postgres leg \
         (make test starts one)",
    );
    let name = format!("parley_test_{}", uuid::Uuid::new_v4().simple());
    let mut conn = sqlx::PgConnection::connect(&base)
        .await
        .expect("Postgres from PARLEY_TEST_DATABASE_URL is not reachable");
    sqlx::query(sqlx::AssertSqlSafe(format!("CREATE DATABASE {name}")))
        .execute(&mut conn)
        .await
        .expect("could not create a test database");
    let mut url = url::Url::parse(&base).expect("PARLEY_TEST_DATABASE_URL is not a URL");
    url.set_path(&name);
    url.to_string()
}

/// Settings for a test: random port, temp data dir, the given backend.
pub async fn test_settings(backend: Backend) -> (Settings, tempfile::TempDir) {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut settings = Settings::load(&root).expect("config loads");
    let data_dir = tempfile::tempdir().expect("temp dir");
    settings.server.bind = "127.0.0.1:0".into();
    settings.server.data_dir = data_dir.path().to_path_buf();
    settings.server.web_dir = data_dir.path().join("no-web");
    settings.database.url = match backend {
        Backend::Sqlite => String::new(),
        Backend::Postgres => fresh_postgres_database().await,
    };
    settings.database.max_connections = 5;
    // Tests count exactly what they cause: no simulated customers, no random answers, quick
    // receipts.
    settings.sandbox.simulated_customers = 0;
    settings.sandbox.reply_probability = 0.0;
    settings.sandbox.sent_delay_ms = 50;
    settings.sandbox.delivered_delay_ms = 100;
    settings.sandbox.read_delay_ms = 150;
    (settings, data_dir)
}

pub async fn spawn_app(backend: Backend) -> TestApp {
    let (settings, data_dir) = test_settings(backend).await;
    spawn_with(settings, data_dir).await
}

/// Starts the app with settings a test adjusted.
pub async fn spawn_with(mut settings: Settings, data_dir: tempfile::TempDir) -> TestApp {
    let app = Application::build(settings.clone())
        .await
        .expect("app builds");
    let address = format!("http://127.0.0.1:{}", app.port());
    settings.server.public_url = address.clone();
    actix_web::rt::spawn(app.run_until_stopped());
    TestApp {
        address,
        client: reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client"),
        settings,
        data_dir,
    }
}

/// The password `register` gives every user.
pub const PASSWORD: &str = "correct horse";

/// Tokens of a signed-in user.
#[derive(Clone, Debug)]
pub struct Session {
    pub access: String,
    pub refresh: String,
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    /// Sends `method path` with an optional JSON body and bearer token; answers (status, JSON).
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
        token: Option<&str>,
    ) -> (u16, Value) {
        let mut request = self.client.request(method, self.url(path));
        if let Some(body) = body {
            request = request.json(&body);
        }
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        let response = request.send().await.expect("request sent");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body read");
        let json = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, json)
    }

    /// Sends a multipart form with the bearer token; answers (status, JSON or null).
    pub async fn call_form(
        &self,
        method: reqwest::Method,
        path: &str,
        token: &str,
        form: reqwest::multipart::Form,
    ) -> (u16, Value) {
        let response = self
            .client
            .request(method, self.url(path))
            .bearer_auth(token)
            .multipart(form)
            .send()
            .await
            .expect("form sent");
        let status = response.status().as_u16();
        (status, response.json().await.unwrap_or(Value::Null))
    }

    pub async fn post_form(
        &self,
        path: &str,
        token: &str,
        form: reqwest::multipart::Form,
    ) -> (u16, Value) {
        self.call_form(reqwest::Method::POST, path, token, form)
            .await
    }

    pub async fn post(&self, path: &str, body: Value, token: Option<&str>) -> (u16, Value) {
        self.call(reqwest::Method::POST, path, Some(body), token)
            .await
    }

    pub async fn get(&self, path: &str, token: &str) -> (u16, Value) {
        self.call(reqwest::Method::GET, path, None, Some(token))
            .await
    }

    /// Registers an owner with the given username; answers the session.
    pub async fn register(&self, username: &str) -> Session {
        let (status, body) = self
            .post(
                "/identity/auth/register",
                json!({
                    "firstName": "Test",
                    "lastName": username,
                    "username": username,
                    "email": format!("{username}@example.com"),
                    "password": PASSWORD,
                }),
                None,
            )
            .await;
        assert_eq!(status, 201, "register failed: {body}");
        session_of(&body)
    }

    pub async fn login(&self, identifier: &str, password: &str) -> (u16, Value) {
        self.post(
            "/identity/auth/login",
            json!({"emailOrUsername": identifier, "password": password}),
            None,
        )
        .await
    }
}

pub fn session_of(body: &Value) -> Session {
    Session {
        access: body["accessToken"]
            .as_str()
            .expect("accessToken")
            .to_string(),
        refresh: body["refreshToken"]
            .as_str()
            .expect("refreshToken")
            .to_string(),
    }
}

/// `len` letters that do not repeat (from `seed`), so Postgres cannot compress them under its
/// index's entry limit: the text a long-key test needs.
pub fn unrepeated_letters(len: usize, seed: u64) -> String {
    let mut state = seed;
    (0..len)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            char::from(b'a' + (state >> 59) as u8 % 26)
        })
        .collect()
}
