//! The identity service (`/identity`) and the identity routes of the main API, on both backends.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use reqwest::Method;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;

fn register_body(username: &str) -> Value {
    json!({
        "firstName": "Test",
        "lastName": username,
        "username": username,
        "email": format!("{username}@example.com"),
        "password": PASSWORD,
    })
}

fn agent_body(username: &str, password: &str) -> Value {
    json!({
        "firstName": "Agent",
        "lastName": username,
        "username": username,
        "email": format!("{username}@example.com"),
        "password": password,
    })
}

/// The claims of one of our access tokens, checked with the app's own key.
fn claims_of(app: &TestApp, token: &str) -> Value {
    let mut validation = Validation::new(Algorithm::HS256);
    validation.validate_exp = false;
    jsonwebtoken::decode::<Value>(token, &DecodingKey::from_secret(&jwt_key(app)), &validation)
        .expect("token decodes with the app's key")
        .claims
}

/// The generated signing key: the hex string in the data dir, used as raw bytes.
fn jwt_key(app: &TestApp) -> Vec<u8> {
    std::fs::read_to_string(app.data_dir.path().join("jwt.key"))
        .expect("jwt.key in the data dir")
        .trim()
        .as_bytes()
        .to_vec()
}

fn sign(claims: &Value, key: &[u8]) -> String {
    jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        claims,
        &EncodingKey::from_secret(key),
    )
    .expect("token signs")
}

fn now_secs() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("clock after 1970")
        .as_secs()
}

async fn patch(app: &TestApp, path: &str, body: Value, token: &str) -> (u16, Value) {
    app.call(Method::PATCH, path, Some(body), Some(token)).await
}

async fn delete(app: &TestApp, path: &str, token: &str) -> (u16, Value) {
    app.call(Method::DELETE, path, None, Some(token)).await
}

