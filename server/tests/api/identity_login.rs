//! Signing in: by username or email, wrong passwords, throttling and lockout, on both backends.

use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::identity::*;

both_backends!(
    login_accepts_the_username_or_the_email_in_any_case,
    |backend| async move {
        let app = spawn_app(backend).await;
        app.register("grace").await;
        for identifier in [
            "grace",
            "GRACE",
            " Grace ",
            "grace@example.com",
            "Grace@EXAMPLE.com",
        ] {
            let (status, body) = app.login(identifier, PASSWORD).await;
            assert_eq!(status, 200, "{identifier}: {body}");
            assert_eq!(body["role"], "admin");
            let session = session_of(&body);
            let (status, _) = app.get("/api/auth/protected-route", &session.access).await;
            assert_eq!(status, 200);
        }
    }
);

both_backends!(
    login_answers_the_same_401_for_a_wrong_password_and_an_unknown_user,
    |backend| async move {
        let app = spawn_app(backend).await;
        app.register("bob").await;
        let (status, wrong_password) = app.login("bob", "wrong password").await;
        assert_eq!(status, 401);
        assert_eq!(wrong_password["message"], "Invalid credentials");
        assert_eq!(wrong_password["code"], "invalid_credentials");
        let (status, unknown) = app.login("nobody", "wrong password").await;
        assert_eq!(status, 401);
        // No hint which part was wrong: the two answers are the same.
        assert_eq!(unknown, wrong_password);

        let (status, body) = app
            .post("/identity/auth/login", json!({"password": PASSWORD}), None)
            .await;
        assert_eq!(status, 422);
        assert_error(&body, "validation_failed", "emailOrUsername is required");
        let (status, body) = app
            .post(
                "/identity/auth/login",
                json!({"emailOrUsername": "bob"}),
                None,
            )
            .await;
        assert_eq!(status, 422);
        assert_error(&body, "validation_failed", "password is required");
    }
);

/// Sends a login and answers (status, Retry-After header, body).
async fn login_raw(app: &TestApp, identifier: &str, password: &str) -> (u16, Option<u64>, Value) {
    let response = app
        .client
        .post(app.url("/identity/auth/login"))
        .json(&json!({"emailOrUsername": identifier, "password": password}))
        .send()
        .await
        .expect("request sent");
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("Retry-After")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    (
        status,
        retry_after,
        response.json().await.expect("JSON body"),
    )
}

/// Test settings whose sign-in throttle allows `per_account` failures of one account and
/// `per_address` of one client address.
async fn throttled(
    backend: Backend,
    per_account: u32,
    per_address: u32,
) -> (parley_server::config::Settings, tempfile::TempDir) {
    let (mut settings, dir) = test_settings(backend).await;
    settings.auth.max_failed_logins_per_account = per_account;
    settings.auth.max_failed_logins_per_address = per_address;
    (settings, dir)
}

both_backends!(
    repeated_failed_logins_lock_the_account_with_429_and_retry_after,
    |backend| async move {
        let (mut settings, dir) = throttled(backend, 3, 100).await;
        settings.auth.lockout_secs = 120;
        let app = spawn_with(settings, dir).await;
        app.register("heidi").await;
        app.register("ivan").await;

        for _ in 0..3 {
            let (status, retry_after, _) = login_raw(&app, "heidi", "wrong password").await;
            assert_eq!((status, retry_after), (401, None));
        }
        // Locked: even the right password is refused.
        let (status, retry_after, body) = login_raw(&app, "heidi", PASSWORD).await;
        assert_eq!(status, 429, "{body}");
        let retry_after = retry_after.expect("Retry-After header");
        assert!((1..=120).contains(&retry_after), "{retry_after}");
        assert_error(
            &body,
            "too_many_requests",
            &format!("Too many attempts; try again in {retry_after} seconds"),
        );
        // The lock is on the account, whichever of its names is typed.
        let (status, _, _) = login_raw(&app, "HEIDI@example.com", PASSWORD).await;
        assert_eq!(status, 429);
        // Other accounts from the same address are not affected.
        let (status, _, _) = login_raw(&app, "ivan", PASSWORD).await;
        assert_eq!(status, 200);
    }
);

