use serde_json::json;

use crate::both_backends;
use crate::helpers::*;

both_backends!(register_then_login_returns_role_and_tokens, |backend| async move {
    let app = spawn_app(backend).await;
    let session = app.register("alice").await;
    let (status, body) = app.get("/api/auth/protected-route", &session.access).await;
    assert_eq!(status, 200);
    assert_eq!(body["role"], "admin");

    let (status, body) = app.login("ALICE@example.com", "correct horse").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["role"], "admin");
    assert!(body["accessToken"].as_str().is_some_and(|t| !t.is_empty()));
});

both_backends!(wrong_password_gets_invalid_credentials, |backend| async move {
    let app = spawn_app(backend).await;
    app.register("bob").await;
    let (status, body) = app.login("bob", "wrong password").await;
    assert_eq!(status, 401);
    assert_eq!(body["message"], "Invalid credentials");
    let (status, body) = app.login("nobody", "wrong password").await;
    assert_eq!(status, 401);
    assert_eq!(body["message"], "Invalid credentials");
    let _ = json!({});
});