/// Creates an agent as `owner`; answers the agent's id.
async fn create_agent(app: &TestApp, owner: &Session, username: &str) -> String {
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

async fn login_session(app: &TestApp, identifier: &str, password: &str) -> Session {
    let (status, body) = app.login(identifier, password).await;
    assert_eq!(status, 200, "login of {identifier} failed: {body}");
    session_of(&body)
}

async fn refresh(app: &TestApp, refresh_token: &str) -> (u16, Value) {
    app.post(
        "/identity/auth/refresh",
        json!({"refreshToken": refresh_token}),
        None,
    )
    .await
}

fn assert_error(body: &Value, code: &str, detail: &str) {
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(body["detail"], detail, "{body}");
    assert!(body["message"].is_string(), "{body}");
}

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

// --- login ----------------------------------------------------------------------------------

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

both_backends!(
    repeated_failed_logins_lock_the_account_with_429_and_retry_after,
    |backend| async move {
        let (mut settings, dir) = test_settings(backend).await;
        settings.auth.max_failed_logins_per_account = 3;
        settings.auth.max_failed_logins_per_address = 100;
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
        let (mut settings, dir) = test_settings(backend).await;
        settings.auth.max_failed_logins_per_account = 3;
        settings.auth.max_failed_logins_per_address = 100;
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
        let (mut settings, dir) = test_settings(backend).await;
        settings.auth.max_failed_logins_per_account = 3;
        settings.auth.max_failed_logins_per_address = 100;
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
        let (mut settings, dir) = test_settings(backend).await;
        settings.auth.max_failed_logins_per_account = 100;
        settings.auth.max_failed_logins_per_address = 3;
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
        let (mut settings, dir) = test_settings(backend).await;
        settings.auth.max_failed_logins_per_account = 100;
        settings.auth.max_failed_logins_per_address = 3;
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

// --- refresh and logout ---------------------------------------------------------------------

both_backends!(
    refresh_answers_a_new_pair_that_works,
    |backend| async move {
        let app = spawn_app(backend).await;
        let first = app.register("mallory").await;
        let (status, body) = refresh(&app, &first.refresh).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["role"], "admin");
        let second = session_of(&body);
        assert_ne!(second.refresh, first.refresh);
        let (status, body) = app.get("/api/auth/protected-route", &second.access).await;
        assert_eq!((status, body), (200, json!({"role": "admin"})));
        // The new refresh token rotates again.
        let (status, body) = refresh(&app, &second.refresh).await;
        assert_eq!(status, 200, "{body}");

        let (status, body) = refresh(&app, "no-such-token").await;
        assert_eq!(status, 401);
        assert_error(&body, "unauthorized", "Invalid or expired refresh token");
        let (status, body) = app.post("/identity/auth/refresh", json!({}), None).await;
        assert_eq!(status, 422);
        assert_error(&body, "validation_failed", "refreshToken is required");
    }
);

both_backends!(
    reusing_a_rotated_refresh_token_revokes_its_whole_family,
    |backend| async move {
        let app = spawn_app(backend).await;
        let first = app.register("niaj").await;
        let other_sign_in = login_session(&app, "niaj", PASSWORD).await;

        let (status, body) = refresh(&app, &first.refresh).await;
        assert_eq!(status, 200);
        let second = session_of(&body);

        // The spent token again: refused, and the family ends.
        let (status, body) = refresh(&app, &first.refresh).await;
        assert_eq!(status, 401);
        assert_error(
            &body,
            "unauthorized",
            "Refresh token was already used; please sign in again",
        );
        // The newest token of that family stops working too.
        let (status, body) = refresh(&app, &second.refresh).await;
        assert_eq!(status, 401);
        assert_error(&body, "unauthorized", "Invalid or expired refresh token");
        // Another sign-in of the same user is another family and keeps working.
        let (status, body) = refresh(&app, &other_sign_in.refresh).await;
        assert_eq!(status, 200, "{body}");
    }
);

both_backends!(
    logout_revokes_the_presented_tokens_family,
    |backend| async move {
        let app = spawn_app(backend).await;
        let first = app.register("olivia").await;
        let other_sign_in = login_session(&app, "olivia", PASSWORD).await;
        let (_, body) = refresh(&app, &first.refresh).await;
        let rotated = session_of(&body);

        // Logging out with the rotated token ends the family, including its older tokens.
        let (status, body) = app
            .post(
                "/identity/auth/logout",
                json!({"refreshToken": rotated.refresh}),
                None,
            )
            .await;
        assert_eq!((status, body), (200, json!({"status": "success"})));
        assert_eq!(refresh(&app, &rotated.refresh).await.0, 401);
        assert_eq!(refresh(&app, &first.refresh).await.0, 401);
        // Other sign-ins stay.
        assert_eq!(refresh(&app, &other_sign_in.refresh).await.0, 200);

        let (status, body) = app.post("/identity/auth/logout", json!({}), None).await;
        assert_eq!(status, 422);
        assert_error(&body, "validation_failed", "refreshToken is required");
    }
);

// --- access tokens --------------------------------------------------------------------------

both_backends!(
    an_expired_access_token_gets_exactly_403_token_expired,
    |backend| async move {
        let app = spawn_app(backend).await;
        let session = app.register("peggy").await;
        let claims = claims_of(&app, &session.access);
        assert_eq!(claims["role"], "admin");
        assert!(claims["sub"].is_string() && claims["bid"].is_string());
        let now = now_secs();
        let expired = sign(
            &json!({
                "sub": claims["sub"],
                "bid": claims["bid"],
                "role": "admin",
                "iat": now - 1000,
                "exp": now - 100,
            }),
            &jwt_key(&app),
        );
        for path in [
            "/api/auth/protected-route",
            "/api/users/profile",
            "/identity/users/profile",
            "/identity/users/agents",
        ] {
            let response = app
                .client
                .get(app.url(path))
                .bearer_auth(&expired)
                .send()
                .await
                .expect("request sent");
            assert_eq!(response.status().as_u16(), 403, "{path}");
            let body: Value = response.json().await.expect("JSON body");
            assert_eq!(body["message"], "Forbidden: Token expired", "{path}");
            assert_eq!(body["code"], "token_expired");
        }
    }
);

both_backends!(
    an_access_token_expires_after_the_configured_lifetime,
    |backend| async move {
        let (mut settings, dir) = test_settings(backend).await;
        settings.auth.access_token_ttl_secs = 1;
        let app = spawn_with(settings, dir).await;
        let session = app.register("quinn").await;
        assert_eq!(
            app.get("/api/auth/protected-route", &session.access)
                .await
                .0,
            200
        );
        tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
        let (status, body) = app.get("/api/auth/protected-route", &session.access).await;
        assert_eq!(status, 403);
        assert_eq!(body["message"], "Forbidden: Token expired");
        // The refresh token still gets a fresh pair.
        let (status, body) = refresh(&app, &session.refresh).await;
        assert_eq!(status, 200);
        let fresh = session_of(&body);
        assert_eq!(
            app.get("/api/auth/protected-route", &fresh.access).await.0,
            200
        );
    }
);

both_backends!(
    a_missing_garbage_or_foreign_access_token_gets_401,
    |backend| async move {
        let app = spawn_app(backend).await;
        let session = app.register("rupert").await;

        let (status, body) = app
            .call(Method::GET, "/api/auth/protected-route", None, None)
            .await;
        assert_eq!(status, 401);
        assert_error(&body, "unauthorized", "Missing bearer token");

        let (status, body) = app.get("/api/auth/protected-route", "not.a.token").await;
        assert_eq!(status, 401);
        assert_error(&body, "unauthorized", "Invalid token");

        // Signed with another key, even when expired: 401, never the 403 that invites a refresh.
        let claims = claims_of(&app, &session.access);
        let now = now_secs();
        for exp in [now + 600, now - 600] {
            let foreign = sign(
                &json!({"sub": claims["sub"], "bid": claims["bid"], "role": "admin",
                    "iat": now, "exp": exp}),
                b"some other key entirely, not this server's",
            );
            let (status, body) = app.get("/api/auth/protected-route", &foreign).await;
            assert_eq!(status, 401, "{body}");
            assert_error(&body, "unauthorized", "Invalid token");
        }

        // Not a bearer credential at all.
        let response = app
            .client
            .get(app.url("/api/auth/protected-route"))
            .header("Authorization", format!("Basic {}", session.access))
            .send()
            .await
            .expect("request sent");
        assert_eq!(response.status().as_u16(), 401);
        // The scheme name is case-insensitive.
        let response = app
            .client
            .get(app.url("/api/auth/protected-route"))
            .header("Authorization", format!("bearer {}", session.access))
            .send()
            .await
            .expect("request sent");
        assert_eq!(response.status().as_u16(), 200);
    }
);

both_backends!(
    protected_route_answers_the_role_and_refuses_a_deleted_agents_token,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("sybil").await;
        let (status, body) = app.get("/api/auth/protected-route", &owner.access).await;
        assert_eq!((status, body), (200, json!({"role": "admin"})));

        let agent_id = create_agent(&app, &owner, "sybil-agent").await;
        let agent = login_session(&app, "sybil-agent", PASSWORD).await;
        let (status, body) = app.get("/api/auth/protected-route", &agent.access).await;
        assert_eq!((status, body), (200, json!({"role": "agent"})));

        let (status, _) = delete(
            &app,
            &format!("/identity/users/agents/{agent_id}"),
            &owner.access,
        )
        .await;
        assert_eq!(status, 200);
        // The token has not expired, but its account is gone.
        let (status, body) = app.get("/api/auth/protected-route", &agent.access).await;
        assert_eq!(status, 401);
        assert_error(
            &body,
            "token_revoked",
            "Session revoked; please sign in again",
        );
        let (status, _) = app.get("/identity/users/profile", &agent.access).await;
        assert_eq!(status, 401);
        let (status, _) = app.get("/api/users/profile", &agent.access).await;
        assert_eq!(status, 401);
        // Its refresh tokens went with it.
        assert_eq!(refresh(&app, &agent.refresh).await.0, 401);
    }
);

// --- profile --------------------------------------------------------------------------------

const CREDENTIAL_FIELDS: [&str; 6] = [
    "phoneNumberId",
    "accessToken",
    "verifyToken",
    "phoneNumber",
    "whatsappBusinessAccountID",
    "appId",
];

both_backends!(
    the_owners_profile_shows_the_sandbox_credentials_given_at_registration,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("trent").await;
        let (status, profile) = app.get("/identity/users/profile", &owner.access).await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["username"], "trent");
        assert_eq!(profile["email"], "trent@example.com");
        assert_eq!(profile["firstName"], "Test");
        assert_eq!(profile["lastName"], "trent");
        assert_eq!(profile["role"], "admin");
        assert_eq!(profile["language"], "en");
        for field in CREDENTIAL_FIELDS {
            assert!(
                profile[field].as_str().is_some_and(|v| !v.is_empty()),
                "{field} missing: {profile}"
            );
        }
        assert_eq!(profile["appSecretSet"], true);
        assert!(profile.get("appSecret").is_none(), "{profile}");
        assert!(profile.get("password_hash").is_none() && profile.get("passwordHash").is_none());
    }
);

