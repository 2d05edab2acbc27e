//! The identity service (`/identity`) and the identity routes of the main API, on both backends:
//! the helpers its tests share, and registration (the other areas are `identity_*`).

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use reqwest::Method;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;

pub(crate) fn register_body(username: &str) -> Value {
    json!({
        "firstName": "Test",
        "lastName": username,
        "username": username,
        "email": format!("{username}@example.com"),
        "password": PASSWORD,
    })
}

pub(crate) fn agent_body(username: &str, password: &str) -> Value {
    json!({
        "firstName": "Agent",
        "lastName": username,
        "username": username,
        "email": format!("{username}@example.com"),
        "password": password,
    })
}

/// The claims of one of our access tokens, checked with the app's own key.
pub(crate) fn claims_of(app: &TestApp, token: &str) -> Value {
    let mut validation = Validation::new(Algorithm::HS256);
    validation.validate_exp = false;
    jsonwebtoken::decode::<Value>(token, &DecodingKey::from_secret(&jwt_key(app)), &validation)
        .expect("token decodes with the app's key")
        .claims
}

/// The generated signing key: the hex string in the data dir, used as raw bytes.
pub(crate) fn jwt_key(app: &TestApp) -> Vec<u8> {
    std::fs::read_to_string(app.data_dir.path().join("jwt.key"))
        .expect("jwt.key in the data dir")
        .trim()
        .as_bytes()
        .to_vec()
}

pub(crate) fn sign(claims: &Value, key: &[u8]) -> String {
    jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        claims,
        &EncodingKey::from_secret(key),
    )
    .expect("token signs")
}

pub(crate) fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs()
}

pub(crate) async fn patch(app: &TestApp, path: &str, body: Value, token: &str) -> (u16, Value) {
    app.call(Method::PATCH, path, Some(body), Some(token)).await
}

pub(crate) async fn delete(app: &TestApp, path: &str, token: &str) -> (u16, Value) {
    app.call(Method::DELETE, path, None, Some(token)).await
}

/// Creates an agent as `owner`; answers the agent's id.
pub(crate) async fn create_agent(app: &TestApp, owner: &Session, username: &str) -> String {
    let (status, body) = app
        .post(
            "/identity/users/agents",
            agent_body(username, PASSWORD),
            Some(&owner.access),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    body["_id"].as_str().expect("agent id").to_string()
}

pub(crate) async fn login_session(app: &TestApp, identifier: &str, password: &str) -> Session {
    let (status, body) = app.login(identifier, password).await;
    assert_eq!(status, 200, "login of {identifier} failed: {body}");
    session_of(&body)
}

pub(crate) async fn refresh(app: &TestApp, refresh_token: &str) -> (u16, Value) {
    app.post(
        "/identity/auth/refresh",
        json!({"refreshToken": refresh_token}),
        None,
    )
    .await
}

pub(crate) fn assert_error(body: &Value, code: &str, detail: &str) {
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(body["detail"], detail, "{body}");
    assert!(body["message"].is_string(), "{body}");
}

/// A profile's provider credentials: the owner sees them, an agent never does.
pub(crate) const CREDENTIAL_FIELDS: [&str; 6] = [
    "phoneNumberId",
    "accessToken",
    "verifyToken",
    "phoneNumber",
    "whatsappBusinessAccountID",
    "appId",
];

// --- register -------------------------------------------------------------------------------

both_backends!(
    register_answers_201_with_a_working_token_pair,
    |backend| async move {
        let app = spawn_app(backend).await;
        let (status, body) = app
            .post("/identity/auth/register", register_body("alice"), None)
            .await;
        assert_eq!(status, 201, "{body}");
        assert_eq!(body["role"], "admin");
        let session = session_of(&body);
        let (status, body) = app.get("/api/auth/protected-route", &session.access).await;
        assert_eq!((status, body), (200, json!({"role": "admin"})));
        // The identity service's base answers the same check.
        let (status, body) = app
            .get("/identity/auth/protected-route", &session.access)
            .await;
        assert_eq!((status, body), (200, json!({"role": "admin"})));
        let (status, body) = refresh(&app, &session.refresh).await;
        assert_eq!(status, 200, "{body}");
    }
);

both_backends!(
    register_then_login_returns_role_and_tokens,
    |backend| async move {
        let app = spawn_app(backend).await;
        app.register("alice").await;
        let (status, body) = app.login("ALICE@example.com", PASSWORD).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["role"], "admin");
        assert!(body["accessToken"].as_str().is_some_and(|t| !t.is_empty()));
        assert!(body["refreshToken"].as_str().is_some_and(|t| !t.is_empty()));
    }
);

