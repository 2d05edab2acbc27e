//! Refresh tokens, logout, and the access tokens the server takes and refuses, on both backends.

use reqwest::Method;
use serde_json::{Value, json};

use crate::both_backends;
use crate::helpers::*;
use crate::identity::*;

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
            "/identity/auth/protected-route",
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