both_backends!(
    the_owner_patches_credentials_and_names_and_the_app_secret_stays_write_only,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("uma").await;
        let secret = "a-very-secret-app-secret";
        let (status, profile) = patch(
            &app,
            "/identity/users/profile",
            json!({
                "firstName": "Uma",
                "lastName": "Thurman",
                "phoneNumberId": " 109876543210 ",
                "accessToken": "EAAG-new-token",
                "verifyToken": "verify-me",
                "phoneNumber": "+1 555 0100",
                "whatsappBusinessAccountID": "waba-42",
                "appId": "app-7",
                "appSecret": secret,
                "language": "ar",
            }),
            &owner.access,
        )
        .await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["firstName"], "Uma");
        assert_eq!(profile["lastName"], "Thurman");
        assert_eq!(profile["phoneNumberId"], "109876543210");
        assert_eq!(profile["accessToken"], "EAAG-new-token");
        assert_eq!(profile["verifyToken"], "verify-me");
        assert_eq!(profile["phoneNumber"], "1 555 0100");
        assert_eq!(profile["whatsappBusinessAccountID"], "waba-42");
        assert_eq!(profile["appId"], "app-7");
        assert_eq!(profile["language"], "ar");
        assert_eq!(profile["appSecretSet"], true);
        assert!(!profile.to_string().contains(secret), "{profile}");

        // A GET agrees, and an empty appSecret in a later form leaves the secret alone.
        let (status, again) = patch(
            &app,
            "/identity/users/profile",
            json!({"appSecret": "", "firstName": "  "}),
            &owner.access,
        )
        .await;
        assert_eq!(status, 200);
        let (_, fetched) = app.get("/identity/users/profile", &owner.access).await;
        assert_eq!(again, fetched);
        assert_eq!(fetched["firstName"], "Uma");
        assert_eq!(fetched["appSecretSet"], true);
        assert!(!fetched.to_string().contains(secret));

        let (status, body) = patch(
            &app,
            "/identity/users/profile",
            json!({"language": "fr"}),
            &owner.access,
        )
        .await;
        assert_eq!(status, 422);
        assert_error(&body, "validation_failed", "language must be en or ar");
    }
);