both_backends!(
    register_refuses_a_taken_username_or_email_with_409,
    |backend| async move {
        let app = spawn_app(backend).await;
        app.register("alice").await;

        let mut same_username = register_body("alice");
        same_username["email"] = json!("other@example.com");
        let (status, body) = app
            .post("/identity/auth/register", same_username, None)
            .await;
        assert_eq!(status, 409);
        assert_error(&body, "conflict", "Username already exists");

        // Usernames and emails are compared lower-cased.
        let mut same_email = register_body("alice2");
        same_email["email"] = json!("ALICE@Example.com");
        let (status, body) = app.post("/identity/auth/register", same_email, None).await;
        assert_eq!(status, 409);
        assert_error(&body, "conflict", "Email already exists");

        let mut same_username_other_case = register_body("ALICE");
        same_username_other_case["email"] = json!("third@example.com");
        let (status, body) = app
            .post("/identity/auth/register", same_username_other_case, None)
            .await;
        assert_eq!(status, 409);
        assert_error(&body, "conflict", "Username already exists");
    }
);

both_backends!(
    register_names_each_missing_field_with_422,
    |backend| async move {
        let app = spawn_app(backend).await;
        for field in ["firstName", "lastName", "username", "email", "password"] {
            let mut missing = register_body("carol");
            missing.as_object_mut().expect("object").remove(field);
            let (status, body) = app.post("/identity/auth/register", missing, None).await;
            assert_eq!(status, 422, "{field}: {body}");
            assert_error(&body, "validation_failed", &format!("{field} is required"));

            let mut blank = register_body("carol");
            blank[field] = json!("   ");
            let (status, body) = app.post("/identity/auth/register", blank, None).await;
            assert_eq!(status, 422, "{field} blank: {body}");
            assert!(
                body["detail"].as_str().is_some_and(|d| d.contains(field)),
                "{field}: {body}"
            );
        }
        // Nothing was created along the way.
        let (status, _) = app
            .post("/identity/auth/register", register_body("carol"), None)
            .await;
        assert_eq!(status, 201);
    }
);

both_backends!(
    register_refuses_a_bad_email_a_short_password_and_an_at_in_the_username,
    |backend| async move {
        let app = spawn_app(backend).await;
        let mut bad_email = register_body("dave");
        bad_email["email"] = json!("not-an-email");
        let (status, body) = app.post("/identity/auth/register", bad_email, None).await;
        assert_eq!(status, 422);
        assert_error(
            &body,
            "validation_failed",
            "email is not a valid email address",
        );

        let mut short = register_body("dave");
        short["password"] = json!("short");
        let (status, body) = app.post("/identity/auth/register", short, None).await;
        assert_eq!(status, 422);
        assert_error(
            &body,
            "validation_failed",
            "password must be at least 8 characters",
        );

        // A username shaped like an email could capture that person's sign-in.
        app.register("erin").await;
        let mut email_like = register_body("mallory");
        email_like["username"] = json!("erin@example.com");
        let (status, body) = app.post("/identity/auth/register", email_like, None).await;
        assert_eq!(status, 422);
        assert_error(&body, "validation_failed", "username must not contain @");
    }
);

both_backends!(
    register_answers_400_with_the_error_shape_for_malformed_json,
    |backend| async move {
        let app = spawn_app(backend).await;
        let response = app
            .client
            .post(app.url("/identity/auth/register"))
            .header("Content-Type", "application/json")
            .body("{\"firstName\": ")
            .send()
            .await
            .expect("request sent");
        assert_eq!(response.status().as_u16(), 400);
        let body: Value = response.json().await.expect("JSON error body");
        assert_eq!(body["code"], "bad_request");
        assert!(
            body["detail"]
                .as_str()
                .is_some_and(|d| d.starts_with("Invalid JSON body")),
            "{body}"
        );
        assert_eq!(body["message"], body["detail"]);
    }
);

both_backends!(
    register_lower_cases_and_strips_the_username,
    |backend| async move {
        let app = spawn_app(backend).await;
        let mut body = register_body("ignored");
        body["username"] = json!("  Fr ank ");
        body["email"] = json!("  Frank@Example.COM ");
        let (status, answer) = app.post("/identity/auth/register", body, None).await;
        assert_eq!(status, 201, "{answer}");
        let session = session_of(&answer);
        let (status, user) = app.get("/api/users/profile", &session.access).await;
        assert_eq!(status, 200);
        assert_eq!(user["username"], "frank");
        assert_eq!(user["email"], "frank@example.com");
        login_session(&app, "frank", PASSWORD).await;
    }
);