both_backends!(
    failures_by_username_and_by_email_count_against_the_same_account,
    |backend| async move {
        let (settings, dir) = throttled(backend, 3, 100).await;
        let app = spawn_with(settings, dir).await;
        app.register("judy").await;
        for identifier in ["judy", "judy@example.com", "JUDY"] {
            let (status, _, _) = login_raw(&app, identifier, "wrong password").await;
            assert_eq!(status, 401);
        }
        let (status, retry_after, _) = login_raw(&app, "judy", PASSWORD).await;
        assert_eq!(status, 429);
        assert!(retry_after.is_some());
    }
);

both_backends!(
    a_success_clears_the_accounts_earlier_failures,
    |backend| async move {
        let (settings, dir) = throttled(backend, 3, 100).await;
        let app = spawn_with(settings, dir).await;
        app.register("kate").await;
        for _ in 0..2 {
            assert_eq!(app.login("kate", "wrong password").await.0, 401);
        }
        login_session(&app, "kate", PASSWORD).await;
        for _ in 0..2 {
            assert_eq!(app.login("kate", "wrong password").await.0, 401);
        }
        login_session(&app, "kate", PASSWORD).await;
    }
);

both_backends!(
    repeated_failed_logins_from_one_address_lock_that_address,
    |backend| async move {
        let (settings, dir) = throttled(backend, 100, 3).await;
        let app = spawn_with(settings, dir).await;
        app.register("leo").await;
        for name in ["ghost1", "ghost2", "ghost3"] {
            let (status, _, body) = login_raw(&app, name, "wrong password").await;
            assert_eq!(status, 401);
            assert_eq!(body["message"], "Invalid credentials");
        }
        // The address is locked: an account with no failures of its own is refused from it too.
        let (status, retry_after, body) = login_raw(&app, "leo", PASSWORD).await;
        assert_eq!(status, 429, "{body}");
        assert!(retry_after.is_some_and(|s| s >= 1));
        assert_eq!(body["code"], "too_many_requests");
    }
);

both_backends!(
    behind_a_configured_proxy_the_forwarded_address_is_throttled,
    |backend| async move {
        let (mut settings, dir) = throttled(backend, 100, 3).await;
        settings.auth.client_address_header = "X-Forwarded-For".into();
        let app = spawn_with(settings, dir).await;
        app.register("lena").await;
        let login_from = |address: &'static str, password: &'static str| {
            app.client
                .post(app.url("/identity/auth/login"))
                // The proxy appends the client it saw; what the client sent before does not count.
                .header("X-Forwarded-For", format!("198.51.100.9, {address}"))
                .json(&json!({"emailOrUsername": "lena", "password": password}))
                .send()
        };
        for _ in 0..3 {
            let response = login_from("203.0.113.1", "wrong password")
                .await
                .expect("sent");
            assert_eq!(response.status().as_u16(), 401);
        }
        let response = login_from("203.0.113.1", PASSWORD).await.expect("sent");
        assert_eq!(response.status().as_u16(), 429);
        // Other clients behind the same proxy are not locked out.
        let response = login_from("203.0.113.2", PASSWORD).await.expect("sent");
        assert_eq!(response.status().as_u16(), 200);
    }
);

both_backends!(
    a_sign_in_under_a_name_of_any_length_is_refused_and_counted_not_a_server_error,
    |backend| async move {
        let (settings, dir) = throttled(backend, 2, 100).await;
        let app = spawn_with(settings, dir).await;
        let name = |seed| unrepeated_letters(4000, seed);
        for _ in 0..2 {
            let (status, _, body) = login_raw(&app, &name(1), "wrong password").await;
            assert_eq!(status, 401, "{body}");
        }
        let (status, retry_after, body) = login_raw(&app, &name(1), "wrong password").await;
        assert_eq!(status, 429, "{body}");
        assert!(retry_after.is_some());
        // Another long name has counts of its own.
        let (status, _, body) = login_raw(&app, &name(2), "wrong password").await;
        assert_eq!(status, 401, "{body}");
    }
);