both_backends!(
    an_agent_cannot_patch_credentials_and_does_not_see_the_access_token,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("victor").await;
        create_agent(&app, &owner, "victor-agent").await;
        let agent = login_session(&app, "victor-agent", PASSWORD).await;
        let (_, owner_profile) = app.get("/identity/users/profile", &owner.access).await;

        let (status, profile) = app.get("/identity/users/profile", &agent.access).await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["role"], "agent");
        assert_eq!(profile["username"], "victor-agent");
        // The agent works the owner's number but does not hold its secrets.
        assert_eq!(profile["phoneNumberId"], owner_profile["phoneNumberId"]);
        for hidden in ["accessToken", "verifyToken", "appSecretSet", "appSecret"] {
            assert!(profile.get(hidden).is_none(), "{hidden}: {profile}");
        }
        let owner_token = owner_profile["accessToken"].as_str().expect("token");
        assert!(!profile.to_string().contains(owner_token));

        for change in [
            json!({"accessToken": "stolen"}),
            json!({"phoneNumberId": "1"}),
            json!({"appSecret": "x"}),
            json!({"firstName": "Sneaky", "verifyToken": "x"}),
        ] {
            let (status, body) =
                patch(&app, "/identity/users/profile", change, &agent.access).await;
            assert_eq!(status, 403, "{body}");
            assert_error(&body, "forbidden", "Only the account owner can do this");
        }
        let (_, unchanged) = app.get("/identity/users/profile", &owner.access).await;
        assert_eq!(unchanged, owner_profile);

        // Names and language are the agent's own to change.
        let (status, profile) = patch(
            &app,
            "/identity/users/profile",
            json!({"firstName": "Vic", "language": "ar"}),
            &agent.access,
        )
        .await;
        assert_eq!(status, 200, "{profile}");
        assert_eq!(profile["firstName"], "Vic");
        assert_eq!(profile["language"], "ar");
        let (_, owner_after) = app.get("/identity/users/profile", &owner.access).await;
        assert_eq!(owner_after["firstName"], "Test");
    }
);

both_backends!(
    a_phone_number_id_of_another_business_is_a_409,
    |backend| async move {
        let app = spawn_app(backend).await;
        let alpha = app.register("walter").await;
        let beta = app.register("xena").await;
        let (_, alpha_profile) = app.get("/identity/users/profile", &alpha.access).await;
        let (_, beta_before) = app.get("/identity/users/profile", &beta.access).await;
        let (status, body) = patch(
            &app,
            "/identity/users/profile",
            json!({"phoneNumberId": alpha_profile["phoneNumberId"]}),
            &beta.access,
        )
        .await;
        assert_eq!(status, 409, "{body}");
        assert_error(
            &body,
            "phone_number_id_taken",
            "This phoneNumberId is already used by another business",
        );
        let (_, beta_after) = app.get("/identity/users/profile", &beta.access).await;
        assert_eq!(beta_after, beta_before);
        // Setting one's own number again is no conflict.
        let (status, _) = patch(
            &app,
            "/identity/users/profile",
            json!({"phoneNumberId": beta_before["phoneNumberId"]}),
            &beta.access,
        )
        .await;
        assert_eq!(status, 200);
    }
);

both_backends!(
    the_user_profile_reports_the_language_and_toggling_flips_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("yara").await;
        let (status, user) = app.get("/api/users/profile", &owner.access).await;
        assert_eq!(status, 200);
        assert_eq!(user["language"], "en");
        assert_eq!(user["username"], "yara");
        assert_eq!(user["role"], "admin");
        assert!(user.get("password_hash").is_none());

        for expected in ["ar", "en", "ar"] {
            let (status, body) = app
                .call(
                    Method::PATCH,
                    "/api/users/toggle-language",
                    None,
                    Some(&owner.access),
                )
                .await;
            assert_eq!((status, body), (200, json!({"language": expected})));
            let (_, user) = app.get("/api/users/profile", &owner.access).await;
            assert_eq!(user["language"], expected);
        }
        let (status, _) = app
            .call(Method::PATCH, "/api/users/toggle-language", None, None)
            .await;
        assert_eq!(status, 401);
    }
);

// --- agents ---------------------------------------------------------------------------------

both_backends!(
    the_owner_creates_lists_edits_and_deletes_agents,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("zoe").await;
        let (status, list) = app.get("/identity/users/agents", &owner.access).await;
        assert_eq!((status, list), (200, json!([])));

        let (status, agent) = app
            .post(
                "/identity/users/agents",
                json!({
                    "firstName": " Agent ",
                    "lastName": "Zoe",
                    "username": " Zoe Agent ",
                    "email": " ZoeAgent@Example.com ",
                    "password": PASSWORD,
                }),
                Some(&owner.access),
            )
            .await;
        assert_eq!(status, 201, "{agent}");
        assert_eq!(agent["username"], "zoeagent");
        assert_eq!(agent["role"], "agent");
        assert_eq!(agent["firstName"], "Agent");
        assert_eq!(agent["email"], "zoeagent@example.com");
        assert!(agent.get("password_hash").is_none() && agent.get("password").is_none());
        let id = agent["_id"].as_str().expect("id").to_string();
        let second = create_agent(&app, &owner, "zoe-second").await;

        let (status, list) = app.get("/identity/users/agents", &owner.access).await;
        assert_eq!(status, 200);
        let ids: Vec<&str> = list
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|a| a["_id"].as_str())
            .collect();
        assert_eq!(ids, [id.as_str(), second.as_str()]);
        assert_eq!(list[0], agent);

        let (status, edited) = patch(
            &app,
            &format!("/identity/users/agents/{id}"),
            json!({"firstName": "Renamed", "lastName": "", "email": "Zoe.Agent@Example.com"}),
            &owner.access,
        )
        .await;
        assert_eq!(status, 200, "{edited}");
        assert_eq!(edited["firstName"], "Renamed");
        assert_eq!(edited["lastName"], "Zoe");
        assert_eq!(edited["email"], "zoe.agent@example.com");
        assert_eq!(edited["_id"], id);

        // A name taken by someone else is a 409.
        let (status, body) = patch(
            &app,
            &format!("/identity/users/agents/{id}"),
            json!({"username": "zoe-second"}),
            &owner.access,
        )
        .await;
        assert_eq!(status, 409);
        assert_error(&body, "conflict", "Username already exists");
        let (status, body) = app
            .post(
                "/identity/users/agents",
                agent_body("zoe", PASSWORD),
                Some(&owner.access),
            )
            .await;
        assert_eq!(status, 409);
        assert_error(&body, "conflict", "Username already exists");
        let mut no_email = agent_body("newbie", PASSWORD);
        no_email.as_object_mut().expect("object").remove("email");
        let (status, body) = app
            .post("/identity/users/agents", no_email, Some(&owner.access))
            .await;
        assert_eq!(status, 422);
        assert_error(&body, "validation_failed", "email is required");

        let (status, body) =
            delete(&app, &format!("/identity/users/agents/{id}"), &owner.access).await;
        assert_eq!((status, body), (200, json!({"status": "success"})));
        let (_, list) = app.get("/identity/users/agents", &owner.access).await;
        assert_eq!(list.as_array().map(Vec::len), Some(1));
        assert_eq!(app.login("zoeagent", PASSWORD).await.0, 401);
        let (status, body) =
            delete(&app, &format!("/identity/users/agents/{id}"), &owner.access).await;
        assert_eq!(status, 404);
        assert_error(&body, "not_found", "Agent not found");
    }
);

both_backends!(
    the_agent_signs_in_with_role_agent_in_the_owners_business,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("amber").await;
        // A business id in the form is ignored: an agent always joins the owner's business.
        let other = app.register("basil").await;
        let other_bid = claims_of(&app, &other.access)["bid"].clone();
        let mut body = agent_body("amber-agent", PASSWORD);
        body["businessId"] = other_bid.clone();
        body["bid"] = other_bid.clone();
        body["role"] = json!("admin");
        let (status, created) = app
            .post("/identity/users/agents", body, Some(&owner.access))
            .await;
        assert_eq!(status, 201, "{created}");
        assert_eq!(created["role"], "agent");

        let (status, answer) = app.login("amber-agent@example.com", PASSWORD).await;
        assert_eq!(status, 200);
        assert_eq!(answer["role"], "agent");
        let agent = session_of(&answer);
        let claims = claims_of(&app, &agent.access);
        assert_eq!(claims["role"], "agent");
        assert_eq!(claims["bid"], claims_of(&app, &owner.access)["bid"]);
        assert_ne!(claims["bid"], other_bid);
        // Refresh keeps the role.
        let (status, body) = refresh(&app, &agent.refresh).await;
        assert_eq!(status, 200);
        assert_eq!(body["role"], "agent");
    }
);

both_backends!(
    an_empty_password_keeps_the_agents_old_one_and_a_new_one_replaces_it,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("cyrus").await;
        let id = create_agent(&app, &owner, "cyrus-agent").await;
        let path = format!("/identity/users/agents/{id}");
        let before = login_session(&app, "cyrus-agent", PASSWORD).await;

        let (status, body) = patch(
            &app,
            &path,
            json!({"firstName": "Kept", "password": ""}),
            &owner.access,
        )
        .await;
        assert_eq!(status, 200, "{body}");
        login_session(&app, "cyrus-agent", PASSWORD).await;
        // Keeping the password keeps the sessions.
        assert_eq!(refresh(&app, &before.refresh).await.0, 200);

        let (status, body) = patch(&app, &path, json!({"password": "short"}), &owner.access).await;
        assert_eq!(status, 422);
        assert_error(
            &body,
            "validation_failed",
            "password must be at least 8 characters",
        );

        let after_keep = login_session(&app, "cyrus-agent", PASSWORD).await;
        let (status, _) = patch(
            &app,
            &path,
            json!({"password": "brand new password"}),
            &owner.access,
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(app.login("cyrus-agent", PASSWORD).await.0, 401);
        let (status, body) = app.login("cyrus-agent", "brand new password").await;
        assert_eq!(status, 200);
        assert_eq!(body["role"], "agent");
        // A new password ends the sessions signed in with the old one.
        assert_eq!(refresh(&app, &after_keep.refresh).await.0, 401);
    }
);

both_backends!(
    an_agent_gets_403_on_every_agents_route,
    |backend| async move {
        let app = spawn_app(backend).await;
        let owner = app.register("diana").await;
        let id = create_agent(&app, &owner, "diana-agent").await;
        let other_id = create_agent(&app, &owner, "diana-other").await;
        let agent = login_session(&app, "diana-agent", PASSWORD).await;

        let calls = [
            (Method::GET, "/identity/users/agents".to_string(), None),
            (
                Method::POST,
                "/identity/users/agents".to_string(),
                Some(agent_body("diana-third", PASSWORD)),
            ),
            (
                Method::PATCH,
                format!("/identity/users/agents/{other_id}"),
                Some(json!({"password": "taken over!"})),
            ),
            (
                Method::PATCH,
                format!("/identity/users/agents/{id}"),
                Some(json!({"firstName": "Self"})),
            ),
            (
                Method::DELETE,
                format!("/identity/users/agents/{other_id}"),
                None,
            ),
        ];
        for (method, path, body) in calls {
            let (status, answer) = app
                .call(method.clone(), &path, body, Some(&agent.access))
                .await;
            assert_eq!(status, 403, "{method} {path}: {answer}");
            assert_error(&answer, "forbidden", "Only the account owner can do this");
        }
        // Nothing changed.
        let (_, list) = app.get("/identity/users/agents", &owner.access).await;
        assert_eq!(list.as_array().map(Vec::len), Some(2));
        assert_eq!(app.login("diana-other", PASSWORD).await.0, 200);
        assert_eq!(app.login("diana-third", PASSWORD).await.0, 401);
    }
);

// --- tenant isolation -----------------------------------------------------------------------

both_backends!(
    an_owner_cannot_read_change_or_delete_another_businesss_agents,
    |backend| async move {
        let app = spawn_app(backend).await;
        let alpha = app.register("ellen").await;
        let beta = app.register("felix").await;
        let alpha_agent = create_agent(&app, &alpha, "ellen-agent").await;
        let beta_agent = create_agent(&app, &beta, "felix-agent").await;
        let beta_owner_id = claims_of(&app, &beta.access)["sub"]
            .as_str()
            .expect("sub")
            .to_string();

        let (_, alpha_list) = app.get("/identity/users/agents", &alpha.access).await;
        let alpha_ids: Vec<&str> = alpha_list
            .as_array()
            .expect("a list")
            .iter()
            .filter_map(|a| a["_id"].as_str())
            .collect();
        assert_eq!(alpha_ids, [alpha_agent.as_str()]);

        for target in [&beta_agent, &beta_owner_id] {
            let path = format!("/identity/users/agents/{target}");
            let (status, body) = patch(
                &app,
                &path,
                json!({"password": "hijacked password", "email": "mine@example.com"}),
                &alpha.access,
            )
            .await;
            assert_eq!(status, 404, "{body}");
            assert_error(&body, "not_found", "Agent not found");
            let (status, body) = delete(&app, &path, &alpha.access).await;
            assert_eq!(status, 404, "{body}");
            assert_error(&body, "not_found", "Agent not found");
        }
        // An owner cannot edit or delete themself through the agents routes either.
        let alpha_id = claims_of(&app, &alpha.access)["sub"].clone();
        let own = format!("/identity/users/agents/{}", alpha_id.as_str().expect("sub"));
        assert_eq!(delete(&app, &own, &alpha.access).await.0, 404);

        // Beta's people are untouched.
        assert_eq!(app.login("felix-agent", PASSWORD).await.0, 200);
        assert_eq!(app.login("felix", PASSWORD).await.0, 200);
        let (_, beta_list) = app.get("/identity/users/agents", &beta.access).await;
        assert_eq!(beta_list[0]["_id"], beta_agent.as_str());
        assert_eq!(beta_list[0]["email"], "felix-agent@example.com");
    }
);

both_backends!(
    profile_calls_never_show_or_change_another_businesss_data,
    |backend| async move {
        let app = spawn_app(backend).await;
        let alpha = app.register("gina").await;
        let beta = app.register("hugo").await;
        let (_, beta_before) = app.get("/identity/users/profile", &beta.access).await;

        let (status, alpha_profile) = patch(
            &app,
            "/identity/users/profile",
            json!({"firstName": "Gina", "accessToken": "alpha-token"}),
            &alpha.access,
        )
        .await;
        assert_eq!(status, 200);
        assert_eq!(alpha_profile["username"], "gina");
        let alpha_text = alpha_profile.to_string();
        for field in CREDENTIAL_FIELDS {
            let theirs = beta_before[field].as_str().expect("credential");
            assert!(!alpha_text.contains(theirs), "{field} of beta leaked");
        }
        assert!(!alpha_text.contains("hugo"));
        let (_, beta_after) = app.get("/identity/users/profile", &beta.access).await;
        assert_eq!(beta_after, beta_before);
        let (_, alpha_user) = app.get("/api/users/profile", &alpha.access).await;
        assert_eq!(alpha_user["username"], "gina");
    }
);

// --- health ---------------------------------------------------------------------------------

both_backends!(
    health_head_answers_200_with_an_empty_body_and_get_reports_the_database,
    |backend| async move {
        let app = spawn_app(backend).await;
        let response = app
            .client
            .head(app.url("/api/health"))
            .send()
            .await
            .expect("request sent");
        assert_eq!(response.status().as_u16(), 200);
        assert!(response.bytes().await.expect("body").is_empty());

        let (status, body) = app.call(Method::GET, "/api/health", None, None).await;
        assert_eq!(status, 200);
        let expected_backend = match backend {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        };
        assert_eq!(
            body,
            json!({"status": "ok", "database": "reachable", "backend": expected_backend})
        );
    }
);
